//! Shape casts on the pipeline bench's 100 k-shape scene (a third each circles, AABBs and
//! OBBs, 30 % covered), one thread: `SceneIndex::cast_shape` on a grid built once, next to
//! parry2d's scene cast through its BVH (the leaves under the swept box by `intersect_aabb`,
//! `query::cast_shapes` on each, the earliest kept), and next to brute force (`Shape::sweep`
//! against every shape). The probes are bullets (circles of radius 0.1 and capsules 0.5 long)
//! and crates (OBBs of half extents 0.5), moving 10 units in a random direction from a random
//! point. Elements are casts.
//!
//! `cargo bench -p widephase-bench --bench casts`.

mod support;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use parry2d::bounding_volume::Aabb as ParryAabb;
use parry2d::math::{Pose, Vector};
use parry2d::query::{ShapeCastOptions, cast_shapes};
use parry2d::shape::Shape as ParryShape;
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use std::hint::black_box;
use std::time::Duration;
use support::{ParryTwin, parry_build, parry_scene, scene};
use widephase::{Capsule, Circle, Obb, PairFinder, Shape, Sweep};

fn casts(c: &mut Criterion) {
    const N: usize = 100_000;
    const CASTS: usize = 2048;
    const BRUTE: usize = 16;
    const REACH: f32 = 10.0;
    let scene = scene(N, 7);
    let shapes: Vec<(u32, Shape)> = scene.iter().collect();
    let peer = parry_scene(&scene);
    let bvh = parry_build(&peer);
    let side = shapes
        .iter()
        .map(|(_, s)| s.bounding_box().max_x)
        .fold(0.0f32, f32::max);
    let mut rng = SmallRng::seed_from_u64(12);
    let probes: Vec<(Shape, [f32; 2])> = (0..CASTS)
        .map(|i| {
            let (x, y) = (rng.random_range(0.0..side), rng.random_range(0.0..side));
            let angle: f32 = rng.random_range(-3.2..3.2);
            let m = [REACH * angle.cos(), REACH * angle.sin()];
            let s: Shape = match i % 3 {
                0 => Circle::new(x, y, 0.1).into(),
                1 => Capsule::new(x - 0.25, y, x + 0.25, y, 0.1).into(),
                _ => Obb::new(x, y, 0.5, 0.5, angle).into(),
            };
            (s, m)
        })
        .collect();
    let options = ShapeCastOptions {
        max_time_of_impact: 1.0,
        target_distance: 0.0,
        stop_at_penetration: true,
        compute_impact_geometry_on_penetration: false,
    };
    let to_parry = |s: &Shape| -> (Pose, Box<dyn ParryShape>) {
        match s {
            Shape::Circle(c) => {
                let (p, b) = c.to_parry();
                (p, Box::new(b))
            }
            Shape::Capsule(c) => {
                let (p, b) = c.to_parry();
                (p, Box::new(b))
            }
            Shape::Obb(o) => {
                let (p, b) = o.to_parry();
                (p, Box::new(b))
            }
            _ => unreachable!("the probes are circles, capsules and boxes"),
        }
    };
    let parry_probes: Vec<_> = probes.iter().map(|(s, m)| (to_parry(s), *m)).collect();
    let parry_cast = |((pose, shape), m): &((Pose, Box<dyn ParryShape>), [f32; 2])| {
        let b = shape.compute_aabb(pose);
        let moved = b.transform_by(&Pose::translation(m[0], m[1]));
        let swept = ParryAabb::new(b.mins.min(moved.mins), b.maxs.max(moved.maxs));
        let vel = Vector::new(m[0], m[1]);
        let mut best: Option<(u32, f32)> = None;
        for leaf in bvh.intersect_aabb(&swept) {
            let (p2, s2) = &peer[leaf as usize];
            if let Some(hit) =
                cast_shapes(pose, vel, &**shape, p2, Vector::ZERO, &**s2, options).unwrap()
                && best.is_none_or(|(_, t)| hit.time_of_impact < t)
            {
                best = Some((leaf, hit.time_of_impact));
            }
        }
        best
    };
    let brute = |(probe, m): &(Shape, [f32; 2])| {
        let mut best: Option<(u32, Sweep)> = None;
        for (id, s) in &shapes {
            if let Some(sw) = probe.sweep(s, *m)
                && best.is_none_or(|(_, b)| sw.t < b.t)
            {
                best = Some((*id, sw));
            }
        }
        best
    };

    let mut finder = PairFinder::new();
    let index = finder.index(&scene);
    // The contenders must agree on the casts that start apart from every shape (parry2d
    // reports every overlap at the start at 0, whatever the motion).
    let (mut apart, mut agree, mut hits) = (0, 0, 0);
    let mut ids = Vec::new();
    for (i, (probe, m)) in probes.iter().enumerate() {
        let ours = index.cast_shape(probe, *m);
        if i < BRUTE {
            let want = brute(&probes[i]);
            assert_eq!(
                ours.map(|h| h.1.t),
                want.map(|h| h.1.t),
                "cast {i}: brute force"
            );
        }
        index.query_shape(probe, &mut ids);
        if !ids.is_empty() {
            continue;
        }
        apart += 1;
        hits += usize::from(ours.is_some());
        agree += usize::from(match (ours, parry_cast(&parry_probes[i])) {
            (None, None) => true,
            (Some((_, s)), Some((_, t))) => (s.t - t).abs() * REACH <= 1e-3,
            _ => false,
        });
    }
    assert!(
        agree * 100 >= apart * 99 && hits * 2 > apart,
        "of {apart} casts apart at the start ({hits} hits), parry2d agrees on {agree}"
    );
    eprintln!("casts/100k: {hits} of {apart} casts apart at the start hit within {REACH}");

    let mut group = c.benchmark_group("casts/100k");
    group
        .throughput(Throughput::Elements(CASTS as u64))
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    group.bench_function("widephase", |b| {
        b.iter(|| {
            probes
                .iter()
                .filter_map(|(s, m)| index.cast_shape(black_box(s), *m))
                .count()
        })
    });
    group.bench_function("parry2d", |b| {
        b.iter(|| {
            parry_probes
                .iter()
                .filter_map(|p| parry_cast(black_box(p)))
                .count()
        })
    });
    group.finish();
    let mut group = c.benchmark_group("casts/100k-brute");
    group
        .throughput(Throughput::Elements(BRUTE as u64))
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    group.bench_function("brute force", |b| {
        b.iter(|| {
            probes[..BRUTE]
                .iter()
                .filter_map(|p| brute(black_box(p)))
                .count()
        })
    });
    group.finish();
}

criterion_group!(benches, casts);
criterion_main!(benches);

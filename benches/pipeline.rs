//! A whole frame of the broadphase pipeline (bounding boxes and grid, candidate pairs, packing,
//! kernels, sorted answer) on a mixed scene, one thread and all threads, next to parry2d's BVH:
//! `Bvh::from_leaves` + `traverse_bvtt_single_tree` + `intersection_test` on each candidate, with
//! and without the build.
//!
//! Scene: a third each circles, AABBs and OBBs, half extents uniform in 0.5–1.5, positions
//! uniform in a square sized so the shapes' areas add up to 30 % of it.
//!
//! `cargo bench --bench pipeline` (filter with e.g. `-- 100k`). Elements are shapes. The phase
//! split of one frame per size is printed to stderr.
//!
//! Also queries on the 100 k scene (`-- queries`; elements are queries): nearest-hit ray casts
//! of length 50 from random points in random directions, and boxes of side 4, with the grid
//! built once (`PairFinder::index`), next to parry2d's `Bvh::cast_ray` and
//! `Bvh::intersect_aabb` + `intersection_test` on the same BVH.

mod support;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use parry2d::bounding_volume::Aabb as ParryAabb;
use parry2d::math::{Pose, Vector};
use parry2d::partitioning::{Bvh, BvhBuildStrategy, BvhWorkspace};
use parry2d::query::{Ray as ParryRay, intersection_test};
use parry2d::shape::Shape as ParryShape;
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use std::hint::black_box;
use std::time::Duration;
use support::{BenchShape, Gen};
use widephase::{Aabb, PairFinder, Ray, Scene, Shape};

/// The benchmark scene (see [`support::Gen::mixed_scene`]).
fn scene(n: usize, seed: u64) -> Scene {
    Gen::new(seed).mixed_scene(n).into_iter().collect()
}

type ParryScene = Vec<(Pose, Box<dyn ParryShape>)>;

fn parry_scene(scene: &Scene) -> ParryScene {
    scene
        .iter()
        .map(|s| -> (Pose, Box<dyn ParryShape>) {
            match s {
                Shape::Circle(c) => {
                    let (p, b) = c.to_parry();
                    (p, Box::new(b))
                }
                Shape::Aabb(a) => {
                    let (p, b) = a.to_parry();
                    (p, Box::new(b))
                }
                Shape::Obb(o) => {
                    let (p, b) = o.to_parry();
                    (p, Box::new(b))
                }
                Shape::Polygon(q) => {
                    let (p, b) = q.to_parry();
                    (p, Box::new(b))
                }
            }
        })
        .collect()
}

fn parry_build(shapes: &ParryScene) -> Bvh {
    let leaves: Vec<_> = shapes
        .iter()
        .map(|(pose, s)| s.compute_aabb(pose))
        .collect();
    Bvh::from_leaves(BvhBuildStrategy::default(), &leaves)
}

/// Traversal and narrow phase: the number of overlapping pairs.
fn parry_pairs(bvh: &Bvh, shapes: &ParryScene, workspace: &mut BvhWorkspace) -> usize {
    let mut hits = 0;
    bvh.traverse_bvtt_single_tree::<false>(workspace, &mut |i, j| {
        let (a, b) = (&shapes[i as usize], &shapes[j as usize]);
        hits += usize::from(
            intersection_test(&a.0, &*a.1, &b.0, &*b.1)
                .unwrap()
                .intersecting,
        );
    });
    hits
}

fn pipeline(c: &mut Criterion) {
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let all = rayon::ThreadPoolBuilder::new().build().unwrap();
    let threads = all.current_num_threads();
    for (n, label) in [(10_000, "10k"), (100_000, "100k"), (1_000_000, "1M")] {
        let scene = scene(n, 7);
        let peer = parry_scene(&scene);
        let mut finder = PairFinder::new();
        let mut pairs = Vec::new();

        // One frame's split, single thread, after a warm-up frame.
        one.install(|| {
            finder.overlapping_pairs(&scene, &mut pairs);
            finder.overlapping_pairs(&scene, &mut pairs);
        });
        let s = finder.stats();
        eprintln!(
            "{label}: {} pairs from {} candidates; {} levels, {} cells, finest cell {:.2}, {} shapes above the finest level; \
             build {:?}, search {:?}, pack {:?}, kernels {:?}, sort {:?}",
            s.pairs,
            s.candidates,
            s.levels,
            s.cells,
            s.cell_size,
            s.large,
            s.build,
            s.search,
            s.pack,
            s.kernels,
            s.sort
        );
        let bvh = parry_build(&peer);
        let mut workspace = BvhWorkspace::default();
        let peer_hits = parry_pairs(&bvh, &peer, &mut workspace);
        assert!(
            peer_hits.abs_diff(pairs.len()) * 1000 <= pairs.len(),
            "{label}: parry2d finds {peer_hits} pairs, widephase {}",
            pairs.len()
        );

        let mut group = c.benchmark_group(format!("frame/{label}"));
        group.throughput(Throughput::Elements(n as u64));
        let big = n >= 1_000_000;
        group
            .sample_size(if big { 10 } else { 20 })
            .warm_up_time(Duration::from_millis(if big { 1000 } else { 500 }))
            .measurement_time(Duration::from_secs(if big { 6 } else { 3 }));
        group.bench_function("widephase/1 thread", |b| {
            one.install(|| b.iter(|| finder.overlapping_pairs(black_box(&scene), &mut pairs)))
        });
        group.bench_function(format!("widephase/{threads} threads"), |b| {
            all.install(|| b.iter(|| finder.overlapping_pairs(black_box(&scene), &mut pairs)))
        });
        group.bench_function("parry2d/traverse + narrow", |b| {
            b.iter(|| parry_pairs(black_box(&bvh), &peer, &mut workspace))
        });
        group.bench_function("parry2d/build + traverse + narrow", |b| {
            b.iter(|| {
                let bvh = parry_build(black_box(&peer));
                parry_pairs(&bvh, &peer, &mut workspace)
            })
        });
        group.finish();
    }
}

/// Ray casts and box queries on the 100 k scene, the grid (and parry2d's BVH) built once.
fn queries(c: &mut Criterion) {
    const N: usize = 100_000;
    const QUERIES: usize = 4096;
    const REACH: f32 = 50.0;
    let scene = scene(N, 7);
    let peer = parry_scene(&scene);
    let bvh = parry_build(&peer);
    let side = scene
        .iter()
        .map(|s| s.bounding_box().max_x)
        .fold(0.0f32, f32::max);
    let mut rng = SmallRng::seed_from_u64(11);
    let rays: Vec<Ray> = (0..QUERIES)
        .map(|_| {
            let angle: f32 = rng.random_range(-3.2..3.2);
            let (x, y) = (rng.random_range(0.0..side), rng.random_range(0.0..side));
            Ray::new(x, y, angle.cos(), angle.sin(), REACH)
        })
        .collect();
    let boxes: Vec<Aabb> = (0..QUERIES)
        .map(|_| {
            let (x, y) = (rng.random_range(0.0..side), rng.random_range(0.0..side));
            Aabb::from_center(x, y, 2.0, 2.0)
        })
        .collect();
    let parry_cast = |r: &Ray| {
        let ray = ParryRay::new(
            Vector::new(r.origin_x, r.origin_y),
            Vector::new(r.dir_x, r.dir_y),
        );
        bvh.cast_ray(&ray, r.max_t, |leaf, best| {
            let (pose, shape) = &peer[leaf as usize];
            shape.cast_ray(pose, &ray, best, true)
        })
    };
    let parry_boxes = |b: &Aabb| {
        let query = ParryAabb::new(Vector::new(b.min_x, b.min_y), Vector::new(b.max_x, b.max_y));
        let (pose, cuboid) = b.to_parry();
        bvh.intersect_aabb(&query)
            .filter(|&leaf| {
                let (p, s) = &peer[leaf as usize];
                intersection_test(&pose, &cuboid, p, &**s)
                    .unwrap()
                    .intersecting
            })
            .count()
    };

    let mut finder = PairFinder::new();
    let index = finder.index(&scene);
    // The contenders must find the same nearest shape and the same shapes in the boxes.
    let mut ids = Vec::new();
    let same_hit = rays
        .iter()
        .filter(|r| match (index.raycast(r), parry_cast(r)) {
            // The same parameter; the same shape unless several are hit there (the origin in
            // more than one, where widephase answers the smallest id and parry2d any).
            (Some((a, ta)), Some((b, tb))) => {
                (ta - tb).abs() <= 1e-3 * (1.0 + tb) && (a == b || ta == 0.0)
            }
            (None, None) => true,
            _ => false,
        })
        .count();
    let hits = rays.iter().filter(|r| index.raycast(r).is_some()).count();
    let same_boxes = boxes
        .iter()
        .filter(|b| {
            index.query_aabb(b, &mut ids);
            ids.len() == parry_boxes(b)
        })
        .count();
    assert!(
        same_hit * 1000 >= QUERIES * 999,
        "rays: parry2d agrees on {same_hit}"
    );
    assert!(
        same_boxes * 1000 >= QUERIES * 999,
        "boxes: parry2d agrees on {same_boxes}"
    );
    eprintln!("queries/100k: {hits} of {QUERIES} rays hit within {REACH}");

    let mut group = c.benchmark_group("queries/100k");
    group
        .throughput(Throughput::Elements(QUERIES as u64))
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    group.bench_function("raycast/widephase", |b| {
        b.iter(|| {
            rays.iter()
                .filter_map(|r| index.raycast(black_box(r)))
                .count()
        })
    });
    group.bench_function("raycast/parry2d", |b| {
        b.iter(|| rays.iter().filter_map(|r| parry_cast(black_box(r))).count())
    });
    group.bench_function("query_aabb/widephase", |b| {
        b.iter(|| {
            boxes
                .iter()
                .map(|q| {
                    index.query_aabb(black_box(q), &mut ids);
                    ids.len()
                })
                .sum::<usize>()
        })
    });
    group.bench_function("query_aabb/parry2d", |b| {
        b.iter(|| {
            boxes
                .iter()
                .map(|q| parry_boxes(black_box(q)))
                .sum::<usize>()
        })
    });
    group.finish();
}

criterion_group!(benches, pipeline, queries);
criterion_main!(benches);

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

mod support;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use parry2d::math::Pose;
use parry2d::partitioning::{Bvh, BvhBuildStrategy, BvhWorkspace};
use parry2d::query::intersection_test;
use parry2d::shape::Shape as ParryShape;
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use std::hint::black_box;
use std::time::Duration;
use support::BenchShape;
use widephase::{Aabb, Circle, Obb, PairFinder, Scene, Shape};

/// The benchmark scene: `n` mixed shapes covering about 30 % of their square.
fn scene(n: usize, seed: u64) -> Scene {
    // Mean area: circles π·E[r²] = π·13/12, boxes 4·E[hw]·E[hh] = 4.
    let mean_area = (core::f64::consts::PI * 13.0 / 12.0 + 8.0) / 3.0;
    let side = (n as f64 * mean_area / 0.3).sqrt() as f32;
    let mut rng = SmallRng::seed_from_u64(seed);
    let size = |rng: &mut SmallRng| rng.random_range(0.5f32..1.5);
    (0..n)
        .map(|i| -> Shape {
            let (x, y) = (rng.random_range(0.0..side), rng.random_range(0.0..side));
            match i % 3 {
                0 => Circle::new(x, y, size(&mut rng)).into(),
                1 => Aabb::from_center(x, y, size(&mut rng), size(&mut rng)).into(),
                _ => {
                    let (hw, hh) = (size(&mut rng), size(&mut rng));
                    Obb::new(x, y, hw, hh, rng.random_range(-3.2..3.2)).into()
                }
            }
        })
        .collect()
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

criterion_group!(benches, pipeline);
criterion_main!(benches);

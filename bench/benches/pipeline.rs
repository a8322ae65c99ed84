//! A whole frame of the broadphase pipeline (bounding boxes and grid, candidate pairs, packing,
//! kernels, sorted answer) on a mixed scene, one thread and all threads, next to parry2d's BVH:
//! `Bvh::from_leaves` + `traverse_bvtt_single_tree` + `intersection_test` on each candidate, with
//! and without the build.
//!
//! Scene: a third each circles, AABBs and OBBs, half extents uniform in 0.5–1.5, positions
//! uniform in a square sized so the shapes' areas add up to 30 % of it.
//!
//! `cargo bench -p widephase-bench --bench pipeline` (filter with e.g. `-- 100k`). Elements are shapes. The phase
//! split of one frame per size is printed to stderr.
//!
//! Also queries on the 100 k scene (`-- queries`; elements are queries): nearest-hit ray casts
//! of length 50 from random points in random directions, and boxes of side 4, with the grid
//! built once (`PairFinder::index`), next to parry2d's `Bvh::cast_ray` and
//! `Bvh::intersect_aabb` + `intersection_test` on the same BVH.

mod parry_coherent;
mod support;

use criterion::{
    BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main, measurement::WallTime,
};
use parry_coherent::ParryCoherent;
use parry2d::bounding_volume::Aabb as ParryAabb;
use parry2d::math::Vector;
use parry2d::partitioning::{Bvh, BvhWorkspace};
use parry2d::query::{Ray as ParryRay, intersection_test};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use std::hint::black_box;
use std::time::Duration;
use support::{Gen, Motion, ParryScene, ParryTwin, parry_build, parry_scene, scene};
use widephase::{Aabb, Circle, Obb, PairFinder, Polygon, Ray, Scene, Shape};

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

        // One frame's split, single thread, after a warm-up frame (both from scratch).
        one.install(|| {
            finder.overlapping_pairs_from_scratch(&scene, &mut pairs);
            finder.overlapping_pairs_from_scratch(&scene, &mut pairs);
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
        // A whole frame from scratch, the finder keeping only its buffers; then the kept
        // finder's rebuild (enlarged boxes and candidates kept for the next frame).
        group.bench_function("widephase/1 thread", |b| {
            one.install(|| {
                b.iter(|| finder.overlapping_pairs_from_scratch(black_box(&scene), &mut pairs))
            })
        });
        group.bench_function(format!("widephase/{threads} threads"), |b| {
            all.install(|| {
                b.iter(|| finder.overlapping_pairs_from_scratch(black_box(&scene), &mut pairs))
            })
        });
        group.bench_function("widephase kept rebuild/1 thread", |b| {
            one.install(|| {
                b.iter(|| {
                    finder.forget();
                    finder.overlapping_pairs(black_box(&scene), &mut pairs)
                })
            })
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

/// The side of the square a bench scene fills (its largest right edge).
fn side_of(scene: &Scene) -> f32 {
    scene
        .iter()
        .map(|(_, s)| s.bounding_box().max_x)
        .fold(0.0f32, f32::max)
}

/// Ray casts and box queries on the 100 k scene, the grid (and parry2d's BVH) built once.
fn queries(c: &mut Criterion) {
    const N: usize = 100_000;
    const QUERIES: usize = 4096;
    const REACH: f32 = 50.0;
    let scene = scene(N, 7);
    let peer = parry_scene(&scene);
    let bvh = parry_build(&peer);
    let side = side_of(&scene);
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
    // An explosion's circle, and the box query of its bounding box (which finds more: the
    // shapes in the box's corners), through the same index.
    let blasts: Vec<Circle> = boxes
        .iter()
        .map(|b| Circle::new((b.min_x + b.max_x) / 2.0, (b.min_y + b.max_y) / 2.0, 2.0))
        .collect();
    group.bench_function("query_shape circle/widephase", |b| {
        b.iter(|| {
            blasts
                .iter()
                .map(|q| {
                    index.query_shape(black_box(q), &mut ids);
                    ids.len()
                })
                .sum::<usize>()
        })
    });
    group.bench_function("query_aabb of the circle's box/widephase", |b| {
        b.iter(|| {
            blasts
                .iter()
                .map(|q| {
                    index.query_aabb(black_box(&Shape::from(*q).bounding_box()), &mut ids);
                    ids.len()
                })
                .sum::<usize>()
        })
    });
    group.finish();
}

/// Whole frames of a simulation: `Scene::update` moves every shape of the bench scene about
/// 4 % of its half extent (OBBs also turn), then `overlapping_pairs`; a kept finder on one
/// thread and on all, a fresh finder per frame, a kept one searching from scratch, and
/// parry2d's coherent path. Then the kept finder at other speeds, with a tenth of the shapes
/// jumping anywhere every frame (the rest at 4 %), and with every shape teleported every frame;
/// the jumping and teleported frames also from scratch, the reference they are held to.
fn frames(c: &mut Criterion) {
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let all = rayon::ThreadPoolBuilder::new().build().unwrap();
    let threads = all.current_num_threads();
    for (n, label) in [(10_000, "10k"), (100_000, "100k"), (1_000_000, "1M")] {
        let start = scene(n, 7);
        let side = side_of(&start);
        let mut group = c.benchmark_group(format!("frames/{label}"));
        group.throughput(Throughput::Elements(n as u64));
        let big = n >= 1_000_000;
        group
            .sample_size(if big { 10 } else { 20 })
            .warm_up_time(Duration::from_millis(if big { 1000 } else { 500 }))
            .measurement_time(Duration::from_secs(if big { 8 } else { 3 }));
        let motion = Motion::new(&start, 0.04, side);
        for (name, pool) in [("kept/1 thread", &one), ("kept/all threads", &all)] {
            let (mut scene, mut frame, mut finder, mut pairs) =
                (start.clone(), 0, PairFinder::new(), Vec::new());
            group.bench_function(name.replace("all", &threads.to_string()), |b| {
                pool.install(|| {
                    b.iter(|| {
                        motion.step(&mut scene, &mut frame);
                        finder.overlapping_pairs(&scene, &mut pairs);
                    })
                })
            });
            let s = finder.stats();
            eprintln!(
                "frames/{label}/{name}: {} pairs from {} candidates, {} escaped, rebuilt {}, from scratch by choice {}; build {:?}, search {:?}, sort {:?}, pack {:?}, kernels {:?}",
                s.pairs,
                s.candidates,
                s.escaped,
                s.rebuilt,
                s.chosen,
                s.build,
                s.search,
                s.sort,
                s.pack,
                s.kernels
            );
        }
        fresh_and_scratch(&mut group, &one, &motion, &start, "1 thread");
        if n <= 100_000 {
            let (mut scene, mut frame) = (start.clone(), 0);
            let mut peer = ParryCoherent::new(&scene, 0.25);
            let mut finder = PairFinder::new();
            let mut pairs = Vec::new();
            motion.step(&mut scene, &mut frame);
            finder.overlapping_pairs(&scene, &mut pairs);
            let found = peer.frame(&scene);
            assert!(
                found.abs_diff(pairs.len()) * 1000 <= pairs.len(),
                "{label}: parry2d finds {found} pairs, widephase {}",
                pairs.len()
            );
            group.bench_function("parry2d coherent", |b| {
                b.iter(|| {
                    motion.step(&mut scene, &mut frame);
                    peer.frame(&scene)
                })
            });
        }
        group.finish();
    }

    // Where coherence stops paying: the kept finder at other speeds, 100 k shapes, one thread.
    let start = scene(100_000, 7);
    let side = side_of(&start);
    let mut group = c.benchmark_group("frames/100k speeds");
    group
        .throughput(Throughput::Elements(100_000))
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    // (name, speed, share of the shapes jumping anywhere each frame)
    for (name, speed, jumps) in [
        ("1 %", 0.01, 0.0),
        ("4 %", 0.04, 0.0),
        ("20 %", 0.2, 0.0),
        ("100 %", 1.0, 0.0),
        ("4 %, a tenth jumping", 0.04, 0.1),
        ("teleport", f32::INFINITY, 0.0),
    ] {
        let (mut scene, mut frame, mut finder, mut pairs) =
            (start.clone(), 0u32, PairFinder::new(), Vec::new());
        let motion = Motion::new(&start, speed, side).with_jumps(jumps);
        group.bench_function(format!("kept/{name}"), |b| {
            one.install(|| {
                b.iter(|| {
                    motion.step(&mut scene, &mut frame);
                    finder.overlapping_pairs(&scene, &mut pairs);
                })
            })
        });
        if speed.is_infinite() || jumps > 0.0 {
            fresh_and_scratch(&mut group, &one, &motion, &start, name);
        }
    }
    group.finish();
}

/// The two frames a kept one is compared with, on one thread, continuing one copy of `start`
/// moved by `motion`: `fresh finder/<label>` (a new `PairFinder` per frame) and
/// `from scratch/<label>` (`overlapping_pairs_from_scratch`).
fn fresh_and_scratch(
    group: &mut BenchmarkGroup<'_, WallTime>,
    one: &rayon::ThreadPool,
    motion: &Motion,
    start: &Scene,
    label: &str,
) {
    let (mut scene, mut frame, mut pairs) = (start.clone(), 0u32, Vec::new());
    group.bench_function(format!("fresh finder/{label}"), |b| {
        one.install(|| {
            b.iter(|| {
                motion.step(&mut scene, &mut frame);
                PairFinder::new().overlapping_pairs(&scene, &mut pairs);
            })
        })
    });
    let mut finder = PairFinder::new();
    group.bench_function(format!("from scratch/{label}"), |b| {
        one.install(|| {
            b.iter(|| {
                motion.step(&mut scene, &mut frame);
                finder.overlapping_pairs_from_scratch(&scene, &mut pairs);
            })
        })
    });
}

/// What moving every shape costs, per kind: 100 k shapes of one kind, each moved by
/// `Scene::set` in a loop and by `Scene::update` (one thread), the common move: the same
/// shape at a new position (circles, AABBs), and a new angle (OBBs by `Obb::new`, polygons by
/// `Polygon::transformed` of an outline kept by the caller).
fn updates(c: &mut Criterion) {
    const N: usize = 100_000;
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let mut g = Gen::new(5);
    let side = 1000.0;
    let at: Vec<(f32, f32)> = (0..N)
        .map(|_| (g.uniform(0.0, side), g.uniform(0.0, side)))
        .collect();
    let outlines: Vec<Polygon> = (0..N)
        .map(|i| Polygon::regular(3 + i % 6, 0.0, 0.0, g.uniform(0.5, 1.5), 0.0))
        .collect();
    // The shape of kind `k` for `id` at time `t`.
    let shape = |k: usize, id: usize, t: f32| -> Shape {
        let (x, y) = (at[id].0 + t, at[id].1 - t);
        match k {
            0 => Circle::new(x, y, 1.0).into(),
            1 => Aabb::from_center(x, y, 1.0, 0.5).into(),
            2 => Obb::new(x, y, 1.0, 0.5, t).into(),
            _ => outlines[id].transformed(x, y, t).into(),
        }
    };
    let mut group = c.benchmark_group("update/100k");
    group
        .throughput(Throughput::Elements(N as u64))
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    for (k, kind) in ["circles", "AABBs", "OBBs", "polygons"].iter().enumerate() {
        let mut scene: Scene = (0..N).map(|id| shape(k, id, 0.0)).collect();
        let mut t = 0.0f32;
        group.bench_function(format!("{kind}/set"), |b| {
            b.iter(|| {
                t += 0.01;
                for id in 0..N {
                    scene.set(id as u32, shape(k, id, t));
                }
            })
        });
        group.bench_function(format!("{kind}/update"), |b| {
            one.install(|| {
                b.iter(|| {
                    t += 0.01;
                    scene.update(|id, _| shape(k, id as usize, t));
                })
            })
        });
    }
    group.finish();
}

/// Contacts and manifolds next to the pairs they come from, on the 100 k bench scene, one
/// thread: the one-shot `Scene` calls on a still scene, and a kept finder's frame (update +
/// pairs, contacts or manifolds) on a moving one.
fn contacts(c: &mut Criterion) {
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let start = scene(100_000, 7);
    let side = side_of(&start);
    let motion = Motion::new(&start, 0.04, side);
    let mut group = c.benchmark_group("contacts/100k");
    group.throughput(Throughput::Elements(100_000));
    group
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    group.bench_function("Scene::overlapping_pairs", |b| {
        one.install(|| b.iter(|| black_box(&start).overlapping_pairs()))
    });
    group.bench_function("Scene::contacts", |b| {
        one.install(|| b.iter(|| black_box(&start).contacts()))
    });
    group.bench_function("Scene::manifolds", |b| {
        one.install(|| b.iter(|| black_box(&start).manifolds()))
    });
    let (mut scene, mut frame, mut finder) = (start.clone(), 0u32, PairFinder::new());
    let (mut pairs, mut found, mut manifolds) = (Vec::new(), Vec::new(), Vec::new());
    let mut step = |scene: &mut Scene| motion.step(scene, &mut frame);
    group.bench_function("kept frame/overlapping_pairs", |b| {
        one.install(|| {
            b.iter(|| {
                step(&mut scene);
                finder.overlapping_pairs(&scene, &mut pairs);
            })
        })
    });
    group.bench_function("kept frame/contacts", |b| {
        one.install(|| {
            b.iter(|| {
                step(&mut scene);
                finder.contacts(&scene, &mut found);
            })
        })
    });
    group.bench_function("kept frame/manifolds", |b| {
        one.install(|| {
            b.iter(|| {
                step(&mut scene);
                finder.manifolds(&scene, &mut manifolds);
            })
        })
    });
    let s = finder.stats();
    eprintln!(
        "contacts/100k kept: {} contacts, contacts phase {:?} of a frame with build {:?}, search {:?}, pack {:?}, kernels {:?}, sort {:?}",
        found.len(),
        s.contacts,
        s.build,
        s.search,
        s.pack,
        s.kernels,
        s.sort
    );
    group.finish();
}

criterion_group!(benches, pipeline, queries, frames, updates, contacts);
criterion_main!(benches);

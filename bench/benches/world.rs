//! The Scene as a game's collision world (one thread, medians; figures and ratios printed to
//! stderr after each group):
//!
//! - `world/level`: a level of 1 M static tiles (boxes and polygons, about 30 % cover) with
//!   10 k moving circles and boxes moving about 4 % of their size every frame. A kept frame
//!   (`Scene::update` + `PairFinder::overlapping_pairs`) with the level, the same 10 k moving
//!   shapes with no level, and a from-scratch search of the whole scene
//!   (`overlapping_pairs_from_scratch`).
//! - `world/layers`: the 100 k bench scene moving, unfiltered, and split into 4 layers that
//!   ignore each other (each shape pairs only within its own layer).
//! - `world/events`: what finding the began and ended pairs costs in a kept 100 k frame
//!   (`FrameStats::events` against the whole frame).
//!
//! `cargo bench -p widephase-bench --bench world` (filter with e.g. `-- level`). Elements are moving shapes.

mod support;

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main};
use std::time::{Duration, Instant};
use support::{Gen, Motion};
use widephase::{Aabb, Circle, Filter, FrameStats, PairFinder, Polygon, Scene, Shape};

/// The square of side `side` tiled at random with `n` static boxes and polygons (half
/// extents 0.5–1.5), so that their areas add up to about 30 % of it.
fn level(g: &mut Gen, n: usize) -> (Vec<Shape>, f32) {
    // Mean area: boxes 4·E[hw]·E[hh] = 4, regular hexagons of radius r about 2.6·E[r²] = 2.8.
    let side = (n as f64 * 3.4 / 0.3).sqrt() as f32;
    let tiles = (0..n)
        .map(|i| -> Shape {
            let (x, y) = (g.uniform(0.0, side), g.uniform(0.0, side));
            if i % 2 == 0 {
                Aabb::from_center(x, y, g.uniform(0.5, 1.5), g.uniform(0.5, 1.5)).into()
            } else {
                let r = g.uniform(0.5, 1.5);
                Polygon::regular(6, x, y, r, g.uniform(0.0, 1.0)).into()
            }
        })
        .collect();
    (tiles, side)
}

/// `n` moving circles and boxes (half extents 0.5–1.5) uniform in the square.
fn actors(g: &mut Gen, n: usize, side: f32) -> Vec<Shape> {
    (0..n)
        .map(|i| -> Shape {
            let (x, y) = (g.uniform(0.0, side), g.uniform(0.0, side));
            if i % 2 == 0 {
                Circle::new(x, y, g.uniform(0.5, 1.5)).into()
            } else {
                Aabb::from_center(x, y, g.uniform(0.5, 1.5), g.uniform(0.5, 1.5)).into()
            }
        })
        .collect()
}

/// The mean time of `rounds` kept frames of `scene` moved by `motion` with `finder` (a mean,
/// as criterion's figures: a frame that rebuilds counts in proportion; 64 frames are one
/// period of the motion, which turns back every 64 frames).
fn kept_frames(
    (scene, finder): (&mut Scene, &mut PairFinder),
    motion: &Motion,
    frame: &mut u32,
    rounds: usize,
) -> Duration {
    let mut pairs = Vec::new();
    let start = Instant::now();
    for _ in 0..rounds {
        motion.step(scene, frame);
        finder.overlapping_pairs(scene, &mut pairs);
    }
    start.elapsed() / rounds as u32
}

/// The right edge of a scene's shapes: the side of the square the bench scenes fill.
fn side_of(scene: &Scene) -> f32 {
    let right = scene.iter().map(|(_, s)| s.bounding_box().max_x);
    right.fold(0.0, f32::max)
}

/// Criterion's kept frames of `start` moved by `motion` (`Scene::update`, then
/// `overlapping_pairs`), as benchmark `name` of `group`; the last frame's stats.
fn bench_kept(
    group: &mut BenchmarkGroup<'_, WallTime>,
    name: &str,
    start: &Scene,
    motion: &Motion,
) -> FrameStats {
    let (mut scene, mut frame, mut finder, mut pairs) =
        (start.clone(), 0u32, PairFinder::new(), Vec::new());
    group.bench_function(name, |b| {
        b.iter(|| {
            motion.step(&mut scene, &mut frame);
            finder.overlapping_pairs(&scene, &mut pairs);
        })
    });
    finder.stats().clone()
}

fn world(c: &mut Criterion) {
    // Every figure of this file is one thread's.
    rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build_global()
        .expect("the global pool is not built yet");
    // The groups a filter given on the command line can match (criterion skips the
    // benchmarks, this skips the alternated loops printed beside them). Numbers are values of
    // criterion's options (`--profile-time 5`), not filters.
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-') && a.parse::<f64>().is_err())
        .collect();
    let wanted = |group: &str| {
        filters
            .iter()
            .all(|f| group.contains(f.as_str()) || f.starts_with(group))
    };
    if wanted("world/level") {
        level_group(c);
    }
    if wanted("world/layers") {
        layers_group(c);
    }
    if wanted("world/events") {
        events_group();
    }
}

fn level_group(c: &mut Criterion) {
    let mut g = Gen::new(41);
    let (tiles, side) = level(&mut g, 1_000_000);
    let moving = actors(&mut g, 10_000, side);
    let mut with_level = Scene::new();
    for s in &moving {
        with_level.push(*s);
    }
    for t in &tiles {
        with_level.push_static(*t);
    }
    let alone: Scene = moving.iter().copied().collect();
    let motion = Motion::new(&alone, 0.04, side);

    let mut group = c.benchmark_group("world/level");
    group
        .throughput(Throughput::Elements(10_000))
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    for (name, start) in [
        ("kept frame, 1 M static tiles", &with_level),
        ("kept frame, no level", &alone),
    ] {
        let s = bench_kept(&mut group, name, start, &motion);
        eprintln!(
            "world/level/{name}: {} pairs, {} candidates, {} escaped, rebuilt {}; build {:?}, search {:?}, pack {:?}, kernels {:?}, sort {:?}, events {:?}",
            s.pairs,
            s.candidates,
            s.escaped,
            s.rebuilt,
            s.build,
            s.search,
            s.pack,
            s.kernels,
            s.sort,
            s.events
        );
    }
    let (mut scene, mut frame, mut finder, mut pairs) =
        (with_level.clone(), 0u32, PairFinder::new(), Vec::new());
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(8));
    group.bench_function("from scratch, 1 M static tiles", |b| {
        b.iter(|| {
            motion.step(&mut scene, &mut frame);
            finder.overlapping_pairs_from_scratch(&scene, &mut pairs);
        })
    });
    group.finish();

    // The three alternated in one loop, for the ratios the targets name.
    let (mut a, mut b) = (with_level.clone(), alone.clone());
    let (mut fa, mut fb) = (0u32, 0u32);
    // One finder per scene through all rounds, warmed up first: steady kept frames (a new
    // finder's first frames are its rebuild's and, over a level, those of every shape's first
    // escape, each querying the level for its neighbourhood).
    let (mut finder_a, mut finder_b) = (PairFinder::new(), PairFinder::new());
    kept_frames((&mut a, &mut finder_a), &motion, &mut fa, 100);
    kept_frames((&mut b, &mut finder_b), &motion, &mut fb, 100);
    let (mut level_ms, mut alone_ms, mut scratch_ms) = (Vec::new(), Vec::new(), Vec::new());
    let mut scratch = PairFinder::new();
    for _ in 0..7 {
        level_ms.push(kept_frames((&mut a, &mut finder_a), &motion, &mut fa, 64));
        alone_ms.push(kept_frames((&mut b, &mut finder_b), &motion, &mut fb, 64));
        let start = Instant::now();
        scratch.overlapping_pairs_from_scratch(&a, &mut pairs);
        scratch_ms.push(start.elapsed());
    }
    let median = |v: &mut Vec<Duration>| {
        v.sort();
        v[v.len() / 2].as_secs_f64() * 1e3
    };
    let (l, n, s) = (
        median(&mut level_ms),
        median(&mut alone_ms),
        median(&mut scratch_ms),
    );
    eprintln!(
        "world/level alternated (medians of 7 rounds, each the mean of 64 steady frames): kept frame with the level {l:.3} ms, without {n:.3} ms ({:.2}x), from-scratch search of the whole scene {s:.1} ms (kept frame = 1/{:.0} of it)",
        l / n,
        s / l
    );

    // What a change of one static shape costs the next kept frame: every static shape filed
    // again, and every moving shape's static candidates found again.
    let (mut finder, mut refiled) = (PairFinder::new(), Vec::new());
    let tile = moving.len() as u32;
    finder.overlapping_pairs(&a, &mut pairs);
    for _ in 0..5 {
        let shape = a.get(tile).expect("a static tile");
        a.set(tile, shape);
        let start = Instant::now();
        finder.overlapping_pairs(&a, &mut pairs);
        refiled.push(start.elapsed());
    }
    eprintln!(
        "world/level: the kept frame after one static shape changed (all 1 M filed again): {:.1} ms (median of 5)",
        median(&mut refiled)
    );
}

fn layers_group(c: &mut Criterion) {
    let shapes = Gen::new(7).mixed_scene(100_000);
    let plain: Scene = shapes.iter().copied().collect();
    let mut layered = Scene::new();
    for (i, s) in shapes.iter().enumerate() {
        let bit = 1 << (i % 4);
        layered.push_with(*s, Filter::new(bit, bit));
    }
    let motion = Motion::new(&plain, 0.04, side_of(&plain));
    let mut group = c.benchmark_group("world/layers");
    group
        .throughput(Throughput::Elements(100_000))
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    for (name, start) in [
        ("kept frame, unfiltered", &plain),
        ("kept frame, 4 layers", &layered),
    ] {
        let s = bench_kept(&mut group, name, start, &motion);
        eprintln!(
            "world/layers/{name}: {} pairs; the kernels tested {} candidates, {} filtered before them; pack {:?}, kernels {:?}",
            s.pairs, s.candidates, s.filtered, s.pack, s.kernels
        );
    }
    group.finish();
}

fn events_group() {
    let start: Scene = Gen::new(7).mixed_scene(100_000).into_iter().collect();
    let motion = Motion::new(&start, 0.04, side_of(&start));
    let (mut scene, mut frame, mut finder, mut pairs) =
        (start.clone(), 0u32, PairFinder::new(), Vec::new());
    let (mut share, mut events) = (Vec::new(), 0usize);
    for k in 0..205 {
        let begin = Instant::now();
        motion.step(&mut scene, &mut frame);
        finder.overlapping_pairs(&scene, &mut pairs);
        let whole = begin.elapsed();
        if k >= 5 {
            let s = finder.stats();
            share.push(s.events.as_secs_f64() / whole.as_secs_f64());
            events += s.began + s.ended;
        }
    }
    share.sort_by(f64::total_cmp);
    eprintln!(
        "world/events: began/ended and keeping the answer take {:.1} % of a kept 100 k frame (median of 200 frames; {:.0} events per frame)",
        share[share.len() / 2] * 100.0,
        events as f64 / 200.0
    );
}

criterion_group!(benches, world);
criterion_main!(benches);

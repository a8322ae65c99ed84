//! How a frame scales with threads on this machine: for each thread count and scene size, the
//! median frame of a kept `PairFinder` and of a search from scratch (each after
//! `Scene::update`; their mean, ninetieth percentile and slowest frame beside it), each phase
//! as `FrameStats` reports it, and `par_batch_test` over 4 M circle–AABB pairs beside them
//! (the speed-up the kernels alone get, which caps a frame's on a machine whose memory
//! bandwidth is the limit).
//!
//! ```text
//! cargo run --release --example scaling -- --threads 1,2,4,8,16 --shapes 100000,1000000
//!     [--frames N]   frames timed per run (default 128: a whole to and fro of the
//!                    motion), after the warm-up frames
//!     [--warm-up N]  warm-up frames per run (default: as many as timed, and at least 100
//!                    where a kept finder may choose: past its first verdict, as a game's
//!                    frames are after a second or two)
//!     [--modes kept,scratch]  which frames to time (default both)
//!     [--rounds R]   turns the runs take at their timed frames (default 4; 1: each run
//!                    from start to end in turn, and one world in memory at a time)
//!     [--reorder]    put the scene in spatial order first (`Scene::reorder`; the motion
//!                    then reads its per-shape arrays out of order)
//!     [--speed S]    each shape moves S of its half extent per frame (default 0.06: about
//!                    3 % of its size)
//!     [--moving M]   only a share M of the shapes moves (default 1), the same ones every
//!                    frame; the others stay where they are, as bodies at rest
//!     [--choice off] the kept frames always take the kept path (`PairFinder::with_choice`):
//!                    by default a finder of 2^17 moving shapes or more (2^16 on eight
//!                    threads or more) times both paths and searches from scratch where
//!                    that was cheaper
//!     [--spin off]   let the pool's threads sleep between a call's passes
//!                    (`PairFinder::with_spinning`; by default they look for work until
//!                    the call returns)
//!     [--caller main] call every frame from the main thread, as a game does, on rayon's
//!                    global pool of the one thread count given (default `pool`: from inside
//!                    a pool of each thread count, where no call is handed over)
//!     [--scene S]    which scene (default `mixed`):
//!                    mixed     the benchmarks' scene: a third each circles, AABBs and OBBs,
//!                              sizes 0.5–1.5, covering 30 % of a square
//!                    sized     circles of radii 0.1–10, even in scale (three grid levels)
//!                    crowded   mixed's shapes in 64 dense crowds, empty space between
//!                    polygons  half convex polygons, half capsules, sizes 0.5–1.5
//!                    tiles     half of the shapes mixed's and moving, half static tiles
//! ```
//!
//! Every moving shape moves at the given speed and turns back every 64 frames.
//! Each thread count runs in a rayon pool of that many threads (with `--caller main`, the
//! global pool). The runs' timed frames are taken in turns, a quarter of each run's frames
//! a turn (`--rounds`), so that a slow spell of the host falls on every run alike rather
//! than on whichever ran then. Medians, in milliseconds;
//! `x` is the one-thread median over this one. Last, the time two threads take to pass a
//! cache line there and back, measured before the runs and after: where it is several times
//! its usual figure, the threads ran on cores that share no cache, and every line of the
//! frame that one thread wrote and another read cost that much more.

#[path = "../../tests/support/shapes.rs"]
mod shapes;

mod options;
mod probes;
mod worlds;

use options::{USAGE, options, warm_up};
use probes::{kernels, round_trip};
use shapes::{Gen, Motion};
use std::time::Duration;
use widephase::{Aabb, Aabbs, Circle, Circles, SIMD_BACKEND, Scene};
use worlds::{Mode, PHASES, runs};

/// Scene `name` of [`SCENES`](options::SCENES) with `n` shapes.
fn scene(name: &str, n: usize) -> Scene {
    let mut g = Gen::new(7);
    match name {
        "sized" => g.sized_scene(n).into_iter().collect(),
        "crowded" => g.crowded_scene(n).into_iter().collect(),
        "polygons" => g.polygon_scene(n).into_iter().collect(),
        "tiles" => {
            // The moving half over a square of static tiles, each a fifth of its cell's area.
            let mut scene: Scene = g.mixed_scene(n - n / 2).into_iter().collect();
            let side = scene
                .iter()
                .map(|(_, s)| s.bounding_box().max_x)
                .fold(0.0, f32::max);
            let per = ((n / 2) as f32).sqrt().ceil().max(1.0) as usize;
            let cell = side / per as f32;
            for i in 0..n / 2 {
                let (x, y) = ((i % per) as f32 * cell, (i / per) as f32 * cell);
                scene.push_static(Aabb::new(x, y, x + 0.45 * cell, y + 0.45 * cell));
            }
            scene
        }
        _ => g.mixed_scene(n).into_iter().collect(),
    }
}

/// Scenes of fewer shapes than this print their table in microseconds (their frames take
/// less than about a millisecond).
const SMALL_SCENE: usize = 20_000;

/// The median of `v` (sorted in place).
pub(crate) fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Milliseconds of a duration.
pub(crate) fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() {
    let o = options().unwrap_or_else(|e| {
        eprintln!("scaling: {e}");
        let usage = USAGE.split("\n\n").next().unwrap_or(USAGE);
        eprintln!("{usage}\n(--help says what each option does)");
        std::process::exit(2)
    });
    let cores = std::thread::available_parallelism().map_or(0, usize::from);
    println!(
        "widephase scaling: SIMD backend {SIMD_BACKEND}, {cores} hardware threads; {} timed \
         frames after {} warm-up frames, the runs taking turns in {} rounds; the {} \
         scene, {} of the shapes moving {} of their half extent a frame; frames called from {}; threads {}",
        o.frames,
        warm_up(&o),
        o.rounds,
        o.scene,
        o.moving,
        o.speed,
        if o.main {
            "the main thread"
        } else {
            "inside the pool"
        },
        if o.spin {
            "held awake during a call"
        } else {
            "left to sleep between passes"
        }
    );
    // The finder counts the cores as this says (see `PairFinder::with_spinning`): figures of
    // such a run show how the many-core passes split, not how fast the machine runs them.
    // Only a positive number counts; anything else leaves the finder's count as it was.
    let counted = std::env::var("WIDEPHASE_CORES").ok();
    match counted.as_deref().map(str::parse::<usize>) {
        Some(Ok(n)) if n > 0 => println!("WIDEPHASE_CORES={n}: the finder counts the cores as {n}"),
        Some(_) => println!("WIDEPHASE_CORES is not a positive number: the finder ignores it"),
        None => {}
    }
    // Two threads spinning on one core would pass the line once a time slice.
    let trip = || (cores > 1).then(round_trip);
    let said = |t: Option<f64>| t.map_or("(one core)".into(), |t| format!("{t:.0} ns"));
    let first_trip = trip();
    let pools: Vec<_> = o
        .threads
        .iter()
        .map(|&t| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(t)
                .build()
                .expect("a thread pool")
        })
        .collect();
    if o.main {
        rayon::ThreadPoolBuilder::new()
            .num_threads(o.threads[0])
            .build_global()
            .expect("rayon's global pool, built once");
    }

    let mut g = Gen::new(11);
    let n = 4 << 20;
    let circles: Circles = (0..n)
        .map(|_| {
            Circle::new(
                g.uniform(0.0, 4.0),
                g.uniform(0.0, 4.0),
                g.uniform(0.1, 1.0),
            )
        })
        .collect();
    let boxes: Aabbs = (0..n)
        .map(|_| {
            let (x, y) = (g.uniform(0.0, 4.0), g.uniform(0.0, 4.0));
            Aabb::from_center(x, y, g.uniform(0.1, 1.0), g.uniform(0.1, 1.0))
        })
        .collect();
    println!("\npar_batch_test, 4 M circle-AABB pairs (G pairs/s):");
    let rates = kernels(&circles, &boxes, &pools, o.main);
    for (rate, t) in rates.iter().zip(&o.threads) {
        println!("  {t:>3} threads  {rate:7.3}  {:5.2}x", rate / rates[0]);
    }
    drop((circles, boxes));

    for &n in &o.shapes {
        let mut start = scene(&o.scene, n);
        if o.reorder {
            start.reorder();
        }
        let side = start
            .iter()
            .map(|(_, s)| s.bounding_box().max_x)
            .fold(0.0f32, f32::max);
        let motion = Motion::new(&start, o.speed, side).with_moving(o.moving);
        // Microseconds where a frame is shorter than a millisecond or so, so that a small
        // scene's figures keep their digits.
        let (unit, scale) = if n < SMALL_SCENE {
            ("µs", 1000.0)
        } else {
            ("ms", 1.0)
        };
        println!(
            "\n{n} shapes (medians, {unit}; x: the first thread count's median over this one):"
        );
        println!(
            "  threads mode      frame     x    mean     p90   worst chosen | {} |  sum",
            PHASES.map(|p| format!("{p:>7}")).join(" ")
        );
        // The runs in the table's order: each thread count, kept then from scratch.
        let names: Vec<_> = ["kept", "scratch"]
            .into_iter()
            .filter(|mode| o.modes.iter().any(|x| x == mode))
            .collect();
        let modes: Vec<_> = names
            .iter()
            .map(|&name| Mode {
                kept: name == "kept",
                choice: o.choice,
                spin: o.spin,
            })
            .collect();
        let on: Vec<_> = pools.iter().map(|p| (!o.main).then_some(p)).collect();
        let counts = [warm_up(&o), o.frames, o.rounds];
        let results = runs((&start, &motion), &on, &modes, counts);
        let mut base = [None; 2];
        let rows = (o.threads.iter()).flat_map(|t| names.iter().map(move |&name| (t, name)));
        for ((t, mode), r) in rows.zip(results) {
            let first = *base[usize::from(mode != "kept")].get_or_insert(r.frame);
            println!(
                "  {t:>7} {mode:<8} {:7.2} {:5.2} {:7.2} {:7.2} {:7.2} {:5.0}% | {} | {:3.0}%",
                scale * r.frame,
                first / r.frame,
                scale * r.mean,
                scale * r.p90,
                scale * r.worst,
                100.0 * r.chosen,
                r.phases.map(|v| format!("{:7.2}", scale * v)).join(" "),
                100.0 * r.covered
            );
        }
    }
    println!(
        "\nmean: the mean frame; p90: the frame nine in ten are as fast as or faster; worst: the \
         slowest frame; chosen: the share of kept frames that searched from scratch \
         because the finder timed that as the cheaper path (from 2^17 moving shapes, 2^16 on \
         8 threads or more; its first trial of the kept path ends after 93 frames, within the \
         warm-up unless --warm-up says less). Phases: \
         FrameStats' wall-clock phases and the update before them; sum: the median share of \
         the frame they add up to."
    );
    println!(
        "core-to-core round trip (two threads passing a cache line there and back): {} at \
         the start, {} at the end",
        said(first_trip),
        said(trip())
    );
}

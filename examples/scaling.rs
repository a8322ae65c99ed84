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
//! global pool). Medians, in milliseconds;
//! `x` is the one-thread median over this one. Last, the time two threads take to pass a
//! cache line there and back, measured before the runs and after: where it is several times
//! its usual figure, the threads ran on cores that share no cache, and every line of the
//! frame that one thread wrote and another read cost that much more.

#[path = "../tests/support/shapes.rs"]
mod shapes;

use shapes::{Gen, Motion};
use std::hint::black_box;
use std::time::{Duration, Instant};
use widephase::{
    Aabb, Aabbs, Circle, Circles, FrameStats, HitMask, PairFinder, SIMD_BACKEND, Scene,
    par_batch_test,
};

/// What the command line asked for.
struct Options {
    threads: Vec<usize>,
    shapes: Vec<usize>,
    frames: usize,
    /// Warm-up frames (`--warm-up`; `None`: [`warm_up`]'s default).
    warm_up: Option<usize>,
    speed: f32,
    /// The share of the shapes that move (`--moving`).
    moving: f32,
    modes: Vec<String>,
    reorder: bool,
    /// Whether the kept finder may choose a search from scratch (`--choice on`, the default).
    choice: bool,
    /// Whether the finders hold the pool's threads awake during a call (`--spin on`, the
    /// default).
    spin: bool,
    /// Whether the frames are called from the main thread (`--caller main`).
    main: bool,
    /// The scene (`--scene`), one of [`SCENES`].
    scene: String,
}

/// Frames timed by default: the motion's whole period (every shape turns back every 64
/// frames). A kept frame's cost comes in waves, as shapes that left their enlarged boxes
/// together leave their new ones about together (at 1 M shapes on one thread of a Zen 5,
/// from 33 ms in a frame without escapers to 110–123 in one of 167 k), so the median of a
/// shorter window says where the window fell: over 30 frames the 1 M kept frame's read 52–53
/// ms where the finder chose (a search from scratch and a rebuild shortly before) and 70–75
/// with `--choice off`; over 128, 55.7–56.0 and 62.3–62.5 (2026-12-01).
const FRAMES: usize = 128;

/// Calls after which a kept finder that may choose between its kept path and a search from
/// scratch has timed both and taken the cheaper for the first time (the first trial of the
/// kept path ends after 93 calls: see `src/scene/kept/choice.rs`).
const FIRST_VERDICT: usize = 100;

/// The warm-up frames of every run: `--warm-up`, else as many as are timed, and where a kept
/// finder may choose, at least [`FIRST_VERDICT`] (its searches from scratch too, so that both
/// modes time the same frames of the motion): the timed frames are then those of a finder
/// that has chosen, as every frame of a game after its first second or two, not those of
/// its first trial.
fn warm_up(o: &Options) -> usize {
    let choosing = o.choice && o.modes.iter().any(|m| m == "kept");
    o.warm_up.unwrap_or(if choosing {
        o.frames.max(FIRST_VERDICT)
    } else {
        o.frames
    })
}

/// The scenes `--scene` takes.
const SCENES: [&str; 5] = ["mixed", "sized", "crowded", "polygons", "tiles"];

/// Scene `name` of [`SCENES`] with `n` shapes.
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

/// The usage line and what each option does, for `--help` and after a wrong option.
const USAGE: &str = "\
usage: scaling [--threads 1,2] [--shapes 100000,1000000] [--frames 128] [--warm-up N]
               [--modes kept,scratch] [--reorder] [--speed 0.06] [--moving 1]
               [--choice on|off] [--spin on|off] [--caller pool|main]
               [--scene mixed|sized|crowded|polygons|tiles]

  --threads LIST  thread counts to run, each in a rayon pool of its own (default 1,2)
  --shapes LIST   scene sizes (default 100000,1000000)
  --frames N      frames timed per run (default 128: a whole to and fro of the motion)
  --warm-up N     frames run before the timed ones (default: as many as timed, at least
                  100 where a kept finder may choose between its paths)
  --modes LIST    kept, scratch or both (default both)
  --reorder       put the scene in spatial order first (Scene::reorder)
  --speed S       each shape moves S of its half extent a frame (default 0.06)
  --moving M      the share of the shapes that moves (default 1)
  --choice on|off whether a kept finder may search from scratch where that is cheaper
  --spin on|off   whether the pool's threads look for work through a whole call
  --caller C      pool: frames called from inside each pool; main: from the main thread,
                  on rayon's global pool (one thread count)
  --scene S       mixed (default), sized, crowded, polygons or tiles
  --help          this text";

/// The options, or a message saying what is wrong with them.
fn options() -> Result<Options, String> {
    let mut o = Options {
        threads: vec![1, 2],
        shapes: vec![100_000, 1_000_000],
        frames: FRAMES,
        warm_up: None,
        speed: 0.06,
        moving: 1.0,
        modes: vec!["kept".into(), "scratch".into()],
        reorder: false,
        choice: true,
        spin: true,
        main: false,
        scene: "mixed".into(),
    };
    let list = |flag: &str, v: &str| -> Result<Vec<usize>, String> {
        v.split(',')
            .map(|x| x.trim().replace('_', "").parse::<usize>())
            .collect::<Result<Vec<_>, _>>()
            .ok()
            .filter(|l| !l.is_empty() && l.iter().all(|&x| x > 0))
            .ok_or_else(|| {
                format!("{flag} takes positive whole numbers separated by commas, got {v:?}")
            })
    };
    let on_off = |flag: &str, v: &str| match v {
        "on" => Ok(true),
        "off" => Ok(false),
        _ => Err(format!("{flag} takes on or off, got {v:?}")),
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        // Taken by the options that have one, so that an unknown option is named as such.
        let mut value = || args.next().ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--reorder" => o.reorder = true,
            "--help" | "-h" => {
                println!("{USAGE}");
                std::process::exit(0)
            }
            "--threads" => o.threads = list(&flag, &value()?)?,
            "--shapes" => o.shapes = list(&flag, &value()?)?,
            "--frames" => {
                let value = value()?;
                o.frames = value
                    .trim()
                    .replace('_', "")
                    .parse()
                    .ok()
                    .filter(|&f: &usize| f > 0)
                    .ok_or_else(|| {
                        format!("--frames takes a positive whole number, got {value:?}")
                    })?;
            }
            "--warm-up" => {
                let value = value()?;
                o.warm_up = Some(value.trim().parse().map_err(|_| {
                    format!("--warm-up takes a whole number of frames, got {value:?}")
                })?);
            }
            "--speed" => {
                let value = value()?;
                o.speed = value
                    .parse()
                    .ok()
                    .filter(|s: &f32| s.is_finite() && *s >= 0.0)
                    .ok_or_else(|| format!("--speed takes a number >= 0, got {value:?}"))?;
            }
            "--moving" => {
                let value = value()?;
                o.moving = value
                    .parse()
                    .ok()
                    .filter(|m: &f32| (0.0..=1.0).contains(m))
                    .ok_or_else(|| format!("--moving takes a share from 0 to 1, got {value:?}"))?;
            }
            "--choice" => o.choice = on_off(&flag, &value()?)?,
            "--spin" => o.spin = on_off(&flag, &value()?)?,
            "--caller" => {
                let value = value()?;
                o.main = match value.as_str() {
                    "pool" => false,
                    "main" => true,
                    _ => return Err(format!("--caller takes pool or main, got {value:?}")),
                }
            }
            "--scene" => {
                let value = value()?;
                if !SCENES.contains(&value.as_str()) {
                    return Err(format!("--scene takes one of {SCENES:?}, got {value:?}"));
                }
                o.scene = value;
            }
            "--modes" => {
                let value = value()?;
                o.modes = value.split(',').map(|m| m.trim().to_string()).collect();
                if let Some(m) = o
                    .modes
                    .iter()
                    .find(|m| !["kept", "scratch"].contains(&m.as_str()))
                {
                    return Err(format!("--modes takes kept, scratch or both, got {m:?}"));
                }
            }
            _ => return Err(format!("unknown option {flag:?}")),
        }
    }
    if o.main && o.threads.len() != 1 {
        return Err(
            "--caller main takes one thread count (rayon's global pool is built once)".into(),
        );
    }
    Ok(o)
}

/// The median of `v` (sorted in place).
fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Milliseconds of a duration.
fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// The medians of one run of frames: the frame, then each phase of `FrameStats`.
struct Run {
    frame: f64,
    /// The mean frame, the ninetieth percentile and the slowest frame (a game's frame budget
    /// meets those too), and the share of frames that searched from scratch by
    /// `FrameStats::chosen`.
    mean: f64,
    p90: f64,
    worst: f64,
    chosen: f64,
    phases: [f64; 7],
    /// The median share of the frame its phases add up to.
    covered: f64,
}

/// The phases of `FrameStats` this prints, in its order.
const PHASES: [&str; 7] = [
    "build", "search", "pack", "kernels", "sort", "events", "update",
];

/// `frames` frames (after `warm` warm-up frames) of `scene` moved by `motion`, each
/// `Scene::update` and then a kept finder's search (which may choose a search from scratch
/// where `choice`) or a search from scratch, spinning between passes where `spin`.
fn run(
    start: &Scene,
    motion: &Motion,
    [warm, frames]: [usize; 2],
    kept: bool,
    [choice, spin]: [bool; 2],
) -> Run {
    let (mut scene, mut frame, mut finder, mut pairs) = (
        start.clone(),
        0,
        PairFinder::new().with_choice(choice).with_spinning(spin),
        Vec::new(),
    );
    let (mut totals, mut phases) = (Vec::new(), vec![Vec::new(); PHASES.len()]);
    let (mut covered, mut chosen) = (Vec::new(), 0);
    for i in 0..warm + frames {
        let begin = Instant::now();
        motion.step(&mut scene, &mut frame);
        let moved = begin.elapsed();
        if kept {
            finder.overlapping_pairs(&scene, &mut pairs);
        } else {
            finder.overlapping_pairs_from_scratch(&scene, &mut pairs);
        }
        let total = begin.elapsed();
        black_box(&pairs);
        if i >= warm {
            let s: &FrameStats = finder.stats();
            totals.push(ms(total));
            let each = [
                s.build, s.search, s.pack, s.kernels, s.sort, s.events, moved,
            ];
            for (k, d) in each.into_iter().enumerate() {
                phases[k].push(ms(d));
            }
            covered.push(ms(each.iter().sum()) / ms(total));
            chosen += usize::from(s.chosen);
        }
    }
    let frame = median(&mut totals);
    Run {
        mean: totals.iter().sum::<f64>() / frames as f64,
        // Sorted by `median`.
        p90: totals[(totals.len() - 1) * 9 / 10],
        worst: totals[totals.len() - 1],
        chosen: chosen as f64 / frames as f64,
        frame,
        phases: core::array::from_fn(|k| median(&mut phases[k])),
        covered: median(&mut covered),
    }
}

/// `par_batch_test` over 4 M circle–AABB pairs on each pool, in G pairs per second (medians).
/// The pools take turns, round after round, so that a slow spell of the host falls on every
/// thread count alike rather than on whichever was measured first. Each turn first calls for
/// 30 ms untimed: on the 2-core VMs a core left idle for a while ran the first milliseconds
/// after its return at half speed (a 2-thread call took a 1-thread time for ~10 ms).
fn kernels(circles: &Circles, boxes: &Aabbs, pools: &[rayon::ThreadPool], main: bool) -> Vec<f64> {
    let mut hits = HitMask::new();
    let mut times = vec![Vec::new(); pools.len()];
    for _round in 0..4 {
        for (pool, times) in pools.iter().zip(&mut times) {
            let mut turn = || {
                let warm = Instant::now();
                while warm.elapsed() < Duration::from_millis(30) {
                    par_batch_test(circles, boxes, &mut hits).expect("equal lengths");
                }
                for _ in 0..5 {
                    let begin = Instant::now();
                    par_batch_test(circles, boxes, &mut hits).expect("equal lengths");
                    times.push(begin.elapsed().as_secs_f64());
                }
            };
            if main { turn() } else { pool.install(turn) }
        }
    }
    times
        .iter_mut()
        .map(|t| circles.len() as f64 / median(t) / 1e9)
        .collect()
}

/// The time for two threads of this process to pass one cache line there and back (median
/// of five tries of up to 20 000 round trips or 0.2 s each, ns), wherever the system runs
/// them. On the two-vCPU VMs this ranged from 60–190 ns to 320–440 ns from one minute to the
/// next (by every sign the host moving its vCPUs between cores that share a cache and cores
/// that do not), and in the slow spells every line one thread wrote and another read cost
/// that much more: a two-thread kept frame then ran no faster than one thread (see
/// `docs/benchmarks.md`, fifty-ninth session). Two threads that share one core (a busy
/// machine) pass the line once a time slice: the 0.2 s bound keeps that short.
fn round_trip() -> f64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    const TRIPS: u64 = 20_000;
    const DONE: u64 = u64::MAX;
    let mut tries: Vec<f64> = (0..5)
        .map(|_| {
            let line = AtomicU64::new(0);
            std::thread::scope(|s| {
                // Answers each odd value with the next one, until told it is done.
                // (After its store it reads its own even value until the next odd one.)
                s.spawn(|| {
                    loop {
                        match line.load(Ordering::Acquire) {
                            DONE => return,
                            v if v % 2 == 1 => line.store(v + 1, Ordering::Release),
                            _ => std::hint::spin_loop(),
                        }
                    }
                });
                let begin = Instant::now();
                let mut trips = 0;
                while trips < TRIPS
                    && (trips % 256 != 0 || begin.elapsed() < Duration::from_millis(200))
                {
                    line.store(2 * trips + 1, Ordering::Release);
                    while line.load(Ordering::Acquire) != 2 * trips + 2 {
                        std::hint::spin_loop();
                    }
                    trips += 1;
                }
                let each = begin.elapsed().as_secs_f64() * 1e9 / trips as f64;
                line.store(DONE, Ordering::Release);
                each
            })
        })
        .collect();
    median(&mut tries)
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
         frames after {} warm-up frames; the {} scene, {} of the shapes \
         moving {} of their half extent a frame; frames called from {}; threads {}",
        o.frames,
        warm_up(&o),
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
        let mut base = [None; 2];
        for (pool, t) in pools.iter().zip(&o.threads) {
            for (m, mode) in ["kept", "scratch"].into_iter().enumerate() {
                if !o.modes.iter().any(|x| x == mode) {
                    continue;
                }
                let counts = [warm_up(&o), o.frames];
                let frames = || run(&start, &motion, counts, m == 0, [o.choice, o.spin]);
                let r = if o.main {
                    frames()
                } else {
                    pool.install(frames)
                };
                let first = *base[m].get_or_insert(r.frame);
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

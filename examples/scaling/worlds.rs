//! The frames timed: a world for each thread count and mode (a scene moved by the motion and
//! a finder), and their timed frames taken in turns, so that a slow spell of the host falls
//! on every run alike.

use crate::shapes::Motion;
use crate::{median, ms};
use std::hint::black_box;
use std::time::{Duration, Instant};
use widephase::{FrameStats, PairFinder, Scene};

/// The medians of one run of frames: the frame, then each phase of `FrameStats`.
pub(crate) struct Run {
    pub(crate) frame: f64,
    /// The mean frame, the ninetieth percentile and the slowest frame (a game's frame budget
    /// meets those too), and the share of frames that searched from scratch by
    /// `FrameStats::chosen`.
    pub(crate) mean: f64,
    pub(crate) p90: f64,
    pub(crate) worst: f64,
    pub(crate) chosen: f64,
    pub(crate) phases: [f64; 7],
    /// The median share of the frame its phases add up to.
    pub(crate) covered: f64,
}

/// The phases of `FrameStats` this prints, in its order.
pub(crate) const PHASES: [&str; 7] = [
    "build", "search", "pack", "kernels", "sort", "events", "update",
];

/// What one run is: a kept finder or searches from scratch, whether a kept finder may choose
/// a search from scratch, whether the finder holds the threads awake through a call.
#[derive(Clone, Copy)]
pub(crate) struct Mode {
    pub(crate) kept: bool,
    pub(crate) choice: bool,
    pub(crate) spin: bool,
}

/// One run's world: its scene, moved frame by frame (`Scene::update`), the finder that
/// answers it, and what its timed frames took.
pub(crate) struct World {
    scene: Scene,
    frame: u32,
    finder: PairFinder,
    kept: bool,
    pairs: Vec<(u32, u32)>,
    totals: Vec<f64>,
    phases: [Vec<f64>; 7],
    covered: Vec<f64>,
    chosen: usize,
}

impl World {
    /// A world that starts as `start`, answered as `mode` says.
    pub(crate) fn new(start: &Scene, mode: Mode) -> Self {
        Self {
            scene: start.clone(),
            frame: 0,
            finder: PairFinder::new()
                .with_choice(mode.choice)
                .with_spinning(mode.spin),
            kept: mode.kept,
            pairs: Vec::new(),
            totals: Vec::new(),
            phases: Default::default(),
            covered: Vec::new(),
            chosen: 0,
        }
    }

    /// The next `count` frames of `motion`: each `Scene::update`, then the kept finder's
    /// search or one from scratch; their times kept where `timed` (warm-up frames are not).
    pub(crate) fn frames(&mut self, motion: &Motion, count: usize, timed: bool) {
        for _ in 0..count {
            let begin = Instant::now();
            motion.step(&mut self.scene, &mut self.frame);
            let moved = begin.elapsed();
            if self.kept {
                self.finder.overlapping_pairs(&self.scene, &mut self.pairs);
            } else {
                (self.finder).overlapping_pairs_from_scratch(&self.scene, &mut self.pairs);
            }
            let total = begin.elapsed();
            black_box(&self.pairs);
            if timed {
                let s: &FrameStats = self.finder.stats();
                self.totals.push(ms(total));
                let each = [
                    s.build, s.search, s.pack, s.kernels, s.sort, s.events, moved,
                ];
                for (k, d) in each.into_iter().enumerate() {
                    self.phases[k].push(ms(d));
                }
                self.covered.push(ms(each.iter().sum()) / ms(total));
                self.chosen += usize::from(s.chosen);
            }
        }
    }

    /// The medians of the timed frames (at least one).
    pub(crate) fn run(mut self) -> Run {
        let frames = self.totals.len();
        let frame = median(&mut self.totals);
        Run {
            mean: self.totals.iter().sum::<f64>() / frames as f64,
            // Sorted by `median`.
            p90: self.totals[(frames - 1) * 9 / 10],
            worst: self.totals[frames - 1],
            chosen: self.chosen as f64 / frames as f64,
            frame,
            phases: self.phases.each_mut().map(|p| median(p)),
            covered: median(&mut self.covered),
        }
    }
}

/// The runs of one scene, `modes` on each of `pools` (`None`: the frames are called from the
/// main thread, on rayon's global pool), in that order: each run's `warm` frames, then its
/// `frames` timed frames in `rounds` turns, every run taking its turn in each round (one
/// round: each run from start to end in turn, one world alive at a time; more: every world
/// alive through the rounds).
pub(crate) fn runs(
    (start, motion): (&Scene, &Motion),
    pools: &[Option<&rayon::ThreadPool>],
    modes: &[Mode],
    [warm, frames, rounds]: [usize; 3],
) -> Vec<Run> {
    let on = |pool: Option<&rayon::ThreadPool>, f: &mut (dyn FnMut() + Send)| match pool {
        Some(pool) => pool.install(f),
        None => f(),
    };
    let runs = pools
        .iter()
        .flat_map(|&p| modes.iter().map(move |&m| (p, m)));
    if rounds <= 1 {
        return runs
            .map(|(pool, mode)| {
                let mut world = World::new(start, mode);
                on(pool, &mut || {
                    world.frames(motion, warm, false);
                    world.frames(motion, frames, true);
                });
                world.run()
            })
            .collect();
    }
    let mut worlds: Vec<_> = runs
        .map(|(pool, mode)| {
            let mut world = World::new(start, mode);
            on(pool, &mut || world.frames(motion, warm, false));
            (pool, world)
        })
        .collect();
    for round in 0..rounds {
        // As even a share of the timed frames as whole frames allow (none for some rounds
        // where there are fewer frames than rounds: those are skipped).
        let count = frames * (round + 1) / rounds - frames * round / rounds;
        if count == 0 {
            continue;
        }
        for (pool, world) in &mut worlds {
            wake(*pool);
            on(*pool, &mut || world.frames(motion, count, true));
        }
    }
    worlds.into_iter().map(|(_, w)| w.run()).collect()
}

/// Every thread of `pool` (`None`: rayon's global pool) kept busy for 30 ms before a turn:
/// on the two-core VMs a core left idle for a while ran its first milliseconds after its
/// return at half speed (see `probes::kernels`), and a pool's threads idle while the other
/// runs take their turns.
fn wake(pool: Option<&rayon::ThreadPool>) {
    let spin = |_: rayon::BroadcastContext<'_>| {
        let begin = Instant::now();
        while begin.elapsed() < Duration::from_millis(30) {
            std::hint::spin_loop();
        }
    };
    let _: Vec<()> = match pool {
        Some(pool) => pool.broadcast(spin),
        None => rayon::broadcast(spin),
    };
}

//! [`Choice`]: whether a kept finder's next call follows its kept state or searches from
//! scratch, from what each has cost on this machine and this scene.
//!
//! Both give the same answer and the same `began` / `ended` (a search from scratch gives the
//! kept state up, and the next kept call rebuilds it), so the choice is one of speed only. A
//! kept frame pays per kept candidate (about 2.7 times as many as a search from scratch
//! tests, their boxes enlarged) and per shape that left its enlarged box; at a million moving
//! shapes on a 2-core Zen 5 those passes over memory cost from 3 % less to 6 % more than a
//! search from scratch on one thread and 2–12 % more on two, on average over 500 frames
//! (2026-11-29); on sixteen threads of a Xeon less. The size does not say which: the finder
//! times both.
//!
//! 1. From [`CHOOSE_FROM`] moving shapes ([`CHOOSE_FROM_MANY`] on [`MANY_THREADS`] threads or
//!    more), the first calls search from scratch, the last [`FIRST_TIMED`] of them timed (the
//!    first touches its buffers for the first time: at a million shapes it took half as long
//!    again, and made the kept path look cheaper than it was).
//! 2. The kept path follows (its first call rebuilds). Its first [`SETTLE`] calls are not
//!    timed: after a rebuild no shape has left its fresh enlarged box for a few calls, then a
//!    wave of them leaves at once, and only then do the calls cost what they will. The next
//!    [`TRIAL`] calls are, all of them (rebuilds and searches from scratch for jumps
//!    included: what the kept path costs).
//! 3. If they cost more than [`MARGIN`] times a search from scratch on average (the kept
//!    finder's, which finds the pairs that began and ended too; both estimates below), a run
//!    of calls searches from scratch, each timed, then 2 again. Otherwise the kept path goes
//!    on for a run of calls, then one call searches from scratch, timed, and 2 again: a scene
//!    that grew, or a machine that got busier, is seen.
//! 4. A run is [`FIRST_RUN`] calls long after a trial whose verdict differs from the last one,
//!    twice the last run after one that agrees, up to [`LONGEST_RUN`] calls: a verdict that
//!    holds costs little in trials, and one that a noisy trial got wrong is soon tried again.
//!
//! Both estimates shrug off a call that a busy machine held up (a hiccup of the host, as long
//! as several calls at 100 k on many threads): the cost of a search from scratch is the median
//! of its last [`SCRATCH_TIMES`] timings (during a kept run, one a run: a scene that grew is
//! seen after three rechecks), and a trial's average leaves out its [`TRIMMED`] dearest calls
//! (the waves of escapers it is there to see last longer than that). Until 2026-12-01 the
//! cost of a search was a running mean in which each new timing weighed a quarter: one
//! held-up search then made the kept path look cheaper for a whole run. At a million shapes
//! on two threads of the 2-core Zen 5, where the two paths cost about the same, the finder
//! now searches from scratch in 57 % of the calls of some runs (1 % before), the frame's
//! median and mean within the run-to-run noise of either path's.
//!
//! Below the threshold every call follows the kept state (as the jump and rush rules allow).
//! On few threads, at 100 k on the same Zen 5, the kept frame cost 8–15 % less on one thread,
//! and on two from 14 % less to 20 % more from run to run (its second vCPU unsteady): frames
//! of a few milliseconds time the host's noise more than the paths, and little is at stake.
//! On sixteen modelled cores (each pass's tasks timed on one thread and placed on sixteen
//! workers, 2026-12-01) the kept 100 k frame cost 0.67–0.72 ms against 0.52–0.56 from scratch:
//! the sixteen-way split of its passes adds more work to them than to a search's. On eight
//! threads the model had them equal; from there the finder times them from a smaller size.
//!
//! Small scenes are the other end where a search from scratch costs less: the kept frame pays
//! for its lists (thirty of them, by pair kind) however few candidates they hold. On an Intel
//! Xeon VM (2026-12-04, one thread, `scaling --shapes 10,30,100,300,1000`) the kept frame took
//! 1.6, 4.1, 7.9, 16.9 and 43–44 µs, a search from scratch 1.5, 2.6, 6.2, 16.6 and 48–50 µs:
//! dearer up to about 300 shapes, by up to about 1.6 µs a frame. The finder keeps the kept path
//! there: calls of a few microseconds time the machine's noise more than the paths, and a
//! trial would cost more than it could save.

use std::time::Duration;

/// Moving shapes from which the finder times the two paths and takes the cheaper, on fewer
/// than [`MANY_THREADS`] threads.
pub(crate) const CHOOSE_FROM: usize = 1 << 17;

/// Moving shapes from which the finder times the two paths on [`MANY_THREADS`] threads or
/// more (see the module docs).
pub(crate) const CHOOSE_FROM_MANY: usize = 1 << 16;

/// Threads of rayon's pool (the one a call runs in, or the global one) from which the finder
/// chooses from [`CHOOSE_FROM_MANY`] moving shapes.
pub(crate) const MANY_THREADS: usize = 8;

/// Timings of searches from scratch whose median is the cost a trial is held against.
const SCRATCH_TIMES: usize = 5;

/// The dearest kept calls of a trial that it leaves out: a call or two that the machine held
/// up, not the waves of escapers, which last longer.
const TRIMMED: usize = 2;

/// Searches from scratch timed before the first trial of the kept path: one call's time
/// varies by a few per cent from call to call on a busy machine, as much as the two paths
/// differ where the choice matters.
pub(crate) const FIRST_TIMED: u32 = 4;

/// Kept calls after a search from scratch that a trial does not time (see the module docs):
/// at a million shapes on one thread, the wave of escapers after a rebuild has passed by the
/// twentieth.
const SETTLE: u32 = 24;

/// Kept calls a trial times: enough to cover the waves of escapers that follow (shapes that
/// left their boxes together leave their next ones about together).
const TRIAL: u32 = 64;

/// How much more than a search from scratch the kept calls of a trial must cost on average
/// for the finder to search from scratch instead: a little, so that where the two cost about
/// the same the kept state stays rather than a rebuild being paid for each trial. (It was 3 %
/// while a search's cost was a running mean that held-up calls raised; against their median,
/// a one-thread finder at 1 M, whose kept path costs 2–4 % less on average, turned to
/// searches from scratch in one run of seven on the Zen 5, and the runs that follow such a
/// verdict, each ending in a rebuild and a trial, cost more than either path.)
const MARGIN: f64 = 1.06;

/// Calls of the first run after a trial: of searches from scratch, or of kept calls before
/// one search from scratch is timed again.
const FIRST_RUN: u32 = 64;

/// The longest run between two trials of the kept path.
const LONGEST_RUN: u32 = 1024;

/// The path of one call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Path {
    /// Follow the kept state (which may rebuild it, or hand the call to a search from scratch
    /// when too many shapes jumped).
    Kept,
    /// Search from scratch, giving the kept state up.
    Scratch,
}

/// The choice between the two paths (see the module docs).
#[derive(Clone, Debug)]
pub(crate) struct Choice {
    /// Moving shapes from which it chooses, on fewer threads than [`MANY_THREADS`] and on as
    /// many or more ([`CHOOSE_FROM`], [`CHOOSE_FROM_MANY`]; `usize::MAX` never, tests 0).
    pub(crate) from: [usize; 2],
    /// [`MARGIN`] (tests set 0, for a kept path always dearer, or infinity).
    pub(crate) margin: f64,
    /// The searches from scratch: the last [`SCRATCH_TIMES`] times in seconds (by the count
    /// of timed ones, modulo); how many were timed; and whether one ran untimed, the first.
    scratch: [f64; SCRATCH_TIMES],
    timed: u32,
    warm: bool,
    /// The times of the current trial's kept calls, summed, and its [`TRIMMED`] dearest.
    kept: f64,
    dearest: [f64; TRIMMED],
    /// Kept calls since the kept path was last entered.
    calls: u32,
    /// Calls left of the current run of searches from scratch; the last run's length, and
    /// the verdict of the trial that set it (`None`: no trial yet); the kept call after
    /// which one search from scratch is timed again (0: none).
    left: u32,
    run: u32,
    verdict: Option<Path>,
    recheck: u32,
}

impl Default for Choice {
    fn default() -> Self {
        Self {
            from: [CHOOSE_FROM, CHOOSE_FROM_MANY],
            margin: MARGIN,
            scratch: [0.0; SCRATCH_TIMES],
            timed: 0,
            warm: false,
            kept: 0.0,
            dearest: [0.0; TRIMMED],
            calls: 0,
            left: 0,
            run: FIRST_RUN,
            verdict: None,
            recheck: 0,
        }
    }
}

impl Choice {
    /// A choice from the first moving shape on, a kept path dearer than `margin` times a
    /// search from scratch giving way (tests: 0 forces runs of searches from scratch, infinity
    /// the kept path).
    #[cfg(test)]
    pub(crate) fn forced(margin: f64) -> Self {
        Self {
            from: [0; 2],
            margin,
            ..Self::default()
        }
    }

    /// Moving shapes from which it chooses on the pool this call runs on.
    fn threshold(&self) -> usize {
        self.from[usize::from(rayon::current_num_threads() >= MANY_THREADS)]
    }

    /// The cost of a search from scratch: the median of its last timings (of the middle two
    /// where they are even in number).
    fn scratch_cost(&self) -> f64 {
        let n = (self.timed as usize).min(SCRATCH_TIMES);
        if n == 0 {
            return 0.0;
        }
        let mut times = self.scratch;
        let times = &mut times[..n];
        times.sort_unstable_by(f64::total_cmp);
        (times[(n - 1) / 2] + times[n / 2]) / 2.0
    }

    /// The path of the next call on a scene with `moving` moving shapes.
    pub(crate) fn next(&mut self, moving: usize) -> Path {
        if moving < self.threshold() {
            return Path::Kept;
        }
        if self.timed < FIRST_TIMED {
            // Not enough to compare with yet.
            return Path::Scratch;
        }
        if self.left > 0 {
            self.left -= 1;
            return Path::Scratch;
        }
        Path::Kept
    }

    /// A trial of the kept path starts again from its first call.
    fn restart_trial(&mut self) {
        (self.calls, self.kept, self.dearest) = (0, 0.0, [0.0; TRIMMED]);
    }

    /// What a call on a scene with `moving` moving shapes cost: it took `path` (as
    /// [`next`](Self::next) gave it), in `took` of wall time.
    pub(crate) fn record(&mut self, moving: usize, path: Path, took: Duration) {
        if moving < self.threshold() {
            // A trial times a scene of this size only.
            self.restart_trial();
            return;
        }
        let t = took.as_secs_f64();
        match path {
            Path::Scratch if !self.warm => self.warm = true,
            Path::Scratch => {
                self.scratch[self.timed as usize % SCRATCH_TIMES] = t;
                self.timed = self.timed.saturating_add(1);
                // The kept state is given up: the next kept call rebuilds, a trial starts.
                self.restart_trial();
            }
            Path::Kept => {
                self.calls = self.calls.saturating_add(1);
                if self.calls > SETTLE && self.calls <= SETTLE + TRIAL {
                    self.kept += t;
                    // The dearest calls so far, dearest first.
                    let mut t = t;
                    for d in &mut self.dearest {
                        if t > *d {
                            core::mem::swap(&mut t, d);
                        }
                    }
                }
                if self.calls == SETTLE + TRIAL {
                    let trimmed = self.dearest.iter().sum::<f64>();
                    let kept = (self.kept - trimmed) / (TRIAL as usize - TRIMMED) as f64;
                    let verdict = if kept > self.margin * self.scratch_cost() {
                        Path::Scratch
                    } else {
                        Path::Kept
                    };
                    self.run = if self.verdict == Some(verdict) {
                        (2 * self.run).min(LONGEST_RUN)
                    } else {
                        FIRST_RUN
                    };
                    self.verdict = Some(verdict);
                    match verdict {
                        Path::Scratch => (self.left, self.recheck) = (self.run, 0),
                        Path::Kept => self.recheck = self.calls + self.run,
                    }
                } else if self.calls == self.recheck {
                    self.left = 1;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_pool::in_pool;

    const N: usize = CHOOSE_FROM;

    fn ms(t: f64) -> Duration {
        Duration::from_secs_f64(t / 1e3)
    }

    /// Runs `calls` calls on `N` shapes whose kept calls cost `kept` ms (a rebuild, the first
    /// after a search from scratch, `rebuild` ms) and searches from scratch `scratch` ms;
    /// the paths taken.
    fn drive(choice: &mut Choice, calls: usize, [kept, rebuild, scratch]: [f64; 3]) -> Vec<Path> {
        let mut after_scratch = false;
        (0..calls)
            .map(|_| {
                let path = choice.next(N);
                let took = match path {
                    Path::Scratch => scratch,
                    Path::Kept if after_scratch => rebuild,
                    Path::Kept => kept,
                };
                after_scratch = path == Path::Scratch;
                choice.record(N, path, ms(took));
                path
            })
            .collect()
    }

    fn scratch_share(paths: &[Path]) -> f64 {
        paths.iter().filter(|&&p| p == Path::Scratch).count() as f64 / paths.len() as f64
    }

    #[test]
    fn small_scenes_always_keep() {
        // On fewer threads than `MANY_THREADS` from `CHOOSE_FROM`, on as many from
        // `CHOOSE_FROM_MANY`.
        for (threads, from) in [
            (1, N),
            (2, N),
            (7, N),
            (8, CHOOSE_FROM_MANY),
            (16, CHOOSE_FROM_MANY),
        ] {
            in_pool(threads, || {
                let mut choice = Choice::default();
                for _ in 0..10_000 {
                    assert_eq!(choice.next(from - 1), Path::Kept, "{threads} threads");
                    choice.record(from - 1, Path::Kept, ms(100.0));
                }
                assert_eq!(choice.next(from - 1), Path::Kept);
                // From the threshold on, the first call searches from scratch to time it.
                assert_eq!(choice.next(from), Path::Scratch, "{threads} threads");
            });
        }
    }

    /// The verdict of the first trial after searches from scratch that took `scratch` ms
    /// (the first untimed) and kept calls that took `kept(k)` ms, `k` counting from the first.
    fn verdict(scratch: [f64; 5], kept: impl Fn(u32) -> f64) -> Option<Path> {
        let mut choice = Choice::default();
        for took in scratch {
            assert_eq!(choice.next(N), Path::Scratch);
            choice.record(N, Path::Scratch, ms(took));
        }
        for k in 0..SETTLE + TRIAL {
            assert_eq!(choice.next(N), Path::Kept);
            choice.record(N, Path::Kept, ms(kept(k)));
        }
        choice.verdict
    }

    /// One call that the machine held up, in the last timings of a search from scratch or in
    /// a trial, does not decide the verdict: the median and the trimmed trial leave it out
    /// (a mean would have taken it, and chosen the other path).
    #[test]
    fn a_hiccup_does_not_decide() {
        let steady = [70.0; 5];
        // A dearer kept path (80 against 70 ms), the last search from scratch held up.
        let held = [70.0, 70.0, 70.0, 70.0, 700.0];
        assert_eq!(verdict(held, |_| 80.0), Some(Path::Scratch));
        // A cheaper kept path (60 against 70 ms), two of its trial's calls held up.
        let held = |k| k == SETTLE + 3 || k == SETTLE + 40;
        let kept = |k| if held(k) { 600.0 } else { 60.0 };
        assert_eq!(verdict(steady, kept), Some(Path::Kept));
        // A wave that lasts longer than the trimmed calls still counts.
        let wave = |k| {
            if (SETTLE..SETTLE + 16).contains(&k) {
                140.0
            } else {
                60.0
            }
        };
        assert_eq!(verdict(steady, wave), Some(Path::Scratch));
    }

    #[test]
    fn a_cheaper_kept_path_is_kept_and_checked_now_and_then() {
        let mut choice = Choice::default();
        let paths = drive(&mut choice, 20_000, [60.0, 200.0, 70.0]);
        let start = 1 + FIRST_TIMED as usize;
        assert_eq!(paths[..start], [Path::Scratch; 1 + FIRST_TIMED as usize]);
        // A trial, then runs of kept calls of 64, 128, ... 1024, each followed by one search
        // from scratch and the next trial.
        let trial = (SETTLE + TRIAL) as usize;
        let mut at = start;
        for run in [64, 128, 256, 512, 1024, 1024] {
            let kept = &paths[at..at + trial + run];
            assert!(kept.iter().all(|&p| p == Path::Kept), "run {run}");
            assert_eq!(paths[at + trial + run], Path::Scratch, "run {run}");
            at += trial + run + 1;
        }
    }

    #[test]
    fn a_dearer_kept_path_gives_way_in_growing_runs() {
        let mut choice = Choice::default();
        let paths = drive(&mut choice, 40_000, [80.0, 200.0, 70.0]);
        let trial = (SETTLE + TRIAL) as usize;
        let first = 1 + FIRST_TIMED as usize + trial;
        assert!(paths[first - trial..first].iter().all(|&p| p == Path::Kept));
        assert!(
            paths[first..first + FIRST_RUN as usize]
                .iter()
                .all(|&p| p == Path::Scratch)
        );
        assert_eq!(paths[first + FIRST_RUN as usize], Path::Kept);
        // The second run is twice as long.
        let second = first + FIRST_RUN as usize + trial;
        let run = &paths[second..second + 2 * FIRST_RUN as usize];
        assert!(run.iter().all(|&p| p == Path::Scratch));
        assert_eq!(paths[second + 2 * FIRST_RUN as usize], Path::Kept);
        // Late on, runs of the longest length between trials.
        let share = scratch_share(&paths[30_000..]);
        let expected = f64::from(LONGEST_RUN) / f64::from(LONGEST_RUN + SETTLE + TRIAL);
        assert!(
            (share - expected).abs() < 0.02,
            "{share} against {expected}"
        );
    }

    #[test]
    fn the_first_search_from_scratch_is_not_timed() {
        let mut choice = Choice::default();
        // The first call touches its buffers for the first time, and takes long.
        for took in [1_000.0, 70.0, 70.0, 70.0, 70.0] {
            assert_eq!(choice.next(N), Path::Scratch);
            choice.record(N, Path::Scratch, ms(took));
        }
        for _ in 0..SETTLE + TRIAL {
            assert_eq!(choice.next(N), Path::Kept);
            choice.record(N, Path::Kept, ms(80.0));
        }
        assert_eq!(choice.next(N), Path::Scratch);
    }

    #[test]
    fn within_the_margin_the_kept_path_stays() {
        let mut choice = Choice::default();
        let paths = drive(&mut choice, 5_000, [73.5, 200.0, 70.0]);
        assert!(scratch_share(&paths[5..]) < 0.002);
    }

    #[test]
    fn runs_start_short_when_the_verdict_changes() {
        let mut choice = Choice::default();
        drive(&mut choice, 3_000, [90.0, 200.0, 70.0]);
        assert!(choice.run > FIRST_RUN);
        assert_eq!(choice.verdict, Some(Path::Scratch));
        // The scene quiets down: the next trial finds the kept path cheaper, and the kept
        // path is tried again after a short run.
        let paths = drive(&mut choice, 1_200, [40.0, 200.0, 70.0]);
        let back = paths
            .iter()
            .position(|&p| p == Path::Kept)
            .expect("a trial");
        let trial = (SETTLE + TRIAL) as usize;
        assert_eq!(choice.verdict, Some(Path::Kept));
        assert_eq!(paths[back + trial + FIRST_RUN as usize], Path::Scratch);
        assert!(scratch_share(&paths[back..]) < 0.01);
    }

    #[test]
    fn the_margins_tests_use_force_either_path() {
        let mut dearer = Choice {
            margin: 0.0,
            ..Choice::default()
        };
        let paths = drive(&mut dearer, 2_000, [1.0, 1.0, 1_000.0]);
        let first = 1 + (FIRST_TIMED + SETTLE + TRIAL) as usize;
        assert_eq!(paths[first], Path::Scratch);
        assert!(scratch_share(&paths) > 0.75);
        let mut cheaper = Choice {
            margin: f64::INFINITY,
            ..Choice::default()
        };
        let paths = drive(&mut cheaper, 2_000, [1_000.0, 1_000.0, 1.0]);
        // The rechecks only, after kept runs of 64, 128, 256 and 512 calls.
        assert_eq!(
            paths[5..].iter().filter(|&&p| p == Path::Scratch).count(),
            4
        );
    }
}

//! A [`PairFinder`]'s settings: its enlarged boxes' margin, when it rebuilds, whether it
//! times its calls to choose between its kept state and a search from scratch, and whether
//! the pool's threads spin between a call's passes.

use super::PairFinder;
use super::kept::{CHOOSE_FROM, CHOOSE_FROM_MANY, Margin};

impl PairFinder {
    /// This finder with enlarged boxes that reach `margin` beyond each shape's padded box on
    /// every side (before they move ahead, as the [`PairFinder`] docs say), instead of the
    /// automatic three tenths of the box's larger side. A larger margin
    /// means fewer escapers per frame and more candidate pairs; 0 makes every move an escape.
    /// The answer does not depend on it.
    ///
    /// # Panics
    /// If `margin` is negative or not finite.
    #[must_use]
    pub fn with_margin(mut self, margin: f32) -> Self {
        assert!(
            margin >= 0.0 && margin.is_finite(),
            "PairFinder margin must be finite and not negative, got {margin}"
        );
        self.kept.margin = Margin::Fixed(margin);
        self.kept.invalidate();
        self
    }

    /// This finder rebuilding its grid and candidates from scratch in a frame where more than
    /// `share` (0 to 1) of the shapes escaped their enlarged boxes, instead of a quarter. 0
    /// rebuilds whenever one escaped; 1 never for escapers, and never searches from scratch
    /// for shapes that jumped (see [`PairFinder`]). The answer does not depend on it.
    ///
    /// # Panics
    /// If `share` is not between 0 and 1.
    #[must_use]
    pub fn with_rebuild_threshold(mut self, share: f32) -> Self {
        assert!(
            (0.0..=1.0).contains(&share),
            "PairFinder rebuild threshold must be between 0 and 1, got {share}"
        );
        self.kept.rebuild_above = share;
        self
    }

    /// This finder with `choose` saying whether it times its calls, from 2¹⁷ moving shapes
    /// (2¹⁶ in a pool of eight threads or more), to search from scratch where that has been
    /// cheaper than following its kept state (see [`PairFinder`] and
    /// [`FrameStats::chosen`](crate::FrameStats::chosen)); on by default.
    /// Off, every call follows the kept state as the jump and rush rules allow: for measuring
    /// the kept path alone, or where a frame's work must not depend on timings. The answer and
    /// the events do not depend on it.
    ///
    /// ```
    /// use widephase::{Circle, PairFinder, Scene};
    /// let scene: Scene = (0..200_000).map(|i| Circle::new(i as f32, 0.0, 0.6)).collect();
    /// let mut finder = PairFinder::new().with_choice(false);
    /// let mut pairs = Vec::new();
    /// finder.overlapping_pairs(&scene, &mut pairs);
    /// assert!(finder.stats().rebuilt && !finder.stats().chosen);
    /// assert_eq!(pairs.len(), 199_999);
    ///
    /// // By default the first calls on so many moving shapes search from scratch, timed.
    /// let mut auto = PairFinder::new();
    /// auto.overlapping_pairs(&scene, &mut pairs);
    /// assert!(auto.stats().chosen);
    /// assert_eq!(pairs.len(), 199_999);
    /// ```
    #[must_use]
    pub fn with_choice(mut self, choose: bool) -> Self {
        self.kept.choice.from = if choose {
            [CHOOSE_FROM, CHOOSE_FROM_MANY]
        } else {
            [usize::MAX; 2]
        };
        self
    }

    /// This finder with `spin` saying whether, during a call over 16 k shapes or more (8 k for
    /// [`overlapping_pairs`](Self::overlapping_pairs) and the kept `contacts` and `manifolds`)
    /// in a pool of two or more threads, the pool's other threads look for work until the
    /// call returns, one a core; on by default. rayon puts a thread that found no work for
    /// about 20 µs to sleep, and a call is dozens of parallel passes with serial steps between
    /// them: each pass after a longer step waited for the threads to wake (on a 2-core Xeon
    /// VM, a fork of two 50 µs halves after a serial step took 139 µs; 52 µs held), one
    /// after another on many threads. Held, the threads run any rayon work they find, the
    /// call's or not, and the call returns once each has finished the job it was running;
    /// one that finds no work for half a millisecond lets go early. Off, where the cores are
    /// wanted for other programs between the passes, or on a machine with more threads than
    /// free cores. The answer does not depend on it.
    ///
    /// The cores are what [`std::thread::available_parallelism`] says, or the
    /// `WIDEPHASE_CORES` environment variable where it holds a positive number (read once, at
    /// a process's first parallel call): a pool of more threads than cores neither holds them
    /// nor waits awake, so that the passes of a many-core machine (one group of work a thread,
    /// each thread's group its own) run only where the cores are counted as many. Tests set
    /// it to run those passes on a small machine; a program has no need to.
    ///
    /// ```
    /// use widephase::{Circle, PairFinder, Scene};
    /// let scene: Scene = (0..20_000).map(|i| Circle::new(i as f32, 0.0, 0.6)).collect();
    /// let (mut held, mut free) = (PairFinder::new(), PairFinder::new().with_spinning(false));
    /// let (mut a, mut b) = (Vec::new(), Vec::new());
    /// held.overlapping_pairs(&scene, &mut a);
    /// free.overlapping_pairs(&scene, &mut b);
    /// assert_eq!(a, b);
    /// assert_eq!(a.len(), 19_999);
    /// ```
    #[must_use]
    pub fn with_spinning(mut self, spin: bool) -> Self {
        self.let_sleep = !spin;
        self
    }
}

#[cfg(test)]
mod tests {
    use super::super::kept::{Choice, FIRST_TIMED};
    use crate::test_pool::in_pool;
    use crate::{Circle, PairFinder, Scene};

    /// Every frame of a moving scene (moves, teleports, removals, pushes, a static shape now
    /// and then) through finders whose choice is forced either way from the first shape on,
    /// against a search from scratch: the same answer and the same began and ended pairs,
    /// whichever path each call took and across every switch.
    #[test]
    fn either_path_gives_the_same_answers_and_events() {
        use std::collections::BTreeSet;
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut random = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 40) as f32 / (1u64 << 24) as f32
        };
        let mut scene = Scene::new();
        let mut at: Vec<[f32; 3]> = (0..300)
            .map(|_| [random() * 40.0, random() * 40.0, 0.3 + random()])
            .collect();
        for &[x, y, r] in &at {
            scene.push(Circle::new(x, y, r));
        }
        let forced = |margin: f64| {
            let mut finder = PairFinder::new();
            finder.kept.choice = Choice::forced(margin);
            finder
        };
        let mut finders = [forced(0.0), forced(f64::INFINITY), PairFinder::new()];
        let (mut fresh, mut pairs, mut previous) = (PairFinder::new(), Vec::new(), Vec::new());
        let mut chosen = [0; 3];
        for frame in 0..700u32 {
            for (id, [x, y, r]) in at.iter_mut().enumerate() {
                let id = id as u32;
                if random() < 0.01 {
                    [*x, *y] = [random() * 40.0, random() * 40.0];
                } else {
                    *x += (random() - 0.5) * 0.4;
                    *y += (random() - 0.5) * 0.4;
                }
                if scene.contains(id) {
                    scene.set(id, Circle::new(*x, *y, *r));
                }
            }
            if frame % 50 == 7 {
                scene.remove((random() * at.len() as f32) as u32);
            }
            if frame % 50 == 32 {
                let c = [random() * 40.0, random() * 40.0, 0.3 + random()];
                let id = scene.push(Circle::new(c[0], c[1], c[2])) as usize;
                if id < at.len() {
                    at[id] = c;
                } else {
                    at.push(c);
                }
            }
            if frame % 200 == 100 {
                scene.push_static(Circle::new(random() * 40.0, random() * 40.0, 3.0));
            }
            let mut expected = Vec::new();
            fresh.overlapping_pairs_from_scratch(&scene, &mut expected);
            let (now, before): (BTreeSet<_>, BTreeSet<_>) = (
                expected.iter().copied().collect(),
                previous.iter().copied().collect(),
            );
            let began: Vec<_> = now.difference(&before).copied().collect();
            let ended: Vec<_> = before.difference(&now).copied().collect();
            for (finder, chosen) in finders.iter_mut().zip(&mut chosen) {
                finder.overlapping_pairs(&scene, &mut pairs);
                assert_eq!(pairs, expected, "frame {frame}");
                if frame > 0 {
                    assert_eq!(finder.began(), began, "frame {frame}");
                    assert_eq!(finder.ended(), ended, "frame {frame}");
                }
                *chosen += usize::from(finder.stats().chosen);
            }
            previous = expected;
        }
        // The first finder searched from scratch by choice in most calls, the third never.
        assert!(chosen[0] > 400, "{chosen:?}");
        // The second: its first calls, and a recheck after each trial (kept runs of 64 and 128
        // calls in 700).
        assert_eq!(chosen[1..], [1 + FIRST_TIMED as usize + 2, 0]);
    }

    /// A finder's first call on 2¹⁶ moving shapes searches from scratch to time it, by
    /// choice, in a pool of eight threads or more, and follows its kept state (rebuilding it)
    /// on fewer; with the choice off, on any.
    #[test]
    fn the_threshold_follows_the_pool() {
        let n = super::CHOOSE_FROM_MANY as u32;
        let scene: Scene = (0..n)
            .map(|i| Circle::new((i % 256) as f32, (i / 256) as f32, 0.6))
            .collect();
        for (threads, choice, chosen) in [(2, true, false), (7, true, false), (8, true, true)]
            .into_iter()
            .chain([(16, true, true), (16, false, false)])
        {
            let (stats, pairs) = in_pool(threads, || {
                let mut finder = PairFinder::new().with_choice(choice);
                let mut pairs = Vec::new();
                finder.overlapping_pairs(&scene, &mut pairs);
                (finder.stats().clone(), pairs.len())
            });
            assert_eq!(stats.chosen, chosen, "{threads} threads, choice {choice}");
            assert!(stats.rebuilt, "{threads} threads");
            // Neighbours along each row and each column of the 256 x 256 lattice.
            assert_eq!(pairs, 2 * 256 * 255);
        }
    }
}

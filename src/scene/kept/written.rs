//! Where the walk writes the lists it follows: each task straight into its share of the lists'
//! spare buffers, which then take the lists' place, and the pads the tasks leave.
//!
//! A task of the walk decides the candidates of a range of first positions in every list and
//! writes its share of each list anew as it follows the escapers' moves (see `follow.rs`):
//! never more candidates than it read, old and new, since an old one is kept or dropped (a
//! flagged one may pass its flag to its twin among the new, which then is not merged in
//! again) and a new one is merged in once. So task `k`'s share of a list starts where the
//! candidates read by the tasks before it add up to, and it writes there, where the list will
//! lie. What it leaves of its share (as many places as it dropped candidates) it fills with
//! *pads*, `(p, DEAD)`, `p` the first position of its last candidate (or of the first it read,
//! where it wrote none), so that a moving list stays in order of first positions. (Until
//! 2026-12-01 each task wrote lists of its own, copied into one after the walk: a copy of every
//! candidate in every frame on more than one thread.)
//!
//! A pad is never decided. The next call that follows the moves drops each as it drops an
//! escaper's candidate ([`Follow::at`](super::follow::Follow::at)); a moving list's blocks that
//! hold pads are marked touched (`untouched.rs`), so that none is copied as it lies. A call
//! that decides the lists where they lie first copies them without their pads
//! ([`Lists::unpad`]), from the shares noted in [`Lists::shares`].

use super::lists::Lists;
use super::tasks::Task;
use crate::concat::concat_all;
use crate::scene::candidates::{HIT, PAIR_KINDS};

/// The second position of a pad, 2³¹ − 1, never flagged ([`HIT`]): no position (the
/// moving indices and the static neighbours after them, each store's below 2²⁴).
pub(super) const DEAD: u32 = !HIT;

/// A task's share of a list: the places it may write, and how many it wrote.
#[derive(Debug)]
pub(super) struct Share<'a> {
    places: &'a mut [(u32, u32)],
    len: usize,
}

impl<'a> Share<'a> {
    /// A share of `places`, none written yet.
    pub(super) fn new(places: &'a mut [(u32, u32)]) -> Self {
        Self { places, len: 0 }
    }

    /// Fills the places left with pads after the last candidate written, or, where none was,
    /// at `first` (the first position of the first candidate the task read); how many
    /// candidates it wrote.
    pub(super) fn pad(self, first: u32) -> usize {
        let (written, rest) = self.places.split_at_mut(self.len);
        let p = written.last().map_or(first, |c| c.0);
        rest.fill((p, DEAD));
        self.len
    }

    /// Appends `c`.
    #[inline(always)]
    pub(super) fn put(&mut self, c: (u32, u32)) {
        self.places[self.len] = c;
        self.len += 1;
    }

    /// Appends every candidate of `run`.
    #[inline(always)]
    pub(super) fn put_all(&mut self, run: &[(u32, u32)]) {
        self.places[self.len..self.len + run.len()].copy_from_slice(run);
        self.len += run.len();
    }

    /// The candidates written so far.
    #[inline(always)]
    pub(super) fn written(&mut self) -> &mut [(u32, u32)] {
        &mut self.places[..self.len]
    }
}

impl Lists {
    /// Whether the lists hold pads.
    pub(super) fn padded(&self) -> bool {
        !self.shares.is_empty()
    }

    /// The first position of each run of pads, with its list: a run follows each share that
    /// its task did not fill.
    pub(super) fn pads(&self) -> impl Iterator<Item = (usize, u32)> + '_ {
        (0..self.shares.len()).flat_map(move |k| {
            (0..PAIR_KINDS).filter_map(move |j| {
                let run = pad_run(&self.shares, self.kinds[j].len(), k, j);
                (!run.is_empty()).then(|| (j, self.kinds[j][run.start].0))
            })
        })
    }

    /// The lists as the tasks of a walk wrote them into the spare buffers (`set`: the moving
    /// lists 0, the mixed ones 1) take the lists' place, which are the buffers of the next
    /// walk: one task's without their pads, all at their ends; several tasks' with them, each
    /// task's shares noted.
    pub(super) fn take_written(&mut self, tasks: &[Task], set: usize) {
        self.shares.clear();
        let written = |t: &Task, j: usize| t.written[set * PAIR_KINDS + j];
        if let [t] = tasks {
            for (j, list) in self.spare.iter_mut().enumerate() {
                list.truncate(written(t, j));
            }
        } else {
            let shares = tasks.iter().zip(&self.places);
            let shares = shares.map(|(t, at)| core::array::from_fn(|j| (at[j], written(t, j))));
            self.shares.extend(shares);
        }
        core::mem::swap(&mut self.kinds, &mut self.spare);
    }

    /// The lists without their pads: each share's candidates copied one after another into
    /// the spare buffers, on rayon's threads, which then take the lists' place.
    pub(super) fn unpad(&mut self) {
        if !self.padded() {
            return;
        }
        let kinds = &self.kinds;
        let share = |s: &[(usize, usize); PAIR_KINDS], j: usize| s[j].0..s[j].0 + s[j].1;
        concat_all(
            self.spare.each_mut(),
            &self.shares,
            &|s, j| &kinds[j][share(s, j)],
            &|_, _, x| x,
        );
        core::mem::swap(&mut self.kinds, &mut self.spare);
        self.shares.clear();
    }
}

/// Where each task's share of each list of a set starts, into `places`, in the lists a walk of
/// several tasks writes: task `k` reads list `j`'s old candidates (`kinds[j]`, with pads after
/// the `shares` its last writers left short) from `splits[k][c].0` and its new ones from
/// `splits[k][c].1`, `c` the list's column (`set` the moving lists 0, the mixed ones 1); the
/// tasks before it write as many as they read, less the old pads among them.
pub(super) fn place(
    places: &mut Vec<[usize; PAIR_KINDS]>,
    kinds: &[Vec<(u32, u32)>; PAIR_KINDS],
    shares: &[[(usize, usize); PAIR_KINDS]],
    splits: &[[(usize, usize); 2 * PAIR_KINDS]],
    set: usize,
) {
    places.clear();
    places.resize(splits.len(), [0; PAIR_KINDS]);
    for j in 0..PAIR_KINDS {
        // `before`: the pads of the shares before `s`.
        let run = |s: usize| pad_run(shares, kinds[j].len(), s, j);
        let (mut s, mut before) = (0, 0);
        for (split, place) in splits.iter().zip(places.iter_mut()) {
            let (old, new) = split[set * PAIR_KINDS + j];
            while s < shares.len() && run(s).end <= old {
                before += run(s).len();
                s += 1;
            }
            let within = if s < shares.len() {
                let pads = run(s);
                old.saturating_sub(pads.start).min(pads.len())
            } else {
                0
            };
            place[j] = old - before - within + new;
        }
    }
}

/// Where the pads of share `k` of list `j` lie, of `len` places: from the last candidate its
/// task wrote to where the next task's share starts (or the list ends).
fn pad_run(
    shares: &[[(usize, usize); PAIR_KINDS]],
    len: usize,
    k: usize,
    j: usize,
) -> core::ops::Range<usize> {
    let (start, written) = shares[k][j];
    start + written..shares.get(k + 1).map_or(len, |next| next[j].0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_share_pads_what_its_task_left_after_its_last_candidate() {
        let mut places = [(9, 9); 5];
        let mut share = Share::new(&mut places);
        share.put((1, 2));
        share.put_all(&[(3, 4), (3, 5 | HIT)]);
        assert_eq!(share.written(), [(1, 2), (3, 4), (3, 5 | HIT)]);
        assert_eq!(share.pad(0), 3);
        assert_eq!(places, [(1, 2), (3, 4), (3, 5 | HIT), (3, DEAD), (3, DEAD)]);
        // None written: the pads at the first position read.
        let mut places = [(9, 9); 2];
        assert_eq!(Share::new(&mut places).pad(7), 0);
        assert_eq!(places, [(7, DEAD); 2]);
    }

    /// Two lists written by three tasks, the second of which filled its share of list 0: the
    /// pads are found after each share left short, and unpadding leaves the candidates in order.
    #[test]
    fn unpadded_lists_hold_every_share_in_order() {
        let mut lists = Lists::default();
        lists.kinds[0] = vec![(0, 1), (0, DEAD), (2, 3), (4, 5), (4, DEAD), (4, DEAD)];
        lists.kinds[1] = vec![(1, DEAD), (3, 4), (5, 6)];
        let mut share = [(0, 0); PAIR_KINDS];
        lists.shares = [(0, 1, 0, 0), (2, 1, 1, 1), (3, 1, 2, 1)]
            .iter()
            .map(|&(a, b, c, d)| {
                share[0] = (a, b);
                share[1] = (c, d);
                share
            })
            .collect();
        let pads: Vec<_> = lists.pads().collect();
        assert_eq!(pads, [(0, 0), (1, 1), (0, 4)]);
        assert!(lists.padded());
        lists.unpad();
        assert!(!lists.padded());
        assert_eq!(lists.kinds[0], [(0, 1), (2, 3), (4, 5)]);
        assert_eq!(lists.kinds[1], [(3, 4), (5, 6)]);
        assert!(lists.kinds[2..].iter().all(Vec::is_empty));
    }

    /// Lists as tasks of random number leave them (each share partly written, pads after),
    /// split at random ascending places: each share of the next walk starts after the
    /// candidates read before it, old and new, less the old pads among them.
    #[test]
    fn a_share_starts_after_what_was_read_before_it_less_the_old_pads() {
        use crate::test_rng::Xorshift;
        let mut rng = Xorshift::new(0x7ad5_0c1e);
        let (mut places, mut splits) = (Vec::new(), Vec::new());
        for round in 0..200 {
            let mut lists = Lists::default();
            let tasks = 1 + rng.below(5) as usize;
            lists.shares = vec![[(0, 0); PAIR_KINDS]; tasks];
            for j in 0..PAIR_KINDS {
                let list = &mut lists.kinds[j];
                for share in &mut lists.shares {
                    let (written, pads) = (rng.below(4) as usize, rng.below(3) as usize);
                    share[j] = (list.len(), written);
                    let first = list.len() as u32;
                    list.extend((0..written).map(|i| (first + i as u32, 0)));
                    list.extend((0..pads).map(|_| (first + written as u32, DEAD)));
                }
            }
            let set = (round % 2) as usize;
            let cuts = 1 + rng.below(6) as usize;
            splits.clear();
            splits.resize(cuts + 1, [(0, 0); 2 * PAIR_KINDS]);
            for j in 0..PAIR_KINDS {
                let len = lists.kinds[j].len() as u32;
                let mut cut: Vec<u32> = (0..cuts - 1).map(|_| rng.below(len + 1)).collect();
                cut.sort_unstable();
                for (k, split) in splits.iter_mut().enumerate() {
                    let old = match k {
                        0 => 0,
                        k if k == cuts => len,
                        k => cut[k - 1],
                    };
                    split[set * PAIR_KINDS + j] = (old as usize, 5 * k);
                }
            }
            place(&mut places, &lists.kinds, &lists.shares, &splits, set);
            for (k, split) in splits.iter().enumerate() {
                for j in 0..PAIR_KINDS {
                    let (old, new) = split[set * PAIR_KINDS + j];
                    let pads = lists.kinds[j][..old].iter().filter(|c| c.1 == DEAD).count();
                    assert_eq!(
                        places[k][j],
                        old - pads + new,
                        "round {round}, split {k}, list {j}"
                    );
                }
            }
        }
    }

    /// A world in which one circle in 64 escapes every call, on three and eight threads: after
    /// each call the pads lie exactly where the shares say, and they are exactly the
    /// candidates the call read (the last call's, and the new ones) but did not write (a call
    /// drops the last one's pads rather than keeping their places); a call with no escaper
    /// leaves none.
    #[test]
    fn pads_lie_where_the_shares_say_and_never_pile_up() {
        use crate::{Circle, PairFinder, Scene};
        let at = |id: u32, frame: u32| {
            let step = if id % 64 == 5 && frame < 20 {
                0.5 * (frame % 2) as f32
            } else {
                0.0
            };
            Circle::new(2.2 * (id % 250) as f32 + step, 2.2 * (id / 250) as f32, 1.0)
        };
        for threads in [3, 8] {
            crate::test_pool::in_pool(threads, || {
                let mut scene = Scene::new();
                for id in 0..40_000 {
                    scene.push(at(id, 0));
                }
                let mut finder = PairFinder::new().with_choice(false);
                let (mut out, mut last, mut padded) = (Vec::new(), 0, 0);
                for frame in 0..24 {
                    scene.update(|id, _| at(id, frame).into());
                    finder.overlapping_pairs(&scene, &mut out);
                    let lists = &finder.kept.candidates;
                    let mut runs = vec![Vec::new(); PAIR_KINDS];
                    for k in 0..lists.shares.len() {
                        for (j, run) in runs.iter_mut().enumerate() {
                            run.extend(pad_run(&lists.shares, lists.kinds[j].len(), k, j));
                        }
                    }
                    let mut pads = 0;
                    for (j, list) in lists.kinds.iter().enumerate() {
                        let dead = (0..list.len()).filter(|&i| list[i].1 == DEAD);
                        assert_eq!(dead.clone().collect::<Vec<_>>(), runs[j], "frame {frame}");
                        pads += dead.count();
                    }
                    let real = lists.kinds.iter().map(Vec::len).sum::<usize>() - pads;
                    if lists.padded() {
                        let added: usize = lists.added.iter().map(|r| r.len()).sum();
                        assert_eq!(
                            pads,
                            last + added - real,
                            "{threads} threads, frame {frame}"
                        );
                        padded += 1;
                    }
                    last = real;
                    if frame > 20 {
                        assert_eq!((pads, lists.padded()), (0, false), "frame {frame}");
                    }
                }
                assert!(padded >= 15, "{threads} threads: {padded} calls left pads");
            });
        }
    }
}

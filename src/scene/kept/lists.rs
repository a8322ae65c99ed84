//! The kept candidate lists, one per pair kind, and how a found pair is filed in them.

use super::tasks::Task;
use crate::concat::{concat_all, copy_parts};
use crate::scene::candidates::{Candidates, PAIR_KINDS};
use crate::scene::filter::Rule;
use crate::scene::radix::RadixSort;
use crate::scene::records::{CLASS, FILTER_SHIFT, KIND};
use crate::scene::store::Scene;
use core::ops::Range;

/// The bits of a record's kind word that its candidates are filed by: its kind code and its
/// filter's index. A kept list holds only pairs whose filters pair, so a shape whose filter
/// changed is an escaper, and the kernels' walk need not look at filters.
pub(super) const TAG: u32 = KIND | !CLASS;

/// The scene's filter table, where some shape's filter is not [`Filter::ALL`](crate::Filter::ALL).
pub(super) fn filters_of(scene: &Scene) -> Option<&[Rule]> {
    scene.filters.layered().then(|| scene.filters.all())
}

/// Candidate pairs by pair kind ([`Candidates::kind_of`]): pairs of positions in the records
/// the kernels read, each in its kernel's argument order, so that a frame gathers and tests
/// them without filing them again. A list keeps about the order of its first position.
#[derive(Debug, Default)]
pub(super) struct Lists {
    pub(super) kinds: [Vec<(u32, u32)>; PAIR_KINDS],
    /// The escapers' new candidates of this call, all kinds together, sorted once with their
    /// kinds above their first indices (and a rebuild's spare); and the run of each kind,
    /// ascending (see [`added`](Self::added)).
    pub(super) new: Vec<(u32, u32)>,
    pub(super) added: [Range<usize>; PAIR_KINDS],
    /// The buffers a walk that follows the moves writes the lists into, which then take the
    /// lists' place (see `written.rs`).
    pub(super) spare: [Vec<(u32, u32)>; PAIR_KINDS],
    /// Where the lists hold pads: per task of the walk that wrote them, where its share of
    /// each list starts and how many candidates it wrote there (empty: no pads).
    pub(super) shares: Vec<[(usize, usize); PAIR_KINDS]>,
    /// Where each task's share of each list starts in the lists a walk of several tasks
    /// writes (see [`place`](super::written::place)).
    pub(super) places: Vec<[usize; PAIR_KINDS]>,
}

impl Lists {
    /// The pairs each task filed, as the lists, in task order.
    pub(super) fn take_filed(&mut self, tasks: &[Task]) {
        self.shares.clear();
        // None new: `new` is the spare of a rebuild's sort.
        self.added = Default::default();
        let lists = self.kinds.each_mut();
        concat_all(lists, tasks, &|t: &Task, k| &t.filed[k][..], &|_, _, x| x);
    }

    /// The pairs each task filed, each kind's ascending in its run of `new` (`added`), for
    /// the lists to merge in; positions below `positions`. On rayon's threads: all kinds in
    /// one radix sort, a pair's first position carrying its kind above its own bits where
    /// they fit in 32 bits (a sort per kind ran the many short kinds' on one thread), which
    /// the sort drops as it writes the pairs back. (Copied from there into a list per kind,
    /// they took one more pass over them: on sixteen threads a fork and join of its own.)
    pub(super) fn take_filed_sorted(
        &mut self,
        sort: &mut RadixSort,
        tasks: &[Task],
        positions: u32,
    ) {
        let lens: [usize; PAIR_KINDS] =
            core::array::from_fn(|k| tasks.iter().map(|t| t.filed[k].len()).sum());
        let mut end = 0;
        self.added = lens.map(|len| {
            end += len;
            end - len..end
        });
        let new = &mut self.new;
        new.resize(end, (0, 0));
        let mut rest = &mut new[..];
        let runs = lens.map(|len| {
            let (run, tail) = core::mem::take(&mut rest).split_at_mut(len);
            rest = tail;
            run
        });
        let bits = u32::BITS - positions.leading_zeros();
        let kind_bits = u32::BITS - (PAIR_KINDS as u32 - 1).leading_zeros();
        if bits + kind_bits > u32::BITS {
            copy_parts(runs, tasks, &|t: &Task, k| &t.filed[k][..], &|_, _, x| x);
            for run in self.added.clone() {
                sort.sort_sparse(&mut self.new[run]);
            }
            return;
        }
        let tagged = |_: &Task, k: usize, (a, b): (u32, u32)| ((k as u32) << bits | a, b);
        copy_parts(runs, tasks, &|t: &Task, k| &t.filed[k][..], &tagged);
        // Each pair's positions are below `positions`, its kind one that holds pairs.
        let kinds = (0..PAIR_KINDS as u32).filter(|&k| lens[k as usize] > 0);
        let (least, most) = (kinds.clone().min(), kinds.max());
        let (least, most) = (least.unwrap_or(0) << bits, most.unwrap_or(0) << bits);
        let last = positions.saturating_sub(1);
        let bounds = (least, most | last, last);
        sort.sort_sparse_within(new, bounds, (1 << bits) - 1);
    }

    /// The escapers' new candidates of kind `k`, ascending (see
    /// [`take_filed_sorted`](Self::take_filed_sorted)).
    pub(super) fn added(&self, k: usize) -> &[(u32, u32)] {
        &self.new[self.added[k].clone()]
    }
}

/// Files the pair of indices `(p, q)` under its pair kind in `lists`, by their records'
/// [`TAG`]s in `tags` (by index: a word per hit rather than a record), unless their filters (in
/// `filters`, the scene's table; `None`: every filter is
/// [`Filter::ALL`]) do not pair; whether it filed it.
///
/// [`Filter::ALL`]: crate::Filter::ALL
#[inline(always)]
pub(super) fn file(
    lists: &mut [Vec<(u32, u32)>; PAIR_KINDS],
    (tags, filters): (&[u32], Option<&[Rule]>),
    p: u32,
    q: u32,
) -> bool {
    let (tp, tq) = (tags[p as usize], tags[q as usize]);
    if let Some(table) = filters
        && !table[(tp >> FILTER_SHIFT) as usize].pairs_with(table[(tq >> FILTER_SHIFT) as usize])
    {
        return false;
    }
    let (kind, pair) = Candidates::kind_of(tp, tq, p, q);
    lists[kind].push(pair);
    true
}

//! The kept candidate lists, one per pair kind, and how a found pair is filed in them.

use super::tasks::Task;
use crate::concat::{concat_all, copy_parts};
use crate::room::{reserve_swinging, reserve_to, resize_with_room};
use crate::scene::candidates::{Candidates, PAIR_KINDS};
use crate::scene::filter::Rule;
use crate::scene::radix::{RadixSort, Source};
use crate::scene::records::{CLASS, FILTER_SHIFT, KIND};
use crate::scene::store::Scene;
use core::ops::Range;

/// The bits of a record's kind word that its candidates are filed by: its kind code and its
/// filter's index. A kept list holds only pairs whose filters pair, so a shape whose filter
/// changed is an escaper, and the kernels' walk need not look at filters.
pub(super) const TAG: u32 = KIND | !CLASS;

/// The escapers' new candidates a kept list takes room for when it is built, before any call
/// has filed one (see [`Lists::take_filed`]).
const FEW_NEW: usize = 64;

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
        // None new: `new` is the spare of a rebuild's sort. It keeps room for a few new
        // candidates: a loop whose shapes barely moved (0.01 of their size a frame) filed
        // the first escaper's first new static neighbour thirty frames after its warm-up,
        // into a list that had held none.
        self.added = Default::default();
        reserve_to(&mut self.new, FEW_NEW);
        // Each list as it will swing once it follows the escapers (see `reserve_swinging`).
        for (k, list) in self.kinds.iter_mut().enumerate() {
            reserve_swinging(list, tasks.iter().map(|t| t.filed[k].len()).sum());
        }
        let lists = self.kinds.each_mut();
        concat_all(lists, tasks, &|t: &Task, k| &t.filed[k][..], &|_, _, x| x);
    }

    /// The pairs each task filed, each kind's ascending in its run of `new` (`added`), for
    /// the lists to merge in; positions below `positions`. On rayon's threads: all kinds in
    /// one radix sort, a pair's first position carrying its kind above its own bits where
    /// they fit in 32 bits (a sort per kind ran the many short kinds' on one thread), which
    /// the sort drops as it writes the pairs back. (Copied from there into a list per kind,
    /// they took one more pass over them: on sixteen threads a fork and join of its own.) A
    /// sort that splits them by their top digit reads them from the tasks' lists; one that
    /// does not, copied into `new` first. (Copied first every time, they were a pass on one
    /// thread below 16 k pairs: at a sixteen-way split of a 100 k kept frame measured on one
    /// core, the copy and sort's longest chain of work took 52–58 µs, read where they lie
    /// 33–37.)
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
        resize_with_room(new, end, (0, 0));
        let bits = u32::BITS - positions.leading_zeros();
        let kind_bits = u32::BITS - (PAIR_KINDS as u32 - 1).leading_zeros();
        if bits + kind_bits > u32::BITS {
            Filed {
                tasks,
                lens,
                bits: None,
            }
            .copy_into(new);
            for run in self.added.clone() {
                sort.sort_sparse(&mut self.new[run]);
            }
            return;
        }
        // Read by the sort where the tasks filed them (see `Source`).
        let filed = Filed {
            tasks,
            lens,
            bits: Some(bits),
        };
        // Each pair's positions are below `positions`, its kind one that holds pairs.
        let kinds = (0..PAIR_KINDS as u32).filter(|&k| lens[k as usize] > 0);
        let (least, most) = (kinds.clone().min(), kinds.max());
        let (least, most) = (least.unwrap_or(0) << bits, most.unwrap_or(0) << bits);
        let last = positions.saturating_sub(1);
        let bounds = (least, most | last, last);
        sort.sort_sparse_from(new, Some(&filed), bounds, (1 << bits) - 1);
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

/// The pairs the tasks filed, kind after kind (each kind's of every task, in task order),
/// each with its kind above its first position's `bits` where given: the list the escapers'
/// new candidates are sorted from, read where they lie.
struct Filed<'a> {
    tasks: &'a [Task],
    lens: [usize; PAIR_KINDS],
    bits: Option<u32>,
}

impl Filed<'_> {
    #[inline(always)]
    fn tagged(&self, kind: usize, (a, b): (u32, u32)) -> (u32, u32) {
        self.bits
            .map_or((a, b), |bits| ((kind as u32) << bits | a, b))
    }
}

impl Source for Filed<'_> {
    fn copy_into(&self, out: &mut [(u32, u32)]) {
        let mut rest = out;
        let runs = self.lens.map(|len| {
            let (run, tail) = core::mem::take(&mut rest).split_at_mut(len);
            rest = tail;
            run
        });
        let tagged = |_: &Task, k: usize, pair| self.tagged(k, pair);
        copy_parts(runs, self.tasks, &|t: &Task, k| &t.filed[k][..], &tagged);
    }

    fn each(&self, range: Range<usize>, mut f: impl FnMut((u32, u32))) {
        let mut at = 0;
        for (kind, &len) in self.lens.iter().enumerate() {
            if at + len <= range.start {
                at += len;
                continue;
            }
            for t in self.tasks {
                let list = &t.filed[kind];
                let (start, end) = (at, at + list.len());
                at = end;
                if start >= range.end {
                    return;
                }
                if end > range.start {
                    let from = range.start.max(start) - start;
                    let to = range.end.min(end) - start;
                    list[from..to].iter().for_each(|&p| f(self.tagged(kind, p)));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The filed pairs as a source: copied whole, and read over any range (empty, within one
    /// task's list, across lists, kinds and empty lists, to the end), kind after kind and
    /// task after task, tagged with their kind where given bits, as they are without.
    #[test]
    fn filed_pairs_read_as_one_list_kind_after_kind() {
        let mut rng = crate::test_rng::Xorshift::new(0x51f1);
        let tasks: Vec<Task> = (0..7)
            .map(|t| {
                let mut task = Task::default();
                for (k, list) in task.filed.iter_mut().enumerate() {
                    // Some lists empty, one kind empty in every task.
                    let len = if k == 2 || (t + k) % 3 == 0 {
                        0
                    } else {
                        rng.below(40)
                    };
                    list.extend((0..len).map(|_| (rng.below(1 << 20), rng.below(1 << 20))));
                }
                task
            })
            .collect();
        let lens = core::array::from_fn(|k| tasks.iter().map(|t| t.filed[k].len()).sum());
        for bits in [None, Some(20)] {
            let filed = Filed {
                tasks: &tasks,
                lens,
                bits,
            };
            let tag =
                |k: usize, (a, b): (u32, u32)| bits.map_or((a, b), |s| ((k as u32) << s | a, b));
            let want: Vec<_> = (0..PAIR_KINDS)
                .flat_map(|k| {
                    tasks
                        .iter()
                        .flat_map(move |t| t.filed[k].iter().map(move |&p| tag(k, p)))
                })
                .collect();
            let mut copied = vec![(u32::MAX, u32::MAX); want.len()];
            filed.copy_into(&mut copied);
            assert_eq!(copied, want, "bits {bits:?}");
            let n = want.len();
            for start in 0..=n {
                for end in [start, start + 1, start + 17, start + 61, n] {
                    let end = end.min(n);
                    let mut got = Vec::new();
                    filed.each(start..end, |p| got.push(p));
                    assert_eq!(got, want[start..end], "{start}..{end}, bits {bits:?}");
                }
            }
        }
    }
}

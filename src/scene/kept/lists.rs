//! The kept candidate lists, one per pair kind, and how the pairs the tasks filed (see
//! `filed.rs`) become them.

use super::filed::{position_mask, untag};
use super::tasks::Task;
use crate::concat::fill_parts;
use crate::room::{reserve_swinging, reserve_to, resize_with_room};
use crate::scene::candidates::PAIR_KINDS;
use crate::scene::filter::Rule;
use crate::scene::radix::{RadixSort, Source};
use crate::scene::records::{CLASS, KIND};
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
    /// Room in the buffers a walk that follows the moves writes, for the lists as they are
    /// and `tasks` tasks: each list's spare, half again as long (see
    /// [`reserve_swinging`]), and the tasks' places and shares.
    pub(super) fn room_to_follow(&mut self, tasks: usize) {
        for (spare, list) in self.spare.iter_mut().zip(&self.kinds) {
            reserve_swinging(spare, list.len());
        }
        reserve_to(&mut self.places, tasks);
        reserve_to(&mut self.shares, tasks);
    }

    /// The pairs each task filed, as the lists, in task order: each task's pairs of each kind
    /// written where they go, their kind dropped (see [`Filed`](super::filed::Filed)), on
    /// rayon's threads.
    pub(super) fn take_filed(&mut self, tasks: &[Task]) {
        self.shares.clear();
        // None new: `new` is the spare of a rebuild's sort. It keeps room for a few new
        // candidates: a loop whose shapes barely moved (0.01 of their size a frame) filed
        // the first escaper's first new static neighbour thirty frames after its warm-up,
        // into a list that had held none.
        self.added = Default::default();
        reserve_to(&mut self.new, FEW_NEW);
        // Each list as it will swing once it follows the escapers (see `reserve_swinging`).
        for (list, len) in self.kinds.iter_mut().zip(kind_lens(tasks)) {
            reserve_swinging(list, len);
            list.resize(len, (0, 0));
        }
        let lists = self.kinds.each_mut().map(|l| &mut l[..]);
        let bits = bits_of(tasks);
        let count = |t: &Task, k: usize| t.filed.counts[k];
        fill_parts(lists, tasks, &count, &|t: &Task, parts| {
            let mut at = [0; PAIR_KINDS];
            for chunk in t.filed.chunks() {
                for &(word, b) in chunk {
                    let (k, a) = untag(word, bits);
                    parts[k][at[k]] = (a, b);
                    at[k] += 1;
                }
            }
        });
    }

    /// The pairs each task filed, each kind's ascending in its run of `new` (`added`), for
    /// the lists to merge in; positions below `positions`. On rayon's threads: all kinds in
    /// one radix sort, a pair's first position carrying its kind above its own bits as the
    /// tasks filed them (see [`Filed`](super::filed::Filed); a sort per kind ran the many
    /// short kinds' on one thread), which the sort drops as it writes the pairs back. (Copied
    /// from there into a list per kind, they took one more pass over them: on sixteen
    /// threads a fork and join of its own.) A sort that splits them by their top digit reads
    /// them from the tasks' lists; one that does not, copied into `new` first. (Copied first
    /// every time, they were a pass on one thread below 16 k pairs: at a sixteen-way split of
    /// a 100 k kept frame measured on one core, the copy and sort's longest chain of work
    /// took 52–58 µs, read where they lie 33–37.)
    pub(super) fn take_filed_sorted(
        &mut self,
        sort: &mut RadixSort,
        tasks: &[Task],
        positions: u32,
    ) {
        let lens = kind_lens(tasks);
        let mut end = 0;
        self.added = lens.map(|len| {
            end += len;
            end - len..end
        });
        let new = &mut self.new;
        resize_with_room(new, end, (0, 0));
        let bits = bits_of(tasks);
        debug_assert!(positions <= 1 << bits, "positions beyond the tasks' filing");
        // Each pair's positions are below `positions`, its kind one that holds pairs.
        let kinds = (0..PAIR_KINDS as u32).filter(|&k| lens[k as usize] > 0);
        let (least, most) = (kinds.clone().min(), kinds.max());
        let (least, most) = (least.unwrap_or(0) << bits, most.unwrap_or(0) << bits);
        let last = positions.saturating_sub(1);
        let bounds = (least, most | last, last);
        // Read by the sort where the tasks filed them (see `Source`).
        let filed = AllFiled(tasks);
        sort.sort_sparse_from(new, Some(&filed), bounds, position_mask(bits));
    }

    /// The escapers' new candidates of kind `k`, ascending (see
    /// [`take_filed_sorted`](Self::take_filed_sorted)).
    pub(super) fn added(&self, k: usize) -> &[(u32, u32)] {
        &self.new[self.added[k].clone()]
    }
}

/// How many pairs of each kind the tasks filed.
fn kind_lens(tasks: &[Task]) -> [usize; PAIR_KINDS] {
    core::array::from_fn(|k| tasks.iter().map(|t| t.filed.counts[k]).sum())
}

/// The bits above which the tasks filed their pairs' kinds (the same in every task).
fn bits_of(tasks: &[Task]) -> u32 {
    let bits = tasks.first().map_or(0, |t| t.filed.bits());
    debug_assert!(tasks.iter().all(|t| t.filed.bits() == bits));
    bits
}

/// The pairs the tasks filed (see [`Filed`](super::filed::Filed)), task after task, their
/// kinds above their first positions: the list the escapers' new candidates are sorted
/// from, read where they lie.
struct AllFiled<'a>(&'a [Task]);

impl Source for AllFiled<'_> {
    fn copy_into(&self, out: &mut [(u32, u32)]) {
        let len = |t: &Task, _| t.filed.len();
        fill_parts([out], self.0, &len, &|t: &Task, [mut out]| {
            for chunk in t.filed.chunks() {
                let here;
                (here, out) = out.split_at_mut(chunk.len());
                here.copy_from_slice(chunk);
            }
        });
    }

    fn each(&self, range: Range<usize>, mut f: impl FnMut((u32, u32))) {
        let mut at = 0;
        for list in self.0.iter().flat_map(|t| t.filed.chunks()) {
            let (start, end) = (at, at + list.len());
            at = end;
            if start >= range.end {
                return;
            }
            if end > range.start {
                let from = range.start.max(start) - start;
                let to = range.end.min(end) - start;
                list[from..to].iter().copied().for_each(&mut f);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::filed::MOST_POSITIONS;
    use super::*;
    use crate::scene::chunks::{CHUNK, Chunks};

    /// Tasks that filed random pairs of random kinds below `positions`, some tasks none, one
    /// kind in none, the third task over two chunks (see `chunks.rs`); each pair of a kind
    /// distinct (as the searches file them).
    fn filed_tasks(rng: &mut crate::test_rng::Xorshift, n: usize, positions: u32) -> Vec<Task> {
        let mut seen = std::collections::HashSet::new();
        let pool = Chunks::shared();
        (0..n)
            .map(|t| {
                let mut task = Task::default();
                task.filed.clear(positions as usize, &pool);
                let tries = match t % 3 {
                    1 => 0,
                    _ if t == 2 => 2 * CHUNK as u32 + 37,
                    _ => rng.below(300),
                };
                for _ in 0..tries {
                    let kind = (rng.below(PAIR_KINDS as u32 - 1) + 3) as usize % PAIR_KINDS;
                    let pair = (rng.below(positions), rng.below(positions));
                    if seen.insert((kind, pair)) {
                        task.filed.put(kind, pair);
                    }
                }
                task
            })
            .collect()
    }

    /// Each kind's pairs as the tasks filed them, task after task, without their kinds.
    fn by_kind(tasks: &[Task]) -> [Vec<(u32, u32)>; PAIR_KINDS] {
        let mut lists: [Vec<(u32, u32)>; PAIR_KINDS] = Default::default();
        for t in tasks {
            for &(a, b) in t.filed.chunks().flatten() {
                let k = (a >> t.filed.bits()) as usize;
                lists[k].push((a & ((1 << t.filed.bits()) - 1), b));
            }
        }
        lists
    }

    /// The filed pairs as a source: copied whole, and read over any range (empty, within one
    /// task's list or chunk, across chunks, lists and empty lists, to the end), task after
    /// task, as filed (kinds above the first positions).
    #[test]
    fn filed_pairs_read_as_one_list_task_after_task() {
        let mut rng = crate::test_rng::Xorshift::new(0x51f1);
        let tasks = filed_tasks(&mut rng, 7, 1 << 20);
        let want: Vec<(u32, u32)> = (tasks.iter())
            .flat_map(|t| t.filed.chunks().flatten().copied())
            .collect();
        assert_eq!(
            want.len(),
            tasks.iter().map(|t| t.filed.len()).sum::<usize>()
        );
        assert!(
            tasks[2].filed.chunks().count() == 3,
            "the third task over two chunks"
        );
        let filed = AllFiled(&tasks);
        let mut copied = vec![(u32::MAX, u32::MAX); want.len()];
        filed.copy_into(&mut copied);
        assert_eq!(copied, want);
        let n = want.len();
        // Where each chunk starts in the whole, and every few places between.
        let mut starts: Vec<usize> = (0..=n).step_by(7).collect();
        let mut at = 0usize;
        for chunk in tasks.iter().flat_map(|t| t.filed.chunks()) {
            starts.extend(at.saturating_sub(2)..(at + 3).min(n + 1));
            at += chunk.len();
        }
        for start in starts {
            for end in [start, start + 1, start + 17, start + 301, n] {
                let end = end.min(n);
                let mut got = Vec::new();
                filed.each(start..end, |p| got.push(p));
                assert_eq!(got, want[start..end], "{start}..{end}");
            }
        }
    }

    /// A rebuild's filed pairs become the lists kind by kind, each in task order and as filed,
    /// their kinds dropped, over lists longer or shorter than before; the escapers' new ones
    /// each kind's ascending in its run of `new`: on one thread and on four, for positions
    /// of a few bits and of the most a scene holds.
    #[test]
    fn filed_pairs_become_lists_by_kind() {
        let mut rng = crate::test_rng::Xorshift::new(0xf11e);
        for positions in [5, 1 << 20, MOST_POSITIONS as u32] {
            for tasks_n in [1, 5, 40] {
                let tasks = filed_tasks(&mut rng, tasks_n, positions);
                let want = by_kind(&tasks);
                for threads in [1, 4] {
                    crate::test_pool::in_pool(threads, || {
                        let mut lists = Lists::default();
                        lists.kinds[2] = vec![(7, 7); 5000];
                        lists.take_filed(&tasks);
                        assert_eq!(lists.kinds, want, "{positions} {tasks_n} {threads}");
                        let mut sort = RadixSort::default();
                        lists.take_filed_sorted(&mut sort, &tasks, positions);
                        for (k, list) in want.iter().enumerate() {
                            let mut sorted = list.clone();
                            sorted.sort_unstable();
                            assert_eq!(lists.added(k), sorted, "kind {k}, {positions}");
                        }
                    });
                }
            }
        }
    }
}

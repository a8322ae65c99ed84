//! The kept frame's rayon tasks: each a share of a pass with scratch of its own, kept from
//! call to call.

use crate::scene::candidates::{Candidates, PAIR_KINDS};
use crate::tasks::task_count;
use core::ops::Range;
use rayon::prelude::*;
use std::time::Duration;

/// Items below which a coherent pass stays one task (a second thread would cost more than it
/// saves); above, tasks of a quarter of that at the least (see [`plan`]).
pub(super) const MIN_TASK: usize = 16 * 1024;

/// The chunk length of a coherent pass over `n` items by `par_chunks`: all of them below
/// [`MIN_TASK`], else a quarter of it (see [`plan`]).
pub(super) fn chunk_len(n: usize) -> usize {
    if n < MIN_TASK { MIN_TASK } else { MIN_TASK / 4 }
}

/// One rayon task's share of a pass and its scratch.
#[derive(Debug, Default)]
pub(super) struct Task {
    pub(super) range: Range<usize>,
    /// How long the task took to decide its candidates.
    pub(super) time: Duration,
    /// Pairs or ids the task found (and mixed pairs), and the search's candidate buffer.
    pub(super) found: Vec<(u32, u32)>,
    /// The pairs of the last answer whose candidates the task dropped.
    pub(super) ended: Vec<(u32, u32)>,
    pub(super) mixed: Vec<(u32, u32)>,
    /// The shapes whose neighbourhood the task found wanting, `(slot, number of static shapes
    /// found for it)`, those static shapes' positions in the level's grid in `ids`.
    pub(super) requery: Vec<(u32, u32)>,
    /// Candidates the task left unfiled because their filters do not pair.
    pub(super) filtered: usize,
    /// Pairs the task filed, by pair kind; and the lists it decided, as they follow the
    /// escapers' moves (the moving lists', then the mixed ones').
    pub(super) filed: [Vec<(u32, u32)>; PAIR_KINDS],
    pub(super) outs: [Vec<(u32, u32)>; 2 * PAIR_KINDS],
    /// The escapers the task found that enter the grid, `(id, new enlarged box)` (their
    /// `(key, number)` in `found`), how they change the count of boxes outside their
    /// level's cells, how many jumped, and whether one fits no level.
    pub(super) entering: Vec<(u32, [f32; 4])>,
    pub(super) was_in: Vec<u32>,
    pub(super) outside: isize,
    pub(super) jumps: usize,
    pub(super) unkeyed: bool,
    /// Where the task's `entering` starts in the call's.
    pub(super) base: u32,
    pub(super) ids: Vec<u32>,
    pub(super) buf: Vec<(u32, u32)>,
    pub(super) narrow: Candidates,
}

/// Runs `f` on each task and its number: on rayon's threads, or on this one where there is
/// one task (a caller outside the pool would otherwise hand it to a worker and wait; the 100 k
/// frame measured the same either way, the point is to not depend on it).
pub(super) fn each_task(tasks: &mut [Task], f: impl Fn(usize, &mut Task) + Sync + Send) {
    if let [t] = tasks {
        f(0, t);
    } else {
        tasks.par_iter_mut().enumerate().for_each(|(k, t)| f(k, t));
    }
}

/// Splits `0 .. n` into [`task_count`] tasks and returns them. Tasks beyond those are kept
/// with their scratch, so that a pass with fewer tasks does not free what the next one needs.
pub(super) fn plan(tasks: &mut Vec<Task>, n: usize, min: usize) -> &mut [Task] {
    let want = task_count(n, min);
    if tasks.len() < want {
        tasks.resize_with(want, Task::default);
    }
    let tasks = &mut tasks[..want];
    for (k, t) in tasks.iter_mut().enumerate() {
        t.range = n * k / want..n * (k + 1) / want;
    }
    tasks
}

/// Fewest pairs a concatenation copies on one thread.
const MIN_COPY: usize = 16 * 1024;

/// `list` as exactly `part` of every task, one after another in task order (resized, its old
/// items overwritten), each copied where it lies in `list` on rayon's threads.
pub(super) fn concat<T: Copy + Default + Send + Sync>(
    list: &mut Vec<T>,
    tasks: &[Task],
    part: &(impl Fn(&Task) -> &[T] + Sync),
) {
    concat_with(list, tasks, part, &|_, x| x);
}

/// [`concat`], each item of a task's part as `map` makes it for that task.
pub(super) fn concat_with<T: Copy + Default + Send + Sync>(
    list: &mut Vec<T>,
    tasks: &[Task],
    part: &(impl Fn(&Task) -> &[T] + Sync),
    map: &(impl Fn(&Task, T) -> T + Sync),
) {
    concat_all([list], tasks, &|t, _| part(t), &|t, _, x| map(t, x));
}

/// [`concat`] of `N` lists at once: list `j` as exactly `part(t, j)` of every task `t`, each
/// item as `map(t, j, item)` makes it; all the lists in one pass on rayon's threads (one pass
/// a list left the short ones on one thread, one after another).
pub(super) fn concat_all<T: Copy + Default + Send + Sync, const N: usize>(
    lists: [&mut Vec<T>; N],
    tasks: &[Task],
    part: &(impl Fn(&Task, usize) -> &[T] + Sync),
    map: &(impl Fn(&Task, usize, T) -> T + Sync),
) {
    let mut j = 0;
    let dst = lists.map(|list| {
        let total = tasks.iter().map(|t| part(t, j).len()).sum();
        j += 1;
        // Only a longer list than the last is written before it is copied into.
        list.resize(total, T::default());
        &mut list[..]
    });
    copy_parts(dst, tasks, part, map);
}

/// Copies each task's parts into `dst` through `map`: list `j` takes `part(t, j)` of every task
/// `t`, one after another; all lists in halves of the tasks on rayon's threads (on this one
/// below [`MIN_COPY`] items in all).
pub(super) fn copy_parts<T: Copy + Send + Sync, const N: usize>(
    dst: [&mut [T]; N],
    tasks: &[Task],
    part: &(impl Fn(&Task, usize) -> &[T] + Sync),
    map: &(impl Fn(&Task, usize, T) -> T + Sync),
) {
    if tasks.len() == 1 || dst.iter().map(|d| d.len()).sum::<usize>() < MIN_COPY {
        for (j, dst) in dst.into_iter().enumerate() {
            let mut at = 0;
            for t in tasks {
                let p = part(t, j);
                for (d, &x) in dst[at..at + p.len()].iter_mut().zip(p) {
                    *d = map(t, j, x);
                }
                at += p.len();
            }
        }
        return;
    }
    let mid = tasks.len() / 2;
    let mut low: [&mut [T]; N] = core::array::from_fn(|_| &mut [][..]);
    let mut high: [&mut [T]; N] = core::array::from_fn(|_| &mut [][..]);
    for (j, dst) in dst.into_iter().enumerate() {
        let left = tasks[..mid].iter().map(|t| part(t, j).len()).sum();
        (low[j], high[j]) = dst.split_at_mut(left);
    }
    rayon::join(
        || copy_parts(low, &tasks[..mid], part, map),
        || copy_parts(high, &tasks[mid..], part, map),
    );
}

/// Each slice of `src` through `map` into the list of `dst` beside it (resized to it, its old
/// items overwritten): all the lists in one pass, in halves of their items on rayon's threads
/// down to [`MIN_COPY`] (one pass a list, the short ones each split on its own, cost a
/// fork-join a list).
pub(super) fn copy_runs<T: Copy + Sync, U: Copy + Default + Send, const N: usize>(
    dst: [&mut Vec<U>; N],
    src: [&[T]; N],
    map: &(impl Fn(T) -> U + Sync),
) {
    let mut j = 0;
    let dst = dst.map(|list| {
        list.resize(src[j].len(), U::default());
        j += 1;
        &mut list[..]
    });
    copy_halves(dst, src, map);
}

/// [`copy_runs`] into slices of the lengths of `src`'s.
fn copy_halves<T: Copy + Sync, U: Copy + Send, const N: usize>(
    dst: [&mut [U]; N],
    src: [&[T]; N],
    map: &(impl Fn(T) -> U + Sync),
) {
    let total: usize = src.iter().map(|s| s.len()).sum();
    if total < MIN_COPY {
        for (d, s) in dst.into_iter().zip(src) {
            for (d, &x) in d.iter_mut().zip(s) {
                *d = map(x);
            }
        }
        return;
    }
    // The list in which the first half of the items ends, and where in it.
    let (mut split, mut before) = (0, 0);
    while before + src[split].len() <= total / 2 {
        before += src[split].len();
        split += 1;
    }
    let at = total / 2 - before;
    let mut low_dst: [&mut [U]; N] = core::array::from_fn(|_| &mut [][..]);
    let mut high_dst: [&mut [U]; N] = core::array::from_fn(|_| &mut [][..]);
    let (mut low_src, mut high_src) = ([&[][..]; N], [&[][..]; N]);
    for (j, (d, s)) in dst.into_iter().zip(src).enumerate() {
        if j < split {
            (low_dst[j], low_src[j]) = (d, s);
        } else if j > split {
            (high_dst[j], high_src[j]) = (d, s);
        } else {
            (low_dst[j], high_dst[j]) = d.split_at_mut(at);
            (low_src[j], high_src[j]) = s.split_at(at);
        }
    }
    rayon::join(
        || copy_halves(low_dst, low_src, map),
        || copy_halves(high_dst, high_src, map),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lists of every length around the thresholds, empty ones among them.
    fn lengths() -> [usize; PAIR_KINDS] {
        core::array::from_fn(|k| {
            [0, 1, 7, 300, 5000, MIN_COPY, MIN_COPY + 1, 40_000][k % 8] * (k % 3)
        })
    }

    /// Every list of `concat_all` holds each task's part of it, in task order, through the map,
    /// and `copy_runs` each run through its map, the same on one thread and on four.
    #[test]
    fn lists_are_copied_whole_and_in_order_on_any_thread_count() {
        for tasks_n in [1, 3, 16] {
            let mut tasks: Vec<Task> = (0..tasks_n).map(|_| Task::default()).collect();
            for (t, task) in tasks.iter_mut().enumerate() {
                for (k, len) in lengths().into_iter().enumerate() {
                    let part = len / tasks_n + usize::from(t < len % tasks_n);
                    task.filed[k] = (0..part as u32).map(|i| (t as u32, i ^ k as u32)).collect();
                }
            }
            let expected: [Vec<(u32, u32)>; PAIR_KINDS] = core::array::from_fn(|k| {
                let map = |(t, i): (u32, u32)| (t * 7 + k as u32, !i);
                tasks
                    .iter()
                    .flat_map(|t| t.filed[k].iter().map(move |&p| map(p)))
                    .collect()
            });
            for threads in [1, 4] {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .expect("a pool");
                // Old items beyond each new length, to be cut off, and short lists to grow.
                let mut lists: [Vec<(u32, u32)>; PAIR_KINDS] =
                    core::array::from_fn(|k| vec![(9, 9); 3 * (k % 2)]);
                pool.install(|| {
                    concat_all(
                        lists.each_mut(),
                        &tasks,
                        &|t: &Task, k| &t.filed[k][..],
                        &|_, k, (t, i)| (t * 7 + k as u32, !i),
                    );
                });
                assert_eq!(lists, expected, "{tasks_n} tasks, {threads} threads");
                let mut copies: [Vec<(u32, u32)>; PAIR_KINDS] = Default::default();
                let runs = expected.each_ref().map(|l| &l[..]);
                pool.install(|| copy_runs(copies.each_mut(), runs, &|(a, b): (u32, u32)| (b, a)));
                for (copy, list) in copies.iter().zip(&expected) {
                    let swapped: Vec<_> = list.iter().map(|&(a, b)| (b, a)).collect();
                    assert_eq!(*copy, swapped, "{threads} threads");
                }
            }
        }
    }
}

//! Copying what many tasks wrote into lists where it lies: the parts of every task one after
//! another, and runs of one list into others, all the lists at once on rayon's threads.

use crate::room::resize_with_room;
use crate::tasks::piece_len;
use rayon::prelude::*;

/// Fewest items a concatenation copies on one thread.
const MIN_COPY: usize = 16 * 1024;

/// `N` lists at once, each as the parts of every task one after another, in task order
/// (resized, its old items overwritten): list `j` as exactly `part(t, j)` of every task `t`,
/// each item as `map(t, j, item)` makes it; all the lists in one pass on rayon's threads (one
/// pass a list left the short ones on one thread, one after another).
pub(crate) fn concat_all<'s, P: Sync, T: Copy + Default + Send + Sync + 's, const N: usize>(
    lists: [&mut Vec<T>; N],
    tasks: &'s [P],
    part: &(impl Fn(&'s P, usize) -> &'s [T] + Sync),
    map: &(impl Fn(&P, usize, T) -> T + Sync),
) {
    let mut j = 0;
    let dst = lists.map(|list| {
        let total = tasks.iter().map(|t| part(t, j).len()).sum();
        j += 1;
        // Only a longer list than the last is written before it is copied into; one that
        // must grow takes room for a little more (the began and ended pairs of a frame loop
        // grew now and then by a few).
        resize_with_room(list, total, T::default());
        &mut list[..]
    });
    copy_parts(dst, tasks, part, map);
}

/// `list` as the parts one after another (resized, its old items overwritten), each part
/// copied in pieces of [`MIN_COPY`] on rayon's threads (from outside the pool, or on one
/// thread, on this one). (The search from scratch copied the boxes of the moving and the
/// static shapes into one list on one thread: 0.8 ms of a million shapes, half of them
/// static.)
pub(crate) fn concat_pieces<P: Sync, T: Copy + Default + Send + Sync>(
    list: &mut Vec<T>,
    parts: &[P],
    part: &(impl Fn(&P) -> &[T] + Sync),
) {
    let total = parts.iter().map(|p| part(p).len()).sum();
    list.resize(total, T::default());
    let piece = piece_len(MIN_COPY);
    let mut rest = &mut list[..];
    for p in parts {
        let src = part(p);
        let (dst, tail) = core::mem::take(&mut rest).split_at_mut(src.len());
        rest = tail;
        if src.len() <= piece {
            dst.copy_from_slice(src);
        } else {
            (dst.par_chunks_mut(piece).zip(src.par_chunks(piece)))
                .for_each(|(d, s)| d.copy_from_slice(s));
        }
    }
}

/// Copies each task's parts into `dst` through `map`: list `j` takes `part(t, j)` of every task
/// `t`, one after another (see [`fill_parts`]).
pub(crate) fn copy_parts<'s, P: Sync, T: Copy + Send + Sync + 's, const N: usize>(
    dst: [&mut [T]; N],
    tasks: &'s [P],
    part: &(impl Fn(&'s P, usize) -> &'s [T] + Sync),
    map: &(impl Fn(&P, usize, T) -> T + Sync),
) {
    let len = |t: &'s P, j| part(t, j).len();
    fill_parts(dst, tasks, &len, &|t: &'s P, parts: [&mut [T]; N]| {
        for (j, out) in parts.into_iter().enumerate() {
            for (d, &x) in out.iter_mut().zip(part(t, j)) {
                *d = map(t, j, x);
            }
        }
    });
}

/// `fill(t, parts)` for each of `tasks`, its part of list `j` of `dst` the next `len(t, j)`
/// items of it, task after task: all lists in groups of the tasks forked one after another
/// from this thread (one a thread on many threads, none of fewer than [`MIN_COPY`] items: see
/// [`crate::awake::fan_split`]), each in halves of its tasks on rayon's threads (on this one
/// below [`MIN_COPY`] items in all). For passes whose cost follows the items they write (a
/// copy, a scatter by kind).
pub(crate) fn fill_parts<'s, P: Sync, T: Send, const N: usize>(
    dst: [&mut [T]; N],
    tasks: &'s [P],
    len: &(impl Fn(&'s P, usize) -> usize + Sync),
    fill: &(impl Fn(&'s P, [&mut [T]; N]) + Sync),
) {
    let total = dst.iter().map(|d| d.len()).sum();
    let groups = crate::awake::groups_here(total, MIN_COPY);
    fill_groups(dst, tasks, len, fill, groups.min(tasks.len()));
}

/// [`fill_parts`] in `groups` groups of the tasks.
fn fill_groups<'s, P: Sync, T: Send, const N: usize>(
    dst: [&mut [T]; N],
    tasks: &'s [P],
    len: &(impl Fn(&'s P, usize) -> usize + Sync),
    fill: &(impl Fn(&'s P, [&mut [T]; N]) + Sync),
    groups: usize,
) {
    if tasks.len() == 1 || dst.iter().map(|d| d.len()).sum::<usize>() < MIN_COPY {
        let mut rest = dst;
        for t in tasks {
            let mine;
            (mine, rest) = split_each(rest, |j| len(t, j));
            fill(t, mine);
        }
        return;
    }
    let (mid, rest) = crate::awake::fan_split(tasks.len(), groups);
    let (low, high) = split_each(dst, |j| tasks[..mid].iter().map(|t| len(t, j)).sum());
    crate::awake::join(
        || fill_groups(low, &tasks[..mid], len, fill, rest),
        || fill_groups(high, &tasks[mid..], len, fill, 1),
    );
}

/// Each of `lists` split at `at(j)`, list `j`: the heads and the tails.
#[allow(clippy::type_complexity)]
fn split_each<T, const N: usize>(
    lists: [&mut [T]; N],
    at: impl Fn(usize) -> usize,
) -> ([&mut [T]; N], [&mut [T]; N]) {
    let mut j = 0;
    let mut halves = lists.map(|list| {
        let cut = at(j);
        j += 1;
        list.split_at_mut(cut)
    });
    let heads = core::array::from_fn(|j| core::mem::take(&mut halves[j].0));
    let tails = core::array::from_fn(|j| core::mem::take(&mut halves[j].1));
    (heads, tails)
}

/// Each slice of `src` through `map` into the list of `dst` beside it (resized to it, its old
/// items overwritten): all the lists in one pass, in halves of their items on rayon's threads
/// down to [`MIN_COPY`] (one pass a list, the short ones each split on its own, cost a
/// fork-join a list).
pub(crate) fn copy_runs<T: Copy + Sync, U: Copy + Default + Send, const N: usize>(
    dst: [&mut Vec<U>; N],
    src: [&[T]; N],
    map: &(impl Fn(T) -> U + Sync),
) {
    let mut j = 0;
    let dst = dst.map(|list| {
        // With room where it grows, as `concat_all`'s lists: a kept answer that first grew past
        // the first call's allocated in a steady frame loop (by one pair, then doubled).
        resize_with_room(list, src[j].len(), U::default());
        j += 1;
        &mut list[..]
    });
    let total = src.iter().map(|s| s.len()).sum();
    let groups = crate::awake::groups_here(total, MIN_COPY);
    copy_halves(dst, src, map, groups);
}

/// [`copy_runs`] into slices of the lengths of `src`'s, in `groups` groups of the items forked
/// one after another from this thread (see [`crate::awake::fan_split`]), each in halves.
fn copy_halves<T: Copy + Sync, U: Copy + Send, const N: usize>(
    dst: [&mut [U]; N],
    src: [&[T]; N],
    map: &(impl Fn(T) -> U + Sync),
    groups: usize,
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
    // The list in which the first side's items end, and where in it.
    let (first, rest) = crate::awake::fan_split(total, groups);
    let (mut split, mut before) = (0, 0);
    while before + src[split].len() <= first {
        before += src[split].len();
        split += 1;
    }
    let at = first - before;
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
    crate::awake::join(
        || copy_halves(low_dst, low_src, map, rest),
        || copy_halves(high_dst, high_src, map, 1),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lists of every length around the threshold, empty ones among them.
    const LISTS: usize = 28;
    fn lengths() -> [usize; LISTS] {
        core::array::from_fn(|k| {
            [0, 1, 7, 300, 5000, MIN_COPY, MIN_COPY + 1, 40_000][k % 8] * (k % 3)
        })
    }

    /// Every list of `concat_all` holds each task's part of it, in task order, through the map,
    /// and `copy_runs` each run through its map, the same on one thread and on four.
    #[test]
    fn lists_are_copied_whole_and_in_order_on_any_thread_count() {
        for tasks_n in [1, 3, 16] {
            let tasks: Vec<Vec<Vec<(u32, u32)>>> = (0..tasks_n)
                .map(|t| {
                    (lengths().into_iter().enumerate())
                        .map(|(k, len)| {
                            let part = len / tasks_n + usize::from(t < len % tasks_n);
                            (0..part as u32).map(|i| (t as u32, i ^ k as u32)).collect()
                        })
                        .collect()
                })
                .collect();
            let expected: [Vec<(u32, u32)>; LISTS] = core::array::from_fn(|k| {
                let map = |(t, i): (u32, u32)| (t * 7 + k as u32, !i);
                tasks
                    .iter()
                    .flat_map(|t| t[k].iter().map(move |&p| map(p)))
                    .collect()
            });
            for threads in [1, 4, 16] {
                let pool = crate::test_pool::pool(threads);
                // Old items beyond each new length, to be cut off, and short lists to grow.
                let mut lists: [Vec<(u32, u32)>; LISTS] =
                    core::array::from_fn(|k| vec![(9, 9); 3 * (k % 2)]);
                pool.install(|| {
                    concat_all(
                        lists.each_mut(),
                        &tasks,
                        &|t: &Vec<Vec<(u32, u32)>>, k| &t[k][..],
                        &|_, k, (t, i)| (t * 7 + k as u32, !i),
                    );
                });
                assert_eq!(lists, expected, "{tasks_n} tasks, {threads} threads");
                let mut copies: [Vec<(u32, u32)>; LISTS] = Default::default();
                let runs = expected.each_ref().map(|l| &l[..]);
                let swap = |(a, b): (u32, u32)| (b, a);
                pool.install(|| copy_runs(copies.each_mut(), runs, &swap));
                for (copy, list) in copies.iter().zip(&expected) {
                    let swapped: Vec<_> = list.iter().map(|&p| swap(p)).collect();
                    assert_eq!(*copy, swapped, "{threads} threads");
                }
            }
        }
    }

    /// `concat_pieces` gives every part one after another, whole and in order, into a list
    /// longer or shorter than the result, on one thread, on four, and called from outside the
    /// pool; parts of every length around a piece's, empty ones among them.
    #[test]
    fn parts_are_concatenated_in_pieces_whole_and_in_order() {
        let parts: Vec<Vec<u32>> = lengths()
            .into_iter()
            .enumerate()
            .map(|(k, len)| (0..len as u32).map(|i| i * 31 + k as u32).collect())
            .collect();
        let expected: Vec<u32> = parts.concat();
        fn part(p: &Vec<u32>) -> &[u32] {
            p
        }
        for threads in [1, 4, 16] {
            let pool = crate::test_pool::pool(threads);
            for old in [0, 7, expected.len() + 5] {
                let mut list = vec![u32::MAX; old];
                pool.install(|| concat_pieces(&mut list, &parts, &part));
                assert_eq!(list, expected, "{threads} threads, {old} old items");
                let mut list = vec![u32::MAX; old];
                concat_pieces(&mut list, &parts[1..], &part);
                assert_eq!(list, parts[1..].concat(), "outside the pool");
            }
        }
    }

    /// A list that `copy_runs` must grow takes room for an eighth more: a copy a few items
    /// longer than the first (a kept answer a pair longer than the first call's) fits where
    /// it lies.
    #[test]
    fn a_copy_that_grows_takes_room() {
        let run: Vec<u32> = (0..10_000).collect();
        for threads in [1, 4] {
            crate::test_pool::in_pool(threads, || {
                let mut list = Vec::new();
                copy_runs([&mut list], [&run[..9_000]], &|x| x);
                // (Compared by capacity: `realloc` may grow a list where it lies.)
                assert!(list.capacity() >= run.len(), "{threads} threads: no room");
                let at = list.as_ptr();
                copy_runs([&mut list], [&run[..]], &|x| x);
                assert_eq!(list.as_ptr(), at, "{threads} threads: reallocated");
                assert_eq!(list, run);
            });
        }
    }
}

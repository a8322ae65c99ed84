//! Forks whose first half, ended, waits for the second awake.
//!
//! The helpers of [`held`](super::held) keep awake the threads that have no work. A thread
//! that forks a pass's halves and ends its own first waits inside rayon's `join` for the half
//! another thread took, and rayon puts it to sleep there too: on a 2-core Intel Xeon VM the
//! half that ended woke it 30 µs later, at the end of every such pass (the escape check at
//! 100 k shapes on two threads returned 31 µs after its last task). [`join`], [`for_each`]
//! and [`map_reduce`] wait for a taken half awake, for up to [`WAIT_LIMIT`].
//!
//! On more than four threads [`for_each`] and [`map_reduce`] hand a pass out as one group a
//! thread, each forked from the thread that starts the pass ([`fan`]); the passes that split
//! their own data (the grid's repair, say) do the same with [`groups_for`] and [`fan_split`].
//! In [`for_each`] and [`map_reduce`] each group goes first to the thread whose share of the
//! items it holds, where that thread comes for one (`owners.rs`), so that the passes over the
//! same items keep each share on one core.

use super::owners::{Line, MOST_OWNED, Piece, own_group, search_order};
use core::array::from_fn;
use core::hint::spin_loop;
use core::sync::atomic::{AtomicBool, Ordering};
use rayon::iter::plumbing::{Producer, ProducerCallback};
use rayon::iter::{IndexedParallelIterator, ParallelIterator};
use std::sync::{Mutex, MutexGuard, OnceLock, PoisonError};
use std::time::{Duration, Instant};

/// How long [`join`] waits awake for a half another thread took before it leaves the wait to
/// rayon (which sleeps): longer than a task of a frame's pass (tens of microseconds), short
/// against a frame.
const WAIT_LIMIT: Duration = Duration::from_micros(300);

/// `rayon::join(a, b)`, except that where another thread took `b` and `a` ends first, this
/// thread waits for `b` awake (running any rayon work it finds meanwhile, as rayon's wait
/// does) for up to [`WAIT_LIMIT`], rather than falling asleep after some 20 µs and taking 30
/// µs to wake once `b` ends. As `rayon::join` where the pool has more threads than the
/// machine has cores (a spinning thread would take a core from a working one), on one
/// thread, or outside a pool.
pub(crate) fn join<RA: Send, RB: Send>(
    a: impl FnOnce() -> RA + Send,
    b: impl FnOnce() -> RB + Send,
) -> (RA, RB) {
    join_if(awake_waits(), a, b)
}

/// [`join`], waiting awake where `awake`.
fn join_if<RA: Send, RB: Send>(
    awake: bool,
    a: impl FnOnce() -> RA + Send,
    b: impl FnOnce() -> RB + Send,
) -> (RA, RB) {
    if !awake {
        return rayon::join(a, b);
    }
    let (taken, ended) = (AtomicBool::new(false), AtomicBool::new(false));
    rayon::join(
        || {
            let r = a();
            if taken.load(Ordering::Acquire) {
                wait(&ended);
            }
            r
        },
        || {
            taken.store(true, Ordering::Release);
            let _end = End(&ended);
            b()
        },
    )
}

/// Whether [`join`] waits awake here: on one of rayon's threads, in a pool of two or more
/// threads and no more than the machine's cores.
fn awake_waits() -> bool {
    let threads = rayon::current_num_threads();
    threads > 1 && threads <= cores() && rayon::current_thread_index().is_some()
}

/// Runs rayon work this thread finds until `ended` is set, for up to [`WAIT_LIMIT`].
fn wait(ended: &AtomicBool) {
    let since = Instant::now();
    while !ended.load(Ordering::Acquire) && since.elapsed() < WAIT_LIMIT {
        if rayon::yield_now() != Some(rayon::Yield::Executed) {
            spin_loop();
        }
    }
}

/// `f(item)` for each item of `items`, split in halves down to single items (or to the
/// iterator's `with_min_len`) by [`join`], on more than four threads first into one group a
/// thread ([`fan`]). For passes over a few tasks or chunks, each
/// worth a fork: the tasks of a frame's pass, whose last one another thread ends.
pub(crate) fn for_each<I: IndexedParallelIterator>(items: I, f: impl Fn(I::Item) + Sync + Send) {
    for_each_if(awake_waits(), items, f);
}

/// [`for_each`], split and waiting awake where `awake`, else rayon's `for_each`.
fn for_each_if<I: IndexedParallelIterator>(
    awake: bool,
    items: I,
    f: impl Fn(I::Item) + Sync + Send,
) {
    map_reduce_if(awake, items, || (), f, |(), ()| ());
}

/// `items.map(f).reduce(identity, op)`, split in halves as [`for_each`] splits them and
/// waiting for a taken half awake: for a pass with a sum.
pub(crate) fn map_reduce<I: IndexedParallelIterator, R: Send>(
    items: I,
    identity: impl Fn() -> R + Sync + Send,
    f: impl Fn(I::Item) -> R + Sync + Send,
    op: impl Fn(R, R) -> R + Sync + Send,
) -> R {
    map_reduce_if(awake_waits(), items, identity, f, op)
}

/// [`map_reduce`], split and waiting awake where `awake`, else rayon's `map` and `reduce`.
fn map_reduce_if<I: IndexedParallelIterator, R: Send>(
    awake: bool,
    items: I,
    identity: impl Fn() -> R + Sync + Send,
    f: impl Fn(I::Item) -> R + Sync + Send,
    op: impl Fn(R, R) -> R + Sync + Send,
) -> R {
    if !awake {
        return items.map(f).reduce(identity, op);
    }
    let len = items.len();
    let fold = Fold {
        identity: &identity,
        f: &f,
        op: &op,
    };
    items.with_producer(Halves { fold, len })
}

/// What [`map_reduce`] does to each item and to two halves' results.
struct Fold<'f, Z, F, O> {
    identity: &'f Z,
    f: &'f F,
    op: &'f O,
}

impl<Z, F, O> Clone for Fold<'_, Z, F, O> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<Z, F, O> Copy for Fold<'_, Z, F, O> {}

/// [`map_reduce`]'s callback: receives the iterator's producer and splits it.
struct Halves<'f, Z, F, O> {
    fold: Fold<'f, Z, F, O>,
    len: usize,
}

impl<T, R, Z, F, O> ProducerCallback<T> for Halves<'_, Z, F, O>
where
    R: Send,
    Z: Fn() -> R + Sync,
    F: Fn(T) -> R + Sync,
    O: Fn(R, R) -> R + Sync,
{
    type Output = R;

    fn callback<P: Producer<Item = T>>(self, producer: P) -> R {
        let groups = groups_here(self.len, producer.min_len());
        fan(producer, self.len, groups, self.fold)
    }
}

/// Threads above which a pass is handed out as one group a thread (see [`fan`]); up to
/// this many, in halves down a tree, as on the one to four threads measured most.
const FAN_ABOVE: usize = 4;

/// How many groups [`fan`] hands `len` items out in, on `threads` threads, none shorter than
/// `min` items (but a pass shorter than that, one group): one a thread above [`FAN_ABOVE`]
/// threads, up to [`MOST_OWNED`] (the threads past those take halves of the groups), else
/// one (the whole pass in halves).
///
/// A fan forks its groups one after another from one thread, each fork a job on that thread's
/// deque until another thread takes it. Rayon's deques hold 64 jobs before they grow (and
/// shrink again as they empty, each time allocating): in 100 groups, on 100 threads, every
/// pass that fanned out allocated.
pub(crate) fn groups_for(threads: usize, len: usize, min: usize) -> usize {
    if threads <= FAN_ABOVE {
        return 1;
    }
    threads.min(MOST_OWNED).min(len / min.max(1)).max(1)
}

/// [`groups_for`] on the threads of the pool this runs in.
pub(crate) fn groups_here(len: usize, min: usize) -> usize {
    groups_for(rayon::current_num_threads(), len, min)
}

/// Where a pass of `len` items handed out in `groups` groups (see [`fan`]) forks: the items
/// before the last group, and the groups they make; one group (or none) forks in halves.
/// For the passes that split their data themselves (a grid's parts, a merge's, a copy's):
/// the first side goes on with the groups returned, the second is one group.
pub(crate) fn fan_split(len: usize, groups: usize) -> (usize, usize) {
    if groups > 1 {
        (len * (groups - 1) / groups, groups - 1)
    } else {
        (len / 2, 1)
    }
}

/// Folds the `len` items of `producer` in `groups` groups of about equal length (see
/// [`fan_split`]), each split in halves while both halves keep the producer's least length:
/// this thread forks the groups one after another, the last group first, so that every group
/// but the first waits on its deque, each for one steal. On sixteen threads a tree of halves
/// starts its last thread four steals down. With one group, the pass is that tree; in up to
/// [`MOST_OWNED`] groups, each goes to the thread it belongs to where that thread comes for
/// one ([`fan_owned`]).
fn fan<P, R, Z, F, O>(producer: P, len: usize, groups: usize, fold: Fold<'_, Z, F, O>) -> R
where
    P: Producer,
    R: Send,
    Z: Fn() -> R + Sync,
    F: Fn(P::Item) -> R + Sync,
    O: Fn(R, R) -> R + Sync,
{
    if groups <= 1 && (len < 2 || len / 2 < producer.min_len()) {
        return producer
            .into_iter()
            .fold((fold.identity)(), |r, item| (fold.op)(r, (fold.f)(item)));
    }
    if (2..=MOST_OWNED).contains(&groups) {
        let each = fan_owned(producer, len, groups, &|p, n| fan(p, n, 1, fold));
        let each = each.into_iter().take(groups);
        let mut each = each.filter_map(|r| r.into_inner().unwrap_or_else(PoisonError::into_inner));
        let first = each.next().unwrap_or_else(fold.identity);
        return each.fold(first, fold.op);
    }
    let (cut, rest) = fan_split(len, groups);
    let (left, right) = producer.split_at(cut);
    let (a, b) = join_if(
        true,
        || fan(left, cut, rest, fold),
        || fan(right, len - cut, 1, fold),
    );
    (fold.op)(a, b)
}

/// [`fan`] in 2 to [`MOST_OWNED`] groups, each taken by the thread it belongs to where that
/// thread comes for it (`owners.rs`): the items cut into the groups first (at `len * g /
/// groups`, as the chain of [`fan_split`] cuts them), then the same forks, one after another
/// from this thread, every forked job and this thread's own taking its thread's own group
/// where free ([`own_group`]), else the next free one, and folding it (`group`: in halves).
/// The groups' results, in their order, for the caller to join; none where they are `()`.
fn fan_owned<P: Producer, R: Send>(
    producer: P,
    len: usize,
    groups: usize,
    group: &(impl Fn(P, usize) -> R + Sync),
) -> [Mutex<Option<R>>; MOST_OWNED] {
    // A lock a group, on a line of its own, taken once each: by its own thread where that
    // comes first, and never while the group runs (so never poisoned by it).
    let mut pieces: [Piece<(P, usize)>; MOST_OWNED] = from_fn(|_| Line(Mutex::new(None)));
    let results: [Mutex<Option<R>>; MOST_OWNED] = from_fn(|_| Mutex::new(None));
    let (mut rest, mut at) = (producer, 0);
    let mut put = |g: usize, piece| {
        *pieces[g]
            .0
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner) = Some(piece);
    };
    for g in 0..groups - 1 {
        let end = len * (g + 1) / groups;
        let (p, after) = rest.split_at(end - at);
        put(g, (p, end - at));
        (rest, at) = (after, end);
    }
    put(groups - 1, (rest, len - at));
    let threads = rayon::current_num_threads();
    // A pass's results are mostly `()`: nothing to keep, and no lock to take for it.
    let keep = size_of::<R>() != 0;
    fork(groups, &|| {
        let thread = [rayon::current_thread_index().unwrap_or(0), threads];
        let own = own_group(thread, groups);
        // Every job takes one group, so one is left for each.
        let (g, (p, n)) = search_order(own, groups)
            .find_map(|g| lock(&pieces[g].0).take().map(|piece| (g, piece)))
            .expect("a group a job");
        let r = group(p, n);
        if keep {
            *lock(&results[g]) = Some(r);
        }
    });
    results
}

/// `run` on `n` jobs: `n - 1` forked from this thread one after another, the last first, then
/// one here, each fork's other half waited for awake.
fn fork(n: usize, run: &(impl Fn() + Sync)) {
    if n <= 1 {
        run();
    } else {
        join_if(true, || fork(n - 1, run), run);
    }
}

/// `m` locked, a panic elsewhere while it was held or not.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The machine's cores (as the process may use them), asked once: `WIDEPHASE_CORES` where it
/// holds a positive number, so that tests run the many-core passes (a pool of more threads
/// than the cores never waits awake, see [`awake_waits`]) on a small machine.
pub(super) fn cores() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| {
        std::env::var("WIDEPHASE_CORES")
            .ok()
            .and_then(|v| v.parse().ok())
            .filter(|&n: &usize| n > 0)
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from))
    })
}

/// Sets the flag when dropped: the call ended, returned or not.
pub(super) struct End<'a>(pub(super) &'a AtomicBool);

impl Drop for End<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Release);
    }
}

#[cfg(test)]
mod tests {
    use super::{WAIT_LIMIT, for_each_if, join_if, map_reduce_if, wait};
    use rayon::prelude::*;
    use std::sync::atomic::AtomicBool;
    use std::sync::atomic::AtomicUsize;
    use std::sync::atomic::Ordering::Relaxed;
    use std::time::Instant;

    /// Both halves' results come back, awake or not, on every thread count; a half that
    /// outlasts the awake wait (it falls back to rayon's) too; and a half that panics
    /// unwinds to the caller with the pool working on after it.
    #[test]
    fn a_join_returns_both_halves_and_unwinds_either() {
        for threads in [1, 2, 3, 4, 8] {
            let pool = crate::test_pool::pool(threads);
            for awake in [false, true] {
                for k in 0..50u64 {
                    let (a, b) = pool.install(|| {
                        join_if(
                            awake,
                            || (0..k * 100).sum::<u64>(),
                            || (0..k).product::<u64>(),
                        )
                    });
                    assert_eq!((a, b), ((0..k * 100).sum(), (0..k).product()));
                }
                let slow = || {
                    std::thread::sleep(2 * WAIT_LIMIT);
                    7
                };
                assert_eq!(pool.install(|| join_if(awake, || 1, slow)), (1, 7));
                for first in [false, true] {
                    let caught = pool.install(|| {
                        std::panic::catch_unwind(|| {
                            join_if(awake, || assert!(!first, "a"), || assert!(first, "b"))
                        })
                    });
                    assert!(caught.is_err(), "{threads} threads, awake {awake}");
                }
                assert_eq!(pool.install(|| join_if(awake, || 2, || 3)), (2, 3));
            }
        }
    }

    /// `for_each` calls `f` once for every item, no matter the length, the least length of a
    /// piece or the thread count (forty: more threads than groups), nested in another
    /// `for_each` too.
    #[test]
    fn for_each_calls_once_for_every_item() {
        use rayon::iter::IndexedParallelIterator;
        for threads in [1, 2, 3, 4, 16, 40] {
            let pool = crate::test_pool::pool(threads);
            for awake in [false, true] {
                for len in [0, 1, 2, 3, 7, 17, 64, 129, 1000] {
                    for min in [1, 3, 100] {
                        let seen: Vec<AtomicUsize> =
                            (0..len).map(|_| AtomicUsize::new(0)).collect();
                        pool.install(|| {
                            let items = (0..len).into_par_iter().with_min_len(min);
                            for_each_if(awake, items, |i| {
                                seen[i].fetch_add(1, Relaxed);
                            });
                        });
                        assert!(
                            seen.iter().all(|s| s.load(Relaxed) == 1),
                            "{len} items, min {min}, {threads} threads, awake {awake}"
                        );
                    }
                }
                let seen: Vec<AtomicUsize> = (0..64).map(|_| AtomicUsize::new(0)).collect();
                pool.install(|| {
                    for_each_if(awake, (0..8usize).into_par_iter(), |i| {
                        for_each_if(awake, (0..8usize).into_par_iter(), |j| {
                            seen[8 * i + j].fetch_add(1, Relaxed);
                        });
                    });
                });
                assert!(seen.iter().all(|s| s.load(Relaxed) == 1));
            }
        }
    }

    /// `map_reduce` folds every item once and keeps their order (an operation that is
    /// associative but not commutative, joining lists, gives the items in order), no matter
    /// the length, the least length of a piece or the thread count; none gives the identity.
    #[test]
    fn map_reduce_folds_every_item_once_in_order() {
        use rayon::iter::IndexedParallelIterator;
        let join = |mut a: Vec<usize>, b: Vec<usize>| {
            a.extend(b);
            a
        };
        for threads in [1, 2, 3, 4, 16, 40] {
            let pool = crate::test_pool::pool(threads);
            for awake in [false, true] {
                for len in [0, 1, 2, 3, 7, 17, 64, 129, 1000] {
                    for min in [1, 3, 100] {
                        let items = pool.install(|| {
                            let items = (0..len).into_par_iter().with_min_len(min);
                            map_reduce_if(awake, items, Vec::new, |i| vec![i], join)
                        });
                        assert_eq!(
                            items,
                            (0..len).collect::<Vec<_>>(),
                            "{len} items, min {min}, {threads} threads, awake {awake}"
                        );
                    }
                }
            }
        }
    }

    /// On up to four threads a pass is one group (halves down a tree, as before the fan); on
    /// more, one group a thread, as many as its least length allows, and at least one.
    #[test]
    fn a_pass_fans_out_one_group_a_thread_above_four() {
        use super::groups_for;
        for threads in 1..=4 {
            assert_eq!(groups_for(threads, 1000, 1), 1, "{threads} threads");
        }
        assert_eq!(groups_for(5, 1000, 1), 5);
        assert_eq!(groups_for(16, 128, 1), 16);
        assert_eq!(groups_for(16, 128, 16), 8);
        assert_eq!(groups_for(16, 10, 3), 3);
        assert_eq!(groups_for(16, 2, 3), 1);
        assert_eq!(groups_for(16, 0, 1), 1);
        assert_eq!(groups_for(16, 5, 0), 5);
        // Never more groups than owners: a longer chain of forks grew a deque.
        assert_eq!(groups_for(32, 1000, 1), 32);
        assert_eq!(groups_for(33, 1000, 1), 32);
        assert_eq!(groups_for(100, 1000, 1), 32);
    }

    /// A fan forks its last group off (a group's share of the items, rounded down, on the
    /// second side) and goes on with one group fewer; one group forks in halves.
    #[test]
    fn a_fan_forks_off_its_last_group() {
        use super::fan_split;
        assert_eq!(fan_split(128, 16), (120, 15));
        assert_eq!(fan_split(10, 3), (6, 2));
        assert_eq!(fan_split(6, 2), (3, 1));
        assert_eq!(fan_split(9, 1), (4, 1));
        assert_eq!(fan_split(9, 0), (4, 1));
        // Down the chain, every group gets a share of the items.
        let (mut len, mut groups, mut shares) = (100, 16, Vec::new());
        while groups > 1 {
            let (cut, rest) = fan_split(len, groups);
            shares.push(len - cut);
            (len, groups) = (cut, rest);
        }
        shares.push(len);
        assert_eq!(shares.iter().sum::<usize>(), 100);
        assert!(shares.iter().all(|&s| (6..=7).contains(&s)), "{shares:?}");
    }

    /// The awake wait ends once its flag is set, and, the flag never set, after
    /// [`WAIT_LIMIT`] (the join then leaves the rest of the wait to rayon).
    #[test]
    fn the_awake_wait_ends_with_its_flag_or_its_limit() {
        // Five tries, so that one preemption of this thread cannot fail it.
        let set = (0..5).any(|_| {
            let since = Instant::now();
            wait(&AtomicBool::new(true));
            since.elapsed() < WAIT_LIMIT
        });
        assert!(set, "a set flag ends the wait at once");
        let since = Instant::now();
        wait(&AtomicBool::new(false));
        assert!(since.elapsed() >= WAIT_LIMIT);
    }
}

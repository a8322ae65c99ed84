//! How a parallel pass splits its items into tasks: the rule the broadphase's sorts and scans
//! and the scene's passes share, and the task sizes of the `par_batch_*` functions and how they
//! run.

use crate::awake::held;
use rayon::prelude::*;

/// Below twice this many items, splitting a grid's pass over threads costs more than it
/// saves (a hand-over from outside the pool alone is tens of microseconds).
const MIN_CHUNK: usize = 16 * 1024;

/// Number of chunks the grid's passes over every box (the survey of sizes, the counting sort)
/// split `n` items into, and the chunk length: one below two of `MIN_CHUNK` items or on one
/// thread; from there as many as fit with none below a quarter of `MIN_CHUNK`, up to four a
/// thread, and from one a thread up a multiple of the thread count (100 k boxes: 8 chunks on
/// two threads, 16 on sixteen). A chunk costs next to nothing beyond its items: a few counters
/// by size class or by band. (At least `MIN_CHUNK` a chunk made 6 chunks of 100 k on 16
/// threads, ten idle, when each chunk of the sort counted into an array over every cell. One
/// chunk a thread left nothing to share when a thread started late: the survey, the first pass
/// of a search from scratch, often met the other thread still waking, and the first thread,
/// done with its half, slept until the other's half ended. Four a thread took the two-thread
/// `build` of a 100 k search from 1.31–1.46 to 1.15–1.18 ms on an Intel Xeon.)
pub(crate) fn chunking(n: usize) -> (usize, usize) {
    let threads = rayon::current_num_threads();
    let chunks = if n < 2 * MIN_CHUNK || threads <= 1 {
        1
    } else {
        in_rounds(n / (MIN_CHUNK / 4), threads, PER_THREAD)
    };
    (chunks, n.div_ceil(chunks).max(1))
}

/// Number of tasks a scene's pass splits `n` items into: one on one thread, for fewer than
/// `min` (waking another thread costs more than it saves) or outside rayon's pool (a call
/// over a small scene stays on the calling thread, see [`on_pool`], where a fork would be a
/// hand-over of tens of microseconds), else as many as fit with none
/// smaller than about a quarter of `min`, up to four per thread, and, from one per thread up, a
/// multiple of the thread count: tasks of about equal work run in rounds, and 25 tasks on 16
/// threads run in two (16, then 9), slower than 16 larger tasks in one. (Tasks of `min` made 7
/// of 100 k shapes: 16 threads had work for 7.)
pub(crate) fn task_count(n: usize, min: usize) -> usize {
    tasks_of(n, min, min / 4)
}

/// [`task_count`] with tasks as small as about `least` items (rather than a quarter of `min`)
/// once there are `min`: for passes whose work per item varies from frame to frame, where one
/// task a thread leaves the pass waiting for its slowest. At a sixteen-way split of a 100 k
/// kept frame (measured on one core, each task timed), the escape check's sixteen tasks of
/// about 55 µs took 85–122 µs at their slowest, sixty-four 62–85.
pub(crate) fn tasks_of(n: usize, min: usize, least: usize) -> usize {
    tasks_up_to(n, min, least, PER_THREAD)
}

/// [`tasks_of`] with up to eight tasks a thread on more than four threads (four on fewer):
/// for the kept frame's passes and the search's jobs, whose tasks' work varies, so that a
/// pass over many items on many threads does not wait long for its slowest task. At a sixteen-way split of a 1 M kept
/// frame (measured on one core, each fork's halves timed), the kernels' walk in 64 tasks of
/// about 410 µs waited 521–552 µs for its slowest, in 128 tasks 297–328; the frame's longest
/// chain of work went from 1.74 to 1.34 ms (2.4 to 1.9–2.0 with 5 µs added to each fork for
/// the steal), its work the same within noise. On two threads eight tasks a thread made the
/// 100 k kept frame slower (2.73–3.95 against 2.69–3.03 ms, six rounds), hence four there.
pub(crate) fn fine_tasks_of(n: usize, min: usize, least: usize) -> usize {
    let per_thread = if rayon::current_num_threads() > 4 {
        FINE_PER_THREAD
    } else {
        PER_THREAD
    };
    tasks_up_to(n, min, least, per_thread)
}

/// [`tasks_of`] with up to `per_thread` tasks a thread.
fn tasks_up_to(n: usize, min: usize, least: usize, per_thread: usize) -> usize {
    let threads = rayon::current_num_threads();
    if threads <= 1 || n < min || rayon::current_thread_index().is_none() {
        return 1;
    }
    in_rounds(n / least.max(1) + 1, threads, per_thread)
}

/// Tasks (or chunks) a thread at the most in [`chunking`], [`task_count`] and [`tasks_of`]:
/// enough that a thread starting late still finds some left.
const PER_THREAD: usize = 4;

/// Tasks a thread at the most in [`fine_tasks_of`] on more than four threads.
const FINE_PER_THREAD: usize = 8;

/// Of at most `most` parts, how many a pass on `threads` threads takes: all of them below one
/// a thread, else up to `per_thread` a thread, in whole rounds of the threads (the rule both
/// [`chunking`] and [`task_count`] follow, [`PER_THREAD`] a thread).
fn in_rounds(most: usize, threads: usize, per_thread: usize) -> usize {
    if most < threads {
        most
    } else {
        most.min(per_thread * threads) / threads * threads
    }
}

/// The least length of a piece of a pass over cheap items by `with_min_len`: `min` on one
/// of the threads of a pool of two or more, else all of them, in one piece that neither forks
/// nor, from outside the pool, hands over.
pub(crate) fn piece_len(min: usize) -> usize {
    if rayon::current_num_threads() > 1 && rayon::current_thread_index().is_some() {
        min
    } else {
        usize::MAX
    }
}

/// Fewest shapes for which a finder's call moves onto rayon's threads: below, nearly every
/// pass of a search from scratch is one task, and the call runs on the calling thread.
pub(crate) const MIN_HAND_OVER: usize = 16 * 1024;

/// [`MIN_HAND_OVER`] for a kept call on more than one thread, whose escapers' passes split
/// from 1 k escapers (on two threads at 8–12 k shapes, handing the call over won 0.04–0.08
/// ms; on one thread, or for a search from scratch, it lost 0.04–0.06).
pub(crate) const MIN_HAND_OVER_KEPT: usize = 8 * 1024;

/// `f()` for a call over `shapes` shapes, on one of rayon's threads from [`MIN_HAND_OVER`]
/// shapes: at once on one, else handed to the pool as one job that the calling thread waits
/// for. Every parallel pass started from outside the pool is such a hand-over (a job queued, a
/// worker woken, the caller put to sleep and woken again: 40–60 µs on a 2-core Zen 5 VM); a
/// frame makes dozens of passes, so a frame started from a game's own thread pays one
/// hand-over instead of one a pass (2.2 against 2.4 ms of a 100 k two-thread frame), and a
/// small one, whose passes run on the calling thread, pays none.
///
/// From that size, with `hold`, the pool's other threads are held awake while `f` runs (see
/// `awake/mod.rs`), wherever it was called from.
pub(crate) fn on_pool<R: Send>(shapes: usize, hold: bool, f: impl FnOnce() -> R + Send) -> R {
    on_pool_from(MIN_HAND_OVER, shapes, hold, f)
}

/// [`on_pool`] for a kept call: from [`MIN_HAND_OVER_KEPT`] shapes where the pool has more
/// than one thread.
pub(crate) fn on_pool_kept<R: Send>(shapes: usize, hold: bool, f: impl FnOnce() -> R + Send) -> R {
    let threads = rayon::current_num_threads();
    let from = if threads > 1 {
        MIN_HAND_OVER_KEPT
    } else {
        MIN_HAND_OVER
    };
    on_pool_from(from, shapes, hold, f)
}

fn on_pool_from<R: Send>(
    from: usize,
    shapes: usize,
    hold: bool,
    f: impl FnOnce() -> R + Send,
) -> R {
    if shapes < from {
        f()
    } else if rayon::current_thread_index().is_some() {
        held(hold, f)
    } else {
        rayon::scope(|_| held(hold, f))
    }
}

/// Number of 64-pair words one rayon task fills: 4096 pairs, enough to amortise the task.
pub(crate) const WORDS_PER_TASK: usize = 64;

/// Pairs per task of every `par_batch_*` function but
/// [`par_batch_raycast`](crate::par_batch_raycast).
pub(crate) const TASK_PAIRS: usize = WORDS_PER_TASK * 64;

/// `task(i, item)` for each item `i` of `items`, on rayon's threads: how every `par_batch_*`
/// function runs its tasks. The work comes as a `&dyn Fn`, one call per task of thousands of
/// pairs, so rayon's plumbing is compiled once per storage type, not once per pair kind in
/// every crate that calls these (it was most of a test build's machine code).
pub(crate) fn each_task<I: IndexedParallelIterator>(
    items: I,
    task: &(dyn Fn(usize, I::Item) + Sync),
) {
    items.enumerate().for_each(|(i, item)| task(i, item));
}

#[cfg(test)]
mod tests {
    use super::{fine_tasks_of, on_pool, piece_len, task_count, tasks_of};

    /// Every pass's task count, on 1 to 16 threads: one where one thread or few items; else
    /// none much smaller than a quarter of `min` (or than `least`, where given), at most four
    /// a thread (`fine_tasks_of`'s: eight on more than four threads), and from one a thread
    /// up the largest multiple of the thread count within those bounds.
    #[test]
    fn task_counts_fill_whole_rounds_of_the_threads() {
        for threads in [1, 2, 3, 4, 7, 8, 16] {
            let pool = crate::test_pool::pool(threads);
            for (min, least) in [1024, 4096, 16 * 1024, 32 * 1024]
                .into_iter()
                .flat_map(|min| [(min, min / 4), (min, min / 16)])
            {
                for n in (0..70)
                    .map(|k| k * min / 8)
                    .chain([100_000, 1_000_000, 999_999])
                {
                    let count = pool.install(|| tasks_of(n, min, least));
                    let fine = pool.install(|| fine_tasks_of(n, min, least));
                    if least == min / 4 {
                        assert_eq!(count, pool.install(|| task_count(n, min)));
                    }
                    if threads <= 4 {
                        assert_eq!(fine, count, "{threads} threads, {n} items of min {min}");
                    }
                    for (count, per_thread) in [(count, 4), (fine, if threads > 4 { 8 } else { 4 })]
                    {
                        if threads == 1 || n < min {
                            assert_eq!(count, 1, "{threads} threads, {n} items of min {min}");
                            continue;
                        }
                        let most = n / least + 1;
                        let cap = per_thread * threads;
                        assert!(count >= 2 && count <= most && count <= cap);
                        if most >= threads {
                            assert_eq!(count % threads, 0, "{threads} threads, {n} of {min}");
                            assert!(count + threads > most.min(cap));
                        } else {
                            assert_eq!(count, most);
                        }
                    }
                }
            }
        }
    }

    /// Outside rayon's pool a pass is one task and one piece whatever its size (a fork there
    /// would be a hand-over); on a worker of a pool of two or more it splits.
    #[test]
    fn passes_do_not_split_outside_the_pool() {
        let outside = std::thread::spawn(|| (task_count(1 << 20, 1024), piece_len(256)))
            .join()
            .expect("the spawned thread");
        assert_eq!(outside, (1, usize::MAX));
        for (threads, tasks, piece) in [(1, 1, usize::MAX), (3, 12, 256)] {
            let inside =
                crate::test_pool::in_pool(threads, || (task_count(1 << 20, 1024), piece_len(256)));
            assert_eq!(inside, (tasks, piece), "{threads} threads");
        }
    }

    /// Chunks on 1 to 16 threads: one below 32 k items or on one thread; from there none
    /// below 4 k items, at most four a thread, from one a thread up a multiple of the thread
    /// count; all items covered, no chunk empty.
    #[test]
    fn chunks_give_every_thread_up_to_four_from_32_k_items() {
        use super::chunking;
        for threads in [1, 2, 3, 7, 16] {
            let pool = crate::test_pool::pool(threads);
            for n in [
                0,
                1,
                4095,
                32 * 1024 - 1,
                32 * 1024,
                40_000,
                100_000,
                1_000_003,
            ] {
                let (chunks, len) = pool.install(|| chunking(n));
                assert!(
                    chunks * len >= n && (chunks - 1) * len < n.max(1),
                    "{n} on {threads}"
                );
                if n < 32 * 1024 || threads == 1 {
                    assert_eq!(chunks, 1, "{n} items on {threads} threads");
                } else {
                    assert!(n / chunks >= 4096, "{n} items on {threads} threads");
                    assert!(chunks <= 4 * threads);
                    if chunks >= threads {
                        assert_eq!(chunks % threads, 0, "{n} items on {threads} threads");
                    }
                    // As many as fit: one more thread's worth would be too small or too many.
                    let more = chunks + if chunks < threads { 1 } else { threads };
                    assert!(n / more < 4096 || more > 4 * threads, "{n} on {threads}");
                }
            }
        }
    }

    /// From a thread of no pool: a large call is handed to a worker of the global pool, a
    /// small one runs where it is called; a kept call is large from fewer shapes where the pool
    /// has more than one thread. On a worker: run there, at once, in that worker's pool.
    #[test]
    fn on_pool_runs_on_a_worker_of_the_current_pool() {
        use super::{MIN_HAND_OVER, MIN_HAND_OVER_KEPT, on_pool_kept};
        let outside = std::thread::spawn(|| {
            let where_ = rayon::current_thread_index;
            let kept = if rayon::current_num_threads() > 1 {
                MIN_HAND_OVER_KEPT
            } else {
                MIN_HAND_OVER
            };
            [
                on_pool(MIN_HAND_OVER, true, where_),
                on_pool(MIN_HAND_OVER - 1, true, where_),
                on_pool_kept(kept, true, where_),
                on_pool_kept(kept - 1, true, where_),
            ]
        })
        .join()
        .expect("the spawned thread");
        assert_eq!(outside.map(|w| w.is_some()), [true, false, true, false]);
        let pool = crate::test_pool::pool(3);
        let (here, there, threads) = pool.install(|| {
            let here = rayon::current_thread_index();
            let (there, threads) = on_pool_kept(MIN_HAND_OVER, true, || {
                (rayon::current_thread_index(), rayon::current_num_threads())
            });
            (here, there, threads)
        });
        assert!(here.is_some());
        assert_eq!((here, threads), (there, 3));
    }
}

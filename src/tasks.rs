//! How a parallel pass splits its items into tasks: the rule the broadphase's sorts and scans
//! and the scene's passes share, and the task sizes of the `par_batch_*` functions.

/// Below this many items per chunk, splitting a pass over threads costs more than it saves.
const MIN_CHUNK: usize = 16 * 1024;

/// Number of chunks a parallel pass splits `n` items into (one per thread, fewer for small
/// `n`), and the chunk length.
pub(crate) fn chunking(n: usize) -> (usize, usize) {
    let chunks = (n / MIN_CHUNK).clamp(1, rayon::current_num_threads().max(1));
    (chunks, n.div_ceil(chunks).max(1))
}

/// Number of 64-pair words one rayon task fills: 4096 pairs, enough to amortise the task.
pub(crate) const WORDS_PER_TASK: usize = 64;

/// Pairs per task of [`par_batch_contact`](crate::par_batch_contact) and
/// [`par_batch_manifold`](crate::par_batch_manifold).
pub(crate) const TASK_PAIRS: usize = WORDS_PER_TASK * 64;

//! How a parallel pass splits its items into tasks: the one rule the broadphase's sorts and
//! scans and the scene's passes share.

/// Below this many items per chunk, splitting a pass over threads costs more than it saves.
const MIN_CHUNK: usize = 16 * 1024;

/// Number of chunks a parallel pass splits `n` items into (one per thread, fewer for small
/// `n`), and the chunk length.
pub(crate) fn chunking(n: usize) -> (usize, usize) {
    let chunks = (n / MIN_CHUNK).clamp(1, rayon::current_num_threads().max(1));
    (chunks, n.div_ceil(chunks).max(1))
}

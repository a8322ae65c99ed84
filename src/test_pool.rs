//! Rayon pools of a chosen size for the crate's unit tests: inside one,
//! `rayon::current_num_threads()` answers that size, and the passes split as they would on that
//! many threads.

/// A pool of `threads` threads of its own, for a test that runs several things in it.
pub(crate) fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool")
}

/// `run` in a pool of `threads` threads of its own: what it returns.
pub(crate) fn in_pool<T: Send>(threads: usize, run: impl FnOnce() -> T + Send) -> T {
    pool(threads).install(run)
}

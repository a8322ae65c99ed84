//! Running a unit test's work in a rayon pool of a chosen size: `rayon::current_num_threads()`
//! then answers that size, and the passes split as they would on that many threads.

/// `run` in a pool of `threads` threads of its own: what it returns.
pub(crate) fn in_pool<T: Send>(threads: usize, run: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool")
        .install(run)
}

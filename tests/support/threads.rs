//! Running a test's work in a rayon pool of a chosen size.

/// `run` in a pool of `threads` threads of its own: what it returns.
pub fn in_pool<T: Send>(threads: usize, run: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a pool")
        .install(run)
}

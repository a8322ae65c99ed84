//! A global allocator that counts allocations made on marked threads (those of the counted
//! pools), so a test can prove that a code path allocates nothing while the test's own thread
//! and rayon's global pool, unmarked, do as they like.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

thread_local! {
    static MARKED: Cell<bool> = const { Cell::new(false) };
}

static COUNT: AtomicUsize = AtomicUsize::new(0);

struct Counting;

// SAFETY: every method forwards to `System` with the caller's arguments unchanged; counting
// touches only a thread-local flag (const-initialised, no allocation) and an atomic.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note();
        // SAFETY: forwarded as received.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded as received.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note();
        // SAFETY: forwarded as received.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note();
        // SAFETY: forwarded as received.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

fn note() {
    if MARKED.try_with(Cell::get).unwrap_or(false) {
        COUNT.fetch_add(1, Relaxed);
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Held by each test that counts, for as long as it counts: the count is of every marked
/// thread, so two such tests at once would count each other's allocations.
pub fn counting() -> std::sync::MutexGuard<'static, ()> {
    static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());
    ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner())
}

/// Marks the calling thread: its allocations are counted from now on.
fn mark_thread() {
    MARKED.with(|m| m.set(true));
}

/// The pool of `threads` threads whose allocations are counted (each thread marked as it
/// starts), every thread started: built at the first call for that many threads, the same
/// pool at every later one, never ended.
///
/// A rayon thread allocates once as it starts looking for work (crossbeam-epoch registers its
/// thread) and once as it ends (its garbage handed to the global queue), each on its own time:
/// a pool's threads start after `build` returns and end after the pool is dropped. A thread
/// of a dropped pool that a loaded machine ended late counted in the next pool's frame (one
/// allocation, 89 frames into a loop, in one CI run), and so may a thread that starts late.
/// Here a job broadcast to each thread has run before the pool is handed out; and a pool kept
/// for the whole run never ends a thread whose garbage a counted one would free and file (each
/// thread files 64 such frees with one allocation).
pub fn counted_pool(threads: usize) -> &'static rayon::ThreadPool {
    static POOLS: Mutex<Vec<(usize, &'static rayon::ThreadPool)>> = Mutex::new(Vec::new());
    let mut pools = POOLS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(&(_, pool)) = pools.iter().find(|(n, _)| *n == threads) {
        return pool;
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .start_handler(|_| mark_thread())
        .build()
        .expect("a thread pool");
    pool.broadcast(|_| ());
    let pool: &'static rayon::ThreadPool = Box::leak(Box::new(pool));
    pools.push((threads, pool));
    pool
}

/// Allocations on marked threads so far.
pub fn count() -> usize {
    COUNT.load(Relaxed)
}

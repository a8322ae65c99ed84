//! A global allocator that counts allocations made on marked threads, so a test can prove that
//! a code path allocates nothing while other tests run on other threads.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
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
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
    ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner())
}

/// Marks the calling thread: its allocations are counted from now on.
fn mark_thread() {
    MARKED.with(|m| m.set(true));
}

/// A pool of `threads` threads whose allocations are counted while they run its jobs: each
/// thread is marked as it starts and unmarked as it leaves rayon's loop. A dropped pool's
/// threads end later, on their own time, and each allocates as it ends (crossbeam-epoch's
/// thread handle hands its garbage bag to the global queue): marked to the end, a thread of the
/// last pool that a loaded machine ended half a second late counted in the next pool's frame
/// (one allocation, 89 frames into a loop, in one CI run).
pub fn counted_pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .start_handler(|_| mark_thread())
        .exit_handler(|_| MARKED.with(|m| m.set(false)))
        .build()
        .expect("a thread pool")
}

/// Allocations on marked threads so far.
pub fn count() -> usize {
    COUNT.load(Relaxed)
}

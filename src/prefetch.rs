//! [`prefetch`]: a hint that a cache line is wanted soon, for the passes whose reads and writes
//! of shapes' data the CPU does not fetch ahead by itself (the one `unsafe` block of the
//! crate).
//!
//! A kept frame copies every moving shape's record to its index in the grid's order. In a
//! scene whose slots are not in spatial order (a scene built in any order and never
//! [`reorder`](crate::Scene::reorder)ed), each copy reads or writes a cache line that no
//! neighbour shares, from memory at a million shapes. The CPU overlaps few such misses by
//! itself: a write's waits in order in the store buffer, and a read's holds the loop's next
//! work behind it. Asked for the line a few dozen shapes ahead, the memory system fetches
//! many at once. And the kernels of a kept list read each candidate's second record a grid
//! row or a level away from its first, which a batch ahead is asked for too. `Scene::update`
//! reads and writes every moving shape's record and box in order, but a frame between two
//! updates leaves none of them in cache at a million shapes, and its loop, some ten
//! nanoseconds of work a shape, waited for the records one after another.
//!
//! Measured on a 2-core Zen 5 at a million shapes (`docs/benchmarks.md`): the escape check's
//! scatter on one thread 28–33 → 21–24 ms and the gather on two threads 13.2–14.0 → 11.0–12.4
//! ms of the frame's `build`; `pack` on one thread 25.0–26.5 → 20.4–20.6 ms. On a 2-core Intel
//! Xeon, the update at a million shapes 15.9–16.4 → 9.6–9.9 ms on one thread. Without `unsafe`
//! there is no such hint: a plain read of the line ahead (kept by `black_box`) waits for it,
//! and doubled the scatter's time.
#![allow(unsafe_code)]

/// How far ahead, in shapes, the random passes ask for their lines: for the scatter, 16 and
/// 32 saved the same, 8 about two thirds of that.
pub(crate) const AHEAD: usize = 32;

/// Asks the CPU to bring the cache line that holds `x` into its caches. A hint only: what the
/// program computes does not change, and on targets other than x86-64 it does nothing.
#[inline(always)]
pub(crate) fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads nothing into the program and writes nothing: it cannot fault,
    // whatever the address (here one of a live reference). It needs `sse`, which every x86-64
    // CPU has.
    unsafe {
        use core::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>(core::ptr::from_ref(x).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}

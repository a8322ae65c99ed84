//! [`batch_test`], [`batch_test_at`] and [`par_batch_test`]: one overlap bit per pair.

use super::kinds::Overlaps;
use super::length::{LengthMismatch, check_lengths};
use crate::lanes::{KERNEL_LANES, Simd, Wide};
use crate::soa::{HitMask, ShapeSoa};
use crate::tasks::{TASK_PAIRS, WORDS_PER_TASK, each_task};
use rayon::prelude::*;

batch_family! {
    /// Tests pair `i` of `a` against pair `i` of `b` for every `i`, [`KERNEL_LANES`] pairs per
    /// kernel call (sixteen where the build has AVX-512, else eight; the same bits either way).
    ///
    /// On success `out` holds `a.len()` bits, bit `i` set when pair `i` overlaps; its allocation is
    /// reused, so a frame loop that keeps one `HitMask` does not allocate once it has grown. If the
    /// lengths differ, the error names both and `out` is left as it was.
    ///
    /// ```
    /// use widephase::{batch_test, Aabb, Aabbs, Circle, Circles, HitMask};
    /// let circles: Circles = (0..10).map(|i| Circle::new(i as f32, 0.0, 0.5)).collect();
    /// let boxes: Aabbs = (0..10).map(|_| Aabb::new(3.0, -1.0, 5.0, 1.0)).collect();
    /// let mut hits = HitMask::new();
    /// batch_test(&circles, &boxes, &mut hits)?;
    /// assert_eq!(hits.iter_ones().collect::<Vec<_>>(), [3, 4, 5]);
    ///
    /// // Swapped order, same answers.
    /// let mut swapped = HitMask::new();
    /// batch_test(&boxes, &circles, &mut swapped)?;
    /// assert_eq!(hits, swapped);
    ///
    /// // Mismatched lengths are an error, not a panic.
    /// let short: Aabbs = boxes.iter().take(3).collect();
    /// let err = batch_test(&circles, &short, &mut hits).unwrap_err();
    /// assert_eq!((err.a, err.b), (10, 3));
    /// # Ok::<(), widephase::LengthMismatch>(())
    /// ```
    batch_test,

    /// [`batch_test`] at the lane width of `V` ([`f32x8`](crate::wide::f32x8) or
    /// [`f32x16`](crate::wide::f32x16)) instead of the build's: the same bits. For comparing the widths
    /// in one build (the benchmarks do); a sixteen-lane call on a build without AVX-512 runs each
    /// `f32x16` as two `f32x8`.
    ///
    /// ```
    /// use widephase::{batch_test, batch_test_at, Circle, Circles, HitMask};
    /// use widephase::wide::{f32x8, f32x16};
    /// let a: Circles = (0..40).map(|i| Circle::new(i as f32, 0.0, 0.3)).collect();
    /// let b: Circles = (0..40).map(|i| Circle::new(i as f32 * 1.5, 0.0, 0.3)).collect();
    /// let (mut eight, mut sixteen, mut build) = (HitMask::new(), HitMask::new(), HitMask::new());
    /// batch_test_at::<f32x8, _, _>(&a, &b, &mut eight)?;
    /// batch_test_at::<f32x16, _, _>(&a, &b, &mut sixteen)?;
    /// batch_test(&a, &b, &mut build)?;
    /// assert_eq!(eight, sixteen);
    /// assert_eq!(eight, build);
    /// # Ok::<(), widephase::LengthMismatch>(())
    /// ```
    batch_test_at,

    /// [`batch_test`] split over rayon's threads at lane-block boundaries; the result is identical.
    ///
    /// Worth it from tens of thousands of pairs; below one task's share (4096 pairs) it runs on the
    /// calling thread.
    par_batch_test:
    Overlaps, () -> HitMask, fill fill_words, split par_words
}

/// `task(i, chunk)` for each `WORDS_PER_TASK`-word chunk `i` of `words`, on rayon's threads.
fn par_words(words: &mut [u64], task: &(dyn Fn(usize, &mut [u64]) + Sync)) {
    each_task(words.par_chunks_mut(WORDS_PER_TASK), task);
}

/// Fills `words` with the answers of the `L`-lane blocks from `first_block` on (`L =
/// V::LANES`), `64 / L` blocks per word (block `j` of a word in bits `jL .. jL + L`).
#[inline]
fn fill_words<V: Simd, A: Overlaps<B>, B: ShapeSoa>(
    a: &A,
    b: &B,
    first_block: usize,
    words: &mut [u64],
) {
    let per_word = 64 / V::LANES;
    let end = a
        .len()
        .div_ceil(V::LANES)
        .min(first_block + words.len() * per_word);
    let full = (end - first_block) / per_word;
    for (w, word) in words[..full].iter_mut().enumerate() {
        let start = first_block + w * per_word;
        // A constant trip count: the kernel calls unroll, with constant shifts.
        *word = word_of::<V, A, B>(a, b, start..start + per_word);
    }
    if let Some(last) = words.get_mut(full) {
        *last = word_of::<V, A, B>(a, b, first_block + full * per_word..end);
    }
}

/// The answers of the blocks in `range` (one word's worth at most), block `j` in bits
/// `jL .. jL + L`. Each field is sliced once here, so the loop itself has no bounds checks.
#[inline(always)]
fn word_of<V: Simd, A: Overlaps<B>, B: ShapeSoa>(
    a: &A,
    b: &B,
    range: core::ops::Range<usize>,
) -> u64 {
    let (va, vb) = (
        a.blocks_view::<V>(range.clone()),
        b.blocks_view::<V>(range.clone()),
    );
    let mut acc = 0u64;
    for j in 0..range.len() {
        let hits = A::lanes(A::block_at(&va, j), B::block_at(&vb, j)).to_bitmask();
        acc |= u64::from(hits) << (j * V::LANES);
    }
    acc
}

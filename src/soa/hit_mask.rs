//! [`HitMask`]: the answer of a batch, one bit per pair.

use core::fmt;

/// One bit per tested pair: bit `i` is set when pair `i` overlaps.
///
/// Bits are packed little-endian into `u64` words (pair `i` is bit `i % 64` of word `i / 64`).
/// Bits at and past [`len`](HitMask::len) are always zero.
///
/// ```
/// use widephase::{batch_test, Circle, Circles, HitMask};
/// let a: Circles = [Circle::new(0.0, 0.0, 1.0), Circle::new(0.0, 0.0, 1.0)].into_iter().collect();
/// let b: Circles = [Circle::new(2.0, 0.0, 1.0), Circle::new(3.0, 0.0, 1.0)].into_iter().collect();
/// let mut hits = HitMask::new();
/// batch_test(&a, &b, &mut hits).unwrap();
/// assert_eq!(hits.iter_ones().collect::<Vec<_>>(), [0]); // touching counts
/// ```
#[derive(Clone, Default, PartialEq, Eq)]
pub struct HitMask {
    len: usize,
    words: Vec<u64>,
}

impl HitMask {
    /// An empty mask.
    #[inline]
    #[must_use]
    pub const fn new() -> Self {
        Self {
            len: 0,
            words: Vec::new(),
        }
    }

    /// Whether pair `i` overlaps. Panics if `i >= len()`.
    #[inline]
    #[must_use]
    pub fn get(&self, i: usize) -> bool {
        assert!(
            i < self.len,
            "index {i} out of range for HitMask of length {}",
            self.len
        );
        self.words[i / 64] >> (i % 64) & 1 == 1
    }

    /// Whether the mask describes no pairs.
    #[inline]
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Number of overlapping pairs.
    #[inline]
    #[must_use]
    pub fn count_ones(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Indices of the overlapping pairs, ascending.
    pub fn iter_ones(&self) -> impl Iterator<Item = usize> + '_ {
        self.words.iter().enumerate().flat_map(|(k, &word)| {
            let mut rest = word;
            core::iter::from_fn(move || {
                if rest == 0 {
                    return None;
                }
                let bit = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                Some(k * 64 + bit)
            })
        })
    }

    /// Every pair's answer in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = bool> + '_ {
        (0..self.len).map(move |i| self.get(i))
    }

    /// The packed words, `len().div_ceil(64)` of them.
    #[inline]
    #[must_use]
    pub fn words(&self) -> &[u64] {
        &self.words
    }

    /// Number of pairs the mask describes.
    #[inline]
    #[must_use]
    pub const fn len(&self) -> usize {
        self.len
    }

    /// Sets the length to `len` with every bit zero, reusing the allocation, and hands out the
    /// words for a kernel to fill.
    pub(crate) fn reset(&mut self, len: usize) -> &mut [u64] {
        self.len = len;
        self.words.clear();
        self.words.resize(len.div_ceil(64), 0);
        &mut self.words
    }

    /// Clears the bits at and past `len` in the last word.
    pub(crate) fn mask_tail(&mut self) {
        if let Some(last) = self.words.last_mut()
            && !self.len.is_multiple_of(64)
        {
            *last &= (1u64 << (self.len % 64)) - 1;
        }
    }
}

impl fmt::Debug for HitMask {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HitMask")
            .field("len", &self.len)
            .field("ones", &self.iter_ones().collect::<Vec<_>>())
            .finish()
    }
}

//! [`Motions`]: the displacements of the moving shapes over a step, what
//! [`batch_sweep`](crate::batch_sweep) moves its first shapes by.

use super::container::{CHUNK, Chunk, block_of, flat, flat_mut};
use crate::lanes::Simd;
use core::fmt;

/// Displacements `[dx, dy]`, one per pair, structure of arrays in lane blocks like the shape
/// containers: a column of sixteen-lane chunks each for `dx` and `dy`, padded with NaN (a
/// padding lane never hits). The views are zero-copy and `len()` long.
///
/// ```
/// use widephase::Motions;
/// let mut m: Motions = [[1.0, 0.0], [0.0, -2.0]].into_iter().collect();
/// m.push([0.5, 0.5]);
/// assert_eq!(m.len(), 3);
/// assert_eq!(m.dy(), &[0.0, -2.0, 0.5]);
/// m.dx_mut()[0] = 3.0; // in place, e.g. from velocities times the step
/// assert_eq!(m.get(0), [3.0, 0.0]);
/// ```
#[derive(Clone, Default)]
pub struct Motions {
    len: usize,
    cols: [Vec<Chunk>; 2],
}

impl Motions {
    /// No motions.
    #[inline]
    #[must_use]
    pub const fn new() -> Self {
        Self {
            len: 0,
            cols: [Vec::new(), Vec::new()],
        }
    }

    /// No motions, with room for `n` before it reallocates.
    #[must_use]
    pub fn with_capacity(n: usize) -> Self {
        let chunks = n.div_ceil(CHUNK);
        Self {
            len: 0,
            cols: core::array::from_fn(|_| Vec::with_capacity(chunks)),
        }
    }

    /// Number of motions.
    #[inline]
    #[must_use]
    pub const fn len(&self) -> usize {
        self.len
    }

    /// Whether there are none.
    #[inline]
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Appends a displacement `[dx, dy]`; its index is the old `len()`.
    #[inline]
    pub fn push(&mut self, [dx, dy]: [f32; 2]) {
        let (chunk, lane) = (self.len / CHUNK, self.len % CHUNK);
        for (col, v) in self.cols.iter_mut().zip([dx, dy]) {
            if lane == 0 {
                col.push(<Chunk as Simd>::INERT);
            }
            col[chunk].as_mut_array()[lane] = v;
        }
        self.len += 1;
    }

    /// Displacement `i`. Panics if `i >= len()`.
    #[inline]
    #[must_use]
    pub fn get(&self, i: usize) -> [f32; 2] {
        assert!(
            i < self.len,
            "index {i} out of range for Motions of length {}",
            self.len
        );
        [self.dx()[i], self.dy()[i]]
    }

    /// Replaces displacement `i`. Panics if `i >= len()`.
    #[inline]
    pub fn set(&mut self, i: usize, [dx, dy]: [f32; 2]) {
        assert!(
            i < self.len,
            "index {i} out of range for Motions of length {}",
            self.len
        );
        self.dx_mut()[i] = dx;
        self.dy_mut()[i] = dy;
    }

    /// Removes every motion, keeping the allocation.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
        self.cols.iter_mut().for_each(Vec::clear);
    }

    /// The displacements in index order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = [f32; 2]> + '_ {
        (0..self.len).map(move |i| self.get(i))
    }

    /// Zero-copy view of every horizontal displacement, `len()` long.
    #[inline]
    #[must_use]
    pub fn dx(&self) -> &[f32] {
        flat(&self.cols[0], self.len)
    }

    /// Zero-copy view of every vertical displacement, `len()` long.
    #[inline]
    #[must_use]
    pub fn dy(&self) -> &[f32] {
        flat(&self.cols[1], self.len)
    }

    /// Mutable view of every horizontal displacement, `len()` long; the padding stays out of
    /// reach.
    #[inline]
    #[must_use]
    pub fn dx_mut(&mut self) -> &mut [f32] {
        flat_mut(&mut self.cols[0], self.len)
    }

    /// Mutable view of every vertical displacement, `len()` long; the padding stays out of
    /// reach.
    #[inline]
    #[must_use]
    pub fn dy_mut(&mut self) -> &mut [f32] {
        flat_mut(&mut self.cols[1], self.len)
    }

    /// The `V::LANES`-lane blocks in `range` of both columns (see
    /// [`ShapeSoa::blocks_view`](super::ShapeSoa::blocks_view)).
    #[inline(always)]
    pub(crate) fn blocks_view<V: Simd>(&self, range: core::ops::Range<usize>) -> [&[V]; 2] {
        let n = range.len();
        let view = |c: usize| &bytemuck::cast_slice::<Chunk, V>(&self.cols[c])[range.clone()][..n];
        [view(0), view(1)]
    }

    /// Block `k` of a view: `[dx, dy]`.
    #[inline(always)]
    pub(crate) fn block_at<V: Simd>(view: &[&[V]; 2], k: usize) -> [V; 2] {
        block_of(view, k)
    }
}

impl fmt::Debug for Motions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl PartialEq for Motions {
    /// Equal when the displacements are equal (NaN never equals NaN).
    fn eq(&self, other: &Self) -> bool {
        self.len == other.len && self.iter().eq(other.iter())
    }
}

impl Extend<[f32; 2]> for Motions {
    fn extend<I: IntoIterator<Item = [f32; 2]>>(&mut self, iter: I) {
        let iter = iter.into_iter();
        let chunks = (self.len + iter.size_hint().0).div_ceil(CHUNK);
        for col in &mut self.cols {
            col.reserve(chunks.saturating_sub(col.len()));
        }
        for m in iter {
            self.push(m);
        }
    }
}

impl FromIterator<[f32; 2]> for Motions {
    fn from_iter<I: IntoIterator<Item = [f32; 2]>>(iter: I) -> Self {
        let mut m = Self::new();
        m.extend(iter);
        m
    }
}

impl From<&[[f32; 2]]> for Motions {
    fn from(motions: &[[f32; 2]]) -> Self {
        motions.iter().copied().collect()
    }
}

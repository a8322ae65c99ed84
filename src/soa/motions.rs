//! [`Motions`]: the displacements of the moving shapes over a step, what
//! [`batch_sweep`](crate::batch_sweep) moves its first shapes by.

use super::container::{CHUNK, Chunk, block_of, flat, flat_mut};
use crate::lanes::Simd;

chunk_columns!(
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
    Motions of [f32; 2],
    "motion"
);

impl Motions {
    soa_views!("motion", 0; dx / dx_mut: "horizontal displacement", dy / dy_mut: "vertical displacement");

    /// The `V::LANES`-lane blocks in `range` of both columns (see
    /// [`ShapeSoa::blocks_view`](super::ShapeSoa::blocks_view)).
    #[inline(always)]
    pub(crate) fn blocks_view<V: Simd>(&self, range: core::ops::Range<usize>) -> [&[V]; 2] {
        self.columns_view(range)
    }

    /// Block `k` of a view: `[dx, dy]`.
    #[inline(always)]
    pub(crate) fn block_at<V: Simd>(view: &[&[V]; 2], k: usize) -> [V; 2] {
        block_of(view, k)
    }
}

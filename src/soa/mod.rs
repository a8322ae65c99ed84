//! Structure-of-arrays containers in lane blocks ([`Points`] … [`Capsules`], [`Rays`]), the [`ShapeSoa`]
//! trait the batch functions take, and [`HitMask`], their answer.
//!
//! Each container keeps one column per `f32` of its shape (a polygon: one per vertex
//! coordinate), in 64-byte chunks of sixteen lanes, so field `k` of shape `i` lives in lane
//! `i % 8` of eight-lane block `i / 8` and in lane `i % 16` of sixteen-lane block `i / 16`. The
//! last chunk is padded with NaN in every field; by the NaN policy a padding lane can never be a hit,
//! whatever it is paired with. The field views (`x()`, `radius()`, `xs(k)`, …) are zero-copy
//! `&[f32]` of exactly `len()` elements; the `_mut` views let a simulation update positions in
//! place without touching the padding.
//!
//! The lane types the kernels take live in [`crate::lanes`] and are re-exported here.

#[macro_use]
mod container;
#[macro_use]
mod answer;
mod contacts;
mod containers;
mod hit_mask;
mod manifolds;
mod motions;
mod sweeps;

pub use crate::lanes::{
    AabbX8, AabbX16, CapsuleX8, CapsuleX16, CircleX8, CircleX16, LANES, ObbX8, ObbX16, PointX8,
    PointX16, PolygonX8, PolygonX16, RayX8, RayX16,
};
pub(crate) use answer::Columns;
pub use contacts::Contacts;
pub use containers::{Aabbs, Capsules, Circles, Obbs, Points, Polygons, Rays};
pub use hit_mask::HitMask;
pub(crate) use manifolds::ManifoldRun;
pub use manifolds::Manifolds;
pub use motions::Motions;
pub use sweeps::Sweeps;

use crate::lanes::Simd;
use crate::shape::ShapeError;
use core::fmt;
use wide::f32x8;

/// Why a container failed [`validate`](Circles::validate): the first bad index and what is wrong.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct InvalidShape {
    /// The container type, e.g. `"Circles"`.
    pub container: &'static str,
    /// Index of the first shape that fails its check.
    pub index: usize,
    /// What is wrong with it.
    pub error: ShapeError,
}

impl fmt::Display for InvalidShape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}[{}]: {}", self.container, self.index, self.error)
    }
}

impl std::error::Error for InvalidShape {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

mod sealed {
    pub trait Sealed {}
}

/// A lane-block container of one shape kind; implemented by [`Points`], [`Circles`],
/// [`Aabbs`], [`Obbs`], [`Polygons`], [`Capsules`] and [`Rays`] only.
pub trait ShapeSoa: sealed::Sealed {
    /// The scalar shape stored.
    type Shape: Copy;
    /// Eight shapes, one per lane.
    type X8: Copy;
    /// Sixteen shapes, one per lane.
    type X16: Copy;
    /// The lane columns of `V::LANES` shapes, `[V; n]` for a shape of `n` `f32`s (column `c`
    /// lane `l` is `f32` number `c` of shape `l`): what the kernels of the batch functions take,
    /// at either width.
    type Lanes<V: Simd>: Copy;
    /// Number of shapes.
    fn len(&self) -> usize;
    /// Whether there are no shapes.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Number of lane blocks, `len().div_ceil(8)`.
    fn blocks(&self) -> usize {
        self.len().div_ceil(LANES)
    }
    /// Lane block `i` (shapes `8i .. 8i + 8`, padding lanes NaN). Panics if `i >= blocks()`.
    fn block(&self, i: usize) -> Self::X8;
    /// Shape `i`. Panics if `i >= len()`.
    fn get(&self, i: usize) -> Self::Shape;
    /// A borrowed run of `V::LANES`-lane blocks: every field sliced to the same length.
    type Blocks<'a, V: Simd>: Copy
    where
        Self: 'a;
    /// The `V::LANES`-lane blocks in `range`, each field sliced once, so that
    /// [`block_at`](Self::block_at) needs no bounds check per field. Panics if `range.end`
    /// passes the last block (`len().div_ceil(V::LANES)`; the padding makes every such block
    /// whole).
    fn blocks_view<V: Simd>(&self, range: core::ops::Range<usize>) -> Self::Blocks<'_, V>;
    /// Block `k` of a view (block `range.start + k` of the container). Panics if `k` is past the
    /// view.
    fn block_at<V: Simd>(view: &Self::Blocks<'_, V>, k: usize) -> Self::Lanes<V>;
    /// Every field's lane blocks, padding included, in declaration order: the bytes a kernel
    /// reads.
    fn field_blocks(&self) -> Vec<&[f32x8]>;
}

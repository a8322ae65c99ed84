//! Structure-of-arrays containers in lane blocks ([`Points`] … [`Rays`]), the [`ShapeSoa`]
//! trait the batch functions take, and [`HitMask`], their answer.
//!
//! Each container keeps one `Vec<f32x8>` per `f32` of its shape (a polygon: one per vertex
//! coordinate), so field `k` of shape `i` lives in lane `i % 8` of block `i / 8`. The last block
//! is padded with NaN in every field; by the NaN policy a padding lane can never be a hit,
//! whatever it is paired with. The field views (`x()`, `radius()`, `xs(k)`, …) are zero-copy
//! `&[f32]` of exactly `len()` elements; the `_mut` views let a simulation update positions in
//! place without touching the padding.
//!
//! The lane types the kernels take live in [`crate::lanes`] and are re-exported here.

#[macro_use]
mod container;
mod contacts;
mod containers;
mod hit_mask;

pub use crate::lanes::{AabbX8, CircleX8, LANES, ObbX8, PointX8, PolygonX8, RayX8};
pub(crate) use contacts::Columns;
pub use contacts::Contacts;
pub use containers::{Aabbs, Circles, Obbs, Points, Polygons, Rays};
pub use hit_mask::HitMask;

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
/// [`Aabbs`], [`Obbs`], [`Polygons`] and [`Rays`] only.
pub trait ShapeSoa: sealed::Sealed {
    /// The scalar shape stored.
    type Shape: Copy;
    /// Eight shapes, one per lane.
    type X8: Copy;
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
    /// A borrowed run of lane blocks: every field sliced to the same length.
    type Blocks<'a>: Copy
    where
        Self: 'a;
    /// The lane blocks in `range`, each field sliced once, so that [`block_at`](Self::block_at)
    /// needs no bounds check per field. Panics if `range.end > blocks()`.
    fn blocks_view(&self, range: core::ops::Range<usize>) -> Self::Blocks<'_>;
    /// Block `k` of a view (block `range.start + k` of the container). Panics if `k` is past the
    /// view.
    fn block_at(view: &Self::Blocks<'_>, k: usize) -> Self::X8;
    /// Every field's lane blocks, padding included, in declaration order: the bytes a kernel
    /// reads.
    fn field_blocks(&self) -> Vec<&[f32x8]>;
}

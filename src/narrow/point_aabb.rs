//! Point–AABB: the point lies in the closed box when it lies in the closed interval on each axis.
//!
//! Validity needs no separate mask: a NaN in any field fails its comparison, and a box with
//! `min > max` on an axis has no point between its bounds.
//!
//! **Contact**: the box leaves the point through its nearest face; candidates `+x` (the box
//! moving right, its left face passing the point), `-x`, `+y`, `-y`.
//!
//! **Sweep** (one shape moving, [`SweepPair`](crate::SweepPair)): swept separating axes, the
//! box's two slabs in its own frame (a ray against the box), for every point and box in
//! `narrow/sweep/point_box.rs`: the later entry before the earlier exit, its slab's normal.

use super::contact::{Best, faces, pair_kernels};
use crate::lanes::{Lane, Simd};
use crate::shape::{Aabb, Point};

/// Whether `p` lies in `b`, edges included.
#[inline]
#[must_use]
pub fn reference(p: &Point, b: &Aabb) -> bool {
    (b.min_x <= p.x) & (p.x <= b.max_x) & (b.min_y <= p.y) & (p.y <= b.max_y)
}

/// [`reference`](fn@reference) on every lane of `V`: all ones where a lane overlaps.
#[inline(always)]
pub(crate) fn hits<V: Simd>([px, py]: [V; 2], [min_x, min_y, max_x, max_y]: [V; 4]) -> V {
    min_x.simd_le(px) & px.simd_le(max_x) & min_y.simd_le(py) & py.simd_le(max_y)
}

pair_kernels!(p: Point, PointX8, PointX16; b: Aabb, AabbX8, AabbX16);

/// The candidates of this pair, generic over [`Lane`] (see the module docs).
#[inline(always)]
fn contact<L: Lane>([px, py]: [L; 2], bounds: [L; 4]) -> Best<L> {
    faces(px, py, bounds, L::splat(0.0))
}

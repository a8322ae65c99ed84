//! Point–AABB: the point lies in the closed box when it lies in the closed interval on each axis.
//!
//! Validity needs no separate mask: a NaN in any field fails its comparison, and a box with
//! `min > max` on an axis has no point between its bounds.
//!
//! **Contact**: the box leaves the point through its nearest face; candidates `+x` (the box
//! moving right, its left face passing the point), `-x`, `+y`, `-y`.

use super::contact::{Best, Lane, faces, contact_pair};
use wide::f32x8;
use crate::lanes::{AabbX8, PointX8};
use crate::shape::{Aabb, Point};

/// Whether `p` lies in `b`, edges included.
#[inline]
#[must_use]
pub fn reference(p: &Point, b: &Aabb) -> bool {
    (b.min_x <= p.x) & (p.x <= b.max_x) & (b.min_y <= p.y) & (p.y <= b.max_y)
}

/// Eight lanes of [`reference`](fn@reference); bit `i` is lane `i`.
#[inline]
#[must_use]
pub fn x8(p: &PointX8, b: &AabbX8) -> u8 {
    super::bits(hits8(p, b))
}

/// [`x8`]'s answer as a lane mask (all ones where a lane overlaps), for the contact kernel.
#[inline(always)]
pub(crate) fn hits8(p: &PointX8, b: &AabbX8) -> f32x8 {
    
    b.min_x.simd_le(p.x) & p.x.simd_le(b.max_x) & b.min_y.simd_le(p.y) & p.y.simd_le(b.max_y)
}

contact_pair!(p: Point, PointX8; b: Aabb, AabbX8);

/// The candidates of this pair, generic over [`Lane`] (see the module docs).
#[inline(always)]
fn contact<L: Lane>([px, py]: [L; 2], bounds: [L; 4]) -> Best<L> {
    faces(px, py, bounds, L::splat(0.0))
}

//! Circle–AABB: clamp the centre into the box to get the box's closest point, then compare the
//! squared distance to it with the squared radius.
//!
//! Testing the axes separately (`|cx - box| <= r` per axis) is not enough: near a corner both
//! axes can pass while the corner itself is farther than `r`. The clamp handles faces, corners
//! and a centre inside the box (distance 0) alike.
//!
//! Validity: `radius >= 0` and `min <= max` on both axes are tested (a NaN bound could be
//! swallowed by the clamp's min/max). A NaN centre survives the clamp into `dx`, so the distance
//! is NaN and compares false. With bounds of ±inf the clamp returns a finite centre unchanged, so
//! an infinite box contains every finite circle.
//!
//! **Contact**: with the centre outside the box, along the offset from the centre to the
//! clamped point, depth `radius - distance`; with it inside or on the boundary, through the
//! nearest face (`+x`, `-x`, `+y`, `-y`, depth `radius +` the centre's distance to that face).

use super::contact::{Best, Lane, disc_box, contact_pair};
use super::{max, max8, min, min8};
use crate::lanes::{AabbX8, CircleX8};
use crate::shape::{Aabb, Circle};
use wide::f32x8;

/// Whether `c` and `b` overlap, touching included.
#[inline]
#[must_use]
pub fn reference(c: &Circle, b: &Aabb) -> bool {
    let dx = c.x - min(max(c.x, b.min_x), b.max_x);
    let dy = c.y - min(max(c.y, b.min_y), b.max_y);
    let valid = (c.radius >= 0.0) & (b.min_x <= b.max_x) & (b.min_y <= b.max_y);
    (dx * dx + dy * dy <= c.radius * c.radius) & valid
}

/// Eight lanes of [`reference`](fn@reference); bit `i` is lane `i`.
#[inline]
#[must_use]
pub fn x8(c: &CircleX8, b: &AabbX8) -> u8 {
    super::bits(hits8(c, b))
}

/// [`x8`]'s answer as a lane mask (all ones where a lane overlaps), for the contact kernel.
#[inline(always)]
pub(crate) fn hits8(c: &CircleX8, b: &AabbX8) -> f32x8 {
    let dx = c.x - min8(max8(c.x, b.min_x), b.max_x);
    let dy = c.y - min8(max8(c.y, b.min_y), b.max_y);
    let valid = c.radius.simd_ge(f32x8::ZERO) & b.min_x.simd_le(b.max_x) & b.min_y.simd_le(b.max_y);
    (dx * dx + dy * dy).simd_le(c.radius * c.radius) & valid
}

contact_pair!(c: Circle, CircleX8; b: Aabb, AabbX8);

/// The candidates of this pair, generic over [`Lane`] (see the module docs).
#[inline(always)]
fn contact<L: Lane>([cx, cy, r]: [L; 3], bounds: [L; 4]) -> Best<L> {
    disc_box(cx, cy, r, bounds)
}

//! Point–circle: the squared distance from the point to the centre is at most the squared radius.
//!
//! Squares avoid a square root; coordinates beyond about ±1e19 overflow them to infinity and
//! follow IEEE from there. A NaN coordinate makes the distance NaN, which compares false; a
//! negative radius has a positive square, so `radius >= 0` is tested (it is also false for NaN).
//!
//! **Contact**: along the offset from the point to the centre, depth `radius - distance`; a
//! point at the centre gets the normal `(1, 0)`.

use super::contact::{Best, Lane, disc, contact_pair};
use wide::f32x8;
use crate::lanes::{CircleX8, PointX8};
use crate::shape::{Circle, Point};

/// Whether `p` lies in `c`, rim included.
#[inline]
#[must_use]
pub fn reference(p: &Point, c: &Circle) -> bool {
    let dx = p.x - c.x;
    let dy = p.y - c.y;
    (dx * dx + dy * dy <= c.radius * c.radius) & (c.radius >= 0.0)
}

/// Eight lanes of [`reference`](fn@reference); bit `i` is lane `i`.
#[inline]
#[must_use]
pub fn x8(p: &PointX8, c: &CircleX8) -> u8 {
    super::bits(hits8(p, c))
}

/// [`x8`]'s answer as a lane mask (all ones where a lane overlaps), for the contact kernel.
#[inline(always)]
pub(crate) fn hits8(p: &PointX8, c: &CircleX8) -> f32x8 {
    let dx = p.x - c.x;
    let dy = p.y - c.y;
    
    (dx * dx + dy * dy).simd_le(c.radius * c.radius) & c.radius.simd_ge(wide::f32x8::ZERO)
}

contact_pair!(p: Point, PointX8; c: Circle, CircleX8);

/// The candidates of this pair, generic over [`Lane`] (see the module docs).
#[inline(always)]
fn contact<L: Lane>([px, py]: [L; 2], [cx, cy, r]: [L; 3]) -> Best<L> {
    disc(px - cx, py - cy, -1.0, r).0
}

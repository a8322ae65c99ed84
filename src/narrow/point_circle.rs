//! Point–circle: the squared distance from the point to the centre is at most the squared radius.
//!
//! Squares avoid a square root; coordinates beyond about ±1e19 overflow them to infinity and
//! follow IEEE from there. A NaN coordinate makes the distance NaN, which compares false; a
//! negative radius has a positive square, so `radius >= 0` is tested (it is also false for NaN).
//!
//! **Contact**: along the offset from the point to the centre, depth `radius - distance`; a
//! point at the centre gets the normal `(1, 0)`.
//!
//! **Sweep** (one shape moving, [`SweepPair`](crate::SweepPair)): a ray against the other
//! shape grown by the radii, a disc, found with the start contact in one pass
//! (`narrow/sweep/discs.rs`, shared by the pairs of points and circles in either order).

use super::contact::{Best, disc, pair_kernels};
use crate::lanes::{Lane, Simd};
use crate::shape::{Circle, Point};

/// Whether `p` lies in `c`, rim included.
#[inline]
#[must_use]
pub fn reference(p: &Point, c: &Circle) -> bool {
    let dx = p.x - c.x;
    let dy = p.y - c.y;
    (dx * dx + dy * dy <= c.radius * c.radius) & (c.radius >= 0.0)
}

/// [`reference`](fn@reference) on every lane of `V`: all ones where a lane overlaps.
#[inline(always)]
pub(crate) fn hits<V: Simd>([px, py]: [V; 2], [cx, cy, r]: [V; 3]) -> V {
    let dx = px - cx;
    let dy = py - cy;
    (dx * dx + dy * dy).simd_le(r * r) & r.ge(V::ZERO)
}

pair_kernels!(p: Point, PointX8, PointX16; c: Circle, CircleX8, CircleX16);

/// The candidates of this pair, generic over [`Lane`] (see the module docs).
#[inline(always)]
fn contact<L: Lane>([px, py]: [L; 2], [cx, cy, r]: [L; 3]) -> Best<L> {
    disc(px - cx, py - cy, -1.0, r).0
}

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
//!
//! **Sweep** (one shape moving, [`SweepPair`](crate::SweepPair)): the motion against the
//! pair's rounded Minkowski difference (a ray against the other shape grown by the radii),
//! covered by edge bands and vertex discs, found in the box's frame for every box against a
//! circle or a capsule in `narrow/sweep/boxed.rs`.

use super::contact::{Best, disc_box, pair_kernels};
use super::{max, min};
use crate::lanes::{Lane, Simd};
use crate::shape::{Aabb, Circle};

/// Whether `c` and `b` overlap, touching included.
#[inline]
#[must_use]
pub fn reference(c: &Circle, b: &Aabb) -> bool {
    let dx = c.x - min(max(c.x, b.min_x), b.max_x);
    let dy = c.y - min(max(c.y, b.min_y), b.max_y);
    let valid = (c.radius >= 0.0) & (b.min_x <= b.max_x) & (b.min_y <= b.max_y);
    (dx * dx + dy * dy <= c.radius * c.radius) & valid
}

/// [`reference`](fn@reference) on every lane of `V`: all ones where a lane overlaps.
#[inline(always)]
pub(crate) fn hits<V: Simd>([cx, cy, r]: [V; 3], [min_x, min_y, max_x, max_y]: [V; 4]) -> V {
    let dx = cx - cx.pmax(min_x).pmin(max_x);
    let dy = cy - cy.pmax(min_y).pmin(max_y);
    let valid = r.ge(V::ZERO) & min_x.simd_le(max_x) & min_y.simd_le(max_y);
    (dx * dx + dy * dy).simd_le(r * r) & valid
}

pair_kernels!(c: Circle, CircleX8, CircleX16; b: Aabb, AabbX8, AabbX16);

/// The candidates of this pair, generic over [`Lane`] (see the module docs).
#[inline(always)]
fn contact<L: Lane>([cx, cy, r]: [L; 3], bounds: [L; 4]) -> Best<L> {
    disc_box(cx, cy, r, bounds)
}

//! Circle–circle: two discs meet when the distance between centres is at most the sum of the
//! radii; compared squared, so no square root.
//!
//! Both radii are tested for `>= 0` on their own: a negative radius could be hidden inside a
//! positive sum. A NaN centre makes the distance NaN, which compares false.
//!
//! **Contact**: along the offset between the centres, depth `ra + rb - distance`; coincident
//! centres get the normal `(1, 0)`.
//!
//! **Sweep** (one shape moving, [`SweepPair`](crate::SweepPair)): a ray against the other
//! shape grown by the radii, a disc, found with the start contact in one pass
//! (`narrow/sweep/discs.rs`, shared by the pairs of points and circles in either order).

use super::contact::{Best, disc, pair_kernels};
use crate::lanes::{Lane, Simd};
use crate::shape::Circle;

/// Whether `a` and `b` overlap, touching included.
#[inline]
#[must_use]
pub fn reference(a: &Circle, b: &Circle) -> bool {
    let dx = b.x - a.x;
    let dy = b.y - a.y;
    let reach = a.radius + b.radius;
    (dx * dx + dy * dy <= reach * reach) & (a.radius >= 0.0) & (b.radius >= 0.0)
}

/// [`reference`](fn@reference) on every lane of `V`: all ones where a lane overlaps.
#[inline(always)]
pub(crate) fn hits<V: Simd>([ax, ay, ar]: [V; 3], [bx, by, br]: [V; 3]) -> V {
    let dx = bx - ax;
    let dy = by - ay;
    let reach = ar + br;
    (dx * dx + dy * dy).simd_le(reach * reach) & ar.ge(V::ZERO) & br.ge(V::ZERO)
}

pair_kernels!(a: Circle, CircleX8, CircleX16; b: Circle, CircleX8, CircleX16);

/// The candidates of this pair, generic over [`Lane`] (see the module docs).
#[inline(always)]
fn contact<L: Lane>([ax, ay, ar]: [L; 3], [bx, by, br]: [L; 3]) -> Best<L> {
    disc(bx - ax, by - ay, 1.0, ar + br).0
}

//! Circle–circle: two discs meet when the distance between centres is at most the sum of the
//! radii; compared squared, so no square root.
//!
//! Both radii are tested for `>= 0` on their own: a negative radius could be hidden inside a
//! positive sum. A NaN centre makes the distance NaN, which compares false.
//!
//! **Contact**: along the offset between the centres, depth `ra + rb - distance`; coincident
//! centres get the normal `(1, 0)`.

use super::contact::{Best, Lane, disc, contact_pair};
use crate::lanes::CircleX8;
use crate::shape::Circle;
use wide::f32x8;

/// Whether `a` and `b` overlap, touching included.
#[inline]
#[must_use]
pub fn reference(a: &Circle, b: &Circle) -> bool {
    let dx = b.x - a.x;
    let dy = b.y - a.y;
    let reach = a.radius + b.radius;
    (dx * dx + dy * dy <= reach * reach) & (a.radius >= 0.0) & (b.radius >= 0.0)
}

/// Eight lanes of [`reference`](fn@reference); bit `i` is lane `i`.
#[inline]
#[must_use]
pub fn x8(a: &CircleX8, b: &CircleX8) -> u8 {
    super::bits(hits8(a, b))
}

/// [`x8`]'s answer as a lane mask (all ones where a lane overlaps), for the contact kernel.
#[inline(always)]
pub(crate) fn hits8(a: &CircleX8, b: &CircleX8) -> f32x8 {
    let dx = b.x - a.x;
    let dy = b.y - a.y;
    let reach = a.radius + b.radius;
    
    (dx * dx + dy * dy).simd_le(reach * reach)
        & a.radius.simd_ge(f32x8::ZERO)
        & b.radius.simd_ge(f32x8::ZERO)
}

contact_pair!(a: Circle, CircleX8; b: Circle, CircleX8);

/// The candidates of this pair, generic over [`Lane`] (see the module docs).
#[inline(always)]
fn contact<L: Lane>([ax, ay, ar]: [L; 3], [bx, by, br]: [L; 3]) -> Best<L> {
    disc(bx - ax, by - ay, 1.0, ar + br).0
}

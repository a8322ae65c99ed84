//! Point–OBB: express the point's offset from the centre in the box's frame (dot products with
//! the axes `(cos, sin)` and `(-sin, cos)`); it is inside when each local coordinate is within
//! the half extent.
//!
//! Validity: the rotation must be finite (an infinite cosine could make a local coordinate
//! infinite and still pass against an infinite extent). A NaN centre or point makes the local
//! coordinates NaN, and a negative or NaN half extent fails `|l| <= h` by itself.
//!
//! **Contact**: in the box's frame, as [`point_aabb`](super::point_aabb) (candidates along the
//! box's `+u`, `-u`, `+v`, `-v`), the normal turned back to the world.

use super::contact::{Best, Lane, centred, faces, local, contact_pair};
use super::{finite_rotation, finite_rotation8, to_local, to_local8};
use wide::f32x8;
use crate::lanes::{ObbX8, PointX8};
use crate::shape::{Obb, Point};

/// Whether `p` lies in `o`, edges included.
#[inline]
#[must_use]
pub fn reference(p: &Point, o: &Obb) -> bool {
    let (lx, ly) = to_local(p.x - o.center_x, p.y - o.center_y, o.cos, o.sin);
    (lx.abs() <= o.half_width) & (ly.abs() <= o.half_height) & finite_rotation(o.cos, o.sin)
}

/// Eight lanes of [`reference`](fn@reference); bit `i` is lane `i`.
#[inline]
#[must_use]
pub fn x8(p: &PointX8, o: &ObbX8) -> u8 {
    super::bits(hits8(p, o))
}

/// [`x8`]'s answer as a lane mask (all ones where a lane overlaps), for the contact kernel.
#[inline(always)]
pub(crate) fn hits8(p: &PointX8, o: &ObbX8) -> f32x8 {
    let (lx, ly) = to_local8(p.x - o.center_x, p.y - o.center_y, o.cos, o.sin);
    
    lx.abs().simd_le(o.half_width)
        & ly.abs().simd_le(o.half_height)
        & finite_rotation8(o.cos, o.sin)
}

contact_pair!(p: Point, PointX8; o: Obb, ObbX8);

/// The candidates of this pair, generic over [`Lane`] (see the module docs).
#[inline(always)]
fn contact<L: Lane>([px, py]: [L; 2], [cx, cy, hw, hh, cos, sin]: [L; 6]) -> Best<L> {
    let (lx, ly) = local(px - cx, py - cy, cos, sin);
    faces(lx, ly, centred(hw, hh), L::splat(0.0)).to_world(cos, sin)
}

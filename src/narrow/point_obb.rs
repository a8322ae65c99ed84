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
//!
//! **Sweep** (one shape moving, [`SweepPair`](crate::SweepPair)): swept separating axes, the
//! box's two slabs in its own frame (a ray against the box), for every point and box in
//! `narrow/sweep/point_box.rs`: the later entry before the earlier exit, its slab's normal.

use super::contact::{Best, centred, faces, pair_kernels};
use super::{finite_rotation, finite_rotation_lanes, to_local};
use crate::lanes::{Lane, Simd};
use crate::shape::{Obb, Point};

/// Whether `p` lies in `o`, edges included.
#[inline]
#[must_use]
pub fn reference(p: &Point, o: &Obb) -> bool {
    let (lx, ly) = to_local(p.x - o.center_x, p.y - o.center_y, o.cos, o.sin);
    (lx.abs() <= o.half_width) & (ly.abs() <= o.half_height) & finite_rotation(o.cos, o.sin)
}

/// [`reference`](fn@reference) on every lane of `V`: all ones where a lane overlaps.
#[inline(always)]
pub(crate) fn hits<V: Simd>([px, py]: [V; 2], [cx, cy, hw, hh, cos, sin]: [V; 6]) -> V {
    let (lx, ly) = to_local(px - cx, py - cy, cos, sin);
    lx.abs().simd_le(hw) & ly.abs().simd_le(hh) & finite_rotation_lanes(cos, sin)
}

pair_kernels!(p: Point, PointX8, PointX16; o: Obb, ObbX8, ObbX16);

/// The candidates of this pair, generic over [`Lane`] (see the module docs).
#[inline(always)]
fn contact<L: Lane>([px, py]: [L; 2], [cx, cy, hw, hh, cos, sin]: [L; 6]) -> Best<L> {
    let (lx, ly) = to_local(px - cx, py - cy, cos, sin);
    faces(lx, ly, centred(hw, hh), L::splat(0.0)).to_world(cos, sin)
}

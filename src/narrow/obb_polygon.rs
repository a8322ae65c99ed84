//! OBB–polygon: the polygon's vertices expressed in the box's frame (offset from the centre,
//! dotted with the axes `(cos, sin)` and `(-sin, cos)`), where the box is the AABB
//! `[-hw, hw] × [-hh, hh]`; then the separating-axis test of
//! [`aabb_polygon`](super::aabb_polygon) on the box's axes and the transformed polygon's edge
//! normals, which are the polygon's own normals rotated.
//!
//! Validity: both half extents `>= 0`, a finite rotation, every polygon coordinate finite. A NaN
//! centre makes every local coordinate NaN, which fails the extent tests.
//!
//! **Contact**: in the box's frame, as [`aabb_polygon`](super::aabb_polygon) (the box's faces
//! `+u`, `-u`, `+v`, `-v`, then the polygon's edges), the normal turned back to the world.

use super::contact::{Best, Lane, centred, local, contact_pair};
use super::aabb_polygon::{box_polygon, box_polygon_contact, box_polygon8};
use super::{
    finite_polygon, finite_polygon8, finite_rotation, finite_rotation8, to_local, to_local8,
};
use crate::lanes::{ObbX8, PolygonX8};
use crate::shape::{MAX_VERTICES, Obb, Polygon};
use wide::f32x8;

/// Whether `o` and `q` overlap, touching included.
#[inline]
#[must_use]
pub fn reference(o: &Obb, q: &Polygon) -> bool {
    let (mut xs, mut ys) = ([0.0; MAX_VERTICES], [0.0; MAX_VERTICES]);
    for k in 0..MAX_VERTICES {
        (xs[k], ys[k]) = to_local(q.xs[k] - o.center_x, q.ys[k] - o.center_y, o.cos, o.sin);
    }
    let bounds = [-o.half_width, -o.half_height, o.half_width, o.half_height];
    box_polygon(bounds, &xs, &ys)
        & (o.half_width >= 0.0)
        & (o.half_height >= 0.0)
        & finite_rotation(o.cos, o.sin)
        & finite_polygon(q)
}

/// Eight lanes of [`reference`](fn@reference); bit `i` is lane `i`.
#[inline]
#[must_use]
pub fn x8(o: &ObbX8, q: &PolygonX8) -> u8 {
    super::bits(hits8(o, q))
}

/// [`x8`]'s answer as a lane mask (all ones where a lane overlaps), for the contact kernel.
#[inline(always)]
pub(crate) fn hits8(o: &ObbX8, q: &PolygonX8) -> f32x8 {
    let (mut xs, mut ys) = ([f32x8::ZERO; MAX_VERTICES], [f32x8::ZERO; MAX_VERTICES]);
    for k in 0..MAX_VERTICES {
        (xs[k], ys[k]) = to_local8(q.x[k] - o.center_x, q.y[k] - o.center_y, o.cos, o.sin);
    }
    let bounds = [-o.half_width, -o.half_height, o.half_width, o.half_height];
    
    box_polygon8(bounds, &xs, &ys)
        & o.half_width.simd_ge(f32x8::ZERO)
        & o.half_height.simd_ge(f32x8::ZERO)
        & finite_rotation8(o.cos, o.sin)
        & finite_polygon8(q)
}

contact_pair!(o: Obb, ObbX8; q: Polygon, PolygonX8);

/// The candidates of this pair, generic over [`Lane`] (see the module docs).
#[inline(always)]
fn contact<L: Lane>(
    [cx, cy, hw, hh, cos, sin]: [L; 6],
    [xs, ys]: [[L; MAX_VERTICES]; 2],
) -> Best<L> {
    let (mut lx, mut ly) = (xs, ys);
    for k in 0..MAX_VERTICES {
        (lx[k], ly[k]) = local(xs[k] - cx, ys[k] - cy, cos, sin);
    }
    box_polygon_contact(centred(hw, hh), &lx, &ly).to_world(cos, sin)
}

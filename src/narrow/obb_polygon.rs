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
//!
//! **Sweep** (one shape moving, [`SweepPair`](crate::SweepPair)): swept separating axes over
//! both outlines' edge normals, written once for every flat pair in `narrow/sweep/sat.rs`: the
//! latest entry before the earliest exit, the entry axis's normal.

use super::contact::{Best, centred, pair_kernels};
use super::aabb_polygon::{box_polygon, box_polygon_axes, box_polygon_contact};
use super::{
    finite_polygon, finite_polygon_lanes, finite_rotation, finite_rotation_lanes, to_local,
};
use crate::lanes::{Lane, Simd};
use crate::shape::{MAX_VERTICES, Obb, Polygon};

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

/// [`reference`](fn@reference) on every lane of `V`: all ones where a lane overlaps.
#[inline(always)]
pub(crate) fn hits<V: Simd>(o: [V; 6], q: [[V; MAX_VERTICES]; 2]) -> V {
    let [_, _, hw, hh, ..] = o;
    let (xs, ys) = local(&o, &q);
    let bounds = [-hw, -hh, hw, hh];
    box_polygon(bounds, &xs, &ys) & valid(&o, &q)
}

/// The polygon's vertices in the box's frame (offset from the centre, dotted with the axes).
#[inline(always)]
fn local<L: Lane>(
    [cx, cy, _, _, cos, sin]: &[L; 6],
    [xs, ys]: &[[L; MAX_VERTICES]; 2],
) -> ([L; MAX_VERTICES], [L; MAX_VERTICES]) {
    let (mut lx, mut ly) = (*xs, *ys);
    for k in 0..MAX_VERTICES {
        (lx[k], ly[k]) = to_local(xs[k] - *cx, ys[k] - *cy, *cos, *sin);
    }
    (lx, ly)
}

/// The validity part of [`hits`], which [`fused`] shares.
#[inline(always)]
fn valid<V: Simd>([_, _, hw, hh, cos, sin]: &[V; 6], [xs, ys]: &[[V; MAX_VERTICES]; 2]) -> V {
    hw.ge(V::ZERO) & hh.ge(V::ZERO) & finite_rotation_lanes(*cos, *sin) & finite_polygon_lanes(xs, ys)
}

pair_kernels!(o: Obb, ObbX8, ObbX16; q: Polygon, PolygonX8, PolygonX16; fused);

/// The candidates of this pair, generic over [`Lane`] (see the module docs).
#[inline(always)]
fn contact<L: Lane>(o: [L; 6], q: [[L; MAX_VERTICES]; 2]) -> Best<L> {
    let [_, _, hw, hh, cos, sin] = o;
    let (lx, ly) = local(&o, &q);
    box_polygon_contact(centred(hw, hh), &lx, &ly).to_world(cos, sin)
}

/// [`hits`] and [`contact`] from one pass over the axes in the box's frame
/// ([`box_polygon_axes`]).
#[inline(always)]
fn fused<V: Simd>(o: [V; 6], q: [[V; MAX_VERTICES]; 2]) -> (V, Best<V>) {
    let [_, _, hw, hh, cos, sin] = o;
    let (lx, ly) = local(&o, &q);
    let (met, best) = box_polygon_axes(centred(hw, hh), &lx, &ly);
    (met & valid(&o, &q), best.to_world(cos, sin))
}

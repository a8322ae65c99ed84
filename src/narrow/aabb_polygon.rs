//! AABB–polygon: separating-axis test on the box's two axes and the polygon's edge normals.
//!
//! On x and y the polygon's extent (the min and max of its vertices) must meet the box's. On
//! the outward normal `n` of the polygon's edge from vertex `v`, the polygon lies on the side
//! `n·(p - v) <= 0`; the box is separated when even its lowest corner is beyond,
//! `min over corners of n·(c - v) > 0`. That minimum splits by axis:
//! `min(nx·(min_x - vx), nx·(max_x - vx)) + min(ny·(min_y - vy), ny·(max_y - vy))`.
//! A padding edge has `n = 0` and never separates.
//!
//! The same test serves the OBB (in the box's own frame, see
//! [`obb_polygon`](super::obb_polygon)), so it is written once here for any box given by its
//! bounds and any polygon given by its vertices.
//!
//! Validity: `min <= max` on both box axes (a NaN bound fails it), every polygon coordinate
//! finite. Infinity follows IEEE: a box with infinite bounds works (where `0 · inf` makes a
//! normal's sum NaN, that axis is parallel to a box axis, which decides instead).
//!
//! **Contact** (written once for any box and polygon, shared with the OBB): candidates are the box's faces
//! (`+x`: `max_x` minus the polygon's smallest x, `-x`, `+y`, `-y`), then the polygon's edges in
//! order, each moving the polygon along its inward normal by `-(sx + sy) / |n|`, the box's
//! deepest corner beyond the edge; padding edges skipped (`0 / 0`).
//!
//! **Sweep** (one shape moving, [`SweepPair`](crate::SweepPair)): swept separating axes over
//! both outlines' edge normals, written once for every flat pair in `narrow/sweep/sat.rs`: the
//! latest entry before the earliest exit, the entry axis's normal.

use super::contact::{Best, Scaled, pair_kernels};
use super::{finite_polygon, finite_polygon_lanes, next};
use crate::lanes::{Lane, Simd};
use crate::shape::{Aabb, MAX_VERTICES, Polygon};

/// Whether the box `[lo_x, hi_x] × [lo_y, hi_y]` and the polygon with vertices `xs, ys` are not
/// separated by any of the SAT axes (validity not included), on any [`Lane`] (`f32` for the
/// references).
#[inline(always)]
pub(crate) fn box_polygon<L: Lane>(
    [lo_x, lo_y, hi_x, hi_y]: [L; 4],
    xs: &[L; MAX_VERTICES],
    ys: &[L; MAX_VERTICES],
) -> L::Mask {
    let [px0, py0, px1, py1] = extent(xs, ys);
    let mut hit = px0.le(hi_x) & lo_x.le(px1) & py0.le(hi_y) & lo_y.le(py1);
    for k in 0..MAX_VERTICES {
        let (nx, ny) = (ys[next(k)] - ys[k], xs[k] - xs[next(k)]);
        let sx = (nx * (lo_x - xs[k])).pmin(nx * (hi_x - xs[k]));
        let sy = (ny * (lo_y - ys[k])).pmin(ny * (hi_y - ys[k]));
        hit = hit & !(sx + sy).gt(L::splat(0.0)); // NaN does not separate
    }
    hit
}

/// Whether `a` and `q` overlap, touching included.
#[inline]
#[must_use]
pub fn reference(a: &Aabb, q: &Polygon) -> bool {
    let bounds = [a.min_x, a.min_y, a.max_x, a.max_y];
    box_polygon(bounds, &q.xs, &q.ys)
        & (a.min_x <= a.max_x)
        & (a.min_y <= a.max_y)
        & finite_polygon(q)
}

/// [`reference`](fn@reference) on every lane of `V`: all ones where a lane overlaps.
#[inline(always)]
pub(crate) fn hits<V: Simd>(bounds: [V; 4], [xs, ys]: [[V; MAX_VERTICES]; 2]) -> V {
    box_polygon(bounds, &xs, &ys) & valid(bounds, &xs, &ys)
}

/// The validity part of [`hits`], which [`fused`] shares.
#[inline(always)]
fn valid<V: Simd>(
    [min_x, min_y, max_x, max_y]: [V; 4],
    xs: &[V; MAX_VERTICES],
    ys: &[V; MAX_VERTICES],
) -> V {
    min_x.simd_le(max_x) & min_y.simd_le(max_y) & finite_polygon_lanes(xs, ys)
}

pair_kernels!(a: Aabb, AabbX8, AabbX16; q: Polygon, PolygonX8, PolygonX16; fused);

/// The candidates of this pair, generic over [`Lane`] (see the module docs).
#[inline(always)]
fn contact<L: Lane>(bounds: [L; 4], [xs, ys]: [[L; MAX_VERTICES]; 2]) -> Best<L> {
    box_polygon_contact(bounds, &xs, &ys)
}

/// [`hits`] and [`contact`] from one pass over the axes ([`box_polygon_axes`]).
#[inline(always)]
fn fused<V: Simd>(bounds: [V; 4], [xs, ys]: [[V; MAX_VERTICES]; 2]) -> (V, Best<V>) {
    let (met, best) = box_polygon_axes(bounds, &xs, &ys);
    (met & valid(bounds, &xs, &ys), best)
}

/// The contact of the box `[lo_x, hi_x] × [lo_y, hi_y]` and the polygon with vertices `xs, ys`,
/// normal from the box towards the polygon (the hit not included).
#[inline(always)]
pub(crate) fn box_polygon_contact<L: Lane>(
    bounds: [L; 4],
    xs: &[L; MAX_VERTICES],
    ys: &[L; MAX_VERTICES],
) -> Best<L> {
    box_polygon_axes(bounds, xs, ys).1
}

/// [`box_polygon`]'s answer (no axis separates; validity not included) and
/// [`box_polygon_contact`] from one pass: each axis's candidate is made of the values its
/// separation test compares. (A normal's `-ex` here is `0 - ex`, the test's `xs[k] -
/// xs[k + 1]`: they differ at most in the sign of a zero, which changes no comparison.)
#[inline(always)]
pub(crate) fn box_polygon_axes<L: Lane>(
    [lo_x, lo_y, hi_x, hi_y]: [L; 4],
    xs: &[L; MAX_VERTICES],
    ys: &[L; MAX_VERTICES],
) -> (L::Mask, Best<L>) {
    let (zero, one, minus) = (L::splat(0.0), L::splat(1.0), L::splat(-1.0));
    let [px0, py0, px1, py1] = extent(xs, ys);
    let mut met = px0.le(hi_x) & lo_x.le(px1) & py0.le(hi_y) & lo_y.le(py1);
    let mut best = Scaled::new();
    best.offer(hi_x - px0, one, one, zero);
    best.offer(px1 - lo_x, one, minus, zero);
    best.offer(hi_y - py0, one, zero, one);
    best.offer(py1 - lo_y, one, zero, minus);
    for k in 0..MAX_VERTICES {
        let (ex, ey) = (xs[next(k)] - xs[k], ys[next(k)] - ys[k]);
        let (nx, ny) = (ey, zero - ex);
        let sx = (nx * (lo_x - xs[k])).pmin(nx * (hi_x - xs[k]));
        let sy = (ny * (lo_y - ys[k])).pmin(ny * (hi_y - ys[k]));
        met = met & !(sx + sy).gt(zero);
        best.offer(zero - (sx + sy), (nx * nx + ny * ny).sqrt(), zero - nx, zero - ny);
    }
    (met, best.normalized())
}

/// The polygon's bounds `[min_x, min_y, max_x, max_y]`, by `pmin` and `pmax` in vertex order.
#[inline(always)]
fn extent<L: Lane>(xs: &[L; MAX_VERTICES], ys: &[L; MAX_VERTICES]) -> [L; 4] {
    let (mut px0, mut px1, mut py0, mut py1) = (xs[0], xs[0], ys[0], ys[0]);
    for k in 1..MAX_VERTICES {
        (px0, px1) = (px0.pmin(xs[k]), px1.pmax(xs[k]));
        (py0, py1) = (py0.pmin(ys[k]), py1.pmax(ys[k]));
    }
    [px0, py0, px1, py1]
}

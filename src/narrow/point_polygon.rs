//! Point–polygon: the point is inside a counter-clockwise polygon, boundary included, when it
//! lies on the left of (or on) every edge: `e × (p - v) >= 0` for each edge `e` from vertex
//! `v`. A padding edge has `e = 0`, so its cross product is 0 and it passes.
//!
//! Validity: every polygon coordinate finite. A NaN point makes the cross products NaN, which
//! fail `>= 0`.
//!
//! **Contact**: the polygon leaves the point through its nearest edge: for edge `k`, depth
//! `e × (p - v) / |e|` (the point's distance inside it) along the edge's inward normal; edges
//! in order, padding edges skipped (their `0 / 0` is NaN).
//!
//! **Sweep** (one shape moving, [`SweepPair`](crate::SweepPair)): swept separating axes over
//! both outlines' edge normals, written once for every flat pair in `narrow/sweep/sat.rs`: the
//! latest entry before the earliest exit, the entry axis's normal.

use super::contact::{Best, Scaled, pair_kernels};
use super::{finite_polygon, finite_polygon_lanes, next};
use crate::lanes::{Lane, Simd};
use crate::shape::{MAX_VERTICES, Point, Polygon};

/// Whether `p` lies in `q`, boundary included.
#[inline]
#[must_use]
pub fn reference(p: &Point, q: &Polygon) -> bool {
    let mut inside = finite_polygon(q);
    for k in 0..MAX_VERTICES {
        let (ex, ey) = (q.xs[next(k)] - q.xs[k], q.ys[next(k)] - q.ys[k]);
        inside &= ex * (p.y - q.ys[k]) - ey * (p.x - q.xs[k]) >= 0.0;
    }
    inside
}

/// [`reference`](fn@reference) on every lane of `V`: all ones where a lane overlaps.
#[inline(always)]
pub(crate) fn hits<V: Simd>([px, py]: [V; 2], [xs, ys]: [[V; MAX_VERTICES]; 2]) -> V {
    let mut inside = finite_polygon_lanes(&xs, &ys);
    for k in 0..MAX_VERTICES {
        let (ex, ey) = (xs[next(k)] - xs[k], ys[next(k)] - ys[k]);
        inside = inside & (ex * (py - ys[k]) - ey * (px - xs[k])).ge(V::ZERO);
    }
    inside
}

pair_kernels!(p: Point, PointX8, PointX16; q: Polygon, PolygonX8, PolygonX16; fused);

/// The candidates of this pair, generic over [`Lane`] (see the module docs).
#[inline(always)]
fn contact<L: Lane>(p: [L; 2], q: [[L; MAX_VERTICES]; 2]) -> Best<L> {
    edges(p, q).1
}

/// [`hits`] and [`contact`] from one pass over the edges.
#[inline(always)]
fn fused<V: Simd>(p: [V; 2], [xs, ys]: [[V; MAX_VERTICES]; 2]) -> (V, Best<V>) {
    let (inside, best) = edges(p, [xs, ys]);
    (finite_polygon_lanes(&xs, &ys) & inside, best)
}

/// Whether the point is on the left of (or on) every edge, and the best candidate: each edge's
/// candidate is the cross product its test compares.
#[inline(always)]
fn edges<L: Lane>([px, py]: [L; 2], [xs, ys]: [[L; MAX_VERTICES]; 2]) -> (L::Mask, Best<L>) {
    let zero = L::splat(0.0);
    let mut inside = zero.eq(zero);
    let mut best = Scaled::new();
    for k in 0..MAX_VERTICES {
        let (ex, ey) = (xs[next(k)] - xs[k], ys[next(k)] - ys[k]);
        let cross = ex * (py - ys[k]) - ey * (px - xs[k]);
        inside = inside & cross.ge(zero);
        best.offer(cross, (ex * ex + ey * ey).sqrt(), zero - ey, ex);
    }
    (inside, best.normalized())
}

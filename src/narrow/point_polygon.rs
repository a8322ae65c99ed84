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

use super::contact::{Best, Lane, Scaled, contact_pair};
use super::{finite_polygon, finite_polygon8, next};
use crate::lanes::{PointX8, PolygonX8};
use crate::shape::{MAX_VERTICES, Point, Polygon};
use wide::f32x8;

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

/// Eight lanes of [`reference`](fn@reference); bit `i` is lane `i`.
#[inline]
#[must_use]
pub fn x8(p: &PointX8, q: &PolygonX8) -> u8 {
    super::bits(hits8(p, q))
}

/// [`x8`]'s answer as a lane mask (all ones where a lane overlaps), for the contact kernel.
#[inline(always)]
pub(crate) fn hits8(p: &PointX8, q: &PolygonX8) -> f32x8 {
    let mut inside = finite_polygon8(q);
    for k in 0..MAX_VERTICES {
        let (ex, ey) = (q.x[next(k)] - q.x[k], q.y[next(k)] - q.y[k]);
        inside &= (ex * (p.y - q.y[k]) - ey * (p.x - q.x[k])).simd_ge(f32x8::ZERO);
    }
    inside
}

contact_pair!(p: Point, PointX8; q: Polygon, PolygonX8);

/// The candidates of this pair, generic over [`Lane`] (see the module docs).
#[inline(always)]
fn contact<L: Lane>([px, py]: [L; 2], [xs, ys]: [[L; MAX_VERTICES]; 2]) -> Best<L> {
    let mut best = Scaled::new();
    for k in 0..MAX_VERTICES {
        let (ex, ey) = (xs[next(k)] - xs[k], ys[next(k)] - ys[k]);
        let cross = ex * (py - ys[k]) - ey * (px - xs[k]);
        best.offer(cross, ex * ex + ey * ey, L::splat(0.0) - ey, ex);
    }
    best.normalized()
}

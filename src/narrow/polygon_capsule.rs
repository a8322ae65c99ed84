//! Polygon–capsule: the capsule's segment against the polygon, with the radius. They overlap
//! when the segment meets the polygon (no separating axis among the polygon's edge normals,
//! where both endpoints lie strictly outside an edge, `e × (p - v) < 0`, and the segment's
//! normal, where every vertex lies strictly on one side of the segment's line), or a vertex lies
//! within the radius of the segment, or an endpoint within the radius of an edge's interior
//! (`0 <= (p - v)·e <= e·e` and `(e × (p - v))² <= r²·(e·e)`; for shapes that do not meet, the
//! distance is reached at a vertex or an endpoint). No division (see
//! [the capsule notes](super#capsules)). A padding edge (`e = 0`) separates nothing and has no
//! interior. Written once over [`Lane`]: the reference and the kernels are the same operations.
//!
//! Validity: every polygon coordinate finite, the capsule's endpoints finite and its radius
//! `>= 0`.
//!
//! **Contact** (normal from the polygon towards the capsule): apart, along the offset between
//! the nearest points, depth `radius - distance` (candidates: for each edge in order, the
//! offsets of `a` and then `b` from the edge's nearest point; then each vertex's offset to the
//! segment). Meeting, the smallest move of the segment out of the polygon plus the radius:
//! each edge's outward normal `(ey, -ex)` in order (the segment's deeper endpoint decides,
//! `max(e × (a - v), e × (b - v)) / |e|`), then the segment's left normal `(-dy, dx)` and its
//! reverse, compared unnormalised (`Scaled`). Ties to the earlier candidate.

use super::contact::{Best, Scaled, disc_squared, over_lanes, pair_kernels};
use super::segment::{Nearest, Segment, valid};
use super::{finite_polygon_lanes, next};
use crate::lanes::{Lane, Simd};
use crate::shape::MAX_VERTICES;

/// Whether the segment meets the polygon: no separating axis (see the module docs).
#[inline(always)]
fn meets<L: Lane>(s: &Segment<L>, [xs, ys]: &[[L; MAX_VERTICES]; 2]) -> L::Mask {
    let zero = L::splat(0.0);
    let (mut separated, mut left, mut right) = (zero.lt(zero), zero.ge(zero), zero.ge(zero));
    for k in 0..MAX_VERTICES {
        let (ex, ey) = (xs[next(k)] - xs[k], ys[next(k)] - ys[k]);
        let ca = ex * (s.ay - ys[k]) - ey * (s.ax - xs[k]);
        let cb = ex * (s.by - ys[k]) - ey * (s.bx - xs[k]);
        separated = separated | (ca.lt(zero) & cb.lt(zero));
        let side = s.side(xs[k], ys[k]);
        left = left & side.gt(zero);
        right = right & side.lt(zero);
    }
    !(separated | left | right)
}

/// The overlap test on any [`Lane`].
#[inline(always)]
fn test<L: Lane>(q: [[L; MAX_VERTICES]; 2], c: [L; 5]) -> L::Mask {
    let [xs, ys] = &q;
    let s = Segment::of(c);
    let zero = L::splat(0.0);
    let r2 = c[4] * c[4];
    let mut near = zero.lt(zero);
    for k in 0..MAX_VERTICES {
        near = near | s.near(xs[k], ys[k], r2);
        let (ex, ey) = (xs[next(k)] - xs[k], ys[next(k)] - ys[k]);
        let len2 = ex * ex + ey * ey;
        for (px, py) in [(s.ax, s.ay), (s.bx, s.by)] {
            let (wx, wy) = (px - xs[k], py - ys[k]);
            let along = wx * ex + wy * ey;
            let cross = ex * wy - ey * wx;
            near = near
                | (along.ge(zero)
                    & along.le(len2)
                    & len2.gt(zero)
                    & (cross * cross).le(r2 * len2));
        }
    }
    (near | meets(&s, &q)) & valid(c) & finite_polygon_lanes(xs, ys)
}

over_lanes!(q: Polygon; c: Capsule);
pair_kernels!(q: Polygon, PolygonX8, PolygonX16; c: Capsule, CapsuleX8, CapsuleX16);

/// The candidates of this pair, generic over [`Lane`] (see the module docs).
#[inline(always)]
fn contact<L: Lane>(q: [[L; MAX_VERTICES]; 2], c: [L; 5]) -> Best<L> {
    let [xs, ys] = &q;
    let (s, r) = (Segment::of(c), c[4]);
    let (zero, one) = (L::splat(0.0), L::splat(1.0));
    let mut nearest = Nearest::new();
    let mut edges = Scaled::new();
    for k in 0..MAX_VERTICES {
        let edge = Segment::new(xs[k], ys[k], xs[next(k)], ys[next(k)]);
        let inv = one / edge.dd;
        for (px, py) in [(s.ax, s.ay), (s.bx, s.by)] {
            let (qx, qy) = edge.closest(px, py, inv);
            nearest.offer(px - qx, py - qy);
        }
        let deeper = edge.side(s.ax, s.ay).pmax(edge.side(s.bx, s.by));
        edges.offer(deeper + r * edge.dd.sqrt(), edge.dd, edge.dy, zero - edge.dx);
    }
    let inv = one / s.dd;
    let (mut lo, mut hi) = (L::splat(f32::INFINITY), L::splat(f32::NEG_INFINITY));
    for k in 0..MAX_VERTICES {
        let (qx, qy) = s.closest(xs[k], ys[k], inv);
        nearest.offer(qx - xs[k], qy - ys[k]);
        let side = s.side(xs[k], ys[k]);
        (lo, hi) = (side.pmin(lo), side.pmax(hi));
    }
    let (apart, away) = disc_squared(nearest.vx, nearest.vy, nearest.d2, 1.0, r);
    // On the segment's normal `m` the segment projects to 0 and the polygon to `[lo, hi]`
    // (relative to `a`, scaled by `|m|`).
    let len = s.dd.sqrt();
    edges.offer(hi + r * len, s.dd, zero - s.dy, s.dx);
    edges.offer(zero - lo + r * len, s.dd, s.dy, zero - s.dx);
    Best::pick(away & !meets(&s, &q), apart, edges.normalized())
}

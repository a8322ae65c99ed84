//! Polygon–capsule: the capsule's segment against the polygon, with the radius. They overlap
//! when the segment meets the polygon (no separating axis among the polygon's edge normals,
//! where both endpoints lie strictly outside an edge, `e × (p - v) < 0`, and the segment's
//! normal, where every vertex lies strictly on one side of the segment's line), or a vertex lies
//! within the radius of the segment, or an endpoint within the radius of an edge's interior
//! (`0 <= (p - v)·e <= e·e` and `|e × (p - v)| <= r·|e|`; for shapes that do not meet, the
//! distance is reached at a vertex or an endpoint). No division (see
//! [the capsule notes](super#capsules)). A padding edge (`e = 0`) separates nothing and has no
//! interior. Written once over [`Lane`]: the reference and the kernels are the same operations.
//!
//! Validity: every polygon coordinate finite, the capsule's endpoints finite and its radius
//! `>= 0`.
//!
//! **Contact** (normal from the polygon towards the capsule): the smallest move of the segment
//! out of the polygon plus the radius, compared unnormalised (`Scaled`), ties to the earlier:
//! each edge's outward normal `(ey, -ex)` in order (the segment's deeper endpoint decides,
//! `max(e × (a - v), e × (b - v)) / |e|`), the segment's left normal `(-dy, dx)` and its
//! reverse (the polygon's extent along them), then the ends axis from the nearest vertex to the
//! nearest end (vertex by vertex, `a` before `b`; `(1, 0)` where they coincide), the polygon's
//! extent beyond that vertex and the segment's before that end along it. Every candidate is an
//! exact separating move and the true one is among them whether the shapes meet or not (see
//! [the capsule notes](super#capsules)); none comes from an offset to a nearest point inside an
//! edge, which is rounding noise where a vertex lies on the segment or an end on an edge.
//!
//! **Sweep** (one shape moving, [`SweepPair`](crate::SweepPair)): the motion against the
//! pair's rounded Minkowski difference (a ray against the other shape grown by the radii),
//! covered by edge bands and vertex discs, written once for every round pair in
//! `narrow/sweep/round.rs`.

use super::contact::{Best, Scaled, over_lanes, pair_kernels};
use super::segment::{Ends, Segment, valid};
use super::{finite_polygon_lanes, next};
use crate::lanes::{Lane, Simd};
use crate::shape::MAX_VERTICES;

/// The overlap test on any [`Lane`], in one pass over the edges: each edge's cross products
/// with the segment's ends, and the segment's side of each vertex, are computed once and read
/// by both halves of the test (near within the radius, or the segment meeting the polygon: no
/// separating axis).
#[inline(always)]
fn test<L: Lane>(q: [[L; MAX_VERTICES]; 2], c: [L; 5]) -> L::Mask {
    let [xs, ys] = &q;
    let s = Segment::of(c);
    let zero = L::splat(0.0);
    let mut near = zero.lt(zero);
    let (mut separated, mut left, mut right) = (zero.lt(zero), zero.ge(zero), zero.ge(zero));
    for k in 0..MAX_VERTICES {
        near = near | s.near(xs[k], ys[k], c[4]);
        let side = s.side(xs[k], ys[k]);
        left = left & side.gt(zero);
        right = right & side.lt(zero);
        let (ex, ey) = (xs[next(k)] - xs[k], ys[next(k)] - ys[k]);
        let len2 = ex * ex + ey * ey;
        let mut outside = zero.ge(zero);
        for (px, py) in [(s.ax, s.ay), (s.bx, s.by)] {
            let (wx, wy) = (px - xs[k], py - ys[k]);
            let along = wx * ex + wy * ey;
            let cross = ex * wy - ey * wx;
            near = near
                | (along.ge(zero)
                    & along.le(len2)
                    & len2.gt(zero)
                    & cross.abs().le(c[4] * len2.sqrt()));
            // Both ends strictly outside the edge: its normal separates.
            outside = outside & cross.lt(zero);
        }
        separated = separated | outside;
    }
    let meets = !(separated | left | right);
    (near | meets) & valid(c) & finite_polygon_lanes(xs, ys)
}

over_lanes!(q: Polygon; c: Capsule);
pair_kernels!(q: Polygon, PolygonX8, PolygonX16; c: Capsule, CapsuleX8, CapsuleX16);

/// The candidates of this pair, generic over [`Lane`] (see the module docs).
#[inline(always)]
fn contact<L: Lane>(q: [[L; MAX_VERTICES]; 2], c: [L; 5]) -> Best<L> {
    let [xs, ys] = &q;
    let (s, r) = (Segment::of(c), c[4]);
    let zero = L::splat(0.0);
    let mut edges = Scaled::new();
    let mut ends = Ends::new();
    let (mut lo, mut hi) = (L::splat(f32::INFINITY), L::splat(f32::NEG_INFINITY));
    for k in 0..MAX_VERTICES {
        let edge = Segment::new(xs[k], ys[k], xs[next(k)], ys[next(k)]);
        let deeper = edge.side(s.ax, s.ay).pmax(edge.side(s.bx, s.by));
        edges.offer(deeper + r * edge.len, edge.len, edge.dy, zero - edge.dx);
        ends.offer(xs[k], ys[k], s.ax, s.ay);
        ends.offer(xs[k], ys[k], s.bx, s.by);
        let side = s.side(xs[k], ys[k]);
        (lo, hi) = (side.pmin(lo), side.pmax(hi));
    }
    // On the segment's normal `m` the segment projects to 0 and the polygon to `[lo, hi]`
    // (relative to `a`, scaled by `|m|`).
    edges.offer(hi + r * s.len, s.len, zero - s.dy, s.dx);
    edges.offer(zero - lo + r * s.len, s.len, s.dy, zero - s.dx);
    // The ends axis, from the nearest vertex `f` to the nearest end: the polygon's extent
    // along it beyond `f`.
    let (ux, uy, uu) = ends.axis();
    let (fx, fy) = (ends.fx, ends.fy);
    let mut ahead = (xs[0] - fx) * ux + (ys[0] - fy) * uy;
    for k in 1..MAX_VERTICES {
        ahead = ahead.pmax((xs[k] - fx) * ux + (ys[k] - fy) * uy);
    }
    let behind = s.extent(fx, fy, ux, uy).0;
    let u = uu.sqrt();
    edges.offer(r * u + ahead - behind, u, ux, uy);
    edges.normalized()
}

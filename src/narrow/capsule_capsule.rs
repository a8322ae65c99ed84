//! Capsule–capsule: two capsules overlap when their segments come within the sum of the radii:
//! the segments cross, or an endpoint of one lies within that reach of the other segment (for
//! segments that do not meet, the distance is reached at an endpoint of one of them). Crossing
//! is decided by signs: each segment's endpoints lie strictly on opposite sides of the other's
//! line (`d₁ × (a₂ - a₁)` and `d₁ × (b₂ - a₁)` of opposite signs, and the same the other way);
//! touching and collinear overlaps are left to the endpoint tests, whose reach is then 0 (two
//! radius-0 segments that touch end to end, or lie along each other, overlap). No division
//! (see [the capsule notes](super#capsules)). Written once over [`Lane`]: the reference and the kernels
//! are the same operations.
//!
//! Validity: both capsules' endpoints finite and both radii `>= 0`, each on its own.
//!
//! **Contact** (normal from the first capsule towards the second): the smallest of these
//! moves of the second, each the exact move along its direction that separates the two (the
//! segments' extents along it plus `ra + rb`), compared unnormalised (`Scaled`), ties to the
//! earlier: the first segment's left normal `n₁ = (-d₁y, d₁x)`, its reverse, the second
//! segment's normal `n₂` and its reverse, then the ends axis from the nearest pair of ends (one
//! of each; pairs in the order `a₁a₂`, `a₁b₂`, `b₁a₂`, `b₁b₂`), `(1, 0)` where those ends
//! coincide. The segments' Minkowski difference is a parallelogram with sides along `d₁` and
//! `d₂`: where the segments cross or touch, its edge normals (the segments' normals) hold the
//! minimum; where they are apart, the nearest of its features does, an edge (an end facing the
//! other segment's span: that segment's normal) or a vertex (an end facing an end: the ends
//! axis). So the answer never comes from the offset between an end and its nearest point inside
//! the other segment, whose direction is rounding noise where the segments meet within rounding
//! (collinear or parallel cores lying along each other, an end on the other core, a
//! zero-length capsule on a core): such an offset's components are off by about `2⁻²⁴` of the
//! coordinates' magnitude, so its direction is off by that over its length, any direction at
//! all at rounding length and still a wrong move of a segment's length times that angle further
//! out, while a segment's normal is exact at every length; see [the capsule
//! notes](super#capsules).
//!
//! **Sweep** (one shape moving, [`SweepPair`](crate::SweepPair)): the motion against the
//! pair's rounded Minkowski difference (a ray against the other shape grown by the radii),
//! covered by edge bands and vertex discs, written once for every round pair in
//! `narrow/sweep/round.rs`.

use super::contact::{Best, Scaled, over_lanes, pair_kernels};
use super::segment::{Ends, Segment, valid};
use crate::lanes::{Lane, Simd};

/// Whether the segments cross at a point inside both (every side test strict).
#[inline(always)]
fn crossing<L: Lane>(p: &Segment<L>, q: &Segment<L>) -> L::Mask {
    let zero = L::splat(0.0);
    let apart = |u: L, v: L| (u.lt(zero) & v.gt(zero)) | (u.gt(zero) & v.lt(zero));
    apart(p.side(q.ax, q.ay), p.side(q.bx, q.by)) & apart(q.side(p.ax, p.ay), q.side(p.bx, p.by))
}

/// The overlap test on any [`Lane`].
#[inline(always)]
fn test<L: Lane>(a: [L; 5], b: [L; 5]) -> L::Mask {
    let (p, q) = (Segment::of(a), Segment::of(b));
    let reach = a[4] + b[4];
    let near = q.near(p.ax, p.ay, reach)
        | q.near(p.bx, p.by, reach)
        | p.near(q.ax, q.ay, reach)
        | p.near(q.bx, q.by, reach);
    (near | crossing(&p, &q)) & valid(a) & valid(b)
}

over_lanes!(a: Capsule; b: Capsule);
pair_kernels!(a: Capsule, CapsuleX8, CapsuleX16; b: Capsule, CapsuleX8, CapsuleX16);

/// The candidates of this pair, generic over [`Lane`] (see the module docs).
#[inline(always)]
fn contact<L: Lane>(a: [L; 5], b: [L; 5]) -> Best<L> {
    let (p, q) = (Segment::of(a), Segment::of(b));
    let reach = a[4] + b[4];
    // The segments' normals. On `n₁` the first segment projects to the single value 0
    // (relative to `a₁`) and the second to `[lo, hi]`: moving it along `+n₁` takes `0 - lo`,
    // along `-n₁` takes `hi`; on `n₂` the same with the roles exchanged.
    let mut best = Scaled::new();
    let (lo, hi) = {
        let (u, v) = (p.side(q.ax, q.ay), p.side(q.bx, q.by));
        (u.pmin(v), u.pmax(v))
    };
    let zero = L::splat(0.0);
    best.offer(zero - lo + reach * p.len, p.len, zero - p.dy, p.dx);
    best.offer(hi + reach * p.len, p.len, p.dy, zero - p.dx);
    let (lo, hi) = {
        let (u, v) = (q.side(p.ax, p.ay), q.side(p.bx, p.by));
        (u.pmin(v), u.pmax(v))
    };
    best.offer(hi + reach * q.len, q.len, zero - q.dy, q.dx);
    best.offer(zero - lo + reach * q.len, q.len, q.dy, zero - q.dx);
    // The ends axis: from the nearest of the first's ends to the nearest of the second's.
    let mut ends = Ends::new();
    for (fx, fy) in [(p.ax, p.ay), (p.bx, p.by)] {
        ends.offer(fx, fy, q.ax, q.ay);
        ends.offer(fx, fy, q.bx, q.by);
    }
    let (ux, uy, uu) = ends.axis();
    let ahead = p.extent(ends.fx, ends.fy, ux, uy).1;
    let behind = q.extent(ends.fx, ends.fy, ux, uy).0;
    let u = uu.sqrt();
    best.offer(reach * u + ahead - behind, u, ux, uy);
    best.normalized()
}

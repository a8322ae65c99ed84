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
//! **Contact** (normal from the first capsule towards the second). Where the segments are
//! apart, along the offset between their nearest points, depth `ra + rb - distance`: the
//! nearest of four candidates, `a₁` and `b₁` to the second segment, then `a₂` and `b₂` to the
//! first (ties to the earlier). Where they cross or touch, the smallest move that separates the
//! segments (their Minkowski difference is a parallelogram with sides along `d₁` and `d₂`, so
//! only the two segments' normals are candidates) plus `ra + rb`: the first segment's left
//! normal `n₁ = (-d₁y, d₁x)`, then its reverse, then the second segment's normal and its
//! reverse, compared unnormalised (`Scaled`); ties to the earlier.

use super::contact::{Best, Scaled, over_lanes, pair_kernels};
use super::segment::{Nearest, Segment, valid};
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
    let r2 = reach * reach;
    let near = q.near(p.ax, p.ay, r2)
        | q.near(p.bx, p.by, r2)
        | p.near(q.ax, q.ay, r2)
        | p.near(q.bx, q.by, r2);
    (near | crossing(&p, &q)) & valid(a) & valid(b)
}

over_lanes!(a: Capsule; b: Capsule);
pair_kernels!(a: Capsule, CapsuleX8, CapsuleX16; b: Capsule, CapsuleX8, CapsuleX16);

/// The candidates of this pair, generic over [`Lane`] (see the module docs).
#[inline(always)]
fn contact<L: Lane>(a: [L; 5], b: [L; 5]) -> Best<L> {
    let (p, q) = (Segment::of(a), Segment::of(b));
    let (one, reach) = (L::splat(1.0), a[4] + b[4]);
    // Apart: the nearest points.
    let (ip, iq) = (one / p.dd, one / q.dd);
    let mut nearest = Nearest::new();
    for (x, y) in [(p.ax, p.ay), (p.bx, p.by)] {
        let (qx, qy) = q.closest(x, y, iq);
        nearest.offer(qx - x, qy - y);
    }
    for (x, y) in [(q.ax, q.ay), (q.bx, q.by)] {
        let (px, py) = p.closest(x, y, ip);
        nearest.offer(x - px, y - py);
    }
    let (apart, away) = super::contact::disc_squared(
        nearest.vx,
        nearest.vy,
        nearest.d2,
        1.0,
        reach,
    );
    // Crossing or touching: the segments' normals. On `n₁` the first segment projects to the
    // single value 0 (relative to `a₁`) and the second to `[lo, hi]`: moving it along `+n₁`
    // takes `0 - lo`, along `-n₁` takes `hi`; on `n₂` the same with the roles exchanged.
    let mut best = Scaled::new();
    let (lo, hi) = {
        let (u, v) = (p.side(q.ax, q.ay), p.side(q.bx, q.by));
        (u.pmin(v), u.pmax(v))
    };
    let (zero, len) = (L::splat(0.0), p.dd.sqrt());
    best.offer(zero - lo + reach * len, p.dd, zero - p.dy, p.dx);
    best.offer(hi + reach * len, p.dd, p.dy, zero - p.dx);
    let (lo, hi) = {
        let (u, v) = (q.side(p.ax, p.ay), q.side(p.bx, p.by));
        (u.pmin(v), u.pmax(v))
    };
    let len = q.dd.sqrt();
    best.offer(hi + reach * len, q.dd, zero - q.dy, q.dx);
    best.offer(zero - lo + reach * len, q.dd, q.dy, zero - q.dx);
    Best::pick(away & !crossing(&p, &q), apart, best.normalized())
}

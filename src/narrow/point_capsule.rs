//! Point–capsule: the point lies in the capsule when it is within the radius of the segment
//! (see [the capsule notes](super#capsules) for the division-free distance test). Written once over
//! [`Lane`]: the reference and the kernels are the same operations.
//!
//! Validity: the capsule's endpoints finite and its radius `>= 0`. A NaN point makes every
//! comparison fail.
//!
//! **Contact**: [`circle_capsule`](super::circle_capsule)'s with a circle of radius 0: the
//! capsule leaves the point along its segment's left normal `(-dy, dx) / |d|` or its reverse
//! (a point beside the segment's span, on the segment within rounding or exactly: sideways
//! along `(-dy, dx) / |d|`, depth `radius`), or along the axis from the point to the nearer end
//! (a point beyond an end; `(1, 0)` where it is that end).
//!
//! **Sweep** (one shape moving, [`SweepPair`](crate::SweepPair)): the motion against the
//! pair's rounded Minkowski difference (a ray against the other shape grown by the radii),
//! covered by edge bands and vertex discs, written once for every round pair in
//! `narrow/sweep/round.rs`.

use super::contact::{Best, over_lanes, pair_kernels};
use super::segment::{Segment, disc_contact, valid};
use crate::lanes::{Lane, Simd};

/// The overlap test on any [`Lane`].
#[inline(always)]
fn test<L: Lane>([px, py]: [L; 2], c: [L; 5]) -> L::Mask {
    Segment::of(c).near(px, py, c[4]) & valid(c)
}

over_lanes!(p: Point; c: Capsule);
pair_kernels!(p: Point, PointX8, PointX16; c: Capsule, CapsuleX8, CapsuleX16);

/// The candidates of this pair, generic over [`Lane`] (see the module docs).
#[inline(always)]
fn contact<L: Lane>([px, py]: [L; 2], c: [L; 5]) -> Best<L> {
    disc_contact(&Segment::of(c), px, py, c[4])
}

//! Point–capsule: the point lies in the capsule when it is within the radius of the segment
//! (see [the capsule notes](super#capsules) for the division-free distance test). Written once over
//! [`Lane`]: the reference and the kernels are the same operations.
//!
//! Validity: the capsule's endpoints finite and its radius `>= 0`. A NaN point makes every
//! comparison fail.
//!
//! **Contact**: the capsule leaves the point along the offset from the point to the segment's
//! nearest point, depth `radius - distance`; from a point on the segment, sideways along the
//! segment's left normal `(-dy, dx) / |d|`, depth `radius` (`(1, 0)` for a segment of zero
//! length).

use super::contact::{Best, over_lanes, pair_kernels};
use super::segment::{Segment, disc_contact, valid};
use crate::lanes::{Lane, Simd};

/// The overlap test on any [`Lane`].
#[inline(always)]
fn test<L: Lane>([px, py]: [L; 2], c: [L; 5]) -> L::Mask {
    Segment::of(c).near(px, py, c[4] * c[4]) & valid(c)
}

over_lanes!(p: Point; c: Capsule);
pair_kernels!(p: Point, PointX8, PointX16; c: Capsule, CapsuleX8, CapsuleX16);

/// The candidates of this pair, generic over [`Lane`] (see the module docs).
#[inline(always)]
fn contact<L: Lane>([px, py]: [L; 2], c: [L; 5]) -> Best<L> {
    disc_contact(&Segment::of(c), px, py, c[4])
}

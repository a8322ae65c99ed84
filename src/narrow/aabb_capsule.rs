//! AABB–capsule: the capsule's segment meets the box (no separating axis among the box's two
//! and the segment's normal), or an endpoint lies within the radius of the box (its offset from
//! its clamp into the box), or a corner lies within the radius of the segment (for a segment and
//! a box that do not meet, the distance is reached at an endpoint or a corner). No division (see
//! [the capsule notes](super#capsules)). Infinite bounds are allowed: an infinite box contains every
//! valid capsule. Written once over [`Lane`]: the reference and the kernels are the same
//! operations.
//!
//! Validity: `min <= max` on both axes (NaN bounds fail it), the capsule's endpoints finite and
//! its radius `>= 0`.
//!
//! **Contact** (normal from the box towards the capsule): the smallest move of the segment out
//! of the box plus the radius, ties to the earlier: the faces
//! `+x`, `-x`, `+y`, `-y`, the segment's left normal `(-dy, dx)` and its reverse, then the ends
//! axis from the nearest corner to the nearest end (each end's nearest corner, the nearer bound
//! on each axis, the lower on a tie; `a`'s pair on a tie; `(1, 0)` where the two coincide).
//! Every candidate is an exact
//! separating move and the true one is among them whether the shapes meet or not (see [the
//! capsule notes](super#capsules)).
//!
//! **Sweep** (one shape moving, [`SweepPair`](crate::SweepPair)): the motion against the
//! pair's rounded Minkowski difference (a ray against the other shape grown by the radii),
//! covered by edge bands and vertex discs, found in the box's frame for every box against a
//! circle or a capsule in `narrow/sweep/boxed.rs`.

use super::contact::{Best, over_lanes, pair_kernels};
use super::segment::{Segment, box_contact, box_test, valid};
use crate::lanes::{Lane, Simd};

/// The overlap test on any [`Lane`].
#[inline(always)]
fn test<L: Lane>(b: [L; 4], c: [L; 5]) -> L::Mask {
    let [lo_x, lo_y, hi_x, hi_y] = b;
    box_test(&Segment::of(c), c[4], b) & lo_x.le(hi_x) & lo_y.le(hi_y) & valid(c)
}

over_lanes!(b: Aabb; c: Capsule);
pair_kernels!(b: Aabb, AabbX8, AabbX16; c: Capsule, CapsuleX8, CapsuleX16);

/// The candidates of this pair, generic over [`Lane`] (see the module docs).
#[inline(always)]
fn contact<L: Lane>(b: [L; 4], c: [L; 5]) -> Best<L> {
    box_contact(&Segment::of(c), c[4], b)
}

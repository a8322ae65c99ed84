//! Circle–capsule: they overlap when the circle's centre is within the sum of the radii of the
//! capsule's segment (see [the capsule notes](super#capsules) for the division-free distance test).
//! Written once over [`Lane`]: the reference and the kernels are the same operations.
//!
//! Both radii are tested for `>= 0` on their own (a negative radius could hide in a positive
//! sum), and the capsule's endpoints must be finite. A NaN centre makes every comparison fail.
//!
//! **Contact** (normal from the circle towards the capsule), with `reach` the sum of the radii:
//! where the centre `c` projects onto the segment, across it along its left normal
//! `m = (-dy, dx)` or the reverse, away from the side `c` lies on, depth
//! `reach - |m·(c - a)| / |m|`; a centre on the segment, within rounding or exactly, leaves
//! along `m` with depth `reach`. Elsewhere along the axis from `c` to the nearer end. Never
//! along the offset to the segment's nearest point, whose direction is rounding noise where the
//! centre lies on the segment (see [the capsule notes](super#capsules)). For a segment of zero
//! length (a circle stored as a capsule), the axis between the centres, `(1, 0)` where they
//! coincide.
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
fn test<L: Lane>([cx, cy, r]: [L; 3], c: [L; 5]) -> L::Mask {
    let reach = r + c[4];
    Segment::of(c).near(cx, cy, reach) & r.ge(L::splat(0.0)) & valid(c)
}

over_lanes!(a: Circle; c: Capsule);
pair_kernels!(a: Circle, CircleX8, CircleX16; c: Capsule, CapsuleX8, CapsuleX16);

/// The candidates of this pair, generic over [`Lane`] (see the module docs).
#[inline(always)]
fn contact<L: Lane>([cx, cy, r]: [L; 3], c: [L; 5]) -> Best<L> {
    disc_contact(&Segment::of(c), cx, cy, r + c[4])
}

//! OBB–capsule: the capsule's endpoints are taken into the box's frame (as in
//! [`circle_obb`](super::circle_obb)), where the box is the AABB `[-hw, hw] × [-hh, hh]`, and
//! tested there as in [`aabb_capsule`](super::aabb_capsule). Written once over [`Lane`]: the
//! reference and the kernels are the same operations.
//!
//! Validity: both half extents `>= 0`, a finite rotation, the capsule's endpoints finite and its
//! radius `>= 0`. A NaN centre makes the local endpoints NaN, which fail every test.
//!
//! **Contact**: [`aabb_capsule`](super::aabb_capsule)'s in the box's frame (faces `+x`, `-x`,
//! `+y`, `-y` of that frame), the normal turned back to the world.
//!
//! **Sweep** (one shape moving, [`SweepPair`](crate::SweepPair)): the motion against the
//! pair's rounded Minkowski difference (a ray against the other shape grown by the radii),
//! covered by edge bands and vertex discs, found in the box's frame for every box against a
//! circle or a capsule in `narrow/sweep/boxed.rs`.

use super::contact::{Best, centred, over_lanes, pair_kernels};
use super::segment::{Segment, box_contact, box_test, valid};
use super::{finite_rotation_lanes, to_local};
use crate::lanes::{Lane, Simd};

/// The capsule's segment in the box's frame.
#[inline(always)]
fn local<L: Lane>([ox, oy, _, _, cos, sin]: [L; 6], c: [L; 5]) -> Segment<L> {
    let (x0, y0) = to_local(c[0] - ox, c[1] - oy, cos, sin);
    let (x1, y1) = to_local(c[2] - ox, c[3] - oy, cos, sin);
    Segment::new(x0, y0, x1, y1)
}

/// The overlap test on any [`Lane`].
#[inline(always)]
fn test<L: Lane>(o: [L; 6], c: [L; 5]) -> L::Mask {
    let [_, _, hw, hh, cos, sin] = o;
    let zero = L::splat(0.0);
    let valid_box = hw.ge(zero) & hh.ge(zero) & finite_rotation_lanes(cos, sin);
    box_test(&local(o, c), c[4], centred(hw, hh)) & valid_box & valid(c)
}

over_lanes!(o: Obb; c: Capsule);
pair_kernels!(o: Obb, ObbX8, ObbX16; c: Capsule, CapsuleX8, CapsuleX16);

/// The candidates of this pair, generic over [`Lane`] (see the module docs).
#[inline(always)]
fn contact<L: Lane>(o: [L; 6], c: [L; 5]) -> Best<L> {
    let [_, _, hw, hh, cos, sin] = o;
    box_contact(&local(o, c), c[4], centred(hw, hh)).to_world(cos, sin)
}

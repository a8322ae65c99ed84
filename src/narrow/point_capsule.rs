//! Point–capsule: the point lies in the capsule when it is within the radius of the segment
//! (see [`segment`](super::segment) for the division-free distance test). Written once over
//! [`Lane`]: the reference and the kernels are the same operations.
//!
//! Validity: the capsule's endpoints finite and its radius `>= 0`. A NaN point makes every
//! comparison fail.
//!
//! **Contact**: the capsule leaves the point along the offset from the point to the segment's
//! nearest point, depth `radius - distance`; from a point on the segment, sideways along the
//! segment's left normal `(-dy, dx) / |d|`, depth `radius` (`(1, 0)` for a segment of zero
//! length).

use super::contact::{Best, pair_kernels};
use super::segment::{Segment, disc_contact, valid};
use crate::lanes::{Lane, Simd};
use crate::shape::{Capsule, Point};

/// The overlap test on any [`Lane`].
#[inline(always)]
fn test<L: Lane>([px, py]: [L; 2], c: [L; 5]) -> L::Mask {
    Segment::of(c).near(px, py, c[4] * c[4]) & valid(c)
}

/// Whether `p` lies in `c`, boundary included.
#[inline]
#[must_use]
pub fn reference(p: &Point, c: &Capsule) -> bool {
    test::<f32>(bytemuck::cast(*p), bytemuck::cast(*c))
}

/// [`reference`](fn@reference) on every lane of `V`: all ones where a lane overlaps.
#[inline(always)]
pub(crate) fn hits<V: Simd>(p: [V; 2], c: [V; 5]) -> V {
    test(p, c)
}

pair_kernels!(p: Point, PointX8, PointX16; c: Capsule, CapsuleX8, CapsuleX16);

/// The candidates of this pair, generic over [`Lane`] (see the module docs).
#[inline(always)]
fn contact<L: Lane>([px, py]: [L; 2], c: [L; 5]) -> Best<L> {
    disc_contact(&Segment::of(c), px, py, c[4])
}

//! Ray–AABB: the slab test. On each axis the ray is between the box's bounds for parameters
//! `[near, far]` (see `slab` in [`narrow`](super)); it is in the box where both intervals meet,
//! from the later entry to the earlier exit. The answer is that entry, or 0 when it is before
//! the origin (the origin is inside), if it comes no later than the exit and `max_t`.
//!
//! The direction is first scaled by a power of two (see `dir_scale` in [`narrow`](super)), so
//! that a huge or tiny direction neither overflows nor rounds distinct parameters to zero.
//!
//! An axis-parallel ray (`dir_x == 0` or `dir_y == 0`) is inside a slab for every `t` when its
//! origin is between the bounds, boundary included, and never otherwise; so a ray along a box's
//! edge, or through its corner, hits it. A zero direction hits at 0 when the origin is inside.
//!
//! Validity: a finite origin and direction, `max_t >= 0`, and `min <= max` on both box axes.
//! Infinite box bounds follow IEEE.

use super::{enter, enter_lanes, scaled_dir, scaled_dir_lanes, slab, slab_lanes, valid_ray, finite_and_sized};
use super::contact::cast_kernels;
use crate::lanes::Simd;
use crate::shape::{Aabb, Ray};

/// The entry parameter of `r` into `b`, or `f32::INFINITY` for a miss.
#[inline]
#[must_use]
pub fn reference(r: &Ray, b: &Aabb) -> f32 {
    let (s, dx, dy) = scaled_dir(r);
    let (nx, fx) = slab(r.origin_x, dx, b.min_x, b.max_x);
    let (ny, fy) = slab(r.origin_y, dy, b.min_y, b.max_y);
    let valid = valid_ray(r) & (b.min_x <= b.max_x) & (b.min_y <= b.max_y);
    enter([nx, ny], [fx, fy], s, r.max_t, valid)
}

/// [`reference`](fn@reference) on every lane of `V`.
#[inline(always)]
pub(crate) fn entry<V: Simd>(r: [V; 5], [min_x, min_y, max_x, max_y]: [V; 4]) -> V {
    let [origin_x, origin_y, dir_x, dir_y, max_t] = r;
    let (s, dx, dy) = scaled_dir_lanes(dir_x, dir_y);
    let (nx, fx) = slab_lanes(origin_x, dx, min_x, max_x);
    let (ny, fy) = slab_lanes(origin_y, dy, min_y, max_y);
    let valid = finite_and_sized(r) & min_x.simd_le(max_x) & min_y.simd_le(max_y);
    enter_lanes([nx, ny], [fx, fy], s, max_t, valid)
}

cast_kernels!(b: Aabb, AabbX8, AabbX16);

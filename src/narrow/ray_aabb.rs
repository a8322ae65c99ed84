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

use super::{enter, enter8, scaled_dir, scaled_dir8, slab, slab8, valid_ray, valid_ray8};
use crate::lanes::{AabbX8, RayX8};
use crate::shape::{Aabb, Ray};
use wide::f32x8;

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

/// Eight lanes of [`reference`](fn@reference).
#[inline]
#[must_use]
pub fn x8(r: &RayX8, b: &AabbX8) -> f32x8 {
    let (s, dx, dy) = scaled_dir8(r);
    let (nx, fx) = slab8(r.origin_x, dx, b.min_x, b.max_x);
    let (ny, fy) = slab8(r.origin_y, dy, b.min_y, b.max_y);
    let valid = valid_ray8(r) & b.min_x.simd_le(b.max_x) & b.min_y.simd_le(b.max_y);
    enter8([nx, ny], [fx, fy], s, r.max_t, valid)
}

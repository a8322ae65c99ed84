//! Ray–OBB: the ray's origin (offset from the centre) and direction expressed in the box's
//! frame (dot products with `(cos, sin)` and `(-sin, cos)`), where the box is the AABB
//! `[-hw, hw] × [-hh, hh]`; then the slab test of [`ray_aabb`](super::ray_aabb). The parameter
//! `t` is the same in both frames, since the rotation keeps lengths. The direction is scaled by
//! a power of two first, as in [`ray_aabb`](super::ray_aabb).
//!
//! Validity: a finite origin and direction, `max_t >= 0`, both half extents `>= 0`, a finite
//! rotation.

use super::{
    enter, enter8, finite_rotation, finite_rotation8, scaled_dir, scaled_dir8, slab, slab8, to_local,
    to_local8, valid_ray, valid_ray8,
};
use crate::lanes::{ObbX8, RayX8};
use crate::shape::{Obb, Ray};
use wide::f32x8;

/// The entry parameter of `r` into `o`, or `f32::INFINITY` for a miss.
#[inline]
#[must_use]
pub fn reference(r: &Ray, o: &Obb) -> f32 {
    let (ox, oy) = to_local(
        r.origin_x - o.center_x,
        r.origin_y - o.center_y,
        o.cos,
        o.sin,
    );
    let (s, dx, dy) = scaled_dir(r);
    let (dx, dy) = to_local(dx, dy, o.cos, o.sin);
    let (nx, fx) = slab(ox, dx, -o.half_width, o.half_width);
    let (ny, fy) = slab(oy, dy, -o.half_height, o.half_height);
    let valid = valid_ray(r)
        & (o.half_width >= 0.0)
        & (o.half_height >= 0.0)
        & finite_rotation(o.cos, o.sin);
    enter([nx, ny], [fx, fy], s, r.max_t, valid)
}

/// Eight lanes of [`reference`](fn@reference).
#[inline]
#[must_use]
pub fn x8(r: &RayX8, o: &ObbX8) -> f32x8 {
    let (ox, oy) = to_local8(
        r.origin_x - o.center_x,
        r.origin_y - o.center_y,
        o.cos,
        o.sin,
    );
    let (s, dx, dy) = scaled_dir8(r);
    let (dx, dy) = to_local8(dx, dy, o.cos, o.sin);
    let (nx, fx) = slab8(ox, dx, -o.half_width, o.half_width);
    let (ny, fy) = slab8(oy, dy, -o.half_height, o.half_height);
    let valid = valid_ray8(r)
        & o.half_width.simd_ge(f32x8::ZERO)
        & o.half_height.simd_ge(f32x8::ZERO)
        & finite_rotation8(o.cos, o.sin);
    enter8([nx, ny], [fx, fy], s, r.max_t, valid)
}

//! Ray–OBB: the ray's origin (offset from the centre) and direction expressed in the box's
//! frame (dot products with `(cos, sin)` and `(-sin, cos)`), where the box is the AABB
//! `[-hw, hw] × [-hh, hh]`; then the slab test of [`ray_aabb`](super::ray_aabb). The parameter
//! `t` is the same in both frames, since the rotation keeps lengths. The direction is scaled by
//! a power of two first, as in [`ray_aabb`](super::ray_aabb).
//!
//! Validity: a finite origin and direction, `max_t >= 0`, both half extents `>= 0`, a finite
//! rotation.

use super::contact::cast_kernels;
use super::{
    enter, enter_lanes, finite_rotation, finite_rotation_lanes, scaled_dir, scaled_dir_lanes, slab,
    slab_lanes, to_local, valid_ray, finite_and_sized,
};
use crate::lanes::Simd;
use crate::shape::{Obb, Ray};

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

/// [`reference`](fn@reference) on every lane of `V`.
#[inline(always)]
pub(crate) fn entry<V: Simd>(r: [V; 5], [cx, cy, hw, hh, cos, sin]: [V; 6]) -> V {
    let [origin_x, origin_y, dir_x, dir_y, max_t] = r;
    let (ox, oy) = to_local(origin_x - cx, origin_y - cy, cos, sin);
    let (s, dx, dy) = scaled_dir_lanes(dir_x, dir_y);
    let (dx, dy) = to_local(dx, dy, cos, sin);
    let (nx, fx) = slab_lanes(ox, dx, -hw, hw);
    let (ny, fy) = slab_lanes(oy, dy, -hh, hh);
    let valid =
        finite_and_sized(r) & hw.ge(V::ZERO) & hh.ge(V::ZERO) & finite_rotation_lanes(cos, sin);
    enter_lanes([nx, ny], [fx, fy], s, max_t, valid)
}

cast_kernels!(o: Obb, ObbX8, ObbX16);

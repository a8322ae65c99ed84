//! Ray–polygon: clipping the ray against each edge's half-plane (Cyrus–Beck). With the edge's
//! outward normal `n` and vertex `v`, the point `o + t·d` is on the inner side when
//! `t·(n·d) <= n·(v - o)`. So an edge with `n·d < 0` (the ray comes in through it) bounds the
//! entry from below by `n·(v - o) / n·d`, and one with `n·d > 0` bounds the exit from above.
//! An origin on an edge's outer side (`n·(v - o) < 0`) that does not move toward it
//! (`n·d >= 0`) never gets in; that is decided from the signs, because `n·(v - o) / n·d` can
//! underflow (a tiny numerator against a scaled direction) and an exit just behind the origin
//! would round to `-0`, which compares equal to 0. The answer is the
//! latest entry, or 0 from inside, if it comes no later than the earliest exit and `max_t`. A
//! padding edge has `n = 0`, with the origin on its inner side, so it constrains nothing.
//!
//! The direction is scaled by a power of two first, as in [`ray_aabb`](super::ray_aabb).
//!
//! Validity: a finite origin and direction, `max_t >= 0`, every polygon coordinate finite.

use super::contact::cast_kernels;
use super::{
    finite_polygon, finite_polygon_lanes, max, min, next, scaled_dir, scaled_dir_lanes, valid_ray,
    finite_and_sized,
};
use crate::lanes::Simd;
use crate::shape::{MAX_VERTICES, Polygon, Ray};

/// The entry parameter of `r` into `q`, or `f32::INFINITY` for a miss.
#[inline]
#[must_use]
pub fn reference(r: &Ray, q: &Polygon) -> f32 {
    let (s, dx, dy) = scaled_dir(r);
    let (mut near, mut far, mut out) = (f32::NEG_INFINITY, f32::INFINITY, false);
    for k in 0..MAX_VERTICES {
        let (nx, ny) = (q.ys[next(k)] - q.ys[k], q.xs[k] - q.xs[next(k)]);
        let num = nx * (q.xs[k] - r.origin_x) + ny * (q.ys[k] - r.origin_y);
        let den = nx * dx + ny * dy;
        let t = num / den;
        if den < 0.0 {
            near = max(near, t);
        }
        if den > 0.0 {
            far = min(far, t);
        }
        out |= (den >= 0.0) & (num < 0.0);
    }
    let t = max(near, 0.0);
    let t_scaled = t * s;
    let hit = (t <= far) & !out & (t_scaled <= r.max_t) & valid_ray(r) & finite_polygon(q);
    if hit { t_scaled } else { f32::INFINITY }
}

/// [`reference`](fn@reference) on every lane of `V`.
#[inline(always)]
pub(crate) fn entry<V: Simd>(r: [V; 5], [xs, ys]: [[V; MAX_VERTICES]; 2]) -> V {
    let [origin_x, origin_y, dir_x, dir_y, max_t] = r;
    let (s, dx, dy) = scaled_dir_lanes(dir_x, dir_y);
    let zero = V::ZERO;
    let mut near = V::splat(f32::NEG_INFINITY);
    let mut far = V::splat(f32::INFINITY);
    let mut out = zero.simd_ne(zero);
    for k in 0..MAX_VERTICES {
        let (nx, ny) = (ys[next(k)] - ys[k], xs[k] - xs[next(k)]);
        let num = nx * (xs[k] - origin_x) + ny * (ys[k] - origin_y);
        let den = nx * dx + ny * dy;
        let t = num / den;
        near = den.lt(zero).select(near.pmax(t), near);
        far = den.gt(zero).select(far.pmin(t), far);
        out = out | (den.ge(zero) & num.lt(zero));
    }
    let t = near.pmax(zero);
    let t_scaled = t * s;
    let valid = finite_and_sized(r) & finite_polygon_lanes(&xs, &ys);
    let hit = t.simd_le(far) & !out & t_scaled.simd_le(max_t) & valid;
    hit.select(t_scaled, V::splat(f32::INFINITY))
}

cast_kernels!(q: Polygon, PolygonX8, PolygonX16);

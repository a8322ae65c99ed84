//! Ray–circle by the point of closest approach. With the origin offset `o` from the centre and
//! direction `d`, the ray comes closest to the centre at `m = -(o·d) / (d·d)`, where its offset
//! is the vector `q = o + m·d` and the squared distance `q·q`. It meets the circle when
//! `q·q <= r²` (equal: it grazes it, which counts) and enters at `m - √((r² - q·q) / (d·d))`;
//! it is entered ahead of the origin when `m > 0`. The origin is inside when `o·o <= r²`
//! (answer 0).
//!
//! Why not the textbook discriminant `(o·d)² - (d·d)(o·o - r²)`: from an origin far from the
//! circle both products are huge and nearly equal, and `f32` rounding of them swamps their
//! difference (from 10⁵ away, errors of about 10¹³ against a true value near 1), reporting hits
//! tens of units away. The vector `q` is a difference of coordinates, so its error is a few
//! ULPs of them.
//!
//! The direction is scaled by a power of two first, as in [`ray_aabb`](super::ray_aabb), so
//! `d·d` neither overflows nor underflows.
//!
//! A zero direction makes `m` NaN (`0 / 0`), which fails every comparison: only a ray from
//! inside hits. Where squares overflow (coordinates beyond about 1e19) the entry can come out
//! negative or NaN; only an entry in `[0, max_t]` is a hit.
//!
//! Validity: a finite origin and direction, `max_t >= 0`, `radius >= 0`. A NaN centre makes `o`
//! NaN, which fails every test.

use super::contact::cast_kernels;
use super::{scaled_dir, scaled_dir_lanes, valid_ray, finite_and_sized};
use crate::lanes::Simd;
use crate::shape::{Circle, Ray};

/// The entry parameter of `r` into `c`, or `f32::INFINITY` for a miss.
#[inline]
#[must_use]
pub fn reference(r: &Ray, c: &Circle) -> f32 {
    let (s, dx, dy) = scaled_dir(r);
    let (ox, oy) = (r.origin_x - c.x, r.origin_y - c.y);
    let a = dx * dx + dy * dy;
    let m = -(ox * dx + oy * dy) / a;
    let (qx, qy) = (ox + m * dx, oy + m * dy);
    let (q2, r2) = (qx * qx + qy * qy, c.radius * c.radius);
    let inside = ox * ox + oy * oy <= r2;
    let enters = (m > 0.0) & (q2 <= r2);
    let t = if inside {
        0.0
    } else {
        m - ((r2 - q2) / a).sqrt()
    };
    let t_scaled = t * s;
    let valid = (c.radius >= 0.0) & valid_ray(r);
    let hit = (inside | enters) & (t >= 0.0) & (t_scaled <= r.max_t) & valid;
    if hit { t_scaled } else { f32::INFINITY }
}

/// [`reference`](fn@reference) on every lane of `V`.
#[inline(always)]
pub(crate) fn entry<V: Simd>(r: [V; 5], [cx, cy, radius]: [V; 3]) -> V {
    let [origin_x, origin_y, dir_x, dir_y, max_t] = r;
    let (s, dx, dy) = scaled_dir_lanes(dir_x, dir_y);
    let (ox, oy) = (origin_x - cx, origin_y - cy);
    let a = dx * dx + dy * dy;
    let m = -(ox * dx + oy * dy) / a;
    let (qx, qy) = (ox + m * dx, oy + m * dy);
    let (q2, r2) = (qx * qx + qy * qy, radius * radius);
    let zero = V::ZERO;
    let inside = (ox * ox + oy * oy).simd_le(r2);
    let enters = m.gt(zero) & q2.simd_le(r2);
    let t = inside.select(zero, m - ((r2 - q2) / a).sqrt());
    let t_scaled = t * s;
    let valid = radius.ge(zero) & finite_and_sized(r);
    let hit = (inside | enters) & t.ge(zero) & t_scaled.simd_le(max_t) & valid;
    hit.select(t_scaled, V::splat(f32::INFINITY))
}

cast_kernels!(c: Circle, CircleX8, CircleX16);

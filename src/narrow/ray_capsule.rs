//! Ray–capsule: the capsule is the union of two discs (around its endpoints) and the rectangle
//! the segment sweeps sideways by the radius, and the first point of a ray in a union is the
//! earliest of its entries into the parts. The disc entries are found as in
//! [`ray_circle`](super::ray_circle), by the point of closest approach, with one reciprocal of
//! `d·d` for both. Of the rectangle only its two long sides need an entry: where a ray enters
//! it through a short side, that side is a diameter of a cap disc, which the ray has entered no
//! later. So the rectangle's candidate is where the ray reaches the line `r·|e|` away from the
//! segment's line on the origin's side (`e × (p - a) = ±r·|e|`, one division), taken when that
//! point lies along the segment (`0 <= e·(p - a) <= e·e`) and not behind the origin. From inside
//! the slab that point is an exit, but then the ray came in through a cap first (its origin is
//! outside the capsule, so beyond an end), whose entry is earlier. An origin within the radius
//! of the segment (the test of [`point_capsule`](super::point_capsule)) answers 0. A segment of
//! zero length has no rectangle. Written once over [`Lane`]: the reference and the kernels are
//! the same operations; the direction is scaled by a power of two first, as in
//! [`ray_aabb`](super::ray_aabb), so `d·d` lies in `[0.25, 2)`.
//!
//! A radius-0 capsule (a segment) is hit where the ray crosses it, or, running along it, at the
//! end it reaches first (a cap disc of radius 0).
//!
//! Validity: a finite origin and direction, `max_t >= 0`, the capsule's endpoints finite and
//! its radius `>= 0`.

use super::contact::cast_kernels;
use super::segment::{Segment, valid};
use super::{scaled_dir, scaled_dir_lanes, finite_and_sized};
use crate::lanes::{Lane, Simd};
use crate::shape::{Capsule, Ray};

/// The parameter at which the ray `o + t·d` (`inv = 1 / (d·d)`) enters the disc of squared
/// radius `r2` around `(cx, cy)` from outside, ahead of the origin: infinite when it does not.
#[inline(always)]
fn disc_entry<L: Lane>([ox, oy, dx, dy, inv]: [L; 5], cx: L, cy: L, r2: L) -> L {
    let zero = L::splat(0.0);
    let (px, py) = (ox - cx, oy - cy);
    let m = (zero - (px * dx + py * dy)) * inv;
    let (qx, qy) = (px + m * dx, py + m * dy);
    let q2 = qx * qx + qy * qy;
    let enters = m.gt(zero) & q2.le(r2);
    L::select(enters, m - ((r2 - q2) * inv).sqrt(), L::splat(f32::INFINITY))
}

/// The cast on any [`Lane`]: the ray's fields `r`, its direction scaled (`s`, the scale, and
/// the scaled components) and the capsule's fields.
#[inline(always)]
fn cast<L: Lane>(r: [L; 5], [s, dx, dy]: [L; 3], c: [L; 5]) -> L {
    let [ox, oy, _, _, max_t] = r;
    let (zero, inf) = (L::splat(0.0), L::splat(f32::INFINITY));
    let seg = Segment::of(c);
    let r2 = c[4] * c[4];
    let inside = seg.near(ox, oy, c[4]);
    let ray = [ox, oy, dx, dy, L::splat(1.0) / (dx * dx + dy * dy)];
    let discs = disc_entry(ray, seg.ax, seg.ay, r2).pmin(disc_entry(ray, seg.bx, seg.by, r2));
    // The long side on the origin's side: `e × (p - a)` goes from `across` to `±reach`.
    let across = seg.side(ox, oy);
    let reach = c[4] * seg.len;
    let bound = L::select(across.gt(zero), reach, zero - reach);
    let t = (bound - across) / (seg.dx * dy - seg.dy * dx);
    let along = (ox - seg.ax) * seg.dx + (oy - seg.ay) * seg.dy + t * (seg.dx * dx + seg.dy * dy);
    let side = t.ge(zero) & along.ge(zero) & along.le(seg.dd) & seg.dd.gt(zero);
    let t = L::select(inside, zero, discs.pmin(L::select(side, t, inf)));
    let t_scaled = t * s;
    let hit = (inside | t.lt(inf)) & t.ge(zero) & t_scaled.le(max_t) & finite_and_sized(r) & valid(c);
    L::select(hit, t_scaled, inf)
}

/// The entry parameter of `r` into `c`, or `f32::INFINITY` for a miss.
#[inline]
#[must_use]
pub fn reference(r: &Ray, c: &Capsule) -> f32 {
    let (s, dx, dy) = scaled_dir(r);
    cast::<f32>(bytemuck::cast(*r), [s, dx, dy], bytemuck::cast(*c))
}

/// [`reference`](fn@reference) on every lane of `V`.
#[inline(always)]
pub(crate) fn entry<V: Simd>(r: [V; 5], c: [V; 5]) -> V {
    let (s, dx, dy) = scaled_dir_lanes(r[2], r[3]);
    cast(r, [s, dx, dy], c)
}

cast_kernels!(c: Capsule, CapsuleX8, CapsuleX16);

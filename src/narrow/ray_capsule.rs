//! Ray–capsule: the capsule is the union of two discs (around its endpoints) and the rectangle
//! the segment sweeps sideways by the radius, and the first point of a ray in a union is the
//! earliest of its entries into the parts: the disc entries as in
//! [`ray_circle`](super::ray_circle) (by the point of closest approach), and the rectangle's as
//! the later entry of two slabs, `|d × (p - a)| <= r·|d|` across the segment and
//! `0 <= d·(p - a) <= d·d` along it (the slab test of [`ray_aabb`](super::ray_aabb), in the
//! unnormalised measures `d ×` and `d·`, so only `|d|` needs a square root). An origin within the
//! radius of the segment (the test of [`point_capsule`](super::point_capsule)) answers 0. A
//! segment of zero length has no rectangle (its two discs coincide). Written once over
//! [`Lane`]: the reference and the kernels are the same operations; the direction is scaled by a
//! power of two first, as in [`ray_aabb`](super::ray_aabb).
//!
//! A radius-0 capsule (a segment) is hit where the ray crosses it, or runs along it from one
//! end (the rectangle's across-slab is then the single value `d × (p - a) = 0`).
//!
//! Validity: a finite origin and direction, `max_t >= 0`, the capsule's endpoints finite and
//! its radius `>= 0`.

use super::contact::cast_kernels;
use super::segment::{Segment, valid};
use super::{scaled_dir, scaled_dir_lanes, slab_lanes, valid_ray_lanes};
use crate::lanes::{Lane, Simd};
use crate::shape::{Capsule, Ray};

/// The parameter at which the ray `o + t·d` (`a = d·d`) enters the disc of squared radius `r2`
/// around `(cx, cy)` from outside, ahead of the origin: infinite when it does not.
#[inline(always)]
fn disc_entry<L: Lane>([ox, oy, dx, dy, a]: [L; 5], cx: L, cy: L, r2: L) -> L {
    let zero = L::splat(0.0);
    let (px, py) = (ox - cx, oy - cy);
    let m = (zero - (px * dx + py * dy)) / a;
    let (qx, qy) = (px + m * dx, py + m * dy);
    let q2 = qx * qx + qy * qy;
    let enters = m.gt(zero) & q2.le(r2);
    L::select(enters, m - ((r2 - q2) / a).sqrt(), L::splat(f32::INFINITY))
}

/// The cast on any [`Lane`]: the ray's fields `r`, its direction scaled (`s`, the scale, and
/// the scaled components) and the capsule's fields.
#[inline(always)]
fn cast<L: Lane>(r: [L; 5], [s, dx, dy]: [L; 3], c: [L; 5]) -> L {
    let [ox, oy, _, _, max_t] = r;
    let (zero, inf) = (L::splat(0.0), L::splat(f32::INFINITY));
    let seg = Segment::of(c);
    let r2 = c[4] * c[4];
    let inside = seg.near(ox, oy, r2);
    let ray = [ox, oy, dx, dy, dx * dx + dy * dy];
    let discs = disc_entry(ray, seg.ax, seg.ay, r2).pmin(disc_entry(ray, seg.bx, seg.by, r2));
    let reach = c[4] * seg.dd.sqrt();
    let (n1, f1) = slab_lanes(
        seg.side(ox, oy),
        seg.dx * dy - seg.dy * dx,
        zero - reach,
        reach,
    );
    let (n2, f2) = slab_lanes(
        (ox - seg.ax) * seg.dx + (oy - seg.ay) * seg.dy,
        seg.dx * dx + seg.dy * dy,
        zero,
        seg.dd,
    );
    let near = n1.pmax(n2);
    let side = near.ge(zero) & near.le(f1.pmin(f2)) & seg.dd.gt(zero);
    let t = L::select(inside, zero, discs.pmin(L::select(side, near, inf)));
    let t_scaled = t * s;
    let hit = (inside | t.lt(inf)) & t.ge(zero) & t_scaled.le(max_t) & valid_ray_lanes(r) & valid(c);
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

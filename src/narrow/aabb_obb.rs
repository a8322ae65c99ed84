//! AABB–OBB: separating-axis test on the four candidate axes, the AABB's x and y and the OBB's
//! `u = (cos, sin)` and `v = (-sin, cos)`.
//!
//! With the AABB as centre `a` and half extents `(ax, ay)`, the offset `d` from `a` to the OBB's
//! centre, and the OBB's half extents `(hw, hh)`: on a unit axis `n` a box with axes `e1, e2` and
//! half extents `h1, h2` projects to a radius `h1·|e1·n| + h2·|e2·n|`, and the boxes are separated
//! on `n` when `|d·n|` exceeds the sum of the two radii. Here every `|e·n|` is `|cos|` or `|sin|`:
//!
//! - on x: `|dx| <= ax + (hw·|cos| + hh·|sin|)`
//! - on y: `|dy| <= ay + (hw·|sin| + hh·|cos|)`
//! - on u: `|d·u| <= hw + (ax·|cos| + ay·|sin|)`
//! - on v: `|d·v| <= hh + (ax·|sin| + ay·|cos|)`
//!
//! The boxes overlap (touching included) when no axis separates them.
//!
//! Validity: `min <= max` on both AABB axes, OBB half extents `>= 0`, a finite rotation. The AABB
//! is converted to centre and half extents, so an AABB with an infinite bound has a NaN centre
//! and never hits an OBB; keep AABBs tested against OBBs finite.
//!
//! **Contact**: on each of the four axes above (x, y, u, v, in that order) the overlap is the
//! right side minus the left, and `b` moves the way its centre already lies from `a`'s
//! (`+n` when `d·n >= 0`); the smallest overlap wins.
//!
//! **Sweep** (one shape moving, [`SweepPair`](crate::SweepPair)): swept separating axes over
//! both outlines' edge normals, written once for every flat pair in `narrow/sweep/sat.rs`: the
//! latest entry before the earliest exit, the entry axis's normal.

use super::contact::{Best, pair_kernels};
use super::{finite_rotation, finite_rotation_lanes, to_local};
use crate::lanes::{Lane, Simd};
use crate::shape::{Aabb, Obb};

/// Whether `a` and `o` overlap, touching included.
#[inline]
#[must_use]
pub fn reference(a: &Aabb, o: &Obb) -> bool {
    let ax = (a.max_x - a.min_x) * 0.5;
    let ay = (a.max_y - a.min_y) * 0.5;
    let dx = o.center_x - (a.min_x + a.max_x) * 0.5;
    let dy = o.center_y - (a.min_y + a.max_y) * 0.5;
    let (c, s) = (o.cos.abs(), o.sin.abs());
    let (du, dv) = to_local(dx, dy, o.cos, o.sin);
    let on_x = dx.abs() <= ax + (o.half_width * c + o.half_height * s);
    let on_y = dy.abs() <= ay + (o.half_width * s + o.half_height * c);
    let on_u = du.abs() <= o.half_width + (ax * c + ay * s);
    let on_v = dv.abs() <= o.half_height + (ax * s + ay * c);
    let valid = (a.min_x <= a.max_x)
        & (a.min_y <= a.max_y)
        & (o.half_width >= 0.0)
        & (o.half_height >= 0.0)
        & finite_rotation(o.cos, o.sin);
    on_x & on_y & on_u & on_v & valid
}

/// [`reference`](fn@reference) on every lane of `V`: all ones where a lane overlaps.
#[inline(always)]
pub(crate) fn hits<V: Simd>(
    [min_x, min_y, max_x, max_y]: [V; 4],
    [ox, oy, hw, hh, cos, sin]: [V; 6],
) -> V {
    let half = V::splat(0.5);
    let ax = (max_x - min_x) * half;
    let ay = (max_y - min_y) * half;
    let dx = ox - (min_x + max_x) * half;
    let dy = oy - (min_y + max_y) * half;
    let (c, s) = (cos.abs(), sin.abs());
    let (du, dv) = to_local(dx, dy, cos, sin);
    let on_x = dx.abs().simd_le(ax + (hw * c + hh * s));
    let on_y = dy.abs().simd_le(ay + (hw * s + hh * c));
    let on_u = du.abs().simd_le(hw + (ax * c + ay * s));
    let on_v = dv.abs().simd_le(hh + (ax * s + ay * c));
    let valid = min_x.simd_le(max_x)
        & min_y.simd_le(max_y)
        & hw.ge(V::ZERO)
        & hh.ge(V::ZERO)
        & finite_rotation_lanes(cos, sin);
    on_x & on_y & on_u & on_v & valid
}

pair_kernels!(a: Aabb, AabbX8, AabbX16; o: Obb, ObbX8, ObbX16);

/// The candidates of this pair, generic over [`Lane`] (see the module docs).
#[inline(always)]
fn contact<L: Lane>([x0, y0, x1, y1]: [L; 4], [cx, cy, hw, hh, cos, sin]: [L; 6]) -> Best<L> {
    let (zero, one, half) = (L::splat(0.0), L::splat(1.0), L::splat(0.5));
    let (ax, ay) = ((x1 - x0) * half, (y1 - y0) * half);
    let (dx, dy) = (cx - (x0 + x1) * half, cy - (y0 + y1) * half);
    let (c, s) = (cos.abs(), sin.abs());
    let (du, dv) = to_local(dx, dy, cos, sin);
    let mut best = Best::new();
    best.offer_axis(ax + (hw * c + hh * s), dx, one, zero);
    best.offer_axis(ay + (hw * s + hh * c), dy, zero, one);
    best.offer_axis(hw + (ax * c + ay * s), du, cos, sin);
    best.offer_axis(hh + (ax * s + ay * c), dv, zero - sin, cos);
    best
}

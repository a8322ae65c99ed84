//! Circle–OBB: rotate the circle's centre into the box's frame, where the box is the AABB
//! `[-hw, hw] × [-hh, hh]`; by symmetry the distance from local `(lx, ly)` to that box is
//! `(max(0, |lx| - hw), max(0, |ly| - hh))`, compared squared with the squared radius.
//!
//! `max(0, v)` takes its NaN-prone argument second, so a NaN `v` comes through (on NaN the
//! second operand wins, see [`super`]) and the final comparison fails. Validity: `radius >= 0`, both half extents
//! `>= 0` (a negative one would enlarge the gap but not forbid a hit) and a finite rotation.
//!
//! **Contact**: in the box's frame, from the same `(gx, gy)` as the test. With the centre
//! outside, along the offset to the box's nearest point, `(-sign(lx)·gx, -sign(ly)·gy)`, depth
//! `radius - |g|`; inside or on the boundary, through the nearest face: `hw - |lx| + radius`
//! towards the centre's side on x, or `hh - |ly| + radius` on y where that is strictly smaller,
//! the sides chosen as [`circle_aabb`](super::circle_aabb) chooses them (`+x` before `-x`: a
//! centre at `lx = 0` is left by the box moving right). The normal is turned back to the
//! world.
//!
//! **Sweep** (one shape moving, [`SweepPair`](crate::SweepPair)): the motion against the
//! pair's rounded Minkowski difference (a ray against the other shape grown by the radii),
//! covered by edge bands and vertex discs, found in the box's frame for every box against a
//! circle or a capsule in `narrow/sweep/boxed.rs`.

use super::contact::{Best, pair_kernels, disc_squared};
use super::{finite_rotation, finite_rotation_lanes, max, to_local};
use crate::lanes::{Lane, Simd};
use crate::shape::{Circle, Obb};

/// Whether `c` and `o` overlap, touching included.
#[inline]
#[must_use]
pub fn reference(c: &Circle, o: &Obb) -> bool {
    let (lx, ly) = to_local(c.x - o.center_x, c.y - o.center_y, o.cos, o.sin);
    let gx = max(0.0, lx.abs() - o.half_width);
    let gy = max(0.0, ly.abs() - o.half_height);
    let valid = (c.radius >= 0.0)
        & (o.half_width >= 0.0)
        & (o.half_height >= 0.0)
        & finite_rotation(o.cos, o.sin);
    (gx * gx + gy * gy <= c.radius * c.radius) & valid
}

/// [`reference`](fn@reference) on every lane of `V`: all ones where a lane overlaps.
#[inline(always)]
pub(crate) fn hits<V: Simd>([cx, cy, r]: [V; 3], [ox, oy, hw, hh, cos, sin]: [V; 6]) -> V {
    let (lx, ly) = to_local(cx - ox, cy - oy, cos, sin);
    let gx = V::ZERO.pmax(lx.abs() - hw);
    let gy = V::ZERO.pmax(ly.abs() - hh);
    let valid = r.ge(V::ZERO) & hw.ge(V::ZERO) & hh.ge(V::ZERO) & finite_rotation_lanes(cos, sin);
    (gx * gx + gy * gy).simd_le(r * r) & valid
}

pair_kernels!(c: Circle, CircleX8, CircleX16; o: Obb, ObbX8, ObbX16);

/// The candidates of this pair, generic over [`Lane`] (see the module docs).
#[inline(always)]
fn contact<L: Lane>([x, y, r]: [L; 3], [cx, cy, hw, hh, cos, sin]: [L; 6]) -> Best<L> {
    let (zero, one, minus) = (L::splat(0.0), L::splat(1.0), L::splat(-1.0));
    let (lx, ly) = to_local(x - cx, y - cy, cos, sin);
    // The overlap test's own expressions, shared with it.
    let (ax, ay) = (lx.abs() - hw, ly.abs() - hh);
    let (gx, gy) = (zero.pmax(ax), zero.pmax(ay));
    // The box lies towards -sign(l) from the centre: the side a face move goes.
    let (sx, sy) = (
        L::select(lx.gt(zero), minus, one),
        L::select(ly.gt(zero), minus, one),
    );
    let (outside, apart) = disc_squared(sx * gx, sy * gy, gx * gx + gy * gy, 1.0, r);
    let (fx, fy) = (zero - ax, zero - ay);
    let vertical = fy.lt(fx);
    let inside = Best::new_with(
        fy.pmin(fx) + r,
        L::select(vertical, zero, sx),
        L::select(vertical, sy, zero),
    );
    Best::pick(apart, outside, inside).to_world(cos, sin)
}

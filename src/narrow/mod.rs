//! Pair tests, one file per pair of shape kinds.
//!
//! A file is named after its pair, first kind first (`circle_aabb.rs` tests a circle against an
//! AABB); the swapped order (`aabb_circle`) is never written again, [`crate::batch`] delegates it
//! to the one implementation. Each file holds its functions side by side:
//!
//! - `reference(&A, &B) -> bool`, the plain scalar ground truth, re-exported as
//!   [`crate::reference`](mod@crate::reference)`::a_b`;
//! - `hits<V: Simd>(a, b) -> V`, the same operations in the same order on every lane of a lane
//!   vector ([`f32x8`](wide::f32x8) or [`f32x16`](wide::f32x16)), each shape given as its lane
//!   columns; all ones in a lane that overlaps. Written once, it becomes (by `pair_kernels!`,
//!   in `contact.rs`) `x8(&AX8, &BX8) -> u8` and `x16(&AX16, &BX16) -> u16`, re-exported as
//!   [`crate::kernel`](mod@crate::kernel)`::a_b` and
//!   [`crate::kernel16`](mod@crate::kernel16)`::a_b` (bit `i` is lane `i`'s answer), and the
//!   lane-column entry point the batch functions and the scene call at the build's width;
//! - `contact<L: Lane>`, the pair's contact (normal and penetration depth, see
//!   [`crate::Contact`]), written once over `f32`, `f32x8` and `f32x16`, so reference and
//!   kernels agree by construction: `contact_reference(&A, &B) -> Option<Contact>`,
//!   `contact_x8` and `contact_x16`, re-exported under
//!   [`crate::contact_reference`](mod@crate::contact_reference),
//!   [`crate::contact_kernel`](mod@crate::contact_kernel) and
//!   [`crate::contact_kernel16`](mod@crate::contact_kernel16); the hit is decided by
//!   `reference` / `hits` themselves. The module docs of each pair list its contact's
//!   candidate axes in the order that decides ties.
//!
//! The two must agree bit for bit on every input, so both are built from the few operations of
//! [`Lane`] and [`Simd`], whose scalar and lane forms are the same
//! IEEE operation: `+ - *`, comparisons, `abs`, and `min(a, b) = if a < b { a } else { b }` and
//! `max(a, b) = if a > b { a } else { b }`, whose NaN and ±0 behaviour (the second operand wins)
//! is that of the x86 `minps`/`maxps` instructions the kernels use (contacts also divide and
//! take square roots, both correctly rounded in either form). No fused multiply-add, no
//! horizontal sums.
//!
//! Ray casts (`ray_*.rs`) follow the same rules but answer a parameter instead of a bit:
//! `reference(&Ray, &S) -> f32` and `entry<V: Simd>` (as `x8(&RayX8, &SX8) -> f32x8` and
//! `x16`), the entry parameter of the first point the ray shares with the shape (0 when its
//! origin is inside, the boundary included), `f32::INFINITY` for a miss.
//!
//! Polygons have eight vertex slots; a polygon of fewer vertices repeats its last one, which
//! adds edges of zero length. Every polygon formula below is written so that such an edge
//! (normal `(0, 0)`) neither separates nor constrains anything, so the tests run all eight
//! edges. Edge `k` runs from vertex `k` to vertex `k + 1` (mod 8); for a counter-clockwise
//! polygon its outward normal is `(ey, -ex)`, unnormalised (every test compares signs or
//! ratios, so the length does not matter).
//!
//! # Capsules
//!
//! A capsule is a segment from `a` to `b = a + d` grown by a radius `r`. It overlaps a shape
//! exactly when the distance between the segment and the shape's core (a point, a circle's
//! centre, a box, a polygon, another segment) is at most the sum of the radii; for two convex
//! shapes that do not meet, that distance is reached at a vertex of one of them (an endpoint
//! or a corner). So every capsule test is "the cores meet, or some vertex of one lies within
//! reach of the other", and a point `p` is within `reach` of the segment, without a division,
//! when it is within `reach` of either endpoint, or its projection falls on the segment
//! (`0 <= (p - a)·d <= d·d`) and `|d × (p - a)| <= reach·|d|` (the distance from the
//! segment's line, `|d × (p - a)| / |d|`, multiplied out). Products of two lengths, in range
//! from about 1e-19 to 1e19; squared (`(d × (p - a))² <= reach²·(d·d)`, without the square
//! root) they were products of four, and a capsule 1e10 across was found touching what lay
//! far off. A segment of zero length is
//! left to its endpoint tests: that capsule is a circle. Each capsule pair is written once over
//! [`Lane`]: its `reference` is the `f32` instance of the same function as its kernels.
//!
//! **Contacts.** Moving `b` by `t` along a unit direction `u` separates the two exactly when `t`
//! is at least `ra + rb + max over a's core of x·u - min over b's core of y·u` (their extents
//! along `u`, the radii added): every direction offers an exact separating move, and the depth
//! is the smallest of them. That minimum lies on a facet normal of the cores' Minkowski
//! difference `D = core_b - core_a`: an edge normal of either core where the origin is inside
//! `D` (the cores cross: the separating-axis minimum) or where its nearest point of `D` lies
//! inside an edge of `D` (an endpoint or corner facing the other core's edge), and the axis
//! between a vertex of each core where that nearest point is a vertex of `D` (an end facing a
//! corner or an end). So each capsule contact takes the smallest exact move over its cores' edge
//! normals and the axis between the nearest pair of vertices, one of each core, with no branch
//! between meeting and apart.
//!
//! The offset from an endpoint to its nearest point inside the other core's edge is never a
//! direction. Its components come from a parameter rounded to the edge, `a + t·d`, so each is
//! off by about `2⁻²⁴` of the coordinates' magnitude `M`; where the cores meet within rounding
//! (a capsule lying along another, an end on the other core, a zero-length capsule centred on a
//! core), the offset is that short, and its direction is anything at all: the normal would come
//! out as an arbitrary axis and the pair stay interpenetrating after the move. Longer offsets
//! are off by `2⁻²⁴ M / length` radians, which a long edge turns into a wrong move of edge
//! length times that: no threshold between short and long is right for every size. The edge's
//! own normal needs none: it is computed from the edge's two stored ends (a rounding of `1e-7`
//! radians), it is the exact direction where the offset would be, and its move is the other
//! core's extent along it. The axis between two vertices carries no such noise either: one
//! subtraction per coordinate, exact where the two are close (Sterbenz), so however short it
//! is it points where the stored vertices lie; where they coincide it is `(1, 0)`, a true move
//! like any axis, which the edge normals beat unless both cores are points.
//!
//! Validity (the NaN / negative-size / non-finite-rotation policy) is computed inside each test as
//! one more mask ANDed into the answer. Where a test's own comparisons already fail on a bad field
//! (a NaN coordinate turns a distance into NaN, and NaN compares false), the file says so instead
//! of testing it twice.

use crate::lanes::{Lane, Simd};
use crate::shape::{MAX_VERTICES, Polygon, Ray};

mod any;
pub(crate) mod contact;
pub(crate) mod manifold;
pub(crate) mod pairs;
pub(crate) mod segment;
pub(crate) mod sweep;
use pairs::pair_modules;
crate::pair_table!(pair_modules);

pub(crate) use crate::lanes::{max, min};

/// Whether both rotation components are finite: `x - x` is `0` for finite `x` and NaN for
/// ±inf and NaN, and NaN never compares equal.
#[inline(always)]
#[allow(clippy::eq_op, reason = "x - x is the finiteness test, see above")]
pub(crate) fn finite_rotation(cos: f32, sin: f32) -> bool {
    cos - cos == sin - sin
}

/// Lane-wise [`finite_rotation`] (on any [`Lane`], `f32` included).
#[inline(always)]
#[allow(
    clippy::eq_op,
    reason = "x - x is the finiteness test, see finite_rotation"
)]
pub(crate) fn finite_rotation_lanes<L: Lane>(cos: L, sin: L) -> L::Mask {
    (cos - cos).eq(sin - sin)
}

/// The smallest projection `nx·x + ny·y` of the points `(xs[j], ys[j])`, taken in index order
/// with [`Lane::pmin`] (an order the separating-axis tests' bits rest on).
#[inline(always)]
pub(crate) fn lowest<L: Lane, const N: usize>(nx: L, ny: L, xs: &[L; N], ys: &[L; N]) -> L {
    let mut low = nx * xs[0] + ny * ys[0];
    for j in 1..N {
        low = low.pmin(nx * xs[j] + ny * ys[j]);
    }
    low
}

/// The offset `(dx, dy)` expressed in a frame whose x axis is `(cos, sin)` and whose y axis is
/// `(-sin, cos)`: the dot products with the two axes. On `f32` for the references, on lanes for
/// the kernels and contacts.
#[inline(always)]
pub(crate) fn to_local<L: Lane>(dx: L, dy: L, cos: L, sin: L) -> (L, L) {
    (dx * cos + dy * sin, dy * cos - dx * sin)
}

/// Whether `x` is finite: `x - x` is `0` for finite `x` and NaN for ±inf and NaN.
#[inline(always)]
#[allow(clippy::eq_op, reason = "x - x is the finiteness test")]
pub(crate) fn finite(x: f32) -> bool {
    x - x == 0.0
}

/// Lane-wise [`finite`].
#[inline(always)]
#[allow(clippy::eq_op, reason = "x - x is the finiteness test")]
pub(crate) fn finite_lanes<V: Simd>(x: V) -> V {
    (x - x).simd_eq(V::ZERO)
}

/// Vertex `k + 1` of an eight-slot polygon, wrapping around.
#[inline(always)]
pub(crate) const fn next(k: usize) -> usize {
    (k + 1) % MAX_VERTICES
}

/// Whether all sixteen coordinates of a polygon are finite: the sum of `x - x` over them is 0
/// for finite coordinates and NaN as soon as one is infinite or NaN.
#[inline(always)]
#[allow(clippy::eq_op, reason = "x - x is the finiteness test")]
pub(crate) fn finite_polygon(p: &Polygon) -> bool {
    let mut sum = 0.0;
    for k in 0..MAX_VERTICES {
        sum += p.xs[k] - p.xs[k];
        sum += p.ys[k] - p.ys[k];
    }
    sum == 0.0
}

/// Lane-wise [`finite_polygon`] (on any [`Lane`], `f32` included).
#[inline(always)]
#[allow(clippy::eq_op, reason = "x - x is the finiteness test")]
pub(crate) fn finite_polygon_lanes<L: Lane>(
    xs: &[L; MAX_VERTICES],
    ys: &[L; MAX_VERTICES],
) -> L::Mask {
    let mut sum = L::splat(0.0);
    for k in 0..MAX_VERTICES {
        sum = sum + (xs[k] - xs[k]);
        sum = sum + (ys[k] - ys[k]);
    }
    sum.eq(L::splat(0.0))
}

/// Whether a ray can hit anything: a finite origin and direction, and `max_t >= 0` (a NaN
/// `max_t` fails it).
#[inline(always)]
#[allow(clippy::eq_op, reason = "x - x is the finiteness test")]
pub(crate) fn valid_ray(r: &Ray) -> bool {
    let sum = (r.origin_x - r.origin_x)
        + (r.origin_y - r.origin_y)
        + (r.dir_x - r.dir_x)
        + (r.dir_y - r.dir_y);
    (sum == 0.0) & (r.max_t >= 0.0)
}

/// Whether fields `[x0, y0, x1, y1, size]` hold four finite coordinates and `size >= 0` (a
/// NaN size fails): a ray's validity (origin, direction, `max_t`; lane-wise [`valid_ray`]) and
/// a capsule's (endpoints, radius), on any [`Lane`], `f32` included.
#[inline(always)]
#[allow(clippy::eq_op, reason = "x - x is the finiteness test")]
pub(crate) fn finite_and_sized<L: Lane>([x0, y0, x1, y1, size]: [L; 5]) -> L::Mask {
    let zero = L::splat(0.0);
    let sum = (x0 - x0) + (y0 - y0) + (x1 - x1) + (y1 - y1);
    sum.eq(zero) & size.ge(zero)
}

/// The parameters `[near, far]` for which `o + t·d` lies in the closed interval `[lo, hi]` on
/// one axis: `[min(t1, t2), max(t1, t2)]` with `t = (bound - o) / d`; for `d == 0` everything
/// (`[-inf, inf]`) when `o` is inside and `[inf, inf]` otherwise. A near parameter of `inf`
/// is a miss whatever `far` is ([`enter`] answers `inf · scale = inf`), so `far` needs no
/// second select on `inside`.
///
/// `d` comes from a direction scaled by [`dir_scale`], so `|d| < 1` and a quotient of a
/// non-zero difference is never rounded to zero: an exit behind the origin stays negative
/// (`-0` would compare equal to 0 and turn that miss into a hit at 0). Divisions, not
/// multiplications by `1 / d`, so that a tiny `d` cannot turn `0 · inf` into NaN.
#[inline(always)]
pub(crate) fn slab(o: f32, d: f32, lo: f32, hi: f32) -> (f32, f32) {
    let (t1, t2) = ((lo - o) / d, (hi - o) / d);
    let inside = (lo <= o) & (o <= hi);
    if d == 0.0 {
        let near = if inside {
            f32::NEG_INFINITY
        } else {
            f32::INFINITY
        };
        (near, f32::INFINITY)
    } else {
        (min(t1, t2), max(t1, t2))
    }
}

/// Lane-wise [`slab`].
#[inline(always)]
pub(crate) fn slab_lanes<V: Simd>(o: V, d: V, lo: V, hi: V) -> (V, V) {
    let (t1, t2) = ((lo - o) / d, (hi - o) / d);
    let inside = lo.simd_le(o) & o.simd_le(hi);
    let zero = d.simd_eq(V::ZERO);
    let (all, none) = (V::splat(f32::INFINITY), V::splat(f32::NEG_INFINITY));
    (
        zero.select(inside.select(none, all), t1.pmin(t2)),
        zero.select(all, t1.pmax(t2)),
    )
}

/// A power of two `s` that brings a ray's direction to a larger component in `[0.5, 1)` (or
/// keeps a zero direction zero), read off the exponent bits of `m = max(|dx|, |dy|)` (no sign
/// bit to mask: `m` is a maximum of absolute values): the biased exponent of `s` is
/// `253 - biased(m)`, at least 1 (it is at most 253 anyway), and `s = 2⁻¹²⁸` (a
/// subnormal, given by its bits) for `m >= 2¹²⁷`. The ray kernels decide on the direction
/// `s·d`, for which no product overflows and no quotient of a non-zero difference by a
/// component rounds to zero, and answer `t = t'·s`: the same ray, measured in units of the
/// given direction. Scaling by a power of two is exact, so this changes nothing but the range.
#[inline(always)]
pub(crate) fn dir_scale(dx: f32, dy: f32) -> f32 {
    let biased = (max(dx.abs(), dy.abs()).to_bits() >> 23) as i32;
    let bits = if biased >= 254 {
        1 << 21
    } else {
        ((253 - biased).max(1) as u32) << 23
    };
    f32::from_bits(bits)
}

/// A ray's direction scaled by [`dir_scale`], and the scale: `(s, dx·s, dy·s)`.
#[inline(always)]
pub(crate) fn scaled_dir(r: &Ray) -> (f32, f32, f32) {
    let s = dir_scale(r.dir_x, r.dir_y);
    (s, r.dir_x * s, r.dir_y * s)
}

/// Lane-wise [`scaled_dir`].
#[inline(always)]
pub(crate) fn scaled_dir_lanes<V: Simd>(dx: V, dy: V) -> (V, V, V) {
    let s = V::dir_scale(dx, dy);
    (s, dx * s, dy * s)
}

/// The entry parameter of a ray whose parameter intervals on two slabs are `[near_x, far_x]`
/// and `[near_y, far_y]` for the direction scaled by `scale` (see [`dir_scale`]): the later
/// entry, not before 0, if it comes no later than the earlier exit, scaled back, if that is no
/// later than `max_t`; otherwise a miss (`f32::INFINITY`).
#[inline(always)]
pub(crate) fn enter(near: [f32; 2], far: [f32; 2], scale: f32, max_t: f32, valid: bool) -> f32 {
    let t = max(max(near[0], near[1]), 0.0);
    let t_scaled = t * scale;
    let hit = (t <= min(far[0], far[1])) & (t_scaled <= max_t) & valid;
    if hit { t_scaled } else { f32::INFINITY }
}

/// Lane-wise [`enter`].
#[inline(always)]
pub(crate) fn enter_lanes<V: Simd>(near: [V; 2], far: [V; 2], scale: V, max_t: V, valid: V) -> V {
    let t = near[0].pmax(near[1]).pmax(V::ZERO);
    let t_scaled = t * scale;
    let hit = t.simd_le(far[0].pmin(far[1])) & t_scaled.simd_le(max_t) & valid;
    hit.select(t_scaled, V::splat(f32::INFINITY))
}

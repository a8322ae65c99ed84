//! What the capsule pairs share, written once over [`Lane`] (so each capsule pair's reference
//! and kernels are one function instantiated at `f32`, `f32x8` and `f32x16`): the segment, the
//! division-free "within reach of the segment" test and the box tests the module docs of
//! [`narrow`](super) derive under "Capsules", the nearest-offset candidates of the contacts.
//!
//! Validity of a capsule: all four endpoint coordinates finite (the sum of `x - x` over them is
//! 0) and `radius >= 0` (NaN fails it).

use super::contact::{Best, disc, disc_squared};
use crate::lanes::Lane;

/// A capsule's segment: its first endpoint `a`, its second `b`, the direction `d = b - a`
/// and `d·d`.
#[derive(Clone, Copy)]
pub(crate) struct Segment<L> {
    pub(crate) ax: L,
    pub(crate) ay: L,
    pub(crate) bx: L,
    pub(crate) by: L,
    pub(crate) dx: L,
    pub(crate) dy: L,
    pub(crate) dd: L,
}

impl<L: Lane> Segment<L> {
    /// The segment of a capsule's fields `[x0, y0, x1, y1, radius]`.
    #[inline(always)]
    pub(crate) fn of([x0, y0, x1, y1, _]: [L; 5]) -> Self {
        Self::new(x0, y0, x1, y1)
    }

    /// The segment from `(x0, y0)` to `(x1, y1)`.
    #[inline(always)]
    pub(crate) fn new(x0: L, y0: L, x1: L, y1: L) -> Self {
        let (dx, dy) = (x1 - x0, y1 - y0);
        Self {
            ax: x0,
            ay: y0,
            bx: x1,
            by: y1,
            dx,
            dy,
            dd: dx * dx + dy * dy,
        }
    }

    /// Whether `(px, py)` lies within `√reach2` of the segment (see the module docs).
    #[inline(always)]
    pub(crate) fn near(&self, px: L, py: L, reach2: L) -> L::Mask {
        let zero = L::splat(0.0);
        let (wx, wy) = (px - self.ax, py - self.ay);
        let (ux, uy) = (px - self.bx, py - self.by);
        let along = wx * self.dx + wy * self.dy;
        let cross = self.dx * wy - self.dy * wx;
        let ends = (wx * wx + wy * wy).le(reach2) | (ux * ux + uy * uy).le(reach2);
        let side = along.ge(zero)
            & along.le(self.dd)
            & self.dd.gt(zero)
            & (cross * cross).le(reach2 * self.dd);
        ends | side
    }

    /// The point of the segment nearest to `(px, py)`: `a + t·d` with `t = (p - a)·d · inv`
    /// clamped to `[0, 1]`, where `inv` is `1 / (d·d)` (a zero-length segment's `0 · inf` is
    /// NaN, which the clamp turns into 0: the point `a`).
    #[inline(always)]
    pub(crate) fn closest(&self, px: L, py: L, inv: L) -> (L, L) {
        let along = (px - self.ax) * self.dx + (py - self.ay) * self.dy;
        // `max(t, 0)` with `t` first: a NaN `t` gives the second operand, 0.
        let t = (along * inv).pmax(L::splat(0.0)).pmin(L::splat(1.0));
        (self.ax + t * self.dx, self.ay + t * self.dy)
    }

    /// `d × (p - a)` for the point `(px, py)`: which side of the segment's line it lies on
    /// (positive: left of `d`).
    #[inline(always)]
    pub(crate) fn side(&self, px: L, py: L) -> L {
        self.dx * (py - self.ay) - self.dy * (px - self.ax)
    }
}

/// Whether a capsule's fields `[x0, y0, x1, y1, radius]` make a capsule that can hit anything:
/// finite endpoints and `radius >= 0`.
#[inline(always)]
#[allow(clippy::eq_op, reason = "x - x is the finiteness test")]
pub(crate) fn valid<L: Lane>([x0, y0, x1, y1, r]: [L; 5]) -> L::Mask {
    let zero = L::splat(0.0);
    let sum = (x0 - x0) + (y0 - y0) + (x1 - x1) + (y1 - y1);
    sum.eq(zero) & r.ge(zero)
}

/// The nearest of candidate offsets `(vx, vy)` between two shapes, kept by squared length
/// (ties to the earliest; a NaN length is never taken).
#[derive(Clone, Copy)]
pub(crate) struct Nearest<L> {
    pub(crate) vx: L,
    pub(crate) vy: L,
    pub(crate) d2: L,
}

impl<L: Lane> Nearest<L> {
    /// No candidate yet: an infinite length along `(0, 0)`.
    #[inline(always)]
    pub(crate) fn new() -> Self {
        Self {
            vx: L::splat(0.0),
            vy: L::splat(0.0),
            d2: L::splat(f32::INFINITY),
        }
    }

    /// Takes the offset `(vx, vy)` where it is strictly shorter than the nearest so far.
    #[inline(always)]
    pub(crate) fn offer(&mut self, vx: L, vy: L) {
        let d2 = vx * vx + vy * vy;
        let closer = d2.lt(self.d2);
        self.vx = L::select(closer, vx, self.vx);
        self.vy = L::select(closer, vy, self.vy);
        self.d2 = L::select(closer, d2, self.d2);
    }
}

/// The contact of a disc of radius `reach` around `(cx, cy)` (a point, or a circle with the
/// capsule's radius added) and a capsule's segment, normal from the disc towards the capsule:
/// along the offset from the centre to the segment's nearest point, depth `reach - distance`;
/// a centre on the segment (distance 0) is left sideways, along the segment's left normal
/// `(-dy, dx) / |d|`, depth `reach`; `(1, 0)` where the segment has no direction (zero length,
/// or a length that overflowed).
#[inline(always)]
pub(crate) fn disc_contact<L: Lane>(s: &Segment<L>, cx: L, cy: L, reach: L) -> Best<L> {
    let (zero, one) = (L::splat(0.0), L::splat(1.0));
    let (qx, qy) = s.closest(cx, cy, one / s.dd);
    let (toward, apart) = disc(qx - cx, qy - cy, 1.0, reach);
    let len = s.dd.sqrt();
    let has = zero.lt(len) & len.lt(L::splat(f32::INFINITY));
    let sideways = Best::new_with(
        reach,
        L::select(has, (zero - s.dy) / len, one),
        L::select(has, s.dx / len, zero),
    );
    Best::pick(apart, toward, sideways)
}

/// The projections onto the segment's left normal `m = (-dy, dx)` of the box `[lo_x, lo_y,
/// hi_x, hi_y]`, relative to `a`: `[min, max]` of `m·(c - a)` over its corners, as the sum of
/// the smaller (larger) of the two terms on each axis. Where a normal component is 0 and the
/// box infinite on that axis, a term is `0 · inf`, NaN: the answer may then be NaN, which the
/// callers read as "no separation here" (the box's own axes decide such a pair).
#[inline(always)]
fn box_projection<L: Lane>(s: &Segment<L>, [lo_x, lo_y, hi_x, hi_y]: [L; 4]) -> (L, L) {
    let (nx, ny) = (L::splat(0.0) - s.dy, s.dx);
    let (u, v) = (nx * (lo_x - s.ax), nx * (hi_x - s.ax));
    let (w, z) = (ny * (lo_y - s.ay), ny * (hi_y - s.ay));
    (u.pmin(v) + w.pmin(z), u.pmax(v) + w.pmax(z))
}

/// Whether the segment meets the box `[lo_x, lo_y, hi_x, hi_y]`: no separating axis among the
/// box's two and the segment's normal.
#[inline(always)]
fn meets_box<L: Lane>(s: &Segment<L>, bounds: [L; 4]) -> L::Mask {
    let [lo_x, lo_y, hi_x, hi_y] = bounds;
    let zero = L::splat(0.0);
    let x = s.ax.pmin(s.bx).le(hi_x) & s.ax.pmax(s.bx).ge(lo_x);
    let y = s.ay.pmin(s.by).le(hi_y) & s.ay.pmax(s.by).ge(lo_y);
    let (lo, hi) = box_projection(s, bounds);
    x & y & !(lo.gt(zero) | hi.lt(zero))
}

/// The offset of `(x, y)` from the box's nearest point (its clamp into the box).
#[inline(always)]
fn outside_box<L: Lane>(x: L, y: L, [lo_x, lo_y, hi_x, hi_y]: [L; 4]) -> (L, L) {
    (x - x.pmax(lo_x).pmin(hi_x), y - y.pmax(lo_y).pmin(hi_y))
}

/// The box's corners, counter-clockwise from `(lo_x, lo_y)`.
#[inline(always)]
fn corners<L: Lane>([lo_x, lo_y, hi_x, hi_y]: [L; 4]) -> [(L, L); 4] {
    [(lo_x, lo_y), (hi_x, lo_y), (hi_x, hi_y), (lo_x, hi_y)]
}

/// Whether a capsule (segment `s`, radius `r`) overlaps the box `[lo_x, lo_y, hi_x, hi_y]`:
/// the segment meets the box, an endpoint lies within `r` of the box (its offset from its
/// clamp), or a corner lies within `r` of the segment. Infinite bounds are allowed (an
/// infinite corner is never near).
#[inline(always)]
pub(crate) fn box_test<L: Lane>(s: &Segment<L>, r: L, bounds: [L; 4]) -> L::Mask {
    let r2 = r * r;
    let end = |x: L, y: L| {
        let (gx, gy) = outside_box(x, y, bounds);
        (gx * gx + gy * gy).le(r2)
    };
    let [c0, c1, c2, c3] = corners(bounds);
    let near = s.near(c0.0, c0.1, r2)
        | s.near(c1.0, c1.1, r2)
        | s.near(c2.0, c2.1, r2)
        | s.near(c3.0, c3.1, r2);
    end(s.ax, s.ay) | end(s.bx, s.by) | near | meets_box(s, bounds)
}

/// The contact of the box `[lo_x, lo_y, hi_x, hi_y]` and a capsule (segment `s`, radius `r`),
/// normal from the box towards the capsule. Apart, along the offset between the nearest
/// points, depth `r - distance`: the nearest of `a`'s and `b`'s offsets from the box, then the
/// four corners' offsets to the segment, counter-clockwise from `(lo_x, lo_y)` (ties to the
/// earlier). Meeting, the smallest move of the segment out of the box plus `r`: the faces `+x`,
/// `-x`, `+y`, `-y`, then the segment's left normal `m` and `-m`; ties to the earlier.
#[inline(always)]
pub(crate) fn box_contact<L: Lane>(s: &Segment<L>, r: L, bounds: [L; 4]) -> Best<L> {
    let [lo_x, lo_y, hi_x, hi_y] = bounds;
    let (zero, one, minus) = (L::splat(0.0), L::splat(1.0), L::splat(-1.0));
    let mut nearest = Nearest::new();
    for (x, y) in [(s.ax, s.ay), (s.bx, s.by)] {
        let (gx, gy) = outside_box(x, y, bounds);
        nearest.offer(gx, gy);
    }
    let inv = one / s.dd;
    for (x, y) in corners(bounds) {
        let (qx, qy) = s.closest(x, y, inv);
        nearest.offer(qx - x, qy - y);
    }
    let (apart, away) = disc_squared(nearest.vx, nearest.vy, nearest.d2, 1.0, r);
    let mut best = Best::new();
    best.offer(hi_x - s.ax.pmin(s.bx) + r, one, zero);
    best.offer(s.ax.pmax(s.bx) - lo_x + r, minus, zero);
    best.offer(hi_y - s.ay.pmin(s.by) + r, zero, one);
    best.offer(s.ay.pmax(s.by) - lo_y + r, zero, minus);
    // On `m` the segment projects to 0 and the box to `[lo, hi]` (relative to `a`): the
    // capsule moves `hi` along `+m` or `-lo` along `-m`, divided by `|m|`. A zero-length
    // segment's `0 / 0` is NaN, never taken.
    let (lo, hi) = box_projection(s, bounds);
    let len = s.dd.sqrt();
    let (mx, my) = ((zero - s.dy) / len, s.dx / len);
    best.offer(hi / len + r, mx, my);
    best.offer((zero - lo) / len + r, zero - mx, zero - my);
    Best::pick(away & !meets_box(s, bounds), apart, best)
}

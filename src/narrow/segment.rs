//! What the capsule pairs share, written once over [`Lane`] (so each capsule pair's reference
//! and kernels are one function instantiated at `f32`, `f32x8` and `f32x16`): the segment, the
//! division-free "within reach of the segment" test and the box tests the module docs of
//! [`narrow`](super) derive under "Capsules", the nearest-offset candidates of the contacts.
//!
//! Validity of a capsule: all four endpoint coordinates finite (the sum of `x - x` over them is
//! 0) and `radius >= 0` (NaN fails it).

use super::contact::Best;
use crate::lanes::{Lane, select_each};

/// A capsule's segment: its first endpoint `a`, its second `b`, the direction `d = b - a`,
/// `d·d` and its square root `|d|` (computed only where read: every use is inlined).
#[derive(Clone, Copy)]
pub(crate) struct Segment<L> {
    pub(crate) ax: L,
    pub(crate) ay: L,
    pub(crate) bx: L,
    pub(crate) by: L,
    pub(crate) dx: L,
    pub(crate) dy: L,
    pub(crate) dd: L,
    pub(crate) len: L,
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
        let dd = dx * dx + dy * dy;
        Self {
            ax: x0,
            ay: y0,
            bx: x1,
            by: y1,
            dx,
            dy,
            dd,
            len: dd.sqrt(),
        }
    }

    /// Whether `(px, py)` lies within `reach` of the segment (see the module docs): of an
    /// end, or of the segment's side ([`beside`](Self::beside)).
    #[inline(always)]
    pub(crate) fn near(&self, px: L, py: L, reach: L) -> L::Mask {
        let reach2 = reach * reach;
        let (wx, wy) = (px - self.ax, py - self.ay);
        let (ux, uy) = (px - self.bx, py - self.by);
        let ends = (wx * wx + wy * wy).le(reach2) | (ux * ux + uy * uy).le(reach2);
        ends | self.beside(px, py, reach)
    }

    /// Whether `(px, py)` lies within `reach` of the segment's side: it projects onto the
    /// segment (of length more than 0) and its distance from the line is within reach,
    /// `|d × (p - a)| <= reach · |d|` (products of two lengths: see the module docs).
    #[inline(always)]
    pub(crate) fn beside(&self, px: L, py: L, reach: L) -> L::Mask {
        let zero = L::splat(0.0);
        let (wx, wy) = (px - self.ax, py - self.ay);
        let along = wx * self.dx + wy * self.dy;
        let cross = self.dx * wy - self.dy * wx;
        along.ge(zero) & along.le(self.dd) & self.dd.gt(zero) & cross.abs().le(reach * self.len)
    }

    /// `d × (p - a)` for the point `(px, py)`: which side of the segment's line it lies on
    /// (positive: left of `d`).
    #[inline(always)]
    pub(crate) fn side(&self, px: L, py: L) -> L {
        self.dx * (py - self.ay) - self.dy * (px - self.ax)
    }

    /// The smallest and the largest of `(e - f)·u` over the two ends `e`: the segment's extent
    /// along `u`, relative to the point `f`.
    #[inline(always)]
    pub(crate) fn extent(&self, fx: L, fy: L, ux: L, uy: L) -> (L, L) {
        let s = (self.ax - fx) * ux + (self.ay - fy) * uy;
        let t = (self.bx - fx) * ux + (self.by - fy) * uy;
        (s.pmin(t), s.pmax(t))
    }
}

/// Whether a capsule's fields `[x0, y0, x1, y1, radius]` make a capsule that can hit anything:
/// finite endpoints and `radius >= 0`.
pub(crate) use super::finite_and_sized as valid;

/// Whether a squared length `v·v` gives a direction: more than 0 (not coincident, nor
/// underflowed) and finite (not overflowed, not NaN).
#[inline(always)]
fn has_direction<L: Lane>(vv: L) -> L::Mask {
    vv.gt(L::splat(0.0)) & vv.lt(L::splat(f32::INFINITY))
}

/// The nearest of candidate pairs of vertices, `f` of the first shape's core and `g` of the
/// second's, kept by the squared length of `v = g - f` (ties to the earliest; a NaN length is
/// never taken): the axis of the ends candidate (see [the capsule notes](super#capsules)).
/// `v` is one subtraction per coordinate of two stored or computed vertices, so its direction
/// carries no more rounding than they do however short it is: unlike an offset to a nearest
/// point inside an edge, which is rounding noise when the cores meet within rounding.
#[derive(Clone, Copy)]
pub(crate) struct Ends<L> {
    pub(crate) fx: L,
    pub(crate) fy: L,
    vx: L,
    vy: L,
    vv: L,
}

impl<L: Lane> Ends<L> {
    /// No pair yet: an infinite length, `f` at the origin.
    #[inline(always)]
    pub(crate) fn new() -> Self {
        let zero = L::splat(0.0);
        Self {
            fx: zero,
            fy: zero,
            vx: zero,
            vy: zero,
            vv: L::splat(f32::INFINITY),
        }
    }

    /// Takes the pair `f`, `g` where it is strictly nearer than the nearest so far.
    #[inline(always)]
    pub(crate) fn offer(&mut self, fx: L, fy: L, gx: L, gy: L) {
        let (vx, vy) = (gx - fx, gy - fy);
        let vv = vx * vx + vy * vy;
        let closer = vv.lt(self.vv);
        let old = [self.fx, self.fy, self.vx, self.vy, self.vv];
        [self.fx, self.fy, self.vx, self.vy, self.vv] =
            select_each(closer, [fx, fy, vx, vy, vv], old);
    }

    /// The candidate's axis `u` (unnormalised) and `u·u`: `v`, or `(1, 0)` where the nearest
    /// vertices coincide, `v·v` overflowed or no pair had a number (no direction between them;
    /// any axis is then a true separating move, and the faces usually win).
    #[inline(always)]
    pub(crate) fn axis(&self) -> (L, L, L) {
        let (zero, one) = (L::splat(0.0), L::splat(1.0));
        let has = has_direction(self.vv);
        (
            L::select(has, self.vx, one),
            L::select(has, self.vy, zero),
            L::select(has, self.vv, one),
        )
    }
}

/// The contact of a disc of radius `reach` around `c = (cx, cy)` (a point, or a circle with the
/// capsule's radius added) and a capsule's segment `s`, normal from the disc towards the
/// capsule. The end `e` on `c`'s side of the segment's middle (`a` up to it) and its offset
/// `v = e - c`: where `c` lies beyond that end (`(e - o)·v > 0` for the other end `o`), along
/// `v`, depth `reach - |v|` (`(1, 0)` and `reach` where the segment is a point and `c` on it);
/// else across the segment along its left normal `m = (-dy, dx)` or its reverse, away from the
/// side `c` lies on (along `m` for a centre on the segment, exactly or within rounding), depth
/// `reach - |m·(c - a)| / |m|`. Each is the exact move along its direction and the smallest
/// (see [the capsule notes](super#capsules)): `v` is two subtractions of stored values, and the
/// sign of `(e - o)·v` can only be wrong where `v` is within rounding of across the segment,
/// where the two answers are the same. One square root and one division.
#[inline(always)]
pub(crate) fn disc_contact<L: Lane>(s: &Segment<L>, cx: L, cy: L, reach: L) -> Best<L> {
    let (zero, one) = (L::splat(0.0), L::splat(1.0));
    let (vax, vay) = (s.ax - cx, s.ay - cy);
    let (vbx, vby) = (s.bx - cx, s.by - cy);
    // `d·(a - c)` is minus where `c` projects along the segment: past the middle, `b`.
    let da = s.dx * vax + s.dy * vay;
    let to_b = (da * L::splat(-2.0)).gt(s.dd);
    let (vx, vy) = (L::select(to_b, vbx, vax), L::select(to_b, vby, vay));
    let vv = vx * vx + vy * vy;
    // Beyond `a`: `d·(a - c) > 0`; beyond `b`: `-d·(b - c) > 0`.
    let db = s.dx * vbx + s.dy * vby;
    let beyond = L::select(to_b, zero - db, da).gt(zero);
    let across = has_direction(s.dd);
    let end = beyond | !across;
    // A centre on a zero-length segment (or an offset whose square overflowed): `(1, 0)`.
    let has = has_direction(vv);
    // Across: `m·(c - a)`, away from the centre's side, along `m` from the line itself.
    let side = s.dy * vax - s.dx * vay;
    let sign = L::select(side.le(zero), one, L::splat(-1.0));
    let inv = one / L::select(end, L::select(has, vv, one), s.dd).sqrt();
    let short = L::select(end, vv, side.abs()) * inv;
    Best::new_with(
        reach - short,
        L::select(end, L::select(has, vx, one), (zero - s.dy) * sign) * inv,
        L::select(end, L::select(has, vy, zero), s.dx * sign) * inv,
    )
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
/// clamp), or a corner lies within `r` of the segment's side. Infinite bounds are allowed (an
/// infinite corner is never near). A corner within `r` of an end needs no test of its own:
/// that end's offset from its clamp is then no longer on either axis (each coordinate's
/// difference from the nearer bound is at most its difference from the corner's, rounded the
/// same way), so the end's test holds.
#[inline(always)]
pub(crate) fn box_test<L: Lane>(s: &Segment<L>, r: L, bounds: [L; 4]) -> L::Mask {
    let r2 = r * r;
    let end = |x: L, y: L| {
        let (gx, gy) = outside_box(x, y, bounds);
        (gx * gx + gy * gy).le(r2)
    };
    let [c0, c1, c2, c3] = corners(bounds);
    let near = s.beside(c0.0, c0.1, r)
        | s.beside(c1.0, c1.1, r)
        | s.beside(c2.0, c2.1, r)
        | s.beside(c3.0, c3.1, r);
    end(s.ax, s.ay) | end(s.bx, s.by) | near | meets_box(s, bounds)
}

/// The contact of the box `[lo_x, lo_y, hi_x, hi_y]` and a capsule (segment `s`, radius `r`),
/// normal from the box towards the capsule: the smallest move of the segment out of the box
/// plus `r` (each candidate the exact move along its direction) over the faces `+x`, `-x`,
/// `+y`, `-y`, the segment's left normal `m` and `-m`, then the ends axis from the nearest
/// corner to the nearest end (each end's nearest corner, the nearer bound on each axis, the
/// lower on a tie; then the nearer of the two pairs, `a`'s on a tie; see [the capsule
/// notes](super#capsules)); ties to the earlier.
#[inline(always)]
pub(crate) fn box_contact<L: Lane>(s: &Segment<L>, r: L, bounds: [L; 4]) -> Best<L> {
    let [lo_x, lo_y, hi_x, hi_y] = bounds;
    let (zero, one, minus) = (L::splat(0.0), L::splat(1.0), L::splat(-1.0));
    let mut best = Best::new();
    best.offer(hi_x - s.ax.pmin(s.bx) + r, one, zero);
    best.offer(s.ax.pmax(s.bx) - lo_x + r, minus, zero);
    best.offer(hi_y - s.ay.pmin(s.by) + r, zero, one);
    best.offer(s.ay.pmax(s.by) - lo_y + r, zero, minus);
    // On `m` the segment projects to 0 and the box to `[lo, hi]` (relative to `a`): the
    // capsule moves `hi` along `+m` or `-lo` along `-m`, divided by `|m|`. A segment too short
    // for `m·m` to be a positive number has no normal: NaN, never taken.
    let (lo, hi) = box_projection(s, bounds);
    let inv = L::select(has_direction(s.dd), one / s.len, L::splat(f32::NAN));
    let (mx, my) = ((zero - s.dy) * inv, s.dx * inv);
    best.offer(hi * inv + r, mx, my);
    best.offer((zero - lo) * inv + r, zero - mx, zero - my);
    // The corner nearest each end is the nearer bound on each axis (the lower on a tie).
    let nearer = |e: L, lo: L, hi: L| L::select((e - lo).abs().le((hi - e).abs()), lo, hi);
    let mut ends = Ends::new();
    for (x, y) in [(s.ax, s.ay), (s.bx, s.by)] {
        ends.offer(nearer(x, lo_x, hi_x), nearer(y, lo_y, hi_y), x, y);
    }
    let (ux, uy, uu) = ends.axis();
    let (fx, fy) = (ends.fx, ends.fy);
    // The box's extent along `u` beyond the corner `f`: one of the two terms on each axis is
    // that corner's own, 0.
    let ahead =
        ((lo_x - fx) * ux).pmax((hi_x - fx) * ux) + ((lo_y - fy) * uy).pmax((hi_y - fy) * uy);
    let behind = s.extent(fx, fy, ux, uy).0;
    let inv = one / uu.sqrt();
    best.offer((ahead - behind) * inv + r, ux * inv, uy * inv);
    best
}

//! Boxes as frames (centre, unit axes, half extents): their face searches are dot products
//! with the axes, and two boxes' manifold is clipped along the reference face's unit tangent
//! ([`framed`]); two AABBs in closed form ([`aabbs`]).

use super::answer::ManifoldLanes;
use super::finish::{Clip, finish, first_id, opposed};
use super::rules::{ALIGNED, PREFER_A};
use crate::lanes::Lane;
use crate::shape::CLIPPED;

/// A box's unit axis `u` (its first edge's direction; `v = (-uy, ux)`) and which of its edges
/// have length 0: its four edge normals `-v`, `u`, `v`, `-u` follow (see
/// [`Outline::with_axis`](super::outline::Outline::with_axis) and [`Frame::face`]).
#[derive(Clone, Copy)]
pub(super) struct Axes<L> {
    /// `u`, unit.
    pub(super) u: (L, L),
    /// Edges 0 and 2 (along `u`) and 1 and 3 (along `v`) of length 0: `[flat_u, flat_v]`, each
    /// 0, or NaN where the edges have length 0.
    pub(super) flat: [L; 2],
}

impl<L: Lane> Axes<L> {
    /// The axes along `(ux, uy)` (not necessarily unit), made unit, with the edges of length 0
    /// `[flat_u, flat_v]` (0, or NaN where they have length 0).
    #[inline(always)]
    pub(super) fn unit((ux, uy): (L, L), [flat_u, flat_v]: [L; 2]) -> Self {
        let inv = L::splat(1.0) / (ux * ux + uy * uy).sqrt();
        Self {
            u: (ux * inv, uy * inv),
            flat: [flat_u, flat_v],
        }
    }

    /// `(d·u, d·v)` of a direction `(dx, dy)`.
    #[inline(always)]
    pub(super) fn dots(&self, dx: L, dy: L) -> (L, L) {
        let (ux, uy) = self.u;
        (dx * ux + dy * uy, dy * ux - dx * uy)
    }

    /// `when ? a : b`, field by field.
    #[inline(always)]
    pub(super) fn pick(when: L::Mask, a: Self, b: Self) -> Self {
        let s = |p: L, q: L| L::select(when, p, q);
        Self {
            u: (s(a.u.0, b.u.0), s(a.u.1, b.u.1)),
            flat: [s(a.flat[0], b.flat[0]), s(a.flat[1], b.flat[1])],
        }
    }

    /// The four edges' unit outward normals `-v`, `u`, `v`, `-u` (`v = (-uy, ux)`), NaN for an
    /// edge of length 0.
    #[inline(always)]
    pub(super) fn normals(&self) -> [(L, L); 4] {
        let zero = L::splat(0.0);
        let (ux, uy) = self.u;
        // `flat` is 0 (the normal kept) or NaN (the normal NaN).
        let keep = |flat: L, (mx, my): (L, L)| {
            let ok = flat.eq(zero);
            (L::select(ok, mx, flat), L::select(ok, my, flat))
        };
        let [flat_u, flat_v] = self.flat;
        [
            keep(flat_u, (uy, zero - ux)),
            keep(flat_v, (ux, uy)),
            keep(flat_u, (zero - uy, ux)),
            keep(flat_v, (zero - ux, zero - uy)),
        ]
    }
}

/// A box as a frame: its centre, the unit direction `u` of its first edge (`v = (-uy, ux)`), its
/// half extents along `u` and `v`, and which of its edges have length 0 (half extent 0), as
/// [`Axes`]. Its edges, counter-clockwise from the corner `-u·hu - v·hv`, have the outward
/// normals `-v`, `u`, `v`, `-u` (edges 0 to 3), as the box's outline.
#[derive(Clone, Copy)]
pub(crate) struct Frame<L> {
    pub(super) cx: L,
    pub(super) cy: L,
    pub(super) hu: L,
    pub(super) hv: L,
    pub(super) axes: Axes<L>,
}

/// A box's face found by [`Frame::face`]: its cosine with the direction searched (NaN where
/// the box has no face), whether its normal is along `±u`, the normal's sign along that axis
/// (`±1`), the edge's index (as a number), and the sine of its angle with the direction.
#[derive(Clone, Copy)]
pub(super) struct Facing<L: Lane> {
    pub(super) cos: L,
    pub(super) along_u: L::Mask,
    pub(super) sign: L,
    pub(super) index: L,
    pub(super) sin: L,
}

impl<L: Lane> Facing<L> {
    /// `when ? a : b`, field by field.
    #[inline(always)]
    pub(super) fn pick(when: L::Mask, a: Self, b: Self) -> Self {
        let s = |p: L, q: L| L::select(when, p, q);
        Self {
            cos: s(a.cos, b.cos),
            along_u: (when & a.along_u) | (!when & b.along_u),
            sign: s(a.sign, b.sign),
            index: s(a.index, b.index),
            sin: s(a.sin, b.sin),
        }
    }
}

impl<L: Lane> Frame<L> {
    /// The frame of the box with centre `c`, half extents `h` and first axis along `(ux, uy)`
    /// (not necessarily unit).
    #[inline(always)]
    pub(super) fn new((cx, cy): (L, L), (hu, hv): (L, L), u: (L, L)) -> Self {
        let (zero, nan) = (L::splat(0.0), L::splat(f32::NAN));
        let flat = |h: L| L::select(h.eq(zero), nan, zero);
        Self {
            cx,
            cy,
            hu,
            hv,
            axes: Axes::unit(u, [flat(hu), flat(hv)]),
        }
    }

    /// `when ? a : b`, field by field.
    #[inline(always)]
    pub(super) fn pick(when: L::Mask, a: Self, b: Self) -> Self {
        let s = |p: L, q: L| L::select(when, p, q);
        Self {
            cx: s(a.cx, b.cx),
            cy: s(a.cy, b.cy),
            hu: s(a.hu, b.hu),
            hv: s(a.hv, b.hv),
            axes: Axes::pick(when, a.axes, b.axes),
        }
    }

    /// The face whose outward normal is most aligned with `(dx, dy)` (a unit direction): the
    /// first of the largest cosines in edge order, an edge of length 0 never, as a search over
    /// the four would find it. Of `u`'s two faces that is `+u` (edge 1) where `d·u >= 0`, else
    /// `-u` (edge 3), with the cosine `|d·u|`; of `v`'s, `+v` (edge 2) where `d·v > 0`, else
    /// `-v` (edge 0), cosine `|d·v|`; the larger cosine wins, a tie the smaller edge index.
    /// The sine of the angle between the normal and `d`, `|m × d|`, is the other dot product.
    #[inline(always)]
    pub(super) fn face(&self, dx: L, dy: L) -> Facing<L> {
        let (zero, one) = (L::splat(0.0), L::splat(1.0));
        let s = L::select;
        let (du, dv) = self.axes.dots(dx, dy);
        let (pu, pv) = (du.abs(), dv.abs());
        // Each pair's cosine, NaN where its edges have length 0.
        let (au, av) = (pu + self.axes.flat[1], pv + self.axes.flat[0]);
        let (plus_u, plus_v) = (du.ge(zero), dv.gt(zero));
        let (iu, iv) = (
            s(plus_u, one, L::splat(3.0)),
            s(plus_v, L::splat(2.0), zero),
        );
        let along_u = au.gt(av) | (au.eq(av) & iu.lt(iv)) | !av.eq(av);
        let plus = (along_u & plus_u) | (!along_u & plus_v);
        Facing {
            cos: s(along_u, au, av),
            along_u,
            sign: s(plus, one, zero - one),
            index: s(along_u, iu, iv),
            sin: s(along_u, pv, pu),
        }
    }

    /// Face `f`'s outward normal `m`, the centre of the face (`m` times the half extent across
    /// it from the centre) and its half length along it.
    #[inline(always)]
    pub(super) fn side(&self, f: &Facing<L>) -> ((L, L), (L, L), L) {
        let s = L::select;
        let (ux, uy) = self.axes.u;
        // `±u`, or `±v` with `v = (-uy, ux)`.
        let (mx, my) = (
            f.sign * s(f.along_u, ux, L::splat(0.0) - uy),
            f.sign * s(f.along_u, uy, ux),
        );
        let across = s(f.along_u, self.hu, self.hv);
        let length = s(f.along_u, self.hv, self.hu);
        (
            (mx, my),
            (self.cx + across * mx, self.cy + across * my),
            length,
        )
    }

    /// The corner with the largest `d·corner`, the first of equal ones in the outline's order
    /// (corners `-u-v`, `u-v`, `u+v`, `-u+v`).
    #[inline(always)]
    pub(super) fn support(&self, dx: L, dy: L) -> (L, L) {
        let zero = L::splat(0.0);
        let (ux, uy) = self.axes.u;
        let (du, dv) = self.axes.dots(dx, dy);
        let plus_u = du.gt(zero) | (du.eq(zero) & dv.gt(zero));
        let ou = L::select(plus_u, self.hu, zero - self.hu);
        let ov = L::select(dv.gt(zero), self.hv, zero - self.hv);
        (self.cx + ou * ux - ov * uy, self.cy + ou * uy + ov * ux)
    }
}

/// The manifold of two boxes seen as frames whose contact is `[nx, ny, depth]`: the rules, ids and
/// clipping of [`faces`](super::clip::faces), computed in the reference face's frame. Each box's
/// best face is two dot products and a few comparisons, its sine with `n` one of those dot
/// products; the reference face is its centre, outward normal `m`, tangent `t` and half length
/// `ht`, the incident edge its centre and half length, so each incident end is at `s` along `t` and
/// depth `d` below the reference surface, and clipping keeps `-ht <= s <= ht`. Not inlined: one
/// call per lane block, on the frames' values (not the fields' address, which would keep every
/// block's fields in memory).
#[inline(never)]
pub(super) fn framed<L: Lane>(
    a: Frame<L>,
    b: Frame<L>,
    [nx, ny, depth]: [L; 3],
) -> ManifoldLanes<L> {
    let (zero, half) = (L::splat(0.0), L::splat(0.5));
    let s = L::select;
    let (fa, fb) = (a.face(nx, ny), b.face(zero - nx, zero - ny));
    // As in `faces`: a box shrunk to a point has no face (its cosine NaN), is never the
    // reference, and leaves the one deepest point.
    let (faced_a, faced_b) = (fa.cos.eq(fa.cos), fb.cos.eq(fb.cos));
    let from_a = (fa.sin.le(fb.sin + L::splat(PREFER_A)) & faced_a) | !faced_b;
    let aligned = s(from_a, fa.sin, fb.sin).le(L::splat(ALIGNED)) & faced_a & faced_b;
    let (r, i) = (Frame::pick(from_a, a, b), Frame::pick(from_a, b, a));
    let reference = Facing::pick(from_a, fa, fb);
    let ((mx, my), (fx, fy), ht) = r.side(&reference);
    let (tx, ty) = (zero - my, mx);
    // The incident edge: on the other box, the face most opposed to `m` (most aligned with
    // `-m`: the same cosines negated, so the same first of equal ones).
    let incident = i.face(zero - mx, zero - my);
    let ((imx, imy), (gx, gy), hi) = i.side(&incident);
    let (itx, ity) = (zero - imy, imx);
    // Its centre and direction along `t` and below the reference surface; its ends (in the
    // outline's order, `-hi` then `+hi` along its own tangent) follow.
    let (rx, ry) = (gx - fx, gy - fy);
    let (sc, dc) = (tx * rx + ty * ry, zero - (mx * rx + my * ry));
    let (st, dt) = (hi * (tx * itx + ty * ity), hi * (mx * itx + my * ity));
    let (s1, s2) = (sc - st, sc + st);
    let (d1, d2) = (dc + dt, dc - dt);
    let low = zero - ht;
    let spans = s1.pmax(s2).ge(low) & s1.pmin(s2).le(ht);
    // The end at `s` moved to the clamped `σ`, its depth with it: the depth changes by
    // `-slope` per unit along `t` (one division, off the clip's path; no move where the edge
    // is across the tangent, `st == 0`, whose slope is infinite or NaN). The clipped end lies
    // on the incident surface at `σ` along `t` and `d` below the reference surface.
    let slope = (mx * itx + my * ity) / (tx * itx + ty * ity);
    let across = st.eq(zero);
    // `σ` kept within the edge: where the edge lies beyond a side line, both ends go to the
    // end nearest the span.
    let (s_lo, s_hi) = (s1.pmin(s2), s1.pmax(s2));
    let clip = |s: L, d: L| {
        let sigma = s.pmax(low).pmin(ht).pmax(s_lo).pmin(s_hi);
        let d = L::select(across, d, d - (sigma - s) * slope);
        ((fx + sigma * tx - d * mx, fy + sigma * ty - d * my), d)
    };
    let ((q1, e1), (q2, e2)) = (clip(s1, d1), clip(s2, d2));
    let base = first_id(from_a, reference.index, incident.index);
    // One point: the support of the box that is not the reference (b's along -n where the
    // reference is a's, else a's along n), moved to midway.
    let side = s(from_a, half, zero - half);
    let (px, py) = i.support(s(from_a, zero - nx, nx), s(from_a, zero - ny, ny));
    let deepest = (px + side * depth * nx, py + side * depth * ny);
    let k = side * depth;
    let clip = Clip {
        surface: [q1, q2],
        d: [e1, e2],
        spans,
        base,
        lift: (k * nx, k * ny),
        parallel: opposed((mx, my), (imx, imy)),
        scale: fx.abs().pmax(fy.abs()) + ht,
    };
    finish(clip, (from_a, aligned), [nx, ny, depth], deepest)
}

/// The manifold of two AABBs `fa`, `fb` (neither flat) whose contact is `[nx, ny, depth]`: what
/// [`faces`](super::clip::faces) finds, in closed form. The normal is an axis, so the reference
/// face is `a`'s face with that normal (both faces are exactly aligned: a tie, `a`'s), the incident
/// face `b`'s opposite one, and clipping it to the reference face's side lines keeps the shared
/// span: two points at its ends, both at the contact's depth, in the incident edge's order, with
/// the ids [`faces`](super::clip::faces) gives them.
#[inline(always)]
pub(super) fn aabbs<L: Lane>(fa: &[L], fb: &[L], [nx, ny, depth]: [L; 3]) -> ManifoldLanes<L> {
    let (a0x, a0y, a1x, a1y) = (fa[0], fa[1], fa[2], fa[3]);
    let (b0x, b0y, b1x, b1y) = (fb[0], fb[1], fb[2], fb[3]);
    let (zero, half) = (L::splat(0.0), L::splat(0.5));
    let (right, left, up) = (nx.gt(zero), nx.lt(zero), ny.gt(zero));
    let along_x = right | left;
    let s = L::select;
    // The incident face's coordinate along the normal, moved midway.
    let face = s(right, b0x, s(left, b1x, s(up, b0y, b1y)));
    let k = half * depth;
    let across = face + k * s(along_x, nx, ny);
    // The shared span along the face, its ends in the incident edge's order (edges run
    // counter-clockwise: b's left edge downwards, right upwards, bottom rightwards, top
    // leftwards).
    let (lo_y, hi_y) = (a0y.pmax(b0y), a1y.pmin(b1y));
    let (lo_x, hi_x) = (a0x.pmax(b0x), a1x.pmin(b1x));
    let first = s(right, hi_y, s(left, lo_y, s(up, lo_x, hi_x)));
    let second = s(right, lo_y, s(left, hi_y, s(up, hi_x, lo_x)));
    // Clipped, reference edge · 16 + incident edge · 2 (edges 0 bottom, 1 right, 2 top, 3
    // left).
    let c = CLIPPED as f32;
    let id = s(
        right,
        L::splat(c + 22.0),
        s(
            left,
            L::splat(c + 50.0),
            s(up, L::splat(c + 32.0), L::splat(c + 4.0)),
        ),
    );
    // A span of length 0 (corners touching): one point.
    let single = first.eq(second);
    let other = |v: L| s(single, zero, v);
    ManifoldLanes {
        nx,
        ny,
        x: [s(along_x, across, first), other(s(along_x, across, second))],
        y: [s(along_x, first, across), other(s(along_x, second, across))],
        depth: [depth, other(depth)],
        id: [id, other(id + L::splat(1.0))],
        count: s(single, L::splat(1.0), L::splat(2.0)),
    }
}

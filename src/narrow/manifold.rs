//! Contact manifolds for every pair kind, written once over [`Lane`] on top of the pair's
//! contact (normal `n` from `a` to `b`, depth): the reference (`f32`) and the kernels (`f32x8`,
//! `f32x16`) are the same operations, so the same bits.
//!
//! Each shape is seen as a convex outline grown by a radius ([`Outline`]): a point or a circle
//! is one vertex (radius 0 or its radius), a capsule its segment's two vertices (its two faces
//! are the segment seen from either side), a box its four corners, a polygon its eight vertex
//! slots (padding edges have length 0 and are never chosen), counter-clockwise.
//!
//! **One point** where either shape is a single vertex, or where `n` is no face's normal (two
//! rounded or vertex features touch), or where clipping does not describe the contact (below):
//! the deepest point. `a`'s support point along `n` (the vertex with the largest `n·v`, the
//! first of equal ones) moved out by its radius lies on its boundary; the point is that minus
//! `depth/2 · n`; or `b`'s support along `-n`, moved in by its radius, plus `depth/2 · n`. The
//! support taken is the single vertex's (a point or circle), else that of the shape whose best
//! face is farther from `n` (`b`'s where `a`'s face is the nearer, as for the reference face).
//!
//! **A face.** The face of `a` whose outward normal is most aligned with `n` (largest cosine,
//! the first of equal ones) and the face of `b` most aligned with `-n`; the reference face is
//! the one whose normal is closer to `n` (by the sine of the angle, `|m × n|`; `a`'s unless
//! `b`'s is closer by more than [`PREFER_A`]); `n` is that face's normal when the sine is at
//! most [`ALIGNED`] (only rounding: the contact took `n` from that face). The incident edge is
//! the other shape's edge whose outward normal is most opposed to the reference face's
//! (smallest cosine, the first of equal ones). It is clipped to the reference face's side lines
//! (the parameter along the face's tangent kept between its two vertices, and within the edge:
//! an edge lying beyond a side line is clipped to its end nearest the span); each clipped end
//! `c`, moved to the incident surface (by the incident radius along the incident face's unit
//! outward normal: a capsule's flat side), has depth `m·(v₁ - q) + r_ref` below the reference
//! surface (unit outward normal `m`, first vertex `v₁`), and is a point where that is `>= 0`,
//! placed from that surface point by `depth/2` along `±n` to midway. The deeper point takes the
//! contact's depth exactly, the other at most that; two equally deep ends (a face resting flat
//! on a face) both take it, so they stay equal; two ends at one place (corners touching, edges
//! meeting end to end) are one point. If no end penetrates (faces touching, at depth about 0
//! after rounding) or none lies across the span, the deeper clipped end alone, at the
//! contact's depth (the support of a face would be any of its corners, however far from the
//! other shape). If the deepest end is not within [`REACHED`] of the contact's depth (the side
//! lines cut off the deepest feature, as for two crossing capsules), the one deepest point
//! instead. Coordinates that come out NaN (infinite sizes) are reported as 0.
//!
//! **Two boxes** (AABBs and OBBs in any mix) follow these rules in each box's frame (centre,
//! unit axes, half extents; an edge has length 0 where its half extent is 0) instead of over
//! their corners: the face searches are dot products with the axes, and the clip is done along
//! the reference face's unit tangent from its centre. The same faces, ids and points, up to
//! rounding.

use crate::lanes::Lane;
use crate::shape::{
    Aabb, B_REFERENCE, CLIPPED, Capsule, Circle, MAX_VERTICES, Obb, Point, Polygon,
};

/// How much closer to `n` `b`'s face normal must be than `a`'s (in the sine of the angle
/// between them) to be the reference face: a rounding tie goes to `a`.
pub(crate) const PREFER_A: f32 = 1e-6;
/// The largest sine of the angle between `n` and a face's normal for `n` to be that face's: the
/// rounding of a normal computed from vertices or a rotation is about 1e-7 (every contact takes
/// a face's normal from that face, never from an offset between nearest points); the margin
/// keeps the rule's decision away from rounding. A point placed with `n` off the face by this
/// angle moves by at most that share of its depth.
pub(crate) const ALIGNED: f32 = 1e-3;
/// How far the deepest clipped end may be from the contact's depth, relative to the reference
/// face's magnitude (the largest of its coordinates' absolute values, plus its radius) plus the
/// depth, for the clipped face to describe the contact (else the one deepest point): where the
/// reference face's side lines cut off the deepest feature (two crossing capsules), the clip
/// does not reach the contact's depth. About 170 roundings of that magnitude: the two depths
/// are computed apart, each from coordinates of that size, so they differ by rounding even
/// where they describe the same feature; relative, so that shapes a thousandth of a unit across
/// are judged as finely as shapes of a unit.
pub(crate) const REACHED: f32 = 1e-5;

/// A shape as a convex outline of `N` vertices, counter-clockwise, grown by a radius.
#[derive(Clone, Copy)]
pub(crate) struct Outline<L, const N: usize> {
    x: [L; N],
    y: [L; N],
    r: L,
    /// Each edge's unit outward normal `(ey, -ex) / |e|` (NaN for a zero-length edge), computed
    /// once for the searches below.
    mx: [L; N],
    my: [L; N],
}

/// A shape kind's outline from its fields (as the lane columns or the scalar shape's `f32`s).
pub(crate) trait Outlined {
    /// Number of vertices of the outline.
    const N: usize;
    /// The outline of the shape whose fields are `f` (`size_of::<Self>() / 4` of them), as
    /// vertex coordinates `x`, `y` (`N` each) and the radius.
    fn outline<L: Lane>(f: &[L], x: &mut [L], y: &mut [L]) -> L;
    /// Whether the kind is an axis-aligned box, whose fields are `[min_x, min_y, max_x, max_y]`
    /// (two of them take [`aabbs`], a few operations instead of the face searches).
    const ALIGNED_BOX: bool = false;
    /// For a box (four vertices, edges along two perpendicular axes): the direction of its
    /// first edge, not necessarily unit, from which all four edge normals follow with one
    /// square root instead of one per edge. `None` for the other kinds.
    #[inline(always)]
    fn axis<L: Lane>(_f: &[L]) -> Option<(L, L)> {
        None
    }
    /// For a box: its [`Frame`] (centre, unit axes, half extents), from which two boxes'
    /// manifold takes [`framed`], a few dozen operations instead of the face searches.
    /// `None` for the other kinds.
    #[inline(always)]
    fn frame<L: Lane>(_f: &[L]) -> Option<Frame<L>> {
        None
    }
}

impl Outlined for Point {
    const N: usize = 1;
    #[inline(always)]
    fn outline<L: Lane>(f: &[L], x: &mut [L], y: &mut [L]) -> L {
        (x[0], y[0]) = (f[0], f[1]);
        L::splat(0.0)
    }
}

impl Outlined for Circle {
    const N: usize = 1;
    #[inline(always)]
    fn outline<L: Lane>(f: &[L], x: &mut [L], y: &mut [L]) -> L {
        (x[0], y[0]) = (f[0], f[1]);
        f[2]
    }
}

impl Outlined for Capsule {
    const N: usize = 2;
    #[inline(always)]
    fn outline<L: Lane>(f: &[L], x: &mut [L], y: &mut [L]) -> L {
        (x[0], y[0], x[1], y[1]) = (f[0], f[1], f[2], f[3]);
        f[4]
    }
}

impl Outlined for Aabb {
    const N: usize = 4;
    const ALIGNED_BOX: bool = true;
    #[inline(always)]
    fn axis<L: Lane>(_f: &[L]) -> Option<(L, L)> {
        Some((L::splat(1.0), L::splat(0.0)))
    }
    #[inline(always)]
    fn frame<L: Lane>(f: &[L]) -> Option<Frame<L>> {
        let (lo_x, lo_y, hi_x, hi_y) = (f[0], f[1], f[2], f[3]);
        let half = L::splat(0.5);
        Some(Frame::new(
            ((lo_x + hi_x) * half, (lo_y + hi_y) * half),
            ((hi_x - lo_x) * half, (hi_y - lo_y) * half),
            (L::splat(1.0), L::splat(0.0)),
        ))
    }
    #[inline(always)]
    fn outline<L: Lane>(f: &[L], x: &mut [L], y: &mut [L]) -> L {
        let (lo_x, lo_y, hi_x, hi_y) = (f[0], f[1], f[2], f[3]);
        x.copy_from_slice(&[lo_x, hi_x, hi_x, lo_x]);
        y.copy_from_slice(&[lo_y, lo_y, hi_y, hi_y]);
        L::splat(0.0)
    }
}

impl Outlined for Obb {
    const N: usize = 4;
    #[inline(always)]
    fn axis<L: Lane>(f: &[L]) -> Option<(L, L)> {
        Some((f[4], f[5]))
    }
    #[inline(always)]
    fn frame<L: Lane>(f: &[L]) -> Option<Frame<L>> {
        Some(Frame::new((f[0], f[1]), (f[2], f[3]), (f[4], f[5])))
    }
    #[inline(always)]
    fn outline<L: Lane>(f: &[L], x: &mut [L], y: &mut [L]) -> L {
        let (cx, cy, hw, hh, cos, sin) = (f[0], f[1], f[2], f[3], f[4], f[5]);
        let zero = L::splat(0.0);
        let corners = [
            (zero - hw, zero - hh),
            (hw, zero - hh),
            (hw, hh),
            (zero - hw, hh),
        ];
        for (k, (u, v)) in corners.into_iter().enumerate() {
            x[k] = cx + (u * cos - v * sin);
            y[k] = cy + (u * sin + v * cos);
        }
        zero
    }
}

impl Outlined for Polygon {
    const N: usize = MAX_VERTICES;
    #[inline(always)]
    fn outline<L: Lane>(f: &[L], x: &mut [L], y: &mut [L]) -> L {
        x.copy_from_slice(&f[..MAX_VERTICES]);
        y.copy_from_slice(&f[MAX_VERTICES..2 * MAX_VERTICES]);
        L::splat(0.0)
    }
}

impl<L: Lane, const N: usize> Outline<L, N> {
    /// The outline of a shape of kind `S` from its fields.
    #[inline(always)]
    pub(crate) fn of<S: Outlined>(f: &[L]) -> Self {
        let zero = L::splat(0.0);
        let (mut x, mut y) = ([zero; N], [zero; N]);
        let r = S::outline(f, &mut x, &mut y);
        Self {
            x,
            y,
            r,
            mx: [zero; N],
            my: [zero; N],
        }
    }

    /// This outline with its edges' unit outward normals, for the face searches.
    #[inline(always)]
    fn with_normals(mut self) -> Self {
        let zero = L::splat(0.0);
        for k in 0..N {
            let (x2, y2) = self.next(k);
            let (ex, ey) = (x2 - self.x[k], y2 - self.y[k]);
            let inv = L::splat(1.0) / (ex * ex + ey * ey).sqrt();
            (self.mx[k], self.my[k]) = (ey * inv, (zero - ex) * inv);
        }
        self
    }

    /// This outline with its edges' unit outward normals from its first edge's direction
    /// `(ux, uy)` (a box: the edges run along `u`, `v`, `-u`, `-v`, with outward normals `-v`,
    /// `u`, `v`, `-u`, `v = (-uy, ux)`); a zero-length edge's normal is NaN, as from
    /// [`with_normals`](Self::with_normals).
    #[inline(always)]
    fn with_axis(mut self, u: (L, L)) -> Self {
        let normals = Axes::of(&self, u).normals();
        for (k, (mx, my)) in normals.into_iter().enumerate() {
            (self.mx[k], self.my[k]) = (mx, my);
        }
        self
    }

    /// The outline of kind `S` with its edge normals: from its axis for a box, else edge by
    /// edge.
    #[inline(always)]
    fn with_normals_of<S: Outlined>(self, f: &[L]) -> Self {
        match S::axis(f) {
            Some(u) if N == 4 => self.with_axis(u),
            _ => self.with_normals(),
        }
    }

    /// `when ? self : other`, lane by lane, for an outline of as many vertices (`M == N`).
    #[inline(always)]
    fn pick<const M: usize>(self, when: L::Mask, other: &Outline<L, M>) -> Self {
        debug_assert_eq!(M, N);
        let mut o = self;
        let s = |p: L, q: L| L::select(when, p, q);
        for k in 0..N {
            o.x[k] = s(self.x[k], other.x[k]);
            o.y[k] = s(self.y[k], other.y[k]);
            o.mx[k] = s(self.mx[k], other.mx[k]);
            o.my[k] = s(self.my[k], other.my[k]);
        }
        o.r = s(self.r, other.r);
        o
    }

    /// Vertex `k + 1`, wrapping around.
    #[inline(always)]
    fn next(&self, k: usize) -> (L, L) {
        let j = if k + 1 == N { 0 } else { k + 1 };
        (self.x[j], self.y[j])
    }

    /// The deepest point of a contact `[nx, ny, depth]` from `a`'s side (this is `a`): its
    /// support along `n` moved out by its radius to its boundary, then `depth/2` back.
    #[inline(always)]
    fn deepest_from_a(&self, [nx, ny, depth]: [L; 3]) -> (L, L) {
        let (sx, sy) = self.support(nx, ny);
        let out = self.r - depth * L::splat(0.5);
        (sx + out * nx, sy + out * ny)
    }

    /// The same from `b`'s side (this is `b`): its support along `-n` moved in by its radius,
    /// then `depth/2` on along `n`.
    #[inline(always)]
    fn deepest_from_b(&self, [nx, ny, depth]: [L; 3]) -> (L, L) {
        let zero = L::splat(0.0);
        let (sx, sy) = self.support(zero - nx, zero - ny);
        let back = depth * L::splat(0.5) - self.r;
        (sx + back * nx, sy + back * ny)
    }

    /// The support vertex along `(dx, dy)`: the largest `d·v`, the first of equal ones.
    #[inline(always)]
    fn support(&self, dx: L, dy: L) -> (L, L) {
        let (mut sx, mut sy) = (self.x[0], self.y[0]);
        let mut best = dx * sx + dy * sy;
        for k in 1..N {
            let d = dx * self.x[k] + dy * self.y[k];
            let more = d.gt(best);
            best = L::select(more, d, best);
            sx = L::select(more, self.x[k], sx);
            sy = L::select(more, self.y[k], sy);
        }
        (sx, sy)
    }

    /// The edge whose outward normal has the largest (`most`) or smallest cosine with `(dx,
    /// dy)`, the first of equal ones: the cosine, the edge's index (as a number), its two
    /// vertices and its unit outward normal. A zero-length edge's cosine is NaN, never taken.
    // Not inlined: four of these over eight edges at sixteen lanes, inlined into one block,
    // made a function too large for LLVM's scheduler (rustc 1.95 crashed building it).
    #[inline(never)]
    fn face(&self, dx: L, dy: L, most: bool) -> Face<L> {
        let zero = L::splat(0.0);
        let bound = if most {
            f32::NEG_INFINITY
        } else {
            f32::INFINITY
        };
        let mut f = Face {
            cos: L::splat(bound),
            index: zero,
            x1: self.x[0],
            y1: self.y[0],
            x2: self.x[0],
            y2: self.y[0],
            mx: zero,
            my: zero,
        };
        for k in 0..N {
            let (x2, y2) = self.next(k);
            let (mx, my) = (self.mx[k], self.my[k]);
            let cos = mx * dx + my * dy;
            let better = if most { cos.gt(f.cos) } else { cos.lt(f.cos) };
            f = Face {
                cos: L::select(better, cos, f.cos),
                index: L::select(better, L::splat(k as f32), f.index),
                x1: L::select(better, self.x[k], f.x1),
                y1: L::select(better, self.y[k], f.y1),
                x2: L::select(better, x2, f.x2),
                y2: L::select(better, y2, f.y2),
                mx: L::select(better, mx, f.mx),
                my: L::select(better, my, f.my),
            };
        }
        f
    }
}

/// A box's unit axis `u` (its first edge's direction; `v = (-uy, ux)`) and which of its edges
/// have length 0: its four edge normals `-v`, `u`, `v`, `-u` follow (see
/// [`Outline::with_axis`] and [`Frame::face`]).
#[derive(Clone, Copy)]
struct Axes<L> {
    ux: L,
    uy: L,
    /// Edges 0 and 2 (along `u`) and 1 and 3 (along `v`) of length 0.
    flat_u: L,
    flat_v: L,
}

impl<L: Lane> Axes<L> {
    /// The unit axes of the box `o` whose first edge runs along `(ux, uy)`.
    #[inline(always)]
    fn of<const N: usize>(o: &Outline<L, N>, u: (L, L)) -> Self {
        let (zero, nan) = (L::splat(0.0), L::splat(f32::NAN));
        let flat = |k: usize| {
            let (x2, y2) = o.next(k);
            L::select((x2 - o.x[k]).eq(zero) & (y2 - o.y[k]).eq(zero), nan, zero)
        };
        Self::unit(u, [flat(0), flat(1)])
    }

    /// The axes along `(ux, uy)` (not necessarily unit), made unit, with the edges of length 0
    /// `[flat_u, flat_v]` (0, or NaN where they have length 0).
    #[inline(always)]
    fn unit((ux, uy): (L, L), [flat_u, flat_v]: [L; 2]) -> Self {
        let inv = L::splat(1.0) / (ux * ux + uy * uy).sqrt();
        Self {
            ux: ux * inv,
            uy: uy * inv,
            flat_u,
            flat_v,
        }
    }

    /// `(d·u, d·v)` of a direction `(dx, dy)`.
    #[inline(always)]
    fn dots(&self, dx: L, dy: L) -> (L, L) {
        let (ux, uy) = (self.ux, self.uy);
        (dx * ux + dy * uy, dy * ux - dx * uy)
    }

    /// `when ? a : b`, field by field.
    #[inline(always)]
    fn pick(when: L::Mask, a: Self, b: Self) -> Self {
        let s = |p: L, q: L| L::select(when, p, q);
        Self {
            ux: s(a.ux, b.ux),
            uy: s(a.uy, b.uy),
            flat_u: s(a.flat_u, b.flat_u),
            flat_v: s(a.flat_v, b.flat_v),
        }
    }

    /// The four edges' unit outward normals `-v`, `u`, `v`, `-u` (`v = (-uy, ux)`), NaN for an
    /// edge of length 0.
    #[inline(always)]
    fn normals(&self) -> [(L, L); 4] {
        let zero = L::splat(0.0);
        let (ux, uy) = (self.ux, self.uy);
        // `flat` is 0 (the normal kept) or NaN (the normal NaN).
        let keep = |flat: L, (mx, my): (L, L)| {
            let ok = flat.eq(zero);
            (L::select(ok, mx, flat), L::select(ok, my, flat))
        };
        [
            keep(self.flat_u, (uy, zero - ux)),
            keep(self.flat_v, (ux, uy)),
            keep(self.flat_u, (zero - uy, ux)),
            keep(self.flat_v, (zero - ux, zero - uy)),
        ]
    }
}

/// A box as a frame: its centre, the unit direction `u` of its first edge (`v = (-uy, ux)`), its
/// half extents along `u` and `v`, and which of its edges have length 0 (half extent 0), as
/// [`Axes`]. Its edges, counter-clockwise from the corner `-u·hu - v·hv`, have the outward
/// normals `-v`, `u`, `v`, `-u` (edges 0 to 3), as the box's outline.
#[derive(Clone, Copy)]
pub(crate) struct Frame<L> {
    cx: L,
    cy: L,
    hu: L,
    hv: L,
    axes: Axes<L>,
}

/// A box's face found by [`Frame::face`]: its cosine with the direction searched (NaN where
/// the box has no face), whether its normal is along `±u`, the normal's sign along that axis
/// (`±1`), the edge's index (as a number), and the sine of its angle with the direction.
#[derive(Clone, Copy)]
struct Facing<L: Lane> {
    cos: L,
    along_u: L::Mask,
    sign: L,
    index: L,
    sin: L,
}

impl<L: Lane> Facing<L> {
    /// `when ? a : b`, field by field.
    #[inline(always)]
    fn pick(when: L::Mask, a: Self, b: Self) -> Self {
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
    fn new((cx, cy): (L, L), (hu, hv): (L, L), u: (L, L)) -> Self {
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
    fn pick(when: L::Mask, a: Self, b: Self) -> Self {
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
    fn face(&self, dx: L, dy: L) -> Facing<L> {
        let (zero, one) = (L::splat(0.0), L::splat(1.0));
        let s = L::select;
        let (du, dv) = self.axes.dots(dx, dy);
        let (pu, pv) = (du.abs(), dv.abs());
        // Each pair's cosine, NaN where its edges have length 0.
        let (au, av) = (pu + self.axes.flat_v, pv + self.axes.flat_u);
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
    fn side(&self, f: &Facing<L>) -> ((L, L), (L, L), L) {
        let s = L::select;
        let (ux, uy) = (self.axes.ux, self.axes.uy);
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
    fn support(&self, dx: L, dy: L) -> (L, L) {
        let zero = L::splat(0.0);
        let (ux, uy) = (self.axes.ux, self.axes.uy);
        let (du, dv) = self.axes.dots(dx, dy);
        let plus_u = du.gt(zero) | (du.eq(zero) & dv.gt(zero));
        let ou = L::select(plus_u, self.hu, zero - self.hu);
        let ov = L::select(dv.gt(zero), self.hv, zero - self.hv);
        (self.cx + ou * ux - ov * uy, self.cy + ou * uy + ov * ux)
    }
}

/// The manifold of two boxes seen as frames whose contact is `[nx, ny, depth]`: the rules,
/// ids and clipping of [`faces`], computed in the reference face's frame. Each box's best face
/// is two dot products and a few comparisons, its sine with `n` one of those dot products; the
/// reference face is its centre, outward normal `m`, tangent `t` and half length `ht`, the
/// incident edge its centre and half length, so each incident end is at `s` along `t` and
/// depth `d` below the reference surface, and clipping keeps `-ht <= s <= ht`. Not inlined:
/// one call per lane block, on the frames' values (not the fields' address, which would keep
/// every block's fields in memory).
#[inline(never)]
fn framed<L: Lane>(a: Frame<L>, b: Frame<L>, [nx, ny, depth]: [L; 3]) -> ManifoldLanes<L> {
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

/// An edge found by [`Outline::face`].
#[derive(Clone, Copy)]
struct Face<L> {
    cos: L,
    index: L,
    x1: L,
    y1: L,
    x2: L,
    y2: L,
    mx: L,
    my: L,
}

impl<L: Lane> Face<L> {
    /// `when ? a : b`, field by field.
    #[inline(always)]
    fn pick(when: L::Mask, a: Self, b: Self) -> Self {
        let s = |p: L, q: L| L::select(when, p, q);
        Self {
            cos: s(a.cos, b.cos),
            index: s(a.index, b.index),
            x1: s(a.x1, b.x1),
            y1: s(a.y1, b.y1),
            x2: s(a.x2, b.x2),
            y2: s(a.y2, b.y2),
            mx: s(a.mx, b.mx),
            my: s(a.my, b.my),
        }
    }
}

/// A manifold on lanes: the normal, two points (`x`, `y`, `depth`, `id` as a number) and the
/// count, zero where there is no hit.
#[derive(Clone, Copy)]
pub(crate) struct ManifoldLanes<L> {
    pub(crate) nx: L,
    pub(crate) ny: L,
    pub(crate) x: [L; 2],
    pub(crate) y: [L; 2],
    pub(crate) depth: [L; 2],
    pub(crate) id: [L; 2],
    pub(crate) count: L,
}

impl<L: Lane> ManifoldLanes<L> {
    /// The points' coordinates with NaN (from shapes whose sizes overflow, such as an infinite
    /// radius or an infinite box) replaced by 0.
    #[cfg(test)]
    fn finite(self) -> Self {
        let zero = L::splat(0.0);
        let f = |v: L| L::select(v.eq(v), v, zero);
        Self {
            x: self.x.map(f),
            y: self.y.map(f),
            ..self
        }
    }

    /// `when ? a : b`, lane by lane.
    #[inline(always)]
    fn pick(when: L::Mask, a: Self, b: Self) -> Self {
        let s = |p: L, q: L| L::select(when, p, q);
        let both = |p: [L; 2], q: [L; 2]| [s(p[0], q[0]), s(p[1], q[1])];
        Self {
            nx: s(a.nx, b.nx),
            ny: s(a.ny, b.ny),
            x: both(a.x, b.x),
            y: both(a.y, b.y),
            depth: both(a.depth, b.depth),
            id: both(a.id, b.id),
            count: s(a.count, b.count),
        }
    }

    /// Every lane zero where `hit` is clear; where it is set, the points' coordinates with NaN
    /// replaced by 0 (as the tests' `finite` does), one select per column.
    #[inline(always)]
    fn finite_masked(self, hit: L::Mask) -> Self {
        let zero = L::splat(0.0);
        let z = |v: L| L::select(hit, v, zero);
        let f = |v: L| L::select(hit & v.eq(v), v, zero);
        Self {
            nx: z(self.nx),
            ny: z(self.ny),
            x: self.x.map(f),
            y: self.y.map(f),
            depth: self.depth.map(z),
            id: self.id.map(z),
            count: z(self.count),
        }
    }
}

/// The manifold of `a` (kind `A`, fields `fa`) and `b` (kind `B`, fields `fb`) whose contact is
/// `[nx, ny, depth]` where `hit` (see the module docs); zero elsewhere. Two AABBs take a
/// closed form inline, two boxes otherwise (an OBB, or a flat AABB) their frames ([`framed`]),
/// the other kinds with faces the face searches; each of those is one call per lane block.
#[inline(always)]
pub(crate) fn build<L: Lane, A: Outlined, B: Outlined, const NA: usize, const NB: usize>(
    fa: &[L],
    fb: &[L],
    [nx, ny, depth]: [L; 3],
    hit: L::Mask,
) -> ManifoldLanes<L> {
    if A::ALIGNED_BOX && B::ALIGNED_BOX {
        // Two AABBs: the clipped faces in closed form where no box is flat; a flat one (a
        // segment or a point, whose edges of length 0 have no normal) takes the general path.
        let flat = |f: &[L]| f[0].eq(f[2]) | f[1].eq(f[3]);
        let flat = flat(fa) | flat(fb);
        let closed = aabbs(fa, fb, [nx, ny, depth]);
        if !L::any(flat & hit) {
            return closed.finite_masked(hit);
        }
        let general = match (A::frame(fa), B::frame(fb)) {
            (Some(a), Some(b)) => framed(a, b, [nx, ny, depth]),
            _ => unreachable!("AABBs have frames"),
        };
        return ManifoldLanes::pick(flat, general, closed).finite_masked(hit);
    }
    if let (Some(a), Some(b)) = (A::frame(fa), B::frame(fb)) {
        return framed(a, b, [nx, ny, depth]).finite_masked(hit);
    }
    if NA == 1 || NB == 1 {
        return single::<L, A, B, NA, NB>(fa, fb, [nx, ny, depth]).finite_masked(hit);
    }
    faces::<L, A, B, NA, NB>(fa, fb, [nx, ny, depth]).finite_masked(hit)
}

/// The one point of a pair where either shape is a single vertex (a point or a circle): the
/// other's support, as in [`faces`], inline (a few operations).
#[inline(always)]
fn single<L: Lane, A: Outlined, B: Outlined, const NA: usize, const NB: usize>(
    fa: &[L],
    fb: &[L],
    [nx, ny, depth]: [L; 3],
) -> ManifoldLanes<L> {
    let (a, b) = (Outline::<L, NA>::of::<A>(fa), Outline::<L, NB>::of::<B>(fb));
    let zero = L::splat(0.0);
    let (px, py) = if NA == 1 {
        a.deepest_from_a([nx, ny, depth])
    } else {
        b.deepest_from_b([nx, ny, depth])
    };
    ManifoldLanes {
        nx,
        ny,
        x: [px, zero],
        y: [py, zero],
        depth: [depth, zero],
        id: [zero, zero],
        count: L::splat(1.0),
    }
}

/// The manifold of two AABBs `fa`, `fb` (neither flat) whose contact is `[nx, ny, depth]`:
/// what [`faces`] finds, in closed form. The normal is an axis, so the reference face is
/// `a`'s face with that normal (both faces are exactly aligned: a tie, `a`'s), the incident
/// face `b`'s opposite one, and clipping it to the reference face's side lines keeps the
/// shared span: two points at its ends, both at the contact's depth, in the incident edge's
/// order, with the ids [`faces`] gives them.
#[inline(always)]
fn aabbs<L: Lane>(fa: &[L], fb: &[L], [nx, ny, depth]: [L; 3]) -> ManifoldLanes<L> {
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

/// The manifold of two shapes with outlines by the face searches and clipping of the module
/// docs, before NaN coordinates are cleared and lanes without a hit zeroed. Not inlined: one
/// call per lane block, and its body is large.
#[inline(never)]
fn faces<L: Lane, A: Outlined, B: Outlined, const NA: usize, const NB: usize>(
    fa: &[L],
    fb: &[L],
    [nx, ny, depth]: [L; 3],
) -> ManifoldLanes<L> {
    let (a, b) = (Outline::<L, NA>::of::<A>(fa), Outline::<L, NB>::of::<B>(fb));
    let zero = L::splat(0.0);
    // The one deepest point, from `a`'s support along `n` or `b`'s along `-n`.
    let from_a_support = || a.deepest_from_a([nx, ny, depth]);
    let from_b_support = || b.deepest_from_b([nx, ny, depth]);
    // A single vertex takes `single`, two boxes `framed`, inline.
    debug_assert!(NA > 1 && NB > 1);
    // Both have faces: the reference face and the incident edge, either way round.
    let (a, b) = (a.with_normals_of::<A>(fa), b.with_normals_of::<B>(fb));
    let fa_ = a.face(nx, ny, true);
    let fb_ = b.face(zero - nx, zero - ny, true);
    // Alignment by the sine of the angle to `n` (`|m × n|`, linear in the angle where the
    // cosine is flat): the reference face is the closer one, `a`'s on a rounding tie.
    let sin_a = (fa_.mx * ny - fa_.my * nx).abs();
    let sin_b = (fb_.mx * ny - fb_.my * nx).abs();
    // A shape whose edges all have length 0 (a box or capsule shrunk to a point) has no face:
    // its search keeps its starting cosine, and it is never the reference.
    let none = L::splat(f32::NEG_INFINITY);
    let (faced_a, faced_b) = (fa_.cos.gt(none), fb_.cos.gt(none));
    let from_a = (sin_a.le(sin_b + L::splat(PREFER_A)) & faced_a) | !faced_b;
    let reference = Face::pick(from_a, fa_, fb_);
    // Without a face on both sides there is no edge to clip: the one deepest point.
    let aligned = L::select(from_a, sin_a, sin_b).le(L::splat(ALIGNED)) & faced_a & faced_b;
    let radii = (L::select(from_a, a.r, b.r), L::select(from_a, b.r, a.r));
    // The incident edge: one search over the other shape, lane by lane, where both have as
    // many vertices; else a search on each side. One point: where `n` is nearer `a`'s face
    // normal than `b`'s, `b`'s support is the deepest feature (`a`'s support along `n` is a
    // face, or the nearest point of one), and the other way round: the other shape's, so one
    // support search on the shape already picked, where there is one.
    let (incident, deepest) = if NA == NB {
        let other = b.pick(from_a, &a);
        let (sx, sy) = other.support(
            L::select(from_a, zero - nx, nx),
            L::select(from_a, zero - ny, ny),
        );
        // `deepest_from_b` and `deepest_from_a` of the picked shape, the same operations.
        let half_depth = depth * L::splat(0.5);
        let k = L::select(from_a, half_depth - other.r, other.r - half_depth);
        (
            other.face(reference.mx, reference.my, false),
            (sx + k * nx, sy + k * ny),
        )
    } else {
        let inc_b = b.face(fa_.mx, fa_.my, false);
        let inc_a = a.face(fb_.mx, fb_.my, false);
        let ((ax_, ay_), (bx_, by_)) = (from_a_support(), from_b_support());
        (
            Face::pick(from_a, inc_b, inc_a),
            (L::select(from_a, bx_, ax_), L::select(from_a, by_, ay_)),
        )
    };
    clipped(
        reference,
        incident,
        radii,
        (from_a, aligned),
        [nx, ny, depth],
        deepest,
    )
}

/// The manifold from a reference face and an incident edge (see the module docs): the
/// incident edge, moved to its surface by the incident radius, clipped to the reference
/// face's side lines, the ends below the reference surface (reference radius) kept and placed
/// midway, ids from the features; or the one `deepest` point where `n` is not the reference
/// face's normal (`aligned` clear) or the clip does not reach the contact's depth. `from_a`:
/// the reference face is `a`'s.
#[inline(always)]
fn clipped<L: Lane>(
    reference: Face<L>,
    incident: Face<L>,
    (r_ref, r_inc): (L, L),
    (from_a, aligned): (L::Mask, L::Mask),
    [nx, ny, depth]: [L; 3],
    deepest: (L, L),
) -> ManifoldLanes<L> {
    let (zero, half) = (L::splat(0.0), L::splat(0.5));
    // Clip the incident edge to the reference face's side lines: along the tangent `t`, keep
    // `0 <= t·(c - v₁) <= t·t`.
    // The incident surface: the incident edge moved by the incident radius along its own unit
    // outward normal (a capsule's flat side; nothing for a polygon).
    let (ox, oy) = (r_inc * incident.mx, r_inc * incident.my);
    let (w1x, w1y) = (incident.x1 + ox, incident.y1 + oy);
    let (w2x, w2y) = (incident.x2 + ox, incident.y2 + oy);
    let (tx, ty) = (reference.x2 - reference.x1, reference.y2 - reference.y1);
    let tt = tx * tx + ty * ty;
    let s1 = tx * (w1x - reference.x1) + ty * (w1y - reference.y1);
    let s2 = tx * (w2x - reference.x1) + ty * (w2y - reference.y1);
    let spans = s1.pmax(s2).ge(zero) & s1.pmin(s2).le(tt);
    let (dx, dy) = (w2x - w1x, w2y - w1y);
    // The end at `s` moved to the clamped `σ`: along the edge by `(σ - s) / (s_other - s)` of
    // it (no move where the edge is across the tangent, `s1 == s2`, and 0 / 0 would be NaN).
    // `λ` kept within the edge: where the edge lies beyond a side line, both ends go to the
    // end nearest the span.
    let clip = |s: L, other: L, x: L, y: L, toward: f32| {
        let sigma = s.pmax(zero).pmin(tt);
        let lambda = L::select(
            s.eq(other),
            zero,
            ((sigma - s) / (other - s)).pmax(zero).pmin(L::splat(1.0)),
        );
        let k = lambda * L::splat(toward);
        (x + k * dx, y + k * dy)
    };
    let surface = [clip(s1, s2, w1x, w1y, 1.0), clip(s2, s1, w2x, w2y, -1.0)];
    // Each end's depth below the reference surface.
    let d = surface.map(|(qx, qy)| {
        reference.mx * (reference.x1 - qx) + reference.my * (reference.y1 - qy) + r_ref
    });
    let base = first_id(from_a, reference.index, incident.index);
    let scale = reference.x1.abs().pmax(reference.y1.abs()) + r_ref;
    let scale = scale.pmax(reference.x2.abs().pmax(reference.y2.abs()) + r_ref);
    let k = L::select(from_a, half * depth - r_inc, r_inc - half * depth);
    let lift = (k * nx - ox, k * ny - oy);
    let clip = Clip {
        surface,
        d,
        spans,
        base,
        lift,
        parallel: opposed((reference.mx, reference.my), (incident.mx, incident.my)),
        scale,
    };
    finish(clip, (from_a, aligned), [nx, ny, depth], deepest)
}

/// Whether the unit normals `m` and `w` point within [`ALIGNED`] (in the sine of the angle) of
/// opposite ways: an incident edge lying along the reference face.
#[inline(always)]
fn opposed<L: Lane>((mx, my): (L, L), (wx, wy): (L, L)) -> L::Mask {
    let zero = L::splat(0.0);
    (mx * wy - my * wx).abs().le(L::splat(ALIGNED)) & (mx * wx + my * wy).lt(zero)
}

/// The id of a clipped manifold's first point (the second's is one more): [`CLIPPED`], plus
/// [`B_REFERENCE`] where the reference face is `b`'s, the reference edge's index times 16 and
/// the incident edge's times 2.
#[inline(always)]
fn first_id<L: Lane>(from_a: L::Mask, reference: L, incident: L) -> L {
    L::select(
        from_a,
        L::splat(CLIPPED as f32),
        L::splat((CLIPPED | B_REFERENCE) as f32),
    ) + reference * L::splat(16.0)
        + incident * L::splat(2.0)
}

/// The incident edge clipped to the reference face's side lines, as [`finish`] takes it.
struct Clip<L: Lane> {
    /// Each clipped end's place on the incident surface.
    surface: [(L, L); 2],
    /// Each end's depth below the reference surface.
    d: [L; 2],
    /// Whether the edge reaches across the reference face's span.
    spans: L::Mask,
    /// The first end's id (the second's is one more).
    base: L,
    /// What takes an end from its place on the incident surface to its place as the one
    /// point: back to the incident core, to the incident surface along `n` (a round end's
    /// deepest point, where a flat side tilted by a rounding would be off by its radius times
    /// the tilt), then to midway.
    lift: (L, L),
    /// Whether the incident edge lies along the reference face ([`opposed`]).
    parallel: L::Mask,
    /// The reference face's magnitude, to which [`REACHED`] is relative.
    scale: L,
}

/// The manifold from the clipped incident ends: the ends below the reference surface kept and
/// placed midway, the deeper at the contact's depth; where the incident edge lies along the
/// reference face but no end is kept, the deeper end alone; or the one `deepest` point where
/// `n` is not the reference face's normal (`aligned` clear) or the clip does not reach the
/// contact's depth. `from_a`: the reference face is `a`'s.
#[inline(always)]
fn finish<L: Lane>(
    clip: Clip<L>,
    (from_a, aligned): (L::Mask, L::Mask),
    [nx, ny, depth]: [L; 3],
    deepest: (L, L),
) -> ManifoldLanes<L> {
    let Clip {
        surface,
        d,
        spans,
        base,
        lift,
        parallel,
        scale,
    } = clip;
    let (zero, half) = (L::splat(0.0), L::splat(0.5));
    let below = [spans & d[0].ge(zero), spans & d[1].ge(zero)];
    let keep = below;
    // The deeper kept point takes the contact's depth; both where they are equally deep (a
    // face resting flat on a face), so that they stay equal.
    let first_deeper = keep[0] & !(keep[1] & d[1].gt(d[0]));
    let second_deeper = keep[1] & (!first_deeper | d[1].eq(d[0]));
    let depths = [
        L::select(first_deeper, depth, d[0].pmin(depth)),
        L::select(second_deeper, depth, d[1].pmin(depth)),
    ];
    // Midway: from the incident surface by `depth/2` along `n` (from b's surface) or `-n`
    // (from a's).
    let side = L::select(from_a, half, zero - half);
    let (mut x, mut y) = ([zero; 2], [zero; 2]);
    for i in 0..2 {
        let (qx, qy) = surface[i];
        let k = side * depths[i];
        x[i] = qx + k * nx;
        y[i] = qy + k * ny;
    }
    let ids = [base, base + L::splat(1.0)];
    // Two ends at one place (the incident edge meets the reference face's span in a single
    // point: corners touching, or edges meeting end to end): one point, the deeper.
    let twin = keep[0] & keep[1] & x[0].eq(x[1]) & y[0].eq(y[1]);
    let keep = [
        keep[0] & !(twin & !first_deeper),
        keep[1] & !(twin & first_deeper),
    ];
    // Kept points first.
    let s = |when: L::Mask, p: L, q: L| L::select(when, p, q);
    let one = L::splat(1.0);
    let count = s(keep[0], one, zero) + s(keep[1], one, zero);
    let clipped = ManifoldLanes {
        nx,
        ny,
        x: [s(keep[0], x[0], x[1]), s(keep[0] & keep[1], x[1], zero)],
        y: [s(keep[0], y[0], y[1]), s(keep[0] & keep[1], y[1], zero)],
        depth: [
            s(keep[0], depths[0], depths[1]),
            s(keep[0] & keep[1], depths[1], zero),
        ],
        id: [
            s(keep[0], ids[0], ids[1]),
            s(keep[0] & keep[1], ids[1], zero),
        ],
        count,
    };
    let reached = (L::select(below[0], d[0], zero).pmax(L::select(below[1], d[1], zero)) - depth)
        .abs()
        .le(L::splat(REACHED) * (scale + depth));
    let any = below[0] | below[1];
    let faced = aligned & any & reached;
    // `n` is the reference face's and the incident edge lies along it (`parallel`), but no end
    // lies below it (faces touching, rounding put both ends above) or across its span (both
    // clipped to the incident end nearest it): the deeper end, at the contact's depth. The
    // support of either face would be any of its corners, however far from the other shape.
    let second = d[1].gt(d[0]);
    let touching = aligned & parallel & !any;
    let (px, py) = (
        s(
            touching,
            s(second, surface[1].0, surface[0].0) + lift.0,
            deepest.0,
        ),
        s(
            touching,
            s(second, surface[1].1, surface[0].1) + lift.1,
            deepest.1,
        ),
    );
    let id = s(touching, s(second, ids[1], ids[0]), zero);
    let pick = |p: L, q: L| L::select(faced, p, q);
    ManifoldLanes {
        nx,
        ny,
        x: [pick(clipped.x[0], px), pick(clipped.x[1], zero)],
        y: [pick(clipped.y[0], py), pick(clipped.y[1], zero)],
        depth: [pick(clipped.depth[0], depth), pick(clipped.depth[1], zero)],
        id: [pick(clipped.id[0], id), pick(clipped.id[1], zero)],
        count: pick(clipped.count, one),
    }
}

#[cfg(test)]
mod tests {
    //! The closed forms (two AABBs, two boxes) against the general face searches on outlines
    //! whose edge normals come edge by edge: the same manifold, point for point.
    use super::*;
    use crate::narrow::{aabb_aabb, aabb_obb, obb_obb};

    /// A box kind seen only as its outline: the general path, edge normals edge by edge.
    struct Plain<S>(S);

    impl<S: Outlined> Outlined for Plain<S> {
        const N: usize = S::N;
        fn outline<L: Lane>(f: &[L], x: &mut [L], y: &mut [L]) -> L {
            S::outline(f, x, y)
        }
    }

    /// A small xorshift in `[0, 1)`.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> f32 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 >> 40) as f32 / (1u64 << 24) as f32
        }
    }

    /// `fast` and `general` describe one manifold: same count and ids in the same order,
    /// points and depths equal up to rounding.
    fn same(fast: &ManifoldLanes<f32>, general: &ManifoldLanes<f32>, what: &str) {
        assert_eq!(fast.count, general.count, "{what}: count");
        for k in 0..fast.count as usize {
            assert_eq!(fast.id[k], general.id[k], "{what}: id {k}");
            let close = |p: f32, q: f32| (p - q).abs() <= 1e-5 * (1.0 + q.abs());
            assert!(close(fast.x[k], general.x[k]), "{what}: x {k}");
            assert!(close(fast.y[k], general.y[k]), "{what}: y {k}");
            assert!(close(fast.depth[k], general.depth[k]), "{what}: depth {k}");
        }
    }

    /// The general path's sines of both best faces, to skip the rare pairs where the two
    /// are so close that rounding of the normals may pick either as the reference.
    fn clear_reference<A: Outlined, B: Outlined>(fa: &[f32], fb: &[f32], n: [f32; 2]) -> bool {
        let a = Outline::<f32, 4>::of::<A>(fa).with_normals();
        let b = Outline::<f32, 4>::of::<B>(fb).with_normals();
        let (fa_, fb_) = (a.face(n[0], n[1], true), b.face(-n[0], -n[1], true));
        let sin_a = (fa_.mx * n[1] - fa_.my * n[0]).abs();
        let sin_b = (fb_.mx * n[1] - fb_.my * n[0]).abs();
        (sin_a - sin_b).abs() > 1e-4 && (sin_a.min(sin_b) - ALIGNED).abs() > 1e-4
    }

    #[test]
    fn two_aabbs_in_closed_form_are_the_face_searches() {
        let mut r = Rng(7);
        let mut tested = 0;
        for _ in 0..20_000 {
            let mut aabb = || {
                let (x, y) = (4.0 * r.next(), 4.0 * r.next());
                Aabb::new(x, y, x + 0.1 + 2.0 * r.next(), y + 0.1 + 2.0 * r.next())
            };
            let (a, b) = (aabb(), aabb());
            let Some(c) = aabb_aabb::contact_reference(&a, &b) else {
                continue;
            };
            let (fa, fb) = (
                bytemuck::cast_slice(core::slice::from_ref(&a)),
                bytemuck::cast_slice(core::slice::from_ref(&b)),
            );
            let contact = [c.normal[0], c.normal[1], c.depth];
            let fast = build::<f32, Aabb, Aabb, 4, 4>(fa, fb, contact, true);
            let general = faces::<f32, Plain<Aabb>, Plain<Aabb>, 4, 4>(fa, fb, contact).finite();
            same(&fast, &general, &format!("{a:?} {b:?}"));
            tested += 1;
        }
        assert!(tested > 3_000, "only {tested} overlapping pairs");
    }

    /// The box path and the general one on `a` and `b` (contact `c`): `None` where they do not
    /// overlap, `Some(false)` where the reference face is not clear (not compared).
    fn compare<A, B>(a: &A, b: &B, c: Option<crate::Contact>, what: &str) -> Option<bool>
    where
        A: Outlined + bytemuck::Pod,
        B: Outlined + bytemuck::Pod,
    {
        let c = c?;
        let fa = bytemuck::cast_slice::<A, f32>(core::slice::from_ref(a));
        let fb = bytemuck::cast_slice::<B, f32>(core::slice::from_ref(b));
        if !clear_reference::<A, B>(fa, fb, c.normal) {
            return Some(false);
        }
        let contact = [c.normal[0], c.normal[1], c.depth];
        let fast = build::<f32, A, B, 4, 4>(fa, fb, contact, true);
        let general = faces::<f32, Plain<A>, Plain<B>, 4, 4>(fa, fb, contact);
        same(&fast, &general.finite(), what);
        Some(true)
    }

    #[test]
    fn boxes_by_their_frames_are_the_face_searches() {
        let mut r = Rng(11);
        let obb = |r: &mut Rng| {
            let (x, y) = (3.0 * r.next(), 3.0 * r.next());
            Obb::new(x, y, 0.1 + r.next(), 0.1 + r.next(), 6.3 * r.next())
        };
        let (mut tested, mut clear) = (0, 0);
        for k in 0..40_000 {
            let b = obb(&mut r);
            let what = format!("pair {k}");
            let compared = if k % 2 == 0 {
                let a = obb(&mut r);
                compare(&a, &b, obb_obb::contact_reference(&a, &b), &what)
            } else {
                let (x, y) = (3.0 * r.next(), 3.0 * r.next());
                let a = Aabb::new(x, y, x + 0.2 + 2.0 * r.next(), y + 0.2 + 2.0 * r.next());
                compare(&a, &b, aabb_obb::contact_reference(&a, &b), &what)
            };
            tested += usize::from(compared.is_some());
            clear += usize::from(compared == Some(true));
        }
        assert!(
            clear > tested / 2 && tested > 5_000,
            "{clear} of {tested} compared"
        );
    }
}

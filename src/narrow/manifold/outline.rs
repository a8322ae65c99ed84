//! Each shape as a convex outline grown by a radius, and the searches over it: its support
//! along a direction, its face most (or least) aligned with one.

use super::frame::{Axes, Frame};
use crate::lanes::Lane;
use crate::shape::{Aabb, Capsule, Circle, MAX_VERTICES, Obb, Point, Polygon};

/// A shape as a convex outline of `N` vertices, counter-clockwise, grown by a radius.
#[derive(Clone, Copy)]
pub(crate) struct Outline<L, const N: usize> {
    pub(crate) x: [L; N],
    pub(crate) y: [L; N],
    pub(crate) r: L,
    /// Each edge's unit outward normal `(ey, -ex) / |e|` (NaN for a zero-length edge), computed
    /// once for the searches below.
    pub(crate) mx: [L; N],
    pub(crate) my: [L; N],
}

/// A shape kind's outline from its fields (as the lane columns or the scalar shape's `f32`s).
pub(crate) trait Outlined {
    /// Number of vertices of the outline.
    const N: usize;
    /// The outline of the shape whose fields are `f` (`size_of::<Self>() / 4` of them), as
    /// vertex coordinates `x`, `y` (`N` each) and the radius.
    fn outline<L: Lane>(f: &[L], x: &mut [L], y: &mut [L]) -> L;
    /// Whether the kind is an axis-aligned box, whose fields are `[min_x, min_y, max_x, max_y]`
    /// (two of them take [`aabbs`](super::frame::aabbs), a few operations instead of the face
    /// searches).
    const ALIGNED_BOX: bool = false;
    /// For a box (four vertices, edges along two perpendicular axes): the direction of its
    /// first edge, not necessarily unit, from which all four edge normals follow with one
    /// square root instead of one per edge. `None` for the other kinds.
    #[inline(always)]
    fn axis<L: Lane>(_f: &[L]) -> Option<(L, L)> {
        None
    }
    /// For a box: its [`Frame`] (centre, unit axes, half extents), from which two boxes' manifold
    /// takes [`framed`](super::frame::framed), a few dozen operations instead of the face searches.
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
        let [centre, half] = centre_and_half(f);
        Some(Frame::new(centre, half, (L::splat(1.0), L::splat(0.0))))
    }
    #[inline(always)]
    fn outline<L: Lane>(f: &[L], x: &mut [L], y: &mut [L]) -> L {
        let (lo_x, lo_y, hi_x, hi_y) = (f[0], f[1], f[2], f[3]);
        x.copy_from_slice(&[lo_x, hi_x, hi_x, lo_x]);
        y.copy_from_slice(&[lo_y, lo_y, hi_y, hi_y]);
        L::splat(0.0)
    }
}

/// An axis-aligned box's centre and half extents from its fields `[min_x, min_y, max_x,
/// max_y]`.
#[inline(always)]
pub(crate) fn centre_and_half<L: Lane>(f: &[L]) -> [(L, L); 2] {
    let (lo_x, lo_y, hi_x, hi_y) = (f[0], f[1], f[2], f[3]);
    let half = L::splat(0.5);
    [
        ((lo_x + hi_x) * half, (lo_y + hi_y) * half),
        ((hi_x - lo_x) * half, (hi_y - lo_y) * half),
    ]
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
    /// The unit axes of this outline as a box whose first edge runs along `(ux, uy)`.
    #[inline(always)]
    pub(super) fn axes(&self, u: (L, L)) -> Axes<L> {
        let (zero, nan) = (L::splat(0.0), L::splat(f32::NAN));
        let flat = |k: usize| {
            let (x2, y2) = self.next(k);
            L::select(
                (x2 - self.x[k]).eq(zero) & (y2 - self.y[k]).eq(zero),
                nan,
                zero,
            )
        };
        Axes::unit(u, [flat(0), flat(1)])
    }

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
    pub(crate) fn with_normals(mut self) -> Self {
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
    pub(super) fn with_axis(mut self, u: (L, L)) -> Self {
        let normals = self.axes(u).normals();
        for (k, (mx, my)) in normals.into_iter().enumerate() {
            (self.mx[k], self.my[k]) = (mx, my);
        }
        self
    }

    /// The outline of kind `S` with its edge normals: from its axis for a box, else edge by
    /// edge.
    #[inline(always)]
    pub(crate) fn with_normals_of<S: Outlined>(self, f: &[L]) -> Self {
        match S::axis(f) {
            Some(u) if N == 4 => self.with_axis(u),
            _ => self.with_normals(),
        }
    }

    /// `when ? self : other`, lane by lane, for an outline of as many vertices (`M == N`).
    #[inline(always)]
    pub(super) fn pick<const M: usize>(self, when: L::Mask, other: &Outline<L, M>) -> Self {
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
    pub(crate) fn next(&self, k: usize) -> (L, L) {
        let j = if k + 1 == N { 0 } else { k + 1 };
        (self.x[j], self.y[j])
    }

    /// The deepest point of a contact `[nx, ny, depth]` from `a`'s side (this is `a`): its
    /// support along `n` moved out by its radius to its boundary, then `depth/2` back.
    #[inline(always)]
    pub(super) fn deepest_from_a(&self, [nx, ny, depth]: [L; 3]) -> (L, L) {
        let (sx, sy) = self.support(nx, ny);
        let out = self.r - depth * L::splat(0.5);
        (sx + out * nx, sy + out * ny)
    }

    /// The same from `b`'s side (this is `b`): its support along `-n` moved in by its radius,
    /// then `depth/2` on along `n`.
    #[inline(always)]
    pub(super) fn deepest_from_b(&self, [nx, ny, depth]: [L; 3]) -> (L, L) {
        let zero = L::splat(0.0);
        let (sx, sy) = self.support(zero - nx, zero - ny);
        let back = depth * L::splat(0.5) - self.r;
        (sx + back * nx, sy + back * ny)
    }

    /// The support vertex along `(dx, dy)`: the largest `d·v`, the first of equal ones.
    #[inline(always)]
    pub(super) fn support(&self, dx: L, dy: L) -> (L, L) {
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
    pub(super) fn face(&self, dx: L, dy: L, most: bool) -> Face<L> {
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

/// An edge found by [`Outline::face`].
#[derive(Clone, Copy)]
pub(super) struct Face<L> {
    pub(super) cos: L,
    pub(super) index: L,
    pub(super) x1: L,
    pub(super) y1: L,
    pub(super) x2: L,
    pub(super) y2: L,
    pub(super) mx: L,
    pub(super) my: L,
}

impl<L: Lane> Face<L> {
    /// `when ? a : b`, field by field.
    #[inline(always)]
    pub(super) fn pick(when: L::Mask, a: Self, b: Self) -> Self {
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

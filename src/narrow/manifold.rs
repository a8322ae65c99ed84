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
//! most [`ALIGNED`] (only rounding: the contact took `n` from that face). The incident edge is the other shape's edge whose outward normal is most
//! opposed to the reference face's (smallest cosine, the first of equal ones). It is clipped to
//! the reference face's side lines (the parameter along the face's tangent kept between its two
//! vertices); each clipped end `c`, moved to the incident surface (by the incident radius along
//! the incident face's unit outward normal: a capsule's flat side), has depth `m·(v₁ - q) +
//! r_ref` below the reference surface (unit outward normal `m`, first vertex `v₁`), and is a
//! point where that is `>= 0`, placed from that surface point by `depth/2` along `±n` to
//! midway. The deeper point (the first of equal ones) takes the
//! contact's depth exactly, the other at most that. If no end penetrates (rounding, at depth
//! about 0), or the deepest end is not within [`REACHED`] of the contact's depth (the side lines
//! cut off the deepest feature, as for two crossing capsules), the one deepest point instead.
//! Coordinates that come out NaN (infinite sizes) are reported as 0.

use crate::lanes::Lane;
use crate::shape::{Aabb, Capsule, Circle, MAX_VERTICES, Obb, Point, Polygon};

/// How much closer to `n` `b`'s face normal must be than `a`'s (in the sine of the angle
/// between them) to be the reference face: a rounding tie goes to `a`.
pub(crate) const PREFER_A: f32 = 1e-6;
/// The largest sine of the angle between `n` and a face's normal for `n` to be that face's: the
/// rounding of a normal computed from vertices or a rotation is about 1e-7, but a normal taken
/// along the offset between nearest points (a vertex just off a capsule's flat side) is off by
/// up to the coordinates' rounding over that distance, 1e-5 and more. A point placed with `n`
/// off the face by this angle moves by at most that share of its depth.
pub(crate) const ALIGNED: f32 = 1e-3;
/// How far (relative to `1 + depth`) the deepest clipped end may be from the contact's depth for
/// the clipped face to describe the contact (else the one deepest point): where the reference
/// face's side lines cut off the deepest feature (two crossing capsules), the clip does not
/// reach the contact's depth.
pub(crate) const REACHED: f32 = 1e-4;

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

    /// Vertex `k + 1`, wrapping around.
    #[inline(always)]
    fn next(&self, k: usize) -> (L, L) {
        let j = if k + 1 == N { 0 } else { k + 1 };
        (self.x[j], self.y[j])
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
    #[inline(always)]
    fn finite(self) -> Self {
        let zero = L::splat(0.0);
        let f = |v: L| L::select(v.eq(v), v, zero);
        Self {
            x: self.x.map(f),
            y: self.y.map(f),
            ..self
        }
    }

    /// Every lane zero where `hit` is clear.
    #[inline(always)]
    fn masked(self, hit: L::Mask) -> Self {
        let zero = L::splat(0.0);
        let z = |v: L| L::select(hit, v, zero);
        Self {
            nx: z(self.nx),
            ny: z(self.ny),
            x: self.x.map(z),
            y: self.y.map(z),
            depth: self.depth.map(z),
            id: self.id.map(z),
            count: z(self.count),
        }
    }
}

/// The manifold of `a` (kind `A`, fields `fa`) and `b` (kind `B`, fields `fb`) whose contact is
/// `[nx, ny, depth]` where `hit` (see the module docs); zero elsewhere. Not inlined: one call
/// per lane block, and its body is large.
#[inline(never)]
pub(crate) fn build<L: Lane, A: Outlined, B: Outlined, const NA: usize, const NB: usize>(
    fa: &[L],
    fb: &[L],
    [nx, ny, depth]: [L; 3],
    hit: L::Mask,
) -> ManifoldLanes<L> {
    let (a, b) = (Outline::<L, NA>::of::<A>(fa), Outline::<L, NB>::of::<B>(fb));
    let (zero, half) = (L::splat(0.0), L::splat(0.5));
    // The one deepest point, from `a`'s support along `n` or `b`'s along `-n`.
    let from_a_support = || {
        let (sx, sy) = a.support(nx, ny);
        let out = a.r - depth * half;
        (sx + out * nx, sy + out * ny)
    };
    let from_b_support = || {
        let (sx, sy) = b.support(zero - nx, zero - ny);
        let back = depth * half - b.r;
        (sx + back * nx, sy + back * ny)
    };
    let single = |(px, py): (L, L)| ManifoldLanes {
        nx,
        ny,
        x: [px, zero],
        y: [py, zero],
        depth: [depth, zero],
        id: [zero, zero],
        count: L::splat(1.0),
    };
    if NA == 1 {
        return single(from_a_support()).finite().masked(hit);
    }
    if NB == 1 {
        return single(from_b_support()).finite().masked(hit);
    }
    // Both have faces: the reference face and the incident edge, either way round.
    let (a, b) = (a.with_normals(), b.with_normals());
    let fa_ = a.face(nx, ny, true);
    let fb_ = b.face(zero - nx, zero - ny, true);
    // Alignment by the sine of the angle to `n` (`|m × n|`, linear in the angle where the
    // cosine is flat): the reference face is the closer one, `a`'s on a rounding tie.
    let sin_a = (fa_.mx * ny - fa_.my * nx).abs();
    let sin_b = (fb_.mx * ny - fb_.my * nx).abs();
    let from_a = sin_a.le(sin_b + L::splat(PREFER_A));
    let inc_b = b.face(fa_.mx, fa_.my, false);
    let inc_a = a.face(fb_.mx, fb_.my, false);
    let reference = Face::pick(from_a, fa_, fb_);
    let incident = Face::pick(from_a, inc_b, inc_a);
    let aligned = L::select(from_a, sin_a, sin_b).le(L::splat(ALIGNED));
    let (r_ref, r_inc) = (L::select(from_a, a.r, b.r), L::select(from_a, b.r, a.r));
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
    let clip = |s: L, other: L, x: L, y: L, toward: f32| {
        let sigma = s.pmax(zero).pmin(tt);
        let lambda = L::select(s.eq(other), zero, (sigma - s) / (other - s));
        let k = lambda * L::splat(toward);
        (x + k * dx, y + k * dy)
    };
    let surface = [clip(s1, s2, w1x, w1y, 1.0), clip(s2, s1, w2x, w2y, -1.0)];
    // Each end's depth below the reference surface.
    let d = surface.map(|(qx, qy)| {
        reference.mx * (reference.x1 - qx) + reference.my * (reference.y1 - qy) + r_ref
    });
    let keep = [spans & d[0].ge(zero), spans & d[1].ge(zero)];
    // The deeper kept point takes the contact's depth (the first of equal ones).
    let first_deeper = keep[0] & !(keep[1] & d[1].gt(d[0]));
    let second_deeper = keep[1] & !first_deeper;
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
    let base = L::select(from_a, zero, L::splat(128.0))
        + reference.index * L::splat(16.0)
        + incident.index * L::splat(2.0);
    let ids = [base, base + L::splat(1.0)];
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
    let reached = (L::select(keep[0], d[0], zero).pmax(L::select(keep[1], d[1], zero)) - depth)
        .abs()
        .le(L::splat(REACHED) * (L::splat(1.0) + depth));
    let faced = aligned & (keep[0] | keep[1]) & reached;
    // One point: where `n` is nearer `a`'s face normal than `b`'s, `b`'s support is the
    // deepest feature (`a`'s support along `n` is a face, or the nearest point of one), and the
    // other way round.
    let ((ax_, ay_), (bx_, by_)) = (from_a_support(), from_b_support());
    let b_side = from_a;
    let single = single((L::select(b_side, bx_, ax_), L::select(b_side, by_, ay_)));
    let pick = |p: L, q: L| L::select(faced, p, q);
    ManifoldLanes {
        nx,
        ny,
        x: [pick(clipped.x[0], single.x[0]), pick(clipped.x[1], zero)],
        y: [pick(clipped.y[0], single.y[0]), pick(clipped.y[1], zero)],
        depth: [
            pick(clipped.depth[0], single.depth[0]),
            pick(clipped.depth[1], zero),
        ],
        id: [pick(clipped.id[0], zero), pick(clipped.id[1], zero)],
        count: pick(clipped.count, one),
    }
    .finite()
    .masked(hit)
}

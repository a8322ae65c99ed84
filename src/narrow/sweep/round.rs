//! Round pieces: the first touch of two outlines, one of them or both grown by a radius, apart
//! at the start (see the module docs). With `r = ra + rb`, `a` moving by `t m`:
//!
//! - edge `k` of `a` (unit outward normal `u`, unit tangent `e = (-uy, ux)`, length `len`) and
//!   a vertex `q` of `b` nearest to its line (`b`'s support along `-u`): `q`'s distance from the edge's line, `u · (q - v_k) - t (u · m)`, reaches
//!   `r` at `t = (u · (q - v_k) - r) / (u · m)` (0 if it is within `r` already), for a closing
//!   `u · m > 0` and `q` on the outer side; a touch if the foot `e · (q - v_k - t m)` lies in
//!   `[0, len]`. Normal `u`.
//! - vertex `p` of `a` and edge `k` of `b` (outward normal `w`): the same with the roles
//!   exchanged, `p` moving towards the edge; normal `-w`.
//! - vertex `p` of `a` and vertex `q` of `b`, `d = q - p`: `|d - t m| = r` at the smaller root of
//!   `(m·m) t² - 2 (m·d) t + (d·d - r²)`, `t = c / (b + √(b² - a·c))` with `a = m·m`, `b = m·d`,
//!   `c = d·d - r²`, the discriminant as `a·r² - (m × d)²` (0 if `c <= 0`: within reach
//!   already), for a closing `m · d > 0`. Normal `d - t m` normalised once for the winner,
//!   where it is about as long as the radii; else (no radius, where that offset is rounding
//!   noise) the motion's direction.
//!
//! Against a capsule's segment (the other outline of more than one vertex), each vertex of
//! the other outline is paired with one end only: the one it can meet first (see [`Ends`]),
//! eight discs instead of sixteen for a polygon.
//!
//! Each piece lies inside the rounded Minkowski difference and together they cover its
//! boundary, so the earliest of them is the first touch. Edges are taken before vertices and a
//! vertex pair wins only where strictly earlier: two faces' contacts and a face's end meet at
//! the same time, and the face gives the normal. A vertex pair that the motion only grazes
//! (its normal at contact square to the motion, or turned away from it by rounding; with no
//! radius, a pair whose vertices are not each the farthest of its shape along the motion,
//! within 2⁻¹⁸ of the projections) is no hit, as sliding along is none at the start.

use super::Toi;
use crate::lanes::{Lane, select_each};
use crate::narrow::lowest;
use crate::narrow::manifold::Outline;

/// The earliest face contact so far: at `t` along `(nx, ny)`, closing at `s` (for ties).
pub(super) struct Face<L> {
    t: L,
    nx: L,
    ny: L,
    s: L,
}

impl<L: Lane> Face<L> {
    /// None yet.
    #[inline(always)]
    pub(super) fn none() -> Self {
        let (zero, one) = (L::splat(0.0), L::splat(1.0));
        Self {
            t: L::splat(f32::INFINITY),
            nx: one,
            ny: zero,
            s: zero,
        }
    }

    /// Takes a touch at `t` along `(nx, ny)` closing at `s` where `ok` and it is earlier, or as
    /// early and closing faster (more opposed to the motion).
    #[inline(always)]
    pub(super) fn offer(&mut self, ok: L::Mask, t: L, nx: L, ny: L, s: L) {
        let take = ok & (t.lt(self.t) | (t.eq(self.t) & s.gt(self.s)));
        let old = [self.t, self.nx, self.ny, self.s];
        [self.t, self.nx, self.ny, self.s] = select_each(take, [t, nx, ny, s], old);
    }
}

/// The smallest of `reach`: the other outline's support distance from an edge's line. Only a
/// vertex at that distance (the same value, computed the same way) may touch the edge's band:
/// the other outline then lies wholly beyond the line, so the edge's normal is a normal the
/// two touch along. A vertex farther off whose band contact is the earliest would meet the
/// edge near its end, where the arc at the edge's end (a vertex pair) or the other outline's
/// band decides instead.
#[inline(always)]
fn support<L: Lane, const N: usize>(reach: &[L; N]) -> L {
    let mut low = reach[0];
    for &r in &reach[1..] {
        low = low.pmin(r);
    }
    low
}

/// How fast the motion `m` of `a` closes the gap beyond an edge of `p` with outward normal
/// `u` (`p` is `b` where `of_b`): `u · m` for `a`'s edges, `-(u · m)` for `b`'s. Positive for
/// an edge that the motion closes.
#[inline(always)]
fn closing<L: Lane>((ux, uy): (L, L), (mx, my): (L, L), of_b: bool) -> L {
    let s = ux * mx + uy * my;
    if of_b { L::splat(0.0) - s } else { s }
}

/// The bands of `p`'s edges against `q`'s vertices for a motion `m` of `a` (`p` is `b` where
/// `of_b`: then `a`'s vertex closes on the edge at `-(w · m)`, slides along it at `e · m`, and
/// the normal from `a` to `b` is `-w`). Where `paired` (a box, a capsule's segment), edge
/// `k + NP/2` is edge `k`'s opposite and only the one of the two that the motion closes (`s > 0`)
/// can touch: it alone is taken, the other's bands could never be.
#[inline(always)]
fn edges<L: Lane, const NP: usize, const NQ: usize>(
    face: &mut Face<L>,
    p: &Outline<L, NP>,
    q: &Outline<L, NQ>,
    (mx, my): (L, L),
    r: L,
    of_b: bool,
    paired: bool,
) -> Option<Ends<L, NQ>> {
    if NP == 1 {
        return None;
    }
    let (zero, one) = (L::splat(0.0), L::splat(1.0));
    let closing = |u: (L, L)| closing(u, (mx, my), of_b);
    debug_assert!(
        !paired || NP.is_multiple_of(2),
        "opposite edges come in pairs"
    );
    let half = if paired { NP / 2 } else { NP };
    for k in 0..half {
        let (mut u, mut start, mut end) = ((p.mx[k], p.my[k]), (p.x[k], p.y[k]), p.next(k));
        if half < NP {
            let o = k + half;
            let this = closing(u).gt(zero);
            let pick =
                |x: (L, L), y: (L, L)| (L::select(this, x.0, y.0), L::select(this, x.1, y.1));
            u = pick(u, (p.mx[o], p.my[o]));
            start = pick(start, (p.x[o], p.y[o]));
            end = pick(end, p.next(o));
        }
        let len = u.0 * (end.1 - start.1) - u.1 * (end.0 - start.0);
        let s = closing(u);
        let tm = u.0 * my - u.1 * mx;
        let tm = if of_b { zero - tm } else { tm };
        let inv_s = one / s;
        let reach: [L; NQ] =
            core::array::from_fn(|j| u.0 * (q.x[j] - start.0) + u.1 * (q.y[j] - start.1));
        let low = support(&reach);
        // Every vertex at the support distance reaches `r` from the line at the same time; a
        // touch where the foot of one of them then lies on the edge.
        let t = zero.pmax(low - r) * inv_s;
        let mut on = zero.lt(zero);
        for (j, &reach) in reach.iter().enumerate() {
            let (dx, dy) = (q.x[j] - start.0, q.y[j] - start.1);
            let foot = (u.0 * dy - u.1 * dx) - t * tm;
            on = on | (reach.le(low) & foot.ge(zero) & foot.le(len));
        }
        let n = if of_b { (zero - u.0, zero - u.1) } else { u };
        face.offer(on & s.gt(zero) & low.ge(zero), t, n.0, n.1, s);
        if paired && NP == 2 && NQ > 1 {
            // A capsule's segment: which of its ends each vertex of `q` can meet first (one
            // vertex: both ends measured as fast).
            let before = core::array::from_fn(|j| {
                let (dx, dy) = (q.x[j] - start.0, q.y[j] - start.1);
                let closes = s.gt(zero) & reach[j].gt(r);
                let t = L::select(closes, (reach[j] - r) * inv_s, zero);
                ((u.0 * dy - u.1 * dx) - t * tm).lt(zero)
            });
            return Some(Ends { start, end, before });
        }
    }
    None
}

/// The ends of a capsule's segment, `start` and `end` along the edge that the motion closes,
/// and for each vertex of the other outline whether it can meet only the end at `start`
/// (`before`) or only the one at `end`: a vertex that meets an end first crosses the line
/// `r` off the segment (the band's outer side) beyond that end, or is within `r` of the line
/// already, beyond that end; it reaches the other end only through the band or the first
/// end's disc, which cover the strip between them. Where the motion is parallel to the
/// segment (no edge closes) the vertex's place now decides, as it then only moves along.
pub(super) struct Ends<L: Lane, const N: usize> {
    start: (L, L),
    end: (L, L),
    before: [L::Mask; N],
}

impl<L: Lane, const N: usize> Ends<L, N> {
    /// The end that vertex `j` can meet first.
    #[inline(always)]
    fn of(&self, j: usize) -> (L, L) {
        let before = self.before[j];
        (
            L::select(before, self.start.0, self.end.0),
            L::select(before, self.start.1, self.end.1),
        )
    }
}

/// The vertices of `p` that may meet the other outline during the motion `m` of `a` (`p` is `b`
/// where `of_b`), and how many: those on an edge that the motion closes (see [`closing`]). A
/// vertex pair touches along a normal `w` with `w · m > 0` that lies in each vertex's cone of
/// edge normals, so one of the vertex's edges closes. Only a box's back corner (where `paired` and four vertices: on neither slab's closing edge) is left out;
/// the first three slots then hold the other three, else every vertex in place.
#[inline(always)]
fn front<L: Lane, const N: usize>(
    p: &Outline<L, N>,
    (mx, my): (L, L),
    of_b: bool,
    paired: bool,
) -> ([L; N], [L; N], usize) {
    if !(paired && N == 4) {
        return (p.x, p.y, N);
    }
    let closes = |k: usize| closing((p.mx[k], p.my[k]), (mx, my), of_b).gt(L::splat(0.0));
    // Edge 0 (vertices 0, 1) or its opposite 2 (2, 3); edge 1 (1, 2) or its opposite 3 (3, 0):
    // the two closing edges share a corner, and the third vertex is the second edge's other one.
    let (first, second) = (closes(0), closes(1));
    let pick = |v: &[L; N]| {
        let third = L::select(
            second,
            L::select(first, v[2], v[1]),
            L::select(first, v[3], v[0]),
        );
        let mut out = *v;
        out[..3].copy_from_slice(&[
            L::select(first, v[0], v[2]),
            L::select(first, v[1], v[3]),
            third,
        ]);
        out
    };
    (pick(&p.x), pick(&p.y), 3)
}

/// The earliest of the round pieces (see the module docs).
#[inline(always)]
pub(super) fn first<L: Lane, const NA: usize, const NB: usize>(
    a: &Outline<L, NA>,
    b: &Outline<L, NB>,
    mx: L,
    my: L,
    paired: [bool; 2],
) -> Toi<L> {
    let r = a.r + b.r;
    let mut face = Face::none();
    let a_ends = edges(&mut face, a, b, (mx, my), r, false, paired[0]);
    let b_ends = edges(&mut face, b, a, (mx, my), r, true, paired[1]);
    // Only vertices on an edge that the motion closes can meet: a box's back corner is left
    // out where that saves more than one pair (against one vertex, picking the other three
    // measured slower than the fourth pair).
    let mm = mx * mx + my * my;
    let (ax, ay, na) = front(a, (mx, my), false, paired[0] && NB > 1);
    let (bx, by, nb) = front(b, (mx, my), true, paired[1] && NA > 1);
    let mut root = Root::new((mx, my), mm, r);
    if let Some(ends) = b_ends {
        // `b` a capsule: one end a vertex of `a` (every vertex in place: `front` picks only
        // among a box's, which takes `boxed.rs`).
        debug_assert_eq!(na, NA, "the ends are chosen vertex by vertex");
        for i in 0..na {
            let (ex, ey) = ends.of(i);
            root.offer((ex - ax[i], ey - ay[i]));
        }
    } else if let Some(ends) = a_ends {
        // `a` a capsule: one end a vertex of `b`.
        debug_assert_eq!(nb, NB, "the ends are chosen vertex by vertex");
        for j in 0..nb {
            let (ex, ey) = ends.of(j);
            root.offer((bx[j] - ex, by[j] - ey));
        }
    } else {
        for i in 0..na {
            for j in 0..nb {
                root.offer((bx[j] - ax[i], by[j] - ay[i]));
            }
        }
    }
    let (mut high, low) = (mx * a.x[0] + my * a.y[0], lowest(mx, my, &b.x, &b.y));
    for i in 1..NA {
        high = high.pmax(mx * a.x[i] + my * a.y[i]);
    }
    settle(&face, &root, (mx, my), r, [low, high])
}

/// A vertex pair's disc, the earliest so far: its root `num / den` (`den > 0`; `num`
/// infinite where none) and the pair's offset `(px, py)` from `a`'s vertex to `b`'s.
///
/// The root's products of two lengths (`m · d`, `m × d`, `d·d - r²`, `m·m`, `r²`) are taken
/// times `k`, the power of two that brings the larger of `m·m` and `r²` to `[1, 2)`, so that
/// its products of four (`m·m · r²`, `(m × d)²`, the fractions' comparison) neither under- nor
/// overflow for lengths from about 1e-19 to 1e19 (unscaled, from about 1e-9 to 1e9). A power
/// of two is exact to multiply by: where nothing under- or overflows, the same bits as
/// unscaled, and the root itself (a ratio) is not scaled. From `m·m` or `r²` of `2^127` on
/// (lengths beyond about 1.3e19) `k` is 0 and no disc is taken: a miss, never a false touch.
pub(super) struct Root<L> {
    num: L,
    den: L,
    px: L,
    py: L,
    /// The scale `k`, the motion times `k`, `r²` times `k` and `m·m · r²` times `k²`.
    k: L,
    mk: (L, L),
    rr: L,
    mmrr: L,
}

impl<L: Lane> Root<L> {
    /// None yet, for the motion `m` (`mm = m·m`) and the radii `r`.
    #[inline(always)]
    pub(super) fn new((mx, my): (L, L), mm: L, r: L) -> Self {
        let zero = L::splat(0.0);
        let rr = r * r;
        let k = mm.pmax(rr).inverse_power();
        let (mm, rr) = (mm * k, rr * k);
        Self {
            num: L::splat(f32::INFINITY),
            den: L::splat(1.0),
            px: zero,
            py: zero,
            k,
            mk: (mx * k, my * k),
            rr,
            mmrr: mm * rr,
        }
    }

    /// The disc of the pair with offset `(dx, dy)`, taken where the motion closes on it
    /// (`m · d > 0`) and reaches it strictly earlier. The discriminant is taken as
    /// `a·r² - (m × d)²` (equal to `b² - a·c`), whose cross product is accurate where `m`
    /// and `d` are nearly parallel: two points (`r = 0`) meet only where it is exactly 0. The
    /// root is compared as the fraction `num / den`, divided once for the earliest.
    #[inline(always)]
    pub(super) fn offer(&mut self, (dx, dy): (L, L)) {
        let zero = L::splat(0.0);
        let (mx, my) = self.mk;
        let md = mx * dx + my * dy;
        let cross = mx * dy - my * dx;
        let c = (dx * dx + dy * dy) * self.k - self.rr;
        let disc = self.mmrr - cross * cross;
        let (n, d) = (zero.pmax(c), md + zero.pmax(disc).sqrt());
        let take = md.gt(zero) & disc.ge(zero) & (n * self.den).lt(self.num * d);
        [self.num, self.den, self.px, self.py] =
            select_each(take, [n, d, dx, dy], [self.num, self.den, self.px, self.py]);
    }
}

/// The first touch from the earliest face contact and the earliest vertex pair, for a motion
/// `m` of `a` with the radii `r`, and the extents along the motion `[low, high]`: the least
/// `m · q` over `b`'s vertices and the greatest `m · p` over `a`'s. A vertex pair wins only
/// where strictly earlier. A vertex pair touched only in passing, the motion square to the
/// normal (or, by rounding, turned away from it), is a graze: like sliding along, no hit.
/// Where the normal is the motion's direction (two vertices meeting with no radius), it must
/// be one along which the two touch: each vertex the farthest of its shape along it (within
/// rounding); otherwise the vertices met in passing, a graze too.
#[inline(always)]
pub(super) fn settle<L: Lane>(
    face: &Face<L>,
    root: &Root<L>,
    (mx, my): (L, L),
    r: L,
    [low, high]: [L; 2],
) -> Toi<L> {
    let (zero, one) = (L::splat(0.0), L::splat(1.0));
    let vt = root.num / root.den;
    let (wx, wy) = (root.px - vt * mx, root.py - vt * my);
    let vertex = vt.lt(face.t);
    let (nx, ny, closing) = vertex_normal(wx, wy, mx, my, r);
    let t = L::select(vertex, vt, face.t);
    let travel = vt * (mx * mx + my * my);
    let apart = low - high - travel;
    let slack = (low.abs() + high.abs() + travel.abs()) * L::splat(1.0 / 262_144.0);
    let along = closing | apart.ge(zero - slack);
    let grazes = vertex & !((nx * mx + ny * my).gt(zero) & along);
    Toi {
        hit: t.le(one) & !grazes,
        t,
        nx: L::select(vertex, nx, face.nx),
        ny: L::select(vertex, ny, face.ny),
    }
}

/// A vertex pair's normal at contact from its offset there `(wx, wy)`: the offset normalised
/// where it is about as long as the radii `r` (at least half: at contact it is their sum); the
/// motion's direction elsewhere (no radius, where the offset is rounding noise). Also whether
/// it was the offset (`closing`).
#[inline(always)]
pub(super) fn vertex_normal<L: Lane>(wx: L, wy: L, mx: L, my: L, r: L) -> (L, L, L::Mask) {
    let (zero, one, inf) = (L::splat(0.0), L::splat(1.0), L::splat(f32::INFINITY));
    let w2 = wx * wx + wy * wy;
    let closing = r.gt(zero) & (w2 * L::splat(4.0)).ge(r * r) & w2.lt(inf);
    let (vx, vy) = (L::select(closing, wx, mx), L::select(closing, wy, my));
    // Scaled to a largest component of 1 first where a square could under- or overflow.
    let len2 = vx * vx + vy * vy;
    let plain = len2.gt(L::splat(1e-30)) & len2.lt(L::splat(1e30));
    let (vx, vy, len2) = if L::any(!plain) {
        let big = vx.abs().pmax(vy.abs());
        let (sx, sy) = (vx / big, vy / big);
        (
            L::select(plain, vx, sx),
            L::select(plain, vy, sy),
            L::select(plain, len2, sx * sx + sy * sy),
        )
    } else {
        (vx, vy, len2)
    };
    let inv = one / len2.sqrt();
    (vx * inv, vy * inv, closing)
}

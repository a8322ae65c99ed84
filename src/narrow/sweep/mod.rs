//! Sweeps for every pair kind, written once over [`Lane`]: shape `a` translated by `t · m`,
//! `t` in `[0, 1]`, against shape `b`, which stays. The reference (`f32`) and the kernels
//! (`f32x8`, `f32x16`) are the same operations, so the same bits.
//!
//! Each shape is its convex outline grown by a radius (the manifolds' [`Outline`]: a point or a
//! circle one vertex, a capsule its segment's two, a box its four corners, a polygon its eight
//! slots), both taken relative to `a`'s first vertex, so that the arithmetic is of shape-sized
//! numbers wherever the answer is in doubt.
//!
//! **Overlapping at the start** (the pair's overlap test, touching included): `t = 0` with the
//! pair's contact normal `n`, bit for bit, where `m · n > 0`; no hit otherwise (the motion
//! leaves or slides along). Two convex shapes cannot touch again later in one straight motion.
//! A pair the overlap test finds apart by a rounding, which the swept axes' own arithmetic
//! puts inside (every axis entered before the start), is answered the same way along the
//! axis of least overlap: `t = 0` where the motion closes along it, else no hit (it leaves or
//! slides along a face it touches within rounding), never a hit along an axis it is deep in.
//!
//! **Apart at the start**, the first touch:
//!
//! - *Two flat kinds* (points, boxes, polygons: no radius), [`sat`]: swept separating axes.
//!   On each edge normal `u` of either outline (pointing from `a` to `b`) the gap between the
//!   two projections is `g - t (u · m)`, linear in `t`; the two touch exactly when no gap is
//!   positive, so the first touch is the latest entry `g / (u · m)` over the approaching axes,
//!   if it comes before the earliest exit over the receding ones and no axis that separates
//!   the pair now recedes or stays. The normal is the entry axis's; of axes entering at the same
//!   time (a corner onto a corner), the one most opposed to the motion (largest `u · m`), then
//!   the first taken: `a`'s edges, then `b`'s. A box's opposite edges are one slab, taken in
//!   the order of its two axes: the other outline is projected on their normal once, and of a
//!   moving slab one side enters while the other exits.
//! - *A round kind* (a circle or a capsule on either side), [`round`]: the first contact of the
//!   motion with pieces that together cover the boundary of the rounded Minkowski difference
//!   and each lie inside it: for each edge of one outline and each vertex of the other that is
//!   its support (the nearest to the edge's line, so that the edge's normal separates the
//!   two), the band of points within the radii `r = ra + rb` of that edge on its outer side
//!   (first touched where the vertex's distance to the moving edge's line reaches `r`, if its
//!   foot then lies on the edge); and for each pair of vertices (each on an edge that the
//!   motion closes: a box's back corner never meets), the disc of radius `r` (the ray–circle
//!   root `c / (b + √(b² - a·c))`, the form without cancellation; against a capsule's
//!   segment only the end that the other vertex can meet first). The normal is
//!   the edge's, or the direction from `a`'s vertex to `b`'s at contact; faces win ties, then
//!   the one most opposed to the motion, then the first taken. Of a box's or a capsule
//!   segment's two opposite edges only the one the motion closes on has bands (the other's
//!   never touch), taken in the place of the first of the two.
//! - *A box and a circle or a capsule*, [`boxed`]: the same pieces in the box's frame, where
//!   the box's faces and corners are comparisons of coordinates, and of the vertex pairs only
//!   the one nearest to where the motion enters the pieces' mitred outline can be touched
//!   first: one disc solved instead of up to eight.
//! - *A point and a box*, [`point_box`]: the swept axes in the box's frame, where its two
//!   slabs are the frame's axes and the point's motion a ray against `[-h, h]`.
//! - *Two one-vertex kinds* (circles, a point and a circle), [`discs`]: that one disc, found
//!   in one pass with the start contact (one square root and two divisions a lane), its normal
//!   brought to unit length by a Newton step where that is exact to rounding.
//! - *Two polygons*: the swept axes of [`sat`] over the gaps and normals that
//!   `polygon_polygon`'s pass over the sixteen axes (relative to its midpoint) leaves, the
//!   pass that gives the start contact.
//!
//! **Bad data never hits**: every field and the motion finite, radii and half extents not
//! negative, bounds in order. Shapes with infinite coordinates (valid for the overlap tests)
//! are not swept: such a pair never hits. Coordinates and motions so large that squares
//! overflow (beyond about 1e19) answer no hit or a hit at the wrong time, never a panic. A
//! disc's root takes products of four lengths (`m·m · r²`, `(m × d)²`), in range unscaled
//! only for lengths from about 1e-9 to 1e9: the round pieces take its products of two lengths
//! times a power of two ([`round`]'s `Root`), and two one-vertex kinds ([`discs`]) scale a
//! lane outside that range first; both exact, so the bits are those of the unscaled pair
//! wherever nothing under- or overflows there.
//!
//! **No hit**: `t = 1` (the whole motion is free) and normal `(0, 0)`.

mod boxed;
mod discs;
mod point_box;
mod round;
mod sat;

use super::manifold::{Outline, Outlined, centre_and_half};
use super::{polygon_polygon, to_local};
use crate::lanes::{Lane, select_each};
use crate::shape::{Aabb, Capsule, Circle, MAX_VERTICES, Obb, Point, Polygon};

/// A shape kind as a sweep sees it: its outline (from [`Outlined`]), whether it is round, and
/// which of its fields are good data.
pub(crate) trait Swept: Outlined {
    /// Where the kind's radius is among its fields (a circle's or a capsule's), `None` for a
    /// kind without one. A radius must not be negative.
    const RADIUS: Option<usize> = None;
    /// Whether the kind has a radius: then its pairs take the round pieces, not the swept axes.
    const ROUND: bool = Self::RADIUS.is_some();
    /// Whether the kind's outline is one vertex (a point or a circle): two such kinds take
    /// `discs.rs`, one pass with their start contact.
    const ONE_VERTEX: bool = false;
    /// Whether the kind is a polygon: two polygons take their swept axes from their contact's
    /// pass over the axes.
    const POLYGON: bool = false;
    /// Whether the kind is a box (axis-aligned or oriented): against a circle or a capsule its
    /// pairs take the round pieces in the box's frame (`boxed.rs`).
    const BOX: bool = false;
    /// For a box: its centre and half extents, and its rotation `(cos, sin)` as stored where
    /// it has one (the frame of its overlap tests and contacts); `None` for the other kinds.
    #[inline(always)]
    fn box_frame<L: Lane>(_f: &[L]) -> Option<BoxFrame<L>> {
        None
    }
    /// Whether the kind's outline has its edges in opposite pairs, edge `k + N/2` edge `k`'s
    /// opposite (a box's four edges, a capsule segment's two): the swept axes take each pair as
    /// one slab, the round pieces only the edge of each pair that the motion closes on.
    const OPPOSED: bool = false;
    /// Whether the shape whose fields are `f` has its sizes in order (by default its radius not
    /// negative; half extents not negative; bounds in order); `None` for a kind without sizes.
    /// Every field finite is [`sweep_pair`]'s test, one for both shapes and the motion.
    #[inline(always)]
    fn sizes<L: Lane>(f: &[L]) -> Option<L::Mask> {
        Self::RADIUS.map(|k| f[k].ge(L::splat(0.0)))
    }
}

/// Whether every one of `parts`' values is finite, as far as a sweep needs: their sum is
/// finite exactly when each of them is and the sum does not overflow (beyond `f32::MAX`:
/// magnitudes far past the squares' overflow, which may miss anyway), and `x - x` is `+0` for
/// a finite `x`, NaN otherwise (one addition a value, one compare).
#[inline(always)]
#[allow(clippy::eq_op, reason = "x - x is the finiteness test")]
fn finite<L: Lane>(parts: &[&[L]]) -> L::Mask {
    let mut sum = parts[0][0];
    for (k, part) in parts.iter().enumerate() {
        for &x in &part[usize::from(k == 0)..] {
            sum = sum + x;
        }
    }
    (sum - sum).eq(L::splat(0.0))
}

impl Swept for Point {
    const ONE_VERTEX: bool = true;
}

impl Swept for Circle {
    const RADIUS: Option<usize> = Some(2);
    const ONE_VERTEX: bool = true;
}

impl Swept for Capsule {
    const RADIUS: Option<usize> = Some(4);
    const OPPOSED: bool = true;
}

/// A box as [`Swept::box_frame`] gives it: its centre, its half extents, and its rotation
/// `(cos, sin)` where it has one (its axes `u = (cos, sin)` and `v = (-sin, cos)`).
#[derive(Clone, Copy)]
pub(crate) struct BoxFrame<L> {
    pub(super) centre: (L, L),
    pub(super) half: (L, L),
    rotation: Option<(L, L)>,
}

impl<L: Lane> BoxFrame<L> {
    /// An offset or a motion `(dx, dy)` in the box's frame: `(d · u, d · v)`, as the box's
    /// overlap tests take it.
    #[inline(always)]
    pub(super) fn local(&self, dx: L, dy: L) -> (L, L) {
        match self.rotation {
            Some((cos, sin)) => to_local(dx, dy, cos, sin),
            None => (dx, dy),
        }
    }

    /// A direction `(x, y)` of the box's frame back in the world: `x u + y v`.
    #[inline(always)]
    pub(super) fn world(&self, x: L, y: L) -> (L, L) {
        match self.rotation {
            Some((cos, sin)) => (x * cos - y * sin, x * sin + y * cos),
            None => (x, y),
        }
    }
}

impl Swept for Aabb {
    const OPPOSED: bool = true;
    const BOX: bool = true;
    #[inline(always)]
    fn box_frame<L: Lane>(f: &[L]) -> Option<BoxFrame<L>> {
        let [centre, half] = centre_and_half(f);
        Some(BoxFrame {
            centre,
            half,
            rotation: None,
        })
    }
    #[inline(always)]
    fn sizes<L: Lane>(f: &[L]) -> Option<L::Mask> {
        Some(f[0].le(f[2]) & f[1].le(f[3]))
    }
}

impl Swept for Obb {
    const OPPOSED: bool = true;
    const BOX: bool = true;
    #[inline(always)]
    fn box_frame<L: Lane>(f: &[L]) -> Option<BoxFrame<L>> {
        Some(BoxFrame {
            centre: (f[0], f[1]),
            half: (f[2], f[3]),
            rotation: Some((f[4], f[5])),
        })
    }
    #[inline(always)]
    fn sizes<L: Lane>(f: &[L]) -> Option<L::Mask> {
        let zero = L::splat(0.0);
        Some(f[2].ge(zero) & f[3].ge(zero))
    }
}

impl Swept for Polygon {
    const POLYGON: bool = true;
}

/// Whether a batch sweeps kinds `A` and `B` two blocks at a time, as one
/// [`Twin`](crate::lanes::Twin), at `lanes` lanes a block: where that measured faster. Two
/// one-vertex kinds (`discs.rs`: one short chain through a square root and a division, whose
/// waits the other block fills) and the box-frame sweeps (`boxed.rs`) of a circle against a
/// box or a capsule against an axis-aligned one, at both widths; at eight lanes also a point
/// or a circle against a capsule. The longer sweeps (polygons, two boxes, an oriented box and
/// a capsule) hold more values than the registers do and ran slower twinned, or no faster.
pub(crate) const fn twinned<A: Swept, B: Swept>(lanes: usize) -> bool {
    let one_vertex = A::ONE_VERTEX || B::ONE_VERTEX;
    let short_round = one_vertex && (A::ROUND || B::ROUND) && !(A::POLYGON || B::POLYGON);
    let short_boxed = boxed::takes::<A, B>() && (one_vertex || A::ALIGNED_BOX || B::ALIGNED_BOX);
    (A::ONE_VERTEX && B::ONE_VERTEX) || short_boxed || (lanes <= 8 && short_round)
}

/// The first touch of two shapes apart at the start: where `hit`, at `t` along the unit
/// normal `(nx, ny)` from `a` to `b`.
#[derive(Clone, Copy)]
pub(super) struct Toi<L: Lane> {
    pub(super) hit: L::Mask,
    pub(super) t: L,
    pub(super) nx: L,
    pub(super) ny: L,
}

impl<L: Lane> Toi<L> {
    /// `when ? other : self`, lane by lane.
    #[inline(always)]
    fn pick(self, when: L::Mask, other: Self) -> Self {
        let [t, nx, ny] = select_each(
            when,
            [other.t, other.nx, other.ny],
            [self.t, self.nx, self.ny],
        );
        Self {
            hit: (when & other.hit) | (!when & self.hit),
            t,
            nx,
            ny,
        }
    }
}

/// Each edge's gap `g` and outward normal `(nx, ny)` (not unit), as two polygons' contact
/// pass leaves them for their swept axes: `[a's edges, b's edges]`, each `[g, nx, ny]` edge
/// by edge. A batch keeps one from block to block: every pass writes all of it before its
/// swept axes read it, and clearing it for each block cost 8 % of the sweep (Zen 4, 2026-11-29).
pub(crate) type Gaps<L> = [[[L; MAX_VERTICES]; 3]; 2];

/// A [`Gaps`] to start from (its values are never read before they are written).
#[inline(always)]
pub(crate) fn gaps<L: Lane>() -> Gaps<L> {
    [[[L::splat(0.0); MAX_VERTICES]; 3]; 2]
}

/// The sweep of `a` (kind `A`, fields `fa`) moving by `m` against `b` (kind `B`, fields `fb`):
/// [`sweep`] given the pair's overlap at the start and its contact normal there from
/// `contact()`, or, for two one-vertex kinds (circles, a point and a circle), their one pass
/// (`discs.rs`), which computes that contact itself. Two polygons leave their axes in `room`
/// between their two passes; the other kinds do not touch it.
#[inline(always)]
pub(crate) fn sweep_pair<L: Lane, A: Swept, B: Swept, const NA: usize, const NB: usize>(
    fa: &[L],
    fb: &[L],
    m: [L; 2],
    contact: impl FnOnce() -> (L::Mask, [L; 2]),
    room: &mut Gaps<L>,
) -> (L::Mask, [L; 3]) {
    if A::ONE_VERTEX && B::ONE_VERTEX {
        let radius = |at: Option<usize>, f: &[L]| at.map_or(L::splat(0.0), |k| f[k]);
        let convention = discs::Convention {
            toward: if A::ROUND && B::ROUND { 1.0 } else { -1.0 },
            from_a: !A::ROUND,
            reversed: A::ROUND && !B::ROUND,
        };
        return discs::single(
            [fa[0], fa[1], radius(A::RADIUS, fa)],
            [fb[0], fb[1], radius(B::RADIUS, fb)],
            m,
            convention,
        );
    }
    // What may be swept (the discs test it on their own values).
    let valid = [A::sizes(fa), B::sizes(fb)]
        .into_iter()
        .flatten()
        .fold(finite(&[fa, fb, &m]), |valid, sizes| valid & sizes);
    if A::POLYGON && B::POLYGON {
        return polygons(fa, fb, m, valid, room);
    }
    let (touching, normal) = contact();
    sweep::<L, A, B, NA, NB>(fa, fb, m, valid, touching, normal)
}

/// The sweep of `a` (kind `A`, fields `fa`) moving by `m` against `b` (kind `B`, fields `fb`),
/// `valid` where both kinds' fields and the motion may be swept, given the pair's overlap at
/// the start (`touching`) and its contact normal there (`normal`, read where `touching`): the
/// hit mask and `[t, nx, ny]`, `t = 1` and `(0, 0)` without a hit (see the module docs).
#[inline(always)]
fn sweep<L: Lane, A: Swept, B: Swept, const NA: usize, const NB: usize>(
    fa: &[L],
    fb: &[L],
    [mx, my]: [L; 2],
    valid: L::Mask,
    touching: L::Mask,
    [cx, cy]: [L; 2],
) -> (L::Mask, [L; 3]) {
    let apart = if boxed::takes::<A, B>() {
        boxed::first::<L, A, B, NA, NB>(fa, fb, (mx, my))
    } else if point_box::takes::<A, B>() {
        point_box::first::<L, A, B>(fa, fb, (mx, my), !touching)
    } else {
        let (a, b) = relative::<L, A, B, NA, NB>(fa, fb);
        if A::ROUND || B::ROUND {
            round::first(&a, &b, mx, my, [A::OPPOSED, B::OPPOSED])
        } else {
            let fast = sat::first::<L, false, NA, NB>(&a, &b, (mx, my), [A::OPPOSED, B::OPPOSED]);
            inside_within_rounding(touching, fast, || {
                watching::<L, A, B, NA, NB>(fa, fb, (mx, my))
            })
        }
    };
    answer(valid, touching, [cx, cy], [mx, my], apart)
}

/// The swept axes' first touch `apart` and the lanes that hit at the start by an entry before
/// it (`early`); where such a lane is one the overlap test found apart (not `touching`: inside
/// within rounding, rare), `watch()`'s answer for it (see [`sat::first`]), computed only in
/// a block that has one.
#[inline(always)]
fn inside_within_rounding<L: Lane>(
    touching: L::Mask,
    (apart, early): (Toi<L>, L::Mask),
    watch: impl FnOnce() -> Toi<L>,
) -> Toi<L> {
    let early = early & !touching;
    if L::any(early) {
        apart.pick(early, watch())
    } else {
        apart
    }
}

/// [`sat::first`] watching, from the shapes' fields, out of line: only a block with a lane inside
/// within rounding takes it, and inlined it crowded the registers of the pass every block
/// takes. Cold: a call the compiler took for a likely one made the loop around it keep less
/// in registers on every block (two boxes 15–19 % slower, Zen 4, 2026-11-29).
#[inline(never)]
#[cold]
fn watching<L: Lane, A: Swept, B: Swept, const NA: usize, const NB: usize>(
    fa: &[L],
    fb: &[L],
    m: (L, L),
) -> Toi<L> {
    let (a, b) = relative::<L, A, B, NA, NB>(fa, fb);
    sat::first::<L, true, NA, NB>(&a, &b, m, [A::OPPOSED, B::OPPOSED]).0
}

/// Two polygons: the start contact from `polygon_polygon`'s pass over the sixteen axes
/// (relative to its midpoint), which leaves each axis's gap and normal in `gaps` for the
/// swept axes, then [`answer`].
#[inline(always)]
fn polygons<L: Lane>(
    fa: &[L],
    fb: &[L],
    [mx, my]: [L; 2],
    valid: L::Mask,
    gaps: &mut Gaps<L>,
) -> (L::Mask, [L; 3]) {
    let zero = L::splat(0.0);
    let (mut pa, mut pb) = ([[zero; MAX_VERTICES]; 2], [[zero; MAX_VERTICES]; 2]);
    for k in 0..MAX_VERTICES {
        (pa[0][k], pa[1][k]) = (fa[k], fa[MAX_VERTICES + k]);
        (pb[0][k], pb[1][k]) = (fb[k], fb[MAX_VERTICES + k]);
    }
    // The contact's pass leaves each axis's gap and normal; the swept axes run over them
    // after it (the two loops' values fit the registers, one loop's did not). Its overlap
    // mask leaves out the coordinates' validity, which `valid` includes.
    let (touching, best) = polygon_polygon::unchecked_with(pa, pb, |k, g, nx, ny, of_b| {
        let [gs, nxs, nys] = &mut gaps[usize::from(of_b)];
        (gs[k], nxs[k], nys[k]) = (g, nx, ny);
    });
    let [cx, cy, _] = best.finish(touching);
    let fast = sat::stored(gaps, (mx, my));
    let apart = inside_within_rounding(touching, fast, || sat::stored_watching(gaps, (mx, my)));
    answer(valid, touching, [cx, cy], [mx, my], apart)
}

/// A sweep's answer from the start contact (`touching`, normal `(cx, cy)` where it touches)
/// and the first touch of the pair apart: `t = 0` and the contact's normal where the motion
/// goes deeper, the first touch where the pair is apart, nothing else (see the module docs).
#[inline(always)]
fn answer<L: Lane>(
    valid: L::Mask,
    touching: L::Mask,
    [cx, cy]: [L; 2],
    [mx, my]: [L; 2],
    apart: Toi<L>,
) -> (L::Mask, [L; 3]) {
    let zero = L::splat(0.0);
    let start = touching & (mx * cx + my * cy).gt(zero);
    // A normal that overflowed (coordinates beyond about 1e19) is no answer.
    let normal = finite(&[&[apart.nx, apart.ny]]);
    let hit = (start | (!touching & apart.hit & normal)) & valid;
    let t = L::select(start, zero, apart.t);
    let nx = L::select(start, cx, apart.nx);
    let ny = L::select(start, cy, apart.ny);
    (
        hit,
        [
            L::select(hit, t, L::splat(1.0)),
            L::select(hit, nx, zero),
            L::select(hit, ny, zero),
        ],
    )
}

/// The two outlines with their edges' outward normals (unit ones for the round pieces, whose
/// bands measure distances; as they come for the swept axes, whose entries are ratios), their
/// vertices relative to `a`'s first one.
#[inline(always)]
fn relative<L: Lane, A: Swept, B: Swept, const NA: usize, const NB: usize>(
    fa: &[L],
    fb: &[L],
) -> (Outline<L, NA>, Outline<L, NB>) {
    let unit = A::ROUND || B::ROUND;
    let mut a = with_normals::<L, A, NA>(fa, unit);
    let mut b = with_normals::<L, B, NB>(fb, unit);
    let (ox, oy) = (a.x[0], a.y[0]);
    for k in 0..NA {
        (a.x[k], a.y[k]) = (a.x[k] - ox, a.y[k] - oy);
    }
    for k in 0..NB {
        (b.x[k], b.y[k]) = (b.x[k] - ox, b.y[k] - oy);
    }
    (a, b)
}

/// The outline of kind `S` with its edges' outward normals, unit ones where `unit`: edge by
/// edge (`(0, 0)` for an edge of length 0, or NaN where unit, which then neither separates
/// nor touches anything), but for a box from its axis, all four even where the box is flat
/// (its length-0 edges still bound it along their normals: a flat box is a segment, and the
/// axis along it separates it from what lies beyond its ends).
#[inline(always)]
fn with_normals<L: Lane, S: Swept, const N: usize>(f: &[L], unit: bool) -> Outline<L, N> {
    let mut o = Outline::<L, N>::of::<S>(f);
    if N == 1 {
        // One vertex: no edges, and no normals to compute.
        return o;
    }
    let zero = L::splat(0.0);
    match S::axis(f) {
        Some((ux, uy)) if N == 4 => {
            let (ux, uy) = if unit {
                let inv = L::splat(1.0) / (ux * ux + uy * uy).sqrt();
                (ux * inv, uy * inv)
            } else {
                (ux, uy)
            };
            o.mx[..4].copy_from_slice(&[uy, ux, zero - uy, zero - ux]);
            o.my[..4].copy_from_slice(&[zero - ux, uy, ux, zero - uy]);
            o
        }
        _ if unit => o.with_normals(),
        _ => {
            for k in 0..N {
                let (x1, y1) = o.next(k);
                (o.mx[k], o.my[k]) = (y1 - o.y[k], o.x[k] - x1);
            }
            o
        }
    }
}

//! Polygon–polygon: separating-axis test on the outward edge normals of both polygons.
//!
//! Polygon `a` lies on the side `n·p <= n·v` of its edge from vertex `v` with normal `n`; `b` is
//! separated from `a` on that axis when all of `b`'s vertices are beyond it,
//! `min over b's vertices of n·w > n·v`. Two convex polygons overlap, touching included, when no
//! edge of either separates them. A padding edge has `n = 0` and never separates (`0 > 0` is
//! false).
//!
//! Both polygons are first expressed relative to the midpoint of their first vertices,
//! `a₀/2 + b₀/2` (sixteen subtractions each), so the dot products are of polygon-sized numbers
//! wherever the polygons are close enough for the answer to be in doubt, however far from the
//! origin they are. Then each axis costs one dot product for `n·v` and one per vertex of the
//! other polygon: `n·w - n·v` is never formed. The midpoint is the same for `(a, b)` and
//! `(b, a)`, as is the OR of the two polygons' axes, so the test is symmetric to the bit (a
//! [`Scene`](crate::Scene) relies on that for pairs of the same kind).
//!
//! Validity: every coordinate of both polygons finite.
//!
//! **Contact**: relative to the same midpoint, each edge of `a` in order moves `b` along the
//! edge's outward normal `n` by `(n·v - min over b's vertices of n·w) / |n|`, then each edge of
//! `b` moves `b` along its inward normal by the same measure with the roles exchanged; padding
//! edges skipped (`0 / 0`). These are the edges of the two polygons' Minkowski difference, so
//! the smallest is the penetration depth. The contact kernels take the overlap mask from the
//! same pass (each axis's test compares the values its candidate is made of), so they do not
//! run the test's axes a second time.
//!
//! **Sweep** (one shape moving, [`SweepPair`](crate::SweepPair)): swept separating axes over
//! both polygons' edge normals (`narrow/sweep/sat.rs`: the latest entry before the earliest
//! exit, the entry axis's normal), over the gaps and normals that the contact's own pass over
//! the axes (`unchecked_with`) leaves, relative to the same midpoint: one pass gives the start
//! contact and the swept axes' inputs.

use super::contact::{Best, Scaled, pair_kernels};
use super::{finite_polygon, finite_polygon_lanes, lowest, next};
use crate::lanes::{Lane, Simd};
use crate::shape::{MAX_VERTICES, Polygon};

/// A polygon's vertex coordinates, `(xs, ys)`.
type Coords<T = f32> = ([T; MAX_VERTICES], [T; MAX_VERTICES]);

/// Whether an edge of `a` separates `b` from `a` (both relative to the same point), in
/// every lane.
#[inline(always)]
fn separates<L: Lane>((ax, ay): &Coords<L>, (bx, by): &Coords<L>) -> L::Mask {
    let zero = L::splat(0.0);
    let mut apart = zero.lt(zero);
    for k in 0..MAX_VERTICES {
        let (nx, ny) = (ay[next(k)] - ay[k], ax[k] - ax[next(k)]);
        apart = apart | lowest(nx, ny, bx, by).gt(nx * ax[k] + ny * ay[k]);
    }
    apart
}

/// Whether `a` and `b` overlap, touching included.
#[inline]
#[must_use]
pub fn reference(a: &Polygon, b: &Polygon) -> bool {
    let (ox, oy) = (a.xs[0] * 0.5 + b.xs[0] * 0.5, a.ys[0] * 0.5 + b.ys[0] * 0.5);
    let pa = (a.xs.map(|x| x - ox), a.ys.map(|y| y - oy));
    let pb = (b.xs.map(|x| x - ox), b.ys.map(|y| y - oy));
    !separates(&pa, &pb) & !separates(&pb, &pa) & finite_polygon(a) & finite_polygon(b)
}

/// [`reference`](fn@reference) on every lane of `V`: all ones where a lane overlaps.
#[inline(always)]
pub(crate) fn hits<V: Simd>(a: [[V; MAX_VERTICES]; 2], b: [[V; MAX_VERTICES]; 2]) -> V {
    let half = V::splat(0.5);
    let (ox, oy) = (a[0][0] * half + b[0][0] * half, a[1][0] * half + b[1][0] * half);
    let (mut pa, mut pb) = (
        ([ox; MAX_VERTICES], [oy; MAX_VERTICES]),
        ([ox; MAX_VERTICES], [oy; MAX_VERTICES]),
    );
    for k in 0..MAX_VERTICES {
        (pa.0[k], pa.1[k]) = (a[0][k] - ox, a[1][k] - oy);
        (pb.0[k], pb.1[k]) = (b[0][k] - ox, b[1][k] - oy);
    }
    let apart = separates(&pa, &pb) | separates(&pb, &pa);
    !apart & valid(&a, &b)
}

/// The validity part of [`hits`], which [`fused`] shares: every coordinate finite.
#[inline(always)]
fn valid<L: Lane>(a: &[[L; MAX_VERTICES]; 2], b: &[[L; MAX_VERTICES]; 2]) -> L::Mask {
    finite_polygon_lanes(&a[0], &a[1]) & finite_polygon_lanes(&b[0], &b[1])
}

pair_kernels!(a: Polygon, PolygonX8, PolygonX16; b: Polygon, PolygonX8, PolygonX16; fused);

/// The candidates of this pair, generic over [`Lane`] (see the module docs).
#[inline(always)]
fn contact<L: Lane>(a: [[L; MAX_VERTICES]; 2], b: [[L; MAX_VERTICES]; 2]) -> Best<L> {
    axes(a, b).1
}

/// [`hits`] and [`contact`] from one pass over the axes: each edge's separation test, `lowest >
/// limit`, compares the two values its candidate `limit - lowest` is made of, so the overlap
/// mask is the same comparisons of the same values as [`hits`]'.
#[inline(always)]
fn fused<V: Simd>(a: [[V; MAX_VERTICES]; 2], b: [[V; MAX_VERTICES]; 2]) -> (V, Best<V>) {
    let (apart, best) = axes(a, b);
    (!apart & valid(&a, &b), best)
}

/// [`fused`] over any [`Lane`], each axis also handed to `on_axis` (see [`axes_with`]), and
/// without the validity of the coordinates: the overlap mask is whether no axis separates the
/// two (where a coordinate is not finite, anything). The sweep of two polygons takes its start
/// contact and its swept axes' inputs from this one pass, and tests every coordinate itself.
#[inline(always)]
pub(crate) fn unchecked_with<L: Lane>(
    a: [[L; MAX_VERTICES]; 2],
    b: [[L; MAX_VERTICES]; 2],
    on_axis: impl FnMut(usize, L, L, L, bool),
) -> (L::Mask, Best<L>) {
    let (apart, best) = axes_with(a, b, on_axis);
    (!apart, best)
}

/// Every axis of both polygons relative to their midpoint: whether one separates them, and
/// the best candidate.
#[inline(always)]
fn axes<L: Lane>(a: [[L; MAX_VERTICES]; 2], b: [[L; MAX_VERTICES]; 2]) -> (L::Mask, Best<L>) {
    axes_with(a, b, |_, _, _, _, _| {})
}

/// [`axes`], handing each axis on as it is taken: `on_axis(k, gap, nx, ny, of_b)` for edge
/// `k`, the gap `lowest - limit` between the other polygon's projection and the edge's along
/// the edge's outward normal `(nx, ny)` (not unit), of `b`'s edges where `of_b`. The sweep of
/// two polygons takes its swept axes' inputs from here, in the same pass as its start contact.
#[inline(always)]
fn axes_with<L: Lane>(
    a: [[L; MAX_VERTICES]; 2],
    b: [[L; MAX_VERTICES]; 2],
    mut on_axis: impl FnMut(usize, L, L, L, bool),
) -> (L::Mask, Best<L>) {
    let half = L::splat(0.5);
    let (ox, oy) = (a[0][0] * half + b[0][0] * half, a[1][0] * half + b[1][0] * half);
    let (mut pa, mut pb) = (a, b);
    for k in 0..MAX_VERTICES {
        (pa[0][k], pa[1][k]) = (a[0][k] - ox, a[1][k] - oy);
        (pb[0][k], pb[1][k]) = (b[0][k] - ox, b[1][k] - oy);
    }
    let mut best = Scaled::new();
    let apart = edges(&mut best, &pa, &pb, false, &mut on_axis);
    let apart = apart | edges(&mut best, &pb, &pa, true, &mut on_axis);
    (apart, best.normalized())
}

/// Offers each edge of `p` as an axis that pushes `q` out along the edge's outward normal
/// (reversed where `p` is `b`, `of_b`, and the move is `b`'s); whether one of them separates
/// `q` from `p`, as [`separates`] decides it. Each axis also goes to `on_axis`.
#[inline(always)]
fn edges<L: Lane>(
    best: &mut Scaled<L>,
    [px, py]: &[[L; MAX_VERTICES]; 2],
    [qx, qy]: &[[L; MAX_VERTICES]; 2],
    of_b: bool,
    on_axis: &mut impl FnMut(usize, L, L, L, bool),
) -> L::Mask {
    let zero = L::splat(0.0);
    let sign = L::splat(if of_b { -1.0 } else { 1.0 });
    let mut apart = zero.lt(zero);
    for k in 0..MAX_VERTICES {
        let (nx, ny) = (py[next(k)] - py[k], px[k] - px[next(k)]);
        let (limit, lowest) = (nx * px[k] + ny * py[k], lowest(nx, ny, qx, qy));
        apart = apart | lowest.gt(limit);
        best.offer(limit - lowest, (nx * nx + ny * ny).sqrt(), sign * nx, sign * ny);
        on_axis(k, lowest - limit, nx, ny, of_b);
    }
    apart
}

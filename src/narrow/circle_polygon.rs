//! Circle–polygon: the disc overlaps the polygon when its centre is inside (as in
//! [`point_polygon`](super::point_polygon)) or the polygon's boundary comes within the radius:
//! a vertex at squared distance `<= r²`, or an edge whose closest point to the centre lies
//! between its ends (`0 <= (c - v)·e <= e·e`) at perpendicular distance `|e × (c - v)| / |e|`
//! within `r`, compared without division: `|e × (c - v)| <= r·|e|` (products of two lengths;
//! the contact takes `|e|` for its candidates anyway). A padding edge (`e·e == 0`) is left to
//! its vertex test.
//!
//! Validity: `radius >= 0` and every polygon coordinate finite. A NaN centre makes every
//! comparison fail.
//!
//! **Contact**: candidates are each edge in order (the polygon moving along its inward normal
//! until the edge clears the disc: `(e × (c - v) + radius·|e|) / |e|`, compared unnormalised as
//! in `Scaled`), then the axis from the
//! centre to the nearest vertex `w` (the first of equally near ones; skipped when the centre is
//! on it): depth `radius - min over vertices of n·(v - c)` along `n = (w - c) / |w - c|`. That
//! axis is the answer when the centre is outside and nearest to a vertex; an edge is, when it is
//! nearest to an edge or inside.
//!
//! **Sweep** (one shape moving, [`SweepPair`](crate::SweepPair)): the motion against the
//! pair's rounded Minkowski difference (a ray against the other shape grown by the radii),
//! covered by edge bands and vertex discs, written once for every round pair in
//! `narrow/sweep/round.rs`.

use super::contact::{Best, Scaled, pair_kernels};
use super::{finite_polygon, finite_polygon_lanes, next};
use crate::lanes::{Lane, Simd};
use crate::shape::{Circle, MAX_VERTICES, Polygon};

/// Whether `c` and `q` overlap, touching included.
#[inline]
#[must_use]
pub fn reference(c: &Circle, q: &Polygon) -> bool {
    let r2 = c.radius * c.radius;
    let (mut inside, mut near) = (true, false);
    for k in 0..MAX_VERTICES {
        let (ex, ey) = (q.xs[next(k)] - q.xs[k], q.ys[next(k)] - q.ys[k]);
        let (dx, dy) = (c.x - q.xs[k], c.y - q.ys[k]);
        let cross = ex * dy - ey * dx;
        let along = dx * ex + dy * ey;
        let len2 = ex * ex + ey * ey;
        inside &= cross >= 0.0;
        near |= dx * dx + dy * dy <= r2;
        near |= (along >= 0.0)
            & (along <= len2)
            & (len2 > 0.0)
            & (cross.abs() <= c.radius * len2.sqrt());
    }
    (inside | near) & (c.radius >= 0.0) & finite_polygon(q)
}

/// [`reference`](fn@reference) on every lane of `V`: all ones where a lane overlaps. The edges
/// are visited in two passes (inside and vertex tests, then edge interiors), the same
/// operations as the reference, so that fewer vectors are alive at once.
#[inline(always)]
pub(crate) fn hits<V: Simd>([cx, cy, r]: [V; 3], [xs, ys]: [[V; MAX_VERTICES]; 2]) -> V {
    let r2 = r * r;
    let zero = V::ZERO;
    let mut inside = zero.simd_eq(zero);
    let mut near = zero.simd_ne(zero);
    for k in 0..MAX_VERTICES {
        let (ex, ey) = (xs[next(k)] - xs[k], ys[next(k)] - ys[k]);
        let (dx, dy) = (cx - xs[k], cy - ys[k]);
        inside = inside & (ex * dy - ey * dx).ge(zero);
        near = near | (dx * dx + dy * dy).simd_le(r2);
    }
    for k in 0..MAX_VERTICES {
        let (ex, ey) = (xs[next(k)] - xs[k], ys[next(k)] - ys[k]);
        let (dx, dy) = (cx - xs[k], cy - ys[k]);
        let cross = ex * dy - ey * dx;
        let along = dx * ex + dy * ey;
        let len2 = ex * ex + ey * ey;
        near = near
            | (along.ge(zero)
                & along.simd_le(len2)
                & len2.gt(zero)
                & cross.abs().simd_le(r * len2.sqrt()));
    }
    (inside | near) & valid(r, &xs, &ys)
}

/// The validity part of [`hits`], which [`fused`] shares.
#[inline(always)]
fn valid<V: Simd>(r: V, xs: &[V; MAX_VERTICES], ys: &[V; MAX_VERTICES]) -> V {
    r.ge(V::ZERO) & finite_polygon_lanes(xs, ys)
}

pair_kernels!(c: Circle, CircleX8, CircleX16; q: Polygon, PolygonX8, PolygonX16; fused);

/// The candidates of this pair, generic over [`Lane`] (see the module docs).
#[inline(always)]
fn contact<L: Lane>(c: [L; 3], q: [[L; MAX_VERTICES]; 2]) -> Best<L> {
    edges(c, q).1
}

/// [`hits`] and [`contact`] from one pass over the edges.
#[inline(always)]
fn fused<V: Simd>(c: [V; 3], [xs, ys]: [[V; MAX_VERTICES]; 2]) -> (V, Best<V>) {
    let (met, best) = edges(c, [xs, ys]);
    (met & valid(c[2], &xs, &ys), best)
}

/// Whether the centre is inside or the boundary within the radius (the tests of [`hits`], on
/// the values the candidates are made of: a vertex's squared distance `v·v` with `v = w - c`
/// is `d·d` with `d = c - w`, bit for bit), and the best candidate.
#[inline(always)]
fn edges<L: Lane>([cx, cy, r]: [L; 3], [xs, ys]: [[L; MAX_VERTICES]; 2]) -> (L::Mask, Best<L>) {
    let zero = L::splat(0.0);
    let r2 = r * r;
    let (mut inside, mut near) = (zero.eq(zero), zero.lt(zero));
    let mut edges = Scaled::new();
    let (mut wx, mut wy) = (xs[0] - cx, ys[0] - cy);
    let mut nearest = wx * wx + wy * wy;
    for k in 0..MAX_VERTICES {
        let (ex, ey) = (xs[next(k)] - xs[k], ys[next(k)] - ys[k]);
        let (dx, dy) = (cx - xs[k], cy - ys[k]);
        let len2 = ex * ex + ey * ey;
        let len = len2.sqrt();
        let cross = ex * dy - ey * dx;
        let along = dx * ex + dy * ey;
        // (e × d) / |e| + r, scaled by |e|.
        let num = cross + r * len;
        edges.offer(num, len, zero - ey, ex);
        let (vx, vy) = (xs[k] - cx, ys[k] - cy);
        let d2 = vx * vx + vy * vy;
        inside = inside & cross.ge(zero);
        near = near
            | d2.le(r2)
            | (along.ge(zero) & along.le(len2) & len2.gt(zero) & cross.abs().le(r * len));
        let closer = d2.lt(nearest);
        (wx, wy) = (L::select(closer, vx, wx), L::select(closer, vy, wy));
        nearest = L::select(closer, d2, nearest);
    }
    let mut best = edges.normalized();
    let dist = nearest.sqrt();
    let (nx, ny) = (wx / dist, wy / dist);
    let mut lowest = nx * (xs[0] - cx) + ny * (ys[0] - cy);
    for k in 1..MAX_VERTICES {
        lowest = lowest.pmin(nx * (xs[k] - cx) + ny * (ys[k] - cy));
    }
    best.offer(r - lowest, nx, ny);
    (inside | near, best)
}

//! [`Polygon`]: a convex polygon of up to [`MAX_VERTICES`] vertices, checked and cleaned by
//! [`Polygon::new`].

use super::{Aabb, Problem, ShapeError};
use bytemuck::{Pod, Zeroable};
use core::fmt;
use wide::{f32x8, f64x4};

/// Most vertices a [`Polygon`] has.
pub const MAX_VERTICES: usize = 8;

/// A closed convex polygon of 3 to [`MAX_VERTICES`] vertices, counter-clockwise.
///
/// The vertices are stored in `xs` and `ys`; a polygon of fewer than eight vertices repeats its
/// last vertex in the remaining slots, which adds only zero-length edges, so every pair test
/// runs the same eight edges whatever the count. [`Polygon::new`] checks, orients and cleans
/// its input; the fields are public like those of the other shapes, and [`Polygon::check`] says
/// whether values written into them still make a convex counter-clockwise polygon (the pair
/// tests use them as given).
///
/// ```
/// use widephase::Polygon;
/// // Clockwise input with a duplicate and a collinear point.
/// let p = Polygon::new(&[[0.0, 0.0], [0.0, 2.0], [2.0, 2.0], [2.0, 1.0], [2.0, 0.0], [2.0, 0.0]])?;
/// assert_eq!(p.vertices().collect::<Vec<_>>(), [[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]]);
/// assert!(Polygon::new(&[[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]]).is_err()); // no area
/// # Ok::<(), widephase::InvalidPolygon>(())
/// ```
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Polygon {
    /// Horizontal coordinates of the vertices, counter-clockwise; unused slots repeat the last.
    pub xs: [f32; MAX_VERTICES],
    /// Vertical coordinates of the vertices, in the same order.
    pub ys: [f32; MAX_VERTICES],
}

/// Why [`Polygon::new`] refused its input.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum InvalidPolygon {
    /// Point `index` of the input has a NaN or infinite coordinate.
    NotFinite {
        /// Position in the input.
        index: usize,
    },
    /// Fewer than three points remain after removing duplicates and collinear points: the
    /// polygon has no area.
    TooFew {
        /// How many remain.
        remaining: usize,
    },
    /// More than [`MAX_VERTICES`] points remain after removing duplicates and collinear points.
    TooMany {
        /// How many remain.
        remaining: usize,
    },
    /// The points do not make a convex polygon: the turn at input point `index` goes the
    /// other way from the rest, or the outline winds around more than once.
    NotConvex {
        /// Position in the input.
        index: usize,
    },
}

impl fmt::Display for InvalidPolygon {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            InvalidPolygon::NotFinite { index } => {
                write!(f, "polygon point {index} has a NaN or infinite coordinate")
            }
            InvalidPolygon::TooFew { remaining } => write!(
                f,
                "polygon has {remaining} distinct non-collinear point(s); it needs at least 3"
            ),
            InvalidPolygon::TooMany { remaining } => write!(
                f,
                "polygon has {remaining} vertices after removing duplicates and collinear points; at most {MAX_VERTICES} are allowed"
            ),
            InvalidPolygon::NotConvex { index } => {
                write!(f, "polygon is not convex at point {index}")
            }
        }
    }
}

impl std::error::Error for InvalidPolygon {}

/// `(b - a) × (c - b)` in `f64`, whose products of `f32` differences are exact up to a final
/// rounding: the sign of the turn at `b`.
fn turn(a: [f32; 2], b: [f32; 2], c: [f32; 2]) -> f64 {
    let (ux, uy) = (
        f64::from(b[0]) - f64::from(a[0]),
        f64::from(b[1]) - f64::from(a[1]),
    );
    let (vx, vy) = (
        f64::from(c[0]) - f64::from(b[0]),
        f64::from(c[1]) - f64::from(b[1]),
    );
    ux * vy - uy * vx
}

impl Polygon {
    /// A convex polygon through `points`, in either winding.
    ///
    /// Clockwise input is reversed (its first point stays first); repeated points (the first
    /// occurrence is kept) and points on a straight line between their neighbours are removed.
    /// The result has 3 to [`MAX_VERTICES`] vertices, counter-clockwise. Refuses non-finite points, fewer than three distinct non-collinear points,
    /// more than eight vertices, and outlines that are not convex.
    pub fn new(points: &[[f32; 2]]) -> Result<Self, InvalidPolygon> {
        if let Some(index) = points
            .iter()
            .position(|p| !(p[0].is_finite() && p[1].is_finite()))
        {
            return Err(InvalidPolygon::NotFinite { index });
        }
        // Keep the input positions for error messages.
        let mut pts: Vec<([f32; 2], usize)> = points.iter().copied().zip(0..).collect();
        // Orientation from the shoelace area, in f64.
        let area: f64 = (0..pts.len())
            .map(|i| {
                let (a, b) = (pts[i].0, pts[(i + 1) % pts.len()].0);
                f64::from(a[0]) * f64::from(b[1]) - f64::from(b[0]) * f64::from(a[1])
            })
            .sum();
        if area < 0.0 {
            // Reversed, the first point staying first.
            pts.reverse();
            pts.rotate_right(1);
        }
        // Repeated points keep their first occurrence (also around the end).
        pts.dedup_by(|b, a| a.0 == b.0);
        while pts.len() > 1 && pts[0].0 == pts[pts.len() - 1].0 {
            pts.pop();
        }
        // Points where the outline goes straight on, until none is left (removing one can make
        // its neighbours collinear).
        loop {
            let n = pts.len();
            if n < 3 {
                return Err(InvalidPolygon::TooFew { remaining: n });
            }
            let flat = (0..n).find(|&i| {
                let (a, b, c) = (pts[(i + n - 1) % n].0, pts[i].0, pts[(i + 1) % n].0);
                turn(a, b, c) == 0.0
            });
            match flat {
                Some(i) => {
                    pts.remove(i);
                }
                None => break,
            }
        }
        let n = pts.len();
        // Every turn to the left, and the outline around once: each vertex on the inner side
        // of (or on) every edge.
        for i in 0..n {
            let (a, b, c) = (pts[(i + n - 1) % n].0, pts[i].0, pts[(i + 1) % n].0);
            if turn(a, b, c) < 0.0 {
                return Err(InvalidPolygon::NotConvex { index: pts[i].1 });
            }
        }
        for i in 0..n {
            let (a, b) = (pts[i].0, pts[(i + 1) % n].0);
            if let Some(&(_, index)) = pts.iter().find(|(c, _)| turn(a, b, *c) < 0.0) {
                return Err(InvalidPolygon::NotConvex { index });
            }
        }
        if n > MAX_VERTICES {
            return Err(InvalidPolygon::TooMany { remaining: n });
        }
        let at = |k: usize| pts[k.min(n - 1)].0;
        Ok(Self {
            xs: core::array::from_fn(|k| at(k)[0]),
            ys: core::array::from_fn(|k| at(k)[1]),
        })
    }

    /// The regular polygon of `n` vertices (3 to 8) centred on (`x`, `y`) with its vertices at
    /// distance `radius`, the first at angle `angle` (radians).
    ///
    /// # Panics
    /// If `n` is not 3 to 8, or the vertices do not make a valid polygon: a radius that is not
    /// positive, a non-finite value, or a radius too small to show at the centre's magnitude.
    #[must_use]
    pub fn regular(n: usize, x: f32, y: f32, radius: f32, angle: f32) -> Self {
        assert!(
            (3..=MAX_VERTICES).contains(&n),
            "a regular polygon has 3 to {MAX_VERTICES} vertices, got {n}"
        );
        let points: Vec<[f32; 2]> = (0..n)
            .map(|k| {
                let a = angle + core::f32::consts::TAU * k as f32 / n as f32;
                let (s, c) = a.sin_cos();
                [x + radius * c, y + radius * s]
            })
            .collect();
        Self::new(&points).unwrap_or_else(|e| {
            panic!("regular polygon n={n} at ({x}, {y}) radius {radius} angle {angle}: {e}")
        })
    }

    /// Number of vertices: slots after the last distinct vertex repeat it.
    #[must_use]
    pub fn vertex_count(&self) -> usize {
        let last = (self.xs[MAX_VERTICES - 1], self.ys[MAX_VERTICES - 1]);
        (1..MAX_VERTICES)
            .rev()
            .find(|&k| (self.xs[k - 1], self.ys[k - 1]) != last)
            .map_or(1, |k| k + 1)
    }

    /// The vertices `[x, y]`, counter-clockwise, without the repeated padding.
    pub fn vertices(&self) -> impl ExactSizeIterator<Item = [f32; 2]> + '_ {
        (0..self.vertex_count()).map(|k| [self.xs[k], self.ys[k]])
    }

    /// This polygon rotated counter-clockwise by `angle_radians` about the origin, then moved
    /// by (`x`, `y`): a placed copy of a polygon built around the origin. Rounding can make a
    /// very thin polygon fail [`check`](Self::check) afterwards.
    #[must_use]
    pub fn transformed(&self, x: f32, y: f32, angle_radians: f32) -> Self {
        let (s, c) = angle_radians.sin_cos();
        let mut out = *self;
        for k in 0..MAX_VERTICES {
            let (vx, vy) = (self.xs[k], self.ys[k]);
            out.xs[k] = x + (vx * c - vy * s);
            out.ys[k] = y + (vx * s + vy * c);
        }
        out
    }

    /// The smallest axis-aligned box that contains the polygon.
    #[must_use]
    pub fn bounding_box(&self) -> Aabb {
        let fold = |v: &[f32; MAX_VERTICES], f: fn(f32, f32) -> f32| {
            v[1..].iter().fold(v[0], |m, &x| f(m, x))
        };
        Aabb::new(
            fold(&self.xs, f32::min),
            fold(&self.ys, f32::min),
            fold(&self.xs, f32::max),
            fold(&self.ys, f32::max),
        )
    }

    /// [`bounding_box`](Self::bounding_box) of a polygon whose coordinates are all finite
    /// (one that passed [`check`](Self::check)): the halves of `xs` and `ys` side by side in
    /// one `f32x8` step, then pairs, then one, with no NaN to pass over (91 instructions of
    /// `bounding_box` to about 50). The same numbers, but where the least (greatest)
    /// coordinate is a zero of both signs either sign may come out: a
    /// [`Scene`](crate::Scene), which boxes every polygon it moves, pads the box, and that
    /// makes both zeros the same bound.
    pub(crate) fn finite_bounding_box(&self) -> Aabb {
        let (x, y) = (&self.xs, &self.ys);
        let (low, high) = (
            f32x8::from([x[0], x[1], x[2], x[3], y[0], y[1], y[2], y[3]]),
            f32x8::from([x[4], x[5], x[6], x[7], y[4], y[5], y[6], y[7]]),
        );
        // Four lanes of x and four of y each; then pairs, then one.
        let (least, most) = (low.fast_min(high).to_array(), low.fast_max(high).to_array());
        let min = |a: f32, b: f32| if a < b { a } else { b };
        let max = |a: f32, b: f32| if a > b { a } else { b };
        let four = |v: &[f32; 8], h: usize, f: fn(f32, f32) -> f32| {
            f(f(v[h], v[h + 2]), f(v[h + 1], v[h + 3]))
        };
        Aabb::new(
            four(&least, 0, min),
            four(&least, 4, min),
            four(&most, 0, max),
            four(&most, 4, max),
        )
    }

    /// Why this polygon can never overlap anything, or is not what the pair tests expect: a
    /// NaN or infinite coordinate, or vertices that do not make a convex counter-clockwise
    /// outline (the error names the vertex).
    pub fn check(&self) -> Result<(), ShapeError> {
        // `x - x` is 0 for every finite `x`: one sum decides, the loop names a bad field.
        #[allow(clippy::eq_op, reason = "x - x is the finiteness test")]
        let finite = self.xs.iter().chain(&self.ys).map(|v| v - v).sum::<f32>() == 0.0;
        for k in (0..MAX_VERTICES).filter(|_| !finite) {
            for (v, names) in [(self.xs[k], &XS), (self.ys[k], &YS)] {
                if v.is_nan() {
                    return Err(ShapeError::new(names[k], Problem::Nan, v));
                }
                if !v.is_finite() {
                    return Err(ShapeError::new(names[k], Problem::NonFinite, v));
                }
            }
        }
        let n = self.vertex_count();
        // The common answer in one pass over the eight slots; the loops below name a failure.
        if self.turns_left_once(n) {
            return Ok(());
        }
        let v = |k: usize| [self.xs[k % n], self.ys[k % n]];
        let at = |k: usize| [self.xs[k], self.ys[k]];
        for (k, field) in XS.iter().enumerate().take(n) {
            // (Neighbours without `%`: a division per turn cost more than the turns.)
            let (prev, next) = (
                if k == 0 { n - 1 } else { k - 1 },
                if k + 1 == n { 0 } else { k + 1 },
            );
            let t = turn(at(prev), at(k), at(next));
            if t <= 0.0 {
                return Err(ShapeError::new(field, Problem::NotConvex, t as f32));
            }
        }
        // With every turn to the left, the outline is convex exactly when it goes around once;
        // only a polygon that does not is checked vertex against edge, to name the culprit.
        if self.winds_once(n) || self.inside_every_edge(n) {
            return Ok(());
        }
        for k in 0..n {
            for (j, field) in XS.iter().enumerate().take(n) {
                let t = turn(v(k), v(k + 1), v(j));
                if t < 0.0 {
                    return Err(ShapeError::new(field, Problem::NotConvex, t as f32));
                }
            }
        }
        unreachable!("a vertex outside an edge was found above")
    }

    /// Whether every turn of the outline of `n` vertices is to the left (the turn loop of
    /// [`check`](Self::check) passes) and its edges go around once
    /// ([`winds_once`](Self::winds_once)): the same values in one pass over the eight slots,
    /// four per `f64x4`, with no branch per vertex (a [`Scene`](crate::Scene) checks every
    /// polygon it moves: the check took 331 instructions with the loops alone, 166 with this
    /// pass first).
    ///
    /// Edge `k` goes from slot `k` to slot `k + 1` (the last from slot 7 to slot 0): the true
    /// edges, then the padding's, which are zero, then the edge that closes the outline, which
    /// is moved to slot `n - 1`, where the outline's last edge starts. The turn at vertex `k`
    /// is then the cross product of edges `k - 1` and `k` (edge 7 before edge 0), as
    /// [`turn`] computes it, and the slots from `n` on are left out.
    fn turns_left_once(&self, n: usize) -> bool {
        let (xs, ys) = (self.xs.map(f64::from), self.ys.map(f64::from));
        let edges = |v: &[f64; MAX_VERTICES]| -> [f64; MAX_VERTICES] {
            core::array::from_fn(|k| v[(k + 1) % MAX_VERTICES] - v[k])
        };
        let (mut ex, mut ey) = (edges(&xs), edges(&ys));
        (ex[n - 1], ey[n - 1]) = (ex[MAX_VERTICES - 1], ey[MAX_VERTICES - 1]);
        let previous = |v: &[f64; MAX_VERTICES]| -> [f64; MAX_VERTICES] {
            core::array::from_fn(|k| v[(k + MAX_VERTICES - 1) % MAX_VERTICES])
        };
        let (bx, by) = (previous(&ex), previous(&ey));
        let four =
            |v: &[f64; MAX_VERTICES], h: usize| f64x4::from([v[h], v[h + 1], v[h + 2], v[h + 3]]);
        let (mut left, mut upper) = (0, 0);
        for h in [0, 4] {
            let (ux, uy, vx, vy) = (four(&bx, h), four(&by, h), four(&ex, h), four(&ey, h));
            left |= (ux * vy - uy * vx).simd_gt(f64x4::ZERO).to_bitmask() << h;
            let up = vy.simd_gt(f64x4::ZERO) | (vy.simd_eq(f64x4::ZERO) & vx.simd_gt(f64x4::ZERO));
            upper |= up.to_bitmask() << h;
        }
        let outline = (1u32 << n) - 1;
        let upper = upper & outline;
        // Edge `k` points up after edge `k - 1` (edge `n - 1` before edge 0) pointed down.
        let before = (upper << 1 | upper >> (n - 1)) & outline;
        left & outline == outline && (upper & !before).count_ones() == 1
    }

    /// Whether the edge directions of an outline whose every turn is to the left (each turn
    /// between 0 and π) go around exactly once: the number of times an edge pointing into the
    /// lower half-plane (`dy < 0`, or `dy == 0` and `dx < 0`) is followed by one pointing into
    /// the upper half is its winding number. Edge vectors of `f32` vertices are exact in `f64`,
    /// so the count is exact: for such an outline, going around once is the same as every
    /// vertex lying on the inner side of every edge ([`inside_every_edge`](Self::inside_every_edge)),
    /// at a few operations per edge instead of one per edge and vertex.
    fn winds_once(&self, n: usize) -> bool {
        let upper = |k: usize| {
            let j = if k + 1 == n { 0 } else { k + 1 };
            let dx = f64::from(self.xs[j]) - f64::from(self.xs[k]);
            let dy = f64::from(self.ys[j]) - f64::from(self.ys[k]);
            dy > 0.0 || (dy == 0.0 && dx > 0.0)
        };
        let (mut before, mut wraps) = (upper(n - 1), 0);
        for k in 0..n {
            let now = upper(k);
            wraps += usize::from(!before && now);
            before = now;
        }
        wraps == 1
    }

    /// Whether every vertex is on the inner side of every edge, boundary included: `turn(v(k),
    /// v(k + 1), v(j)) >= 0` for all `k < n` and all eight slots `j` (a padding slot repeats the
    /// last vertex, so it adds nothing), four slots per `f64x4` with the same operations as
    /// [`turn`]. Four times fewer instructions than the pair loop in [`check`](Self::check),
    /// which a [`Scene`](crate::Scene) runs on every polygon it is given; that loop then only
    /// names the first failure.
    fn inside_every_edge(&self, n: usize) -> bool {
        let (xs, ys) = (self.xs.map(f64::from), self.ys.map(f64::from));
        let four =
            |v: &[f64; MAX_VERTICES], h: usize| f64x4::from([v[h], v[h + 1], v[h + 2], v[h + 3]]);
        let (x, y) = ([four(&xs, 0), four(&xs, 4)], [four(&ys, 0), four(&ys, 4)]);
        let mut outside = f64x4::ZERO.simd_lt(f64x4::ZERO);
        for k in 0..n {
            let next = if k + 1 == n { 0 } else { k + 1 };
            let (ux, uy) = (
                f64x4::splat(xs[next] - xs[k]),
                f64x4::splat(ys[next] - ys[k]),
            );
            let (bx, by) = (f64x4::splat(xs[next]), f64x4::splat(ys[next]));
            for h in 0..2 {
                let (vx, vy) = (x[h] - bx, y[h] - by);
                outside |= (ux * vy - uy * vx).simd_lt(f64x4::ZERO);
            }
        }
        !outside.any()
    }
}

const XS: [&str; MAX_VERTICES] = [
    "xs[0]", "xs[1]", "xs[2]", "xs[3]", "xs[4]", "xs[5]", "xs[6]", "xs[7]",
];
const YS: [&str; MAX_VERTICES] = [
    "ys[0]", "ys[1]", "ys[2]", "ys[3]", "ys[4]", "ys[5]", "ys[6]", "ys[7]",
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Xorshift;

    /// The turn loop of [`Polygon::check`] (whether every turn is to the left) and
    /// [`Polygon::winds_once`], one vertex at a time.
    fn by_loops(p: &Polygon, n: usize) -> (bool, bool) {
        let at = |k: usize| [p.xs[k % n], p.ys[k % n]];
        let left = (0..n).all(|k| turn(at(k + n - 1), at(k), at(k + 1)) > 0.0);
        (left, left && p.winds_once(n))
    }

    /// `n` points (1 to 8) as a polygon's slots, the last repeated, of one of several kinds:
    /// convex outlines (counter-clockwise or not), points on a small integer grid (collinear,
    /// repeated and exactly zero turns), stars and random points; scaled from 1e-30 to 1e30,
    /// the padding sometimes the last vertex's zeros with the other sign.
    fn draw(g: &mut Xorshift) -> Polygon {
        let n = 1 + g.below(8) as usize;
        let mut angles: Vec<f32> = (0..n).map(|_| core::f32::consts::TAU * g.unit()).collect();
        angles.sort_by(f32::total_cmp);
        let kind = g.below(5);
        let point = |g: &mut Xorshift, k: usize| match kind {
            0 | 1 => [angles[k].cos(), angles[k].sin()],
            2 => [g.below(5) as f32 - 2.0, g.below(5) as f32 - 2.0],
            3 => {
                let a = angles[k * 2 % n];
                [a.cos(), a.sin()]
            }
            _ => [g.unit() - 0.5, g.unit() - 0.5],
        };
        let scale = [1.0, 1e-30, 1e30, 3.0e-7, 4.0e6][g.below(5) as usize];
        let mut p = Polygon {
            xs: [0.0; MAX_VERTICES],
            ys: [0.0; MAX_VERTICES],
        };
        for k in 0..MAX_VERTICES {
            let [x, y] = point(g, k.min(n - 1));
            (p.xs[k], p.ys[k]) = (x * scale, y * scale);
        }
        if kind == 1 {
            // Clockwise.
            p.xs[..n].reverse();
            p.ys[..n].reverse();
        }
        for k in n..MAX_VERTICES {
            (p.xs[k], p.ys[k]) = (p.xs[n - 1], p.ys[n - 1]);
            for v in [&mut p.xs[k], &mut p.ys[k]] {
                if *v == 0.0 && g.below(2) == 0 {
                    // `-0.0 == 0.0`: still padding.
                    *v = -*v;
                }
            }
        }
        p
    }

    /// The box of a finite polygon is the same box either way, as numbers (zeros of both
    /// signs among the coordinates included; which zero comes out may differ, see
    /// `scene::records`' test of the padded box).
    #[test]
    fn the_finite_box_is_the_box() {
        let mut g = Xorshift::new(0xb0c5);
        for round in 0..100_000 {
            let mut p = draw(&mut g);
            for v in p.xs.iter_mut().chain(&mut p.ys) {
                if *v == 0.0 && g.below(2) == 0 {
                    *v = -*v;
                }
            }
            let numbers = |b: Aabb| [b.min_x, b.min_y, b.max_x, b.max_y];
            let (a, b) = (numbers(p.bounding_box()), numbers(p.finite_bounding_box()));
            assert_eq!(a, b, "round {round}: {p:?}");
        }
    }

    #[test]
    fn one_pass_over_the_slots_answers_as_the_loops_do() {
        let mut g = Xorshift::new(0x5eed_7e57);
        // Passed; refused at a turn; every turn to the left but winding twice or more.
        let mut seen = [0; 3];
        for round in 0..200_000 {
            let p = draw(&mut g);
            let n = p.vertex_count();
            let (left, once) = by_loops(&p, n);
            assert_eq!(p.turns_left_once(n), once, "round {round}: {p:?}");
            let class = match (left, once) {
                (_, true) => 0,
                (false, _) => 1,
                (true, false) => 2,
            };
            seen[class] += 1;
        }
        assert!(
            seen[0] > 20_000 && seen[1] > 20_000 && seen[2] > 1000,
            "passed, refused at a turn, winding more than once: {seen:?}"
        );
    }
}

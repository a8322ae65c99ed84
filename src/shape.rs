//! Scalar shapes: one value per shape, `#[repr(C)]` and [`bytemuck::Pod`] so a slice of them can
//! be viewed as plain `f32`s.
//!
//! Constructors store what they are given; they never panic and never reject data. Whether a
//! shape can ever overlap anything is answered by [`Point::check`] and its twins (and by the
//! containers' `validate()`), and the pair tests apply the same rules on their own: a shape that
//! fails its check is never a hit.

use bytemuck::{Pod, Zeroable};
use core::fmt;
use wide::f64x4;

/// A point at (`x`, `y`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct Point {
    /// Horizontal coordinate.
    pub x: f32,
    /// Vertical coordinate.
    pub y: f32,
}

/// A closed disc: every point within `radius` of (`x`, `y`), the rim included.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct Circle {
    /// Centre, horizontal coordinate.
    pub x: f32,
    /// Centre, vertical coordinate.
    pub y: f32,
    /// Radius; zero is a single point, negative is invalid.
    pub radius: f32,
}

/// A closed axis-aligned box `[min_x, max_x] × [min_y, max_y]`.
///
/// Infinite bounds are allowed: `Aabb::new(-inf, -inf, inf, inf)` contains every finite point.
/// A box with `min > max` on either axis is invalid (its extent is negative).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct Aabb {
    /// Left edge.
    pub min_x: f32,
    /// Bottom edge.
    pub min_y: f32,
    /// Right edge.
    pub max_x: f32,
    /// Top edge.
    pub max_y: f32,
}

/// A closed oriented box: a `2·half_width × 2·half_height` rectangle centred on
/// (`center_x`, `center_y`) and rotated counter-clockwise by the angle whose cosine and sine are
/// stored in `cos` and `sin`.
///
/// The rotation is stored as a unit vector so that no pair test ever calls trigonometry. Its local
/// x axis is `(cos, sin)` and its local y axis is `(-sin, cos)`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct Obb {
    /// Centre, horizontal coordinate.
    pub center_x: f32,
    /// Centre, vertical coordinate.
    pub center_y: f32,
    /// Half the extent along the box's local x axis.
    pub half_width: f32,
    /// Half the extent along the box's local y axis.
    pub half_height: f32,
    /// Cosine of the rotation angle.
    pub cos: f32,
    /// Sine of the rotation angle.
    pub sin: f32,
}

impl Point {
    /// A point at (`x`, `y`).
    #[inline]
    #[must_use]
    pub const fn new(x: f32, y: f32) -> Self {
        Self { x, y }
    }

    /// Why this point can never overlap anything, if it cannot: a NaN coordinate.
    pub fn check(&self) -> Result<(), ShapeError> {
        not_nan("x", self.x)?;
        not_nan("y", self.y)
    }
}

impl Circle {
    /// A circle centred on (`x`, `y`).
    #[inline]
    #[must_use]
    pub const fn new(x: f32, y: f32, radius: f32) -> Self {
        Self { x, y, radius }
    }

    /// The circle's centre.
    #[inline]
    #[must_use]
    pub const fn center(&self) -> Point {
        Point::new(self.x, self.y)
    }

    /// Why this circle can never overlap anything, if it cannot: a NaN field or a negative radius.
    pub fn check(&self) -> Result<(), ShapeError> {
        not_nan("x", self.x)?;
        not_nan("y", self.y)?;
        non_negative("radius", self.radius)
    }
}

impl Aabb {
    /// The box `[min_x, max_x] × [min_y, max_y]`.
    #[inline]
    #[must_use]
    pub const fn new(min_x: f32, min_y: f32, max_x: f32, max_y: f32) -> Self {
        Self {
            min_x,
            min_y,
            max_x,
            max_y,
        }
    }

    /// The box centred on (`x`, `y`) reaching `half_width` and `half_height` to each side.
    #[inline]
    #[must_use]
    pub fn from_center(x: f32, y: f32, half_width: f32, half_height: f32) -> Self {
        Self::new(
            x - half_width,
            y - half_height,
            x + half_width,
            y + half_height,
        )
    }

    /// Why this box can never overlap anything, if it cannot: a NaN bound or `min > max`.
    pub fn check(&self) -> Result<(), ShapeError> {
        not_nan("min_x", self.min_x)?;
        not_nan("min_y", self.min_y)?;
        not_nan("max_x", self.max_x)?;
        not_nan("max_y", self.max_y)?;
        if self.min_x > self.max_x {
            return Err(ShapeError::new("max_x", Problem::BelowMin, self.max_x));
        }
        if self.min_y > self.max_y {
            return Err(ShapeError::new("max_y", Problem::BelowMin, self.max_y));
        }
        Ok(())
    }
}

impl Obb {
    /// A box rotated counter-clockwise by `angle_radians`; the cosine and sine are computed here,
    /// once.
    #[inline]
    #[must_use]
    pub fn new(
        center_x: f32,
        center_y: f32,
        half_width: f32,
        half_height: f32,
        angle_radians: f32,
    ) -> Self {
        let (sin, cos) = angle_radians.sin_cos();
        Self::from_rotation(center_x, center_y, half_width, half_height, cos, sin)
    }

    /// A box whose rotation is given as a unit vector `(cos, sin)`, stored as it is.
    ///
    /// The vector should have length 1 (within about 1e-3, which [`Obb::check`] enforces); the
    /// pair tests use it as given.
    #[inline]
    #[must_use]
    pub const fn from_rotation(
        center_x: f32,
        center_y: f32,
        half_width: f32,
        half_height: f32,
        cos: f32,
        sin: f32,
    ) -> Self {
        Self {
            center_x,
            center_y,
            half_width,
            half_height,
            cos,
            sin,
        }
    }

    /// The unrotated box with the same centre and half extents.
    #[inline]
    #[must_use]
    pub const fn axis_aligned(
        center_x: f32,
        center_y: f32,
        half_width: f32,
        half_height: f32,
    ) -> Self {
        Self::from_rotation(center_x, center_y, half_width, half_height, 1.0, 0.0)
    }

    /// The rotation angle in radians, in `(-π, π]`.
    #[inline]
    #[must_use]
    pub fn angle(&self) -> f32 {
        self.sin.atan2(self.cos)
    }

    /// The smallest axis-aligned box that contains this one.
    #[must_use]
    pub fn bounding_box(&self) -> Aabb {
        // The box's corners are centre ± hw·u ± hh·v with u = (cos, sin) and v = (-sin, cos); the
        // farthest reach along x is hw·|cos| + hh·|sin|, along y hw·|sin| + hh·|cos|.
        let ex = self.half_width * self.cos.abs() + self.half_height * self.sin.abs();
        let ey = self.half_width * self.sin.abs() + self.half_height * self.cos.abs();
        Aabb::from_center(self.center_x, self.center_y, ex, ey)
    }

    /// Why this box can never overlap anything, if it cannot: a NaN centre, a negative or NaN half
    /// extent, or a non-finite rotation. A finite rotation that is far from unit length is also
    /// refused here (the pair tests would use it as a scale), although the pair tests accept it.
    pub fn check(&self) -> Result<(), ShapeError> {
        not_nan("center_x", self.center_x)?;
        not_nan("center_y", self.center_y)?;
        non_negative("half_width", self.half_width)?;
        non_negative("half_height", self.half_height)?;
        if !self.cos.is_finite() {
            return Err(ShapeError::new("cos", Problem::NonFinite, self.cos));
        }
        if !self.sin.is_finite() {
            return Err(ShapeError::new("sin", Problem::NonFinite, self.sin));
        }
        let len2 = self.cos * self.cos + self.sin * self.sin;
        if (len2 - 1.0).abs() > 2e-3 {
            return Err(ShapeError::new(
                "cos",
                Problem::NotUnitRotation,
                len2.sqrt(),
            ));
        }
        Ok(())
    }
}

fn not_nan(field: &'static str, value: f32) -> Result<(), ShapeError> {
    if value.is_nan() {
        Err(ShapeError::new(field, Problem::Nan, value))
    } else {
        Ok(())
    }
}

fn non_negative(field: &'static str, value: f32) -> Result<(), ShapeError> {
    not_nan(field, value)?;
    if value < 0.0 {
        Err(ShapeError::new(field, Problem::Negative, value))
    } else {
        Ok(())
    }
}

/// What is wrong with one field of a shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Problem {
    /// The field is NaN.
    Nan,
    /// A radius or half extent is below zero.
    Negative,
    /// An AABB's maximum is below its minimum on the same axis.
    BelowMin,
    /// An OBB's rotation component is infinite or NaN.
    NonFinite,
    /// An OBB's rotation `(cos, sin)` is finite but its length is not within 2e-3 of 1.
    NotUnitRotation,
    /// A polygon turns clockwise (or not at all) at this vertex, or winds more than once: it is
    /// not convex and counter-clockwise. The value is the cross product of the two edges.
    NotConvex,
}

/// Why one shape can never overlap anything: the first offending field, the problem and the value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShapeError {
    /// Name of the offending field, as in the shape's struct.
    pub field: &'static str,
    /// What is wrong with it.
    pub problem: Problem,
    /// The offending value (for [`Problem::NotUnitRotation`], the rotation's length).
    pub value: f32,
}

impl ShapeError {
    const fn new(field: &'static str, problem: Problem, value: f32) -> Self {
        Self {
            field,
            problem,
            value,
        }
    }
}

impl fmt::Display for ShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.problem {
            Problem::Nan => "is NaN",
            Problem::Negative => "is negative",
            Problem::BelowMin => "is below the minimum on its axis",
            Problem::NonFinite => "is not finite",
            Problem::NotUnitRotation => "belongs to a rotation whose length is not 1",
            Problem::NotConvex => {
                "is a vertex where the polygon is not convex and counter-clockwise"
            }
        };
        write!(f, "`{}` {} ({:?})", self.field, what, self.value)
    }
}

impl std::error::Error for ShapeError {}

/// Any shape a [`Scene`](crate::Scene) holds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Shape {
    /// A circle.
    Circle(Circle),
    /// An axis-aligned box.
    Aabb(Aabb),
    /// An oriented box.
    Obb(Obb),
    /// A convex polygon.
    Polygon(Polygon),
}

impl From<Polygon> for Shape {
    #[inline]
    fn from(p: Polygon) -> Self {
        Shape::Polygon(p)
    }
}

impl From<Circle> for Shape {
    #[inline]
    fn from(c: Circle) -> Self {
        Shape::Circle(c)
    }
}

impl From<Aabb> for Shape {
    #[inline]
    fn from(b: Aabb) -> Self {
        Shape::Aabb(b)
    }
}

impl From<Obb> for Shape {
    #[inline]
    fn from(o: Obb) -> Self {
        Shape::Obb(o)
    }
}

impl Shape {
    /// Why this shape can never overlap anything, if it cannot (see [`Circle::check`] and its
    /// twins).
    pub fn check(&self) -> Result<(), ShapeError> {
        match self {
            Shape::Circle(c) => c.check(),
            Shape::Aabb(b) => b.check(),
            Shape::Obb(o) => o.check(),
            Shape::Polygon(p) => p.check(),
        }
    }

    /// The smallest axis-aligned box containing the shape (up to rounding of its arithmetic).
    #[must_use]
    pub fn bounding_box(&self) -> Aabb {
        match *self {
            Shape::Circle(c) => Aabb::from_center(c.x, c.y, c.radius, c.radius),
            Shape::Aabb(b) => b,
            Shape::Obb(o) => o.bounding_box(),
            Shape::Polygon(p) => p.bounding_box(),
        }
    }
}

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
        if self.inside_every_edge(n) {
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

/// A ray from (`origin_x`, `origin_y`) along (`dir_x`, `dir_y`), for parameters `t` from 0 to
/// `max_t`: the points `origin + t · dir`.
///
/// The direction need not have unit length; `t` is measured in units of it. A ray cast
/// answers the entry parameter of the first point it shares with a shape: 0 when the origin is
/// inside (the shape's boundary included), `f32::INFINITY` for a miss.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct Ray {
    /// Origin, horizontal coordinate.
    pub origin_x: f32,
    /// Origin, vertical coordinate.
    pub origin_y: f32,
    /// Direction, horizontal component.
    pub dir_x: f32,
    /// Direction, vertical component.
    pub dir_y: f32,
    /// Largest parameter tested; `f32::INFINITY` for an unbounded ray.
    pub max_t: f32,
}

impl Ray {
    /// The ray from (`origin_x`, `origin_y`) along (`dir_x`, `dir_y`) up to parameter `max_t`.
    #[inline]
    #[must_use]
    pub const fn new(origin_x: f32, origin_y: f32, dir_x: f32, dir_y: f32, max_t: f32) -> Self {
        Self {
            origin_x,
            origin_y,
            dir_x,
            dir_y,
            max_t,
        }
    }

    /// The point at parameter `t`.
    #[inline]
    #[must_use]
    pub fn at(&self, t: f32) -> Point {
        Point::new(
            self.origin_x + t * self.dir_x,
            self.origin_y + t * self.dir_y,
        )
    }

    /// Why this ray can never hit anything, if it cannot: a NaN or infinite origin or
    /// direction, or a NaN or negative `max_t`.
    pub fn check(&self) -> Result<(), ShapeError> {
        for (field, v) in [
            ("origin_x", self.origin_x),
            ("origin_y", self.origin_y),
            ("dir_x", self.dir_x),
            ("dir_y", self.dir_y),
        ] {
            not_nan(field, v)?;
            if !v.is_finite() {
                return Err(ShapeError::new(field, Problem::NonFinite, v));
            }
        }
        non_negative("max_t", self.max_t)
    }
}

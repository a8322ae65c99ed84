//! Scalar shapes: one value per shape, `#[repr(C)]` and [`bytemuck::Pod`] so a slice of them can
//! be viewed as plain `f32`s.
//!
//! Constructors store what they are given; they never panic and never reject data. Whether a
//! shape can ever overlap anything is answered by [`Point::check`] and its twins (and by the
//! containers' `validate()`), and the pair tests apply the same rules on their own: a shape that
//! fails its check is never a hit.

mod capsule;
mod contact;
mod error;
mod manifold;
#[cfg(feature = "mint")]
mod mint;
mod polygon;
mod sweep;

pub use capsule::Capsule;
pub use contact::Contact;
pub use error::{Problem, ShapeError};
use error::{finite_and_sized, non_negative, none_nan, not_nan};
pub(crate) use manifold::{B_REFERENCE, CLIPPED};
pub use manifold::{Manifold, ManifoldPoint};
pub use polygon::{InvalidPolygon, MAX_VERTICES, Polygon};
pub use sweep::Sweep;

use bytemuck::{Pod, Zeroable};

/// A point at (`x`, `y`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Point {
    /// Horizontal coordinate.
    pub x: f32,
    /// Vertical coordinate.
    pub y: f32,
}

/// A closed disc: every point within `radius` of (`x`, `y`), the rim included.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
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
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
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
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
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
    #[inline]
    pub fn check(&self) -> Result<(), ShapeError> {
        not_nan("x", self.x)?;
        not_nan("y", self.y)
    }
}

impl From<[f32; 2]> for Point {
    /// The point `[x, y]`.
    #[inline]
    fn from([x, y]: [f32; 2]) -> Self {
        Self::new(x, y)
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
    #[inline]
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
    #[inline]
    pub fn check(&self) -> Result<(), ShapeError> {
        none_nan(&[
            ("min_x", self.min_x),
            ("min_y", self.min_y),
            ("max_x", self.max_x),
            ("max_y", self.max_y),
        ])?;
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
            cos,
            sin,
            ..Self::axis_aligned(center_x, center_y, half_width, half_height)
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
        Self {
            center_x,
            center_y,
            half_width,
            half_height,
            cos: 1.0,
            sin: 0.0,
        }
    }

    /// The rotation angle in radians, in `(-π, π]`.
    #[inline]
    #[must_use]
    pub fn angle(&self) -> f32 {
        self.sin.atan2(self.cos)
    }

    /// The smallest axis-aligned box that contains this one.
    #[must_use]
    #[inline]
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
    #[inline]
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

/// Any shape a [`Scene`](crate::Scene) holds.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Shape {
    /// A circle.
    Circle(Circle),
    /// An axis-aligned box.
    Aabb(Aabb),
    /// An oriented box.
    Obb(Obb),
    /// A convex polygon.
    Polygon(Polygon),
    /// A capsule (a segment when its radius is 0).
    Capsule(Capsule),
}

/// `From<Kind> for Shape` for each kind a [`Shape`] holds.
macro_rules! into_shape {
    ($($kind:ident),+) => {$(
        impl From<$kind> for Shape {
            #[inline]
            fn from(s: $kind) -> Self {
                Shape::$kind(s)
            }
        }
    )+};
}

into_shape!(Circle, Aabb, Obb, Polygon, Capsule);

impl From<&Shape> for Shape {
    /// A copy, so that calls taking `impl Into<Shape>` also take `&Shape`.
    #[inline]
    fn from(s: &Shape) -> Self {
        *s
    }
}

impl Shape {
    /// Why this shape can never overlap anything, if it cannot (see [`Circle::check`] and its
    /// twins).
    #[inline]
    pub fn check(&self) -> Result<(), ShapeError> {
        match self {
            Shape::Circle(c) => c.check(),
            Shape::Aabb(b) => b.check(),
            Shape::Obb(o) => o.check(),
            Shape::Polygon(p) => p.check(),
            Shape::Capsule(c) => c.check(),
        }
    }

    /// This shape moved by `(dx, dy)`: every coordinate plus the offset (a rotated box keeps
    /// its rotation, a polygon its vertex count).
    ///
    /// ```
    /// use widephase::{Circle, Shape};
    /// let s: Shape = Circle::new(1.0, 2.0, 0.5).into();
    /// assert_eq!(s.translated(3.0, -2.0), Circle::new(4.0, 0.0, 0.5).into());
    /// ```
    #[must_use]
    pub fn translated(&self, dx: f32, dy: f32) -> Shape {
        match *self {
            Shape::Circle(c) => Circle::new(c.x + dx, c.y + dy, c.radius).into(),
            Shape::Aabb(b) => {
                Aabb::new(b.min_x + dx, b.min_y + dy, b.max_x + dx, b.max_y + dy).into()
            }
            Shape::Obb(o) => Obb {
                center_x: o.center_x + dx,
                center_y: o.center_y + dy,
                ..o
            }
            .into(),
            Shape::Polygon(p) => Polygon {
                xs: p.xs.map(|x| x + dx),
                ys: p.ys.map(|y| y + dy),
            }
            .into(),
            Shape::Capsule(c) => Capsule {
                x0: c.x0 + dx,
                y0: c.y0 + dy,
                x1: c.x1 + dx,
                y1: c.y1 + dy,
                ..c
            }
            .into(),
        }
    }

    /// The smallest axis-aligned box containing the shape (up to rounding of its arithmetic).
    #[must_use]
    #[inline]
    pub fn bounding_box(&self) -> Aabb {
        match *self {
            Shape::Circle(c) => Aabb::from_center(c.x, c.y, c.radius, c.radius),
            Shape::Aabb(b) => b,
            Shape::Obb(o) => o.bounding_box(),
            Shape::Polygon(p) => p.bounding_box(),
            Shape::Capsule(c) => c.bounding_box(),
        }
    }
}

/// A ray from (`origin_x`, `origin_y`) along (`dir_x`, `dir_y`), for parameters `t` from 0 to
/// `max_t`: the points `origin + t · dir`.
///
/// The direction need not have unit length; `t` is measured in units of it. A ray cast
/// answers the entry parameter of the first point it shares with a shape: 0 when the origin is
/// inside (the shape's boundary included), `f32::INFINITY` for a miss.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
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

    /// The ray from `origin` along `direction` up to parameter `max_t`, from any types that
    /// convert: [`Point`] and `[f32; 2]`, or with the `mint` feature `mint::Point2<f32>` and
    /// `mint::Vector2<f32>`.
    ///
    /// ```
    /// use widephase::{Point, Ray};
    /// let r = Ray::from_parts(Point::new(1.0, 2.0), [0.0, 1.0], 10.0);
    /// assert_eq!(r, Ray::new(1.0, 2.0, 0.0, 1.0, 10.0));
    /// assert_eq!((r.origin(), r.direction()), (Point::new(1.0, 2.0), [0.0, 1.0]));
    /// ```
    #[inline]
    #[must_use]
    pub fn from_parts(
        origin: impl Into<Point>,
        direction: impl Into<[f32; 2]>,
        max_t: f32,
    ) -> Self {
        let (o, [dx, dy]) = (origin.into(), direction.into());
        Self::new(o.x, o.y, dx, dy, max_t)
    }

    /// The origin.
    #[inline]
    #[must_use]
    pub const fn origin(&self) -> Point {
        Point::new(self.origin_x, self.origin_y)
    }

    /// The direction `[dir_x, dir_y]`.
    #[inline]
    #[must_use]
    pub const fn direction(&self) -> [f32; 2] {
        [self.dir_x, self.dir_y]
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
    #[inline]
    pub fn check(&self) -> Result<(), ShapeError> {
        let names = ["origin_x", "origin_y", "dir_x", "dir_y", "max_t"];
        finite_and_sized(names, bytemuck::cast(*self))
    }
}

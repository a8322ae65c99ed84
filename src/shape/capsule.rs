//! [`Capsule`]: every point within a radius of a segment; a segment is a capsule of radius 0.

use super::error::finite_and_sized;
use super::{Aabb, Point, ShapeError};
use bytemuck::{Pod, Zeroable};

/// A closed capsule: every point within `radius` of the segment from (`x0`, `y0`) to (`x1`,
/// `y1`), the rim included.
///
/// A radius of 0 is the segment itself ([`Capsule::segment`]: level geometry, walls, a bullet's
/// path); equal endpoints make a circle. Both endpoints must be finite and the radius `>= 0`
/// ([`Capsule::check`]); a capsule that fails this never overlaps anything.
///
/// ```
/// use widephase::{reference, Capsule, Circle, Point};
/// let limb = Capsule::new(0.0, 0.0, 4.0, 0.0, 0.5);
/// assert!(reference::point_capsule(&Point::new(4.25, 0.25), &limb));
/// assert!(!reference::circle_capsule(&Circle::new(2.0, 2.0, 1.0), &limb));
/// // Two segments that cross overlap, as do two that only touch.
/// let wall = Capsule::segment(0.0, -1.0, 0.0, 1.0);
/// assert!(reference::capsule_capsule(&Capsule::segment(-1.0, 0.0, 0.0, 0.0), &wall));
/// assert_eq!(limb.start(), Point::new(0.0, 0.0));
/// ```
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Capsule {
    /// First endpoint, horizontal coordinate.
    pub x0: f32,
    /// First endpoint, vertical coordinate.
    pub y0: f32,
    /// Second endpoint, horizontal coordinate.
    pub x1: f32,
    /// Second endpoint, vertical coordinate.
    pub y1: f32,
    /// Radius around the segment; zero is the segment itself, negative is invalid.
    pub radius: f32,
}

impl Capsule {
    /// The capsule of `radius` around the segment from (`x0`, `y0`) to (`x1`, `y1`).
    #[inline]
    #[must_use]
    pub const fn new(x0: f32, y0: f32, x1: f32, y1: f32, radius: f32) -> Self {
        Self {
            x0,
            y0,
            x1,
            y1,
            radius,
        }
    }

    /// The segment from (`x0`, `y0`) to (`x1`, `y1`): a capsule of radius 0.
    #[inline]
    #[must_use]
    pub const fn segment(x0: f32, y0: f32, x1: f32, y1: f32) -> Self {
        Self::new(x0, y0, x1, y1, 0.0)
    }

    /// The capsule from `start` to `end` with `radius`, from any types that convert to a
    /// [`Point`] (`[f32; 2]`, or with the `mint` feature `mint::Point2<f32>`).
    ///
    /// ```
    /// use widephase::Capsule;
    /// assert_eq!(Capsule::from_points([1.0, 2.0], [3.0, 4.0], 0.5), Capsule::new(1.0, 2.0, 3.0, 4.0, 0.5));
    /// ```
    #[inline]
    #[must_use]
    pub fn from_points(start: impl Into<Point>, end: impl Into<Point>, radius: f32) -> Self {
        let (a, b) = (start.into(), end.into());
        Self::new(a.x, a.y, b.x, b.y, radius)
    }

    /// The first endpoint.
    #[inline]
    #[must_use]
    pub const fn start(&self) -> Point {
        Point::new(self.x0, self.y0)
    }

    /// The second endpoint.
    #[inline]
    #[must_use]
    pub const fn end(&self) -> Point {
        Point::new(self.x1, self.y1)
    }

    /// The radius around the segment.
    #[inline]
    #[must_use]
    pub const fn radius(&self) -> f32 {
        self.radius
    }

    /// The segment's length (0 for a capsule that is a circle).
    #[inline]
    #[must_use]
    pub fn length(&self) -> f32 {
        (self.x1 - self.x0).hypot(self.y1 - self.y0)
    }

    /// This capsule rotated counter-clockwise by `angle_radians` about the origin, then moved
    /// by (`x`, `y`): a placed copy of a capsule built around the origin (as
    /// [`Polygon::transformed`](crate::Polygon::transformed)).
    ///
    /// ```
    /// use widephase::Capsule;
    /// let c = Capsule::new(-1.0, 0.0, 1.0, 0.0, 0.25).transformed(5.0, 5.0, core::f32::consts::FRAC_PI_2);
    /// assert!((c.x0 - 5.0).abs() < 1e-6 && (c.y0 - 4.0).abs() < 1e-6 && c.radius == 0.25);
    /// ```
    #[must_use]
    pub fn transformed(&self, x: f32, y: f32, angle_radians: f32) -> Self {
        let (s, c) = angle_radians.sin_cos();
        let turn = |vx: f32, vy: f32| (x + (vx * c - vy * s), y + (vx * s + vy * c));
        let ((x0, y0), (x1, y1)) = (turn(self.x0, self.y0), turn(self.x1, self.y1));
        Self::new(x0, y0, x1, y1, self.radius)
    }

    /// The smallest axis-aligned box that contains the capsule.
    #[inline]
    #[must_use]
    pub fn bounding_box(&self) -> Aabb {
        let r = self.radius;
        Aabb::new(
            self.x0.min(self.x1) - r,
            self.y0.min(self.y1) - r,
            self.x0.max(self.x1) + r,
            self.y0.max(self.y1) + r,
        )
    }

    /// Why this capsule can never overlap anything, if it cannot: a NaN or infinite endpoint
    /// coordinate, or a negative or NaN radius.
    #[inline]
    pub fn check(&self) -> Result<(), ShapeError> {
        let names = ["x0", "y0", "x1", "y1", "radius"];
        finite_and_sized(names, bytemuck::cast(*self))
    }
}

//! Interop with [`mint`] (feature `mint`): points convert both ways with `mint::Point2<f32>`.
//!
//! Directions need nothing of ours: a ray's [`direction`](crate::Ray::direction) and a
//! contact's [`normal`](crate::Contact::normal) are `[f32; 2]`, which `mint::Vector2<f32>`
//! converts from and to, and [`Ray::from_parts`](crate::Ray::from_parts) takes any
//! `Into<Point>` origin and `Into<[f32; 2]>` direction:
//!
//! ```
//! use widephase::{Contact, Point, Ray};
//! let origin = mint::Point2 { x: 1.0f32, y: 2.0 };
//! let direction = mint::Vector2 { x: 0.0f32, y: 1.0 };
//! let ray = Ray::from_parts(origin, direction, 10.0);
//! assert_eq!(ray, Ray::new(1.0, 2.0, 0.0, 1.0, 10.0));
//! let back: mint::Point2<f32> = ray.origin().into();
//! let dir: mint::Vector2<f32> = ray.direction().into();
//! assert_eq!((back, dir), (origin, direction));
//!
//! let c = Contact { normal: [0.6, 0.8], depth: 0.25 };
//! let normal: mint::Vector2<f32> = c.normal.into();
//! assert_eq!((normal.x, normal.y), (0.6, 0.8));
//! let p: Point = mint::Point2 { x: 3.0f32, y: 4.0 }.into();
//! assert_eq!(p, Point::new(3.0, 4.0));
//! ```

use super::Point;

impl From<mint::Point2<f32>> for Point {
    #[inline]
    fn from(p: mint::Point2<f32>) -> Self {
        Point::new(p.x, p.y)
    }
}

impl From<Point> for mint::Point2<f32> {
    #[inline]
    fn from(p: Point) -> Self {
        mint::Point2 { x: p.x, y: p.y }
    }
}

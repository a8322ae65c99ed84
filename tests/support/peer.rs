//! The parry2d twin of every shape: what the benchmarks race against and what the contact tests
//! compare with. Shared by the tests and the benchmarks (which include this file by path).

#![allow(dead_code)]

use super::shapes::Arbitrary;
use parry2d::math::{Pose, Rotation, Vector};
use parry2d::shape::{Ball, Capsule as ParryCapsule, ConvexPolygon, Cuboid, SharedShape};
use widephase::{Aabb, Capsule, Circle, Obb, Point, Polygon, Ray};

/// A shape as parry2d would hold it.
pub trait ParryTwin: Arbitrary {
    /// The parry2d value standing for it: a shape, or for points a vector (parry2d answers
    /// them by `contains_point` on the other shape).
    type Parry;
    fn to_parry(&self) -> (Pose, Self::Parry);
}

/// A shape as a parry2d solid, for `parry2d::query::contact`: points are balls of radius 0.
pub trait Solid {
    /// Whether parry2d's `contact` is a fair judge of this kind's depths and normals: not for
    /// capsules (measured on parry2d 0.31: no penetration reported for crossing capsules, and
    /// depths up to 0.16 too shallow for capsules deep in boxes or polygons), which the
    /// independent `f64` check judges alone.
    const CONTACT_PEER: bool = true;
    fn solid(&self) -> (Pose, SharedShape);
}

impl Solid for Capsule {
    const CONTACT_PEER: bool = false;
    fn solid(&self) -> (Pose, SharedShape) {
        let (pose, shape) = self.to_parry();
        (pose, SharedShape::new(shape))
    }
}

impl ParryTwin for Capsule {
    type Parry = ParryCapsule;
    fn to_parry(&self) -> (Pose, ParryCapsule) {
        let (a, b) = (Vector::new(self.x0, self.y0), Vector::new(self.x1, self.y1));
        (Pose::IDENTITY, ParryCapsule::new(a, b, self.radius))
    }
}

impl Solid for Point {
    fn solid(&self) -> (Pose, SharedShape) {
        (
            Pose::translation(self.x, self.y),
            SharedShape::new(Ball::new(0.0)),
        )
    }
}

macro_rules! solids {
    ($($S:ty),+) => {$(
        impl Solid for $S {
            fn solid(&self) -> (Pose, SharedShape) {
                let (pose, shape) = self.to_parry();
                (pose, SharedShape::new(shape))
            }
        }
    )+};
}

solids!(Circle, Aabb, Obb, Polygon);

impl ParryTwin for Point {
    type Parry = Vector;
    fn to_parry(&self) -> (Pose, Vector) {
        (Pose::IDENTITY, Vector::new(self.x, self.y))
    }
}

impl ParryTwin for Circle {
    type Parry = Ball;
    fn to_parry(&self) -> (Pose, Ball) {
        (Pose::translation(self.x, self.y), Ball::new(self.radius))
    }
}

impl ParryTwin for Aabb {
    type Parry = Cuboid;
    fn to_parry(&self) -> (Pose, Cuboid) {
        let (hw, hh) = (
            (self.max_x - self.min_x) * 0.5,
            (self.max_y - self.min_y) * 0.5,
        );
        (
            Pose::translation(self.min_x + hw, self.min_y + hh),
            Cuboid::new(Vector::new(hw, hh)),
        )
    }
}

impl ParryTwin for Obb {
    type Parry = Cuboid;
    fn to_parry(&self) -> (Pose, Cuboid) {
        let rotation = Rotation::from_cos_sin_unchecked(self.cos, self.sin);
        (
            Pose::from_parts(Vector::new(self.center_x, self.center_y), rotation),
            Cuboid::new(Vector::new(self.half_width, self.half_height)),
        )
    }
}

impl ParryTwin for Polygon {
    type Parry = ConvexPolygon;
    fn to_parry(&self) -> (Pose, ConvexPolygon) {
        let points = self.vertices().map(|[x, y]| Vector::new(x, y)).collect();
        let poly = ConvexPolygon::from_convex_polyline_unmodified(points)
            .expect("a convex counter-clockwise polygon");
        (Pose::IDENTITY, poly)
    }
}

impl ParryTwin for Ray {
    type Parry = parry2d::query::Ray;
    fn to_parry(&self) -> (Pose, parry2d::query::Ray) {
        let origin = Vector::new(self.origin_x, self.origin_y);
        let ray = parry2d::query::Ray::new(origin, Vector::new(self.dir_x, self.dir_y));
        (Pose::IDENTITY, ray)
    }
}

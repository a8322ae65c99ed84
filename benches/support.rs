//! The benchmarks' inputs and their parry2d twins.
//!
//! Shapes come from the generators the tests and the fuzzer use (`tests/support/shapes.rs`):
//! ordinary shapes spread as [`Spread::BENCH`] (finite, valid, sizes 0.25–1.5, placed in a
//! 4×4 square), so that roughly half of the pairs overlap: neither answer is rare, so no branchy
//! peer gets an easy ride from the branch predictor.

#![allow(dead_code)]

#[path = "../tests/support/shapes.rs"]
mod shapes;

use parry2d::math::{Pose, Rotation, Vector};
use parry2d::query::{PointQuery, intersection_test};
use parry2d::shape::{Ball, ConvexPolygon, Cuboid, Shape as ParryShape};
#[allow(unused_imports)] // each bench uses what it needs
pub use shapes::{Arbitrary, Gen, Motion, Spread};
use widephase::{Aabb, Circle, Obb, Point, Polygon, Ray};

/// A shape the benchmarks can hand to parry2d.
pub trait BenchShape: Arbitrary {
    /// The parry2d value standing for it: a shape, or for points a vector (parry2d answers
    /// them by `contains_point` on the other shape).
    type Parry;
    fn to_parry(&self) -> (Pose, Self::Parry);
}

/// How parry2d answers "does this pair overlap?": `intersection_test` for two shapes,
/// `contains_point` for a point and a shape.
pub trait Peer<B: BenchShape>: BenchShape {
    fn overlaps(a: &(Pose, Self::Parry), b: &(Pose, B::Parry)) -> bool;
}

impl<B: BenchShape> Peer<B> for Point
where
    B::Parry: ParryShape,
{
    fn overlaps(p: &(Pose, Vector), b: &(Pose, B::Parry)) -> bool {
        b.1.contains_point(&b.0, p.1)
    }
}

/// `Peer` by `intersection_test` for the shapes parry2d has a shape for.
macro_rules! shape_peers {
    ($($S:ty),+) => {$(
        impl<B: BenchShape> Peer<B> for $S
        where
            B::Parry: ParryShape,
        {
            fn overlaps(a: &(Pose, Self::Parry), b: &(Pose, B::Parry)) -> bool {
                intersection_test(&a.0, &a.1, &b.0, &b.1)
                    .unwrap()
                    .intersecting
            }
        }
    )+};
}

shape_peers!(Circle, Aabb, Obb, Polygon);

impl BenchShape for Point {
    type Parry = Vector;
    fn to_parry(&self) -> (Pose, Vector) {
        (Pose::IDENTITY, Vector::new(self.x, self.y))
    }
}

impl BenchShape for Circle {
    type Parry = Ball;
    fn to_parry(&self) -> (Pose, Ball) {
        (Pose::translation(self.x, self.y), Ball::new(self.radius))
    }
}

impl BenchShape for Aabb {
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

impl BenchShape for Obb {
    type Parry = Cuboid;
    fn to_parry(&self) -> (Pose, Cuboid) {
        let rotation = Rotation::from_cos_sin_unchecked(self.cos, self.sin);
        (
            Pose::from_parts(Vector::new(self.center_x, self.center_y), rotation),
            Cuboid::new(Vector::new(self.half_width, self.half_height)),
        )
    }
}

impl BenchShape for Polygon {
    type Parry = ConvexPolygon;
    fn to_parry(&self) -> (Pose, ConvexPolygon) {
        let points = self.vertices().map(|[x, y]| Vector::new(x, y)).collect();
        let poly = ConvexPolygon::from_convex_polyline_unmodified(points)
            .expect("a convex counter-clockwise polygon");
        (Pose::IDENTITY, poly)
    }
}

impl BenchShape for Ray {
    type Parry = parry2d::query::Ray;
    fn to_parry(&self) -> (Pose, parry2d::query::Ray) {
        let origin = Vector::new(self.origin_x, self.origin_y);
        let ray = parry2d::query::Ray::new(origin, Vector::new(self.dir_x, self.dir_y));
        (Pose::IDENTITY, ray)
    }
}

/// `n` seeded ordinary shapes, spread as [`Spread::BENCH`].
pub fn shapes<S: Arbitrary>(n: usize, seed: u64) -> Vec<S> {
    let mut g = Gen::new(seed);
    (0..n)
        .map(|_| S::ordinary_in(&mut g, &Spread::BENCH))
        .collect()
}

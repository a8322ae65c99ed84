//! Seeded benchmark inputs and their parry2d twins.
//!
//! Shapes are ordinary (finite, valid, sizes 0.25–1.5) and placed in a 4×4 square so that roughly
//! half of the pairs overlap: neither answer is rare, so no branchy peer gets an easy ride from
//! the branch predictor.

#![allow(dead_code)]

use parry2d::math::{Pose, Rotation, Vector};
use parry2d::shape::{Ball, ConvexPolygon, Cuboid};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use widephase::{Aabb, Circle, Obb, Point, Polygon, Ray};

/// A shape the benchmarks can generate and hand to parry2d.
pub trait BenchShape: Copy {
    /// The parry2d shape standing for it, `None` for points (parry2d answers them by
    /// `contains_point` on the other shape instead).
    type Parry;
    fn random(rng: &mut SmallRng) -> Self;
    fn to_parry(&self) -> (Pose, Self::Parry);
}

fn pos(rng: &mut SmallRng) -> f32 {
    rng.random_range(-2.0..2.0)
}

fn size(rng: &mut SmallRng) -> f32 {
    rng.random_range(0.25..1.5)
}

impl BenchShape for Point {
    type Parry = Vector;
    fn random(rng: &mut SmallRng) -> Self {
        Point::new(pos(rng), pos(rng))
    }
    fn to_parry(&self) -> (Pose, Vector) {
        (Pose::IDENTITY, Vector::new(self.x, self.y))
    }
}

impl BenchShape for Circle {
    type Parry = Ball;
    fn random(rng: &mut SmallRng) -> Self {
        Circle::new(pos(rng), pos(rng), size(rng))
    }
    fn to_parry(&self) -> (Pose, Ball) {
        (Pose::translation(self.x, self.y), Ball::new(self.radius))
    }
}

impl BenchShape for Aabb {
    type Parry = Cuboid;
    fn random(rng: &mut SmallRng) -> Self {
        Aabb::from_center(pos(rng), pos(rng), size(rng), size(rng))
    }
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
    fn random(rng: &mut SmallRng) -> Self {
        let angle = rng.random_range(-3.2..3.2);
        Obb::new(pos(rng), pos(rng), size(rng), size(rng), angle)
    }
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
    /// 3 to 8 vertices at sorted random angles on a circle, so convex.
    fn random(rng: &mut SmallRng) -> Self {
        let (x, y, r) = (pos(rng), pos(rng), size(rng));
        let n = rng.random_range(3..=8usize);
        let mut angles: Vec<f32> = (0..n)
            .map(|_| rng.random_range(0.0..core::f32::consts::TAU))
            .collect();
        angles.sort_by(f32::total_cmp);
        let points: Vec<[f32; 2]> = angles
            .iter()
            .map(|a| [x + r * a.cos(), y + r * a.sin()])
            .collect();
        Polygon::new(&points).unwrap_or_else(|_| Polygon::regular(n, x, y, r, 0.0))
    }
    fn to_parry(&self) -> (Pose, ConvexPolygon) {
        let points = self.vertices().map(|[x, y]| Vector::new(x, y)).collect();
        let poly = ConvexPolygon::from_convex_polyline_unmodified(points)
            .expect("a convex counter-clockwise polygon");
        (Pose::IDENTITY, poly)
    }
}

impl BenchShape for Ray {
    type Parry = parry2d::query::Ray;
    /// From the square around the shapes toward a point of their area, so that about half of
    /// the rays hit; half of them unbounded, half with a finite reach.
    fn random(rng: &mut SmallRng) -> Self {
        let (ox, oy) = (rng.random_range(-4.0..4.0), rng.random_range(-4.0..4.0));
        let (tx, ty) = (pos(rng), pos(rng));
        let max_t = if rng.random::<bool>() {
            f32::INFINITY
        } else {
            rng.random_range(0.5..2.0)
        };
        Ray::new(ox, oy, tx - ox, ty - oy, max_t)
    }
    fn to_parry(&self) -> (Pose, parry2d::query::Ray) {
        let origin = Vector::new(self.origin_x, self.origin_y);
        let ray = parry2d::query::Ray::new(origin, Vector::new(self.dir_x, self.dir_y));
        (Pose::IDENTITY, ray)
    }
}

/// `n` seeded shapes.
pub fn shapes<S: BenchShape>(n: usize, seed: u64) -> Vec<S> {
    let mut rng = SmallRng::seed_from_u64(seed);
    (0..n).map(|_| S::random(&mut rng)).collect()
}

//! The benchmarks' inputs and their parry2d twins.
//!
//! Shapes come from the generators the tests and the fuzzer use (`tests/support/shapes.rs`):
//! ordinary shapes spread as [`Spread::BENCH`] (finite, valid, sizes 0.25–1.5, placed in a
//! 4×4 square), so that roughly half of the pairs overlap: neither answer is rare, so no branchy
//! peer gets an easy ride from the branch predictor.

#![allow(dead_code)]

#[path = "../../tests/support/shapes.rs"]
mod shapes;

#[path = "../../tests/support/peer.rs"]
mod peer;

use parry2d::math::{Pose, Vector};
use parry2d::partitioning::{Bvh, BvhBuildStrategy};
use parry2d::query::{PointQuery, intersection_test};
use parry2d::shape::Shape as ParryShape;
#[allow(unused_imports)] // each bench uses what it needs
pub use peer::{ParryTwin, Solid};
#[allow(unused_imports)] // each bench uses what it needs
pub use shapes::{Arbitrary, Gen, Motion, Spread};
use widephase::{Aabb, Capsule, Circle, Obb, Point, Polygon, Scene, Shape};

/// How parry2d answers "does this pair overlap?": `intersection_test` for two shapes,
/// `contains_point` for a point and a shape.
pub trait Peer<B: ParryTwin>: ParryTwin {
    fn overlaps(a: &(Pose, Self::Parry), b: &(Pose, B::Parry)) -> bool;
}

impl<B: ParryTwin> Peer<B> for Point
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
        impl<B: ParryTwin> Peer<B> for $S
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

shape_peers!(Circle, Aabb, Obb, Polygon, Capsule);

/// `n` seeded ordinary shapes, spread as [`Spread::BENCH`].
pub fn shapes<S: Arbitrary>(n: usize, seed: u64) -> Vec<S> {
    let mut g = Gen::new(seed);
    (0..n)
        .map(|_| S::ordinary_in(&mut g, &Spread::BENCH))
        .collect()
}

/// The pipeline and cast benchmarks' scene (see [`Gen::mixed_scene`]).
pub fn scene(n: usize, seed: u64) -> Scene {
    Gen::new(seed).mixed_scene(n).into_iter().collect()
}

/// A scene as parry2d shapes, in id order.
pub type ParryScene = Vec<(Pose, Box<dyn ParryShape>)>;

/// The scene's shapes as parry2d shapes.
pub fn parry_scene(scene: &Scene) -> ParryScene {
    scene
        .iter()
        .map(|(_, s)| -> (Pose, Box<dyn ParryShape>) {
            match s {
                Shape::Circle(c) => {
                    let (p, b) = c.to_parry();
                    (p, Box::new(b))
                }
                Shape::Aabb(a) => {
                    let (p, b) = a.to_parry();
                    (p, Box::new(b))
                }
                Shape::Obb(o) => {
                    let (p, b) = o.to_parry();
                    (p, Box::new(b))
                }
                Shape::Polygon(q) => {
                    let (p, b) = q.to_parry();
                    (p, Box::new(b))
                }
                Shape::Capsule(c) => {
                    let (p, b) = c.to_parry();
                    (p, Box::new(b))
                }
            }
        })
        .collect()
}

/// parry2d's BVH over the shapes' boxes, built from scratch.
pub fn parry_build(shapes: &ParryScene) -> Bvh {
    let leaves: Vec<_> = shapes
        .iter()
        .map(|(pose, s)| s.compute_aabb(pose))
        .collect();
    Bvh::from_leaves(BvhBuildStrategy::default(), &leaves)
}

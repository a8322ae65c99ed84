//! Sweeps at every scale: one pair apart at the start, hit through two points, multiplied
//! by `2^k` for `k` from -60 to 60 (lengths from about 1e-18 to 1e18; multiplying by a power of
//! two is exact), must meet at the same time along the same normal, within rounding, and the
//! lanes must give the reference's bits. Round kinds solve discs with products of four lengths
//! (`m·m · r²`), which under- or overflow beyond about 1e9 and below about 1e-9 (pairs far
//! apart hit at `t = 0`, misses, or times off by a fifth): the round pieces take the disc's
//! products of two lengths times a power of two, and the two-disc pairs scale such lanes back
//! before solving; every round kind's test fails without it from about `2^±31`, and a circle's
//! or a capsule's against a polygon also without overlap tests in products of two lengths
//! (their start).

use widephase::{
    Aabb, Capsule, Circle, Motions, Obb, Point, Polygon, ShapeSoa, SweepPair, Sweeps, batch_sweep,
};

/// A shape of each kind near the origin (`near`) and one ahead of it about `(3.4, 1.6)`
/// (`ahead`), apart; `by` multiplies every length.
trait Fixture: Sized {
    fn near(by: f32) -> Self;
    fn ahead(by: f32) -> Self;
}

impl Fixture for Point {
    fn near(_: f32) -> Self {
        Point::new(0.0, 0.0)
    }
    fn ahead(s: f32) -> Self {
        Point::new(3.4 * s, 1.6 * s)
    }
}

impl Fixture for Circle {
    fn near(s: f32) -> Self {
        Circle::new(0.0, 0.0, 0.5 * s)
    }
    fn ahead(s: f32) -> Self {
        Circle::new(3.4 * s, 1.7 * s, 0.3 * s)
    }
}

impl Fixture for Aabb {
    fn near(s: f32) -> Self {
        Aabb::new(-0.5 * s, -0.5 * s, 0.5 * s, 0.5 * s)
    }
    fn ahead(s: f32) -> Self {
        Aabb::new(3.0 * s, 1.2 * s, 4.0 * s, 2.0 * s)
    }
}

impl Fixture for Obb {
    fn near(s: f32) -> Self {
        Obb::new(0.0, 0.0, 0.5 * s, 0.4 * s, 0.3)
    }
    fn ahead(s: f32) -> Self {
        Obb::new(3.5 * s, 1.6 * s, 0.5 * s, 0.4 * s, -0.4)
    }
}

impl Fixture for Capsule {
    fn near(s: f32) -> Self {
        Capsule::new(0.0, -0.5 * s, 0.0, 0.5 * s, 0.3 * s)
    }
    fn ahead(s: f32) -> Self {
        Capsule::new(3.2 * s, 1.0 * s, 3.6 * s, 2.2 * s, 0.25 * s)
    }
}

impl Fixture for Polygon {
    fn near(s: f32) -> Self {
        Polygon::new(&[[-0.5 * s, -0.5 * s], [0.5 * s, -0.4 * s], [0.0, 0.6 * s]]).unwrap()
    }
    fn ahead(s: f32) -> Self {
        Polygon::new(&[[3.0 * s, 1.2 * s], [4.0 * s, 1.3 * s], [3.6 * s, 2.4 * s]]).unwrap()
    }
}

/// `a` (near) moving onto `b` (ahead), through `(3.4, 1.6)` and `(3.5, 1.8)` at half way, at
/// scales `2^k` for `k` in `-LIMIT..=LIMIT`: the unscaled time and normal within `1e-5`, and
/// the lanes' bits.
fn at_every_scale<A, B>()
where
    A: SweepPair<B> + FromIterator<A::Shape>,
    B: ShapeSoa + FromIterator<B::Shape>,
    A::Shape: Fixture,
    B::Shape: Fixture,
{
    for motion in [[6.8f32, 3.2], [7.0, 3.6]] {
        let one = A::sweep_reference(&A::Shape::near(1.0), &B::Shape::ahead(1.0), motion)
            .expect("the unscaled pair meets");
        for k in -LIMIT..=LIMIT {
            let s = 2f32.powi(k);
            let (a, b) = (A::Shape::near(s), B::Shape::ahead(s));
            let m = [motion[0] * s, motion[1] * s];
            let got = A::sweep_reference(&a, &b, m);
            let close = got.is_some_and(|g| {
                (g.t - one.t).abs() <= 1e-5
                    && (g.normal[0] - one.normal[0]).abs() <= 1e-5
                    && (g.normal[1] - one.normal[1]).abs() <= 1e-5
            });
            assert!(
                close,
                "scale 2^{k}, motion {motion:?}: {got:?}, unscaled {one:?}"
            );
            let (la, lb): (A, B) = ([a].into_iter().collect(), [b].into_iter().collect());
            let motions: Motions = [m].into_iter().collect();
            let mut lanes = Sweeps::new();
            batch_sweep(&la, &lb, &motions, &mut lanes).unwrap();
            let bits = |s: Option<widephase::Sweep>| {
                s.map(|s| [s.t, s.normal[0], s.normal[1]].map(f32::to_bits))
            };
            assert_eq!(bits(lanes.get(0)), bits(got), "scale 2^{k}: lanes");
        }
    }
}

/// The scales every pair is held to: `2^±60`.
const LIMIT: i32 = 60;

widephase::pair_table!(both_orders, at_every_scale;);

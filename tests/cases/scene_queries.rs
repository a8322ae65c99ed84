//! `Scene`'s ray casts and box and point queries against brute force through the references.

use super::scene::{awkward, brute_point, brute_query, brute_raycast, shapes};
use crate::support::shapes::{Arbitrary, Gen};
use widephase::{Aabb, Circle, PairFinder, Scene, Shape};

/// Ray casts, box and point queries against brute force through the references, exactly (the
/// same nearest id and the same bits of `t`), on ordinary, awkward, multi-level and outlier
/// scenes, with ordinary, awkward, axis-parallel and far-away rays.
#[test]
fn queries_match_brute_force() {
    use widephase::{Point, Ray};
    let mut g = Gen::new(88);
    let mut scenes = vec![
        ("mixed", g.mixed_world(2000, 60.0)),
        ("dense", g.mixed_world(1500, 15.0)),
        ("empty", Scene::new()),
    ];
    let odd: Scene = (0..500).map(|_| awkward(&mut g)).collect();
    scenes.push(("awkward", odd));
    let mut outliers = g.mixed_world(800, 30.0);
    for far in [1e4, 1e7, 1e12, 1e19] {
        outliers.push(Circle::new(far, far, 1.0));
        outliers.push(Aabb::new(-far, 3.0, -far + 2.0, 5.0));
        outliers.push(Circle::new(3.0, -far, far * 0.5));
    }
    outliers.push(Aabb::new(f32::NEG_INFINITY, 10.0, f32::INFINITY, 10.5));
    scenes.push(("outliers", outliers));
    let sizes: Scene = (0..1500)
        .map(|_| -> Shape {
            let (x, y) = (g.uniform(0.0, 200.0), g.uniform(0.0, 200.0));
            let r = 10f32.powf(g.uniform(-2.0, 1.5));
            match g.index(2) {
                0 => Circle::new(x, y, r).into(),
                _ => g.convex(x, y, r).into(),
            }
        })
        .collect();
    scenes.push(("many sizes", sizes));

    for (name, scene) in &scenes {
        let shapes = shapes(scene);
        let mut finder = PairFinder::new();
        let index = finder.index(scene);
        let b = shapes
            .iter()
            .filter(|s| s.check().is_ok())
            .map(|s| s.bounding_box())
            .filter(|b| {
                [b.min_x, b.min_y, b.max_x, b.max_y]
                    .iter()
                    .all(|v| v.abs() < 1e3)
            })
            .fold(Aabb::new(0.0, 0.0, 1.0, 1.0), |a, b| {
                Aabb::new(
                    a.min_x.min(b.min_x),
                    a.min_y.min(b.min_y),
                    a.max_x.max(b.max_x),
                    a.max_y.max(b.max_y),
                )
            });
        let inside = |g: &mut Gen| (g.uniform(b.min_x, b.max_x), g.uniform(b.min_y, b.max_y));
        let (mut hits, mut found) = (0, 0);
        for i in 0..400 {
            let ray = match i % 5 {
                0 => Ray::arbitrary(&mut g),
                1 => {
                    let (x, y) = inside(&mut g);
                    Ray::new(
                        x,
                        y,
                        g.uniform(-2.0, 2.0),
                        g.uniform(-2.0, 2.0),
                        f32::INFINITY,
                    )
                }
                2 => {
                    // Axis-parallel, from outside the scene.
                    let (x, y) = inside(&mut g);
                    let k = g.index(4);
                    let (ox, oy, dx, dy) = [
                        (b.min_x - 50.0, y, 1.0, 0.0),
                        (b.max_x + 50.0, y, -1.0, 0.0),
                        (x, b.min_y - 50.0, 0.0, 1.0),
                        (x, b.max_y + 50.0, 0.0, -1.0),
                    ][k];
                    Ray::new(ox, oy, dx, dy, f32::INFINITY)
                }
                3 => {
                    // From far away toward a point of the scene, with a finite reach.
                    let (x, y) = inside(&mut g);
                    let (fx, fy) = (g.uniform(-1e5, 1e5), g.uniform(-1e5, 1e5));
                    Ray::new(fx, fy, x - fx, y - fy, g.uniform(0.5, 1.5))
                }
                _ => {
                    let (x, y) = inside(&mut g);
                    Ray::new(
                        x,
                        y,
                        g.uniform(-1.0, 1.0),
                        g.uniform(-1.0, 1.0),
                        g.uniform(0.0, 30.0),
                    )
                }
            };
            let got = index.raycast(&ray);
            let want = brute_raycast(&shapes, &ray);
            let same = match (got, want) {
                (Some((a, s)), Some((b, t))) => a == b && s.to_bits() == t.to_bits(),
                (None, None) => true,
                _ => false,
            };
            assert!(same, "{name}: {ray:?}: index {got:?}, brute force {want:?}");
            hits += usize::from(want.is_some());
            assert_eq!(scene.raycast(&ray), got, "{name}: Scene::raycast");

            let q: Aabb = if i % 3 == 0 {
                Aabb::arbitrary(&mut g)
            } else {
                let (x, y) = inside(&mut g);
                Aabb::from_center(x, y, g.uniform(0.0, 5.0), g.uniform(0.0, 5.0))
            };
            let mut ids = Vec::new();
            index.query_aabb(&q, &mut ids);
            let want = brute_query(&shapes, &Shape::Aabb(q));
            assert_eq!(ids, want, "{name}: query_aabb {q:?}");
            found += ids.len();
            let p = if i % 3 == 0 {
                Point::arbitrary(&mut g)
            } else {
                let (x, y) = inside(&mut g);
                Point::new(x, y)
            };
            index.query_point(p, &mut ids);
            assert_eq!(ids, brute_point(&shapes, &p), "{name}: query_point {p:?}");
        }
        if !shapes.is_empty() {
            assert!(
                hits > 40 && found > 40,
                "{name}: {hits} ray hits, {found} shapes in boxes"
            );
        }
    }
}

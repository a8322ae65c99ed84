//! Manifolds worked by hand: boxes and polygons resting flat, faces parallel within rounding, a
//! box landing corner first, a circle on a box, and the feature ids of a tilted box settling
//! and sliding; and a scene's manifolds against the references pair by pair.

use super::contacts::shape_contact;
use crate::support::shapes::{Gen, manifold_bits as bits};
use crate::support::threads::in_pool;
use widephase::{
    Aabb, Circle, Manifold, ManifoldPair, Obb, PairFinder, Polygon, Shape, manifold_reference,
};

#[test]
fn box_resting_flat_on_a_box() {
    let floor = Aabb::new(-2.0, -1.0, 2.0, 0.0);
    let block = Aabb::new(-0.5, -0.25, 0.5, 0.75);
    let m = manifold_reference::aabb_aabb(&floor, &block).unwrap();
    assert_eq!((m.normal, m.count), ([0.0, 1.0], 2));
    let xs: Vec<f32> = m.points().iter().map(|p| p.point[0]).collect();
    assert!(xs.contains(&-0.5) && xs.contains(&0.5), "{m:?}");
    for p in m.points() {
        assert_eq!((p.depth, p.point[1]), (0.25, -0.125), "{m:?}");
    }
    // The same block as an OBB, and from the block's side.
    let o = Obb::axis_aligned(0.0, 0.25, 0.5, 0.5);
    let m2 = manifold_reference::aabb_obb(&floor, &o).unwrap();
    assert_eq!(m2.count, 2);
    let back = <widephase::Obbs as ManifoldPair<widephase::Aabbs>>::manifold_reference(&o, &floor);
    assert_eq!(back, Some(m2.reversed()));
}

/// A box resting flat on a floor as any pair of box and polygon kinds, in either order, near
/// the origin and a thousand units out, at many depths: two points whose depths are equal, and
/// the contact's, exactly (the two clipped ends are equally deep, so both take it).
#[test]
fn flat_resting_faces_have_equal_depths() {
    let mut compared = 0;
    for i in 0..300 {
        let f = i as f32;
        let x = (f * 0.37).sin() * 5.0 + if i % 3 == 0 { 1000.0 } else { 0.0 };
        let depth = 0.01 + (f * 0.11).cos().abs() * 0.3;
        let (hw, hh) = (0.3 + (f * 0.07).sin().abs(), 0.2 + (f * 0.13).cos().abs());
        let (bottom, top) = (-depth, 2.0 * hh - depth);
        let blocks: [Shape; 3] = [
            Aabb::new(x - hw, bottom, x + hw, top).into(),
            Obb::axis_aligned(x, hh - depth, hw, hh).into(),
            Polygon::new(&[
                [x - hw, bottom],
                [x + hw, bottom],
                [x + hw, top],
                [x - hw, top],
            ])
            .expect("a rectangle")
            .into(),
        ];
        let floors: [Shape; 3] = [
            Aabb::new(-10.0, -1.0, 2000.0, 0.0).into(),
            Obb::axis_aligned(995.0, -0.5, 1005.0, 0.5).into(),
            Polygon::new(&[[-10.0, -1.0], [2000.0, -1.0], [2000.0, 0.0], [-10.0, 0.0]])
                .expect("a rectangle")
                .into(),
        ];
        for (floor, block) in floors
            .iter()
            .flat_map(|f| blocks.iter().map(move |b| (*f, *b)))
        {
            for (a, b) in [(floor, block), (block, floor)] {
                let m = shape_manifold(a, b).expect("resting in the floor");
                let c = shape_contact(a, b).expect("overlapping");
                assert_eq!(m.count, 2, "{floor:?} {block:?}: {m:?}");
                let [p, q] = m.points;
                assert_eq!(
                    (p.depth, q.depth),
                    (c.depth, c.depth),
                    "{floor:?} {block:?}: {m:?}"
                );
                compared += 1;
            }
        }
    }
    assert_eq!(compared, 300 * 18);
}

/// Two boxes turned alike, one resting on the other (parallel faces: both are the normal's
/// face up to rounding), at many angles and places: the reference face stays `a`'s (the ids'
/// reference bit clear), so the ids do not flip between `a` and `b` with the rounding.
#[test]
fn parallel_faces_keep_a_as_the_reference() {
    for i in 0..2000 {
        let f = i as f32;
        let angle = f * 0.0031 - 3.1;
        let (cos, sin) = (angle.cos(), angle.sin());
        let (cx, cy) = ((f * 0.37).sin() * 50.0, (f * 0.23).cos() * 50.0);
        let (hw, hh, depth) = (
            1.0 + (f * 0.07).sin().abs(),
            0.5,
            0.05 + 0.1 * (f * 0.11).cos().abs(),
        );
        // `b` on `a`'s top face, along `a`'s up axis (-sin, cos), a little narrower.
        let up = 2.0 * hh - depth;
        let (bx, by) = (cx - sin * up, cy + cos * up);
        let a = Obb::new(cx, cy, hw, hh, angle);
        let b = Obb::new(bx, by, 0.5 * hw, hh, angle);
        // The same boxes as polygons, whose edge normals carry their vertices' rounding.
        let corners = |x: f32, y: f32, w: f32, h: f32| {
            [(-w, -h), (w, -h), (w, h), (-w, h)]
                .map(|(u, v)| [x + u * cos - v * sin, y + u * sin + v * cos])
        };
        let pa = Polygon::new(&corners(cx, cy, hw, hh)).expect("a rectangle");
        let pb = Polygon::new(&corners(bx, by, 0.5 * hw, hh)).expect("a rectangle");
        let manifolds = [
            manifold_reference::obb_obb(&a, &b),
            manifold_reference::obb_polygon(&a, &pb),
            manifold_reference::polygon_polygon(&pa, &pb),
        ];
        for m in manifolds {
            let m = m.expect("resting on it");
            assert_eq!(m.count, 2, "angle {angle}: {m:?}");
            for p in m.points() {
                assert_eq!(p.id & 0x180, 0x100, "angle {angle}: {m:?}");
            }
        }
    }
}

#[test]
fn box_on_a_box_corner_first() {
    // A diamond whose lowest corner is 0.1 into the floor: one point.
    let floor = Aabb::new(-2.0, -1.0, 2.0, 0.0);
    let h = core::f32::consts::FRAC_1_SQRT_2;
    let diamond = Obb::new(0.0, h - 0.1, 0.5, 0.5, core::f32::consts::FRAC_PI_4);
    let m = manifold_reference::aabb_obb(&floor, &diamond).unwrap();
    assert_eq!((m.normal, m.count), ([0.0, 1.0], 1), "{m:?}");
    let p = m.points[0];
    assert!(
        (p.depth - 0.1).abs() < 1e-5 && p.point[0].abs() < 1e-5 && (p.point[1] + 0.05).abs() < 1e-5,
        "{m:?}"
    );
}

#[test]
fn circle_on_a_box() {
    let floor = Aabb::new(-2.0, -1.0, 2.0, 0.0);
    let ball = Circle::new(0.5, 0.75, 1.0);
    let m = manifold_reference::circle_aabb(&ball, &floor).unwrap();
    assert_eq!((m.normal, m.count), ([0.0, -1.0], 1));
    assert_eq!(
        m.points[0],
        widephase::ManifoldPoint {
            point: [0.5, -0.125],
            depth: 0.25,
            id: 0
        }
    );
}

#[test]
fn polygon_resting_on_a_polygon_face() {
    let ground = Polygon::new(&[[-3.0, -1.0], [3.0, -1.0], [3.0, 0.0], [-3.0, 0.0]]).unwrap();
    let tri = Polygon::new(&[[-1.0, -0.2], [1.0, -0.2], [0.0, 1.0]]).unwrap();
    let m = manifold_reference::polygon_polygon(&ground, &tri).unwrap();
    assert_eq!((m.normal, m.count), ([0.0, 1.0], 2), "{m:?}");
    for p in m.points() {
        assert!(
            (p.depth - 0.2).abs() < 1e-6 && p.point[0].abs() == 1.0,
            "{m:?}"
        );
    }
}

#[test]
fn ids_hold_while_a_tilted_box_settles_and_slides() {
    let floor = Aabb::new(-50.0, -1.0, 50.0, 0.0);
    // Tilted by 1e-4 rad: two points, and the same ids while it sinks and slides.
    let mut ids = None;
    for frame in 0..100 {
        let x = frame as f32 * 0.05;
        let sink = 0.01 + frame as f32 * 1e-4;
        let o = Obb::new(x, 0.5 - sink, 0.5, 0.5, 1e-4);
        let m = manifold_reference::aabb_obb(&floor, &o).unwrap();
        assert_eq!(m.count, 2, "frame {frame}: {m:?}");
        let now = (m.points[0].id, m.points[1].id);
        assert_ne!(now.0, now.1);
        assert_eq!(*ids.get_or_insert(now), now, "frame {frame}: ids changed");
        // The lower corner is the deeper one.
        assert!(
            m.points.iter().all(|p| p.depth > 0.0),
            "frame {frame}: {m:?}"
        );
    }
}

/// The manifold of two scene shapes in this order, through the references.
fn shape_manifold(a: Shape, b: Shape) -> Option<Manifold> {
    use manifold_reference as r;
    match (a, b) {
        (Shape::Circle(a), Shape::Circle(b)) => r::circle_circle(&a, &b),
        (Shape::Circle(a), Shape::Aabb(b)) => r::circle_aabb(&a, &b),
        (Shape::Circle(a), Shape::Obb(b)) => r::circle_obb(&a, &b),
        (Shape::Circle(a), Shape::Polygon(b)) => r::circle_polygon(&a, &b),
        (Shape::Circle(a), Shape::Capsule(b)) => r::circle_capsule(&a, &b),
        (Shape::Aabb(a), Shape::Aabb(b)) => r::aabb_aabb(&a, &b),
        (Shape::Aabb(a), Shape::Obb(b)) => r::aabb_obb(&a, &b),
        (Shape::Aabb(a), Shape::Polygon(b)) => r::aabb_polygon(&a, &b),
        (Shape::Aabb(a), Shape::Capsule(b)) => r::aabb_capsule(&a, &b),
        (Shape::Obb(a), Shape::Obb(b)) => r::obb_obb(&a, &b),
        (Shape::Obb(a), Shape::Polygon(b)) => r::obb_polygon(&a, &b),
        (Shape::Obb(a), Shape::Capsule(b)) => r::obb_capsule(&a, &b),
        (Shape::Polygon(a), Shape::Polygon(b)) => r::polygon_polygon(&a, &b),
        (Shape::Polygon(a), Shape::Capsule(b)) => r::polygon_capsule(&a, &b),
        (Shape::Capsule(a), Shape::Capsule(b)) => r::capsule_capsule(&a, &b),
        (a, b) => shape_manifold(b, a).map(Manifold::reversed),
    }
}

/// `PairFinder::manifolds` and `Scene::manifolds` answer the pairs of `overlapping_pairs`, in
/// order, each with the reference's manifold of its two shapes in the pair's order, bit for bit,
/// on 1 and 2 threads, over moving frames.
#[test]
fn scene_manifolds_follow_the_pairs() {
    let mut g = Gen::new(71);
    let mut scene = g.mixed_world(3000, 60.0);
    for threads in [1, 2] {
        in_pool(threads, || {
            let mut finder = PairFinder::new();
            let mut manifolds = Vec::new();
            let mut pairs;
            for frame in 0..5 {
                scene.update(|id, s| crate::support::shapes::moved(s, id, frame, 0.05, 60.0));
                finder.manifolds(&scene, &mut manifolds);
                pairs = scene.overlapping_pairs();
                assert_eq!(manifolds.len(), pairs.len(), "frame {frame}");
                for (&(a, b, m), &(pa, pb)) in manifolds.iter().zip(&pairs) {
                    assert_eq!((a, b), (pa, pb));
                    let want = shape_manifold(scene.get(a).unwrap(), scene.get(b).unwrap());
                    assert_eq!(bits(Some(m)), bits(want), "frame {frame} pair ({a}, {b})");
                }
            }
            let once = scene.manifolds();
            assert_eq!(once.len(), manifolds.len());
            for (x, y) in once.iter().zip(&manifolds) {
                assert_eq!((x.0, x.1, bits(Some(x.2))), (y.0, y.1, bits(Some(y.2))));
            }
        });
    }
}

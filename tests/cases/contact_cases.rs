//! Contacts worked by hand: a circle in a box's corner, boxes resting and tilted, a triangle's
//! tip, degenerate directions and ties, and the lane kernels' lengths.

use std::f32::consts::FRAC_PI_4;
use widephase::{
    Aabb, Aabbs, Circle, Circles, Contact, Contacts, Obb, Point, Points, Polygon, batch_contact,
    contact_reference, par_batch_contact,
};

fn contact(normal: [f32; 2], depth: f32) -> Option<Contact> {
    Some(Contact { normal, depth })
}

#[test]
fn circle_in_a_box_corner() {
    // The nearest point of the box is its corner (2, 2), at (-0.75, -1) from the centre.
    let b = Aabb::new(0.0, 0.0, 2.0, 2.0);
    let c = Circle::new(2.75, 3.0, 1.5);
    assert_eq!(
        contact_reference::circle_aabb(&c, &b),
        contact([-0.6, -0.8], 0.25)
    );
    let o = Obb::from_rotation(1.0, 1.0, 1.0, 1.0, 1.0, 0.0);
    assert_eq!(
        contact_reference::circle_obb(&c, &o),
        contact([-0.6, -0.8], 0.25)
    );
    let square = Polygon::new(&[[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]]).unwrap();
    assert_eq!(
        contact_reference::circle_polygon(&c, &square),
        contact([-0.6, -0.8], 0.25)
    );
}

#[test]
fn box_resting_on_a_box() {
    let floor = Aabb::new(0.0, 0.0, 4.0, 1.0);
    let crate_ = Aabb::new(1.0, 0.75, 2.0, 1.75);
    assert_eq!(
        contact_reference::aabb_aabb(&floor, &crate_),
        contact([0.0, 1.0], 0.25)
    );
    let turned = Obb::from_rotation(1.5, 1.25, 0.5, 0.5, 1.0, 0.0);
    assert_eq!(
        contact_reference::aabb_obb(&floor, &turned),
        contact([0.0, 1.0], 0.25)
    );
    let slab = Obb::from_rotation(2.0, 0.5, 2.0, 0.5, 1.0, 0.0);
    assert_eq!(
        contact_reference::obb_obb(&slab, &turned),
        contact([0.0, 1.0], 0.25)
    );
    // Seen from the crate, the floor is below.
    assert_eq!(
        contact_reference::aabb_aabb(&crate_, &floor),
        contact([0.0, -1.0], 0.25)
    );
}

#[test]
fn box_at_45_degrees_on_an_edge() {
    // Its lowest corner is √2 below its centre: 1.2 - √2 into the floor.
    let floor = Aabb::new(-10.0, -1.0, 10.0, 0.0);
    let diamond = Obb::new(0.0, 1.2, 1.0, 1.0, FRAC_PI_4);
    let c = contact_reference::aabb_obb(&floor, &diamond).unwrap();
    assert_eq!(c.normal, [0.0, 1.0]);
    assert!((c.depth - (2f32.sqrt() - 1.2)).abs() < 1e-6, "{c:?}");
    let polygon = Polygon::regular(4, 0.0, 1.2, 2f32.sqrt(), FRAC_PI_4 + FRAC_PI_4);
    let p = contact_reference::aabb_polygon(&floor, &polygon).unwrap();
    assert_eq!(p.normal, [0.0, 1.0]);
    assert!((p.depth - c.depth).abs() < 1e-6, "{p:?}");
}

#[test]
fn triangle_tip_into_a_square() {
    let square = Polygon::new(&[[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]]).unwrap();
    let triangle = Polygon::new(&[[1.0, 1.75], [2.0, 3.0], [0.0, 3.0]]).unwrap();
    assert_eq!(
        contact_reference::polygon_polygon(&square, &triangle),
        contact([0.0, 1.0], 0.25)
    );
    assert_eq!(
        contact_reference::polygon_polygon(&triangle, &square),
        contact([0.0, -1.0], 0.25)
    );
    let tip = Point::new(1.0, 1.75);
    assert_eq!(
        contact_reference::point_polygon(&tip, &square),
        contact([0.0, -1.0], 0.25)
    );
}

#[test]
fn degenerate_directions_and_ties() {
    // Coincident centres: the fixed normal (1, 0), the full reach as depth.
    let c = Circle::new(1.0, 1.0, 0.5);
    assert_eq!(
        contact_reference::circle_circle(&c, &c),
        contact([1.0, 0.0], 1.0)
    );
    let centre = Point::new(1.0, 1.0);
    assert_eq!(
        contact_reference::point_circle(&centre, &c),
        contact([1.0, 0.0], 0.5)
    );
    // A point at a box's centre: four equal faces, the first (+x) wins.
    let b = Aabb::new(0.0, 0.0, 2.0, 2.0);
    assert_eq!(
        contact_reference::point_aabb(&centre, &b),
        contact([1.0, 0.0], 1.0)
    );
    // Two equal boxes on top of each other: +x first.
    assert_eq!(
        contact_reference::aabb_aabb(&b, &b),
        contact([1.0, 0.0], 2.0)
    );
    // Two turned boxes about one centre: the offset along every axis is 0, which moves `b`
    // along `+u` of the winning axis (a's second, the thinner, on a tie with b's).
    let (o, p) = (
        Obb::new(1.0, 1.0, 2.0, 1.0, 0.3),
        Obb::new(1.0, 1.0, 1.0, 0.5, 0.3),
    );
    let inside = contact_reference::obb_obb(&o, &p).expect("one inside the other");
    assert_eq!((inside.normal, inside.depth), ([-o.sin, o.cos], 1.5));
    // A circle centred on a polygon's vertex: the two edges through it tie, the first wins.
    let square = Polygon::new(&[[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]]).unwrap();
    let on_vertex = Circle::new(0.0, 0.0, 0.5);
    assert_eq!(
        contact_reference::circle_polygon(&on_vertex, &square),
        contact([0.0, 1.0], 0.5)
    );
    // Touching counts as overlapping, with depth 0.
    let touching = Circle::new(3.0, 1.0, 1.0);
    assert_eq!(
        contact_reference::circle_aabb(&touching, &b),
        contact([-1.0, 0.0], 0.0)
    );
    // Bad data never hits.
    let nan = Circle::new(f32::NAN, 0.0, 1.0);
    assert_eq!(contact_reference::circle_circle(&nan, &c), None);
    // An infinite box: no finite move separates it from a circle inside.
    let everything = Aabb::new(
        f32::NEG_INFINITY,
        f32::NEG_INFINITY,
        f32::INFINITY,
        f32::INFINITY,
    );
    assert_eq!(
        contact_reference::circle_aabb(&c, &everything),
        contact([1.0, 0.0], f32::INFINITY)
    );
}

#[test]
fn lane_contacts_and_lengths() {
    let a: Circles = (0..10).map(|i| Circle::new(i as f32, 0.0, 0.75)).collect();
    let b: Circles = (0..10)
        .map(|i| Circle::new(i as f32 + 1.0, 0.0, 0.75))
        .collect();
    let mut out = Contacts::new();
    batch_contact(&a, &b, &mut out).unwrap();
    assert_eq!(out.iter().count(), 10);
    assert!(out.iter().all(|(_, c)| c
        == Contact {
            normal: [1.0, 0.0],
            depth: 0.5
        }));
    assert_eq!(out.get(10), None);
    // The lane kernel itself, lane by lane.
    let lanes = widephase::contact_kernel::circle_circle(&a.block(1), &b.block(1));
    assert_eq!(lanes.hits, 0b11); // shapes 8 and 9, then padding
    assert_eq!(lanes.lane(1), contact([1.0, 0.0], 0.5));
    assert_eq!(lanes.lane(2), None);
    // Mismatched lengths: an error naming both, the output left as it was.
    let short: Circles = b.iter().take(3).collect();
    let before = out.clone();
    let err = batch_contact(&a, &short, &mut out).unwrap_err();
    assert_eq!((err.a, err.b), (10, 3));
    assert_eq!(out, before);
    let err = par_batch_contact(&short, &a, &mut out).unwrap_err();
    assert_eq!((err.a, err.b), (3, 10));
    // A longer output reused for a shorter batch keeps nothing of before.
    let one: Points = [Point::new(100.0, 0.0)].into_iter().collect();
    let far: Aabbs = [Aabb::new(0.0, 0.0, 1.0, 1.0)].into_iter().collect();
    batch_contact(&one, &far, &mut out).unwrap();
    assert_eq!(
        (out.len(), out.depth(), out.hits().count_ones()),
        (1, &[0.0][..], 0)
    );
}

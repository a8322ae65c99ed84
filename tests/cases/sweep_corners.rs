//! Sweeps of a polygon against a circle or a capsule worked by hand, where the latest crossing
//! of the edges' lines moved out by the radii (the outline grown with mitred corners) is not
//! itself the first touch: a circle passing a corner inside its mitre but outside its arc
//! misses, one a little nearer meets the arc later than that crossing; a capsule longer than
//! the edge it lands on meets it flat though both its ends lie beyond the edge's; a capsule's
//! end that only brushes a corner grazes; a circle moving along a flat polygon (no edge
//! closes) meets its end. Then three pairs on which a search that trusts the latest crossing
//! (one band and one disc, tried on 2026-11-29) answered late or not at all: a corner within
//! rounding of flat, an edge of each shape parallel within rounding, and a segment sliding
//! along the line of an edge into its end. Both orders (the other shape moving, the motion
//! and the normal reversed).

use crate::support::shapes::raw_polygon;
use widephase::{
    Capsule, Capsules, Circle, Circles, Polygon, Polygons, Sweep, SweepPair, sweep_reference,
};

/// The unit square `[0, 1]²`.
fn square() -> Polygon {
    Polygon::new(&[[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]]).unwrap()
}

/// The circle moving by `m` against `p`, checked against the polygon moving by `-m`.
fn circle_onto(c: &Circle, p: &Polygon, m: [f32; 2]) -> Option<Sweep> {
    let forward = sweep_reference::circle_polygon(c, p, m);
    let back = <Polygons as SweepPair<Circles>>::sweep_reference(p, c, [-m[0], -m[1]]);
    assert_eq!(forward.map(|s| s.t), back.map(|s| s.t), "both orders");
    assert_eq!(
        forward.map(|s| s.normal),
        back.map(|s| [-s.normal[0], -s.normal[1]])
    );
    forward
}

/// The capsule moving by `m` against `p`, checked against the polygon moving by `-m`.
fn capsule_onto(c: &Capsule, p: &Polygon, m: [f32; 2]) -> Option<Sweep> {
    let forward = <Capsules as SweepPair<Polygons>>::sweep_reference(c, p, m);
    let back = sweep_reference::polygon_capsule(p, c, [-m[0], -m[1]]);
    assert_eq!(forward.map(|s| s.t), back.map(|s| s.t), "both orders");
    assert_eq!(
        forward.map(|s| s.normal),
        back.map(|s| [-s.normal[0], -s.normal[1]])
    );
    forward
}

/// Whether `s` is at `t` along `n`, each within `1e-6`.
fn near(s: Sweep, t: f32, n: [f32; 2]) -> bool {
    (s.t - t).abs() < 1e-6 && (s.normal[0] - n[0]).abs() < 1e-6 && (s.normal[1] - n[1]).abs() < 1e-6
}

/// The polygon moving by `m` against the capsule, and the capsule moving by `-m` against it
/// (its normal reversed): the two answers, each of which must be near `t` along `n`.
fn polygon_onto(p: &Polygon, c: &Capsule, m: [f32; 2], t: f32, n: [f32; 2]) {
    let forward = sweep_reference::polygon_capsule(p, c, m);
    let back =
        <Capsules as SweepPair<Polygons>>::sweep_reference(c, p, [-m[0], -m[1]]).map(|s| Sweep {
            t: s.t,
            normal: [-s.normal[0], -s.normal[1]],
        });
    for s in [forward, back] {
        let s = s.expect("they meet");
        assert!(near(s, t, n), "{s:?} against t {t} along {n:?}");
    }
}

#[test]
fn a_circle_past_a_corner_inside_its_mitre_misses_and_nearer_meets_its_arc() {
    // Radius 0.5 moving by (2, 2): the centre's line `y = x + c` passes the corner (0, 1) at
    // |c - 1| / √2. With c = 1.8 (0.566 off) it crosses the left edge's line moved out (x =
    // -0.5) at y = 1.3, beyond the edge's top, and then stays within 0.5 of both edges' lines
    // by the corner, but never within 0.5 of the square.
    let m = [2.0, 2.0];
    assert_eq!(
        circle_onto(&Circle::new(-1.4, 0.4, 0.5), &square(), m),
        None
    );
    // With c = 1.7 (0.495 off) it meets the corner's arc after that entry (t = 0.4): the
    // centre (-1.3 + 2t, 0.4 + 2t) is 0.5 from the corner at t = 0.45, at (-0.4, 1.3).
    let s = circle_onto(&Circle::new(-1.3, 0.4, 0.5), &square(), m).expect("the arc");
    assert!(near(s, 0.45, [0.8, -0.6]), "{s:?}");
}

#[test]
fn a_capsule_longer_than_an_edge_meets_it_flat() {
    // Both ends beyond the top edge's ends (feet -1 and 2 along it), the segment over all of it.
    let long = Capsule::new(-1.0, 2.0, 2.0, 2.0, 0.5);
    assert_eq!(
        capsule_onto(&long, &square(), [0.0, -2.0]),
        Some(Sweep {
            t: 0.25,
            normal: [0.0, -1.0]
        })
    );
    // Shorter than the edge and within it, and overlapping one end of it.
    for (x0, x1) in [(0.25, 0.75), (0.5, 3.0), (-3.0, 0.0)] {
        let c = Capsule::new(x0, 2.0, x1, 2.0, 0.5);
        assert_eq!(
            capsule_onto(&c, &square(), [0.0, -2.0]),
            Some(Sweep {
                t: 0.25,
                normal: [0.0, -1.0]
            }),
            "{x0}..{x1}"
        );
    }
}

#[test]
fn a_capsule_end_beside_a_corner_grazes_or_meets_its_arc() {
    // The end at x = 1.5 passes the corner (1, 1) exactly 0.5 off, moving square to the
    // normal there: a graze, no hit.
    let beside = Capsule::new(1.5, 2.0, 3.0, 2.0, 0.5);
    assert_eq!(capsule_onto(&beside, &square(), [0.0, -2.0]), None);
    // At x = 1.4 it meets the corner's arc when 0.3 above it: t = 0.35 along (-0.8, -0.6).
    let nearer = Capsule::new(1.4, 2.0, 3.0, 2.0, 0.5);
    let s = capsule_onto(&nearer, &square(), [0.0, -2.0]).expect("the arc");
    assert!(near(s, 0.35, [-0.8, -0.6]), "{s:?}");
}

#[test]
fn a_circle_along_a_flat_polygon_meets_its_end() {
    // A polygon of two points (unchecked: `Polygon::new` refuses it): its two edges lie along
    // the motion, so none closes, and the end's disc answers. Radius 0.5, 0.3 off the line,
    // by (4, 0): the centre is 0.5 from the end (0, 0) at (-0.4, 0.3), t = 0.4.
    let flat = raw_polygon(&[[0.0, 0.0], [2.0, 0.0]]);
    let s = circle_onto(&Circle::new(-2.0, 0.3, 0.5), &flat, [4.0, 0.0]).expect("the end");
    assert!(near(s, 0.4, [0.8, -0.6]), "{s:?}");
    // 0.6 off the line, the circle passes.
    assert_eq!(
        circle_onto(&Circle::new(-2.0, 0.6, 0.5), &flat, [4.0, 0.0]),
        None
    );
}

#[test]
fn a_corner_within_rounding_of_flat_is_met_on_the_next_edge() {
    // The top edges (2, 0) → (-1.2e-7, 0) → (-4.89, -1.2e-38) turn by 1e-38 at the middle
    // vertex: the two lines are one within rounding, crossed at the same time, and a point
    // (a capsule of length and radius 0... and 1.2e-38) above x = -1 lands on the second edge,
    // beyond the first one's end: t = 1.5551939 / 1.7170124, along (0, 1).
    let p = raw_polygon(&[
        [-1.192_092_9e-7, 0.0],
        [-4.887_745_4, -1.175_494_4e-38],
        [2.0, -1.211_172_3],
        [2.0, 0.0],
    ]);
    assert!(p.check().is_ok(), "convex and counter-clockwise");
    let c = Capsule::new(-1.0, 1.555_193_9, -1.0, 1.555_193_9, 1.175_494_4e-38);
    polygon_onto(
        &p,
        &c,
        [-1.997_325_9, 1.717_012_4],
        1.555_193_9 / 1.717_012_4,
        [0.0, 1.0],
    );
}

#[test]
fn an_edge_of_each_parallel_within_rounding_meets_flat() {
    // The rectangle's bottom edge and the capsule's segment tilted by 1e-7: both lines are
    // crossed at the same time in `f32`, and only the rectangle's edge is met on its band
    // (the segment's nearer end, x = 0, lies under it): t = (3.2928953 - r) / 5 along (0, -1).
    let p = Polygon::new(&[[-1.5, -0.25], [0.5, -0.25], [0.5, 2.5], [-1.5, 2.5]]).unwrap();
    let c = Capsule::new(0.0, -3.542_895_3, -4.331_145_3, -3.542_895_8, 2.676_193_7);
    polygon_onto(
        &p,
        &c,
        [0.0, -5.0],
        (3.292_895_3 - 2.676_193_7) / 5.0,
        [0.0, -1.0],
    );
}

#[test]
fn a_segment_along_an_edge_line_meets_its_end() {
    // The triangle's edge (0.5, -1) → (-2, 0.75) and the segment (radius 0) both lie along the
    // motion (slope -0.7): that edge's closing speed and distance are rounding noise, and its
    // line's crossing (at t = 0.5) is no touch. The segment slides into the triangle's edge
    // (0, -0.75) → (0.5, -1) first, at t = 0.2869426 along (-1, -2) / √5.
    let p = Polygon::new(&[[0.5, -1.0], [-2.0, 0.75], [0.0, -0.75]]).unwrap();
    let c = Capsule::new(2.752_039_7, -2.576_427_7, 2.412_276_3, -2.338_593_2, 0.0);
    let n = [-1.0 / 5f32.sqrt(), -2.0 / 5f32.sqrt()];
    polygon_onto(&p, &c, [6.664_316, -4.665_021], 0.286_942_6, n);
}

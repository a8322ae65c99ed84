//! Capsules and segments: agreement with parry2d on yes/no (`intersection_test`, `distance`)
//! and on ray casts outside a 1e-3 band, zero-length capsules against circles, and hand-worked
//! cases (crossing segments, parallel and collinear segments, a capsule along a box face, a
//! segment through a polygon vertex). The bit-exact kernels, the independent `f64` checks and
//! the contacts' depths are covered by the table-driven tests with every other kind.

use crate::pair_assert;
use crate::support::peer::{ParryTwin, Solid};
use crate::support::shapes::{Arbitrary, Gen};
use parry2d::math::{Pose, Vector};
use parry2d::query::{Ray as ParryRay, RayCast, distance, intersection_test};
use parry2d::shape::{Capsule as ParryCapsule, Segment};
use widephase::{
    Aabb, Capsule, Circle, Contact, Obb, Point, Polygon, Ray, contact_reference, reference,
};

const PAIRS: usize = 20_000;
const BAND: f32 = 1e-3;

/// The same capsule with its radius changed by `by`.
fn grown(c: &Capsule, by: f32) -> Capsule {
    Capsule {
        radius: c.radius + by,
        ..*c
    }
}

/// On random ordinary pairs: where parry2d's distance is beyond the band the reference says
/// no, and where parry2d finds the pair overlapping with the capsule shrunk by the band it
/// says yes; nearly every pair is decided, both answers common.
fn agree_with_parry<S: Arbitrary + Solid>(seed: u64, reference: fn(&S, &Capsule) -> bool) {
    let mut g = Gen::new(seed);
    let (mut decided, mut hits) = (0, 0);
    for i in 0..PAIRS {
        let (s, c) = (S::ordinary(&mut g), Capsule::ordinary(&mut g));
        let got = reference(&s, &c);
        hits += usize::from(got);
        let (ps, shape) = s.solid();
        let (pc, capsule) = c.solid();
        let apart = distance(&ps, &*shape.0, &pc, &*capsule.0).unwrap().distance > BAND;
        let (pk, kernel) = grown(&c, -BAND).solid();
        let deep = intersection_test(&ps, &*shape.0, &pk, &*kernel.0)
            .unwrap()
            .intersecting;
        assert!(!(apart && deep), "parry2d contradicts itself: {s:?} {c:?}");
        if apart || deep {
            decided += 1;
            pair_assert!(
                got == deep,
                seed = seed,
                index = i,
                s,
                c,
                "reference says {got}, parry2d says {} (distance beyond the band: {apart})",
                deep
            );
        }
    }
    assert!(
        decided * 100 > PAIRS * 99,
        "only {decided} of {PAIRS} decided"
    );
    assert!(
        hits * 20 > PAIRS && (PAIRS - hits) * 20 > PAIRS,
        "{hits} hits of {PAIRS}"
    );
}

#[test]
fn point_capsule_agrees_with_parry2d() {
    agree_with_parry(31, reference::point_capsule);
}

#[test]
fn circle_capsule_agrees_with_parry2d() {
    agree_with_parry(32, reference::circle_capsule);
}

#[test]
fn aabb_capsule_agrees_with_parry2d() {
    agree_with_parry(33, reference::aabb_capsule);
}

#[test]
fn obb_capsule_agrees_with_parry2d() {
    agree_with_parry(34, reference::obb_capsule);
}

#[test]
fn polygon_capsule_agrees_with_parry2d() {
    agree_with_parry(35, reference::polygon_capsule);
}

#[test]
fn capsule_capsule_agrees_with_parry2d() {
    agree_with_parry(36, reference::capsule_capsule);
}

/// parry2d's cast of `r` into `c` (solid: 0 from inside), as a segment when the radius is 0
/// (parry2d 0.31's radius-0 `Capsule` misses every ray).
fn parry_cast(r: &Ray, c: &Capsule) -> Option<f32> {
    let (pose, ray) = r.to_parry();
    let (a, b) = (Vector::new(c.x0, c.y0), Vector::new(c.x1, c.y1));
    if c.radius > 0.0 {
        ParryCapsule::new(a, b, c.radius).cast_ray(&pose, &ray, r.max_t, true)
    } else {
        Segment::new(a, b).cast_ray(&pose, &ray, r.max_t, true)
    }
}

/// Ray casts into capsules against parry2d: where parry2d misses the capsule grown by the band
/// the reference misses; where it hits the capsule shrunk by the band, the reference hits,
/// between the grown capsule's entry and the shrunk one's.
#[test]
fn ray_capsule_agrees_with_parry2d() {
    let mut g = Gen::new(37);
    let (mut decided, mut hits) = (0, 0);
    for i in 0..PAIRS {
        let (r, c) = (Ray::ordinary(&mut g), Capsule::ordinary(&mut g));
        let got = reference::ray_capsule(&r, &c);
        hits += usize::from(got < f32::INFINITY);
        let (outer, inner) = (
            parry_cast(&r, &grown(&c, BAND)),
            parry_cast(&r, &grown(&c, -BAND)),
        );
        match (outer, inner) {
            (None, _) => {
                decided += 1;
                pair_assert!(
                    got == f32::INFINITY,
                    seed = 37,
                    index = i,
                    r,
                    c,
                    "reference hits at {got}, parry2d misses"
                );
            }
            (Some(early), Some(late)) => {
                decided += 1;
                let slack = 1e-4 * (1.0 + late);
                pair_assert!(
                    got >= early - slack && got <= late + slack,
                    seed = 37,
                    index = i,
                    r,
                    c,
                    "reference enters at {got}, parry2d between {early} and {late}"
                );
            }
            (Some(_), None) => {}
        }
    }
    assert!(
        decided * 100 > PAIRS * 99,
        "only {decided} of {PAIRS} decided"
    );
    assert!(
        hits * 20 > PAIRS && (PAIRS - hits) * 20 > PAIRS,
        "{hits} hits of {PAIRS}"
    );
}

/// Rays into radius-0 segments against parry2d's `Segment`: a ray parry2d's segment misses
/// by more than the band (it misses the capsule of the band's radius) misses; a ray that
/// crosses the segment away from its ends (farther than the band) hits at parry2d's
/// parameter, up to rounding.
#[test]
fn rays_into_segments_agree_with_parry2d() {
    let mut g = Gen::new(38);
    let (mut crossed, mut missed) = (0, 0);
    for i in 0..PAIRS {
        let (r, c) = (Ray::ordinary(&mut g), Capsule::ordinary(&mut g));
        let c = Capsule::segment(c.x0, c.y0, c.x1, c.y1);
        let got = reference::ray_capsule(&r, &c);
        if parry_cast(&r, &grown(&c, BAND)).is_none() {
            missed += 1;
            pair_assert!(
                got == f32::INFINITY,
                seed = 38,
                index = i,
                r,
                c,
                "reference hits at {got}"
            );
        } else if let Some(t) = parry_cast(&r, &c) {
            let p = r.at(t);
            let from_ends = (p.x - c.x0)
                .hypot(p.y - c.y0)
                .min((p.x - c.x1).hypot(p.y - c.y1));
            if from_ends > BAND && t > BAND {
                crossed += 1;
                let close = (got - t).abs() <= 1e-4 * (1.0 + t);
                pair_assert!(
                    close,
                    seed = 38,
                    index = i,
                    r,
                    c,
                    "reference enters at {got}, parry2d at {t}"
                );
            }
        }
    }
    assert!(
        crossed * 20 > PAIRS && missed * 20 > PAIRS,
        "{crossed} crossed, {missed} missed"
    );
}

/// A capsule whose endpoints coincide is the circle around them: the same answer with every
/// kind, on random ordinary shapes.
#[test]
fn zero_length_capsules_are_circles() {
    let mut g = Gen::new(39);
    for i in 0..PAIRS {
        let k = Circle::ordinary(&mut g);
        let c = Capsule::new(k.x, k.y, k.x, k.y, k.radius);
        let p = Point::ordinary(&mut g);
        let (o, b, q) = (
            Obb::ordinary(&mut g),
            Aabb::ordinary(&mut g),
            Polygon::ordinary(&mut g),
        );
        let other = Circle::ordinary(&mut g);
        let pairs = [
            (
                reference::point_capsule(&p, &c),
                reference::point_circle(&p, &k),
            ),
            (
                reference::circle_capsule(&other, &c),
                reference::circle_circle(&other, &k),
            ),
            (
                reference::aabb_capsule(&b, &c),
                reference::circle_aabb(&k, &b),
            ),
            (
                reference::obb_capsule(&o, &c),
                reference::circle_obb(&k, &o),
            ),
            (
                reference::polygon_capsule(&q, &c),
                reference::circle_polygon(&k, &q),
            ),
            (
                reference::capsule_capsule(
                    &c,
                    &Capsule::new(other.x, other.y, other.x, other.y, other.radius),
                ),
                reference::circle_circle(&k, &other),
            ),
        ];
        for (kind, (capsule, circle)) in pairs.into_iter().enumerate() {
            pair_assert!(
                capsule == circle,
                seed = 39,
                index = i,
                k,
                c,
                "kind {kind}: capsule {capsule}, circle {circle}"
            );
        }
    }
}

#[test]
fn crossing_and_touching_segments() {
    let horizontal = Capsule::segment(-1.0, 0.0, 1.0, 0.0);
    // An X: the two segments cross at the origin.
    let vertical = Capsule::segment(0.0, -1.0, 0.0, 1.0);
    assert!(reference::capsule_capsule(&horizontal, &vertical));
    // A T: one segment ends on the other; then just off it.
    assert!(reference::capsule_capsule(
        &horizontal,
        &Capsule::segment(0.5, 0.0, 0.5, 2.0)
    ));
    assert!(!reference::capsule_capsule(
        &horizontal,
        &Capsule::segment(0.5, 0.001, 0.5, 2.0)
    ));
    // Collinear: touching end to end, overlapping, and a gap.
    assert!(reference::capsule_capsule(
        &horizontal,
        &Capsule::segment(1.0, 0.0, 3.0, 0.0)
    ));
    assert!(reference::capsule_capsule(
        &horizontal,
        &Capsule::segment(0.5, 0.0, 3.0, 0.0)
    ));
    assert!(!reference::capsule_capsule(
        &horizontal,
        &Capsule::segment(1.25, 0.0, 3.0, 0.0)
    ));
    // Parallel, 0.5 apart: the radii decide, touching included.
    let above = |r: f32| Capsule::new(-0.5, 0.5, 2.0, 0.5, r);
    assert!(!reference::capsule_capsule(&horizontal, &above(0.0)));
    assert!(reference::capsule_capsule(
        &Capsule {
            radius: 0.25,
            ..horizontal
        },
        &above(0.25)
    ));
    assert!(!reference::capsule_capsule(
        &Capsule {
            radius: 0.25,
            ..horizontal
        },
        &above(0.24)
    ));
    // Both orders, both the same bits.
    for b in [vertical, above(0.25), Capsule::segment(1.25, 0.0, 3.0, 0.0)] {
        assert_eq!(
            reference::capsule_capsule(&horizontal, &b),
            reference::capsule_capsule(&b, &horizontal)
        );
    }
}

#[test]
fn crossing_capsules_separate_along_a_segment_normal() {
    // Crossing at their middles: every normal of either segment needs 1 + the radii; the
    // first segment's normal comes first.
    let a = Capsule::new(-1.0, 0.0, 1.0, 0.0, 0.1);
    let b = Capsule::new(0.0, -1.0, 0.0, 1.0, 0.1);
    assert_eq!(
        contact_reference::capsule_capsule(&a, &b),
        Some(Contact {
            normal: [0.0, 1.0],
            depth: 1.2
        })
    );
    // A T, the stem's end on the bar: the stem leaves upwards by the radii.
    let stem = Capsule::new(0.5, 0.0, 0.5, 2.0, 0.1);
    let c = contact_reference::capsule_capsule(&a, &stem).expect("touching");
    assert_eq!(c.normal, [0.0, 1.0]);
    assert!((c.depth - 0.2).abs() < 1e-6, "{c:?}");
    // Apart segments within the radii: along the nearest points, (1, 0) and (1.5, 0.5).
    let near = Capsule::new(1.5, 0.5, 3.0, 0.5, 0.7);
    let c = contact_reference::capsule_capsule(&a, &near).expect("within the radii");
    let h = core::f32::consts::FRAC_1_SQRT_2;
    assert!((c.depth - (0.8 - 0.5 * 2f32.sqrt())).abs() < 1e-6, "{c:?}");
    assert!(
        (c.normal[0] - h).abs() < 1e-6 && (c.normal[1] - h).abs() < 1e-6,
        "{c:?}"
    );
}

#[test]
fn capsule_along_a_box_face() {
    let b = Aabb::new(-1.0, -1.0, 1.0, 1.0);
    let o = Obb::axis_aligned(0.0, 0.0, 1.0, 1.0);
    // A segment lying on the top face, then just above it; with a radius reaching down.
    for (capsule, overlaps) in [
        (Capsule::segment(-0.5, 1.0, 0.5, 1.0), true),
        (Capsule::segment(-3.0, 1.0, 3.0, 1.0), true),
        (Capsule::segment(-0.5, 1.001, 0.5, 1.001), false),
        (Capsule::new(-0.5, 1.5, 0.5, 1.5, 0.5), true),
        (Capsule::new(-0.5, 1.5, 0.5, 1.5, 0.49), false),
        // Past the corner: the corner's distance decides (√2·0.5 ≈ 0.707).
        (Capsule::new(1.5, 1.5, 3.0, 3.0, 0.71), true),
        (Capsule::new(1.5, 1.5, 3.0, 3.0, 0.70), false),
    ] {
        assert_eq!(
            reference::aabb_capsule(&b, &capsule),
            overlaps,
            "{capsule:?}"
        );
        assert_eq!(
            reference::obb_capsule(&o, &capsule),
            overlaps,
            "{capsule:?}"
        );
    }
    // Resting 0.1 deep on the top face: pushed up by 0.1.
    let c =
        contact_reference::aabb_capsule(&b, &Capsule::new(-0.5, 1.2, 0.5, 1.2, 0.3)).expect("deep");
    assert_eq!(c.normal, [0.0, 1.0]);
    assert!((c.depth - 0.1).abs() < 1e-6, "{c:?}");
    // Through the box from side to side: out through the nearer face (the bottom, 0.8 + 0.1).
    let c = contact_reference::aabb_capsule(&b, &Capsule::new(-2.0, -0.2, 2.0, -0.2, 0.1))
        .expect("through");
    assert_eq!(c.normal, [0.0, -1.0]);
    assert!((c.depth - 0.9).abs() < 1e-6, "{c:?}");
    // An infinite box holds every valid capsule; an inverted one none.
    let inf = f32::INFINITY;
    assert!(reference::aabb_capsule(
        &Aabb::new(-inf, -inf, inf, inf),
        &Capsule::segment(5.0, 5.0, 6.0, 7.0)
    ));
    assert!(reference::aabb_capsule(
        &Aabb::new(-inf, 0.0, inf, 1.0),
        &Capsule::segment(5.0, 0.5, 6.0, 0.5)
    ));
    assert!(!reference::aabb_capsule(
        &Aabb::new(1.0, -1.0, -1.0, 1.0),
        &Capsule::segment(0.0, 0.0, 0.1, 0.0)
    ));
}

#[test]
fn segment_through_a_polygon_vertex() {
    let tri = Polygon::new(&[[0.0, 0.0], [2.0, 0.0], [1.0, 1.0]]).unwrap();
    // Along a line that touches the apex (1, 1) only.
    assert!(reference::polygon_capsule(
        &tri,
        &Capsule::segment(0.0, 1.0, 2.0, 1.0)
    ));
    assert!(!reference::polygon_capsule(
        &tri,
        &Capsule::segment(0.0, 1.001, 2.0, 1.001)
    ));
    // Through the apex and into the triangle.
    assert!(reference::polygon_capsule(
        &tri,
        &Capsule::segment(1.0, 3.0, 1.0, 0.5)
    ));
    // Inside, touching nothing: still an overlap.
    assert!(reference::polygon_capsule(
        &tri,
        &Capsule::segment(0.9, 0.2, 1.1, 0.2)
    ));
    // The radius reaches the apex from above.
    assert!(reference::polygon_capsule(
        &tri,
        &Capsule::new(0.0, 1.5, 2.0, 1.5, 0.5)
    ));
    assert!(!reference::polygon_capsule(
        &tri,
        &Capsule::new(0.0, 1.5, 2.0, 1.5, 0.49)
    ));
}

#[test]
fn rays_into_capsules_by_hand() {
    let c = Capsule::new(0.0, 0.0, 2.0, 0.0, 0.5);
    // Down onto the side, into an end cap, along the axis, from inside, and past.
    assert_eq!(
        reference::ray_capsule(&Ray::new(1.0, 3.0, 0.0, -1.0, 10.0), &c),
        2.5
    );
    assert_eq!(
        reference::ray_capsule(&Ray::new(-3.0, 0.0, 1.0, 0.0, 10.0), &c),
        2.5
    );
    assert_eq!(
        reference::ray_capsule(&Ray::new(5.0, 0.0, -2.0, 0.0, 10.0), &c),
        1.25
    );
    assert_eq!(
        reference::ray_capsule(&Ray::new(1.0, 0.25, 1.0, 1.0, 10.0), &c),
        0.0
    );
    assert_eq!(
        reference::ray_capsule(&Ray::new(-3.0, 0.6, 1.0, 0.0, 10.0), &c),
        f32::INFINITY
    );
    // A segment: crossed in the middle, run along from one end, missed by its end.
    let s = Capsule::segment(0.0, 0.0, 2.0, 0.0);
    assert_eq!(
        reference::ray_capsule(&Ray::new(1.0, 2.0, 0.0, -1.0, 10.0), &s),
        2.0
    );
    assert_eq!(
        reference::ray_capsule(&Ray::new(-1.0, 0.0, 1.0, 0.0, 10.0), &s),
        1.0
    );
    assert_eq!(
        reference::ray_capsule(&Ray::new(2.5, 2.0, 0.0, -1.0, 10.0), &s),
        f32::INFINITY
    );
    // Too short to reach.
    assert_eq!(
        reference::ray_capsule(&Ray::new(1.0, 3.0, 0.0, -1.0, 2.0), &c),
        f32::INFINITY
    );
}

#[test]
fn capsule_checks_name_the_bad_field() {
    use widephase::Problem;
    let e = Capsule::new(0.0, f32::NAN, 1.0, 1.0, 0.5)
        .check()
        .unwrap_err();
    assert_eq!((e.field, e.problem), ("y0", Problem::Nan));
    let e = Capsule::new(0.0, 0.0, f32::NEG_INFINITY, 1.0, 0.5)
        .check()
        .unwrap_err();
    assert_eq!((e.field, e.problem), ("x1", Problem::NonFinite));
    let e = Capsule::new(0.0, 0.0, 1.0, 1.0, -0.5).check().unwrap_err();
    assert_eq!((e.field, e.problem), ("radius", Problem::Negative));
    assert!(Capsule::segment(0.0, 0.0, 0.0, 0.0).check().is_ok());
    let b = Capsule::new(1.0, 2.0, -1.0, 3.0, 0.5).bounding_box();
    assert_eq!(b, Aabb::new(-1.5, 1.5, 1.5, 3.5));
}

/// parry2d's twin of a capsule is placed where the capsule is (a check of the test helper).
#[test]
fn parry_twin_is_the_same_capsule() {
    let c = Capsule::new(1.0, 2.0, 3.0, 2.0, 0.5);
    let (pose, shape) = c.to_parry();
    assert_eq!(pose, Pose::IDENTITY);
    assert_eq!(
        (shape.segment.a, shape.segment.b, shape.radius),
        (Vector::new(1.0, 2.0), Vector::new(3.0, 2.0), 0.5)
    );
    let ray = ParryRay::new(Vector::new(2.0, 5.0), Vector::new(0.0, -1.0));
    assert_eq!(shape.cast_ray(&pose, &ray, 10.0, true), Some(2.5));
}

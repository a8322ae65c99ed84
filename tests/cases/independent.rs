//! Each reference against geometry written a second, independent way (in `f64`, see
//! `support::independent`), on random ordinary shapes, wherever the shapes are not within 1e-4
//! of touching.

use crate::pair_assert;
use crate::support::independent as ind;
use crate::support::shapes::{Arbitrary, Gen};
use widephase::{Ray, reference};

const PAIRS: usize = 50_000;
const MARGIN: f64 = 1e-4;

/// An independent method, named, taking the margin by which to grow the first shape.
type Method<A, B> = (&'static str, fn(&A, &B, f64) -> bool);

/// Compares `reference` with every independent method on `PAIRS` random pairs and checks that
/// nearly all pairs were decided (so the comparison is not vacuous) with both answers common.
fn agree<A: Arbitrary, B: Arbitrary>(
    seed: u64,
    reference: fn(&A, &B) -> bool,
    methods: &[Method<A, B>],
) {
    let mut g = Gen::new(seed);
    let (mut decided, mut hits) = (0, 0);
    for i in 0..PAIRS {
        let (a, b) = (A::ordinary(&mut g), B::ordinary(&mut g));
        let got = reference(&a, &b);
        for (name, method) in methods {
            let (inner, outer) = (method(&a, &b, -MARGIN), method(&a, &b, MARGIN));
            assert!(
                !inner || outer,
                "{name}: growing a shape lost the hit: {a:?} {b:?}"
            );
            if inner == outer {
                pair_assert!(
                    got == inner,
                    seed = seed,
                    index = i,
                    a,
                    b,
                    "reference says {got}, {name} says {inner}"
                );
            }
        }
        let (inner, outer) = (methods[0].1(&a, &b, -MARGIN), methods[0].1(&a, &b, MARGIN));
        decided += usize::from(inner == outer);
        hits += usize::from(got);
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
fn point_aabb() {
    agree(
        1,
        reference::point_aabb,
        &[("half-planes", ind::point_aabb)],
    );
}

#[test]
fn point_circle() {
    agree(2, reference::point_circle, &[("hypot", ind::point_circle)]);
}

#[test]
fn point_obb() {
    agree(
        3,
        reference::point_obb,
        &[("edge half-planes", ind::point_obb)],
    );
}

#[test]
fn circle_circle() {
    agree(
        4,
        reference::circle_circle,
        &[("hypot", ind::circle_circle)],
    );
}

#[test]
fn aabb_aabb() {
    agree(
        5,
        reference::aabb_aabb,
        &[("corner projection", ind::aabb_aabb)],
    );
}

#[test]
fn circle_aabb() {
    agree(
        6,
        reference::circle_aabb,
        &[
            ("centre distance with corner", ind::circle_aabb_corner),
            ("clamp to closest point", ind::circle_aabb_clamp),
        ],
    );
}

#[test]
fn circle_obb() {
    agree(
        7,
        reference::circle_obb,
        &[("rotate into box frame", ind::circle_obb)],
    );
}

#[test]
fn aabb_obb() {
    agree(
        8,
        reference::aabb_obb,
        &[("SAT over all eight corners", ind::aabb_obb)],
    );
}

#[test]
fn obb_obb() {
    agree(
        9,
        reference::obb_obb,
        &[("SAT over all eight corners", ind::obb_obb)],
    );
}

#[test]
fn point_polygon() {
    agree(
        10,
        reference::point_polygon,
        &[("crossing number and edge distance", ind::point_polygon)],
    );
}

#[test]
fn circle_polygon() {
    agree(
        11,
        reference::circle_polygon,
        &[("signed distance to the outline", ind::circle_polygon)],
    );
}

#[test]
fn aabb_polygon() {
    agree(
        12,
        reference::aabb_polygon,
        &[("edge crossings and containment", ind::aabb_polygon)],
    );
}

#[test]
fn obb_polygon() {
    agree(
        13,
        reference::obb_polygon,
        &[("edge crossings and containment", ind::obb_polygon)],
    );
}

#[test]
fn polygon_polygon() {
    agree(
        14,
        reference::polygon_polygon,
        &[("edge crossings and containment", ind::polygon_polygon)],
    );
}

/// A ray-cast reference against an independent `f64` cast on random ordinary rays and shapes:
/// where growing and shrinking the shape by the margin agree on hit or miss, the reference
/// agrees, and its parameter lies between the grown shape's (earlier) and the shrunk one's.
fn agree_cast<S: Arbitrary>(
    seed: u64,
    reference: fn(&Ray, &S) -> f32,
    method: fn(&Ray, &S, f64) -> Option<f64>,
) {
    let mut g = Gen::new(seed);
    let (mut decided, mut hits, mut inside) = (0, 0, 0);
    for i in 0..PAIRS {
        let (r, s) = (Ray::ordinary(&mut g), S::ordinary(&mut g));
        let got = reference(&r, &s);
        let (outer, inner) = (method(&r, &s, MARGIN), method(&r, &s, -MARGIN));
        if outer.is_some() == inner.is_some() {
            decided += 1;
            pair_assert!(
                (got < f32::INFINITY) == outer.is_some(),
                seed = seed,
                index = i,
                r,
                s,
                "reference says {got:?}, the f64 cast says {outer:?}"
            );
            if let (Some(early), Some(late)) = (outer, inner) {
                let t = f64::from(got);
                let slack = 1e-5 * (1.0 + late.abs());
                pair_assert!(
                    t >= early - slack && t <= late + slack,
                    seed = seed,
                    index = i,
                    r,
                    s,
                    "reference enters at {got:?}, outside [{early}, {late}]"
                );
            }
        }
        hits += usize::from(got < f32::INFINITY);
        inside += usize::from(got == 0.0);
    }
    assert!(
        decided * 100 > PAIRS * 99,
        "only {decided} of {PAIRS} decided"
    );
    assert!(
        hits * 20 > PAIRS && (PAIRS - hits) * 20 > PAIRS,
        "{hits} hits of {PAIRS}"
    );
    assert!(
        inside * 50 > PAIRS,
        "only {inside} origins inside of {PAIRS}"
    );
}

#[test]
fn ray_aabb() {
    agree_cast(15, reference::ray_aabb, ind::ray_aabb);
}

#[test]
fn ray_circle() {
    agree_cast(16, reference::ray_circle, ind::ray_circle);
}

#[test]
fn ray_obb() {
    agree_cast(17, reference::ray_obb, ind::ray_obb);
}

#[test]
fn ray_polygon() {
    agree_cast(18, reference::ray_polygon, ind::ray_polygon);
}

#[test]
fn point_capsule() {
    agree(
        19,
        reference::point_capsule,
        &[("distance to the segment", ind::point_capsule)],
    );
}

#[test]
fn circle_capsule() {
    agree(
        20,
        reference::circle_capsule,
        &[("distance to the segment", ind::circle_capsule)],
    );
}

#[test]
fn aabb_capsule() {
    agree(
        21,
        reference::aabb_capsule,
        &[(
            "distance from the outline to the segment",
            ind::aabb_capsule,
        )],
    );
}

#[test]
fn obb_capsule() {
    agree(
        22,
        reference::obb_capsule,
        &[("distance from the outline to the segment", ind::obb_capsule)],
    );
}

#[test]
fn polygon_capsule() {
    agree(
        23,
        reference::polygon_capsule,
        &[(
            "distance from the outline to the segment",
            ind::polygon_capsule,
        )],
    );
}

#[test]
fn capsule_capsule() {
    agree(
        24,
        reference::capsule_capsule,
        &[("distance between the segments", ind::capsule_capsule)],
    );
}

#[test]
fn ray_capsule() {
    agree_cast(25, reference::ray_capsule, ind::ray_capsule);
}

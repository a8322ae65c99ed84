//! Cases worked out by hand. Each runs through the scalar reference and through the kernel (the
//! pair in every lane of a block, and alone in a one-element batch), which must agree.

use widephase::{
    Aabb, Aabbs, Circle, Circles, HitMask, Obb, Obbs, Overlaps, Point, Points, ShapeSoa,
    batch_test, reference,
};

/// The kernel's answer for one pair, checked to be the same in all eight lanes and in a batch of
/// one (seven padding lanes), and to equal the reference.
pub(crate) fn answer<A, B>(a: A::Shape, b: B::Shape) -> bool
where
    A: Overlaps<B> + FromIterator<A::Shape>,
    B: ShapeSoa + FromIterator<B::Shape>,
    A::Shape: core::fmt::Debug,
    B::Shape: core::fmt::Debug,
{
    let one_a: A = [a].into_iter().collect();
    let one_b: B = [b].into_iter().collect();
    let full_a: A = [a; 8].into_iter().collect();
    let full_b: B = [b; 8].into_iter().collect();
    let lanes = A::kernel(&full_a.block(0), &full_b.block(0));
    let mut hits = HitMask::new();
    batch_test(&one_a, &one_b, &mut hits).unwrap();
    let want = A::reference(&a, &b);
    assert!(
        lanes == 0 || lanes == 0xff,
        "lanes disagree ({lanes:#010b}) for {a:?} {b:?}"
    );
    assert_eq!(lanes == 0xff, want, "kernel vs reference for {a:?} {b:?}");
    assert_eq!(
        hits.get(0),
        want,
        "batch of one vs reference for {a:?} {b:?}"
    );
    want
}

const DIAG: f32 = core::f32::consts::FRAC_1_SQRT_2;

/// A unit square rotated by 45 degrees: the diamond `|x| + |y| <= √2` about `(x, y)`.
fn diamond(x: f32, y: f32) -> Obb {
    Obb::from_rotation(x, y, 1.0, 1.0, DIAG, DIAG)
}

#[test]
fn point_aabb() {
    let b = Aabb::new(0.0, 0.0, 2.0, 2.0);
    assert!(answer::<Points, Aabbs>(Point::new(1.0, 1.0), b));
    assert!(
        answer::<Points, Aabbs>(Point::new(2.0, 1.0), b),
        "on an edge"
    );
    assert!(
        answer::<Points, Aabbs>(Point::new(2.0, 2.0), b),
        "on a corner"
    );
    assert!(
        answer::<Points, Aabbs>(Point::new(-0.0, 0.0), b),
        "-0 equals the 0 edge"
    );
    assert!(!answer::<Points, Aabbs>(Point::new(2.0, 2.000_001), b));
    assert!(!answer::<Points, Aabbs>(Point::new(3.0, 1.0), b));
    let dot = Aabb::new(1.0, 1.0, 1.0, 1.0);
    assert!(
        answer::<Points, Aabbs>(Point::new(1.0, 1.0), dot),
        "zero-size box at the point"
    );
}

#[test]
fn point_circle() {
    let c = Circle::new(0.0, 0.0, 5.0);
    assert!(
        answer::<Points, Circles>(Point::new(3.0, 4.0), c),
        "on the rim: 9 + 16 = 25"
    );
    assert!(!answer::<Points, Circles>(
        Point::new(3.0, 4.0),
        Circle::new(0.0, 0.0, 4.99)
    ));
    assert!(answer::<Points, Circles>(
        Point::new(0.0, 0.0),
        Circle::new(0.0, 0.0, 0.0)
    ));
    assert!(!answer::<Points, Circles>(
        Point::new(0.0, 1e-10),
        Circle::new(0.0, 0.0, 0.0)
    ));
    // Squared distances underflow: 1e-30² is 0 in f32, so this point is on the zero circle.
    assert!(answer::<Points, Circles>(
        Point::new(0.0, 1e-30),
        Circle::new(0.0, 0.0, 0.0)
    ));
}

#[test]
fn point_obb() {
    // A 4×2 box turned a quarter turn is 2 wide and 4 tall.
    let o = Obb::from_rotation(0.0, 0.0, 2.0, 1.0, 0.0, 1.0);
    assert!(answer::<Points, Obbs>(Point::new(0.0, 2.0), o), "top edge");
    assert!(
        answer::<Points, Obbs>(Point::new(1.0, 0.0), o),
        "right edge"
    );
    assert!(!answer::<Points, Obbs>(Point::new(1.01, 0.0), o));
    assert!(!answer::<Points, Obbs>(Point::new(0.0, 2.01), o));
    // Inside the diamond's bounding box but outside the diamond.
    assert!(!answer::<Points, Obbs>(
        Point::new(1.0, 1.0),
        diamond(0.0, 0.0)
    ));
    assert!(answer::<Points, Obbs>(
        Point::new(0.7, 0.7),
        diamond(0.0, 0.0)
    ));
}

#[test]
fn circle_circle() {
    let unit = Circle::new(0.0, 0.0, 1.0);
    assert!(
        answer::<Circles, Circles>(unit, Circle::new(2.0, 0.0, 1.0)),
        "touching"
    );
    assert!(
        answer::<Circles, Circles>(unit, Circle::new(3.0, 4.0, 4.0)),
        "touching: 25 = 5²"
    );
    assert!(!answer::<Circles, Circles>(
        unit,
        Circle::new(3.0, 4.0, 3.99)
    ));
    assert!(!answer::<Circles, Circles>(
        unit,
        Circle::new(2.5, 0.0, 1.0)
    ));
    assert!(answer::<Circles, Circles>(unit, unit), "coincident");
    let point = Circle::new(1.0, 1.0, 0.0);
    assert!(
        answer::<Circles, Circles>(point, point),
        "two zero-radius circles at one point"
    );
}

#[test]
fn aabb_aabb() {
    let a = Aabb::new(0.0, 0.0, 1.0, 1.0);
    assert!(
        answer::<Aabbs, Aabbs>(a, Aabb::new(1.0, 0.0, 2.0, 1.0)),
        "sharing an edge"
    );
    assert!(
        answer::<Aabbs, Aabbs>(a, Aabb::new(1.0, 1.0, 2.0, 2.0)),
        "sharing a corner"
    );
    assert!(!answer::<Aabbs, Aabbs>(a, Aabb::new(1.5, 0.0, 2.0, 1.0)));
    assert!(!answer::<Aabbs, Aabbs>(a, Aabb::new(0.0, 1.5, 1.0, 2.0)));
    assert!(
        answer::<Aabbs, Aabbs>(a, Aabb::new(0.5, 0.5, 0.5, 0.5)),
        "zero-size inside"
    );
    assert!(
        answer::<Aabbs, Aabbs>(a, Aabb::new(-5.0, -5.0, 5.0, 5.0)),
        "containing"
    );
}

#[test]
fn circle_aabb() {
    let b = Aabb::new(0.0, 0.0, 1.0, 1.0);
    // Near the corner: each axis alone passes (|1.8 - 0.5| <= 0.5 + 1) but the corner (1, 1) is
    // √(0.8² + 0.8²) ≈ 1.13 away.
    assert!(!answer::<Circles, Aabbs>(Circle::new(1.8, 1.8, 1.0), b));
    assert!(
        answer::<Circles, Aabbs>(Circle::new(4.0, 5.0, 5.0), b),
        "touching the corner: 3² + 4² = 5²"
    );
    assert!(!answer::<Circles, Aabbs>(Circle::new(4.0, 5.0, 4.99), b));
    assert!(
        answer::<Circles, Aabbs>(Circle::new(2.0, 0.5, 1.0), b),
        "touching a face"
    );
    assert!(!answer::<Circles, Aabbs>(Circle::new(2.0, 0.5, 0.99), b));
    assert!(
        answer::<Circles, Aabbs>(Circle::new(0.5, 0.5, 0.0), b),
        "zero radius inside"
    );
    assert!(
        answer::<Circles, Aabbs>(Circle::new(0.5, 0.5, 0.1), b),
        "inside"
    );
}

#[test]
fn circle_obb() {
    // The diamond's nearest point to (2, 0) is its vertex (√2, 0), 2 - √2 ≈ 0.586 away.
    assert!(answer::<Circles, Obbs>(
        Circle::new(2.0, 0.0, 0.6),
        diamond(0.0, 0.0)
    ));
    assert!(!answer::<Circles, Obbs>(
        Circle::new(2.0, 0.0, 0.57),
        diamond(0.0, 0.0)
    ));
    let square = Obb::axis_aligned(0.0, 0.0, 1.0, 1.0);
    assert!(
        answer::<Circles, Obbs>(Circle::new(3.0, 0.0, 2.0), square),
        "touching a face"
    );
    assert!(!answer::<Circles, Obbs>(
        Circle::new(3.0, 0.0, 1.99),
        square
    ));
    assert!(
        answer::<Circles, Obbs>(Circle::new(4.0, 5.0, 5.0), square),
        "touching a corner"
    );
    assert!(
        answer::<Circles, Obbs>(Circle::new(0.0, 0.0, 0.0), square),
        "coincident centres"
    );
}

#[test]
fn aabb_obb() {
    // The diamond's bounding box reaches √2 ≈ 1.414, so it overlaps [1.1, 2]²; the diamond's
    // nearest point to that box's corner (1.1, 1.1) has |x| + |y| = √2 < 2.2: a miss.
    let near_corner = Aabb::new(1.1, 1.1, 2.0, 2.0);
    let bounds = diamond(0.0, 0.0).bounding_box();
    assert!(
        answer::<Aabbs, Aabbs>(bounds, near_corner),
        "the bounding boxes overlap"
    );
    assert!(
        !answer::<Aabbs, Obbs>(near_corner, diamond(0.0, 0.0)),
        "the OBB itself misses"
    );
    assert!(answer::<Aabbs, Obbs>(
        Aabb::new(0.5, 0.5, 2.0, 2.0),
        diamond(0.0, 0.0)
    ));
    let square = Obb::axis_aligned(0.0, 0.0, 1.0, 1.0);
    assert!(
        answer::<Aabbs, Obbs>(Aabb::new(1.0, 1.0, 2.0, 2.0), square),
        "sharing a corner"
    );
    assert!(!answer::<Aabbs, Obbs>(
        Aabb::new(1.0, 1.25, 2.0, 2.0),
        square
    ));
}

#[test]
fn obb_obb() {
    // Two diamonds reach √2 each along x: they meet while the centres are ≤ 2√2 ≈ 2.83 apart.
    assert!(answer::<Obbs, Obbs>(diamond(0.0, 0.0), diamond(2.8, 0.0)));
    assert!(!answer::<Obbs, Obbs>(diamond(0.0, 0.0), diamond(2.9, 0.0)));
    // Bounding boxes overlap, the diamond misses the square (same as the AABB case).
    let square = Obb::axis_aligned(1.55, 1.55, 0.45, 0.45);
    assert!(answer::<Aabbs, Aabbs>(
        diamond(0.0, 0.0).bounding_box(),
        square.bounding_box()
    ));
    assert!(!answer::<Obbs, Obbs>(diamond(0.0, 0.0), square));
    let a = Obb::axis_aligned(0.0, 0.0, 1.0, 1.0);
    assert!(
        answer::<Obbs, Obbs>(a, Obb::axis_aligned(2.0, 0.0, 1.0, 1.0)),
        "sharing an edge"
    );
    assert!(!answer::<Obbs, Obbs>(
        a,
        Obb::axis_aligned(2.25, 0.0, 1.0, 1.0)
    ));
    assert!(
        answer::<Obbs, Obbs>(a, Obb::axis_aligned(0.0, 0.0, 0.0, 0.0)),
        "zero size, same centre"
    );
}

/// An axis-aligned OBB and the AABB it describes give the same answers wherever the arithmetic
/// is exact (integer and quarter coordinates).
#[test]
fn axis_aligned_obbs_agree_with_aabbs() {
    let grid = |i: i32| i as f32 * 0.25;
    for i in -8..8 {
        for j in -8..8 {
            let p = Point::new(grid(i), grid(j));
            let c = Circle::new(grid(i), grid(j), 0.75);
            let b = Aabb::new(-1.0, -0.5, 0.5, 1.0);
            let o = Obb::axis_aligned(-0.25, 0.25, 0.75, 0.75);
            let other = Aabb::from_center(grid(i), grid(j), 0.5, 0.25);
            assert_eq!(
                reference::point_aabb(&p, &b),
                reference::point_obb(&p, &o),
                "{p:?}"
            );
            assert_eq!(
                reference::circle_aabb(&c, &b),
                reference::circle_obb(&c, &o),
                "{c:?}"
            );
            assert_eq!(
                reference::aabb_aabb(&other, &b),
                reference::aabb_obb(&other, &o),
                "{other:?}"
            );
        }
    }
}

//! The bad-data policy: a NaN field, a negative size, an inverted AABB or a non-finite rotation is
//! never a hit, in the reference and the kernel alike; infinities follow IEEE; padding lanes never
//! hit; misuse at the API boundary is a descriptive error.

use crate::support::shapes::Gen;
use widephase::lanes::{AabbX8, PolygonX8, RayX8};
use widephase::{
    Aabb, Aabbs, Capsule, Circle, Circles, HitMask, LengthMismatch, Obb, Obbs, Overlaps, Point,
    Points, Polygon, Polygons, Problem, Ray, RayCast, Rays, ShapeError, ShapeSoa, batch_raycast,
    batch_test, par_batch_raycast, par_batch_test,
};

trait Checked: bytemuck::Pod + core::fmt::Debug {
    fn check(&self) -> Result<(), ShapeError>;
}
macro_rules! checked {
    ($($S:ty),+) => {$(impl Checked for $S { fn check(&self) -> Result<(), ShapeError> { <$S>::check(self) } })+};
}
checked!(Point, Circle, Aabb, Obb, Polygon, Capsule, Ray);

const POISON: [f32; 9] = [
    f32::NAN,
    -f32::NAN,
    f32::from_bits(0x7fc0_1234), // a NaN with a payload
    f32::from_bits(0xffff_ffff),
    -1.0,
    -f32::MIN_POSITIVE,
    f32::INFINITY,
    f32::NEG_INFINITY,
    f32::MAX,
];

/// Whether the policy says this shape never hits: any check failure except a merely non-unit
/// (finite) rotation or a finite polygon that is not convex and counter-clockwise, which only
/// `validate()` refuses (the tests use them as given).
fn never_hits<S: Checked>(s: &S) -> bool {
    matches!(s.check(), Err(e) if !matches!(e.problem, Problem::NotUnitRotation | Problem::NotConvex))
}

fn with_field<S: bytemuck::Pod>(s: S, k: usize, v: f32) -> S {
    let mut s = s;
    bytemuck::cast_slice_mut::<S, f32>(core::slice::from_mut(&mut s))[k] = v;
    s
}

/// Starting from a pair that overlaps, replaces each field of each shape by each poison value;
/// every replacement that makes a shape invalid must turn the answer into a miss, in the
/// reference, in all eight lanes of the kernel, and in `batch_test`.
fn poison<A, B>(a: A::Shape, b: B::Shape) -> usize
where
    A: Overlaps<B> + FromIterator<A::Shape>,
    B: ShapeSoa + FromIterator<B::Shape>,
    A::Shape: Checked,
    B::Shape: Checked,
{
    assert!(
        A::reference(&a, &b),
        "the base pair must overlap: {a:?} {b:?}"
    );
    let fields_a = size_of::<A::Shape>() / 4;
    let fields_b = size_of::<B::Shape>() / 4;
    let mut cases = Vec::new();
    for k in 0..fields_a {
        cases.extend(POISON.map(|v| (with_field(a, k, v), b)));
    }
    for k in 0..fields_b {
        cases.extend(POISON.map(|v| (a, with_field(b, k, v))));
    }
    let mut rejected = 0;
    for (pa, pb) in cases {
        if never_hits(&pa) || never_hits(&pb) {
            rejected += 1;
            assert!(!A::reference(&pa, &pb), "reference hit with {pa:?} {pb:?}");
            let xa: A = [pa; 8].into_iter().collect();
            let xb: B = [pb; 8].into_iter().collect();
            assert_eq!(
                A::kernel(&xa.block(0), &xb.block(0)),
                0,
                "kernel hit with {pa:?} {pb:?}"
            );
            let mut hits = HitMask::new();
            batch_test(&xa, &xb, &mut hits).unwrap();
            assert_eq!(hits.count_ones(), 0);
        }
    }
    // Every field saw at least its NaNs rejected.
    assert!(
        rejected >= 4 * (fields_a + fields_b),
        "only {rejected} cases were invalid"
    );
    rejected
}

/// Shapes the policy tests start from: every two bases overlap (and the base ray hits each),
/// and `big` overlaps any valid shape near the origin (a polygon cannot be infinite: its big is
/// a square around the bases).
trait Base: Checked {
    fn base() -> Self;
    fn big() -> Self;
}

impl Base for Point {
    fn base() -> Self {
        Point::new(0.25, 0.5)
    }
    fn big() -> Self {
        Point::new(0.0, 0.0)
    }
}

impl Base for Circle {
    fn base() -> Self {
        Circle::new(0.5, 0.0, 1.0)
    }
    fn big() -> Self {
        Circle::new(0.0, 0.0, f32::INFINITY)
    }
}

impl Base for Aabb {
    fn base() -> Self {
        Aabb::new(-1.0, -1.0, 1.0, 1.0)
    }
    fn big() -> Self {
        let inf = f32::INFINITY;
        Aabb::new(-inf, -inf, inf, inf)
    }
}

impl Base for Obb {
    fn base() -> Self {
        Obb::new(0.0, 0.5, 1.0, 0.5, 0.3)
    }
    fn big() -> Self {
        Obb::axis_aligned(0.0, 0.0, f32::INFINITY, f32::INFINITY)
    }
}

impl Base for Polygon {
    fn base() -> Self {
        Polygon::regular(6, 0.25, 0.25, 1.0, 0.1)
    }
    fn big() -> Self {
        Polygon::new(&[[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]]).unwrap()
    }
}

impl Base for Capsule {
    fn base() -> Self {
        Capsule::new(-0.5, 0.25, 0.75, 0.5, 0.5)
    }
    /// Endpoints must be finite; an infinite radius reaches everything.
    fn big() -> Self {
        Capsule::new(0.0, 0.0, 0.0, 0.0, f32::INFINITY)
    }
}

/// The kernel's bits for `A`'s base shape alone in a block (lanes 1..8 padding) against eight
/// of `B`'s big shape, after asserting that no padding lane hit.
fn lane0<A, B>() -> u8
where
    A: Overlaps<B> + FromIterator<A::Shape>,
    B: ShapeSoa,
    A::Shape: Base,
    B::Shape: Base,
    B::X8: From<[B::Shape; 8]>,
{
    let a: A = [A::Shape::base()].into_iter().collect();
    let bits = A::kernel(&ShapeSoa::block(&a, 0), &[B::Shape::big(); 8].into());
    assert_eq!(bits & !1, 0, "a padding lane hit: {bits:#010b}");
    bits
}

/// Every pair kind of the pair table, in both orders: poisoned fields never hit, and padding
/// lanes never hit even against shapes that contain everything; poisoned rays and shapes
/// never hit in any ray cast.
macro_rules! policy_tests {
    (
        distinct { $($d:ident: $A:ty, $B:ty;)* }
        same { $($s:ident: $S:ty;)* }
        casts { $($c:ident: $C:ty;)* }
    ) => {
        #[test]
        fn invalid_shapes_never_hit_in_any_pair() {
            $(
                poison::<$A, $B>(Base::base(), Base::base());
                poison::<$B, $A>(Base::base(), Base::base());
            )*
            $(poison::<$S, $S>(Base::base(), Base::base());)*
        }

        #[test]
        fn invalid_rays_and_shapes_never_hit() {
            let r = Ray::new(-3.0, 0.25, 1.0, 0.1, 10.0);
            $(poison_cast::<$C>(r, Base::base());)*
        }

        #[test]
        fn padding_lanes_never_hit() {
            $(
                lane0::<$A, $B>();
                lane0::<$B, $A>();
            )*
            $(lane0::<$S, $S>();)*
        }
    };
}

widephase::pair_table!(policy_tests);

/// A ray cast's version of [`poison`]: every replacement that makes the ray or the shape
/// invalid turns the answer into a miss (`f32::INFINITY`), in the reference, all eight lanes of
/// the kernel, and `batch_raycast`.
fn poison_cast<S>(r: Ray, s: S::Shape)
where
    S: RayCast + FromIterator<S::Shape>,
    S::Shape: Checked,
{
    assert!(
        S::reference(&r, &s) < f32::INFINITY,
        "the base pair must hit: {r:?} {s:?}"
    );
    let mut cases = Vec::new();
    for k in 0..5 {
        cases.extend(POISON.map(|v| (with_field(r, k, v), s)));
    }
    for k in 0..size_of::<S::Shape>() / 4 {
        cases.extend(POISON.map(|v| (r, with_field(s, k, v))));
    }
    let mut rejected = 0;
    for (pr, ps) in cases {
        if never_hits(&pr) || never_hits(&ps) {
            rejected += 1;
            assert_eq!(
                S::reference(&pr, &ps),
                f32::INFINITY,
                "reference hit with {pr:?} {ps:?}"
            );
            let rays: Rays = [pr; 8].into_iter().collect();
            let shapes: S = [ps; 8].into_iter().collect();
            let t = S::kernel(&rays.block(0), &shapes.block(0));
            assert_eq!(
                t.to_array(),
                [f32::INFINITY; 8],
                "kernel hit with {pr:?} {ps:?}"
            );
            let mut out = Vec::new();
            batch_raycast(&rays, &shapes, &mut out).unwrap();
            assert!(out.iter().all(|&t| t == f32::INFINITY));
        }
    }
    assert!(rejected >= 20, "only {rejected} cases were invalid");
}

/// A negative or NaN `max_t` never hits, even from inside; `check` names the field.
#[test]
fn rays_without_reach_never_hit() {
    let inside = Ray::new(0.0, 0.0, 1.0, 0.0, -1.0);
    assert_eq!(
        widephase::reference::ray_aabb(&inside, &Aabb::base()),
        f32::INFINITY
    );
    let nan = Ray {
        max_t: f32::NAN,
        ..inside
    };
    assert_eq!(
        widephase::reference::ray_circle(&nan, &Circle::base()),
        f32::INFINITY
    );
    assert_eq!(
        inside.check().unwrap_err().to_string(),
        "`max_t` is negative (-1.0)"
    );
    let far = Ray::new(f32::INFINITY, 0.0, -1.0, 0.0, 1.0);
    assert_eq!(
        far.check().unwrap_err().to_string(),
        "`origin_x` is not finite (inf)"
    );
}

/// Specific rules spelled out, beyond the field-by-field sweep.
#[test]
fn specific_invalid_shapes() {
    let r = |a: &Circle, b: &Circle| widephase::reference::circle_circle(a, b);
    // A negative radius hidden in a positive sum of radii.
    assert!(!r(
        &Circle::new(0.0, 0.0, -1.0),
        &Circle::new(0.5, 0.0, 3.0)
    ));
    // An inverted box would pass the two cross comparisons against a large box.
    let inverted = Aabb::new(5.0, 0.0, 3.0, 1.0);
    assert!(!widephase::reference::aabb_aabb(
        &inverted,
        &Aabb::new(0.0, 0.0, 10.0, 10.0)
    ));
    // An infinite cosine with an infinite extent would otherwise contain the point.
    let o = Obb::from_rotation(0.0, 0.0, f32::INFINITY, f32::INFINITY, f32::INFINITY, 0.0);
    assert!(!widephase::reference::point_obb(&Point::new(1.0, 1.0), &o));
    // -0 sizes are valid zero sizes.
    assert!(widephase::reference::point_circle(
        &Point::new(1.0, 1.0),
        &Circle::new(1.0, 1.0, -0.0)
    ));
}

/// An AABB from -inf to +inf contains every finite point and circle and overlaps every valid
/// finite box; a half-infinite one extends without end on its open sides.
#[test]
fn infinite_aabbs_follow_ieee() {
    use widephase::reference::{aabb_aabb, circle_aabb, point_aabb};
    let inf = f32::INFINITY;
    let everything = Aabb::new(-inf, -inf, inf, inf);
    let right_half = Aabb::new(0.0, -inf, inf, inf);
    let mut g = Gen::new(11);
    for _ in 0..20_000 {
        let (x, y) = (g.coord(), g.coord());
        if !(x.is_finite() && y.is_finite()) {
            continue;
        }
        let r = g.uniform(0.0, 3.0);
        assert!(point_aabb(&Point::new(x, y), &everything), "({x}, {y})");
        assert!(
            circle_aabb(&Circle::new(x, y, r), &everything),
            "({x}, {y}) r {r}"
        );
        assert!(aabb_aabb(&Aabb::new(x, y, x + r, y + r), &everything));
        assert_eq!(
            point_aabb(&Point::new(x, y), &right_half),
            x >= 0.0,
            "({x}, {y})"
        );
    }
    assert!(point_aabb(&Point::new(f32::MAX, -f32::MAX), &everything));
    // The policy's documented limit: an infinite AABB's centre is NaN, so it never hits an OBB.
    assert!(!widephase::reference::aabb_obb(
        &everything,
        &Obb::axis_aligned(0.0, 0.0, 1.0, 1.0)
    ));
}

/// Lane 0 is a real shape and does hit (so the padding checks are not vacuous), and a padding
/// ray never hits, even a shape around its NaN origin.
#[test]
fn padding_next_to_real_hits() {
    let inf = f32::INFINITY;
    assert_eq!(lane0::<Points, Aabbs>() & 1, 1);
    assert_eq!(lane0::<Polygons, Points>() & 1, 1);
    assert_eq!(lane0::<Circles, Polygons>() & 1, 1);
    let rays: Rays = [Ray::new(0.0, 0.0, 1.0, 0.0, 1.0)].into_iter().collect();
    let huge_b = AabbX8::splat(Aabb::big());
    let t = <Aabbs as RayCast>::kernel(&rays.block(0), &huge_b).to_array();
    assert_eq!(t, [0.0, inf, inf, inf, inf, inf, inf, inf]);
    let any_q = PolygonX8::splat(Polygon::big());
    let t = <Polygons as RayCast>::kernel(&rays.block(0), &any_q).to_array();
    assert_eq!(t, [0.0, inf, inf, inf, inf, inf, inf, inf]);
    let circles: Circles = [Circle::new(0.0, 0.0, 1.0)].into_iter().collect();
    let t = <Circles as RayCast>::kernel(
        &RayX8::splat(Ray::new(0.0, 0.0, 1.0, 0.0, 1.0)),
        &circles.block(0),
    );
    assert_eq!(t.to_array(), [0.0, inf, inf, inf, inf, inf, inf, inf]);
}

#[test]
fn length_mismatch_is_an_error_and_leaves_out_untouched() {
    let a: Circles = (0..10).map(|i| Circle::new(i as f32, 0.0, 1.0)).collect();
    let b: Aabbs = (0..10).map(|_| Aabb::new(0.0, 0.0, 1.0, 1.0)).collect();
    let short: Aabbs = b.iter().take(9).collect();
    let mut out = HitMask::new();
    batch_test(&a, &b, &mut out).unwrap();
    let before = out.clone();
    assert_eq!(
        batch_test(&a, &short, &mut out),
        Err(LengthMismatch { a: 10, b: 9 })
    );
    assert_eq!(out, before);
    assert_eq!(
        par_batch_test(&short, &a, &mut out),
        Err(LengthMismatch { a: 9, b: 10 })
    );
    assert_eq!(out, before);
    assert_eq!(
        LengthMismatch { a: 10, b: 9 }.to_string(),
        "pairwise test needs containers of equal length, got 10 and 9"
    );
    // Ray casts: the same rule, `out` untouched.
    let rays: Rays = (0..10)
        .map(|i| Ray::new(i as f32, 0.0, 0.0, 1.0, 5.0))
        .collect();
    let mut t = vec![1.5; 3];
    assert_eq!(
        batch_raycast(&rays, &short, &mut t),
        Err(LengthMismatch { a: 10, b: 9 })
    );
    assert_eq!(
        par_batch_raycast(&rays, &short, &mut t),
        Err(LengthMismatch { a: 10, b: 9 })
    );
    assert_eq!(t, [1.5; 3]);
    batch_raycast(&rays, &b, &mut t).unwrap();
    assert_eq!(t.len(), 10);
}

#[test]
fn validate_names_the_first_bad_shape_and_why() {
    let mut circles: Circles = (0..20).map(|i| Circle::new(i as f32, 0.0, 1.0)).collect();
    assert_eq!(circles.validate(), Ok(()));
    circles.set(13, Circle::new(0.0, 0.0, -2.0));
    circles.set(17, Circle::new(f32::NAN, 0.0, 1.0));
    let err = circles.validate().unwrap_err();
    assert_eq!(
        (err.container, err.index, err.error.field),
        ("Circles", 13, "radius")
    );
    assert_eq!(err.error.problem, Problem::Negative);
    assert_eq!(err.to_string(), "Circles[13]: `radius` is negative (-2.0)");

    let points: Points = [Point::new(0.0, 0.0), Point::new(1.0, f32::NAN)]
        .into_iter()
        .collect();
    let err = points.validate().unwrap_err();
    assert_eq!(
        (err.index, err.error.field, err.error.problem),
        (1, "y", Problem::Nan)
    );

    let aabbs: Aabbs = [Aabb::new(0.0, 2.0, 1.0, 1.0)].into_iter().collect();
    let err = aabbs.validate().unwrap_err();
    assert_eq!(
        (err.index, err.error.field, err.error.problem),
        (0, "max_y", Problem::BelowMin)
    );

    let obbs: Obbs = [
        Obb::new(0.0, 0.0, 1.0, 1.0, 0.5),
        Obb::from_rotation(0.0, 0.0, 1.0, 1.0, 2.0, 0.0),
        Obb::from_rotation(0.0, 0.0, 1.0, 1.0, 1.0, f32::INFINITY),
    ]
    .into_iter()
    .collect();
    let err = obbs.validate().unwrap_err();
    assert_eq!(
        (err.index, err.error.problem),
        (1, Problem::NotUnitRotation)
    );
    assert_eq!(
        err.to_string(),
        "Obbs[1]: `cos` belongs to a rotation whose length is not 1 (2.0)"
    );
    let err = Obbs::from(&obbs.iter().skip(2).collect::<Vec<_>>()[..])
        .validate()
        .unwrap_err();
    assert_eq!(
        (err.error.field, err.error.problem),
        ("sin", Problem::NonFinite)
    );
    // Polygons: non-finite coordinates, then winding and convexity, with the vertex named.
    let square = Polygon::new(&[[0.0, 0.0], [4.0, 0.0], [4.0, 4.0], [0.0, 4.0]]).unwrap();
    let mut polys: Polygons = [square; 4].into_iter().collect();
    assert_eq!(polys.validate(), Ok(()));
    polys.ys_mut(2)[1] = f32::INFINITY;
    // Vertex 2 of polygon 3 moved inside: a reflex turn there, (-3, 1) then (-1, 3).
    polys.xs_mut(2)[3] = 1.0;
    polys.ys_mut(2)[3] = 1.0;
    let err = polys.validate().unwrap_err();
    assert_eq!(
        (err.index, err.error.field, err.error.problem),
        (1, "ys[2]", Problem::NonFinite)
    );
    polys.set(1, square);
    let err = polys.validate().unwrap_err();
    assert_eq!((err.index, err.error.problem), (3, Problem::NotConvex));
    assert_eq!(
        err.to_string(),
        "Polygons[3]: `xs[2]` is a vertex where the polygon is not convex and counter-clockwise (-8.0)"
    );
    let clockwise = Polygon {
        xs: [0.0, 0.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0],
        ys: [0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
    };
    assert_eq!(clockwise.check().unwrap_err().problem, Problem::NotConvex);
    let rays: Rays = [
        Ray::new(0.0, 0.0, 1.0, 0.0, 1.0),
        Ray::new(0.0, 0.0, f32::NAN, 0.0, 1.0),
    ]
    .into_iter()
    .collect();
    let err = rays.validate().unwrap_err();
    assert_eq!(err.to_string(), "Rays[1]: `dir_x` is NaN (NaN)");
    // Angles from Obb::new are always accepted.
    let mut g = Gen::new(3);
    for _ in 0..10_000 {
        let angle = g.uniform(-1e4, 1e4);
        assert_eq!(
            Obb::new(1.0, 2.0, 1.0, 1.0, angle).check(),
            Ok(()),
            "angle {angle}"
        );
    }
}

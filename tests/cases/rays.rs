//! Ray casts worked out by hand: entry parameters, the origin inside, grazing a corner or an
//! edge, axis-parallel and zero directions, `max_t`. Each goes through the reference, the
//! kernel in all eight lanes, and `batch_raycast` with seven padding lanes, which must agree
//! bit for bit.

use widephase::{
    Aabb, Aabbs, Circle, Circles, Obb, Obbs, Polygon, Polygons, Ray, RayCast, Rays, batch_raycast,
};

const MISS: f32 = f32::INFINITY;

/// The entry parameter for one pair, the same in the reference, all eight lanes and a batch of
/// one.
fn cast<S>(r: Ray, s: S::Shape) -> f32
where
    S: RayCast + FromIterator<S::Shape>,
    S::Shape: core::fmt::Debug,
{
    let want = S::reference(&r, &s);
    let rays: Rays = [r; 8].into_iter().collect();
    let shapes: S = [s; 8].into_iter().collect();
    let lanes = S::kernel(&rays.block(0), &shapes.block(0)).to_array();
    assert!(
        lanes.iter().all(|t| t.to_bits() == want.to_bits()),
        "kernel {lanes:?} vs reference {want:?} for {r:?} {s:?}"
    );
    let (one_r, one_s): (Rays, S) = ([r].into_iter().collect(), [s].into_iter().collect());
    let mut out = Vec::new();
    batch_raycast(&one_r, &one_s, &mut out).unwrap();
    assert_eq!(
        out[0].to_bits(),
        want.to_bits(),
        "batch of one for {r:?} {s:?}"
    );
    want
}

fn ray(ox: f32, oy: f32, dx: f32, dy: f32) -> Ray {
    Ray::new(ox, oy, dx, dy, f32::INFINITY)
}

#[test]
fn ray_aabb() {
    let b = Aabb::new(2.0, 0.0, 3.0, 1.0);
    assert_eq!(cast::<Aabbs>(ray(0.0, 0.5, 1.0, 0.0), b), 2.0);
    // t counts in units of the direction.
    assert_eq!(cast::<Aabbs>(ray(0.0, 0.5, 4.0, 0.0), b), 0.5);
    // From inside, on the boundary, and moving away from it.
    assert_eq!(cast::<Aabbs>(ray(2.5, 0.5, 1.0, 0.0), b), 0.0);
    assert_eq!(cast::<Aabbs>(ray(3.0, 1.0, 1.0, 1.0), b), 0.0);
    assert_eq!(cast::<Aabbs>(ray(4.0, 0.5, 1.0, 0.0), b), MISS);
    // Along the top edge (dir_y == 0, y on the boundary): a hit; just above: a miss.
    assert_eq!(cast::<Aabbs>(ray(0.0, 1.0, 1.0, 0.0), b), 2.0);
    assert_eq!(cast::<Aabbs>(ray(0.0, 1.125, 1.0, 0.0), b), MISS);
    // Touching only the corner (2, 1), on the line y = x - 1: grazing counts; an eighth higher
    // misses. (From (1, 2) going down-right the line crosses the box, entering at its corner.)
    assert_eq!(cast::<Aabbs>(ray(1.0, 0.0, 1.0, 1.0), b), 1.0);
    assert_eq!(cast::<Aabbs>(ray(1.0, 0.125, 1.0, 1.0), b), MISS);
    assert_eq!(cast::<Aabbs>(ray(1.0, 2.0, 1.0, -1.0), b), 1.0);
    assert_eq!(cast::<Aabbs>(ray(1.0, 2.125, 1.0, -1.0), b), 1.125);
    // Vertical ray, and the zero direction inside and outside.
    assert_eq!(cast::<Aabbs>(ray(2.5, -4.0, 0.0, 2.0), b), 2.0);
    assert_eq!(cast::<Aabbs>(ray(2.5, 0.5, 0.0, 0.0), b), 0.0);
    assert_eq!(cast::<Aabbs>(ray(0.0, 0.5, 0.0, 0.0), b), MISS);
    // max_t: the entry at 2 is reached with max_t 2, not with 1.75; negative never hits.
    assert_eq!(cast::<Aabbs>(Ray::new(0.0, 0.5, 1.0, 0.0, 2.0), b), 2.0);
    assert_eq!(cast::<Aabbs>(Ray::new(0.0, 0.5, 1.0, 0.0, 1.75), b), MISS);
    assert_eq!(cast::<Aabbs>(Ray::new(2.5, 0.5, 1.0, 0.0, -1.0), b), MISS);
    // NaN anywhere: a miss.
    assert_eq!(cast::<Aabbs>(ray(f32::NAN, 0.5, 1.0, 0.0), b), MISS);
    assert_eq!(
        cast::<Aabbs>(ray(0.0, 0.5, 1.0, 0.0), Aabb::new(2.0, 0.0, f32::NAN, 1.0)),
        MISS
    );
    // Infinite boxes follow IEEE: a half-plane is entered where the ray crosses its edge.
    let right = Aabb::new(5.0, f32::NEG_INFINITY, f32::INFINITY, f32::INFINITY);
    assert_eq!(cast::<Aabbs>(ray(1.0, 100.0, 2.0, -3.0), right), 2.0);
}

#[test]
fn ray_circle() {
    let c = Circle::new(5.0, 0.0, 1.0);
    assert_eq!(cast::<Circles>(ray(0.0, 0.0, 1.0, 0.0), c), 4.0);
    assert_eq!(cast::<Circles>(ray(0.0, 0.0, 2.0, 0.0), c), 2.0);
    // Tangent at (5, 1): grazing counts; a quarter higher misses.
    assert_eq!(cast::<Circles>(ray(0.0, 1.0, 1.0, 0.0), c), 5.0);
    assert_eq!(cast::<Circles>(ray(0.0, 1.25, 1.0, 0.0), c), MISS);
    // From inside and from the rim; moving away from the circle; behind the origin.
    assert_eq!(cast::<Circles>(ray(5.5, 0.0, 1.0, 0.0), c), 0.0);
    assert_eq!(cast::<Circles>(ray(6.0, 0.0, 1.0, 0.0), c), 0.0);
    assert_eq!(cast::<Circles>(ray(7.0, 0.0, 1.0, 0.0), c), MISS);
    assert_eq!(cast::<Circles>(ray(0.0, 0.0, -1.0, 0.0), c), MISS);
    // Zero direction: inside hits at 0, outside never.
    assert_eq!(cast::<Circles>(ray(5.0, 0.5, 0.0, 0.0), c), 0.0);
    assert_eq!(cast::<Circles>(ray(0.0, 0.0, 0.0, 0.0), c), MISS);
    // A 3-4-5 approach: from (0, 0) along (3, 4)/5 units to a circle at (6, 8) of radius 5.
    assert_eq!(
        cast::<Circles>(ray(0.0, 0.0, 0.6, 0.8), Circle::new(6.0, 8.0, 5.0)),
        5.0
    );
    // A zero radius is a point, which a ray through it hits.
    assert_eq!(
        cast::<Circles>(ray(0.0, 0.0, 1.0, 0.0), Circle::new(3.0, 0.0, 0.0)),
        3.0
    );
    assert_eq!(
        cast::<Circles>(ray(0.0, 0.0, 1.0, 0.0), Circle::new(3.0, 0.0, -1.0)),
        MISS
    );
}

#[test]
fn ray_obb() {
    // The unit-half-extent diamond at (4, 0): corners at (4 ± √2, 0) and (4, ±√2).
    let d = core::f32::consts::FRAC_1_SQRT_2;
    let diamond = Obb::from_rotation(4.0, 0.0, 1.0, 1.0, d, d);
    let t = cast::<Obbs>(ray(0.0, 0.0, 1.0, 0.0), diamond);
    assert!((t - (4.0 - core::f32::consts::SQRT_2)).abs() < 1e-5, "{t}");
    assert_eq!(cast::<Obbs>(ray(0.0, 2.0, 1.0, 0.0), diamond), MISS);
    assert_eq!(cast::<Obbs>(ray(4.0, 0.0, 1.0, 0.0), diamond), 0.0);
    // An axis-aligned OBB gives exactly the AABB's answers.
    let o = Obb::axis_aligned(2.5, 0.5, 0.5, 0.5);
    let b = Aabb::new(2.0, 0.0, 3.0, 1.0);
    for r in [
        ray(0.0, 0.5, 1.0, 0.0),
        ray(0.0, 1.0, 1.0, 0.0),
        ray(1.0, 2.0, 1.0, -1.0),
        ray(2.5, 0.5, 0.0, 0.0),
    ] {
        assert_eq!(cast::<Obbs>(r, o), cast::<Aabbs>(r, b), "{r:?}");
    }
}

#[test]
fn ray_polygon() {
    let tri = Polygon::new(&[[2.0, 0.0], [4.0, 0.0], [2.0, 2.0]]).unwrap();
    assert_eq!(cast::<Polygons>(ray(0.0, 1.0, 1.0, 0.0), tri), 2.0);
    // Entering through the hypotenuse x + y = 4 from the right.
    assert_eq!(cast::<Polygons>(ray(6.0, 1.0, -1.0, 0.0), tri), 3.0);
    // Grazing the vertex (2, 2), along the bottom edge, and inside.
    assert_eq!(cast::<Polygons>(ray(0.0, 2.0, 1.0, 0.0), tri), 2.0);
    assert_eq!(cast::<Polygons>(ray(0.0, 2.25, 1.0, 0.0), tri), MISS);
    assert_eq!(cast::<Polygons>(ray(0.0, 0.0, 1.0, 0.0), tri), 2.0);
    assert_eq!(cast::<Polygons>(ray(2.5, 0.5, 1.0, 0.0), tri), 0.0);
    // Zero direction; max_t short of the entry.
    assert_eq!(cast::<Polygons>(ray(2.5, 0.5, 0.0, 0.0), tri), 0.0);
    assert_eq!(cast::<Polygons>(ray(0.0, 1.0, 0.0, 0.0), tri), MISS);
    assert_eq!(
        cast::<Polygons>(Ray::new(0.0, 1.0, 1.0, 0.0, 1.5), tri),
        MISS
    );
    // A rectangle as a polygon enters where the AABB does.
    let b = Aabb::new(2.0, 0.0, 3.0, 1.0);
    let rect = Polygon::new(&[[2.0, 0.0], [3.0, 0.0], [3.0, 1.0], [2.0, 1.0]]).unwrap();
    for r in [
        ray(0.0, 0.5, 1.0, 0.0),
        ray(0.0, 1.0, 1.0, 0.0),
        ray(1.0, 2.0, 1.0, -1.0),
        ray(2.5, -4.0, 0.0, 2.0),
    ] {
        assert_eq!(cast::<Polygons>(r, rect), cast::<Aabbs>(r, b), "{r:?}");
    }
}

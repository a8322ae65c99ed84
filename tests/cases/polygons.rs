//! Convex polygons: construction (orientation, clean-up, refusals), hand-worked overlap answers,
//! and agreement with the box kernels where a polygon is a box and the arithmetic is exact.

use super::known_answers::answer;
use crate::support::shapes::{Gen, raw_polygon};
use widephase::{
    Aabb, Aabbs, Circle, Circles, InvalidPolygon, MAX_VERTICES, Obb, Obbs, Point, Points, Polygon,
    Polygons, Problem, reference,
};

fn poly(points: &[[f32; 2]]) -> Polygon {
    Polygon::new(points).unwrap_or_else(|e| panic!("{points:?}: {e}"))
}

/// The AABB as a polygon.
fn rect(b: &Aabb) -> Polygon {
    poly(&[
        [b.min_x, b.min_y],
        [b.max_x, b.min_y],
        [b.max_x, b.max_y],
        [b.min_x, b.max_y],
    ])
}

#[test]
fn new_orients_and_cleans_its_input() {
    let ccw = [[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]];
    let p = poly(&ccw);
    assert_eq!(p.vertices().collect::<Vec<_>>(), ccw);
    assert_eq!(p.vertex_count(), 4);
    // Unused slots repeat the last vertex.
    assert_eq!(&p.xs[4..], &[0.0; 4]);
    assert_eq!(&p.ys[4..], &[2.0; 4]);
    // Clockwise input comes out counter-clockwise.
    let mut cw = ccw;
    cw.reverse();
    let q = poly(&cw);
    assert_eq!(q.check(), Ok(()));
    assert_eq!(q.vertex_count(), 4);
    // Duplicates (also first == last) and collinear points are removed, repeatedly.
    let messy = [
        [0.0, 0.0],
        [1.0, 0.0],
        [1.0, 0.0],
        [2.0, 0.0],
        [2.0, 1.0],
        [2.0, 2.0],
        [1.0, 2.0],
        [0.0, 2.0],
        [0.0, 1.0],
        [0.0, 0.0],
    ];
    assert_eq!(poly(&messy).vertices().collect::<Vec<_>>(), ccw);
    // Eight vertices are allowed, and a regular octagon has them all.
    let octagon = Polygon::regular(8, 1.0, 2.0, 3.0, 0.2);
    assert_eq!(octagon.vertex_count(), MAX_VERTICES);
    assert_eq!(octagon.check(), Ok(()));
    let b = octagon.bounding_box();
    assert!(b.min_x >= -2.0 && b.max_x <= 4.0 && b.min_y >= -1.0 && b.max_y <= 5.0);
}

#[test]
fn new_refuses_with_a_reason() {
    let nan = [[0.0, 0.0], [1.0, f32::NAN], [0.0, 1.0]];
    assert_eq!(
        Polygon::new(&nan),
        Err(InvalidPolygon::NotFinite { index: 1 })
    );
    let inf = [[0.0, 0.0], [1.0, 0.0], [f32::INFINITY, 1.0]];
    assert_eq!(
        Polygon::new(&inf),
        Err(InvalidPolygon::NotFinite { index: 2 })
    );
    assert_eq!(
        Polygon::new(&[]),
        Err(InvalidPolygon::TooFew { remaining: 0 })
    );
    let line = [[0.0, 0.0], [1.0, 1.0], [2.0, 2.0], [3.0, 3.0]];
    let err = Polygon::new(&line).unwrap_err();
    assert!(
        matches!(err, InvalidPolygon::TooFew { remaining } if remaining < 3),
        "{err:?}"
    );
    let same = [[1.0, 1.0]; 5];
    assert!(matches!(
        Polygon::new(&same),
        Err(InvalidPolygon::TooFew { .. })
    ));
    // Nine distinct corners of a convex outline.
    let nine: Vec<[f32; 2]> = (0..9)
        .map(|k| {
            let a = k as f32 * core::f32::consts::TAU / 9.0;
            [10.0 * a.cos(), 10.0 * a.sin()]
        })
        .collect();
    assert_eq!(
        Polygon::new(&nine),
        Err(InvalidPolygon::TooMany { remaining: 9 })
    );
    // A reflex vertex (input index 2), and a pentagram whose every turn is to the left.
    let dart = [[0.0, 0.0], [4.0, 0.0], [1.0, 1.0], [0.0, 4.0]];
    assert_eq!(
        Polygon::new(&dart),
        Err(InvalidPolygon::NotConvex { index: 2 })
    );
    let star: Vec<[f32; 2]> = (0..5)
        .map(|k| {
            let a = k as f32 * 2.0 * core::f32::consts::TAU / 5.0;
            [a.cos(), a.sin()]
        })
        .collect();
    assert!(matches!(
        Polygon::new(&star),
        Err(InvalidPolygon::NotConvex { .. })
    ));
    // The messages say what is wrong.
    assert_eq!(
        InvalidPolygon::NotFinite { index: 1 }.to_string(),
        "polygon point 1 has a NaN or infinite coordinate"
    );
    assert_eq!(
        InvalidPolygon::TooMany { remaining: 9 }.to_string(),
        "polygon has 9 vertices after removing duplicates and collinear points; at most 8 are allowed"
    );
    assert_eq!(
        InvalidPolygon::NotConvex { index: 2 }.to_string(),
        "polygon is not convex at point 2"
    );
    assert_eq!(
        InvalidPolygon::TooFew { remaining: 2 }.to_string(),
        "polygon has 2 distinct non-collinear point(s); it needs at least 3"
    );
}

#[test]
fn transformed_places_a_copy() {
    let tri = poly(&[[0.0, 0.0], [2.0, 0.0], [0.0, 1.0]]);
    let moved = tri.transformed(5.0, -1.0, 0.0);
    assert_eq!(
        moved.vertices().collect::<Vec<_>>(),
        [[5.0, -1.0], [7.0, -1.0], [5.0, 0.0]]
    );
    let turned = tri.transformed(0.0, 0.0, core::f32::consts::FRAC_PI_2);
    let v: Vec<[f32; 2]> = turned.vertices().collect();
    assert!(
        (v[1][0]).abs() < 1e-6 && (v[1][1] - 2.0).abs() < 1e-6,
        "{v:?}"
    );
    assert_eq!(turned.check(), Ok(()));
    assert_eq!(turned.vertex_count(), 3);
}

#[test]
fn hand_worked_overlaps() {
    let tri = poly(&[[0.0, 0.0], [4.0, 0.0], [0.0, 4.0]]);
    // Points: on the hypotenuse (touching counts), just beyond it, at a vertex, outside.
    assert!(answer::<Points, Polygons>(Point::new(2.0, 2.0), tri));
    assert!(!answer::<Points, Polygons>(Point::new(2.0, 2.25), tri));
    assert!(answer::<Points, Polygons>(Point::new(4.0, 0.0), tri));
    assert!(!answer::<Points, Polygons>(Point::new(-0.25, 1.0), tri));
    // A circle off the corner (4, 0): its box meets the triangle's box in both axes, but the
    // corner is √2 ≈ 1.414 away.
    assert!(!answer::<Circles, Polygons>(
        Circle::new(5.0, -1.0, 1.375),
        tri
    ));
    assert!(answer::<Circles, Polygons>(
        Circle::new(5.0, -1.0, 1.5),
        tri
    ));
    // Off the middle of the hypotenuse: distance 2·√2 ≈ 2.83 from (3, 3).
    assert!(!answer::<Circles, Polygons>(
        Circle::new(3.0, 3.0, 1.375),
        tri
    ));
    assert!(answer::<Circles, Polygons>(Circle::new(3.0, 3.0, 1.5), tri));
    // A circle around the whole triangle, and one inside it.
    assert!(answer::<Circles, Polygons>(
        Circle::new(1.0, 1.0, 10.0),
        tri
    ));
    assert!(answer::<Circles, Polygons>(
        Circle::new(1.0, 1.0, 0.25),
        tri
    ));
    // A box beyond the hypotenuse, whose bounding box overlaps the triangle's; then touching it
    // at a corner.
    assert!(!answer::<Aabbs, Polygons>(
        Aabb::new(2.5, 2.5, 4.0, 4.0),
        tri
    ));
    assert!(answer::<Aabbs, Polygons>(
        Aabb::new(2.0, 2.0, 4.0, 4.0),
        tri
    ));
    // The same with boxes turned by 45 degrees: a diamond whose corner stops short of the
    // hypotenuse, and one that reaches it.
    let d = core::f32::consts::FRAC_1_SQRT_2;
    let diamond = |x: f32, y: f32| Obb::from_rotation(x, y, d, d, d, d);
    assert!(!answer::<Obbs, Polygons>(diamond(3.5, 3.5), tri));
    assert!(answer::<Obbs, Polygons>(diamond(2.0, 2.0), tri));
    // Two triangles: separated only by the hypotenuse's normal; then touching vertex to edge.
    let other = poly(&[[4.0, 4.0], [3.0, 4.0], [4.0, 3.0]]);
    assert!(!answer::<Polygons, Polygons>(tri, other));
    let touching = poly(&[[2.0, 2.0], [4.0, 2.0], [4.0, 4.0]]);
    assert!(answer::<Polygons, Polygons>(tri, touching));
    assert!(answer::<Polygons, Polygons>(touching, tri));
    // One inside the other, in both orders.
    let small = poly(&[[0.5, 0.5], [1.0, 0.5], [0.5, 1.0]]);
    assert!(answer::<Polygons, Polygons>(tri, small) && answer::<Polygons, Polygons>(small, tri));
}

/// A rectangle as a polygon gives the box kernels' answers wherever the arithmetic is exact
/// (quarter-grid coordinates), touching included: against points, circles, boxes, rotated boxes
/// at exact right angles, and other rectangles.
#[test]
fn rectangles_agree_with_the_box_kernels() {
    let grid = |i: i32| i as f32 * 0.25;
    let boxes = [
        Aabb::new(-1.0, -0.5, 0.5, 1.0),
        Aabb::new(0.0, 0.0, 2.0, 0.25),
    ];
    let rotations = [(1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0)];
    let mut hits = 0;
    for b in boxes {
        let q = rect(&b);
        for i in -10..10 {
            for j in -10..10 {
                let (x, y) = (grid(i), grid(j));
                let p = Point::new(x, y);
                assert_eq!(
                    answer::<Points, Polygons>(p, q),
                    reference::point_aabb(&p, &b),
                    "{p:?} {b:?}"
                );
                let c = Circle::new(x, y, grid((i + j).rem_euclid(5)));
                assert_eq!(
                    answer::<Circles, Polygons>(c, q),
                    reference::circle_aabb(&c, &b),
                    "{c:?} {b:?}"
                );
                let other = Aabb::new(x, y, x + grid(i.rem_euclid(4) + 1), y + 0.5);
                let want = reference::aabb_aabb(&other, &b);
                hits += usize::from(want);
                assert_eq!(answer::<Aabbs, Polygons>(other, q), want, "{other:?} {b:?}");
                assert_eq!(
                    answer::<Polygons, Polygons>(rect(&other), q),
                    want,
                    "{other:?} {b:?}"
                );
                let (cos, sin) = rotations[(i + 2 * j).rem_euclid(4) as usize];
                let o = Obb::from_rotation(x, y, 0.75, 0.25, cos, sin);
                assert_eq!(
                    answer::<Obbs, Polygons>(o, q),
                    reference::aabb_obb(&b, &o),
                    "{o:?} {b:?}"
                );
            }
        }
    }
    assert!(hits > 50, "{hits}");
}

/// `Polygon::check` as its docs specify it, one pair at a time: finite coordinates, then a
/// strict left turn at every vertex, then every vertex on the inner side of every edge (or on
/// it), each turn in `f64` as `(b - a) × (c - b)`; the first failure in that order.
#[allow(
    clippy::needless_range_loop,
    reason = "the indices are vertex numbers, wrapped around"
)]
fn check_by_pairs(p: &Polygon) -> Result<(), (&'static str, Problem, u32)> {
    const XS: [&str; 8] = [
        "xs[0]", "xs[1]", "xs[2]", "xs[3]", "xs[4]", "xs[5]", "xs[6]", "xs[7]",
    ];
    const YS: [&str; 8] = [
        "ys[0]", "ys[1]", "ys[2]", "ys[3]", "ys[4]", "ys[5]", "ys[6]", "ys[7]",
    ];
    for k in 0..MAX_VERTICES {
        for (v, name) in [(p.xs[k], XS[k]), (p.ys[k], YS[k])] {
            if v.is_nan() {
                return Err((name, Problem::Nan, v.to_bits()));
            }
            if v.is_infinite() {
                return Err((name, Problem::NonFinite, v.to_bits()));
            }
        }
    }
    let n = p.vertex_count();
    let v = |k: usize| [f64::from(p.xs[k % n]), f64::from(p.ys[k % n])];
    let turn = |a: [f64; 2], b: [f64; 2], c: [f64; 2]| {
        (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0])
    };
    for k in 0..n {
        let t = turn(v(k + n - 1), v(k), v(k + 1));
        if t <= 0.0 {
            return Err((XS[k], Problem::NotConvex, (t as f32).to_bits()));
        }
    }
    for k in 0..n {
        for j in 0..n {
            let t = turn(v(k), v(k + 1), v(j));
            if t < 0.0 {
                return Err((XS[j], Problem::NotConvex, (t as f32).to_bits()));
            }
        }
    }
    Ok(())
}

/// `check` answers exactly what the pairwise scan of its specification does (it tests four
/// vertices per instruction), on valid polygons, star polygons and growing spirals (every turn
/// to the left, but winding twice or more, so only the all-pairs part refuses them; a spiral's
/// outer turn lies outside its inner edges, so its failures are all in the upper or all in the
/// lower vertex slots),
/// convex polygons with one vertex nudged by a few ULPs either way, and random points.
#[test]
fn check_agrees_with_the_pairwise_scan() {
    let mut g = Gen::new(0xc0ec);
    let (mut ok, mut star_refused) = (0, 0);
    for round in 0..5000 {
        let (x, y) = (g.uniform(-1e3, 1e3), g.uniform(-1e3, 1e3));
        let r = g.uniform(0.01, 100.0);
        let p = match round % 5 {
            0 => g.convex(x, y, r),
            4 => {
                // Two turns around (x, y), the radius growing (or shrinking) from vertex to
                // vertex, so that the outer turn is in the upper (lower) vertex slots.
                let n = 6 + round % 3;
                let growth = if round % 2 == 0 {
                    g.uniform(1.1, 1.6)
                } else {
                    g.uniform(0.6, 0.9)
                };
                let start = g.uniform(0.0, 6.3);
                let points: Vec<[f32; 2]> = (0..n)
                    .map(|k| {
                        let a = start + k as f32 * 2.0 * core::f32::consts::TAU / n as f32;
                        let rk = r * growth.powi(k as i32);
                        [x + rk * a.cos(), y + rk * a.sin()]
                    })
                    .collect();
                raw_polygon(&points)
            }
            1 => {
                // Star polygon {n/m}: vertex k is vertex k·m of a regular n-gon.
                let n = 5 + round / 4 % 4;
                let m = if n == 6 {
                    1
                } else {
                    2 + (round / 16) % (n / 2 - 1)
                };
                let turn = g.uniform(0.0, 6.3);
                let points: Vec<[f32; 2]> = (0..n)
                    .map(|k| {
                        let a = turn + (k * m % n) as f32 * core::f32::consts::TAU / n as f32;
                        [x + r * a.cos(), y + r * a.sin()]
                    })
                    .collect();
                raw_polygon(&points)
            }
            2 => {
                let mut p = g.convex(x, y, r);
                let k = round / 4 % p.vertex_count();
                let ulps = round as i32 % 7 - 3;
                p.xs[k] = f32::from_bits(p.xs[k].to_bits().wrapping_add_signed(ulps));
                p.ys[k] = f32::from_bits(p.ys[k].to_bits().wrapping_add_signed(-ulps));
                if k == p.vertex_count() - 1 {
                    // Keep the padding equal to the last vertex.
                    for s in k + 1..MAX_VERTICES {
                        (p.xs[s], p.ys[s]) = (p.xs[k], p.ys[k]);
                    }
                }
                p
            }
            _ => {
                let points: Vec<[f32; 2]> = (0..8)
                    .map(|_| [x + g.uniform(-r, r), y + g.uniform(-r, r)])
                    .collect();
                raw_polygon(&points)
            }
        };
        let got = p
            .check()
            .map_err(|e| (e.field, e.problem, e.value.to_bits()));
        assert_eq!(got, check_by_pairs(&p), "round {round}: {p:?}");
        ok += usize::from(got.is_ok());
        star_refused +=
            usize::from(matches!(round % 5, 1 | 4) && got.is_err() && check_turns_only(&p));
    }
    assert!(ok > 1000, "only {ok} valid polygons");
    assert!(
        star_refused > 500,
        "only {star_refused} stars refused by the all-pairs part alone"
    );
}

/// Whether every vertex is a strict left turn (so a refusal comes from the all-pairs part).
fn check_turns_only(p: &Polygon) -> bool {
    let n = p.vertex_count();
    let v = |k: usize| [f64::from(p.xs[k % n]), f64::from(p.ys[k % n])];
    (0..n).all(|k| {
        let (a, b, c) = (v(k + n - 1), v(k), v(k + 1));
        (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0]) > 0.0
    })
}

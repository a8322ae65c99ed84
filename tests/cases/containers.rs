//! The containers and `HitMask`: storage, views, padding, conversions.

use widephase::lanes::{CircleX8, ObbX8};
use widephase::{Circle, Circles, HitMask, LANES, Obb, Obbs, batch_test};

#[test]
fn push_get_set_clear() {
    let mut c = Circles::new();
    assert!(c.is_empty());
    for i in 0..19 {
        c.push(Circle::new(i as f32, -(i as f32), 0.5));
    }
    assert_eq!((c.len(), c.blocks()), (19, 3));
    assert_eq!(c.get(18), Circle::new(18.0, -18.0, 0.5));
    c.set(3, Circle::new(7.0, 7.0, 7.0));
    assert_eq!(c.get(3), Circle::new(7.0, 7.0, 7.0));
    assert_eq!(c.iter().count(), 19);
    c.clear();
    assert_eq!((c.len(), c.blocks()), (0, 0));
    c.push(Circle::new(1.0, 2.0, 3.0));
    assert_eq!(c.radius(), &[3.0]);
    // Lanes after a clear and a push are padding again, not leftovers.
    assert!(c.block(0).radius.as_array()[1..].iter().all(|r| r.is_nan()));
}

#[test]
#[should_panic(expected = "index 5 out of range for Circles of length 5")]
fn get_past_the_end_panics_with_a_message() {
    let c: Circles = (0..5).map(|i| Circle::new(i as f32, 0.0, 1.0)).collect();
    let _ = c.get(5);
}

#[test]
fn views_are_len_long_and_the_padding_is_nan() {
    let mut o: Obbs = (0..9)
        .map(|i| Obb::new(i as f32, 1.0, 2.0, 3.0, 0.0))
        .collect();
    assert_eq!(o.center_x().len(), 9);
    assert_eq!(o.center_x()[8], 8.0);
    assert_eq!(o.half_height(), &[3.0; 9]);
    for x in o.center_x_mut() {
        *x += 0.5;
    }
    assert_eq!(o.get(8).center_x, 8.5);
    let last = o.block(1);
    for lane in 1..LANES {
        let s = last.lane(lane);
        assert!(
            bytemuck::cast::<Obb, [f32; 6]>(s)
                .iter()
                .all(|v| v.is_nan()),
            "lane {lane}: {s:?}"
        );
    }
    // The views share storage with the blocks: no copy.
    assert_eq!(o.block(0).cos.as_array()[..], o.cos()[..8]);
}

#[test]
fn x8_round_trips_through_arrays() {
    let shapes: [Circle; 8] = core::array::from_fn(|i| Circle::new(i as f32, 2.0 * i as f32, 0.1));
    let lanes = CircleX8::from(shapes);
    assert_eq!(<[Circle; 8]>::from(lanes), shapes);
    assert_eq!(lanes.lane(5), shapes[5]);
    let o = Obb::new(1.0, 2.0, 3.0, 4.0, 0.5);
    assert_eq!(<[Obb; 8]>::from(ObbX8::splat(o)), [o; 8]);
    assert!(
        <[Obb; 8]>::from(ObbX8::INERT)
            .iter()
            .all(|s| s.center_x.is_nan())
    );
}

#[test]
fn collect_extend_and_equality() {
    let v: Vec<Circle> = (0..12).map(|i| Circle::new(i as f32, 0.0, 1.0)).collect();
    let a = Circles::from(&v[..]);
    let mut b: Circles = v[..5].iter().copied().collect();
    b.extend(v[5..].iter().copied());
    assert_eq!(a, b);
    assert_eq!(a.iter().collect::<Vec<_>>(), v);
    b.set(11, Circle::new(0.0, 0.0, 0.0));
    assert_ne!(a, b);
    assert_eq!(
        format!("{:?}", Circles::from(&v[..1])),
        "[Circle { x: 0.0, y: 0.0, radius: 1.0 }]"
    );
}

#[test]
fn hit_mask_reports_hits_in_order_and_reuses_its_buffer() {
    // Circle i sits at x = i; the reference circle at x = 100 with radius 30 reaches 70..=130.
    let n = 200;
    let a: Circles = (0..n).map(|i| Circle::new(i as f32, 0.0, 0.0)).collect();
    let b: Circles = (0..n).map(|_| Circle::new(100.0, 0.0, 30.0)).collect();
    let mut hits = HitMask::new();
    batch_test(&a, &b, &mut hits).unwrap();
    assert_eq!(hits.len(), n);
    assert_eq!(hits.words().len(), n.div_ceil(64));
    assert_eq!(
        hits.iter_ones().collect::<Vec<_>>(),
        (70..=130).collect::<Vec<_>>()
    );
    assert_eq!(hits.count_ones(), 61);
    assert!(hits.get(70) && hits.get(130) && !hits.get(69) && !hits.get(131));
    assert_eq!(hits.iter().filter(|&h| h).count(), 61);
    // A shorter batch into the same mask shrinks it and leaves no stale bits.
    let a3: Circles = a.iter().skip(68).take(3).collect();
    let b3: Circles = b.iter().take(3).collect();
    batch_test(&a3, &b3, &mut hits).unwrap();
    assert_eq!(
        (hits.len(), hits.iter_ones().collect::<Vec<_>>()),
        (3, vec![2])
    );
    assert_eq!(hits.words(), &[0b100]);
}

#[test]
fn empty_batches() {
    let mut hits = HitMask::new();
    batch_test(&Circles::new(), &Circles::new(), &mut hits).unwrap();
    assert!(hits.is_empty());
    assert_eq!(hits.iter_ones().count(), 0);
    assert!(hits.words().is_empty());
}

/// The failure reports print shapes as Rust literals; those must rebuild the same bits.
#[test]
fn reproducer_literals_round_trip() {
    use crate::support::shapes::{f32_literal, rust_literal};
    assert_eq!(f32_literal(f32::INFINITY), "f32::INFINITY");
    assert_eq!(
        f32_literal(f32::from_bits(0x7fc0_1234)),
        "f32::from_bits(0x7fc01234)"
    );
    assert_eq!(f32_literal(-0.0), "-0.0_f32");
    let c = Circle::new(f32::NEG_INFINITY, 1.2984705, 1e-40);
    assert_eq!(
        rust_literal(&c),
        "Circle { x: f32::NEG_INFINITY, y: 1.2984705_f32, radius: 1e-40_f32 }"
    );
    assert_eq!(
        Circle {
            x: f32::NEG_INFINITY,
            y: 1.2984705_f32,
            radius: 1e-40_f32
        },
        c
    );
}

#[test]
fn polygons_store_eight_vertex_fields() {
    use widephase::lanes::PolygonX8;
    use widephase::{Polygon, Polygons};
    let polys: Vec<Polygon> = (0..11)
        .map(|i| Polygon::regular(3 + i % 6, i as f32, 0.0, 1.0, 0.1 * i as f32))
        .collect();
    let mut p = Polygons::from(&polys[..]);
    assert_eq!((p.len(), p.blocks()), (11, 2));
    assert_eq!(p.iter().collect::<Vec<_>>(), polys);
    assert_eq!(p.xs(3).len(), 11);
    assert_eq!(p.ys(7)[10], polys[10].ys[7]);
    // Move polygon 4 in place, vertex by vertex.
    for k in 0..8 {
        p.xs_mut(k)[4] += 10.0;
    }
    assert_eq!(p.get(4).xs, polys[4].xs.map(|x| x + 10.0));
    p.set(4, polys[4]);
    assert_eq!(p, Polygons::from(&polys[..]));
    // Padding lanes are NaN in every vertex field.
    let last = p.block(1);
    for lane in 3..LANES {
        let q = last.lane(lane);
        assert!(
            q.xs.iter().chain(&q.ys).all(|v| v.is_nan()),
            "lane {lane}: {q:?}"
        );
    }
    // Lane blocks round-trip through arrays.
    let eight: [Polygon; 8] = core::array::from_fn(|i| polys[i]);
    assert_eq!(<[Polygon; 8]>::from(PolygonX8::from(eight)), eight);
    assert_eq!(
        <[Polygon; 8]>::from(PolygonX8::splat(polys[2])),
        [polys[2]; 8]
    );
    p.clear();
    assert!(p.is_empty());
    p.push(polys[0]);
    assert_eq!(p.get(0), polys[0]);
    assert!(p.block(0).lane(1).xs[0].is_nan());
}

#[test]
#[should_panic(expected = "index 2 out of range for Polygons of length 2")]
fn polygon_get_past_the_end_panics_with_a_message() {
    use widephase::{Polygon, Polygons};
    let p: Polygons = [Polygon::regular(4, 0.0, 0.0, 1.0, 0.0); 2]
        .into_iter()
        .collect();
    let _ = p.get(2);
}

#[test]
fn rays_and_their_literals() {
    use crate::support::shapes::rust_literal;
    use widephase::lanes::RayX8;
    use widephase::{Polygon, Ray, Rays};
    let v: Vec<Ray> = (0..9)
        .map(|i| Ray::new(i as f32, 1.0, 0.0, -1.0, 5.0))
        .collect();
    let mut r = Rays::from(&v[..]);
    assert_eq!(r.iter().collect::<Vec<_>>(), v);
    r.max_t_mut()[8] = f32::INFINITY;
    assert_eq!(r.get(8).max_t, f32::INFINITY);
    assert_eq!(RayX8::from([v[0]; 8]).lane(7), v[0]);
    assert_eq!(v[3].at(2.0), widephase::Point::new(3.0, -1.0));
    // The reproducer literals rebuild polygons and rays.
    let q = Polygon::regular(5, 0.5, -1.0, 2.0, 0.25);
    let text = rust_literal(&q);
    assert!(text.starts_with("Polygon { xs: ["), "{text}");
    assert_eq!(text.matches("_f32").count(), 16, "{text}");
    assert_eq!(
        rust_literal(&Ray::new(0.0, 1.5, -2.0, 0.0, f32::INFINITY)),
        "Ray { origin_x: 0.0_f32, origin_y: 1.5_f32, dir_x: -2.0_f32, dir_y: 0.0_f32, max_t: f32::INFINITY }"
    );
}

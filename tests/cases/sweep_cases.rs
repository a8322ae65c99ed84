//! Sweeps worked by hand: a circle onto a box face and onto its corner, a capsule walking and
//! sliding along a floor, a capsule dropped flat onto a box, a corner onto a corner (alone and
//! among other pairs in a block), a segment onto a segment end to end, the
//! start-of-motion rule, bullets through thin walls, bad data (fields whose sum overflows, and
//! the point and circle pairs' own test of it), and the length rule.

use widephase::{
    Aabb, Aabbs, Capsule, Capsules, Circle, Circles, LengthMismatch, Motions, Obb, Obbs, Point,
    Points, Polygon, Polygons, Sweep, SweepPair, Sweeps, batch_sweep, contact_reference,
    par_batch_sweep, sweep_reference,
};

#[test]
fn a_circle_onto_a_box_face() {
    let c = Circle::new(0.0, 0.0, 1.0);
    let b = Aabb::new(5.0, -1.0, 6.0, 1.0);
    let s = sweep_reference::circle_aabb(&c, &b, [10.0, 0.0]);
    assert_eq!(
        s,
        Some(Sweep {
            t: 0.4,
            normal: [1.0, 0.0]
        })
    );
    // The same from the box's side: it moves left onto the circle; the normal points back.
    let s = <Aabbs as widephase::SweepPair<Circles>>::sweep_reference(&b, &c, [-10.0, 0.0]);
    assert_eq!(
        s,
        Some(Sweep {
            t: 0.4,
            normal: [-1.0, 0.0]
        })
    );
}

#[test]
fn a_circle_onto_a_box_corner() {
    let c = Circle::new(0.0, 0.0, 1.0);
    let b = Aabb::new(5.0, 5.0, 6.0, 6.0);
    let s = sweep_reference::circle_aabb(&c, &b, [10.0, 10.0]).expect("it hits the corner");
    // The centre travels 5√2 - 1 of the 10√2 long motion; the normal is the diagonal.
    let want = (5.0 * 2f64.sqrt() - 1.0) / (10.0 * 2f64.sqrt());
    assert!((f64::from(s.t) - want).abs() < 1e-6, "{s:?}");
    let h = std::f32::consts::FRAC_1_SQRT_2;
    assert!(
        (s.normal[0] - h).abs() < 1e-6 && (s.normal[1] - h).abs() < 1e-6,
        "{s:?}"
    );
    // Aimed just past the corner, it misses.
    assert_eq!(sweep_reference::circle_aabb(&c, &b, [10.0, 3.5]), None);
}

#[test]
fn a_capsule_walks_along_a_floor_and_stops_at_a_wall() {
    let floor = Aabb::new(-100.0, -1.0, 100.0, 0.0);
    let player = Capsule::new(0.0, 0.5, 0.0, 1.5, 0.5); // standing on the floor
    // Touching the floor, walking along it or jumping off it is free…
    for m in [[3.0, 0.0], [-3.0, 0.0], [0.0, 2.0], [1.0, 1.0]] {
        assert_eq!(
            sweep_reference::aabb_capsule(&floor, &player, [-m[0], -m[1]]),
            None,
            "{m:?}"
        );
        let s = <Capsules as widephase::SweepPair<Aabbs>>::sweep_reference(&player, &floor, m);
        assert_eq!(s, None, "{m:?}");
    }
    // …pressing into it hits at once, along the contact's normal.
    let s =
        <Capsules as widephase::SweepPair<Aabbs>>::sweep_reference(&player, &floor, [1.0, -1.0]);
    assert_eq!(
        s,
        Some(Sweep {
            t: 0.0,
            normal: [0.0, -1.0]
        })
    );
    // A wall ahead: the capsule's side meets it after 1.5 of a 3 long walk.
    let wall = Aabb::new(2.0, 0.0, 2.02, 10.0);
    let s = <Capsules as widephase::SweepPair<Aabbs>>::sweep_reference(&player, &wall, [3.0, 0.0]);
    assert_eq!(
        s,
        Some(Sweep {
            t: 0.5,
            normal: [1.0, 0.0]
        })
    );
    // Falling onto the floor from above, slanted: it lands on its end.
    let high = Capsule::new(0.0, 2.5, 0.0, 3.5, 0.5);
    let s = <Capsules as widephase::SweepPair<Aabbs>>::sweep_reference(&high, &floor, [1.0, -4.0]);
    assert_eq!(
        s,
        Some(Sweep {
            t: 0.5,
            normal: [0.0, -1.0]
        })
    );
}

#[test]
fn a_capsule_lying_flat_lands_on_a_box_wherever_they_overlap() {
    // A capsule parallel to the box's top face, dropped onto it: wherever the segment's span
    // overlaps the face's (an end over the face, the segment over the whole face, an end just
    // at the corner), it lands flat at 0.25 along the face's normal; in either order, the
    // segment either way round, and on a box turned by a right angle (the same square).
    let aabb = Aabb::new(-1.0, -1.0, 1.0, 1.0);
    let obb = Obb::from_rotation(0.0, 0.0, 1.0, 1.0, 0.0, 1.0);
    let flat = Sweep {
        t: 0.25,
        normal: [0.0, -1.0],
    };
    let reversed = Sweep {
        t: 0.25,
        normal: [0.0, 1.0],
    };
    for [x0, x1] in [
        [0.5, 3.0],
        [-3.0, 3.0],
        [-0.5, 0.5],
        [-3.0, -0.5],
        [1.0, 3.0],
    ] {
        for c in [
            Capsule::new(x0, 2.0, x1, 2.0, 0.5),
            Capsule::new(x1, 2.0, x0, 2.0, 0.5),
        ] {
            let down = [0.0, -2.0];
            let up = [0.0, 2.0];
            assert_eq!(
                <Capsules as SweepPair<Aabbs>>::sweep_reference(&c, &aabb, down),
                Some(flat),
                "{c:?}"
            );
            assert_eq!(sweep_reference::aabb_capsule(&aabb, &c, up), Some(reversed));
            let s = <Capsules as SweepPair<widephase::Obbs>>::sweep_reference(&c, &obb, down);
            assert_eq!(s, Some(flat), "{c:?}");
            assert_eq!(sweep_reference::obb_capsule(&obb, &c, up), Some(reversed));
        }
    }
    // Past the corner, its end's disc meets the corner later, along the offset between them.
    let c = Capsule::new(1.2, 2.0, 3.0, 2.0, 0.5);
    let s = <Capsules as SweepPair<Aabbs>>::sweep_reference(&c, &aabb, [0.0, -2.0])
        .expect("the end meets the corner");
    let want = (1.0 - 0.21f64.sqrt()) / 2.0;
    assert!((f64::from(s.t) - want).abs() < 1e-6, "{s:?}");
    let (dx, dy) = (-0.2, 1.0 - (2.0 - 2.0 * want));
    let len = f64::hypot(dx, dy);
    assert!(
        (f64::from(s.normal[0]) - dx / len).abs() < 1e-5
            && (f64::from(s.normal[1]) - dy / len).abs() < 1e-5,
        "{s:?}"
    );
    // Beyond the corner's reach it passes by.
    let far = Capsule::new(1.6, 2.0, 3.0, 2.0, 0.5);
    assert_eq!(
        <Capsules as SweepPair<Aabbs>>::sweep_reference(&far, &aabb, [0.0, -2.0]),
        None
    );
}

#[test]
fn a_corner_onto_a_corner_takes_the_face_most_opposed_to_the_motion() {
    let a = Aabb::new(0.0, 0.0, 1.0, 1.0);
    let b = Aabb::new(2.0, 1.75, 3.0, 2.75);
    // Corner (1, 1) meets corner (2, 1.75) half way; both faces touch there, and the motion
    // closes faster along x.
    let s = sweep_reference::aabb_aabb(&a, &b, [2.0, 1.5]);
    assert_eq!(
        s,
        Some(Sweep {
            t: 0.5,
            normal: [1.0, 0.0]
        })
    );
    let b = Aabb::new(1.75, 2.0, 2.75, 3.0);
    let s = sweep_reference::aabb_aabb(&a, &b, [1.5, 2.0]);
    assert_eq!(
        s,
        Some(Sweep {
            t: 0.5,
            normal: [0.0, 1.0]
        })
    );
    // The same with a polygon and a box turned by a right angle (the same square).
    let square = Polygon::new(&[[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]]).unwrap();
    let turned = Obb::from_rotation(2.5, 2.25, 0.5, 0.5, 0.0, 1.0);
    let s = sweep_reference::obb_polygon(&turned, &square, [-2.0, -1.5]).expect("corners meet");
    assert_eq!(s.t, 0.5);
    assert_eq!(s.normal, [-1.0, 0.0]);
}

#[test]
fn a_point_onto_a_box_corner_takes_the_face_most_opposed_to_the_motion() {
    let p = Point::new(1.0, 1.0);
    // Each square also as a box turned by a right angle (its `u` axis the world's y); the
    // point meets its corner half way, both faces touching there: the normal for the square
    // and for the turned box, the point moving.
    let cases = [
        // Closing faster along x.
        ([2.0, 1.75], [2.0, 1.5], [1.0, 0.0], [1.0, 0.0]),
        // Faster along y.
        ([1.75, 2.0], [1.5, 2.0], [0.0, 1.0], [0.0, 1.0]),
        // Equally fast: the first taken, the box's `v` face (the world's y for the square, x
        // for the turned box).
        ([2.0, 2.0], [2.0, 2.0], [0.0, 1.0], [1.0, 0.0]),
    ];
    for ([x, y], m, aabb_normal, obb_normal) in cases {
        let square = Aabb::new(x, y, x + 1.0, y + 1.0);
        let turned = Obb::from_rotation(x + 0.5, y + 0.5, 0.5, 0.5, 0.0, 1.0);
        let hit = |normal| Some(Sweep { t: 0.5, normal });
        assert_eq!(
            sweep_reference::point_aabb(&p, &square, m),
            hit(aabb_normal)
        );
        assert_eq!(sweep_reference::point_obb(&p, &turned, m), hit(obb_normal));
        // The box moving back onto the point: the same faces, the normals reversed.
        let back = [-m[0], -m[1]];
        let reversed = |[nx, ny]: [f32; 2]| hit([-nx, -ny]);
        let s = <Aabbs as SweepPair<Points>>::sweep_reference(&square, &p, back);
        assert_eq!(s, reversed(aabb_normal));
        let s = <Obbs as SweepPair<Points>>::sweep_reference(&turned, &p, back);
        assert_eq!(s, reversed(obb_normal));
    }
}

/// A corner onto a corner (entries on two axes at once) at lane `tie` of a batch of sixteen
/// pairs, the others not tied: the polygon sweeps look for ties only in a block that has one,
/// so every lane must still answer as the reference does, and the tied one with the face most
/// opposed to the motion.
#[test]
fn a_corner_onto_a_corner_among_other_pairs() {
    let square = |x: f32, y: f32| {
        Polygon::new(&[[x, y], [x + 1.0, y], [x + 1.0, y + 1.0], [x, y + 1.0]]).unwrap()
    };
    for tie in [0, 5, 15] {
        // Lane `tie` moves corner (1, 1) onto corner (2, 1.75) half way, closing faster along
        // x; the others close more slowly along y and meet the face first.
        let motions: Motions = (0..16)
            .map(|k| {
                [
                    2.0,
                    if k == tie {
                        1.5
                    } else {
                        1.25 + 0.01 * k as f32
                    },
                ]
            })
            .collect();
        let back: Motions = (0..16)
            .map(|k| {
                let [x, y] = motions.get(k);
                [-x, -y]
            })
            .collect();
        let a: Polygons = (0..16).map(|_| square(0.0, 0.0)).collect();
        let b: Polygons = (0..16).map(|_| square(2.0, 1.75)).collect();
        let points: Points = (0..16).map(|_| Point::new(1.0, 1.0)).collect();
        let mut out = Sweeps::new();
        let expect = |out: &Sweeps, reference: &dyn Fn(usize) -> Option<Sweep>, normal| {
            for k in 0..16 {
                assert_eq!(out.get(k), reference(k), "lane {k} of a tie at {tie}");
            }
            assert_eq!(out.get(tie), Some(Sweep { t: 0.5, normal }));
        };
        batch_sweep(&a, &b, &motions, &mut out).unwrap();
        let m = |k| motions.get(k);
        let r = |k| sweep_reference::polygon_polygon(&a.get(k), &b.get(k), m(k));
        expect(&out, &r, [1.0, 0.0]);
        batch_sweep(&b, &a, &back, &mut out).unwrap();
        let r = |k| sweep_reference::polygon_polygon(&b.get(k), &a.get(k), back.get(k));
        expect(&out, &r, [-1.0, 0.0]);
        batch_sweep(&points, &b, &motions, &mut out).unwrap();
        let r = |k| sweep_reference::point_polygon(&points.get(k), &b.get(k), m(k));
        expect(&out, &r, [1.0, 0.0]);
        batch_sweep(&b, &points, &back, &mut out).unwrap();
        let r = |k| {
            <Polygons as SweepPair<Points>>::sweep_reference(&b.get(k), &points.get(k), back.get(k))
        };
        expect(&out, &r, [-1.0, 0.0]);
    }
}

#[test]
fn a_segment_onto_a_segment_end_to_end() {
    let a = Capsule::new(0.0, 0.0, 1.0, 0.0, 0.0);
    let b = Capsule::new(2.0, 0.0, 3.0, 0.0, 0.0);
    let s = sweep_reference::capsule_capsule(&a, &b, [3.0, 0.0]).expect("end meets end");
    assert_eq!(s.t, 1.0 / 3.0);
    assert_eq!(s.normal, [1.0, 0.0]);
    // Side by side they pass each other.
    let beside = Capsule::new(2.0, 0.5, 3.0, 0.5, 0.0);
    assert_eq!(
        sweep_reference::capsule_capsule(&a, &beside, [3.0, 0.0]),
        None
    );
    // A point onto a segment's end along its line, and onto its middle from the side.
    let p = Point::new(-1.0, 0.0);
    assert_eq!(
        sweep_reference::point_capsule(&p, &b, [4.0, 0.0]),
        Some(Sweep {
            t: 0.75,
            normal: [1.0, 0.0]
        })
    );
    let s = sweep_reference::point_capsule(&Point::new(2.5, -2.0), &b, [0.0, 4.0]);
    assert_eq!(
        s,
        Some(Sweep {
            t: 0.5,
            normal: [0.0, 1.0]
        })
    );
}

#[test]
fn overlapping_at_the_start_hits_at_zero_only_going_deeper() {
    let a = Circle::new(0.0, 0.0, 1.0);
    let b = Circle::new(1.5, 0.0, 1.0);
    let c = contact_reference::circle_circle(&a, &b).unwrap();
    let deeper = sweep_reference::circle_circle(&a, &b, [0.1, 0.3]);
    assert_eq!(
        deeper,
        Some(Sweep {
            t: 0.0,
            normal: c.normal
        })
    );
    assert_eq!(sweep_reference::circle_circle(&a, &b, [-0.1, 5.0]), None); // leaving
    assert_eq!(sweep_reference::circle_circle(&a, &b, [0.0, 5.0]), None); // sliding along
    assert_eq!(sweep_reference::circle_circle(&a, &b, [0.0, 0.0]), None); // staying
    // Just touching counts as overlapping.
    let touching = Circle::new(2.0, 0.0, 1.0);
    assert_eq!(
        sweep_reference::circle_circle(&a, &touching, [1.0, 0.0]),
        Some(Sweep {
            t: 0.0,
            normal: [1.0, 0.0]
        })
    );
    assert_eq!(
        sweep_reference::circle_circle(&a, &touching, [0.0, 1.0]),
        None
    );
}

#[test]
fn bullets_through_thin_walls_always_hit_the_wall() {
    // 4 000 bullets (circles and short capsules) flying 3 units a step at walls 0.02 thick
    // somewhere along their path: every one stops on the wall's near face.
    let n = 4000;
    let walls: Aabbs = (0..n)
        .map(|i| {
            let x = 0.3 + 2.4 * ((i * 37 % 101) as f32 / 101.0);
            Aabb::new(x, -1.0 + i as f32, x + 0.02, 1.0 + i as f32)
        })
        .collect();
    let circles: Circles = (0..n).map(|i| Circle::new(0.0, i as f32, 0.05)).collect();
    let capsules: Capsules = (0..n)
        .map(|i| Capsule::new(-0.2, i as f32 + 0.1, 0.0, i as f32, 0.02))
        .collect();
    let motions: Motions = (0..n).map(|_| [3.0, 0.0]).collect();
    let mut s = Sweeps::new();
    batch_sweep(&circles, &walls, &motions, &mut s).unwrap();
    assert_eq!(s.hits().count_ones(), n, "a circle tunnelled");
    for (i, hit) in s.iter() {
        let want = (walls.min_x()[i] - 0.05) / 3.0;
        assert!(
            (hit.t - want).abs() < 1e-6 && hit.normal == [1.0, 0.0],
            "{i}: {hit:?}"
        );
    }
    par_batch_sweep(&capsules, &walls, &motions, &mut s).unwrap();
    assert_eq!(s.hits().count_ones(), n, "a capsule tunnelled");
    for (i, hit) in s.iter() {
        let want = (walls.min_x()[i] - 0.02) / 3.0;
        assert!(
            (hit.t - want).abs() < 1e-6 && hit.normal == [1.0, 0.0],
            "{i}: {hit:?}"
        );
    }
}

#[test]
fn bad_data_never_hits() {
    let wall = Aabb::new(1.0, -1.0, 2.0, 1.0);
    let good = Circle::new(0.0, 0.0, 0.5);
    for m in [
        [f32::NAN, 0.0],
        [f32::INFINITY, 0.0],
        [3.0, f32::NEG_INFINITY],
    ] {
        assert_eq!(sweep_reference::circle_aabb(&good, &wall, m), None, "{m:?}");
    }
    let bad = [
        Circle::new(f32::NAN, 0.0, 0.5),
        Circle::new(0.0, 0.0, -0.5),
        Circle::new(f32::NEG_INFINITY, 0.0, 0.5),
    ];
    for c in bad {
        assert_eq!(
            sweep_reference::circle_aabb(&c, &wall, [3.0, 0.0]),
            None,
            "{c:?}"
        );
    }
    // An infinite wall is valid for the overlap tests but is not swept.
    let endless = Aabb::new(1.0, f32::NEG_INFINITY, 2.0, f32::INFINITY);
    assert_eq!(
        sweep_reference::circle_aabb(&good, &endless, [3.0, 0.0]),
        None
    );
    let inverted = Aabb::new(2.0, -1.0, 1.0, 1.0);
    assert_eq!(
        sweep_reference::circle_aabb(&good, &inverted, [3.0, 0.0]),
        None
    );
}

/// Finite fields whose sum overflows (`f32::MAX`, far past where squares overflow) are not
/// swept: no hit, never a panic, in the reference and a batch. The same shapes at unit
/// scale, overlapping at the start with the motion going deeper, hit at `t = 0`.
#[test]
fn fields_whose_sum_overflows_never_hit() {
    for scale in [1.0_f32, 1e38] {
        let (w, h) = (scale, 2.0 * scale);
        let a = Aabb::new(0.0, 0.0, 2.0 * w, h);
        let b = Aabb::new(w, 0.0, 3.0 * w, h);
        let motion = [w, 0.0];
        let boxes = sweep_reference::aabb_aabb(&a, &b, motion);
        let c = Capsule::new(0.0, 0.0, 0.0, 2.0 * w, w);
        let d = Capsule::new(w, 0.0, w, 2.0 * w, w);
        let capsules = sweep_reference::capsule_capsule(&c, &d, motion);
        let e = Obb::new(w, 0.0, w, h, 0.0);
        let obbs = sweep_reference::obb_obb(&e, &Obb::new(2.0 * w, 0.0, w, h, 0.0), motion);
        let (aa, bb): (Aabbs, Aabbs) = ([a].into_iter().collect(), [b].into_iter().collect());
        let mut out = Sweeps::new();
        batch_sweep(&aa, &bb, &[motion].into_iter().collect(), &mut out).unwrap();
        let batch = out.get(0);
        if scale > 1e37 {
            // 2·w + 3·w + … overflows.
            assert_eq!((boxes, capsules, obbs, batch), (None, None, None, None));
        } else {
            for hit in [boxes, capsules, obbs, batch] {
                assert_eq!(
                    hit.map(|s| s.t),
                    Some(0.0),
                    "{boxes:?} {capsules:?} {obbs:?} {batch:?}"
                );
            }
        }
    }
}

/// The point and circle pairs test their own data (in one pass with their sweep): every bad
/// field and motion is no hit, in both orders, in the reference and a batch; finite shapes
/// whose offset or radii sum overflows (beyond about 1e38, where squares long overflowed) are
/// no hit either, not a panic; the same shapes nearer hit.
#[test]
fn bad_points_and_circles_never_hit() {
    let target = Circle::new(3.0, 0.0, 1.0);
    let motion = [4.0, 0.0];
    let mover = Circle::new(0.0, 0.0, 0.5);
    assert!(sweep_reference::circle_circle(&mover, &target, motion).is_some());
    assert!(sweep_reference::point_circle(&Point::new(0.0, 0.0), &target, motion).is_some());
    let poison = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY];
    let mut movers = Vec::new();
    let mut targets = Vec::new();
    let mut motions = Vec::new();
    for v in poison {
        for k in 0..3 {
            let mut fields = [0.0, 0.0, 0.5];
            fields[k] = v;
            movers.push((Circle::new(fields[0], fields[1], fields[2]), target, motion));
            let mut fields = [3.0, 0.0, 1.0];
            fields[k] = v;
            targets.push((mover, Circle::new(fields[0], fields[1], fields[2]), motion));
        }
        motions.push((mover, target, [v, 0.0]));
        motions.push((mover, target, [4.0, v]));
    }
    let negative = [
        (Circle::new(0.0, 0.0, -0.5), target, motion),
        (mover, Circle::new(3.0, 0.0, -1.0), motion),
    ];
    let overflowing = [
        // Centres 6e38 apart: their offset overflows.
        (
            Circle::new(-3e38, 0.0, 1.0),
            Circle::new(3e38, 0.0, 1.0),
            [f32::MAX, 0.0],
        ),
        // Radii whose sum overflows, touching at the start.
        (
            Circle::new(0.0, 0.0, 2e38),
            Circle::new(1.0, 0.0, 2e38),
            [1.0, 0.0],
        ),
    ];
    let cases: Vec<(Circle, Circle, [f32; 2])> = movers
        .into_iter()
        .chain(targets)
        .chain(motions)
        .chain(negative)
        .chain(overflowing)
        .collect();
    for &(a, b, m) in &cases {
        assert_eq!(
            sweep_reference::circle_circle(&a, &b, m),
            None,
            "{a:?} {b:?} {m:?}"
        );
        // A point stands for the moving circle wherever what is bad is not its radius (a
        // bad one, or one in a sum that overflows), in both orders (the circle moving back
        // onto the point).
        let p = Point::new(a.x, a.y);
        if (0.0..1e30).contains(&a.radius) {
            assert_eq!(
                sweep_reference::point_circle(&p, &b, m),
                None,
                "{p:?} {b:?} {m:?}"
            );
            let back = [-m[0], -m[1]];
            let swapped = <Circles as SweepPair<Points>>::sweep_reference(&b, &p, back);
            assert_eq!(swapped, None, "{b:?} {p:?} {back:?}");
        }
    }
    // The same through a batch (an odd number of blocks, twinned and left over).
    let (a, b): (Circles, Circles) = (
        cases.iter().map(|c| c.0).collect(),
        cases.iter().map(|c| c.1).collect(),
    );
    let motions: Motions = cases.iter().map(|c| c.2).collect();
    let mut out = Sweeps::new();
    batch_sweep(&a, &b, &motions, &mut out).unwrap();
    assert_eq!(out.hits().iter_ones().count(), 0);
}

#[test]
fn lengths_must_match() {
    let a: Circles = (0..3).map(|i| Circle::new(i as f32, 0.0, 1.0)).collect();
    let b: Aabbs = (0..3).map(|_| Aabb::new(0.0, 0.0, 1.0, 1.0)).collect();
    let short: Aabbs = (0..2).map(|_| Aabb::new(0.0, 0.0, 1.0, 1.0)).collect();
    let motions: Motions = (0..3).map(|_| [1.0, 0.0]).collect();
    let few: Motions = (0..1).map(|_| [1.0, 0.0]).collect();
    let mut out = Sweeps::new();
    batch_sweep(&a, &b, &motions, &mut out).unwrap();
    let before = out.clone();
    assert_eq!(
        batch_sweep(&a, &short, &motions, &mut out),
        Err(LengthMismatch { a: 3, b: 2 })
    );
    assert_eq!(
        batch_sweep(&a, &b, &few, &mut out),
        Err(LengthMismatch { a: 3, b: 1 })
    );
    assert_eq!(
        par_batch_sweep(&a, &b, &few, &mut out),
        Err(LengthMismatch { a: 3, b: 1 })
    );
    assert_eq!(out, before, "a failed call changed the answer");
}

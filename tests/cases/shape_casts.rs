//! `Scene::cast_shape` and `SceneIndex::cast_shape` against brute force over every shape
//! (`Shape::sweep` on each, the smallest `t`, ties to the smallest id), with statics, sensors,
//! filters and groups, probes of every kind and motions short, long, zero and bad; and bullets
//! crossing dozens of thin walls a step, each stopping at the first.

use crate::support::shapes::{Arbitrary, Gen, Spread};
use widephase::{Aabb, Capsule, Circle, Filter, Obb, PairFinder, Polygon, Scene, Shape, Sweep};

/// A shape of kind `k` (five kinds) placed in the square `[0, side)²`.
fn any_shape(g: &mut Gen, k: usize, side: f32) -> Shape {
    let spread = Spread {
        half: side * 0.5,
        size: (0.2, 1.5),
    };
    let s: Shape = match k % 5 {
        0 => Circle::ordinary_in(g, &spread).into(),
        1 => Aabb::ordinary_in(g, &spread).into(),
        2 => Obb::ordinary_in(g, &spread).into(),
        3 => Polygon::ordinary_in(g, &spread).into(),
        _ => Capsule::ordinary_in(g, &spread).into(),
    };
    s.translated(side * 0.5, side * 0.5)
}

/// The first shape `probe` touches moving by `m`, by brute force: `(id, sweep)` with the
/// smallest `t`, then the smallest id; sensors passed through, the filter rule applied.
fn brute(
    shapes: &[(u32, Shape, Filter, bool)],
    probe: &Shape,
    m: [f32; 2],
    filter: Option<Filter>,
) -> Option<(u32, Sweep)> {
    let mut best: Option<(u32, Sweep)> = None;
    for &(id, s, f, sensor) in shapes {
        if sensor || filter.is_some_and(|q| !q.pairs_with(f)) {
            continue;
        }
        if let Some(sw) = probe.sweep(&s, m)
            && best.is_none_or(|(bid, b)| sw.t < b.t || (sw.t == b.t && id < bid))
        {
            best = Some((id, sw));
        }
    }
    best
}

fn bits(a: Option<(u32, Sweep)>) -> Option<(u32, [u32; 3])> {
    a.map(|(id, s)| {
        (
            id,
            [s.t.to_bits(), s.normal[0].to_bits(), s.normal[1].to_bits()],
        )
    })
}

#[test]
fn casts_match_brute_force_over_every_shape() {
    let mut g = Gen::new(40);
    let filters = [
        Filter::ALL,
        Filter::new(2, u32::MAX),
        Filter::new(4, 2),
        Filter::new(1, u32::MAX).with_group(3),
        Filter::new(2, 0).with_group(-5),
    ];
    for (n, side) in [(1, 4.0), (60, 20.0), (2000, 80.0)] {
        let mut scene = Scene::new();
        let mut shapes = Vec::new();
        for i in 0..n {
            let s = any_shape(&mut g, i, side);
            let f = filters[g.index(filters.len())];
            let (id, sensor) = match g.index(10) {
                0..=3 => (scene.push_static_with(s, f), false),
                4 => (scene.push_sensor_with(s, f), true),
                _ => (scene.push_with(s, f), false),
            };
            shapes.push((id, s, f, sensor));
        }
        let mut finder = PairFinder::new();
        let index = finder.index(&scene);
        let (mut hits, mut casts) = (0, 0);
        for c in 0..3000 {
            let probe = any_shape(&mut g, c, side);
            let reach = [1.0, 5.0, 30.0, 1000.0][g.index(4)];
            let m = match g.index(10) {
                0 => [0.0, 0.0],
                1 => [reach, 0.0],
                2 => [0.0, -reach],
                _ => [g.uniform(-reach, reach), g.uniform(-reach, reach)],
            };
            let filter = (g.index(3) == 0).then(|| filters[g.index(filters.len())]);
            let want = brute(&shapes, &probe, m, filter);
            let got = match filter {
                Some(f) => index.cast_shape_filtered(&probe, m, f),
                None => index.cast_shape(&probe, m),
            };
            assert_eq!(
                bits(got),
                bits(want),
                "{n} shapes, cast {c}: {probe:?} by {m:?} ({filter:?}): {got:?}, brute force {want:?}"
            );
            hits += usize::from(got.is_some());
            casts += 1;
        }
        if n > 1 {
            assert!(
                hits * 5 > casts && hits < casts,
                "{n} shapes: {hits} hits of {casts}"
            );
        }
        // The one-shot form answers the same.
        let probe = any_shape(&mut g, 4, side);
        assert_eq!(
            bits(scene.cast_shape(probe, [side, side])),
            bits(brute(&shapes, &probe, [side, side], None))
        );
    }
}

#[test]
fn bad_casts_touch_nothing() {
    let scene: Scene = (0..10)
        .map(|i| Circle::new(i as f32 * 2.0, 0.0, 0.5))
        .collect();
    let mut finder = PairFinder::new();
    let index = finder.index(&scene);
    let probe = Circle::new(-3.0, 0.0, 0.5);
    assert!(index.cast_shape(&probe, [30.0, 0.0]).is_some());
    for m in [
        [f32::NAN, 0.0],
        [f32::INFINITY, 0.0],
        [0.0, f32::NEG_INFINITY],
    ] {
        assert_eq!(index.cast_shape(&probe, m), None, "{m:?}");
    }
    assert_eq!(
        index.cast_shape(&Circle::new(-3.0, 0.0, -1.0), [30.0, 0.0]),
        None
    );
    assert_eq!(
        index.cast_shape(&Circle::new(f32::NAN, 0.0, 1.0), [30.0, 0.0]),
        None
    );
    // Zero motion: only what it overlaps and presses into could stop it, and it does not move.
    assert_eq!(
        index.cast_shape(&Circle::new(0.0, 0.0, 1.0), [0.0, 0.0]),
        None
    );
}

#[test]
fn bullets_crossing_dozens_of_thin_walls_stop_at_the_first() {
    let mut scene = Scene::new();
    // 100 static walls 0.02 thick, one every unit from x = 1, and some moving clutter.
    let walls: Vec<u32> = (1..=100)
        .map(|k| scene.push_static(Aabb::new(k as f32, -50.0, k as f32 + 0.02, 50.0)))
        .collect();
    for i in 0..200 {
        scene.push(Circle::new(150.0 + i as f32, (i % 7) as f32, 0.3));
    }
    let mut finder = PairFinder::new();
    let index = finder.index(&scene);
    let mut g = Gen::new(41);
    for b in 0..2000 {
        // Between two walls (none overlapped at the start), from x = 0.3 to 60.8.
        let x = g.index(60) as f32 + g.uniform(0.3, 0.8);
        let y = g.uniform(-40.0, 40.0);
        let len = g.uniform(3.0, 40.0);
        let (bullet, front): (Shape, f32) = if b % 2 == 0 {
            (Circle::new(x, y, 0.05).into(), x + 0.05)
        } else {
            (Capsule::new(x - 0.2, y, x, y, 0.02).into(), x + 0.02)
        };
        let Some((id, hit)) = index.cast_shape(&bullet, [len, 0.0]) else {
            panic!("bullet {b} at x = {x} over {len} hit nothing");
        };
        // The first wall ahead of the bullet's front.
        let k = front.ceil() as usize;
        assert_eq!(
            id,
            walls[k - 1],
            "bullet {b}: {bullet:?} over {len}: {hit:?}"
        );
        let gap = k as f32 - front;
        assert!(
            (hit.t * len - gap).abs() < 1e-4 && hit.normal == [1.0, 0.0],
            "bullet {b}: {bullet:?} over {len}: {hit:?}, gap {gap}"
        );
    }
}

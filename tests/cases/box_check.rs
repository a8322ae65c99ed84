//! The kept finder's box check: for the pair kinds with a polygon, a kept candidate whose
//! shapes' padded boxes are apart is decided without a kernel. Its answers must be the
//! kernels', on shapes that touch exactly, overlap by a hair or part by one, at every scale.

use super::scene::brute_scene;
use crate::support::model::events;
use crate::support::threads::in_pool;
use widephase::{Aabb, Capsule, Circle, Filter, Obb, PairFinder, Polygon, Scene, Shape};

/// Shape `i` of a row of unit-wide shapes at frame `frame`, at `scale` from `origin`: shape
/// `i` spans `i .. i + 1` along x, shifted by an eighth from -1/2 to 3/8, a shift that changes
/// from frame to frame (every coordinate exact), so that neighbours overlap, touch exactly or
/// part. Every other shape is a polygon (a square or a triangle whose tip touches a
/// neighbour at one point), the others cycle through a box, a circle, a capsule, a rotated
/// box and a triangle, so that every pair kind with a polygon meets, in both argument orders
/// (a polygon comes second to the first three, first to a capsule). With `rest`, every other
/// shape stays where it started.
fn shape(i: u32, frame: u32, (scale, origin): (f32, f32), rest: bool) -> Shape {
    let moving = !rest || i.is_multiple_of(2);
    let step = if moving {
        (i.wrapping_mul(2_654_435_761) ^ frame.wrapping_mul(40_503)) >> 7 & 7
    } else {
        0
    };
    let x = i as f32 + 0.125 * step as f32 - 0.5;
    let (x0, x1, y0, y1) = (x, x + 1.0, 0.0, 1.0);
    let at = |x: f32, y: f32| [origin + scale * x, origin + scale * y];
    let c = at(x + 0.5, 0.5);
    let square = || Polygon::new(&[at(x0, y0), at(x1, y0), at(x1, y1), at(x0, y1)]);
    let triangle = || Polygon::new(&[at(x0, y0), at(x1, 0.5), at(x0, y1)]);
    // Polygons at even places, every kind at odd ones.
    let kind = if i.is_multiple_of(2) {
        i / 2 % 2
    } else {
        2 + i / 2 % 5
    };
    match kind {
        0 => square().expect("a square").into(),
        1 | 6 => triangle().expect("a triangle").into(),
        2 => {
            let ([a, b], [c, d]) = (at(x0, y0), at(x1, y1));
            Aabb::new(a, b, c, d).into()
        }
        3 => Circle::new(c[0], c[1], 0.5 * scale).into(),
        4 => Capsule::new(
            at(x0 + 0.25, 0.5)[0],
            c[1],
            at(x1 - 0.25, 0.5)[0],
            c[1],
            0.25 * scale,
        )
        .into(),
        _ => Obb::new(c[0], c[1], 0.5 * scale, 0.5 * scale, frame as f32).into(),
    }
}

/// The static shapes under a row: polygons and boxes a unit apart, touching the row's band
/// from below (the kept finder's mixed lists, whose static polygons' records are copies).
fn statics(n: u32, (scale, origin): (f32, f32)) -> Vec<Shape> {
    let at = |x: f32, y: f32| [origin + scale * x, origin + scale * y];
    (0..n.div_ceil(2))
        .map(|k| {
            let x = 2.0 * k as f32;
            if k % 2 == 0 {
                let points = [at(x, -1.0), at(x + 1.0, -1.0), at(x + 0.5, 0.0)];
                Polygon::new(&points).expect("a triangle").into()
            } else {
                let ([a, b], [c, d]) = (at(x, -1.0), at(x + 1.0, 0.0));
                Aabb::new(a, b, c, d).into()
            }
        })
        .collect()
}

/// Over twelve frames of motion, a kept finder's answer is brute force's and a search from
/// scratch's, and its began and ended pairs are the difference from the last frame's, for rows
/// at scales from 1e-4 to 1e4 (one far from the origin), with and without static shapes under
/// them, all moving and half at rest, on one thread and three; and the box check did decide
/// candidates (the test would pass over it otherwise).
#[test]
fn candidates_with_a_polygon_are_decided_exactly_by_their_boxes() {
    let mut apart = 0;
    for threads in [1, 3] {
        in_pool(threads, || {
            for place in [(1.0, 0.0), (1e-4, 0.0), (1e4, -3e4), (0.5, 1e5)] {
                for with_statics in [false, true] {
                    for rest in [false, true] {
                        apart += check_row(61, place, with_statics, rest, threads);
                    }
                }
            }
        });
    }
    assert!(apart > 1000, "{apart} candidates decided by their boxes");
}

/// [`candidates_with_a_polygon_are_decided_exactly_by_their_boxes`] for one row: the
/// candidates its box check decided.
fn check_row(n: u32, place: (f32, f32), with_statics: bool, rest: bool, threads: usize) -> usize {
    let mut scene: Scene = (0..n).map(|i| shape(i, 0, place, rest)).collect();
    if with_statics {
        for s in statics(n, place) {
            scene.push_static(s);
        }
    }
    let (mut kept, mut scratch) = (PairFinder::new().with_choice(false), PairFinder::new());
    let (mut pairs, mut fresh, mut last, mut apart) = (Vec::new(), Vec::new(), Vec::new(), 0);
    for frame in 0..12 {
        // The static shapes, pushed after the row, are not the closure's.
        scene.update(|id, _| shape(id, frame, place, rest));
        kept.overlapping_pairs(&scene, &mut pairs);
        scratch.overlapping_pairs_from_scratch(&scene, &mut fresh);
        let at = format!(
            "{place:?}, statics {with_statics}, rest {rest}, frame {frame}, {threads} threads"
        );
        let want = brute_scene(&scene);
        assert_eq!(pairs, want, "{at}");
        assert_eq!(fresh, want, "from scratch, {at}");
        let (began, ended) = events(&last, &want);
        assert_eq!(kept.began(), began, "began, {at}");
        assert_eq!(kept.ended(), ended, "ended, {at}");
        let s = kept.stats();
        assert!(s.candidates + s.still + s.apart >= s.pairs, "{at}: {s:?}");
        assert_eq!(scratch.stats().apart, 0, "{at}");
        apart += s.apart;
        last = want;
    }
    apart
}

/// With filters, the box check and the filters both pass over candidates (each counted), and
/// the answer is a search from scratch's.
#[test]
fn filters_and_the_box_check_together_give_a_search_from_scratchs_answer() {
    let place = (1.0, 0.0);
    let mut scene = Scene::new();
    for i in 0..60 {
        // Three layers, each pairing with itself and the next.
        let layer = 1 << (i % 3);
        let filter = Filter::new(layer, layer | (layer << 1) | 1);
        scene.push_with(shape(i, 0, place, false), filter);
    }
    let (mut kept, mut scratch) = (PairFinder::new().with_choice(false), PairFinder::new());
    let (mut pairs, mut fresh) = (Vec::new(), Vec::new());
    let (mut apart, mut filtered) = (0, 0);
    for frame in 0..12 {
        scene.update(|id, _| shape(id, frame, place, false));
        kept.overlapping_pairs(&scene, &mut pairs);
        scratch.overlapping_pairs_from_scratch(&scene, &mut fresh);
        assert_eq!(pairs, fresh, "frame {frame}");
        (apart, filtered) = (apart + kept.stats().apart, filtered + kept.stats().filtered);
    }
    assert!(
        apart > 0 && filtered > 0,
        "{apart} apart, {filtered} filtered"
    );
}

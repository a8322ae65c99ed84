//! Worlds at rest but for a few shapes: a kept finder reads only the slots that the scene
//! stamped since its last call, so every change that does not make a shape escape its
//! enlarged box (a move inside it, a new filter, a sensor flag, a polygon turned within its
//! box) must still reach the kernels, and a finder called with another scene must read it all.

use super::world::on_thread_counts;
use super::world_runs::against_scratch;
use crate::support::shapes::unit_hash;
use widephase::{Aabb, Circle, Filter, PairFinder, Polygon, Scene, Shape};

/// Rows of unit circles 0.02 apart; each frame a few dozen of them step 0.03 towards their
/// right neighbour or back, inside their enlarged boxes: pairs begin and end with no escaper,
/// and the candidates of the circles at rest keep their answers without a kernel.
#[test]
fn moves_inside_the_enlarged_boxes_begin_and_end_pairs_on_any_thread_count() {
    steps_inside_the_enlarged_boxes(false, false, 20_000, 383);
}

/// As above, every other circle static: the pairs that begin and end are of a moving and a
/// static circle.
#[test]
fn moves_beside_static_shapes_begin_and_end_pairs_on_any_thread_count() {
    steps_inside_the_enlarged_boxes(true, false, 20_000, 383);
}

/// As above with 150 k circles, about 280 of them stepping each frame: under a 512th of the
/// shapes, so the blocks that hold their candidates are marked, by several tasks where the
/// pool has several threads.
#[test]
fn many_moves_at_rest_marked_by_tasks_on_any_thread_count() {
    steps_inside_the_enlarged_boxes(false, false, 150_000, 541);
}

/// As the first, with hexagons of circumradius 1 (corners to the left and the right) for
/// the circles: a polygon at rest keeps its vertices' copy, so its candidates keep their
/// answers without a kernel too.
#[test]
fn polygons_moving_inside_their_enlarged_boxes_on_any_thread_count() {
    steps_inside_the_enlarged_boxes(false, true, 20_000, 383);
}

/// `n` circles (`polygons`: hexagons) in rows, `statics`: every other one static; each frame
/// those whose ids are one residue modulo `every` (odd) step towards their right neighbour or
/// back.
fn steps_inside_the_enlarged_boxes(statics: bool, polygons: bool, n: u32, every: u32) {
    let at = |id: u32, out: bool| -> Shape {
        let x = 2.02 * (id % 200) as f32 + if out { 0.03 } else { 0.0 };
        let y = 5.0 * (id / 200) as f32;
        if polygons {
            Polygon::regular(6, x, y, 1.0, 0.0).into()
        } else {
            Circle::new(x, y, 1.0).into()
        }
    };
    on_thread_counts(|| {
        let mut scene = Scene::new();
        for id in 0..n {
            let pushed = if statics && id % 2 == 0 {
                scene.push_static(at(id, false))
            } else {
                scene.push(at(id, false))
            };
            assert_eq!(pushed, id);
        }
        let (mut kept, mut fresh) = (PairFinder::new().with_choice(false), PairFinder::new());
        let mut answers = Vec::new();
        against_scratch(&scene, [&mut kept, &mut fresh], &mut answers);
        let mut changes = 0;
        for frame in 1..12u32 {
            // Ids of one residue step out on odd frames and back on even ones (odd ids only,
            // where the even ones are static).
            let residue = 2 * (frame.div_ceil(2) % (every / 2)) + 1;
            scene.update(|id, s| {
                if id % every == residue {
                    at(id, frame % 2 == 1)
                } else {
                    s
                }
            });
            against_scratch(&scene, [&mut kept, &mut fresh], &mut answers);
            let s = kept.stats();
            assert_eq!((s.rebuilt, s.escaped), (false, 0), "frame {frame}");
            assert!(s.still > 20 * s.candidates, "frame {frame}: {s:?}");
            changes += kept.began().len() + kept.ended().len();
        }
        assert!(
            changes >= 11 * (n / every / 2 - 1) as usize,
            "{changes} pairs began or ended"
        );
        answers
    });
}

/// Shapes at rest whose filter or sensor flags alone change, and a triangle turned into its
/// mirror image under the same box (through `update`, and back through `set`): each change
/// reaches the answer on the next call.
#[test]
fn filters_sensors_and_turned_polygons_at_rest_on_any_thread_count() {
    let triangle = |flip: bool, x: f32| {
        let p = if flip {
            [[x + 2.0, 0.0], [x + 2.0, 2.0], [x, 2.0]]
        } else {
            [[x, 0.0], [x + 2.0, 0.0], [x, 2.0]]
        };
        Shape::from(Polygon::new(&p).expect("convex"))
    };
    on_thread_counts(|| {
        let mut scene = Scene::new();
        // 3 000 triangles, each with a small circle in its upper right corner (inside the
        // mirror image only), and 300 pairs of overlapping circles.
        for k in 0..3_000u32 {
            let x = 5.0 * k as f32;
            scene.push(triangle(false, x));
            scene.push(Circle::new(x + 1.7, 1.7, 0.2));
        }
        for k in 0..300u32 {
            let x = 50.0 * k as f32;
            scene.push(Circle::new(x, 10.0, 1.0));
            scene.push(Circle::new(x + 1.5, 10.0, 1.0));
        }
        let (mut kept, mut fresh) = (PairFinder::new().with_choice(false), PairFinder::new());
        let mut answers = Vec::new();
        against_scratch(&scene, [&mut kept, &mut fresh], &mut answers);
        for frame in 1..9u32 {
            // A pair of circles and a triangle, each changed in one frame and back in the
            // next: the pair apart by a filter, then by making both sensors (two sensors
            // never pair).
            let k = frame.div_ceil(2);
            let (a, b) = (6_000 + 2 * (k * 37 % 300), 2 * (k * 101 % 3_000));
            match frame % 4 {
                1 => scene.set_filter(a, Filter::new(2, 2)),
                2 => scene.set_filter(a, Filter::ALL),
                3 | 0 => {
                    scene.set_sensor(a, frame % 4 == 3);
                    scene.set_sensor(a + 1, frame % 4 == 3);
                }
                _ => unreachable!(),
            }
            let x = 5.0 * (b / 2) as f32;
            if frame % 2 == 1 {
                scene.update(|id, s| if id == b { triangle(true, x) } else { s });
            } else {
                scene.set(b, triangle(false, x));
            }
            against_scratch(&scene, [&mut kept, &mut fresh], &mut answers);
            assert!(
                !kept.began().is_empty() || !kept.ended().is_empty(),
                "frame {frame}"
            );
            assert!(!kept.stats().rebuilt, "frame {frame}");
        }
        answers
    });
}

/// One kept finder called with a scene and its clone in turn, each changed apart (a few
/// shapes each, inside their enlarged boxes, so that the stamps of either would tell the
/// finder nothing changed in the slots the other changed): every answer is its scene's.
#[test]
fn a_finder_called_with_a_scene_and_its_clone_in_turn() {
    let start: Scene = (0..10_000u32)
        .map(|id| Circle::new(2.02 * (id % 100) as f32, 5.0 * (id / 100) as f32, 1.0))
        .collect();
    let mut scenes = [start.clone(), start];
    let (mut kept, mut fresh) = (PairFinder::new().with_choice(false), PairFinder::new());
    let mut answers = Vec::new();
    for frame in 0..12u32 {
        let which = frame as usize % 2;
        let scene = &mut scenes[which];
        let nudge = 0.03 * (1.0 + which as f32);
        scene.update(|id, s| match s {
            Shape::Circle(c) if unit_hash(u64::from(id), u64::from(frame)) < 0.01 => {
                Circle::new(c.x + nudge, c.y, c.radius).into()
            }
            s => s,
        });
        // Events are the difference from the last answer, whichever scene it was of.
        against_scratch(&scenes[which], [&mut kept, &mut fresh], &mut answers);
    }
}

/// Rows of unit circles at rest; each frame a box and a circle are pushed over two of them
/// (a pushed shape's candidates lie under the first index of the shape at rest it meets), the
/// two pushed two frames before are removed, and one circle moves inside its enlarged box:
/// every pair of a pushed shape is found, every pair of a removed one ends.
#[test]
fn shapes_pushed_and_removed_among_shapes_at_rest_on_any_thread_count() {
    let at = |id: u32| Circle::new(2.02 * (id % 200) as f32, 5.0 * (id / 200) as f32, 1.0);
    on_thread_counts(|| {
        let mut scene: Scene = (0..20_000).map(at).collect();
        let (mut kept, mut fresh) = (PairFinder::new().with_choice(false), PairFinder::new());
        let mut answers = Vec::new();
        against_scratch(&scene, [&mut kept, &mut fresh], &mut answers);
        let mut pushed = Vec::new();
        let mut found = 0;
        for frame in 1..16u32 {
            let k = (frame * 7_919) % 20_000;
            let c = at(k);
            let (x, y) = (c.x + 1.5, c.y);
            pushed.push(scene.push(Aabb::new(x - 0.2, y - 0.3, x + 0.2, y + 0.3)));
            pushed.push(scene.push(Circle::new(c.x - 0.5, c.y + 0.5, 0.3)));
            if frame > 2 {
                for id in pushed.drain(..2) {
                    assert!(scene.remove(id).is_some());
                }
            }
            let mover = (frame * 4_001) % 20_000;
            scene.update(|id, s| match s {
                Shape::Circle(c) if id == mover => Circle::new(c.x + 0.03, c.y, 1.0).into(),
                s => s,
            });
            against_scratch(&scene, [&mut kept, &mut fresh], &mut answers);
            let s = kept.stats();
            assert!(!s.rebuilt, "frame {frame}");
            assert!(s.still > 20 * s.candidates, "frame {frame}: {s:?}");
            found += kept.began().len();
        }
        // Each pushed pair meets two circles of its row (the box its circle's neighbour too).
        assert!(found >= 15 * 3, "{found} pairs began");
        answers
    });
}

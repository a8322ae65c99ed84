//! Kept finders over more moving shapes than the other world tests: past the sizes at which
//! a kept frame's passes change how they work on one thread.

use super::world::on_thread_counts;
use super::world_runs::{followed_run, numbers_of};
use crate::support::threads::in_pool;
use widephase::{Aabb, Capsule, Circle, PairFinder, Polygon, Scene, Shape};

/// More moving shapes than the kept finder's escape check writes to their indices itself on
/// one thread (a quarter of a million), every one of them moving, so that the gather reads
/// every record: frames that shrink the scene (holes), grow it (new slots) and do both,
/// polygons turning into circles and back. Every answer and its events equal a search from
/// scratch's, and the same on every count of `THREAD_COUNTS`.
#[test]
fn a_quarter_million_shapes_are_followed_on_every_thread() {
    on_thread_counts(|| {
        let n = 270_000;
        let mut scene = Scene::new();
        for id in 0..n {
            assert_eq!(scene.push(spread_traveller(id, 0)), id);
        }
        let change = removals_and_pushes([(3_000, 0), (0, 2_500), (1_500, 700)]);
        let kept = PairFinder::new().with_choice(false);
        let (answers, followed) = followed_run(&mut scene, kept, 1..=10, change, spread_traveller);
        assert!(followed >= 9, "{followed} frames followed escapers");
        answers
    });
}

/// The same quarter of a million shapes mostly at rest: one in 300 moves (the rest are given
/// their own shapes again, bit for bit, and the scene stamps none of them), with a tenth of
/// the removals and pushes. The escape check reads only the stamped slots and, on one thread,
/// writes only their records at their indices; elsewhere the few changed records are written
/// after it.
#[test]
fn a_quarter_million_shapes_mostly_at_rest_on_every_thread() {
    at_rest_on_every_thread(|id, frame| {
        spread_traveller(id, if id % 300 == 7 { 40 * frame } else { 0 })
    });
}

/// The same quarter of a million shapes, a fifth of them moving: too many for the escape
/// check to list (a 32nd), few enough that on one thread it writes their records at their
/// indices as it passes them (under a quarter at the last call), the gather then reading only
/// the slots pushed or removed since.
#[test]
fn a_quarter_million_shapes_a_fifth_moving_on_every_thread() {
    at_rest_on_every_thread(|id, frame| spread_traveller(id, if id % 5 == 2 { frame } else { 0 }));
}

/// The quarter of a million shapes at rest again, with polygons among those that move (one
/// in 200 of the shapes) and among those that turn into circles in frames 5 to 7 and back
/// (one in 388): a polygon at rest keeps its vertices' copy from call to call, a changed one
/// is copied again at its slot's last place, and one that was a circle at a new place.
#[test]
fn polygons_at_rest_keep_their_copies_among_polygons_that_change() {
    at_rest_on_every_thread(|id, frame| match id % 200 {
        4 | 5 => spread_traveller(id, 40 * frame),
        _ if id.is_multiple_of(388) => spread_traveller(id, frame),
        _ => spread_traveller(id, 0),
    });
}

/// 270 000 shapes of [`spread_traveller`] at rest but for what `at(id, frame)` moves or
/// changes, with the removals and pushes of frames 3, 5 and 7 (a tenth of those of
/// [`a_quarter_million_shapes_are_followed_on_every_thread`]), followed for ten frames: every
/// answer and its events equal a search from scratch's, and the same on every count of
/// `THREAD_COUNTS`.
fn at_rest_on_every_thread(at: impl Fn(u32, u32) -> Shape + Sync) {
    on_thread_counts(|| {
        let mut scene: Scene = (0..270_000).map(|id| spread_traveller(id, 0)).collect();
        let change = removals_and_pushes([(300, 0), (0, 250), (150, 70)]);
        let kept = PairFinder::new().with_choice(false);
        let (answers, followed) = followed_run(&mut scene, kept, 1..=10, change, &at);
        assert!(followed >= 9, "{followed} frames followed escapers");
        answers
    });
}

/// 40 000 shapes at rest, of which the polygons (a quarter) turn into circles a tenth a
/// frame, eight tenths in all, then back the same way: more copies of polygons that are no
/// more than live ones (from the seventh frame), which the kept finder then copies anew, and
/// new places for those that turn back. Every answer and its events equal a search from
/// scratch's, and the same on every count of `THREAD_COUNTS`.
#[test]
fn polygons_turning_into_circles_and_back_at_rest() {
    on_thread_counts(|| {
        let mut scene: Scene = (0..40_000).map(|id| traveller_on(440.0, id, 0)).collect();
        let at = |id: u32, frame: u32| {
            let (shape, group) = (traveller_on(440.0, id, 0), id / 4 % 10);
            match shape {
                Shape::Polygon(p) if group < 8 && frame > group && frame < 9 + group => {
                    let b = p.bounding_box();
                    let r = 0.5 * (b.max_x - b.min_x).max(b.max_y - b.min_y);
                    Circle::new(0.5 * (b.min_x + b.max_x), 0.5 * (b.min_y + b.max_y), r).into()
                }
                _ => shape,
            }
        };
        let kept = PairFinder::new().with_choice(false);
        let (answers, followed) = followed_run(&mut scene, kept, 1..=16, |_, _| {}, at);
        assert!(followed >= 15, "{followed} frames followed escapers");
        answers
    });
}

/// Four worlds stepped at once from one pool's tasks, as a game runs its levels side by side:
/// each kept finder's calls (over 20 k–29 k shapes, so on the pool and with its threads held
/// awake, `PairFinder::with_spinning`) run inside a task of the others' pool, and their held
/// threads take each other's work. Every answer and its events equal a search from scratch's,
/// the same on every count of `THREAD_COUNTS`, and the same with the threads left to sleep.
#[test]
fn worlds_stepped_side_by_side_on_every_thread() {
    use rayon::prelude::*;
    let worlds = |spin: bool| {
        (0..4u32)
            .into_par_iter()
            .map(|w| {
                let side = 320.0 + 20.0 * w as f32;
                let shape = move |id: u32, frame: u32| traveller_on(side, id + 7 * w, frame);
                let mut scene: Scene = (0..20_000 + 3_000 * w).map(|id| shape(id, 0)).collect();
                let kept = PairFinder::new().with_choice(false).with_spinning(spin);
                let change = removals_and_pushes([(30, 0), (0, 25), (15, 7)]);
                let (answers, followed) = followed_run(&mut scene, kept, 1..=8, change, shape);
                assert!(
                    followed >= 6,
                    "world {w}: {followed} frames followed escapers"
                );
                answers
            })
            .collect::<Vec<_>>()
    };
    on_thread_counts(|| worlds(true));
    let [held, left] = [true, false].map(|spin| in_pool(3, || worlds(spin)));
    assert_eq!(held, left, "held against left to sleep");
}

/// The changes of frames 3, 5 and 7: `(removed, pushed)` of each. The ids that leave are
/// `frame` modulo 89, none twice; the pushed shapes are travellers.
fn removals_and_pushes(counts: [(u32, u32); 3]) -> impl FnMut(&mut Scene, u32) {
    move |scene, frame| {
        let (removed, pushed) = match frame {
            3 => counts[0],
            5 => counts[1],
            7 => counts[2],
            _ => (0, 0),
        };
        for k in 0..removed {
            assert!(scene.remove(k * 89 + frame).is_some());
        }
        for k in 0..pushed {
            scene.push(spread_traveller(k, frame));
        }
    }
}

/// Shape `id` of [`a_quarter_million_shapes_are_followed_on_every_thread`] at `frame`: a
/// polygon of 3 to 8 vertices (every 97th a circle in frames 5 to 7), a capsule, a circle or
/// a box, each moving up to 0.15 a frame along each axis over a field of side 1160 (about a
/// pair a shape), wrapping around.
fn spread_traveller(id: u32, frame: u32) -> Shape {
    traveller_on(1160.0, id, frame)
}

/// [`spread_traveller`] over a field of side `side`.
fn traveller_on(side: f32, id: u32, frame: u32) -> Shape {
    let t = frame as f32;
    let h = numbers_of(id);
    let x = (h(3) * side + 0.3 * (h(1) - 0.5) * t).rem_euclid(side);
    let y = (h(4) * side + 0.3 * (h(2) - 0.5) * t).rem_euclid(side);
    let r = 0.4 + 0.6 * h(5);
    match id % 4 {
        0 if id.is_multiple_of(97) && (5..8).contains(&frame) => Circle::new(x, y, r).into(),
        0 => Polygon::regular(3 + id as usize / 4 % 6, x, y, r, h(6) * 6.3 + 0.02 * t).into(),
        1 => Capsule::new(x - r, y, x + r, y, 0.3 * r).into(),
        2 => Circle::new(x, y, r).into(),
        _ => Aabb::from_center(x, y, r, 0.5 * r).into(),
    }
}

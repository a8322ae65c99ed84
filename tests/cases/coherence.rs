//! Frame-to-frame coherence: `Scene::update` against `set`, and a kept `PairFinder` against
//! brute force over hundreds of frames of moves and random events.

use super::scene::{awkward, brute_scene, shape_bits};
use crate::support::shapes::{Gen, moved, unit_hash};
use crate::support::threads::in_pool;
use widephase::{Aabb, Circle, Obb, PairFinder, Polygon, Scene, Shape};

/// A new shape for `id` in frame `frame`, from `s`: mostly a small move, now and then another
/// kind, an invalid shape, a huge or a far one. A pure function of its arguments, as
/// `Scene::update` needs.
fn event(id: u32, frame: u32, s: Shape) -> Shape {
    let r = unit_hash(u64::from(id), u64::from(frame) + 1000);
    let (x, y) = (r * 40.0, unit_hash(u64::from(frame), u64::from(id)) * 40.0);
    match (r * 1000.0) as u32 {
        0..=4 => Circle::new(x, y, f32::NAN).into(),
        5..=9 => Obb::new(x, y, 1.0, 0.25, r).into(),
        10..=14 => Polygon::regular(5, x, y, 0.8, r).into(),
        15..=16 => Aabb::new(x, y, x + 30.0, y + 2.0).into(),
        17..=18 => Circle::new(x + 1e6, y, 0.5).into(),
        19..=40 => moved(s, id, frame, f32::INFINITY, 40.0),
        _ => moved(s, id, frame, 0.05, 40.0),
    }
}

/// `update` gives every shape, box, record and count that `set` gives for the same new shapes,
/// on one thread and on several (sixteen: a block of slots a thread and more, see
/// `POLYGON_BLOCK`), and called from outside any pool, awkward shapes and kind changes
/// included.
#[test]
fn update_is_set_for_every_shape() {
    let mut g = Gen::new(61);
    let mut start = g.mixed_world(30_000, 200.0);
    start.extend((0..3_000).map(|_| awkward(&mut g)));
    for frame in 0..3 {
        let mut by_set = start.clone();
        for id in 0..by_set.len() as u32 {
            let s = event(id, frame, by_set.get(id).expect("live"));
            by_set.set(id, s);
        }
        // `None`: called from this thread, outside any pool (handed over to the global one).
        for threads in [Some(1), Some(2), Some(3), Some(16), None] {
            let mut by_update = start.clone();
            let mut update = || by_update.update(|id, s| event(id, frame, s));
            match threads {
                Some(threads) => in_pool(threads, update),
                None => update(),
            }
            for id in 0..start.len() as u32 {
                assert_eq!(
                    shape_bits(&by_update.get(id).expect("live")),
                    shape_bits(&by_set.get(id).expect("live")),
                    "frame {frame}, {threads:?} threads, shape {id}"
                );
            }
            let (mut a, mut b) = (PairFinder::new(), PairFinder::new());
            let (mut pa, mut pb) = (Vec::new(), Vec::new());
            a.overlapping_pairs(&by_update, &mut pa);
            b.overlapping_pairs(&by_set, &mut pb);
            assert_eq!(pa, pb, "frame {frame}, {threads:?} threads");
            let (sa, sb) = (a.stats(), b.stats());
            assert_eq!(
                (sa.invalid, sa.unbounded),
                (sb.invalid, sb.unbounded),
                "counts, frame {frame}"
            );
        }
        start.update(|id, s| event(id, frame, s));
    }
}

/// One kept finder, frame after frame, against brute force: every shape moves a little every
/// frame; on top, random events (teleports, bursts of speed, shapes turning invalid and valid,
/// kind changes, huge and far shapes, `push`, `clear`, and a second scene handed to the same
/// finder now and then). Margins 0, automatic and large; rebuild thresholds 0, automatic and
/// 1 (never for escapers).
#[test]
fn kept_finder_equals_brute_force_over_frames() {
    // Each configuration, and what its frames must show: most keep the grid, moving escapers;
    // with margin 0 every moving shape escapes, so every frame rebuilds; with threshold 0 a
    // frame keeps the grid only when no shape escaped.
    #[derive(PartialEq)]
    enum Expect {
        Keeps,
        Rebuilds,
        KeepsOnlyWithoutEscapes,
    }
    type Make = fn() -> PairFinder;
    let configs: [(&str, Make, Expect); 6] = [
        ("automatic", PairFinder::new, Expect::Keeps),
        (
            "margin 0",
            || PairFinder::new().with_margin(0.0),
            Expect::Rebuilds,
        ),
        (
            "margin 4",
            || PairFinder::new().with_margin(4.0),
            Expect::Keeps,
        ),
        (
            "threshold 0",
            || PairFinder::new().with_rebuild_threshold(0.0),
            Expect::KeepsOnlyWithoutEscapes,
        ),
        (
            "threshold 1",
            || PairFinder::new().with_rebuild_threshold(1.0),
            Expect::Keeps,
        ),
        (
            "margin 0, threshold 1",
            || {
                PairFinder::new()
                    .with_margin(0.0)
                    .with_rebuild_threshold(1.0)
            },
            Expect::Keeps,
        ),
    ];
    for (seed, (name, make, expect)) in configs.iter().enumerate() {
        let mut g = Gen::new(70 + seed as u64);
        let mut a = g.mixed_world(250, 40.0);
        let mut b = g.mixed_world(150, 40.0);
        let mut finder = make();
        let mut pairs = Vec::new();
        let (mut rebuilt, mut updated, mut escaped) = (0, 0, 0);
        for frame in 0..160u32 {
            let roll = g.percent();
            let speed = if roll < 5 { 2.0 } else { 0.04 };
            a.update(|id, s| moved(s, id, frame, speed, 40.0));
            match roll {
                5..=14 => a.update(|id, s| event(id, frame, s)),
                15..=17 => {
                    let more: Vec<Shape> = (0..g.index(20) + 1).map(|_| awkward(&mut g)).collect();
                    a.extend(more);
                }
                18 => {
                    a = g.mixed_world(200, 40.0);
                }
                19 => {
                    a.clear();
                    a.extend(g.mixed_world(200, 40.0).iter().map(|(_, s)| s));
                }
                _ => {}
            }
            let scene = if roll >= 95 { &b } else { &a };
            finder.overlapping_pairs(scene, &mut pairs);
            assert_eq!(
                pairs,
                brute_scene(scene),
                "{name}: frame {frame}, roll {roll}"
            );
            let s = finder.stats();
            assert_eq!((s.shapes, s.pairs), (scene.len(), pairs.len()));
            assert!(s.candidates + s.still >= s.pairs);
            if s.rebuilt {
                rebuilt += 1;
            } else {
                updated += 1;
                escaped += s.escaped;
            }
            if roll >= 95 {
                b.update(|id, s| moved(s, id, frame, 0.04, 40.0));
            }
        }
        let seen = format!("{name}: {rebuilt} rebuilt, {updated} kept, {escaped} escapes");
        assert!(rebuilt >= 1, "{seen}");
        match expect {
            Expect::Keeps => assert!(updated > 100 && escaped > 200, "{seen}"),
            Expect::Rebuilds => assert!(rebuilt == 160, "{seen}"),
            Expect::KeepsOnlyWithoutEscapes => {
                assert!(updated > 40 && rebuilt > 20 && escaped == 0, "{seen}")
            }
        }
    }
}

/// When the finder rebuilds: the first call, not a small move, a teleport of every shape
/// (above the threshold), a shrunken scene; a push is an update.
#[test]
fn rebuilds_when_it_must() {
    let mut g = Gen::new(80);
    let mut scene = g.mixed_world(2_000, 100.0);
    let mut finder = PairFinder::new();
    let mut pairs = Vec::new();
    let mut frame = 0;
    let mut step = |scene: &mut Scene, finder: &mut PairFinder, speed: f32| {
        let f = frame;
        scene.update(|id, s| moved(s, id, f, speed, 100.0));
        frame += 1;
        finder.overlapping_pairs(scene, &mut pairs);
        assert_eq!(pairs, brute_scene(scene), "frame {f}");
        (finder.stats().rebuilt, finder.stats().escaped)
    };
    assert_eq!(step(&mut scene, &mut finder, 0.01), (true, 2_000));
    let (rebuilt, escaped) = step(&mut scene, &mut finder, 0.01);
    assert!(!rebuilt && escaped < 200, "a small move: {escaped} escaped");
    assert!(step(&mut scene, &mut finder, f32::INFINITY).0, "a teleport");
    scene.push(Circle::new(50.0, 50.0, 1.0));
    let (rebuilt, escaped) = step(&mut scene, &mut finder, 0.0);
    assert!(!rebuilt && escaped >= 1, "a push: {escaped} escaped");
    scene = g.mixed_world(1_000, 100.0);
    assert!(step(&mut scene, &mut finder, 0.0).0, "a smaller scene");
}

/// A shape that changes kind inside its enlarged box (same bounding box, no escape by box) is
/// decided by its new kind's kernel from the next call on: by `set`, by `update`, and when a
/// removal moves the store's last shape, of another kind, into the removed one's slot.
#[test]
fn kind_changes_inside_the_enlarged_box_are_followed() {
    // A circle of radius 1 at the origin misses the box at (0.8, 0.8); the square with the
    // same bounding box overlaps it. Neither move changes a bounding box.
    let corner = Aabb::new(0.8, 0.8, 2.0, 2.0);
    let round: Shape = Circle::new(0.0, 0.0, 1.0).into();
    let square: Shape = Aabb::new(-1.0, -1.0, 1.0, 1.0).into();
    let mut scene = Scene::new();
    let (a, b) = (scene.push(round), scene.push(corner));
    // Never rebuilt for escapers: each change below must be followed, not rebuilt away.
    let mut finder = PairFinder::new().with_rebuild_threshold(1.0);
    let mut pairs = Vec::new();
    let mut expect = |scene: &Scene, finder: &mut PairFinder, want: &[(u32, u32)], what: &str| {
        finder.overlapping_pairs(scene, &mut pairs);
        assert_eq!(pairs, want, "{what}");
        let mut fresh = Vec::new();
        PairFinder::new().overlapping_pairs_from_scratch(scene, &mut fresh);
        assert_eq!(pairs, fresh, "{what}");
    };
    expect(&scene, &mut finder, &[], "a circle");
    scene.set(a, square);
    expect(&scene, &mut finder, &[(a, b)], "set to a square");
    scene.update(|id, s| if id == a { round } else { s });
    expect(&scene, &mut finder, &[], "updated to a circle");
    scene.update(|id, s| if id == a { square } else { s });
    expect(&scene, &mut finder, &[(a, b)], "updated to a square");
    assert!(!finder.stats().rebuilt && finder.stats().escaped == 1);
    // Slot 2 (the last) holds a circle where slot 0's square is; removing slot 0's shape
    // moves it there, into the square's enlarged box.
    let c = scene.push(round);
    expect(
        &scene,
        &mut finder,
        &[(a, b), (a, c)],
        "a circle on the square",
    );
    scene.remove(a);
    expect(
        &scene,
        &mut finder,
        &[],
        "the circle moved into the square's slot",
    );
    assert!(!finder.stats().rebuilt);
    scene.set(c, square);
    expect(
        &scene,
        &mut finder,
        &[(b, c)],
        "the moved circle set to a square",
    );
    assert!(!finder.stats().rebuilt && finder.stats().escaped == 1);
}

/// `overlapping_pairs_from_scratch` gives brute force's answer, and calls of it between kept
/// calls on the same finder leave the kept state alone: the kept call after one still updates.
#[test]
fn from_scratch_calls_leave_the_kept_state_alone() {
    let mut g = Gen::new(85);
    let mut scene = g.mixed_world(3_000, 120.0);
    let mut finder = PairFinder::new();
    let (mut kept, mut fresh) = (Vec::new(), Vec::new());
    let mut updated = 0;
    for frame in 0..12 {
        scene.update(|id, s| moved(s, id, frame, 0.02, 120.0));
        finder.overlapping_pairs_from_scratch(&scene, &mut fresh);
        let s = finder.stats();
        assert!(s.rebuilt && s.escaped == 3_000 && s.pairs == fresh.len());
        assert_eq!(fresh, brute_scene(&scene), "frame {frame}");
        finder.overlapping_pairs(&scene, &mut kept);
        assert_eq!(kept, fresh, "frame {frame}");
        updated += usize::from(!finder.stats().rebuilt);
    }
    assert!(updated >= 10, "{updated} of 12 kept calls updated");
}

/// The same answers and the same rebuilds on any number of threads (sixteen split every pass
/// into its smallest tasks).
#[test]
fn kept_finder_is_the_same_on_any_thread_count() {
    let run = |threads| {
        in_pool(threads, || {
            let mut g = Gen::new(90);
            let mut scene = g.mixed_world(40_000, 250.0);
            let mut finder = PairFinder::new();
            let mut pairs = Vec::new();
            let mut log = Vec::new();
            for frame in 0..12 {
                let speed = if frame == 6 { f32::INFINITY } else { 0.05 };
                scene.update(|id, s| moved(s, id, frame, speed, 250.0));
                finder.overlapping_pairs(&scene, &mut pairs);
                let s = finder.stats();
                log.push((pairs.clone(), s.rebuilt, s.escaped, s.candidates));
            }
            log
        })
    };
    let one = run(1);
    assert!(one.iter().filter(|l| !l.1).count() >= 8);
    assert_eq!(one, run(2));
    assert_eq!(one, run(3));
    // More threads than this machine has: tasks of a few thousand shapes each.
    assert_eq!(one, run(16));
}

/// A kept call writes its whole answer over whatever its buffer held (nothing, a few pairs,
/// the last answer, more pairs than the answer), in frames that follow the escapers and in
/// frames that rebuild (which decide the whole answer, not only what began and ended), on
/// one, three and sixteen threads: the answer is the search from scratch's.
#[test]
fn a_kept_answer_is_written_over_any_buffer() {
    let mut g = Gen::new(97);
    let start = g.mixed_world(40_000, 250.0);
    for threads in [1, 3, 16] {
        in_pool(threads, || {
            let mut scene = start.clone();
            let mut finder = PairFinder::new().with_choice(false);
            let (mut scratch, mut fresh, mut last) = (PairFinder::new(), Vec::new(), Vec::new());
            let (junk, mut rebuilt) = ((u32::MAX - 1, u32::MAX), 0);
            for frame in 0..16u32 {
                // Every shape steps half its size in frames 2, 6, 10 and 14: too many escapers
                // to follow, so those frames rebuild, each with another buffer.
                if frame % 4 == 2 {
                    step_a_share(&mut scene, u64::from(frame), 1.0, 6.0);
                } else {
                    scene.update(|id, s| moved(s, id, frame, 0.05, 250.0));
                }
                let mut out = match frame / 4 {
                    0 => Vec::new(),
                    1 => vec![junk; 3],
                    2 => last.clone(),
                    _ => vec![junk; last.len() + 5000],
                };
                finder.overlapping_pairs(&scene, &mut out);
                rebuilt += usize::from(finder.stats().rebuilt);
                scratch.overlapping_pairs_from_scratch(&scene, &mut fresh);
                assert_eq!(out, fresh, "{threads} threads, frame {frame}");
                last.clone_from(&fresh);
            }
            assert_eq!(
                rebuilt, 5,
                "{threads} threads: the first frame and every fourth"
            );
        });
    }
}

/// Steps the moving shapes whose hash of their id and `salt` (`pick`, in `0..1`) is below
/// `share` by half their size, in the direction `pick * turns` of a full turn; the others stay.
fn step_a_share(scene: &mut Scene, salt: u64, share: f32, turns: f32) {
    scene.update(|id, s| {
        let pick = unit_hash(u64::from(id), salt);
        if pick >= share {
            return s;
        }
        let b = s.bounding_box();
        let step = 0.5 * (b.max_x - b.min_x).max(b.max_y - b.min_y);
        let angle = pick * turns * core::f32::consts::TAU;
        s.translated(step * angle.cos(), step * angle.sin())
    });
}

/// Frames in which a sixth of the shapes step half their size (they leave their enlarged
/// boxes without jumping, tens of thousands of escapers a frame, each frame's handled on
/// rayon's threads beyond one), a fiftieth are removed and pushed again (slots that hold
/// another shape next frame) and the rest stay: every kept answer is the search from scratch,
/// on one, two and three threads, and the frames are followed, not rebuilt.
#[test]
fn many_escapers_a_frame_on_any_thread_count() {
    let mut g = Gen::new(95);
    let start = g.mixed_world(150_000, 1500.0);
    for threads in [1, 2, 3] {
        in_pool(threads, || {
            let mut scene = start.clone();
            // The kept path on every call, though the scene is large enough for the finder to
            // time both paths (see `either_path_gives_the_same_answers_and_events`).
            let mut finder = PairFinder::new().with_choice(false);
            let (mut kept, mut fresh, mut scratch) = (Vec::new(), Vec::new(), PairFinder::new());
            let (mut followed, mut crowded) = (0, 0);
            for frame in 0..8u32 {
                step_a_share(&mut scene, u64::from(frame) + 7_000, 1.0 / 6.0, 6.0);
                // A few shapes replaced: the last slots' shapes move into their slots.
                let gone: Vec<u32> = scene
                    .iter()
                    .map(|(id, _)| id)
                    .filter(|&id| unit_hash(u64::from(id), u64::from(frame) + 9_000) < 0.02)
                    .collect();
                for id in gone {
                    let s = scene.remove(id).expect("live");
                    scene.push(s.translated(1.0, 0.5));
                }
                finder.overlapping_pairs(&scene, &mut kept);
                let s = finder.stats();
                scratch.overlapping_pairs_from_scratch(&scene, &mut fresh);
                assert_eq!(kept, fresh, "{threads} threads, frame {frame}");
                if frame > 0 {
                    crowded += usize::from(s.escaped > 16_384);
                    followed += usize::from(!s.rebuilt);
                }
            }
            assert_eq!(
                followed, 7,
                "{threads} threads: every frame after the first followed"
            );
            assert!(
                crowded >= 4,
                "{threads} threads: {crowded} frames of many escapers"
            );
        });
    }
}

/// A kept finder's answer for `scene` against the search from scratch's (`scratch`, `fresh`
/// its buffer), and its events against the difference from `last`, which becomes this answer;
/// returns the answer and its events, for the same frames on other thread counts.
fn kept_is_the_search(
    (finder, scratch): (&mut PairFinder, &mut PairFinder),
    scene: &Scene,
    last: &mut Vec<(u32, u32)>,
    frame: u32,
) -> [Vec<(u32, u32)>; 3] {
    let (mut kept, mut fresh) = (Vec::new(), Vec::new());
    finder.overlapping_pairs(scene, &mut kept);
    scratch.overlapping_pairs_from_scratch(scene, &mut fresh);
    assert!(
        kept == fresh,
        "frame {frame}: the kept answer is not the search's"
    );
    let began = fresh.iter().filter(|p| last.binary_search(p).is_err());
    let ended = last.iter().filter(|p| fresh.binary_search(p).is_err());
    assert!(
        finder.began().iter().eq(began) && finder.ended().iter().eq(ended),
        "frame {frame}: the events are not the answers' difference"
    );
    *last = fresh;
    [kept, finder.began().to_vec(), finder.ended().to_vec()]
}

/// `run` gives the same on two, three and sixteen threads as on one.
fn same_on_any_thread_count<T: PartialEq + Send>(run: impl Fn() -> T + Send + Sync) {
    let one = in_pool(1, &run);
    for threads in [2, 3, 16] {
        assert!(
            in_pool(threads, &run) == one,
            "{threads} threads against one"
        );
    }
}

/// A world mostly at rest: each frame a few hundred shapes step half their size (into other
/// cells), some shapes are pushed (entries that no removal balances) and, every third frame,
/// a few removed (escapers that enter no cell). Every kept answer and its events are the
/// search from scratch's, on one, two, three and sixteen threads: the grid edited in place
/// where the moves are few for the pool (`Grid::repair_few`), repaired in parts otherwise.
#[test]
fn a_world_mostly_at_rest_on_any_thread_count() {
    let mut g = Gen::new(96);
    let start = g.mixed_world(60_000, 600.0);
    same_on_any_thread_count(|| {
        let mut scene = start.clone();
        let mut finder = PairFinder::new().with_choice(false);
        let (mut scratch, mut last) = (PairFinder::new(), Vec::new());
        let mut answers = Vec::new();
        for frame in 0..12u32 {
            step_a_share(&mut scene, u64::from(frame) + 11_000, 0.005, 200.0);
            for k in 0..3 {
                scene.push(Circle::new(7.0 * (frame * 3 + k) as f32, 300.0, 1.0));
            }
            if frame % 3 == 2 {
                let gone: Vec<u32> = scene.iter().map(|(id, _)| id).step_by(9_973).collect();
                for id in gone {
                    scene.remove(id).expect("live");
                }
            }
            let finders = (&mut finder, &mut scratch);
            answers.push(kept_is_the_search(finders, &scene, &mut last, frame));
            let s = finder.stats();
            assert!(
                frame == 0 || (!s.rebuilt && s.escaped > 100),
                "frame {frame}"
            );
        }
        answers
    });
}

/// A world of 60 k shapes over static tiles in which a few dozen step each frame (fewer than
/// one in 1 024, so that the moving lists copy the blocks of candidates the escapers leave
/// untouched; the mixed lists, whose order is not that of their first positions, must not),
/// now and then one turned into another kind where it lies, one into an invalid shape and
/// back, one pushed and one removed (the last shape then takes its slot): every kept answer
/// is the search from scratch's, the events are the difference between two answers, and the
/// answers and events are the same on one, two, three and sixteen threads.
#[test]
fn a_few_escapers_among_many_shapes_at_rest_on_any_thread_count() {
    let mut g = Gen::new(97);
    let mut start = g.mixed_world(60_000, 600.0);
    // Static tiles under them, in pairs with the moving shapes in either kernel order.
    for i in 0..6_400u32 {
        let (x, y) = ((i % 80) as f32 * 7.5, (i / 80) as f32 * 7.5);
        start.push_static(Aabb::new(x, y, x + 2.0, y + 2.0));
    }
    same_on_any_thread_count(|| {
        let mut scene = start.clone();
        let mut finder = PairFinder::new().with_choice(false);
        let (mut scratch, mut last) = (PairFinder::new(), Vec::new());
        let mut answers = Vec::new();
        for frame in 0..16u32 {
            step_a_share(&mut scene, u64::from(frame) + 12_000, 0.0006, 50.0);
            let id = 7_919 * (frame + 1) % 60_000;
            let s = scene.get(id).expect("live");
            let b = s.bounding_box();
            match frame % 4 {
                1 => scene.set(id, Aabb::new(b.min_x, b.min_y, b.max_x, b.max_y)),
                2 => scene.set(id, Circle::new(b.min_x, b.min_y, f32::NAN)),
                3 => scene.set(id, Circle::new(b.min_x, b.min_y, 1.0)),
                _ => {}
            }
            match frame % 5 {
                1 => drop(scene.push(Circle::new(b.max_x, b.max_y, 2.0))),
                3 => drop(scene.remove(7_907 * frame % 59_000).expect("live")),
                _ => {}
            }
            let finders = (&mut finder, &mut scratch);
            answers.push(kept_is_the_search(finders, &scene, &mut last, frame));
            let s = finder.stats();
            assert!(
                frame == 0 || (!s.rebuilt && s.escaped > 10 && s.escaped * 1024 <= 59_990),
                "frame {frame}: {} escapers",
                s.escaped
            );
        }
        answers
    });
}

/// Two frames in which every shape moves its own size (two rebuilds in a row: the next call
/// first samples whether the shapes jumped, and the sample cuts the finder's boxes to the
/// scene's new number of shapes), then frames in which the last shape, one of a stack, is
/// removed and nothing else moves: the removed slot's candidates must be found without its
/// box, and every answer and its events are the search's. (It failed at the first removal
/// while the lists copied the blocks untouched by the boxes the sample had cut.)
#[test]
fn a_removal_after_two_crowded_frames() {
    let mut g = Gen::new(98);
    let mut scene = g.mixed_world(20_000, 300.0);
    // A stack of 300 circles last: the last one's partners lie in several blocks of indices.
    for _ in 0..300 {
        scene.push(Circle::new(150.0, 150.0, 1.0));
    }
    let (mut finder, mut scratch) = (PairFinder::new().with_choice(false), PairFinder::new());
    let mut last = Vec::new();
    // (Two rebuilds right after the first would be short-lived: the finder would search
    // from scratch instead.)
    for frame in 0..9u32 {
        match frame {
            4 | 5 => scene.update(|_, s| {
                let b = s.bounding_box();
                s.translated(b.max_x - b.min_x, 0.0)
            }),
            // The last shape: its slot is gone, no other shape takes it.
            6 | 7 => drop(scene.remove(20_299 + 6 - frame).expect("live")),
            _ => {}
        }
        kept_is_the_search((&mut finder, &mut scratch), &scene, &mut last, frame);
    }
}

#[test]
#[should_panic(expected = "PairFinder margin must be finite and not negative, got -1")]
fn negative_margin_is_refused() {
    let _ = PairFinder::new().with_margin(-1.0);
}

#[test]
#[should_panic(expected = "PairFinder rebuild threshold must be between 0 and 1, got 1.5")]
fn threshold_above_one_is_refused() {
    let _ = PairFinder::new().with_rebuild_threshold(1.5);
}

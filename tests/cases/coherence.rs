//! Frame-to-frame coherence: `Scene::update` against `set`, and a kept `PairFinder` against
//! brute force over hundreds of frames of moves and random events.

use super::scene::{awkward, brute_scene, mixed, shape_bits};
use super::world::events;
use crate::support::shapes::{Gen, moved, unit_hash};
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
/// on one thread and on several, awkward shapes and kind changes included.
#[test]
fn update_is_set_for_every_shape() {
    let mut g = Gen::new(61);
    let mut start = mixed(&mut g, 30_000, 200.0);
    start.extend((0..3_000).map(|_| awkward(&mut g)));
    for frame in 0..3 {
        let mut by_set = start.clone();
        for id in 0..by_set.len() as u32 {
            let s = event(id, frame, by_set.get(id).expect("live"));
            by_set.set(id, s);
        }
        for threads in [1, 2, 3] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let mut by_update = start.clone();
            pool.install(|| by_update.update(|id, s| event(id, frame, s)));
            for id in 0..start.len() as u32 {
                assert_eq!(
                    shape_bits(&by_update.get(id).expect("live")),
                    shape_bits(&by_set.get(id).expect("live")),
                    "frame {frame}, {threads} threads, shape {id}"
                );
            }
            let (mut a, mut b) = (PairFinder::new(), PairFinder::new());
            let (mut pa, mut pb) = (Vec::new(), Vec::new());
            a.overlapping_pairs(&by_update, &mut pa);
            b.overlapping_pairs(&by_set, &mut pb);
            assert_eq!(pa, pb, "frame {frame}, {threads} threads");
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
        let mut a = mixed(&mut g, 250, 40.0);
        let mut b = mixed(&mut g, 150, 40.0);
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
                    a = mixed(&mut g, 200, 40.0);
                }
                19 => {
                    a.clear();
                    a.extend(mixed(&mut g, 200, 40.0).iter().map(|(_, s)| s));
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
            assert!(s.candidates >= s.pairs);
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
    let mut scene = mixed(&mut g, 2_000, 100.0);
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
    scene = mixed(&mut g, 1_000, 100.0);
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
    let mut scene = mixed(&mut g, 3_000, 120.0);
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
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let mut g = Gen::new(90);
            let mut scene = mixed(&mut g, 40_000, 250.0);
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

/// Frames in which a sixth of the shapes step half their size (they leave their enlarged
/// boxes without jumping, tens of thousands of escapers a frame, each frame's handled on
/// rayon's threads beyond one), a fiftieth are removed and pushed again (slots that hold
/// another shape next frame) and the rest stay: every kept answer is the search from scratch,
/// on one, two and three threads, and the frames are followed, not rebuilt.
#[test]
fn many_escapers_a_frame_on_any_thread_count() {
    let mut g = Gen::new(95);
    let start = mixed(&mut g, 150_000, 1500.0);
    for threads in [1, 2, 3] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let mut scene = start.clone();
            let (mut finder, mut kept, mut fresh) = (PairFinder::new(), Vec::new(), Vec::new());
            let mut scratch = PairFinder::new();
            let (mut followed, mut crowded) = (0, 0);
            for frame in 0..8u32 {
                scene.update(|id, s| {
                    let pick = unit_hash(u64::from(id), u64::from(frame) + 7_000);
                    if pick >= 1.0 / 6.0 {
                        return s;
                    }
                    let b = s.bounding_box();
                    let step = 0.5 * (b.max_x - b.min_x).max(b.max_y - b.min_y);
                    let angle = pick * 6.0 * core::f32::consts::TAU;
                    s.translated(step * angle.cos(), step * angle.sin())
                });
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

/// Frames in which a tenth of the shapes jump: the kept finder searches them from scratch
/// (more than a twentieth jumped) and afterwards follows the shapes again, merging its
/// answers; every answer equals a search from scratch and `began`/`ended` are the differences
/// of consecutive answers, on one thread and on two. With more static shapes than moving
/// ones (a level), the same jumps are followed instead. Below 4096 moving shapes every one's
/// jumps are counted after a search from scratch, above it a sample's: both sizes.
#[test]
fn jumping_frames_search_from_scratch_and_come_back() {
    for (moving, statics) in [(3_000, 4_000), (6_000, 8_000)] {
        jumping_run(moving, statics);
    }
}

fn jumping_run(moving: usize, statics: usize) {
    let mut g = Gen::new(83);
    let start = mixed(&mut g, moving, 100.0);
    let mut level = start.clone();
    for (_, s) in mixed(&mut g, statics, 100.0).iter() {
        level.push_static(s);
    }
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        for (mut scene, with_level) in [(start.clone(), false), (level.clone(), true)] {
            let (mut finder, mut pairs, mut last) = (PairFinder::new(), Vec::new(), Vec::new());
            let (mut searched, mut merged) = (Vec::new(), 0);
            for frame in 0..40u32 {
                let jumping = (10..16).contains(&frame);
                scene.update(|id, s| {
                    // A hash of other arguments than the destination's (`moved` places a jumper
                    // by `unit_hash(id, frame + 1)`, which follows `unit_hash(id, frame)`).
                    let pick = unit_hash(u64::from(id) + (1 << 50), u64::from(frame) * 977);
                    let jumps = jumping && pick < 0.1;
                    let speed = if jumps { f32::INFINITY } else { 0.04 };
                    moved(s, id, frame, speed, 100.0)
                });
                pool.install(|| finder.overlapping_pairs(&scene, &mut pairs));
                let want = scene.overlapping_pairs();
                assert_eq!(pairs, want, "{moving}: frame {frame}, level {with_level}");
                let (began, ended) = events(&last, &want);
                assert_eq!(finder.began(), began, "frame {frame}: began");
                assert_eq!(finder.ended(), ended, "frame {frame}: ended");
                let stats = finder.stats();
                if jumping && stats.rebuilt {
                    searched.push(frame);
                }
                merged += usize::from(frame > 16 && stats.merged);
                last = want;
            }
            if with_level {
                assert!(
                    searched.is_empty(),
                    "{moving}: a level's jumps are followed: {searched:?}"
                );
            } else {
                assert_eq!(
                    searched,
                    (10..16).collect::<Vec<_>>(),
                    "{moving}: {threads} thread(s)"
                );
            }
            assert!(
                merged > 10,
                "{moving}: {merged} merged frames after the jumps"
            );
        }
    }
}

/// Frames in which every shape teleports: the first two force rebuilds (the escape check
/// stops at a quarter of the shapes escaped), and from the third on the kept finder sees on
/// its sample that they jumped and searches from scratch, the very candidates a search with no
/// kept state tests, rather than rebuilding its enlarged boxes every call. Every answer
/// exact, on one thread and on two; calm frames afterwards are followed again.
#[test]
fn teleporting_frames_search_from_scratch_after_two_rebuilds() {
    let start = mixed(&mut Gen::new(89), 6_000, 100.0);
    searched_from_scratch_after_two_rebuilds(&start, f32::INFINITY);
}

/// Frames in which every shape moves its own size: each leaves its enlarged box every frame
/// without jumping (its new box overlaps the old). The first two rebuild, and from the third on
/// the kept finder's sample says the next call would rebuild again and it searches from
/// scratch (it rebuilt every frame, at about twice the cost). Every answer exact, on one
/// thread and on two; calm frames afterwards are followed again.
#[test]
fn fast_frames_search_from_scratch_after_two_rebuilds() {
    // Round shapes: a thin one moved across by its length would jump (the jump rule).
    let mut g = Gen::new(97);
    let start: Scene = (0..6_000)
        .map(|_| {
            let (x, y) = (g.uniform(0.0, 100.0), g.uniform(0.0, 100.0));
            Circle::new(x, y, g.uniform(0.3, 1.0))
        })
        .collect();
    searched_from_scratch_after_two_rebuilds(&start, 2.0);
}

/// Frames 5 to 11 of `start` moved at `speed` (a share of each shape's half extent, or
/// infinite: teleports), the others at 0.04, on one thread and on two: every answer equals a
/// search from scratch, frames 7 to 11 test the very candidates it tests, and the calm frames
/// afterwards are merged again.
fn searched_from_scratch_after_two_rebuilds(start: &Scene, speed: f32) {
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let mut scene = start.clone();
        let (mut finder, mut fresh) = (PairFinder::new(), PairFinder::new());
        let (mut pairs, mut want) = (Vec::new(), Vec::new());
        let (mut like_scratch, mut merged) = (Vec::new(), 0);
        for frame in 0..30u32 {
            let fast = (5..12).contains(&frame);
            let speed = if fast { speed } else { 0.04 };
            scene.update(|id, s| moved(s, id, frame, speed, 100.0));
            pool.install(|| {
                finder.overlapping_pairs(&scene, &mut pairs);
                fresh.overlapping_pairs_from_scratch(&scene, &mut want);
            });
            assert_eq!(pairs, want, "frame {frame}, {threads} thread(s)");
            let (kept, scratch) = (finder.stats(), fresh.stats());
            if fast && kept.candidates == scratch.candidates {
                like_scratch.push(frame);
            }
            merged += usize::from(frame > 13 && kept.merged);
        }
        assert_eq!(
            like_scratch,
            (7..12).collect::<Vec<_>>(),
            "{threads} thread(s)"
        );
        assert!(merged > 10, "{merged} merged frames after the fast ones");
    }
}

/// A shape that keeps its course gets enlarged boxes moved ahead of it: a circle moving a
/// tenth of the margin per frame leaves its box every ten frames or so, not every five (a
/// box centred on it at each escape).
#[test]
fn a_steady_course_leaves_its_box_half_as_often() {
    let mut scene = Scene::new();
    let id = scene.push(Circle::new(0.0, 0.0, 0.5));
    // Company, so that the grid is not a single box.
    for k in 0..50 {
        scene.push(Circle::new(k as f32 * 3.0, 40.0, 0.5));
    }
    let (mut finder, mut pairs) = (PairFinder::new().with_margin(0.5), Vec::new());
    let mut escapes = 0;
    for frame in 0..=100 {
        scene.set(id, Circle::new(frame as f32 * 0.05, 0.0, 0.5));
        finder.overlapping_pairs(&scene, &mut pairs);
        assert_eq!(pairs, scene.overlapping_pairs(), "frame {frame}");
        if frame > 0 {
            escapes += finder.stats().escaped;
        }
    }
    // 5 units at 0.05 a frame: every twenty frames with boxes moved ahead by the margin,
    // every ten with boxes centred on the circle.
    assert!((4..=6).contains(&escapes), "{escapes} escapes");
}

/// A static shape that only an escaper's box moved ahead reaches (not the box centred on the
/// shape) is still a candidate after the static shapes are filed anew: the neighbourhood the
/// refile gives a moving shape holds its whole enlarged box.
#[test]
fn a_box_moved_ahead_keeps_its_static_candidates_through_a_refile() {
    let mut scene = Scene::new();
    let circle = scene.push(Circle::new(0.0, 0.0, 0.5));
    let wall = scene.push_static(Aabb::new(2.0, -0.5, 3.0, 0.5));
    // Company, so that one escaper is not enough to rebuild.
    for k in 0..20 {
        scene.push(Circle::new(k as f32 * 3.0, 40.0, 0.5));
    }
    let (mut finder, mut pairs) = (PairFinder::new().with_margin(0.5), Vec::new());
    finder.overlapping_pairs(&scene, &mut pairs);
    assert!(pairs.is_empty());
    // It leaves [-1, 1] to the right: its new box reaches 1.25 + 0.5 + 0.5 = 2.25.
    scene.set(circle, Circle::new(0.75, 0.0, 0.5));
    finder.overlapping_pairs(&scene, &mut pairs);
    assert_eq!(finder.stats().escaped, 1);
    assert!(pairs.is_empty());
    // A change of the static shapes files them anew, where its box centred on the circle
    // (to 1.75) would not reach the wall.
    scene.push_static(Aabb::new(50.0, 50.0, 51.0, 51.0));
    finder.overlapping_pairs(&scene, &mut pairs);
    assert!(pairs.is_empty());
    // Still inside its box, the circle now touches the wall.
    scene.set(circle, Circle::new(1.625, 0.0, 0.5));
    finder.overlapping_pairs(&scene, &mut pairs);
    assert_eq!(finder.stats().escaped, 0);
    assert_eq!(pairs, [(circle, wall)]);
    assert_eq!(pairs, scene.overlapping_pairs());
}

/// `FrameStats`' phases are wall time that adds up to no more than the call (on two threads,
/// where CPU time summed over tasks would exceed it), and the CPU fields hold the tasks' sums:
/// for a kept frame (rebuilt, and followed), a jump to a search from scratch and a search from
/// scratch, with contacts.
#[test]
fn frame_stats_phases_add_up_to_the_frame() {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .expect("a pool");
    pool.install(|| {
        let mut g = Gen::new(41);
        let mut scene = mixed(&mut g, 20_000, 300.0);
        let (mut finder, mut pairs, mut contacts) = (PairFinder::new(), Vec::new(), Vec::new());
        for frame in 0..12u32 {
            // Frames 0–5 move a little, 6 teleports every shape (a jump), 7– move again.
            let step = if frame == 6 { f32::INFINITY } else { 0.05 };
            scene.update(|id, s| moved(s, id, frame, step, 300.0));
            let phases = |s: &widephase::FrameStats| {
                [
                    s.build, s.search, s.pack, s.kernels, s.sort, s.events, s.contacts,
                ]
                .iter()
                .sum::<std::time::Duration>()
            };
            let start = std::time::Instant::now();
            if frame % 3 == 2 {
                finder.contacts(&scene, &mut contacts);
            } else {
                finder.overlapping_pairs(&scene, &mut pairs);
            }
            let wall = start.elapsed();
            let s = finder.stats();
            assert!(phases(s) <= wall, "frame {frame}: {s:?} over {wall:?}");
            assert!(s.candidates == 0 || s.cpu_pack + s.cpu_kernels > std::time::Duration::ZERO);
            let start = std::time::Instant::now();
            finder.overlapping_pairs_from_scratch(&scene, &mut pairs);
            let wall = start.elapsed();
            let s = finder.stats();
            assert!(
                phases(s) <= wall,
                "from scratch {frame}: {s:?} over {wall:?}"
            );
            assert!(s.cpu_search > std::time::Duration::ZERO);
        }
    });
}

/// A box that turns shows a wider bounding box than any the grid was built over (a square's
/// grows by up to √2): its enlarged box is cut down to the widest side the grid takes, around
/// its padded box, and the finder keeps its grid; a shape whose padded box itself outgrows the
/// grid still makes it rebuild. Exact every frame either way.
#[test]
fn turning_boxes_keep_the_grid() {
    // Square `i` at frame `f`: the even ones turn and rise, so that they leave their
    // enlarged boxes and take new ones for their wider boxes.
    let square = |i: usize, f: usize| {
        let (angle, rise) = if i.is_multiple_of(2) {
            (
                f as f32 * (core::f32::consts::FRAC_PI_4 / 8.0),
                0.5 * f as f32,
            )
        } else {
            (0.0, 0.0)
        };
        Shape::from(Obb::new(
            1.9 * i as f32,
            0.3 * (i % 3) as f32 + rise,
            1.0,
            1.0,
            angle,
        ))
    };
    let mut scene = Scene::new();
    let ids: Vec<u32> = (0..40).map(|i| scene.push(square(i, 0))).collect();
    let mut finder = PairFinder::new().with_rebuild_threshold(1.0);
    let mut pairs = Vec::new();
    finder.overlapping_pairs(&scene, &mut pairs);
    assert!(finder.stats().rebuilt);
    let mut turned = 0;
    for frame in 1..=8 {
        scene.update(|id, _| square(ids.iter().position(|&x| x == id).expect("pushed"), frame));
        finder.overlapping_pairs(&scene, &mut pairs);
        assert_eq!(pairs, brute_scene(&scene), "frame {frame}");
        let s = finder.stats();
        assert!(
            !s.rebuilt,
            "frame {frame}: rebuilt with {} escapers",
            s.escaped
        );
        turned += s.escaped;
    }
    assert!(turned >= 20, "the turning squares escaped ({turned})");
    // A square three times as large fits no level: a rebuild, still exact.
    scene.set(ids[1], Obb::new(0.0, 0.0, 3.0, 3.0, 0.0));
    finder.overlapping_pairs(&scene, &mut pairs);
    assert_eq!(pairs, brute_scene(&scene), "the large square");
    assert!(finder.stats().rebuilt);
}

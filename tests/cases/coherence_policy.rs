//! When a kept finder searches from scratch, rebuilds or keeps its grid: frames in which
//! shapes jump, teleport or move fast, boxes moved ahead of a steady course, turning boxes;
//! and `FrameStats`' phases adding up to the frame.

use super::scene::brute_scene;
use super::world::events;
use crate::support::shapes::{Gen, moved, unit_hash};
use crate::support::threads::in_pool;
use core::ops::Range;
use widephase::{Aabb, Circle, Obb, PairFinder, Scene, Shape};

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
    let start = g.mixed_world(moving, 100.0);
    let mut level = start.clone();
    for (_, s) in g.mixed_world(statics, 100.0).iter() {
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
    let start = Gen::new(89).mixed_world(6_000, 100.0);
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
    searched_from_scratch_after_two_rebuilds(&circles(97), 2.0);
}

/// 6 000 circles of radius 0.3–1 in a 100 × 100 square.
fn circles(seed: u64) -> Scene {
    let mut g = Gen::new(seed);
    (0..6_000)
        .map(|_| {
            let (x, y) = (g.uniform(0.0, 100.0), g.uniform(0.0, 100.0));
            Circle::new(x, y, g.uniform(0.3, 1.0))
        })
        .collect()
}

/// Frames 5 to 11 of `start` moved at `speed` (a share of each shape's half extent, or
/// infinite: teleports), the others at 0.04, on one thread and on two: every answer and its
/// events exact, frames 7 to 11 test the very candidates a search from scratch tests, and the
/// calm frames afterwards are merged again.
fn searched_from_scratch_after_two_rebuilds(start: &Scene, speed: f32) {
    for threads in [1, 2] {
        let played = play(start, speed, 5..12, 30, threads);
        let case = format!("{threads} thread(s)");
        assert_eq!(played.like_scratch, (7..12).collect::<Vec<_>>(), "{case}");
        assert!(
            played.merged > 10,
            "{} merged frames after the fast ones",
            played.merged
        );
    }
}

/// Frames in which every shape outruns its enlarged box in two calls (circles moving 0.4 of
/// their radius a frame, their boxes enlarged by 0.45–0.75 of it): a rebuilt state lives two
/// calls. After two such short lives the kept finder searches from scratch, the very
/// candidates a search with no kept state tests, rather than rebuilding every second call (at
/// about 1.75 searches from scratch each), and follows the shapes again once they slow down.
/// Every answer and its events exact, on one thread and on two.
#[test]
fn short_lived_states_search_from_scratch() {
    let start = circles(101);
    for threads in [1, 2] {
        let played = play(&start, 0.4, 5..29, 48, threads);
        let case = format!("{threads} thread(s)");
        // Frame 6 rebuilds a state built at frame 0 (a long life), 8 the one built at 6 (a
        // short life), 10 ends the second short life in a row: from there on, searches from
        // scratch, the sample deciding every second call that the shapes still outrun it.
        assert_eq!(played.rebuilt, [6, 8], "{case}");
        assert_eq!(played.like_scratch, (10..29).collect::<Vec<_>>(), "{case}");
        assert!(
            played.merged > 10,
            "{} merged frames after the fast ones",
            played.merged
        );
    }
}

/// What a kept finder did in fast frames: those that tested the very candidates a search from
/// scratch tests, those that rebuilt otherwise, and how many calm frames after the fast ones
/// merged their answers.
struct Played {
    like_scratch: Vec<u32>,
    rebuilt: Vec<u32>,
    merged: usize,
}

/// `frames` frames of `start` on `threads`, moved at `speed` in the frames `fast` and at 0.04
/// in the others, each answer and its `began` and `ended` checked against a search from
/// scratch.
fn play(start: &Scene, speed: f32, fast: Range<u32>, frames: u32, threads: usize) -> Played {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    let mut scene = start.clone();
    let (mut finder, mut fresh) = (PairFinder::new(), PairFinder::new());
    let (mut pairs, mut want, mut last) = (Vec::new(), Vec::new(), Vec::new());
    let mut played = Played {
        like_scratch: Vec::new(),
        rebuilt: Vec::new(),
        merged: 0,
    };
    for frame in 0..frames {
        let is_fast = fast.contains(&frame);
        let speed = if is_fast { speed } else { 0.04 };
        scene.update(|id, s| moved(s, id, frame, speed, 100.0));
        pool.install(|| {
            finder.overlapping_pairs(&scene, &mut pairs);
            fresh.overlapping_pairs_from_scratch(&scene, &mut want);
        });
        assert_eq!(pairs, want, "frame {frame}, {threads} thread(s)");
        let (began, ended) = events(&last, &want);
        assert_eq!(finder.began(), began, "frame {frame}: began");
        assert_eq!(finder.ended(), ended, "frame {frame}: ended");
        let (kept, scratch) = (finder.stats(), fresh.stats());
        if is_fast && kept.candidates == scratch.candidates {
            played.like_scratch.push(frame);
        } else if is_fast && kept.rebuilt {
            played.rebuilt.push(frame);
        }
        played.merged += usize::from(frame > fast.end + 1 && kept.merged);
        core::mem::swap(&mut last, &mut want);
    }
    played
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
    in_pool(2, || {
        let mut g = Gen::new(41);
        let mut scene = g.mixed_world(20_000, 300.0);
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

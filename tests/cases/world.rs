//! The Scene as a collision world against a model kept beside it: random pushes, removes,
//! moves, filter changes and static shapes, and the began/ended stream of a kept finder, on
//! one, two, three, seven and sixteen threads; and the helpers of the hand-worked world cases
//! (`world_ids.rs`, `world_filters.rs`, `world_runs.rs`).

use super::contacts::assert_contacts;
pub(super) use crate::support::model::events;
use crate::support::model::{Entry, FILTERS, Model};
use crate::support::shapes::{Gen, moved, unit_hash};
use crate::support::threads::in_pool;
use widephase::{Aabb, Capsule, Circle, Filter, Obb, PairFinder, Scene, Shape};

/// Side of the model test's square.
const SIDE: f32 = 60.0;

/// A shape for the model test: mostly ordinary sizes, some large, some invalid, now and then
/// one with unbounded bounds (an infinite strip, or coordinates beyond 2⁶⁰), which the grids
/// leave out and test against everything.
pub(super) fn shape(g: &mut Gen) -> Shape {
    match g.index(400) {
        0 => {
            let y = g.uniform(0.0, SIDE);
            Aabb::new(f32::NEG_INFINITY, y, f32::INFINITY, y + 0.5).into()
        }
        1 => Circle::new(1e30, 1e30, 2e30).into(),
        _ => bounded(g),
    }
}

/// [`shape`] without the unbounded ones.
pub(super) fn bounded(g: &mut Gen) -> Shape {
    let (x, y) = (g.uniform(0.0, SIDE), g.uniform(0.0, SIDE));
    let size = match g.percent() {
        0..3 => g.uniform(4.0, 12.0),
        _ => g.uniform(0.3, 1.2),
    };
    match g.index(11) {
        0 | 1 => Circle::new(x, y, size).into(),
        2 | 3 => Aabb::from_center(x, y, size, g.uniform(0.3, 1.2)).into(),
        4 | 5 => Obb::new(x, y, size, g.uniform(0.3, 1.2), g.uniform(-3.2, 3.2)).into(),
        6 | 7 => g.convex(x, y, size).into(),
        8 | 9 => Capsule::new(
            x,
            y,
            x + size,
            y + g.uniform(-1.0, 1.0),
            g.uniform(0.0, 0.5),
        )
        .into(),
        _ => match g.index(4) {
            0 => Circle::new(x, f32::NAN, size).into(),
            1 => Aabb::new(x, y, x - 1.0, y + 1.0).into(),
            2 => Capsule::new(x, y, f32::INFINITY, y, 0.5).into(),
            _ => Circle::new(x, y, -1.0).into(),
        },
    }
}

/// The frame's move of a moving shape: a small step, now and then a jump across the square
/// or a turn to NaN. A pure function, as `Scene::update` needs.
pub(super) fn step(id: u32, frame: u32, s: Shape) -> Shape {
    match (unit_hash(u64::from(id), u64::from(frame) + 77) * 1000.0) as u32 {
        0..=3 => Circle::new(f32::NAN, 1.0, 1.0).into(),
        4..=25 => moved(s, id, frame, f32::INFINITY, SIDE),
        _ => moved(s, id, frame, 0.08, SIDE),
    }
}

/// Runs the model test on the current rayon pool; returns every frame's answer. `steady`:
/// no unbounded shapes, and the static shapes only pushed before the first frame, so that
/// kept frames merge their answers from the last (a change of the static shapes or an
/// unbounded shape makes a frame sort it); all the other changes as without.
fn model_run(seed: u64, frames: u32, steady: bool) -> Vec<Vec<(u32, u32)>> {
    let mut g = Gen::new(seed);
    let new_shape = |g: &mut Gen| if steady { bounded(g) } else { shape(g) };
    let (mut scene, mut model) = (Scene::new(), Model::default());
    for k in 0..2000 {
        let e = Entry {
            shape: new_shape(&mut g),
            filter: FILTERS[g.index(FILTERS.len())],
            fixed: k % 10 < 3,
            sensor: g.index(12) == 0,
            data: if g.index(3) == 0 { g.next() } else { 0 },
        };
        let id = match (e.fixed, e.filter == Filter::ALL) {
            _ if e.sensor || e.data != 0 => e.push_into(&mut scene),
            (false, true) => scene.push(e.shape),
            (false, false) => scene.push_with(e.shape, e.filter),
            (true, true) => scene.push_static(e.shape),
            (true, false) => scene.push_static_with(e.shape, e.filter),
        };
        assert_eq!(id, model.push(e));
    }
    let mut finder = PairFinder::new();
    let (mut pairs, mut contacts) = (Vec::new(), Vec::new());
    let mut previous: Vec<(u32, u32)> = Vec::new();
    let mut answers = Vec::new();
    let mut ran_into = [0usize; 5];
    for frame in 0..frames {
        for _ in 0..g.index(24) {
            let live = model.live();
            match g.index(10) {
                0 | 1 => {
                    let e = Entry {
                        shape: new_shape(&mut g),
                        filter: FILTERS[g.index(FILTERS.len())],
                        fixed: !steady && g.index(4) == 0,
                        sensor: g.index(12) == 0,
                        data: g.next(),
                    };
                    let id = e.push_into(&mut scene);
                    assert_eq!(id, model.push(e), "frame {frame}: the id push returns");
                }
                2..=4 => {
                    // A live id, or now and then a stale one (removed, a generation ahead,
                    // never pushed); a removal is often followed by a push in the same frame,
                    // which takes the removed shape's index under a new generation.
                    let id = match g.index(4) {
                        0 => model.stale(g.index(1000)),
                        _ if live.is_empty() => continue,
                        _ => live[g.index(live.len())],
                    };
                    let want = model.get(id);
                    if steady && want.is_some_and(|e| e.fixed) {
                        continue;
                    }
                    let got = scene.remove(id);
                    let bits = |s: Option<Shape>| s.map(|s| super::scene::shape_bits(&s));
                    let want_shape = want.map(|e| e.shape);
                    assert_eq!(bits(got), bits(want_shape), "frame {frame}: remove({id})");
                    model.remove(id);
                    assert_eq!(scene.remove(id), None, "removing {id} twice");
                    if let Some(gone) = want.filter(|_| g.index(2) == 0) {
                        let e = Entry {
                            filter: FILTERS[g.index(FILTERS.len())],
                            ..gone
                        };
                        let new = e.push_into(&mut scene);
                        assert_eq!(new, model.push(e), "frame {frame}: push after remove");
                        assert_ne!(new, id, "a removed id is never handed out again");
                    }
                }
                5 | 6 if !live.is_empty() => {
                    let id = live[g.index(live.len())];
                    if steady && model.get(id).unwrap().fixed {
                        continue;
                    }
                    let s = if g.index(3) == 0 {
                        new_shape(&mut g)
                    } else {
                        moved(model.get(id).unwrap().shape, id, frame, 0.3, SIDE)
                    };
                    scene.set(id, s);
                    model.get_mut(id).shape = s;
                }
                7 if !live.is_empty() => {
                    let id = live[g.index(live.len())];
                    if steady && model.get(id).unwrap().fixed {
                        continue;
                    }
                    // A new filter, sensor flag or user data.
                    match g.index(4) {
                        0 => {
                            let sensor = !model.get(id).unwrap().sensor;
                            scene.set_sensor(id, sensor);
                            model.get_mut(id).sensor = sensor;
                        }
                        1 => {
                            let data = g.next();
                            scene.set_user_data(id, data);
                            model.get_mut(id).data = data;
                        }
                        _ => {
                            let f = FILTERS[g.index(FILTERS.len())];
                            scene.set_filter(id, f);
                            model.get_mut(id).filter = f;
                        }
                    }
                }
                // Now and then the storage in spatial order: nothing a user sees changes.
                8 if g.index(8) == 0 => scene.reorder(),
                _ => {}
            }
        }
        scene.update(|id, s| step(id, frame, s));
        for id in model.live() {
            if !model.get(id).unwrap().fixed {
                let e = model.get_mut(id);
                e.shape = step(id, frame, e.shape);
            }
        }

        let want = model.pairs();
        if frame % 3 == 2 {
            // Contacts: the pairs without a sensor (the answer itself shows in the events).
            finder.contacts(&scene, &mut contacts);
            assert_contacts(&scene, &model.solid(&want), &contacts);
        } else {
            finder.overlapping_pairs(&scene, &mut pairs);
            assert_eq!(pairs, want, "frame {frame}: the kept answer");
        }
        let (began, ended) = events(&previous, &want);
        assert_eq!(finder.began(), began, "frame {frame}: began");
        assert_eq!(finder.ended(), ended, "frame {frame}: ended");
        let stats = finder.stats();
        assert_eq!((stats.began, stats.ended), (began.len(), ended.len()));
        if frame % 10 == 0 {
            assert_eq!(
                scene.overlapping_pairs(),
                want,
                "frame {frame}: from scratch"
            );
        }
        // The scene's bookkeeping against the model's.
        let live = model.live();
        assert_eq!(scene.len(), live.len());
        let statics = live
            .iter()
            .filter(|&&id| model.get(id).unwrap().fixed)
            .count();
        assert_eq!((scene.static_len(), stats.statics), (statics, statics));
        let stale = (0..9).map(|k| model.stale(k * 7 + frame as usize));
        for id in live.iter().copied().chain(stale) {
            let e = model.get(id);
            assert_eq!(scene.contains(id), e.is_some());
            assert_eq!(scene.filter(id), e.map(|e| e.filter));
            assert_eq!(scene.is_static(id), e.is_some_and(|e| e.fixed));
            assert_eq!(scene.is_sensor(id), e.is_some_and(|e| e.sensor));
            assert_eq!(scene.user_data(id), e.map(|e| e.data), "user_data({id})");
            let bits = |s: Option<Shape>| s.map(|s| super::scene::shape_bits(&s));
            assert_eq!(bits(scene.get(id)), bits(e.map(|e| e.shape)), "get({id})");
        }
        let ids: Vec<u32> = scene.iter().map(|(id, _)| id).collect();
        assert_eq!(ids, live, "iter: the live ids in order");
        ran_into[0] += usize::from(stats.rebuilt);
        ran_into[1] += stats.filtered;
        ran_into[2] += began.len() + ended.len();
        ran_into[3] += usize::from(!stats.rebuilt && stats.escaped > 0);
        ran_into[4] += if steady {
            usize::from(stats.merged)
        } else {
            stats.unbounded
        };
        previous = want.clone();
        answers.push(want);
    }
    // The run met what it is meant to: rebuilds and kept frames, filtered candidates, events,
    // unbounded shapes (steady: merged answers).
    assert!(ran_into.iter().all(|&n| n > 0), "{ran_into:?}");
    answers
}

/// 2 000 shapes over 300 frames of random pushes (moving and static, with filters), removes,
/// sets, filter changes, moves, teleports, NaN shapes and reorderings of the storage: after
/// every call the kept finder's answer (pairs or contacts) equals the model's, and
/// `began`/`ended` are the set differences of consecutive answers; the same on every count of
/// [`THREAD_COUNTS`].
#[test]
fn kept_finder_follows_the_model() {
    on_thread_counts(|| model_run(7, 300, false));
}

/// Thread counts the world runs compare: one, two, three (more than the CI machine's cores, a
/// number of tasks that splits the work elsewhere), seven (an odd split of every pass) and
/// sixteen (the passes cut as a sixteen-core machine cuts them: more, smaller tasks). Where
/// the pool has no more threads than the cores (`WIDEPHASE_CORES=16` in CI's second run of
/// the tests), seven and sixteen also hand each pass out one group a thread, held awake.
pub(super) const THREAD_COUNTS: [usize; 5] = [1, 2, 3, 7, 16];

/// `run` (which checks every frame itself) on each of [`THREAD_COUNTS`]: the same answers.
pub(super) fn on_thread_counts<T: PartialEq + core::fmt::Debug + Send>(run: impl Fn() -> T + Sync) {
    let runs = THREAD_COUNTS.map(|threads| (threads, in_pool(threads, &run)));
    for (threads, got) in &runs[1..] {
        assert_eq!(&runs[0].1, got, "{threads} threads against one");
    }
}

/// The model test with the static shapes left alone and no unbounded shapes: the kept frames
/// find their answers from the last one (the pairs of the candidates that escapers drop,
/// removed shapes, reused ids, filter and kind changes, teleports, NaN shapes), exactly as a
/// sort would, on every count of [`THREAD_COUNTS`].
#[test]
fn merged_answers_follow_the_model() {
    on_thread_counts(|| model_run(11, 300, true));
}

pub(super) fn circle(x: f32) -> Circle {
    Circle::new(x, 0.0, 1.0)
}

/// A finder's answer and events, for the hand-worked cases.
pub(super) fn call(finder: &mut PairFinder, scene: &Scene) -> [Vec<(u32, u32)>; 3] {
    let mut pairs = Vec::new();
    finder.overlapping_pairs(scene, &mut pairs);
    [pairs, finder.began().to_vec(), finder.ended().to_vec()]
}

//! The Scene as a collision world: remove and reused ids, layers, static shapes, and the
//! began/ended stream of a kept finder, against a model kept beside it.

use super::contacts::assert_contacts;
use super::scene::{brute_point, brute_query, brute_raycast};
pub(super) use crate::support::model::events;
use crate::support::model::{Entry, FILTERS, Model};
use crate::support::shapes::{Gen, moved, unit_hash};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use widephase::{
    Aabb, Capsule, Circle, Filter, Obb, PairFinder, Point, Polygon, Ray, Scene, Shape,
};

/// Side of the model test's square.
const SIDE: f32 = 60.0;

/// A shape for the model test: mostly ordinary sizes, some large, some invalid, now and then
/// one with unbounded bounds (an infinite strip, or coordinates beyond 2⁶⁰), which the grids
/// leave out and test against everything.
fn shape(g: &mut Gen) -> Shape {
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
fn bounded(g: &mut Gen) -> Shape {
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
fn step(id: u32, frame: u32, s: Shape) -> Shape {
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
/// sets, filter changes, moves, teleports, NaN shapes and reorderings of the storage: after every call the kept finder's
/// answer (pairs or contacts) equals the model's, and `began`/`ended` are the set differences
/// of consecutive answers; the same on one, two and three threads.
#[test]
fn kept_finder_follows_the_model() {
    on_thread_counts(|| model_run(7, 300, false));
}

/// `run` (which checks every frame itself) on one thread, two, and three (more than the CI
/// machine's cores, and a number of tasks that splits the work elsewhere): the same answers.
fn on_thread_counts<T: PartialEq + core::fmt::Debug + Send>(run: impl Fn() -> T + Sync) {
    let runs: Vec<_> = [1, 2, 3]
        .map(|threads| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(&run)
        })
        .into();
    assert_eq!(runs[0], runs[1]);
    assert_eq!(runs[0], runs[2]);
}

/// The model test with the static shapes left alone and no unbounded shapes: the kept frames
/// find their answers from the last one (the pairs of the candidates that escapers drop,
/// removed shapes, reused ids, filter and kind changes, teleports, NaN shapes), exactly as a
/// sort would, on one, two and three threads.
#[test]
fn merged_answers_follow_the_model() {
    on_thread_counts(|| model_run(11, 300, true));
}

fn circle(x: f32) -> Circle {
    Circle::new(x, 0.0, 1.0)
}

/// A finder's answer and events, for the hand-worked cases.
fn call(finder: &mut PairFinder, scene: &Scene) -> [Vec<(u32, u32)>; 3] {
    let mut pairs = Vec::new();
    finder.overlapping_pairs(scene, &mut pairs);
    [pairs, finder.began().to_vec(), finder.ended().to_vec()]
}

#[test]
fn removing_the_only_partner_ends_the_pair() {
    let mut scene = Scene::new();
    let (a, b) = (scene.push(circle(0.0)), scene.push(circle(1.5)));
    let far = scene.push(circle(10.0));
    let mut finder = PairFinder::new();
    assert_eq!(
        call(&mut finder, &scene),
        [vec![(a, b)], vec![(a, b)], vec![]]
    );
    assert_eq!(scene.remove(b), Some(circle(1.5).into()));
    assert_eq!(call(&mut finder, &scene), [vec![], vec![], vec![(a, b)]]);
    assert_eq!(call(&mut finder, &scene), [vec![], vec![], vec![]]);
    // The removed id is in no answer: pairs, queries, ray casts.
    assert_eq!(scene.query_point(Point::new(1.5, 0.0)), Vec::<u32>::new());
    let ray = Ray::new(1.5, -5.0, 0.0, 1.0, f32::INFINITY);
    assert_eq!(scene.raycast(&ray), None);
    assert_eq!(
        scene.query_aabb(&Aabb::new(-1.0, -1.0, 11.0, 1.0)),
        [a, far]
    );
    assert_eq!(scene.len(), 2);
}

/// Removing a shape and pushing another in the same frame: the new shape takes the removed
/// one's index under a new generation, so the pair with the same partner ends and the new
/// one begins (the trial game's enemy removed inside a trigger zone, and the bullet pushed in
/// the same frame).
#[test]
fn a_shape_pushed_after_a_removal_never_takes_its_id() {
    let mut scene = Scene::new();
    let zone = scene.push_static(Aabb::new(-3.0, -3.0, 3.0, 3.0));
    let enemy = scene.push(circle(0.0));
    let far = scene.push(circle(20.0));
    let mut finder = PairFinder::new();
    call(&mut finder, &scene);
    scene.remove(enemy);
    let bullet = scene.push(circle(0.5));
    assert_ne!(bullet, enemy, "a removed id is never handed out again");
    assert_eq!(bullet & 0xFF_FFFF, enemy & 0xFF_FFFF, "its index is");
    assert!(!scene.contains(enemy) && scene.get(enemy).is_none());
    assert_eq!(
        call(&mut finder, &scene),
        [
            vec![(zone, bullet)],
            vec![(zone, bullet)],
            vec![(zone, enemy)]
        ]
    );
    // Again, the bullet's index a third time: every call ends the old pair, begins the new.
    scene.remove(bullet);
    let next = scene.push(circle(-0.5));
    assert!(next != bullet && next != enemy);
    assert_eq!(
        call(&mut finder, &scene),
        [vec![(zone, next)], vec![(zone, next)], vec![(zone, bullet)]]
    );
    // Several free indices: the smallest first, then new ones; stale ids stay stale.
    scene.remove(far);
    scene.remove(zone);
    let (x, y, z) = (
        scene.push(circle(50.0)),
        scene.push(circle(60.0)),
        scene.push(circle(70.0)),
    );
    assert_eq!([x, y, z].map(|id| id & 0xFF_FFFF), [zone, far, 3]);
    assert_eq!(z, 3, "a new index starts at generation 0");
    for stale in [zone, far, enemy, bullet] {
        assert!(!scene.contains(stale), "{stale}");
        assert_eq!(scene.remove(stale), None);
        assert_eq!(scene.user_data(stale), None);
        assert_eq!(scene.filter(stale), None);
    }
}

/// A clear removes every shape as `remove` would: no id comes back after it, and a kept
/// finder sees the old pairs end and the new ones begin though the same shapes return to the
/// same places.
#[test]
fn a_clear_ends_every_pair_and_no_id_comes_back() {
    let mut scene = Scene::new();
    let (a, b) = (scene.push(circle(0.0)), scene.push(circle(1.0)));
    scene.set_user_data(a, 9);
    let mut finder = PairFinder::new();
    assert_eq!(call(&mut finder, &scene)[0], [(a, b)]);
    scene.clear();
    assert!(scene.is_empty() && !scene.contains(a) && !scene.contains(b));
    let (c, d) = (scene.push(circle(0.0)), scene.push(circle(1.0)));
    assert!(![a, b].contains(&c) && ![a, b].contains(&d), "{c} {d}");
    assert_eq!((scene.user_data(a), scene.user_data(c)), (None, Some(0)));
    assert_eq!(
        call(&mut finder, &scene),
        [vec![(c, d)], vec![(c, d)], vec![(a, b)]]
    );
}

/// A removed shape's `ended` never names the shape that took its index: over many frames of
/// removals and pushes near a partner, every `ended` pair names ids that were live in the
/// call before, and every `began` pair ids live now.
#[test]
fn events_never_name_a_successor() {
    let mut scene = Scene::new();
    let zone = scene.push_static(Aabb::new(-5.0, -5.0, 5.0, 5.0));
    let mut live: Vec<u32> = (0..8).map(|k| scene.push(circle(k as f32 - 4.0))).collect();
    for k in 0..100 {
        scene.push(circle(100.0 + 3.0 * k as f32));
    }
    let mut finder = PairFinder::new();
    let mut before: Vec<u32> = live.clone();
    call(&mut finder, &scene);
    for frame in 0..200usize {
        let gone = live.remove(frame * 7 % live.len());
        scene.remove(gone);
        live.push(scene.push(circle((frame % 9) as f32 - 4.0)));
        let [pairs, began, ended] = call(&mut finder, &scene);
        assert!(ended.contains(&(zone, gone)), "frame {frame}: {gone} ended");
        for (_, b) in &ended {
            assert!(before.contains(b), "frame {frame}: ended names {b}");
        }
        for (_, b) in began.iter().chain(&pairs) {
            assert!(live.contains(b), "frame {frame}: names {b}");
        }
        before = live.clone();
    }
}

/// Removing a shape moves the scene's last moving shape into its place in storage; when that
/// one also overlaps the removed shape's partner, the partner's candidate at those places is
/// another pair: the old one ends, the one that moved in continues (compared by id). Enough
/// shapes far away that the kept finder follows its lists rather than rebuilding.
#[test]
fn a_shape_moved_into_a_removed_ones_place_keeps_its_own_pairs() {
    for partner_static in [false, true] {
        let mut scene = Scene::new();
        let a = if partner_static {
            scene.push_static(Aabb::new(-2.0, -0.5, 2.0, 0.5))
        } else {
            scene.push(circle(0.0))
        };
        let b = scene.push(circle(1.5));
        for k in 0..100 {
            scene.push(circle(100.0 + 3.0 * k as f32));
        }
        let c = scene.push(circle(-1.5));
        let mut finder = PairFinder::new();
        assert_eq!(
            call(&mut finder, &scene),
            [vec![(a, b), (a, c)], vec![(a, b), (a, c)], vec![]]
        );
        scene.remove(b);
        assert_eq!(
            call(&mut finder, &scene),
            [vec![(a, c)], vec![], vec![(a, b)]],
            "partner static: {partner_static}"
        );
        assert!(!finder.stats().rebuilt);
    }
}

/// A shape removed and another of the same kind pushed at the same spot under another id (a
/// despawned bullet and the next one at the gun): the new shape takes the removed one's
/// storage place inside its enlarged box, and its pairs are new pairs.
#[test]
fn a_new_shape_in_a_removed_ones_place_and_box_begins_its_pairs() {
    let mut scene = Scene::new();
    let partner = scene.push(circle(0.0));
    for k in 0..100 {
        scene.push(circle(100.0 + 3.0 * k as f32));
    }
    let spare = scene.push(circle(-50.0));
    let bullet = scene.push(circle(1.5));
    let mut finder = PairFinder::new();
    call(&mut finder, &scene);
    // The bullet moves into the spare's place; the spare's id is free.
    scene.remove(spare);
    assert_eq!(
        call(&mut finder, &scene),
        [vec![(partner, bullet)], vec![], vec![]]
    );
    scene.remove(bullet);
    let next = scene.push(circle(1.5));
    assert_eq!(next & 0xFF_FFFF, spare, "the smallest free index");
    assert_ne!(next, spare, "under a new generation");
    assert_eq!(
        call(&mut finder, &scene),
        [
            vec![(partner, next)],
            vec![(partner, next)],
            vec![(partner, bullet)]
        ]
    );
    assert!(!finder.stats().rebuilt);
}

#[test]
fn static_shapes_never_pair_with_each_other() {
    let mut scene = Scene::new();
    let walls: Vec<u32> = (0..50)
        .map(|i| scene.push_static(Aabb::new(i as f32, 0.0, i as f32 + 1.5, 1.0)))
        .collect();
    let mut finder = PairFinder::new();
    assert_eq!(call(&mut finder, &scene)[0], []);
    assert_eq!(scene.overlapping_pairs(), []);
    let ball = scene.push(Circle::new(10.2, 1.5, 0.6));
    assert!(scene.is_static(walls[0]) && !scene.is_static(ball));
    let want = vec![(walls[9], ball), (walls[10], ball)];
    assert_eq!(call(&mut finder, &scene)[0], want);
    assert_eq!(scene.overlapping_pairs(), want);
    let contacts = scene.contacts();
    assert_contacts(&scene, &want, &contacts);
    // Moving a static shape re-files it; it keeps its filter and stays static.
    scene.set_filter(walls[40], Filter::new(8, 1));
    scene.set(walls[40], Aabb::new(10.0, 1.9, 11.0, 3.0));
    assert!(scene.is_static(walls[40]));
    assert_eq!(scene.filter(walls[40]), Some(Filter::new(8, 1)));
    let [pairs, began, ended] = call(&mut finder, &scene);
    assert_eq!(
        pairs,
        [(walls[9], ball), (walls[10], ball), (walls[40], ball)]
    );
    assert_eq!((began, ended), (vec![(walls[40], ball)], vec![]));
    // The static border of the other scene pairs with this scene's moving shapes only.
    let mut other = Scene::new();
    let post = other.push_static(Circle::new(10.2, 1.5, 0.1));
    let runner = other.push(Circle::new(5.0, 0.5, 0.2));
    assert_eq!(
        scene.pairs_with(&other),
        [(walls[4], runner), (walls[5], runner), (ball, post)]
    );
    // Removing a static shape ends its pairs.
    scene.remove(walls[9]);
    let [pairs, _, ended] = call(&mut finder, &scene);
    assert_eq!(pairs, [(walls[10], ball), (walls[40], ball)]);
    assert_eq!(ended, [(walls[9], ball)]);
}

#[test]
fn a_filter_change_alone_ends_and_begins_pairs() {
    let mut scene = Scene::new();
    let (a, b) = (scene.push(circle(0.0)), scene.push(circle(1.0)));
    let wall = scene.push_static(Aabb::new(-5.0, -0.5, 5.0, 0.5));
    let mut finder = PairFinder::new();
    let all = vec![(a, b), (a, wall), (b, wall)];
    assert_eq!(
        call(&mut finder, &scene),
        [all.clone(), all.clone(), vec![]]
    );
    scene.set_filter(a, Filter::new(2, 2));
    assert_eq!(
        call(&mut finder, &scene),
        [vec![(b, wall)], vec![], vec![(a, b), (a, wall)]]
    );
    assert_eq!(finder.stats().filtered, 2);
    scene.set_filter(wall, Filter::new(2, 2));
    assert_eq!(
        call(&mut finder, &scene),
        [vec![(a, wall)], vec![(a, wall)], vec![(b, wall)]]
    );
    scene.set_filter(a, Filter::ALL);
    scene.set_filter(wall, Filter::ALL);
    assert_eq!(call(&mut finder, &scene)[1], [(a, b), (b, wall)]);
    // forget() starts a new stream: every pair begins.
    finder.forget();
    assert_eq!(call(&mut finder, &scene), [all.clone(), all, vec![]]);
}

/// A filter no shape uses any more frees its place in the scene's table, and the next new
/// filter takes it: the shapes with the new filter pair by the new filter, and `filter`
/// answers it, for a kept finder and from scratch.
#[test]
fn a_freed_filter_place_holds_the_next_filter() {
    let mut scene = Scene::new();
    let only_two = Filter::new(2, 2);
    let a = scene.push_with(circle(0.0), only_two);
    let b = scene.push(circle(1.5));
    let mut finder = PairFinder::new();
    assert_eq!(call(&mut finder, &scene)[0], []);
    scene.set_filter(a, Filter::ALL);
    let ones = Filter::new(1, 1);
    let c = scene.push_with(circle(3.0), ones);
    assert_eq!(scene.filter(c), Some(ones));
    assert_eq!(scene.filter(a), Some(Filter::ALL));
    assert_eq!(scene.overlapping_pairs(), [(a, b), (b, c)]);
    assert_eq!(call(&mut finder, &scene)[0], [(a, b), (b, c)]);
    // And again with the old filter back on another shape.
    scene.set_filter(c, only_two);
    assert_eq!(scene.filter(c), Some(only_two));
    assert_eq!(scene.overlapping_pairs(), [(a, b)]);
    assert_eq!(
        call(&mut finder, &scene),
        [vec![(a, b)], vec![], vec![(b, c)]]
    );
}

#[test]
fn mask_zero_pairs_with_nothing() {
    let mut scene = Scene::new();
    let hidden = scene.push_with(circle(0.0), Filter::new(1, 0));
    let (a, b) = (scene.push(circle(0.5)), scene.push(circle(-0.5)));
    scene.push_static(Aabb::new(-2.0, -2.0, 2.0, 2.0));
    let mut finder = PairFinder::new();
    let pairs = call(&mut finder, &scene)[0].clone();
    assert!(pairs.iter().all(|&(x, y)| x != hidden && y != hidden));
    assert!(pairs.contains(&(a, b)));
    assert_eq!(finder.stats().filtered, 3);
    // A query with mask 0 finds nothing; a query of layer 1 does not find `hidden`.
    let nothing = Filter::new(1, 0);
    assert_eq!(
        scene.query_point_filtered(Point::new(0.0, 0.0), nothing),
        Vec::<u32>::new()
    );
    let found = scene.query_point_filtered(Point::new(0.0, 0.0), Filter::ALL);
    assert!(!found.contains(&hidden) && found.contains(&a));
    assert!(scene.query_point(Point::new(0.0, 0.0)).contains(&hidden));
}

/// Four layers that ignore each other: every kernel call tests same-layer candidates only,
/// the others are counted as filtered, and the answer is the same-layer part of the
/// unfiltered one.
#[test]
fn layers_keep_other_layers_out_of_the_kernels() {
    let mut g = Gen::new(5);
    let shapes: Vec<Shape> = g.mixed_scene(4000);
    let mut plain = Scene::new();
    let mut layered = Scene::new();
    for (i, s) in shapes.iter().enumerate() {
        plain.push(*s);
        let bit = 1 << (i % 4);
        layered.push_with(*s, Filter::new(bit, bit));
    }
    let (mut f1, mut f2) = (PairFinder::new(), PairFinder::new());
    let (all, some) = (
        call(&mut f1, &plain)[0].clone(),
        call(&mut f2, &layered)[0].clone(),
    );
    let same: Vec<_> = all
        .iter()
        .copied()
        .filter(|&(a, b)| a % 4 == b % 4)
        .collect();
    assert_eq!(some, same);
    let (s1, s2) = (f1.stats(), f2.stats());
    assert_eq!(s1.filtered, 0);
    assert_eq!(s2.candidates + s2.filtered, s1.candidates);
    assert!(s2.candidates * 3 < s1.candidates, "{s1:?} {s2:?}");
    let same_layer = s2.candidates;
    // The kept lists hold only same-layer pairs: a frame in which nothing moved files
    // nothing and filters nothing, and its kernels test the same-layer candidates only.
    let again = call(&mut f2, &layered)[0].clone();
    assert_eq!(again, same);
    let s3 = f2.stats();
    assert_eq!((s3.filtered, s3.escaped, s3.rebuilt), (0, 0, false));
    assert_eq!(s3.candidates, same_layer);
}

#[test]
fn filtered_queries_act_as_a_shape_with_that_filter() {
    let mut g = Gen::new(11);
    let (mut scene, mut model) = (Scene::new(), Model::default());
    for shape in g.mixed_scene(3000) {
        let filter = FILTERS[g.index(FILTERS.len())];
        let e = Entry {
            shape,
            filter,
            fixed: g.index(3) == 0,
            sensor: g.index(6) == 0,
            data: 0,
        };
        assert_eq!(e.push_into(&mut scene), model.push(e));
    }
    let mut hits = 0;
    for k in 0..60 {
        let q = FILTERS[k % FILTERS.len()];
        // What a query with filter `q` may see (a ray: no sensors): the others made invalid.
        let (visible, solid) = (model.visible(Some(q), false), model.visible(Some(q), true));
        let (x, y) = (g.uniform(0.0, 150.0), g.uniform(0.0, 150.0));
        let boxq = Aabb::new(x, y, x + g.uniform(0.0, 20.0), y + g.uniform(0.0, 5.0));
        let want = brute_query(&visible, &Shape::Aabb(boxq));
        assert_eq!(scene.query_aabb_filtered(&boxq, q), want);
        let p = Point::new(x, y);
        assert_eq!(scene.query_point_filtered(p, q), brute_point(&visible, &p));
        let ray = Ray::new(x, y, g.uniform(-1.0, 1.0), g.uniform(-1.0, 1.0), 80.0);
        let want = brute_raycast(&solid, &ray);
        assert_eq!(scene.raycast_filtered(&ray, q), want, "ray {k}");
        let mut finder = PairFinder::new();
        let index = finder.index(&scene);
        assert_eq!(index.raycast_filtered(&ray, q), want);
        let mut ids = Vec::new();
        index.query_aabb_filtered(&boxq, q, &mut ids);
        assert_eq!(ids, brute_query(&visible, &Shape::Aabb(boxq)));
        hits += usize::from(want.is_some()) + ids.len();
        // A shape of any kind (awkward ones included): the pair rule over the visible shapes.
        let probe = shape(&mut g);
        let brute = |visible: &[Shape]| -> Vec<u32> {
            (0..visible.len() as u32)
                .filter(|&i| probe.overlaps(&visible[i as usize]))
                .collect()
        };
        index.query_shape_filtered(&probe, q, &mut ids);
        assert_eq!(ids, brute(&visible), "query_shape({probe:?}, {q:?})");
        hits += ids.len();
        let everyone = model.visible(None, false);
        index.query_shape(&probe, &mut ids);
        assert_eq!(ids, brute(&everyone), "query_shape({probe:?})");
        assert_eq!(scene.query_shape(probe), ids);
        assert_eq!(scene.query_shape_filtered(probe, q), brute(&visible));
        index.query_shape(&Shape::Aabb(boxq), &mut ids);
        let mut boxes = Vec::new();
        index.query_aabb(&boxq, &mut boxes);
        assert_eq!(ids, boxes, "a box as a shape or as a box");
    }
    assert!(hits > 50, "the queries found something: {hits}");
}

#[test]
fn update_calls_f_once_per_live_moving_shape() {
    let mut scene = Scene::new();
    for i in 0..40_000 {
        if i % 3 == 0 {
            scene.push_static(circle(i as f32));
        } else {
            scene.push(circle(i as f32));
        }
    }
    for id in (0..40_000).step_by(7) {
        scene.remove(id);
    }
    let calls = AtomicUsize::new(0);
    let seen: Vec<AtomicUsize> = (0..40_000).map(|_| AtomicUsize::new(0)).collect();
    scene.update(|id, s| {
        calls.fetch_add(1, Relaxed);
        seen[id as usize].fetch_add(1, Relaxed);
        assert_eq!(s, circle(id as f32).into(), "f gets the current shape");
        Circle::new(id as f32, 1.0, 1.0).into()
    });
    for id in 0..40_000u32 {
        let moving = id % 3 != 0 && id % 7 != 0;
        assert_eq!(
            seen[id as usize].load(Relaxed),
            usize::from(moving),
            "calls of {id}"
        );
        let want: Option<Shape> = match (id % 7 == 0, id % 3 == 0) {
            (true, _) => None,
            (false, true) => Some(circle(id as f32).into()),
            (false, false) => Some(Circle::new(id as f32, 1.0, 1.0).into()),
        };
        assert_eq!(scene.get(id), want, "shape {id} after update");
    }
    assert_eq!(calls.load(Relaxed), scene.len() - scene.static_len());
}

#[test]
fn ids_that_are_not_live_answer_none_or_false() {
    let mut scene = Scene::new();
    let a = scene.push(circle(0.0));
    scene.remove(a);
    for id in [a, 1, 7, u32::MAX] {
        assert!(!scene.contains(id) && !scene.is_static(id));
        assert_eq!((scene.get(id), scene.filter(id)), (None, None));
        assert_eq!(scene.remove(id), None);
    }
    assert!(scene.is_empty());
}

#[test]
#[should_panic(expected = "Scene::set: shape id 0 is not in this Scene")]
fn set_on_a_removed_id_panics() {
    let mut scene = Scene::new();
    scene.push(circle(0.0));
    scene.remove(0);
    scene.set(0, circle(1.0));
}

#[test]
#[should_panic(expected = "Scene::set_filter: shape id 4294967295 is not in this Scene")]
fn set_filter_on_an_unknown_id_panics() {
    let mut scene = Scene::new();
    scene.push(circle(0.0));
    scene.set_filter(u32::MAX, Filter::ALL);
}

/// A removal moves another shape into the freed place: polygons, filters and static flags go
/// with their shapes, in both stores.
#[test]
fn removals_keep_every_other_shape_intact() {
    let mut g = Gen::new(3);
    let mut scene = Scene::new();
    let mut model = Model::default();
    for i in 0..9000u32 {
        let s: Shape = if i % 2 == 0 {
            let (x, y) = (g.uniform(0.0, 100.0), g.uniform(0.0, 100.0));
            g.convex(x, y, 1.0).into()
        } else {
            Polygon::regular(5, i as f32, 0.0, 1.0, 0.0).into()
        };
        let e = Entry {
            shape: s,
            filter: FILTERS[i as usize % FILTERS.len()],
            fixed: i % 5 == 0,
            sensor: false,
            data: 0,
        };
        assert_eq!(e.push_into(&mut scene), model.push(e));
    }
    for _ in 0..6000 {
        let id = g.index(9000) as u32;
        assert_eq!(
            scene.remove(id),
            model.entries[id as usize].take().map(|e| e.shape)
        );
    }
    for (id, e) in model.entries.iter().enumerate() {
        let id = id as u32;
        assert_eq!(scene.get(id), e.map(|e| e.shape));
        assert_eq!(scene.filter(id), e.map(|e| e.filter));
        assert_eq!(scene.is_static(id), e.is_some_and(|e| e.fixed));
    }
    let mut finder = PairFinder::new();
    assert_eq!(call(&mut finder, &scene)[0], model.pairs());
}

/// `pairs_with` applies both scenes' filters (each from its own scene's table) and never pairs
/// two static shapes, whichever scene they are in; against brute force by the reference.
#[test]
fn pairs_with_applies_filters_and_statics_of_both_scenes() {
    let mut g = Gen::new(23);
    let (mut a, mut b) = (Scene::new(), Scene::new());
    let (mut ea, mut eb) = (Model::default(), Model::default());
    for (scene, model) in [(&mut a, &mut ea), (&mut b, &mut eb)] {
        for _ in 0..1500 {
            let e = Entry {
                shape: shape(&mut g),
                filter: FILTERS[g.index(FILTERS.len())],
                fixed: g.index(3) == 0,
                sensor: false,
                data: 0,
            };
            assert_eq!(e.push_into(scene), model.push(e));
        }
        // Some removed, so that ids have holes.
        for _ in 0..200 {
            let id = g.index(1500) as u32;
            scene.remove(id);
            model.entries[id as usize] = None;
        }
    }
    let mut want = Vec::new();
    for (i, x) in ea.entries.iter().enumerate() {
        for (j, y) in eb.entries.iter().enumerate() {
            let (Some(x), Some(y)) = (x, y) else { continue };
            if !(x.fixed && y.fixed)
                && x.filter.pairs_with(y.filter)
                && x.shape.check().is_ok()
                && y.shape.check().is_ok()
                && super::scene::overlap(&x.shape, &y.shape)
            {
                want.push((i as u32, j as u32));
            }
        }
    }
    assert!(want.len() > 100, "{}", want.len());
    assert_eq!(a.pairs_with(&b), want);
}

/// A moving shape leaves a static shape behind while another comes to a second static shape
/// in the same frame: the neighbour copy the first gives up may be the one the second takes,
/// and the pair that ended is still named by the static shape it was with (either shape first by
/// id and by where it goes).
#[test]
fn a_pair_that_ends_keeps_its_static_shape_while_another_begins() {
    for (swap, away) in [
        (false, 250.0),
        (true, 250.0),
        (false, -250.0),
        (true, -250.0),
    ] {
        let mut scene = Scene::new();
        let walls = [0.0, 100.0, 200.0].map(|x| scene.push_static(circle(x)));
        let (start, goal) = if swap { (300.0, 0.0) } else { (0.0, 300.0) };
        let a = scene.push(circle(start));
        let b = scene.push(circle(goal));
        let leaver = if swap { b } else { a };
        // Shapes that stay, so that two that move (and jump) are few enough to be followed,
        // neither rebuilding nor searching from scratch.
        for k in 0..60 {
            scene.push(Circle::new(k as f32 * 10.0, 1000.0, 1.0));
        }
        let mut finder = PairFinder::new();
        let [pairs, began, _] = call(&mut finder, &scene);
        assert_eq!(
            (pairs, began),
            (vec![(walls[0], leaver)], vec![(walls[0], leaver)])
        );
        // A quiet frame, so that the next one merges.
        let [pairs, ..] = call(&mut finder, &scene);
        assert_eq!(pairs, vec![(walls[0], leaver)]);
        let comer = if swap { a } else { b };
        scene.set(leaver, circle(away));
        scene.set(comer, circle(100.0));
        let want = vec![(walls[1], comer)];
        assert_eq!(
            call(&mut finder, &scene),
            [want.clone(), want, vec![(walls[0], leaver)]],
            "swap {swap}, away {away}"
        );
        assert!(finder.stats().merged, "the frame merged its answer");
    }
}

/// Moving shape `id` of [`travellers_cross_a_static_field`] at `frame`: circles and boxes
/// crossing a field of static tiles in straight lines, wrapping around, each at its own
/// speed and heading.
fn traveller(id: u32, frame: u32) -> Shape {
    let h = |k: u64| unit_hash(u64::from(id), k);
    let side = 64.0;
    let (vx, vy) = (0.2 * (h(1) - 0.5), 0.2 * (h(2) - 0.5));
    let t = frame as f32;
    let x = (h(3) * side + vx * t).rem_euclid(side);
    let y = (h(4) * side + vy * t).rem_euclid(side);
    let r = 0.4 + 0.8 * h(5);
    if id.is_multiple_of(2) {
        Circle::new(x, y, r).into()
    } else {
        Aabb::from_center(x, y, r, 0.5 * r).into()
    }
}

/// Moving shapes that keep crossing a field of static tiles (boxes and hexagons), always as
/// many of them and nothing else changed: their neighbourhoods of static shapes are given up
/// and taken anew frame after frame, so the kept finder's copies of static shapes reuse their
/// slots for other shapes while its moving records stay where they are. Every frame's answer
/// and events equal the model's, on one, two and three threads.
#[test]
fn travellers_cross_a_static_field() {
    on_thread_counts(travellers_run);
}

/// One run of [`travellers_cross_a_static_field`]: every frame's answer.
fn travellers_run() -> Vec<Vec<(u32, u32)>> {
    let (mut scene, mut model) = (Scene::new(), Model::default());
    let mut g = Gen::new(23);
    for k in 0..1200 {
        let (x, y) = (g.uniform(0.0, 64.0), g.uniform(0.0, 64.0));
        let shape: Shape = if k % 2 == 0 {
            Aabb::from_center(x, y, g.uniform(0.3, 0.9), g.uniform(0.3, 0.9)).into()
        } else {
            Polygon::regular(6, x, y, g.uniform(0.3, 0.9), g.uniform(0.0, 1.0)).into()
        };
        let e = Entry {
            shape,
            filter: Filter::ALL,
            fixed: true,
            sensor: false,
            data: 0,
        };
        assert_eq!(e.push_into(&mut scene), model.push(e));
    }
    for _ in 0..60 {
        let id = model.entries.len() as u32;
        let e = Entry {
            shape: traveller(id, 0),
            filter: Filter::ALL,
            fixed: false,
            sensor: false,
            data: 0,
        };
        assert_eq!(e.push_into(&mut scene), model.push(e));
    }
    let (mut finder, mut pairs, mut previous) = (PairFinder::new(), Vec::new(), Vec::new());
    let mut answers = Vec::new();
    let (mut merged, mut escaped, mut halfway) = (0, 0, 0);
    for frame in 1..=300 {
        scene.update(|id, _| traveller(id, frame));
        for (id, e) in model.entries.iter_mut().enumerate() {
            if let Some(e) = e.as_mut().filter(|e| !e.fixed) {
                e.shape = traveller(id as u32, frame);
            }
        }
        finder.overlapping_pairs(&scene, &mut pairs);
        let want = model.pairs();
        assert_eq!(pairs, want, "frame {frame}");
        let (began, ended) = events(&previous, &want);
        assert_eq!((finder.began(), finder.ended()), (&began[..], &ended[..]));
        merged += usize::from(finder.stats().merged);
        escaped += finder.stats().escaped;
        if frame == 150 {
            halfway = finder.stats().static_copies;
        }
        previous = want.clone();
        answers.push(want);
    }
    // Kept frames that followed the travellers (not rebuilds): most frames.
    assert!(
        merged > 150 && escaped > 200,
        "{merged} merged, {escaped} escaped"
    );
    // The travellers stay spread over the field, so the static shapes near them are as many
    // in the second half as in the first: the copies' places, freed ones reused, grow little
    // (without the reuse they grew by 60 % here).
    let copies = finder.stats().static_copies;
    assert!(
        halfway > 100 && copies <= halfway + halfway / 4,
        "static copies: {halfway} at frame 150, {copies} at frame 300"
    );
    answers
}

/// `Scene::reorder` changes nothing a user sees: on a scene of every kind (statics, filters,
/// removed ids, NaN shapes), every answer after it equals the one before, bit for bit, and a
/// kept finder reports no pair as began or ended across it.
#[test]
fn reorder_changes_no_answer() {
    let mut g = Gen::new(23);
    let mut scene = Scene::new();
    for (k, s) in g.mixed_scene(6000).into_iter().enumerate() {
        let f = FILTERS[k % FILTERS.len()];
        match k % 7 {
            0 => scene.push_static_with(s, f),
            1 => scene.push(Circle::new(f32::NAN, 1.0, 1.0)),
            _ => scene.push_with(s, f),
        };
    }
    for id in (0..6000).step_by(13) {
        scene.remove(id);
    }
    for k in 0..300 {
        let (x, y) = (g.uniform(0.0, 150.0), g.uniform(0.0, 150.0));
        scene.push(Polygon::regular(3 + k % 6, x, y, g.uniform(0.5, 1.5), 0.2));
    }
    let bullets: Scene = g.mixed_scene(500).into_iter().collect();
    let mut finder = PairFinder::new();
    let answers = |scene: &Scene, finder: &mut PairFinder| {
        let mut kept = Vec::new();
        finder.overlapping_pairs(scene, &mut kept);
        let contact_bits = |c: Vec<(u32, u32, widephase::Contact)>| -> Vec<_> {
            c.into_iter()
                .map(|(a, b, c)| (a, b, c.normal.map(f32::to_bits), c.depth.to_bits()))
                .collect()
        };
        let shapes: Vec<_> = scene
            .iter()
            .map(|(id, s)| (id, super::scene::shape_bits(&s)))
            .collect();
        let mut queries = Vec::new();
        for k in 0..40 {
            let (x, y) = (k as f32 * 3.7, 150.0 - k as f32 * 3.1);
            let q = FILTERS[k % FILTERS.len()];
            let ray = Ray::new(x, y, 1.0, -0.4, 90.0);
            queries.push(format!(
                "{:?} {:?} {:?} {:?}",
                scene
                    .raycast_filtered(&ray, q)
                    .map(|(id, t)| (id, t.to_bits())),
                scene.query_aabb_filtered(&Aabb::new(x, y, x + 9.0, y + 4.0), q),
                scene.query_point(Point::new(x, y)),
                finder
                    .index(scene)
                    .raycast(&ray)
                    .map(|(id, t)| (id, t.to_bits())),
            ));
        }
        (
            kept,
            scene.overlapping_pairs(),
            contact_bits(scene.contacts()),
            format!("{:?}", scene.manifolds()),
            bullets.pairs_with(scene),
            shapes,
            queries,
        )
    };
    let before = answers(&scene, &mut finder);
    assert!(!before.0.is_empty() && !before.4.is_empty());
    scene.reorder();
    let after = answers(&scene, &mut finder);
    assert!(finder.began().is_empty() && finder.ended().is_empty());
    assert!(before == after, "an answer changed across reorder");
}

/// `finder`'s answer for `scene`, checked: the scene's own answer, and began/ended the
/// differences from `last` (the answer of the call before, whichever scene it was for).
fn checked_call(
    finder: &mut PairFinder,
    scene: &Scene,
    last: &[(u32, u32)],
    what: &str,
) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    finder.overlapping_pairs(scene, &mut out);
    let want = scene.overlapping_pairs();
    assert_eq!(out, want, "{what}");
    let (began, ended) = events(last, &want);
    assert_eq!(
        (finder.began(), finder.ended()),
        (&began[..], &ended[..]),
        "{what}"
    );
    want
}

/// One finder called on two scenes in turn (a clone of one that then diverges: moves,
/// removals, pushes, refilters, static shapes, reorders), and a second finder on one of them
/// with an enormous margin: every call's answer is that scene's, its events the difference
/// from the answer before it (whichever scene that was), contacts and manifolds the same
/// pairs. A finder holds nothing that a scene it did not see last could contradict.
#[test]
fn a_finder_switching_between_scenes_stays_exact() {
    for (margin, share) in [(0.0, 1.0), (0.3, 0.25)] {
        on_thread_counts(|| switching_run(margin, share));
    }
}

fn switching_run(margin: f32, share: f32) -> Vec<Vec<(u32, u32)>> {
    let mut g = Gen::new(99);
    let mut a = Scene::new();
    for k in 0..800 {
        if k % 5 == 0 {
            a.push_static(bounded(&mut g));
        } else {
            a.push(bounded(&mut g));
        }
    }
    let mut b = a.clone();
    let mut f = PairFinder::new()
        .with_margin(margin)
        .with_rebuild_threshold(share);
    let mut wide = PairFinder::new()
        .with_margin(1e6)
        .with_rebuild_threshold(0.0);
    let (mut last, mut answers) = (Vec::new(), Vec::new());
    for frame in 0..60u32 {
        let s = if frame % 3 == 0 { &mut a } else { &mut b };
        s.update(|id, sh| step(id, frame, sh));
        for _ in 0..3 {
            let id = g.index(900) as u32;
            match g.index(6) {
                0 => drop(s.remove(id)),
                1 => drop(s.push(bounded(&mut g))),
                2 => drop(s.push_static(bounded(&mut g))),
                3 if s.contains(id) => s.set_filter(id, FILTERS[g.index(FILTERS.len())]),
                4 if s.contains(id) => s.set(id, bounded(&mut g)),
                5 if frame % 17 == 0 => s.reorder(),
                _ => {}
            }
        }
        let s: &Scene = if frame % 2 == 0 { &a } else { &b };
        let want = checked_call(&mut f, s, &last, &format!("frame {frame}"));
        let mut on_a = Vec::new();
        wide.overlapping_pairs(&a, &mut on_a);
        assert_eq!(on_a, a.overlapping_pairs(), "frame {frame}");
        let mut contacts = Vec::new();
        f.contacts(s, &mut contacts);
        assert!(contacts.iter().map(|c| (c.0, c.1)).eq(want.iter().copied()));
        let mut manifolds = Vec::new();
        f.manifolds(s, &mut manifolds);
        assert!(
            manifolds
                .iter()
                .map(|m| (m.0, m.1))
                .eq(want.iter().copied())
        );
        assert!(
            f.began().is_empty() && f.ended().is_empty(),
            "frame {frame}"
        );
        answers.push(want.clone());
        last = want;
    }
    answers
}

/// A dense cluster (shapes of every kind in a 12 × 12 square, some static, filters) beside
/// far shapes that keep the finder following its lists: removals move other shapes into the
/// removed ones' storage places next to the same partners, pushes, kind and filter changes,
/// every frame. Each answer and its began/ended equal the scene's own answer and the
/// difference from the last, on one, two and three threads.
#[test]
fn a_dense_cluster_is_followed_exactly() {
    on_thread_counts(|| (0..3).map(dense_run).collect::<Vec<_>>());
}

/// A shape of the dense cluster.
fn dense(g: &mut Gen) -> Shape {
    let (x, y) = (g.uniform(0.0, 12.0), g.uniform(0.0, 12.0));
    match g.index(5) {
        0 => Circle::new(x, y, g.uniform(0.3, 1.0)).into(),
        1 => Aabb::from_center(x, y, g.uniform(0.3, 1.0), g.uniform(0.3, 1.0)).into(),
        2 => Obb::new(x, y, 0.8, 0.4, g.uniform(-3.0, 3.0)).into(),
        3 => g.convex(x, y, 0.8).into(),
        _ => Capsule::new(x, y, x + 1.0, y, 0.3).into(),
    }
}

fn dense_run(seed: u64) -> Vec<Vec<(u32, u32)>> {
    let mut g = Gen::new(1000 + seed);
    let mut scene = Scene::new();
    // The far shapes first, so that a removal moves a shape of the cluster into its place.
    for k in 0..800 {
        let (x, y) = ((k % 40) as f32, (k / 40) as f32);
        scene.push(Circle::new(100.0 + 3.0 * x, 100.0 + 3.0 * y, 0.5));
    }
    for _ in 0..20 {
        scene.push_static(dense(&mut g));
    }
    for _ in 0..150 {
        scene.push(dense(&mut g));
    }
    let mut finder = PairFinder::new();
    let (mut last, mut answers) = (Vec::new(), Vec::new());
    let mut kept = 0;
    for frame in 0..80u32 {
        scene.update(|id, s| {
            if id % 3 != 0 {
                moved(s, id, frame, 0.15, 12.0)
            } else {
                s
            }
        });
        for _ in 0..4 {
            let id = 800 + g.index(scene.len() - 795) as u32;
            match g.index(7) {
                0 | 1 => drop(scene.remove(id)),
                2 => drop(scene.push(dense(&mut g))),
                3 if scene.contains(id) => scene.set_filter(id, FILTERS[g.index(FILTERS.len())]),
                4 if scene.contains(id) && !scene.is_static(id) => scene.set(id, dense(&mut g)),
                5 => drop(scene.push_with(dense(&mut g), FILTERS[g.index(FILTERS.len())])),
                _ => {}
            }
        }
        let want = checked_call(
            &mut finder,
            &scene,
            &last,
            &format!("seed {seed} frame {frame}"),
        );
        kept += usize::from(!finder.stats().rebuilt);
        answers.push(want.clone());
        last = want;
    }
    assert!(
        kept > 40,
        "most frames keep the finder's state: {kept} of 80"
    );
    answers
}

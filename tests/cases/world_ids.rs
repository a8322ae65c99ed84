//! The Scene's ids: a removed shape's id never comes back, its pairs end, and the shape that
//! takes its storage place (or its place in the grid) begins its own; `update` and `set` on
//! ids that are not live.

use super::world::{call, circle};
use crate::support::model::{Entry, FILTERS, Model};
use crate::support::shapes::Gen;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use widephase::{Aabb, Circle, Filter, PairFinder, Point, Polygon, Ray, Scene, Shape};

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

/// A kept finder whose escapers made it rebuild twice in a row counts the jumps on a sample
/// before its next escape check; that call, with the store's last shapes removed, then has
/// the grid edited for a few escapers (a finder with no kept stamps of this store checks
/// every slot). The removed shapes' grid places must go, though the sample read no box of
/// theirs: left there, the next shapes pushed into those slots were in the grid twice, and
/// their pairs in the answer twice (the world fuzz, one finder handed two scenes in turn).
#[test]
fn shapes_removed_after_a_sampled_call_leave_the_grid() {
    // 640 circles two apart, of radius 0.5 but the last three, 1.2, which overlap each other:
    // each moves its own size a frame (escaping its enlarged box, three tenths of its size
    // beyond it, but not jumping: the boxes overlap).
    let at = |k: usize, dx: f32| {
        let r = if k >= 637 { 1.2 } else { 0.5 };
        Circle::new((k % 32) as f32 * 2.0 + dx, (k / 32) as f32 * 2.0, r)
    };
    for threads in [1, 2, 4] {
        crate::support::threads::in_pool(threads, || {
            let mut scene = Scene::new();
            let ids: Vec<u32> = (0..640).map(|k| scene.push(at(k, 0.0))).collect();
            let mut finder = PairFinder::new().with_rebuild_threshold(0.05);
            let mut pairs = Vec::new();
            let mut check = |finder: &mut PairFinder, scene: &Scene, what: &str| {
                finder.overlapping_pairs(scene, &mut pairs);
                let mut want = Vec::new();
                PairFinder::new().overlapping_pairs_from_scratch(scene, &mut want);
                assert_eq!(pairs, want, "{what}, {threads} threads");
            };
            // Built, then quiet calls beyond a rebuild's short life.
            for _ in 0..4 {
                check(&mut finder, &scene, "at rest");
            }
            // Two calls in a row in which every shape escaped: each rebuilt.
            for (frame, dx) in [(0, 0.6), (1, 1.2)] {
                for (k, &id) in ids.iter().enumerate() {
                    scene.set(id, at(k, dx));
                }
                check(&mut finder, &scene, &format!("escaping {frame}"));
                assert!(finder.stats().rebuilt, "escaping {frame} rebuilt");
            }
            // The last three removed, one shape moved to its neighbour: a clone, so that the
            // finder checks every slot.
            let mut fewer = scene.clone();
            for &id in &ids[637..] {
                fewer.remove(id);
            }
            fewer.set(ids[100], at(101, 1.2));
            check(&mut finder, &fewer, "three removed");
            assert!(!finder.stats().rebuilt, "the removal followed, not rebuilt");
            // The three pushed again where they were, into the slots they had: each pair
            // of them was found through both their places in the grid.
            for k in 637..640 {
                fewer.push(at(k, 1.2));
            }
            check(&mut finder, &fewer, "three pushed");
            assert!(!finder.stats().rebuilt, "the pushes followed, not rebuilt");
        });
    }
}

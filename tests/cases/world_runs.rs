//! Longer runs of a kept finder against an independent answer: travellers crossing a static
//! field, the storage reordered, a finder switching between scenes, a dense cluster.

use super::world::{bounded, events, on_thread_counts, step};
use crate::support::model::{Entry, FILTERS, Model};
use crate::support::shapes::{Gen, moved, unit_hash};
use widephase::{
    Aabb, Capsule, Circle, Filter, Obb, PairFinder, Point, Polygon, Ray, Scene, Shape,
};

/// The numbers of shape `id`: `h(k)` in `[0, 1)` for `k` below 8, independent of one another
/// and of other shapes' (`unit_hash` of one first argument by consecutive second ones lies on
/// a few lines: coordinates drawn so would put the shapes on a few diagonals).
pub(super) fn numbers_of(id: u32) -> impl Fn(u64) -> f32 {
    move |k| unit_hash(8 * u64::from(id) + k, 1)
}

/// Moving shape `id` of [`travellers_cross_a_static_field`] at `frame`: circles and boxes
/// crossing a field of static tiles in straight lines, wrapping around, each at its own
/// speed and heading.
fn traveller(id: u32, frame: u32) -> Shape {
    traveller_in(64.0, 0.2, id, frame)
}

/// [`traveller`] over a field of side `side`, up to `speed / 2` a frame along each axis.
fn traveller_in(side: f32, speed: f32, id: u32, frame: u32) -> Shape {
    let h = numbers_of(id);
    let (vx, vy) = (speed * (h(1) - 0.5), speed * (h(2) - 0.5));
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
/// and events equal the model's, on every count of `THREAD_COUNTS`.
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

/// A crowd of 4 000 travellers, fast enough that hundreds leave their enlarged boxes a frame
/// and the finder rebuilds now and then, crossing 4 000 static tiles: their static candidates
/// are found, the neighbourhoods' users counted and the neighbourhoods kept on rayon's threads
/// (after a rebuild all 4 000 at once). Every frame's answer and
/// events equal a search from scratch's, and the same on every count of `THREAD_COUNTS`.
#[test]
fn a_crowd_crossing_a_static_field_is_followed_on_every_thread() {
    on_thread_counts(crowd_run);
}

/// Traveller `id` of [`a_crowd_crossing_a_static_field_is_followed_on_every_thread`] at
/// `frame`: as [`traveller`], over a field of side 200, up to 0.185 a frame along each axis.
fn crowd_traveller(id: u32, frame: u32) -> Shape {
    traveller_in(200.0, 0.37, id, frame)
}

/// One run of [`a_crowd_crossing_a_static_field_is_followed_on_every_thread`]: every frame's
/// answer.
fn crowd_run() -> Vec<Vec<(u32, u32)>> {
    let mut scene = Scene::new();
    let mut g = Gen::new(29);
    for k in 0..4000 {
        let (x, y) = (g.uniform(0.0, 200.0), g.uniform(0.0, 200.0));
        if k % 2 == 0 {
            scene.push_static(Aabb::from_center(
                x,
                y,
                g.uniform(0.3, 0.9),
                g.uniform(0.3, 0.9),
            ));
        } else {
            scene.push_static(Polygon::regular(6, x, y, g.uniform(0.3, 0.9), 0.3));
        }
    }
    let first = scene.len() as u32;
    for id in first..first + 4000 {
        scene.push(crowd_traveller(id, 0));
    }
    let (mut kept, mut fresh) = (PairFinder::new(), PairFinder::new());
    let (mut answers, mut busy, mut rebuilt) = (Vec::new(), 0, 0);
    for frame in 1..=40 {
        scene.update(|id, _| crowd_traveller(id, frame));
        against_scratch(&scene, [&mut kept, &mut fresh], &mut answers);
        let stats = kept.stats();
        rebuilt += usize::from(stats.rebuilt);
        busy += usize::from(!stats.rebuilt && stats.escaped >= 256);
    }
    // Frames that followed hundreds of escapers (their static candidates in tasks of 64 and
    // more), and rebuilds, which give all 4 000 travellers neighbourhoods at once.
    assert!(
        busy >= 20 && rebuilt >= 3,
        "{busy} kept frames with 256 escapers or more, {rebuilt} rebuilt"
    );
    answers
}

/// 12 k moving polygons (three to eight vertices, turning) among 6 k capsules: a kept finder
/// copies the polygons' vertices in its index order every call, on rayon's threads from 4 k.
/// Some polygons become circles for ten frames and polygons again, and 300 shapes are
/// removed and as many pushed halfway. Every frame's answer and events equal a search
/// from scratch's, and the same on every count of `THREAD_COUNTS`.
#[test]
fn moving_polygons_are_followed_on_every_thread() {
    on_thread_counts(|| {
        let mut scene = Scene::new();
        for id in 0..18_000 {
            assert_eq!(scene.push(polygon_traveller(id, 0)), id);
        }
        let change = |scene: &mut Scene, frame| {
            if frame == 15 {
                for id in (0..18_000).step_by(60) {
                    assert!(scene.remove(id).is_some());
                    scene.push(polygon_traveller(id + 18_000, frame));
                }
            }
        };
        let kept = PairFinder::new();
        let (answers, followed) = followed_run(&mut scene, kept, 1..=30, change, polygon_traveller);
        assert!(followed >= 15, "{followed} frames followed escapers");
        answers
    });
}

/// Shape `id` of [`moving_polygons_are_followed_on_every_thread`] at `frame`: two in three a
/// regular polygon of its own vertex count, size and turn (every 97th a circle in frames 10 to
/// 19), the others capsules; each moving up to 0.15 a frame along each axis over a field of
/// side 300, wrapping around.
fn polygon_traveller(id: u32, frame: u32) -> Shape {
    let h = numbers_of(id);
    let t = frame as f32;
    let x = (h(3) * 300.0 + 0.3 * (h(1) - 0.5) * t).rem_euclid(300.0);
    let y = (h(4) * 300.0 + 0.3 * (h(2) - 0.5) * t).rem_euclid(300.0);
    let r = 0.4 + 0.6 * h(5);
    if id % 3 == 2 {
        return Capsule::new(x - r, y, x + r, y, 0.3 * r).into();
    }
    if id.is_multiple_of(97) && (10..20).contains(&frame) {
        return Circle::new(x, y, r).into();
    }
    let vertices = 3 + (id as usize / 3) % 6;
    Polygon::regular(vertices, x, y, r, h(6) * 6.3 + 0.02 * t).into()
}

/// 10 k circles over a floor of 20 k static tiles: the first call, and a call after a tile
/// changed (every static shape filed anew), make thousands of tiles neighbours at once, their
/// slots given and their copies made on rayon's threads. Each frame's answer and events equal
/// a search from scratch's, and the same on every count of `THREAD_COUNTS`.
#[test]
fn thousands_of_new_neighbours_at_once_are_settled_alike_on_every_thread() {
    on_thread_counts(|| {
        let mut scene = Scene::new();
        for k in 0..20_000 {
            let (x, y) = ((k % 200) as f32 * 0.7, (k / 200) as f32 * 0.7);
            scene.push_static(Aabb::new(x, y, x + 0.5, y + 0.5));
        }
        let mut g = Gen::new(31);
        for _ in 0..10_000 {
            let (x, y) = (g.uniform(0.0, 140.0), g.uniform(0.0, 70.0));
            scene.push(Circle::new(x, y, g.uniform(0.4, 0.9)));
        }
        let (mut kept, mut fresh) = (PairFinder::new(), PairFinder::new());
        let mut answers = Vec::new();
        for frame in 0..8u32 {
            if frame == 4 {
                scene.set(7, Aabb::new(4.9, 0.0, 5.4, 0.5));
            }
            let d = 0.05 * frame as f32;
            scene.update(|_, s| match s {
                Shape::Circle(c) => Circle::new(c.x + d, c.y + 0.5 * d, c.radius).into(),
                other => other,
            });
            against_scratch(&scene, [&mut kept, &mut fresh], &mut answers);
            if frame == 0 || frame == 4 {
                let copies = kept.stats().static_copies;
                assert!(copies >= 8192, "frame {frame}: {copies} static copies");
            }
        }
        answers
    });
}

/// One frame of a kept finder checked against a search from scratch: the same answer, and
/// the events that lead to it from the last answer in `answers`, to which it is added.
pub(super) fn against_scratch(
    scene: &Scene,
    [kept, fresh]: [&mut PairFinder; 2],
    answers: &mut Vec<Vec<(u32, u32)>>,
) {
    let (mut pairs, mut want) = (Vec::new(), Vec::new());
    kept.overlapping_pairs(scene, &mut pairs);
    fresh.overlapping_pairs_from_scratch(scene, &mut want);
    let frame = answers.len();
    assert_eq!(pairs, want, "frame {frame}");
    let (began, ended) = events(answers.last().map_or(&[][..], |a| &a[..]), &want);
    assert_eq!(
        (kept.began(), kept.ended()),
        (&began[..], &ended[..]),
        "frame {frame}"
    );
    answers.push(want);
}

/// Frames `frames` of a run: `change(scene, frame)` (pushes, removals), then every moving shape
/// `shape(id, frame)`; each frame's answer and events from `kept` equal a search from
/// scratch's ([`against_scratch`]). Every answer, and in how many frames the kept finder
/// followed escapers (it neither rebuilt nor found none).
pub(super) fn followed_run(
    scene: &mut Scene,
    mut kept: PairFinder,
    frames: core::ops::RangeInclusive<u32>,
    mut change: impl FnMut(&mut Scene, u32),
    shape: impl Fn(u32, u32) -> Shape + Sync,
) -> (Vec<Vec<(u32, u32)>>, usize) {
    let (mut fresh, mut answers, mut followed) = (PairFinder::new(), Vec::new(), 0);
    for frame in frames {
        change(scene, frame);
        scene.update(|id, _| shape(id, frame));
        against_scratch(scene, [&mut kept, &mut fresh], &mut answers);
        let stats = kept.stats();
        followed += usize::from(!stats.rebuilt && stats.escaped > 0);
    }
    (answers, followed)
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
/// difference from the last, on every count of `THREAD_COUNTS`.
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

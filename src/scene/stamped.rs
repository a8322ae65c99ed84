//! Tests: which of a scene's changes stamp which moving slots (see `stamps.rs`).

use super::Filter;
use super::stamps::{Seen, changed};
use super::store::Scene;
use crate::shape::{Aabb, Capsule, Circle, Obb, Polygon, Shape};

/// The moving slots stamped since `seen`, ascending.
fn stamped(scene: &Scene, seen: Seen) -> Vec<usize> {
    let since = seen.since(&scene.moving.stamps).expect("the same store");
    let stamps = scene.moving.stamps.of.iter().enumerate();
    stamps
        .filter(|&(_, &s)| changed(s, since))
        .map(|(slot, _)| slot)
        .collect()
}

/// Five circles (ids and slots 0 to 4, the one at 3 a NaN circle), a pentagon (5) and a
/// static box.
fn scene() -> Scene {
    let mut scene = Scene::new();
    for i in 0..5 {
        let y = if i == 3 { f32::NAN } else { 0.0 };
        scene.push(Circle::new(i as f32, y, 0.4));
    }
    scene.push(Polygon::regular(5, 9.0, 0.0, 1.0, 0.0));
    scene.push_static(Aabb::new(0.0, -2.0, 9.0, -1.0));
    scene
}

#[test]
fn an_update_stamps_the_slots_whose_shapes_it_changes() {
    let mut scene = scene();
    let seen = Seen::of(&scene.moving.stamps);
    // The same shapes, the NaN circle and the pentagon too, bit for bit.
    scene.update(|_, s| s);
    assert_eq!(stamped(&scene, seen), []);
    // The pentagon moved: a polygon that stays a polygon keeps its record (its handle), and
    // is stamped all the same.
    let seen = Seen::of(&scene.moving.stamps);
    scene.update(|id, s| if id == 5 { s.translated(3.0, 0.0) } else { s });
    assert_eq!(stamped(&scene, seen), [5]);
    // Its box moved with it (from 8.19).
    assert!(
        scene.moving.boxes[5][0] > 11.0,
        "{:?}",
        scene.moving.boxes[5]
    );
    // Its last vertex alone moved by the least amount.
    let seen = Seen::of(&scene.moving.stamps);
    scene.update(|id, s| match (id, s) {
        (5, Shape::Polygon(mut p)) => {
            // The slots past the last vertex repeat it.
            let last = p.vertex_count() - 1;
            for x in &mut p.xs[last..] {
                *x = x.next_up();
            }
            p.into()
        }
        (_, s) => s,
    });
    assert_eq!(stamped(&scene, seen), [5]);
    let seen = Seen::of(&scene.moving.stamps);
    scene.update(|id, s| match id {
        1 => Circle::new(1.0, 1e-6, 0.4).into(),
        4 => Circle::new(4.0, -0.0, 0.4).into(),
        5 => Circle::new(9.0, 0.0, 1.0).into(),
        _ => s,
    });
    // A move by the least amount, 0 turned into -0 (equal as numbers, not as bits), and the
    // polygon turned into a circle.
    assert_eq!(stamped(&scene, seen), [1, 4, 5]);
    let seen = Seen::of(&scene.moving.stamps);
    scene.update(|id, s| {
        if id == 5 {
            Polygon::regular(5, 9.0, 0.0, 1.0, 0.0).into()
        } else {
            s
        }
    });
    assert_eq!(stamped(&scene, seen), [5]);
}

/// `update` leaves a shape returned bit for bit as it is without making its record again: a
/// change of any one field, or of the kind alone (the same field bits), still reaches the
/// record, the box and the stamps.
#[test]
fn an_update_sees_a_change_of_the_last_field_or_of_the_kind_alone() {
    let shapes: [Shape; 4] = [
        Circle::new(1.0, 2.0, 3.0).into(),
        Aabb::new(1.0, 2.0, 3.0, 4.0).into(),
        Obb::from_rotation(1.0, 2.0, 3.0, 4.0, 0.6, 0.8).into(),
        Capsule::new(1.0, 2.0, 3.0, 4.0, 0.5).into(),
    ];
    let changed: [[Shape; 4]; 2] = [
        [
            Circle::new(1.0, 2.0, 3.5).into(),
            Aabb::new(1.0, 2.0, 3.0, 4.5).into(),
            Obb::from_rotation(1.0, 2.0, 3.0, 4.0, 0.6, -0.8).into(),
            Capsule::new(1.0, 2.0, 3.0, 4.0, 0.25).into(),
        ],
        // Each kind's fields read as another kind's: a record's fields beyond a kind's are 0.
        [
            Aabb::new(1.0, 2.0, 3.0, 0.0).into(),
            Capsule::new(1.0, 2.0, 3.0, 4.0, 0.0).into(),
            Obb::from_rotation(1.0, 2.0, 3.0, 4.0, 0.6, 0.8).into(),
            Aabb::new(1.0, 2.0, 3.0, 4.0).into(),
        ],
    ];
    for (case, new) in changed.into_iter().enumerate() {
        let mut scene: Scene = shapes.into_iter().collect();
        let seen = Seen::of(&scene.moving.stamps);
        scene.update(|id, s| {
            if case == 1 && id == 2 {
                s
            } else {
                new[id as usize]
            }
        });
        for (id, want) in new.into_iter().enumerate() {
            assert_eq!(scene.get(id as u32), Some(want), "case {case}, shape {id}");
        }
        // The boxes and records those of the new shapes pushed anew, bit for bit.
        let fresh: Scene = new.into_iter().collect();
        let bits = |b: &[f32; 4]| b.map(f32::to_bits);
        for k in 0..4 {
            assert_eq!(bits(&scene.moving.boxes[k]), bits(&fresh.moving.boxes[k]));
            assert!(scene.moving.records[k].same(&fresh.moving.records[k]));
        }
        let stamps = if case == 0 {
            vec![0, 1, 2, 3]
        } else {
            vec![0, 1, 3]
        };
        assert_eq!(stamped(&scene, seen), stamps, "case {case}");
    }
}

/// A polygon returned with one vertex other than its first moved gets its new vertices and
/// box; one returned bit for bit keeps them.
#[test]
fn an_update_sees_a_polygon_vertex_moved_past_the_first() {
    let quad = |x: f32| Polygon::new(&[[0.0, 0.0], [2.0, 0.0], [x, 2.0], [0.0, 2.0]]);
    let (before, after) = (quad(2.0).expect("convex"), quad(3.0).expect("convex"));
    let mut scene = Scene::new();
    for _ in 0..2 {
        scene.push(before);
    }
    scene.update(|id, s| if id == 0 { after.into() } else { s });
    let fresh: Scene = [after, before].into_iter().collect();
    for id in 0..2 {
        assert_eq!(scene.get(id), fresh.get(id), "shape {id}");
        let bits = |s: &Scene| s.moving.boxes[id as usize].map(f32::to_bits);
        assert_eq!(bits(&scene), bits(&fresh), "shape {id}");
    }
}

#[test]
fn sets_filters_sensors_removals_and_reorders_stamp_their_slots() {
    let mut scene = scene();
    let seen = Seen::of(&scene.moving.stamps);
    scene.set(2, Circle::new(2.0, 0.0, 0.4));
    scene.set_filter(0, Filter::new(2, 2));
    assert_eq!(stamped(&scene, seen), [0, 2]);
    let seen = Seen::of(&scene.moving.stamps);
    scene.set_sensor(4, true);
    assert_eq!(stamped(&scene, seen), [4]);
    // The last shape (the polygon) moves into slot 1.
    let seen = Seen::of(&scene.moving.stamps);
    scene.remove(1).expect("live");
    assert_eq!(stamped(&scene, seen), [1]);
    let seen = Seen::of(&scene.moving.stamps);
    let id = scene.push(Circle::new(0.0, 5.0, 1.0));
    assert_eq!(stamped(&scene, seen), [5]);
    scene.remove(id).expect("live");
    // A change of the static shapes stamps no moving slot.
    let seen = Seen::of(&scene.moving.stamps);
    scene.push_static(Circle::new(3.0, 3.0, 1.0));
    scene.set(6, Aabb::new(0.0, -3.0, 9.0, -1.0));
    assert_eq!(stamped(&scene, seen), []);
    scene.reorder();
    assert_eq!(stamped(&scene, seen), [0, 1, 2, 3, 4]);
}

#[test]
fn a_clone_or_another_scene_tells_nothing() {
    let scene = scene();
    let seen = Seen::of(&scene.moving.stamps);
    assert!(seen.since(&scene.moving.stamps).is_some());
    assert_eq!(seen.since(&scene.clone().moving.stamps), None);
    assert_eq!(seen.since(&self::scene().moving.stamps), None);
}

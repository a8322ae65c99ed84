//! Sensors, groups and user data: the hand-worked cases of the world a game holds on to (the
//! model test and the world fuzzer draw them at random too).

use widephase::{Aabb, Capsule, Circle, Filter, PairFinder, Point, Ray, Scene};

/// A finder's answer, contacts, manifolds and events.
fn frame(finder: &mut PairFinder, scene: &Scene) -> [Vec<(u32, u32)>; 5] {
    let (mut pairs, mut contacts, mut manifolds) = (Vec::new(), Vec::new(), Vec::new());
    finder.overlapping_pairs(scene, &mut pairs);
    let events = [finder.began().to_vec(), finder.ended().to_vec()];
    finder.contacts(scene, &mut contacts);
    finder.manifolds(scene, &mut manifolds);
    let c = contacts.iter().map(|&(a, b, _)| (a, b)).collect();
    let m = manifolds.iter().map(|&(a, b, _)| (a, b)).collect();
    let [began, ended] = events;
    [pairs, c, m, began, ended]
}

#[test]
fn a_sensor_reports_who_enters_and_leaves_but_gets_no_contacts() {
    let mut scene = Scene::new();
    let zone = scene.push_sensor(Aabb::new(0.0, 0.0, 4.0, 4.0));
    let player = scene.push(Circle::new(-2.0, 2.0, 0.5));
    let wall = scene.push_static(Aabb::new(-3.0, 0.0, -2.4, 4.0));
    assert!(scene.is_sensor(zone) && !scene.is_sensor(player) && !scene.is_sensor(wall));
    let mut finder = PairFinder::new();
    let solid = (player, wall);
    assert_eq!(
        frame(&mut finder, &scene),
        [vec![solid], vec![solid], vec![solid], vec![solid], vec![]]
    );
    scene.set(player, Circle::new(1.0, 2.0, 0.5));
    let entered = (zone, player);
    assert_eq!(
        frame(&mut finder, &scene),
        [vec![entered], vec![], vec![], vec![entered], vec![solid]]
    );
    scene.set(player, Circle::new(10.0, 2.0, 0.5));
    assert_eq!(
        frame(&mut finder, &scene),
        [vec![], vec![], vec![], vec![], vec![entered]]
    );
    // The one-shot answers follow the same rule.
    scene.set(player, Circle::new(1.0, 2.0, 0.5));
    assert_eq!(scene.overlapping_pairs(), [entered]);
    assert!(scene.contacts().is_empty() && scene.manifolds().is_empty());
}

#[test]
fn two_sensors_never_pair_and_a_static_sensor_pairs_with_moving_shapes() {
    let mut scene = Scene::new();
    let a = scene.push_sensor(Circle::new(0.0, 0.0, 2.0));
    let b = scene.push_sensor_with(Circle::new(1.0, 0.0, 2.0), Filter::new(2, u32::MAX));
    let fixed = scene.push_static(Aabb::new(-1.0, -1.0, 1.0, 1.0));
    scene.set_sensor(fixed, true);
    assert!(scene.is_static(fixed) && scene.is_sensor(fixed));
    let ball = scene.push(Capsule::new(-0.5, 0.0, 0.5, 0.0, 0.25));
    let mut finder = PairFinder::new();
    let all = vec![(a, ball), (b, ball), (fixed, ball)];
    assert_eq!(frame(&mut finder, &scene)[0], all);
    assert_eq!(scene.overlapping_pairs(), all);
    // A solid shape again: its pairs with the other sensors begin, its contacts come back.
    scene.set_sensor(a, false);
    let [pairs, contacts, manifolds, began, ended] = frame(&mut finder, &scene);
    assert_eq!(
        pairs,
        [(a, b), (a, fixed), (a, ball), (b, ball), (fixed, ball)]
    );
    assert_eq!((began, ended), (vec![(a, b), (a, fixed)], vec![]));
    assert_eq!(contacts, [(a, ball)]);
    assert_eq!(manifolds, [(a, ball)]);
    // The sensor flag goes with the shape, the filter stays.
    assert_eq!(scene.filter(b), Some(Filter::new(2, u32::MAX)));
    scene.remove(b);
    assert!(!scene.is_sensor(b));
    assert!(!scene.is_sensor(12345));
}

#[test]
fn rays_pass_through_sensors_and_queries_find_them() {
    let mut scene = Scene::new();
    let zone = scene.push_static(Aabb::new(2.0, -1.0, 4.0, 1.0));
    scene.set_sensor(zone, true);
    let wall = scene.push_static(Aabb::new(6.0, -1.0, 7.0, 1.0));
    let ray = Ray::new(0.0, 0.0, 1.0, 0.0, f32::INFINITY);
    assert_eq!(scene.raycast(&ray), Some((wall, 6.0)));
    assert_eq!(scene.raycast_filtered(&ray, Filter::ALL), Some((wall, 6.0)));
    let mut finder = PairFinder::new();
    assert_eq!(finder.index(&scene).raycast(&ray), Some((wall, 6.0)));
    assert_eq!(scene.query_point(Point::new(3.0, 0.0)), [zone]);
    assert_eq!(
        scene.query_aabb(&Aabb::new(0.0, -0.1, 10.0, 0.1)),
        [zone, wall]
    );
}

#[test]
fn groups_decide_before_layers() {
    const ENEMIES: u32 = 1 << 1;
    let mut scene = Scene::new();
    // Same positive group: they pair though neither's mask accepts the other.
    let limb = Filter::new(ENEMIES, 0).with_group(4);
    let (l1, l2) = (
        scene.push_with(Circle::new(0.0, 0.0, 1.0), limb),
        scene.push_with(
            Circle::new(1.0, 0.0, 1.0),
            Filter::new(1 << 5, 0).with_group(4),
        ),
    );
    // Same negative group: never, though their layers accept each other.
    let squad = Filter::new(ENEMIES, ENEMIES).with_group(-2);
    let (s1, s2) = (
        scene.push_with(Circle::new(10.0, 0.0, 1.0), squad),
        scene.push_with(Circle::new(11.0, 0.0, 1.0), squad),
    );
    // Different groups (or one without): the layers decide.
    let other = scene.push_with(
        Circle::new(10.5, 1.0, 1.0),
        Filter::new(ENEMIES, ENEMIES).with_group(-3),
    );
    let plain = scene.push_with(Circle::new(0.5, 1.0, 1.0), Filter::new(ENEMIES, ENEMIES));
    let want = vec![(l1, l2), (s1, other), (s2, other)];
    assert_eq!(scene.overlapping_pairs(), want);
    let mut finder = PairFinder::new();
    let mut pairs = Vec::new();
    finder.overlapping_pairs(&scene, &mut pairs);
    assert_eq!(pairs, want);
    assert!(!want.iter().any(|&(a, b)| a == plain || b == plain));
    // The rule is symmetric, and `Filter::ALL` has no group.
    for (f, g) in [
        (limb, squad),
        (squad, squad),
        (limb, limb),
        (Filter::ALL, squad),
    ] {
        assert_eq!(f.pairs_with(g), g.pairs_with(f));
    }
    assert_eq!(Filter::ALL.group, 0);
    assert_eq!(Filter::default(), Filter::ALL);
}

/// A bullet's ray and a shooter in one negative group: the ray skips the shooter and finds
/// the enemy behind it; a query with the group finds everyone else.
#[test]
fn a_shooter_group_keeps_its_own_bullets_and_rays_off_it() {
    let mut scene = Scene::new();
    let me = Filter::ALL.with_group(-1);
    let shooter = scene.push_with(Circle::new(0.0, 0.0, 1.0), me);
    let bullet = scene.push_with(Circle::new(0.5, 0.0, 0.1), me);
    let enemy = scene.push(Circle::new(5.0, 0.0, 1.0));
    let ray = Ray::new(0.0, 0.0, 1.0, 0.0, f32::INFINITY);
    assert_eq!(scene.raycast(&ray), Some((shooter, 0.0)));
    assert_eq!(scene.raycast_filtered(&ray, me), Some((enemy, 4.0)));
    let mut finder = PairFinder::new();
    let index = finder.index(&scene);
    assert_eq!(index.raycast_filtered(&ray, me), Some((enemy, 4.0)));
    assert_eq!(
        scene.query_point_filtered(Point::new(0.5, 0.0), me),
        Vec::<u32>::new()
    );
    assert_eq!(scene.query_point(Point::new(0.5, 0.0)), [shooter, bullet]);
    assert_eq!(scene.overlapping_pairs(), []);
}

#[test]
fn user_data_goes_with_its_shape() {
    let mut scene = Scene::new();
    let a = scene.push(Circle::new(0.0, 0.0, 1.0));
    let b = scene.push_static(Aabb::new(-1.0, -1.0, 1.0, 1.0));
    assert_eq!((scene.user_data(a), scene.user_data(b)), (Some(0), Some(0)));
    scene.set_user_data(a, u64::MAX);
    scene.set_user_data(b, 7);
    // Kept through set, update, reorder, and another shape's removal (which moves slots).
    scene.set(a, Circle::new(1.0, 0.0, 1.0));
    scene.update(|_, s| s);
    let c = scene.push(Circle::new(5.0, 0.0, 1.0));
    scene.set_user_data(c, 3);
    scene.remove(a);
    scene.reorder();
    assert_eq!(scene.user_data(a), None, "gone with remove");
    assert_eq!((scene.user_data(b), scene.user_data(c)), (Some(7), Some(3)));
    // The next shape in a's index starts at 0.
    let d = scene.push(Circle::new(0.0, 0.0, 1.0));
    assert_eq!(scene.user_data(d), Some(0));
    assert_eq!(scene.user_data(u32::MAX), None);
}

#[test]
#[should_panic(expected = "Scene::set_user_data: shape id")]
fn setting_a_stale_ids_user_data_names_it() {
    let mut scene = Scene::new();
    let a = scene.push(Circle::new(0.0, 0.0, 1.0));
    scene.remove(a);
    scene.push(Circle::new(0.0, 0.0, 1.0));
    scene.set_user_data(a, 1);
}

#[test]
#[should_panic(expected = "Scene::set: shape id 0 is not in this Scene")]
fn setting_a_stale_id_names_it() {
    let mut scene = Scene::new();
    let a = scene.push(Circle::new(0.0, 0.0, 1.0));
    scene.remove(a);
    let b = scene.push(Circle::new(0.0, 0.0, 1.0));
    assert_ne!(a, b);
    scene.set(a, Circle::new(1.0, 0.0, 1.0));
}

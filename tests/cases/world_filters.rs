//! The Scene's filters and static shapes: layers keep pairs out of the kernels, a filter's
//! change ends and begins pairs, static shapes never pair with each other, and queries and
//! `pairs_with` apply both.

use super::contacts::assert_contacts;
use super::scene::{brute_point, brute_query, brute_raycast};
use super::world::{call, circle, shape};
use crate::support::model::{Entry, FILTERS, Model};
use crate::support::shapes::Gen;
use widephase::{Aabb, Circle, Filter, PairFinder, Point, Ray, Scene, Shape};

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
    // nothing and filters nothing, and holds the same-layer candidates only (the kernels
    // decide those of polygons, whose records are gathered anew, and keep the others).
    let again = call(&mut f2, &layered)[0].clone();
    assert_eq!(again, same);
    let s3 = f2.stats();
    assert_eq!((s3.filtered, s3.escaped, s3.rebuilt), (0, 0, false));
    assert_eq!(s3.candidates + s3.still, same_layer);
    assert!(s3.still > s3.candidates, "{s3:?}");
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

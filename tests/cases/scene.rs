//! `Scene` against brute force: every pair of valid shapes through the scalar reference.

use crate::support::shapes::{Arbitrary, Gen};
use crate::support::threads::in_pool;
use widephase::{Aabb, Capsule, Circle, Obb, PairFinder, Polygon, Scene, Shape};

pub(super) use crate::support::model::{brute_point, brute_query, brute_raycast, overlap, sweep};

pub(super) fn shapes(scene: &Scene) -> Vec<Shape> {
    scene.iter().map(|(_, s)| s).collect()
}

/// [`brute`] over a scene's live shapes, as pairs of their ids, sorted.
pub(super) fn brute_scene(scene: &Scene) -> Vec<(u32, u32)> {
    let ids: Vec<u32> = scene.iter().map(|(id, _)| id).collect();
    let mut out: Vec<(u32, u32)> = brute(&shapes(scene))
        .into_iter()
        .map(|(i, j)| {
            let (a, b) = (ids[i as usize], ids[j as usize]);
            (a.min(b), a.max(b))
        })
        .collect();
    out.sort_unstable();
    out
}

pub(super) fn brute(shapes: &[Shape]) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    for (i, a) in shapes.iter().enumerate() {
        for (j, b) in shapes.iter().enumerate().skip(i + 1) {
            if a.check().is_ok() && b.check().is_ok() && overlap(a, b) {
                out.push((i as u32, j as u32));
            }
        }
    }
    out
}

fn brute_cross(a: &[Shape], b: &[Shape]) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    for (i, x) in a.iter().enumerate() {
        for (j, y) in b.iter().enumerate() {
            if x.check().is_ok() && y.check().is_ok() && overlap(x, y) {
                out.push((i as u32, j as u32));
            }
        }
    }
    out
}

/// Asserts the scene's pairs equal brute force, with and without a fixed cell size, and names
/// the first pair that differs.
fn check(label: &str, scene: &Scene) {
    let want = brute_scene(scene);
    let mut scenes = vec![("auto", scene.clone())];
    for cell in [0.3, 4.0, 1000.0] {
        let fixed: Scene = shapes(scene)
            .into_iter()
            .collect::<Scene>()
            .with_cell_size(cell);
        scenes.push(("fixed", fixed));
    }
    for (how, s) in &scenes {
        let got = s.overlapping_pairs();
        if got != want {
            let missing: Vec<_> = want.iter().filter(|p| !got.contains(p)).take(3).collect();
            let extra: Vec<_> = got.iter().filter(|p| !want.contains(p)).take(3).collect();
            let show = |v: &[&(u32, u32)]| {
                v.iter()
                    .map(|&&(a, b)| format!("\n    ({a}, {b}): {:?} / {:?}", s.get(a), s.get(b)))
                    .collect::<String>()
            };
            panic!(
                "{label} ({how} cells): {} pairs, brute force {}\n  missing:{}\n  extra:{}",
                got.len(),
                want.len(),
                show(&missing),
                show(&extra)
            );
        }
    }
}

/// A shape of any kind from the hard-case generator: NaN, ±inf, huge and tiny values, random
/// bits, exact touching on the integer grid.
pub(super) fn awkward(g: &mut Gen) -> Shape {
    match g.index(5) {
        0 => Circle::arbitrary(g).into(),
        1 => Aabb::arbitrary(g).into(),
        2 => Obb::arbitrary(g).into(),
        3 => Capsule::arbitrary(g).into(),
        _ => Polygon::arbitrary(g).into(),
    }
}

#[test]
fn random_mixed_scenes() {
    for (seed, n, side) in [
        (1, 0, 1.0),
        (2, 1, 1.0),
        (3, 2, 1.0),
        (4, 50, 10.0),
        (5, 500, 40.0),
        (6, 3000, 100.0),
        (7, 2000, 20.0),
    ] {
        let mut g = Gen::new(seed);
        check(
            &format!("seed {seed}, {n} shapes in {side}²"),
            &g.mixed_world(n, side),
        );
    }
}

/// Shapes from the hard-case generator: NaN, ±inf, huge and tiny values, random bits, exact
/// touching on the integer grid.
#[test]
fn awkward_scenes() {
    for seed in 0..6 {
        let mut g = Gen::new(100 + seed);
        let scene: Scene = (0..600).map(|_| awkward(&mut g)).collect();
        check(&format!("awkward seed {seed}"), &scene);
    }
}

#[test]
fn degenerate_scenes() {
    let mut g = Gen::new(9);
    // All shapes at one point.
    let pile: Scene = (0..300)
        .map(|i| -> Shape {
            match i % 5 {
                0 => Circle::new(5.0, 5.0, 0.0).into(),
                1 => Aabb::new(5.0, 5.0, 5.0, 5.0).into(),
                2 => Obb::new(5.0, 5.0, 0.0, 0.0, 1.0).into(),
                // A segment from the point, and one of zero length on it.
                3 if i % 2 == 0 => Capsule::segment(5.0, 5.0, 5.001, 4.999).into(),
                3 => Capsule::segment(5.0, 5.0, 5.0, 5.0).into(),
                // A tiny triangle with a vertex on the point.
                _ => Polygon::new(&[[5.0, 5.0], [5.001, 5.0], [5.0, 5.001]])
                    .unwrap()
                    .into(),
            }
        })
        .collect();
    check("all at one point", &pile);
    assert_eq!(pile.overlapping_pairs().len(), 300 * 299 / 2);

    // One shape covering everything, and one infinite box.
    let mut covered = g.mixed_world(800, 50.0);
    covered.push(Aabb::new(-10.0, -10.0, 60.0, 60.0));
    covered.push(Circle::new(25.0, 25.0, 100.0));
    covered.push(Aabb::new(
        f32::NEG_INFINITY,
        f32::NEG_INFINITY,
        f32::INFINITY,
        f32::INFINITY,
    ));
    check("covering shapes", &covered);

    // Far outliers, including ones whose squares overflow.
    let mut outliers = g.mixed_world(800, 30.0);
    for far in [1e4, 1e7, 1e12, 1e19, 1e30, f32::MAX] {
        outliers.push(Circle::new(far, far, 1.0));
        outliers.push(Circle::new(far, far, 1.5));
        outliers.push(Obb::new(-far, 3.0, 2.0, 1.0, 0.5));
        outliers.push(Circle::new(-far, 3.0, far));
    }
    check("far outliers", &outliers);

    // NaN and negative shapes mixed in, and zero-size shapes.
    let mut bad = g.mixed_world(500, 20.0);
    for i in 0..50 {
        let x = i as f32 * 0.4;
        bad.push(Circle::new(f32::NAN, x, 1.0));
        bad.push(Circle::new(x, x, -1.0));
        bad.push(Aabb::new(x, x, x - 1.0, x + 1.0));
        bad.push(Obb::from_rotation(x, x, 1.0, 1.0, f32::NAN, 0.0));
        bad.push(Circle::new(x, x, 0.0));
        bad.push(Aabb::new(x, 2.0, x, 2.0));
    }
    check("invalid and zero-size shapes", &bad);
    let invalid = bad.iter().filter(|(_, s)| s.check().is_err()).count();
    assert_eq!(invalid, 200);
}

/// Shapes parked far from the rest (a game's despawned objects waiting out of sight) are
/// clamped into the grid's border cells instead of stretching its cells over the empty space
/// between: with up to a few percent of them parked, the grid of a search from scratch keeps
/// about the cells it has without them (when they stretched it, 0.5 % parked made a search of
/// 100 k shapes 160 times slower: the bulk shared a few cells), and the answer stays exact.
#[test]
fn shapes_parked_far_away_do_not_coarsen_the_grid() {
    let mut g = Gen::new(29);
    let bulk = g.mixed_world(20_000, 200.0);
    let mut finder = PairFinder::new();
    let mut pairs = Vec::new();
    finder.overlapping_pairs_from_scratch(&bulk, &mut pairs);
    let (cells, cell) = (finder.stats().cells, finder.stats().cell_size);
    for parked in [30, 200, 900] {
        let mut scene = bulk.clone();
        for i in 0..parked {
            let k = (i % 7) as f32;
            scene.push(Circle::new(3.0e5 + k, -2.0e5 + 0.5 * k, 1.0));
        }
        finder.overlapping_pairs_from_scratch(&scene, &mut pairs);
        let stats = finder.stats();
        assert!(
            stats.cell_size <= 2.0 * cell && stats.cells * 4 >= cells,
            "{parked} parked: {} cells of side {} (without them {cells} of side {cell})",
            stats.cells,
            stats.cell_size
        );
        assert_eq!(pairs, sweep(&shapes(&scene)), "{parked} parked");
        // A kept finder's grid over enlarged boxes, and the queries' grid, are laid out alike.
        let mut kept = PairFinder::new();
        let mut kept_pairs = Vec::new();
        kept.overlapping_pairs(&scene, &mut kept_pairs);
        assert_eq!(kept_pairs, pairs, "{parked} parked, kept finder");
        assert!(
            kept.stats().cells * 4 >= cells,
            "{parked} parked, kept finder"
        );
    }
}

/// A kept finder whose grid clamped parked shapes into its border cells on purpose keeps it:
/// only boxes that leave the grid beyond those make it rebuild (it rebuilt every frame while
/// a tenth of the shapes were parked).
#[test]
fn a_kept_finder_keeps_a_grid_that_clamps_parked_shapes() {
    let mut g = Gen::new(31);
    let mut scene = g.mixed_world(20_000, 200.0);
    for i in 0..2_000 {
        scene.push(Circle::new(
            2.0e4 + (i % 50) as f32 * 3.0,
            2.0e4 + (i / 50) as f32 * 3.0,
            1.0,
        ));
    }
    let mut finder = PairFinder::new();
    let mut pairs = Vec::new();
    finder.overlapping_pairs(&scene, &mut pairs);
    assert!(finder.stats().rebuilt);
    for frame in 0..4 {
        // Every shape a little, a few in the crowd out of their enlarged boxes.
        let d = 0.01 * (frame + 1) as f32;
        scene.update(|id, s| {
            let d = if id % 50 == 0 { 3.0 } else { d };
            match s {
                Shape::Circle(c) => Circle::new(c.x + d, c.y, c.radius).into(),
                other => other,
            }
        });
        finder.overlapping_pairs(&scene, &mut pairs);
        assert!(!finder.stats().rebuilt, "frame {frame} rebuilt");
        assert_eq!(pairs, sweep(&shapes(&scene)), "frame {frame}");
    }
}

/// Shapes exactly touching along cell borders: unit boxes on the integer grid with cell size 1.
#[test]
fn touching_across_cell_borders() {
    let mut scene = Scene::new().with_cell_size(1.0);
    for i in 0..20 {
        for j in 0..20 {
            let (x, y) = (i as f32, j as f32);
            match (i + j) % 5 {
                0 => scene.push(Aabb::new(x, y, x + 1.0, y + 1.0)),
                1 => scene.push(Circle::new(x + 0.5, y + 0.5, 0.5)),
                2 => scene.push(Obb::axis_aligned(x + 0.5, y + 0.5, 0.5, 0.5)),
                3 => scene.push(Capsule::new(x + 0.25, y + 0.5, x + 0.75, y + 0.5, 0.25)),
                _ => scene.push(
                    Polygon::new(&[[x, y], [x + 1.0, y], [x + 1.0, y + 1.0], [x, y + 1.0]])
                        .unwrap(),
                ),
            };
        }
    }
    check("unit tiles", &scene);
    // Every tile touches at least its right-hand neighbour.
    assert!(scene.overlapping_pairs().len() >= 20 * 19);
}

#[test]
fn pairs_with_matches_brute_force() {
    let mut g = Gen::new(21);
    for (n, m) in [(0, 10), (10, 0), (1, 1), (300, 700), (2000, 150)] {
        let bullets: Scene = (0..n)
            .map(|_| {
                Circle::new(
                    g.uniform(0.0, 40.0),
                    g.uniform(0.0, 40.0),
                    g.uniform(0.0, 0.5),
                )
            })
            .collect();
        let enemies = g.mixed_world(m, 40.0);
        assert_eq!(
            bullets.pairs_with(&enemies),
            brute_cross(&shapes(&bullets), &shapes(&enemies)),
            "{n} vs {m}"
        );
        assert_eq!(
            enemies.pairs_with(&bullets),
            brute_cross(&shapes(&enemies), &shapes(&bullets)),
            "{m} vs {n}"
        );
    }
    let mut a = Scene::new();
    for _ in 0..400 {
        a.push(Circle::arbitrary(&mut g));
        a.push(Obb::arbitrary(&mut g));
        a.push(Polygon::arbitrary(&mut g));
    }
    let b: Scene = (0..500).map(|_| Aabb::arbitrary(&mut g)).collect();
    assert_eq!(
        a.pairs_with(&b),
        brute_cross(&shapes(&a), &shapes(&b)),
        "awkward cross"
    );
}

#[test]
fn same_answer_on_one_and_two_threads() {
    let mut g = Gen::new(33);
    let scene = g.mixed_world(5000, 120.0);
    let other = g.mixed_world(3000, 120.0);
    let run = |threads| {
        in_pool(threads, || {
            (scene.overlapping_pairs(), scene.pairs_with(&other))
        })
    };
    let one = run(1);
    assert!(
        one.0.len() > 1000,
        "too few pairs to mean much: {}",
        one.0.len()
    );
    assert_eq!(one, run(2));
    assert_eq!(one, run(3));
}

/// A reused finder gives what a fresh one gives, frame after frame, as shapes move.
#[test]
fn finder_reuse_across_frames() {
    let mut g = Gen::new(44);
    let mut scene = g.mixed_world(1500, 50.0);
    let mut finder = PairFinder::new();
    let mut pairs = Vec::new();
    for frame in 0..5 {
        let ids: Vec<u32> = scene.iter().map(|(id, _)| id).collect();
        for id in ids {
            if let Some(Shape::Circle(c)) = scene.get(id) {
                scene.set(id, Circle::new(c.x + 0.3, c.y - 0.2, c.radius));
            }
        }
        if frame == 3 {
            scene.clear();
            scene.extend((0..10).map(|i| Circle::new(i as f32, 0.0, 0.5)));
        }
        finder.overlapping_pairs(&scene, &mut pairs);
        assert_eq!(pairs, scene.overlapping_pairs(), "frame {frame}");
        assert_eq!(pairs, brute_scene(&scene), "frame {frame}");
        let stats = finder.stats();
        assert_eq!((stats.shapes, stats.pairs), (scene.len(), pairs.len()));
        assert!(stats.candidates >= stats.pairs);
    }
}

#[test]
#[should_panic(expected = "Scene cell size must be positive and finite, got 0")]
fn zero_cell_size_is_refused() {
    let _ = Scene::new().with_cell_size(0.0);
}

#[test]
#[should_panic(expected = "Scene::set: shape id 3 is not in this Scene")]
fn set_out_of_range_panics_with_a_message() {
    let mut scene: Scene = (0..3).map(|i| Circle::new(i as f32, 0.0, 1.0)).collect();
    scene.set(3, Circle::new(0.0, 0.0, 1.0));
}

/// The raw bits of a scene shape, so that NaN fields compare too.
pub(super) fn shape_bits(s: &Shape) -> (u8, Vec<u32>) {
    match s {
        Shape::Circle(c) => (0, bytemuck::cast_slice(&[*c]).to_vec()),
        Shape::Aabb(b) => (1, bytemuck::cast_slice(&[*b]).to_vec()),
        Shape::Obb(o) => (2, bytemuck::cast_slice(&[*o]).to_vec()),
        Shape::Polygon(p) => (3, bytemuck::cast_slice(&[*p]).to_vec()),
        Shape::Capsule(c) => (4, bytemuck::cast_slice(&[*c]).to_vec()),
    }
}

/// `get` and `iter` give back every shape bit for bit, awkward ones included, after `push` and
/// after `set`; the frame statistics count the invalid and unbounded shapes as they change.
#[test]
fn shapes_come_back_bit_for_bit_and_are_counted() {
    let mut g = Gen::new(55);
    let arbitrary = awkward;
    let mut shapes: Vec<Shape> = (0..2000).map(|_| arbitrary(&mut g)).collect();
    let mut scene: Scene = shapes.iter().copied().collect();
    for _ in 0..500 {
        let id = g.index(shapes.len());
        shapes[id] = arbitrary(&mut g);
        scene.set(id as u32, shapes[id]);
    }
    assert_eq!(scene.len(), shapes.len());
    for (id, (want, got)) in shapes.iter().zip(scene.iter().map(|(_, s)| s)).enumerate() {
        assert_eq!(shape_bits(want), shape_bits(&got), "shape {id} via iter");
        assert_eq!(
            shape_bits(want),
            shape_bits(&scene.get(id as u32).expect("live")),
            "shape {id} via get"
        );
    }
    let invalid = shapes.iter().filter(|s| s.check().is_err()).count();
    let unbounded = shapes
        .iter()
        .filter(|s| {
            let b = s.bounding_box();
            let m = [b.min_x, b.min_y, b.max_x, b.max_y].map(f32::abs);
            s.check().is_ok() && !m.iter().all(|v| *v <= (1u64 << 60) as f32)
        })
        .count();
    assert!(
        invalid > 100 && unbounded > 10,
        "{invalid} invalid, {unbounded} unbounded"
    );
    let mut finder = PairFinder::new();
    let mut pairs = Vec::new();
    finder.overlapping_pairs(&scene, &mut pairs);
    let stats = finder.stats();
    assert_eq!((stats.invalid, stats.unbounded), (invalid, unbounded));
    assert_eq!(pairs, brute(&shapes));
    scene.clear();
    finder.overlapping_pairs(&scene, &mut pairs);
    assert_eq!((finder.stats().invalid, finder.stats().unbounded), (0, 0));
    assert!(pairs.is_empty());
}

/// Sizes spread over six orders of magnitude: several grid levels, each large shape looking up
/// the finer levels under it.
#[test]
fn sizes_over_many_levels() {
    let mut g = Gen::new(66);
    for (n, side) in [(1500, 100.0f32), (3000, 1000.0)] {
        let scene: Scene = (0..n)
            .map(|_| -> Shape {
                let (x, y) = (g.uniform(0.0, side), g.uniform(0.0, side));
                let size = 10f32.powf(g.uniform(-3.0, 1.5));
                match g.index(4) {
                    0 => Circle::new(x, y, size).into(),
                    1 => Aabb::from_center(x, y, size, size * g.uniform(0.2, 1.0)).into(),
                    2 => Capsule::new(x - size, y, x + size, y + size, size * g.uniform(0.0, 0.5))
                        .into(),
                    _ => Obb::new(x, y, size, size * g.uniform(0.2, 1.0), g.uniform(-3.2, 3.2))
                        .into(),
                }
            })
            .collect();
        check(&format!("{n} shapes of all sizes in {side}²"), &scene);
        let mut finder = PairFinder::new();
        finder.overlapping_pairs(&scene, &mut Vec::new());
        let stats = finder.stats();
        // 4.5 decades are 15 binary orders of magnitude: five levels of three.
        assert!(stats.levels >= 4, "{} levels", stats.levels);
        assert!(
            stats.large > n / 10 && stats.large < n / 2,
            "{} large",
            stats.large
        );
    }
}

/// A scene large and dense enough that the grid's passes and the answer's sort split into
/// several chunks on several threads (the grid's sort into several bands): the same answer as
/// the sweep on 1, 2, 3 and 16 threads.
#[test]
fn large_dense_scene_on_several_threads() {
    let mut g = Gen::new(77);
    let scene = g.mixed_world(40_000, 250.0);
    let want = sweep(&shapes(&scene));
    assert!(
        want.len() > 40_000,
        "{} pairs: too few to split the sort",
        want.len()
    );
    for threads in [1, 2, 3, 16] {
        let got = in_pool(threads, || scene.overlapping_pairs());
        assert!(
            got == want,
            "{threads} threads: {} pairs, sweep {}",
            got.len(),
            want.len()
        );
    }
}

//! World fuzzer: random `Scene` histories against a model of what the scene must answer, until a
//! time budget runs out. Each run draws its own scene (a few dozen to several thousand moving
//! shapes, none to twice as many static ones, sparse or crowded, awkward shapes among them),
//! finder settings (margin, rebuild threshold), the grid's cell size (automatic or fixed),
//! thread count (one or two) and motion (slow, fast, a share of the shapes jumping, every shape
//! teleporting), then plays frames of random
//! operations (push, push_static, push_with, remove, set, set_filter, reorder, forget) and
//! moves (`Scene::update`), and after every call checks a kept finder against the model: its
//! pairs (or the pairs of its contacts and manifolds) equal the model's, `began`/`ended` are
//! the set differences of consecutive answers, and the contacts and manifolds are those of a
//! search from scratch, bit for bit. Every other frame it also checks a box query, a point
//! query and a ray cast, with a random filter or none, on the scene and on an index of it,
//! against brute force. A second kept finder called only every fifth frame sees larger
//! changes between its calls; a third is handed the scene and an earlier copy of it in turn,
//! and `pairs_with` pairs the two. The tests run two such histories; this runs as many as the
//! budget allows, on seeds of the clock.
//!
//! ```text
//! cargo run --release -p widephase-tools --example world_fuzz -- --seconds 60
//!     [--seed S]    first run's seed (default: from the clock; printed); runs use S, S+1, …
//!     [--runs N]    stop after N runs (default: no limit)
//! ```
//!
//! On a disagreement it prints the run's seed, its plan, the frame and what differs, and exits
//! with status 1; `--seed S --runs 1` replays that run.

#[path = "../../tests/support/model.rs"]
mod model;
#[path = "../../tests/support/shapes.rs"]
mod shapes;

use model::{Entry, FILTERS, Model, brute_point, brute_query, events};
use shapes::{Gen, moved, unit_hash};
use std::time::{Duration, Instant};
use widephase::{
    Aabb, Capsule, Circle, Contact, Filter, Manifold, Obb, PairFinder, Point, Ray, Scene, Shape,
};

/// What one run does, drawn from its seed.
#[derive(Clone, Copy, Debug)]
struct Plan {
    moving: usize,
    statics: usize,
    side: f32,
    frames: u32,
    /// A share of each shape's half extent per frame.
    speed: f32,
    /// The share of the moving shapes that jump anywhere each frame (1: every one teleports).
    jumps: f32,
    /// Random operations per frame, at most.
    ops: usize,
    /// Filters other than `Filter::ALL`, unbounded shapes, invalid ones.
    layered: bool,
    unbounded: bool,
    invalid: bool,
    /// `PairFinder::with_margin` and `with_rebuild_threshold`, where set.
    margin: Option<f32>,
    rebuild: Option<f32>,
    threads: usize,
    /// `Scene::with_cell_size`, where set.
    cell: Option<f32>,
    /// Awkward scales and places: see [`Scale`].
    scale: Scale,
}

/// How a plan's shapes are sized and placed beyond the ordinary.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Scale {
    Ordinary,
    /// Now and then a shape as large as the whole square or larger (a level's floor, a
    /// trigger over the whole map), among the ordinary ones.
    Huge,
    /// The square far from the origin (where a float's step is a good part of a shape), and
    /// shapes that jump land near the origin: a world spread over a million units.
    Far(f32),
    /// A few percent of the shapes parked on a far point (a game's despawned objects waiting
    /// there): the grid must not stretch over the empty space between.
    Parked,
    /// Every shape on one of a few points: everything overlaps everything near it.
    Stacked,
    /// Some shapes of no size: circles of radius 0, boxes of no width or height, capsules of
    /// no length and radius.
    Degenerate,
}

impl Plan {
    fn draw(g: &mut Gen) -> Self {
        let moving = [40, 400, 2500, 5000][g.index(4)] + g.index(200);
        let statics = match g.index(4) {
            0 => 0,
            1 => moving / 4,
            2 => moving,
            _ => 2 * moving,
        };
        // About 0.1 to 0.6 of the square covered (shapes of area ~2).
        let cover = [0.1, 0.3, 0.6][g.index(3)];
        let side = ((moving + statics) as f32 * 2.0 / cover).sqrt();
        let (speed, jumps) = match g.index(6) {
            0 => (0.02, 0.0),
            1 => (0.1, 0.0),
            2 => (0.5, 0.0),
            3 => (0.05, 0.02),
            4 => (0.05, 0.15),
            _ => (0.05, 1.0),
        };
        Self {
            moving,
            statics,
            side,
            frames: 12 + g.index(60) as u32,
            speed,
            jumps,
            ops: [0, 4, 24][g.index(3)],
            layered: g.index(2) == 0,
            unbounded: g.index(4) == 0,
            invalid: g.index(2) == 0,
            margin: [None, None, None, Some(0.0), Some(0.05), Some(2.0)][g.index(6)],
            rebuild: [None, None, None, Some(0.0), Some(0.02), Some(1.0)][g.index(6)],
            threads: 1 + g.index(2),
            cell: [None, None, None, Some(0.25), Some(3.0), Some(40.0)][g.index(6)],
            // Drawn last, so that the draws before it are those of earlier versions.
            scale: match g.index(8) {
                0 => Scale::Huge,
                1 => Scale::Far([1.0e4, -3.0e5, 1.0e6][g.index(3)]),
                // Stacks of a few hundred each: the model's brute force stays quick.
                2 if moving + statics <= 1500 => Scale::Stacked,
                3 => Scale::Degenerate,
                4 => Scale::Parked,
                _ => Scale::Ordinary,
            },
        }
    }

    /// Where a new shape's centre goes.
    fn place(&self, g: &mut Gen) -> (f32, f32) {
        match self.scale {
            Scale::Far(origin) => (
                origin + g.uniform(0.0, self.side),
                origin + g.uniform(0.0, self.side),
            ),
            Scale::Parked if g.index(40) == 0 => {
                (2.0e5 + g.uniform(0.0, 4.0), -1.0e6 + g.uniform(0.0, 4.0))
            }
            Scale::Stacked => {
                let k = g.index(8) as f32;
                (self.side * (0.1 + 0.1 * k), self.side * (0.9 - 0.1 * k))
            }
            _ => (g.uniform(0.0, self.side), g.uniform(0.0, self.side)),
        }
    }

    /// A new shape: mostly ordinary sizes, some large; invalid and unbounded ones where the
    /// plan has them.
    fn shape(&self, g: &mut Gen) -> Shape {
        let (x, y) = self.place(g);
        if self.scale == Scale::Huge && g.index(300) == 0 {
            let size = self.side * g.uniform(0.3, 2.0);
            return match g.index(3) {
                0 => Aabb::from_center(x, y, size, g.uniform(0.5, 2.0)).into(),
                1 => Circle::new(x, y, size).into(),
                _ => Obb::new(x, y, size, g.uniform(0.5, 2.0), g.uniform(-3.2, 3.2)).into(),
            };
        }
        if self.scale == Scale::Degenerate && g.index(8) == 0 {
            return match g.index(5) {
                0 => Circle::new(x, y, 0.0).into(),
                1 => Aabb::new(x, y, x, y).into(),
                2 => Aabb::new(x, y, x + 1.0, y).into(),
                3 => Obb::new(x, y, 0.0, 0.0, g.uniform(-3.2, 3.2)).into(),
                _ => Capsule::new(x, y, x, y, 0.0).into(),
            };
        }
        if self.unbounded && g.index(500) == 0 {
            return match g.index(2) {
                0 => Aabb::new(f32::NEG_INFINITY, y, f32::INFINITY, y + 0.5).into(),
                _ => Circle::new(1e30, 1e30, 2e30).into(),
            };
        }
        if self.invalid && g.index(40) == 0 {
            return match g.index(4) {
                0 => Circle::new(x, f32::NAN, 1.0).into(),
                1 => Aabb::new(x, y, x - 1.0, y + 1.0).into(),
                2 => Capsule::new(x, y, f32::INFINITY, y, 0.5).into(),
                _ => Circle::new(x, y, -1.0).into(),
            };
        }
        let size = if g.percent() < 3 {
            g.uniform(3.0, 10.0)
        } else {
            g.uniform(0.3, 1.5)
        };
        match g.index(5) {
            0 => Circle::new(x, y, size).into(),
            1 => Aabb::from_center(x, y, size, g.uniform(0.3, 1.5)).into(),
            2 => Obb::new(x, y, size, g.uniform(0.3, 1.5), g.uniform(-3.2, 3.2)).into(),
            3 => g.convex(x, y, size).into(),
            _ => Capsule::new(
                x,
                y,
                x + size,
                y + g.uniform(-1.0, 1.0),
                g.uniform(0.0, 0.5),
            )
            .into(),
        }
    }

    /// Whether a new shape is a sensor: one in ten where the plan has layers.
    fn sensor(&self, g: &mut Gen) -> bool {
        self.layered && g.index(10) == 0
    }

    fn filter(&self, g: &mut Gen) -> Filter {
        if self.layered {
            FILTERS[g.index(FILTERS.len())]
        } else {
            Filter::ALL
        }
    }

    /// Shape `id` one frame on: jumping anywhere for the plan's share of the shapes (drawn
    /// anew each frame), else moved at the plan's speed; now and then, where the plan has
    /// invalid shapes, turned to NaN. A pure function, as `Scene::update` needs.
    fn step(&self, id: u32, frame: u32, s: Shape) -> Shape {
        let (id64, f) = (u64::from(id), u64::from(frame));
        if self.invalid && unit_hash(id64 + (3 << 40), f) < 0.002 {
            return Circle::new(f32::NAN, 1.0, 1.0).into();
        }
        let jumps = unit_hash(id64 + (2 << 40), f) < self.jumps;
        let speed = if jumps { f32::INFINITY } else { self.speed };
        moved(s, id, frame, speed, self.side)
    }

    fn finder(&self) -> PairFinder {
        let mut f = PairFinder::new();
        if let Some(m) = self.margin {
            f = f.with_margin(m);
        }
        if let Some(r) = self.rebuild {
            f = f.with_rebuild_threshold(r);
        }
        f
    }
}

/// A kept finder's stream of answers: the finder and the last answer it gave.
struct Stream {
    finder: PairFinder,
    last: Vec<(u32, u32)>,
}

/// What the runs met, summed: frames, checked calls, of those the ones that rebuilt or searched
/// from scratch and the ones that followed escapers, began and ended pairs.
#[derive(Default)]
struct Met {
    runs: usize,
    frames: usize,
    calls: usize,
    rebuilt: usize,
    followed: usize,
    events: usize,
    largest: usize,
    /// Frames whose queries were checked, and what they found.
    queries: usize,
    found: usize,
    /// Pairs across two scenes that `pairs_with` found.
    crossed: usize,
}

/// The first few elements of `got` not in `want` and of `want` not in `got`, for a report.
fn difference<T: PartialEq + core::fmt::Debug>(got: &[T], want: &[T]) -> String {
    let extra: Vec<_> = got.iter().filter(|p| !want.contains(p)).take(5).collect();
    let missing: Vec<_> = want.iter().filter(|p| !got.contains(p)).take(5).collect();
    format!(
        "{} got, {} wanted; extra {extra:?}, missing {missing:?}",
        got.len(),
        want.len()
    )
}

/// Calls `stream`'s finder the way `call` picks (0: pairs, 1: contacts, 2: manifolds) and
/// checks it against `want` (the model's pairs) and the stream's last answer; the contacts
/// also against `scratch`'s of a search with no kept state.
fn check(
    stream: &mut Stream,
    scene: &Scene,
    want: &[(u32, u32)],
    solid: &[(u32, u32)],
    call: usize,
    scratch: &mut PairFinder,
    met: &mut Met,
) -> Result<(), String> {
    let pairs: Vec<(u32, u32)> = match call {
        1 => {
            let mut contacts: Vec<(u32, u32, Contact)> = Vec::new();
            stream.finder.contacts(scene, &mut contacts);
            let mut from_scratch = Vec::new();
            scratch.contacts_from_scratch(scene, &mut from_scratch);
            let bits = |c: &[(u32, u32, Contact)]| -> Vec<(u32, u32, [u32; 3])> {
                c.iter()
                    .map(|&(a, b, c)| {
                        (
                            a,
                            b,
                            [
                                c.normal[0].to_bits(),
                                c.normal[1].to_bits(),
                                c.depth.to_bits(),
                            ],
                        )
                    })
                    .collect()
            };
            if bits(&contacts) != bits(&from_scratch) {
                return Err(format!(
                    "contacts differ from a search from scratch: {}",
                    difference(&bits(&contacts), &bits(&from_scratch))
                ));
            }
            contacts.iter().map(|&(a, b, _)| (a, b)).collect()
        }
        2 => {
            let mut manifolds: Vec<(u32, u32, Manifold)> = Vec::new();
            stream.finder.manifolds(scene, &mut manifolds);
            // Every bit of each manifold, as the one-shot `Scene::manifolds` finds it.
            let bits = |m: &[(u32, u32, Manifold)]| -> Vec<(u32, u32, Vec<u32>)> {
                m.iter()
                    .map(|(a, b, m)| {
                        let mut v = vec![m.normal[0].to_bits(), m.normal[1].to_bits()];
                        v.push(u32::from(m.count));
                        for p in m.points() {
                            v.extend([p.point[0].to_bits(), p.point[1].to_bits()]);
                            v.extend([p.depth.to_bits(), p.id]);
                        }
                        (*a, *b, v)
                    })
                    .collect()
            };
            let one_shot = scene.manifolds();
            if bits(&manifolds) != bits(&one_shot) {
                return Err(format!(
                    "manifolds differ from Scene::manifolds: {}",
                    difference(&bits(&manifolds), &bits(&one_shot))
                ));
            }
            manifolds.iter().map(|&(a, b, _)| (a, b)).collect()
        }
        _ => {
            let mut pairs = Vec::new();
            stream.finder.overlapping_pairs(scene, &mut pairs);
            pairs
        }
    };
    // Contacts and manifolds leave out the pairs with a sensor.
    let expect = if call == 0 { want } else { solid };
    if pairs != expect {
        return Err(format!("answer: {}", difference(&pairs, expect)));
    }
    let (began, ended) = events(&stream.last, want);
    if stream.finder.began() != began {
        return Err(format!(
            "began: {}",
            difference(stream.finder.began(), &began)
        ));
    }
    if stream.finder.ended() != ended {
        return Err(format!(
            "ended: {}",
            difference(stream.finder.ended(), &ended)
        ));
    }
    let s = stream.finder.stats();
    if (s.began, s.ended) != (began.len(), ended.len()) {
        return Err(format!(
            "stats count {} began and {} ended, the calls {} and {}",
            s.began,
            s.ended,
            began.len(),
            ended.len()
        ));
    }
    met.calls += 1;
    met.rebuilt += usize::from(s.rebuilt);
    met.followed += usize::from(!s.rebuilt && s.escaped > 0);
    met.events += began.len() + ended.len();
    stream.last = want.to_vec();
    Ok(())
}

/// A box query, a point query and a ray cast at random places, on the scene and on an index
/// `finder` builds of it, with a random filter (or none), against brute force over the
/// model's live shapes that filter lets the query see.
fn check_queries(
    scene: &Scene,
    model: &Model,
    plan: &Plan,
    g: &mut Gen,
    finder: &mut PairFinder,
    met: &mut Met,
) -> Result<(), String> {
    // Unfiltered queries see every shape, a filtered one (even with `Filter::ALL`) those
    // whose filters pair with it.
    let unfiltered = g.index(3) == 0;
    let q = plan.filter(g);
    let visible = model.visible((!unfiltered).then_some(q), false);
    let solid = model.visible((!unfiltered).then_some(q), true);
    let (x, y) = plan.place(g);
    let boxq = Aabb::new(x, y, x + g.uniform(0.0, 12.0), y + g.uniform(0.0, 12.0));
    let point = Point::new(x, y);
    let (dx, dy) = (g.uniform(-1.0, 1.0), g.uniform(-1.0, 1.0));
    let ray = Ray::new(x, y, dx, dy, [5.0, 50.0, f32::INFINITY][g.index(3)]);
    let (boxes, points, hit) = (
        model.ids_of(brute_query(&visible, &Shape::Aabb(boxq))),
        model.ids_of(brute_point(&visible, &point)),
        model.raycast(&solid, &ray),
    );
    let got = if unfiltered {
        scene.query_aabb(&boxq)
    } else {
        scene.query_aabb_filtered(&boxq, q)
    };
    if got != boxes {
        return Err(format!(
            "query_aabb({boxq:?}, {q:?}): {}",
            difference(&got, &boxes)
        ));
    }
    let got = if unfiltered {
        scene.query_point(point)
    } else {
        scene.query_point_filtered(point, q)
    };
    if got != points {
        return Err(format!(
            "query_point({point:?}, {q:?}): {}",
            difference(&got, &points)
        ));
    }
    let got = if unfiltered {
        scene.raycast(&ray)
    } else {
        scene.raycast_filtered(&ray, q)
    };
    let bits = |h: Option<(u32, f32)>| h.map(|(id, t)| (id, t.to_bits()));
    if bits(got) != bits(hit) {
        return Err(format!("raycast({ray:?}, {q:?}): {got:?}, wanted {hit:?}"));
    }
    let index = finder.index(scene);
    let mut ids = Vec::new();
    let cast = if unfiltered {
        index.query_aabb(&boxq, &mut ids);
        index.raycast(&ray)
    } else {
        index.query_aabb_filtered(&boxq, q, &mut ids);
        index.raycast_filtered(&ray, q)
    };
    if ids != boxes || bits(cast) != bits(hit) {
        return Err(format!(
            "the index: query_aabb {}, raycast {cast:?} against {hit:?}",
            difference(&ids, &boxes)
        ));
    }
    // A shape of the plan's kinds, against the pair rule over the shapes the filter sees.
    let probe = plan.shape(g);
    let want =
        model.ids_of((0..visible.len() as u32).filter(|&i| probe.overlaps(&visible[i as usize])));
    let got = if unfiltered {
        index.query_shape(&probe, &mut ids);
        ids.clone()
    } else {
        index.query_shape_filtered(&probe, q, &mut ids);
        scene.query_shape_filtered(probe, q)
    };
    if ids != want || got != want {
        return Err(format!(
            "query_shape({probe:?}, {q:?}): {}",
            difference(&ids, &want)
        ));
    }
    // The same kind of shape cast along a motion, against brute force over the solid shapes.
    let probe = plan.shape(g);
    let reach = [0.0, 2.0, 20.0, 200.0][g.index(4)];
    let motion = [reach * dx, reach * dy];
    let first = model.cast(&solid, &probe, motion);
    let got = if unfiltered {
        index.cast_shape(&probe, motion)
    } else {
        index.cast_shape_filtered(&probe, motion, q)
    };
    let bits = |h: Option<(u32, widephase::Sweep)>| {
        h.map(|(id, s)| (id, [s.t, s.normal[0], s.normal[1]].map(f32::to_bits)))
    };
    if bits(got) != bits(first) {
        return Err(format!(
            "cast_shape({probe:?}, {motion:?}, {q:?}): {got:?}, wanted {first:?}"
        ));
    }
    met.queries += 1;
    met.found += boxes.len() + points.len() + usize::from(hit.is_some()) + want.len();
    met.found += usize::from(first.is_some());
    Ok(())
}

/// One run of `seed`: its plan, and the first disagreement (frame and what), if any.
fn run(seed: u64, met: &mut Met) -> Result<Plan, (Plan, String)> {
    let mut g = Gen::new(seed);
    let plan = Plan::draw(&mut g);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(plan.threads)
        .build()
        .expect("a thread pool");
    let mut scene = Scene::new();
    if let Some(c) = plan.cell {
        scene = scene.with_cell_size(c);
    }
    let mut model = Model::default();
    for k in 0..plan.moving + plan.statics {
        let e = Entry {
            shape: plan.shape(&mut g),
            filter: plan.filter(&mut g),
            fixed: k >= plan.moving,
            sensor: plan.sensor(&mut g),
            data: g.index(1 << 20) as u64,
        };
        let id = e.push_into(&mut scene);
        if id != model.push(e) {
            return Err((plan, format!("push {k}: id {id}")));
        }
    }
    let mut every = Stream {
        finder: plan.finder(),
        last: Vec::new(),
    };
    let mut now_and_then = Stream {
        finder: plan.finder(),
        last: Vec::new(),
    };
    let mut switching = Stream {
        finder: plan.finder(),
        last: Vec::new(),
    };
    // An earlier state of the scene, kept as a second scene with its model and the pairs that
    // model answers: `pairs_with` pairs the two, and `switching` is handed the two in turn.
    let (mut other, mut other_model) = (scene.clone(), model.clone());
    let mut other_want = other_model.pairs();
    let mut scratch = PairFinder::new();
    for frame in 0..plan.frames {
        let fail = |what: String| (plan, format!("frame {frame}: {what}"));
        for _ in 0..g.index(plan.ops + 1) {
            let live = model.live();
            match g.index(12) {
                0 | 1 => {
                    let e = Entry {
                        shape: plan.shape(&mut g),
                        filter: plan.filter(&mut g),
                        fixed: plan.statics > 0 && g.index(6) == 0,
                        sensor: plan.sensor(&mut g),
                        data: g.index(1 << 20) as u64,
                    };
                    let id = e.push_into(&mut scene);
                    if id != model.push(e) {
                        return Err(fail(format!("push: id {id}")));
                    }
                }
                2..=4 => {
                    // A live id or a stale one; now and then a push in its place at once.
                    let id = match g.index(4) {
                        0 => model.stale(g.index(1000)),
                        _ if live.is_empty() => continue,
                        _ => live[g.index(live.len())],
                    };
                    let want = model.remove(id);
                    let got = scene.remove(id);
                    if got.is_some() != want.is_some() || scene.remove(id).is_some() {
                        return Err(fail(format!("remove({id}) gave {got:?}")));
                    }
                    if let Some(e) = want.filter(|_| g.index(2) == 0) {
                        let new = e.push_into(&mut scene);
                        if new != model.push(e) || new == id {
                            return Err(fail(format!("push after remove({id}): id {new}")));
                        }
                    }
                }
                5 | 6 if !live.is_empty() => {
                    let id = live[g.index(live.len())];
                    let e = model.get(id).expect("live");
                    let s = if g.index(3) == 0 {
                        plan.shape(&mut g)
                    } else {
                        moved(e.shape, id, frame, 0.3, plan.side)
                    };
                    scene.set(id, s);
                    model.get_mut(id).shape = s;
                }
                7 if !live.is_empty() && plan.layered => {
                    let id = live[g.index(live.len())];
                    if g.index(3) == 0 {
                        let sensor = !model.get(id).expect("live").sensor;
                        scene.set_sensor(id, sensor);
                        model.get_mut(id).sensor = sensor;
                    } else {
                        let f = plan.filter(&mut g);
                        scene.set_filter(id, f);
                        model.get_mut(id).filter = f;
                    }
                }
                8 if g.index(60) == 0 => scene.reorder(),
                9 if g.index(60) == 0 => {
                    every.finder.forget();
                    every.last.clear();
                }
                _ => {}
            }
        }
        scene.update(|id, s| plan.step(id, frame, s));
        for id in model.live() {
            if !model.get(id).expect("live").fixed {
                let e = model.get_mut(id);
                e.shape = plan.step(id, frame, e.shape);
            }
        }
        let want = model.pairs();
        let solid = model.solid(&want);
        let call = match g.index(8) {
            0 => 1,
            1 => 2,
            _ => 0,
        };
        pool.install(|| check(&mut every, &scene, &want, &solid, call, &mut scratch, met))
            .map_err(|e| fail(format!("the finder called every frame: {e}")))?;
        if frame % 5 == 4 {
            pool.install(|| {
                check(
                    &mut now_and_then,
                    &scene,
                    &want,
                    &want,
                    0,
                    &mut scratch,
                    met,
                )
            })
            .map_err(|e| fail(format!("the finder called every fifth frame: {e}")))?;
        }
        let (on, want_there) = if frame % 2 == 0 {
            (&scene, &want)
        } else {
            (&other, &other_want)
        };
        pool.install(|| {
            check(
                &mut switching,
                on,
                want_there,
                want_there,
                0,
                &mut scratch,
                met,
            )
        })
        .map_err(|e| fail(format!("the finder handed two scenes in turn: {e}")))?;
        if frame % 4 == 1 {
            let got = pool.install(|| scene.pairs_with(&other));
            let cross = model.cross(&other_model);
            if got != cross {
                return Err(fail(format!("pairs_with: {}", difference(&got, &cross))));
            }
            met.crossed += cross.len();
        }
        if frame % 8 == 7 {
            (other, other_model, other_want) = (scene.clone(), model.clone(), want.clone());
        }
        if frame % 2 == 0 {
            check_queries(&scene, &model, &plan, &mut g, &mut scratch, met)
                .map_err(|e| fail(format!("queries: {e}")))?;
        }
        // Every live id's user data and sensor flag, and a few stale ids: none.
        for id in model
            .live()
            .into_iter()
            .chain((0..4).map(|k| model.stale(k + frame as usize)))
        {
            let e = model.get(id);
            if scene.user_data(id) != e.map(|e| e.data)
                || scene.is_sensor(id) != e.is_some_and(|e| e.sensor)
                || scene.contains(id) != e.is_some()
            {
                return Err(fail(format!("the bookkeeping of id {id}")));
            }
        }
        if scene.len() != model.live().len() {
            return Err(fail(format!(
                "len {} of {}",
                scene.len(),
                model.live().len()
            )));
        }
        met.frames += 1;
        met.largest = met.largest.max(scene.len());
    }
    met.runs += 1;
    Ok(plan)
}

fn usage(problem: &str) -> ! {
    eprintln!("world_fuzz: {problem}");
    eprintln!("usage: world_fuzz [--seconds S] [--seed S] [--runs N]");
    std::process::exit(2)
}

fn main() {
    let (mut seconds, mut runs) = (None, None);
    let mut seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args
            .next()
            .unwrap_or_else(|| usage(&format!("{flag} needs a value")));
        fn num<T: std::str::FromStr>(flag: &str, v: &str) -> T {
            v.parse()
                .unwrap_or_else(|_| usage(&format!("{flag} takes a number, got {v:?}")))
        }
        match flag.as_str() {
            "--seconds" => seconds = Some(num::<f64>(&flag, &value)),
            "--seed" => seed = num(&flag, &value),
            "--runs" => runs = Some(num::<usize>(&flag, &value)),
            other => usage(&format!("unknown option {other:?}")),
        }
    }
    // With only a number of runs, no time limit.
    let budget = match (seconds, runs) {
        (Some(s), _) => Duration::from_secs_f64(s),
        (None, Some(_)) => Duration::MAX,
        (None, None) => Duration::from_secs(60),
    };
    println!("world fuzz: first seed {seed}");
    let (start, mut met) = (Instant::now(), Met::default());
    let mut s = seed;
    while start.elapsed() < budget && runs.is_none_or(|n| met.runs < n) {
        match run(s, &mut met) {
            Ok(plan) if runs.is_some() => println!("seed {s}: {plan:?}"),
            Ok(_) => {}
            Err((plan, what)) => {
                eprintln!("MISMATCH, seed {s} (replay: --seed {s} --runs 1)");
                eprintln!("  plan: {plan:?}");
                eprintln!("  {what}");
                std::process::exit(1);
            }
        }
        s += 1;
    }
    println!(
        "world fuzz: {} runs, {} frames, {} calls checked ({} rebuilt, {} followed escapers), {} began and ended pairs, {} frames' queries (finding {}), {} pairs across two scenes, scenes up to {} shapes, in {:.0?}: no disagreement",
        met.runs,
        met.frames,
        met.calls,
        met.rebuilt,
        met.followed,
        met.events,
        met.queries,
        met.found,
        met.crossed,
        met.largest,
        start.elapsed()
    );
}

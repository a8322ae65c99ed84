//! World fuzzer: random `Scene` histories against a model of what the scene must answer, until a
//! time budget runs out. Each run draws its own scene (a few dozen to several thousand moving
//! shapes, none to twice as many static ones, sparse or crowded, awkward shapes among them),
//! finder settings (margin, rebuild threshold), the grid's cell size (automatic or fixed),
//! thread count (one, two, three or sixteen, or those `--threads` names) and motion (slow,
//! fast, a share of the shapes jumping, every shape teleporting), then plays frames of random
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
//!     [--large]     worlds of 20 k to 300 k moving shapes, each call checked against a
//!                   search from scratch on another thread count (see `world_fuzz/large.rs`)
//!     [--threads L] the thread counts the runs draw from (default 1,2,3,16), e.g. 4,5,8,64
//!                   for the counts at which the passes change how they split
//! ```
//!
//! On a disagreement it prints the run's seed, its plan, the frame and what differs, and exits
//! with status 1; `--seed S --runs 1` replays that run.

#[path = "world_fuzz/large.rs"]
mod large;
#[path = "../../tests/support/model.rs"]
mod model;
#[path = "world_fuzz/plan.rs"]
mod plan;
#[path = "../../tests/support/shapes.rs"]
mod shapes;

use model::{Entry, Model, brute_point, brute_query, events};
use plan::Plan;
use shapes::Gen;
use std::time::{Duration, Instant};
use widephase::{Aabb, Contact, Manifold, PairFinder, Point, Ray, Scene, Shape};

/// A kept finder's stream of answers: the finder and the last answer it gave.
struct Stream {
    finder: PairFinder,
    last: Vec<(u32, u32)>,
}

/// What the runs met, summed: frames, checked calls, of those the ones that rebuilt or searched
/// from scratch, the ones that followed escapers and the ones that kept still candidates
/// without a kernel, began and ended pairs.
#[derive(Default)]
struct Met {
    runs: usize,
    frames: usize,
    calls: usize,
    rebuilt: usize,
    followed: usize,
    still: usize,
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
    met.still += usize::from(s.still > 0);
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

/// A pool of `threads` threads.
fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool")
}

/// One run of `seed`: its plan, and the first disagreement (frame and what), if any.
fn run(seed: u64, threads: &[usize], met: &mut Met) -> Result<Plan, (Plan, String)> {
    let mut g = Gen::new(seed);
    let plan = Plan::draw(&mut g, threads);
    let pool = pool(plan.threads);
    let mut scene = Scene::new();
    if let Some(c) = plan.cell {
        scene = scene.with_cell_size(c);
    }
    let mut model = Model::default();
    for k in 0..plan.moving + plan.statics {
        let e = plan.entry(&mut g, k >= plan.moving);
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
                    let s = plan.set_to(&mut g, id, frame, e.shape);
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
    eprintln!("usage: world_fuzz [--seconds S] [--seed S] [--runs N] [--large] [--threads L]");
    std::process::exit(2)
}

fn main() {
    let (mut seconds, mut runs, mut large) = (None, None, false);
    let mut threads = plan::THREADS.to_vec();
    let mut seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        if flag == "--large" {
            large = true;
            continue;
        }
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
            "--threads" => {
                threads = value.split(',').map(|v| num(&flag, v)).collect();
                if threads.contains(&0) {
                    usage("--threads takes counts of one or more");
                }
            }
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
        let result = if large {
            large::run_large(s, &threads, &mut met)
        } else {
            run(s, &threads, &mut met)
        };
        match result {
            Ok(plan) if runs.is_some() => println!("seed {s}: {plan:?}"),
            Ok(_) => {}
            Err((plan, what)) => {
                let mut again = if large { " --large" } else { "" }.to_string();
                if threads != plan::THREADS {
                    let listed: Vec<String> = threads.iter().map(usize::to_string).collect();
                    again += &format!(" --threads {}", listed.join(","));
                }
                eprintln!("MISMATCH, seed {s} (replay: --seed {s} --runs 1{again})");
                eprintln!("  plan: {plan:?}");
                eprintln!("  {what}");
                std::process::exit(1);
            }
        }
        s += 1;
    }
    println!(
        "world fuzz: {} runs, {} frames, {} calls checked ({} rebuilt, {} followed escapers, {} kept still candidates), {} began and ended pairs, {} frames' queries (finding {}), {} pairs across two scenes, scenes up to {} shapes, in {:.0?}: no disagreement",
        met.runs,
        met.frames,
        met.calls,
        met.rebuilt,
        met.followed,
        met.still,
        met.events,
        met.queries,
        met.found,
        met.crossed,
        met.largest,
        start.elapsed()
    );
}

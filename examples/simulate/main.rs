//! The main demo: 100 000 moving shapes (circles, AABBs, rotating OBBs, rotating convex
//! polygons of 3 to 8 sides and rotating capsules, a fifth each) bouncing off each other, off a static border of
//! walls and off static pillars. Every frame moves them (`Scene::update`, which skips the
//! static shapes), asks a kept `PairFinder` for the contact of every overlapping pair (the
//! finder updates its grid for the shapes that moved out of their enlarged boxes; the static
//! shapes were filed once), and resolves each contact: two bodies are pushed apart along its
//! normal by part of its depth, split between them, and their relative velocity along the
//! normal is reflected; a body against a wall or pillar takes the whole push. The shapes come
//! to rest against each other instead of passing through. Prints the contacts, the largest and
//! median depth left and the pairs that began and ended every 30 frames, per-frame timings, and
//! writes an SVG of a corner of the last frame (overlapping shapes red, static shapes dark,
//! each contact manifold point a dot with a tick along its normal).
//!
//! Every frame also fires a volley of bullets (small circles and short capsules, 3–6 units a
//! frame) through a range of thin walls (0.02 thick, `bullets.rs`) with
//! `SceneIndex::cast_shape`, checks every step against the walls' exact crossings, prints how
//! many tunnelled (0), and draws the latest bullet paths and impact points in the picture.
//!
//! ```text
//! cargo run --release --example simulate
//!     [--shapes N] (100000) [--frames F] (300) [--threads T] (all) [--seed S] (1)
//!     [--out FILE] (simulate.svg)
//! ```

mod bullets;
mod picture;

use indicatif::{ProgressBar, ProgressStyle};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use std::time::{Duration, Instant};
use widephase::{
    Aabb, Capsule, Circle, Contact, Obb, PairFinder, Polygon, SIMD_BACKEND, Scene, Shape,
};

struct Options {
    shapes: usize,
    frames: usize,
    threads: Option<usize>,
    seed: u64,
    out: String,
}

fn usage(problem: &str) -> ! {
    eprintln!("simulate: {problem}");
    eprintln!("usage: simulate [--shapes N] [--frames F] [--threads T] [--seed S] [--out FILE]");
    std::process::exit(2)
}

fn parse_options() -> Options {
    let mut o = Options {
        shapes: 100_000,
        frames: 300,
        threads: None,
        seed: 1,
        out: "simulate.svg".into(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args
            .next()
            .unwrap_or_else(|| usage(&format!("{flag} needs a value")));
        let num = |v: &str| -> usize {
            v.parse()
                .unwrap_or_else(|_| usage(&format!("{flag} takes a whole number, got {v:?}")))
        };
        match flag.as_str() {
            "--shapes" => o.shapes = num(&value),
            "--frames" => o.frames = num(&value).max(1),
            "--threads" => o.threads = Some(num(&value).max(1)),
            "--seed" => o.seed = num(&value) as u64,
            "--out" => o.out = value,
            other => usage(&format!("unknown option {other:?}")),
        }
    }
    o
}

/// One body: its shape's kind and size, position, velocity, angle and spin (for OBBs,
/// polygons and capsules), and a polygon's outline around the origin.
struct Body {
    kind: u8,
    size: (f32, f32),
    outline: Option<Polygon>,
    pos: (f32, f32),
    vel: (f32, f32),
    angle: f32,
    spin: f32,
}

impl Body {
    fn shape(&self) -> Shape {
        let (x, y) = self.pos;
        match self.kind {
            0 => Circle::new(x, y, self.size.0).into(),
            1 => Aabb::from_center(x, y, self.size.0, self.size.1).into(),
            2 => Obb::new(x, y, self.size.0, self.size.1, self.angle).into(),
            // A capsule: half length `size.0`, radius half of `size.1`, turned like the boxes.
            4 => {
                let (half, r) = (self.size.0, 0.5 * self.size.1);
                Capsule::new(-half, 0.0, half, 0.0, r)
                    .transformed(x, y, self.angle)
                    .into()
            }
            _ => match &self.outline {
                Some(p) => p.transformed(x, y, self.angle).into(),
                None => unreachable!("polygon bodies have an outline"),
            },
        }
    }

    /// Moves one time step (the static walls keep it in the box).
    fn step(&mut self, dt: f32) {
        self.pos.0 += self.vel.0 * dt;
        self.pos.1 += self.vel.1 * dt;
        self.angle += self.spin * dt;
    }
}

/// A duration as milliseconds with two decimals, e.g. `6.42 ms`.
fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1e3)
}

fn median(v: &mut [Duration]) -> Duration {
    v.sort_unstable();
    v[v.len() / 2]
}

/// Share of a contact's depth removed per frame (the rest next frame, so piles settle instead
/// of jumping), and how much of the approach speed along the normal a bounce keeps.
const PUSH: f32 = 0.5;
const RESTITUTION: f32 = 0.6;

/// Resolves the contacts of one frame: equal masses, each body of a pair pushed half of
/// `PUSH · depth` along the normal (`a` back, `b` forward), and a pair that still approaches
/// along the normal gets its relative velocity there reflected (scaled by `RESTITUTION`). The
/// static shapes have ids from `bodies.len()` on, after every body, so in a pair `(a, b)` with
/// one of them `b` is static: it does not move, and `a` takes the whole push and bounce.
fn resolve(bodies: &mut [Body], contacts: &[(u32, u32, Contact)]) {
    let moving = bodies.len();
    for &(a, b, c) in contacts {
        let [nx, ny] = c.normal;
        let (a, b) = (a as usize, b as usize);
        let (vb, share) = if b < moving {
            (bodies[b].vel, 0.5)
        } else {
            ((0.0, 0.0), 1.0)
        };
        let push = share * PUSH * c.depth;
        bodies[a].pos.0 -= push * nx;
        bodies[a].pos.1 -= push * ny;
        let approach = (vb.0 - bodies[a].vel.0) * nx + (vb.1 - bodies[a].vel.1) * ny;
        let j = if approach < 0.0 {
            -(1.0 + RESTITUTION) * approach * share
        } else {
            0.0
        };
        bodies[a].vel.0 -= j * nx;
        bodies[a].vel.1 -= j * ny;
        if b < moving {
            bodies[b].pos.0 += push * nx;
            bodies[b].pos.1 += push * ny;
            bodies[b].vel.0 += j * nx;
            bodies[b].vel.1 += j * ny;
        }
    }
}

/// The static shapes: four walls around `[0, side]²` and a lattice of pillars (rotated boxes
/// and hexagons) every 40 units inside.
fn statics(side: f32) -> Vec<Shape> {
    const THICK: f32 = 4.0;
    let mut out: Vec<Shape> = vec![
        Aabb::new(-THICK, -THICK, side + THICK, 0.0).into(),
        Aabb::new(-THICK, side, side + THICK, side + THICK).into(),
        Aabb::new(-THICK, 0.0, 0.0, side).into(),
        Aabb::new(side, 0.0, side + THICK, side).into(),
    ];
    let mut k = 0;
    let mut y = 20.0;
    while y < side - 10.0 {
        let mut x = 20.0;
        while x < side - 10.0 {
            out.push(if k % 2 == 0 {
                Obb::new(x, y, 3.0, 1.0, 0.4 * k as f32).into()
            } else {
                Polygon::regular(6, x, y, 2.5, 0.0).into()
            });
            (x, k) = (x + 40.0, k + 1);
        }
        y += 40.0;
    }
    out
}

/// The largest and the median depth of a frame's contacts (0 without contacts).
fn depths(contacts: &[(u32, u32, Contact)], scratch: &mut Vec<f32>) -> (f32, f32) {
    scratch.clear();
    scratch.extend(contacts.iter().map(|c| c.2.depth));
    if scratch.is_empty() {
        return (0.0, 0.0);
    }
    let largest = scratch.iter().copied().fold(0.0, f32::max);
    let mid = scratch.len() / 2;
    let (_, &mut median, _) = scratch.select_nth_unstable_by(mid, f32::total_cmp);
    (largest, median)
}

fn main() {
    let o = parse_options();
    if let Some(t) = o.threads {
        rayon::ThreadPoolBuilder::new()
            .num_threads(t)
            .build_global()
            .expect("the first pool");
    }
    // Half extents and radii 0.5-1.5 (capsules: half length 0.5-1.5, radius 0.25-0.75); the
    // square is sized so the shapes cover about 30 % of it. Mean areas: circles π·E[r²] =
    // π·13/12, boxes 4·E[hw]·E[hh] = 4, regular n-gons n/2·sin(2π/n)·E[r²], about 2.31·13/12
    // averaged over n = 3..8, capsules 4·E[half]·E[r] + π·E[r²] = 2 + π·13/48.
    let pi = core::f32::consts::PI;
    let mean_area = (pi * 13.0 / 12.0 + 8.0 + 2.31 * 13.0 / 12.0 + 2.0 + pi * 13.0 / 48.0) / 5.0;
    let side = (o.shapes as f32 * mean_area / 0.3).sqrt().max(10.0);
    let mut rng = SmallRng::seed_from_u64(o.seed);
    let mut bodies: Vec<Body> = (0..o.shapes)
        .map(|i| Body {
            kind: (i % 5) as u8,
            size: (rng.random_range(0.5..1.5), rng.random_range(0.5..1.5)),
            outline: None,
            pos: (rng.random_range(0.0..side), rng.random_range(0.0..side)),
            vel: (rng.random_range(-5.0..5.0), rng.random_range(-5.0..5.0)),
            angle: rng.random_range(-3.2..3.2),
            spin: rng.random_range(-2.0..2.0),
        })
        .collect();
    for body in bodies.iter_mut().filter(|b| b.kind == 3) {
        let sides = rng.random_range(3..=8usize);
        body.outline = Some(Polygon::regular(sides, 0.0, 0.0, body.size.0, 0.0));
    }
    let mut scene: Scene = bodies.iter().map(Body::shape).collect();
    let walls = statics(side);
    for s in &walls {
        scene.push_static(*s);
    }
    let mut finder = PairFinder::new();
    // The bullets' range: thin static walls in a scene of their own, indexed once.
    let range_walls = bullets::walls(12);
    let range: Scene = range_walls.iter().copied().collect();
    let mut range_finder = PairFinder::new();
    let range_index = range_finder.index(&range);
    let mut shots = bullets::Bullets::default();
    let mut shot_rng = SmallRng::seed_from_u64(o.seed.wrapping_add(1));
    let (mut contacts, mut depth_scratch) = (Vec::new(), Vec::new());
    let mut overlapping = vec![false; o.shapes];
    let threads = rayon::current_num_threads();
    println!(
        "simulate: {} shapes in a {side:.0} x {side:.0} box of static walls with {} static pillars, {} frames, {threads} thread(s), SIMD backend {SIMD_BACKEND}",
        o.shapes,
        walls.len() - 4,
        o.frames
    );

    let bar = ProgressBar::new(o.frames as u64).with_style(
        ProgressStyle::with_template("{bar:40} frame {pos}/{len} {elapsed} {msg}")
            .expect("valid template"),
    );
    let (mut frame_times, mut update_times, mut broad_times, mut kernel_times) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let (mut contact_times, mut resolve_times) = (Vec::new(), Vec::new());
    println!(
        "frame  contacts  largest depth  median depth  began  ended  (before this frame's push)"
    );
    let (mut tested, mut kernel_total, mut touching, mut rebuilds) =
        (0usize, Duration::ZERO, 0usize, 0usize);
    let (mut began, mut ended) = (Vec::new(), Vec::new());
    let dt = 1.0 / 60.0;
    for frame in 0..o.frames {
        let start = Instant::now();
        for body in &mut bodies {
            body.step(dt);
        }
        // Every shape to its body's new place, on rayon's threads.
        scene.update(|id, _| bodies[id as usize].shape());
        update_times.push(start.elapsed());
        finder.contacts(&scene, &mut contacts);
        let resolving = Instant::now();
        resolve(&mut bodies, &contacts);
        resolve_times.push(resolving.elapsed());
        frame_times.push(start.elapsed());
        shots.step(&range_index, &range_walls, &mut shot_rng, dt);
        overlapping.fill(false);
        for &(a, b, _) in &contacts {
            for id in [a, b] {
                if let Some(o) = overlapping.get_mut(id as usize) {
                    *o = true;
                }
            }
        }
        // Pairs that started and stopped touching this frame (the first frame: all began).
        let events = (finder.began().len(), finder.ended().len());
        if frame > 0 {
            began.push(events.0);
            ended.push(events.1);
        }
        touching = overlapping.iter().filter(|&&t| t).count();
        let (largest, middle) = depths(&contacts, &mut depth_scratch);
        if frame % 30 == 0 || frame + 1 == o.frames {
            bar.suspend(|| {
                println!(
                    "{frame:5}  {:8}  {largest:13.4}  {middle:12.4}  {:5}  {:5}",
                    contacts.len(),
                    events.0,
                    events.1
                )
            });
        }
        let s = finder.stats();
        broad_times.push(s.build + s.search + s.pack + s.sort);
        kernel_times.push(s.kernels);
        contact_times.push(s.contacts);
        rebuilds += usize::from(s.rebuilt);
        tested += s.candidates;
        kernel_total += s.kernels;
        bar.inc(1);
        bar.set_message(format!(
            "{} contacts, depth largest {largest:.3} median {middle:.3}",
            contacts.len()
        ));
    }
    bar.finish_and_clear();

    let worst = *frame_times.iter().max().expect("at least one frame");
    println!(
        "frame time: median {}, worst {}",
        ms(median(&mut frame_times.clone())),
        ms(worst)
    );
    println!(
        "  moving the bodies and Scene::update: median {}; broadphase (escape check, grid, candidates, pack): median {}; kernels: median {}; contacts: median {}; resolving them: median {} (phase times are summed over threads)",
        ms(median(&mut update_times)),
        ms(median(&mut broad_times)),
        ms(median(&mut kernel_times)),
        ms(median(&mut contact_times)),
        ms(median(&mut resolve_times))
    );
    println!(
        "  the kept PairFinder rebuilt its grid in {rebuilds} of {} frames and updated it in the others",
        o.frames
    );
    if !began.is_empty() {
        began.sort_unstable();
        ended.sort_unstable();
        println!(
            "  pairs per frame (median): {} began, {} ended",
            began[began.len() / 2],
            ended[ended.len() / 2]
        );
    }
    println!(
        "  last frame: {} contacts, {touching} of {} shapes overlap something",
        contacts.len(),
        o.shapes
    );
    println!(
        "  kernels tested {tested} candidate pairs, {:.0} M pairs/s of kernel time",
        tested as f64 / kernel_total.as_secs_f64().max(1e-9) / 1e6
    );
    // The picture's manifold points: where the bodies touch after the last frame's push.
    scene.update(|id, _| bodies[id as usize].shape());
    let manifolds = scene.manifolds();
    let points: usize = manifolds.iter().map(|m| usize::from(m.2.count)).sum();
    println!(
        "  after the last push: {} manifolds, {points} points ({} with two)",
        manifolds.len(),
        manifolds.iter().filter(|m| m.2.count == 2).count()
    );
    let mut casts = shots.cast_times.clone();
    println!(
        "  bullets: {} fired (circles r 0.05 and capsules 0.3 long, 3-6 units a frame) through {} walls 0.02 thick: {} stopped on a wall, {} tunnelled (each step checked against every wall's exact crossing); casts: median {} a frame",
        shots.fired,
        range_walls.len(),
        shots.hits,
        shots.tunnellings,
        ms(median(&mut casts))
    );
    let drawing = picture::svg(
        &bodies,
        &overlapping,
        &walls,
        &manifolds,
        (&range_walls, &shots.paths),
    );
    match std::fs::write(&o.out, drawing) {
        Ok(()) => println!("picture of the last frame (bottom-left corner): {}", o.out),
        Err(e) => eprintln!("could not write {}: {e}", o.out),
    }
    if shots.tunnellings > 0 {
        eprintln!(
            "simulate: {} bullets tunnelled through a wall",
            shots.tunnellings
        );
        std::process::exit(1);
    }
}

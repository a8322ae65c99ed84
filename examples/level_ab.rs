//! Uncommitted harness: mean phases of kept level frames.
#[path = "../tests/support/shapes.rs"]
#[allow(dead_code)]
mod shapes;
use shapes::{Gen, Motion};
use std::time::{Duration, Instant};
use widephase::{Aabb, Circle, PairFinder, Polygon, Scene, Shape};

fn main() {
    rayon::ThreadPoolBuilder::new()
        .num_threads(std::env::var("THREADS").map_or(1, |t| t.parse().unwrap()))
        .build_global()
        .unwrap();
    let which = std::env::var("SCENE").unwrap_or_default();
    let (scene, side) = match which.as_str() {
        "100k" => moving_scene(false),
        "100ks" => moving_scene(true),
        "1m" => {
            let scene: Scene = Gen::new(7).mixed_scene(1_000_000).into_iter().collect();
            let side = scene.iter().map(|(_, s)| s.bounding_box().max_x).fold(0.0f32, f32::max);
            (scene, side)
        }
        "nolevel" => level(false),
        _ => level(true),
    };
    let mut scene = scene;
    let motion = Motion::new(&scene, 0.04, side);
    let (mut finder, mut pairs, mut frame) = (PairFinder::new(), Vec::new(), 0u32);
    for _ in 0..20 {
        motion.step(&mut scene, &mut frame);
        finder.overlapping_pairs(&scene, &mut pairs);
    }
    let frames: usize = std::env::var("FRAMES").map_or(300, |f| f.parse().unwrap());
    let (mut total, mut upd) = (Duration::ZERO, Duration::ZERO);
    let mut ph = [Duration::ZERO; 6];
    let (mut esc, mut cand, mut hits) = (0usize, 0usize, 0usize);
    let mut ev = 0usize;
    let mut times = Vec::new();
    for _ in 0..frames {
        let t0 = Instant::now();
        motion.step(&mut scene, &mut frame);
        let t1 = Instant::now();
        if std::env::var("SCRATCH").is_ok() {
            finder.overlapping_pairs_from_scratch(&scene, &mut pairs);
        } else {
            finder.overlapping_pairs(&scene, &mut pairs);
        }
        let t = t0.elapsed();
        total += t;
        upd += t1 - t0;
        times.push(t);
        if std::env::var("SLOW").is_ok() {
            let s = finder.stats();
            eprintln!(
                "{} {:.0} esc {} reb {} search {:.0} pack {:.0} build {:.0}",
                frame,
                t.as_secs_f64() * 1e6,
                s.escaped,
                s.rebuilt,
                s.search.as_secs_f64() * 1e6,
                s.pack.as_secs_f64() * 1e6,
                s.build.as_secs_f64() * 1e6
            );
        }
        let s = finder.stats();
        for (a, b) in ph
            .iter_mut()
            .zip([s.build, s.search, s.pack, s.kernels, s.sort, s.events])
        {
            *a += b;
        }
        esc += s.escaped;
        cand += s.candidates;
        hits += s.pairs;
        ev += s.began + s.ended;
    }
    times.sort();
    println!("began+ended per frame {:.0}", ev as f64 / frames as f64);
    let us = |d: Duration| d.as_secs_f64() * 1e6 / frames as f64;
    println!(
        "median {:.0} us mean {:.0} us: update {:.0} build {:.0} search {:.0} pack {:.0} kernels {:.0} sort {:.0} events {:.0}; escaped {:.0} candidates {:.0} pairs {:.0}",
        times[frames / 2].as_secs_f64() * 1e6,
        us(total),
        us(upd),
        us(ph[0]),
        us(ph[1]),
        us(ph[2]),
        us(ph[3]),
        us(ph[4]),
        us(ph[5]),
        esc as f64 / frames as f64,
        cand as f64 / frames as f64,
        hits as f64 / frames as f64
    );
}

fn morton(x: f32, y: f32) -> u64 {
    let spread = |v: u32| {
        let mut v = u64::from(v);
        v = (v | v << 16) & 0x0000_ffff_0000_ffff;
        v = (v | v << 8) & 0x00ff_00ff_00ff_00ff;
        v = (v | v << 4) & 0x0f0f_0f0f_0f0f_0f0f;
        v = (v | v << 2) & 0x3333_3333_3333_3333;
        v = (v | v << 1) & 0x5555_5555_5555_5555;
        v
    };
    spread((x / 4.0).max(0.0) as u32) | spread((y / 4.0).max(0.0) as u32) << 1
}

fn moving_scene(spatial: bool) -> (Scene, f32) {
    let mut shapes = Gen::new(7).mixed_scene(100_000);
    if spatial {
        shapes.sort_by_key(|s| {
            let b = s.bounding_box();
            morton((b.min_x + b.max_x) / 2.0, (b.min_y + b.max_y) / 2.0)
        });
    }
    let scene: Scene = shapes.into_iter().collect();
    let side = scene.iter().map(|(_, s)| s.bounding_box().max_x).fold(0.0f32, f32::max);
    (scene, side)
}

fn level(tiles_too: bool) -> (Scene, f32) {
    let mut g = Gen::new(41);
    let n = 1_000_000;
    let side = (n as f64 * 3.4 / 0.3).sqrt() as f32;
    let tiles: Vec<Shape> = (0..n)
        .map(|i| -> Shape {
            let (x, y) = (g.uniform(0.0, side), g.uniform(0.0, side));
            if i % 2 == 0 {
                Aabb::from_center(x, y, g.uniform(0.5, 1.5), g.uniform(0.5, 1.5)).into()
            } else {
                let r = g.uniform(0.5, 1.5);
                Polygon::regular(6, x, y, r, g.uniform(0.0, 1.0)).into()
            }
        })
        .collect();
    let moving: Vec<Shape> = (0..10_000)
        .map(|i| -> Shape {
            let (x, y) = (g.uniform(0.0, side), g.uniform(0.0, side));
            if i % 2 == 0 {
                Circle::new(x, y, g.uniform(0.5, 1.5)).into()
            } else {
                Aabb::from_center(x, y, g.uniform(0.5, 1.5), g.uniform(0.5, 1.5)).into()
            }
        })
        .collect();
    let mut scene = Scene::new();
    for s in &moving {
        scene.push(*s);
    }
    for t in tiles.iter().filter(|_| tiles_too) {
        scene.push_static(*t);
    }
    (scene, side)
}

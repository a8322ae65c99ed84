//! The demo's bullets: every frame a volley of small circles and short capsules flies right at
//! 180–360 units a second (3–6 units a frame) through a range of thin static walls (0.02
//! thick, 4 apart), each bullet's step cast with `SceneIndex::cast_shape` against the range's
//! own `Scene`; a bullet stops where it first touches a wall. Each step is also checked
//! against every wall's exact crossing in `f64` (the time the bullet's front reaches the
//! wall's near face, where the wall spans the bullet): a step whose cast reports no wall, or
//! reports one later than that crossing, is a tunnelling.

use rand::RngExt;
use rand::rngs::SmallRng;
use std::time::{Duration, Instant};
use widephase::{Aabb, Capsule, Circle, SceneIndex, Shape};

/// Bullets fired per frame.
const VOLLEY: usize = 32;

/// The range: `count` walls 0.02 thick and 20 tall, one every 4 units from x = 12, at four
/// staggered heights between y = 6 and 58 (in the picture's corner), so that bullets pass some
/// and stop at a later one.
pub fn walls(count: usize) -> Vec<Aabb> {
    (0..count)
        .map(|k| {
            let (x, y) = (12.0 + 4.0 * k as f32, 6.0 + 10.0 * ((k * 3) % 4) as f32);
            Aabb::new(x, y, x + 0.02, y + 20.0)
        })
        .collect()
}

/// A bullet's path for the picture: from, to, and whether it ended on a wall.
pub type Path = ([f32; 2], [f32; 2], bool);

struct Bullet {
    shape: Shape,
    vel: [f32; 2],
    from: [f32; 2],
}

/// The live bullets and what they did.
#[derive(Default)]
pub struct Bullets {
    live: Vec<Bullet>,
    /// The most recent paths, for the picture.
    pub paths: Vec<Path>,
    pub fired: usize,
    pub hits: usize,
    pub tunnellings: usize,
    /// Each frame's time in `cast_shape`.
    pub cast_times: Vec<Duration>,
}

/// The x of a shape's rightmost point (a bullet's front).
fn front(s: &Shape) -> f32 {
    s.bounding_box().max_x
}

/// The first wall the bullet's front crosses in `[0, 1]` of the step `m`, exactly, in `f64`:
/// `(wall, t)`, where the wall spans the bullet's vertical extent at that time.
fn first_crossing(walls: &[Aabb], s: &Shape, m: [f32; 2]) -> Option<(usize, f64)> {
    let b = s.bounding_box();
    let (x, m0, m1) = (f64::from(b.max_x), f64::from(m[0]), f64::from(m[1]));
    walls
        .iter()
        .enumerate()
        .filter_map(|(k, w)| {
            let t = (f64::from(w.min_x) - x) / m0;
            let (lo, hi) = (f64::from(b.min_y) + t * m1, f64::from(b.max_y) + t * m1);
            let spans = f64::from(w.min_y) <= lo && hi <= f64::from(w.max_y);
            ((0.0..=1.0).contains(&t) && spans).then_some((k, t))
        })
        .min_by(|p, q| p.1.total_cmp(&q.1))
}

impl Bullets {
    /// Fires a volley and moves every bullet one step of `dt` through the range.
    pub fn step(&mut self, range: &SceneIndex<'_>, walls: &[Aabb], rng: &mut SmallRng, dt: f32) {
        for i in 0..VOLLEY {
            let (x, y) = (rng.random_range(0.0..4.0), rng.random_range(10.0..54.0));
            let vel: [f32; 2] = [
                rng.random_range(180.0..360.0),
                rng.random_range(-20.0..20.0),
            ];
            let shape: Shape = if i % 2 == 0 {
                Circle::new(x, y, 0.05).into()
            } else {
                // 0.3 long along its velocity, radius 0.02.
                let len = 0.3 / (vel[0] * vel[0] + vel[1] * vel[1]).sqrt();
                Capsule::new(x - vel[0] * len, y - vel[1] * len, x, y, 0.02).into()
            };
            self.live.push(Bullet {
                shape,
                vel,
                from: [x, y],
            });
        }
        self.fired += VOLLEY;
        let mut cast = Duration::ZERO;
        let mut kept = Vec::with_capacity(self.live.len());
        for mut b in std::mem::take(&mut self.live) {
            let m = [b.vel[0] * dt, b.vel[1] * dt];
            let start = Instant::now();
            let hit = range.cast_shape(&b.shape, m);
            cast += start.elapsed();
            let t = hit.map_or(1.0, |(_, s)| s.t);
            // A wall crossed before the cast's answer, or not at all by it, is a tunnelling.
            if let Some((_, exact)) = first_crossing(walls, &b.shape, m) {
                let reported = hit.is_some_and(|(_, s)| f64::from(s.t) <= exact + 1e-4);
                self.tunnellings += usize::from(!reported);
            }
            b.shape = b.shape.translated(t * m[0], t * m[1]);
            let tip = [
                front(&b.shape),
                b.shape.bounding_box().min_y * 0.5 + b.shape.bounding_box().max_y * 0.5,
            ];
            if hit.is_some() || tip[0] > 66.0 {
                self.hits += usize::from(hit.is_some());
                self.paths.push((b.from, tip, hit.is_some()));
            } else {
                kept.push(b);
            }
        }
        self.live = kept;
        let keep = 160;
        if self.paths.len() > 2 * keep {
            self.paths.drain(..self.paths.len() - keep);
        }
        self.cast_times.push(cast);
    }
}

//! Whole scenes' shapes and their motion from frame to frame, and shapes collapsed to no area:
//! part of `shapes.rs`.

#![allow(dead_code)]

use super::*;

impl Gen {
    /// `n` ordinary mixed shapes in a scene: a fifth each of circles, AABBs, OBBs, capsules and
    /// polygons, centres uniform in a square of `side`, half extents 0.5–1.5 (a tenth of them
    /// zero, turned into points and segments, or 3–20).
    pub fn mixed_world(&mut self, n: usize, side: f32) -> widephase::Scene {
        (0..n)
            .map(|_| {
                let (x, y) = (self.uniform(0.0, side), self.uniform(0.0, side));
                let size = match self.percent() {
                    0..5 => 0.0,
                    5..10 => self.uniform(3.0, 20.0),
                    _ => self.uniform(0.5, 1.5),
                };
                let shape: Shape = match self.index(5) {
                    0 => Circle::new(x, y, size).into(),
                    1 => Aabb::from_center(x, y, size, self.uniform(0.5, 1.5)).into(),
                    2 => {
                        Obb::new(x, y, size, self.uniform(0.5, 1.5), self.uniform(-3.2, 3.2)).into()
                    }
                    3 => Capsule::new(-size, 0.0, size, 0.0, 0.5 * self.uniform(0.0, 1.5))
                        .transformed(x, y, self.uniform(-3.2, 3.2))
                        .into(),
                    _ if size > 0.0 => self.convex(x, y, size).into(),
                    _ => Polygon::regular(3, x, y, 0.5, 0.0).into(),
                };
                shape
            })
            .collect()
    }

    /// `n` mixed shapes for a whole scene: a third each circles, AABBs and OBBs, radii and half
    /// extents in 0.5–1.5, centres uniform in a square sized so that the shapes' areas add up to
    /// 30 % of it (the pipeline benchmark's scene).
    pub fn mixed_scene(&mut self, n: usize) -> Vec<Shape> {
        // Mean area: circles π·E[r²] = π·13/12, boxes 4·E[hw]·E[hh] = 4.
        let mean_area = (core::f64::consts::PI * 13.0 / 12.0 + 8.0) / 3.0;
        let side = (n as f64 * mean_area / 0.3).sqrt() as f32;
        (0..n)
            .map(|i| -> Shape {
                let (x, y) = (self.uniform(0.0, side), self.uniform(0.0, side));
                match i % 3 {
                    0 => Circle::new(x, y, self.uniform(0.5, 1.5)).into(),
                    1 => {
                        let (hw, hh) = (self.uniform(0.5, 1.5), self.uniform(0.5, 1.5));
                        Aabb::from_center(x, y, hw, hh).into()
                    }
                    _ => {
                        let (hw, hh) = (self.uniform(0.5, 1.5), self.uniform(0.5, 1.5));
                        Obb::new(x, y, hw, hh, self.uniform(-3.2, 3.2)).into()
                    }
                }
            })
            .collect()
    }

    /// `n` circles whose radii spread evenly in scale over a factor 100 (0.1 to 10), covering
    /// 30 % of a square: three grid levels, the coarsest sparse.
    pub fn sized_scene(&mut self, n: usize) -> Vec<Shape> {
        // The mean of r² for log r uniform over [ln 0.1, ln 10].
        let mean_square = (100.0 - 0.01) / (2.0 * 100f64.ln());
        let side = (n as f64 * core::f64::consts::PI * mean_square / 0.3).sqrt() as f32;
        (0..n)
            .map(|_| {
                let r = 0.1 * 100f32.powf(self.uniform(0.0, 1.0));
                let (x, y) = (self.uniform(0.0, side), self.uniform(0.0, side));
                Circle::new(x, y, r).into()
            })
            .collect()
    }

    /// `n` shapes of [`mixed_scene`](Self::mixed_scene)'s kinds and sizes in 64 crowds, each
    /// a fortieth of the square wide, the square four times the area the shapes cover: a grid
    /// whose cells are crowded in places and empty between.
    pub fn crowded_scene(&mut self, n: usize) -> Vec<Shape> {
        let side = 2.0 * (n as f64 * 3.4 / 0.3).sqrt() as f32;
        let crowds: Vec<(f32, f32)> = (0..64)
            .map(|_| (self.uniform(0.0, side), self.uniform(0.0, side)))
            .collect();
        let spread = side / 40.0;
        (0..n)
            .map(|i| {
                let (cx, cy) = crowds[i % crowds.len()];
                let mut near =
                    |c: f32| c + spread * (self.uniform(-1.0, 1.0) + self.uniform(-1.0, 1.0));
                let (x, y) = (near(cx), near(cy));
                let (hw, hh) = (self.uniform(0.5, 1.5), self.uniform(0.5, 1.5));
                match i % 3 {
                    0 => Circle::new(x, y, hw).into(),
                    1 => Aabb::from_center(x, y, hw, hh).into(),
                    _ => Obb::new(x, y, hw, hh, self.uniform(-3.2, 3.2)).into(),
                }
            })
            .collect()
    }

    /// `n` shapes, half convex polygons of 3–8 vertices and half capsules, sizes 0.5–1.5,
    /// covering about 30 % of a square.
    pub fn polygon_scene(&mut self, n: usize) -> Vec<Shape> {
        let side = (n as f64 * 3.0 / 0.3).sqrt() as f32;
        (0..n)
            .map(|i| {
                let (x, y) = (self.uniform(0.0, side), self.uniform(0.0, side));
                let r = self.uniform(0.5, 1.5);
                if i % 2 == 0 {
                    self.convex(x, y, r).into()
                } else {
                    let (sin, cos) = self.uniform(-3.2, 3.2).sin_cos();
                    let (dx, dy) = (r * cos, r * sin);
                    Capsule::new(x - dx, y - dy, x + dx, y + dy, 0.3 * r).into()
                }
            })
            .collect()
    }
}

/// A number in `[0, 1)` from two integers (a hash, the same on every run): per-shape and
/// per-frame randomness for code that cannot carry a generator, such as `Scene::update`'s
/// closure.
pub fn unit_hash(a: u64, b: u64) -> f32 {
    let mut x = a.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ b.wrapping_add(0x632b_e59b_d9b4_e019);
    x ^= x >> 31;
    x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^= x >> 29;
    (x >> 40) as f32 / (1u64 << 24) as f32
}

/// How every shape of a scene moves: each its own step per frame (`speed` times its half
/// extent, the larger half side of its box, in a direction of its own) reversed every 64
/// frames so that the scene stays where it is; OBBs also turn by 0.02 radians a frame. Steps
/// and turns are computed once, so that a frame's move is a few additions per shape, as in a
/// simulation that keeps velocities. With `speed` infinite every shape is placed anywhere in
/// `[0, side)²` every frame (a teleport); [`with_jumps`](Self::with_jumps) does that to a
/// share of the shapes only, and [`with_moving`](Self::with_moving) leaves all but a share
/// where they are.
pub struct Motion {
    steps: Vec<[f32; 2]>,
    speed: f32,
    side: f32,
    /// The share of the shapes that jump anywhere in the square each frame (drawn anew every
    /// frame); the others move at `speed`.
    jumps: f32,
    /// The share of the shapes that move at all (the same ones every frame); the others stay
    /// where they are.
    moving: f32,
}

/// `(cos, sin)` of the OBBs' turn per frame, either way.
const TURN: [f32; 2] = [0.999_8, 0.019_998_667];

impl Motion {
    /// Moves every moving shape of `scene` to frame `*frame` (`Scene::update`), then counts
    /// the frame: a frame loop's move.
    pub fn step(&self, scene: &mut widephase::Scene, frame: &mut u32) {
        let f = *frame;
        scene.update(|id, s| self.apply(s, id, f));
        *frame += 1;
    }

    /// The motion of `scene`'s shapes at `speed` (a share of each shape's half extent per
    /// frame) in a square of side `side`.
    pub fn new(scene: &widephase::Scene, speed: f32, side: f32) -> Self {
        let mut steps = Vec::new();
        for (id, s) in scene.iter() {
            let b = s.bounding_box();
            let half = 0.5 * (b.max_x - b.min_x).max(b.max_y - b.min_y);
            let angle = unit_hash(u64::from(id), 0) * core::f32::consts::TAU;
            let step = if speed.is_finite() { speed * half } else { 0.0 };
            steps.resize(id as usize + 1, [0.0; 2]);
            steps[id as usize] = [step * angle.cos(), step * angle.sin()];
        }
        Self {
            steps,
            speed,
            side,
            jumps: 0.0,
            moving: 1.0,
        }
    }

    /// This motion with only a share `moving` of the shapes (the same ones every frame)
    /// moving; the others stay where they are, as bodies at rest in a game world.
    pub fn with_moving(self, moving: f32) -> Self {
        Self { moving, ..self }
    }

    /// This motion with a share `jumps` of the shapes (a different draw every frame) jumping
    /// anywhere in the square each frame instead of moving.
    pub fn with_jumps(self, jumps: f32) -> Self {
        Self { jumps, ..self }
    }

    /// Shape `id` in frame `frame`, from its shape `s` in the frame before.
    #[inline]
    pub fn apply(&self, s: Shape, id: u32, frame: u32) -> Shape {
        // The hash only where some shapes rest.
        if self.moving < 1.0 && unit_hash(u64::from(id) + (3 << 40), 0) >= self.moving {
            return s;
        }
        let back = !(frame / 64).is_multiple_of(2);
        let [mut dx, mut dy] = self.steps.get(id as usize).copied().unwrap_or([0.0; 2]);
        if back {
            (dx, dy) = (-dx, -dy);
        }
        // The hash only where some shapes jump: a frame bench's update reads this per shape.
        let jumps = self.speed.is_infinite()
            || (self.jumps > 0.0
                && unit_hash(u64::from(id) + (2 << 40), u64::from(frame)) < self.jumps);
        if jumps {
            let b = s.bounding_box();
            let (cx, cy) = (0.5 * (b.min_x + b.max_x), 0.5 * (b.min_y + b.max_y));
            let (id, f) = (u64::from(id), u64::from(frame));
            dx = unit_hash(id, f + 1) * self.side - cx;
            dy = unit_hash(id + (1 << 40), f) * self.side - cy;
        }
        match s {
            Shape::Circle(c) => Circle::new(c.x + dx, c.y + dy, c.radius).into(),
            Shape::Aabb(a) => {
                Aabb::new(a.min_x + dx, a.min_y + dy, a.max_x + dx, a.max_y + dy).into()
            }
            Shape::Obb(o) => {
                let left = id.is_multiple_of(2) != back;
                let [c, t] = if left { TURN } else { [TURN[0], -TURN[1]] };
                let (cos, sin) = (o.cos * c - o.sin * t, o.sin * c + o.cos * t);
                // One Newton step back to unit length, so that no drift builds up.
                let fix = 1.5 - 0.5 * (cos * cos + sin * sin);
                let (x, y, hw, hh) = (
                    o.center_x + dx,
                    o.center_y + dy,
                    o.half_width,
                    o.half_height,
                );
                Obb::from_rotation(x, y, hw, hh, cos * fix, sin * fix).into()
            }
            Shape::Polygon(p) => Polygon {
                xs: p.xs.map(|x| x + dx),
                ys: p.ys.map(|y| y + dy),
            }
            .into(),
            Shape::Capsule(c) => {
                Capsule::new(c.x0 + dx, c.y0 + dy, c.x1 + dx, c.y1 + dy, c.radius).into()
            }
        }
    }
}

/// Shape `id` of a moving scene one frame on: moved `speed` times its half extent (the
/// larger half side of its box) in a direction of its own, reversed every 64 frames so that
/// the scene stays where it is, an OBB also turned by 0.02 radians; with `speed` infinite,
/// placed anywhere in `[0, side)²` (a teleport).
pub fn moved(s: Shape, id: u32, frame: u32, speed: f32, side: f32) -> Shape {
    let (id, f) = (u64::from(id), u64::from(frame));
    let angle = unit_hash(id, 0) * core::f32::consts::TAU;
    let sign = if (frame / 64).is_multiple_of(2) {
        1.0
    } else {
        -1.0
    };
    let b = s.bounding_box();
    let half = 0.5 * (b.max_x - b.min_x).max(b.max_y - b.min_y);
    let (dx, dy) = if speed.is_infinite() {
        let (cx, cy) = (0.5 * (b.min_x + b.max_x), 0.5 * (b.min_y + b.max_y));
        (
            unit_hash(id, f + 1) * side - cx,
            unit_hash(id + (1 << 40), f) * side - cy,
        )
    } else {
        let step = sign * speed * half;
        (step * angle.cos(), step * angle.sin())
    };
    match s {
        Shape::Circle(c) => Circle::new(c.x + dx, c.y + dy, c.radius).into(),
        Shape::Aabb(a) => Aabb::new(a.min_x + dx, a.min_y + dy, a.max_x + dx, a.max_y + dy).into(),
        Shape::Obb(o) => {
            let turn = if unit_hash(id, 1) < 0.5 { 0.02 } else { -0.02 };
            let angle = o.angle() + turn * sign;
            Obb::new(
                o.center_x + dx,
                o.center_y + dy,
                o.half_width,
                o.half_height,
                angle,
            )
            .into()
        }
        Shape::Polygon(p) => Polygon {
            xs: p.xs.map(|x| x + dx),
            ys: p.ys.map(|y| y + dy),
        }
        .into(),
        Shape::Capsule(c) => {
            Capsule::new(c.x0 + dx, c.y0 + dy, c.x1 + dx, c.y1 + dy, c.radius).into()
        }
    }
}

/// A valid shape with no area where its kind allows one, made from an ordinary one: a box of
/// width or height 0 (a segment) or both (a point), a circle or capsule of radius 0, a capsule
/// whose ends meet; a point and a polygon stay as they are.
pub trait Collapse: Sized {
    /// This shape without area (itself where its kind has none to lose), the way picked by `g`.
    fn collapsed(self, _g: &mut Gen) -> Self {
        self
    }
}

/// `a` collapsed, `b` collapsed, or both, picked by `g` (see [`Collapse`]).
pub fn collapse_one_or_both<A: Collapse, B: Collapse>(g: &mut Gen, a: A, b: B) -> (A, B) {
    match g.index(3) {
        0 => (a.collapsed(g), b),
        1 => (a, b.collapsed(g)),
        _ => (a.collapsed(g), b.collapsed(g)),
    }
}

impl Collapse for Point {}
impl Collapse for Polygon {}

impl Collapse for Circle {
    fn collapsed(self, _: &mut Gen) -> Self {
        Circle::new(self.x, self.y, 0.0)
    }
}

impl Collapse for Aabb {
    fn collapsed(self, g: &mut Gen) -> Self {
        let (mut a, k) = (self, g.index(3));
        if k != 1 {
            a.max_x = a.min_x;
        }
        if k != 0 {
            a.max_y = a.min_y;
        }
        a
    }
}

impl Collapse for Obb {
    fn collapsed(self, g: &mut Gen) -> Self {
        let (mut o, k) = (self, g.index(3));
        if k != 1 {
            o.half_width = 0.0;
        }
        if k != 0 {
            o.half_height = 0.0;
        }
        o
    }
}

impl Collapse for Capsule {
    fn collapsed(self, g: &mut Gen) -> Self {
        let mut c = self;
        match g.index(3) {
            0 => c.radius = 0.0,
            1 => (c.x1, c.y1) = (c.x0, c.y0),
            _ => (c.x1, c.y1, c.radius) = (c.x0, c.y0, 0.0),
        }
        c
    }
}

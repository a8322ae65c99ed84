//! Seeded shape generators biased toward the cases that break overlap tests: exact touching on
//! integer coordinates, coincident centres, zero sizes, ±0, ±inf, NaN, negative sizes, huge and
//! tiny magnitudes, arbitrary bit patterns, and rotations at 0, 45 and 90 degrees.
//!
//! Also ordinary shapes (finite, valid, placed at random in a square) for the independent
//! checks and the benchmarks. Shared by the tests, the fuzzer example and the benchmarks (which
//! include this file by path): one set of generators.

#![allow(dead_code)]

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use widephase::{Aabb, Capsule, Circle, MAX_VERTICES, Manifold, Obb, Point, Polygon, Ray, Shape};

// Polygons and rays, and the scenes' shapes and motions, in files of their own (by path:
// this file is also included by path from the benches, the tools and the examples).
#[path = "shapes_polygons.rs"]
mod polygons;
#[path = "shapes_scenes.rs"]
mod scenes;
#[allow(
    unused_imports,
    reason = "each file that includes this one uses a part of it"
)]
pub use scenes::*;

/// A seeded source of awkward `f32`s and shapes built from them.
pub struct Gen {
    rng: SmallRng,
}

impl Gen {
    pub fn new(seed: u64) -> Self {
        Self {
            rng: SmallRng::seed_from_u64(seed),
        }
    }

    pub fn percent(&mut self) -> u32 {
        self.rng.random_range(0..100)
    }

    pub fn uniform(&mut self, lo: f32, hi: f32) -> f32 {
        self.rng.random_range(lo..hi)
    }

    pub fn index(&mut self, n: usize) -> usize {
        self.rng.random_range(0..n)
    }

    /// Any `u64` (user data).
    pub fn next(&mut self) -> u64 {
        self.rng.random()
    }

    /// A value that is rarely awkward: mostly small, on a grid half the time.
    pub fn special(&mut self) -> f32 {
        match self.rng.random_range(0..12) {
            0 => 0.0,
            1 => -0.0,
            2 => f32::INFINITY,
            3 => f32::NEG_INFINITY,
            4 => f32::NAN,
            5 => f32::from_bits(self.rng.random::<u32>()),
            6 => self.rng.random_range(1e15f32..3e38) * self.sign(),
            7 => self.rng.random_range(1e-40f32..1e-30) * self.sign(),
            8 => f32::MAX * self.sign(),
            9 => f32::MIN_POSITIVE * self.sign(),
            10 => 1e19 * self.sign(),
            _ => f32::EPSILON * self.sign(),
        }
    }

    fn sign(&mut self) -> f32 {
        if self.rng.random::<bool>() { 1.0 } else { -1.0 }
    }

    /// A coordinate: small integers and quarter steps (exact touching), ordinary values, and a
    /// fixed share of special values.
    pub fn coord(&mut self) -> f32 {
        match self.percent() {
            0..35 => self.rng.random_range(-3i32..=3) as f32,
            35..50 => self.rng.random_range(-12i32..=12) as f32 * 0.25,
            50..85 => self.uniform(-5.0, 5.0),
            _ => self.special(),
        }
    }

    /// A radius or half extent: mostly non-negative and small, sometimes zero, negative or special.
    pub fn size(&mut self) -> f32 {
        match self.percent() {
            0..30 => self.rng.random_range(0i32..=3) as f32,
            30..40 => self.rng.random_range(0i32..=12) as f32 * 0.25,
            40..75 => self.uniform(0.0, 3.0),
            75..80 => 0.0,
            80..84 => -self.uniform(0.0, 2.0),
            _ => self.special(),
        }
    }

    /// A rotation `(cos, sin)`: exact axis-aligned and diagonal ones, computed ones at 0/45/90
    /// degrees and at random, and now and then non-unit or non-finite.
    pub fn rotation(&mut self) -> (f32, f32) {
        let h = core::f32::consts::FRAC_1_SQRT_2;
        match self.percent() {
            0..15 => (1.0, 0.0),
            15..20 => (0.0, 1.0),
            20..25 => (-1.0, 0.0),
            25..32 => (h, h),
            32..36 => (h, -h),
            36..70 => {
                let angles = [0.0, 45.0, 90.0, 135.0, 180.0, -45.0, -90.0, 30.0];
                let deg: f32 = angles[self.index(angles.len())];
                let (s, c) = deg.to_radians().sin_cos();
                (c, s)
            }
            70..92 => {
                let (s, c) = self.uniform(-4.0, 4.0).sin_cos();
                (c, s)
            }
            92..95 => (self.uniform(-2.0, 2.0), self.uniform(-2.0, 2.0)),
            _ => (self.special(), self.special()),
        }
    }

    /// A fresh shape; one centred on `near` (coincident centres) a tenth of the time; and one
    /// of pure random bit patterns one time in fifty.
    pub fn shape<S: Arbitrary>(&mut self, near: Option<(f32, f32)>) -> S {
        if self.percent() < 2 {
            let mut s = S::arbitrary(self);
            for field in bytemuck::cast_slice_mut::<S, u32>(core::slice::from_mut(&mut s)) {
                *field = self.rng.random();
            }
            return s;
        }
        let s = S::arbitrary(self);
        match near {
            Some((x, y)) if self.percent() < 10 => s.moved_to(x, y),
            _ => s,
        }
    }

    /// Moves one random field of `s` by 1 to 4 ULPs up or down: exact touching (common on the
    /// integer grid) becomes near touching.
    pub fn nudge<S: Arbitrary>(&mut self, mut s: S) -> S {
        let fields = bytemuck::cast_slice_mut::<S, f32>(core::slice::from_mut(&mut s));
        let k = self.index(fields.len());
        let steps = self.rng.random_range(1..=4);
        let up = self.rng.random::<bool>();
        for _ in 0..steps {
            fields[k] = if up {
                fields[k].next_up()
            } else {
                fields[k].next_down()
            };
        }
        s
    }

    /// `n` pairs, the second of each sometimes sharing the first's centre, sometimes meeting
    /// the first within rounding ([`meeting`](Self::meeting)), and sometimes nudged by a few
    /// ULPs.
    pub fn pairs<A: Arbitrary, B: Arbitrary>(&mut self, n: usize) -> (Vec<A>, Vec<B>) {
        (0..n)
            .map(|_| {
                let a: A = self.shape(None);
                let mut b: B = self.shape(Some(a.center()));
                if self.percent() < 10 {
                    b = self.meeting(&a, b);
                }
                if self.percent() < 15 {
                    b = self.nudge(b);
                }
                (a, b)
            })
            .unzip()
    }
}

/// Motions for the sweeps.
impl Gen {
    /// An awkward motion for `a` against `b`: zero, special values, aimed at, through, past
    /// and away from `b`'s centre, along one axis by a whole number, huge, tiny, or ordinary.
    pub fn motion<A: Arbitrary, B: Arbitrary>(&mut self, a: &A, b: &B) -> [f32; 2] {
        let ((ax, ay), (bx, by)) = (a.center(), b.center());
        let (dx, dy) = (bx - ax, by - ay);
        match self.index(12) {
            0 => [0.0, 0.0],
            1 => [self.special(), self.special()],
            2 => [self.coord(), self.coord()],
            3 => [dx, dy],
            4 => [2.0 * dx, 2.0 * dy],
            5 => [-dx, -dy],
            6 => [2.0 * dx - dy, 2.0 * dy + dx],
            7 => [dx.round(), 0.0],
            8 => [0.0, dy.round()],
            9 => [dx * 1e6, dy * 1e6],
            10 => [dx * 1e-6, dy * 1e-6],
            _ => [self.uniform(-10.0, 10.0), self.uniform(-10.0, 10.0)],
        }
    }
}

/// Pairs whose cores meet within rounding: the configurations where a direction taken between
/// nearest points would be rounding noise.
impl Gen {
    /// A point of the shape's core as computed in `f32` (so on the core within rounding): a
    /// vertex, or a point along an edge.
    pub fn core_point<S: Arbitrary>(&mut self, s: &S) -> (f32, f32) {
        let v = s.core();
        let k = self.index(v.len());
        if v.len() < 2 || self.percent() < 40 {
            return v[k];
        }
        let (p, q) = (v[k], v[(k + 1) % v.len()]);
        let t = self.uniform(0.0, 1.0);
        (p.0 + t * (q.0 - p.0), p.1 + t * (q.1 - p.1))
    }

    /// `b` placed so that its core meets `a`'s within rounding: laid along an edge of `a`'s
    /// core where `b`'s kind can be ([`Arbitrary::along`]; overlapping it, end to end, or
    /// apart on the same line), else moved so that a point of its core (a vertex or a point
    /// along an edge) lands on a point of `a`'s.
    pub fn meeting<A: Arbitrary, B: Arbitrary>(&mut self, a: &A, b: B) -> B {
        let v = a.core();
        if v.len() >= 2 && self.percent() < 40 {
            let k = self.index(v.len());
            let (p, q) = (v[k], v[(k + 1) % v.len()]);
            let at = |t: f32| (p.0 + t * (q.0 - p.0), p.1 + t * (q.1 - p.1));
            let mut t = || match self.percent() {
                0..15 => 0.0,
                15..30 => 1.0,
                _ => self.uniform(-1.0, 2.0),
            };
            let (t0, t1) = (t(), t());
            if let Some(s) = b.along(at(t0), at(t1)) {
                return s;
            }
        }
        let (x, y) = self.core_point(a);
        let (px, py) = self.core_point(&b);
        let (cx, cy) = b.center();
        b.moved_to(cx + (x - px), cy + (y - py))
    }
}

/// Where [`Arbitrary::ordinary_in`] puts shapes and how large it makes them.
#[derive(Clone, Copy, Debug)]
pub struct Spread {
    /// Centres lie in `[-half, half)` on both axes.
    pub half: f32,
    /// Sizes lie in `[size.0, size.1)`.
    pub size: (f32, f32),
}

impl Spread {
    /// The independent checks' shapes: sizes comparable to the square, about half of the pairs
    /// overlapping.
    pub const TESTS: Spread = Spread {
        half: 4.0,
        size: (0.5, 3.5),
    };
    /// The kernel benchmarks' shapes: a 4 × 4 square, sizes 0.25–1.5, so that roughly half of
    /// the pairs overlap and neither answer is rare for a branchy peer.
    pub const BENCH: Spread = Spread {
        half: 2.0,
        size: (0.25, 1.5),
    };
}

impl Gen {
    fn at(&mut self, spread: &Spread) -> f32 {
        self.uniform(-spread.half, spread.half)
    }

    fn sized(&mut self, spread: &Spread) -> f32 {
        self.uniform(spread.size.0, spread.size.1)
    }
}

/// Shapes the generators can build.
pub trait Arbitrary: Copy + core::fmt::Debug + bytemuck::Pod {
    /// The type's name and its fields in memory order, for Rust literals.
    const NAME: &'static str;
    const FIELDS: &'static [&'static str];
    /// Anything, awkward values included.
    fn arbitrary(g: &mut Gen) -> Self;
    /// A finite, valid shape of ordinary size near the origin, with a unit rotation, spread as
    /// the tests spread them ([`Spread::TESTS`]).
    fn ordinary(g: &mut Gen) -> Self {
        Self::ordinary_in(g, &Spread::TESTS)
    }
    /// A finite, valid shape with its centre in `[-half, half)²` and its sizes (radius, half
    /// extents, a polygon's circumradius) in `size`, with a unit rotation. A ray starts in
    /// `[-2 half, 2 half)²` and aims at a point of `[-half, half)²`.
    fn ordinary_in(g: &mut Gen, spread: &Spread) -> Self;
    fn center(&self) -> (f32, f32);
    fn moved_to(self, x: f32, y: f32) -> Self;
    /// The shape's core (its outline before any radius) as computed in `f32`, counter-clockwise:
    /// one vertex for a point, a circle or a ray's origin, a capsule's two ends (one where they
    /// meet), a box's four corners, a polygon's vertices.
    fn core(&self) -> Vec<(f32, f32)>;
    /// This shape laid along the line from `p` to `q`: a shape of its kind whose core has that
    /// edge, where the kind can have one (capsules, boxes and polygons); its other sizes kept
    /// where it has them.
    fn along(&self, _p: (f32, f32), _q: (f32, f32)) -> Option<Self> {
        None
    }
    /// A Rust expression that rebuilds the shape bit for bit.
    fn literal(&self) -> String {
        let fields = bytemuck::cast_slice::<Self, f32>(core::slice::from_ref(self));
        let parts: Vec<String> = Self::FIELDS
            .iter()
            .zip(fields)
            .map(|(name, &v)| format!("{name}: {}", f32_literal(v)))
            .collect();
        format!("{} {{ {} }}", Self::NAME, parts.join(", "))
    }
}

impl Arbitrary for Point {
    const NAME: &'static str = "Point";
    const FIELDS: &'static [&'static str] = &["x", "y"];
    fn arbitrary(g: &mut Gen) -> Self {
        Point::new(g.coord(), g.coord())
    }
    fn ordinary_in(g: &mut Gen, s: &Spread) -> Self {
        Point::new(g.at(s), g.at(s))
    }
    fn core(&self) -> Vec<(f32, f32)> {
        vec![(self.x, self.y)]
    }
    fn center(&self) -> (f32, f32) {
        (self.x, self.y)
    }
    fn moved_to(self, x: f32, y: f32) -> Self {
        Point::new(x, y)
    }
}

impl Arbitrary for Circle {
    const NAME: &'static str = "Circle";
    const FIELDS: &'static [&'static str] = &["x", "y", "radius"];
    fn arbitrary(g: &mut Gen) -> Self {
        Circle::new(g.coord(), g.coord(), g.size())
    }
    fn ordinary_in(g: &mut Gen, s: &Spread) -> Self {
        Circle::new(g.at(s), g.at(s), g.sized(s))
    }
    fn core(&self) -> Vec<(f32, f32)> {
        vec![(self.x, self.y)]
    }
    fn center(&self) -> (f32, f32) {
        (self.x, self.y)
    }
    fn moved_to(self, x: f32, y: f32) -> Self {
        Circle::new(x, y, self.radius)
    }
}

impl Arbitrary for Aabb {
    const NAME: &'static str = "Aabb";
    const FIELDS: &'static [&'static str] = &["min_x", "min_y", "max_x", "max_y"];
    fn arbitrary(g: &mut Gen) -> Self {
        if g.percent() < 8 {
            // Independent bounds: inverted boxes, infinite sides, NaN bounds.
            Aabb::new(g.coord(), g.coord(), g.coord(), g.coord())
        } else {
            let (x, y) = (g.coord(), g.coord());
            Aabb::new(x, y, x + g.size(), y + g.size())
        }
    }
    fn ordinary_in(g: &mut Gen, s: &Spread) -> Self {
        Aabb::from_center(g.at(s), g.at(s), g.sized(s), g.sized(s))
    }
    fn core(&self) -> Vec<(f32, f32)> {
        let (x0, y0, x1, y1) = (self.min_x, self.min_y, self.max_x, self.max_y);
        vec![(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    }
    fn center(&self) -> (f32, f32) {
        (
            (self.min_x + self.max_x) * 0.5,
            (self.min_y + self.max_y) * 0.5,
        )
    }
    fn moved_to(self, x: f32, y: f32) -> Self {
        let hw = (self.max_x - self.min_x) * 0.5;
        let hh = (self.max_y - self.min_y) * 0.5;
        Aabb::from_center(x, y, hw, hh)
    }
}

impl Arbitrary for Obb {
    const NAME: &'static str = "Obb";
    const FIELDS: &'static [&'static str] = &[
        "center_x",
        "center_y",
        "half_width",
        "half_height",
        "cos",
        "sin",
    ];
    fn arbitrary(g: &mut Gen) -> Self {
        let (c, s) = g.rotation();
        Obb::from_rotation(g.coord(), g.coord(), g.size(), g.size(), c, s)
    }
    fn ordinary_in(g: &mut Gen, s: &Spread) -> Self {
        let angle = g.uniform(-3.2, 3.2);
        Obb::new(g.at(s), g.at(s), g.sized(s), g.sized(s), angle)
    }
    fn core(&self) -> Vec<(f32, f32)> {
        let (c, s) = (self.cos, self.sin);
        let (hw, hh) = (self.half_width, self.half_height);
        let at = |u: f32, v: f32| (self.center_x + u * c - v * s, self.center_y + u * s + v * c);
        vec![at(-hw, -hh), at(hw, -hh), at(hw, hh), at(-hw, hh)]
    }
    /// A box whose first edge (its bottom side) runs from `p` to `q`, lying left of that line,
    /// its half height kept.
    fn along(&self, p: (f32, f32), q: (f32, f32)) -> Option<Self> {
        let (dx, dy) = (q.0 - p.0, q.1 - p.1);
        let len = dx.hypot(dy);
        let (c, s) = (dx / len, dy / len);
        let hh = self.half_height;
        let (mx, my) = ((p.0 + q.0) * 0.5, (p.1 + q.1) * 0.5);
        (len > 0.0).then(|| Obb::from_rotation(mx - hh * s, my + hh * c, 0.5 * len, hh, c, s))
    }
    fn center(&self) -> (f32, f32) {
        (self.center_x, self.center_y)
    }
    fn moved_to(self, x: f32, y: f32) -> Self {
        Obb {
            center_x: x,
            center_y: y,
            ..self
        }
    }
}

impl Arbitrary for Capsule {
    const NAME: &'static str = "Capsule";
    const FIELDS: &'static [&'static str] = &["x0", "y0", "x1", "y1", "radius"];
    /// Awkward endpoints and radii; a fifth are segments (radius 0), some have equal
    /// endpoints (circles), some lie along an axis or a diagonal.
    fn arbitrary(g: &mut Gen) -> Self {
        let (x0, y0) = (g.coord(), g.coord());
        let (x1, y1) = match g.percent() {
            0..8 => (x0, y0),
            8..20 => (x0 + g.coord(), y0),
            20..30 => (x0, y0 + g.coord()),
            30..38 => {
                let t = g.coord();
                (x0 + t, y0 + t)
            }
            _ => (g.coord(), g.coord()),
        };
        let radius = if g.percent() < 20 { 0.0 } else { g.size() };
        Capsule::new(x0, y0, x1, y1, radius)
    }
    /// A segment as long as one of the spread's sizes, at a random angle; its radius a
    /// third to three fifths of a size: limbs and bullets.
    fn ordinary_in(g: &mut Gen, s: &Spread) -> Self {
        let (x, y) = (g.at(s), g.at(s));
        let half = 0.5 * g.sized(s);
        let (sin, cos) = g.uniform(-3.2, 3.2).sin_cos();
        let radius = g.sized(s) * g.uniform(0.3, 0.6);
        Capsule::new(
            x - half * cos,
            y - half * sin,
            x + half * cos,
            y + half * sin,
            radius,
        )
    }
    fn core(&self) -> Vec<(f32, f32)> {
        let (a, b) = ((self.x0, self.y0), (self.x1, self.y1));
        if a == b { vec![a] } else { vec![a, b] }
    }
    fn along(&self, p: (f32, f32), q: (f32, f32)) -> Option<Self> {
        Some(Capsule::new(p.0, p.1, q.0, q.1, self.radius))
    }
    fn center(&self) -> (f32, f32) {
        ((self.x0 + self.x1) * 0.5, (self.y0 + self.y1) * 0.5)
    }
    fn moved_to(self, x: f32, y: f32) -> Self {
        let (cx, cy) = self.center();
        let (dx, dy) = (x - cx, y - cy);
        Capsule::new(
            self.x0 + dx,
            self.y0 + dy,
            self.x1 + dx,
            self.y1 + dy,
            self.radius,
        )
    }
}

/// An `f32` as a Rust expression that yields exactly its bits.
pub fn f32_literal(v: f32) -> String {
    if v.is_nan() {
        format!("f32::from_bits({:#010x})", v.to_bits())
    } else if v == f32::INFINITY {
        "f32::INFINITY".into()
    } else if v == f32::NEG_INFINITY {
        "f32::NEG_INFINITY".into()
    } else {
        format!("{v:?}_f32") // Debug prints the shortest text that parses back to the same bits
    }
}

/// A manifold's bits, so that NaN and -0 compare too (the manifold tests and the fuzzer
/// compare kernels with references by them).
pub fn manifold_bits(m: Option<Manifold>) -> Option<Vec<u32>> {
    m.map(|m| {
        let mut v = vec![
            m.normal[0].to_bits(),
            m.normal[1].to_bits(),
            u32::from(m.count),
        ];
        for p in m.points {
            v.extend([
                p.point[0].to_bits(),
                p.point[1].to_bits(),
                p.depth.to_bits(),
                p.id,
            ]);
        }
        v
    })
}

/// A shape as a Rust struct literal that rebuilds it bit for bit, e.g.
/// `Circle { x: f32::INFINITY, y: 1.5_f32, radius: 0.0_f32 }`.
pub fn rust_literal<S: Arbitrary>(s: &S) -> String {
    s.literal()
}

/// A shape's fields as raw bits, for reproducers.
pub fn bits<S: bytemuck::Pod>(s: &S) -> Vec<String> {
    bytemuck::cast_slice::<S, u32>(core::slice::from_ref(s))
        .iter()
        .map(|b| format!("{b:#010x}"))
        .collect()
}

/// A polygon from raw points (up to eight), the last repeated into the unused slots, without
/// any check: for convex, clockwise, non-convex and poisoned data alike.
pub fn raw_polygon(points: &[[f32; 2]]) -> Polygon {
    let at = |k: usize| points[k.min(points.len() - 1)];
    Polygon {
        xs: core::array::from_fn(|k| at(k)[0]),
        ys: core::array::from_fn(|k| at(k)[1]),
    }
}

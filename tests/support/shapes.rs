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

impl Gen {
    /// 3 to 8 points on a circle of radius `r` around (`x`, `y`), at sorted random angles.
    fn on_circle(&mut self, x: f32, y: f32, r: f32) -> Vec<[f32; 2]> {
        let n = self.rng.random_range(3..=MAX_VERTICES);
        let mut angles: Vec<f32> = (0..n)
            .map(|_| self.uniform(0.0, core::f32::consts::TAU))
            .collect();
        angles.sort_by(f32::total_cmp);
        angles
            .iter()
            .map(|a| [x + r * a.cos(), y + r * a.sin()])
            .collect()
    }

    /// A convex polygon through [`on_circle`](Self::on_circle) points (the raw points if
    /// rounding leaves no valid polygon).
    pub fn convex(&mut self, x: f32, y: f32, r: f32) -> Polygon {
        let points = self.on_circle(x, y, r);
        // Too close points, or a radius lost in the centre's magnitude: keep them as they are.
        Polygon::new(&points).unwrap_or_else(|_| raw_polygon(&points))
    }

    /// A rectangle or triangle on the integer or quarter grid (exact touching with the other
    /// grid shapes).
    fn grid_polygon(&mut self) -> Polygon {
        let step = if self.percent() < 50 { 1.0 } else { 0.25 };
        let at = |g: &mut Gen| g.rng.random_range(-8i32..=8) as f32 * step;
        let (x, y) = (at(self), at(self));
        if self.percent() < 60 {
            let (w, h) = (1.0 + at(self).abs(), 1.0 + at(self).abs());
            Polygon::new(&[[x, y], [x + w, y], [x + w, y + h], [x, y + h]]).expect("a rectangle")
        } else {
            let points = [[x, y], [at(self), at(self)], [at(self), at(self)]];
            Polygon::new(&points).unwrap_or_else(|_| {
                Polygon::new(&[[x, y], [x + 1.0, y], [x, y + 1.0]]).expect("a triangle")
            })
        }
    }
}

impl Arbitrary for Polygon {
    const NAME: &'static str = "Polygon";
    const FIELDS: &'static [&'static str] = &[
        "xs[0]", "xs[1]", "xs[2]", "xs[3]", "xs[4]", "xs[5]", "xs[6]", "xs[7]", "ys[0]", "ys[1]",
        "ys[2]", "ys[3]", "ys[4]", "ys[5]", "ys[6]", "ys[7]",
    ];
    fn arbitrary(g: &mut Gen) -> Self {
        match g.percent() {
            0..8 => {
                // One coordinate replaced by a special value.
                let mut p = g.grid_polygon();
                let k = g.index(MAX_VERTICES);
                let v = g.special();
                if g.percent() < 50 {
                    p.xs[k] = v
                } else {
                    p.ys[k] = v
                }
                p
            }
            8..11 => {
                // Clockwise: the same vertices in reverse order.
                let p = g.grid_polygon();
                let mut v: Vec<[f32; 2]> = p.vertices().collect();
                v.reverse();
                raw_polygon(&v)
            }
            11..14 => {
                // Arbitrary points: usually not convex.
                let n = g.rng.random_range(3..=MAX_VERTICES);
                let v: Vec<[f32; 2]> = (0..n).map(|_| [g.coord(), g.coord()]).collect();
                raw_polygon(&v)
            }
            14..50 => g.grid_polygon(),
            _ => {
                let (x, y, r) = (g.coord(), g.coord(), g.size());
                if x.is_finite() && y.is_finite() && r.is_finite() && r > 0.0 {
                    g.convex(x, y, r)
                } else {
                    g.grid_polygon()
                }
            }
        }
    }
    /// Convex, 3 to 8 vertices at sorted random angles on a circle (a regular polygon where
    /// rounding leaves too few distinct points).
    fn ordinary_in(g: &mut Gen, s: &Spread) -> Self {
        let (x, y, r) = (g.at(s), g.at(s), g.sized(s));
        let points = g.on_circle(x, y, r);
        Polygon::new(&points).unwrap_or_else(|_| Polygon::regular(points.len(), x, y, r, 0.0))
    }
    fn core(&self) -> Vec<(f32, f32)> {
        self.vertices().map(|[x, y]| (x, y)).collect()
    }
    /// A triangle with the edge from `p` to `q`, its third vertex left of that line (as far
    /// from it as the edge is long), or with the edge from `q` to `p` where that fails.
    fn along(&self, p: (f32, f32), q: (f32, f32)) -> Option<Self> {
        let apex = |p: (f32, f32), q: (f32, f32)| {
            let (dx, dy) = (q.0 - p.0, q.1 - p.1);
            [(p.0 + q.0) * 0.5 - dy, (p.1 + q.1) * 0.5 + dx]
        };
        let triangle =
            |p: (f32, f32), q: (f32, f32)| Polygon::new(&[[p.0, p.1], [q.0, q.1], apex(p, q)]).ok();
        triangle(p, q).or_else(|| triangle(q, p))
    }
    fn center(&self) -> (f32, f32) {
        let b = self.bounding_box();
        ((b.min_x + b.max_x) * 0.5, (b.min_y + b.max_y) * 0.5)
    }
    fn moved_to(self, x: f32, y: f32) -> Self {
        let (cx, cy) = self.center();
        let (dx, dy) = (x - cx, y - cy);
        Polygon {
            xs: self.xs.map(|v| v + dx),
            ys: self.ys.map(|v| v + dy),
        }
    }
    fn literal(&self) -> String {
        let list = |v: &[f32; MAX_VERTICES]| v.map(f32_literal).join(", ");
        format!(
            "Polygon {{ xs: [{}], ys: [{}] }}",
            list(&self.xs),
            list(&self.ys)
        )
    }
}

impl Arbitrary for Ray {
    const NAME: &'static str = "Ray";
    const FIELDS: &'static [&'static str] = &["origin_x", "origin_y", "dir_x", "dir_y", "max_t"];
    fn arbitrary(g: &mut Gen) -> Self {
        let (ox, oy) = (g.coord(), g.coord());
        let unit = |g: &mut Gen| if g.percent() < 50 { 1.0 } else { -1.0 };
        let (dx, dy) = match g.percent() {
            0..8 => (unit(g) * g.rng.random_range(1i32..=3) as f32, 0.0),
            8..16 => (0.0, unit(g) * g.rng.random_range(1i32..=3) as f32),
            16..20 => (0.0, 0.0),
            20..30 => (unit(g), unit(g)),
            30..88 => (g.uniform(-3.0, 3.0), g.uniform(-3.0, 3.0)),
            88..94 => (g.special(), g.uniform(-3.0, 3.0)),
            _ => (g.uniform(-3.0, 3.0), g.special()),
        };
        let max_t = match g.percent() {
            0..40 => f32::INFINITY,
            40..80 => g.uniform(0.0, 10.0),
            80..85 => g.rng.random_range(0i32..=6) as f32,
            85..88 => 0.0,
            88..92 => -g.uniform(0.0, 2.0),
            _ => g.special(),
        };
        Ray::new(ox, oy, dx, dy, max_t)
    }
    /// From around the square toward a point of it, so that about half of the rays hit the
    /// ordinary shapes; half of them unbounded, half with a finite reach.
    fn ordinary_in(g: &mut Gen, s: &Spread) -> Self {
        let (ox, oy) = (
            g.uniform(-2.0 * s.half, 2.0 * s.half),
            g.uniform(-2.0 * s.half, 2.0 * s.half),
        );
        let (tx, ty) = (g.at(s), g.at(s));
        let max_t = if g.rng.random::<bool>() {
            f32::INFINITY
        } else {
            g.uniform(0.5, 2.0)
        };
        Ray::new(ox, oy, tx - ox, ty - oy, max_t)
    }
    fn core(&self) -> Vec<(f32, f32)> {
        vec![(self.origin_x, self.origin_y)]
    }
    fn center(&self) -> (f32, f32) {
        (self.origin_x, self.origin_y)
    }
    fn moved_to(self, x: f32, y: f32) -> Self {
        Ray {
            origin_x: x,
            origin_y: y,
            ..self
        }
    }
}

impl Gen {
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
/// share of the shapes only.
pub struct Motion {
    steps: Vec<[f32; 2]>,
    speed: f32,
    side: f32,
    /// The share of the shapes that jump anywhere in the square each frame (drawn anew every
    /// frame); the others move at `speed`.
    jumps: f32,
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
        }
    }

    /// This motion with a share `jumps` of the shapes (a different draw every frame) jumping
    /// anywhere in the square each frame instead of moving.
    pub fn with_jumps(self, jumps: f32) -> Self {
        Self { jumps, ..self }
    }

    /// Shape `id` in frame `frame`, from its shape `s` in the frame before.
    #[inline]
    pub fn apply(&self, s: Shape, id: u32, frame: u32) -> Shape {
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

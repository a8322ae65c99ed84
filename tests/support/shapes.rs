//! Seeded shape generators biased toward the cases that break overlap tests: exact touching on
//! integer coordinates, coincident centres, zero sizes, ±0, ±inf, NaN, negative sizes, huge and
//! tiny magnitudes, arbitrary bit patterns, and rotations at 0, 45 and 90 degrees.
//!
//! Shared by the tests and the fuzzer example (which includes this file by path).

#![allow(dead_code)]

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use widephase::{Aabb, Circle, Obb, Point};

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

    /// `n` pairs, the second of each sometimes sharing the first's centre and sometimes nudged
    /// by a few ULPs.
    pub fn pairs<A: Arbitrary, B: Arbitrary>(&mut self, n: usize) -> (Vec<A>, Vec<B>) {
        (0..n)
            .map(|_| {
                let a: A = self.shape(None);
                let mut b: B = self.shape(Some(a.center()));
                if self.percent() < 15 {
                    b = self.nudge(b);
                }
                (a, b)
            })
            .unzip()
    }
}

/// Shapes the generators can build.
pub trait Arbitrary: Copy + core::fmt::Debug + bytemuck::Pod {
    /// The type's name and its fields in memory order, for Rust literals.
    const NAME: &'static str;
    const FIELDS: &'static [&'static str];
    /// Anything, awkward values included.
    fn arbitrary(g: &mut Gen) -> Self;
    /// A finite, valid shape of ordinary size near the origin, with a unit rotation.
    fn ordinary(g: &mut Gen) -> Self;
    fn center(&self) -> (f32, f32);
    fn moved_to(self, x: f32, y: f32) -> Self;
}

impl Arbitrary for Point {
    const NAME: &'static str = "Point";
    const FIELDS: &'static [&'static str] = &["x", "y"];
    fn arbitrary(g: &mut Gen) -> Self {
        Point::new(g.coord(), g.coord())
    }
    fn ordinary(g: &mut Gen) -> Self {
        Point::new(g.uniform(-4.0, 4.0), g.uniform(-4.0, 4.0))
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
    fn ordinary(g: &mut Gen) -> Self {
        Circle::new(
            g.uniform(-4.0, 4.0),
            g.uniform(-4.0, 4.0),
            g.uniform(0.0, 2.5),
        )
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
    fn ordinary(g: &mut Gen) -> Self {
        let (x, y) = (g.uniform(-4.0, 4.0), g.uniform(-4.0, 4.0));
        Aabb::from_center(x, y, g.uniform(0.0, 2.5), g.uniform(0.0, 2.5))
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
    fn ordinary(g: &mut Gen) -> Self {
        let (x, y) = (g.uniform(-4.0, 4.0), g.uniform(-4.0, 4.0));
        let angle = g.uniform(-4.0, 4.0);
        Obb::new(x, y, g.uniform(0.0, 2.5), g.uniform(0.0, 2.5), angle)
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

/// A shape as a Rust struct literal that rebuilds it bit for bit, e.g.
/// `Circle { x: f32::INFINITY, y: 1.5_f32, radius: 0.0_f32 }`.
pub fn rust_literal<S: Arbitrary>(s: &S) -> String {
    let fields = bytemuck::cast_slice::<S, f32>(core::slice::from_ref(s));
    let parts: Vec<String> = S::FIELDS
        .iter()
        .zip(fields)
        .map(|(name, &v)| format!("{name}: {}", f32_literal(v)))
        .collect();
    format!("{} {{ {} }}", S::NAME, parts.join(", "))
}

/// A shape's fields as raw bits, for reproducers.
pub fn bits<S: bytemuck::Pod>(s: &S) -> Vec<String> {
    bytemuck::cast_slice::<S, u32>(core::slice::from_ref(s))
        .iter()
        .map(|b| format!("{b:#010x}"))
        .collect()
}

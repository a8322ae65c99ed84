//! The generators of polygons (convex outlines on a circle, and their awkward cases) and of
//! rays: part of `shapes.rs`.

#![allow(dead_code)]

use super::*;

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

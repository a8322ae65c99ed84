//! Penetration depth written a second, independent way, in `f64`: every shape is a convex
//! polygon (one vertex for a point or a circle's centre) grown by a radius. Moving `b` by `t`
//! along a unit direction `u` separates the two when
//! `t >= max over a of a·u - min over b of b·u + ra + rb`; the penetration depth is the
//! smallest such `t` over all directions, and its minimum lies on an edge normal of either
//! polygon or on a direction between two vertices, so those are all tried (each one an upper
//! bound, the true minimum among them).
//!
//! Only finite, valid shapes are fed here.

use widephase::{Aabb, Capsule, Circle, Obb, Point, Polygon};

/// A 2D vector in `f64`.
pub type V = (f64, f64);

/// A convex polygon, counter-clockwise, grown by `radius`.
pub struct Body {
    pub vertices: Vec<V>,
    pub radius: f64,
}

/// The penetration of a pair: the smallest separating move of `b`, its unit direction, and the
/// smallest move along any direction more than about 0.06° away from it (how clearly the
/// minimum is unique).
#[derive(Debug)]
pub struct Depth {
    pub depth: f64,
    pub normal: V,
    pub runner_up: f64,
}

/// A shape as a [`Body`].
pub trait AsBody {
    /// The vertex slots of the crate's outline of this kind (a polygon of fewer vertices
    /// repeats its last in the free slots), by which manifold ids number the edges.
    const SLOTS: usize;
    fn body(&self) -> Body;
}

fn v(x: f32, y: f32) -> V {
    (f64::from(x), f64::from(y))
}

impl AsBody for Point {
    const SLOTS: usize = 1;
    fn body(&self) -> Body {
        Body {
            vertices: vec![v(self.x, self.y)],
            radius: 0.0,
        }
    }
}

impl AsBody for Circle {
    const SLOTS: usize = 1;
    fn body(&self) -> Body {
        Body {
            vertices: vec![v(self.x, self.y)],
            radius: f64::from(self.radius),
        }
    }
}

impl AsBody for Aabb {
    const SLOTS: usize = 4;
    fn body(&self) -> Body {
        let (x0, y0, x1, y1) = (self.min_x, self.min_y, self.max_x, self.max_y);
        Body {
            vertices: vec![v(x0, y0), v(x1, y0), v(x1, y1), v(x0, y1)],
            radius: 0.0,
        }
    }
}

impl AsBody for Obb {
    const SLOTS: usize = 4;
    fn body(&self) -> Body {
        let (c, u) = (v(self.center_x, self.center_y), v(self.cos, self.sin));
        let w = (-u.1, u.0);
        let (hw, hh) = (f64::from(self.half_width), f64::from(self.half_height));
        let at = |a: f64, b: f64| (c.0 + a * u.0 + b * w.0, c.1 + a * u.1 + b * w.1);
        Body {
            vertices: vec![at(-hw, -hh), at(hw, -hh), at(hw, hh), at(-hw, hh)],
            radius: 0.0,
        }
    }
}

impl AsBody for Polygon {
    const SLOTS: usize = 8;
    fn body(&self) -> Body {
        Body {
            vertices: self.vertices().map(|[x, y]| v(x, y)).collect(),
            radius: 0.0,
        }
    }
}

impl AsBody for Capsule {
    const SLOTS: usize = 2;
    /// Its segment (one vertex when the endpoints coincide) grown by its radius.
    fn body(&self) -> Body {
        let (a, b) = (v(self.x0, self.y0), v(self.x1, self.y1));
        Body {
            vertices: if a == b { vec![a] } else { vec![a, b] },
            radius: f64::from(self.radius),
        }
    }
}

fn dot(a: V, b: V) -> f64 {
    a.0 * b.0 + a.1 * b.1
}

fn unit(a: V) -> Option<V> {
    let len = dot(a, a).sqrt();
    (len > 0.0).then(|| (a.0 / len, a.1 / len))
}

/// Outward unit normals of a body's edges (none for a single vertex).
fn normals(b: &Body) -> Vec<V> {
    let n = b.vertices.len();
    if n < 2 {
        return Vec::new();
    }
    (0..n)
        .filter_map(|k| {
            let (p, q) = (b.vertices[k], b.vertices[(k + 1) % n]);
            unit((q.1 - p.1, p.0 - q.0))
        })
        .collect()
}

/// The move of `b` along the unit direction `u` that leaves the two touching: any longer move
/// along `u` separates them, any shorter one (from an overlap) does not.
pub fn separating_move(a: &Body, b: &Body, u: V) -> f64 {
    let high = a
        .vertices
        .iter()
        .map(|&p| dot(p, u))
        .fold(f64::MIN, f64::max);
    let low = b
        .vertices
        .iter()
        .map(|&p| dot(p, u))
        .fold(f64::MAX, f64::min);
    high - low + a.radius + b.radius
}

/// The penetration of `a` and `b` (meaningful when they overlap).
pub fn penetration(a: &Body, b: &Body) -> Depth {
    let mut directions = normals(a);
    directions.extend(normals(b).into_iter().map(|(x, y)| (-x, -y)));
    for &p in &a.vertices {
        for &q in &b.vertices {
            directions.extend(unit((q.0 - p.0, q.1 - p.1)));
        }
    }
    if directions.is_empty() {
        // Two single vertices at one place: every direction is as good.
        directions.push((1.0, 0.0));
    }
    let moves: Vec<(f64, V)> = directions
        .iter()
        .map(|&u| (separating_move(a, b, u), u))
        .collect();
    let &(depth, normal) = moves
        .iter()
        .min_by(|x, y| x.0.total_cmp(&y.0))
        .expect("a body has a vertex");
    let runner_up = moves
        .iter()
        .filter(|(_, u)| dot(*u, normal) < 1.0 - 5e-7)
        .map(|m| m.0)
        .fold(f64::INFINITY, f64::min);
    Depth {
        depth,
        normal,
        runner_up,
    }
}

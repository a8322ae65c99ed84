//! Overlap tests written a second, independent way, in `f64`, each with a margin `e`: the first
//! shape is grown by `e` (shrunk when `e < 0`). The true answer for the unmodified shapes lies
//! between the answers at `-e` and `+e`, so where those two agree the answer is decided with a
//! margin and the crate's reference must give it.
//!
//! Only finite, valid shapes are fed here; these functions know nothing of the NaN policy.

use widephase::{Aabb, Circle, Obb, Point};

type V = (f64, f64);

fn v(x: f32, y: f32) -> V {
    (f64::from(x), f64::from(y))
}

fn dot(a: V, b: V) -> f64 {
    a.0 * b.0 + a.1 * b.1
}

fn sub(a: V, b: V) -> V {
    (a.0 - b.0, a.1 - b.1)
}

/// Corners of an OBB, counter-clockwise, from its stored (possibly slightly non-unit) rotation.
fn obb_corners(o: &Obb, e: f64) -> [V; 4] {
    let u = v(o.cos, o.sin);
    let w = (-u.1, u.0);
    let c = v(o.center_x, o.center_y);
    let (hw, hh) = (f64::from(o.half_width) + e, f64::from(o.half_height) + e);
    let at = |a: f64, b: f64| (c.0 + a * u.0 + b * w.0, c.1 + a * u.1 + b * w.1);
    [at(-hw, -hh), at(hw, -hh), at(hw, hh), at(-hw, hh)]
}

fn aabb_corners(b: &Aabb, e: f64) -> [V; 4] {
    let (x0, y0) = (f64::from(b.min_x) - e, f64::from(b.min_y) - e);
    let (x1, y1) = (f64::from(b.max_x) + e, f64::from(b.max_y) + e);
    [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
}

/// Whether a shrunk box has turned inside out (then it is empty).
fn empty(corners: &[V; 4]) -> bool {
    let a = sub(corners[1], corners[0]);
    let b = sub(corners[3], corners[0]);
    a.0 * b.1 - a.1 * b.0 < 0.0
}

/// Separating-axis test by projecting every corner of both polygons on every edge normal of both.
fn sat_corners(p: &[V; 4], q: &[V; 4]) -> bool {
    if empty(p) || empty(q) {
        return false;
    }
    for poly in [p, q] {
        for i in 0..4 {
            let edge = sub(poly[(i + 1) % 4], poly[i]);
            let n = (-edge.1, edge.0);
            let project = |pts: &[V; 4]| {
                pts.iter()
                    .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &pt| {
                        let d = dot(pt, n);
                        (lo.min(d), hi.max(d))
                    })
            };
            let (plo, phi) = project(p);
            let (qlo, qhi) = project(q);
            if phi < qlo || qhi < plo {
                return false;
            }
        }
    }
    true
}

/// Point in convex quad by edge half-planes (the point is on the inner side of all four edges).
fn point_in_quad(p: V, quad: &[V; 4]) -> bool {
    if empty(quad) {
        return false;
    }
    (0..4).all(|i| {
        let a = quad[i];
        let edge = sub(quad[(i + 1) % 4], a);
        let rel = sub(p, a);
        edge.0 * rel.1 - edge.1 * rel.0 >= 0.0
    })
}

pub fn point_aabb(p: &Point, b: &Aabb, e: f64) -> bool {
    point_in_quad(v(p.x, p.y), &aabb_corners(b, e))
}

pub fn point_circle(p: &Point, c: &Circle, e: f64) -> bool {
    let d = sub(v(p.x, p.y), v(c.x, c.y));
    d.0.hypot(d.1) <= f64::from(c.radius) + e
}

pub fn point_obb(p: &Point, o: &Obb, e: f64) -> bool {
    point_in_quad(v(p.x, p.y), &obb_corners(o, e))
}

pub fn circle_circle(a: &Circle, b: &Circle, e: f64) -> bool {
    let d = sub(v(a.x, a.y), v(b.x, b.y));
    let ra = f64::from(a.radius) + e;
    ra >= 0.0 && d.0.hypot(d.1) <= ra + f64::from(b.radius)
}

pub fn aabb_aabb(a: &Aabb, b: &Aabb, e: f64) -> bool {
    sat_corners(&aabb_corners(a, e), &aabb_corners(b, 0.0))
}

/// Circle–AABB by centre distance: within the box grown by `r` on each axis, and if the centre
/// is in a corner region, within `r` of that corner.
pub fn circle_aabb_corner(c: &Circle, b: &Aabb, e: f64) -> bool {
    let r = f64::from(c.radius) + e;
    if r < 0.0 {
        return false;
    }
    let (cx, cy) = v(b.min_x, b.min_y);
    let (mx, my) = v(b.max_x, b.max_y);
    let (bx, by) = ((cx + mx) / 2.0, (cy + my) / 2.0);
    let (hw, hh) = ((mx - cx) / 2.0, (my - cy) / 2.0);
    let (dx, dy) = ((f64::from(c.x) - bx).abs(), (f64::from(c.y) - by).abs());
    if dx > hw + r || dy > hh + r {
        return false;
    }
    if dx <= hw || dy <= hh {
        return true;
    }
    (dx - hw).hypot(dy - hh) <= r
}

/// Circle–AABB by the closest point of the box to the centre.
pub fn circle_aabb_clamp(c: &Circle, b: &Aabb, e: f64) -> bool {
    let r = f64::from(c.radius) + e;
    let p = v(c.x, c.y);
    let q = (
        p.0.clamp(f64::from(b.min_x), f64::from(b.max_x)),
        p.1.clamp(f64::from(b.min_y), f64::from(b.max_y)),
    );
    let d = sub(p, q);
    r >= 0.0 && d.0.hypot(d.1) <= r
}

/// Circle–OBB by rotating the circle's centre into the box frame (using the angle, not the stored
/// cosine and sine) and clamping there.
pub fn circle_obb(c: &Circle, o: &Obb, e: f64) -> bool {
    let r = f64::from(c.radius) + e;
    let angle = f64::from(o.sin).atan2(f64::from(o.cos));
    let d = sub(v(c.x, c.y), v(o.center_x, o.center_y));
    let (s, co) = (-angle).sin_cos();
    let local = (d.0 * co - d.1 * s, d.0 * s + d.1 * co);
    let (hw, hh) = (f64::from(o.half_width), f64::from(o.half_height));
    let q = (local.0.clamp(-hw, hw), local.1.clamp(-hh, hh));
    let g = sub(local, q);
    r >= 0.0 && g.0.hypot(g.1) <= r
}

pub fn aabb_obb(a: &Aabb, o: &Obb, e: f64) -> bool {
    sat_corners(&aabb_corners(a, e), &obb_corners(o, 0.0))
}

pub fn obb_obb(a: &Obb, b: &Obb, e: f64) -> bool {
    sat_corners(&obb_corners(a, e), &obb_corners(b, 0.0))
}

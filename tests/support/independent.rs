//! Overlap tests written a second, independent way, in `f64`, each with a margin `e`: the first
//! shape is grown by `e` (shrunk when `e < 0`). The true answer for the unmodified shapes lies
//! between the answers at `-e` and `+e`, so where those two agree the answer is decided with a
//! margin and the crate's reference must give it.
//!
//! Only finite, valid shapes are fed here; these functions know nothing of the NaN policy.

use widephase::{Aabb, Capsule, Circle, Obb, Point, Polygon, Ray};

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

// ----- Polygons: edge crossings and containment, no separating axes -----

/// A polygon's distinct vertices in `f64`.
fn poly(p: &Polygon) -> Vec<V> {
    p.vertices().map(|[x, y]| v(x, y)).collect()
}

/// The polygon scaled about its vertex average by `1 + e` (grown for `e > 0`, shrunk for
/// `e < 0`): a nested family, which is all the margin argument needs.
fn scaled(pts: &[V], e: f64) -> Vec<V> {
    let n = pts.len() as f64;
    let c = pts
        .iter()
        .fold((0.0, 0.0), |s, p| (s.0 + p.0 / n, s.1 + p.1 / n));
    pts.iter()
        .map(|p| (c.0 + (p.0 - c.0) * (1.0 + e), c.1 + (p.1 - c.1) * (1.0 + e)))
        .collect()
}

fn cross(a: V, b: V) -> f64 {
    a.0 * b.1 - a.1 * b.0
}

/// Whether the closed segments `ab` and `cd` share a point.
fn segments_meet(a: V, b: V, c: V, d: V) -> bool {
    let (d1, d2) = (cross(sub(b, a), sub(c, a)), cross(sub(b, a), sub(d, a)));
    let (d3, d4) = (cross(sub(d, c), sub(a, c)), cross(sub(d, c), sub(b, c)));
    let on = |p: V, q: V, r: V| {
        // r on segment pq, given collinear
        r.0 >= p.0.min(q.0) && r.0 <= p.0.max(q.0) && r.1 >= p.1.min(q.1) && r.1 <= p.1.max(q.1)
    };
    if ((d1 > 0.0 && d2 < 0.0) || (d1 < 0.0 && d2 > 0.0))
        && ((d3 > 0.0 && d4 < 0.0) || (d3 < 0.0 && d4 > 0.0))
    {
        return true;
    }
    (d1 == 0.0 && on(a, b, c))
        || (d2 == 0.0 && on(a, b, d))
        || (d3 == 0.0 && on(c, d, a))
        || (d4 == 0.0 && on(c, d, b))
}

/// Point in polygon by counting crossings of a horizontal ray (any simple polygon).
fn crossing_number(p: V, pts: &[V]) -> bool {
    let mut inside = false;
    for i in 0..pts.len() {
        let (a, b) = (pts[i], pts[(i + 1) % pts.len()]);
        if (a.1 > p.1) != (b.1 > p.1) {
            let x = a.0 + (p.1 - a.1) / (b.1 - a.1) * (b.0 - a.0);
            if p.0 < x {
                inside = !inside;
            }
        }
    }
    inside
}

/// Distance from `p` to the closed segment `ab`.
fn segment_distance(p: V, a: V, b: V) -> f64 {
    let ab = sub(b, a);
    let t = (dot(sub(p, a), ab) / dot(ab, ab)).clamp(0.0, 1.0);
    let q = (a.0 + t * ab.0, a.1 + t * ab.1);
    let d = sub(p, q);
    d.0.hypot(d.1)
}

/// Signed distance from `p` to the polygon's boundary, negative inside.
fn signed_distance(p: V, pts: &[V]) -> f64 {
    let d = (0..pts.len())
        .map(|i| segment_distance(p, pts[i], pts[(i + 1) % pts.len()]))
        .fold(f64::INFINITY, f64::min);
    if crossing_number(p, pts) { -d } else { d }
}

/// Whether two simple polygons share a point: an edge of one meets an edge of the other, or
/// one contains a vertex of the other.
fn polygons_meet(p: &[V], q: &[V]) -> bool {
    fn edges(pts: &[V]) -> impl Iterator<Item = (V, V)> + '_ {
        (0..pts.len()).map(move |i| (pts[i], pts[(i + 1) % pts.len()]))
    }
    edges(p).any(|(a, b)| edges(q).any(|(c, d)| segments_meet(a, b, c, d)))
        || crossing_number(p[0], q)
        || crossing_number(q[0], p)
}

pub fn point_polygon(p: &Point, q: &Polygon, e: f64) -> bool {
    signed_distance(v(p.x, p.y), &poly(q)) <= e
}

pub fn circle_polygon(c: &Circle, q: &Polygon, e: f64) -> bool {
    let r = f64::from(c.radius) + e;
    r >= 0.0 && signed_distance(v(c.x, c.y), &poly(q)) <= r
}

pub fn aabb_polygon(a: &Aabb, q: &Polygon, e: f64) -> bool {
    let box_ = aabb_corners(a, e);
    !empty(&box_) && polygons_meet(&box_, &poly(q))
}

pub fn obb_polygon(o: &Obb, q: &Polygon, e: f64) -> bool {
    let box_ = obb_corners(o, e);
    !empty(&box_) && polygons_meet(&box_, &poly(q))
}

pub fn polygon_polygon(a: &Polygon, b: &Polygon, e: f64) -> bool {
    polygons_meet(&scaled(&poly(a), e), &poly(b))
}

// ----- Rays: intersections with each edge segment, or the quadratic, in f64 -----

/// The entry parameter of a ray into a simple polygon: 0 from inside, else the smallest
/// parameter at which it meets an edge; `None` for a miss or beyond `max_t`.
fn ray_into(r: &Ray, pts: &[V]) -> Option<f64> {
    let o = v(r.origin_x, r.origin_y);
    let d = v(r.dir_x, r.dir_y);
    let max_t = f64::from(r.max_t);
    if crossing_number(o, pts) || signed_distance(o, pts) == 0.0 {
        return Some(0.0);
    }
    let mut best = f64::INFINITY;
    for i in 0..pts.len() {
        let (a, b) = (pts[i], pts[(i + 1) % pts.len()]);
        let e = sub(b, a);
        let den = cross(d, e);
        if den == 0.0 {
            continue; // parallel: an entry through this edge also crosses a neighbour
        }
        let ao = sub(a, o);
        let t = cross(ao, e) / den;
        let s = cross(ao, d) / den;
        if t >= 0.0 && (0.0..=1.0).contains(&s) {
            best = best.min(t);
        }
    }
    (best.is_finite() && best <= max_t).then_some(best)
}

/// Ray cast on a shape grown by `e`: `Some(t)` for a hit at `t`.
pub fn ray_polygon(r: &Ray, q: &Polygon, e: f64) -> Option<f64> {
    ray_into(r, &scaled(&poly(q), e))
}

pub fn ray_aabb(r: &Ray, b: &Aabb, e: f64) -> Option<f64> {
    let c = aabb_corners(b, e);
    if empty(&c) { None } else { ray_into(r, &c) }
}

pub fn ray_obb(r: &Ray, o: &Obb, e: f64) -> Option<f64> {
    let c = obb_corners(o, e);
    if empty(&c) { None } else { ray_into(r, &c) }
}

pub fn ray_circle(r: &Ray, c: &Circle, e: f64) -> Option<f64> {
    let t = ray_disc(r, v(c.x, c.y), f64::from(c.radius) + e)?;
    (t <= f64::from(r.max_t)).then_some(t)
}

/// The parameter at which a ray enters the disc of radius `rad` around `centre` (0 from
/// inside), by the quadratic, ignoring `max_t`.
fn ray_disc(r: &Ray, centre: V, rad: f64) -> Option<f64> {
    if rad < 0.0 {
        return None;
    }
    let o = sub(v(r.origin_x, r.origin_y), centre);
    let d = v(r.dir_x, r.dir_y);
    if o.0.hypot(o.1) <= rad {
        return Some(0.0);
    }
    let (a, b, cc) = (dot(d, d), dot(o, d), dot(o, o) - rad * rad);
    let disc = b * b - a * cc;
    if a == 0.0 || b >= 0.0 || disc < 0.0 {
        return None;
    }
    Some((-b - disc.sqrt()) / a)
}

// ----- Capsules: the distance from the segment to the other shape, in f64 -----

/// A capsule's endpoints and radius.
fn capsule(c: &Capsule) -> (V, V, f64) {
    (v(c.x0, c.y0), v(c.x1, c.y1), f64::from(c.radius))
}

/// Distance between the closed segments `ab` and `cd`: 0 where they meet, else the smallest
/// of the four endpoint-to-segment distances.
fn segments_distance(a: V, b: V, c: V, d: V) -> f64 {
    if segments_meet(a, b, c, d) {
        return 0.0;
    }
    segment_distance(a, c, d)
        .min(segment_distance(b, c, d))
        .min(segment_distance(c, a, b))
        .min(segment_distance(d, a, b))
}

/// Distance between a convex polygon (a point set of its outline and inside) and the segment
/// `ab`: 0 where the segment has an end inside or meets an edge, else the smallest distance
/// between an edge and the segment.
fn polygon_segment_distance(pts: &[V], a: V, b: V) -> f64 {
    if crossing_number(a, pts) {
        return 0.0;
    }
    (0..pts.len())
        .map(|i| segments_distance(pts[i], pts[(i + 1) % pts.len()], a, b))
        .fold(f64::INFINITY, f64::min)
}

pub fn point_capsule(p: &Point, c: &Capsule, e: f64) -> bool {
    let (a, b, r) = capsule(c);
    segment_distance(v(p.x, p.y), a, b) <= r + e
}

pub fn circle_capsule(k: &Circle, c: &Capsule, e: f64) -> bool {
    let (a, b, r) = capsule(c);
    let rk = f64::from(k.radius) + e;
    rk >= 0.0 && segment_distance(v(k.x, k.y), a, b) <= rk + r
}

pub fn aabb_capsule(q: &Aabb, c: &Capsule, e: f64) -> bool {
    let (a, b, r) = capsule(c);
    polygon_segment_distance(&aabb_corners(q, 0.0), a, b) <= r + e
}

pub fn obb_capsule(o: &Obb, c: &Capsule, e: f64) -> bool {
    let (a, b, r) = capsule(c);
    polygon_segment_distance(&obb_corners(o, 0.0), a, b) <= r + e
}

pub fn polygon_capsule(q: &Polygon, c: &Capsule, e: f64) -> bool {
    let (a, b, r) = capsule(c);
    polygon_segment_distance(&poly(q), a, b) <= r + e
}

pub fn capsule_capsule(p: &Capsule, q: &Capsule, e: f64) -> bool {
    let ((a, b, ra), (c, d, rb)) = (capsule(p), capsule(q));
    ra + e >= 0.0 && segments_distance(a, b, c, d) <= ra + e + rb
}

/// Ray cast on a capsule grown by `e`: 0 from within its reach of the segment, else the
/// earliest entry into the discs around its ends and the two sides (the segment moved by the
/// radius either way along its normal).
pub fn ray_capsule(r: &Ray, c: &Capsule, e: f64) -> Option<f64> {
    let (a, b, rad) = capsule(c);
    let rad = rad + e;
    let o = v(r.origin_x, r.origin_y);
    if rad < 0.0 {
        return None;
    }
    if segment_distance(o, a, b) <= rad {
        return Some(0.0);
    }
    let d = v(r.dir_x, r.dir_y);
    let mut best = [ray_disc(r, a, rad), ray_disc(r, b, rad)]
        .into_iter()
        .flatten()
        .fold(f64::INFINITY, f64::min);
    let ab = sub(b, a);
    let len = ab.0.hypot(ab.1);
    if len > 0.0 {
        let n = (-ab.1 / len * rad, ab.0 / len * rad);
        for side in [1.0, -1.0] {
            let p = (a.0 + side * n.0, a.1 + side * n.1);
            let den = cross(d, ab);
            if den == 0.0 {
                continue; // parallel: the discs or the other side are entered first
            }
            let po = sub(p, o);
            let (t, s) = (cross(po, ab) / den, cross(po, d) / den);
            if t >= 0.0 && (0.0..=1.0).contains(&s) {
                best = best.min(t);
            }
        }
    }
    (best.is_finite() && best <= f64::from(r.max_t)).then_some(best)
}

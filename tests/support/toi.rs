//! The first contact of a moving shape written a second, independent way, in `f64`: each shape
//! is its [`Body`] (a convex polygon grown by a radius); the distance between two cores is 0
//! where they meet (a vertex of one inside the other, or two edges crossing) and otherwise the
//! smallest vertex–edge distance; the gap at `t` is that distance, `a` moved by `t · m`, less
//! both radii. Moving in a straight line, the gap is a convex function of `t` (the distance from
//! a point on a line to a convex set), so its minimum over an interval is found by ternary
//! search and its first zero, before that minimum, by bisection.

use super::penetration::{Body, V};

fn dot(a: V, b: V) -> f64 {
    a.0 * b.0 + a.1 * b.1
}

fn sub(a: V, b: V) -> V {
    (a.0 - b.0, a.1 - b.1)
}

fn cross(a: V, b: V) -> f64 {
    a.0 * b.1 - a.1 * b.0
}

fn point_segment(p: V, a: V, b: V) -> f64 {
    let (ab, ap) = (sub(b, a), sub(p, a));
    let len2 = dot(ab, ab);
    let s = if len2 > 0.0 {
        (dot(ap, ab) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let q = (a.0 + s * ab.0, a.1 + s * ab.1);
    dot(sub(p, q), sub(p, q)).sqrt()
}

/// Whether `p` lies in the convex counter-clockwise polygon `poly` (three vertices or more,
/// with an area: a flat one is its edges, which the distances cover).
fn inside(p: V, poly: &[V]) -> bool {
    let n = poly.len();
    let area: f64 = (0..n).map(|k| cross(poly[k], poly[(k + 1) % n])).sum();
    n >= 3
        && area > 0.0
        && (0..n).all(|k| {
            let (a, b) = (poly[k], poly[(k + 1) % poly.len()]);
            cross(sub(b, a), sub(p, a)) >= 0.0
        })
}

/// The edges of a core: none for one vertex, the segment for two, the closed loop for more.
fn edges(poly: &[V]) -> Vec<(V, V)> {
    match poly.len() {
        0 | 1 => Vec::new(),
        2 => vec![(poly[0], poly[1])],
        n => (0..n).map(|k| (poly[k], poly[(k + 1) % n])).collect(),
    }
}

/// The distance between two convex cores, 0 where they meet.
pub fn core_distance(a: &[V], b: &[V]) -> f64 {
    if a.iter().any(|&p| inside(p, b)) || b.iter().any(|&p| inside(p, a)) {
        return 0.0;
    }
    let (ea, eb) = (edges(a), edges(b));
    for &(p, q) in &ea {
        for &(r, s) in &eb {
            let (o1, o2) = (cross(sub(q, p), sub(r, p)), cross(sub(q, p), sub(s, p)));
            let (o3, o4) = (cross(sub(s, r), sub(p, r)), cross(sub(s, r), sub(q, r)));
            if o1 * o2 < 0.0 && o3 * o4 < 0.0 {
                return 0.0;
            }
        }
    }
    let mut best = f64::INFINITY;
    for &p in a {
        for &q in b {
            best = best.min(dot(sub(p, q), sub(p, q)).sqrt());
        }
        for &(r, s) in &eb {
            best = best.min(point_segment(p, r, s));
        }
    }
    for &q in b {
        for &(r, s) in &ea {
            best = best.min(point_segment(q, r, s));
        }
    }
    best
}

/// The gap between `a` moved by `t · m` and `b`: the cores' distance less both radii
/// (negative inside the radii, 0 for cores that meet less the radii).
pub fn gap(a: &Body, b: &Body, m: V, t: f64) -> f64 {
    let moved: Vec<V> = a
        .vertices
        .iter()
        .map(|&(x, y)| (x + t * m.0, y + t * m.1))
        .collect();
    core_distance(&moved, &b.vertices) - a.radius - b.radius
}

/// How far `b`'s projection on the unit `n` lies beyond `a`'s (moved by `t · m`), radii
/// included: at most the gap, and about 0 along a normal the two touch along.
pub fn separation_along(a: &Body, b: &Body, m: V, t: f64, n: V) -> f64 {
    let high = a
        .vertices
        .iter()
        .map(|&(x, y)| dot((x + t * m.0, y + t * m.1), n))
        .fold(f64::MIN, f64::max);
    let low = b
        .vertices
        .iter()
        .map(|&p| dot(p, n))
        .fold(f64::MAX, f64::min);
    low - high - a.radius - b.radius
}

/// The smallest gap over `[lo, hi]` and where it is (ternary search: the gap is convex).
pub fn min_gap(a: &Body, b: &Body, m: V, lo: f64, hi: f64) -> (f64, f64) {
    let (mut lo, mut hi) = (lo, hi);
    for _ in 0..100 {
        let (l, h) = (lo + (hi - lo) / 3.0, hi - (hi - lo) / 3.0);
        if gap(a, b, m, l) <= gap(a, b, m, h) {
            hi = h;
        } else {
            lo = l;
        }
    }
    let t = 0.5 * (lo + hi);
    (gap(a, b, m, t), t)
}

/// The first time in `[0, 1]` at which the gap reaches 0, for a pair apart at the start;
/// `None` where it stays positive.
pub fn first_touch(a: &Body, b: &Body, m: V) -> Option<f64> {
    let (low, at) = min_gap(a, b, m, 0.0, 1.0);
    if low > 0.0 {
        return None;
    }
    let (mut lo, mut hi) = (0.0, at);
    for _ in 0..100 {
        let mid = 0.5 * (lo + hi);
        if gap(a, b, m, mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(hi)
}

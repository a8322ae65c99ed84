//! Contact manifolds: every pair kind in both orders, `batch_manifold`, `par_batch_manifold` and
//! both kernel widths against the reference bit for bit on the hard-case generators (hit bits
//! `batch_test`'s); on ordinary pairs, the rules of `Manifold` (the contact's normal, the
//! deepest depth exactly the contact's, one or two points with different ids, each midway
//! between the two boundaries, checked against an independent `f64` signed distance); and
//! hand-worked resting, tilted and sliding boxes.

use crate::pair_assert;
use crate::support::penetration::{AsBody, Body};
use crate::support::shapes::{
    Arbitrary, Collapse, Gen, collapse_one_or_both, manifold_bits as bits,
};
use widephase::{
    HitMask, ManifoldPair, Manifolds, ShapeSoa, batch_manifold, batch_test, par_batch_manifold,
};

/// The batch functions and both kernel widths against the reference, bit for bit, on awkward
/// pairs; the hits are `batch_test`'s.
fn differential<A, B>()
where
    A: ManifoldPair<B> + FromIterator<A::Shape> + Sync,
    B: ShapeSoa + FromIterator<B::Shape> + Sync,
    A::Shape: Arbitrary,
    B::Shape: Arbitrary,
    A::X8: From<[A::Shape; 8]>,
    B::X8: From<[B::Shape; 8]>,
    A::X16: From<[A::Shape; 16]>,
    B::X16: From<[B::Shape; 16]>,
{
    let mut hits_seen = 0;
    for (seed, n) in [(1, 0), (2, 1), (3, 7), (4, 17), (5, 1000), (6, 4096)] {
        let mut g = Gen::new(seed);
        let (va, vb) = g.pairs::<A::Shape, B::Shape>(n);
        let (a, b): (A, B) = (va.iter().copied().collect(), vb.iter().copied().collect());
        let mut hits = HitMask::new();
        batch_test(&a, &b, &mut hits).unwrap();
        let (mut out, mut par) = (Manifolds::new(), Manifolds::new());
        batch_manifold(&a, &b, &mut out).unwrap();
        par_batch_manifold(&a, &b, &mut par).unwrap();
        assert_eq!(
            out.hits(),
            &hits,
            "seed {seed}: hits differ from batch_test"
        );
        for i in 0..n {
            assert_eq!(
                bits(par.get(i)),
                bits(out.get(i)),
                "seed {seed} pair {i}: par_batch_manifold"
            );
        }
        for i in 0..n {
            let want = A::manifold_reference(&va[i], &vb[i]);
            let got = out.get(i);
            pair_assert!(
                bits(got) == bits(want),
                seed = seed,
                index = i,
                va[i],
                vb[i],
                "batch says {got:?}, reference says {want:?}"
            );
            if let Some(m) = want {
                hits_seen += 1;
                let finite = m.normal.iter().all(|v| !v.is_nan())
                    && m.points.iter().all(|p| {
                        !p.depth.is_nan() && p.depth >= 0.0 && !p.point.iter().any(|v| v.is_nan())
                    });
                pair_assert!(
                    finite && (1..=2).contains(&m.count),
                    seed = seed,
                    index = i,
                    va[i],
                    vb[i],
                    "{m:?}"
                );
            } else {
                pair_assert!(
                    out.counts()[i] == 0 && out.depth(0)[i].to_bits() == 0,
                    seed = seed,
                    index = i,
                    va[i],
                    vb[i],
                    "a pair without a hit holds something"
                );
            }
        }
        for k in 0..n / 16 {
            let a8: [A::X8; 2] = core::array::from_fn(|h| {
                let s: [A::Shape; 8] = va[16 * k + 8 * h..][..8].try_into().unwrap();
                s.into()
            });
            let b8: [B::X8; 2] = core::array::from_fn(|h| {
                let s: [B::Shape; 8] = vb[16 * k + 8 * h..][..8].try_into().unwrap();
                s.into()
            });
            let a16: A::X16 = <[A::Shape; 16]>::try_from(&va[16 * k..][..16])
                .unwrap()
                .into();
            let b16: B::X16 = <[B::Shape; 16]>::try_from(&vb[16 * k..][..16])
                .unwrap()
                .into();
            let wide = A::manifold_kernel16(&a16, &b16);
            for h in 0..2 {
                let narrow = A::manifold_kernel(&a8[h], &b8[h]);
                for l in 0..8 {
                    let i = 16 * k + 8 * h + l;
                    assert_eq!(
                        bits(narrow[l]),
                        bits(out.get(i)),
                        "seed {seed} pair {i}: x8"
                    );
                    assert_eq!(
                        bits(wide[8 * h + l]),
                        bits(out.get(i)),
                        "seed {seed} pair {i}: x16"
                    );
                }
            }
        }
    }
    assert!(hits_seen > 200, "only {hits_seen} hits");
}

/// Signed distance from `p` to a body's boundary (negative inside), in `f64`.
pub(super) fn signed_distance(body: &Body, p: (f64, f64)) -> f64 {
    let v = &body.vertices;
    let n = v.len();
    let seg = |a: (f64, f64), b: (f64, f64)| {
        let (ex, ey) = (b.0 - a.0, b.1 - a.1);
        let len2 = ex * ex + ey * ey;
        let t = if len2 > 0.0 {
            (((p.0 - a.0) * ex + (p.1 - a.1) * ey) / len2).clamp(0.0, 1.0)
        } else {
            0.0
        };
        (p.0 - a.0 - t * ex).hypot(p.1 - a.1 - t * ey)
    };
    let d = (0..n)
        .map(|k| seg(v[k], v[(k + 1) % n]))
        .fold(f64::INFINITY, f64::min);
    let inside = n >= 3
        && (0..n).all(|k| {
            let (a, b) = (v[k], v[(k + 1) % n]);
            (b.0 - a.0) * (p.1 - a.1) - (b.1 - a.1) * (p.0 - a.0) >= 0.0
        });
    (if inside { -d } else { d }) - body.radius
}

/// The rules of a manifold on random ordinary pairs: the contact's normal exactly, the deepest
/// depth exactly the contact's, two points distinct in id and place, each midway between the two
/// boundaries (within 1e-3 of each, in `f64`). Then the same rules where one shape or both
/// have no area ([`Collapse`]).
fn rules<A, B>(seed: u64)
where
    A: ManifoldPair<B>,
    B: ShapeSoa,
    A::Shape: Arbitrary + AsBody + Collapse,
    B::Shape: Arbitrary + AsBody + Collapse,
{
    rules_on::<A, B>(
        seed,
        |g| (A::Shape::ordinary(g), B::Shape::ordinary(g)),
        true,
        |_, _| 1e-3,
    );
    rules_on::<A, B>(
        seed + 100,
        |g| {
            let (a, b) = (A::Shape::ordinary(g), B::Shape::ordinary(g));
            collapse_one_or_both(g, a, b)
        },
        false,
        |_, _| 1e-3,
    );
}

/// [`rules`] on 20 000 pairs from `pair`, each point within `slack(a, b)` of both boundaries;
/// `counted`: also how often the pairs overlap and how often two points are found (the
/// ordinary pairs' shares).
pub(super) fn rules_on<A, B>(
    seed: u64,
    pair: impl Fn(&mut Gen) -> (A::Shape, B::Shape),
    counted: bool,
    slack: impl Fn(&Body, &Body) -> f64,
) where
    A: ManifoldPair<B>,
    B: ShapeSoa,
    A::Shape: Arbitrary + AsBody,
    B::Shape: Arbitrary + AsBody,
{
    const PAIRS: usize = 20_000;
    let mut g = Gen::new(seed);
    let (mut hits, mut two) = (0, 0);
    for i in 0..PAIRS {
        let (a, b) = pair(&mut g);
        let Some(m) = A::manifold_reference(&a, &b) else {
            continue;
        };
        hits += 1;
        let c = A::contact_reference(&a, &b).expect("a manifold has a contact");
        let deepest = m.points().iter().map(|p| p.depth).fold(0.0f32, f32::max);
        pair_assert!(
            m.normal == c.normal && deepest == c.depth,
            seed = seed,
            index = i,
            a,
            b,
            "{m:?} against the contact {c:?}"
        );
        if m.count == 2 {
            two += 1;
            pair_assert!(
                m.points[0].id != m.points[1].id && m.points[0].point != m.points[1].point,
                seed = seed,
                index = i,
                a,
                b,
                "{m:?}"
            );
        }
        let (ba, bb) = (a.body(), b.body());
        let n = (f64::from(m.normal[0]), f64::from(m.normal[1]));
        for p in m.points() {
            let (x, y, h) = (
                f64::from(p.point[0]),
                f64::from(p.point[1]),
                f64::from(p.depth) / 2.0,
            );
            let on_a = signed_distance(&ba, (x + h * n.0, y + h * n.1));
            let on_b = signed_distance(&bb, (x - h * n.0, y - h * n.1));
            let slack = slack(&ba, &bb);
            pair_assert!(
                on_a.abs() < slack && on_b.abs() < slack,
                seed = seed,
                index = i,
                a,
                b,
                "{m:?}: {on_a} from a's boundary, {on_b} from b's"
            );
        }
    }
    if !counted {
        assert!(hits * 100 > PAIRS, "only {hits} of {PAIRS} overlap");
        return;
    }
    assert!(hits * 20 > PAIRS, "only {hits} of {PAIRS} overlap");
    // Boxes and polygons often rest face to face at random; capsules only when nearly parallel.
    let (fa, fb) = (A::Shape::FIELDS.len(), B::Shape::FIELDS.len());
    let faces = fa >= 4 && fb >= 4;
    let rounded = fa == 5 || fb == 5;
    assert!(
        !faces || two * 10 > hits || (rounded && two > 0),
        "only {two} of {hits} with two points"
    );
}

/// A manifold point in `f64`: its place and depth.
type Point64 = ((f64, f64), f64);

/// A face of a body in `f64`: its first and second vertex and unit outward normal.
type Face64 = ((f64, f64), (f64, f64), (f64, f64));

/// The faces of a body (none for a single vertex; a segment has two, one per side).
fn faces(b: &Body) -> Vec<Face64> {
    let v = &b.vertices;
    let n = v.len();
    if n < 2 {
        return Vec::new();
    }
    (0..n)
        .map(|k| {
            let (p, q) = (v[k], v[(k + 1) % n]);
            let len = (q.0 - p.0).hypot(q.1 - p.1);
            (p, q, ((q.1 - p.1) / len, (p.0 - q.0) / len))
        })
        .collect()
}

/// The clipped manifold points in `f64` for the reference face `r` (of the body with radius
/// `r_ref`) and the other body, normal `n` from a to b, `from_a` when the reference is a's:
/// each `(point, depth)` that penetrates with the end of the incident edge it came from (0:
/// the edge's first vertex's side), the incident edge's index among the other body's faces,
/// and whether any end is within `1e-4` of a decision (a depth near 0, an end near a side
/// line, two edges nearly as opposed to the reference face), where the comparison is left out.
fn clip64(
    r: Face64,
    r_ref: f64,
    other: &Body,
    n: (f64, f64),
    from_a: bool,
) -> (Vec<Point64>, Vec<u32>, usize, bool) {
    let (v1, v2, m) = r;
    let mut opposed: Vec<(f64, usize, Face64)> = faces(other)
        .into_iter()
        .enumerate()
        .map(|(k, f)| (f.2.0 * m.0 + f.2.1 * m.1, k, f))
        .collect();
    opposed.sort_by(|x, y| x.0.total_cmp(&y.0));
    let (_, inc_index, inc) = opposed[0];
    let tie = opposed.get(1).is_some_and(|o| o.0 - opposed[0].0 < 1e-4);
    let ro = other.radius;
    let (w1, w2) = (
        (inc.0.0 + ro * inc.2.0, inc.0.1 + ro * inc.2.1),
        (inc.1.0 + ro * inc.2.0, inc.1.1 + ro * inc.2.1),
    );
    let t = (v2.0 - v1.0, v2.1 - v1.1);
    let tt = t.0 * t.0 + t.1 * t.1;
    let s = |w: (f64, f64)| (t.0 * (w.0 - v1.0) + t.1 * (w.1 - v1.1)) / tt;
    let (s1, s2) = (s(w1), s(w2));
    let mut close = tie
        || [s1, s2]
            .iter()
            .any(|&x| x.abs() < 1e-4 || (x - 1.0).abs() < 1e-4);
    if s1.max(s2) < 0.0 || s1.min(s2) > 1.0 {
        return (Vec::new(), Vec::new(), inc_index, close);
    }
    let at = |from: (f64, f64), to: (f64, f64), sf: f64, st: f64| {
        let sigma = sf.clamp(0.0, 1.0);
        let l = if sf == st {
            0.0
        } else {
            (sigma - sf) / (st - sf)
        };
        (from.0 + l * (to.0 - from.0), from.1 + l * (to.1 - from.1))
    };
    let (mut out, mut ends) = (Vec::new(), Vec::new());
    for (end, q) in [at(w1, w2, s1, s2), at(w2, w1, s2, s1)]
        .into_iter()
        .enumerate()
    {
        let d = m.0 * (v1.0 - q.0) + m.1 * (v1.1 - q.1) + r_ref;
        close |= d.abs() < 1e-4;
        if d >= 0.0 {
            let k = if from_a { d / 2.0 } else { -d / 2.0 };
            out.push(((q.0 + k * n.0, q.1 + k * n.1), d));
            ends.push(end as u32);
        }
    }
    (out, ends, inc_index, close)
}

/// The crate's index of face `k` of a body of a kind with `slots` outline slots: a polygon of
/// fewer vertices repeats its last in the free slots, so its closing edge is the last slot's
/// (the padding edges, of length 0, are never faces).
fn edge_index(b: &Body, slots: usize, k: usize) -> u32 {
    let n = b.vertices.len();
    if k + 1 == n {
        slots as u32 - 1
    } else {
        k as u32
    }
}

/// Against clipping written again in `f64` (faces, incident edge, clip, depths, places), given
/// the manifold's normal (the contact's), on random ordinary pairs of two shapes with faces
/// where the normal is one face's (within 5e-4) and the other shape's best face is clearly not
/// (beyond 2e-3) or exactly parallel: the same number of points, each within 1e-4 in place and
/// depth; where the clip falls short of the contact's depth, one point.
fn clipping<A, B>(seed: u64)
where
    A: ManifoldPair<B>,
    B: ShapeSoa,
    A::Shape: Arbitrary + AsBody,
    B::Shape: Arbitrary + AsBody,
{
    const PAIRS: usize = 20_000;
    let mut g = Gen::new(seed);
    let (mut compared, mut hits) = (0, 0);
    for i in 0..PAIRS {
        let (a, b) = (A::Shape::ordinary(&mut g), B::Shape::ordinary(&mut g));
        let Some(m) = A::manifold_reference(&a, &b) else {
            continue;
        };
        hits += 1;
        let (ba, bb) = (a.body(), b.body());
        // The manifold's normal is the contact's; the clipping is what is checked here.
        let n = (f64::from(m.normal[0]), f64::from(m.normal[1]));
        let depth = f64::from(m.points().iter().map(|p| p.depth).fold(0.0f32, f32::max));
        let sin = |f: &Face64, d: (f64, f64)| {
            let side = if f.2.0 * d.0 + f.2.1 * d.1 > 0.0 {
                0.0
            } else {
                2.0
            };
            (f.2.0 * d.1 - f.2.1 * d.0).abs() + side
        };
        let best = |b: &Body, d: (f64, f64)| {
            faces(b)
                .into_iter()
                .enumerate()
                .map(|(k, f)| (sin(&f, d), k, f))
                .min_by(|x, y| x.0.total_cmp(&y.0))
        };
        let (Some((sa, ka, fa)), Some((sb, kb, fb))) = (best(&ba, n), best(&bb, (-n.0, -n.1)))
        else {
            continue;
        };
        // The reference face: the one the normal is, clearly, or a's when both are (parallel
        // faces, where either gives the same points).
        let slots = (A::Shape::SLOTS, B::Shape::SLOTS);
        let (r, r_ref, other, from_a, id) = if sa < 5e-4 && (sb > 2e-3 || sb.max(sa) < 1e-6) {
            let id = 256 + 16 * edge_index(&ba, slots.0, ka);
            (fa, ba.radius, &bb, true, id)
        } else if sb < 5e-4 && sa > 2e-3 {
            let id = 256 + 128 + 16 * edge_index(&bb, slots.1, kb);
            (fb, bb.radius, &ba, false, id)
        } else {
            if sa > 2e-3 && sb > 2e-3 {
                // The normal is clearly no face's (two rounded or vertex features touch):
                // the one deepest point.
                compared += 1;
                pair_assert!(
                    m.count == 1 && m.points[0].id == 0,
                    seed = seed,
                    index = i,
                    a,
                    b,
                    "{m:?}: no face's normal"
                );
            }
            continue;
        };
        let (points, ends, incident, close) = clip64(r, r_ref, other, n, from_a);
        let incident_slots = if from_a { slots.1 } else { slots.0 };
        let id = id + 2 * edge_index(other, incident_slots, incident);
        if close || points.is_empty() {
            continue;
        }
        // Where the clip does not reach the contact's depth (relative to the reference face's
        // magnitude, its largest coordinate plus its radius, plus the depth: the crate's
        // `REACHED` is 1e-5 of that): the one deepest point (whose place the rules test
        // checks); near the line between, left out.
        let deepest = points.iter().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max);
        let (v1, v2, _) = r;
        let scale = [v1.0, v1.1, v2.0, v2.1]
            .iter()
            .fold(0.0f64, |m, c| m.max(c.abs()))
            + r_ref;
        let off = (deepest - depth).abs() / (scale + depth);
        if (3e-6..3e-5).contains(&off) {
            continue;
        }
        if off >= 3e-5 {
            compared += 1;
            pair_assert!(
                m.count == 1,
                seed = seed,
                index = i,
                a,
                b,
                "{m:?}: the clip does not reach"
            );
            continue;
        }
        compared += 1;
        pair_assert!(
            usize::from(m.count) == points.len(),
            seed = seed,
            index = i,
            a,
            b,
            "{m:?} against f64 {points:?}"
        );
        // Each point against the nearest `f64` point (the order of the two ends is the
        // incident edge's, which may run either way): the deepest took the contact's depth,
        // within 2e-5 of the clip's (relative), and moved by half the difference; its id
        // names the reference shape and edge, the incident edge and the end (where the two
        // ends are too close to tell apart, the place and depth only).
        let apart = points.len() < 2 || {
            let (u, v) = (points[0].0, points[1].0);
            (u.0 - v.0).hypot(u.1 - v.1) > 1e-3
        };
        for p in m.points() {
            let (x, y) = (f64::from(p.point[0]), f64::from(p.point[1]));
            let (((q, d), end), _) = points
                .iter()
                .zip(&ends)
                .map(|(u, end)| ((u, end), (u.0.0 - x).hypot(u.0.1 - y)))
                .min_by(|u, v| u.1.total_cmp(&v.1))
                .expect("a point");
            pair_assert!(
                !apart || p.id == id + end,
                seed = seed,
                index = i,
                a,
                b,
                "id {} against {} (end {end}): {m:?}",
                p.id,
                id + end
            );
            let slack = 1e-4 + 2e-5 * (1.0 + depth);
            let near = (x - q.0).abs() < slack
                && (y - q.1).abs() < slack
                && (f64::from(p.depth) - d).abs() < slack;
            pair_assert!(
                near,
                seed = seed,
                index = i,
                a,
                b,
                "{m:?} against f64 {points:?}"
            );
        }
    }
    assert!(compared * 10 > hits, "only {compared} of {hits} compared");
}

/// Whether both kinds have faces (boxes, polygons, capsules): the kinds the clipping check
/// covers.
fn faced<A: ShapeSoa, B: ShapeSoa>() -> bool
where
    A::Shape: Arbitrary,
    B::Shape: Arbitrary,
{
    A::Shape::FIELDS.len() >= 4 && B::Shape::FIELDS.len() >= 4
}

/// One test per pair kind of the pair table and order, for each of the above.
macro_rules! manifold_tests {
    (
        distinct { $($d:ident: $A:ty, $B:ty;)* }
        same { $($s:ident: $S:ty;)* }
        casts { $($c:ident: $C:ty;)* }
    ) => {
        mod differential {
            use super::*;
            $(#[test] fn $d() { differential::<$A, $B>(); })*
            $(#[test] fn $s() { differential::<$S, $S>(); })*
            mod swapped {
                use super::*;
                $(#[test] fn $d() { differential::<$B, $A>(); })*
            }
        }
        mod clipping {
            use super::*;
            $(#[test] fn $d() { if faced::<$A, $B>() { clipping::<$A, $B>(51); } })*
            $(#[test] fn $s() { if faced::<$S, $S>() { clipping::<$S, $S>(52); } })*
            mod swapped {
                use super::*;
                $(#[test] fn $d() { if faced::<$B, $A>() { clipping::<$B, $A>(53); } })*
            }
        }
        mod rules {
            use super::*;
            $(#[test] fn $d() { rules::<$A, $B>(41); })*
            $(#[test] fn $s() { rules::<$S, $S>(42); })*
            mod swapped {
                use super::*;
                $(#[test] fn $d() { rules::<$B, $A>(43); })*
            }
        }
    };
}

widephase::pair_table!(manifold_tests);

//! Contacts and manifolds of shapes whose cores meet within rounding: a vertex or an endpoint
//! placed on the other's core, cores laid along each other (overlapping, end to end, or apart
//! on one line), zero-length capsules and zero-size boxes on a core; at scales from 1e-3 to
//! 1e4. There a direction taken between nearest points would be rounding noise. Every contact
//! kind, in both orders, is judged against the exact shapes in `f64`: moving `b` by
//! `depth + ε` along the normal separates them, by `depth - ε` it does not, and the depth is the
//! smallest separating move, with `ε` a fixed number of roundings of the largest coordinate.
//! The manifolds keep their rules on the same pairs.

use super::manifolds::rules_on;
use crate::pair_assert;
use crate::support::penetration::{AsBody, Body, penetration, separating_move};
use crate::support::shapes::{Arbitrary, Collapse, Gen, Spread, collapse_one_or_both};
use widephase::{
    Aabb, Capsule, Circle, Contact, ContactPair, ManifoldPair, Obb, Point, Polygon, ShapeSoa,
    contact_reference,
};

const PAIRS: usize = 5_000;
/// `ε` in roundings (`2⁻²⁴`) of the largest magnitude among the two shapes' coordinates and
/// radii.
const ROUNDINGS: f64 = 16.0;

/// The largest magnitude among the vertices' coordinates and the radii of two bodies.
fn magnitude(a: &Body, b: &Body) -> f64 {
    [a, b]
        .iter()
        .flat_map(|body| {
            body.vertices
                .iter()
                .flat_map(|&(x, y)| [x.abs(), y.abs()])
                .chain([body.radius])
        })
        .fold(0.0, f64::max)
}

/// The `ε` of a pair: [`ROUNDINGS`] roundings of its magnitude.
fn epsilon(a: &Body, b: &Body) -> f64 {
    ROUNDINGS * f64::from(f32::EPSILON) / 2.0 * magnitude(a, b)
}

/// Two ordinary shapes at a random scale from 1e-3 to 1e4 (a quarter with one or both
/// collapsed to no area), the second placed to meet the first within rounding.
fn meeting_pair<A: Arbitrary + Collapse, B: Arbitrary + Collapse>(g: &mut Gen) -> (A, B) {
    let s = 10f32.powf(g.uniform(-3.0, 4.0));
    let spread = Spread {
        half: 4.0 * s,
        size: (0.5 * s, 3.5 * s),
    };
    let (a, b) = (A::ordinary_in(g, &spread), B::ordinary_in(g, &spread));
    let (a, b) = if g.percent() < 25 {
        collapse_one_or_both(g, a, b)
    } else {
        (a, b)
    };
    let b = g.meeting(&a, b);
    (a, b)
}

/// What is wrong with the contact `c` of `a` and `b` judged against the exact shapes (see the
/// module docs), if anything.
fn misjudged<A: AsBody, B: AsBody>(a: &A, b: &B, c: Contact) -> Option<String> {
    let (ba, bb) = (a.body(), b.body());
    let eps = epsilon(&ba, &bb);
    let (nx, ny) = (f64::from(c.normal[0]), f64::from(c.normal[1]));
    let len = nx.hypot(ny);
    if (len - 1.0).abs() >= 1e-5 || c.depth < 0.0 {
        return Some(format!("{c:?}: not a unit normal and a depth"));
    }
    let along = separating_move(&ba, &bb, (nx / len, ny / len));
    let depth = f64::from(c.depth) * len;
    let want = penetration(&ba, &bb);
    if depth + eps <= along {
        Some(format!(
            "{c:?}: moving b by depth + ε ({eps:e}) along the normal leaves an overlap (it takes \
             {along:e})"
        ))
    } else if depth - eps > along {
        Some(format!(
            "{c:?}: moving b by depth - ε ({eps:e}) along the normal separates them (it takes \
             {along:e})"
        ))
    } else if (depth - want.depth).abs() >= eps {
        Some(format!(
            "{c:?}: the smallest separating move is {want:?} (ε {eps:e})"
        ))
    } else {
        None
    }
}

/// `contact` on [`PAIRS`] meeting pairs, judged against the exact shapes (see the module docs).
fn contacts<A, B>(seed: u64, contact: fn(&A, &B) -> Option<Contact>)
where
    A: Arbitrary + AsBody + Collapse,
    B: Arbitrary + AsBody + Collapse,
{
    let mut g = Gen::new(seed);
    let mut hits = 0;
    for i in 0..PAIRS {
        let (a, b) = meeting_pair::<A, B>(&mut g);
        let Some(c) = contact(&a, &b) else {
            continue;
        };
        hits += 1;
        let wrong = misjudged(&a, &b, c);
        pair_assert!(
            wrong.is_none(),
            seed = seed,
            index = i,
            a,
            b,
            "{}",
            wrong.unwrap_or_default()
        );
    }
    assert!(hits * 2 > PAIRS, "only {hits} of {PAIRS} meeting pairs hit");
}

/// How far, relative to the magnitude, the crate lets a clipped manifold point be from midway:
/// half its `REACHED` (1e-5) of the reference face's magnitude plus the depth, each at most
/// about twice the pair's magnitude.
const REACHED_SLACK: f64 = 2e-5;

/// The manifold rules (see `manifolds::rules_on`) on meeting pairs, each point within `4 ε`
/// (and [`REACHED_SLACK`]) of both boundaries.
fn manifolds<A, B>(seed: u64)
where
    A: ManifoldPair<B>,
    B: ShapeSoa,
    A::Shape: Arbitrary + AsBody + Collapse,
    B::Shape: Arbitrary + AsBody + Collapse,
{
    rules_on::<A, B>(seed, meeting_pair, false, |a, b| {
        4.0 * epsilon(a, b) + REACHED_SLACK * magnitude(a, b)
    });
}

/// One test per pair kind of the pair table and order.
macro_rules! meeting_tests {
    (
        distinct { $($d:ident: $A:ty, $B:ty;)* }
        same { $($s:ident: $S:ty;)* }
        casts { $($c:ident: $C:ty;)* }
    ) => {
        mod contacts {
            use super::*;
            $(#[test] fn $d() { contacts(61, contact_reference::$d); })*
            $(#[test] fn $s() { contacts(62, contact_reference::$s); })*
            mod swapped {
                use super::*;
                $(
                    #[test]
                    fn $d() {
                        contacts(63, <$B as ContactPair<$A>>::contact_reference);
                    }
                )*
            }
        }
        mod manifolds {
            use super::*;
            $(#[test] fn $d() { manifolds::<$A, $B>(64); })*
            $(#[test] fn $s() { manifolds::<$S, $S>(65); })*
            mod swapped {
                use super::*;
                $(#[test] fn $d() { manifolds::<$B, $A>(66); })*
            }
        }
    };
}

widephase::pair_table!(meeting_tests);

/// The capsule lying along another's core (its ends 1.3e-7 and 1.8e-8 off that line):
/// the normal is the first core's normal, not an axis picked by rounding.
#[test]
fn a_segment_along_a_capsule_core_leaves_sideways() {
    let a = Capsule::new(-2.7293904, 4.1467133, -1.7043893, 0.15016091, 0.24175808);
    let b = Capsule::segment(-2.0474691, 1.4878541, -1.5485942, -0.45729524);
    let c = contact_reference::capsule_capsule(&a, &b).expect("they overlap");
    let (dx, dy) = (a.x1 - a.x0, a.y1 - a.y0);
    let len = dx.hypot(dy);
    let across = (c.normal[0] * dx + c.normal[1] * dy) / len;
    assert!(across.abs() < 1e-6, "{c:?} is not across a's core");
    assert!((c.depth - a.radius).abs() < 1e-6, "{c:?}");
}

/// A point `t` of the way along the segment from `p` to `q`, computed in `f32` (so on its line
/// within rounding).
fn at(p: [f32; 2], q: [f32; 2], t: f32) -> [f32; 2] {
    [p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])]
}

/// `contact` of `a` and `b` (it must hit), judged against the exact shapes, and its normal
/// parallel to `along` (either way, unit or not), within 1e-3 radians: the exact judge is the
/// one above; this one names the face (an axis between vertices rounded to the coordinates
/// points where they lie, a few ULPs off the ideal line).
fn by_hand<A, B>(what: &str, a: A, b: B, contact: fn(&A, &B) -> Option<Contact>, along: [f32; 2])
where
    A: AsBody + core::fmt::Debug,
    B: AsBody + core::fmt::Debug,
{
    let c = contact(&a, &b).unwrap_or_else(|| panic!("{what}: no hit for {a:?} {b:?}"));
    if let Some(wrong) = misjudged(&a, &b, c) {
        panic!("{what}: {wrong}\n  a = {a:?}\n  b = {b:?}");
    }
    let across = (c.normal[0] * along[1] - c.normal[1] * along[0]) / along[0].hypot(along[1]);
    assert!(
        across.abs() < 1e-3,
        "{what}: {c:?} is not along {along:?}: {a:?} {b:?}"
    );
}

/// The three configurations of the issue and the exact ones beside them, for two capsules on a
/// core that runs at an angle (3 : 1) far from the origin, in both orders: cores lying along
/// each other (overlapping, end to end, a few ULPs apart, apart on one line), an end on the
/// other core (a T), a zero-length capsule on a core, cores meeting at a corner. Where the
/// cores are apart on one line, they leave along it; everywhere else across the first core.
#[test]
fn capsule_cores_meeting_by_hand() {
    let (p, q) = ([1000.25_f32, -300.5], [1012.25_f32, -296.5]);
    let d = [q[0] - p[0], q[1] - p[1]];
    let n = [-d[1], d[0]];
    let a = Capsule::new(p[0], p[1], q[0], q[1], 0.75);
    let off = |v: [f32; 2], k: f32| [v[0] + k * n[0], v[1] + k * n[1]];
    let cap = |u: [f32; 2], v: [f32; 2], r: f32| Capsule::new(u[0], u[1], v[0], v[1], r);
    let cases = [
        (
            "collinear, overlapping",
            cap(at(p, q, 0.25), at(p, q, 1.5), 0.5),
            n,
            n,
        ),
        (
            "collinear, end to end",
            cap(at(p, q, 1.0), at(p, q, 2.0), 0.5),
            n,
            n,
        ),
        (
            "collinear, exactly end to end",
            cap(q, at(p, q, 2.0), 0.5),
            n,
            n,
        ),
        (
            "collinear, apart on the line",
            cap(at(p, q, 1.05), at(p, q, 2.0), 0.5),
            d,
            d,
        ),
        (
            "parallel, ULPs apart",
            cap(off(at(p, q, 0.2), 1e-5), off(at(p, q, 0.7), 1e-5), 0.5),
            n,
            n,
        ),
        (
            "an end on the core",
            cap(at(p, q, 0.4), off(at(p, q, 0.4), 0.5), 0.25),
            n,
            n,
        ),
        (
            "an end on the core, across",
            cap(at(p, q, 0.4), off(at(p, q, 0.4), -0.5), 0.25),
            n,
            n,
        ),
        (
            "a zero-length capsule on the core",
            cap(at(p, q, 0.6), at(p, q, 0.6), 0.25),
            n,
            n,
        ),
        (
            "a segment on the core",
            cap(at(p, q, 0.3), at(p, q, 0.6), 0.0),
            n,
            n,
        ),
        // A tie between the two cores' normals: the first capsule's wins.
        ("a corner, end to end", cap(q, off(q, 0.5), 0.5), n, d),
    ];
    for (what, b, forward, swapped) in cases {
        by_hand(what, a, b, contact_reference::capsule_capsule, forward);
        by_hand(what, b, a, contact_reference::capsule_capsule, swapped);
    }
}

/// A centre on a capsule's core (within rounding, at an end, beyond an end on its line), a
/// point there, a box's face along the core, a box's corner and a polygon's vertex on the core:
/// each in both orders, judged against the exact shapes.
#[test]
fn shapes_on_a_capsule_core_by_hand() {
    let (p, q) = ([-40.5_f32, 7.25], [-36.5_f32, 19.25]);
    let d = [q[0] - p[0], q[1] - p[1]];
    let n = [-d[1], d[0]];
    let capsule = Capsule::new(p[0], p[1], q[0], q[1], 0.5);
    let on = at(p, q, 0.35);
    let circles = [
        ("a centre on the core", Circle::new(on[0], on[1], 0.25), n),
        ("a centre on an end", Circle::new(q[0], q[1], 0.25), n),
        (
            "a centre beyond an end, on the line",
            {
                let c = at(p, q, 1.02);
                Circle::new(c[0], c[1], 0.25)
            },
            d,
        ),
    ];
    for (what, c, along) in circles {
        by_hand(what, c, capsule, contact_reference::circle_capsule, along);
        by_hand(
            what,
            capsule,
            c,
            <widephase::Capsules as ContactPair<widephase::Circles>>::contact_reference,
            along,
        );
        let point = Point::new(c.x, c.y);
        by_hand(
            what,
            point,
            capsule,
            contact_reference::point_capsule,
            along,
        );
    }
    // A box whose top face holds the core of a level segment, and one whose corner is on the
    // slanted core.
    let level = Capsule::new(1000.25, 20.0, 1003.75, 20.0, 0.5);
    let floor = Aabb::new(990.0, 10.0, 1010.0, 20.0);
    by_hand(
        "a core along a box's face",
        floor,
        level,
        contact_reference::aabb_capsule,
        [0.0, 1.0],
    );
    let corner = Aabb::new(on[0] - 3.0, on[1] - 5.0, on[0], on[1]);
    let c = contact_reference::aabb_capsule(&corner, &capsule).expect("they overlap");
    assert!(
        misjudged(&corner, &capsule, c).is_none(),
        "a box's corner on the core: {c:?}"
    );
    // The same box turned with the core: its face along the core, a quarter of the way.
    let len = d[0].hypot(d[1]);
    let (cos, sin) = (d[0] / len, d[1] / len);
    let centre = at(p, q, 0.5);
    let turned = Obb::from_rotation(
        centre[0] - 1.0 * -sin,
        centre[1] - 1.0 * cos,
        len,
        1.0,
        cos,
        sin,
    );
    by_hand(
        "a core along a turned box's face",
        turned,
        capsule,
        contact_reference::obb_capsule,
        n,
    );
    // A triangle with a vertex on the core, and one with an edge along it.
    let tip = Polygon::new(&[on, [on[0] + 3.0, on[1] - 4.0], [on[0] + 5.0, on[1] + 1.0]])
        .expect("a triangle");
    let c = contact_reference::polygon_capsule(&tip, &capsule).expect("they overlap");
    assert!(
        misjudged(&tip, &capsule, c).is_none(),
        "a vertex on the core: {c:?}"
    );
    let ledge = Polygon::new(&[at(p, q, 0.8), at(p, q, 0.2), [on[0] + 6.0, on[1] - 1.0]])
        .expect("a triangle");
    by_hand(
        "a core along a polygon's edge",
        ledge,
        capsule,
        contact_reference::polygon_capsule,
        n,
    );
}

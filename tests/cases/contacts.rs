//! Contacts: every contact kernel, through `batch_contact` and `par_batch_contact`, against its
//! scalar reference bit for bit on the hard-case generators, in both orders; every reference
//! against an independent `f64` penetration depth, against the move it promises (by `depth + ε`
//! along the normal the pair comes apart, by `depth - ε` it still overlaps), and against
//! parry2d's `query::contact` where the smallest move is unique; hand-worked cases; the tie and
//! degenerate-direction rules; `Scene` and `PairFinder` contacts against the references.

use crate::pair_assert;
use crate::support::peer::Solid;
use crate::support::penetration::{AsBody, penetration};
use crate::support::shapes::{Arbitrary, Collapse, Gen, Motion, collapse_one_or_both};
use crate::support::threads::in_pool;
use widephase::{
    Aabb, Capsule, Circle, Contact, ContactPair, Contacts, HitMask, Obb, Obbs, PairFinder, Polygon,
    Polygons, Scene, Shape, ShapeSoa, batch_contact, batch_test, contact_reference,
    par_batch_contact,
};

const LENGTHS: [usize; 6] = [0, 1, 7, 8, 9, 1000];
const SEEDS: u64 = 8;
const LONG: usize = 50_000;

/// Whether two answers are the same bits.
fn same(a: Option<Contact>, b: Option<Contact>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => {
            a.normal[0].to_bits() == b.normal[0].to_bits()
                && a.normal[1].to_bits() == b.normal[1].to_bits()
                && a.depth.to_bits() == b.depth.to_bits()
        }
        _ => false,
    }
}

/// The columns of a `Contacts` as bits, to compare two of them exactly.
fn column_bits(c: &Contacts) -> Vec<[u32; 3]> {
    (0..c.len())
        .map(|i| {
            [
                c.normal_x()[i].to_bits(),
                c.normal_y()[i].to_bits(),
                c.depth()[i].to_bits(),
            ]
        })
        .collect()
}

/// `A` against `B` on every length and seed: the hit bits are `batch_test`'s, each pair's
/// contact is `reference`'s bits (named per test, not taken from the trait), a pair without a
/// hit holds `+0` everywhere, a hit has a number for a normal and a depth `>= 0`, and the
/// parallel twin gives the same bits.
fn differential<A, B>(reference: fn(&A::Shape, &B::Shape) -> Option<Contact>)
where
    A: ContactPair<B> + FromIterator<A::Shape> + Sync,
    B: ShapeSoa + FromIterator<B::Shape> + Sync,
    A::Shape: Arbitrary,
    B::Shape: Arbitrary,
{
    let mut hits_seen = 0;
    let runs = (0..SEEDS)
        .flat_map(|seed| LENGTHS.map(|n| (seed * 10_000 + n as u64, n)))
        .chain([(u64::MAX, LONG)]);
    for (seed, n) in runs {
        let mut g = Gen::new(seed);
        let (va, vb) = g.pairs::<A::Shape, B::Shape>(n);
        let a: A = va.iter().copied().collect();
        let b: B = vb.iter().copied().collect();
        let mut hits = HitMask::new();
        batch_test(&a, &b, &mut hits).unwrap();
        let (mut contacts, mut par) = (Contacts::new(), Contacts::new());
        batch_contact(&a, &b, &mut contacts).unwrap();
        par_batch_contact(&a, &b, &mut par).unwrap();
        assert_eq!(contacts.len(), n, "seed {seed}: length");
        assert_eq!(
            contacts.hits(),
            &hits,
            "seed {seed}: hits differ from batch_test"
        );
        for i in 0..n {
            let want = reference(&va[i], &vb[i]);
            let got = contacts.get(i);
            pair_assert!(
                same(got, want),
                seed = seed,
                index = i,
                va[i],
                vb[i],
                "kernel says {got:?}, reference says {want:?}"
            );
            pair_assert!(
                same(A::contact_reference(&va[i], &vb[i]), want),
                seed = seed,
                index = i,
                va[i],
                vb[i],
                "ContactPair::contact_reference is wired to a different function"
            );
            match want {
                None => pair_assert!(
                    [
                        contacts.normal_x()[i],
                        contacts.normal_y()[i],
                        contacts.depth()[i]
                    ]
                    .iter()
                    .all(|v| v.to_bits() == 0),
                    seed = seed,
                    index = i,
                    va[i],
                    vb[i],
                    "a pair without a hit holds something"
                ),
                Some(c) => {
                    hits_seen += 1;
                    pair_assert!(
                        !c.normal[0].is_nan() && !c.normal[1].is_nan() && c.depth >= 0.0,
                        seed = seed,
                        index = i,
                        va[i],
                        vb[i],
                        "a hit's contact is {c:?}"
                    );
                }
            }
        }
        assert_eq!(par.hits(), contacts.hits(), "seed {seed}: parallel hits");
        assert_eq!(
            column_bits(&par),
            column_bits(&contacts),
            "seed {seed}: par_batch_contact differs"
        );
    }
    assert!(hits_seen > 1000, "only {hits_seen} hits");
}

/// Random ordinary pairs (finite, valid, unit rotations), each reference against what a contact
/// promises, checked independently.
fn independent<A, B>(
    seed: u64,
    contact: fn(&A, &B) -> Option<Contact>,
    overlaps: fn(&A, &B) -> bool,
) where
    A: Arbitrary + AsBody + Solid + Collapse,
    B: Arbitrary + AsBody + Solid + Collapse,
{
    const PAIRS: usize = 20_000;
    const EPS: f32 = 1e-3;
    let mut g = Gen::new(seed);
    let (mut hits, mut unique, mut peer, mut collapsed_hits) = (0, 0, 0, 0);
    for i in 0..2 * PAIRS {
        // Ordinary pairs, then pairs where one shape or both have no area (no unique-axis or
        // peer counts for those).
        let ordinary = i < PAIRS;
        let (a, b) = (A::ordinary(&mut g), B::ordinary(&mut g));
        let (a, b) = if ordinary {
            (a, b)
        } else {
            collapse_one_or_both(&mut g, a, b)
        };
        let Some(c) = contact(&a, &b) else {
            continue;
        };
        if ordinary {
            hits += 1;
        } else {
            collapsed_hits += 1;
        }
        let [nx, ny] = c.normal;
        let len = f64::from(nx).hypot(f64::from(ny));
        pair_assert!(
            (len - 1.0).abs() < 1e-5 && c.depth >= 0.0,
            seed = seed,
            index = i,
            a,
            b,
            "{c:?}: not a unit normal and a depth"
        );
        let want = penetration(&a.body(), &b.body());
        let close = (f64::from(c.depth) - want.depth).abs() < 1e-4;
        pair_assert!(
            close,
            seed = seed,
            index = i,
            a,
            b,
            "depth {} against f64 {want:?}",
            c.depth
        );
        let (x, y) = b.center();
        let apart = b.moved_to(x + (c.depth + EPS) * nx, y + (c.depth + EPS) * ny);
        pair_assert!(
            !overlaps(&a, &apart),
            seed = seed,
            index = i,
            a,
            b,
            "{c:?}: moving b by depth + ε along the normal leaves an overlap"
        );
        if c.depth > EPS {
            let still = b.moved_to(x + (c.depth - EPS) * nx, y + (c.depth - EPS) * ny);
            pair_assert!(
                overlaps(&a, &still),
                seed = seed,
                index = i,
                a,
                b,
                "{c:?}: moving b by depth - ε along the normal separates them"
            );
        }
        if ordinary && want.runner_up - want.depth > 1e-3 {
            unique += 1;
            let along = f64::from(nx) * want.normal.0 + f64::from(ny) * want.normal.1;
            let parallel = along > 1.0 - 1e-5;
            pair_assert!(
                parallel,
                seed = seed,
                index = i,
                a,
                b,
                "normal {:?} against f64 {want:?}",
                c.normal
            );
            let (pa, sa) = a.solid();
            let (pb, sb) = b.solid();
            if A::CONTACT_PEER
                && B::CONTACT_PEER
                && let Ok(Some(p)) = parry2d::query::contact(&pa, &*sa.0, &pb, &*sb.0, 0.0)
                && c.depth > 1e-3
            {
                peer += 1;
                let along = nx * p.normal1.x + ny * p.normal1.y;
                pair_assert!(
                    (c.depth + p.dist).abs() < 1e-3 && along > 0.999,
                    seed = seed,
                    index = i,
                    a,
                    b,
                    "{c:?} against parry2d {p:?}"
                );
            }
        }
    }
    assert!(hits * 20 > PAIRS, "only {hits} of {PAIRS} pairs overlap");
    assert!(
        collapsed_hits * 100 > PAIRS,
        "only {collapsed_hits} of {PAIRS} pairs with a shape without area overlap"
    );
    assert!(
        unique * 2 > hits,
        "only {unique} of {hits} with a unique axis"
    );
    assert!(
        peer * 2 > unique || !(A::CONTACT_PEER && B::CONTACT_PEER),
        "parry2d answered only {peer} of {unique}"
    );
}

/// One test per pair kind of the pair table and order, for each of the above.
macro_rules! contact_tests {
    (
        distinct { $($d:ident: $A:ty, $B:ty;)* }
        same { $($s:ident: $S:ty;)* }
        casts { $($c:ident: $C:ty;)* }
    ) => {
        mod differential {
            use super::*;
            $(
                #[test]
                fn $d() {
                    differential::<$A, $B>(contact_reference::$d);
                }
            )*
            $(
                #[test]
                fn $s() {
                    differential::<$S, $S>(contact_reference::$s);
                }
            )*
            /// The distinct pairs in the other order: the same contact, reversed.
            mod swapped {
                use super::*;
                $(
                    #[test]
                    fn $d() {
                        differential::<$B, $A>(|b, a| {
                            contact_reference::$d(a, b).map(Contact::reversed)
                        });
                    }
                )*
            }
        }
        mod independent {
            use super::*;
            $(
                #[test]
                fn $d() {
                    independent(3, contact_reference::$d, widephase::reference::$d);
                }
            )*
            $(
                #[test]
                fn $s() {
                    independent(3, contact_reference::$s, widephase::reference::$s);
                }
            )*
            mod swapped {
                use super::*;
                $(
                    #[test]
                    fn $d() {
                        independent(
                            4,
                            |b, a| <$B as ContactPair<$A>>::contact_reference(b, a),
                            |b, a| widephase::reference::$d(a, b),
                        );
                    }
                )*
            }
        }
    };
}

widephase::pair_table!(contact_tests);

/// The contact of two scene shapes in this order, through the references.
pub(super) fn shape_contact(a: Shape, b: Shape) -> Option<Contact> {
    use contact_reference as r;
    match (a, b) {
        (Shape::Circle(a), Shape::Circle(b)) => r::circle_circle(&a, &b),
        (Shape::Circle(a), Shape::Aabb(b)) => r::circle_aabb(&a, &b),
        (Shape::Circle(a), Shape::Obb(b)) => r::circle_obb(&a, &b),
        (Shape::Circle(a), Shape::Polygon(b)) => r::circle_polygon(&a, &b),
        (Shape::Aabb(a), Shape::Aabb(b)) => r::aabb_aabb(&a, &b),
        (Shape::Aabb(a), Shape::Obb(b)) => r::aabb_obb(&a, &b),
        (Shape::Aabb(a), Shape::Polygon(b)) => r::aabb_polygon(&a, &b),
        (Shape::Obb(a), Shape::Obb(b)) => r::obb_obb(&a, &b),
        (Shape::Obb(a), Shape::Polygon(b)) => r::obb_polygon(&a, &b),
        (Shape::Polygon(a), Shape::Polygon(b)) => r::polygon_polygon(&a, &b),
        (Shape::Circle(a), Shape::Capsule(b)) => r::circle_capsule(&a, &b),
        (Shape::Aabb(a), Shape::Capsule(b)) => r::aabb_capsule(&a, &b),
        (Shape::Obb(a), Shape::Capsule(b)) => r::obb_capsule(&a, &b),
        (Shape::Polygon(a), Shape::Capsule(b)) => r::polygon_capsule(&a, &b),
        (Shape::Capsule(a), Shape::Capsule(b)) => r::capsule_capsule(&a, &b),
        (a, b) => shape_contact(b, a).map(Contact::reversed),
    }
}

/// `contacts` answers the pairs of `overlapping_pairs`, in order, each with the reference's
/// contact of its two shapes in the pair's order.
pub(super) fn assert_contacts(
    scene: &Scene,
    pairs: &[(u32, u32)],
    contacts: &[(u32, u32, Contact)],
) {
    assert_eq!(contacts.len(), pairs.len());
    for (&(a, b), &(ca, cb, c)) in pairs.iter().zip(contacts) {
        assert_eq!((a, b), (ca, cb));
        let want = shape_contact(scene.get(a).expect("live"), scene.get(b).expect("live"));
        assert!(same(Some(c), want), "pair ({a}, {b}): {c:?} vs {want:?}");
    }
}

#[test]
fn scene_contacts_follow_the_pairs() {
    let mut g = Gen::new(31);
    let mut scene: Scene = g.mixed_scene(20_000).into_iter().collect();
    let pairs = scene.overlapping_pairs();
    assert!(pairs.len() > 1000, "{} pairs", pairs.len());
    assert_contacts(&scene, &pairs, &scene.contacts());

    // A kept finder over moving frames, on one and on two threads.
    let motion = Motion::new(&scene, 0.04, 1.0);
    let mut finder = PairFinder::new();
    let (mut kept_pairs, mut contacts) = (Vec::new(), Vec::new());
    for frame in 0..12 {
        scene.update(|id, s| motion.apply(s, id, frame));
        if frame % 2 == 0 {
            finder.contacts(&scene, &mut contacts);
        } else {
            in_pool(2, || finder.contacts(&scene, &mut contacts));
        }
        assert!(finder.stats().contacts > std::time::Duration::ZERO);
        kept_pairs.clear();
        kept_pairs.extend(contacts.iter().map(|&(a, b, _)| (a, b)));
        assert_eq!(kept_pairs, scene.overlapping_pairs(), "frame {frame}");
        assert_contacts(&scene, &kept_pairs, &contacts);
    }
}

#[test]
fn scene_contacts_of_every_kind_pair() {
    // One shape of each kind at the same place, plus shapes that overlap nothing: every pair
    // kind in both id orders.
    let shapes = [
        Shape::from(Circle::new(0.0, 0.0, 1.0)),
        Shape::from(Aabb::new(-0.5, -0.25, 0.75, 0.5)),
        Shape::from(Obb::new(0.25, 0.0, 1.0, 0.5, 0.3)),
        Shape::from(Polygon::regular(5, 0.0, 0.5, 1.0, 0.1)),
        Shape::from(Capsule::new(-0.5, 0.5, 0.5, -0.25, 0.25)),
    ];
    let mut scene = Scene::new();
    for s in shapes.iter().chain(shapes.iter().rev()) {
        scene.push(*s);
        scene.push(Circle::new(100.0 + scene.len() as f32 * 10.0, 0.0, 1.0));
    }
    let pairs = scene.overlapping_pairs();
    assert_eq!(pairs.len(), 10 * 9 / 2);
    assert_contacts(&scene, &pairs, &scene.contacts());
}

#[test]
fn contact_containers_of_every_kind_match_the_scene_rule() {
    // `shape_contact` reverses the swapped order: a check of the helper the scene tests use.
    let p = Polygon::regular(3, 0.0, 0.0, 1.0, 0.0);
    let o = Obb::new(0.5, 0.0, 1.0, 1.0, 0.2);
    let forward = shape_contact(Shape::from(o), Shape::from(p));
    let backward = shape_contact(Shape::from(p), Shape::from(o));
    assert!(forward.is_some());
    assert_eq!(backward, forward.map(Contact::reversed));
    let (obbs, polys): (Obbs, Polygons) = ([o].into_iter().collect(), [p].into_iter().collect());
    let mut out = Contacts::new();
    batch_contact(&polys, &obbs, &mut out).unwrap();
    assert!(same(out.get(0), backward));
}

/// `Shape::overlaps` and `Shape::contact` on `n` pairs of kinds `A`, `B` (awkward and invalid
/// ones included), in both orders: the reference's answer (through the test's own dispatch)
/// for two valid shapes, nothing for an invalid one, the same from either side, a contact
/// exactly when they overlap.
fn one_pair_api<A, B>(g: &mut Gen, n: usize)
where
    A: Arbitrary + Into<Shape>,
    B: Arbitrary + Into<Shape>,
{
    let (a, b) = g.pairs::<A, B>(n);
    let mut hits = 0;
    for (a, b) in a.into_iter().zip(b) {
        let (a, b): (Shape, Shape) = (a.into(), b.into());
        let valid = a.check().is_ok() && b.check().is_ok();
        let hit = valid && crate::support::model::overlap(&a, &b);
        assert_eq!(a.overlaps(&b), hit, "{a:?} {b:?}");
        assert_eq!(b.overlaps(&a), hit, "{b:?} {a:?}");
        let (ab, ba) = (a.contact(&b), b.contact(&a));
        let valid_contact = |a, b| shape_contact(a, b).filter(|_| valid);
        assert!(same(ab, valid_contact(a, b)), "{a:?} {b:?}");
        assert!(same(ba, valid_contact(b, a)), "{b:?} {a:?}");
        assert_eq!((ab.is_some(), ba.is_some()), (hit, hit));
        hits += usize::from(hit);
    }
    assert!(hits > n / 20, "{hits} of {n} overlap");
}

#[test]
fn one_pair_of_any_kinds_in_either_order() {
    let mut g = Gen::new(77);
    macro_rules! kinds {
        ($($a:ty, $b:ty;)*) => {$( one_pair_api::<$a, $b>(&mut g, 4000); )*};
    }
    kinds!(
        Circle, Circle; Circle, Aabb; Circle, Obb; Circle, Polygon; Circle, Capsule;
        Aabb, Aabb; Aabb, Obb; Aabb, Polygon; Aabb, Capsule;
        Obb, Obb; Obb, Polygon; Obb, Capsule;
        Polygon, Polygon; Polygon, Capsule; Capsule, Capsule;
    );
}

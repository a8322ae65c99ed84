//! Every kernel, through `batch_test` and `par_batch_test`, against its scalar reference, bit for
//! bit, on seeded batches biased toward the hard cases (see `support::gen`).

use crate::pair_assert;
use crate::support::shapes::{Arbitrary, Gen};
use widephase::{
    HitMask, Overlaps, RayCast, Rays, ShapeSoa, batch_test, par_batch_test, reference,
};

const LENGTHS: [usize; 6] = [0, 1, 7, 8, 9, 1000];
const SEEDS: u64 = 12;
/// One long batch per pair kind, beyond what the per-length loops cover.
const LONG: usize = 100_000;

/// Runs `A` against `B` on every length and seed and compares each answer with `reference`,
/// which is written out explicitly per test (not taken from the trait) so a mis-wired trait
/// implementation fails too.
fn differential<A, B>(reference: fn(&A::Shape, &B::Shape) -> bool)
where
    A: Overlaps<B> + FromIterator<A::Shape> + Sync,
    B: ShapeSoa + FromIterator<B::Shape> + Sync,
    A::Shape: Arbitrary,
    B::Shape: Arbitrary,
{
    let (mut hits_seen, mut misses_seen) = (0, 0);
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
        let mut par = HitMask::new();
        par_batch_test(&a, &b, &mut par).unwrap();

        assert_eq!(hits.len(), n, "seed {seed}: HitMask length");
        let mut expected = 0;
        for i in 0..n {
            let want = reference(&va[i], &vb[i]);
            expected += usize::from(want);
            pair_assert!(
                hits.get(i) == want,
                seed = seed,
                index = i,
                va[i],
                vb[i],
                "kernel says {}, reference says {want}",
                hits.get(i)
            );
            pair_assert!(
                A::reference(&va[i], &vb[i]) == want,
                seed = seed,
                index = i,
                va[i],
                vb[i],
                "Overlaps::reference is wired to a different function"
            );
        }
        assert_eq!(hits.count_ones(), expected, "seed {seed}: count_ones");
        assert_eq!(
            hits, par,
            "seed {seed}: par_batch_test differs from batch_test"
        );
        if n % 64 != 0 {
            let last = *hits.words().last().unwrap();
            assert_eq!(last >> (n % 64), 0, "seed {seed}: bits past len() are set");
        }
        hits_seen += expected;
        misses_seen += n - expected;
    }
    // The inputs must exercise both answers, or the comparison proves little.
    let total = hits_seen + misses_seen;
    assert!(hits_seen * 20 > total, "only {hits_seen} hits of {total}");
    assert!(
        misses_seen * 20 > total,
        "only {misses_seen} misses of {total}"
    );
}

/// Every ray cast, through `batch_raycast` and `par_batch_raycast`, against its reference: the
/// same bits (the same entry parameter, or both `f32::INFINITY`) on every length and seed.
fn differential_cast<S>(reference: fn(&widephase::Ray, &S::Shape) -> f32)
where
    S: RayCast + FromIterator<S::Shape> + Sync,
    S::Shape: Arbitrary,
{
    let (mut hits_seen, mut misses_seen, mut inside_seen) = (0, 0, 0);
    let runs = (0..SEEDS)
        .flat_map(|seed| LENGTHS.map(|n| (seed * 10_000 + n as u64, n)))
        .chain([(u64::MAX, LONG)]);
    for (seed, n) in runs {
        let mut g = Gen::new(seed);
        let (vr, vs) = g.pairs::<widephase::Ray, S::Shape>(n);
        let rays: Rays = vr.iter().copied().collect();
        let shapes: S = vs.iter().copied().collect();
        // Reused buffers with stale contents, one longer and one shorter than needed: every
        // element must be written, none kept from before.
        let (mut t, mut par) = (vec![f32::from_bits(0x7fc0_dead); n + 5], vec![-1.0; n / 2]);
        widephase::batch_raycast(&rays, &shapes, &mut t).unwrap();
        widephase::par_batch_raycast(&rays, &shapes, &mut par).unwrap();
        assert_eq!(t.len(), n, "seed {seed}: output length");
        assert_eq!(par.len(), n, "seed {seed}: parallel output length");
        for i in 0..n {
            let want = reference(&vr[i], &vs[i]);
            pair_assert!(
                t[i].to_bits() == want.to_bits(),
                seed = seed,
                index = i,
                vr[i],
                vs[i],
                "kernel says {:?}, reference says {want:?}",
                t[i]
            );
            pair_assert!(
                S::reference(&vr[i], &vs[i]).to_bits() == want.to_bits(),
                seed = seed,
                index = i,
                vr[i],
                vs[i],
                "RayCast::reference is wired to a different function"
            );
            pair_assert!(
                want == f32::INFINITY || (want >= 0.0 && want <= vr[i].max_t),
                seed = seed,
                index = i,
                vr[i],
                vs[i],
                "a hit outside [0, max_t]: {want:?}"
            );
            hits_seen += usize::from(want < f32::INFINITY);
            inside_seen += usize::from(want == 0.0);
            misses_seen += usize::from(want == f32::INFINITY);
        }
        let same = t.iter().zip(&par).all(|(a, b)| a.to_bits() == b.to_bits());
        assert!(
            same,
            "seed {seed}: par_batch_raycast differs from batch_raycast"
        );
    }
    let total = hits_seen + misses_seen;
    assert!(hits_seen * 20 > total, "only {hits_seen} hits of {total}");
    assert!(
        misses_seen * 20 > total,
        "only {misses_seen} misses of {total}"
    );
    assert!(
        inside_seen * 100 > total,
        "only {inside_seen} origins inside of {total}"
    );
}

/// Same-kind tests are symmetric to the bit: exchanging the shapes only negates the offset and
/// the relative sine, which every formula takes the absolute value or square of; polygons are
/// recentred on a point that does not depend on the order. A `Scene` relies on this: it passes
/// same-kind pairs in whatever order its search finds them.
fn symmetric<S: Arbitrary>(seed: u64, reference: fn(&S, &S) -> bool) {
    let mut g = Gen::new(seed);
    for i in 0..200_000 {
        let (a, b): (S, S) = (g.shape(None), g.shape(None));
        pair_assert!(
            reference(&a, &b) == reference(&b, &a),
            seed = seed,
            index = i,
            a,
            b,
            "asymmetric"
        );
    }
}

/// One test per pair kind of the pair table: each order of a distinct pair, each same-kind
/// pair (and its symmetry), each ray cast. The reference is named explicitly per test (not
/// taken from the trait), so a mis-wired trait implementation fails too.
macro_rules! differential_tests {
    (
        distinct { $($d:ident: $A:ty, $B:ty;)* }
        same { $($s:ident: $S:ty;)* }
        casts { $($c:ident: $C:ty;)* }
    ) => {
        $(
            #[test]
            fn $d() {
                differential::<$A, $B>(reference::$d);
            }
        )*
        $(
            #[test]
            fn $s() {
                differential::<$S, $S>(reference::$s);
            }
        )*
        $(
            #[test]
            fn $c() {
                differential_cast::<$C>(reference::$c);
            }
        )*
        /// The distinct pairs in the other order, through the swapped trait implementations.
        mod swapped {
            use super::*;
            $(
                #[test]
                fn $d() {
                    differential::<$B, $A>(|b, a| reference::$d(a, b));
                }
            )*
        }
        /// The same-kind pairs give the same answer in either order.
        mod symmetric {
            use super::*;
            $(
                #[test]
                fn $s() {
                    symmetric(7, reference::$s);
                }
            )*
        }
    };
}

widephase::pair_table!(differential_tests);

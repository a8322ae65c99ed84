//! Sweeps: every sweep kernel, through `batch_sweep` (both widths) and `par_batch_sweep`,
//! against its scalar reference bit for bit on the hard-case generators with awkward motions,
//! in both orders; every reference against an independent `f64` time of first contact
//! (`support::toi`) on ordinary and collapsed pairs with motions aimed at, past and away from
//! the other shape, grazing, zero, huge and starting in overlap; the start-of-motion rule
//! against the contacts; hand-worked cases; the length rule.

use crate::pair_assert;
use crate::support::penetration::AsBody;
use crate::support::shapes::{Arbitrary, Collapse, Gen, collapse_one_or_both};
use crate::support::threads::in_pool;
use crate::support::toi::{first_touch, gap, min_gap, separation_along};
use widephase::wide::{f32x8, f32x16};
use widephase::{
    Aabb, Capsule, Circle, Contact, ContactPair, Motions, Obb, Point, Polygon, ShapeSoa, Sweep,
    SweepPair, Sweeps, batch_sweep, batch_sweep_at, contact_reference, par_batch_sweep,
    sweep_reference,
};

/// Lengths around the block sizes: one sixteen-lane block, two (the two-block kernels with
/// no block left over), an odd number of blocks (one left over).
const LENGTHS: [usize; 8] = [0, 1, 7, 8, 9, 17, 32, 1000];
const SEEDS: u64 = 8;
const LONG: usize = 20_000;

/// Whether two answers are the same bits.
fn same(a: Option<Sweep>, b: Option<Sweep>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => {
            a.t.to_bits() == b.t.to_bits()
                && a.normal[0].to_bits() == b.normal[0].to_bits()
                && a.normal[1].to_bits() == b.normal[1].to_bits()
        }
        _ => false,
    }
}

/// The columns of a `Sweeps` as bits.
fn column_bits(s: &Sweeps) -> Vec<[u32; 3]> {
    (0..s.len())
        .map(|i| {
            [
                s.t()[i].to_bits(),
                s.normal_x()[i].to_bits(),
                s.normal_y()[i].to_bits(),
            ]
        })
        .collect()
}

/// A scalar sweep: `a` moving by the motion against `b`.
type SweepFn<A, B> = fn(&A, &B, [f32; 2]) -> Option<Sweep>;

/// `A` moving against `B` on every length and seed: each pair's sweep is `reference`'s bits
/// at the build's width, at eight and sixteen lanes and in parallel; a pair without a hit
/// holds `t = 1` and `+0` normals; a hit has `t` in `[0, 1]` and a number for a normal.
fn differential<A, B>(reference: SweepFn<A::Shape, B::Shape>)
where
    A: SweepPair<B> + FromIterator<A::Shape> + Sync,
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
        let vm: Vec<[f32; 2]> = (0..n).map(|i| g.motion(&va[i], &vb[i])).collect();
        let (a, b): (A, B) = (va.iter().copied().collect(), vb.iter().copied().collect());
        let motions: Motions = vm.iter().copied().collect();
        let (mut out, mut x8, mut x16, mut par) =
            (Sweeps::new(), Sweeps::new(), Sweeps::new(), Sweeps::new());
        batch_sweep(&a, &b, &motions, &mut out).unwrap();
        batch_sweep_at::<f32x8, A, B>(&a, &b, &motions, &mut x8).unwrap();
        batch_sweep_at::<f32x16, A, B>(&a, &b, &motions, &mut x16).unwrap();
        par_batch_sweep(&a, &b, &motions, &mut par).unwrap();
        assert_eq!(out.len(), n, "seed {seed}: length");
        for i in 0..n {
            let want = reference(&va[i], &vb[i], vm[i]);
            let got = out.get(i);
            pair_assert!(
                same(got, want),
                seed = seed,
                index = i,
                va[i],
                vb[i],
                "motion {:?}: kernel says {got:?}, reference says {want:?}",
                vm[i]
            );
            pair_assert!(
                same(A::sweep_reference(&va[i], &vb[i], vm[i]), want),
                seed = seed,
                index = i,
                va[i],
                vb[i],
                "SweepPair::sweep_reference is wired to a different function"
            );
            match want {
                None => pair_assert!(
                    [
                        out.t()[i].to_bits(),
                        out.normal_x()[i].to_bits(),
                        out.normal_y()[i].to_bits()
                    ] == [1f32.to_bits(), 0, 0],
                    seed = seed,
                    index = i,
                    va[i],
                    vb[i],
                    "a pair without a hit holds something else than t = 1, normal (0, 0)"
                ),
                Some(s) => {
                    hits_seen += 1;
                    pair_assert!(
                        (0.0..=1.0).contains(&s.t)
                            && !s.normal[0].is_nan()
                            && !s.normal[1].is_nan(),
                        seed = seed,
                        index = i,
                        va[i],
                        vb[i],
                        "a hit is {s:?}"
                    );
                }
            }
        }
        assert_eq!(
            column_bits(&x8),
            column_bits(&out),
            "seed {seed}: eight lanes differ"
        );
        assert_eq!(
            column_bits(&x16),
            column_bits(&out),
            "seed {seed}: sixteen lanes differ"
        );
        assert_eq!(
            column_bits(&par),
            column_bits(&out),
            "seed {seed}: parallel differs"
        );
        assert_eq!(x8.hits(), out.hits(), "seed {seed}: eight-lane hits");
        assert_eq!(x16.hits(), out.hits(), "seed {seed}: sixteen-lane hits");
        assert_eq!(par.hits(), out.hits(), "seed {seed}: parallel hits");
    }
    assert!(hits_seen > 500, "only {hits_seen} hits");
}

/// `A` moving against `B` over three tasks' worth of pairs and a partial fourth (one task is
/// 4096 pairs): `par_batch_sweep` in pools of one, two, three and five threads gives
/// `batch_sweep`'s bits and hits in every pool.
fn on_thread_counts<A, B>(seed: u64)
where
    A: SweepPair<B> + FromIterator<A::Shape> + Sync,
    B: ShapeSoa + FromIterator<B::Shape> + Sync,
    A::Shape: Arbitrary,
    B::Shape: Arbitrary,
{
    let n = 3 * 4096 + 77;
    let mut g = Gen::new(seed);
    let (va, vb) = g.pairs::<A::Shape, B::Shape>(n);
    let vm: Vec<[f32; 2]> = (0..n).map(|i| g.motion(&va[i], &vb[i])).collect();
    let (a, b): (A, B) = (va.iter().copied().collect(), vb.iter().copied().collect());
    let motions: Motions = vm.iter().copied().collect();
    let mut one = Sweeps::new();
    batch_sweep(&a, &b, &motions, &mut one).unwrap();
    assert!(one.hits().count_ones() > 100, "seed {seed}: too few hits");
    for threads in [1, 2, 3, 5] {
        let mut par = Sweeps::new();
        in_pool(threads, || par_batch_sweep(&a, &b, &motions, &mut par)).unwrap();
        assert_eq!(
            column_bits(&par),
            column_bits(&one),
            "seed {seed}: {threads} threads"
        );
        assert_eq!(
            par.hits(),
            one.hits(),
            "seed {seed}: {threads} threads' hits"
        );
    }
}

/// [`on_thread_counts`] for a pair kind of every sweep path, both orders where they differ:
/// two one-vertex kinds (one pass, two blocks at a time), a box and a capsule in the box's
/// frame, a polygon and a capsule (the round pieces), two polygons (their axes kept from block
/// to block in a task), a point and an oriented box in the box's frame.
#[test]
fn parallel_sweeps_are_the_same_on_any_thread_count() {
    use widephase::{Aabbs, Capsules, Circles, Obbs, Points, Polygons};
    on_thread_counts::<Circles, Circles>(1);
    on_thread_counts::<Points, Circles>(2);
    on_thread_counts::<Capsules, Aabbs>(3);
    on_thread_counts::<Aabbs, Capsules>(4);
    on_thread_counts::<Polygons, Capsules>(5);
    on_thread_counts::<Capsules, Polygons>(6);
    on_thread_counts::<Polygons, Polygons>(7);
    on_thread_counts::<Points, Obbs>(8);
    on_thread_counts::<Obbs, Points>(9);
}

/// An ordinary motion for `a` against `b`: aimed at `b` (through it or short of it), past it,
/// away, zero, along one axis, or huge.
fn ordinary_motion<A: Arbitrary, B: Arbitrary>(g: &mut Gen, a: &A, b: &B) -> [f32; 2] {
    let ((ax, ay), (bx, by)) = (a.center(), b.center());
    let (dx, dy) = (bx - ax, by - ay);
    let k = g.uniform(0.3, 3.0);
    match g.index(8) {
        0 => [0.0, 0.0],
        1 => [-k * dx, -k * dy],
        2 => [
            k * dx - g.uniform(-3.0, 3.0) * dy,
            k * dy + g.uniform(-3.0, 3.0) * dx,
        ],
        3 => [k * dx, 0.0],
        4 => [dx * 300.0, dy * 300.0],
        _ => [k * dx, k * dy],
    }
}

/// A motion that grazes `b`: aimed past it by the sideways offset (found by bisection in
/// `f64`) at which the smallest gap over the motion is 0, so that the two touch within
/// rounding or miss by as little.
fn grazing_motion<A, B>(g: &mut Gen, a: &A, b: &B) -> [f32; 2]
where
    A: Arbitrary + AsBody,
    B: Arbitrary + AsBody,
{
    let ((ax, ay), (bx, by)) = (a.center(), b.center());
    let (dx, dy) = (bx - ax, by - ay);
    let k = g.uniform(1.5, 3.0);
    let side = if g.index(2) == 0 { 1.0 } else { -1.0 };
    let m = |lateral: f32| [k * dx - side * lateral * dy, k * dy + side * lateral * dx];
    let (ba, bb) = (a.body(), b.body());
    let low = |lateral: f32| {
        let m = m(lateral);
        min_gap(&ba, &bb, (f64::from(m[0]), f64::from(m[1])), 0.0, 1.0).0
    };
    let (mut lo, mut hi) = (0.0f32, 4.0f32);
    if low(lo) > 0.0 || low(hi) < 0.0 {
        return m(hi);
    }
    for _ in 0..30 {
        let mid = 0.5 * (lo + hi);
        if low(mid) <= 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    m(if g.index(2) == 0 { lo } else { hi })
}

/// Counts of what the independent check saw.
#[derive(Default, Debug)]
struct Seen {
    start_hits: usize,
    start_leaving: usize,
    hits: usize,
    misses: usize,
    near_misses: usize,
}

/// Random ordinary pairs (and pairs without area) and motions: each reference against what a
/// sweep promises, checked independently in `f64`.
fn independent<A, B>(seed: u64, sweep: SweepFn<A, B>, contact: fn(&A, &B) -> Option<Contact>)
where
    A: Arbitrary + AsBody + Collapse,
    B: Arbitrary + AsBody + Collapse,
{
    const PAIRS: usize = 6_000;
    let mut g = Gen::new(seed);
    let mut seen = Seen::default();
    for i in 0..2 * PAIRS {
        let (a, b) = (A::ordinary(&mut g), B::ordinary(&mut g));
        let (a, b) = if i < PAIRS {
            (a, b)
        } else {
            collapse_one_or_both(&mut g, a, b)
        };
        let m = if i % 16 == 0 {
            grazing_motion(&mut g, &a, &b)
        } else {
            ordinary_motion(&mut g, &a, &b)
        };
        promised(seed, i, (a, b, m), sweep, contact, &mut seen);
    }
    assert!(
        seen.hits > 1000 && seen.misses > 1000 && seen.start_hits > 100 && seen.start_leaving > 100,
        "too few of some case: {seen:?}"
    );
}

/// A shape kind's own validity check (`check`), for the generic tests.
trait Checked {
    /// Whether the shape is valid data.
    fn valid(&self) -> bool;
}

macro_rules! checked {
    ($($S:ty),*) => {$(
        impl Checked for $S {
            fn valid(&self) -> bool {
                self.check().is_ok()
            }
        }
    )*};
}

checked!(Point, Circle, Aabb, Polygon, Capsule);

/// An oriented box whose rotation is unit length within rounding: `check` accepts one off by
/// up to 2e-3, which the pair tests use as a scale (their normals then as long).
impl Checked for Obb {
    fn valid(&self) -> bool {
        self.check().is_ok() && (self.cos * self.cos + self.sin * self.sin - 1.0).abs() <= 1e-6
    }
}

/// The hard-case generator's pairs (coordinates on a coarse grid, so edges parallel to each
/// other or to the motion, vertices collinear or coincident, corners within rounding of flat;
/// shapes meeting within rounding, nudged by a few ULPs) and its awkward motions, each
/// reference against the same promises, where both shapes are valid (`check`: a polygon
/// convex and counter-clockwise; an oriented box's rotation unit length) and no coordinate or
/// motion exceeds 1e4 (beyond, the `f64` check's tolerance is the answer's whole scale).
fn independent_hard<A, B>(seed: u64, sweep: SweepFn<A, B>, contact: fn(&A, &B) -> Option<Contact>)
where
    A: Arbitrary + AsBody + Checked + bytemuck::Pod,
    B: Arbitrary + AsBody + Checked + bytemuck::Pod,
{
    let mut g = Gen::new(seed);
    let mut seen = Seen::default();
    let tame = |fields: &[f32]| fields.iter().all(|v| v.abs() <= 1e4);
    for chunk in 0..40 {
        let (va, vb) = g.pairs::<A, B>(256);
        for (j, (a, b)) in va.into_iter().zip(vb).enumerate() {
            let m = g.motion(&a, &b);
            let fields = [
                bytemuck::cast_slice(&[a]),
                bytemuck::cast_slice(&[b]),
                &m[..],
            ]
            .concat();
            if tame(&fields) && a.valid() && b.valid() {
                promised(seed, chunk * 256 + j, (a, b, m), sweep, contact, &mut seen);
            }
        }
    }
    assert!(
        seen.hits > 300 && seen.misses > 300 && seen.start_hits > 100,
        "too few of some case: {seen:?}"
    );
}

/// One pair and motion against what a sweep promises, checked in `f64`: at the start, the
/// start-of-motion rule exactly; apart, a hit's time where the gap closes (and not before),
/// its normal unit and closing, the shapes not deep along it there; no hit, a gap that never
/// closes. Counts what it saw in `seen`.
fn promised<A, B>(
    seed: u64,
    i: usize,
    (a, b, m): (A, B, [f32; 2]),
    sweep: SweepFn<A, B>,
    contact: fn(&A, &B) -> Option<Contact>,
    seen: &mut Seen,
) where
    A: Arbitrary + AsBody,
    B: Arbitrary + AsBody,
{
    let got = sweep(&a, &b, m);
    if let Some(c) = contact(&a, &b) {
        // The start-of-motion rule, exactly.
        let deeper = m[0] * c.normal[0] + m[1] * c.normal[1] > 0.0;
        let want = deeper.then_some(Sweep {
            t: 0.0,
            normal: c.normal,
        });
        pair_assert!(
            same(got, want),
            seed = seed,
            index = i,
            a,
            b,
            "motion {m:?}, contact {c:?}: sweep {got:?}, want {want:?}"
        );
        if deeper {
            seen.start_hits += 1;
        } else {
            seen.start_leaving += 1;
        }
        return;
    }
    let (ba, bb) = (a.body(), b.body());
    let mm = (f64::from(m[0]), f64::from(m[1]));
    let length = mm.0.hypot(mm.1);
    let tol = 2e-4 + 2e-7 * length;
    match got {
        Some(s) => {
            seen.hits += 1;
            let n = (f64::from(s.normal[0]), f64::from(s.normal[1]));
            let t = f64::from(s.t);
            pair_assert!(
                (0.0..=1.0).contains(&t)
                    && (n.0.hypot(n.1) - 1.0).abs() < 1e-5
                    && mm.0 * n.0 + mm.1 * n.1 > -1e-6 * length,
                seed = seed,
                index = i,
                a,
                b,
                "motion {m:?}: {s:?} is not a time, a unit normal and a closing direction"
            );
            let at = gap(&ba, &bb, mm, t);
            let (before, _) = min_gap(&ba, &bb, mm, 0.0, t);
            pair_assert!(
                at.abs() <= tol && before >= -tol,
                seed = seed,
                index = i,
                a,
                b,
                "motion {m:?}: {s:?}: the gap there is {at:e} and {before:e} before it \
                 (f64 first touch {:?})",
                first_touch(&ba, &bb, mm)
            );
            let along = separation_along(&ba, &bb, mm, t, n);
            let deep = along < -1e-3 - 2e-7 * length;
            pair_assert!(
                !deep,
                seed = seed,
                index = i,
                a,
                b,
                "motion {m:?}: {s:?}: the shapes overlap by {along:e} along the normal"
            );
        }
        None => {
            let (low, at) = min_gap(&ba, &bb, mm, 0.0, 1.0);
            let reached = low < -tol;
            pair_assert!(
                !reached,
                seed = seed,
                index = i,
                a,
                b,
                "motion {m:?}: no hit, but the gap reaches {low:e} at t = {at}"
            );
            if low <= tol {
                seen.near_misses += 1;
            } else {
                seen.misses += 1;
            }
        }
    }
}

macro_rules! sweep_tests {
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
                    differential::<$A, $B>(sweep_reference::$d);
                }
            )*
            $(
                #[test]
                fn $s() {
                    differential::<$S, $S>(sweep_reference::$s);
                }
            )*
            /// The distinct pairs in the other order, through the trait.
            mod swapped {
                use super::*;
                $(
                    #[test]
                    fn $d() {
                        differential::<$B, $A>(<$B as SweepPair<$A>>::sweep_reference);
                    }
                )*
            }
        }
        mod hard {
            use super::*;
            $(
                #[test]
                fn $d() {
                    independent_hard(7, sweep_reference::$d, contact_reference::$d);
                }
            )*
            $(
                #[test]
                fn $s() {
                    independent_hard(7, sweep_reference::$s, contact_reference::$s);
                }
            )*
            mod swapped {
                use super::*;
                $(
                    #[test]
                    fn $d() {
                        independent_hard(
                            8,
                            <$B as SweepPair<$A>>::sweep_reference,
                            <$B as ContactPair<$A>>::contact_reference,
                        );
                    }
                )*
            }
        }
        mod independent {
            use super::*;
            $(
                #[test]
                fn $d() {
                    independent(5, sweep_reference::$d, contact_reference::$d);
                }
            )*
            $(
                #[test]
                fn $s() {
                    independent(5, sweep_reference::$s, contact_reference::$s);
                }
            )*
            mod swapped {
                use super::*;
                $(
                    #[test]
                    fn $d() {
                        independent(
                            6,
                            <$B as SweepPair<$A>>::sweep_reference,
                            <$B as ContactPair<$A>>::contact_reference,
                        );
                    }
                )*
            }
        }
    };
}

widephase::pair_table!(sweep_tests);

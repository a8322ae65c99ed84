//! The two lane widths, whatever this build is: every kernel's eight-lane form (`Overlaps::kernel`,
//! `ContactPair::contact_kernel`, `RayCast::kernel`) and sixteen-lane form (`kernel16`, …)
//! against the scalar reference, bit for bit, on the hard-case generators. `batch_test` and its
//! siblings run at [`KERNEL_LANES`] (the differential tests cover that width through them); these
//! tests cover the other width too, so a build for baseline x86-64 or x86-64-v3 proves the
//! sixteen-lane kernels (two eight-lane halves there) and a build for x86-64-v4 proves the
//! eight-lane ones. The batch functions themselves run at both widths through their `_at` forms.

use crate::pair_assert;
use crate::support::shapes::{Arbitrary, Gen};
use widephase::wide::{f32x8, f32x16};
use widephase::{
    Contact, ContactPair, Contacts, HitMask, KERNEL_LANES, RayCast, Rays, ShapeSoa, batch_contact,
    batch_contact_at, batch_raycast, batch_raycast_at, batch_test, batch_test_at, contact_kernel,
    contact_kernel16, contact_reference, kernel, kernel16, reference,
};

/// Pairs per seed: 64 blocks of sixteen.
const N: usize = 1024;
const SEEDS: u64 = 8;

/// The blocks of eight and of sixteen of the same shapes.
fn blocks<S: Copy, X8: From<[S; 8]>, X16: From<[S; 16]>>(v: &[S]) -> (Vec<X8>, Vec<X16>) {
    let x8 = v.chunks_exact(8).map(|c| X8::from(c.try_into().unwrap()));
    let x16 = v.chunks_exact(16).map(|c| X16::from(c.try_into().unwrap()));
    (x8.collect(), x16.collect())
}

/// Both widths of `A` against `B` (overlap and contact), and the public kernel functions of the
/// pair given explicitly, against the reference.
#[allow(clippy::type_complexity)]
fn widths<A, B>(
    reference: fn(&A::Shape, &B::Shape) -> bool,
    contact_reference: fn(&A::Shape, &B::Shape) -> Option<Contact>,
    kernels: Option<(fn(&A::X8, &B::X8) -> u8, fn(&A::X16, &B::X16) -> u16)>,
) where
    A: ContactPair<B>,
    B: ShapeSoa,
    A::Shape: Arbitrary,
    B::Shape: Arbitrary,
    A::X8: From<[A::Shape; 8]>,
    B::X8: From<[B::Shape; 8]>,
    A::X16: From<[A::Shape; 16]>,
    B::X16: From<[B::Shape; 16]>,
{
    let mut hits_seen = 0;
    for seed in 0..SEEDS {
        let (va, vb) = Gen::new(seed * 7 + 3).pairs::<A::Shape, B::Shape>(N);
        let (a8, a16) = blocks::<_, A::X8, A::X16>(&va);
        let (b8, b16) = blocks::<_, B::X8, B::X16>(&vb);
        let mut bits8 = [0u64; N / 64];
        let mut bits16 = [0u64; N / 64];
        let mut contacts = vec![None; N];
        for (k, (a, b)) in a8.iter().zip(&b8).enumerate() {
            bits8[k / 8] |= u64::from(A::kernel(a, b)) << (k % 8 * 8);
            if let Some((x8, _)) = kernels {
                assert_eq!(x8(a, b), A::kernel(a, b), "the kernel module's x8");
            }
            let c = A::contact_kernel(a, b);
            assert_eq!(c.hits, A::kernel(a, b), "contact hits are the overlap bits");
            for l in 0..8 {
                contacts[k * 8 + l] = c.lane(l);
            }
        }
        for (k, (a, b)) in a16.iter().zip(&b16).enumerate() {
            bits16[k / 4] |= u64::from(A::kernel16(a, b)) << (k % 4 * 16);
            if let Some((_, x16)) = kernels {
                assert_eq!(x16(a, b), A::kernel16(a, b), "the kernel16 module's x16");
            }
            let c = A::contact_kernel16(a, b);
            assert_eq!(
                c.hits,
                A::kernel16(a, b),
                "contact hits are the overlap bits"
            );
            for l in 0..16 {
                let i = k * 16 + l;
                let (got, eight) = (c.lane(l), contacts[i]);
                let want = contact_reference(&va[i], &vb[i]);
                let same = |x: Option<Contact>, y: Option<Contact>| {
                    x.map(|c| [c.normal[0], c.normal[1], c.depth].map(f32::to_bits))
                        == y.map(|c| [c.normal[0], c.normal[1], c.depth].map(f32::to_bits))
                };
                pair_assert!(
                    same(got, want) && same(eight, want),
                    seed = seed,
                    index = i,
                    va[i],
                    vb[i],
                    "contacts: 16 lanes {got:?}, 8 lanes {eight:?}, reference {want:?}"
                );
            }
        }
        for i in 0..N {
            let want = reference(&va[i], &vb[i]);
            let (at8, at16) = (
                bits8[i / 64] >> (i % 64) & 1,
                bits16[i / 64] >> (i % 64) & 1,
            );
            pair_assert!(
                at8 == u64::from(want) && at16 == u64::from(want),
                seed = seed,
                index = i,
                va[i],
                vb[i],
                "8 lanes say {at8}, 16 lanes say {at16}, the reference says {want}"
            );
            hits_seen += usize::from(want);
        }
    }
    assert!(hits_seen * 20 > N * SEEDS as usize, "only {hits_seen} hits");
}

/// Both widths of a ray cast against the reference: the same entry parameter bits.
fn cast_widths<S>(
    reference: fn(&widephase::Ray, &S::Shape) -> f32,
    x8: fn(&widephase::lanes::RayX8, &S::X8) -> widephase::wide::f32x8,
    x16: fn(&widephase::lanes::RayX16, &S::X16) -> widephase::wide::f32x16,
) where
    S: RayCast,
    S::Shape: Arbitrary,
    S::X8: From<[S::Shape; 8]>,
    S::X16: From<[S::Shape; 16]>,
{
    let mut hits_seen = 0;
    for seed in 0..SEEDS {
        let (vr, vs) = Gen::new(seed * 11 + 5).pairs::<widephase::Ray, S::Shape>(N);
        let (r8, r16) = blocks::<_, widephase::lanes::RayX8, widephase::lanes::RayX16>(&vr);
        let (s8, s16) = blocks::<_, S::X8, S::X16>(&vs);
        let mut t8 = Vec::with_capacity(N);
        for (r, s) in r8.iter().zip(&s8) {
            assert_eq!(
                x8(r, s).to_array().map(f32::to_bits),
                S::kernel(r, s).to_array().map(f32::to_bits)
            );
            t8.extend(S::kernel(r, s).to_array());
        }
        let mut t16 = Vec::with_capacity(N);
        for (r, s) in r16.iter().zip(&s16) {
            assert_eq!(
                x16(r, s).to_array().map(f32::to_bits),
                S::kernel16(r, s).to_array().map(f32::to_bits)
            );
            t16.extend(S::kernel16(r, s).to_array());
        }
        for i in 0..N {
            let want = reference(&vr[i], &vs[i]);
            pair_assert!(
                t8[i].to_bits() == want.to_bits() && t16[i].to_bits() == want.to_bits(),
                seed = seed,
                index = i,
                vr[i],
                vs[i],
                "8 lanes say {:?}, 16 lanes say {:?}, the reference says {want:?}",
                t8[i],
                t16[i]
            );
            hits_seen += usize::from(want < f32::INFINITY);
        }
    }
    assert!(hits_seen * 20 > N * SEEDS as usize, "only {hits_seen} hits");
}

/// Lengths around both widths' block and word boundaries.
const LENGTHS: [usize; 9] = [0, 1, 7, 9, 15, 17, 63, 65, 1000];

/// `batch_test_at` and `batch_contact_at` at both widths give `batch_test`'s and
/// `batch_contact`'s answers (which the differential and contact tests hold to the
/// references), tails included.
fn batch_widths<A, B>()
where
    A: ContactPair<B> + FromIterator<A::Shape>,
    B: ShapeSoa + FromIterator<B::Shape>,
    A::Shape: Arbitrary,
    B::Shape: Arbitrary,
{
    for (seed, n) in LENGTHS.into_iter().enumerate() {
        let (va, vb) = Gen::new(seed as u64 + 40).pairs::<A::Shape, B::Shape>(n);
        let (a, b): (A, B) = (va.into_iter().collect(), vb.into_iter().collect());
        let (mut build, mut eight, mut sixteen) = (HitMask::new(), HitMask::new(), HitMask::new());
        batch_test(&a, &b, &mut build).unwrap();
        batch_test_at::<f32x8, _, _>(&a, &b, &mut eight).unwrap();
        batch_test_at::<f32x16, _, _>(&a, &b, &mut sixteen).unwrap();
        assert_eq!(eight, build, "n = {n}: 8 lanes");
        assert_eq!(sixteen, build, "n = {n}: 16 lanes");
        let (mut build, mut eight, mut sixteen) =
            (Contacts::new(), Contacts::new(), Contacts::new());
        batch_contact(&a, &b, &mut build).unwrap();
        batch_contact_at::<f32x8, _, _>(&a, &b, &mut eight).unwrap();
        batch_contact_at::<f32x16, _, _>(&a, &b, &mut sixteen).unwrap();
        let columns = |c: &Contacts| {
            let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            (
                c.hits().clone(),
                bits(c.normal_x()),
                bits(c.normal_y()),
                bits(c.depth()),
            )
        };
        assert_eq!(columns(&eight), columns(&build), "n = {n}: 8-lane contacts");
        assert_eq!(
            columns(&sixteen),
            columns(&build),
            "n = {n}: 16-lane contacts"
        );
    }
}

/// `batch_raycast_at` at both widths gives `batch_raycast`'s answer, tails included.
fn cast_batch_widths<S>()
where
    S: RayCast + FromIterator<S::Shape>,
    S::Shape: Arbitrary,
{
    for (seed, n) in LENGTHS.into_iter().enumerate() {
        let (vr, vs) = Gen::new(seed as u64 + 80).pairs::<widephase::Ray, S::Shape>(n);
        let (r, s): (Rays, S) = (vr.into_iter().collect(), vs.into_iter().collect());
        let (mut build, mut eight, mut sixteen) = (vec![], vec![], vec![]);
        batch_raycast(&r, &s, &mut build).unwrap();
        batch_raycast_at::<f32x8, _>(&r, &s, &mut eight).unwrap();
        batch_raycast_at::<f32x16, _>(&r, &s, &mut sixteen).unwrap();
        let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&eight), bits(&build), "n = {n}: 8 lanes");
        assert_eq!(bits(&sixteen), bits(&build), "n = {n}: 16 lanes");
    }
}

macro_rules! width_tests {
    (
        distinct { $($d:ident: $A:ty, $B:ty;)* }
        same { $($s:ident: $S:ty;)* }
        casts { $($c:ident: $C:ty;)* }
    ) => {
        $(
            #[test]
            fn $d() {
                widths::<$A, $B>(
                    reference::$d,
                    contact_reference::$d,
                    Some((kernel::$d, kernel16::$d)),
                );
                let (x8, x16) = (contact_kernel::$d, contact_kernel16::$d);
                let _: (fn(&_, &_) -> widephase::lanes::ContactX8, fn(&_, &_) -> widephase::lanes::ContactX16) = (x8, x16);
            }
        )*
        $(
            #[test]
            fn $s() {
                widths::<$S, $S>(
                    reference::$s,
                    contact_reference::$s,
                    Some((kernel::$s, kernel16::$s)),
                );
            }
        )*
        $(
            #[test]
            fn $c() {
                cast_widths::<$C>(reference::$c, kernel::$c, kernel16::$c);
            }
        )*
        /// The batch functions at both widths, every pair kind in both orders and every cast.
        #[test]
        fn batch_functions_at_both_widths() {
            $(batch_widths::<$A, $B>(); batch_widths::<$B, $A>();)*
            $(batch_widths::<$S, $S>();)*
            $(cast_batch_widths::<$C>();)*
        }

        /// The distinct pairs in the other order, through the swapped trait implementations.
        mod swapped {
            use super::*;
            $(
                #[test]
                fn $d() {
                    widths::<$B, $A>(
                        |b, a| reference::$d(a, b),
                        |b, a| contact_reference::$d(a, b).map(Contact::reversed),
                        None,
                    );
                }
            )*
        }
    };
}

widephase::pair_table!(width_tests);

/// The contact kernel modules at both widths agree with the trait's kernels (which the tests
/// above hold to the references).
#[test]
fn contact_kernel_modules_match_the_trait() {
    use widephase::{Circles, Obbs};
    let (vc, vo) = Gen::new(99).pairs::<widephase::Circle, widephase::Obb>(64);
    let (c8, c16) = blocks::<_, widephase::lanes::CircleX8, widephase::lanes::CircleX16>(&vc);
    let (o8, o16) = blocks::<_, widephase::lanes::ObbX8, widephase::lanes::ObbX16>(&vo);
    for (c, o) in c8.iter().zip(&o8) {
        let (x, y) = (
            contact_kernel::circle_obb(c, o),
            <Circles as ContactPair<Obbs>>::contact_kernel(c, o),
        );
        assert_eq!(x.hits, y.hits);
        assert_eq!(
            x.depth.to_array().map(f32::to_bits),
            y.depth.to_array().map(f32::to_bits)
        );
    }
    for (c, o) in c16.iter().zip(&o16) {
        let (x, y) = (
            contact_kernel16::circle_obb(c, o),
            <Circles as ContactPair<Obbs>>::contact_kernel16(c, o),
        );
        assert_eq!(x.hits, y.hits);
        assert_eq!(
            x.depth.to_array().map(f32::to_bits),
            y.depth.to_array().map(f32::to_bits)
        );
    }
}

/// `KERNEL_LANES` and `SIMD_BACKEND` say what the build has.
#[test]
fn kernel_lanes_follow_the_build() {
    let avx512 = cfg!(target_feature = "avx512f");
    assert_eq!(KERNEL_LANES, if avx512 { 16 } else { 8 });
    assert_eq!(widephase::SIMD_BACKEND == "16-lane AVX-512", avx512);
    // A container reads as blocks of eight whatever the kernel width: the padding of sixteen
    // stays out of `blocks()` and the field views.
    let rays: Rays = (0..9)
        .map(|i| widephase::Ray::new(i as f32, 0.0, 1.0, 0.0, 1.0))
        .collect();
    assert_eq!(rays.blocks(), 2);
    assert_eq!(rays.origin_x().len(), 9);
    assert!(
        rays.block(1).origin_x.to_array()[1..]
            .iter()
            .all(|v| v.is_nan())
    );
}

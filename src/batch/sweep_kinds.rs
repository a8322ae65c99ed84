//! [`SweepPair`]: the sweep kernels of every pair kind of the pair table, in both orders,
//! picked at compile time like [`ContactPair`].

use super::kinds::ContactPair;
use crate::lanes::{Simd, SweepX8, SweepX16, Twin};
use crate::narrow::sweep::{Gaps, gaps, sweep_pair, twinned};
use crate::shape::Sweep;
use crate::soa::ShapeSoa;
use bytemuck::cast;
use wide::{f32x8, f32x16};

/// Pair kinds that can be swept: shape `a` translated by `t · motion` (`t` in `[0, 1]`)
/// against shape `b`, which stays (see [`Sweep`]). Implemented for every pair kind with a
/// [`ContactPair`] kernel, in both orders; each order is its own instance of the one sweep
/// written over [`Lane`](crate::lanes::Lane) (`narrow::sweep`), whose start-of-motion rule
/// reads that order's contact.
pub trait SweepPair<B: ShapeSoa>: ContactPair<B> {
    /// The scalar reference: the first contact of `a` moving by `motion` with `b`, or `None`
    /// when they do not touch during the motion (or `a` leaves or slides along `b`).
    fn sweep_reference(a: &Self::Shape, b: &B::Shape, motion: [f32; 2]) -> Option<Sweep>;
    /// Eight lanes of [`sweep_reference`](Self::sweep_reference), `motion` as its `[dx, dy]`
    /// lane columns: the reference's bits in every lane.
    fn sweep_kernel(a: &Self::X8, b: &B::X8, motion: &[f32x8; 2]) -> SweepX8;
    /// Sixteen lanes, the same bits lane for lane.
    fn sweep_kernel16(a: &Self::X16, b: &B::X16, motion: &[f32x16; 2]) -> SweepX16;
    /// The kernel at the width of `V`, on lane columns: `[mask, t, normal_x, normal_y]`
    /// (`t = 1`, normal `(0, 0)` where the mask is clear).
    fn sweep_lanes<V: Simd>(a: Self::Lanes<V>, b: B::Lanes<V>, motion: [V; 2]) -> [V; 4];
    /// [`sweep_lanes`](Self::sweep_lanes) with room for what a sweep leaves between its two
    /// passes (two polygons' axes), which a batch keeps from block to block instead of clearing
    /// one for each: the same bits.
    #[doc(hidden)]
    fn sweep_lanes_in<V: Simd>(
        a: Self::Lanes<V>,
        b: B::Lanes<V>,
        motion: [V; 2],
        room: &mut Gaps<V>,
    ) -> [V; 4];
    /// Whether a batch sweeps two blocks at a time, by
    /// [`sweep_lanes_twice`](Self::sweep_lanes_twice): at eight lanes a block, at sixteen.
    #[doc(hidden)]
    const TWINNED: [bool; 2];
    /// Two blocks' [`sweep_lanes`](Self::sweep_lanes), computed as one [`Twin`]: the same bits.
    #[doc(hidden)]
    fn sweep_lanes_twice<V: Simd>(
        a: [Self::Lanes<V>; 2],
        b: [B::Lanes<V>; 2],
        motion: [[V; 2]; 2],
    ) -> [[V; 4]; 2];
}

/// Two blocks' columns as one [`Twin`]'s.
#[inline(always)]
fn twin<V: Simd, const N: usize>([first, second]: [[V; N]; 2]) -> [Twin<V>; N] {
    core::array::from_fn(|k| Twin(first[k], second[k]))
}

/// A [`SweepPair`]'s kernels at the fixed widths: [`SweepPair::sweep_lanes`] on the public lane
/// types.
macro_rules! sweep_widths {
    ($B:ty; $($name:ident: $X:ident, $V:ident => $Out:ident;)+) => {$(
        #[inline]
        fn $name(a: &Self::$X, b: &<$B as ShapeSoa>::$X, motion: &[$V; 2]) -> $Out {
            <Self as SweepPair<$B>>::sweep_lanes(cast(*a), cast(*b), *motion).into()
        }
    )+};
}

/// The sweep of shape kinds `$A` and `$B` (containers), in that order.
macro_rules! sweep_impl {
    ($A:ty, $B:ty) => {
        impl SweepPair<$B> for $A {
            #[inline]
            fn sweep_reference(
                a: &Self::Shape,
                b: &<$B as ShapeSoa>::Shape,
                motion: [f32; 2],
            ) -> Option<Sweep> {
                let (hit, [t, nx, ny]) = sweep_pair::<
                    f32,
                    <$A as ShapeSoa>::Shape,
                    <$B as ShapeSoa>::Shape,
                    { <<$A as ShapeSoa>::Shape as crate::narrow::manifold::Outlined>::N },
                    { <<$B as ShapeSoa>::Shape as crate::narrow::manifold::Outlined>::N },
                >(
                    bytemuck::cast_slice(core::slice::from_ref(a)),
                    bytemuck::cast_slice(core::slice::from_ref(b)),
                    motion,
                    || {
                        let c = <Self as ContactPair<$B>>::contact_reference(a, b);
                        (c.is_some(), c.map_or([0.0, 0.0], |c| c.normal))
                    },
                    &mut gaps(),
                );
                hit.then_some(Sweep {
                    t,
                    normal: [nx, ny],
                })
            }
            sweep_widths!($B;
                sweep_kernel: X8, f32x8 => SweepX8;
                sweep_kernel16: X16, f32x16 => SweepX16;
            );
            #[inline(always)]
            fn sweep_lanes<V: Simd>(
                a: Self::Lanes<V>,
                b: <$B as ShapeSoa>::Lanes<V>,
                motion: [V; 2],
            ) -> [V; 4] {
                <Self as SweepPair<$B>>::sweep_lanes_in(a, b, motion, &mut gaps())
            }
            #[inline(always)]
            fn sweep_lanes_in<V: Simd>(
                a: Self::Lanes<V>,
                b: <$B as ShapeSoa>::Lanes<V>,
                motion: [V; 2],
                room: &mut Gaps<V>,
            ) -> [V; 4] {
                let (hit, [t, nx, ny]) = sweep_pair::<
                    V,
                    <$A as ShapeSoa>::Shape,
                    <$B as ShapeSoa>::Shape,
                    { <<$A as ShapeSoa>::Shape as crate::narrow::manifold::Outlined>::N },
                    { <<$B as ShapeSoa>::Shape as crate::narrow::manifold::Outlined>::N },
                >(&a, &b, motion, || {
                    let [touching, cx, cy, _] = <Self as ContactPair<$B>>::contact_lanes(a, b);
                    (touching, [cx, cy])
                }, room);
                [hit, t, nx, ny]
            }
            const TWINNED: [bool; 2] = [
                twinned::<<$A as ShapeSoa>::Shape, <$B as ShapeSoa>::Shape>(8),
                twinned::<<$A as ShapeSoa>::Shape, <$B as ShapeSoa>::Shape>(16),
            ];
            #[inline(always)]
            fn sweep_lanes_twice<V: Simd>(
                a: [Self::Lanes<V>; 2],
                b: [<$B as ShapeSoa>::Lanes<V>; 2],
                motion: [[V; 2]; 2],
            ) -> [[V; 4]; 2] {
                type SA = <$A as ShapeSoa>::Shape;
                type SB = <$B as ShapeSoa>::Shape;
                let [m0, m1] = motion;
                let (hit, [t, nx, ny]) = sweep_pair::<
                    Twin<V>,
                    SA,
                    SB,
                    { <SA as crate::narrow::manifold::Outlined>::N },
                    { <SB as crate::narrow::manifold::Outlined>::N },
                >(
                    &twin(a),
                    &twin(b),
                    [Twin(m0[0], m1[0]), Twin(m0[1], m1[1])],
                    || {
                        let contact = |k: usize| {
                            <Self as ContactPair<$B>>::contact_lanes(a[k], b[k])
                        };
                        let ([t0, x0, y0, _], [t1, x1, y1, _]) = (contact(0), contact(1));
                        (Twin(t0, t1), [Twin(x0, x1), Twin(y0, y1)])
                    },
                    &mut gaps(),
                );
                [[hit.0, t.0, nx.0, ny.0], [hit.1, t.1, nx.1, ny.1]]
            }
        }
    };
}

/// [`sweep_impl`] for every pair kind of the pair table, both orders.
macro_rules! sweep_impls {
    (
        distinct { $($d:ident: $A:ty, $B:ty;)* }
        same { $($s:ident: $S:ty;)* }
        casts { $($c:ident: $C:ty;)* }
    ) => {
        $( sweep_impl!($A, $B); sweep_impl!($B, $A); )*
        $( sweep_impl!($S, $S); )*
    };
}

crate::pair_table!(sweep_impls);

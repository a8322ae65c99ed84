//! The traits that pick a pair's kernels at compile time ([`Overlaps`], [`ContactPair`],
//! [`ManifoldPair`], [`RayCast`]) and their implementations for every pair kind of the pair
//! table.

use crate::lanes::{ContactX8, ContactX16, RayX8, RayX16, Simd};
use crate::narrow;
use crate::narrow::manifold::ManifoldLanes;
use crate::shape::{B_REFERENCE, CLIPPED, Contact, Manifold, ManifoldPoint, Ray};
use crate::soa::{Rays, ShapeSoa};
use wide::{f32x8, f32x16};

/// Pair kinds that have a kernel: `A: Overlaps<B>` when shapes in `A` can be tested against shapes
/// in `B`. Implemented for every supported pair in both argument orders; a pair without an
/// implementation is a compile error in [`batch_test`](crate::batch_test).
pub trait Overlaps<B: ShapeSoa>: ShapeSoa {
    /// The eight-lane kernel: bit `i` of the result is lane `i`'s answer.
    fn kernel(a: &Self::X8, b: &B::X8) -> u8;
    /// The sixteen-lane kernel: bit `i` of the result is lane `i`'s answer.
    fn kernel16(a: &Self::X16, b: &B::X16) -> u16;
    /// The kernel at the width of `V`, on lane columns: all ones in a lane that overlaps. The
    /// one function behind [`kernel`](Self::kernel) and [`kernel16`](Self::kernel16).
    fn lanes<V: Simd>(a: Self::Lanes<V>, b: B::Lanes<V>) -> V;
    /// The scalar reference the kernel matches bit for bit.
    fn reference(a: &Self::Shape, b: &B::Shape) -> bool;
}

/// Pair kinds whose contacts can be computed: every pair kind with an [`Overlaps`] kernel, in
/// both orders. The swapped order of two distinct kinds is the one kernel with its arguments
/// exchanged and every normal reversed ([`Contact::reversed`]).
pub trait ContactPair<B: ShapeSoa>: Overlaps<B> {
    /// The eight-lane contact kernel; its `hits` are [`Overlaps::kernel`]'s bits.
    fn contact_kernel(a: &Self::X8, b: &B::X8) -> ContactX8;
    /// The sixteen-lane contact kernel; its `hits` are [`Overlaps::kernel16`]'s bits.
    fn contact_kernel16(a: &Self::X16, b: &B::X16) -> ContactX16;
    /// The contact kernel at the width of `V`, on lane columns: `[mask, normal_x, normal_y,
    /// depth]`, the mask being [`Overlaps::lanes`]'s.
    fn contact_lanes<V: Simd>(a: Self::Lanes<V>, b: B::Lanes<V>) -> [V; 4];
    /// The scalar reference the kernel matches bit for bit: `None` when the pair does not
    /// overlap.
    fn contact_reference(a: &Self::Shape, b: &B::Shape) -> Option<Contact>;
}

/// The [`Overlaps`], [`ContactPair`] and [`RayCast`] implementations of every pair kind in the
/// pair table: a pair of distinct kinds in both orders (the swapped order exchanges the
/// arguments of the one kernel), a pair of one kind once.
/// The contact manifold of a pair of container kinds (see [`Manifold`]), picked at compile
/// time like [`Overlaps`]; implemented for every supported pair in both argument orders, the
/// swapped order being the same manifold seen from the other shape ([`Manifold::reversed`]).
pub trait ManifoldPair<B: ShapeSoa>: ContactPair<B> {
    /// The scalar reference: the manifold of `a` and `b`, or `None` when they do not overlap.
    fn manifold_reference(a: &Self::Shape, b: &B::Shape) -> Option<Manifold>;
    /// Eight lanes: lane `i`'s manifold, the reference's bits, `None` where it does not
    /// overlap.
    fn manifold_kernel(a: &Self::X8, b: &B::X8) -> [Option<Manifold>; 8];
    /// Sixteen lanes, the same bits lane for lane.
    fn manifold_kernel16(a: &Self::X16, b: &B::X16) -> [Option<Manifold>; 16];
    /// The kernel on lane columns: the overlap mask, the normal, each point's `x`, `y`,
    /// `depth` and `id` (as a number), and the count.
    #[doc(hidden)]
    fn manifold_lanes<V: Simd>(a: Self::Lanes<V>, b: B::Lanes<V>) -> [V; 12];
}

/// Lane `l` of a manifold kernel's columns (see [`ManifoldPair::manifold_lanes`]).
#[inline]
pub(crate) fn manifold_lane<V: Simd>(m: &[V; 12], l: usize) -> Option<Manifold> {
    let at = |c: usize| m[c].as_slice()[l];
    let hit = at(0).to_bits() != 0;
    hit.then(|| Manifold {
        normal: [at(1), at(2)],
        points: core::array::from_fn(|k| ManifoldPoint {
            point: [at(3 + 4 * k), at(4 + 4 * k)],
            depth: at(5 + 4 * k),
            id: at(6 + 4 * k) as u32,
        }),
        count: at(11) as u8,
    })
}

/// A column of manifold point ids (whole numbers below 512) seen from the pair's other shape,
/// as [`Manifold::reversed`]: a clipped point's reference bit flipped.
#[inline(always)]
fn reversed_ids<V: Simd>(id: V) -> V {
    let (clipped, b_reference) = (CLIPPED as f32, (CLIPPED | B_REFERENCE) as f32);
    let flip = V::splat(B_REFERENCE as f32);
    let delta = V::splat(b_reference).simd_le(id).select(
        V::ZERO - flip,
        V::splat(clipped).simd_le(id).select(flip, V::ZERO),
    );
    id + delta
}

/// The manifold columns of a built manifold and its mask.
#[inline(always)]
fn manifold_columns<V: Simd>(m: ManifoldLanes<V>, mask: V) -> [V; 12] {
    [
        mask, m.nx, m.ny, m.x[0], m.y[0], m.depth[0], m.id[0], m.x[1], m.y[1], m.depth[1], m.id[1],
        m.count,
    ]
}

macro_rules! pair_impls {
    (
        distinct { $($d:ident: $A:ty, $B:ty;)* }
        same { $($s:ident: $S:ty;)* }
        casts { $($c:ident: $C:ty;)* }
    ) => {
        $(
            pair_impls!(@overlaps $d: $A, $B);
            impl Overlaps<$A> for $B {
                #[inline(always)]
                fn kernel(a: &Self::X8, b: &<$A as ShapeSoa>::X8) -> u8 {
                    <$A as Overlaps<$B>>::kernel(b, a)
                }
                #[inline(always)]
                fn kernel16(a: &Self::X16, b: &<$A as ShapeSoa>::X16) -> u16 {
                    <$A as Overlaps<$B>>::kernel16(b, a)
                }
                #[inline(always)]
                fn lanes<V: Simd>(a: Self::Lanes<V>, b: <$A as ShapeSoa>::Lanes<V>) -> V {
                    <$A as Overlaps<$B>>::lanes(b, a)
                }
                #[inline]
                fn reference(a: &Self::Shape, b: &<$A as ShapeSoa>::Shape) -> bool {
                    <$A as Overlaps<$B>>::reference(b, a)
                }
            }
            impl ContactPair<$A> for $B {
                #[inline(always)]
                fn contact_kernel(a: &Self::X8, b: &<$A as ShapeSoa>::X8) -> ContactX8 {
                    <$A as ContactPair<$B>>::contact_kernel(b, a).reversed()
                }
                #[inline(always)]
                fn contact_kernel16(a: &Self::X16, b: &<$A as ShapeSoa>::X16) -> ContactX16 {
                    <$A as ContactPair<$B>>::contact_kernel16(b, a).reversed()
                }
                #[inline(always)]
                fn contact_lanes<V: Simd>(a: Self::Lanes<V>, b: <$A as ShapeSoa>::Lanes<V>) -> [V; 4] {
                    let [mask, nx, ny, depth] = <$A as ContactPair<$B>>::contact_lanes(b, a);
                    // As `ContactX8::reversed`: `0 - n` keeps `+0` where there is no hit.
                    [mask, V::ZERO - nx, V::ZERO - ny, depth]
                }
                #[inline]
                fn contact_reference(
                    a: &Self::Shape,
                    b: &<$A as ShapeSoa>::Shape,
                ) -> Option<Contact> {
                    <$A as ContactPair<$B>>::contact_reference(b, a).map(Contact::reversed)
                }
            }
            impl ManifoldPair<$A> for $B {
                #[inline]
                fn manifold_reference(
                    a: &Self::Shape,
                    b: &<$A as ShapeSoa>::Shape,
                ) -> Option<Manifold> {
                    <$A as ManifoldPair<$B>>::manifold_reference(b, a).map(Manifold::reversed)
                }
                #[inline]
                fn manifold_kernel(a: &Self::X8, b: &<$A as ShapeSoa>::X8) -> [Option<Manifold>; 8] {
                    <$A as ManifoldPair<$B>>::manifold_kernel(b, a).map(|m| m.map(Manifold::reversed))
                }
                #[inline]
                fn manifold_kernel16(a: &Self::X16, b: &<$A as ShapeSoa>::X16) -> [Option<Manifold>; 16] {
                    <$A as ManifoldPair<$B>>::manifold_kernel16(b, a).map(|m| m.map(Manifold::reversed))
                }
                #[inline(always)]
                fn manifold_lanes<V: Simd>(a: Self::Lanes<V>, b: <$A as ShapeSoa>::Lanes<V>) -> [V; 12] {
                    let mut m = <$A as ManifoldPair<$B>>::manifold_lanes(b, a);
                    // As `Manifold::reversed`: `0 - n` keeps `+0` where there is no hit, and
                    // the clipped points name the other shape as the reference.
                    m[1] = V::ZERO - m[1];
                    m[2] = V::ZERO - m[2];
                    m[6] = reversed_ids(m[6]);
                    m[10] = reversed_ids(m[10]);
                    m
                }
            }
        )*
        $( pair_impls!(@overlaps $s: $S, $S); )*
        $(
            impl RayCast for $C {
                #[inline(always)]
                fn kernel(r: &RayX8, s: &<$C as ShapeSoa>::X8) -> f32x8 {
                    narrow::$c::x8(r, s)
                }
                #[inline(always)]
                fn kernel16(r: &RayX16, s: &<$C as ShapeSoa>::X16) -> f32x16 {
                    narrow::$c::x16(r, s)
                }
                #[inline(always)]
                fn lanes<V: Simd>(r: <Rays as ShapeSoa>::Lanes<V>, s: Self::Lanes<V>) -> V {
                    narrow::$c::cast_lanes(r, s)
                }
                #[inline]
                fn reference(r: &Ray, s: &<$C as ShapeSoa>::Shape) -> f32 {
                    narrow::$c::reference(r, s)
                }
            }
        )*
    };
    (@overlaps $pair:ident: $A:ty, $B:ty) => {
        impl Overlaps<$B> for $A {
            #[inline(always)]
            fn kernel(a: &Self::X8, b: &<$B as ShapeSoa>::X8) -> u8 {
                narrow::$pair::x8(a, b)
            }
            #[inline(always)]
            fn kernel16(a: &Self::X16, b: &<$B as ShapeSoa>::X16) -> u16 {
                narrow::$pair::x16(a, b)
            }
            #[inline(always)]
            fn lanes<V: Simd>(a: Self::Lanes<V>, b: <$B as ShapeSoa>::Lanes<V>) -> V {
                narrow::$pair::overlap(a, b)
            }
            #[inline]
            fn reference(a: &Self::Shape, b: &<$B as ShapeSoa>::Shape) -> bool {
                narrow::$pair::reference(a, b)
            }
        }
        impl ContactPair<$B> for $A {
            #[inline(always)]
            fn contact_kernel(a: &Self::X8, b: &<$B as ShapeSoa>::X8) -> ContactX8 {
                narrow::$pair::contact_x8(a, b)
            }
            #[inline(always)]
            fn contact_kernel16(a: &Self::X16, b: &<$B as ShapeSoa>::X16) -> ContactX16 {
                narrow::$pair::contact_x16(a, b)
            }
            #[inline(always)]
            fn contact_lanes<V: Simd>(a: Self::Lanes<V>, b: <$B as ShapeSoa>::Lanes<V>) -> [V; 4] {
                narrow::$pair::contact_lanes(a, b)
            }
            #[inline]
            fn contact_reference(a: &Self::Shape, b: &<$B as ShapeSoa>::Shape) -> Option<Contact> {
                narrow::$pair::contact_reference(a, b)
            }
        }
        impl ManifoldPair<$B> for $A {
            #[inline]
            fn manifold_reference(a: &Self::Shape, b: &<$B as ShapeSoa>::Shape) -> Option<Manifold> {
                let c = narrow::$pair::contact_reference(a, b)?;
                let m = narrow::manifold::build::<
                    f32,
                    <$A as ShapeSoa>::Shape,
                    <$B as ShapeSoa>::Shape,
                    { <<$A as ShapeSoa>::Shape as narrow::manifold::Outlined>::N },
                    { <<$B as ShapeSoa>::Shape as narrow::manifold::Outlined>::N },
                >(
                    bytemuck::cast_slice(core::slice::from_ref(a)),
                    bytemuck::cast_slice(core::slice::from_ref(b)),
                    [c.normal[0], c.normal[1], c.depth],
                    true,
                );
                Some(Manifold {
                    normal: [m.nx, m.ny],
                    points: core::array::from_fn(|k| ManifoldPoint {
                        point: [m.x[k], m.y[k]],
                        depth: m.depth[k],
                        id: m.id[k] as u32,
                    }),
                    count: m.count as u8,
                })
            }
            #[inline]
            fn manifold_kernel(a: &Self::X8, b: &<$B as ShapeSoa>::X8) -> [Option<Manifold>; 8] {
                let m = <Self as ManifoldPair<$B>>::manifold_lanes::<f32x8>(bytemuck::cast(*a), bytemuck::cast(*b));
                core::array::from_fn(|l| manifold_lane(&m, l))
            }
            #[inline]
            fn manifold_kernel16(a: &Self::X16, b: &<$B as ShapeSoa>::X16) -> [Option<Manifold>; 16] {
                let m = <Self as ManifoldPair<$B>>::manifold_lanes::<f32x16>(bytemuck::cast(*a), bytemuck::cast(*b));
                core::array::from_fn(|l| manifold_lane(&m, l))
            }
            #[inline(always)]
            fn manifold_lanes<V: Simd>(a: Self::Lanes<V>, b: <$B as ShapeSoa>::Lanes<V>) -> [V; 12] {
                let [mask, nx, ny, depth] = narrow::$pair::contact_lanes(a, b);
                if mask.to_bitmask() == 0 {
                    return [V::ZERO; 12];
                }
                let m = narrow::manifold::build::<
                    V,
                    <$A as ShapeSoa>::Shape,
                    <$B as ShapeSoa>::Shape,
                    { <<$A as ShapeSoa>::Shape as narrow::manifold::Outlined>::N },
                    { <<$B as ShapeSoa>::Shape as narrow::manifold::Outlined>::N },
                >(&a, &b, [nx, ny, depth], mask);
                manifold_columns(m, mask)
            }
        }
    };
}

crate::pair_table!(pair_impls);

/// Shapes a ray can be cast against: `S: RayCast` when [`Rays`] can be tested against `S`.
/// Implemented for [`Aabbs`](crate::Aabbs), [`Circles`](crate::Circles), [`Obbs`](crate::Obbs),
/// [`Polygons`](crate::Polygons) and [`Capsules`](crate::Capsules), as the pair table lists the
/// casts.
pub trait RayCast: ShapeSoa {
    /// The eight-lane kernel: lane `i` is the entry parameter of ray `i` into shape `i`, or
    /// `f32::INFINITY` for a miss.
    fn kernel(r: &RayX8, s: &Self::X8) -> f32x8;
    /// The sixteen-lane kernel, likewise.
    fn kernel16(r: &RayX16, s: &Self::X16) -> f32x16;
    /// The kernel at the width of `V`, on lane columns: the one function behind
    /// [`kernel`](Self::kernel) and [`kernel16`](Self::kernel16).
    fn lanes<V: Simd>(r: <Rays as ShapeSoa>::Lanes<V>, s: Self::Lanes<V>) -> V;
    /// The scalar reference the kernel matches bit for bit.
    fn reference(r: &Ray, s: &Self::Shape) -> f32;
}

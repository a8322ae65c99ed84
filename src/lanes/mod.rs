//! The lane-block shape types the kernels take and the number types they compute on.
//!
//! - [`PointX8`] … [`RayX8`] hold eight shapes, one per lane, field by field; [`PointX16`] …
//!   [`RayX16`] hold sixteen (capsules: [`CapsuleX8`], [`CapsuleX16`]). A lane type has one lane vector per `f32` of its scalar shape, in
//!   the same order (`#[repr(C)]` both), so a shape and a lane column of it convert by
//!   position: the type is eight (or sixteen) shapes transposed. [`PolygonX8`] has array fields
//!   like [`Polygon`]'s.
//! - [`Lane`] and [`Simd`]: every kernel is written once over [`Simd`] (implemented by
//!   [`f32x8`] and [`f32x16`]) and instantiated at both widths; the contacts are written over
//!   [`Lane`], which `f32` implements too, so their scalar references are the same code.
//! - [`LANES`] (eight: the `X8` types and a container's [`block`](crate::Circles::block)) and
//!   [`KERNEL_LANES`], the lanes of one kernel call in the batch functions and the
//!   [`Scene`](crate::Scene): sixteen where the build has AVX-512 (`avx512f`), else eight.

mod answers;
mod twin;

pub use answers::{ContactX8, ContactX16, SweepX8, SweepX16};
pub(crate) use twin::Twin;

use crate::shape::{Aabb, Capsule, Circle, MAX_VERTICES, Obb, Point, Polygon, Ray};
use bytemuck::{Pod, Zeroable};
use core::ops::{Add, BitAnd, BitOr, Div, Mul, Neg, Not, Sub};
use wide::{f32x8, f32x16, i32x8, i32x16};

/// `a < b ? a : b`: on NaN or equal inputs (including `-0` vs `+0`) the second operand, exactly
/// as x86 `minps` does: the scalar `min` of every pair test, and [`Lane::pmin`] on `f32`.
#[inline(always)]
pub(crate) fn min(a: f32, b: f32) -> f32 {
    if a < b { a } else { b }
}

/// `new` where `take`, else `old`, place by place: a running best (nearest, earliest,
/// deepest) updated in every lane at once.
#[inline(always)]
pub(crate) fn select_each<L: Lane, const N: usize>(
    take: L::Mask,
    new: [L; N],
    old: [L; N],
) -> [L; N] {
    core::array::from_fn(|k| L::select(take, new[k], old[k]))
}

/// `a > b ? a : b`: on NaN or equal inputs the second operand, exactly as x86 `maxps` does: the
/// scalar `max` of every pair test, and [`Lane::pmax`] on `f32`.
#[inline(always)]
pub(crate) fn max(a: f32, b: f32) -> f32 {
    if a > b { a } else { b }
}

/// Number of lanes of the `X8` types and of a container's [`block`](crate::Circles::block).
pub const LANES: usize = 8;

/// Lanes per kernel call in [`batch_test`](crate::batch_test) and its siblings and in the
/// [`Scene`](crate::Scene): 16 where the build has `avx512f` (one `f32x16` is one 512-bit
/// register), 8 otherwise. The answers are the same bits either way.
pub const KERNEL_LANES: usize = <Wide as Simd>::LANES;

/// The lane vector of this build's batch functions and scene (see [`KERNEL_LANES`]).
#[cfg(target_feature = "avx512f")]
pub(crate) type Wide = f32x16;
/// The lane vector of this build's batch functions and scene (see [`KERNEL_LANES`]).
#[cfg(not(target_feature = "avx512f"))]
pub(crate) type Wide = f32x8;

mod sealed {
    pub trait Sealed {}
    impl Sealed for f32 {}
    impl Sealed for wide::f32x8 {}
    impl Sealed for wide::f32x16 {}
}

/// A number the kernels compute on: `f32` (the scalar references of the contacts) or a lane
/// vector ([`f32x8`], [`f32x16`]). Only operations that are the same IEEE operation in every
/// form are here (see [`crate::narrow`]), so code written over `Lane` gives the same bits in
/// each. Implemented by those three types only.
pub trait Lane:
    sealed::Sealed
    + Copy
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
{
    /// A comparison's answer: `bool`, or a lane mask (all ones where true).
    type Mask: Copy
        + BitAnd<Output = Self::Mask>
        + BitOr<Output = Self::Mask>
        + Not<Output = Self::Mask>;
    /// `x` in every lane.
    fn splat(x: f32) -> Self;
    /// `self < other`.
    fn lt(self, other: Self) -> Self::Mask;
    /// `self > other`.
    fn gt(self, other: Self) -> Self::Mask;
    /// `self >= other`.
    fn ge(self, other: Self) -> Self::Mask;
    /// `self <= other`.
    fn le(self, other: Self) -> Self::Mask;
    /// `self == other` (NaN equals nothing; `-0 == +0`).
    fn eq(self, other: Self) -> Self::Mask;
    /// `a` where `mask`, else `b`.
    fn select(mask: Self::Mask, a: Self, b: Self) -> Self;
    /// `self < other ? self : other`: on NaN or equal inputs (`-0` vs `+0` too) the second
    /// operand, exactly as x86 `minps` does.
    fn pmin(self, other: Self) -> Self;
    /// `self > other ? self : other`: on NaN or equal inputs the second operand (`maxps`).
    fn pmax(self, other: Self) -> Self;
    /// The absolute value (the sign bit cleared).
    fn abs(self) -> Self;
    /// The correctly rounded square root.
    fn sqrt(self) -> Self;
    /// `2^-e` for the power of two `2^e` at or below `|self|` (exact to multiply by) where
    /// `|self|` is normal and below `2^127`: its biased exponent `b` becomes `254 - b`. So
    /// `2^127` for zeros and subnormals, and `+0` from `2^127` on, for infinities and NaN.
    /// Integer operations on the exponent's bits, no division.
    fn inverse_power(self) -> Self;
    /// Whether any lane of `mask` is set (control flow only: the answer never depends on
    /// it lane by lane).
    fn any(mask: Self::Mask) -> bool;
}

impl Lane for f32 {
    type Mask = bool;
    #[inline(always)]
    fn splat(x: f32) -> Self {
        x
    }
    #[inline(always)]
    fn lt(self, other: Self) -> bool {
        self < other
    }
    #[inline(always)]
    fn gt(self, other: Self) -> bool {
        self > other
    }
    #[inline(always)]
    fn ge(self, other: Self) -> bool {
        self >= other
    }
    #[inline(always)]
    fn le(self, other: Self) -> bool {
        self <= other
    }
    #[inline(always)]
    #[allow(clippy::float_cmp, reason = "exact comparison is the operation")]
    fn eq(self, other: Self) -> bool {
        self == other
    }
    #[inline(always)]
    fn select(mask: bool, a: Self, b: Self) -> Self {
        if mask { a } else { b }
    }
    #[inline(always)]
    fn pmin(self, other: Self) -> Self {
        min(self, other)
    }
    #[inline(always)]
    fn pmax(self, other: Self) -> Self {
        max(self, other)
    }
    #[inline(always)]
    fn abs(self) -> Self {
        f32::abs(self)
    }
    #[inline(always)]
    fn sqrt(self) -> Self {
        f32::sqrt(self)
    }
    #[inline(always)]
    fn inverse_power(self) -> Self {
        let biased = (self.to_bits() >> 23) & 0xFF;
        f32::from_bits(254u32.saturating_sub(biased) << 23)
    }
    #[inline(always)]
    fn any(mask: bool) -> bool {
        mask
    }
}

/// A lane vector the kernels are generic over: [`f32x8`] or [`f32x16`] (one 512-bit register
/// where the build has `avx512f`, two `f32x8` otherwise). Masks are vectors of the same type,
/// all ones in a lane where true.
pub trait Simd:
    Lane<Mask = Self>
    + Pod
    + Default
    + Neg<Output = Self>
    + Not<Output = Self>
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + Send
    + Sync
    + core::fmt::Debug
{
    /// Number of lanes.
    const LANES: usize;
    /// Every lane `+0`.
    const ZERO: Self;
    /// Every lane NaN: padding that never hits.
    const INERT: Self;
    /// `self <= other`, lane by lane.
    fn simd_le(self, other: Self) -> Self;
    /// `self == other`, lane by lane (NaN equals nothing).
    fn simd_eq(self, other: Self) -> Self;
    /// `self != other`, lane by lane.
    fn simd_ne(self, other: Self) -> Self;
    /// `a` where `self` (a mask) is set, else `b`.
    fn select(self, a: Self, b: Self) -> Self;
    /// The mask's lanes as bits, lane `i` in bit `i`.
    fn to_bitmask(self) -> u32;
    /// The lanes as `f32`s.
    fn as_slice(&self) -> &[f32];
    /// The lanes, whole numbers from 0 to 2²⁴, as integers into `out` (`LANES` of them): one
    /// conversion instruction instead of a checked conversion per lane.
    #[doc(hidden)]
    fn whole_into(self, out: &mut [u32]);
    /// The ray kernels' direction scale, lane by lane (see `narrow::dir_scale`).
    #[doc(hidden)]
    fn dir_scale(dx: Self, dy: Self) -> Self;
}

/// `$x86` on x86 and x86-64, `$other` on every other target.
macro_rules! on_x86_else {
    ($x86:expr, $other:expr) => {{
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        {
            $x86
        }
        #[cfg(not(any(target_arch = "x86", target_arch = "x86_64")))]
        {
            $other
        }
    }};
}

/// `Lane` and `Simd` for one lane vector and its integer twin.
macro_rules! simd_impls {
    ($($V:ident, $I:ident, $n:literal;)+) => {$(
        impl Lane for $V {
            type Mask = $V;
            #[inline(always)]
            fn splat(x: f32) -> Self {
                $V::splat(x)
            }
            #[inline(always)]
            fn lt(self, other: Self) -> $V {
                self.simd_lt(other)
            }
            #[inline(always)]
            fn gt(self, other: Self) -> $V {
                self.simd_gt(other)
            }
            #[inline(always)]
            fn ge(self, other: Self) -> $V {
                self.simd_ge(other)
            }
            #[inline(always)]
            fn le(self, other: Self) -> $V {
                $V::simd_le(self, other)
            }
            #[inline(always)]
            fn eq(self, other: Self) -> $V {
                $V::simd_eq(self, other)
            }
            #[inline(always)]
            fn select(mask: $V, a: Self, b: Self) -> Self {
                mask.select(a, b)
            }
            // On x86 `fast_min`/`fast_max` are `minps`/`maxps`, whose rule is the scalar one;
            // elsewhere the same rule by a comparison and a select.
            #[inline(always)]
            fn pmin(self, other: Self) -> Self {
                on_x86_else!(self.fast_min(other), self.simd_lt(other).select(self, other))
            }
            #[inline(always)]
            fn pmax(self, other: Self) -> Self {
                on_x86_else!(self.fast_max(other), self.simd_gt(other).select(self, other))
            }
            #[inline(always)]
            fn abs(self) -> Self {
                $V::abs(self)
            }
            #[inline(always)]
            fn sqrt(self) -> Self {
                $V::sqrt(self)
            }
            #[inline(always)]
            fn inverse_power(self) -> Self {
                // The scalar rule on the exponent's bits: `254 - biased`, not below 0.
                let bits: $I = bytemuck::cast(self);
                let biased: $I = (bits >> 23) & $I::splat(0xFF);
                let inverse: $I = ($I::splat(254) - biased).max($I::splat(0)) << 23;
                bytemuck::cast(inverse)
            }
            #[inline(always)]
            fn any(mask: $V) -> bool {
                mask.to_bitmask() != 0
            }
        }

        impl Simd for $V {
            const LANES: usize = $n;
            const ZERO: Self = $V::ZERO;
            const INERT: Self = $V::new([f32::NAN; $n]);
            #[inline(always)]
            fn simd_le(self, other: Self) -> Self {
                $V::simd_le(self, other)
            }
            #[inline(always)]
            fn simd_eq(self, other: Self) -> Self {
                $V::simd_eq(self, other)
            }
            #[inline(always)]
            fn simd_ne(self, other: Self) -> Self {
                $V::simd_ne(self, other)
            }
            #[inline(always)]
            fn select(self, a: Self, b: Self) -> Self {
                $V::select(self, a, b)
            }
            #[inline(always)]
            fn to_bitmask(self) -> u32 {
                $V::to_bitmask(self)
            }
            #[inline(always)]
            fn as_slice(&self) -> &[f32] {
                self.as_array()
            }
            #[inline(always)]
            fn whole_into(self, out: &mut [u32]) {
                let ints: [u32; $n] = bytemuck::cast(self.fast_trunc_int());
                out.copy_from_slice(&ints);
            }
            #[inline(always)]
            fn dir_scale(dx: Self, dy: Self) -> Self {
                // See `narrow::dir_scale`: the biased exponent of the scale is
                // `253 - biased(max(|dx|, |dy|))`, at least 1, and 2⁻¹²⁸ from 2¹²⁷ on.
                let bits: $I = bytemuck::cast(dx.abs().pmax(dy.abs()));
                let biased: $I = bits >> 23;
                let exponent: $I = $I::splat(253) - biased;
                let exponent = exponent.max($I::splat(1));
                let huge = biased.simd_ge($I::splat(254));
                bytemuck::cast(huge.select($I::splat(1 << 21), exponent << 23))
            }
        }
    )+};
}

simd_impls! {
    f32x8, i32x8, 8;
    f32x16, i32x16, 16;
}

/// A field of a lane type: one lane vector, or an array of them.
trait Inert {
    /// Every lane NaN.
    const INERT: Self;
}

impl<V: Simd> Inert for V {
    const INERT: Self = V::INERT;
}

impl<V: Simd, const N: usize> Inert for [V; N] {
    const INERT: Self = [V::INERT; N];
}

/// The lane columns of `N` shapes: `columns[c]` lane `l` is `f32` number `c` of shape `l`.
/// `C` is the number of `f32`s in a shape (checked by `bytemuck::cast`).
#[inline(always)]
pub(crate) fn transpose<S: Pod, V: Simd, const N: usize, const C: usize>(
    shapes: &[S; N],
) -> [V; C] {
    let mut columns = [V::ZERO; C];
    let flat: &mut [f32] = bytemuck::cast_slice_mut(&mut columns);
    for (l, shape) in shapes.iter().enumerate() {
        let fields: &[f32; C] = bytemuck::cast_ref(shape);
        for c in 0..C {
            flat[c * N + l] = fields[c];
        }
    }
    columns
}

/// Shape number `lane` of lane columns (the inverse of [`transpose`] for one lane).
#[inline(always)]
pub(crate) fn lane_of<S: Pod, V: Simd, const C: usize>(columns: &[V; C], lane: usize) -> S {
    let mut fields = [0.0f32; C];
    for c in 0..C {
        fields[c] = columns[c].as_slice()[lane];
    }
    bytemuck::cast(fields)
}

/// One shape in every lane, as lane columns (`C` is the number of `f32`s in a shape).
#[inline(always)]
pub(crate) fn splat_columns<S: Pod, V: Simd, const C: usize>(shape: &S) -> [V; C] {
    let fields: &[f32; C] = bytemuck::cast_ref(shape);
    fields.map(V::splat)
}

/// The type of a lane type's field: one vector, or `[V; n]` for an array field.
macro_rules! lane_field {
    ($V:ty) => {
        $V
    };
    ($V:ty, $n:expr) => {
        [$V; $n]
    };
}

macro_rules! lane_types {
    ($(
        $Shape:ident => $X8:ident, $X16:ident {
            $( $(#[$doc:meta])* $field:ident $([$n:expr])?, )+
        }
    )+) => {$(
        lane_types!(@one $Shape, $X8, f32x8, 8, "Eight", "eight"; $( $(#[$doc])* $field $([$n])?, )+);
        lane_types!(@one $Shape, $X16, f32x16, 16, "Sixteen", "sixteen"; $( $(#[$doc])* $field $([$n])?, )+);
    )+};
    (@one $Shape:ident, $X:ident, $V:ident, $lanes:literal, $Count:literal, $count:literal;
        $( $(#[$doc:meta])* $field:ident $([$n:expr])?, )+
    ) => {
        #[doc = concat!($Count, " [`", stringify!($Shape), "`]s, one per lane, field by field.")]
        ///
        #[doc = concat!("Converts from and to an array of ", $count, " shapes.")]
        #[derive(Clone, Copy, Debug, Pod, Zeroable)]
        #[repr(C)]
        pub struct $X {
            $( $(#[$doc])* pub $field: lane_field!($V $(, $n)?), )+
        }

        impl $X {
            #[doc = concat!($Count, " lanes that never overlap anything (every field NaN), used for padding.")]
            pub const INERT: Self = Self { $( $field: <lane_field!($V $(, $n)?) as Inert>::INERT, )+ };

            #[doc = concat!("The same [`", stringify!($Shape), "`] in all ", $count, " lanes.")]
            #[inline]
            #[must_use]
            pub fn splat(shape: $Shape) -> Self {
                Self::from([shape; $lanes])
            }

            #[doc = concat!("The shape in lane `lane` (0..", $lanes, "). Panics if `lane >= ", $lanes, "`.")]
            #[inline]
            #[must_use]
            pub fn lane(&self, lane: usize) -> $Shape {
                let columns: &[$V; size_of::<$Shape>() / 4] = bytemuck::cast_ref(self);
                lane_of(columns, lane)
            }
        }

        impl From<[$Shape; $lanes]> for $X {
            #[inline]
            fn from(shapes: [$Shape; $lanes]) -> Self {
                bytemuck::cast(transpose::<$Shape, $V, $lanes, { size_of::<$Shape>() / 4 }>(&shapes))
            }
        }

        impl From<$X> for [$Shape; $lanes] {
            #[inline]
            fn from(lanes: $X) -> Self {
                core::array::from_fn(|i| lanes.lane(i))
            }
        }
    };
}

lane_types! {
    Point => PointX8, PointX16 {
        /// Horizontal coordinate, lane by lane.
        x,
        /// Vertical coordinate.
        y,
    }
    Circle => CircleX8, CircleX16 {
        /// Centre, horizontal.
        x,
        /// Centre, vertical.
        y,
        /// Radius.
        radius,
    }
    Aabb => AabbX8, AabbX16 {
        /// Left edge.
        min_x,
        /// Bottom edge.
        min_y,
        /// Right edge.
        max_x,
        /// Top edge.
        max_y,
    }
    Obb => ObbX8, ObbX16 {
        /// Centre, horizontal.
        center_x,
        /// Centre, vertical.
        center_y,
        /// Half extent along the local x axis.
        half_width,
        /// Half extent along the local y axis.
        half_height,
        /// Cosine of the rotation.
        cos,
        /// Sine of the rotation.
        sin,
    }
    Polygon => PolygonX8, PolygonX16 {
        /// Vertex `k`'s horizontal coordinate, lane by lane.
        x[MAX_VERTICES],
        /// Vertex `k`'s vertical coordinate, lane by lane.
        y[MAX_VERTICES],
    }
    Capsule => CapsuleX8, CapsuleX16 {
        /// First endpoint, horizontal.
        x0,
        /// First endpoint, vertical.
        y0,
        /// Second endpoint, horizontal.
        x1,
        /// Second endpoint, vertical.
        y1,
        /// Radius around the segment.
        radius,
    }
    Ray => RayX8, RayX16 {
        /// Origin, horizontal.
        origin_x,
        /// Origin, vertical.
        origin_y,
        /// Direction, horizontal.
        dir_x,
        /// Direction, vertical.
        dir_y,
        /// Largest parameter tested.
        max_t,
    }
}

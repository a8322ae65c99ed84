//! Pair tests, one file per pair of shape kinds.
//!
//! A file is named after its pair, first kind first (`circle_aabb.rs` tests a circle against an
//! AABB); the swapped order (`aabb_circle`) is never written again, [`crate::batch`] delegates it
//! to the one implementation. Each file holds two functions side by side:
//!
//! - `reference(&A, &B) -> bool`, the plain scalar ground truth, re-exported as
//!   [`crate::reference`](mod@crate::reference)`::a_b`;
//! - `x8(&AX8, &BX8) -> u8`, the same operations in the same order on eight lanes, re-exported as
//!   [`crate::kernel`](mod@crate::kernel)`::a_b`; bit `i` of the result is lane `i`'s answer.
//!
//! The two must agree bit for bit on every input, so both are built from the few operations below
//! whose scalar and eight-lane forms are the same IEEE operation: `+ - *`, comparisons, `abs`, and
//! `min(a, b) = if a < b { a } else { b }` and `max(a, b) = if a > b { a } else { b }`, whose
//! NaN and ±0 behaviour (the second operand wins) is that of the x86 `minps`/`maxps`
//! instructions the kernels use. No fused multiply-add, no horizontal sums.
//!
//! Validity (the NaN / negative-size / non-finite-rotation policy) is computed inside each test as
//! one more mask ANDed into the answer. Where a test's own comparisons already fail on a bad field
//! (a NaN coordinate turns a distance into NaN, and NaN compares false), the file says so instead
//! of testing it twice.

use wide::f32x8;

pub mod aabb_aabb;
pub mod aabb_obb;
pub mod circle_aabb;
pub mod circle_circle;
pub mod circle_obb;
pub mod obb_obb;
pub mod point_aabb;
pub mod point_circle;
pub mod point_obb;

/// `a < b ? a : b`: on NaN or equal inputs (including `-0` vs `+0`) the second operand, exactly
/// as x86 `minps` does.
#[inline(always)]
pub(crate) fn min(a: f32, b: f32) -> f32 {
    if a < b { a } else { b }
}

/// `a > b ? a : b`: on NaN or equal inputs the second operand, exactly as x86 `maxps` does.
#[inline(always)]
pub(crate) fn max(a: f32, b: f32) -> f32 {
    if a > b { a } else { b }
}

/// Lane-wise [`min`].
#[inline(always)]
pub(crate) fn min8(a: f32x8, b: f32x8) -> f32x8 {
    // On x86 `fast_min` is `minps`/`vminps`, whose rule is the scalar one above.
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    {
        a.fast_min(b)
    }
    #[cfg(not(any(target_arch = "x86", target_arch = "x86_64")))]
    {
        a.simd_lt(b).select(a, b)
    }
}

/// Lane-wise [`max`].
#[inline(always)]
pub(crate) fn max8(a: f32x8, b: f32x8) -> f32x8 {
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    {
        a.fast_max(b)
    }
    #[cfg(not(any(target_arch = "x86", target_arch = "x86_64")))]
    {
        a.simd_gt(b).select(a, b)
    }
}

/// Whether both rotation components are finite: `x - x` is `0` for finite `x` and NaN for
/// ±inf and NaN, and NaN never compares equal.
#[inline(always)]
#[allow(clippy::eq_op, reason = "x - x is the finiteness test, see above")]
pub(crate) fn finite_rotation(cos: f32, sin: f32) -> bool {
    cos - cos == sin - sin
}

/// Lane-wise [`finite_rotation`].
#[inline(always)]
#[allow(
    clippy::eq_op,
    reason = "x - x is the finiteness test, see finite_rotation"
)]
pub(crate) fn finite_rotation8(cos: f32x8, sin: f32x8) -> f32x8 {
    (cos - cos).simd_eq(sin - sin)
}

/// The offset `(dx, dy)` expressed in a frame whose x axis is `(cos, sin)` and whose y axis is
/// `(-sin, cos)`: the dot products with the two axes.
#[inline(always)]
pub(crate) fn to_local(dx: f32, dy: f32, cos: f32, sin: f32) -> (f32, f32) {
    (dx * cos + dy * sin, dy * cos - dx * sin)
}

/// Whether `x` is finite: `x - x` is `0` for finite `x` and NaN for ±inf and NaN.
#[inline(always)]
#[allow(clippy::eq_op, reason = "x - x is the finiteness test")]
pub(crate) fn finite(x: f32) -> bool {
    x - x == 0.0
}

/// Lane-wise [`finite`].
#[inline(always)]
#[allow(clippy::eq_op, reason = "x - x is the finiteness test")]
pub(crate) fn finite8(x: f32x8) -> f32x8 {
    (x - x).simd_eq(f32x8::ZERO)
}

/// Lane-wise [`to_local`].
#[inline(always)]
pub(crate) fn to_local8(dx: f32x8, dy: f32x8, cos: f32x8, sin: f32x8) -> (f32x8, f32x8) {
    (dx * cos + dy * sin, dy * cos - dx * sin)
}

/// The eight lanes' answers as bits, lane `i` in bit `i`.
#[inline(always)]
pub(crate) fn bits(mask: f32x8) -> u8 {
    mask.to_bitmask() as u8
}

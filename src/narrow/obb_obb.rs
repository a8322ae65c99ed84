//! OBB–OBB: separating-axis test on the four face normals, `a`'s axes `ua, va` and `b`'s axes
//! `ub, vb`.
//!
//! On a unit axis `n`, a box with axes `e1, e2` and half extents `h1, h2` projects to the radius
//! `h1·|e1·n| + h2·|e2·n|`; the boxes are separated on `n` when `|d·n|` (d = offset between the
//! centres) exceeds the sum of the radii. Every cross dot product between the two frames is the
//! cosine or sine of the angle between them: `ua·ub = va·vb = rc` and `|ua·vb| = |va·ub| = |rs|`,
//! with `rc = ca·cb + sa·sb` and `rs = ca·sb - sa·cb`. So, with `|rc|` as `c` and `|rs|` as `s`:
//!
//! - on ua: `|d·ua| <= hwa + (hwb·c + hhb·s)`
//! - on va: `|d·va| <= hha + (hwb·s + hhb·c)`
//! - on ub: `|d·ub| <= hwb + (hwa·c + hha·s)`
//! - on vb: `|d·vb| <= hhb + (hwa·s + hha·c)`
//!
//! In 2D these four axes suffice; the boxes overlap (touching included) when none separates them.
//!
//! Validity: all four half extents `>= 0` and both rotations finite. A NaN centre makes `d` NaN.

use super::{finite_rotation, finite_rotation8, to_local, to_local8};
use crate::shape::Obb;
use crate::soa::ObbX8;
use wide::f32x8;

/// Whether `a` and `b` overlap, touching included.
#[inline]
#[must_use]
pub fn reference(a: &Obb, b: &Obb) -> bool {
    let dx = b.center_x - a.center_x;
    let dy = b.center_y - a.center_y;
    let (rc, rs) = to_local(b.cos, b.sin, a.cos, a.sin);
    let (c, s) = (rc.abs(), rs.abs());
    let (dua, dva) = to_local(dx, dy, a.cos, a.sin);
    let (dub, dvb) = to_local(dx, dy, b.cos, b.sin);
    let on_ua = dua.abs() <= a.half_width + (b.half_width * c + b.half_height * s);
    let on_va = dva.abs() <= a.half_height + (b.half_width * s + b.half_height * c);
    let on_ub = dub.abs() <= b.half_width + (a.half_width * c + a.half_height * s);
    let on_vb = dvb.abs() <= b.half_height + (a.half_width * s + a.half_height * c);
    let valid = (a.half_width >= 0.0)
        & (a.half_height >= 0.0)
        & (b.half_width >= 0.0)
        & (b.half_height >= 0.0)
        & finite_rotation(a.cos, a.sin)
        & finite_rotation(b.cos, b.sin);
    on_ua & on_va & on_ub & on_vb & valid
}

/// Eight lanes of [`reference`](fn@reference); bit `i` is lane `i`.
#[inline]
#[must_use]
pub fn x8(a: &ObbX8, b: &ObbX8) -> u8 {
    let dx = b.center_x - a.center_x;
    let dy = b.center_y - a.center_y;
    let (rc, rs) = to_local8(b.cos, b.sin, a.cos, a.sin);
    let (c, s) = (rc.abs(), rs.abs());
    let (dua, dva) = to_local8(dx, dy, a.cos, a.sin);
    let (dub, dvb) = to_local8(dx, dy, b.cos, b.sin);
    let on_ua = dua
        .abs()
        .simd_le(a.half_width + (b.half_width * c + b.half_height * s));
    let on_va = dva
        .abs()
        .simd_le(a.half_height + (b.half_width * s + b.half_height * c));
    let on_ub = dub
        .abs()
        .simd_le(b.half_width + (a.half_width * c + a.half_height * s));
    let on_vb = dvb
        .abs()
        .simd_le(b.half_height + (a.half_width * s + a.half_height * c));
    let zero = f32x8::ZERO;
    let valid = a.half_width.simd_ge(zero)
        & a.half_height.simd_ge(zero)
        & b.half_width.simd_ge(zero)
        & b.half_height.simd_ge(zero)
        & finite_rotation8(a.cos, a.sin)
        & finite_rotation8(b.cos, b.sin);
    super::bits(on_ua & on_va & on_ub & on_vb & valid)
}

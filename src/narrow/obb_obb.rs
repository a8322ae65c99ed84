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
//! Validity, in as few operations as the hot loop allows:
//! - A NaN half extent sits on the right of its own box's axis test, which then fails; so only
//!   negative extents need a test, and the smallest of the four being `>= 0` is that test (with
//!   no NaN present the `min` is exact; with one present the answer is a miss either way).
//! - Each of the four rotation components appears in `rc`, and a product or sum with an infinite
//!   or NaN factor is infinite or NaN; so both rotations are finite when `rc` is (`rc - rc == 0`).
//!   A finite rotation so far from unit length that `rc` overflows counts as non-finite too.
//!
//! A NaN centre makes `d` NaN, which fails every axis.
//!
//! **Contact**: on each of the four axes above (`ua`, `va`, `ub`, `vb`, in that order) the
//! overlap is the right side minus the left, and `b` moves the way its centre already lies
//! from `a`'s (`+n` when `d·n >= 0`); the smallest overlap wins.
//!
//! **Sweep** (one shape moving, [`SweepPair`](crate::SweepPair)): swept separating axes over
//! both outlines' edge normals, written once for every flat pair in `narrow/sweep/sat.rs`: the
//! latest entry before the earliest exit, the entry axis's normal.

use super::contact::{Best, pair_kernels};
use super::{finite, finite_lanes, min, to_local};
use crate::lanes::{Lane, Simd};
use crate::shape::Obb;

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
    let smallest = min(
        min(a.half_width, a.half_height),
        min(b.half_width, b.half_height),
    );
    let valid = (smallest >= 0.0) & finite(rc);
    on_ua & on_va & on_ub & on_vb & valid
}

/// [`reference`](fn@reference) on every lane of `V`: all ones where a lane overlaps.
#[inline(always)]
pub(crate) fn hits<V: Simd>(a: [V; 6], b: [V; 6]) -> V {
    let [acx, acy, ahw, ahh, acos, asin] = a;
    let [bcx, bcy, bhw, bhh, bcos, bsin] = b;
    let dx = bcx - acx;
    let dy = bcy - acy;
    let (rc, rs) = to_local(bcos, bsin, acos, asin);
    let (c, s) = (rc.abs(), rs.abs());
    let (dua, dva) = to_local(dx, dy, acos, asin);
    let (dub, dvb) = to_local(dx, dy, bcos, bsin);
    let on_ua = dua.abs().simd_le(ahw + (bhw * c + bhh * s));
    let on_va = dva.abs().simd_le(ahh + (bhw * s + bhh * c));
    let on_ub = dub.abs().simd_le(bhw + (ahw * c + ahh * s));
    let on_vb = dvb.abs().simd_le(bhh + (ahw * s + ahh * c));
    let smallest = ahw.pmin(ahh).pmin(bhw.pmin(bhh));
    let valid = smallest.ge(V::ZERO) & finite_lanes(rc);
    on_ua & on_va & on_ub & on_vb & valid
}

pair_kernels!(a: Obb, ObbX8, ObbX16; b: Obb, ObbX8, ObbX16);

/// The candidates of this pair, generic over [`Lane`] (see the module docs).
#[inline(always)]
fn contact<L: Lane>(a: [L; 6], b: [L; 6]) -> Best<L> {
    let [acx, acy, ahw, ahh, acos, asin] = a;
    let [bcx, bcy, bhw, bhh, bcos, bsin] = b;
    let zero = L::splat(0.0);
    let (dx, dy) = (bcx - acx, bcy - acy);
    let (rc, rs) = to_local(bcos, bsin, acos, asin);
    let (c, s) = (rc.abs(), rs.abs());
    let (dua, dva) = to_local(dx, dy, acos, asin);
    let (dub, dvb) = to_local(dx, dy, bcos, bsin);
    let mut best = Best::new();
    best.offer_axis(ahw + (bhw * c + bhh * s), dua, acos, asin);
    best.offer_axis(ahh + (bhw * s + bhh * c), dva, zero - asin, acos);
    best.offer_axis(bhw + (ahw * c + ahh * s), dub, bcos, bsin);
    best.offer_axis(bhh + (ahw * s + ahh * c), dvb, zero - bsin, bcos);
    best
}

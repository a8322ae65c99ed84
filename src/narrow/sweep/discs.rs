//! Two circles, or a point and a circle, one moving: the sweep as one pass with the start
//! contact, because such a pair has one piece (`round.rs`'s vertex pair with one vertex on
//! each side) and its contact is the same offset's length.
//!
//! Per lane, one square root and two divisions, neither waiting on the other: where the pair
//! touches at the start, the contact's distance `|d|` and its reciprocal (the pair's contact,
//! `circle_circle`'s or `point_circle`'s in either order, operation for operation, so the start
//! normal is `batch_contact`'s bit for bit); where it is apart, the root `√(a·r² - (m × d)²)`
//! of `|d - t m| = r` and `q = 1 / (r · m·m)`, which gives both `1 / m·m` (as `r · q`) and
//! `1 / r` (as `m·m · q`) and is divided while the root is taken. The time is the smaller root
//! `t = (m·d - √disc) / m·m`, not below 0: its error, as a distance along the motion, is a few
//! roundings of the offset's length however small `t` is (`round.rs`'s form `c / (b + √disc)`
//! is exact to rounding in `t` itself, but its division waits on the root: 9–12 % of this
//! sweep at eight lanes, 9–25 % at sixteen, on Zen 5).
//! The normal is the offset at contact `w` times `1 / r` (a length within rounding of 1 there),
//! brought to unit length by one Newton step `n (3 - n·n) / 2`; a lane where that length is
//! not within 2⁻¹² of 1 (radii tiny beside the coordinates or the motion, or `r · m·m` under-
//! or overflowing, which puts the same error in the time) takes `round.rs`'s division and
//! normalisation instead (computed only for blocks that hold one), and so does a lane whose
//! lengths put the root's products of four lengths out of range ([`out_of_range`]: beyond
//! about 1e9 or below about 1e-9), scaled by a power of two first (`Lane::inverse_power`).
//! The rules are the round pieces': a hit closing along the normal, a graze no hit.

use super::finite;
use super::round::vertex_normal;
use crate::lanes::Lane;

/// How a pair of one-vertex kinds writes its contact: circle–circle along `b - a` divided by
/// the distance; point–circle along `p - c` divided by minus the distance (`a - b` with the
/// point first; `b - a` and the normal reversed with the circle first).
#[derive(Clone, Copy)]
pub(super) struct Convention {
    /// Both circles: `+1`; a point and a circle: `-1`.
    pub(super) toward: f32,
    /// The offset is `a - b` (a point moving against a circle).
    pub(super) from_a: bool,
    /// The normal is reversed (a circle moving against a point).
    pub(super) reversed: bool,
}

/// The sweep of `a` (`[x, y, radius]`, radius 0 for a point) moving by `m` against `b`: the
/// hit mask and `[t, nx, ny]` (`t = 1`, `(0, 0)` without a hit), under
/// [`sweep`](super::sweep)'s rules, the start contact written as `convention` says.
#[inline(always)]
pub(super) fn single<L: Lane>(
    [ax, ay, ar]: [L; 3],
    [bx, by, br]: [L; 3],
    [mx, my]: [L; 2],
    convention: Convention,
) -> (L::Mask, [L; 3]) {
    let (zero, one, inf) = (L::splat(0.0), L::splat(1.0), L::splat(f32::INFINITY));
    // The start: circle_circle's overlap test and the offset `o` its contact normalises,
    // subtracted as the contact does (`a - b` with a point first: `0 - (b - a)` would differ
    // from it in the sign of a zero, `a = -0` and `b = +0`), and `d = b - a` from it.
    let (ox, oy, dx, dy) = if convention.from_a {
        let (ox, oy) = (ax - bx, ay - by);
        (ox, oy, zero - ox, zero - oy)
    } else {
        let (dx, dy) = (bx - ax, by - ay);
        (dx, dy, dx, dy)
    };
    let r = ar + br;
    let rr = r * r;
    let dd = dx * dx + dy * dy;
    // What may be swept: every field and the motion finite, radii not negative. Finiteness is
    // tested on `d` and `r`, which are not finite wherever a field is not (and where finite
    // fields overflow them, beyond about 1e38, the pair is not swept: the module docs'
    // answer for magnitudes whose squares overflow). A NaN radius makes `r` NaN; `pmin` of
    // two others is the smaller.
    let valid = finite(&[&[dx, dy, r, mx, my]]) & ar.pmin(br).ge(zero);
    // (`circle_circle`'s test has the radii not negative too: `valid` holds that.)
    let touching = dd.le(rr);
    // Apart: the smaller root of `|d - t m| = r`, closing (`m · d > 0`).
    let mm = mx * mx + my * my;
    let md = mx * dx + my * dy;
    let cross = mx * dy - my * dx;
    let disc = mm * rr - cross * cross;
    let take = !touching & md.gt(zero) & disc.ge(zero);
    // The apart lanes' division, which waits on no square root: `1 / (r · m·m)`, giving both
    // `1 / (m·m)` for the time and `1 / r` for the normal. Where `r · m·m` is subnormal, zero
    // or infinite, or either reciprocal overflows, the normal's length shows it (see `near`):
    // both reciprocals carry `q`'s error, so a length within 2⁻¹² of 1 bounds the time's too.
    let q = one / (r * mm);
    let (inv_mm, inv_r) = (r * q, mm * q);
    // The one square root, and the touching lanes' division (circle_circle's contact).
    let s = L::select(touching, dd, zero.pmax(disc)).sqrt();
    let toward = L::splat(convention.toward) / s;
    // Touching: the contact normal along `o` (coincident centres, or a distance that
    // overflowed: (1, 0)).
    let has_dir = s.gt(zero) & s.lt(inf);
    let (cx, cy) = (
        L::select(has_dir, ox * toward, one),
        L::select(has_dir, oy * toward, zero),
    );
    let (cx, cy) = if convention.reversed {
        (zero - cx, zero - cy)
    } else {
        (cx, cy)
    };
    let start = touching & (mx * cx + my * cy).gt(zero);
    // Apart, the fast form: the time `(m·d - √disc) / m·m` (not below 0: by a rounding where
    // the pair is within reach already), and the offset at contact over `r`, one Newton step.
    let vt = zero.pmax(md - s) * inv_mm;
    let (fx, fy) = ((dx - vt * mx) * inv_r, (dy - vt * my) * inv_r);
    let f2 = fx * fx + fy * fy;
    let near = (f2 - one).abs().lt(L::splat(1.0 / 4096.0));
    let k = L::splat(1.5) - L::splat(0.5) * f2;
    let (mut t, mut nx, mut ny, mut along) = (vt, fx * k, fy * k, zero.eq(zero));
    // Lanes whose sizes put `m·m · r²` out of range ([`out_of_range`]) take the exact path
    // too, which scales them first: there the fast form's time, and `take` itself, may be
    // wrong without the length test seeing it.
    let odd = !touching & out_of_range(mm, rr);
    let slow = (take & !near) | odd;
    let mut take = take;
    if L::any(slow) {
        let (vt, ex, ey, onto, taken) = exact([dx, dy], [mx, my], r);
        t = L::select(slow, vt, t);
        nx = L::select(slow, ex, nx);
        ny = L::select(slow, ey, ny);
        along = (slow & onto) | (!slow & along);
        take = (slow & taken) | (!slow & take);
    }
    let closes = (nx * mx + ny * my).gt(zero) & along;
    let hit = (start | (take & t.le(one) & closes)) & valid;
    (
        hit,
        [
            L::select(hit, L::select(start, zero, t), one),
            L::select(hit, L::select(start, cx, nx), zero),
            L::select(hit, L::select(start, cy, ny), zero),
        ],
    )
}

/// The apart lanes' time, normal and graze test as `round.rs`'s vertex pair computes them,
/// on the offset `d`, the motion `m` and the radii `r` scaled by a power of two that brings
/// the largest of `|m|` and `r` to `[1, 2)` (exact: where nothing under- or overflowed, the
/// same bits as unscaled): the division `num / den`, the normalised offset at contact or,
/// without a radius, the motion's direction, then the test along the motion and the normal's
/// finiteness; and whether the motion closes on the disc (`take`). Out of line and cold: only
/// blocks with such a lane call it.
#[inline(never)]
#[cold]
fn exact<L: Lane>([dx, dy]: [L; 2], [mx, my]: [L; 2], r: L) -> (L, L, L, L::Mask, L::Mask) {
    let zero = L::splat(0.0);
    let s = mx.abs().pmax(my.abs()).pmax(r).inverse_power();
    let ([dx, dy], [mx, my], r) = ([dx * s, dy * s], [mx * s, my * s], r * s);
    let (mm, md, rr) = (mx * mx + my * my, mx * dx + my * dy, r * r);
    let cross = mx * dy - my * dx;
    let disc = mm * rr - cross * cross;
    let take = md.gt(zero) & disc.ge(zero);
    let num = zero.pmax(dx * dx + dy * dy - rr);
    let vt = num / (md + zero.pmax(disc).sqrt());
    let (nx, ny, closing) = vertex_normal(dx - vt * mx, dy - vt * my, mx, my, r);
    let travel = vt * mm;
    let slack = (md.abs() + travel.abs()) * L::splat(1.0 / 262_144.0);
    let closes = closing | (md - travel).ge(zero - slack);
    // A normal that overflowed is no answer (the fast lanes' is within 2⁻¹² of unit length).
    (vt, nx, ny, closes & finite(&[&[nx, ny]]), take)
}

/// Whether the sizes put the disc's products of four lengths out of `f32`'s range (`m·m · r²`
/// and `(m × d)²` under- or overflowing), from the larger of `m·m` and `r²`: beyond 2⁶⁰
/// (lengths of about 1e9), or below 2⁻⁶⁰ (about 1e-9) for a motion that is not 0. The fast
/// form's time is then wrong (0 for a pair far apart, or off by a fifth), and so may be
/// whether the motion closes on the disc at all.
#[inline(always)]
fn out_of_range<L: Lane>(mm: L, rr: L) -> L::Mask {
    let big = mm.pmax(rr);
    let (high, low) = (f32::from_bits(0x5d80_0000), f32::from_bits(0x2180_0000)); // 2^±60
    big.gt(L::splat(high)) | (big.lt(L::splat(low)) & mm.gt(L::splat(0.0)))
}

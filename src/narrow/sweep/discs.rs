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
//! not within 2⁻¹² of 1 (radii tiny beside the coordinates or the motion), or where `r · m·m`
//! could under- or overflow, takes `round.rs`'s division and normalisation instead (computed
//! only for blocks that hold one).
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
    // `1 / (m·m)` for the time and `1 / r` for the normal.
    let rm = r * mm;
    let plain = rm.gt(L::splat(1e-30)) & rm.lt(L::splat(1e30));
    let q = one / rm;
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
    let slow = take & !(plain & near);
    if L::any(slow) {
        let num = zero.pmax(dd - rr);
        let (vt, ex, ey, onto) = exact([dx, dy], [mx, my], [mm, md, r], [num, md + s]);
        t = L::select(slow, vt, t);
        nx = L::select(slow, ex, nx);
        ny = L::select(slow, ey, ny);
        along = (slow & onto) | (!slow & along);
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

/// The apart lanes' time, normal and graze test as `round.rs`'s vertex pair computes them:
/// the division `num / den`, the normalised offset at contact or, without a radius, the
/// motion's direction, then the test along the motion and the normal's finiteness. Out of
/// line and cold: only blocks with such a lane call it.
#[inline(never)]
#[cold]
fn exact<L: Lane>(
    [dx, dy]: [L; 2],
    [mx, my]: [L; 2],
    [mm, md, r]: [L; 3],
    [num, den]: [L; 2],
) -> (L, L, L, L::Mask) {
    let zero = L::splat(0.0);
    let vt = num / den;
    let (nx, ny, closing) = vertex_normal(dx - vt * mx, dy - vt * my, mx, my, r);
    let travel = vt * mm;
    let slack = (md.abs() + travel.abs()) * L::splat(1.0 / 262_144.0);
    let closes = closing | (md - travel).ge(zero - slack);
    // A normal that overflowed is no answer (the fast lanes' is within 2⁻¹² of unit length).
    (vt, nx, ny, closes & finite(&[&[nx, ny]]))
}

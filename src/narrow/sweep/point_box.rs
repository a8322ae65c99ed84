//! A point and a box (axis-aligned or oriented), apart at the start: the swept separating
//! axes of `sat.rs` (see the module docs) in the box's own frame, where the box is
//! `[-hx, hx] × [-hy, hy]` and its two slabs are the frame's axes: a ray against a box.
//!
//! In the frame the point `p` moves by `v` (`a`'s motion where the point is `a`, its reverse
//! where it is `b`). Along axis `k`, moving (`v_k ≠ 0`) on the side `σ = -sign(v_k)`, the
//! point enters the slab at `t = (σ p_k - h_k) / |v_k|` and leaves it at
//! `(σ p_k + h_k) / |v_k|`; a slab that does not move separates for good where `|p_k| > h_k`.
//! The first touch is the later entry, if it comes before the earlier exit and within the
//! motion. Its normal, from the point to the box, is `-σ e_k`, turned back to the world and
//! to `a` to `b` at the end (an oriented box's stored rotation, as its own tests take it).
//!
//! Ties are `sat.rs`'s: of two slabs entered at the same time the one closing faster (the
//! frame's axes are unit), then the first taken: the box's `v` slab before its `u` slab, as
//! its outline orders them.

use super::{BoxFrame, Swept, Toi};
use crate::lanes::Lane;

/// Whether kinds `A` and `B` are a point and a box, in either order.
pub(super) const fn takes<A: Swept, B: Swept>() -> bool {
    (A::BOX && B::ONE_VERTEX && !B::ROUND) || (B::BOX && A::ONE_VERTEX && !A::ROUND)
}

/// The first touch of `a` (kind `A`, fields `fa`) moving by `m` against `b` (kind `B`, fields
/// `fb`), one a point and the other a box, apart at the start (see the module docs): the
/// normal from `a` to `b`.
#[inline(always)]
pub(super) fn first<L: Lane, A: Swept, B: Swept>(
    fa: &[L],
    fb: &[L],
    (mx, my): (L, L),
    apart: L::Mask,
) -> Toi<L> {
    let zero = L::splat(0.0);
    if B::BOX {
        let frame = B::box_frame(fb).expect("a box has a frame");
        framed((fa[0], fa[1]), frame, (mx, my), true, apart)
    } else {
        let frame = A::box_frame(fa).expect("a box has a frame");
        framed((fb[0], fb[1]), frame, (zero - mx, zero - my), false, apart)
    }
}

/// The first touch of the point `(px, py)` moving by `(mx, my)` against the box `frame`, the
/// normal from the point to the box where `point_is_a`, from the box to the point otherwise.
#[inline(always)]
fn framed<L: Lane>(
    (px, py): (L, L),
    frame: BoxFrame<L>,
    (mx, my): (L, L),
    point_is_a: bool,
    apart: L::Mask,
) -> Toi<L> {
    let (zero, one, inf) = (L::splat(0.0), L::splat(1.0), L::splat(f32::INFINITY));
    let ((cx, cy), (hx, hy)) = (frame.centre, frame.half);
    let (x, y) = frame.local(px - cx, py - cy);
    let (vx, vy) = frame.local(mx, my);
    // Each slab: whether it moves, its entry and exit times, whether it separates for good.
    let slab = |p: L, h: L, v: L| {
        let ahead = v.lt(zero);
        let low = L::select(ahead, p, zero - p);
        let s = v.abs();
        let moves = s.gt(zero);
        let (enter, leave) = ((low - h) / s, (low + h) / s);
        let never = !moves & p.abs().gt(h);
        (
            moves,
            L::select(moves, enter, zero - inf),
            leave,
            never,
            s,
            ahead,
        )
    };
    let (moves_v, enter_v, leave_v, never_v, s_v, ahead_v) = slab(y, hy, vy);
    let (moves_u, enter_u, leave_u, never_u, s_u, ahead_u) = slab(x, hx, vx);
    // The `v` slab first, then the `u` slab where later, or as late and closing faster.
    let u = enter_u.gt(enter_v) | (enter_u.eq(enter_v) & s_u.gt(s_v));
    let enter = L::select(u, enter_u, enter_v);
    let leave = L::select(moves_u, leave_u, inf).pmin(L::select(moves_v, leave_v, inf));
    let t = zero.pmax(enter);
    // The normal from the point to the box, `-σ` along the entered axis.
    let toward = |ahead: L::Mask| L::select(ahead, L::splat(-1.0), one);
    let (lx, ly) = (
        L::select(u, toward(ahead_u), zero),
        L::select(u, zero, toward(ahead_v)),
    );
    // Back to the world, from `a` to `b`.
    let (nx, ny) = frame.world(lx, ly);
    let (nx, ny) = if point_is_a {
        (nx, ny)
    } else {
        (zero - nx, zero - ny)
    };
    let hit = (moves_u | moves_v) & !(never_u | never_v) & t.le(one) & t.le(leave);
    // Entered before the start where the overlap test found the pair apart: inside within
    // rounding (rare). As the start-of-motion rule answers a touching pair, it goes in only
    // where the entered side is the nearest of the four: no slab is left sooner than it was
    // entered ago, and none that the motion runs along is nearer its side (it slides).
    let early = hit & apart & enter.lt(zero);
    let hit = if L::any(early) {
        let depth = (zero - enter) * L::select(u, s_u, s_v);
        let resting = |moves: L::Mask, p: L, h: L| !moves & (h - p.abs()).le(depth);
        let goes_in = leave.gt(zero - enter) & !resting(moves_u, x, hx) & !resting(moves_v, y, hy);
        hit & (!early | goes_in)
    } else {
        hit
    };
    Toi { hit, t, nx, ny }
}

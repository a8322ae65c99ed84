//! Swept separating axes: the first touch of two flat outlines (no radius) apart at the start
//! (see the module docs). Each edge normal `u` of either outline, pointing from `a` to `b`,
//! carries the gap `g` between the two projections now and its closing speed `s = u · m`:
//! the gap at `t` is `g - t s`. The normals are not normalised (an entry `g / s` does not
//! depend on the normal's length): entries and exits are compared as fractions (`g / s`
//! against `g' / s'` as `g s' > g' s`, denominators positive) and divided once at the end; a
//! tie between entries compares the closing speeds along the unit normals, `s / |u|`, squared
//! and cross-multiplied; the winner's normal is normalised once.

use super::Toi;
use crate::lanes::{Lane, select_each};
use crate::narrow::lowest;
use crate::narrow::manifold::Outline;

/// The latest entry so far, `num / den` (`den > 0`), along `(nx, ny)` (`len2 = |n|²`) closing
/// at `den`.
#[derive(Clone, Copy)]
struct Entry<L> {
    num: L,
    den: L,
    nx: L,
    ny: L,
    len2: L,
}

/// The swept axes seen so far: the latest entry, the earliest exit `exit_num / exit_den`
/// (`exit_den > 0`), and whether an axis that separates the pair now never closes.
#[derive(Clone, Copy)]
pub(super) struct Axes<L: Lane> {
    entry: Entry<L>,
    exit_num: L,
    exit_den: L,
    never: L::Mask,
}

impl<L: Lane> Axes<L> {
    /// No axis yet.
    #[inline(always)]
    pub(super) fn new() -> Self {
        let (zero, one) = (L::splat(0.0), L::splat(1.0));
        Self {
            entry: Entry {
                num: L::splat(f32::NEG_INFINITY),
                den: one,
                nx: one,
                ny: zero,
                len2: one,
            },
            exit_num: L::splat(f32::INFINITY),
            exit_den: one,
            never: zero.lt(zero),
        }
    }

    /// An axis along `(nx, ny)` (from `a` to `b`, not necessarily unit) with the gap `g` now
    /// and the closing speed `s`, both in units of its length. An edge of length 0 (normal
    /// `(0, 0)`: `g = s = 0`) neither separates, enters nor exits, and changes nothing.
    #[inline(always)]
    pub(super) fn axis(&mut self, g: L, s: L, nx: L, ny: L) {
        let zero = L::splat(0.0);
        self.never = self.never | (g.gt(zero) & !s.gt(zero));
        self.enter(s.gt(zero), g, s, nx, ny);
        // A receding axis: exit at `g / s = (-g) / (-s)`.
        self.leave(s.lt(zero), zero - g, zero - s);
    }

    /// Both sides of a slab: the axis along `(nx, ny)` with the gap `gp` and the closing speed
    /// `s`, and the one along `(-nx, -ny)` with the gap `gm` and the closing speed `-s` (a
    /// box's opposite edges). The same as [`axis`](Self::axis) on each, in one pass: of a
    /// moving slab one side enters and the other exits.
    #[inline(always)]
    pub(super) fn slab(&mut self, gp: L, gm: L, s: L, nx: L, ny: L) {
        let zero = L::splat(0.0);
        let (pos, neg) = (s.gt(zero), s.lt(zero));
        self.never = self.never | (gp.gt(zero) & !pos) | (gm.gt(zero) & !neg);
        let moving = pos | neg;
        let speed = s.abs();
        let (nx, ny) = (L::select(pos, nx, zero - nx), L::select(pos, ny, zero - ny));
        self.enter(moving, L::select(pos, gp, gm), speed, nx, ny);
        self.leave(moving, zero - L::select(pos, gm, gp), speed);
    }

    /// Where `when`, an entry at `g / s` (`s > 0`) along `(nx, ny)`: taken if later than the
    /// latest so far, or as late and closing faster along the unit normal.
    #[inline(always)]
    fn enter(&mut self, when: L::Mask, g: L, s: L, nx: L, ny: L) {
        let e = &mut self.entry;
        let len2 = nx * nx + ny * ny;
        let later = (g * e.den).gt(e.num * s);
        let faster = (s * s * e.len2).gt(e.den * e.den * len2);
        let tie = (g * e.den).eq(e.num * s) & faster;
        let take = when & (later | tie);
        let old = [e.num, e.den, e.nx, e.ny, e.len2];
        [e.num, e.den, e.nx, e.ny, e.len2] = select_each(take, [g, s, nx, ny, len2], old);
    }

    /// Where `when`, an exit at `num / den` (`den > 0`): kept if sooner than the earliest.
    #[inline(always)]
    fn leave(&mut self, when: L::Mask, num: L, den: L) {
        let sooner = when & (num * self.exit_den).lt(self.exit_num * den);
        let old = [self.exit_num, self.exit_den];
        [self.exit_num, self.exit_den] = select_each(sooner, [num, den], old);
    }

    /// The axis of an edge along its outward normal `(nx, ny)` (not unit), `g` beyond it,
    /// for a motion `(mx, my)` of `a`: an edge of `a` (`of_b` false) closes at `n·m` along
    /// `n`; an edge of `b` closes at `-(n·m)` along `-n`, from `a` to `b` again.
    #[inline(always)]
    pub(super) fn edge(&mut self, g: L, (nx, ny): (L, L), (mx, my): (L, L), of_b: bool) {
        let (zero, s) = (L::splat(0.0), nx * mx + ny * my);
        if of_b {
            self.axis(g, zero - s, zero - nx, zero - ny);
        } else {
            self.axis(g, s, nx, ny);
        }
    }

    /// The first touch: the latest entry, if one was found, no separating axis stays, and it
    /// comes before the earliest exit and within the motion; its normal made unit.
    #[inline(always)]
    pub(super) fn first(self) -> Toi<L> {
        let (zero, one) = (L::splat(0.0), L::splat(1.0));
        let e = self.entry;
        let t = zero.pmax(e.num / e.den);
        let found = e.num.gt(L::splat(f32::NEG_INFINITY));
        let inv = one / e.len2.sqrt();
        Toi {
            hit: found & !self.never & t.le(one) & t.le(self.exit_num / self.exit_den),
            t,
            nx: e.nx * inv,
            ny: e.ny * inv,
        }
    }
}

/// The swept axes over both outlines' edges (see the module docs): an outline of one vertex
/// has none. Where an outline's edges come in opposite pairs (`paired[0]` for `a`, `paired[1]`
/// for `b`: edge `k + N/2` edge `k`'s opposite, as a box's), each pair is one slab: the other
/// outline projected on its normal once, both sides in one pass.
#[inline(always)]
pub(super) fn first<L: Lane, const NA: usize, const NB: usize>(
    a: &Outline<L, NA>,
    b: &Outline<L, NB>,
    m: (L, L),
    paired: [bool; 2],
) -> Toi<L> {
    let mut axes = Axes::new();
    edges(&mut axes, a, b, m, false, paired[0]);
    edges(&mut axes, b, a, m, true, paired[1]);
    axes.first()
}

/// The axes of `p`'s edges against `q` for a motion `m` of `a` (`p` is `b` where `of_b`); as
/// slabs where its edges come in opposite pairs (`paired`).
#[inline(always)]
fn edges<L: Lane, const NP: usize, const NQ: usize>(
    axes: &mut Axes<L>,
    p: &Outline<L, NP>,
    q: &Outline<L, NQ>,
    (mx, my): (L, L),
    of_b: bool,
    paired: bool,
) {
    if NP == 1 {
        return;
    }
    if paired {
        debug_assert!(NP.is_multiple_of(2), "opposite edges come in pairs");
        let half = NP / 2;
        for k in 0..half {
            let (nx, ny) = (p.mx[k], p.my[k]);
            let (low, high) = extent(nx, ny, &q.x, &q.y);
            // Beyond edge `k` along `n`, and beyond the opposite edge along `-n`.
            let near = low - (nx * p.x[k] + ny * p.y[k]);
            let far = (nx * p.x[k + half] + ny * p.y[k + half]) - high;
            let s = nx * mx + ny * my;
            if of_b {
                // From `a` to `b` along `-n` beyond edge `k` of `b`, closing at `-s`.
                axes.slab(far, near, s, nx, ny);
            } else {
                axes.slab(near, far, s, nx, ny);
            }
        }
        return;
    }
    for k in 0..NP {
        let (g, nx, ny) = beyond(p, q, k);
        axes.edge(g, (nx, ny), (mx, my), of_b);
    }
}

/// The smallest and largest projections `nx·x + ny·y` of the points `(xs[j], ys[j])`, in index
/// order.
#[inline(always)]
fn extent<L: Lane, const N: usize>(nx: L, ny: L, xs: &[L; N], ys: &[L; N]) -> (L, L) {
    let first = nx * xs[0] + ny * ys[0];
    let (mut low, mut high) = (first, first);
    for j in 1..N {
        let d = nx * xs[j] + ny * ys[j];
        (low, high) = (low.pmin(d), high.pmax(d));
    }
    (low, high)
}

/// How far `q` lies beyond edge `k` of `p` along that edge's (unnormalised) outward normal,
/// and the normal: `(gap, nx, ny)`, the gap in units of the normal's length.
#[inline(always)]
fn beyond<L: Lane, const NP: usize, const NQ: usize>(
    p: &Outline<L, NP>,
    q: &Outline<L, NQ>,
    k: usize,
) -> (L, L, L) {
    let (nx, ny) = (p.mx[k], p.my[k]);
    let limit = nx * p.x[k] + ny * p.y[k];
    (lowest(nx, ny, &q.x, &q.y) - limit, nx, ny)
}

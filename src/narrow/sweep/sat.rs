//! Swept separating axes: the first touch of two flat outlines (no radius) apart at the start
//! (see the module docs). Each edge normal `u` of either outline, pointing from `a` to `b`,
//! carries the gap `g` between the two projections now and its closing speed `s = u · m`:
//! the gap at `t` is `g - t s`, zero at `t = g / s` (which does not depend on the normal's
//! length: the normals are not normalised). The winner's normal is normalised once.
//!
//! Two ways to compare the axes' times, chosen per pair kind by what measured faster:
//!
//! - *As fractions* (two boxes: four slabs, a short sweep whose time is its chain of
//!   dependent operations): an entry `g / s` against `g' / s'` as `g s' > g' s`
//!   (denominators positive), divided once at the end; a tie between entries compares the
//!   closing speeds along the unit normals, `s / |u|`, squared and cross-multiplied.
//! - *Divided* (where a polygon takes part: eight or sixteen axes, a sweep whose time is its
//!   count of operations): each moving axis divides once, an approaching one (`s > 0`)
//!   entering at `g / s`, a receding one exiting at `g / s` (`= (-g) / (-s)`, the same bits),
//!   and the times compare as they are; ties, as rare as equal quotients, are looked for only
//!   in a block that has one, by the same speeds.

use super::{Gaps, Toi};
use crate::lanes::{Lane, select_each};
use crate::narrow::lowest;
use crate::narrow::manifold::Outline;
use crate::shape::MAX_VERTICES;

/// The latest entry so far along `(nx, ny)`, closing at `s`: at `num / s` where the axes
/// compare as fractions (`len2 = |n|²`, for ties), at `num` itself where they divide (`s = 0`
/// before one is taken, and `len2` unused).
#[derive(Clone, Copy)]
struct Entry<L> {
    num: L,
    s: L,
    nx: L,
    ny: L,
    len2: L,
}

/// The swept axes seen so far: the latest entry, the earliest exit `exit_num / exit_den`
/// (`exit_den > 0`; `exit_num` itself where the axes divide), whether an axis that
/// separates the pair now never closes, and, where watching (see [`first`]), the axis of
/// the largest gap along its unit normal (the least overlap): `[gap, closing speed, nx, ny]`.
#[derive(Clone, Copy)]
pub(super) struct Axes<L: Lane, const DIVIDE: bool, const WATCH: bool> {
    entry: Entry<L>,
    exit_num: L,
    exit_den: L,
    never: L::Mask,
    least: [L; 4],
}

impl<L: Lane, const DIVIDE: bool, const WATCH: bool> Axes<L, DIVIDE, WATCH> {
    /// No axis yet, watching for the axis of least overlap where `WATCH` (see [`first`]);
    /// the times compared as fractions, or divided where `DIVIDE`.
    #[inline(always)]
    pub(super) fn new() -> Self {
        let (zero, one) = (L::splat(0.0), L::splat(1.0));
        Self {
            entry: Entry {
                num: L::splat(f32::NEG_INFINITY),
                s: if DIVIDE { zero } else { one },
                nx: one,
                ny: zero,
                len2: one,
            },
            exit_num: L::splat(f32::INFINITY),
            exit_den: one,
            never: zero.lt(zero),
            least: [L::splat(f32::NEG_INFINITY), zero, one, zero],
        }
    }

    /// An axis along `(nx, ny)` (from `a` to `b`, not necessarily unit) with the gap `g` now
    /// and the closing speed `s`, both in units of its length. An edge of length 0 (normal
    /// `(0, 0)`: `g = s = 0`) neither separates, enters nor exits, and changes nothing.
    #[inline(always)]
    pub(super) fn axis(&mut self, g: L, s: L, nx: L, ny: L) {
        let zero = L::splat(0.0);
        let (pos, neg) = (s.gt(zero), s.lt(zero));
        self.never = self.never | (g.gt(zero) & !pos);
        self.watch_side(g, s, nx, ny);
        if DIVIDE {
            let t = g / s;
            self.enter(pos, t, s, nx, ny);
            self.leave(neg, t, s);
        } else {
            self.enter(pos, g, s, nx, ny);
            // A receding axis: exit at `g / s = (-g) / (-s)`.
            self.leave(neg, zero - g, zero - s);
        }
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
        self.watch_side(gp, s, nx, ny);
        self.watch_side(gm, zero - s, zero - nx, zero - ny);
        let speed = s.abs();
        let (nx, ny) = (L::select(pos, nx, zero - nx), L::select(pos, ny, zero - ny));
        let (enters, exits) = (L::select(pos, gp, gm), zero - L::select(pos, gm, gp));
        if DIVIDE {
            self.enter(moving, enters / speed, speed, nx, ny);
            self.leave(moving, exits / speed, speed);
        } else {
            self.enter(moving, enters, speed, nx, ny);
            self.leave(moving, exits, speed);
        }
    }

    /// Where watching, an axis along `(nx, ny)` with the gap `g` (in units of its length),
    /// closing at `s`: kept where its gap along the unit normal is the largest (an edge of
    /// length 0 gives NaN, which is not kept).
    #[inline(always)]
    fn watch_side(&mut self, g: L, s: L, nx: L, ny: L) {
        if WATCH {
            let d = g / (nx * nx + ny * ny).sqrt();
            let take = d.gt(self.least[0]);
            self.least = select_each(take, [d, s, nx, ny], self.least);
        }
    }

    /// Where `when`, an entry at `num` (divided) or `num / s` (`s > 0`) along `(nx, ny)`:
    /// taken if later than the latest so far, or as late and closing faster along the unit
    /// normal.
    #[inline(always)]
    fn enter(&mut self, when: L::Mask, num: L, s: L, nx: L, ny: L) {
        let e = &mut self.entry;
        if DIVIDE {
            let mut take = when & num.gt(e.num);
            let tie = when & num.eq(e.num);
            if L::any(tie) {
                // Along the unit normals, `s / |n|` against `e.s / |e.n|`: products of three
                // lengths (squared, of six, they overflowed for polygons about 1e6 across).
                let (len, old) = (nx * nx + ny * ny, e.nx * e.nx + e.ny * e.ny);
                take = take | (tie & (s * old.sqrt()).gt(e.s * len.sqrt()));
            }
            let old = [e.num, e.s, e.nx, e.ny];
            [e.num, e.s, e.nx, e.ny] = select_each(take, [num, s, nx, ny], old);
        } else {
            let len2 = nx * nx + ny * ny;
            let later = (num * e.s).gt(e.num * s);
            let faster = (s * s * e.len2).gt(e.s * e.s * len2);
            let tie = (num * e.s).eq(e.num * s) & faster;
            let take = when & (later | tie);
            let old = [e.num, e.s, e.nx, e.ny, e.len2];
            [e.num, e.s, e.nx, e.ny, e.len2] = select_each(take, [num, s, nx, ny, len2], old);
        }
    }

    /// Where `when`, an exit at `num` (divided) or `num / den` (`den > 0`): kept if sooner
    /// than the earliest.
    #[inline(always)]
    fn leave(&mut self, when: L::Mask, num: L, den: L) {
        if DIVIDE {
            self.exit_num = L::select(when & num.lt(self.exit_num), num, self.exit_num);
        } else {
            let sooner = when & (num * self.exit_den).lt(self.exit_num * den);
            let old = [self.exit_num, self.exit_den];
            [self.exit_num, self.exit_den] = select_each(sooner, [num, den], old);
        }
    }

    /// The axis of an edge along its outward normal `(nx, ny)` (not unit), `g` beyond it,
    /// for a motion `(mx, my)`: an edge of `a` closes at `n·m` along `n`. An edge of `b`
    /// closes at `-(n·m)` along `-n`, from `a` to `b` again: its axes are taken with the
    /// motion reversed, `-m`, between two [`turn`](Self::turn)s, which leave the normals of
    /// `a`'s edges as they were and reverse those of `b`'s.
    #[inline(always)]
    pub(super) fn edge(&mut self, g: L, (nx, ny): (L, L), (mx, my): (L, L)) {
        self.axis(g, nx * mx + ny * my, nx, ny);
    }

    /// The latest entry's normal reversed (and the watched axis's): before and after the
    /// edges of `b`, whose normals are taken as they come (see [`edge`](Self::edge)).
    #[inline(always)]
    fn turn(&mut self) {
        let zero = L::splat(0.0);
        (self.entry.nx, self.entry.ny) = (zero - self.entry.nx, zero - self.entry.ny);
        if WATCH {
            let [d, s, lx, ly] = self.least;
            self.least = [d, s, zero - lx, zero - ly];
        }
    }

    /// `b`'s edges, taken by `take(self, -m)` for a motion `m` of `a` between two
    /// [`turn`](Self::turn)s (see [`edge`](Self::edge)).
    #[inline(always)]
    fn of_b(&mut self, (mx, my): (L, L), take: impl FnOnce(&mut Self, (L, L))) {
        let zero = L::splat(0.0);
        self.turn();
        take(self, (zero - mx, zero - my));
        self.turn();
    }

    /// The first touch: the latest entry, if one was found, no separating axis stays, and it
    /// comes before the earliest exit and within the motion; its normal made unit. Also the
    /// lanes that hit at the start by an entry before it (see [`first`]).
    #[inline(always)]
    pub(super) fn first(self) -> (Toi<L>, L::Mask) {
        let (zero, one) = (L::splat(0.0), L::splat(1.0));
        let e = self.entry;
        let (t, found, len2, exit) = if DIVIDE {
            // `s > 0` once an entry is taken (one at `-∞`, from a quotient that overflowed,
            // included).
            let len2 = e.nx * e.nx + e.ny * e.ny;
            (e.num, e.s.gt(zero), len2, self.exit_num)
        } else {
            let found = e.num.gt(L::splat(f32::NEG_INFINITY));
            (e.num / e.s, found, e.len2, self.exit_num / self.exit_den)
        };
        // An entry before the start: the pair overlaps in these axes' arithmetic, touching
        // within rounding where its overlap test found it apart (see [`first`]); where
        // watching, such a lane is answered as the start-of-motion rule answers a touching
        // pair: a hit along the axis of least overlap where the motion closes along it.
        let early = t.lt(zero);
        let t = zero.pmax(t);
        let hit = found & !self.never & t.le(one) & t.le(exit);
        let inv = one / len2.sqrt();
        let (nx, ny) = (e.nx * inv, e.ny * inv);
        if !WATCH {
            return (Toi { hit, t, nx, ny }, hit & early);
        }
        let [_, s, lx, ly] = self.least;
        let linv = one / (lx * lx + ly * ly).sqrt();
        let start = found & !self.never & s.gt(zero);
        let [nx, ny] = select_each(early, [lx * linv, ly * linv], [nx, ny]);
        let hit = (early & start) | (!early & hit);
        (Toi { hit, t, nx, ny }, early)
    }
}

/// The first touch over two polygons' [`Gaps`] for a motion `(mx, my)` of `a`: `a`'s edges,
/// then `b`'s, as [`first`] takes them; and the lanes that hit at the start by an entry before
/// it (see [`first`]).
#[inline(always)]
pub(super) fn stored<L: Lane>(gaps: &Gaps<L>, m: (L, L)) -> (Toi<L>, L::Mask) {
    over(Axes::<L, true, false>::new(), gaps, m)
}

/// [`stored`] watching (see [`first`]), out of line and cold: only a block with a lane
/// inside within rounding takes it.
#[inline(never)]
#[cold]
pub(super) fn stored_watching<L: Lane>(gaps: &Gaps<L>, m: (L, L)) -> Toi<L> {
    over(Axes::<L, true, true>::new(), gaps, m).0
}

/// [`stored`] on `axes`.
#[inline(always)]
fn over<L: Lane, const WATCH: bool>(
    mut axes: Axes<L, true, WATCH>,
    [of_a, of_b]: &Gaps<L>,
    m: (L, L),
) -> (Toi<L>, L::Mask) {
    let take = |axes: &mut Axes<L, true, WATCH>, [gs, nxs, nys]: &[[L; MAX_VERTICES]; 3], m| {
        for ((&g, &nx), &ny) in gs.iter().zip(nxs).zip(nys) {
            axes.edge(g, (nx, ny), m);
        }
    };
    take(&mut axes, of_a, m);
    axes.of_b(m, |axes, m| take(axes, of_b, m));
    axes.first()
}

/// The swept axes over both outlines' edges (see the module docs), and the lanes that hit at
/// the start by an entry before it: an outline of one vertex has none. Where an outline's
/// edges come in opposite pairs (`paired[0]` for `a`, `paired[1]` for `b`: edge `k + N/2` edge
/// `k`'s opposite, as a box's), each pair is one slab: the other outline projected on its
/// normal once, both sides in one pass. The axes divide where a polygon takes part (see the
/// module docs).
///
/// **Watching** (`WATCH`): also the axis of least overlap, which answers the lanes that hit at
/// the start by an entry before it. Where the overlap test found such a pair apart, it is
/// inside within rounding, and as the start-of-motion rule answers a touching pair, it hits
/// only where the motion closes along that axis (else it slides along, or leaves, a face that
/// it touches within rounding). Rare: the caller watches only in a block with such a lane.
#[inline(always)]
pub(super) fn first<L: Lane, const WATCH: bool, const NA: usize, const NB: usize>(
    a: &Outline<L, NA>,
    b: &Outline<L, NB>,
    m: (L, L),
    paired: [bool; 2],
) -> (Toi<L>, L::Mask) {
    if NA == MAX_VERTICES || NB == MAX_VERTICES {
        both(Axes::<L, true, WATCH>::new(), a, b, m, paired)
    } else {
        both(Axes::<L, false, WATCH>::new(), a, b, m, paired)
    }
}

/// [`first`] on `axes`: `a`'s edges, then `b`'s.
#[inline(always)]
fn both<L: Lane, const DIVIDE: bool, const WATCH: bool, const NA: usize, const NB: usize>(
    mut axes: Axes<L, DIVIDE, WATCH>,
    a: &Outline<L, NA>,
    b: &Outline<L, NB>,
    m: (L, L),
    paired: [bool; 2],
) -> (Toi<L>, L::Mask) {
    edges(&mut axes, a, b, m, false, paired[0]);
    edges(&mut axes, b, a, m, true, paired[1]);
    axes.first()
}

/// The axes of `p`'s edges against `q` for a motion `m` of `a` (`p` is `b` where `of_b`); as
/// slabs where its edges come in opposite pairs (`paired`).
#[inline(always)]
fn edges<L: Lane, const DIVIDE: bool, const WATCH: bool, const NP: usize, const NQ: usize>(
    axes: &mut Axes<L, DIVIDE, WATCH>,
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
    let take = |axes: &mut Axes<L, DIVIDE, WATCH>, m| {
        for k in 0..NP {
            let (g, nx, ny) = beyond(p, q, k);
            axes.edge(g, (nx, ny), m);
        }
    };
    if of_b {
        axes.of_b((mx, my), take);
    } else {
        take(axes, (mx, my));
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

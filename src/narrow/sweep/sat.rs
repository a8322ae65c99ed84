//! Swept separating axes: the first touch of two flat outlines (no radius) apart at the start
//! (see the module docs). Each edge normal `u` of either outline, pointing from `a` to `b`,
//! carries the gap `g` between the two projections now and its closing speed `s = u · m`:
//! the gap at `t` is `g - t s`. The normals are not normalised (an entry `g / s` does not
//! depend on the normal's length): entries and exits are compared as fractions (`g / s`
//! against `g' / s'` as `g s' > g' s`, denominators positive) and divided once at the end; a
//! tie between entries compares the closing speeds along the unit normals, `s / |u|`, squared
//! and cross-multiplied; the winner's normal is normalised once.

use super::Toi;
use crate::lanes::Lane;
use crate::narrow::lowest;
use crate::narrow::manifold::Outline;

/// The latest entry so far, `num / den` (`den > 0`), along `(nx, ny)` (`len2 = |n|²`) closing
/// at `den`.
struct Entry<L> {
    num: L,
    den: L,
    nx: L,
    ny: L,
    len2: L,
}

/// The swept axes over both outlines' edges (see the module docs): an outline of one vertex
/// has none.
#[inline(always)]
pub(super) fn first<L: Lane, const NA: usize, const NB: usize>(
    a: &Outline<L, NA>,
    b: &Outline<L, NB>,
    mx: L,
    my: L,
) -> Toi<L> {
    let (zero, one) = (L::splat(0.0), L::splat(1.0));
    let mut entry = Entry {
        num: L::splat(f32::NEG_INFINITY),
        den: one,
        nx: one,
        ny: zero,
        len2: one,
    };
    // The earliest exit `num / den` (`den > 0`), and whether a separating axis never closes.
    let (mut exit_num, mut exit_den) = (L::splat(f32::INFINITY), one);
    let mut never = zero.lt(zero);
    let mut axis = |g: L, s: L, nx: L, ny: L| {
        // An edge of length 0 (normal `(0, 0)`: `g = s = 0`) neither separates, enters nor
        // exits, and changes nothing.
        never = never | (g.gt(zero) & !s.gt(zero));
        let len2 = nx * nx + ny * ny;
        let later = (g * entry.den).gt(entry.num * s);
        let faster = (s * s * entry.len2).gt(entry.den * entry.den * len2);
        let tie = (g * entry.den).eq(entry.num * s) & faster;
        let take = s.gt(zero) & (later | tie);
        entry.num = L::select(take, g, entry.num);
        entry.den = L::select(take, s, entry.den);
        entry.nx = L::select(take, nx, entry.nx);
        entry.ny = L::select(take, ny, entry.ny);
        entry.len2 = L::select(take, len2, entry.len2);
        // A receding axis: exit at `g / s = (-g) / (-s)`.
        let (eg, es) = (zero - g, zero - s);
        let sooner = s.lt(zero) & (eg * exit_den).lt(exit_num * es);
        exit_num = L::select(sooner, eg, exit_num);
        exit_den = L::select(sooner, es, exit_den);
    };
    if NA > 1 {
        for k in 0..NA {
            let (g, ux, uy) = beyond(a, b, k);
            axis(g, ux * mx + uy * my, ux, uy);
        }
    }
    if NB > 1 {
        for k in 0..NB {
            let (g, wx, wy) = beyond(b, a, k);
            axis(g, zero - (wx * mx + wy * my), zero - wx, zero - wy);
        }
    }
    let t = zero.pmax(entry.num / entry.den);
    let found = entry.num.gt(L::splat(f32::NEG_INFINITY));
    let inv = one / entry.len2.sqrt();
    Toi {
        hit: found & !never & t.le(one) & t.le(exit_num / exit_den),
        t,
        nx: entry.nx * inv,
        ny: entry.ny * inv,
    }
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

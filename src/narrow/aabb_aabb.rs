//! AABB–AABB: two closed boxes meet when their intervals meet on both axes, and the intervals
//! `[a0, a1]` and `[b0, b1]` meet when `a0 <= b1` and `b0 <= a1`.
//!
//! Those two comparisons alone would let an inverted box (`min > max`) hit a large one, so each
//! box's own `min <= max` is tested too. The four comparisons per axis are written as three:
//! `max(a0, b0) <= min(a1, b1)`, `a0 <= a1`, `b0 <= b1`; without NaN the first is exactly
//! `a0 <= b1 & b0 <= a1 & a0 <= a1 & b0 <= b1`. The pinned `max`/`min` can pass over a NaN in
//! their first operand (`a0` or `a1`), but then `a0 <= a1` is false; a NaN in `b0` or `b1` comes
//! out of them and fails the first comparison (and `b0 <= b1`). Fewer comparisons matter at
//! sixteen lanes, where each one writes an AVX-512 mask register and their throughput, not the
//! arithmetic, bounds this test (`tools/examples/lane_widths.rs`). The test is symmetric: exchanging
//! the boxes changes at most the sign of a zero that `max`/`min` return, which no comparison
//! sees.
//!
//! **Contact**: the smallest of the four moves of `b` that clear `a`: `+x` (`a.max_x -
//! b.min_x`), `-x` (`b.max_x - a.min_x`), `+y`, `-y`, in that order.
//!
//! **Sweep** (one shape moving, [`SweepPair`](crate::SweepPair)): swept separating axes over
//! both outlines' edge normals, written once for every flat pair in `narrow/sweep/sat.rs`: the
//! latest entry before the earliest exit, the entry axis's normal.

use super::contact::{Best, pair_kernels};
use super::{max, min};
use crate::lanes::{Lane, Simd};
use crate::shape::Aabb;

/// Whether `a` and `b` overlap, touching included.
#[inline]
#[must_use]
pub fn reference(a: &Aabb, b: &Aabb) -> bool {
    let x = (max(a.min_x, b.min_x) <= min(a.max_x, b.max_x))
        & (a.min_x <= a.max_x)
        & (b.min_x <= b.max_x);
    let y = (max(a.min_y, b.min_y) <= min(a.max_y, b.max_y))
        & (a.min_y <= a.max_y)
        & (b.min_y <= b.max_y);
    x & y
}

/// [`reference`](fn@reference) on every lane of `V`: all ones where a lane overlaps.
#[inline(always)]
pub(crate) fn hits<V: Simd>([a0x, a0y, a1x, a1y]: [V; 4], [b0x, b0y, b1x, b1y]: [V; 4]) -> V {
    let x = a0x.pmax(b0x).simd_le(a1x.pmin(b1x)) & a0x.simd_le(a1x) & b0x.simd_le(b1x);
    let y = a0y.pmax(b0y).simd_le(a1y.pmin(b1y)) & a0y.simd_le(a1y) & b0y.simd_le(b1y);
    x & y
}

pair_kernels!(a: Aabb, AabbX8, AabbX16; b: Aabb, AabbX8, AabbX16);

/// The candidates of this pair, generic over [`Lane`] (see the module docs).
#[inline(always)]
fn contact<L: Lane>([a0x, a0y, a1x, a1y]: [L; 4], [b0x, b0y, b1x, b1y]: [L; 4]) -> Best<L> {
    let (zero, one, minus) = (L::splat(0.0), L::splat(1.0), L::splat(-1.0));
    let mut best = Best::new();
    best.offer(a1x - b0x, one, zero);
    best.offer(b1x - a0x, minus, zero);
    best.offer(a1y - b0y, zero, one);
    best.offer(b1y - a0y, zero, minus);
    best
}

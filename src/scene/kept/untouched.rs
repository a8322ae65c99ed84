//! Which runs of a moving list a frame of few escapers leaves untouched, so that the lists
//! following the escapers copy those runs as they are rather than candidate by candidate.
//!
//! A moving candidate is a pair of indices, filed under its first (see
//! [`Candidates::kind_of`](crate::scene::candidates::Candidates::kind_of)). An index stays
//! where it is (a pushed shape takes a new one, a removed one leaves a hole), so a candidate
//! stays as it is unless one of its two indices is an escaper's (a slot that moved, was
//! pushed, removed or taken by another shape), and a new one is merged in at its first
//! index. So a block of first indices (2 to the [`BLOCK_SHIFT`]) is *touched* when it holds
//! an escaper, the first index of a new candidate, or the first index `x` of a candidate
//! `(x, e)` of an escaper `e`. `x` did not escape, so its enlarged box is the one it had when
//! the pair was filed, which overlapped `e`'s old enlarged box then (that is what a candidate
//! is): a query of the grid over `e`'s old box finds `x`. A block marked without need is only
//! followed candidate by candidate, as every block was before; a touched block left unmarked
//! would keep an escaper's candidate, so the query's box is grown a little beyond the old one
//! ([`grown`]), far beyond any rounding of the comparisons that filed the pair.
//!
//! The mixed lists (a moving shape and a static neighbour) are followed candidate by
//! candidate as before: they are kept in about the order of their moving shapes, and a pair
//! whose static shape comes first in its kernel's order lies among the moving shapes' pairs,
//! not at its first position, so no block of first positions holds all of a position's pairs.
//!
//! A block that holds pads (the places a task of the last walk left empty, see `written.rs`)
//! is marked too, so that the pads are dropped rather than copied.
//!
//! The marks cost a grid query per escaper (about what its query for new candidates costs),
//! so they are made only where the escapers are few for the slots ([`FEW`]) and used only
//! where they leave most blocks untouched.

use super::Kept;
use crate::room::reserve_to;
use crate::scene::blocks::{BLOCK_SHIFT, set};
use crate::scene::candidates::PAIR_KINDS;
use std::sync::atomic::Ordering::Relaxed;

/// The most escapers, as a share `1 / FEW` of the moving slots, for which a frame marks the
/// touched blocks: each touches a few blocks (its own, those of the shapes in the rows its box
/// spans in the grid's order), and where they are more, most blocks are touched anyway.
pub(super) const FEW: usize = 1024;

/// The old enlarged box `b` grown by a 2⁻²⁰th of its largest coordinate on every side (a
/// NaN box, of a shape that was not in the grid, stays NaN and finds nothing).
pub(super) fn grown(b: [f32; 4]) -> [f32; 4] {
    let big = b.iter().fold(0.0f32, |m, x| m.max(x.abs()));
    let d = big * (1.0 / (1u32 << 20) as f32) + f32::MIN_POSITIVE;
    [b[0] - d, b[1] - d, b[2] + d, b[3] + d]
}

/// The blocks of first indices below `n`, and one more.
fn blocks_of(n: usize) -> usize {
    (n >> BLOCK_SHIFT) + 1
}

impl Kept {
    /// Room for the marks of every block of the moving indices (see
    /// [`mark_touched`](Self::mark_touched)).
    pub(super) fn room_for_touched(&mut self) {
        reserve_to(&mut self.touched, blocks_of(self.top).div_ceil(64));
    }

    /// Marks the blocks of first indices that this call's escapers touch (see the module
    /// docs) in `self.touched`, after their queries filed their new candidates in `added`;
    /// leaves it empty where the escape check kept no old boxes (the escapers too many for
    /// the marks to pay, [`FEW`], or a removed slot's box lost), or where they touch more
    /// than half of the blocks.
    pub(super) fn mark_touched(&mut self) {
        self.touched.clear();
        if self.old_fat.len() != self.escapers.len() {
            return;
        }
        let blocks = blocks_of(self.top);
        self.touched.resize(blocks.div_ceil(64), 0);
        let bits = &mut self.touched;
        let mut mark = |i: u32| set(bits, (i >> BLOCK_SHIFT) as usize);
        let (grid, ids) = (&self.grid, &self.ids);
        for (&slot, &old) in self.escapers.iter().zip(&self.old_fat) {
            mark(self.index_of[slot as usize].load(Relaxed));
            grid.overlapping(grown(old), &mut |x| mark(ids[x as usize]));
        }
        for k in 0..PAIR_KINDS {
            for c in self.candidates.added(k) {
                mark(c.0);
            }
        }
        // The blocks that hold pads, so that none is copied as it lies (see `written.rs`). The
        // indices only grow between rebuilds, so every pad lies below `self.top`; one beyond
        // this call's blocks would leave every block followed rather than index past the marks.
        for (_, p) in self.candidates.pads() {
            if (p >> BLOCK_SHIFT) as usize >= blocks {
                bits.clear();
                return;
            }
            mark(p);
        }
        let marked: u32 = bits.iter().map(|w| w.count_ones()).sum();
        if marked as usize * 2 > blocks {
            bits.clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_grown_box_holds_the_old_one_and_nan_stays_nan() {
        for b in [
            [0.0, 0.0, 0.0, 0.0],
            [-1e30, 3.0, 1e-30, 1e30],
            [1.0e6, 1.0e6, 1.0e6 + 0.125, 1.0e6 + 0.125],
        ] {
            let g = grown(b);
            assert!(
                g[0] < b[0] && g[1] < b[1] && g[2] > b[2] && g[3] > b[3],
                "{b:?}"
            );
        }
        assert!(grown([f32::NAN, 0.0, 1.0, 1.0])[0].is_nan());
    }
}

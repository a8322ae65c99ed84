//! The candidates a frame of a world mostly at rest leaves as they are: where neither shape
//! of a moving candidate changed since the last call, the kernel would compute the flag it
//! holds from the same bits, so none runs.
//!
//! A candidate's answer is a function of its two records alone (kind, fields, id and filter
//! index, whose rule cannot change while a shape holds it; a moving polygon's record points
//! to its vertices' copy, which stays as long as the slot does not change: see `copies.rs`).
//! The escape check lists the slots whose stamps are newer than the last call's version (see
//! `escape.rs`); an index is *still* when its slot is in neither that list nor the escapers
//! (which include the slots pushed or removed since). Its record is then the one the last
//! call gathered at that index and decided its candidates with, and a candidate of two still
//! indices keeps its [`HIT`](crate::scene::candidates::HIT) flag: the pair is in the answer
//! as it was.
//!
//! The static neighbours follow the indices among the positions the kernels read: one is
//! still when its copy is, that is when no other static shape took its slot since the last
//! call (the static shapes list those, see `statics.rs`). So a mixed candidate of a still
//! index and a still neighbour keeps its flag too.
//!
//! A frame of few changed shapes need not even look at the others' candidates: a block of
//! first indices (see [`BLOCK_SHIFT`]) is *busy* when it may hold a moving candidate of an
//! index that is not still, and the kernels' picking passes over each run of the other
//! blocks at once (see [`Shared::busy_run`](crate::scene::pack::Shared::busy_run)). A
//! candidate `(x, c)` of a changed index `c` lies in `x`'s block: where neither escaped, both
//! enlarged boxes are the ones the pair was filed by, so a query of the grid over `c`'s
//! (grown, see [`grown`]) finds `x`, as the escapers' marks find their neighbours
//! (`untouched.rs`, whose blocks are busy too: they hold the escapers' old and new candidates
//! and the pads).
//!
//! That holds only where the answer follows from the flags (the events of
//! [`Kept::overlapping_pairs`]: no rebuild, no change of the static shapes, no unbounded
//! shape), and the check lists the changed slots only where the stamps tell and they are
//! few.

use super::Kept;
use super::escapers::MIN_QUERIES;
use super::tasks::{each_task, plan};
use super::untouched::grown;
use crate::scene::blocks::{BLOCK_SHIFT, set};
use std::sync::atomic::Ordering::Relaxed;

/// The most changed slots, as a share `1 / FEW_BUSY` of the indices, for which a frame marks
/// the busy blocks: each mark is a grid query (about 0.37 µs at 1 M shapes at rest, Zen 5),
/// and each changed shape makes a few blocks busy. At 1 M, marks from a 256th (3 000 changed)
/// cost a millisecond more than they saved, at a 526th they broke even, at a 1000th they saved
/// 0.7 ms and at a 10 000th 1.8 (`docs/benchmarks.md`).
const FEW_BUSY: usize = 512;

impl Kept {
    /// Sets `self.still`, a bit per position (the indices, then the static neighbours), where
    /// its record is the one the last call decided its candidates with (see the module docs);
    /// leaves it empty (every candidate decided)
    /// where the answer does not follow from the flags (`events` false) or the escape check
    /// did not list the changed slots.
    pub(super) fn mark_still(&mut self, events: bool) {
        self.still.clear();
        self.busy.clear();
        if !events || !self.listed {
            return;
        }
        let top = self.top;
        // The neighbours after the indices, where their copies are kept and the static shapes
        // know which changed (those the copy after this writes).
        let neighbours = self.statics.changed_in(&self.neighbours, 0);
        let end = top + neighbours.map_or(0, |_| self.neighbours.len());
        self.still.resize(end.div_ceil(64), u64::MAX);
        if let (Some(last), 1..) = (self.still.last_mut(), end % 64) {
            *last = (1 << (end % 64)) - 1;
        }
        let still = &mut self.still;
        let mut moved = |i: usize| still[i / 64] &= !(1 << (i % 64));
        for &slot in self.changed.iter().chain(&self.escapers) {
            moved(self.index_of[slot as usize].load(Relaxed) as usize);
        }
        for &c in neighbours.unwrap_or_default() {
            moved(top + c as usize);
        }
        self.mark_busy();
    }

    /// Sets `self.busy`, a bit per block of first indices that may hold a moving candidate of
    /// an index not still (see the module docs), where the changed slots are few
    /// ([`FEW_BUSY`]) and this call's escapers marked the blocks they touch, or there are
    /// none; leaves it empty where that is not so, or most blocks are busy. The blocks past
    /// the last index are busy.
    fn mark_busy(&mut self) {
        let (top, followed) = (self.top, self.follow.is_some());
        if (followed && self.touched.is_empty()) || self.changed.len() * FEW_BUSY > top {
            return;
        }
        let blocks = (top >> BLOCK_SHIFT) + 1;
        let words = blocks.div_ceil(64);
        if followed {
            self.busy.extend_from_slice(&self.touched);
        }
        self.busy.resize(words, 0);
        if !blocks.is_multiple_of(64) {
            self.busy[words - 1] |= u64::MAX << (blocks % 64);
        }
        let tasks = plan(&mut self.tasks, self.changed.len(), MIN_QUERIES);
        let (grid, ids, fat) = (&self.grid, &self.ids, &self.fat);
        let (changed, index_of) = (&self.changed, &self.index_of);
        each_task(tasks, |_, t| {
            t.marks.clear();
            let mut mark = |i: u32| {
                let b = i >> BLOCK_SHIFT;
                if t.marks.last() != Some(&b) {
                    t.marks.push(b);
                }
            };
            for &slot in &changed[t.range.clone()] {
                mark(index_of[slot as usize].load(Relaxed));
                if let Some(&b) = fat.get(slot as usize) {
                    grid.overlapping(grown(b), &mut |x| mark(ids[x as usize]));
                }
            }
        });
        let busy = &mut self.busy;
        for &b in tasks.iter().flat_map(|t| &t.marks) {
            set(busy, b as usize);
        }
        let marked: usize = busy.iter().map(|w| w.count_ones() as usize).sum();
        if marked * 4 > (words * 64) * 3 {
            busy.clear();
        }
    }
}

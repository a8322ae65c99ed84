//! The candidates a frame of a world mostly at rest leaves as they are: where neither shape
//! of a moving candidate changed since the last call, the kernel would compute the flag it
//! holds from the same bits, so none runs.
//!
//! A candidate's answer is a function of its two records alone (kind, fields, id and filter
//! index, whose rule cannot change while a shape holds it), but for a moving polygon, whose
//! record points to its vertices' copy, written anew in every call. The escape check lists
//! the slots whose stamps are newer than the last call's version, and every moving polygon
//! (see `escape.rs`); an index is *still* when its slot is in neither that list nor the
//! escapers (which include the slots pushed or removed since). Its record is then the one
//! the last call gathered at that index and decided its candidates with, and a candidate of
//! two still indices keeps its [`HIT`](crate::scene::candidates::HIT) flag: the pair is in
//! the answer as it was.
//!
//! The static neighbours follow the indices among the positions the kernels read: one is
//! still when its copy is, that is when no other static shape took its slot since the last
//! call (the static shapes list those, see `statics.rs`). So a mixed candidate of a still
//! index and a still neighbour keeps its flag too.
//!
//! That holds only where the answer follows from the flags (the events of
//! [`Kept::overlapping_pairs`]: no rebuild, no change of the static shapes, no unbounded
//! shape), and the check lists the changed slots only where the stamps tell and they are
//! few.

use super::Kept;
use std::sync::atomic::Ordering::Relaxed;

impl Kept {
    /// Sets `self.still`, a bit per position (the indices, then the static neighbours), where
    /// its record is the one the last call decided its candidates with (see the module docs);
    /// leaves it empty (every candidate decided)
    /// where the answer does not follow from the flags (`events` false) or the escape check
    /// did not list the changed slots.
    pub(super) fn mark_still(&mut self, events: bool) {
        self.still.clear();
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
    }
}

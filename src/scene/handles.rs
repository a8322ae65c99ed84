//! The scene's ids: which are live, where each lives, what a removed one becomes, and the
//! user data each carries.
//!
//! **An id is an index and a generation.** Its low [`INDEX_BITS`] bits are an *index* (into
//! the tables below), the bits above up to the side bit its *generation*: how many times the
//! index was handed out before. A push takes the smallest free index and the next generation,
//! so an id, once removed, is never handed out again: a stale id answers like an unknown one,
//! and a kept finder, which compares pairs by id, sees the removed shape's pairs end and the
//! new shape's begin whatever was pushed in between. An index whose generations are all used
//! is retired (never handed out again, not even after a `clear`); a scene that never removes
//! hands out 0, 1, 2, … (generation 0).

use super::SIDE;
use core::cmp::Reverse;
use std::collections::BinaryHeap;

/// Bits of an id that give its index.
pub(crate) const INDEX_BITS: u32 = 24;
/// The index bits of an id.
const INDEX: u32 = (1 << INDEX_BITS) - 1;
/// One generation more.
const NEXT: u32 = 1 << INDEX_BITS;
/// The last generation an index is handed out with.
const LAST_GENERATION: u32 = (SIDE >> INDEX_BITS) - 1;
/// A free index's slot entry.
pub(crate) const FREE: u32 = u32::MAX;

/// The index of `id` (its low bits).
#[inline(always)]
pub(crate) const fn index(id: u32) -> usize {
    (id & INDEX) as usize
}

/// Per index: the slot entry of its live shape (or [`FREE`]), the id it was last handed out
/// as, and its user data; and the free indices, smallest first.
#[derive(Clone, Debug, Default)]
pub(crate) struct Handles {
    /// Per index: the store's slot entry of the live shape, or [`FREE`].
    slots: Vec<u32>,
    /// Per index: the id it was last handed out as (live or removed).
    ids: Vec<u32>,
    /// Per index: the user data of the live shape (0 when free).
    data: Vec<u64>,
    /// Removed indices that still have a generation left, smallest first.
    free: BinaryHeap<Reverse<u32>>,
}

impl Handles {
    /// A new id (slot entry `slot`), or `None` when every index below
    /// [`MAX_SHAPES`](super::MAX_SHAPES) is live or retired.
    pub(crate) fn issue(&mut self, slot: u32) -> Option<u32> {
        let id = match self.free.pop() {
            Some(Reverse(i)) => self.ids[i as usize] + NEXT,
            None if self.slots.len() < super::MAX_SHAPES => {
                self.slots.push(FREE);
                self.ids.push(0);
                self.data.push(0);
                (self.slots.len() - 1) as u32
            }
            None => return None,
        };
        let i = index(id);
        (self.slots[i], self.ids[i], self.data[i]) = (slot, id, 0);
        Some(id)
    }

    /// The slot entry of `id`, when it is live.
    #[inline(always)]
    pub(crate) fn slot(&self, id: u32) -> Option<u32> {
        let i = index(id);
        match (self.ids.get(i), self.slots.get(i)) {
            (Some(&last), Some(&s)) if last == id && s != FREE => Some(s),
            _ => None,
        }
    }

    /// Moves live `id` to slot entry `slot`.
    #[inline(always)]
    pub(crate) fn place(&mut self, id: u32, slot: u32) {
        self.slots[index(id)] = slot;
    }

    /// Frees live `id`: its index is handed out again under the next generation, or retired
    /// when it has none left.
    pub(crate) fn release(&mut self, id: u32) {
        let i = index(id);
        (self.slots[i], self.data[i]) = (FREE, 0);
        if id >> INDEX_BITS < LAST_GENERATION {
            self.free.push(Reverse(i as u32));
        }
    }

    /// The user data of `id`, when it is live.
    #[inline(always)]
    pub(crate) fn data(&self, id: u32) -> Option<u64> {
        self.slot(id).map(|_| self.data[index(id)])
    }

    /// Sets the user data of `id`; false (and nothing changes) when it is not live.
    pub(crate) fn set_data(&mut self, id: u32, data: u64) -> bool {
        let live = self.slot(id).is_some();
        if live {
            self.data[index(id)] = data;
        }
        live
    }

    /// The live ids with their slot entries, by index.
    pub(crate) fn live(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.ids
            .iter()
            .zip(&self.slots)
            .filter(|&(_, &s)| s != FREE)
            .map(|(&id, &s)| (id, s))
    }

    /// Handles whose indices were last handed out as `ids` (index `i` as `ids[i]`), all free
    /// until [`take`](Self::take)n; [`refill`](Self::refill) then lists the free ones.
    #[cfg(feature = "serde")]
    pub(crate) fn restored(ids: Vec<u32>) -> Result<Self, String> {
        if ids.len() > super::MAX_SHAPES {
            return Err(format!("{} indices, more than MAX_SHAPES", ids.len()));
        }
        if let Some((i, id)) = ids
            .iter()
            .enumerate()
            .find(|&(i, &id)| index(id) != i || id & SIDE != 0)
        {
            return Err(format!("id {id} cannot be the id of index {i}"));
        }
        let n = ids.len();
        Ok(Self {
            slots: vec![FREE; n],
            data: vec![0; n],
            ids,
            free: BinaryHeap::new(),
        })
    }

    /// Makes restored `id` live at slot entry `slot`.
    #[cfg(feature = "serde")]
    pub(crate) fn take(&mut self, id: u32, slot: u32) -> Result<(), String> {
        let i = index(id);
        match (self.ids.get(i), self.slots.get(i)) {
            (Some(&last), Some(&FREE)) if last == id => {
                self.slots[i] = slot;
                Ok(())
            }
            (Some(&last), Some(&FREE)) => Err(format!("shape id {id}: its index was {last}")),
            (Some(_), Some(_)) => Err(format!("shape id {id} twice")),
            _ => Err(format!("shape id {id}: no such index")),
        }
    }

    /// Lists the free indices that have a generation left, after a restore.
    #[cfg(feature = "serde")]
    pub(crate) fn refill(&mut self) {
        self.free = (0..self.ids.len())
            .filter(|&i| self.slots[i] == FREE && self.ids[i] >> INDEX_BITS < LAST_GENERATION)
            .map(|i| Reverse(i as u32))
            .collect();
    }

    /// The id each index was last handed out as.
    #[cfg(feature = "serde")]
    pub(crate) fn last_ids(&self) -> &[u32] {
        &self.ids
    }

    /// Frees every live id, as [`release`](Self::release) one by one: the generations stay, so
    /// that no id handed out before is handed out again.
    pub(crate) fn release_all(&mut self) {
        for i in 0..self.slots.len() {
            if self.slots[i] != FREE {
                self.release(self.ids[i]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_removed_id_comes_back_under_the_next_generation_and_never_as_itself() {
        let mut h = Handles::default();
        let (a, b) = (h.issue(10).unwrap(), h.issue(11).unwrap());
        assert_eq!((a, b), (0, 1));
        h.release(a);
        assert_eq!(h.slot(a), None);
        let c = h.issue(12).unwrap();
        assert_eq!(index(c), 0);
        assert_ne!(c, a);
        assert_eq!(
            (h.slot(a), h.slot(c), h.slot(b)),
            (None, Some(12), Some(11))
        );
        assert!(!h.set_data(a, 5));
        assert!(h.set_data(c, 5));
        assert_eq!((h.data(a), h.data(c)), (None, Some(5)));
        h.release(c);
        assert_eq!(h.data(c), None);
        // A new shape at the same index starts at 0.
        let d = h.issue(13).unwrap();
        assert_eq!(h.data(d), Some(0));
        assert_eq!(h.live().collect::<Vec<_>>(), [(d, 13), (b, 11)]);
    }

    #[test]
    fn an_index_is_retired_after_its_last_generation() {
        let mut h = Handles::default();
        let mut seen = std::collections::HashSet::new();
        for _ in 0..=LAST_GENERATION {
            let id = h.issue(0).unwrap();
            assert_eq!(index(id), 0);
            assert!(id & SIDE == 0);
            assert!(seen.insert(id), "id {id} handed out twice");
            h.release(id);
        }
        // Index 0 is spent: the next push takes index 1, and a clear does not bring it back.
        assert_eq!(h.issue(0), Some(1));
        h.release_all();
        assert_eq!(h.issue(0), Some(1 | 1 << INDEX_BITS));
        assert_eq!(h.issue(0), Some(2));
    }
}

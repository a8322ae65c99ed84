//! The kept finder's indices: the moving slots numbered in the grid's order at a rebuild, so
//! that the candidates of neighbouring shapes read neighbouring records, and each call's
//! records gathered in that order.

use super::Kept;
use super::follow::STAYED;
use super::lists::TAG;
use super::tasks::chunk_len;
use crate::scene::records::Record;
use crate::scene::store::Scene;
use rayon::prelude::*;

impl Kept {
    /// Numbers the `n` moving slots in the order of the grid just built over their enlarged
    /// boxes, whose items are the slots (the slots left out of it after, ascending): the grid's
    /// items become its positions, which are the slots' indices.
    pub(super) fn number(&mut self, n: usize) {
        let entered = self.grid.len();
        let ids = &mut self.ids[..entered];
        self.slot_of.clear();
        self.slot_of.extend_from_slice(ids);
        // Every slot's index, `u32::MAX` until it has one.
        self.index_of.clear();
        self.index_of.resize(n, u32::MAX);
        for (x, &s) in ids.iter().enumerate() {
            self.index_of[s as usize] = x as u32;
        }
        for s in 0..n {
            if self.index_of[s] == u32::MAX {
                self.index_of[s] = self.slot_of.len() as u32;
                self.slot_of.push(s as u32);
            }
        }
        ids.par_iter_mut()
            .enumerate()
            .for_each(|(x, id)| *id = x as u32);
        self.top = n;
        self.escaped.clear();
        self.escaped.resize(n, STAYED);
    }

    /// Indices for the slots pushed since the last call: each its own slot, beyond those the
    /// finder has (which then number as many as the slots).
    pub(super) fn number_new(&mut self, n: usize) {
        let top = self.top.max(n);
        self.slot_of.extend(self.top as u32..top as u32);
        self.index_of.extend(self.top as u32..top as u32);
        self.escaped.resize(top, STAYED);
        self.top = top;
    }

    /// Every index's record, read from the scene by its slot (inert for a hole), and its
    /// [`TAG`], in parallel, for the kernels and the filing.
    pub(super) fn gather(&mut self, scene: &Scene) {
        let records = &scene.moving.records;
        self.local.resize(self.top, Record::INERT);
        self.kinds.resize(self.top, 0);
        let chunk = chunk_len(self.top);
        self.local
            .par_chunks_mut(chunk)
            .zip(self.kinds.par_chunks_mut(chunk))
            .zip(self.slot_of.par_chunks(chunk))
            .for_each(|((local, kinds), slots)| {
                for ((r, k), &s) in local.iter_mut().zip(kinds).zip(slots) {
                    *r = records.get(s as usize).copied().unwrap_or(Record::INERT);
                    *k = r.kind & TAG;
                }
            });
    }
}

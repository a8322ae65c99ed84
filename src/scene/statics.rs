//! What a kept finder files of a scene's static shapes: a grid over their padded boxes and
//! their records in its order, built once per change of the static shapes, and the
//! neighbours: a copy of each static shape that is a candidate of some moving shape (its
//! record, and its polygon's vertices), counted by the candidates that use it. A frame reads
//! the static shapes only through the neighbours, a few hundred kilobytes that stay in cache,
//! instead of scattered lines of a level of many megabytes.

use super::records::{COPIED, KIND, POLYGON, Record, STATIC};
use super::store::Scene;
use crate::broadphase::counting_sort::Staged;
use crate::broadphase::grid::Grid;
use crate::shape::Polygon;
use bytemuck::Zeroable;
use rayon::prelude::*;

/// No neighbour slot.
const NONE: u32 = u32::MAX;

/// Fewest records per rayon task of the copy into grid order.
const MIN_TASK: usize = 16 * 1024;

/// The static shapes as a kept finder files them.
#[derive(Debug, Default)]
pub(crate) struct Statics {
    /// The static epoch this was filed for.
    pub(crate) filed: Option<u64>,
    /// The grid over the static shapes' padded boxes, and their records in its order.
    pub(crate) grid: Grid,
    pub(crate) sorted: Vec<Record>,
    ids: Vec<u32>,
    staged: Vec<Staged<u32>>,
    /// The neighbours by slot: record (a polygon's pointing to its copied vertices, flagged
    /// [`COPIED`]), vertices, users, grid position; the free slots; the slot of each grid
    /// position.
    pub(crate) records: Vec<Record>,
    pub(crate) polygons: Vec<Polygon>,
    users: Vec<u32>,
    position: Vec<u32>,
    free: Vec<u32>,
    slot_of: Vec<u32>,
}

impl Statics {
    /// Files `scene`'s static shapes anew; no neighbours.
    pub(crate) fn file(&mut self, scene: &Scene) {
        let store = &scene.statics;
        self.ids.resize(store.len(), 0);
        self.grid.build(
            &store.boxes,
            scene.cell_size,
            |i| i,
            &mut self.staged,
            &mut self.ids,
        );
        let s = self.grid.len();
        self.sorted.resize(s, Record::INERT);
        let (ids, records) = (&self.ids[..s], &store.records);
        self.sorted
            .par_chunks_mut(MIN_TASK)
            .zip(ids.par_chunks(MIN_TASK))
            .for_each(|(out, ids)| {
                for (r, &i) in out.iter_mut().zip(ids) {
                    *r = records[i as usize];
                }
            });
        self.slot_of.clear();
        self.slot_of.resize(s, NONE);
        self.forget_neighbours();
        self.filed = Some(scene.static_epoch);
    }

    /// Drops every neighbour.
    pub(crate) fn forget_neighbours(&mut self) {
        for &p in &self.position {
            if let Some(slot) = self.slot_of.get_mut(p as usize) {
                *slot = NONE;
            }
        }
        self.records.clear();
        self.polygons.clear();
        self.users.clear();
        self.position.clear();
        self.free.clear();
    }

    /// The neighbour slot of the static shape at grid position `s`, copied from `scene` if it
    /// is not a neighbour yet, counting one more user.
    pub(crate) fn acquire(&mut self, scene: &Scene, s: u32) -> u32 {
        let slot = self.slot_of[s as usize];
        if slot != NONE {
            self.users[slot as usize] += 1;
            return slot;
        }
        let mut r = self.sorted[s as usize];
        debug_assert!(r.kind & STATIC != 0);
        let polygon = if r.kind & KIND == POLYGON {
            *scene.statics.polygon(r.fields[0].to_bits())
        } else {
            Polygon::zeroed()
        };
        let slot = match self.free.pop() {
            Some(slot) => slot,
            None => {
                self.records.push(Record::INERT);
                self.polygons.push(Polygon::zeroed());
                self.users.push(0);
                self.position.push(0);
                (self.records.len() - 1) as u32
            }
        };
        if r.kind & KIND == POLYGON {
            r.kind |= COPIED;
            r.fields[0] = f32::from_bits(slot);
        }
        let k = slot as usize;
        (self.records[k], self.polygons[k]) = (r, polygon);
        (self.users[k], self.position[k]) = (1, s);
        self.slot_of[s as usize] = slot;
        slot
    }

    /// One user fewer of neighbour `slot`.
    pub(crate) fn release(&mut self, slot: u32) {
        let k = slot as usize;
        self.users[k] -= 1;
        if self.users[k] == 0 {
            self.slot_of[self.position[k] as usize] = NONE;
            self.free.push(slot);
        }
    }
}

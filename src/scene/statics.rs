//! What a kept finder files of a scene's static shapes: a grid over their padded boxes and
//! their records in its order, built once per change of the static shapes, and the
//! neighbours: a copy of each static shape that is near some moving shape (its record, and
//! its polygon's vertices). A frame reads the static shapes only through the neighbours, a
//! few megabytes that stay in place after the moving records from call to call (only a slot
//! another static shape took is copied again), instead of scattered lines of a level of many
//! megabytes.
//!
//! Each moving slot also keeps its neighbourhood: the static shapes whose boxes overlap its
//! far box (its padded box grown by a larger margin than its enlarged box), each a neighbour,
//! with its box. A moving shape that leaves its enlarged box but whose new enlarged box still
//! lies inside its far box finds its static candidates among those few, in one contiguous
//! read, instead of in the level's grid (scattered reads of many megabytes). Neighbours are
//! counted by the neighbourhoods that hold them, so a candidate never copies one. (Far boxes
//! four times the margin cut the time a 10 k-shape frame over a 1 M-tile level spent finding
//! candidates by about 40 %, the neighbours then about three times as many; six times cut
//! it by another 40 %, from about 290 to 175 µs, and the mean frame by 13 %.)

use super::records::{COPIED, Copied, KIND, POLYGON, Record, STATIC};
use super::store::Scene;
use crate::broadphase::counting_sort::Staged;
use crate::broadphase::grid::Grid;
use crate::shape::Polygon;
use bytemuck::Zeroable;
use core::ops::Range;
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
    /// [`COPIED`]), vertices, users, grid position; the free slots, and those freed in this
    /// call (free from the next, so that a neighbour's record stays as it was until the call
    /// has named the candidates it drops); the slot of each grid position.
    pub(crate) records: Vec<Record>,
    pub(crate) polygons: Vec<Copied>,
    /// Each neighbour slot's id and kind word, as its record has them: the lookups by slot
    /// (naming a dropped pair, filing a new one) read these few hundred kilobytes rather than
    /// a line of the records each.
    pub(crate) labels: Vec<(u32, u32)>,
    users: Vec<u32>,
    position: Vec<u32>,
    /// The neighbour slots whose records changed since [`copy_into`](Self::copy_into), and
    /// whether all may have.
    changed: Vec<u32>,
    all_changed: bool,
    free: Vec<u32>,
    freed: Vec<u32>,
    slot_of: Vec<u32>,
    /// Per moving slot: its far box (NaN `min_x`: no neighbourhood) and its neighbourhood's
    /// span in `hood`; the neighbourhoods, `(neighbour slot, box)`, with garbage between
    /// them (`live` entries are in use), and the second buffer of a compaction.
    far: Vec<[f32; 4]>,
    spans: Vec<(u32, u32)>,
    hood: Vec<(u32, [f32; 4])>,
    spare: Vec<(u32, [f32; 4])>,
    live: usize,
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
        self.labels.clear();
        self.changed.clear();
        self.all_changed = true;
        self.polygons.clear();
        self.users.clear();
        self.position.clear();
        self.free.clear();
        self.freed.clear();
        self.far.clear();
        self.spans.clear();
        self.hood.clear();
        self.live = 0;
    }

    /// The far box of moving slot `e` (NaN `min_x`: none).
    pub(crate) fn far(&self, e: usize) -> [f32; 4] {
        self.far.get(e).copied().unwrap_or([f32::NAN; 4])
    }

    /// The neighbourhood of moving slot `e`: `(neighbour slot, box)` of each static shape
    /// whose box overlaps its far box.
    pub(crate) fn hood(&self, e: usize) -> &[(u32, [f32; 4])] {
        let (start, len) = self.spans.get(e).copied().unwrap_or((0, 0));
        &self.hood[start as usize..(start + len) as usize]
    }

    /// The neighbours' records into `into` from position `at` on: only those that changed
    /// since the last call, where `kept` says `into` holds the last call's copy there (and it
    /// is as long), else all of them.
    pub(crate) fn copy_into(&mut self, into: &mut Vec<Record>, at: usize, kept: bool) {
        if kept && !self.all_changed && into.len() == at + self.records.len() {
            for &c in &self.changed {
                into[at + c as usize] = self.records[c as usize];
            }
        } else {
            into.truncate(at);
            into.extend_from_slice(&self.records);
        }
        self.changed.clear();
        self.all_changed = false;
    }

    /// Moving slot `e`'s neighbourhood anew: far box `far`, and the static shapes at grid
    /// positions `found`, each made a neighbour (copied from `scene` if it is not one yet);
    /// the old neighbourhood's neighbours lose a user. The new one's span in `hood` is
    /// returned.
    pub(crate) fn refill(
        &mut self,
        scene: &Scene,
        e: usize,
        far: [f32; 4],
        found: &[u32],
    ) -> Range<usize> {
        if self.far.len() <= e {
            self.far.resize(e + 1, [f32::NAN; 4]);
            self.spans.resize(e + 1, (0, 0));
        }
        let start = self.hood.len();
        // The new neighbours first, so that one in both is never dropped and copied again.
        for &s in found {
            let c = self.acquire(scene, s);
            self.hood.push((c, self.grid.box_at(s as usize)));
        }
        self.drop_hood(e);
        self.far[e] = far;
        self.spans[e] = (start as u32, found.len() as u32);
        self.live += found.len();
        start..self.hood.len()
    }

    /// Entry `k` of the neighbourhoods (in a span [`refill`](Self::refill) answered).
    pub(crate) fn entry(&self, k: usize) -> (u32, [f32; 4]) {
        self.hood[k]
    }

    /// Drops moving slot `e`'s neighbourhood: its neighbours lose a user.
    fn drop_hood(&mut self, e: usize) {
        let Some(span) = self.spans.get_mut(e) else {
            return;
        };
        let (start, len) = core::mem::take(span);
        self.far[e] = [f32::NAN; 4];
        self.live -= len as usize;
        for k in start..start + len {
            let c = self.hood[k as usize].0;
            self.release(c);
        }
    }

    /// Frees the neighbour slots released in the last call, drops the neighbourhoods of the
    /// moving slots from `n` on (shapes removed), and compacts the neighbourhoods when more
    /// than half of `hood` is garbage. Called once per call, before any neighbourhood changes.
    pub(crate) fn tidy(&mut self, n: usize) {
        self.free.append(&mut self.freed);
        for e in n..self.far.len() {
            self.drop_hood(e);
        }
        self.far.truncate(n);
        self.spans.truncate(n);
        if self.hood.len() > 2 * self.live + 4096 {
            self.spare.clear();
            self.spare.reserve(self.hood.len());
            for span in &mut self.spans {
                let (start, len) = *span;
                *span = (self.spare.len() as u32, len);
                self.spare
                    .extend_from_slice(&self.hood[start as usize..(start + len) as usize]);
            }
            core::mem::swap(&mut self.hood, &mut self.spare);
        }
    }

    /// The neighbour slot of the static shape at grid position `s`, copied from `scene` if it
    /// is not a neighbour yet, counting one more user.
    fn acquire(&mut self, scene: &Scene, s: u32) -> u32 {
        let slot = self.slot_of[s as usize];
        if slot != NONE {
            self.users[slot as usize] += 1;
            return slot;
        }
        let mut r = self.sorted[s as usize];
        debug_assert!(r.kind & STATIC != 0);
        let slot = match self.free.pop() {
            Some(slot) => slot,
            None => {
                self.records.push(Record::INERT);
                self.labels.push((u32::MAX, 0));
                self.polygons.push(Copied(Polygon::zeroed()));
                self.users.push(0);
                self.position.push(0);
                (self.records.len() - 1) as u32
            }
        };
        let k = slot as usize;
        // Only a polygon's vertices are copied (another shape's slot there is never read).
        if r.kind & KIND == POLYGON {
            self.polygons[k] = Copied(*scene.statics.polygon(r.fields[0].to_bits()));
            r.kind |= COPIED;
            r.fields[0] = f32::from_bits(slot);
        }
        self.records[k] = r;
        self.labels[k] = (r.id, r.kind);
        (self.users[k], self.position[k]) = (1, s);
        self.changed.push(slot);
        self.slot_of[s as usize] = slot;
        slot
    }

    /// One user fewer of neighbour `slot`.
    fn release(&mut self, slot: u32) {
        let k = slot as usize;
        self.users[k] -= 1;
        if self.users[k] == 0 {
            self.slot_of[self.position[k] as usize] = NONE;
            self.freed.push(slot);
        }
    }
}

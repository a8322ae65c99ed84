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

use super::records::{COPIED, Copied, Record, STATIC};
use super::store::Scene;
use crate::broadphase::counting_sort::Staged;
use crate::broadphase::grid::Grid;
use crate::concat::{concat_all, copy_parts};
use crate::shape::Polygon;
use crate::tasks::piece_len;
use bytemuck::Zeroable;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

/// No neighbour slot.
pub(crate) const NONE: u32 = u32::MAX;

/// In `slot_of` during a pass of [`Statics::join`]: a static shape some task will make a
/// neighbour ([`Statics::settle_new`]).
const CLAIMED: u32 = u32::MAX - 1;

/// New neighbours from which [`Statics::settle_new`] sorts them and copies them on rayon's
/// threads.
const MIN_NEW: usize = 4096;

/// Fewest records per rayon task of the copy into grid order.
const MIN_TASK: usize = 16 * 1024;

/// Fewest entries of the neighbourhoods a piece of [`Statics::set_hoods`]' fill writes.
const MIN_FILL: usize = 4 * 1024;

/// Neighbourhoods from which [`Statics::set_hoods`] runs on rayon's threads (each task reads
/// every one, a few nanoseconds each).
const MIN_HOODS: usize = 1024;

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
    /// Counted atomically while a pass of [`join`](Self::join) and [`leave`](Self::leave)
    /// runs on rayon's threads.
    users: Vec<AtomicU32>,
    position: Vec<u32>,
    /// The neighbour slots whose records changed since [`copy_into`](Self::copy_into), and
    /// whether all may have.
    changed: Vec<u32>,
    all_changed: bool,
    free: Vec<u32>,
    freed: Vec<u32>,
    /// Scratch of [`free_emptied`](Self::free_emptied) and [`settle_new`](Self::settle_new).
    emptied: Vec<u32>,
    new: Vec<u32>,
    /// The neighbour slot of each grid position ([`NONE`]; [`CLAIMED`] during a pass of
    /// [`join`](Self::join)), read and claimed atomically on rayon's threads.
    slot_of: Vec<AtomicU32>,
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
        self.slot_of.resize_with(s, || AtomicU32::new(NONE));
        self.forget_neighbours();
        self.filed = Some(scene.static_epoch);
    }

    /// Drops every neighbour.
    pub(crate) fn forget_neighbours(&mut self) {
        for &p in &self.position {
            if let Some(slot) = self.slot_of.get_mut(p as usize) {
                *slot.get_mut() = NONE;
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

    /// The neighbour slots whose records changed since the last [`copy_into`](Self::copy_into),
    /// where `into` holds that copy from position `at` on (it is as long; no static shape was
    /// added since): the only ones the next `copy_into` writes. `None`: every one may have.
    pub(crate) fn changed_in(&self, into: &[Record], at: usize) -> Option<&[u32]> {
        (!self.all_changed && into.len() == at + self.records.len()).then_some(&self.changed[..])
    }

    /// The neighbours' records into `into` from position `at` on: only those that changed
    /// since the last call (see [`changed_in`](Self::changed_in)), where `kept` says `into`
    /// holds the last call's copy there, else all of them.
    pub(crate) fn copy_into(&mut self, into: &mut Vec<Record>, at: usize, kept: bool) {
        if let Some(changed) = self.changed_in(into, at).filter(|_| kept) {
            for &c in changed {
                into[at + c as usize] = self.records[c as usize];
            }
        } else {
            into.truncate(at);
            into.extend_from_slice(&self.records);
        }
        self.changed.clear();
        self.all_changed = false;
    }

    /// The neighbour slot of the static shape at grid position `s`, with one user more, or
    /// [`NONE`] where it is no neighbour yet: then the first task to find it claims it and
    /// pushes `s` to `claimed`, and after the pass [`settle_new`](Self::settle_new) gives it a
    /// slot and [`join_new`](Self::join_new) counts its users. On any thread, beside
    /// [`leave`](Self::leave).
    pub(crate) fn join(&self, s: u32, claimed: &mut Vec<u32>) -> u32 {
        let at = &self.slot_of[s as usize];
        match at.load(Relaxed) {
            NONE => {
                if at.compare_exchange(NONE, CLAIMED, Relaxed, Relaxed).is_ok() {
                    claimed.push(s);
                }
                NONE
            }
            CLAIMED => NONE,
            slot => {
                self.users[slot as usize].fetch_add(1, Relaxed);
                slot
            }
        }
    }

    /// The slot [`settle_new`](Self::settle_new) gave the static shape at grid position `s`,
    /// with one user more; on any thread.
    pub(crate) fn join_new(&self, s: u32) -> u32 {
        let slot = self.slot_of[s as usize].load(Relaxed);
        self.users[slot as usize].fetch_add(1, Relaxed);
        slot
    }

    /// Gives each static shape `claimed` in a pass of [`join`](Self::join) a neighbour slot,
    /// in ascending order of grid position whatever the order they were claimed in (the same
    /// slots on any thread count): the free slots first, then new ones at the end; each
    /// copied from `scene` (a polygon's vertices too), with no user yet. From [`MIN_NEW`] of
    /// them, sorted and copied on rayon's threads (one at a time, a few cache misses each,
    /// the 1.15 M neighbours a rebuild of 500 k moving shapes among 500 k tiles found took
    /// 42 ms).
    pub(crate) fn settle_new<P: Sync>(
        &mut self,
        scene: &Scene,
        parts: &[P],
        claimed: &(impl Fn(&P) -> &[u32] + Sync),
    ) {
        let mut new = core::mem::take(&mut self.new);
        concat_all([&mut new], parts, &|p, _| claimed(p), &|_, _, s| s);
        let many = new.len() >= piece_len(MIN_NEW);
        if many {
            new.par_sort_unstable();
        } else {
            new.sort_unstable();
        }
        let reused = new.len().min(self.free.len());
        let sorted = &self.sorted;
        // The neighbour of slot `slot` for the static shape at grid position `s`: its record
        // (a polygon's pointing to its copied vertices), and its vertices.
        let record = |slot: u32, s: u32| {
            let mut r = sorted[s as usize];
            debug_assert!(r.kind & STATIC != 0);
            if r.is_polygon() {
                r.kind |= COPIED;
                r.fields[0] = f32::from_bits(slot);
            }
            r
        };
        let vertices = |s: u32| {
            let r = &sorted[s as usize];
            Copied(if r.is_polygon() {
                *scene.statics.polygon(r.fields[0].to_bits())
            } else {
                Polygon::zeroed()
            })
        };
        // The free slots first, last freed first.
        for &s in &new[..reused] {
            let slot = self.free.pop().expect("a free slot for each reused one");
            let k = slot as usize;
            let r = record(slot, s);
            (self.records[k], self.labels[k], self.polygons[k]) = (r, (r.id, r.kind), vertices(s));
            (*self.users[k].get_mut(), self.position[k]) = (0, s);
            *self.slot_of[s as usize].get_mut() = slot;
            self.changed.push(slot);
        }
        // Then new slots at the end, each list extended in place (filled first and then
        // written, the lists' 100 bytes a neighbour were 6 ms of 450 k new neighbours).
        let base = self.records.len();
        let min = if many { MIN_NEW / 4 } else { usize::MAX };
        let tail = || {
            (new[reused..].par_iter().enumerate())
                .with_min_len(min)
                .map(|(i, &s)| ((base + i) as u32, s))
        };
        self.records
            .par_extend(tail().map(|(slot, s)| record(slot, s)));
        self.labels.par_extend(
            (self.records[base..].par_iter())
                .with_min_len(min)
                .map(|r| (r.id, r.kind)),
        );
        self.polygons.par_extend(tail().map(|(_, s)| vertices(s)));
        self.users.par_extend(tail().map(|_| AtomicU32::new(0)));
        self.position.par_extend(tail().map(|(_, s)| s));
        self.changed.par_extend(tail().map(|(slot, _)| slot));
        let slot_of = &self.slot_of;
        tail().for_each(|(slot, s)| slot_of[s as usize].store(slot, Relaxed));
        self.new = new;
    }

    /// Moving slot `e`'s neighbourhood's neighbours one user fewer each, on any thread beside
    /// [`join`](Self::join); each left without users on the way is pushed to `emptied` (another
    /// shape may join it after: [`free_emptied`](Self::free_emptied) frees those without users
    /// at the end). The neighbourhood stays in place until [`set_hoods`](Self::set_hoods).
    pub(crate) fn leave(&self, e: usize, emptied: &mut Vec<u32>) {
        for &(c, _) in self.hood(e) {
            if self.users[c as usize].fetch_sub(1, Relaxed) == 1 {
                emptied.push(c);
            }
        }
    }

    /// After a pass of [`join`](Self::join) and [`leave`](Self::leave): frees the neighbour
    /// slots among `emptied` that have no user left, in ascending order whatever the order
    /// they came in (free from the next call, so that a neighbour's record stays as it was
    /// until the call has named the candidates it drops).
    pub(crate) fn free_emptied(&mut self, emptied: impl Iterator<Item = u32>) {
        let mut list = core::mem::take(&mut self.emptied);
        list.clear();
        list.extend(emptied);
        list.sort_unstable();
        list.dedup();
        for &c in &list {
            if *self.users[c as usize].get_mut() == 0 {
                *self.slot_of[self.position[c as usize] as usize].get_mut() = NONE;
                self.freed.push(c);
            }
        }
        self.emptied = list;
    }

    /// Neighbourhoods anew, each in place of the one its moving slot
    /// [`leave`](Self::leave)s (slots below `n`): `requery_of(p)` gives part `p`'s, `(moving
    /// slot, entries, far box)`, in order, their entries one after another in `hood_of(p)`,
    /// `(neighbour slot, box)` of each static shape the far box overlaps (each counted as a
    /// user by [`join`](Self::join) or [`join_new`](Self::join_new)). The entries are appended
    /// in part order. From [`MIN_HOODS`] neighbourhoods on rayon's threads: the entries copied
    /// in halves of the parts, each far box and span written by the task that owns its slot's
    /// range of slots (the slots lie all over: each task reads every neighbourhood and writes
    /// its own). (One at a time, a few cache misses each, they were 9 ms of a frame in which
    /// 80 k shapes among a million left their far boxes.)
    pub(crate) fn set_hoods<P: Sync>(
        &mut self,
        n: usize,
        parts: &[P],
        hood_of: &(impl Fn(&P) -> &[(u32, [f32; 4])] + Sync),
        requery_of: &(impl Fn(&P) -> &[(u32, u32, [f32; 4])] + Sync),
    ) {
        if self.far.len() < n {
            self.far.resize(n, [f32::NAN; 4]);
            self.spans.resize(n, (0, 0));
        }
        let start = self.hood.len();
        let total: usize = parts.iter().map(|p| hood_of(p).len()).sum();
        // Room for the entries, filled on rayon's threads before they are copied in (a fill
        // on this thread was most of 8–20 ms of a call that kept 80 k neighbourhoods).
        let fill = (0..total).into_par_iter().with_min_len(piece_len(MIN_FILL));
        self.hood.par_extend(fill.map(|_| (NONE, [f32::NAN; 4])));
        copy_parts(
            [&mut self.hood[start..]],
            parts,
            &|p, _| hood_of(p),
            &|_, _, x| x,
        );
        // Each task writes the slots from `first` on, as many as `far` holds; the entries its
        // neighbourhoods replace.
        let write = |first: usize, far: &mut [[f32; 4]], spans: &mut [(u32, u32)]| {
            let (mut old, mut at) = (0, start as u32);
            for &(e, count, b) in parts.iter().flat_map(requery_of) {
                if let Some(k) = (e as usize).checked_sub(first).filter(|&k| k < far.len()) {
                    old += spans[k].1 as usize;
                    (far[k], spans[k]) = (b, (at, count));
                }
                at += count;
            }
            old
        };
        let shapes: usize = parts.iter().map(|p| requery_of(p).len()).sum();
        let old: usize = if shapes < piece_len(MIN_HOODS) {
            write(0, &mut self.far, &mut self.spans)
        } else {
            let chunk = self.far.len().div_ceil(rayon::current_num_threads()).max(1);
            (self
                .far
                .par_chunks_mut(chunk)
                .zip(self.spans.par_chunks_mut(chunk)))
            .enumerate()
            .map(|(k, (far, spans))| write(k * chunk, far, spans))
            .sum()
        };
        self.live = self.live + total - old;
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

    /// One user fewer of neighbour `slot`.
    fn release(&mut self, slot: u32) {
        let k = slot as usize;
        let users = self.users[k].get_mut();
        *users -= 1;
        if *users == 0 {
            *self.slot_of[self.position[k] as usize].get_mut() = NONE;
            self.freed.push(slot);
        }
    }
}

//! The moving polygons' copies: the vertices of every polygon among the kept finder's
//! records, each record then pointing to its copy (flagged [`GATHERED`]), so that the lane
//! blocks read them near each other rather than at the store's handles.
//!
//! A gather of every record copies every polygon, in index order ([`Copies::copy_all`]).
//! Between two such gathers the copies stay: a record written anew at its index (the slot
//! changed since the last call, see `escape.rs`) goes through [`Copies::put`], and a polygon's
//! copy is written again at its slot's last place, or at a new place at the end. A polygon at
//! rest keeps its record and its copy, so a call need not look at it. Each slot's place is
//! kept by slot, which the escape check reads in order: reading it from the record at the
//! slot's index, a miss per changed slot, made a million moving shapes' check 20 ms dearer.

use super::lists::TAG;
use super::tasks::chunk_len;
use crate::scene::records::{Copied, GATHERED, Record, is_polygon};
use crate::scene::store::Scene;
use crate::shape::Polygon;
use crate::tasks::piece_len;
use bytemuck::Zeroable;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

/// Fewest polygons whose copies [`copy_polygons`] splits among tasks.
const MIN_POLYGONS: usize = 4 * 1024;

/// Copies no record points to (of polygons that became other shapes or were removed), beyond
/// as many as the live ones, from which the gather copies every polygon anew.
const STALE_MIN: usize = 1024;

/// A slot's place where its record is not a polygon.
const NONE: u32 = u32::MAX;

/// The copies of the moving polygons' vertices (see the module docs).
#[derive(Debug, Default)]
pub(super) struct Copies {
    /// The copies, by place: a record flagged [`GATHERED`] holds its place as its first field.
    pub(super) of: Vec<Copied>,
    /// Each slot's place ([`NONE`]: its record is not a polygon): atomics, so that
    /// [`copy_all`](Self::copy_all) writes them from rayon's threads, with no ordering.
    place_of: Vec<AtomicU32>,
    /// The places a record points to.
    live: usize,
    /// What [`write`](Self::write) copies: each place and the store's handle of its polygon.
    writes: Vec<(u32, u32)>,
    /// How many polygons each chunk of the gather holds.
    counts: Vec<usize>,
}

impl Copies {
    /// Room for the places of `slots` slots (none for those beyond the last).
    pub(super) fn size(&mut self, slots: usize) {
        if self.place_of.len() < slots {
            self.place_of.resize_with(slots, || AtomicU32::new(NONE));
        }
    }

    /// Writes record `r`, read from the scene at `slot` (in [`size`](Self::size)'s room), at
    /// the slot's index, whose record and tag are `at` and `tag`: a polygon's record then
    /// points to the slot's last place, or a new one, and its copy is listed for
    /// [`write`](Self::write).
    #[inline(always)]
    pub(super) fn put(&mut self, slot: usize, (at, tag): (&mut Record, &mut u32), r: &Record) {
        let last = self.place_of[slot].load(Relaxed);
        (*at, *tag) = (*r, r.kind & TAG);
        if !r.is_polygon() {
            if last != NONE {
                self.live -= 1;
                self.place_of[slot].store(NONE, Relaxed);
            }
            return;
        }
        let place = if last == NONE {
            self.of.push(Copied(Polygon::zeroed()));
            self.live += 1;
            let place = (self.of.len() - 1) as u32;
            self.place_of[slot].store(place, Relaxed);
            place
        } else {
            last
        };
        self.writes.push((place, r.fields[0].to_bits()));
        at.fields[0] = f32::from_bits(place);
        at.kind |= GATHERED;
    }

    /// Copies the polygons [`put`](Self::put) listed from the scene. `false`, copying
    /// nothing, where the copies no record points to have grown more than the live ones (see
    /// [`STALE_MIN`]): the caller then gathers every record anew.
    pub(super) fn write(&mut self, scene: &Scene) -> bool {
        if self.of.len() - self.live > self.live + STALE_MIN {
            return false;
        }
        for &(place, handle) in &self.writes {
            self.of[place as usize] = Copied(*scene.moving.polygon(handle));
        }
        self.writes.clear();
        true
    }

    /// The vertices of every moving polygon among `local`, records read from the scene
    /// (tags `kinds`, slots `slot_of`), copied anew in index order (see [`copy_polygons`]).
    pub(super) fn copy_all(
        &mut self,
        (local, kinds, slot_of): (&mut [Record], &[u32], &[u32]),
        scene: &Scene,
    ) {
        self.writes.clear();
        if !scene.moving.has_polygons() {
            // With no live copy every place is `NONE` already: the room stays, where emptied
            // it would be filled again by the next call's `size`, on one thread (0.1 ms of a
            // million-shape frame).
            if self.live > 0 {
                self.place_of.clear();
            }
            self.of.clear();
            self.live = 0;
            return;
        }
        let slots = local.len();
        self.place_of.truncate(slots);
        self.size(slots);
        let chunk = chunk_len(slots);
        // The polygons of each chunk, counted from the kinds rather than in the gather's loop:
        // an add per record there, chained through the records' cache misses, cost a gather
        // of a million records 6 ms. Each task clears as many slots' places on the way.
        // A count a chunk of both, as the zip below pairs them.
        self.counts
            .resize(kinds.len().min(slots).div_ceil(chunk), 0);
        let each = (kinds.par_chunks(chunk))
            .zip(self.place_of.par_chunks(chunk))
            .zip(self.counts.par_iter_mut());
        crate::awake::for_each(each, |((kinds, places), count)| {
            places.iter().for_each(|p| p.store(NONE, Relaxed));
            *count = kinds.iter().filter(|&&k| is_polygon(k)).count();
        });
        // Only a longer list than the last is written before it is copied into.
        self.live = self.counts.iter().sum();
        self.of.resize(self.live, Copied(Polygon::zeroed()));
        let to = (&mut self.of[..], &self.place_of[..]);
        copy_polygons((local, slot_of), chunk, &self.counts, to, 0, scene);
    }
}

/// The vertices of every moving polygon among `local` (chunks of `chunk` records, `counts[c]`
/// polygons in chunk `c`) copied into `out` in index order, each record then pointing to its
/// copy (flagged [`GATHERED`], its field the copy's place, counted from `base`); on rayon's
/// threads, in halves of the chunks, from [`MIN_POLYGONS`] polygons (outside the pool, on this
/// thread: see [`piece_len`]).
///
/// The lane blocks read a polygon's vertices once per candidate, at the handle its record
/// holds: in a scene that stores its shapes out of grid order, a miss each time (at a million
/// shapes, half of them polygons, about a quarter of the frame). Here each is read once, at
/// handles read in index order from the records already gathered, so that the misses overlap
/// (copying it with its record, a second miss that waited for the first, cost twice as much).
fn copy_polygons(
    (local, slot_of): (&mut [Record], &[u32]),
    chunk: usize,
    counts: &[usize],
    (out, place_of): (&mut [Copied], &[AtomicU32]),
    base: u32,
    scene: &Scene,
) {
    if out.is_empty() {
        return;
    }
    if counts.len() <= 1 || out.len() < piece_len(MIN_POLYGONS) {
        let polygons = local
            .iter_mut()
            .zip(slot_of)
            .filter(|(r, _)| r.is_polygon());
        for (place, ((r, &slot), copy)) in (base..).zip(polygons.zip(out)) {
            *copy = Copied(*scene.moving.polygon(r.fields[0].to_bits()));
            r.fields[0] = f32::from_bits(place);
            r.kind |= GATHERED;
            place_of[slot as usize].store(place, Relaxed);
        }
        return;
    }
    let mid = counts.len() / 2;
    let before: usize = counts[..mid].iter().sum();
    let at = (mid * chunk).min(local.len());
    let (low, high) = local.split_at_mut(at);
    let (low_slots, high_slots) = slot_of.split_at(at);
    let (first, rest) = out.split_at_mut(before);
    let (low_counts, high_counts) = counts.split_at(mid);
    let high_base = base + before as u32;
    crate::awake::join(
        || {
            copy_polygons(
                (low, low_slots),
                chunk,
                low_counts,
                (first, place_of),
                base,
                scene,
            )
        },
        || {
            copy_polygons(
                (high, high_slots),
                chunk,
                high_counts,
                (rest, place_of),
                high_base,
                scene,
            )
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::Circle;

    /// The vertices a record gathered at some index points to.
    fn vertices(copies: &Copies, r: &Record) -> Polygon {
        assert!(r.is_polygon() && r.kind & GATHERED != 0, "{r:?}");
        copies.of[r.fields[0].to_bits() as usize].0
    }

    /// A changed polygon is copied again at its slot's place; one that became a circle leaves
    /// its copy stale, and one that was a circle gets a new place; past [`STALE_MIN`] stale
    /// copies more than the live ones, `write` asks for every polygon to be copied anew,
    /// which leaves none stale.
    #[test]
    fn changed_polygons_keep_their_places_and_stale_copies_are_dropped() {
        let n = 3000;
        let square = |k: usize| Polygon::regular(4, k as f32, 0.0, 0.4, 0.0);
        let mut scene: Scene = (0..n).map(square).collect();
        // The indices in reverse slot order, as a rebuild might number them.
        let slot_of: Vec<u32> = (0..n as u32).rev().collect();
        let index = |slot: usize| n - 1 - slot;
        let mut local: Vec<Record> = slot_of
            .iter()
            .map(|&s| scene.moving.records[s as usize])
            .collect();
        let mut kinds: Vec<u32> = local.iter().map(|r| r.kind & TAG).collect();
        let mut copies = Copies::default();
        copies.copy_all((&mut local, &kinds, &slot_of), &scene);
        assert_eq!((copies.of.len(), copies.live), (n, n));
        // In index order.
        let places: Vec<u32> = local.iter().map(|r| r.fields[0].to_bits()).collect();
        assert!(places.iter().enumerate().all(|(i, &p)| p as usize == i));
        assert_eq!(vertices(&copies, &local[index(7)]), square(7));

        // Slot 7 moved, slot 8 became a circle.
        scene.set(7, Polygon::regular(5, 7.5, 1.0, 0.4, 0.0));
        scene.set(8, Circle::new(8.0, 0.0, 0.4));
        for slot in [7, 8] {
            let i = index(slot);
            let r = scene.moving.records[slot];
            copies.put(slot, (&mut local[i], &mut kinds[i]), &r);
        }
        assert!(copies.write(&scene));
        assert_eq!(local[index(7)].fields[0].to_bits() as usize, index(7));
        assert_eq!(
            vertices(&copies, &local[index(7)]),
            Polygon::regular(5, 7.5, 1.0, 0.4, 0.0)
        );
        assert!(local[index(8)].same(&scene.moving.records[8]));
        assert_eq!((copies.of.len(), copies.live), (n, n - 1));
        // Slot 8 a polygon again: a new place, at the end.
        scene.set(8, square(9));
        let (i, r) = (index(8), scene.moving.records[8]);
        copies.put(8, (&mut local[i], &mut kinds[i]), &r);
        assert!(copies.write(&scene));
        assert_eq!(local[i].fields[0].to_bits() as usize, n);
        assert_eq!(vertices(&copies, &local[i]), square(9));
        assert_eq!((copies.of.len(), copies.live), (n + 1, n));

        // Circles at slots 0 .. 2011: with slot 8's first copy, 2013 stale copies against
        // 988 live ones in the end, one more than `write` keeps.
        let turned = (n + STALE_MIN) / 2;
        for slot in 0..turned {
            scene.set(slot as u32, Circle::new(slot as f32, 0.0, 0.4));
            let (i, r) = (index(slot), scene.moving.records[slot]);
            copies.put(slot, (&mut local[i], &mut kinds[i]), &r);
            assert_eq!(copies.write(&scene), slot + 1 < turned, "{slot}");
        }
        assert_eq!(copies.of.len() - copies.live, copies.live + STALE_MIN + 1);
        // The gather then reads every record again.
        for (r, &s) in local.iter_mut().zip(&slot_of) {
            *r = scene.moving.records[s as usize];
        }
        copies.copy_all((&mut local, &kinds, &slot_of), &scene);
        assert_eq!((copies.of.len(), copies.live), (n - turned, n - turned));
        for (r, &s) in local.iter().zip(&slot_of) {
            assert_eq!(r.is_polygon(), s as usize >= turned);
            if r.is_polygon() {
                assert_eq!(vertices(&copies, r), square(s as usize));
            }
        }
    }

    /// A gather of a scene without polygons leaves every place `NONE`, after copies and after
    /// none, and from the second keeps the places' room (no pass over every slot to fill it
    /// again); a polygon that comes back then gets the first place.
    #[test]
    fn a_scene_without_polygons_leaves_every_place_empty() {
        let n = 200;
        let square = |k: usize| Polygon::regular(4, k as f32, 0.0, 0.4, 0.0);
        let mut scene: Scene = (0..n).map(square).collect();
        let slot_of: Vec<u32> = (0..n as u32).collect();
        let read = |scene: &Scene| -> Vec<Record> { scene.moving.records.clone() };
        let mut local = read(&scene);
        let kinds = |local: &[Record]| local.iter().map(|r| r.kind & TAG).collect::<Vec<_>>();
        let mut copies = Copies::default();
        let tags = kinds(&local);
        copies.copy_all((&mut local, &tags, &slot_of), &scene);
        assert_eq!(copies.live, n);
        let empty = |c: &Copies| c.place_of.iter().all(|p| p.load(Relaxed) == NONE);
        for round in 0..2 {
            for slot in 0..n as u32 {
                scene.set(slot, Circle::new(slot as f32, 0.0, 0.4));
            }
            local = read(&scene);
            let tags = kinds(&local);
            // As the gather sizes them.
            copies.size(n);
            copies.copy_all((&mut local, &tags, &slot_of), &scene);
            assert_eq!((copies.of.len(), copies.live), (0, 0), "{round}");
            assert!(empty(&copies), "{round}");
            if round == 1 {
                assert_eq!(copies.place_of.len(), n);
            }
        }
        copies.size(n);
        scene.set(5, square(6));
        let r = scene.moving.records[5];
        let (mut tag, mut at) = (0, local[5]);
        copies.put(5, (&mut at, &mut tag), &r);
        assert!(copies.write(&scene));
        assert_eq!((copies.of.len(), copies.live), (1, 1));
        assert_eq!(at.fields[0].to_bits(), 0);
        assert_eq!(vertices(&copies, &at), square(6));
    }
}

//! A store's polygons, out of line: the vertices of each block of slots in a block of their
//! own, so that [`Scene::update`](crate::Scene::update) gives each thread the blocks of its own
//! slots.

use super::records::{Record, classify};
use crate::shape::{Polygon, Shape};

/// Slots per block of polygon storage: the polygons of slots `k·B .. (k + 1)·B` of a store
/// live in its block `k`, so that [`Scene::update`](crate::Scene::update) gives each thread the blocks of its own
/// slots, and a polygon's handle (`k·B` plus its place in the block) fits a record's field.
///
/// A block is also the update's smallest task. At 4 096 a 100 k scene had 25 of them, and on
/// a sixteen-core Intel Xeon its update took 0.42–0.54 ms of a sixteen-thread kept frame (1.3
/// on one thread); at 1 024, 0.31–0.37 ms (medians, alternated rounds on a lent machine,
/// 2026-12-04; the whole frame, 1.49–1.89 → 1.48–1.75 ms, varied more than that). Two
/// threads measured the same at 1 024, 2 048 and 4 096.
pub(crate) const POLYGON_BLOCK: usize = 1024;

/// The polygons of one block of slots, by place, and the free places (never more than
/// [`POLYGON_BLOCK`] places: one per slot at most).
#[derive(Clone, Debug, Default)]
pub(crate) struct PolygonBlock {
    pub(crate) slots: Vec<Polygon>,
    pub(super) free: Vec<u32>,
}

impl PolygonBlock {
    /// Stores `p` in `reuse` (the place of the polygon being replaced), a free place, or a new
    /// one; returns the place.
    pub(super) fn store(&mut self, p: Polygon, reuse: Option<u32>) -> u32 {
        match reuse.or_else(|| self.free.pop()) {
            Some(place) => {
                self.slots[place as usize] = p;
                place
            }
            None => {
                self.slots.push(p);
                (self.slots.len() - 1) as u32
            }
        }
    }

    /// The box and record of `shape` (id `id`, kind-word bits `keep` beyond its class) in block
    /// `k`, replacing `old` (the record it had in this block, if any): a polygon keeps the
    /// place of the polygon it replaces, and a place no longer used is freed.
    #[inline(always)]
    pub(super) fn place(
        &mut self,
        k: usize,
        id: u32,
        keep: u32,
        old: Option<&Record>,
        shape: &Shape,
    ) -> ([f32; 4], Record) {
        let (b, mut r) = classify(shape, id);
        r.kind |= keep;
        let old_place = old
            .filter(|o| o.is_polygon())
            .map(|o| o.fields[0].to_bits() % POLYGON_BLOCK as u32);
        match shape {
            Shape::Polygon(p) => {
                let handle = (k * POLYGON_BLOCK) as u32 + self.store(*p, old_place);
                r.fields[0] = f32::from_bits(handle);
            }
            _ => self.free.extend(old_place),
        }
        (b, r)
    }

    /// Whether the block holds no polygon (every place it has is free).
    pub(super) fn is_empty(&self) -> bool {
        self.slots.len() == self.free.len()
    }

    /// The polygon of a handle in this block.
    #[inline(always)]
    pub(crate) fn polygon(&self, handle: u32) -> &Polygon {
        &self.slots[(handle % POLYGON_BLOCK as u32) as usize]
    }
}

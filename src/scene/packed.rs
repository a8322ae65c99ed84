//! [`Store`]: one of a scene's two stores of shapes (the moving or the static ones), packed by
//! slot: a removal moves the last shape into the hole, so that a frame streams over a dense
//! array.

use super::polygon_blocks::{POLYGON_BLOCK, PolygonBlock};
use super::records::{
    AABB, CAPSULE, CIRCLE, INVALID, KIND, OBB, POLYGON, Record, UNBOUNDED, fields_of,
};
use super::stamps::Stamps;
use crate::shape::{Aabb, Capsule, Circle, Obb, Polygon, Shape};

/// The shape a record was made from, bit for bit; `polygon` finds a polygon by its handle.
#[inline(always)]
pub(super) fn shape_of<'a>(r: &Record, polygon: impl FnOnce(u32) -> &'a Polygon) -> Shape {
    let f = r.fields;
    match r.kind & KIND {
        CIRCLE => Circle::new(f[0], f[1], f[2]).into(),
        AABB => Aabb::new(f[0], f[1], f[2], f[3]).into(),
        OBB => Obb::from_rotation(f[0], f[1], f[2], f[3], f[4], f[5]).into(),
        CAPSULE => Capsule::new(f[0], f[1], f[2], f[3], f[4]).into(),
        _ => (*polygon(f[0].to_bits())).into(),
    }
}

/// Whether `shape` is the one record `r` was made from, bit for bit, so that it would make the
/// same record and box (`polygon` finds a polygon's vertices by its handle). Field by field
/// against the record's fields (or the vertices), the first (a moved shape's x, mostly)
/// first: a vector compare of a shape just built waits for its field stores (a compare of
/// whole records doubled the 1 M update, 5.3 → 11.7 ms).
#[inline(always)]
pub(super) fn made_from<'a>(
    r: &Record,
    shape: &Shape,
    polygon: impl FnOnce(u32) -> &'a Polygon,
) -> bool {
    match shape {
        Shape::Polygon(p) => {
            r.kind & KIND == POLYGON && same_polygon(p, polygon(r.fields[0].to_bits()))
        }
        _ => {
            let (kind, fields) = fields_of(shape);
            let bits = |(a, b): (&f32, &f32)| a.to_bits() == b.to_bits();
            // The first alone first: a moved shape's differs.
            let first = bits((&fields[0], &r.fields[0])) && r.kind & KIND == kind;
            first && fields.iter().zip(&r.fields).all(bits)
        }
    }
}

/// Whether two polygons are the same bits, the first vertex first (a moved polygon's
/// differs). Out of line: inlined into `update`'s loop, it made every moving polygon's update
/// a tenth dearer, although the compare stops at the first vertex.
#[inline(never)]
fn same_polygon(p: &Polygon, q: &Polygon) -> bool {
    let bits = |a: &f32, b: &f32| a.to_bits() == b.to_bits();
    let first = bits(&p.xs[0], &q.xs[0]) && bits(&p.ys[0], &q.ys[0]);
    first
        && (p.xs.iter().zip(&q.xs)).all(|(a, b)| bits(a, b))
        && (p.ys.iter().zip(&q.ys)).all(|(a, b)| bits(a, b))
}

/// How a replaced record changes the counts of invalid and unbounded shapes.
#[inline(always)]
pub(super) fn count_change(old: Option<&Record>, new: Option<&Record>) -> [isize; 2] {
    let flag = |r: Option<&Record>, f: u32| r.map_or(0, |r| isize::from(r.kind & f != 0));
    [
        flag(new, INVALID) - flag(old, INVALID),
        flag(new, UNBOUNDED) - flag(old, UNBOUNDED),
    ]
}

/// One of a scene's two stores (its moving shapes or its static ones), packed by slot: each
/// shape's padded box (NaN `min_x` when the grid leaves it out: invalid or unbounded) and
/// record, and the polygons' vertices out of line, by block of slots; each slot's stamp
/// (the version of its last change, see `stamps.rs`).
#[derive(Clone, Debug, Default)]
pub(crate) struct Store {
    pub(crate) boxes: Vec<[f32; 4]>,
    pub(crate) records: Vec<Record>,
    pub(crate) polygons: Vec<PolygonBlock>,
    pub(crate) stamps: Stamps,
    /// How many shapes fail [`Shape::check`], and how many are unbounded.
    pub(crate) invalid: usize,
    pub(crate) unbounded: usize,
}

impl Store {
    /// Number of shapes.
    #[inline(always)]
    pub(crate) fn len(&self) -> usize {
        self.records.len()
    }

    /// The polygon of a handle.
    #[inline(always)]
    pub(crate) fn polygon(&self, handle: u32) -> &Polygon {
        self.polygons[handle as usize / POLYGON_BLOCK].polygon(handle)
    }

    /// Whether the store holds a polygon.
    pub(crate) fn has_polygons(&self) -> bool {
        self.polygons.iter().any(|b| !b.is_empty())
    }

    /// The shape of the record at `slot`.
    pub(super) fn shape(&self, slot: usize) -> Shape {
        shape_of(&self.records[slot], |h| self.polygon(h))
    }

    /// The polygon block of `slot`, created with the blocks before it if need be.
    pub(super) fn block_of(&mut self, slot: usize) -> &mut PolygonBlock {
        let k = slot / POLYGON_BLOCK;
        if self.polygons.len() <= k {
            self.polygons.resize_with(k + 1, PolygonBlock::default);
        }
        &mut self.polygons[k]
    }

    /// Applies a change of the counts of invalid and unbounded shapes.
    #[inline(always)]
    pub(super) fn count(&mut self, [invalid, unbounded]: [isize; 2]) {
        self.invalid = self.invalid.wrapping_add_signed(invalid);
        self.unbounded = self.unbounded.wrapping_add_signed(unbounded);
    }

    /// Writes `shape` (id `id`, kind-word bits `keep`) at `slot`, which is a live slot or
    /// `len()` (a new one).
    pub(super) fn write(&mut self, slot: usize, id: u32, keep: u32, shape: &Shape) {
        let old = self.records.get(slot).copied();
        let (b, r) = self
            .block_of(slot)
            .place(slot / POLYGON_BLOCK, id, keep, old.as_ref(), shape);
        self.count(count_change(old.as_ref(), Some(&r)));
        self.stamps.stamp(slot);
        if slot == self.records.len() {
            self.boxes.push(b);
            self.records.push(r);
        } else {
            (self.boxes[slot], self.records[slot]) = (b, r);
        }
    }

    /// Removes the shape at `slot`: the last shape moves into its slot. Returns the removed
    /// record's shape, and the id of the shape that moved (if one did).
    pub(super) fn remove(&mut self, slot: usize) -> (Shape, Option<u32>) {
        let gone = self.records[slot];
        let shape = self.shape(slot);
        self.count(count_change(Some(&gone), None));
        if gone.is_polygon() {
            self.block_of(slot)
                .free
                .push(gone.fields[0].to_bits() % POLYGON_BLOCK as u32);
        }
        let last = self.records.len() - 1;
        let moved = (slot != last).then(|| {
            let mut r = self.records[last];
            if r.is_polygon() {
                // Its polygon moves to the block of its new slot.
                let handle = r.fields[0].to_bits();
                let p = *self.polygon(handle);
                self.polygons[last / POLYGON_BLOCK]
                    .free
                    .push(handle % POLYGON_BLOCK as u32);
                let place = self.block_of(slot).store(p, None);
                r.fields[0] = f32::from_bits((slot / POLYGON_BLOCK * POLYGON_BLOCK) as u32 + place);
            }
            (self.records[slot], self.boxes[slot]) = (r, self.boxes[last]);
            self.stamps.stamp(slot);
            r.id
        });
        self.records.pop();
        self.boxes.pop();
        self.stamps.of.pop();
        (shape, moved)
    }

    /// Puts the shapes in the order `order` (new slot `i` holds the shape of old slot
    /// `order[i]`, `order` a permutation of the slots): boxes and records move, and each
    /// polygon moves to the block of its new slot under a new handle.
    pub(super) fn permute(&mut self, order: &[u32]) {
        debug_assert_eq!(order.len(), self.len());
        let mut polygons = Vec::new();
        polygons.resize_with(order.len().div_ceil(POLYGON_BLOCK), PolygonBlock::default);
        let records = order
            .iter()
            .enumerate()
            .map(|(slot, &old)| {
                let mut r = self.records[old as usize];
                if r.is_polygon() {
                    let p = *self.polygon(r.fields[0].to_bits());
                    let k = slot / POLYGON_BLOCK;
                    let place = polygons[k].store(p, None);
                    r.fields[0] = f32::from_bits((k * POLYGON_BLOCK) as u32 + place);
                }
                r
            })
            .collect();
        self.boxes = order.iter().map(|&old| self.boxes[old as usize]).collect();
        self.records = records;
        self.polygons = polygons;
        let v = self.stamps.next();
        self.stamps.of.fill(v);
    }

    /// Empties the store, keeping its allocations.
    pub(super) fn clear(&mut self) {
        self.boxes.clear();
        self.records.clear();
        self.polygons.clear();
        self.stamps.of.clear();
        (self.invalid, self.unbounded) = (0, 0);
    }
}

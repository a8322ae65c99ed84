//! [`Scene`]: the shapes, each with the padded box and the record a frame reads, computed once
//! by [`push`](Scene::push) and [`set`](Scene::set).
//!
//! **Storage.** Ids are the user's handles; the shapes live in two stores, the moving ones and
//! the static ones, each packed by slot (an id → slot map, a removal moves the store's last
//! shape into the hole), so that a frame streams over the moving shapes only and never
//! visits the static ones unless they changed. Each change of the static shapes takes a new
//! `static_epoch`, unique across all scenes, by which a finder knows whether what it filed of
//! them still holds.

use super::MAX_SHAPES;
use super::filter::{Filter, FilterTable};
use super::polygon_blocks::{POLYGON_BLOCK, PolygonBlock};
use super::records::{
    AABB, CAPSULE, CIRCLE, CLASS, FILTER_SHIFT, INVALID, KIND, OBB, POLYGON, Record, STATIC,
    UNBOUNDED,
};
use crate::shape::{Aabb, Capsule, Circle, Obb, Polygon, Shape};
use core::cmp::Reverse;
use rayon::prelude::*;
use std::collections::BinaryHeap;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// The shape a record was made from, bit for bit; `polygon` finds a polygon by its handle.
#[inline(always)]
fn shape_of<'a>(r: &Record, polygon: impl FnOnce(u32) -> &'a Polygon) -> Shape {
    let f = r.fields;
    match r.kind & KIND {
        CIRCLE => Circle::new(f[0], f[1], f[2]).into(),
        AABB => Aabb::new(f[0], f[1], f[2], f[3]).into(),
        OBB => Obb::from_rotation(f[0], f[1], f[2], f[3], f[4], f[5]).into(),
        CAPSULE => Capsule::new(f[0], f[1], f[2], f[3], f[4]).into(),
        _ => (*polygon(f[0].to_bits())).into(),
    }
}

/// How a replaced record changes the counts of invalid and unbounded shapes.
#[inline(always)]
fn count_change(old: Option<&Record>, new: Option<&Record>) -> [isize; 2] {
    let flag = |r: Option<&Record>, f: u32| r.map_or(0, |r| isize::from(r.kind & f != 0));
    [
        flag(new, INVALID) - flag(old, INVALID),
        flag(new, UNBOUNDED) - flag(old, UNBOUNDED),
    ]
}

/// One of a scene's two stores (its moving shapes or its static ones), packed by slot: each
/// shape's padded box (NaN `min_x` when the grid leaves it out: invalid or unbounded) and
/// record, and the polygons' vertices out of line, by block of slots.
#[derive(Clone, Debug, Default)]
pub(crate) struct Store {
    pub(crate) boxes: Vec<[f32; 4]>,
    pub(crate) records: Vec<Record>,
    pub(crate) polygons: Vec<PolygonBlock>,
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

    /// The shape of the record at `slot`.
    fn shape(&self, slot: usize) -> Shape {
        shape_of(&self.records[slot], |h| self.polygon(h))
    }

    /// The polygon block of `slot`, created with the blocks before it if need be.
    fn block_of(&mut self, slot: usize) -> &mut PolygonBlock {
        let k = slot / POLYGON_BLOCK;
        if self.polygons.len() <= k {
            self.polygons.resize_with(k + 1, PolygonBlock::default);
        }
        &mut self.polygons[k]
    }

    /// Applies a change of the counts of invalid and unbounded shapes.
    #[inline(always)]
    fn count(&mut self, [invalid, unbounded]: [isize; 2]) {
        self.invalid = self.invalid.wrapping_add_signed(invalid);
        self.unbounded = self.unbounded.wrapping_add_signed(unbounded);
    }

    /// Writes `shape` (id `id`, kind-word bits `keep`) at `slot`, which is a live slot or
    /// `len()` (a new one).
    fn write(&mut self, slot: usize, id: u32, keep: u32, shape: &Shape) {
        let old = self.records.get(slot).copied();
        let (b, r) = self
            .block_of(slot)
            .place(slot / POLYGON_BLOCK, id, keep, old.as_ref(), shape);
        self.count(count_change(old.as_ref(), Some(&r)));
        if slot == self.records.len() {
            self.boxes.push(b);
            self.records.push(r);
        } else {
            (self.boxes[slot], self.records[slot]) = (b, r);
        }
    }

    /// Removes the shape at `slot`: the last shape moves into its slot. Returns the removed
    /// record's shape, and the id of the shape that moved (if one did).
    fn remove(&mut self, slot: usize) -> (Shape, Option<u32>) {
        let gone = self.records[slot];
        let shape = self.shape(slot);
        self.count(count_change(Some(&gone), None));
        if gone.kind & KIND == POLYGON {
            self.block_of(slot)
                .free
                .push(gone.fields[0].to_bits() % POLYGON_BLOCK as u32);
        }
        let last = self.records.len() - 1;
        let moved = (slot != last).then(|| {
            let mut r = self.records[last];
            if r.kind & KIND == POLYGON {
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
            r.id
        });
        self.records.pop();
        self.boxes.pop();
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
                if r.kind & KIND == POLYGON {
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
    }

    /// Empties the store, keeping its allocations.
    fn clear(&mut self) {
        self.boxes.clear();
        self.records.clear();
        self.polygons.clear();
        (self.invalid, self.unbounded) = (0, 0);
    }
}

/// A free id's slot entry.
pub(super) const FREE: u32 = u32::MAX;
/// Bit of a slot entry: the shape is in the static store.
const IN_STATIC: u32 = 1 << 31;

/// The source of static epochs: each change of a scene's static shapes takes a new one.
static EPOCHS: AtomicU64 = AtomicU64::new(1);

/// A collision world: circles, AABBs, OBBs and convex polygons, moving or static, each with a
/// [`Filter`], under stable ids.
///
/// **Ids.** [`push`](Self::push) and its twins return the shape's id: the smallest id that was
/// removed and not reused yet, or else the next id never used (0, 1, 2, … in a scene that never
/// removes). An id names its shape until [`remove`](Self::remove); answers are sorted by id,
/// whatever order the scene keeps internally. [`remove`](Self::remove), [`get`](Self::get),
/// [`contains`](Self::contains), [`filter`](Self::filter) and [`is_static`](Self::is_static) answer
/// any `u32` (`None` or `false` for an id that is not live); [`set`](Self::set) and
/// [`set_filter`](Self::set_filter) panic on one, naming it, like indexing out of bounds.
///
/// **Static shapes** ([`push_static`](Self::push_static)) are level geometry: two static shapes are
/// never paired, [`update`](Self::update) skips them, and a kept [`PairFinder`](crate::PairFinder)
/// files them once, so that a frame costs what the moving shapes and their neighbours cost, not the
/// size of the level. [`set`](Self::set) may move one, and [`remove`](Self::remove) remove one: any
/// change of the static shapes (`push_static`, and `set`, `set_filter` or `remove` of a static
/// shape) makes each finder file them anew on its next call, which costs about a from-scratch
/// search of the static shapes: cheap for a few thousand, a few milliseconds per hundred thousand.
///
/// **Layers.** A pair `(a, b)` is reported only when their filters allow it (see [`Filter`]);
/// [`push`](Self::push) and [`push_static`](Self::push_static) give [`Filter::ALL`].
///
/// **Bad data.** A shape that fails [`Shape::check`] (NaN, a negative radius, …) stays in the
/// scene, under its id, and is never paired or found by a query until it is `set` to a valid one.
///
/// ```
/// use widephase::{Aabb, Circle, Obb, Scene};
/// let mut scene = Scene::new();
/// let a = scene.push(Circle::new(0.0, 0.0, 1.0));
/// let b = scene.push(Aabb::new(0.5, -0.5, 3.0, 0.5));
/// let c = scene.push(Obb::new(2.5, 0.0, 0.25, 2.0, 0.3));
/// let d = scene.push(Circle::new(10.0, 10.0, 1.0));
/// assert_eq!(scene.overlapping_pairs(), [(a, b), (b, c)]);
///
/// // Move a shape between frames.
/// scene.set(a, Circle::new(2.5, 2.0, 0.5));
/// assert_eq!(scene.overlapping_pairs(), [(a, c), (b, c)]);
///
/// // Remove one: its id is free, and the next push takes it.
/// assert_eq!(scene.remove(b), Some(Aabb::new(0.5, -0.5, 3.0, 0.5).into()));
/// assert_eq!(scene.remove(b), None);
/// assert_eq!(scene.overlapping_pairs(), [(a, c)]);
/// assert_eq!(scene.push(Circle::new(10.0, 11.0, 1.0)), b);
/// assert_eq!(scene.overlapping_pairs(), [(a, c), (b, d)]);
/// assert_eq!(scene.len(), 4);
/// ```
#[derive(Clone, Debug, Default)]
pub struct Scene {
    /// The moving shapes and the static ones.
    pub(crate) moving: Store,
    pub(crate) statics: Store,
    /// Per id: its slot, with [`IN_STATIC`] for the static store, or [`FREE`].
    pub(super) slots: Vec<u32>,
    /// The ids removed and not reused, smallest first.
    free: BinaryHeap<Reverse<u32>>,
    pub(crate) filters: FilterTable,
    /// Changes with every change of the static shapes; equal only for equal static shapes
    /// (0 for every scene whose static shapes never changed: none).
    pub(crate) static_epoch: u64,
    pub(crate) cell_size: Option<f32>,
}

impl Scene {
    /// An empty scene whose cell size is chosen from its shapes every frame.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// This scene with a fixed grid cell side for every grid level instead of the automatic one
    /// (chosen per level from its shapes' size and density). A level may still grow its cells
    /// to keep their number within about four per shape. The answer does not depend on the
    /// cell side, only the time does.
    ///
    /// # Panics
    /// If `size` is not positive and finite.
    #[must_use]
    pub fn with_cell_size(mut self, size: f32) -> Self {
        assert!(
            size > 0.0 && size.is_finite(),
            "Scene cell size must be positive and finite, got {size}"
        );
        self.cell_size = Some(size);
        self
    }

    /// Adds a moving shape with [`Filter::ALL`]; returns its id (see [`Scene`] for which).
    ///
    /// # Panics
    /// If the scene already holds [`MAX_SHAPES`] shapes.
    #[inline]
    pub fn push(&mut self, shape: impl Into<Shape>) -> u32 {
        self.insert(shape.into(), Filter::ALL, false)
    }

    /// Adds a moving shape with `filter`; returns its id.
    ///
    /// # Panics
    /// If the scene already holds [`MAX_SHAPES`] shapes.
    #[inline]
    pub fn push_with(&mut self, shape: impl Into<Shape>, filter: Filter) -> u32 {
        self.insert(shape.into(), filter, false)
    }

    /// Adds a static shape with [`Filter::ALL`]; returns its id. Static shapes are never
    /// paired with each other (see [`Scene`]).
    ///
    /// # Panics
    /// If the scene already holds [`MAX_SHAPES`] shapes.
    #[inline]
    pub fn push_static(&mut self, shape: impl Into<Shape>) -> u32 {
        self.insert(shape.into(), Filter::ALL, true)
    }

    /// Adds a static shape with `filter`; returns its id.
    ///
    /// # Panics
    /// If the scene already holds [`MAX_SHAPES`] shapes.
    #[inline]
    pub fn push_static_with(&mut self, shape: impl Into<Shape>, filter: Filter) -> u32 {
        self.insert(shape.into(), filter, true)
    }

    fn insert(&mut self, shape: Shape, filter: Filter, fixed: bool) -> u32 {
        assert!(
            self.len() < MAX_SHAPES,
            "a Scene holds at most {MAX_SHAPES} shapes"
        );
        let id = match self.free.pop() {
            Some(Reverse(id)) => id,
            None => {
                self.slots.push(FREE);
                (self.slots.len() - 1) as u32
            }
        };
        let keep = self.filters.acquire(filter) << FILTER_SHIFT;
        let (bit, keep) = if fixed {
            (IN_STATIC, keep | STATIC)
        } else {
            (0, keep)
        };
        let (store, _) = self.store_mut(bit);
        let slot = store.len();
        store.write(slot, id, keep, &shape);
        self.slots[id as usize] = slot as u32 | bit;
        id
    }

    /// The store and slot of slot entry `s` (its slot is `len()` for a new shape), to be
    /// changed: a change of the static store takes a new static epoch.
    fn store_mut(&mut self, s: u32) -> (&mut Store, usize) {
        let slot = (s & !IN_STATIC) as usize;
        if s & IN_STATIC != 0 {
            self.static_epoch = EPOCHS.fetch_add(1, Relaxed);
            (&mut self.statics, slot)
        } else {
            (&mut self.moving, slot)
        }
    }

    /// The position of a live id's record when the moving store's records are followed by
    /// the static store's: its slot, or the number of moving shapes plus its static slot.
    #[inline(always)]
    pub(crate) fn position(&self, id: u32) -> Option<u32> {
        match *self.slots.get(id as usize)? {
            FREE => None,
            s if s & IN_STATIC != 0 => Some(self.moving.len() as u32 + (s & !IN_STATIC)),
            s => Some(s),
        }
    }

    /// The store and slot of a live id.
    #[inline(always)]
    fn locate(&self, id: u32) -> Option<(&Store, usize)> {
        match *self.slots.get(id as usize)? {
            FREE => None,
            s if s & IN_STATIC != 0 => Some((&self.statics, (s & !IN_STATIC) as usize)),
            s => Some((&self.moving, s as usize)),
        }
    }

    /// The record of a live id.
    #[inline(always)]
    pub(crate) fn record(&self, id: u32) -> Option<&Record> {
        self.locate(id).map(|(store, slot)| &store.records[slot])
    }

    /// The slot entry of a live id, or a panic naming it.
    fn live(&self, id: u32, what: &str) -> u32 {
        match self.slots.get(id as usize) {
            Some(&s) if s != FREE => s,
            _ => panic!("{what}: shape id {id} is not in this Scene"),
        }
    }

    /// Replaces shape `id` (to move it, resize it, or change its kind), keeping its filter and
    /// whether it is static. Moving a static shape is allowed (it is filed anew, see
    /// [`Scene`]).
    ///
    /// # Panics
    /// If `id` is not a live shape of this scene.
    #[inline]
    pub fn set(&mut self, id: u32, shape: impl Into<Shape>) {
        let s = self.live(id, "Scene::set");
        let (store, slot) = self.store_mut(s);
        let keep = store.records[slot].kind & !CLASS | store.records[slot].kind & STATIC;
        store.write(slot, id, keep, &shape.into());
    }

    /// Changes the [`Filter`] of shape `id`; its pairs follow from the next call on.
    ///
    /// # Panics
    /// If `id` is not a live shape of this scene.
    pub fn set_filter(&mut self, id: u32, filter: Filter) {
        let s = self.live(id, "Scene::set_filter");
        let index = self.filters.acquire(filter);
        let (store, slot) = self.store_mut(s);
        let r = &mut store.records[slot];
        let old = r.filter() as u32;
        r.kind = r.kind & CLASS | index << FILTER_SHIFT;
        self.filters.release(old);
    }

    /// Removes shape `id` and returns it; `None` (and nothing changes) when `id` is not a live
    /// shape. From the next call on, `id` is in no answer, and a kept finder reports its
    /// pairs as [`ended`](crate::PairFinder::ended). Its id may be reused by the next push.
    pub fn remove(&mut self, id: u32) -> Option<Shape> {
        let s = *self.slots.get(id as usize).filter(|&&s| s != FREE)?;
        let (store, slot) = self.store_mut(s);
        let filter = store.records[slot].filter() as u32;
        let (shape, moved) = store.remove(slot);
        if let Some(m) = moved {
            self.slots[m as usize] = s;
        }
        self.filters.release(filter);
        self.slots[id as usize] = FREE;
        self.free.push(Reverse(id));
        Some(shape)
    }

    /// Whether `id` is a live shape of this scene.
    #[must_use]
    pub fn contains(&self, id: u32) -> bool {
        self.locate(id).is_some()
    }

    /// Whether `id` is a live static shape.
    #[must_use]
    pub fn is_static(&self, id: u32) -> bool {
        self.record(id).is_some_and(|r| r.kind & STATIC != 0)
    }

    /// The [`Filter`] of shape `id`, or `None` when it is not live.
    #[must_use]
    pub fn filter(&self, id: u32) -> Option<Filter> {
        self.record(id).map(|r| self.filters.all()[r.filter()])
    }

    /// Replaces every live moving shape `id` by `f(id, shape)`, on rayon's threads, with the
    /// rules of [`set`](Self::set): the frame loop's move, in one call. `f` is called exactly
    /// once per live moving shape, in no particular order, and never for a static shape.
    ///
    /// ```
    /// use widephase::{Aabb, Circle, Obb, PairFinder, Scene, Shape};
    /// let mut scene: Scene = (0..1000).map(|i| Circle::new(i as f32, 0.0, 0.4)).collect();
    /// let floor = scene.push_static(Aabb::new(-1.0, -2.0, 1000.0, -1.0));
    /// // Every circle one step to the right; circle 7 becomes a rotated box.
    /// scene.update(|id, shape| match shape {
    ///     _ if id == 7 => Obb::new(7.0, 0.0, 0.5, 0.1, 0.3).into(),
    ///     Shape::Circle(c) => Circle::new(c.x + 0.25, c.y, c.radius).into(),
    ///     other => other,
    /// });
    /// assert_eq!(scene.get(0), Some(Shape::Circle(Circle::new(0.25, 0.0, 0.4))));
    /// assert!(matches!(scene.get(7), Some(Shape::Obb(_))));
    /// assert_eq!(scene.get(floor), Some(Aabb::new(-1.0, -2.0, 1000.0, -1.0).into()));
    /// ```
    pub fn update(&mut self, f: impl Fn(u32, Shape) -> Shape + Sync + Send) {
        let store = &mut self.moving;
        let n = store.len();
        // Every block of slots gets its polygon block, so that each task owns those of its
        // slots.
        store
            .polygons
            .resize_with(n.div_ceil(POLYGON_BLOCK), PolygonBlock::default);
        let change = store
            .boxes
            .par_chunks_mut(POLYGON_BLOCK)
            .zip(store.records.par_chunks_mut(POLYGON_BLOCK))
            .zip(store.polygons.par_iter_mut())
            .enumerate()
            // Small scenes stay on one thread: waking another costs more than it saves.
            .with_min_len(MIN_UPDATE / POLYGON_BLOCK)
            .map(|(k, ((boxes, records), block))| {
                let mut change = [0isize; 2];
                for (b, r) in boxes.iter_mut().zip(records.iter_mut()) {
                    let shape = f(r.id, shape_of(r, |h| block.polygon(h)));
                    let (nb, nr) = block.place(k, r.id, r.kind & !CLASS, Some(r), &shape);
                    let [i, u] = count_change(Some(r), Some(&nr));
                    change = [change[0] + i, change[1] + u];
                    (*b, *r) = (nb, nr);
                }
                change
            })
            .reduce(|| [0; 2], |a, b| [a[0] + b[0], a[1] + b[1]]);
        store.count(change);
    }

    /// Shape `id`, or `None` when it is not a live shape.
    #[must_use]
    pub fn get(&self, id: u32) -> Option<Shape> {
        self.locate(id).map(|(store, slot)| store.shape(slot))
    }

    /// The live shapes in id order, with their ids.
    pub fn iter(&self) -> impl Iterator<Item = (u32, Shape)> + '_ {
        (0..self.slots.len() as u32).filter_map(|id| Some((id, self.get(id)?)))
    }

    /// Number of live shapes (moving and static).
    #[must_use]
    pub fn len(&self) -> usize {
        self.moving.len() + self.statics.len()
    }

    /// Whether the scene holds no shapes.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Number of live static shapes.
    #[must_use]
    pub fn static_len(&self) -> usize {
        self.statics.len()
    }

    /// Shapes that fail [`Shape::check`], and shapes with unbounded boxes, in both stores.
    pub(crate) fn invalid(&self) -> usize {
        self.moving.invalid + self.statics.invalid
    }

    pub(crate) fn unbounded(&self) -> usize {
        self.moving.unbounded + self.statics.unbounded
    }

    /// Removes every shape, keeping the allocations and the cell size setting; ids start
    /// again at 0.
    pub fn clear(&mut self) {
        self.moving.clear();
        self.statics.clear();
        self.slots.clear();
        self.free.clear();
        self.filters.clear();
        self.static_epoch = 0;
    }
}

/// Fewest shapes [`Scene::update`] splits over threads.
const MIN_UPDATE: usize = 16 * 1024;

impl<S: Into<Shape>> FromIterator<S> for Scene {
    fn from_iter<I: IntoIterator<Item = S>>(iter: I) -> Self {
        let mut scene = Scene::new();
        scene.extend(iter);
        scene
    }
}

impl<S: Into<Shape>> Extend<S> for Scene {
    fn extend<I: IntoIterator<Item = S>>(&mut self, iter: I) {
        let iter = iter.into_iter();
        let (more, _) = iter.size_hint();
        self.moving.boxes.reserve(more);
        self.moving.records.reserve(more);
        for s in iter {
            self.push(s);
        }
    }
}

//! [`Scene`]: the shapes, each with the padded box and the record a frame reads, computed once
//! by [`push`](Scene::push) and [`set`](Scene::set).
//!
//! **Storage.** Ids are the user's handles (`handles.rs`); the shapes live in two stores
//! (`packed.rs`), the moving ones and the static ones, each packed by slot (an id → slot map,
//! a removal moves the store's last shape into the hole), so that a frame streams over the
//! moving shapes only and never visits the static ones unless they changed. Each change of the
//! static shapes takes a new `static_epoch`, unique across all scenes, by which a finder knows
//! whether what it filed of them still holds.

use super::MAX_SHAPES;
use super::filter::{Filter, FilterTable, Rule};
use super::handles::Handles;
use super::packed::{Store, count_change, made_from, shape_of};
use super::polygon_blocks::{POLYGON_BLOCK, PolygonBlock};
use super::records::{CLASS, FILTER_SHIFT, Record, STATIC};
use crate::prefetch::{AHEAD, prefetch};
use crate::shape::Shape;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Bit of a slot entry: the shape is in the static store.
const IN_STATIC: u32 = 1 << 31;

/// The source of static epochs: each change of a scene's static shapes takes a new one.
static EPOCHS: AtomicU64 = AtomicU64::new(1);

/// A collision world: circles, AABBs, OBBs, convex polygons and capsules (segments too), moving
/// or static, solid or [sensors](Self::push_sensor), each with a
/// [`Filter`], under stable ids.
///
/// **Ids.** [`push`](Self::push) and its twins return the shape's id, a `u32` handle that names
/// it until [`remove`](Self::remove) and never anything else: its low bits are an index (the
/// smallest free one), its high bits a generation (see [`MAX_SHAPES`]), so an id that was
/// removed is never handed out again: a shape pushed after a removal, even in the same frame,
/// gets a new id, and a kept finder reports the removed shape's pairs as ended and the new
/// one's as begun. A scene that never removes hands out 0, 1, 2, …. Answers are sorted by id,
/// whatever order the scene keeps internally. [`remove`](Self::remove), [`get`](Self::get),
/// [`contains`](Self::contains), [`filter`](Self::filter), [`user_data`](Self::user_data) and
/// [`is_static`](Self::is_static) answer any `u32` (`None` or `false` for an id that is not
/// live: never pushed, or removed); [`set`](Self::set), [`set_filter`](Self::set_filter) and
/// [`set_user_data`](Self::set_user_data) panic on one, naming it, like indexing out of bounds.
///
/// **User data.** Each shape carries a `u64` of the caller's
/// ([`set_user_data`](Self::set_user_data), [`user_data`](Self::user_data); 0 until set): an
/// entity index, a packed handle of a game's own, a pointer-sized key. It stays through `set`
/// and `update` and goes with `remove`; reading it is two array loads, cheap enough for every
/// pair of a frame.
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
/// **Saving and loading** (feature `serde`): a scene serializes as its cell size setting, each
/// index's last id and its live shapes (id, shape, filter, static and sensor flags, user data);
/// a loaded scene has the same ids, hands out the same ids as the original would on its next
/// pushes, and answers the same pairs. A file whose ids could alias (an id that does not fit
/// its index, one id twice) is refused with an error naming it.
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
/// // Remove one: its id is dead for good; the next push gets a new one.
/// assert_eq!(scene.remove(b), Some(Aabb::new(0.5, -0.5, 3.0, 0.5).into()));
/// assert_eq!(scene.remove(b), None);
/// assert_eq!(scene.overlapping_pairs(), [(a, c)]);
/// let e = scene.push(Circle::new(10.0, 11.0, 1.0));
/// assert_ne!(e, b);
/// assert!(!scene.contains(b) && scene.get(b).is_none());
/// assert_eq!(scene.overlapping_pairs(), [(a, c), (d, e)]);
/// assert_eq!(scene.len(), 4);
///
/// // Tie the game's data to a shape.
/// scene.set_user_data(e, 42);
/// assert_eq!(scene.user_data(e), Some(42));
/// assert_eq!(scene.user_data(b), None);
/// ```
#[derive(Clone, Debug, Default)]
pub struct Scene {
    /// The moving shapes and the static ones.
    pub(crate) moving: Store,
    pub(crate) statics: Store,
    /// The ids: per index its slot (with [`IN_STATIC`] for the static store) and user data.
    pub(super) handles: Handles,
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
        self.insert(shape.into(), Rule::ALL, false)
    }

    /// Adds a moving shape with `filter`; returns its id. Panics as [`push`](Self::push) does.
    #[inline]
    pub fn push_with(&mut self, shape: impl Into<Shape>, filter: Filter) -> u32 {
        self.insert(shape.into(), Rule::solid(filter), false)
    }

    /// Adds a static shape with [`Filter::ALL`]; returns its id. Static shapes are never
    /// paired with each other (see [`Scene`]). Panics as [`push`](Self::push) does.
    #[inline]
    pub fn push_static(&mut self, shape: impl Into<Shape>) -> u32 {
        self.insert(shape.into(), Rule::ALL, true)
    }

    /// Adds a static shape with `filter`; returns its id. Panics as [`push`](Self::push) does.
    #[inline]
    pub fn push_static_with(&mut self, shape: impl Into<Shape>, filter: Filter) -> u32 {
        self.insert(shape.into(), Rule::solid(filter), true)
    }

    fn insert(&mut self, shape: Shape, rule: Rule, fixed: bool) -> u32 {
        assert!(
            self.len() < MAX_SHAPES,
            "a Scene holds at most {MAX_SHAPES} shapes"
        );
        let id = self.handles.issue(self.end(fixed)).unwrap_or_else(|| {
            panic!(
                "this Scene has handed out all of its 2^31 ids (each of its {MAX_SHAPES} \
                 indices 128 times); a new Scene starts again"
            )
        });
        self.write_new(id, shape, rule, fixed);
        id
    }

    /// The slot entry of a new shape: the end of its store.
    fn end(&self, fixed: bool) -> u32 {
        if fixed {
            self.statics.len() as u32 | IN_STATIC
        } else {
            self.moving.len() as u32
        }
    }

    /// Writes a new shape at the end of its store under `id`, whose handle points there.
    fn write_new(&mut self, id: u32, shape: Shape, rule: Rule, fixed: bool) {
        let keep = self.filters.acquire(rule) << FILTER_SHIFT;
        let (bit, keep) = if fixed {
            (IN_STATIC, keep | STATIC)
        } else {
            (0, keep)
        };
        let (store, _) = self.store_mut(bit);
        store.write(store.len(), id, keep, &shape);
    }

    /// Adds a shape under `id`, which the handles hold as free (a scene being loaded).
    #[cfg(feature = "serde")]
    pub(super) fn insert_as(
        &mut self,
        id: u32,
        shape: Shape,
        rule: Rule,
        fixed: bool,
    ) -> Result<(), String> {
        self.handles.take(id, self.end(fixed))?;
        self.write_new(id, shape, rule, fixed);
        Ok(())
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
        match self.handles.slot(id)? {
            s if s & IN_STATIC != 0 => Some(self.moving.len() as u32 + (s & !IN_STATIC)),
            s => Some(s),
        }
    }

    /// The store and slot of a live id.
    #[inline(always)]
    fn locate(&self, id: u32) -> Option<(&Store, usize)> {
        self.handles.slot(id).map(|s| self.store_of(s))
    }

    /// The store and slot of slot entry `s`.
    #[inline(always)]
    fn store_of(&self, s: u32) -> (&Store, usize) {
        if s & IN_STATIC != 0 {
            (&self.statics, (s & !IN_STATIC) as usize)
        } else {
            (&self.moving, s as usize)
        }
    }

    /// The record of a live id.
    #[inline(always)]
    pub(crate) fn record(&self, id: u32) -> Option<&Record> {
        self.locate(id).map(|(store, slot)| &store.records[slot])
    }

    /// The slot entry of a live id, or a panic naming it.
    fn live(&self, id: u32, what: &str) -> u32 {
        self.handles.slot(id).unwrap_or_else(|| {
            panic!("{what}: shape id {id} is not in this Scene (never pushed, or removed)")
        })
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
        self.change_rule(id, "Scene::set_filter", |r| Rule { filter, ..r });
    }

    /// Adds a moving sensor with [`Filter::ALL`]; returns its id. A sensor's overlaps are
    /// pairs like any other ([`overlapping_pairs`](crate::PairFinder::overlapping_pairs),
    /// `began`, `ended`: a trigger zone knows who entered and left), but
    /// [`contacts`](crate::PairFinder::contacts) and [`manifolds`](crate::PairFinder::manifolds)
    /// leave out every pair with a sensor, two sensors never pair, and ray casts pass through
    /// sensors (box, point and shape queries find them). [`set_sensor`](Self::set_sensor)
    /// makes any shape, static ones included, a sensor or a solid shape again.
    ///
    /// # Panics
    /// If the scene already holds [`MAX_SHAPES`] shapes.
    ///
    /// ```
    /// use widephase::{Aabb, Circle, PairFinder, Scene};
    /// let mut scene = Scene::new();
    /// let zone = scene.push_sensor(Aabb::new(0.0, 0.0, 4.0, 4.0));
    /// let player = scene.push(Circle::new(-2.0, 2.0, 0.5));
    /// let mut finder = PairFinder::new();
    /// let mut pairs = Vec::new();
    /// finder.overlapping_pairs(&scene, &mut pairs);
    /// assert!(pairs.is_empty());
    /// scene.set(player, Circle::new(1.0, 2.0, 0.5));
    /// finder.overlapping_pairs(&scene, &mut pairs);
    /// assert_eq!(finder.began(), [(zone, player)]); // the zone knows who entered
    /// let mut contacts = Vec::new();
    /// finder.contacts(&scene, &mut contacts);
    /// assert!(contacts.is_empty()); // but nothing pushes the player out
    /// ```
    #[inline]
    pub fn push_sensor(&mut self, shape: impl Into<Shape>) -> u32 {
        self.push_sensor_with(shape, Filter::ALL)
    }

    /// Adds a moving sensor (see [`push_sensor`](Self::push_sensor)) with `filter`; returns
    /// its id.
    ///
    /// # Panics
    /// If the scene already holds [`MAX_SHAPES`] shapes.
    #[inline]
    pub fn push_sensor_with(&mut self, shape: impl Into<Shape>, filter: Filter) -> u32 {
        let rule = Rule {
            filter,
            sensor: true,
        };
        self.insert(shape.into(), rule, false)
    }

    /// Whether `id` is a live sensor (see [`push_sensor`](Self::push_sensor)).
    #[must_use]
    pub fn is_sensor(&self, id: u32) -> bool {
        self.rule(id).is_some_and(|r| r.sensor)
    }

    /// Makes shape `id` a sensor (`true`) or a solid shape (`false`), keeping its filter; its
    /// pairs follow from the next call on.
    ///
    /// # Panics
    /// If `id` is not a live shape of this scene.
    pub fn set_sensor(&mut self, id: u32, sensor: bool) {
        self.change_rule(id, "Scene::set_sensor", |r| Rule { sensor, ..r });
    }

    /// The [`Rule`] of a live id.
    #[inline(always)]
    pub(crate) fn rule(&self, id: u32) -> Option<Rule> {
        self.record(id).map(|r| self.filters.all()[r.filter()])
    }

    /// Replaces the rule of live `id` by `change` of it, or panics naming `what`.
    fn change_rule(&mut self, id: u32, what: &str, change: impl FnOnce(Rule) -> Rule) {
        let s = self.live(id, what);
        let (store, slot) = self.store_of(s);
        let old = self.filters.all()[store.records[slot].filter()];
        let index = self.filters.acquire(change(old));
        let (store, slot) = self.store_mut(s);
        let r = &mut store.records[slot];
        let old = r.filter() as u32;
        r.kind = r.kind & CLASS | index << FILTER_SHIFT;
        store.stamps.stamp(slot);
        self.filters.release(old);
    }

    /// Removes shape `id` and returns it; `None` (and nothing changes) when `id` is not a live
    /// shape. From the next call on, `id` is in no answer, and a kept finder reports its
    /// pairs as [`ended`](crate::PairFinder::ended). The id is never handed out again.
    pub fn remove(&mut self, id: u32) -> Option<Shape> {
        let s = self.handles.slot(id)?;
        let (store, slot) = self.store_mut(s);
        let filter = store.records[slot].filter() as u32;
        let (shape, moved) = store.remove(slot);
        if let Some(m) = moved {
            self.handles.place(m, s);
        }
        self.filters.release(filter);
        self.handles.release(id);
        Some(shape)
    }

    /// The user data of shape `id` (0 until [`set_user_data`](Self::set_user_data)), or `None`
    /// when `id` is not live.
    #[inline]
    #[must_use]
    pub fn user_data(&self, id: u32) -> Option<u64> {
        self.handles.data(id)
    }

    /// Sets the user data of shape `id`; it stays through [`set`](Self::set) and
    /// [`update`](Self::update) and goes with [`remove`](Self::remove).
    ///
    /// # Panics
    /// If `id` is not a live shape of this scene.
    pub fn set_user_data(&mut self, id: u32, data: u64) {
        assert!(
            self.handles.set_data(id, data),
            "Scene::set_user_data: shape id {id} is not in this Scene (never pushed, or removed)"
        );
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
        self.rule(id).map(|r| r.filter)
    }

    /// Replaces every live moving shape `id` by `f(id, shape)`, on rayon's threads, with the
    /// rules of [`set`](Self::set): the frame loop's move, in one call. `f` is called exactly
    /// once per live moving shape, in no particular order, and never for a static shape. A
    /// shape `f` returns unchanged, bit for bit, is left as it is (its box and record are not
    /// computed again), and a kept finder's next call checks it by a word rather than by its
    /// box and record and decides none of its pairs again (a polygon too: the finder keeps
    /// its vertices' copy).
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
        // The slots whose shapes change take one new version.
        let version = store.stamps.next();
        // Every block of slots gets its polygon block, so that each task owns those of its
        // slots.
        store
            .polygons
            .resize_with(n.div_ceil(POLYGON_BLOCK), PolygonBlock::default);
        // Called from a thread outside rayon's pool (a game's own), the pass is handed over
        // once and runs on one of the pool's threads, where it is split as the finder's passes
        // are (`awake::map_reduce`: one group a thread on more than four threads, a finished
        // half waiting awake for the other) rather than down rayon's own tree from outside.
        let change = crate::tasks::on_pool(n, false, || {
            let blocks = store
                .boxes
                .par_chunks_mut(POLYGON_BLOCK)
                .zip(store.records.par_chunks_mut(POLYGON_BLOCK))
                .zip(store.polygons.par_iter_mut())
                .zip(store.stamps.of.par_chunks_mut(POLYGON_BLOCK))
                .enumerate()
                // Small scenes stay on one thread: waking another costs more than it saves.
                .with_min_len(if n < MIN_UPDATE {
                    n.div_ceil(POLYGON_BLOCK)
                } else {
                    1
                });
            // Each block's change of counts, summed; a thread that ends its half first waits
            // for the other half awake (`awake::map_reduce`).
            crate::awake::map_reduce(
                blocks,
                || [0; 2],
                |(k, (((boxes, records), block), stamps))| {
                    let mut change = [0isize; 2];
                    let len = records.len().min(boxes.len()).min(stamps.len());
                    for j in 0..len {
                        // The lines a few dozen slots ahead asked for: at a million shapes the
                        // frame between two updates leaves none of them in cache, and the loop
                        // waited for each record in turn.
                        if let (Some(r), Some(b)) = (records.get(j + AHEAD), boxes.get(j + AHEAD)) {
                            prefetch(r);
                            prefetch(b);
                        }
                        let (b, r, stamp) = (&mut boxes[j], &mut records[j], &mut stamps[j]);
                        let shape = f(r.id, shape_of(r, |h| block.polygon(h)));
                        // The same bits make the same record and box: nothing to write.
                        if made_from(r, &shape, |h| block.polygon(h)) {
                            continue;
                        }
                        let (nb, nr) = block.place(k, r.id, r.kind & !CLASS, Some(r), &shape);
                        let [i, u] = count_change(Some(r), Some(&nr));
                        change = [change[0] + i, change[1] + u];
                        // A polygon that stays one keeps its record (its handle: its vertices
                        // and box changed under it), and is stamped all the same.
                        *stamp = version;
                        (*b, *r) = (nb, nr);
                    }
                    change
                },
                |a, b| [a[0] + b[0], a[1] + b[1]],
            )
        });
        store.count(change);
    }

    /// Shape `id`, or `None` when it is not a live shape.
    #[must_use]
    pub fn get(&self, id: u32) -> Option<Shape> {
        self.locate(id).map(|(store, slot)| store.shape(slot))
    }

    /// The live shapes with their ids, by index (the ids' low bits, see [`MAX_SHAPES`]): in id
    /// order in a scene that never removed a shape.
    pub fn iter(&self) -> impl Iterator<Item = (u32, Shape)> + '_ {
        self.handles.live().map(|(id, s)| {
            let (store, slot) = self.store_of(s);
            (id, store.shape(slot))
        })
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

    /// Removes every shape, as [`remove`](Self::remove) of each would, keeping the allocations
    /// and the cell size setting. The ids' generations stay: no id handed out before the clear
    /// is handed out after it, so a kept finder sees every old pair end and every new one
    /// begin.
    pub fn clear(&mut self) {
        self.moving.clear();
        self.statics.clear();
        self.handles.release_all();
        self.filters.clear();
        self.static_epoch = 0;
    }
}

/// Fewest shapes [`Scene::update`] splits over threads (in blocks of [`POLYGON_BLOCK`]).
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

//! [`Scene`]: the shapes, each with the padded box and the record a frame reads, computed once
//! by [`push`](Scene::push) and [`set`](Scene::set).

use super::MAX_SHAPES;
use super::finder::PairFinder;
use super::records::{AABB, CIRCLE, INVALID, KIND, OBB, POLYGON, Record, UNBOUNDED, classify};
use crate::shape::{Aabb, Circle, Obb, Polygon, Shape};
use rayon::prelude::*;

/// Ids per block of polygon storage: the polygons of ids `k·B .. (k + 1)·B` live in block `k`,
/// so that [`Scene::update`] gives each thread the blocks of its own ids.
pub(crate) const POLYGON_BLOCK: usize = 4096;

/// The polygons of one block of ids, by slot, and the free slots.
#[derive(Clone, Debug, Default)]
pub(crate) struct PolygonBlock {
    pub(crate) slots: Vec<Polygon>,
    free: Vec<u32>,
}

impl PolygonBlock {
    /// Stores `p` in `reuse` (the slot of the shape being replaced), a free slot, or a new
    /// one; returns the slot.
    fn store(&mut self, p: Polygon, reuse: Option<u32>) -> u32 {
        match reuse.or_else(|| self.free.pop()) {
            Some(slot) => {
                self.slots[slot as usize] = p;
                slot
            }
            None => {
                self.slots.push(p);
                (self.slots.len() - 1) as u32
            }
        }
    }

    /// The box and record of `shape` at `id`, replacing `old` (the record it had, if any): a
    /// polygon keeps the slot of the polygon it replaces, and a slot no longer used is freed.
    #[inline(always)]
    fn place(&mut self, id: u32, old: Option<&Record>, shape: &Shape) -> ([f32; 4], Record) {
        let (b, mut r) = classify(shape, id);
        let old_slot = old
            .filter(|o| o.kind & KIND == POLYGON)
            .map(|o| o.fields[0].to_bits());
        match shape {
            Shape::Polygon(p) => r.fields[0] = f32::from_bits(self.store(*p, old_slot)),
            _ => self.free.extend(old_slot),
        }
        (b, r)
    }

    /// The shape a record was made from, bit for bit.
    #[inline(always)]
    fn shape_of(&self, r: &Record) -> Shape {
        let f = r.fields;
        match r.kind & KIND {
            CIRCLE => Circle::new(f[0], f[1], f[2]).into(),
            AABB => Aabb::new(f[0], f[1], f[2], f[3]).into(),
            OBB => Obb::from_rotation(f[0], f[1], f[2], f[3], f[4], f[5]).into(),
            _ => self.slots[f[0].to_bits() as usize].into(),
        }
    }
}

/// How a replaced record changes the counts of invalid and unbounded shapes.
#[inline(always)]
fn count_change(old: Option<&Record>, new: &Record) -> [isize; 2] {
    let flag = |r: &Record, f: u32| isize::from(r.kind & f != 0);
    let was = |f: u32| old.map_or(0, |o| flag(o, f));
    [
        flag(new, INVALID) - was(INVALID),
        flag(new, UNBOUNDED) - was(UNBOUNDED),
    ]
}

/// A set of circles, AABBs, OBBs and convex polygons, identified by insertion index.
///
/// A scene keeps, beside each shape, what a frame needs from it: its padded bounding box and
/// whether it is valid. [`push`](Scene::push) and [`set`](Scene::set) compute them once, so a
/// frame does not revisit every shape's kind.
///
/// ```
/// use widephase::{Aabb, Circle, Obb, Scene};
/// let mut scene = Scene::new();
/// let a = scene.push(Circle::new(0.0, 0.0, 1.0));
/// let b = scene.push(Aabb::new(0.5, -0.5, 3.0, 0.5));
/// let c = scene.push(Obb::new(2.5, 0.0, 0.25, 2.0, 0.3));
/// scene.push(Circle::new(10.0, 10.0, 1.0));
/// assert_eq!(scene.overlapping_pairs(), [(a, b), (b, c)]);
///
/// // Move a shape between frames.
/// scene.set(a, Circle::new(2.5, 2.0, 0.5));
/// assert_eq!(scene.overlapping_pairs(), [(a, c), (b, c)]);
/// ```
#[derive(Clone, Debug, Default)]
pub struct Scene {
    /// Per shape: its padded bounding box, with a NaN `min_x` when the grid leaves it out
    /// (invalid or unbounded).
    pub(crate) boxes: Vec<[f32; 4]>,
    /// Per shape: its fields, id and kind code.
    pub(crate) records: Vec<Record>,
    /// How many shapes fail [`Shape::check`], and how many are unbounded.
    pub(crate) invalid: usize,
    pub(crate) unbounded: usize,
    /// Polygons' vertices, out of line, by block of ids (a record holds its polygon's slot in
    /// the block of its id).
    pub(crate) polygons: Vec<PolygonBlock>,
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

    /// Adds a shape; its id is its insertion index.
    ///
    /// # Panics
    /// If the scene already holds [`MAX_SHAPES`] shapes.
    #[inline]
    pub fn push(&mut self, shape: impl Into<Shape>) -> u32 {
        assert!(
            self.records.len() < MAX_SHAPES,
            "a Scene holds at most {MAX_SHAPES} shapes"
        );
        let id = self.records.len() as u32;
        let (b, r) = self.block_of(id).place(id, None, &shape.into());
        self.count(count_change(None, &r));
        self.boxes.push(b);
        self.records.push(r);
        id
    }

    /// The polygon block of `id`, created with the blocks before it if need be.
    fn block_of(&mut self, id: u32) -> &mut PolygonBlock {
        let k = id as usize / POLYGON_BLOCK;
        if self.polygons.len() <= k {
            self.polygons.resize_with(k + 1, PolygonBlock::default);
        }
        &mut self.polygons[k]
    }

    /// Replaces shape `id` (to move it, resize it, or change its kind).
    ///
    /// # Panics
    /// If `id >= len()`.
    #[inline]
    pub fn set(&mut self, id: u32, shape: impl Into<Shape>) {
        let len = self.records.len();
        let Some(old) = self.records.get(id as usize).copied() else {
            panic!("shape id {id} out of range for a Scene of {len}");
        };
        let (b, r) = self.block_of(id).place(id, Some(&old), &shape.into());
        self.count(count_change(Some(&old), &r));
        self.boxes[id as usize] = b;
        self.records[id as usize] = r;
    }

    /// Replaces every shape `id` by `f(id, shape)`, on rayon's threads, with the rules of
    /// [`set`](Self::set): the frame loop's move, in one call.
    ///
    /// ```
    /// use widephase::{Circle, Obb, PairFinder, Scene, Shape};
    /// let mut scene: Scene = (0..1000).map(|i| Circle::new(i as f32, 0.0, 0.4)).collect();
    /// // Every circle one step to the right; circle 7 becomes a rotated box.
    /// scene.update(|id, shape| match shape {
    ///     _ if id == 7 => Obb::new(7.0, 0.0, 0.5, 0.1, 0.3).into(),
    ///     Shape::Circle(c) => Circle::new(c.x + 0.25, c.y, c.radius).into(),
    ///     other => other,
    /// });
    /// assert_eq!(scene.get(0), Shape::Circle(Circle::new(0.25, 0.0, 0.4)));
    /// assert!(matches!(scene.get(7), Shape::Obb(_)));
    /// ```
    pub fn update(&mut self, f: impl Fn(u32, Shape) -> Shape + Sync + Send) {
        let n = self.records.len();
        // Every block of ids gets its polygon block, so that each task owns those of its ids.
        self.polygons
            .resize_with(n.div_ceil(POLYGON_BLOCK), PolygonBlock::default);
        let change = self
            .boxes
            .par_chunks_mut(POLYGON_BLOCK)
            .zip(self.records.par_chunks_mut(POLYGON_BLOCK))
            .zip(self.polygons.par_iter_mut())
            .enumerate()
            // Small scenes stay on one thread: waking another costs more than it saves.
            .with_min_len(MIN_UPDATE / POLYGON_BLOCK)
            .map(|(k, ((boxes, records), block))| {
                let mut change = [0isize; 2];
                for (j, (b, r)) in boxes.iter_mut().zip(records.iter_mut()).enumerate() {
                    let id = (k * POLYGON_BLOCK + j) as u32;
                    let shape = f(id, block.shape_of(r));
                    let (nb, nr) = block.place(id, Some(r), &shape);
                    let [i, u] = count_change(Some(r), &nr);
                    change = [change[0] + i, change[1] + u];
                    (*b, *r) = (nb, nr);
                }
                change
            })
            .reduce(|| [0; 2], |a, b| [a[0] + b[0], a[1] + b[1]]);
        self.count(change);
    }

    /// Applies a change of the counts of invalid and unbounded shapes.
    #[inline(always)]
    fn count(&mut self, [invalid, unbounded]: [isize; 2]) {
        self.invalid = self.invalid.wrapping_add_signed(invalid);
        self.unbounded = self.unbounded.wrapping_add_signed(unbounded);
    }

    /// Shape `id`.
    ///
    /// # Panics
    /// If `id >= len()`.
    #[must_use]
    pub fn get(&self, id: u32) -> Shape {
        match self.records.get(id as usize) {
            Some(r) => self.shape_of(r),
            None => panic!(
                "shape id {id} out of range for a Scene of {}",
                self.records.len()
            ),
        }
    }

    /// The shapes in id order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = Shape> + '_ {
        self.records.iter().map(|r| self.shape_of(r))
    }

    /// The shape a record was made from, bit for bit.
    fn shape_of(&self, r: &Record) -> Shape {
        // Only a polygon's record reads its block, which exists.
        static NONE: PolygonBlock = PolygonBlock {
            slots: Vec::new(),
            free: Vec::new(),
        };
        let block = self.polygons.get(r.id as usize / POLYGON_BLOCK);
        block.unwrap_or(&NONE).shape_of(r)
    }

    /// Number of shapes.
    #[must_use]
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// Whether the scene holds no shapes.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// Removes every shape, keeping the allocation and the cell size setting.
    pub fn clear(&mut self) {
        self.boxes.clear();
        self.records.clear();
        self.polygons.clear();
        self.invalid = 0;
        self.unbounded = 0;
    }

    /// Every pair `(a, b)`, `a < b`, whose shapes overlap by the kernels' exact answer; sorted,
    /// without duplicates. Shapes that fail [`Shape::check`] are never paired.
    ///
    /// Allocates its scratch and its answer; a frame loop should keep a [`PairFinder`] instead.
    #[must_use]
    pub fn overlapping_pairs(&self) -> Vec<(u32, u32)> {
        let mut out = Vec::new();
        PairFinder::new().overlapping_pairs_from_scratch(self, &mut out);
        out
    }

    /// The pairs of [`overlapping_pairs`](Self::overlapping_pairs), in the same order, each with
    /// its [`Contact`](crate::Contact): `(a, b, contact)`, the normal pointing from shape `a`
    /// towards shape `b`.
    ///
    /// Allocates its scratch and its answer; a frame loop should keep a [`PairFinder`] and call
    /// [`PairFinder::contacts`] instead.
    ///
    /// ```
    /// use widephase::{Circle, Scene};
    /// let scene: Scene = [Circle::new(0.0, 0.0, 1.0), Circle::new(1.5, 0.0, 1.0)]
    ///     .into_iter()
    ///     .collect();
    /// let contacts = scene.contacts();
    /// assert_eq!(contacts.len(), 1);
    /// let (a, b, c) = contacts[0];
    /// assert_eq!((a, b, c.normal, c.depth), (0, 1, [1.0, 0.0], 0.5));
    /// ```
    #[must_use]
    pub fn contacts(&self) -> Vec<(u32, u32, crate::Contact)> {
        let mut out = Vec::new();
        PairFinder::new().contacts_from_scratch(self, &mut out);
        out
    }

    /// Every pair `(id in self, id in other)` whose shapes overlap, sorted (for example bullets
    /// against enemies). Uses `self`'s cell size setting.
    #[must_use]
    pub fn pairs_with(&self, other: &Scene) -> Vec<(u32, u32)> {
        let mut out = Vec::new();
        PairFinder::new().pairs_with(self, other, &mut out);
        out
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
        self.boxes.reserve(more);
        self.records.reserve(more);
        for s in iter {
            self.push(s);
        }
    }
}

//! [`Scene`]: the shapes, each with the padded box and the record a frame reads, computed once
//! by [`push`](Scene::push) and [`set`](Scene::set).

use super::MAX_SHAPES;
use super::finder::PairFinder;
use super::records::{AABB, CIRCLE, INVALID, KIND, OBB, POLYGON, Record, UNBOUNDED, classify};
use crate::shape::{Aabb, Circle, Obb, Polygon, Shape};

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
    /// Polygons' vertices, out of line (a record holds its polygon's slot), and free slots.
    pub(crate) polygons: Vec<Polygon>,
    free_slots: Vec<u32>,
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
        let shape = shape.into();
        let (b, mut r) = classify(&shape, id);
        if let Shape::Polygon(p) = shape {
            r.fields[0] = f32::from_bits(self.polygon_slot(p, None));
        }
        self.count(&r, 1);
        self.boxes.push(b);
        self.records.push(r);
        id
    }

    /// Stores a polygon in `reuse` (a slot the shape being replaced held), a free slot, or a
    /// new one; returns the slot.
    fn polygon_slot(&mut self, p: Polygon, reuse: Option<u32>) -> u32 {
        let slot = match reuse.or_else(|| self.free_slots.pop()) {
            Some(slot) => slot,
            None => {
                self.polygons.push(p);
                return (self.polygons.len() - 1) as u32;
            }
        };
        self.polygons[slot as usize] = p;
        slot
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
        let shape = shape.into();
        let (b, mut r) = classify(&shape, id);
        let old_slot = (old.kind & KIND == POLYGON).then(|| old.fields[0].to_bits());
        match shape {
            Shape::Polygon(p) => r.fields[0] = f32::from_bits(self.polygon_slot(p, old_slot)),
            _ => self.free_slots.extend(old_slot),
        }
        self.count(&old, -1);
        self.count(&r, 1);
        self.boxes[id as usize] = b;
        self.records[id as usize] = r;
    }

    /// Keeps the counts of invalid and unbounded shapes as `r` comes (`+1`) or goes (`-1`).
    #[inline(always)]
    fn count(&mut self, r: &Record, delta: isize) {
        self.invalid = self
            .invalid
            .wrapping_add_signed(delta * isize::from(r.kind & INVALID != 0));
        self.unbounded = self
            .unbounded
            .wrapping_add_signed(delta * isize::from(r.kind & UNBOUNDED != 0));
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
        let f = r.fields;
        match r.kind & KIND {
            CIRCLE => Circle::new(f[0], f[1], f[2]).into(),
            AABB => Aabb::new(f[0], f[1], f[2], f[3]).into(),
            OBB => Obb::from_rotation(f[0], f[1], f[2], f[3], f[4], f[5]).into(),
            _ => self.polygons[f[0].to_bits() as usize].into(),
        }
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
        self.free_slots.clear();
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
        PairFinder::new().overlapping_pairs(self, &mut out);
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

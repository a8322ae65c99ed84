//! [`Scene`]: many mixed shapes in, every overlapping pair out, through a uniform grid and the
//! eight-lane kernels.
//!
//! One frame runs these phases (timed in [`FrameStats`]):
//! 1. **build**: every valid shape's bounding box, padded so that rounding in a kernel can never
//!    report a pair whose boxes do not touch, goes into a multi-level grid built by counting sort
//!    (see below), and the shapes are copied into the grid's cell order;
//! 2. **search**: each box is tested, eight lanes at a time, against the boxes in the cells of a
//!    window around it; each overlapping pair of boxes is found exactly once, with no pass to
//!    remove duplicates;
//! 3. **pack** and **kernels**: each candidate is filed by pair kind; every 64 candidates of a
//!    kind are copied into lane blocks (a partial block padded with inert lanes) and decided
//!    exactly by the kernels, while the shapes are still in cache;
//! 4. **sort**: the answer is radix-sorted.
//!
//! Everything but the sort runs on rayon's threads; the sorted answer is the same on any number
//! of threads.
//!
//! **Queries.** [`PairFinder::index`] builds the same grid for [`SceneIndex::raycast`] (the
//! nearest shape a ray hits, walking the grid along the ray), [`SceneIndex::query_aabb`] and
//! [`SceneIndex::query_point`] (the shapes overlapping a box or containing a point); each answers
//! exactly what testing every shape with the kernels would. [`Scene::raycast`] and its twins do
//! the same with a grid of their own.
//!
//! **Polygons** in a scene keep their vertices out of line (a record holds a slot), so circles
//! and boxes do not pay for eight vertices.
//!
//! **The grid.** Shapes are sorted into levels by the larger side of their bounding box, each
//! level a factor 8 in size, aligned so that the median size is in the middle of its level.
//! Each level is a uniform grid whose cell side is chosen from its shapes' size and density.
//! A shape is entered once, in the cell of its box's minimum corner; it looks for partners in
//! the cells where a box that can reach it must have its corner, among the shapes sorted before
//! it in its own level and all shapes of the finer levels. The window is computed with monotone
//! roundings, so no pair is lost to rounding, clamping or huge coordinates.
//!
//! **What it costs.** A frame is linear in the number of shapes and candidate pairs while shapes
//! are spread out. Mixed sizes cost a few levels, not coarse cells for everyone: a large shape
//! looks up the finer levels' cells under it (one that covers everything costs one pass over
//! them). Shapes piled on one point share one cell and cost their number squared (every pair
//! overlaps, so the answer is that large anyway). A shape with infinite bounds, or bounds beyond
//! ±2⁶⁰ where a kernel's squares could overflow, is tested against every other shape. A level
//! never has more than about four cells per shape; far outliers (beyond the 0.1 % and 99.9 %
//! quantiles) are clamped into its border cells, which costs only the outliers' own tests.
//!
//! **Memory.** A scene keeps 48 bytes per shape (box and record) plus a polygon's vertices; a
//! [`PairFinder`] about 130 bytes per shape once it has seen a scene of more than 16 k shapes
//! (records and boxes in cell order, and 64 bytes of staging for the two-pass sort), plus the
//! grid's cells and the answer. It keeps its buffers from frame to frame.

mod query;
pub use query::SceneIndex;

use crate::batch::Overlaps;
use crate::broadphase::counting_sort::{Staged, chunking};
use crate::broadphase::grid::Grid;
use crate::shape::{Aabb, Circle, MAX_VERTICES, Obb, Polygon, Shape};
use crate::soa::{
    AabbX8, Aabbs, CircleX8, Circles, LANES, ObbX8, Obbs, PolygonX8, Polygons, ShapeSoa,
};
use core::ops::Range;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};
use wide::f32x8;

/// Bit of an internal id that says the shape belongs to the second scene of `pairs_with`.
const SIDE: u32 = 1 << 31;
/// Largest number of shapes in one scene: ids are `u32` and one bit is kept for the side.
pub const MAX_SHAPES: usize = (SIDE - 1) as usize;
/// Bounds beyond this magnitude could overflow a kernel's squares: such shapes skip the grid.
const BOUNDED: f32 = (1u64 << 60) as f32;

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
    boxes: Vec<[f32; 4]>,
    /// Per shape: its fields, id and kind code.
    records: Vec<Record>,
    /// How many shapes fail [`Shape::check`], and how many are unbounded.
    invalid: usize,
    unbounded: usize,
    /// Polygons' vertices, out of line (a record holds its polygon's slot), and free slots.
    polygons: Vec<Polygon>,
    free_slots: Vec<u32>,
    cell_size: Option<f32>,
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

/// What one frame of a [`PairFinder`] did and how long each phase took.
///
/// Search, pack and kernel times are summed over the threads that ran them (CPU time); on one
/// thread they are wall time. Packing and kernels run in small batches inside the search, so the
/// search time excludes them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FrameStats {
    /// Shapes in the scene(s).
    pub shapes: usize,
    /// Shapes never paired because they fail [`Shape::check`].
    pub invalid: usize,
    /// Shapes with infinite or overflow-prone bounds, tested against every other shape.
    pub unbounded: usize,
    /// Grid levels (shapes are sorted into levels by size, a factor 8 per level).
    pub levels: usize,
    /// Shapes in the levels coarser than the level of the median size.
    pub large: usize,
    /// Cells over all levels.
    pub cells: usize,
    /// The cell side of the median size's level.
    pub cell_size: f32,
    /// Candidate pairs (overlapping bounding boxes) handed to the kernels.
    pub candidates: usize,
    /// Overlapping pairs found.
    pub pairs: usize,
    /// Building the grid and copying the shapes into cell order.
    pub build: Duration,
    /// Pairing bounding boxes through the grid.
    pub search: Duration,
    /// Copying candidates' shapes into lane blocks.
    pub pack: Duration,
    /// Running the kernels and collecting their hits.
    pub kernels: Duration,
    /// Sorting the answer.
    pub sort: Duration,
}

/// The reusable scratch of the pair search: grid arrays, shapes in cell order, candidate
/// batches, the sort's buffers. Keep one across frames and a steady frame loop allocates
/// nothing once the buffers have grown.
///
/// ```
/// use widephase::{Circle, PairFinder, Scene};
/// let mut scene: Scene = (0..100).map(|i| Circle::new(i as f32, 0.0, 0.6)).collect();
/// let mut finder = PairFinder::new();
/// let mut pairs = Vec::new();
/// for frame in 0..3 {
///     for id in 0..100 {
///         scene.set(id, Circle::new(id as f32 + frame as f32 * 0.1, 0.0, 0.6));
///     }
///     finder.overlapping_pairs(&scene, &mut pairs);
///     assert_eq!(pairs.len(), 99); // each circle touches its neighbours
/// }
/// assert_eq!(finder.stats().pairs, 99);
/// ```
#[derive(Debug, Default)]
pub struct PairFinder {
    /// Both scenes' boxes, for `pairs_with`.
    boxes: Vec<[f32; 4]>,
    grid: Grid,
    /// Input indices of the unbounded shapes.
    unbounded: Vec<u32>,
    /// Per position: the records in the grid's order, then the unbounded shapes, then one inert
    /// sentinel that pads partial lane blocks.
    sorted: Vec<Record>,
    /// Scratch of the grid's two-pass sort.
    staged: Vec<Staged<Record>>,
    jobs: Vec<Job>,
    keys: Vec<AtomicU64>,
    keys_tmp: Vec<AtomicU64>,
    digit_counts: Vec<u32>,
    stats: FrameStats,
}

impl PairFinder {
    /// Empty scratch.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// [`Scene::overlapping_pairs`] into `out` (cleared first), reusing this scratch.
    pub fn overlapping_pairs(&mut self, scene: &Scene, out: &mut Vec<(u32, u32)>) {
        self.run(&[scene], scene.cell_size, out);
    }

    /// [`Scene::pairs_with`] into `out` (cleared first), reusing this scratch.
    pub fn pairs_with(&mut self, scene: &Scene, other: &Scene, out: &mut Vec<(u32, u32)>) {
        self.run(&[scene, other], scene.cell_size, out);
    }

    /// What the last frame did.
    #[must_use]
    pub fn stats(&self) -> &FrameStats {
        &self.stats
    }

    fn run(&mut self, sides: &[&Scene], cell_size: Option<f32>, out: &mut Vec<(u32, u32)>) {
        let cross = sides.len() == 2;
        let start = Instant::now();
        let mut stats = FrameStats {
            shapes: sides.iter().map(|s| s.len()).sum(),
            invalid: sides.iter().map(|s| s.invalid).sum(),
            unbounded: sides.iter().map(|s| s.unbounded).sum(),
            ..FrameStats::default()
        };
        let sentinel = self.build(sides, cell_size);
        stats.build = start.elapsed();
        stats.levels = self.grid.levels();
        stats.large = self.grid.coarse();
        stats.cells = self.grid.cells();
        stats.cell_size = self.grid.cell_size();

        self.plan_jobs();
        let shared = Shared {
            grid: &self.grid,
            shapes: &self.sorted[..=sentinel],
            polygons: [&sides[0].polygons, &sides[sides.len() - 1].polygons],
            unbounded: self.unbounded.len(),
            cross,
        };
        self.jobs.par_iter_mut().for_each(|job| job.run(&shared));

        let sort = Instant::now();
        out.clear();
        for Job { narrow: job, .. } in &self.jobs {
            out.extend_from_slice(&job.pairs);
            stats.candidates += job.candidates;
            stats.search += job.search_time;
            stats.pack += job.pack_time;
            stats.kernels += job.kernel_time;
        }
        self.sort_pairs(out);
        stats.sort = sort.elapsed();
        stats.pairs = out.len();
        self.stats = stats;
    }

    /// Builds the grid over the scenes' shapes and copies their records into cell order,
    /// then the unbounded shapes, then the inert sentinel; returns the sentinel's position.
    fn build(&mut self, sides: &[&Scene], cell_size: Option<f32>) -> usize {
        let first = sides[0].len();
        let boxes = if sides.len() == 2 {
            self.boxes.clear();
            self.boxes.extend_from_slice(&sides[0].boxes);
            self.boxes.extend_from_slice(&sides[1].boxes);
            &self.boxes[..]
        } else {
            &sides[0].boxes[..]
        };
        let record = |i: u32| -> Record {
            let i = i as usize;
            if i < first {
                sides[0].records[i]
            } else {
                let r = sides[1].records[i - first];
                Record {
                    id: r.id | SIDE,
                    ..r
                }
            }
        };
        // Room for every shape and the sentinel; the grid places the entered ones in cell order.
        if self.sorted.len() < boxes.len() + 1 {
            self.sorted.resize(boxes.len() + 1, Record::INERT);
        }
        self.grid.build(
            boxes,
            cell_size,
            record,
            &mut self.staged,
            &mut self.sorted[..],
        );
        // The unbounded shapes after the grid's, then the sentinel.
        self.unbounded.clear();
        if sides.iter().any(|s| s.unbounded > 0) {
            for (side, scene) in sides.iter().enumerate() {
                let offset = if side == 0 { 0 } else { first as u32 };
                self.unbounded.extend(
                    (0..scene.len() as u32)
                        .filter(|&i| scene.records[i as usize].kind & UNBOUNDED != 0)
                        .map(|i| i + offset),
                );
            }
        }
        let entered = self.grid.len();
        for (k, &i) in self.unbounded.iter().enumerate() {
            self.sorted[entered + k] = record(i);
        }
        let sentinel = entered + self.unbounded.len();
        self.sorted[sentinel] = Record::INERT;
        sentinel
    }

    /// Splits the grid positions and the unbounded shapes into jobs: one job on one thread,
    /// up to four per thread otherwise (fewer for small scenes).
    fn plan_jobs(&mut self) {
        let threads = rayon::current_num_threads();
        let work = self.grid.len() + self.unbounded.len() * 64;
        let want = if threads <= 1 {
            1
        } else {
            (threads * 4).min(work / MIN_JOB + 1)
        };
        if self.jobs.len() < want {
            self.jobs.resize_with(want, Job::default);
        }
        self.jobs.truncate(want);
        let (entered, unbounded) = (self.grid.len(), self.unbounded.len());
        let split = |n: usize, k: usize| n * k / want;
        for (k, job) in self.jobs.iter_mut().enumerate() {
            job.positions = split(entered, k)..split(entered, k + 1);
            job.unbounded = split(unbounded, k)..split(unbounded, k + 1);
        }
    }

    /// Sorts the answer ascending with a least-significant-digit radix sort over the bits the
    /// ids use (a comparison sort for short answers). Each pass counts digits per chunk in
    /// parallel and scatters in parallel: a stable sort whatever the number of chunks.
    fn sort_pairs(&mut self, out: &mut [(u32, u32)]) {
        if out.len() < 512 {
            out.sort_unstable();
            return;
        }
        let (max_a, max_b) = out
            .iter()
            .fold((0, 0), |(a, b), &(x, y)| (a.max(x), b.max(y)));
        let bits_of = |m: u32| 32 - m.leading_zeros();
        let low = bits_of(max_b);
        let bits = bits_of(max_a) + low;
        let passes = bits.div_ceil(RADIX_BITS).max(1);
        let digit = bits.div_ceil(passes);
        let (mask, buckets) = ((1u64 << digit) - 1, 1usize << digit);
        let n = out.len();
        for keys in [&mut self.keys, &mut self.keys_tmp] {
            if keys.len() < n {
                keys.resize_with(n, AtomicU64::default);
            }
        }
        let (chunks, chunk) = chunking(n);
        self.keys[..n]
            .par_chunks(chunk)
            .zip(out.par_chunks(chunk))
            .for_each(|(keys, out)| {
                for (k, &(a, b)) in keys.iter().zip(out) {
                    k.store(u64::from(a) << low | u64::from(b), Relaxed);
                }
            });
        let counts = &mut self.digit_counts;
        counts.clear();
        counts.resize(chunks * buckets, 0);
        for pass in 0..passes {
            let shift = pass * digit;
            let (from, to) = (&self.keys[..n], &self.keys_tmp[..n]);
            counts
                .par_chunks_mut(buckets)
                .zip(from.par_chunks(chunk))
                .for_each(|(counts, keys)| {
                    counts.fill(0);
                    for k in keys {
                        counts[(k.load(Relaxed) >> shift & mask) as usize] += 1;
                    }
                });
            let mut sum = 0;
            for d in 0..buckets {
                for j in 0..chunks {
                    let c = &mut counts[j * buckets + d];
                    (*c, sum) = (sum, sum + *c);
                }
            }
            counts
                .par_chunks_mut(buckets)
                .zip(from.par_chunks(chunk))
                .for_each(|(cursor, keys)| {
                    for k in keys {
                        let k = k.load(Relaxed);
                        let slot = &mut cursor[(k >> shift & mask) as usize];
                        to[*slot as usize].store(k, Relaxed);
                        *slot += 1;
                    }
                });
            std::mem::swap(&mut self.keys, &mut self.keys_tmp);
        }
        let low_mask = (1u64 << low) - 1;
        out.par_chunks_mut(chunk)
            .zip(self.keys[..n].par_chunks(chunk))
            .for_each(|(out, keys)| {
                for (pair, k) in out.iter_mut().zip(keys) {
                    let k = k.load(Relaxed);
                    *pair = ((k >> low) as u32, (k & low_mask) as u32);
                }
            });
    }
}

/// Fewest shapes per job worth a rayon task (waking a sleeping worker costs tens of µs).
const MIN_JOB: usize = 16 * 1024;

/// Widest digit of the answer's radix sort: 4096 counters, which stay in the first-level cache.
const RADIX_BITS: u32 = 12;

/// Kind codes of the scene's shapes, in the kernels' argument order, in the low two bits.
const CIRCLE: u32 = 0;
const AABB: u32 = 1;
const OBB: u32 = 2;
const POLYGON: u32 = 3;
const KIND: u32 = 3;
/// Flag: the shape's bounds are infinite or beyond [`BOUNDED`].
const UNBOUNDED: u32 = 0x40;
/// Flag: the shape fails [`Shape::check`].
const INVALID: u32 = 0x80;
/// Pair kinds: bucket of a pair of kinds, first kind the smaller.
const BUCKET: [[usize; 4]; 4] = [[0, 1, 2, 3], [1, 4, 5, 6], [2, 5, 7, 8], [3, 6, 8, 9]];
/// Number of pair kinds.
const BUCKETS: usize = 10;
/// Candidate pairs collected per pair kind before they are packed and tested: whole lane
/// blocks, and their hits fit one `u64`.
const BATCH: usize = 64;
const _: () = assert!(BATCH <= 64 && BATCH.is_multiple_of(LANES));

/// One shape as the narrow phase reads it: its fields as the lane blocks take them (circle `x,
/// y, radius`; AABB `min_x, min_y, max_x, max_y`; OBB `center_x, center_y, half_width,
/// half_height, cos, sin`), its id (with [`SIDE`] for the second scene) and its kind code.
/// Half a cache line, so that copying records in any order touches one line each.
#[derive(Clone, Copy, Debug, bytemuck::Zeroable)]
#[repr(C, align(32))]
struct Record {
    fields: [f32; 6],
    id: u32,
    kind: u32,
}

impl Record {
    /// NaN fields never hit, whatever they are paired with.
    const INERT: Self = Self {
        fields: [f32::NAN; 6],
        id: 0,
        kind: INVALID,
    };
}

/// A shape's padded box (with a NaN `min_x` for shapes the grid leaves out) and its record.
#[inline(always)]
fn classify(shape: &Shape, id: u32) -> ([f32; 4], Record) {
    const OUT: [f32; 4] = [f32::NAN; 4];
    let (fields, kind) = match *shape {
        Shape::Circle(c) => ([c.x, c.y, c.radius, 0.0, 0.0, 0.0], CIRCLE),
        Shape::Aabb(b) => ([b.min_x, b.min_y, b.max_x, b.max_y, 0.0, 0.0], AABB),
        Shape::Obb(o) => (
            [
                o.center_x,
                o.center_y,
                o.half_width,
                o.half_height,
                o.cos,
                o.sin,
            ],
            OBB,
        ),
        // The slot is filled in by the scene.
        Shape::Polygon(_) => ([0.0; 6], POLYGON),
    };
    let record = |flag| Record {
        fields,
        id,
        kind: kind | flag,
    };
    if shape.check().is_err() {
        return (OUT, record(INVALID));
    }
    match padded(shape.bounding_box()) {
        Some(b) => (b, record(0)),
        None => (OUT, record(UNBOUNDED)),
    }
}

/// The box of a shape, padded against rounding, or `None` when its bounds are not finite or are
/// large enough for a kernel's squares to overflow.
///
/// A kernel computes with rounding errors of a few ULPs of the largest coordinate involved, and
/// squared distances underflow to zero below about 1e-19; growing each box by 2⁻¹⁹ of its largest
/// coordinate (about 32 ULPs) plus 1e-18 keeps every pair a kernel could report inside the grid's
/// candidates.
#[inline(always)]
fn padded(b: Aabb) -> Option<[f32; 4]> {
    let m = b
        .min_x
        .abs()
        .max(b.min_y.abs())
        .max(b.max_x.abs())
        .max(b.max_y.abs());
    // `m` is NaN when a bound is NaN; `is_nan` and the size test together keep those out too.
    if m.is_nan() || m > BOUNDED {
        return None;
    }
    let pad = m * (1.0 / (1u32 << 19) as f32) + 1e-18;
    Some([b.min_x - pad, b.min_y - pad, b.max_x + pad, b.max_y + pad])
}

/// What every job reads.
struct Shared<'a> {
    grid: &'a Grid,
    shapes: &'a [Record],
    /// Each scene's polygon slots, by side.
    polygons: [&'a [Polygon]; 2],
    unbounded: usize,
    cross: bool,
}

/// One share of the pair search and everything after it, with its own scratch.
#[derive(Debug, Default)]
struct Job {
    positions: Range<usize>,
    unbounded: Range<usize>,
    /// Candidates as the search finds them.
    found: Vec<(u32, u32)>,
    narrow: Narrow,
}

/// The narrow phase of one job: candidates by pair kind, the answer pairs, the counts and
/// times.
#[derive(Debug, Default)]
struct Narrow {
    /// Per pair kind, [`BATCH`] slots and how many are filled.
    pending: [Vec<(u32, u32)>; BUCKETS],
    filled: [usize; BUCKETS],
    pairs: Vec<(u32, u32)>,
    candidates: usize,
    search_time: Duration,
    pack_time: Duration,
    kernel_time: Duration,
}

impl Job {
    fn run(&mut self, shared: &Shared<'_>) {
        let start = Instant::now();
        let narrow = &mut self.narrow;
        narrow.pairs.clear();
        narrow.candidates = 0;
        narrow.pack_time = Duration::ZERO;
        narrow.kernel_time = Duration::ZERO;
        for pending in &mut narrow.pending {
            pending.resize(BATCH + 1, (0, 0));
        }
        narrow.filled = [0; BUCKETS];
        self.found.resize(FOUND, (0, 0));
        let mut drain = |found: &[(u32, u32)]| {
            for &(p, q) in found {
                narrow.file(shared, p, q);
            }
        };
        shared
            .grid
            .search(self.positions.clone(), &mut self.found, &mut drain);
        let entered = shared.grid.len();
        for u in self.unbounded.clone() {
            let p = (entered + u) as u32;
            for q in (0..entered).chain(entered + u + 1..entered + shared.unbounded) {
                narrow.file(shared, p, q as u32);
            }
        }
        for bucket in 0..BUCKETS {
            narrow.flush(shared, bucket);
        }
        narrow.search_time = start
            .elapsed()
            .saturating_sub(narrow.pack_time + narrow.kernel_time);
    }
}

/// Candidates a job collects before filing them by kind.
const FOUND: usize = 512;

impl Narrow {
    /// Files a candidate (two positions) under its pair kind, the smaller kind first (the
    /// kernels' argument order), and tests the batch when it is full. In `pairs_with`, a pair
    /// from one scene is dropped here. No branch depends on the kinds.
    #[inline(always)]
    fn file(&mut self, shared: &Shared<'_>, p: u32, q: u32) {
        let (rp, rq) = (&shared.shapes[p as usize], &shared.shapes[q as usize]);
        let keep = !shared.cross || (rp.id ^ rq.id) & SIDE != 0;
        let (kp, kq) = (rp.kind & KIND, rq.kind & KIND);
        let swap = kq < kp;
        let pair = if swap { (q, p) } else { (p, q) };
        let bucket = BUCKET[kp as usize][kq as usize];
        let filled = self.filled[bucket];
        self.pending[bucket][filled] = pair;
        self.filled[bucket] = filled + usize::from(keep);
        if filled + 1 == BATCH {
            self.flush(shared, bucket);
        }
    }

    fn flush(&mut self, shared: &Shared<'_>, bucket: usize) {
        match bucket {
            0 => self.test::<Circles, Circles>(shared, bucket),
            1 => self.test::<Circles, Aabbs>(shared, bucket),
            2 => self.test::<Circles, Obbs>(shared, bucket),
            3 => self.test::<Circles, Polygons>(shared, bucket),
            4 => self.test::<Aabbs, Aabbs>(shared, bucket),
            5 => self.test::<Aabbs, Obbs>(shared, bucket),
            6 => self.test::<Aabbs, Polygons>(shared, bucket),
            7 => self.test::<Obbs, Obbs>(shared, bucket),
            8 => self.test::<Obbs, Polygons>(shared, bucket),
            _ => self.test::<Polygons, Polygons>(shared, bucket),
        }
    }

    /// Packs one bucket's pending pairs into lane blocks (partial blocks padded with the inert
    /// sentinel), runs the kernel, and records the hits as answer pairs.
    fn test<A, B>(&mut self, shared: &Shared<'_>, bucket: usize)
    where
        A: Overlaps<B>,
        B: ShapeSoa,
        A::X8: FromRecords,
        B::X8: FromRecords,
    {
        let filled = self.filled[bucket];
        if filled == 0 {
            return;
        }
        let pending = &self.pending[bucket][..filled];
        let start = Instant::now();
        let sentinel = (shared.shapes.len() - 1) as u32;
        let blocks = filled.div_ceil(LANES);
        let mut a = [A::X8::INERT; BATCH / LANES];
        let mut b = [B::X8::INERT; BATCH / LANES];
        for (k, chunk) in pending.chunks(LANES).enumerate() {
            let mut at = [(sentinel, sentinel); LANES];
            at[..chunk.len()].copy_from_slice(chunk);
            a[k] = A::X8::gather(shared, at.map(|p| p.0));
            b[k] = B::X8::gather(shared, at.map(|p| p.1));
        }
        let packed = Instant::now();
        let mut hits = 0u64;
        for k in 0..blocks {
            hits |= u64::from(A::kernel(&a[k], &b[k])) << (k * LANES);
        }
        hits &= u64::MAX >> (64 - filled);
        while hits != 0 {
            let (p, q) = pending[hits.trailing_zeros() as usize];
            let (x, y) = (shared.shapes[p as usize].id, shared.shapes[q as usize].id);
            self.pairs.push(if shared.cross {
                // (id in the first scene, id in the second)
                if x & SIDE == 0 {
                    (x, y & !SIDE)
                } else {
                    (y, x & !SIDE)
                }
            } else {
                (x.min(y), x.max(y))
            });
            hits &= hits - 1;
        }
        self.candidates += filled;
        self.filled[bucket] = 0;
        let done = Instant::now();
        self.pack_time += packed - start;
        self.kernel_time += done - packed;
    }
}

/// Lane blocks built from eight positions' records.
trait FromRecords: Copy {
    /// Eight lanes that never hit.
    const INERT: Self;
    fn gather(shared: &Shared<'_>, at: [u32; LANES]) -> Self;
}

/// Field `k` of eight records, one per lane.
#[inline(always)]
fn lanes(records: &[&Record; LANES], k: usize) -> f32x8 {
    f32x8::new(core::array::from_fn(|l| records[l].fields[k]))
}

macro_rules! from_records {
    ($($X8:ty { $($field:ident: $k:literal),+ })+) => {$(
        impl FromRecords for $X8 {
            const INERT: Self = <$X8>::INERT;
            #[inline(always)]
            fn gather(shared: &Shared<'_>, at: [u32; LANES]) -> Self {
                let r: [&Record; LANES] =
                    core::array::from_fn(|l| &shared.shapes[at[l] as usize]);
                Self { $($field: lanes(&r, $k)),+ }
            }
        }
    )+};
}

from_records! {
    CircleX8 { x: 0, y: 1, radius: 2 }
    AabbX8 { min_x: 0, min_y: 1, max_x: 2, max_y: 3 }
    ObbX8 { center_x: 0, center_y: 1, half_width: 2, half_height: 3, cos: 4, sin: 5 }
}

impl FromRecords for PolygonX8 {
    const INERT: Self = PolygonX8::INERT;
    /// The polygons the records point to, from their scene's slots; the inert sentinel record
    /// stays inert.
    #[inline(always)]
    fn gather(shared: &Shared<'_>, at: [u32; LANES]) -> Self {
        let (mut xs, mut ys) = (
            [[f32::NAN; LANES]; MAX_VERTICES],
            [[f32::NAN; LANES]; MAX_VERTICES],
        );
        for (l, &i) in at.iter().enumerate() {
            let r = &shared.shapes[i as usize];
            if r.kind & KIND != POLYGON {
                continue;
            }
            let side = (r.id >> 31) as usize;
            let p = &shared.polygons[side][r.fields[0].to_bits() as usize];
            for k in 0..MAX_VERTICES {
                (xs[k][l], ys[k][l]) = (p.xs[k], p.ys[k]);
            }
        }
        PolygonX8 {
            x: core::array::from_fn(|k| f32x8::new(xs[k])),
            y: core::array::from_fn(|k| f32x8::new(ys[k])),
        }
    }
}

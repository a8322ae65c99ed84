//! [`Scene`]: many mixed shapes in, every overlapping pair out, through a uniform grid and the
//! eight-lane kernels.
//!
//! One frame runs four phases (timed in [`FrameStats`]):
//! 1. **build**: every valid shape's bounding box, padded so that rounding in a kernel can never
//!    report a pair whose boxes do not touch, goes into a [`Grid`] built by counting sort;
//! 2. **search**: each cell's boxes are paired, each pair reported by exactly one cell (see
//!    [`grid`](crate::broadphase::grid)), and the candidates are sorted into buckets by pair kind;
//! 3. **pack**: each bucket's shapes are copied into lane-block containers;
//! 4. **kernels**: [`batch_test`] decides every candidate exactly.
//!
//! Search, packing and kernels run on rayon's threads in chunks of cells; the answer is sorted at
//! the end, so it is the same on any number of threads.
//!
//! **What it costs.** A frame is linear in the number of shapes and candidate pairs while shapes
//! are spread out and of similar size. Shapes piled on one point all share one cell and cost
//! their number squared (every pair overlaps, so the answer is that large anyway). A shape
//! covering more than 16 cells is not entered in them but visits the cells it covers, so a shape
//! covering everything costs one pass over the grid. A shape with infinite bounds, or bounds
//! beyond ±2⁶⁰ where a kernel's squares could overflow, is tested against every other shape. Far
//! outliers are clamped into the grid's border cells.

use crate::batch::{Overlaps, batch_test};
use crate::broadphase::grid::{Entry, Grid};
use crate::shape::{Aabb, Shape};
use crate::soa::{Aabbs, Circles, HitMask, Obbs, ShapeSoa};
use core::ops::Range;
use rayon::prelude::*;
use std::time::{Duration, Instant};

/// Bit of an internal id that says the shape belongs to the second scene of `pairs_with`.
const SIDE: u32 = 1 << 31;
/// Largest number of shapes in one scene: ids are `u32` and one bit is kept for the side.
pub const MAX_SHAPES: usize = (SIDE - 1) as usize;
/// Bounds beyond this magnitude could overflow a kernel's squares: such shapes skip the grid.
const BOUNDED: f32 = (1u64 << 60) as f32;
/// Shapes per cell the automatic cell size aims for (measured on the pipeline bench: cells of
/// about 4 mean extents, ~8 shapes each, beat cells of 1.5 extents by 25-30 %, at 100 k and 1 M).
const SHAPES_PER_CELL: f32 = 8.0;
/// The automatic cell side stays within this many mean bounding-box extents (and above one).
const MAX_CELL_PER_EXTENT: f32 = 8.0;

const CIRCLE: u32 = 0;
const AABB: u32 = 1;
const OBB: u32 = 2;
/// Bucket of a pair of kinds, first kind the smaller.
const BUCKET: [[usize; 3]; 3] = [[0, 1, 2], [1, 3, 4], [2, 4, 5]];

/// A set of circles, AABBs and OBBs, identified by insertion index.
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
    shapes: Vec<Shape>,
    cell_size: Option<f32>,
}

impl Scene {
    /// An empty scene whose cell size is chosen from its shapes every frame.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// This scene with a fixed grid cell side instead of the automatic one (about eight shapes
    /// per cell at the scene's mean density, between one and eight mean bounding-box extents). The grid may still grow its cells to keep their number within
    /// about four per shape.
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
    pub fn push(&mut self, shape: impl Into<Shape>) -> u32 {
        assert!(
            self.shapes.len() < MAX_SHAPES,
            "a Scene holds at most {MAX_SHAPES} shapes"
        );
        self.shapes.push(shape.into());
        (self.shapes.len() - 1) as u32
    }

    /// Replaces shape `id` (to move it, resize it, or change its kind).
    ///
    /// # Panics
    /// If `id >= len()`.
    pub fn set(&mut self, id: u32, shape: impl Into<Shape>) {
        let len = self.shapes.len();
        let slot = self.shapes.get_mut(id as usize);
        *slot.unwrap_or_else(|| panic!("shape id {id} out of range for a Scene of {len}")) =
            shape.into();
    }

    /// Shape `id`.
    ///
    /// # Panics
    /// If `id >= len()`.
    #[must_use]
    pub fn get(&self, id: u32) -> Shape {
        match self.shapes.get(id as usize) {
            Some(s) => *s,
            None => panic!(
                "shape id {id} out of range for a Scene of {}",
                self.shapes.len()
            ),
        }
    }

    /// All shapes, indexed by id.
    #[must_use]
    pub fn shapes(&self) -> &[Shape] {
        &self.shapes
    }

    /// Number of shapes.
    #[must_use]
    pub fn len(&self) -> usize {
        self.shapes.len()
    }

    /// Whether the scene holds no shapes.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.shapes.is_empty()
    }

    /// Removes every shape, keeping the allocation and the cell size setting.
    pub fn clear(&mut self) {
        self.shapes.clear();
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
        for s in iter {
            self.push(s);
        }
    }
}

/// What one frame of a [`PairFinder`] did and how long each phase took.
///
/// Search, pack and kernel times are summed over the threads that ran them (CPU time); on one
/// thread they are wall time.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FrameStats {
    /// Shapes in the scene(s).
    pub shapes: usize,
    /// Shapes never paired because they fail [`Shape::check`].
    pub invalid: usize,
    /// Shapes kept out of the cells because they cover too many.
    pub large: usize,
    /// Shapes with infinite or overflow-prone bounds, tested against every other shape.
    pub unbounded: usize,
    /// Grid columns × rows.
    pub cells: usize,
    /// The grid's cell side.
    pub cell_size: f32,
    /// Cell entries (a shape appears once per cell it touches).
    pub entries: usize,
    /// Candidate pairs handed to the kernels.
    pub candidates: usize,
    /// Overlapping pairs found.
    pub pairs: usize,
    /// Bounding boxes and the grid.
    pub build: Duration,
    /// Pairing boxes within cells.
    pub search: Duration,
    /// Copying candidates' shapes into lane blocks.
    pub pack: Duration,
    /// Running the kernels and collecting their hits.
    pub kernels: Duration,
    /// Sorting the answer.
    pub sort: Duration,
}

/// The reusable scratch of the pair search: grid arrays, candidate buckets, lane-block
/// containers. Keep one across frames and a steady frame loop allocates nothing once the buffers
/// have grown.
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
    boxes: Vec<Entry>,
    unbounded: Vec<Entry>,
    coords: Vec<f32>,
    grid: Grid,
    jobs: Vec<Job>,
    sort_starts: Vec<u32>,
    sorted: Vec<(u32, u32)>,
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
        self.run(&[&scene.shapes], scene.cell_size, out);
    }

    /// [`Scene::pairs_with`] into `out` (cleared first), reusing this scratch.
    pub fn pairs_with(&mut self, scene: &Scene, other: &Scene, out: &mut Vec<(u32, u32)>) {
        self.run(&[&scene.shapes, &other.shapes], scene.cell_size, out);
    }

    /// What the last frame did.
    #[must_use]
    pub fn stats(&self) -> &FrameStats {
        &self.stats
    }

    fn run(&mut self, sides: &[&[Shape]], cell_size: Option<f32>, out: &mut Vec<(u32, u32)>) {
        let cross = sides.len() == 2;
        let start = Instant::now();
        let mut stats = FrameStats {
            shapes: sides.iter().map(|s| s.len()).sum(),
            ..FrameStats::default()
        };
        self.prepare(sides, &mut stats);
        let max_cells = 4 * self.boxes.len() as u64 + 64;
        let extent = self.mean_extent();
        let centres = self.centres(cell_size.unwrap_or(extent), max_cells);
        let cell = cell_size.unwrap_or_else(|| self.auto_cell_size(extent, centres));
        let region = [
            centres[0] - cell,
            centres[1] - cell,
            centres[2] + cell,
            centres[3] + cell,
        ];
        self.grid.build(&self.boxes, region, cell, max_cells);
        stats.build = start.elapsed();
        stats.large = self.grid.large().len();
        stats.unbounded = self.unbounded.len();
        stats.cells = self.grid.cells();
        stats.cell_size = self.grid.cell_size();
        stats.entries = self.grid.entries().len();

        self.plan_jobs();
        let (grid, boxes, unbounded) = (&self.grid, &self.boxes[..], &self.unbounded[..]);
        self.jobs.par_iter_mut().for_each(|job| {
            job.search(grid, boxes, unbounded, cross);
            job.narrow(sides, cross);
        });

        let sort = Instant::now();
        out.clear();
        for job in &self.jobs {
            out.extend_from_slice(&job.pairs);
            stats.candidates += job.candidates;
            stats.search += job.search_time;
            stats.pack += job.pack_time;
            stats.kernels += job.kernel_time;
        }
        self.sort_pairs(sides[0].len(), out);
        stats.sort = sort.elapsed();
        stats.pairs = out.len();
        self.stats = stats;
    }

    /// Sorts the answer by first id with a counting sort (O(shapes + pairs)), then each first
    /// id's few pairs by second id; falls back to a comparison sort when pairs are few.
    fn sort_pairs(&mut self, first_ids: usize, out: &mut Vec<(u32, u32)>) {
        if out.len() * 16 < first_ids {
            out.sort_unstable();
            return;
        }
        let starts = &mut self.sort_starts;
        starts.clear();
        starts.resize(first_ids + 1, 0);
        for &(a, _) in out.iter() {
            starts[a as usize + 1] += 1;
        }
        for i in 0..first_ids {
            starts[i + 1] += starts[i];
        }
        self.sorted.clear();
        self.sorted.resize(out.len(), (0, 0));
        for &(a, b) in out.iter() {
            let slot = &mut starts[a as usize];
            self.sorted[*slot as usize] = (a, b);
            *slot += 1;
        }
        // `starts[a]` is now the end of `a`'s run.
        let mut begin = 0;
        for &end in &starts[..first_ids] {
            let run = &mut self.sorted[begin..end as usize];
            if run.len() > 1 {
                run.sort_unstable_by_key(|p| p.1);
            }
            begin = end as usize;
        }
        std::mem::swap(out, &mut self.sorted);
    }

    /// Sorts every shape into invalid, bounded (with its padded box) or unbounded.
    fn prepare(&mut self, sides: &[&[Shape]], stats: &mut FrameStats) {
        self.boxes.clear();
        self.unbounded.clear();
        for (side, shapes) in sides.iter().enumerate() {
            let side_bit = if side == 0 { 0 } else { SIDE };
            for (i, shape) in shapes.iter().enumerate() {
                if shape.check().is_err() {
                    stats.invalid += 1;
                    continue;
                }
                let tag = match shape {
                    Shape::Circle(_) => CIRCLE,
                    Shape::Aabb(_) => AABB,
                    Shape::Obb(_) => OBB,
                };
                let id = i as u32 | side_bit;
                match padded(shape.bounding_box()) {
                    Some([min_x, min_y, max_x, max_y]) => self.boxes.push(Entry {
                        min_x,
                        min_y,
                        max_x,
                        max_y,
                        id,
                        tag,
                        cx0: 0,
                        cy0: 0,
                    }),
                    None => self.unbounded.push(Entry {
                        id,
                        tag,
                        ..Entry::default()
                    }),
                }
            }
        }
    }

    /// The mean larger side of the boxes; 1 if they are all points.
    fn mean_extent(&self) -> f32 {
        let sum: f64 = self
            .boxes
            .iter()
            .map(|b| f64::from((b.max_x - b.min_x).max(b.max_y - b.min_y)))
            .sum();
        let mean = (sum / self.boxes.len().max(1) as f64) as f32;
        if mean > 0.0 && mean.is_finite() {
            mean
        } else {
            1.0
        }
    }

    /// The cell side that puts about `SHAPES_PER_CELL` shapes in a cell at the scene's mean
    /// density over the `centres` region, kept between 1 and `MAX_CELL_PER_EXTENT` mean extents.
    fn auto_cell_size(&self, extent: f32, centres: [f32; 4]) -> f32 {
        let area = (centres[2] - centres[0] + extent) * (centres[3] - centres[1] + extent);
        let side = (SHAPES_PER_CELL * area / self.boxes.len().max(1) as f32).sqrt();
        if side.is_finite() {
            side.clamp(extent, extent * MAX_CELL_PER_EXTENT)
        } else {
            extent
        }
    }

    /// The region of box centres the grid covers: their bounds, or, when those would take more
    /// than `max_cells` cells of side `cell`, the 0.1 % to 99.9 % quantiles on each axis, so that
    /// a few far outliers do not stretch the grid (they are clamped into its border cells).
    fn centres(&mut self, cell: f32, max_cells: u64) -> [f32; 4] {
        let n = self.boxes.len();
        if n == 0 {
            return [0.0; 4];
        }
        let center = |b: &Entry, axis: usize| {
            if axis == 0 {
                (b.min_x + b.max_x) * 0.5
            } else {
                (b.min_y + b.max_y) * 0.5
            }
        };
        let mut bounds = [
            f32::INFINITY,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NEG_INFINITY,
        ];
        for b in &self.boxes {
            for axis in 0..2 {
                bounds[axis] = bounds[axis].min(center(b, axis));
                bounds[axis + 2] = bounds[axis + 2].max(center(b, axis));
            }
        }
        let cells = |b: &[f32; 4]| {
            let along = |lo: f32, hi: f32| (f64::from(hi - lo) / f64::from(cell)) as u64 + 3;
            along(b[0], b[2]).saturating_mul(along(b[1], b[3]))
        };
        if cells(&bounds) > max_cells {
            let (lo_k, hi_k) = (n / 1000, n - 1 - n / 1000);
            for axis in 0..2 {
                self.coords.clear();
                self.coords
                    .extend(self.boxes.iter().map(|b| center(b, axis)));
                let (_, lo, _) = self.coords.select_nth_unstable_by(lo_k, f32::total_cmp);
                bounds[axis] = *lo;
                let (_, hi, _) = self.coords.select_nth_unstable_by(hi_k, f32::total_cmp);
                bounds[axis + 2] = *hi;
            }
        }
        bounds
    }

    /// Splits the cells (by entry count), the large boxes and the unbounded shapes into jobs:
    /// one job on one thread, four per thread otherwise.
    fn plan_jobs(&mut self) {
        let threads = rayon::current_num_threads();
        let want = if threads <= 1 { 1 } else { threads * 4 };
        if self.jobs.len() < want {
            self.jobs.resize_with(want, Job::default);
        }
        self.jobs.truncate(want);
        let starts = self.grid.cell_starts();
        let cells = self.grid.cells();
        let total = *starts.last().unwrap_or(&0) as usize;
        let split = |n: usize, k: usize| n * k / want;
        let mut cell0 = 0;
        for (k, job) in self.jobs.iter_mut().enumerate() {
            let cell1 = if k + 1 == want {
                cells
            } else {
                let target = split(total, k + 1) as u32;
                starts[..cells].partition_point(|&s| s < target).max(cell0)
            };
            job.cells = cell0..cell1;
            cell0 = cell1;
            let large = self.grid.large().len();
            job.large = split(large, k)..split(large, k + 1);
            let unbounded = self.unbounded.len();
            job.unbounded = split(unbounded, k)..split(unbounded, k + 1);
        }
    }
}

/// The box of a shape, padded against rounding, or `None` when its bounds are not finite or are
/// large enough for a kernel's squares to overflow.
///
/// A kernel computes with rounding errors of a few ULPs of the largest coordinate involved, and
/// squared distances underflow to zero below about 1e-19; growing each box by 2⁻¹⁹ of its largest
/// coordinate (about 32 ULPs) plus 1e-18 keeps every pair a kernel could report inside the grid's
/// candidates.
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

/// One share of the pair search and everything after it, with its own scratch.
#[derive(Debug, Default)]
struct Job {
    cells: Range<usize>,
    large: Range<usize>,
    unbounded: Range<usize>,
    buckets: [Vec<(u32, u32)>; 6],
    circles: [Circles; 2],
    aabbs: [Aabbs; 2],
    obbs: [Obbs; 2],
    hits: HitMask,
    pairs: Vec<(u32, u32)>,
    candidates: usize,
    search_time: Duration,
    pack_time: Duration,
    kernel_time: Duration,
}

impl Job {
    fn search(&mut self, grid: &Grid, boxes: &[Entry], unbounded: &[Entry], cross: bool) {
        let start = Instant::now();
        let buckets = &mut self.buckets;
        for b in buckets.iter_mut() {
            b.clear();
        }
        let accept = |a: &Entry, b: &Entry| !cross || (a.id ^ b.id) & SIDE != 0;
        let nx = grid.dims().0 as usize;
        for c in self.cells.clone() {
            let here = grid.cell(c);
            let (cx, cy) = ((c % nx) as u32, (c / nx) as u32);
            for (i, a) in here.iter().enumerate() {
                for b in &here[i + 1..] {
                    if a.overlaps(b) && a.reported_in(b, cx, cy) && accept(a, b) {
                        emit(buckets, a, b);
                    }
                }
            }
        }
        let large = grid.large();
        for l in self.large.clone() {
            let big = &large[l];
            let e = &big.entry;
            for cy in e.cy0..=big.cy1 {
                for cx in e.cx0..=big.cx1 {
                    for b in grid.cell(cy as usize * nx + cx as usize) {
                        if e.overlaps(b) && e.reported_in(b, cx, cy) && accept(e, b) {
                            emit(buckets, e, b);
                        }
                    }
                }
            }
            for other in &large[l + 1..] {
                if e.overlaps(&other.entry) && accept(e, &other.entry) {
                    emit(buckets, e, &other.entry);
                }
            }
        }
        for u in self.unbounded.clone() {
            let e = &unbounded[u];
            for b in boxes.iter().chain(&unbounded[u + 1..]) {
                if accept(e, b) {
                    emit(buckets, e, b);
                }
            }
        }
        self.candidates = buckets.iter().map(Vec::len).sum();
        self.search_time = start.elapsed();
    }

    fn narrow(&mut self, sides: &[&[Shape]], cross: bool) {
        self.pairs.clear();
        self.pack_time = Duration::ZERO;
        self.kernel_time = Duration::ZERO;
        let [cc, ca, co, aa, ao, oo] = &self.buckets;
        let [c0, c1] = &mut self.circles;
        let [a0, a1] = &mut self.aabbs;
        let [o0, o1] = &mut self.obbs;
        let mut run = Narrow {
            sides,
            cross,
            hits: &mut self.hits,
            pairs: &mut self.pairs,
            pack: &mut self.pack_time,
            kernels: &mut self.kernel_time,
        };
        run.bucket(cc, c0, c1);
        run.bucket(ca, c0, a1);
        run.bucket(co, c0, o1);
        run.bucket(aa, a0, a1);
        run.bucket(ao, a0, o1);
        run.bucket(oo, o0, o1);
    }
}

/// Files a candidate under its pair kind, the smaller kind first (the kernels' argument order).
#[inline(always)]
fn emit(buckets: &mut [Vec<(u32, u32)>; 6], a: &Entry, b: &Entry) {
    let (first, second) = if a.tag <= b.tag { (a, b) } else { (b, a) };
    buckets[BUCKET[first.tag as usize][second.tag as usize]].push((first.id, second.id));
}

/// The packing and kernel phase of one job.
struct Narrow<'a, 's> {
    sides: &'a [&'s [Shape]],
    cross: bool,
    hits: &'a mut HitMask,
    pairs: &'a mut Vec<(u32, u32)>,
    pack: &'a mut Duration,
    kernels: &'a mut Duration,
}

impl Narrow<'_, '_> {
    fn shape(&self, id: u32) -> &Shape {
        &self.sides[(id >> 31) as usize][(id & !SIDE) as usize]
    }

    /// Packs one bucket's pairs into `a` and `b`, runs the kernel, and records the hits as
    /// answer pairs.
    fn bucket<A, B>(&mut self, bucket: &[(u32, u32)], a: &mut A, b: &mut B)
    where
        A: Overlaps<B> + Pack,
        B: ShapeSoa + Pack,
    {
        if bucket.is_empty() {
            return;
        }
        let start = Instant::now();
        a.clear_shapes();
        b.clear_shapes();
        for &(x, y) in bucket {
            a.push_shape(self.shape(x));
            b.push_shape(self.shape(y));
        }
        let packed = Instant::now();
        *self.pack += packed - start;
        batch_test(a, b, self.hits).expect("both sides packed from one bucket");
        for i in self.hits.iter_ones() {
            let (x, y) = bucket[i];
            self.pairs.push(if self.cross {
                // (id in the first scene, id in the second)
                if x & SIDE == 0 {
                    (x, y & !SIDE)
                } else {
                    (y, x & !SIDE)
                }
            } else {
                (x.min(y), x.max(y))
            });
        }
        *self.kernels += packed.elapsed();
    }
}

/// Containers the scene packs candidates into.
trait Pack {
    fn clear_shapes(&mut self);
    /// Appends the shape if it is of this container's kind; the buckets guarantee it is.
    fn push_shape(&mut self, shape: &Shape);
}

macro_rules! pack {
    ($($Soa:ty => $Variant:ident),+) => {$(
        impl Pack for $Soa {
            #[inline]
            fn clear_shapes(&mut self) {
                self.clear();
            }
            #[inline(always)]
            fn push_shape(&mut self, shape: &Shape) {
                if let Shape::$Variant(s) = shape {
                    self.push(*s);
                }
            }
        }
    )+};
}

pack!(Circles => Circle, Aabbs => Aabb, Obbs => Obb);

//! A multi-level uniform grid over bounding boxes, built by counting sort, that finds every
//! overlapping pair of boxes exactly once.
//!
//! **Levels.** Boxes are sorted into levels by size: a level takes boxes whose larger sides lie
//! within a factor 8 (three binary orders of magnitude), aligned so that the median size is in
//! the middle of its level; a scene of similar shapes is one level. Each level is its own grid,
//! with a cell side chosen from its boxes' size and density. So a few huge shapes do not force
//! coarse cells on the many small ones, and a small shape never has to look far for a large
//! neighbour: the large one looks for it.
//!
//! **One entry per box.** Within a level every box is entered once, in the cell of its minimum
//! corner `(min_x, min_y)`. The cells are numbered row by row and the boxes counting-sorted by
//! cell (count, prefix sum, scatter), so each cell, and each run of neighbouring cells within a
//! row, is one contiguous slice of the sorted boxes, which the search reads eight lanes at a
//! time. No hash map, no `Vec` per cell, and a rebuild reuses the same allocations. Above about
//! 16 k boxes the scatter takes two passes, first into bands of about 8 k boxes (runs of
//! neighbouring cells), then within each band, so that neither pass writes all over memory.
//!
//! **The search window, exact under rounding.** Let `reach` bound every box's side in a level
//! (as a real number, above the rounded sides). If `b` overlaps `a`, then `b.max_x >= a.min_x`
//! and `b.max_x - b.min_x <= reach`, so `a.min_x - reach <= b.min_x <= a.max_x`, and likewise
//! in y. The rounded `fl(a.min_x - reach)` is still `<= b.min_x` because rounding is monotone and
//! `b.min_x` is a float, and the cell function (subtract, multiply, floor, clamp) is monotone too.
//! So `b`'s cell lies in the window of columns `col(a.min_x - reach) ..= col(a.max_x)` and rows
//! `row(a.min_y - reach) ..= row(a.max_y)`, whatever the magnitudes and however far a box was
//! clamped into the border cells.
//!
//! **Each pair once.** Within a level, a box looks only at the boxes sorted *before* it: the full
//! rows of its window below its own row, and in its own row the cells from the window's left edge
//! up to its own position. Two overlapping boxes each lie in the other's window, so exactly one
//! of them, the later one, finds the pair. Across levels the box of the coarser level looks up
//! the finer level's cells, using the finer level's `reach`. No pass removes duplicates.

use core::ops::Range;
use rayon::prelude::*;
use wide::{f32x8, i32x8};

/// The key of a box that is not entered (its `min_x` is NaN).
const SKIP: u32 = u32::MAX;
/// Size classes: the biased exponent of a box's larger side.
const CLASSES: usize = 256;
/// Size classes per level: a level takes boxes whose larger sides are within a factor 8.
const CLASSES_PER_LEVEL: usize = 3;
/// NaN boxes after the sorted ones, so that a scan can read eight lanes from any position.
const PAD: usize = LANES;
/// A level with more boxes than this is trimmed to quantiles when outliers stretch it.
const TRIM_ABOVE: u64 = 512;
/// Boxes sampled, at most, to find a level's quantiles.
const QUANTILE_SAMPLE: usize = 16 * 1024;
/// Most cells along one side of a level, so that cell numbers are exact in `f32` and `i32`.
const MAX_SIDE_CELLS: f64 = (1 << 20) as f64;
/// Cost of starting a scan of one row, in units of one box looked at (see [`auto_cell`]).
const ROW_COST: f64 = 12.0;

/// How many boxes of one size class (or one level) there are, and their largest side.
#[derive(Clone, Copy, Debug, Default)]
struct ClassStats {
    count: u32,
    side: f32,
}

impl ClassStats {
    fn merge(&mut self, o: &Self) {
        self.count += o.count;
        self.side = self.side.max(o.side);
    }
}

/// Per rayon chunk: the size classes, and the bounds of the boxes' minimum corners.
#[derive(Clone, Copy, Debug)]
struct ChunkStats {
    classes: [ClassStats; CLASSES],
    /// `[lo_x, lo_y, hi_x, hi_y]`
    bounds: [f32; 4],
}

impl ChunkStats {
    const EMPTY: Self = Self {
        classes: [ClassStats {
            count: 0,
            side: 0.0,
        }; CLASSES],
        bounds: [
            f32::INFINITY,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NEG_INFINITY,
        ],
    };
}

/// The larger side of a box and its size class, or `None` for a box that is not entered.
#[inline(always)]
fn class_of(b: &[f32; 4]) -> Option<(f32, usize)> {
    if b[0].is_nan() {
        return None;
    }
    let side = (b[2] - b[0]).max(b[3] - b[1]);
    Some((side, (side.to_bits() >> 23) as usize & (CLASSES - 1)))
}

/// One level's grid: geometry and where its cells sit among all cells.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Level {
    origin_x: f32,
    origin_y: f32,
    inv_cell: f32,
    cell: f32,
    nx: u32,
    ny: u32,
    /// `nx - 1` and `ny - 1` as floats (exact: both are below 2^24).
    last_col: f32,
    last_row: f32,
    /// Index of this level's first cell among all levels' cells.
    base: u32,
    /// Above every box side of this level, as a real number.
    reach: f32,
}

impl Level {
    /// The column holding `x`, clamped to the grid. Monotone in `x`: subtraction,
    /// multiplication by a positive number, `floor` and the clamps are all monotone. The clamp
    /// happens in floating point, so the value converted is an integer in range and the
    /// conversion is exact; [`cols`](Self::cols) computes the same bits eight lanes at a time.
    #[inline(always)]
    fn col(&self, x: f32) -> u32 {
        ((x - self.origin_x) * self.inv_cell)
            .floor()
            .max(0.0)
            .min(self.last_col) as u32
    }

    /// The row holding `y`, clamped to the grid; as [`col`](Self::col).
    #[inline(always)]
    fn row(&self, y: f32) -> u32 {
        ((y - self.origin_y) * self.inv_cell)
            .floor()
            .max(0.0)
            .min(self.last_row) as u32
    }

    /// [`col`](Self::col) of eight values (for finite input: NaN lanes give an unspecified
    /// column).
    #[inline(always)]
    fn cols(&self, x: f32x8) -> i32x8 {
        let v = ((x - f32x8::splat(self.origin_x)) * f32x8::splat(self.inv_cell)).floor();
        v.fast_max(f32x8::ZERO)
            .fast_min(f32x8::splat(self.last_col))
            .fast_trunc_int()
    }

    /// [`row`](Self::row) of eight values.
    #[inline(always)]
    fn rows(&self, y: f32x8) -> i32x8 {
        let v = ((y - f32x8::splat(self.origin_y)) * f32x8::splat(self.inv_cell)).floor();
        v.fast_max(f32x8::ZERO)
            .fast_min(f32x8::splat(self.last_row))
            .fast_trunc_int()
    }

    fn cells(&self) -> usize {
        self.nx as usize * self.ny as usize
    }

    /// The cells where a box of this level that overlaps the closed box `b` can have its
    /// minimum corner: columns `x0 ..= x1` and rows `y0 ..= y1` as `[x0, x1, y0, y1]` (see the
    /// module docs for why rounding cannot lose one).
    #[inline(always)]
    fn window(&self, b: [f32; 4]) -> [u32; 4] {
        [
            self.col(b[0] - self.reach),
            self.col(b[2]),
            self.row(b[1] - self.reach),
            self.row(b[3]),
        ]
    }

    /// The global index of cell (`col`, `row`).
    #[inline(always)]
    fn cell_index(&self, col: u32, row: u32) -> usize {
        self.base as usize + row as usize * self.nx as usize + col as usize
    }
}

/// The grid. [`build`](Grid::build) sorts the boxes into cells (and lets the caller place its
/// own data in the same order); [`search`](Grid::search) reports the overlapping pairs by
/// sorted position; [`overlapping_in`](Grid::overlapping_in) answers box queries.
#[derive(Debug, Default)]
pub(crate) struct Grid {
    levels: Vec<Level>,
    /// The smallest size class of each level after the first, ascending: levels are contiguous
    /// runs of classes, so a class's level is how many of these it reaches (see
    /// [`level_of`]).
    first_classes: Vec<i32>,
    /// The level of the median size.
    main_level: usize,
    /// `starts[c] .. starts[c + 1]`: the sorted positions of global cell `c`.
    starts: Vec<u32>,
    /// Per caller box: its global cell or [`SKIP`].
    keys: Vec<u32>,
    /// Per rayon chunk of the boxes: how many of its boxes each cell holds.
    counts: Vec<u32>,
    /// Per rayon chunk of the boxes and band (see [`BAND`]): the end of the chunk's boxes of
    /// that band in its part of the staging buffer.
    band_ends: Vec<u32>,
    /// The same per chunk and band: write cursors of the first pass.
    band_cursors: Vec<u32>,
    /// Per cell: write cursor of the final pass.
    cursors: Vec<u32>,
    /// The boxes in sorted order, field by field, followed by [`PAD`] NaN boxes.
    min_x: Vec<f32>,
    min_y: Vec<f32>,
    max_x: Vec<f32>,
    max_y: Vec<f32>,
    chunk_stats: Vec<ChunkStats>,
    /// Scratch of `plan_levels`: each level's size classes merged.
    level_stats: Vec<ClassStats>,
    coords: Vec<f32>,
}

/// Below this many items per chunk, splitting a pass over threads costs more than it saves.
pub(crate) const MIN_CHUNK: usize = 16 * 1024;

/// Number of chunks a parallel pass splits `n` items into (one per thread, fewer for small
/// `n`), and the chunk length.
pub(crate) fn chunking(n: usize) -> (usize, usize) {
    let chunks = (n / MIN_CHUNK).clamp(1, rayon::current_num_threads().max(1));
    (chunks, n.div_ceil(chunks).max(1))
}

impl Grid {
    /// Rebuilds the grid over `boxes` (`[min_x, min_y, max_x, max_y]`, finite, or with a NaN
    /// `min_x` for a box to leave out), and writes `item(i)` of every entered box `i` to
    /// `out[p]`, `p` its sorted position (`out` must hold every box; the entered ones fill
    /// `out[..self.len()]`). Within a cell, boxes keep their input order.
    ///
    /// `fixed_cell`, when given, is every level's cell side instead of the automatic one. A
    /// level never has more than about four cells per box: a level whose region would need more
    /// gets larger cells, and far outliers (beyond the 0.1 % and 99.9 % quantiles of the
    /// corners) are clamped into its border cells.
    ///
    /// Large inputs are sorted in two passes (see [`BAND`]) through `staged`, a scratch buffer
    /// the caller keeps between frames.
    pub(crate) fn build<P: Copy + Send + Sync + bytemuck::Zeroable>(
        &mut self,
        boxes: &[[f32; 4]],
        fixed_cell: Option<f32>,
        item: impl Fn(u32) -> P + Sync,
        staged: &mut Vec<Staged<P>>,
        out: &mut [P],
    ) {
        let (chunks, chunk_len) = chunking(boxes.len());

        // 1. Size classes (count and largest side), and where the boxes are.
        self.chunk_stats.clear();
        self.chunk_stats.resize(chunks, ChunkStats::EMPTY);
        self.chunk_stats
            .par_iter_mut()
            .zip(boxes.par_chunks(chunk_len))
            .for_each(|(stats, part)| {
                let [mut lo_x, mut lo_y, mut hi_x, mut hi_y] = stats.bounds;
                for b in part {
                    if let Some((side, class)) = class_of(b) {
                        let c = &mut stats.classes[class];
                        c.count += 1;
                        c.side = c.side.max(side);
                        (lo_x, lo_y) = (lo_x.min(b[0]), lo_y.min(b[1]));
                        (hi_x, hi_y) = (hi_x.max(b[0]), hi_y.max(b[1]));
                    }
                }
                stats.bounds = [lo_x, lo_y, hi_x, hi_y];
            });
        let mut all = ChunkStats::EMPTY;
        for stats in &self.chunk_stats {
            for (c, s) in all.classes.iter_mut().zip(&stats.classes) {
                c.merge(s);
            }
            let (a, b) = (all.bounds, stats.bounds);
            all.bounds = [
                a[0].min(b[0]),
                a[1].min(b[1]),
                a[2].max(b[2]),
                a[3].max(b[3]),
            ];
        }

        // 2. Levels and their geometry.
        self.plan_levels(&all, boxes, fixed_cell);
        let cells = self
            .levels
            .last()
            .map_or(0, |l| l.base as usize + l.cells());

        // 3. Every box's cell, counted per chunk, eight boxes at a time (a last partial group
        //    padded with boxes that are not entered).
        let (levels, first_classes) = (&self.levels[..], &self.first_classes[..]);
        self.keys.clear();
        self.keys.resize(boxes.len(), SKIP);
        self.counts.clear();
        self.counts.resize(chunks * cells.max(1), 0);
        self.keys
            .par_chunks_mut(chunk_len)
            .zip(boxes.par_chunks(chunk_len))
            .zip(self.counts.par_chunks_mut(cells.max(1)))
            .for_each(|((keys, part), counts)| {
                for (keys, part) in keys.chunks_mut(LANES).zip(part.chunks(LANES)) {
                    let mut eight = [[f32::NAN; 4]; LANES];
                    eight[..part.len()].copy_from_slice(part);
                    let found = keys_of(levels, first_classes, &eight).to_array();
                    for (key, &cell) in keys.iter_mut().zip(&found) {
                        *key = cell as u32;
                        if cell >= 0 {
                            counts[cell as usize] += 1;
                        }
                    }
                }
            });

        // 4. Prefix sums: each cell's start, and each chunk's share of each band.
        let shift = band_shift(cells, boxes.len());
        let bands = (cells >> shift) + 1;
        self.starts.clear();
        self.starts.resize(cells + 1, 0);
        self.band_ends.clear();
        self.band_ends.resize(chunks * bands, 0);
        let mut total = 0u32;
        for c in 0..cells {
            self.starts[c] = total;
            for j in 0..chunks {
                let n = self.counts[j * cells + c];
                self.band_ends[j * bands + (c >> shift)] += n;
                total += n;
            }
        }
        self.starts[cells] = total;
        let total = total as usize;
        assert!(out.len() >= total, "room for every entered box");
        for ends in self.band_ends.chunks_mut(bands) {
            let mut end = 0;
            for e in ends {
                end += *e;
                *e = end;
            }
        }

        // 5. Into cell order. Scattering straight into cell order writes every box to a random
        //    place in memory; once the sorted data outgrows the caches, each of those writes
        //    waits for memory. So a large input first goes band by band (a band is a run of
        //    `1 << shift` cells, about BAND boxes) into `staged`, one sequential stream per band,
        //    and then each band, whose output is small enough to stay in cache, into cell
        //    order. Both passes keep the input order within a cell.
        for field in [
            &mut self.min_x,
            &mut self.min_y,
            &mut self.max_x,
            &mut self.max_y,
        ] {
            field.clear();
            field.resize(total + PAD, f32::NAN);
        }
        self.cursors.clear();
        self.cursors.extend_from_slice(&self.starts[..cells]);
        let keys = &self.keys[..];
        let target = Sorted {
            out: &mut out[..total],
            boxes: [
                &mut self.min_x[..total],
                &mut self.min_y[..total],
                &mut self.max_x[..total],
                &mut self.max_y[..total],
            ],
            cursors: &mut self.cursors[..],
        };
        if bands == 1 {
            let mut target = target;
            if let Some(first) = target.first() {
                for (i, (&key, b)) in keys.iter().zip(boxes).enumerate() {
                    if key != SKIP {
                        target.put(0, first, key, b, &item(i as u32));
                    }
                }
            }
            return;
        }
        let fill = Staged {
            key: SKIP,
            bounds: [f32::NAN; 4],
            item: P::zeroed(),
        };
        // Only growing: the second pass reads exactly what the first one wrote.
        if staged.len() < boxes.len() {
            staged.resize(boxes.len(), fill);
        }
        let mut cursors = core::mem::take(&mut self.band_cursors);
        cursors.clear();
        cursors.extend((0..chunks).flat_map(|j| {
            let ends = &self.band_ends[j * bands..][..bands];
            (0..bands).map(move |b| if b == 0 { 0 } else { ends[b - 1] })
        }));
        staged
            .par_chunks_mut(chunk_len)
            .zip(keys.par_chunks(chunk_len))
            .zip(boxes.par_chunks(chunk_len))
            .zip(cursors.par_chunks_mut(bands))
            .enumerate()
            .for_each(|(j, (((staged, keys), part), cursor))| {
                for (i, (&key, b)) in keys.iter().zip(part).enumerate() {
                    if key != SKIP {
                        let at = &mut cursor[(key >> shift) as usize];
                        staged[*at as usize] = Staged {
                            key,
                            bounds: *b,
                            item: item((j * chunk_len + i) as u32),
                        };
                        *at += 1;
                    }
                }
            });
        self.band_cursors = cursors;
        let bands_of = BandSource {
            staged,
            chunk_len,
            chunks,
            bands,
            shift,
            ends: &self.band_ends,
            starts: &self.starts,
        };
        bands_of.place(0..bands, target);
    }

    /// Chooses the levels from the size classes and lays out each level's grid.
    fn plan_levels(&mut self, all: &ChunkStats, boxes: &[[f32; 4]], fixed_cell: Option<f32>) {
        let classes = &all.classes;
        self.levels.clear();
        self.first_classes.clear();
        let total: u64 = classes.iter().map(|c| u64::from(c.count)).sum();
        if total == 0 {
            return;
        }
        // Levels of three size classes (a factor 8 in size), the median class in the middle of
        // its level, so that a scene of similar shapes is one level.
        let mut seen = 0;
        let median = classes
            .iter()
            .position(|c| {
                seen += u64::from(c.count);
                2 * seen >= total
            })
            .unwrap_or(CLASSES - 1);
        let mut stats = core::mem::take(&mut self.level_stats);
        stats.clear();
        self.main_level = 0;
        let mut last_group = None;
        for (class, c) in classes.iter().enumerate() {
            if c.count == 0 {
                continue;
            }
            let group = (class as i64 - median as i64 + 1).div_euclid(CLASSES_PER_LEVEL as i64);
            if last_group != Some(group) {
                if last_group.is_some() {
                    self.first_classes.push(class as i32);
                }
                last_group = Some(group);
                stats.push(ClassStats::default());
            }
            stats.last_mut().expect("pushed above").merge(c);
            if class == median {
                self.main_level = stats.len() - 1;
            }
        }

        let mut base = 0u32;
        for (l, s) in stats.iter().enumerate() {
            // Above every real side: a rounded side is within a factor 1 + 2^-23 of the real one.
            let reach = s.side + s.side * (1.0 / (1u32 << 20) as f32);
            let n = u64::from(s.count);
            let budget = 4 * n + 64;
            // Every level spans the bounds of all boxes' corners; a level with few boxes gets
            // cells large enough for its budget.
            let mut region = all.bounds;
            let mut cell = f64::from(fixed_cell.unwrap_or(0.0));
            if cell <= 0.0 {
                cell = auto_cell(n, region, reach);
            }
            // Far outliers would stretch the grid until the bulk of the level shares a few
            // cells: trim the region to the quantiles and clamp the outliers into the border
            // cells. A small level is left alone; even all in one cell it costs little.
            if n > TRIM_ABOVE && cells_over(region, cell) > budget {
                region = self.quantile_region(boxes, l, n as usize);
            }
            let (w, h) = (
                f64::from(region[2]) - f64::from(region[0]),
                f64::from(region[3]) - f64::from(region[1]),
            );
            while cells_over(region, cell) > budget || w.max(h) / cell >= MAX_SIDE_CELLS {
                let over = cells_over(region, cell) as f64 / budget as f64;
                cell *= over.sqrt().max(1.01);
            }
            let nx = (w / cell).floor() as u32 + 1;
            let ny = (h / cell).floor() as u32 + 1;
            self.levels.push(Level {
                origin_x: region[0],
                origin_y: region[1],
                inv_cell: (1.0 / cell) as f32,
                cell: cell as f32,
                nx,
                ny,
                last_col: (nx - 1) as f32,
                last_row: (ny - 1) as f32,
                base,
                reach,
            });
            base += nx * ny;
        }
        // Keep the scratch for the next frame.
        self.level_stats = stats;
    }

    /// About the 0.1 % to 99.9 % quantiles of level `level`'s minimum corners on each axis, from
    /// a sample of at most about [`QUANTILE_SAMPLE`] of its `n` boxes.
    fn quantile_region(&mut self, boxes: &[[f32; 4]], level: usize, n: usize) -> [f32; 4] {
        let stride = (n / QUANTILE_SAMPLE).max(1);
        let mut region = [0.0; 4];
        for axis in 0..2 {
            self.coords.clear();
            let first_classes = &self.first_classes;
            self.coords
                .extend(boxes.iter().step_by(stride).filter_map(|b| {
                    let (_, class) = class_of(b)?;
                    (level_of(first_classes, class) == level).then_some(b[axis])
                }));
            let m = self.coords.len();
            if m == 0 {
                return [0.0; 4];
            }
            let (_, lo, _) = self.coords.select_nth_unstable_by(m / 1000, f32::total_cmp);
            region[axis] = *lo;
            let (_, hi, _) = self
                .coords
                .select_nth_unstable_by(m - 1 - m / 1000, f32::total_cmp);
            region[axis + 2] = *hi;
        }
        region
    }

    /// Number of boxes entered.
    pub(crate) fn len(&self) -> usize {
        self.starts.last().map_or(0, |&n| n as usize)
    }

    /// Number of levels.
    pub(crate) fn levels(&self) -> usize {
        self.levels.len()
    }

    /// Boxes in the levels coarser than the median size's.
    pub(crate) fn coarse(&self) -> usize {
        self.levels
            .get(self.main_level + 1)
            .map_or(0, |l| self.len() - self.starts[l.base as usize] as usize)
    }

    /// Number of cells over all levels.
    pub(crate) fn cells(&self) -> usize {
        self.starts.len().saturating_sub(1)
    }

    /// The cell side of the median size's level (0 when nothing is entered).
    pub(crate) fn cell_size(&self) -> f32 {
        self.levels.get(self.main_level).map_or(0.0, |l| l.cell)
    }

    /// The sorted positions of level `l`.
    fn level_positions(&self, l: usize) -> Range<usize> {
        let level = &self.levels[l];
        self.starts[level.base as usize] as usize
            ..self.starts[level.base as usize + level.cells()] as usize
    }

    /// Finds every pair of overlapping boxes (closed boxes: touching counts) `(p, q)` with `p`
    /// in `positions`, where `q` is sorted before `p` in the same level or lies in a finer level,
    /// and hands them to `drain` in batches, using `buf` (at least [`MIN_BUFFER`] long) to
    /// collect them. Over a split of all positions into ranges, every overlapping pair is found
    /// exactly once.
    pub(crate) fn search(
        &self,
        positions: Range<usize>,
        buf: &mut [(u32, u32)],
        drain: &mut impl FnMut(&[(u32, u32)]),
    ) {
        assert!(buf.len() >= MIN_BUFFER, "candidate buffer too short");
        let mut out = Out { buf, n: 0, drain };
        for (l, level) in self.levels.iter().enumerate() {
            let mine = self.level_positions(l);
            let range = mine.start.max(positions.start)..mine.end.min(positions.end);
            for first in range.clone().step_by(LANES) {
                let windows = self.windows(level, first);
                for j in 0..LANES.min(range.end - first) {
                    let p = first + j;
                    let a = self.box_at(p);
                    let lanes = a.map(f32x8::splat);
                    // Rows of the window more than one below p's: only with cells smaller
                    // than the boxes.
                    let [x0, x1, y0, own] = windows.cells[j];
                    for row in y0..own.saturating_sub(1) {
                        self.scan(p, &lanes, self.cells_run(level, x0, x1, row), &mut out);
                    }
                    // The row below (an empty run when the window does not reach it), then
                    // p's own row up to p.
                    let [below_from, below_to, own_from] = windows.starts[j];
                    let from = self.starts[below_from as usize] as usize;
                    let to = self.starts[below_to as usize] as usize;
                    self.scan(p, &lanes, from..to.max(from), &mut out);
                    let from = self.starts[own_from as usize] as usize;
                    self.scan(p, &lanes, from..p, &mut out);
                    // Finer levels: p's whole window in each.
                    for finer in &self.levels[..l] {
                        let [x0, x1, y0, y1] = finer.window(a);
                        for row in y0..=y1 {
                            self.scan(p, &lanes, self.cells_run(finer, x0, x1, row), &mut out);
                        }
                    }
                }
            }
        }
        (out.drain)(&out.buf[..out.n]);
    }

    /// The same-level windows of the eight boxes from position `first` on (lanes past the end
    /// of the boxes are unspecified): per box its window's columns `x0, x1`, first row `y0` and
    /// own row, and the cells that begin and end the run of the row below (the end equal to
    /// the beginning when the window does not reach that row) and begin the run of its own row.
    #[inline(always)]
    fn windows(&self, level: &Level, first: usize) -> Windows {
        let load = |v: &[f32]| -> f32x8 {
            f32x8::new(v[first..first + LANES].try_into().expect("eight lanes"))
        };
        let (min_x, min_y, max_x) = (load(&self.min_x), load(&self.min_y), load(&self.max_x));
        let reach = f32x8::splat(level.reach);
        let x0 = level.cols(min_x - reach);
        let x1 = level.cols(max_x);
        let y0 = level.rows(min_y - reach);
        let own = level.rows(min_y);
        let one = i32x8::splat(1);
        let nx = i32x8::splat(level.nx as i32);
        let base = i32x8::splat(level.base as i32);
        let below = (own - one).max(i32x8::ZERO);
        let below_row = base + below * nx;
        let own_row = base + own * nx;
        let reaches_below = y0.simd_lt(own);
        let below_from = below_row + x0;
        // An empty run (begin = end) when the window stays in its own row.
        let below_to = reaches_below.select(below_row + x1 + one, below_from);
        let own_from = own_row + x0;
        let (x0, x1, y0, own) = (x0.to_array(), x1.to_array(), y0.to_array(), own.to_array());
        let (bf, bt, of) = (
            below_from.to_array(),
            below_to.to_array(),
            own_from.to_array(),
        );
        Windows {
            cells: core::array::from_fn(|j| [x0[j], x1[j], y0[j], own[j]].map(|v| v as u32)),
            starts: core::array::from_fn(|j| [bf[j], bt[j], of[j]].map(|v| v as u32)),
        }
    }

    /// Level `l`'s cells as a region `[lo_x, lo_y, hi_x, hi_y]` (boxes whose corners lie
    /// outside it were clamped into its border cells), its cell side, and its reach (above
    /// every box side in it).
    pub(crate) fn region(&self, l: usize) -> ([f32; 4], f32, f32) {
        let g = &self.levels[l];
        let (w, h) = (g.nx as f32 * g.cell, g.ny as f32 * g.cell);
        (
            [g.origin_x, g.origin_y, g.origin_x + w, g.origin_y + h],
            g.cell,
            g.reach,
        )
    }

    /// Calls `hit(p)` for every box of level `l` (by sorted position) that overlaps the closed
    /// box `query` (`[min_x, min_y, max_x, max_y]`, no NaN; infinite bounds are fine). Exactly
    /// as in the pair search, a box can only reach `query` from the cells of the window
    /// `col(min_x - reach) ..= col(max_x)` by `row(min_y - reach) ..= row(max_y)`, whatever the
    /// rounding, so none is missed; each is reported once.
    pub(crate) fn overlapping_in(&self, l: usize, query: [f32; 4], hit: &mut impl FnMut(u32)) {
        let level = &self.levels[l];
        let q = query.map(f32x8::splat);
        let [x0, x1, y0, y1] = level.window(query);
        for row in y0..=y1 {
            let run = self.cells_run(level, x0, x1, row);
            let mut k = run.start;
            while k < run.end {
                let mut bits = self.overlap_bits(&q, k, run.end);
                while bits != 0 {
                    hit((k + bits.trailing_zeros() as usize) as u32);
                    bits &= bits - 1;
                }
                k += LANES;
            }
        }
    }

    /// The sorted positions of cells `x0 ..= x1` of `row` in `level`: one contiguous run.
    #[inline(always)]
    fn cells_run(&self, level: &Level, x0: u32, x1: u32, row: u32) -> Range<usize> {
        self.starts[level.cell_index(x0, row)] as usize
            ..self.starts[level.cell_index(x1, row) + 1] as usize
    }

    /// Which of the eight boxes from position `k` on, before position `end`, overlap the
    /// closed box `q` (splat): bit `j` for box `k + j`. The arrays are padded, so the eight
    /// lanes can always be read.
    #[inline(always)]
    fn overlap_bits(&self, q: &[f32x8; 4], k: usize, end: usize) -> u32 {
        let lanes = |v: &[f32]| f32x8::new(v[k..k + LANES].try_into().expect("eight lanes"));
        let hit = lanes(&self.min_x).simd_le(q[2])
            & q[0].simd_le(lanes(&self.max_x))
            & lanes(&self.min_y).simd_le(q[3])
            & q[1].simd_le(lanes(&self.max_y));
        hit.to_bitmask() & ((1u32 << end.saturating_sub(k).min(LANES)) - 1)
    }

    #[inline(always)]
    fn box_at(&self, p: usize) -> [f32; 4] {
        [self.min_x[p], self.min_y[p], self.max_x[p], self.max_y[p]]
    }

    /// Tests box `p` (splat in `a`) against the boxes at `run`, eight at a time. The first eight
    /// lanes are tested whatever the run's length (the arrays are padded), so a short run costs
    /// no branch.
    #[inline(always)]
    fn scan<D: FnMut(&[(u32, u32)])>(
        &self,
        p: usize,
        a: &[f32x8; 4],
        run: Range<usize>,
        out: &mut Out<'_, D>,
    ) {
        let mut k = run.start;
        loop {
            let bits = self.overlap_bits(a, k, run.end);
            if bits != 0 {
                out.push_lanes(p as u32, k as u32, bits);
            }
            k += LANES;
            if k >= run.end {
                break;
            }
        }
    }
}

/// The same-level windows of eight boxes, from [`Grid::windows`].
struct Windows {
    cells: [[u32; 4]; LANES],
    starts: [[u32; 3]; LANES],
}

/// About how many boxes a band of the two-pass sort holds: its sorted boxes and items (48
/// bytes each for a scene) stay well within a core's cache while the band is placed.
const BAND: usize = 8 * 1024;

/// One box on its way into cell order: its cell, bounds and the caller's item.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Staged<P> {
    key: u32,
    bounds: [f32; 4],
    item: P,
}

/// `log2` of the cells per band: bands of about [`BAND`] boxes if the boxes spread evenly over
/// the cells, and all cells in one band (a single direct pass) for up to twice that.
fn band_shift(cells: usize, boxes: usize) -> u32 {
    if boxes <= 2 * BAND {
        return usize::BITS - cells.leading_zeros();
    }
    let cells_per_band = (cells as u64 * BAND as u64 / boxes as u64).max(1);
    cells_per_band.ilog2()
}

/// The sorted output for a run of whole bands: the caller's items and the boxes field by field
/// from the run's first sorted position on, and a write cursor per cell of the run (a global
/// sorted position; the first cursor starts at the run's first position).
struct Sorted<'a, P> {
    out: &'a mut [P],
    boxes: [&'a mut [f32]; 4],
    cursors: &'a mut [u32],
}

impl<P: Copy> Sorted<'_, P> {
    /// Writes one box of cell `key` and its item at the cell's cursor; `first_cell` is the
    /// global number of `cursors[0]`, and the cursors are global positions, of which
    /// `self.out[0]` is the one at `first`.
    #[inline(always)]
    fn put(&mut self, first_cell: usize, first: u32, key: u32, b: &[f32; 4], item: &P) {
        let cursor = &mut self.cursors[key as usize - first_cell];
        let at = (*cursor - first) as usize;
        *cursor += 1;
        // Field by field from references: copying the item through a tuple made the compiler
        // bounce it through the stack with overlapping stores (a store-forwarding stall).
        self.out[at] = *item;
        let [x0, y0, x1, y1] = &mut self.boxes;
        (x0[at], y0[at], x1[at], y1[at]) = (b[0], b[1], b[2], b[3]);
    }

    /// The global position of `self.out[0]` (nothing to place when there are no cells).
    fn first(&self) -> Option<u32> {
        self.cursors.first().copied()
    }

    /// Splits off the first `positions` outputs and `cells` cursors.
    fn split(self, positions: usize, cells: usize) -> (Self, Self) {
        let (out_a, out_b) = self.out.split_at_mut(positions);
        let [x0, y0, x1, y1] = self.boxes;
        let (x0a, x0b) = x0.split_at_mut(positions);
        let (y0a, y0b) = y0.split_at_mut(positions);
        let (x1a, x1b) = x1.split_at_mut(positions);
        let (y1a, y1b) = y1.split_at_mut(positions);
        let (ca, cb) = self.cursors.split_at_mut(cells);
        (
            Sorted {
                out: out_a,
                boxes: [x0a, y0a, x1a, y1a],
                cursors: ca,
            },
            Sorted {
                out: out_b,
                boxes: [x0b, y0b, x1b, y1b],
                cursors: cb,
            },
        )
    }
}

/// The staging buffer after the first pass: chunk `j`'s boxes of band `b` are
/// `staged[j * chunk_len ..][ends[j][b - 1] .. ends[j][b]]`.
struct BandSource<'a, P> {
    staged: &'a [Staged<P>],
    chunk_len: usize,
    chunks: usize,
    bands: usize,
    shift: u32,
    ends: &'a [u32],
    starts: &'a [u32],
}

impl<P: Copy + Send + Sync> BandSource<'_, P> {
    /// The first sorted position of band `b`'s cells (`b` may be one past the last band).
    fn start(&self, b: usize) -> u32 {
        self.starts[(b << self.shift).min(self.starts.len() - 1)]
    }

    /// Places bands `run` into `target` (which covers exactly their positions and cells),
    /// halving the run over rayon's threads down to single bands.
    fn place(&self, run: Range<usize>, target: Sorted<'_, P>) {
        if run.len() == 1 {
            let b = run.start;
            let mut target = target;
            let Some(first) = target.first() else {
                return;
            };
            for j in 0..self.chunks {
                let ends = &self.ends[j * self.bands..][..self.bands];
                let from = if b == 0 { 0 } else { ends[b - 1] as usize };
                for s in &self.staged[j * self.chunk_len..][from..ends[b] as usize] {
                    target.put(b << self.shift, first, s.key, &s.bounds, &s.item);
                }
            }
            return;
        }
        let mid = run.start + run.len() / 2;
        let positions = (self.start(mid) - self.start(run.start)) as usize;
        let cells = (mid - run.start) << self.shift;
        let (left, right) = target.split(positions, cells);
        rayon::join(
            || self.place(run.start..mid, left),
            || self.place(mid..run.end, right),
        );
    }
}

/// Lanes per box test.
const LANES: usize = 8;
/// Shortest candidate buffer [`Grid::search`] accepts.
pub(crate) const MIN_BUFFER: usize = 64;

/// The candidate buffer of a search and where its batches go.
struct Out<'b, D> {
    buf: &'b mut [(u32, u32)],
    n: usize,
    drain: &'b mut D,
}

impl<D: FnMut(&[(u32, u32)])> Out<'_, D> {
    /// Appends `(p, k + j)` for every bit `j` set in `bits`, without a branch per lane.
    #[inline(always)]
    fn push_lanes(&mut self, p: u32, k: u32, bits: u32) {
        if self.n + LANES > self.buf.len() {
            (self.drain)(&self.buf[..self.n]);
            self.n = 0;
        }
        let slots = &mut self.buf[self.n..self.n + LANES];
        let mut n = 0;
        for j in 0..LANES {
            slots[n] = (p, k + j as u32);
            n += (bits >> j) as usize & 1;
        }
        self.n += n;
    }
}

/// The level of size class `class`: the number of levels after the first whose smallest class
/// it reaches (levels are contiguous runs of classes).
fn level_of(first_classes: &[i32], class: usize) -> usize {
    first_classes.iter().filter(|&&f| class as i32 >= f).count()
}

/// The cells of eight boxes (what [`class_of`], [`level_of`], [`Level::col`] and [`Level::row`]
/// give, lane by lane), or -1 for a box that is not entered.
#[inline(always)]
fn keys_of(levels: &[Level], first_classes: &[i32], boxes: &[[f32; 4]; LANES]) -> i32x8 {
    let field = |k: usize| f32x8::new(core::array::from_fn(|l| boxes[l][k]));
    let (min_x, min_y) = (field(0), field(1));
    let side = (field(2) - min_x).fast_max(field(3) - min_y);
    let class: i32x8 = bytemuck::cast::<f32x8, i32x8>(side) >> 23 & i32x8::splat(0xff);
    let mut level = i32x8::ZERO;
    for &first in first_classes {
        level -= class.simd_ge(i32x8::splat(first)); // true lanes are -1
    }
    let mut key = i32x8::splat(-1);
    for (l, g) in levels.iter().enumerate() {
        let cell =
            i32x8::splat(g.base as i32) + g.rows(min_y) * i32x8::splat(g.nx as i32) + g.cols(min_x);
        key = level.simd_eq(i32x8::splat(l as i32)).select(cell, key);
    }
    // NaN `min_x`: not entered.
    min_x.simd_eq(min_x).select(key, i32x8::splat(-1))
}

/// Cells a region of minimum corners needs at side `cell`, with a margin of one on each axis.
fn cells_over(region: [f32; 4], cell: f64) -> u64 {
    let along =
        |lo: f32, hi: f32| (((f64::from(hi) - f64::from(lo)) / cell) as u64).saturating_add(2);
    along(region[0], region[2]).saturating_mul(along(region[1], region[3]))
}

/// The cell side for `n` boxes with minimum corners spread over `region` and sides up to
/// `reach`.
///
/// A box looks at the cells of a window about `reach + side` wide and `reach` high, rounded
/// out to whole cells, one row at a time. With cells of side `t·reach` and `d` boxes per
/// `reach²`, it looks at about `d·(2 + t)·(1 + t)` boxes in `1/t + 1` rows. Minimising
/// `ROW_COST·(1/t + 1) + d·(2 + t)·(1 + t)` gives `t²·(3 + 2t) = ROW_COST / d`, solved here by
/// bisection, with `t >= 1`: then a box's window reaches one row below its own at most, which
/// the search handles without a branch.
fn auto_cell(n: u64, region: [f32; 4], reach: f32) -> f64 {
    let reach = f64::from(reach);
    let area = (f64::from(region[2]) - f64::from(region[0]) + reach)
        * (f64::from(region[3]) - f64::from(region[1]) + reach);
    let d = n as f64 / area * reach * reach;
    if !(d > 0.0 && d.is_finite()) {
        return reach;
    }
    let target = ROW_COST / d;
    let (mut lo, mut hi) = (1.0f64, 8.0f64);
    for _ in 0..30 {
        let t = 0.5 * (lo + hi);
        if t * t * (3.0 + 2.0 * t) < target {
            lo = t;
        } else {
            hi = t;
        }
    }
    reach * 0.5 * (lo + hi)
}

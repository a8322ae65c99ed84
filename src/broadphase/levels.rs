//! Size levels of the grid: boxes sorted into levels by size (a factor 8 per level, aligned on
//! the median size), and each level's geometry, its cell side chosen from its boxes' size and
//! density.

use super::LANES;
use crate::room::reserve_to;
use crate::tasks::{chunking, piece_len};
use rayon::prelude::*;
use wide::{f32x8, i32x8};

/// Size classes: the biased exponent of a box's larger side.
const CLASSES: usize = 256;
/// Size classes per level: a level takes boxes whose larger sides are within a factor 8.
const CLASSES_PER_LEVEL: usize = 3;
/// Most levels there can be: one per [`CLASSES_PER_LEVEL`] classes, and one more at an end.
const MAX_LEVELS: usize = CLASSES.div_ceil(CLASSES_PER_LEVEL) + 1;
/// A level with more boxes than this is trimmed to quantiles when outliers stretch it.
const TRIM_ABOVE: u64 = 512;
/// The quantiles a level's region may be trimmed to, in thousandths of its boxes cut off each
/// side of each axis, narrowest cut first: a few parked or escaped shapes far away are cut by
/// the first, up to a fifth by the last (the trimmed edge of the bulk then crowds the border
/// cells, which costs far less than a grid stretched over the empty space).
const TRIMS: [usize; 5] = [1, 10, 50, 100, 200];
/// Boxes sampled, at most, to find a level's quantiles.
const QUANTILE_SAMPLE: usize = 16 * 1024;
/// Sampled boxes from which a level's two axes are cut on two threads (about 0.1 ms of
/// selections for 25 k boxes).
const SIDE_BY_SIDE: usize = 4 * 1024;
/// Most cells along one side of a level, so that cell numbers are exact in `f32` and `i32`.
const MAX_SIDE_CELLS: f64 = (1 << 20) as f64;
/// Cost of starting a scan of one row, in units of one box looked at (see [`auto_cell`]).
pub(crate) const ROW_COST: f64 = 12.0;

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
    /// The corner of cell (0, 0), by axis.
    origin: [f32; 2],
    inv_cell: f32,
    pub(crate) cell: f32,
    pub(crate) nx: u32,
    pub(crate) ny: u32,
    /// `nx - 1` and `ny - 1` as floats (exact: both are below 2^24).
    last: [f32; 2],
    /// Index of this level's first cell among all levels' cells.
    pub(crate) base: u32,
    /// Above every box side of this level, as a real number.
    pub(crate) reach: f32,
    /// About the mean of its boxes' larger sides, and of their squares (each size class taken
    /// as sides spread evenly over its factor 2): what the search's shares weigh (see
    /// `Grid::shares`).
    pub(crate) sides: [f32; 2],
    /// How many boxes it holds.
    pub(crate) boxes: u32,
}

/// The horizontal axis, for [`Level::cell_on`]: columns.
pub(crate) const X: usize = 0;
/// The vertical axis: rows.
pub(crate) const Y: usize = 1;

impl Level {
    /// The column (`axis` [`X`]) or row ([`Y`]) holding `v`, clamped to the grid. Monotone in
    /// `v`: subtraction, multiplication by a positive number, `floor` and the clamps are all
    /// monotone. The clamp happens in floating point, so the value converted is an integer in
    /// range and the conversion is exact; [`cells_on`](Self::cells_on) computes the same bits
    /// eight lanes at a time.
    #[inline(always)]
    pub(crate) fn cell_on(&self, axis: usize, v: f32) -> u32 {
        ((v - self.origin[axis]) * self.inv_cell)
            .floor()
            .max(0.0)
            .min(self.last[axis]) as u32
    }

    /// [`cell_on`](Self::cell_on) of eight values (for finite input: NaN lanes give an
    /// unspecified cell).
    #[inline(always)]
    pub(crate) fn cells_on(&self, axis: usize, v: f32x8) -> i32x8 {
        let v = ((v - f32x8::splat(self.origin[axis])) * f32x8::splat(self.inv_cell)).floor();
        v.fast_max(f32x8::ZERO)
            .fast_min(f32x8::splat(self.last[axis]))
            .fast_trunc_int()
    }

    /// Number of cells.
    pub(crate) fn cells(&self) -> usize {
        self.nx as usize * self.ny as usize
    }

    /// The cells where a box of this level that overlaps the closed box `b` can have its
    /// minimum corner: columns `x0 ..= x1` and rows `y0 ..= y1` as `[x0, x1, y0, y1]` (see the
    /// module docs of the grid for why rounding cannot lose one).
    #[inline(always)]
    pub(crate) fn window(&self, b: [f32; 4]) -> [u32; 4] {
        [
            self.cell_on(X, b[0] - self.reach),
            self.cell_on(X, b[2]),
            self.cell_on(Y, b[1] - self.reach),
            self.cell_on(Y, b[3]),
        ]
    }

    /// The global index of cell (`col`, `row`).
    #[inline(always)]
    pub(crate) fn cell_index(&self, col: u32, row: u32) -> usize {
        self.base as usize + row as usize * self.nx as usize + col as usize
    }

    /// The level's cells as a region `[lo_x, lo_y, hi_x, hi_y]`.
    pub(crate) fn region(&self) -> [f32; 4] {
        let (w, h) = (self.nx as f32 * self.cell, self.ny as f32 * self.cell);
        [
            self.origin[X],
            self.origin[Y],
            self.origin[X] + w,
            self.origin[Y] + h,
        ]
    }
}

/// The levels of a grid: which size classes each takes, and each one's geometry.
#[derive(Debug, Default)]
pub(crate) struct Levels {
    levels: Vec<Level>,
    /// The smallest size class of each level after the first, ascending: levels are contiguous
    /// runs of classes, so a class's level is how many of these it reaches (see
    /// [`level_of`]).
    first_classes: Vec<i32>,
    /// The level of the median size.
    main: usize,
    /// Scratch: per rayon chunk, its boxes' size classes and corners.
    chunk_stats: Vec<ChunkStats>,
    /// Scratch: each level's size classes merged.
    level_stats: Vec<ClassStats>,
    /// Scratch: each level's sum of its boxes' sides and of their squares, by size class.
    level_sides: Vec<[f64; 2]>,
    /// Scratch of the quantiles: per rayon chunk, the minimum corners of its sampled boxes.
    chunk_corners: Vec<Vec<[f32; 2]>>,
    /// Scratch of the quantiles: the sample's coordinates, one list per axis.
    coords: [Vec<f32>; 2],
}

impl Levels {
    /// Chooses the levels for `boxes` (finite, or with a NaN `min_x` for a box to leave out)
    /// and lays out each level's grid: cells of side `fixed_cell` when given, otherwise chosen
    /// from each level's size and density. A level never has more than about four cells per
    /// box: far outliers (beyond the 0.1 % and 99.9 % quantiles of the corners, or beyond the
    /// 1 %, 5 %, 10 % or 20 % ones where there are more of them) are clamped into its border
    /// cells, and a level whose region would still need more gets larger cells.
    pub(crate) fn plan(&mut self, boxes: &[[f32; 4]], fixed_cell: Option<f32>) {
        let all = self.survey(boxes);
        self.lay_out(&all, boxes, fixed_cell);
    }

    /// The size classes (count and largest side) of the entered boxes, and the bounds of their
    /// minimum corners, counted per rayon chunk and merged.
    fn survey(&mut self, boxes: &[[f32; 4]]) -> ChunkStats {
        let (chunks, chunk_len) = chunking(boxes.len());
        self.chunk_stats.clear();
        self.chunk_stats.resize(chunks, ChunkStats::EMPTY);
        let pieces = (self.chunk_stats.par_iter_mut()).zip(boxes.par_chunks(chunk_len));
        crate::awake::for_each(pieces, |(stats, part)| {
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
            all.bounds = super::union(all.bounds, stats.bounds);
        }
        all
    }

    /// Chooses the levels from the size classes and lays out each level's grid.
    fn lay_out(&mut self, all: &ChunkStats, boxes: &[[f32; 4]], fixed_cell: Option<f32>) {
        let classes = &all.classes;
        self.levels.clear();
        self.first_classes.clear();
        // Room for every level there can be: boxes that fall into a size class more than
        // before (a side rounded across a power of two) allocate nothing.
        reserve_to(&mut self.levels, MAX_LEVELS);
        reserve_to(&mut self.first_classes, MAX_LEVELS);
        reserve_to(&mut self.level_stats, MAX_LEVELS);
        reserve_to(&mut self.level_sides, MAX_LEVELS);
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
        self.level_sides.clear();
        self.main = 0;
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
                self.level_sides.push([0.0; 2]);
            }
            stats.last_mut().expect("pushed above").merge(c);
            // Sides from 2^e to 2^(e + 1): mean 1.5 · 2^e, mean square 7/3 · 4^e.
            let low = 2f64.powi(class as i32 - 127);
            let sums = self.level_sides.last_mut().expect("pushed above");
            sums[0] += f64::from(c.count) * 1.5 * low;
            sums[1] += f64::from(c.count) * (7.0 / 3.0) * low * low;
            if class == median {
                self.main = stats.len() - 1;
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
            // cells (and a cell's boxes each look at all the others: a frame of 100 k shapes
            // with 0.5 % of them parked a million units away took 1.5 s instead of 9 ms): trim
            // the region to the narrowest quantiles whose cells, chosen anew for its density,
            // fit the budget, and clamp the outliers into the border cells. A level too sparse
            // for its budget however trimmed (no outliers, only few boxes spread wide) is
            // trimmed to the narrowest and keeps its cell side. A small level is left alone;
            // even all in one cell it costs little.
            if n > TRIM_ABOVE && cells_over(region, cell) > budget {
                let trims = self.quantile_regions(boxes, l, n as usize);
                let side = |r: [f32; 4]| match fixed_cell {
                    Some(_) => cell,
                    None => auto_cell(n, r, reach),
                };
                (region, cell) = trims
                    .iter()
                    .map(|&r| (r, side(r)))
                    .find(|&(r, side)| cells_over(r, side) <= budget)
                    .unwrap_or((trims[0], cell));
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
                origin: [region[0], region[1]],
                inv_cell: (1.0 / cell) as f32,
                cell: cell as f32,
                nx,
                ny,
                last: [(nx - 1) as f32, (ny - 1) as f32],
                base,
                reach,
                sides: self.level_sides[l].map(|sum| (sum / n as f64) as f32),
                boxes: s.count,
            });
            base += nx * ny;
        }
        // Keep the scratch for the next frame.
        self.level_stats = stats;
    }

    /// The regions between the [`TRIMS`] quantiles of level `level`'s minimum corners (about
    /// the 0.1 % to 99.9 % quantiles on each axis, then 1 % to 99 %, and so on), from a
    /// sample of at most about [`QUANTILE_SAMPLE`] of its `n` boxes: every `n /
    /// QUANTILE_SAMPLE`-th box of all, those of the level. The sample is found per rayon chunk
    /// of the boxes, both axes in one pass: a sparse level samples every box, and one scan
    /// per axis on one thread was 0.5–1 ms of a 100 k-shape frame with such a level (sizes
    /// spanning a factor 100, or polygons among thin capsules).
    fn quantile_regions(
        &mut self,
        boxes: &[[f32; 4]],
        level: usize,
        n: usize,
    ) -> [[f32; 4]; TRIMS.len()] {
        let stride = (n / QUANTILE_SAMPLE).max(1);
        let (chunks, chunk_len) = chunking(boxes.len());
        if self.chunk_corners.len() < chunks {
            self.chunk_corners.resize_with(chunks, Vec::new);
        }
        let parts = &mut self.chunk_corners[..chunks];
        parts.iter_mut().for_each(Vec::clear);
        let first_classes = &self.first_classes;
        let pieces = (parts.par_iter_mut())
            .zip(boxes.par_chunks(chunk_len))
            .enumerate();
        crate::awake::for_each(pieces, |(k, (corners, part))| {
            // The first box of the chunk whose index is a multiple of the stride.
            let start = k * chunk_len;
            let skip = start.next_multiple_of(stride) - start;
            let sampled = part.iter().skip(skip).step_by(stride);
            corners.extend(sampled.filter_map(|b| {
                let (_, class) = class_of(b)?;
                (level_of(first_classes, class) == level).then_some([b[0], b[1]])
            }));
        });
        let [xs, ys] = &mut self.coords;
        xs.clear();
        ys.clear();
        for corners in &self.chunk_corners[..chunks] {
            xs.extend(corners.iter().map(|c| c[X]));
            ys.extend(corners.iter().map(|c| c[Y]));
        }
        // Each axis's selections on a thread of its own, for a sample large enough.
        let ([lo_x, hi_x], [lo_y, hi_y]) = if xs.len() < piece_len(SIDE_BY_SIDE) {
            (cuts(xs), cuts(ys))
        } else {
            crate::awake::join(|| cuts(xs), || cuts(ys))
        };
        core::array::from_fn(|t| [lo_x[t], lo_y[t], hi_x[t], hi_y[t]])
    }

    /// The levels, finest first.
    pub(crate) fn all(&self) -> &[Level] {
        &self.levels
    }

    /// The level of the median size.
    pub(crate) fn main(&self) -> usize {
        self.main
    }

    /// Number of cells over all levels.
    pub(crate) fn cells(&self) -> usize {
        self.levels
            .last()
            .map_or(0, |l| l.base as usize + l.cells())
    }

    /// The cells of eight boxes (what [`class_of`], [`level_of`] and [`Level::cell_on`] give,
    /// lane by lane), or -1 for a box that is not entered.
    #[inline(always)]
    pub(crate) fn keys_of(&self, boxes: &[[f32; 4]; LANES]) -> i32x8 {
        let field = |k: usize| f32x8::new(core::array::from_fn(|l| boxes[l][k]));
        let (min_x, min_y) = (field(0), field(1));
        let side = (field(2) - min_x).fast_max(field(3) - min_y);
        let class: i32x8 = bytemuck::cast::<f32x8, i32x8>(side) >> 23 & i32x8::splat(0xff);
        let mut level = i32x8::ZERO;
        for &first in &self.first_classes {
            level -= class.simd_ge(i32x8::splat(first)); // true lanes are -1
        }
        let mut key = i32x8::splat(-1);
        for (l, g) in self.levels.iter().enumerate() {
            let cell = i32x8::splat(g.base as i32)
                + g.cells_on(Y, min_y) * i32x8::splat(g.nx as i32)
                + g.cells_on(X, min_x);
            key = level.simd_eq(i32x8::splat(l as i32)).select(cell, key);
        }
        // NaN `min_x`: not entered.
        min_x.simd_eq(min_x).select(key, i32x8::splat(-1))
    }
}

/// The [`TRIMS`] quantiles of `coords` (in any order; reordered), low and high:
/// `[lo, hi][t]` cuts `TRIMS[t]` thousandths off each end. Zeros for no coordinates.
fn cuts(coords: &mut [f32]) -> [[f32; TRIMS.len()]; 2] {
    let m = coords.len();
    let mut cut = [[0.0; TRIMS.len()]; 2];
    if m == 0 {
        return cut;
    }
    // Widest cut first, each narrower one selected within the tails the last left:
    // `coords[..lo_end]` holds the ranks below `lo_end`, `coords[hi_start..]` those from
    // `hi_start` (ten selections over the whole sample were 0.4 ms of a frame).
    let (mut lo_end, mut hi_start) = (m, 0);
    for (t, per_mille) in TRIMS.iter().enumerate().rev() {
        let k = m * per_mille / 1000;
        let (lo, hi) = (k, m - 1 - k);
        coords[hi_start..].select_nth_unstable_by(hi - hi_start, f32::total_cmp);
        lo_end = lo_end.min(hi + 1);
        coords[..lo_end].select_nth_unstable_by(lo, f32::total_cmp);
        (cut[0][t], cut[1][t]) = (coords[lo], coords[hi]);
        (lo_end, hi_start) = (lo + 1, hi);
    }
    cut
}

/// The level of size class `class`: the number of levels after the first whose smallest class
/// it reaches (levels are contiguous runs of classes).
fn level_of(first_classes: &[i32], class: usize) -> usize {
    first_classes.iter().filter(|&&f| class as i32 >= f).count()
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Xorshift;

    /// Levels laid out for boxes of one size, then of sizes spanning many levels, take no
    /// new allocation: the levels' lists hold room for as many as there can be (a frame whose
    /// boxes fell into one size class more grew them in a steady frame loop).
    #[test]
    fn more_levels_than_before_take_no_new_allocation() {
        // A thousand squares of side `side(i)`, 3 apart.
        let squares = |side: &dyn Fn(i32) -> f32| -> Vec<[f32; 4]> {
            let at = |i: i32| ((i % 100) as f32 * 3.0, (i / 100) as f32 * 3.0);
            (0..1_000)
                .map(|i| [at(i).0, at(i).1, at(i).0 + side(i), at(i).1 + side(i)])
                .collect()
        };
        let mut levels = Levels::default();
        levels.plan(&squares(&|_| 1.0), None);
        assert_eq!(levels.all().len(), 1);
        let l = &levels;
        let caps = [
            l.levels.capacity(),
            l.first_classes.capacity(),
            l.level_sides.capacity(),
        ];
        assert!(caps.iter().all(|&c| c >= MAX_LEVELS) && l.level_stats.capacity() >= MAX_LEVELS);
        let before = levels.all().as_ptr();
        // Sides from 2^-12 to 2^12: a level for every three size classes.
        levels.plan(&squares(&|i| 2f32.powi(i % 25 - 12)), None);
        assert!(levels.all().len() >= 8, "{} levels", levels.all().len());
        assert_eq!(levels.all().as_ptr(), before);
    }

    /// 60 k small boxes and 4 k large ones (levels of their own), 2 % of each parked far away:
    /// the small boxes' levels would need far more cells than their budget to cover the
    /// parked ones, so they are trimmed to quantiles, found from samples gathered per rayon
    /// chunk. The levels come out the same, to the bit, on one thread and on several, and
    /// the small boxes' levels clamp the parked boxes rather than cover them.
    #[test]
    fn trimmed_levels_are_laid_out_alike_on_any_thread_count() {
        let mut rng = Xorshift::new(0x2545_f491);
        let mut boxes = Vec::new();
        for (count, side) in [(60_000, 1.0), (4_000, 24.0)] {
            for i in 0..count {
                let far = if i % 50 == 0 { 1.0e5 } else { 0.0 };
                let side = side * (0.5 + rng.unit());
                boxes.push(rng.square([far, 0.0], 400.0, side));
            }
        }
        let lay_out = |threads: usize| {
            let mut levels = Levels::default();
            crate::test_pool::in_pool(threads, || levels.plan(&boxes, None));
            format!("{:?}", levels.all())
        };
        let one = lay_out(1);
        for threads in [3, 16] {
            assert_eq!(lay_out(threads), one, "{threads} threads");
        }
        let mut levels = Levels::default();
        levels.plan(&boxes, None);
        let all = levels.all();
        let trimmed = |l: &Level| l.origin[X] + l.nx as f32 * l.cell < 1.0e4;
        assert!(all.len() >= 2 && trimmed(&all[0]), "{all:?}");
    }

    /// Each trimmed region's ends are the quantiles of the sample, as sorting it gives them,
    /// on samples of every size from one box, with many equal coordinates (-0.0 among them).
    #[test]
    fn quantile_regions_are_the_sorted_samples_quantiles() {
        let mut rng = Xorshift::new(0x1234_5678);
        let mut next = |m: u32| rng.below(m);
        for n in [1, 2, 3, 7, 100, 999, 5000] {
            let boxes: Vec<[f32; 4]> = (0..n)
                .map(|_| {
                    let v = |c: u32| if c == 0 { -0.0 } else { c as f32 - 20.0 };
                    let (x, y) = (v(next(50)), v(next(7)));
                    [x, y, x + 1.0, y + 1.0]
                })
                .collect();
            let regions = Levels::default().quantile_regions(&boxes, 0, n);
            for axis in 0..2 {
                let mut sorted: Vec<f32> = boxes.iter().map(|b| b[axis]).collect();
                sorted.sort_by(f32::total_cmp);
                for (region, per_mille) in regions.iter().zip(TRIMS) {
                    let k = n * per_mille / 1000;
                    let want = [sorted[k], sorted[n - 1 - k]].map(f32::to_bits);
                    let got = [region[axis], region[axis + 2]].map(f32::to_bits);
                    assert_eq!(got, want, "{n} boxes, axis {axis}, {per_mille} per mille");
                }
            }
        }
    }
}

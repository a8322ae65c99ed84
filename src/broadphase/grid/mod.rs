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

mod in_place;
mod repair;
mod shares;
mod shift;
mod starts;

use super::LANES;
use super::counting_sort::{CountingSort, Staged};
use super::levels::{Level, Levels, X, Y};
use core::ops::Range;
use wide::{f32x8, i32x8};

/// The grid. [`build`](Grid::build) sorts the boxes into cells (and lets the caller place its
/// own data in the same order); [`search`](Grid::search) reports the overlapping pairs by
/// sorted position; [`overlapping_in`](Grid::overlapping_in) answers box queries.
#[derive(Debug, Default)]
pub(crate) struct Grid {
    levels: Levels,
    sort: CountingSort,
    /// The boxes in sorted order, field by field, followed by eight NaN boxes (so that a scan
    /// can read eight lanes from any position).
    min_x: Vec<f32>,
    min_y: Vec<f32>,
    max_x: Vec<f32>,
    max_y: Vec<f32>,
    /// The second buffers of [`repair`](Grid::repair).
    repair: repair::Repair,
    /// The buffers of [`repair_few`](Grid::repair_few).
    shifts: shift::Shifts,
}

/// The four box fields of a grid, or of a repair's new arrays, from some position on, as a
/// task writes them.
struct Fields<'a>([&'a mut [f32]; 4]);

/// The sorted positions of cell `key` by the cell starts `starts` (see [`Grid::cell`]), for
/// a caller that holds the starts while the grid's fields are lent out.
fn cell_in(starts: &[u32], key: u32) -> Range<usize> {
    starts[key as usize] as usize..starts[key as usize + 1] as usize
}

impl<'a> Fields<'a> {
    /// The first `at` positions, and the rest.
    fn split_at(self, at: usize) -> (Fields<'a>, Fields<'a>) {
        let [a, b, c, d] = self.0.map(|f| f.split_at_mut(at));
        (Fields([a.0, b.0, c.0, d.0]), Fields([a.1, b.1, c.1, d.1]))
    }
}

impl Grid {
    /// Rebuilds the grid over `boxes` (`[min_x, min_y, max_x, max_y]`, finite, or with a NaN
    /// `min_x` for a box to leave out), and writes `item(i)` of every entered box `i` to
    /// `out[p]`, `p` its sorted position (`out` must hold every box; the entered ones fill
    /// `out[..self.len()]`). Within a cell, boxes keep their input order.
    ///
    /// `fixed_cell`, when given, is every level's cell side instead of the automatic one (see
    /// [`Levels::plan`]). Large inputs are sorted in two passes through `staged`, a scratch
    /// buffer the caller keeps between frames (see [`CountingSort`]).
    pub(crate) fn build<P: Copy + Send + Sync + bytemuck::Zeroable>(
        &mut self,
        boxes: &[[f32; 4]],
        fixed_cell: Option<f32>,
        item: impl Fn(u32) -> P + Sync,
        staged: &mut Vec<Staged<P>>,
        out: &mut [P],
    ) {
        self.levels.plan(boxes, fixed_cell);
        let fields = [
            &mut self.min_x,
            &mut self.min_y,
            &mut self.max_x,
            &mut self.max_y,
        ];
        self.sort
            .sort(&self.levels, boxes, item, staged, out, fields);
    }

    /// The global cell a moved box enters: in the finest level whose reach covers its larger
    /// side (no box of a level may be larger than its reach), at the cell of its minimum
    /// corner. `None` when it is larger than every level's reach, or nothing is entered.
    pub(crate) fn key_for(&self, b: &[f32; 4]) -> Option<u32> {
        let side = (b[2] - b[0]).max(b[3] - b[1]);
        let level = self.levels.all().iter().find(|l| side <= l.reach)?;
        let (col, row) = (level.cell_on(X, b[0]), level.cell_on(Y, b[1]));
        Some(level.cell_index(col, row) as u32)
    }

    /// The largest side a box may have to enter (the coarsest level's reach); `None` when the
    /// grid has no level.
    pub(crate) fn max_side(&self) -> Option<f32> {
        self.levels.all().last().map(|l| l.reach)
    }

    /// Whether a box's minimum corner lies outside the cells of its level (it was clamped into
    /// a border cell), by the key [`key_for`](Self::key_for) gave it.
    pub(crate) fn clamped(&self, key: u32, b: &[f32; 4]) -> bool {
        let level = self
            .levels
            .all()
            .iter()
            .rev()
            .find(|l| l.base <= key)
            .expect("a key of this grid");
        let [x0, y0, x1, y1] = level.region();
        !(x0 <= b[0] && b[0] < x1 && y0 <= b[1] && b[1] < y1)
    }

    /// Number of boxes entered.
    pub(crate) fn len(&self) -> usize {
        self.sort.len()
    }

    /// Number of levels.
    pub(crate) fn levels(&self) -> usize {
        self.levels.all().len()
    }

    /// Boxes in the levels coarser than the median size's.
    pub(crate) fn coarse(&self) -> usize {
        self.levels
            .all()
            .get(self.levels.main() + 1)
            .map_or(0, |l| {
                self.len() - self.sort.starts()[l.base as usize] as usize
            })
    }

    /// Number of cells over all levels.
    pub(crate) fn cells(&self) -> usize {
        self.levels.cells()
    }

    /// The cell side of the median size's level (0 when nothing is entered).
    pub(crate) fn cell_size(&self) -> f32 {
        self.levels
            .all()
            .get(self.levels.main())
            .map_or(0.0, |l| l.cell)
    }

    /// The sorted positions of level `l`.
    fn level_positions(&self, l: usize) -> Range<usize> {
        let (level, starts) = (&self.levels.all()[l], self.sort.starts());
        starts[level.base as usize] as usize..starts[level.base as usize + level.cells()] as usize
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
        let starts = self.sort.starts();
        for (l, level) in self.levels.all().iter().enumerate() {
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
                    let from = starts[below_from as usize] as usize;
                    let to = starts[below_to as usize] as usize;
                    self.scan(p, &lanes, from..to.max(from), &mut out);
                    let from = starts[own_from as usize] as usize;
                    self.scan(p, &lanes, from..p, &mut out);
                    // Finer levels: p's whole window in each.
                    for finer in &self.levels.all()[..l] {
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
        let x0 = level.cells_on(X, min_x - reach);
        let x1 = level.cells_on(X, max_x);
        let y0 = level.cells_on(Y, min_y - reach);
        let own = level.cells_on(Y, min_y);
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
        let g = &self.levels.all()[l];
        (g.region(), g.cell, g.reach)
    }

    /// Calls `hit(p)` for every box of level `l` (by sorted position) that overlaps the closed
    /// box `query` (`[min_x, min_y, max_x, max_y]`, no NaN; infinite bounds are fine). Exactly
    /// as in the pair search, a box can only reach `query` from the cells of the window
    /// `col(min_x - reach) ..= col(max_x)` by `row(min_y - reach) ..= row(max_y)`, whatever the
    /// rounding, so none is missed; each is reported once.
    pub(crate) fn overlapping_in(&self, l: usize, query: [f32; 4], hit: &mut impl FnMut(u32)) {
        let level = &self.levels.all()[l];
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

    /// [`overlapping_in`](Self::overlapping_in) over every level.
    pub(crate) fn overlapping(&self, query: [f32; 4], hit: &mut impl FnMut(u32)) {
        for l in 0..self.levels() {
            self.overlapping_in(l, query, hit);
        }
    }

    /// The sorted positions of cells `x0 ..= x1` of `row` in `level`: one contiguous run.
    #[inline(always)]
    fn cells_run(&self, level: &Level, x0: u32, x1: u32, row: u32) -> Range<usize> {
        let starts = self.sort.starts();
        starts[level.cell_index(x0, row)] as usize..starts[level.cell_index(x1, row) + 1] as usize
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

    /// The box at sorted position `p`: `[min_x, min_y, max_x, max_y]`.
    #[inline(always)]
    pub(crate) fn box_at(&self, p: usize) -> [f32; 4] {
        [self.min_x[p], self.min_y[p], self.max_x[p], self.max_y[p]]
    }

    /// The sorted positions of global cell `key` (a key of [`key_for`](Self::key_for)).
    pub(crate) fn cell(&self, key: u32) -> Range<usize> {
        cell_in(self.sort.starts(), key)
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

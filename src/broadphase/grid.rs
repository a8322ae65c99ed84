//! A uniform grid over bounding boxes, built by counting sort: count the entries per cell, take
//! the prefix sum as each cell's start, scatter the entries into one flat array. No hash map and
//! no `Vec` per cell, so a rebuild every frame reuses the same three allocations.
//!
//! A box is entered into every cell its extent touches. Cells are clamped to the grid, so a box
//! outside the grid's region lands in the border cells: far outliers cost nothing extra unless
//! many of them pile up there. A box touching more than [`LARGE_CELLS`] cells is not entered at
//! all; it is kept in [`Grid::large`] and looks itself up in the cells it covers instead, so one
//! huge shape costs the cells it covers once, not an entry in each.
//!
//! **Each pair is reported by exactly one cell**: the cell holding the point
//! `(max(min_x), max(min_y))` of the two boxes, i.e. the cell `(max(cx0), max(cy0))` of their
//! minimum-corner cells. When two boxes overlap, that point lies in both, so both were entered
//! there; floor and clamp are monotone, so the rule survives rounding and clamping. No pass to
//! remove duplicates is needed.

/// A box touching more cells than this is kept out of the cells and queries them instead.
pub const LARGE_CELLS: u64 = 16;

/// One box in the grid: its bounds, its owner, and its minimum-corner cell.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(C)]
pub struct Entry {
    /// Left bound.
    pub min_x: f32,
    /// Bottom bound.
    pub min_y: f32,
    /// Right bound.
    pub max_x: f32,
    /// Top bound.
    pub max_y: f32,
    /// The caller's id of the shape.
    pub id: u32,
    /// The caller's tag (the scene keeps the shape kind here).
    pub tag: u32,
    /// Column of the cell holding `(min_x, min_y)`, clamped to the grid.
    pub cx0: u32,
    /// Row of the cell holding `(min_x, min_y)`, clamped to the grid.
    pub cy0: u32,
}

impl Entry {
    /// Whether the two closed boxes overlap.
    #[inline(always)]
    #[must_use]
    pub fn overlaps(&self, other: &Entry) -> bool {
        (self.min_x <= other.max_x)
            & (other.min_x <= self.max_x)
            & (self.min_y <= other.max_y)
            & (other.min_y <= self.max_y)
    }

    /// Whether cell (`cx`, `cy`) is the one that reports the pair of `self` and `other`.
    #[inline(always)]
    #[must_use]
    pub fn reported_in(&self, other: &Entry, cx: u32, cy: u32) -> bool {
        (self.cx0.max(other.cx0) == cx) & (self.cy0.max(other.cy0) == cy)
    }
}

/// A box too large to enter into its cells, with the last cell of its range.
#[derive(Clone, Copy, Debug)]
pub struct Large {
    /// The box, with its minimum-corner cell.
    pub entry: Entry,
    /// Last column it covers.
    pub cx1: u32,
    /// Last row it covers.
    pub cy1: u32,
}

/// The grid: geometry, the flat cell arrays, and the boxes kept out of them.
#[derive(Clone, Debug, Default)]
pub struct Grid {
    origin_x: f32,
    origin_y: f32,
    inv_cell: f32,
    cell: f32,
    nx: u32,
    ny: u32,
    /// `cell_start[c] .. cell_start[c + 1]` are cell `c`'s entries; `c = cy * nx + cx`.
    cell_start: Vec<u32>,
    entries: Vec<Entry>,
    large: Vec<Large>,
    /// Per entered box: its index and cell range, from the count pass.
    ranges: Vec<[u32; 5]>,
    cursor: Vec<u32>,
}

impl Grid {
    /// Rebuilds the grid over `boxes` with square cells of side `cell` (positive and finite)
    /// covering the region `[lo_x, hi_x] × [lo_y, hi_y]`; boxes outside it are clamped into the
    /// border cells. At most `max_cells` cells are made: if the region needs more, the cells grow.
    /// Every box must have finite bounds.
    pub fn build(&mut self, boxes: &[Entry], region: [f32; 4], cell: f32, max_cells: u64) {
        let [lo_x, lo_y, hi_x, hi_y] = region;
        let (w, h) = (
            f64::from(hi_x - lo_x).max(0.0),
            f64::from(hi_y - lo_y).max(0.0),
        );
        let mut cell = f64::from(cell);
        let dims = |cell: f64| ((w / cell).floor() as u64 + 1, (h / cell).floor() as u64 + 1);
        let (mut nx, mut ny) = dims(cell);
        while nx.saturating_mul(ny) > max_cells.max(1) {
            cell *= (nx as f64 * ny as f64 / max_cells.max(1) as f64)
                .sqrt()
                .max(1.01);
            (nx, ny) = dims(cell);
        }
        self.origin_x = lo_x;
        self.origin_y = lo_y;
        self.cell = cell as f32;
        self.inv_cell = (1.0 / cell) as f32;
        self.nx = nx as u32;
        self.ny = ny as u32;
        let cells = (nx * ny) as usize;

        // Count, then prefix-sum into starts, then scatter. The count pass keeps each entered
        // box's cell range for the scatter pass.
        self.cell_start.clear();
        self.cell_start.resize(cells + 1, 0);
        self.large.clear();
        self.ranges.clear();
        for (k, b) in boxes.iter().enumerate() {
            let (cx0, cy0) = self.cell_of(b.min_x, b.min_y);
            let (cx1, cy1) = self.cell_of(b.max_x, b.max_y);
            let span = u64::from(cx1 - cx0 + 1) * u64::from(cy1 - cy0 + 1);
            if span > LARGE_CELLS {
                let entry = Entry { cx0, cy0, ..*b };
                self.large.push(Large { entry, cx1, cy1 });
                continue;
            }
            self.ranges.push([k as u32, cx0, cy0, cx1, cy1]);
            for cy in cy0..=cy1 {
                let row = (cy * self.nx) as usize + 1;
                for cx in cx0..=cx1 {
                    self.cell_start[row + cx as usize] += 1;
                }
            }
        }
        for c in 0..cells {
            self.cell_start[c + 1] += self.cell_start[c];
        }
        let total = self.cell_start[cells] as usize;
        self.entries.clear();
        self.entries.resize(total, Entry::default());
        self.cursor.clear();
        self.cursor.extend_from_slice(&self.cell_start[..cells]);
        for &[k, cx0, cy0, cx1, cy1] in &self.ranges {
            let entry = Entry {
                cx0,
                cy0,
                ..boxes[k as usize]
            };
            for cy in cy0..=cy1 {
                let row = (cy * self.nx) as usize;
                for cx in cx0..=cx1 {
                    let slot = &mut self.cursor[row + cx as usize];
                    self.entries[*slot as usize] = entry;
                    *slot += 1;
                }
            }
        }
    }

    /// The clamped cell holding `(x, y)`.
    #[inline(always)]
    #[must_use]
    pub fn cell_of(&self, x: f32, y: f32) -> (u32, u32) {
        // Monotone in x and y (subtraction, multiplication and floor round monotonically, and
        // float-to-int casts saturate), which the reporting rule relies on.
        let cx = ((x - self.origin_x) * self.inv_cell).floor() as i64;
        let cy = ((y - self.origin_y) * self.inv_cell).floor() as i64;
        (
            cx.clamp(0, i64::from(self.nx) - 1) as u32,
            cy.clamp(0, i64::from(self.ny) - 1) as u32,
        )
    }

    /// Columns and rows.
    #[must_use]
    pub fn dims(&self) -> (u32, u32) {
        (self.nx, self.ny)
    }

    /// Side of a cell, after any growth to respect the cell budget.
    #[must_use]
    pub fn cell_size(&self) -> f32 {
        self.cell
    }

    /// Number of cells.
    #[must_use]
    pub fn cells(&self) -> usize {
        self.cell_start.len().saturating_sub(1)
    }

    /// Cell `c`'s entries.
    #[inline(always)]
    #[must_use]
    pub fn cell(&self, c: usize) -> &[Entry] {
        &self.entries[self.cell_start[c] as usize..self.cell_start[c + 1] as usize]
    }

    /// All entries, cell after cell (a box appears once per cell it touches).
    #[must_use]
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The start of each cell's entries, and the total at the end.
    #[must_use]
    pub fn cell_starts(&self) -> &[u32] {
        &self.cell_start
    }

    /// The boxes that cover more than [`LARGE_CELLS`] cells.
    #[must_use]
    pub fn large(&self) -> &[Large] {
        &self.large
    }
}

//! The counting sort that puts boxes into cell order: count per cell, prefix sums, scatter.
//!
//! Scattering straight into cell order writes every box to a random place in memory; once the
//! sorted data outgrows the caches, each of those writes waits for memory. So above about 16 k
//! boxes the scatter takes two passes: first band by band (a band is a run of neighbouring
//! cells holding about [`BAND`] boxes) into a staging buffer, one sequential stream per band,
//! then each band, whose output is small enough to stay in cache, into cell order. Both passes
//! keep the input order within a cell, and every pass runs on rayon's threads in chunks whose
//! outputs do not overlap.

use super::LANES;
use super::levels::Levels;
use crate::tasks::chunking;
use core::ops::Range;
use rayon::prelude::*;

/// NaN boxes after the sorted ones, so that a scan can read eight lanes from any position.
const PAD: usize = LANES;

/// Fewest cells per rayon task of the prefix sums (whole bands).
const MIN_CELLS: usize = 16 * 1024;

/// The key of a box that is not entered (its `min_x` is NaN).
const SKIP: u32 = u32::MAX;

/// The counts, prefix sums and cursors of the sort; kept from frame to frame.
#[derive(Debug, Default)]
pub(crate) struct CountingSort {
    /// `starts[c] .. starts[c + 1]`: the sorted positions of global cell `c`.
    starts: Vec<u32>,
    /// Per caller box: its global cell or [`SKIP`].
    keys: Vec<u32>,
    /// Per rayon chunk of the boxes: how many of its boxes each cell holds.
    counts: Vec<u32>,
    /// Per rayon chunk of the boxes and band: the end of the chunk's boxes of that band in its
    /// part of the staging buffer.
    band_ends: Vec<u32>,
    /// The prefix sums' scratch: per band and chunk, the chunk's boxes in the band; per run of
    /// bands, its boxes, then the boxes before it.
    band_sums: Vec<u32>,
    run_totals: Vec<u32>,
    /// The same per chunk and band: write cursors of the first pass.
    band_cursors: Vec<u32>,
    /// Per cell: write cursor of the final pass.
    cursors: Vec<u32>,
}

impl CountingSort {
    /// Sorts the entered `boxes` into the cells of `levels`: writes `item(i)` of every entered
    /// box `i` to `out[p]` and its bounds to `fields[k][p]` (`min_x, min_y, max_x, max_y`),
    /// `p` its sorted position, and resizes the fields to the entered boxes followed by [`PAD`]
    /// NaN boxes. `out` must hold every box; the entered ones fill `out[..self.len()]`. Within
    /// a cell, boxes keep their input order. Large inputs go through `staged`, a scratch
    /// buffer the caller keeps between frames.
    pub(crate) fn sort<P: Copy + Send + Sync + bytemuck::Zeroable>(
        &mut self,
        levels: &Levels,
        boxes: &[[f32; 4]],
        item: impl Fn(u32) -> P + Sync,
        staged: &mut Vec<Staged<P>>,
        out: &mut [P],
        mut fields: [&mut Vec<f32>; 4],
    ) {
        let (chunks, chunk_len) = chunking(boxes.len());
        let cells = levels.cells();

        // 1. Every box's cell, counted per chunk, eight boxes at a time (a last partial group
        //    padded with boxes that are not entered).
        // Every key and count is written below, each chunk's on its thread: these only set
        // the lengths (a fill on this thread was a serial pass over both).
        self.keys.resize(boxes.len(), SKIP);
        self.counts.resize(chunks * cells.max(1), 0);
        // The counts of chunks without boxes (none unless there are no boxes) are zero.
        self.counts[boxes.len().div_ceil(chunk_len) * cells.max(1)..].fill(0);
        self.keys
            .par_chunks_mut(chunk_len)
            .zip(boxes.par_chunks(chunk_len))
            .zip(self.counts.par_chunks_mut(cells.max(1)))
            .for_each(|((keys, part), counts)| {
                counts.fill(0);
                for (keys, part) in keys.chunks_mut(LANES).zip(part.chunks(LANES)) {
                    let mut eight = [[f32::NAN; 4]; LANES];
                    eight[..part.len()].copy_from_slice(part);
                    let found = levels.keys_of(&eight).to_array();
                    for (key, &cell) in keys.iter_mut().zip(&found) {
                        *key = cell as u32;
                        if cell >= 0 {
                            counts[cell as usize] += 1;
                        }
                    }
                }
            });

        // 2. Prefix sums: each cell's start, and each chunk's share of each band.
        let shift = band_shift(cells, boxes.len());
        let bands = (cells >> shift) + 1;
        let total = self.prefix_sums(chunks, cells, shift, bands);
        assert!(out.len() >= total, "room for every entered box");

        // 3. Into cell order: directly for a small input, else band by band into `staged`,
        //    then each band into cell order (see the module docs).
        // Every sorted position is written below: only the padding is set here (and room, where
        // the fields grow). Each band sets its cells' cursors from their starts.
        for field in &mut fields {
            field.truncate(total);
            field.resize(total + PAD, f32::NAN);
        }
        self.cursors.resize(cells, 0);
        let keys = &self.keys[..];
        let target = Sorted {
            out: &mut out[..total],
            boxes: fields.map(|f| &mut f[..total]),
            cursors: &mut self.cursors[..],
        };
        if bands == 1 {
            let mut target = target;
            target.cursors.copy_from_slice(&self.starts[..cells]);
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

    /// Step 2 of [`sort`](Self::sort): each cell's start from the chunks' counts, and each
    /// chunk's running end of each of the `bands` bands (`1 << shift` cells each); returns the
    /// number of boxes entered. On rayon's threads in runs of whole bands: each run's cells'
    /// totals (in `starts` for now) and its bands' counts per chunk, then the runs' totals
    /// summed in order, then each run's starts from its own. (One pass on one thread was
    /// `cells × chunks` steps: 2.6 ms of a 1 M-box frame on two threads, more with more.)
    fn prefix_sums(&mut self, chunks: usize, cells: usize, shift: u32, bands: usize) -> usize {
        // Bands per run, and cells per run (at least all of them for one band of all cells).
        let per_run = (MIN_CELLS >> shift).max(1);
        let run = per_run.checked_shl(shift).unwrap_or(usize::MAX).max(1);
        self.starts.clear();
        self.starts.resize(cells + 1, 0);
        self.band_sums.clear();
        self.band_sums.resize(bands * chunks, 0);
        let counts = &self.counts;
        // A run's cells' totals into `starts`, its bands' counts by chunk (band by band) into
        // `sums`; the run's total.
        let count = |r: usize, starts: &mut [u32], sums: &mut [u32]| {
            let first = r * run;
            let mut total = 0u32;
            for (i, s) in starts.iter_mut().enumerate() {
                let c = first + i;
                let band = &mut sums[((c >> shift) - r * per_run) * chunks..][..chunks];
                let mut n = 0;
                for (j, b) in band.iter_mut().enumerate() {
                    let k = counts[j * cells + c];
                    *b += k;
                    n += k;
                }
                *s = n;
                total += n;
            }
            total
        };
        // A run's totals into starts, from `base`.
        let place = |starts: &mut [u32], base: u32| {
            let mut at = base;
            for s in starts {
                (*s, at) = (at, at + *s);
            }
        };
        let starts = &mut self.starts[..cells];
        let total = if run >= cells {
            let total = count(0, starts, &mut self.band_sums);
            place(starts, 0);
            total
        } else {
            self.run_totals.clear();
            self.run_totals.par_extend(
                starts
                    .par_chunks_mut(run)
                    .zip(self.band_sums.par_chunks_mut(per_run * chunks))
                    .enumerate()
                    .map(|(r, (starts, sums))| count(r, starts, sums)),
            );
            let mut total = 0;
            for t in &mut self.run_totals {
                (*t, total) = (total, total + *t);
            }
            starts
                .par_chunks_mut(run)
                .zip(&self.run_totals)
                .for_each(|(starts, &base)| place(starts, base));
            total
        };
        self.starts[cells] = total;
        // Each chunk's running end, band by band.
        self.band_ends.clear();
        self.band_ends.resize(chunks * bands, 0);
        for (j, ends) in self.band_ends.chunks_mut(bands).enumerate() {
            let mut end = 0;
            for (b, e) in ends.iter_mut().enumerate() {
                end += self.band_sums[b * chunks + j];
                *e = end;
            }
        }
        total as usize
    }

    /// `starts[c] .. starts[c + 1]` are the sorted positions of global cell `c`.
    #[inline(always)]
    pub(crate) fn starts(&self) -> &[u32] {
        &self.starts
    }

    /// Exchanges the cell starts with `starts` (the caller's, for an edited cell order).
    pub(crate) fn swap_starts(&mut self, starts: &mut Vec<u32>) {
        core::mem::swap(&mut self.starts, starts);
    }

    /// Number of boxes entered.
    pub(crate) fn len(&self) -> usize {
        self.starts.last().map_or(0, |&n| n as usize)
    }
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
            let cells = target.cursors.len();
            target
                .cursors
                .copy_from_slice(&self.starts[b << self.shift..][..cells]);
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A sort kept from call to call over other boxes (more, fewer, none, some left out)
    /// gives what a new sort gives: it reuses its buffers without reading what they held.
    #[test]
    fn a_sort_reused_over_other_boxes_is_a_new_sort() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        let boxes = |n: u32, salt: u32| -> Vec<[f32; 4]> {
            (0..n)
                .map(|i| {
                    let h = |k: u32| {
                        let x = (i ^ salt << 20).wrapping_mul(0x9e37_79b9)
                            ^ k.wrapping_mul(0x85eb_ca6b);
                        (x.wrapping_mul(0xc2b2_ae35) >> 8) as f32 / (1 << 24) as f32
                    };
                    let (x, y, side) = (h(1) * 300.0, h(2) * 300.0, 0.5 + h(3));
                    if i % 13 == 5 {
                        [f32::NAN; 4]
                    } else {
                        [x, y, x + side, y + side]
                    }
                })
                .collect()
        };
        type Out = (Vec<u32>, Vec<u32>, [Vec<f32>; 4]);
        let sort = |sort: &mut CountingSort,
                    staged: &mut Vec<Staged<u32>>,
                    out: &mut Out,
                    b: &[[f32; 4]]| {
            let mut levels = Levels::default();
            levels.plan(b, None);
            out.0.resize(b.len(), 0);
            let [f0, f1, f2, f3] = &mut out.2;
            pool.install(|| sort.sort(&levels, b, |i| i, staged, &mut out.0, [f0, f1, f2, f3]));
            out.1 = sort.starts().to_vec();
        };
        let (mut kept, mut kept_staged, mut kept_out) =
            (CountingSort::default(), Vec::new(), Out::default());
        for (n, salt) in [(60_000, 1), (100, 2), (0, 3), (90_000, 4), (20_000, 5)] {
            let b = boxes(n, salt);
            sort(&mut kept, &mut kept_staged, &mut kept_out, &b);
            let mut new = Out::default();
            sort(&mut CountingSort::default(), &mut Vec::new(), &mut new, &b);
            let total = kept.len();
            let bits = |f: &[f32]| f.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(kept_out.1, new.1, "{n} boxes: starts");
            assert_eq!(kept_out.0[..total], new.0[..total], "{n} boxes: items");
            for (k, f) in kept_out.2.iter().enumerate() {
                assert_eq!(bits(f), bits(&new.2[k]), "{n} boxes: field {k}");
            }
        }
    }

    /// The prefix sums in runs on rayon's threads give what one pass over every cell gives:
    /// each cell's start and each chunk's running end of each band, for cell counts that split
    /// into several runs (or one), bands of one cell to all cells, one chunk or several.
    #[test]
    fn prefix_sums_in_runs_are_the_sums_in_one_pass() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(4)
            .build()
            .unwrap();
        let mut seed = 7u64;
        for (cells, chunks, shift) in [
            (0, 1, 0),
            (5, 1, 3),
            (100_003, 3, 0),
            (100_003, 4, 5),
            (3 * MIN_CELLS, 2, 14),
            (70_000, 5, 17),
        ] {
            let bands = (cells >> shift) + 1;
            let counts: Vec<u32> = (0..chunks * cells)
                .map(|_| {
                    seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                    (seed >> 60) as u32
                })
                .collect();
            let mut sort = CountingSort {
                counts,
                ..CountingSort::default()
            };
            let (mut starts, mut ends) = (vec![0u32; cells + 1], vec![0u32; chunks * bands]);
            let mut total = 0;
            for c in 0..cells {
                starts[c] = total;
                for j in 0..chunks {
                    let n = sort.counts[j * cells + c];
                    ends[j * bands + (c >> shift)] += n;
                    total += n;
                }
            }
            starts[cells] = total;
            for e in ends.chunks_mut(bands) {
                for b in 1..bands {
                    e[b] += e[b - 1];
                }
            }
            let got = pool.install(|| sort.prefix_sums(chunks, cells, shift, bands));
            let case = format!("{cells} cells, {chunks} chunks, shift {shift}");
            assert_eq!(got, total as usize, "{case}");
            assert!(sort.starts == starts, "{case}: starts");
            assert!(sort.band_ends == ends, "{case}: band ends");
        }
    }
}

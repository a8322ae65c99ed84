//! The counting sort that puts boxes into cell order: count, starts, scatter.
//!
//! Scattering straight into cell order writes every box to a random place in memory; once the
//! sorted data outgrows the caches, each of those writes waits for memory. So above about 16 k
//! boxes the scatter takes two passes: first band by band (a band is a run of neighbouring
//! cells holding about [`BAND`] boxes) into a staging buffer, one sequential stream per band,
//! then each band, whose output is small enough to stay in cache, into cell order. The first
//! pass counts by band only; each band counts its own cells just before it places them, while
//! its boxes are in cache. Both passes keep the input order within a cell, and every pass runs
//! on rayon's threads in chunks (up to four a thread) or bands whose outputs do not overlap.

use super::LANES;
use super::levels::Levels;
use crate::room::{reserve_to, resize_with_room};
use crate::tasks::chunking;
use core::ops::Range;
use rayon::prelude::*;

/// NaN boxes after the sorted ones, so that a scan can read eight lanes from any position.
const PAD: usize = LANES;

/// The key of a box that is not entered (its `min_x` is NaN).
const SKIP: u32 = u32::MAX;

/// The counts, starts and cursors of the sort; kept from frame to frame.
#[derive(Debug, Default)]
pub(crate) struct CountingSort {
    /// `starts[c] .. starts[c + 1]`: the sorted positions of global cell `c`.
    starts: Vec<u32>,
    /// Per caller box: its global cell or [`SKIP`].
    keys: Vec<u32>,
    /// Per rayon chunk of the boxes (a row of `bands +` [`APART`]) and band: how many of the
    /// chunk's boxes the band holds, then the end of the chunk's boxes of that band in its
    /// part of the staging buffer.
    band_ends: Vec<u32>,
    /// Per band: its first sorted position; then the number of boxes entered.
    band_starts: Vec<u32>,
    /// Per chunk and band, in rows as `band_ends`: write cursors of the first pass.
    band_cursors: Vec<u32>,
    /// Per cell: its count, then its write cursor, in the final pass.
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
        let shift = band_shift(levels, boxes.len());
        let bands = (cells >> shift) + 1;
        let stride = bands + APART;

        // 1. Every box's cell, eight boxes at a time (a last partial group padded with boxes
        //    that are not entered), and how many of each chunk's boxes each band holds. (A
        //    count per chunk and cell meant chunks × cells counters, zeroed and summed every
        //    call: on 16 threads and a million boxes, more instructions than the rest of the
        //    sort.)
        // Every key and count is written below, each chunk's on its thread: these only set
        // the lengths (a fill on this thread was a serial pass over both).
        // With room, as every buffer here whose length follows the grid's layout (its cells and
        // bands): a rebuild whose grid has a few cells more than the last one does not
        // allocate (see `room.rs`).
        resize_with_room(&mut self.keys, boxes.len(), SKIP);
        resize_with_room(&mut self.band_ends, chunks * stride, 0);
        // The counts of chunks without boxes (none unless there are no boxes) are zero.
        self.band_ends[boxes.len().div_ceil(chunk_len) * stride..].fill(0);
        let pieces = (self.keys.par_chunks_mut(chunk_len))
            .zip(boxes.par_chunks(chunk_len))
            .zip(self.band_ends.par_chunks_mut(stride));
        crate::awake::for_each(pieces, |((keys, part), counts)| {
            counts.fill(0);
            for (keys, part) in keys.chunks_mut(LANES).zip(part.chunks(LANES)) {
                let mut eight = [[f32::NAN; 4]; LANES];
                eight[..part.len()].copy_from_slice(part);
                let found = levels.keys_of(&eight).to_array();
                for (key, &cell) in keys.iter_mut().zip(&found) {
                    *key = cell as u32;
                    if cell >= 0 {
                        counts[cell as usize >> shift] += 1;
                    }
                }
            }
        });

        // 2. Each band's first sorted position, and each chunk's running end of each band.
        let total = self.band_sums(chunks, bands, stride);
        assert!(out.len() >= total, "room for every entered box");

        // 3. Into cell order: directly for a small input, else band by band into `staged`,
        //    then each band into cell order (see the module docs).
        // Every sorted position and cell start is written below: only the padding is set here
        // (and room, where the fields grow). Each band counts its cells and sets their starts
        // and cursors.
        for field in &mut fields {
            field.truncate(total);
            resize_with_room(field, total + PAD, f32::NAN);
        }
        resize_with_room(&mut self.starts, cells + 1, 0);
        self.starts[cells] = total as u32;
        resize_with_room(&mut self.cursors, cells, 0);
        let keys = &self.keys[..];
        let target = Sorted {
            out: &mut out[..total],
            boxes: fields.map(|f| &mut f[..total]),
            starts: &mut self.starts[..cells],
            cursors: &mut self.cursors[..],
        };
        if bands == 1 {
            let mut target = target;
            target.count(0, 0, keys.iter().copied());
            for (i, (&key, b)) in keys.iter().zip(boxes).enumerate() {
                if key != SKIP {
                    target.put(0, 0, key, b, &item(i as u32));
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
            resize_with_room(staged, boxes.len(), fill);
        }
        let mut cursors = core::mem::take(&mut self.band_cursors);
        cursors.clear();
        reserve_to(&mut cursors, chunks * stride);
        cursors.extend((0..chunks).flat_map(|j| {
            // Each band's first place in the chunk's part, then the unused gap as zeros.
            let ends = &self.band_ends[j * stride..][..bands];
            (0..stride).map(move |b| {
                if (1..bands).contains(&b) {
                    ends[b - 1]
                } else {
                    0
                }
            })
        }));
        let pieces = (staged.par_chunks_mut(chunk_len))
            .zip(keys.par_chunks(chunk_len))
            .zip(boxes.par_chunks(chunk_len))
            .zip(cursors.par_chunks_mut(stride))
            .enumerate();
        crate::awake::for_each(pieces, |(j, (((staged, keys), part), cursor))| {
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
            stride,
            shift,
            ends: &self.band_ends,
            starts: &self.band_starts,
        };
        bands_of.place(0..bands, target);
    }

    /// Step 2 of [`sort`](Self::sort): from each chunk's count of each of the `bands` bands
    /// (in `band_ends`), each chunk's running end of each band (in its place) and each band's
    /// first sorted position (in `band_starts`, the total after them); returns the total, the
    /// number of boxes entered. `chunks × bands` steps: a few thousand for a million boxes.
    fn band_sums(&mut self, chunks: usize, bands: usize, stride: usize) -> usize {
        self.band_starts.clear();
        reserve_to(&mut self.band_starts, bands + 1);
        let mut total = 0;
        for b in 0..bands {
            self.band_starts.push(total);
            for j in 0..chunks {
                total += self.band_ends[j * stride + b];
            }
        }
        self.band_starts.push(total);
        for ends in self.band_ends.chunks_mut(stride) {
            let mut end = 0;
            for e in &mut ends[..bands] {
                end += *e;
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

/// Unused counters between two chunks' rows of band counts and cursors (64 bytes): each row
/// has cache lines of its own, which two threads counting into them do not pass between them.
const APART: usize = 16;

/// One box on its way into cell order: its cell, bounds and the caller's item.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Staged<P> {
    key: u32,
    bounds: [f32; 4],
    item: P,
}

/// `log2` of the cells per band: bands of about [`BAND`] boxes in the level whose boxes are
/// densest among its cells, but no more than four times as many bands as boxes spread evenly
/// over all cells would make; all cells in one band (a single direct pass) for up to twice
/// [`BAND`] boxes. (Bands as wide as an even spread gives put three times as many boxes in
/// each band of a coarse level as in a fine one's when sizes spanned a factor 100: placing
/// those few bands took sixteen threads twice as long.)
fn band_shift(levels: &Levels, boxes: usize) -> u32 {
    let cells = levels.cells();
    if boxes <= 2 * BAND {
        return usize::BITS - cells.leading_zeros();
    }
    let per_band = |cells: usize, boxes: usize| (cells as u64 * BAND as u64 / boxes as u64).max(1);
    let even = per_band(cells, boxes);
    let densest = (levels.all().iter())
        .map(|l| per_band(l.cells(), (l.boxes as usize).max(1)))
        .min()
        .unwrap_or(even);
    densest.clamp((even / 4).max(1), even).ilog2()
}

/// The sorted output for a run of whole bands: the caller's items and the boxes field by field
/// from the run's first sorted position on, and the start and a write cursor of each cell of
/// the run (global sorted positions).
struct Sorted<'a, P> {
    out: &'a mut [P],
    boxes: [&'a mut [f32]; 4],
    starts: &'a mut [u32],
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

    /// Counts the boxes of each cell among `keys` (all of this target's cells, the first of
    /// them global cell `first_cell`, or [`SKIP`]), and sets each cell's start and cursor,
    /// from global position `first` on.
    fn count(&mut self, first_cell: usize, first: u32, keys: impl Iterator<Item = u32>) {
        self.cursors.fill(0);
        for key in keys {
            if key != SKIP {
                self.cursors[key as usize - first_cell] += 1;
            }
        }
        let mut at = first;
        for (start, cursor) in self.starts.iter_mut().zip(self.cursors.iter_mut()) {
            let n = *cursor;
            (*start, *cursor) = (at, at);
            at += n;
        }
    }

    /// Splits off the first `positions` outputs and `cells` starts and cursors.
    fn split(self, positions: usize, cells: usize) -> (Self, Self) {
        let (out_a, out_b) = self.out.split_at_mut(positions);
        let [x0, y0, x1, y1] = self.boxes;
        let (x0a, x0b) = x0.split_at_mut(positions);
        let (y0a, y0b) = y0.split_at_mut(positions);
        let (x1a, x1b) = x1.split_at_mut(positions);
        let (y1a, y1b) = y1.split_at_mut(positions);
        let (sa, sb) = self.starts.split_at_mut(cells);
        let (ca, cb) = self.cursors.split_at_mut(cells);
        (
            Sorted {
                out: out_a,
                boxes: [x0a, y0a, x1a, y1a],
                starts: sa,
                cursors: ca,
            },
            Sorted {
                out: out_b,
                boxes: [x0b, y0b, x1b, y1b],
                starts: sb,
                cursors: cb,
            },
        )
    }
}

/// The staging buffer after the first pass: chunk `j`'s boxes of band `b` are
/// `staged[j * chunk_len ..][ends[j][b - 1] .. ends[j][b]]`; band `b`'s sorted positions
/// start at `starts[b]`.
struct BandSource<'a, P> {
    staged: &'a [Staged<P>],
    chunk_len: usize,
    chunks: usize,
    stride: usize,
    shift: u32,
    ends: &'a [u32],
    starts: &'a [u32],
}

impl<P: Copy + Send + Sync> BandSource<'_, P> {
    /// Chunk `j`'s boxes of band `b`.
    fn part(&self, j: usize, b: usize) -> &[Staged<P>] {
        let ends = &self.ends[j * self.stride..];
        let from = if b == 0 { 0 } else { ends[b - 1] as usize };
        &self.staged[j * self.chunk_len..][from..ends[b] as usize]
    }

    /// Places bands `run` into `target` (which covers exactly their positions and cells),
    /// halving the run over rayon's threads down to single bands. A band counts its boxes by
    /// cell, sets its cells' starts, and places its boxes, all in cache.
    fn place(&self, run: Range<usize>, target: Sorted<'_, P>) {
        if run.len() == 1 {
            let (b, mut target) = (run.start, target);
            let (first_cell, first) = (b << self.shift, self.starts[b]);
            let keys = (0..self.chunks).flat_map(|j| self.part(j, b).iter().map(|s| s.key));
            target.count(first_cell, first, keys);
            for j in 0..self.chunks {
                for s in self.part(j, b) {
                    target.put(first_cell, first, s.key, &s.bounds, &s.item);
                }
            }
            return;
        }
        let mid = run.start + run.len() / 2;
        let positions = (self.starts[mid] - self.starts[run.start]) as usize;
        let cells = (mid - run.start) << self.shift;
        let (left, right) = target.split(positions, cells);
        crate::awake::join(
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
        let pool = crate::test_pool::pool(3);
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

    /// A sort whose grid has a few more cells (or bands, or levels) than the last sorts in
    /// the buffers it has: those sized by the layout took room where they grew (a kept
    /// finder's rebuild, whose shapes had moved out a little, grew them in a steady frame
    /// loop).
    #[test]
    fn a_grid_a_little_larger_sorts_in_the_buffers_it_has() {
        // `n` boxes spread over a square of side `side`, some large ones among them.
        let boxes = |n: u32, side: f32| -> Vec<[f32; 4]> {
            (0..n)
                .map(|i| {
                    let h = |k: u32| {
                        let x = i.wrapping_mul(0x9e37_79b9) ^ k.wrapping_mul(0x85eb_ca6b);
                        (x.wrapping_mul(0xc2b2_ae35) >> 8) as f32 / (1 << 24) as f32
                    };
                    let (x, y) = (h(1) * side, h(2) * side);
                    let s = if i % 97 == 3 { 30.0 } else { 0.5 + h(3) };
                    [x, y, x + s, y + s]
                })
                .collect()
        };
        for threads in [1, 3] {
            let pool = crate::test_pool::pool(threads);
            let (mut sort, mut staged) = (CountingSort::default(), Vec::new());
            let mut out = (vec![0u32; 50_000], [(); 4].map(|_| Vec::new()));
            let mut cells = Vec::new();
            let mut run = |sort: &mut CountingSort, side: f32| {
                let b = boxes(50_000, side);
                let mut levels = Levels::default();
                levels.plan(&b, None);
                cells.push(levels.cells());
                let [f0, f1, f2, f3] = &mut out.1;
                pool.install(|| {
                    sort.sort(
                        &levels,
                        &b,
                        |i| i,
                        &mut staged,
                        &mut out.0,
                        [f0, f1, f2, f3],
                    )
                });
            };
            run(&mut sort, 400.0);
            let at = |s: &CountingSort| {
                [
                    &s.starts,
                    &s.keys,
                    &s.band_ends,
                    &s.band_starts,
                    &s.band_cursors,
                    &s.cursors,
                ]
                .map(|v| v.as_ptr())
            };
            let before = at(&sort);
            run(&mut sort, 410.0);
            assert!(cells[1] > cells[0], "{cells:?}");
            assert_eq!(at(&sort), before, "{threads} threads: {cells:?} cells");
        }
    }

    /// The sort against a stable sort by cell, on 1, 3 and 16 threads, for inputs sorted in
    /// one direct pass and in bands (over one chunk and several): every cell's start, the
    /// items in cell order and in input order within a cell, the boxes' bounds bit for bit,
    /// then the padding.
    #[test]
    fn the_sort_is_a_stable_sort_by_cell() {
        let boxes = |n: u32| -> Vec<[f32; 4]> {
            (0..n)
                .map(|i| {
                    let h = |k: u32| {
                        let x = i.wrapping_mul(0x9e37_79b9) ^ k.wrapping_mul(0x85eb_ca6b);
                        (x.wrapping_mul(0xc2b2_ae35) >> 8) as f32 / (1 << 24) as f32
                    };
                    // Crowded towards one corner, a few large boxes, some not entered.
                    let (x, y) = (h(1) * h(1) * 400.0, h(2) * 400.0);
                    let side = if i % 97 == 3 { 20.0 } else { 0.5 + h(3) };
                    if i % 13 == 5 {
                        [f32::NAN; 4]
                    } else {
                        [x, y, x + side, y + side]
                    }
                })
                .collect()
        };
        for threads in [1, 3, 16] {
            let pool = crate::test_pool::pool(threads);
            for n in [
                0,
                1,
                100,
                2 * BAND as u32,
                2 * BAND as u32 + 1,
                40_000,
                150_000,
            ] {
                let b = boxes(n);
                let mut levels = Levels::default();
                levels.plan(&b, None);
                let cells = levels.cells();
                // Each box's cell as the sort's first step finds it, eight at a time.
                let keys: Vec<i32> = b
                    .chunks(LANES)
                    .flat_map(|part| {
                        let mut eight = [[f32::NAN; 4]; LANES];
                        eight[..part.len()].copy_from_slice(part);
                        levels.keys_of(&eight).to_array()[..part.len()].to_vec()
                    })
                    .collect();
                let mut want: Vec<u32> = (0..n).filter(|&i| keys[i as usize] >= 0).collect();
                want.sort_by_key(|&i| keys[i as usize]);
                let mut starts = vec![0u32; cells + 1];
                for &i in &want {
                    starts[keys[i as usize] as usize + 1] += 1;
                }
                for c in 0..cells {
                    starts[c + 1] += starts[c];
                }
                let mut sort = CountingSort::default();
                let (mut out, mut fields) = (vec![u32::MAX; n as usize], [(); 4].map(|_| vec![]));
                let [f0, f1, f2, f3] = &mut fields;
                pool.install(|| {
                    sort.sort(
                        &levels,
                        &b,
                        |i| i,
                        &mut Vec::new(),
                        &mut out,
                        [f0, f1, f2, f3],
                    )
                });
                let case = format!("{n} boxes on {threads} threads");
                assert_eq!(sort.len(), want.len(), "{case}");
                assert!(sort.starts() == &starts[..], "{case}: starts");
                assert!(out[..want.len()] == want[..], "{case}: items");
                for (k, f) in fields.iter().enumerate() {
                    assert_eq!(f.len(), want.len() + PAD, "{case}: field {k}");
                    for (p, &i) in want.iter().enumerate() {
                        assert_eq!(f[p].to_bits(), b[i as usize][k].to_bits(), "{case}");
                    }
                    assert!(
                        f[want.len()..].iter().all(|x| x.is_nan()),
                        "{case}: padding"
                    );
                }
            }
        }
    }
}

//! [`Grid::set_boxes`]: boxes that moved within their cells, each found in its cell and
//! written where it lies, in parts split between cells so that each task writes its own
//! positions.

use super::{Fields, Grid, cell_in};
use core::ops::Range;

/// Entries below which finding and writing boxes in place is one task (a search of a cell
/// and a box written, 10–30 ns each: a second thread would cost more than it saves).
const MIN_PART: usize = 256;

/// What every part reads: the entries (`(key, k)`, sorted by key), the boxes they enter,
/// where each lies in its cell, and the cell starts.
struct Entries<'a, F> {
    enter: &'a [(u32, u32)],
    entered: &'a [(u32, [f32; 4])],
    place: &'a F,
    starts: &'a [u32],
}

impl<F: Fn(usize, Range<usize>) -> (u32, u32) + Sync> Entries<'_, F> {
    /// Places the entries `from .. to` (into `placed`, theirs) and writes the boxes of those
    /// that keep their place into `fields`, which start at position `base`: in `groups`
    /// groups forked one after another from this thread (as [`crate::awake::for_each`] hands
    /// out a pass on many threads), each in halves on rayon's threads down to `min` entries,
    /// each group or half split where a cell begins so that the positions its entries write
    /// lie on its side.
    fn write(
        &self,
        (fields, placed): (Fields<'_>, &mut [(u32, u32)]),
        base: usize,
        (from, to): (usize, usize),
        (min, groups): (usize, usize),
    ) {
        let enter = &self.enter[from..to];
        if enter.len() > min {
            let key = |j: usize| enter[j].0;
            // The first entry of the cell of the last group's first entry (or of the middle
            // entry), or of the next cell where that is the first entry's: the two sides then
            // write the positions of different cells.
            let (first, rest) = crate::awake::fan_split(enter.len(), groups);
            let half = key(first);
            let mut mid = enter.partition_point(|&(k, _)| k < half);
            if mid == 0 {
                mid = enter.partition_point(|&(k, _)| k <= half);
            }
            if mid < enter.len() {
                let cut = self.starts[key(mid) as usize] as usize - base;
                let (low, high) = fields.split_at(cut);
                let (placed_low, placed_high) = placed.split_at_mut(mid);
                let mid = from + mid;
                crate::awake::join(
                    || self.write((low, placed_low), base, (from, mid), (min, rest)),
                    || self.write((high, placed_high), base + cut, (mid, to), (min, 1)),
                );
                return;
            }
        }
        let Fields([x0, y0, x1, y1]) = fields;
        for ((j, &(key, k)), out) in (from..).zip(enter).zip(placed) {
            *out = (self.place)(j, cell_in(self.starts, key));
            if out.0 != u32::MAX {
                let (p, b) = (out.0 as usize - base, self.entered[k as usize].1);
                (x0[p], y0[p], x1[p], y1[p]) = (b[0], b[1], b[2], b[3]);
            }
        }
    }
}

impl Grid {
    /// Finds where each entry `j` of `enter` (`(key, k)`, sorted by key) keeps its place,
    /// and writes there in place the box `entered[k]`: `place(j, cell)`, given the sorted
    /// positions of cell `key`, returns `(position, tag)`, the position `u32::MAX` for an
    /// entry that does not keep its place, and `placed[j]` takes it. A position must lie in
    /// `cell` (a box that moved within its cell keeps its place, and the key of the new box is
    /// the cell's). Entries of other cells write no box here; see [`repair`](Self::repair).
    ///
    /// On rayon's threads from [`MIN_PART`] entries (called from one of them): the entries are
    /// split in halves between cells, each half placing its entries and writing the positions
    /// of its cells (one pass: the places found, then the boxes written, were two forks and
    /// joins over every thread).
    ///
    /// # Panics
    /// Where `placed` is not as long as `enter`, or a position lies outside its cell's.
    pub(crate) fn set_boxes(
        &mut self,
        enter: &[(u32, u32)],
        entered: &[(u32, [f32; 4])],
        place: &(impl Fn(usize, Range<usize>) -> (u32, u32) + Sync),
        placed: &mut [(u32, u32)],
    ) {
        assert_eq!(placed.len(), enter.len(), "a place for every entry");
        let threads = rayon::current_num_threads();
        // One part outside rayon's pool too: each fork there would hand over to a worker.
        let min = if threads <= 1 || rayon::current_thread_index().is_none() {
            enter.len()
        } else {
            (enter.len() / (4 * threads)).max(MIN_PART)
        };
        let entries = Entries {
            enter,
            entered,
            place,
            starts: self.sort.starts(),
        };
        let fields = Fields([
            &mut self.min_x[..],
            &mut self.min_y[..],
            &mut self.max_x[..],
            &mut self.max_y[..],
        ]);
        let groups = crate::awake::groups_for(threads, enter.len(), min);
        entries.write((fields, placed), 0, (0, enter.len()), (min, groups));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `n` boxes of side 0.5 on a row of cells of side about 1, `per` to a cell.
    fn grid(n: usize, per: usize) -> (Grid, Vec<[f32; 4]>, Vec<u32>) {
        let boxes: Vec<[f32; 4]> = (0..n)
            .map(|i| {
                let x = (i / per) as f32 + 0.25 * (i % per) as f32 / per as f32;
                let y = (i % 7) as f32 * 0.01;
                [x, y, x + 0.5, y + 0.5]
            })
            .collect();
        let mut g = Grid::default();
        let mut ids = vec![0u32; n];
        g.build(&boxes, Some(1.0), |i| i, &mut Vec::new(), &mut ids);
        (g, boxes, ids)
    }

    /// Every box written in place, on one thread and on 2, 4 and 16, in parts split between
    /// cells, lands at its own position and nowhere else: the grid's boxes equal those
    /// written one at a time, whatever the threads; each entry is placed once, given its own
    /// cell, and its place lands at its own index.
    #[test]
    fn boxes_land_at_their_positions_on_any_thread_count() {
        for (n, per, every) in [(10, 3, 1), (5000, 1, 1), (20_000, 4, 3), (20_000, 40, 2)] {
            let (reference, boxes, ids) = grid(n, per);
            // Each chosen box grown a little within its cell, entered in key order.
            let mut enter = Vec::new();
            let mut entered = Vec::new();
            let mut at = Vec::new();
            for (p, &i) in ids[..reference.len()].iter().enumerate() {
                if p % every == 0 {
                    let b = boxes[i as usize];
                    let key = reference.key_for(&b).expect("a key");
                    enter.push((key, entered.len() as u32));
                    entered.push((i, [b[0], b[1], b[2] + 0.125, b[3] + p as f32]));
                    // Every fifth entry moves cells instead: nothing written for it here.
                    at.push(if enter.len() % 5 == 0 {
                        u32::MAX
                    } else {
                        p as u32
                    });
                }
            }
            enter.sort_unstable();
            let position = |j: usize| at[enter[j].1 as usize];
            let mut expected: Vec<[f32; 4]> =
                (0..reference.len()).map(|p| reference.box_at(p)).collect();
            for (j, &(_, k)) in enter.iter().enumerate() {
                if position(j) != u32::MAX {
                    expected[position(j) as usize] = entered[k as usize].1;
                }
            }
            // Each entry placed by its position, given the range of its own cell (checked),
            // tagged with its number.
            let place = |j: usize, cell: Range<usize>| {
                assert_eq!(cell, reference.cell(enter[j].0), "entry {j}: its own cell");
                (position(j), j as u32)
            };
            for threads in [1, 2, 4, 16] {
                let (mut g, _, _) = grid(n, per);
                let mut placed = vec![(0, 0); enter.len()];
                crate::test_pool::in_pool(threads, || {
                    g.set_boxes(&enter, &entered, &place, &mut placed);
                });
                for (p, b) in expected.iter().enumerate() {
                    assert_eq!(g.box_at(p), *b, "n {n} threads {threads}");
                }
                for (j, &(at, tag)) in placed.iter().enumerate() {
                    assert_eq!(
                        (at, tag),
                        (position(j), j as u32),
                        "n {n} threads {threads}"
                    );
                }
            }
        }
    }
}

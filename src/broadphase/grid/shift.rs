//! [`Grid::repair_few`]: a few boxes moved between cells, the grid edited where it lies: each
//! run of positions between two changes moves by as many places as entries and removals
//! before it differ, so only the positions between a box's old place and its new one move.

use super::super::LANES;
use super::Grid;
use core::ops::Range;

/// A change of the grid's order, at an old position: an entry before it, or its removal.
#[derive(Clone, Copy)]
enum Change {
    /// The next entry goes before this old position (after the entries before it).
    Enter,
    /// This old position is removed.
    Remove,
}

/// A run of old positions and how far it moves.
#[derive(Debug)]
struct Run {
    old: Range<usize>,
    by: isize,
}

/// The buffers of [`Grid::repair_few`], kept from call to call: the runs that move, and
/// where each entry lands.
#[derive(Debug, Default)]
pub(super) struct Shifts {
    runs: Vec<Run>,
    landing: Vec<usize>,
}

impl Grid {
    /// What [`repair`](Self::repair) does, for a few changes: removes the boxes at the sorted
    /// positions `removed` (`(position, cell)`, ascending by position) and enters each `(key,
    /// k)` of `enter` (sorted by key), the item and box `entered[k]`, at the end of its cell;
    /// every other box keeps its cell and its order, `items` following. On one thread, in
    /// place: the runs of positions between changes move by the difference of the entries and
    /// removals before them (none where those balance), and the cell starts likewise. A box
    /// that moves to a nearby cell moves only the boxes between its two places, where the
    /// repair copies every position; many changes move almost every position either way, in
    /// many short runs (a third of a microsecond a change at 1 M boxes), and the repair
    /// splits over the threads.
    pub(crate) fn repair_few(
        &mut self,
        items: &mut Vec<u32>,
        removed: &[(u32, u32)],
        enter: &[(u32, u32)],
        entered: &[(u32, [f32; 4])],
    ) {
        let old_len = self.len();
        let new_len = old_len + enter.len() - removed.len();
        // Taken out while the fields move, and put back.
        let mut shifts = core::mem::take(&mut self.shifts);
        shifts.plan(self.sort.starts(), removed, enter, old_len);
        if new_len > old_len {
            items.resize(new_len, 0);
            for f in self.fields_mut() {
                if f.len() < new_len + LANES {
                    f.resize(new_len + LANES, f32::NAN);
                }
            }
        }
        // Runs moving left, left to right; then those moving right, right to left: a run's new
        // places never hold a run not yet moved (the order is kept, so the new places of the
        // runs before and after it lie before and after its own).
        let mut shift = |run: &Run| {
            let to = run.old.start.wrapping_add_signed(run.by);
            items.copy_within(run.old.clone(), to);
            for f in self.fields_mut() {
                f.copy_within(run.old.clone(), to);
            }
        };
        let runs = &shifts.runs;
        runs.iter().filter(|r| r.by < 0).for_each(&mut shift);
        runs.iter().rev().filter(|r| r.by > 0).for_each(&mut shift);
        for (&(_, k), &at) in enter.iter().zip(&shifts.landing) {
            let (item, b) = entered[k as usize];
            items[at] = item;
            let [x0, y0, x1, y1] = self.fields_mut();
            (x0[at], y0[at], x1[at], y1[at]) = (b[0], b[1], b[2], b[3]);
        }
        items.truncate(new_len);
        for f in self.fields_mut() {
            f.truncate(new_len + LANES);
            f[new_len..].fill(f32::NAN);
        }
        self.shifts = shifts;
        // Taken out of the sort while they are edited (an empty vector in their place).
        let mut starts = Vec::new();
        self.sort.swap_starts(&mut starts);
        shift_starts(&mut starts, removed, enter);
        debug_assert_eq!(starts.last().map(|&s| s as usize), Some(new_len));
        self.sort.swap_starts(&mut starts);
    }

    /// The four box fields, mutable.
    fn fields_mut(&mut self) -> [&mut Vec<f32>; 4] {
        [
            &mut self.min_x,
            &mut self.min_y,
            &mut self.max_x,
            &mut self.max_y,
        ]
    }
}

impl Shifts {
    /// The runs of the `old_len` old positions that move, and where each entry lands, for
    /// the cell starts `starts` before the changes: the changes by old position, an entry
    /// before a removal at the same position (it goes at the end of the cell before).
    fn plan(
        &mut self,
        starts: &[u32],
        removed: &[(u32, u32)],
        enter: &[(u32, u32)],
        old_len: usize,
    ) {
        self.runs.clear();
        self.landing.clear();
        self.landing.resize(enter.len(), 0);
        let boundary = |j: usize| starts[enter[j].0 as usize + 1] as usize;
        let (mut j, mut r) = (0, 0);
        let (mut from, mut by) = (0usize, 0isize);
        loop {
            let (at, change) = match (enter.get(j), removed.get(r)) {
                (Some(_), Some(&(p, _))) if boundary(j) <= p as usize => {
                    (boundary(j), Change::Enter)
                }
                (_, Some(&(p, _))) => (p as usize, Change::Remove),
                (Some(_), None) => (boundary(j), Change::Enter),
                (None, None) => break,
            };
            if by != 0 && from < at {
                self.runs.push(Run { old: from..at, by });
            }
            match change {
                Change::Enter => {
                    self.landing[j] = at.wrapping_add_signed(by);
                    (from, by, j) = (at, by + 1, j + 1);
                }
                Change::Remove => (from, by, r) = (at + 1, by - 1, r + 1),
            }
        }
        if by != 0 && from < old_len {
            self.runs.push(Run {
                old: from..old_len,
                by,
            });
        }
    }
}

/// Each cell's start in `starts` moved by the entries `enter` (`(key, k)`, by key) into the
/// cells before it less the removals `removed` (`(position, cell)`, by cell) from them:
/// between two changes by cell, every start by the same amount, and none where they balance.
fn shift_starts(starts: &mut [u32], removed: &[(u32, u32)], enter: &[(u32, u32)]) {
    let last = starts.len() - 1;
    let mut add = |cells: core::ops::RangeInclusive<usize>, by: isize| {
        if by != 0 {
            for s in &mut starts[cells] {
                *s = s.wrapping_add_signed(by as i32);
            }
        }
    };
    let (mut j, mut r) = (0, 0);
    let (mut from, mut by) = (0usize, 0isize);
    loop {
        let (cell, step) = match (enter.get(j), removed.get(r)) {
            (Some(&(key, _)), Some(&(_, c))) if key <= c => (key as usize, 1),
            (_, Some(&(_, c))) => (c as usize, -1),
            (Some(&(key, _)), None) => (key as usize, 1),
            (None, None) => break,
        };
        add(from..=cell, by);
        if step > 0 {
            j += 1;
        } else {
            r += 1;
        }
        (from, by) = (cell + 1, by + step);
    }
    add(from..=last, by);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A deterministic number in `0..1` from `i`, `salt` and `k`.
    fn unit(i: u32, salt: u32, k: u32) -> f32 {
        let x = (i ^ salt.rotate_left(16)).wrapping_mul(0x9e37_79b9) ^ k.wrapping_mul(0x85eb_ca6b);
        (x.wrapping_mul(0xc2b2_ae35) >> 8) as f32 / (1 << 24) as f32
    }

    /// Box `i` in a square of side `side`: of side 0.5..1.5, or, where `sized`, over a factor
    /// of about 100 (several levels).
    fn a_box(i: u32, salt: u32, side: f32, sized: bool) -> [f32; 4] {
        let (x, y) = (unit(i, salt, 1) * side, unit(i, salt, 2) * side);
        let s = if sized {
            0.1 * 100f32.powf(unit(i, salt, 3))
        } else {
            0.5 + unit(i, salt, 3)
        };
        [x, y, x + s, y + s]
    }

    /// The grid's state as both repairs must leave it: its length, the items and the bits of
    /// the boxes (with the padding after them), and the cell starts.
    fn state(grid: &Grid, items: &[u32]) -> (usize, Vec<u32>, Vec<[u32; 4]>, Vec<u32>) {
        let n = grid.len();
        let boxes = (0..n + LANES)
            .map(|p| grid.box_at(p).map(f32::to_bits))
            .collect();
        (n, items[..n].to_vec(), boxes, grid.sort.starts().to_vec())
    }

    /// On grids of one level and of several, with moves to nearby places (which balance) and
    /// anywhere, entries only, removals only, none, and the first and last positions
    /// removed, the edit in place leaves the grid exactly as the repair does.
    #[test]
    fn the_edit_in_place_is_the_repair() {
        for (n, sized) in [(0u32, false), (1, false), (3000, false), (20_000, true)] {
            let side = (n as f32).sqrt().max(1.0);
            let boxes: Vec<_> = (0..n).map(|i| a_box(i, 0, side, sized)).collect();
            let build = || {
                let (mut grid, mut items) = (Grid::default(), vec![0; n as usize]);
                grid.build(&boxes, None, |i| i, &mut Vec::new(), &mut items);
                (grid, items)
            };
            // (moved: every `every`-th item from `first`, how far (None: anywhere), new items)
            let cases = [
                (1, 0, Some(0.0), 0),
                (97, 5, Some(1.0), 0),
                (13, 2, Some(0.3), 3),
                (7, 1, None, 0),
                (2, 0, None, 10),
                (u32::MAX, 0, None, 0),
                (u32::MAX, 0, None, 25),
                (501, 0, Some(2.0), 0),
            ];
            for (c, &(every, first, far, new)) in cases.iter().enumerate() {
                let (before, items) = build();
                let moved: Vec<bool> = (0..n + new)
                    .map(|i| i < n && i >= first && (i - first) % every.max(1) == 0)
                    .map(|m| m && every != u32::MAX)
                    .collect();
                // The moved boxes enter elsewhere; every third stays out (removed only).
                let entered: Vec<(u32, [f32; 4])> = (0..n + new)
                    .filter(|&i| i >= n || (moved[i as usize] && i % 3 != 0))
                    .map(|i| {
                        let b = match (i < n, far) {
                            (true, Some(d)) => {
                                let b = boxes[i as usize];
                                let (dx, dy) = (d * (unit(i, 9, 1) - 0.5), d * unit(i, 9, 2));
                                [b[0] + dx, b[1] + dy, b[2] + dx, b[3] + dy]
                            }
                            _ => a_box(i, 1, side, sized),
                        };
                        (i, b)
                    })
                    .collect();
                let mut enter: Vec<(u32, u32)> = entered
                    .iter()
                    .enumerate()
                    .filter_map(|(k, (_, b))| Some((before.key_for(b)?, k as u32)))
                    .collect();
                enter.sort_unstable();
                let starts = before.sort.starts();
                let removed: Vec<(u32, u32)> = (0..before.len())
                    .filter(|&p| moved[items[p] as usize])
                    .map(|p| {
                        let cell = starts.partition_point(|&s| s as usize <= p) - 1;
                        (p as u32, cell as u32)
                    })
                    .collect();
                let (mut want, mut want_items) = build();
                let mut spare = Vec::new();
                want.repair(&mut want_items, &mut spare, &moved, &enter, &entered);
                let (mut got, mut got_items) = build();
                got.repair_few(&mut got_items, &removed, &enter, &entered);
                assert!(
                    state(&got, &got_items) == state(&want, &want_items),
                    "{n} boxes, case {c}: {} removed, {} entered",
                    removed.len(),
                    enter.len()
                );
            }
        }
    }
}

//! [`Grid::repair`]: boxes moved between cells without a rebuild, each task writing the new
//! order of a range of the old positions where it lies in the new arrays.

use super::super::LANES;
use super::{Fields, Grid};
use crate::room::{resize_with_room, room_for_busiest};
use crate::tasks::tasks_of;
use core::ops::Range;
use rayon::prelude::*;

/// Old positions below which a repair is one task (above, parts of a sixteenth of this at the
/// least: 48 parts of a 100 k grid on sixteen threads, 13 of a quarter; at a sixteen-way split
/// measured on one core the repair's longest chain of work, two passes of one part each, took
/// 18–20 µs rather than 35–38, its work 8 % more).
const MIN_PART: usize = 32 * 1024;

/// The cell starts and box fields a repair writes before they are exchanged with the grid's,
/// the positions it removes (per part), the first entry and first cell of each part, and its
/// parts.
#[derive(Debug, Default)]
pub(super) struct Repair {
    starts: Vec<u32>,
    fields: [Vec<f32>; 4],
    removed: Vec<Vec<u32>>,
    firsts: Vec<(usize, usize)>,
    parts: Vec<Part>,
}

/// A part of a repair: the old positions `old`, the entries `entries` entered among them,
/// where its new positions start, and the cells `cells` whose old starts lie among its old
/// positions (the last part's: to the last cell), whose new starts it writes.
#[derive(Debug, Clone, Default)]
struct Part {
    old: Range<usize>,
    entries: Range<usize>,
    out: usize,
    cells: Range<usize>,
}

/// What a part does after copying a run of boxes.
enum Then {
    /// Enters this entry.
    Enter(u32),
    /// Skips the next old position (a removed box).
    Skip,
    /// Nothing: the part's last run.
    Stop,
}

/// The new arrays from a part's first new position on (items and box fields) and from its
/// first cell on (the cell starts).
struct Out<'a> {
    items: &'a mut [u32],
    fields: Fields<'a>,
    starts: &'a mut [u32],
}

impl<'a> Out<'a> {
    /// The first `at` positions and `cells` cells, and the rest.
    fn split_at(self, at: usize, cells: usize) -> (Out<'a>, Out<'a>) {
        let (items, rest) = self.items.split_at_mut(at);
        let (fields, more) = self.fields.split_at(at);
        let (starts, later) = self.starts.split_at_mut(cells);
        (
            Out {
                items,
                fields,
                starts,
            },
            Out {
                items: rest,
                fields: more,
                starts: later,
            },
        )
    }
}

/// What every part reads: the old items and box fields, the entries and the old cell starts.
struct Old<'a> {
    items: &'a [u32],
    fields: [&'a [f32]; 4],
    enter: &'a [(u32, u32)],
    entered: &'a [(u32, [f32; 4])],
    starts: &'a [u32],
}

impl Old<'_> {
    /// The old position before which entry `e` goes: the end of its cell.
    fn boundary(&self, e: usize) -> usize {
        self.starts[self.enter[e].0 as usize + 1] as usize
    }

    /// Writes `part`'s new positions to `out`: its old positions but `removed`, with its
    /// entries each at the end of its cell, in order; then its cells' new starts.
    fn write(&self, part: &Part, removed: &[u32], out: Out<'_>) {
        let Out {
            items,
            fields,
            starts,
        } = out;
        let Fields([fx0, fy0, fx1, fy1]) = fields;
        let [x0, y0, x1, y1] = self.fields;
        let (mut src, mut at) = (part.old.start, 0usize);
        // Copies old positions `src .. end` to `at ..`, then enters an entry, skips position
        // `end`, or (at the end) nothing. Each run between events is copied without a push per
        // item (runs are a few boxes long where many boxes moved).
        let mut step = |end: usize, then: Then| {
            let n = end - src;
            let (from, to) = (src..end, at..at + n);
            if n <= 8 {
                for (p, q) in from.zip(to) {
                    items[q] = self.items[p];
                    (fx0[q], fy0[q], fx1[q], fy1[q]) = (x0[p], y0[p], x1[p], y1[p]);
                }
            } else {
                items[to.clone()].copy_from_slice(&self.items[from.clone()]);
                fx0[to.clone()].copy_from_slice(&x0[from.clone()]);
                fy0[to.clone()].copy_from_slice(&y0[from.clone()]);
                fx1[to.clone()].copy_from_slice(&x1[from.clone()]);
                fy1[to].copy_from_slice(&y1[from]);
            }
            (src, at) = (end, at + n);
            match then {
                Then::Enter(k) => {
                    let (id, b) = &self.entered[k as usize];
                    items[at] = *id;
                    (fx0[at], fy0[at], fx1[at], fy1[at]) = (b[0], b[1], b[2], b[3]);
                    at += 1;
                }
                Then::Skip => src += 1,
                Then::Stop => {}
            }
        };
        let (mut r, mut e) = (0, part.entries.start);
        loop {
            let next_removal = removed.get(r).map_or(usize::MAX, |&p| p as usize);
            let next_entry = if e < part.entries.end {
                self.boundary(e)
            } else {
                usize::MAX
            };
            if next_entry <= next_removal && next_entry != usize::MAX {
                step(next_entry, Then::Enter(self.enter[e].1));
                e += 1;
            } else if next_removal != usize::MAX {
                step(next_removal, Then::Skip);
                r += 1;
            } else {
                step(part.old.end, Then::Stop);
                break;
            }
        }
        debug_assert!(at == items.len());
        self.write_starts(part, removed, starts);
    }

    /// The new starts of `part`'s cells into `out`: each cell starts where it did, moved by
    /// the entries before it (those of the parts before, and this part's of lower cells) and
    /// the removals before its first position (the parts' before, and this part's below it).
    fn write_starts(&self, part: &Part, removed: &[u32], out: &mut [u32]) {
        // What the parts before remove: the positions before this part's, and their
        // entries, less the new positions before this part's.
        let removed_before = part.old.start + part.entries.start - part.out;
        let (mut e, mut r) = (part.entries.start, 0);
        for (c, s) in part.cells.clone().zip(out) {
            let start = self.starts[c];
            while e < part.entries.end && (self.enter[e].0 as usize) < c {
                e += 1;
            }
            while r < removed.len() && removed[r] < start {
                r += 1;
            }
            *s = (start as usize + e - removed_before - r) as u32;
        }
    }
}

/// Runs `write` for each of `parts` (their new positions ascending from `base.0`, their cells
/// from `base.1`) on its share of `out`, in `groups` groups forked one after another from this
/// thread (as [`crate::awake::for_each`] hands out a pass on many threads), each split in
/// halves on rayon's threads.
fn each_part(
    parts: &[Part],
    removed: &[Vec<u32>],
    base: (usize, usize),
    out: Out<'_>,
    (groups, write): (usize, &(impl Fn(&Part, &[u32], Out<'_>) + Sync)),
) {
    if let [part] = parts {
        write(part, &removed[0], out);
        return;
    }
    let (mid, rest) = crate::awake::fan_split(parts.len(), groups);
    let at = (parts[mid].out, parts[mid].cells.start);
    let (left, right) = out.split_at(at.0 - base.0, at.1 - base.1);
    let ((p0, p1), (r0, r1)) = (parts.split_at(mid), removed.split_at(mid));
    crate::awake::join(
        || each_part(p0, r0, base, left, (rest, write)),
        || each_part(p1, r1, at, right, (1, write)),
    );
}

impl Grid {
    /// Moves boxes between cells without a rebuild: removes every position whose item (an id
    /// into `moved`) is flagged in `moved`, and enters each `(key, k)` of `enter` (sorted by
    /// key), the item and box `entered[k]`, at the end of its cell. Every other box keeps
    /// its cell and its order. `items` (the item of each position) follows, `spare` holding the
    /// caller's second buffer. The levels do not change: a caller enters only keys from
    /// [`key_for`](Self::key_for).
    ///
    /// On rayon's threads: the old positions are split into parts, each finds its removed
    /// positions, and, its new start known from the counts before it, writes its new positions
    /// where they lie and the new starts of the cells that start among its old positions.
    pub(crate) fn repair(
        &mut self,
        items: &mut Vec<u32>,
        spare: &mut Vec<u32>,
        moved: &[bool],
        enter: &[(u32, u32)],
        entered: &[(u32, [f32; 4])],
    ) {
        let cells = self.levels.cells();
        let starts = self.sort.starts();
        let old = starts[cells] as usize;
        let Repair {
            starts: new_starts,
            fields,
            removed,
            firsts,
            parts,
        } = &mut self.repair;
        // Above `MIN_PART`, parts of a sixteenth of it: 100 k boxes in 48 on sixteen threads.
        let count = tasks_of(old, MIN_PART, MIN_PART / 16);
        if removed.len() < count {
            removed.resize_with(count, Vec::new);
        }
        let removed = &mut removed[..count];
        let bound = |k: usize| old * k / count;
        // A part takes the entries that go before one of its old positions (the last part also
        // those at the end), and starts after everything the parts before it write.
        let first_entry = |k: usize| {
            enter.partition_point(|&(key, _)| (starts[key as usize + 1] as usize) < bound(k))
        };
        // Each part's removed positions, ascending, its first entry and its first cell. (The
        // first entries, searched on one thread between the passes, were 69 µs of a 1 M frame:
        // two binary searches a part, each probe two cache misses.)
        let first_cell = |k: usize| starts[..cells].partition_point(|&s| (s as usize) < bound(k));
        resize_with_room(firsts, count + 1, (0, 0));
        let each = (removed.par_iter_mut())
            .zip(firsts[..count].par_iter_mut())
            .enumerate();
        crate::awake::for_each(each, |(k, (r, first))| {
            r.clear();
            let part = bound(k)..bound(k + 1);
            r.extend(part.filter(|&p| moved[items[p] as usize]).map(|p| p as u32));
            *first = (first_entry(k), first_cell(k));
        });
        // Each part's list with room for the busiest part's (a part's share of the leavers
        // moves from call to call).
        room_for_busiest(removed, 64, |r| [r]);
        firsts[count] = (enter.len(), cells);
        let reads = Old {
            items,
            fields: [&self.min_x, &self.min_y, &self.max_x, &self.max_y],
            enter,
            entered,
            starts,
        };
        parts.clear();
        let mut out = 0;
        for (k, r) in removed.iter().enumerate() {
            let part = Part {
                old: bound(k)..bound(k + 1),
                entries: firsts[k].0..firsts[k + 1].0,
                out,
                cells: firsts[k].1..firsts[k + 1].1,
            };
            out += part.old.len() + part.entries.len() - r.len();
            parts.push(part);
        }
        let total = out;
        // Every array is written once, in place: the second buffers keep about their length
        // from call to call (as many boxes leave as enter), so that resizing them writes little.
        resize_with_room(spare, total, 0);
        for f in fields.iter_mut() {
            resize_with_room(f, total + LANES, f32::NAN);
        }
        // With room: a grid rebuilt with a few cells more than the last does not allocate
        // in the repair after it.
        resize_with_room(new_starts, cells + 1, 0);
        {
            let [fx0, fy0, fx1, fy1] = fields;
            let out = Out {
                items: &mut spare[..],
                fields: Fields([
                    &mut fx0[..total],
                    &mut fy0[..total],
                    &mut fx1[..total],
                    &mut fy1[..total],
                ]),
                starts: &mut new_starts[..cells],
            };
            // The cell starts written by the parts too: a fork and join over the threads
            // less, and no list of every removed position gathered on one thread between.
            let groups = crate::awake::groups_here(count, 1);
            let write =
                |part: &Part, removed: &[u32], out: Out<'_>| reads.write(part, removed, out);
            each_part(parts, removed, (0, 0), out, (groups, &write));
        }
        new_starts[cells] = total as u32;
        // The padding after the last box: NaN, never a hit.
        for f in fields.iter_mut() {
            f[total..].fill(f32::NAN);
        }
        core::mem::swap(items, spare);
        self.sort.swap_starts(new_starts);
        let [fx0, fy0, fx1, fy1] = fields;
        core::mem::swap(&mut self.min_x, fx0);
        core::mem::swap(&mut self.min_y, fy0);
        core::mem::swap(&mut self.max_x, fx1);
        core::mem::swap(&mut self.max_y, fy1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A deterministic box of side 0.5..1.5 in a square of side `side`, by `i` and `salt`.
    fn a_box(i: u32, salt: u32, side: f32) -> [f32; 4] {
        let h = |k: u32| {
            let x =
                (i ^ salt.rotate_left(16)).wrapping_mul(0x9e37_79b9) ^ k.wrapping_mul(0x85eb_ca6b);
            (x.wrapping_mul(0xc2b2_ae35) >> 8) as f32 / (1 << 24) as f32
        };
        let (x, y, s) = (h(1) * side, h(2) * side, 0.5 + h(3));
        [x, y, x + s, y + s]
    }

    /// A grid over `n` boxes, the items being the boxes' numbers, and its items.
    fn grid(n: u32) -> (Grid, Vec<u32>) {
        let boxes: Vec<_> = (0..n).map(|i| a_box(i, 0, 400.0)).collect();
        let (mut grid, mut staged, mut items) = (Grid::default(), Vec::new(), vec![0; n as usize]);
        grid.build(&boxes, Some(2.0), |i| i, &mut staged, &mut items);
        (grid, items)
    }

    /// Every cell's items and boxes, in order.
    fn cells(grid: &Grid, items: &[u32]) -> Vec<Vec<(u32, [f32; 4])>> {
        let cells = grid.levels.cells();
        (0..cells as u32)
            .map(|key| {
                let at = |p: usize| [grid.min_x[p], grid.min_y[p], grid.max_x[p], grid.max_y[p]];
                grid.cell(key).map(|p| (items[p], at(p))).collect()
            })
            .collect()
    }

    /// The repair on one thread and on two to sixteen (several parts over 150 k boxes, each
    /// writing the starts of the cells that start among its old positions) gives what its
    /// contract says: each cell's old boxes but the moved ones, in order, then its entries in
    /// order, the padding NaN. Whether few boxes move or nearly half, and with entries into
    /// the first and the last cell besides (the last part writes the empty cells at the end).
    #[test]
    fn a_repair_in_parts_is_the_repair_in_one() {
        let n = 150_000u32;
        let (before, items) = grid(n);
        let cell_count = before.levels.cells() as u32;
        let patterns: [&dyn Fn(u32) -> bool; 2] = [&|i| i % 7 == 3 || i % 11 == 0, &|i| {
            i < n / 3 || i % 97 == 0
        }];
        for (pattern, is_moved) in patterns.into_iter().enumerate() {
            let moved: Vec<bool> = (0..n).map(is_moved).collect();
            // The moved boxes enter at new places (some into the same cell), a few new items
            // too, and six into the first and the last cell.
            let entered: Vec<(u32, [f32; 4])> = (0..n + 50)
                .filter(|&i| i >= n || moved[i as usize])
                .map(|i| (i, a_box(i, 1, 400.0)))
                .collect();
            let mut enter: Vec<(u32, u32)> = entered
                .iter()
                .enumerate()
                .map(|(k, (_, b))| (before.key_for(b).expect("a level holds it"), k as u32))
                .collect();
            for (k, e) in enter.iter_mut().take(6).enumerate() {
                e.0 = if k % 2 == 0 { 0 } else { cell_count - 1 };
            }
            enter.sort_unstable();
            let mut flags = moved.clone();
            flags.resize(n as usize + 50, false);
            let want: Vec<Vec<(u32, [f32; 4])>> = cells(&before, &items)
                .into_iter()
                .enumerate()
                .map(|(key, cell)| {
                    let mut cell: Vec<_> = cell
                        .into_iter()
                        .filter(|&(i, _)| !moved[i as usize])
                        .collect();
                    let entries = enter.iter().filter(|&&(k, _)| k as usize == key);
                    cell.extend(entries.map(|&(_, k)| entered[k as usize]));
                    cell
                })
                .collect();
            for threads in [1, 2, 3, 4, 5, 16] {
                let (mut grid, mut items) = grid(n);
                let mut spare = Vec::new();
                crate::test_pool::in_pool(threads, || {
                    grid.repair(&mut items, &mut spare, &flags, &enter, &entered)
                });
                let at = format!("pattern {pattern}, {threads} threads");
                assert_eq!(cells(&grid, &items), want, "{at}");
                assert_eq!(grid.len(), items.len(), "{at}");
                assert!(grid.min_x[grid.len()..].iter().all(|x| x.is_nan()), "{at}");
                assert!(grid.min_x.len() >= grid.len() + LANES, "{at}");
            }
        }
    }
}

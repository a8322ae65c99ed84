//! The cell starts after [`Grid::repair_few`](super::Grid::repair_few)'s edit: each moved by
//! the entries and removals in the cells before it, by ranges of cells on rayon's threads.

use crate::tasks::task_count;
use core::ops::Range;
use rayon::prelude::*;

/// Cells below which the cell starts are shifted as one range (above, ranges of a quarter of
/// this at the least, as many as the pool's threads take). In ranges of 32 k cells, the 100 k
/// scene's 24 k cells were one range on any number of threads: 17–31 µs of every kept frame
/// on one thread while the others waited (Zen 5, when the repair wrote its starts so too).
const MIN_CELLS: usize = 8 * 1024;

/// Each cell's start in `starts` moved by the entries `enter` (`(key, k)`, by key) into the
/// cells before it less the removals `removed` (`(position, cell)`, by cell) from them:
/// between two changes by cell, every start by the same amount, and none where they balance.
/// By ranges of cells on rayon's threads from [`MIN_CELLS`] cells.
pub(super) fn shift_starts(starts: &mut [u32], removed: &[(u32, u32)], enter: &[(u32, u32)]) {
    let cells = starts.len();
    let range = cells.div_ceil(task_count(cells, MIN_CELLS)).max(1);
    if range >= cells {
        shift_range(starts, 0, removed, enter);
        return;
    }
    crate::awake::for_each(starts.par_chunks_mut(range).enumerate(), |(k, part)| {
        shift_range(part, k * range, removed, enter);
    });
}

/// [`shift_starts`] for the starts `part` of the cells from `first` on.
fn shift_range(part: &mut [u32], first: usize, removed: &[(u32, u32)], enter: &[(u32, u32)]) {
    let end = first + part.len();
    let mut add = |cells: Range<usize>, by: isize| {
        if by != 0 {
            for s in &mut part[cells.start - first..cells.end - first] {
                *s = s.wrapping_add_signed(by as i32);
            }
        }
    };
    // The changes in the cells before `first` move every start of the range alike.
    let mut j = enter.partition_point(|&(key, _)| (key as usize) < first);
    let mut r = removed.partition_point(|&(_, c)| (c as usize) < first);
    let (mut from, mut by) = (first, j as isize - r as isize);
    loop {
        let (cell, step) = match (enter.get(j), removed.get(r)) {
            (Some(&(key, _)), Some(&(_, c))) if key <= c => (key as usize, 1),
            (_, Some(&(_, c))) => (c as usize, -1),
            (Some(&(key, _)), None) => (key as usize, 1),
            (None, None) => break,
        };
        if cell >= end {
            break;
        }
        add(from..cell + 1, by);
        if step > 0 {
            j += 1;
        } else {
            r += 1;
        }
        (from, by) = (cell + 1, by + step);
    }
    add(from..end, by);
}

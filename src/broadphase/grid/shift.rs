//! [`Grid::repair_few`]: a few boxes moved between cells, the grid edited where it lies: each
//! run of positions between two changes moves by as many places as entries and removals
//! before it differ, so only the positions between a box's old place and its new one move.
//!
//! On several threads the runs are cut into parts, each moved by one thread. At a cut inside a
//! run that moves by `k`, the part before writes the new places of its old positions up to
//! the cut, which end `k` places past it, and the part after writes from there on: the parts
//! write apart. Where `k` is positive the part before overwrites the first `k` old positions
//! of the part after, and where negative the part after overwrites the last `-k` of the part
//! before; those few are copied aside before the parts start, and read from the copy.

use super::super::LANES;
use super::Grid;
use super::starts::shift_starts;
use crate::room::{reserve_to, resize_with_room};
use crate::tasks::task_count;
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
#[derive(Debug, Clone)]
struct Run {
    old: Range<usize>,
    by: isize,
}

/// Moved positions a part of the edit takes at the least on several threads (below twice
/// this, the edit is one task).
const MIN_EDIT_PART: usize = 16 * 1024;

/// A part of the edit, on one thread: the runs `runs` (of [`Shifts::runs`]) whose old
/// positions lie in `old`, written where the positions from `touch` on lie (the new place of
/// `old.start`; nothing before it, and nothing from the next part's `touch` on, is read or
/// written). It reads the old positions in `data` where they lie and the others of `old`, which
/// the part before or after overwrites, from the copies taken first (in [`Shifts::saved`]:
/// those before `data` from `front`, those after it from `back`).
#[derive(Debug, Clone)]
struct Part {
    runs: Range<usize>,
    old: Range<usize>,
    data: Range<usize>,
    touch: usize,
    front: usize,
    back: usize,
}

/// The buffers of [`Grid::repair_few`], kept from call to call: the runs that move, and
/// where each entry lands; on several threads the runs cut into parts, a second buffer for
/// the cutting, and the old positions copied before the parts run (the items, then the
/// box fields' bits).
#[derive(Debug, Default)]
pub(super) struct Shifts {
    runs: Vec<Run>,
    landing: Vec<usize>,
    cut: Vec<Run>,
    parts: Vec<Part>,
    saved: [Vec<u32>; 5],
}

impl Grid {
    /// What [`repair`](Self::repair) does, for a few changes: removes the boxes at the sorted
    /// positions `removed` (`(position, cell)`, ascending by position) and enters each `(key,
    /// k)` of `enter` (sorted by key), the item and box `entered[k]`, at the end of its cell;
    /// every other box keeps its cell and its order, `items` following. In place: the runs of
    /// positions between changes move by the difference of the entries and removals before
    /// them (none where those balance), and the cell starts likewise. A box that moves to a
    /// nearby cell moves only the boxes between its two places, where the repair copies every
    /// position; many changes move almost every position either way, in many short runs (a
    /// third of a microsecond a change at 1 M boxes), and the repair splits over the threads.
    ///
    /// From two parts of [`MIN_EDIT_PART`] moved positions, on a pool of several threads, the
    /// runs are cut into parts of about equal length, a part a thread: each part moves its
    /// own runs, and the few old positions at a cut that the part on its other side
    /// overwrites (as many as the runs there move by) are copied aside first.
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
            resize_with_room(items, new_len, 0);
            for f in self.fields_mut() {
                if f.len() < new_len + LANES {
                    resize_with_room(f, new_len + LANES, f32::NAN);
                }
            }
        }
        let moved = shifts.runs.iter().map(|r| r.old.len()).sum();
        // A part a thread, each of `MIN_EDIT_PART` moved positions or more (one where
        // `task_count` keeps a pass whole: on one thread, or outside rayon's pool).
        let count = task_count(moved, 2 * MIN_EDIT_PART)
            .min(moved / MIN_EDIT_PART)
            .min(rayon::current_num_threads());
        shifts.cut(count, old_len);
        {
            // The five arrays as bits, each up to the larger of the old and new lengths.
            let len = old_len.max(new_len);
            let [x0, y0, x1, y1] = self.fields_mut().map(|f| &mut f[..len]);
            let mut arrays = [&mut items[..len], bits(x0), bits(y0), bits(x1), bits(y1)];
            shifts.save(&arrays, removed.len() + enter.len());
            let Shifts {
                runs,
                landing,
                parts,
                saved,
                ..
            } = &shifts;
            let landing = Landing {
                at: landing,
                enter,
                entered,
            };
            each_part(&mut arrays, 0, parts, (runs, saved), &landing);
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

/// A box field's bits, which the edit copies as they are.
fn bits(f: &mut [f32]) -> &mut [u32] {
    bytemuck::cast_slice_mut(f)
}

/// The entries of an edit: where each lands (ascending), its `(key, k)` and the item and box
/// `entered[k]`.
struct Landing<'a> {
    at: &'a [usize],
    enter: &'a [(u32, u32)],
    entered: &'a [(u32, [f32; 4])],
}

/// Runs each of `parts` on its share of the five `arrays` (which start at position `base`),
/// splitting them at a part's `touch` in halves on rayon's threads; each part then writes
/// the entries that land in its share.
fn each_part(
    arrays: &mut [&mut [u32]; 5],
    base: usize,
    parts: &[Part],
    (runs, saved): (&[Run], &[Vec<u32>; 5]),
    landing: &Landing<'_>,
) {
    if let [part] = parts {
        part.move_runs(arrays, base, &runs[part.runs.clone()], saved);
        let end = base + arrays[0].len();
        let from = landing.at.partition_point(|&p| p < base);
        let to = from + landing.at[from..].partition_point(|&p| p < end);
        for (&at, &(_, k)) in landing.at[from..to].iter().zip(&landing.enter[from..to]) {
            let (item, b) = landing.entered[k as usize];
            let [items, x0, y0, x1, y1] = arrays;
            let at = at - base;
            items[at] = item;
            (x0[at], y0[at]) = (b[0].to_bits(), b[1].to_bits());
            (x1[at], y1[at]) = (b[2].to_bits(), b[3].to_bits());
        }
        return;
    }
    let mid = parts.len() / 2;
    let at = parts[mid].touch - base;
    let [a, b, c, d, e] = arrays;
    let (a, b, c, d, e) = (
        a.split_at_mut(at),
        b.split_at_mut(at),
        c.split_at_mut(at),
        d.split_at_mut(at),
        e.split_at_mut(at),
    );
    let mut left = [a.0, b.0, c.0, d.0, e.0];
    let mut right = [a.1, b.1, c.1, d.1, e.1];
    let (first, rest) = parts.split_at(mid);
    crate::awake::join(
        || each_part(&mut left, base, first, (runs, saved), landing),
        || each_part(&mut right, rest[0].touch, rest, (runs, saved), landing),
    );
}

impl Part {
    /// The part of runs `runs` over old positions `old`, whose first moves by `by`: all of
    /// them read where they lie, until [`Shifts::cut`] says which are read aside.
    fn new(runs: Range<usize>, old: Range<usize>, by: isize) -> Self {
        Self {
            runs,
            touch: old.start.wrapping_add_signed(by),
            data: old.clone(),
            old,
            front: 0,
            back: 0,
        }
    }

    /// Moves this part's `runs` within the five `arrays` (from position `base` on), the old
    /// positions outside `data` read from `saved`. Runs moving left, left to right; then those
    /// moving right, right to left: a run's new places never hold a run not yet moved (the
    /// order is kept, so the new places of the runs before and after it lie before and after
    /// its own). A run's copied positions go last: its new places may hold its own old ones
    /// in `data`. Each run is moved in all five arrays before the next (one array after the
    /// other took the one-thread edit of a 100 k frame from 96 to 159 µs).
    fn move_runs(
        &self,
        arrays: &mut [&mut [u32]; 5],
        base: usize,
        runs: &[Run],
        saved: &[Vec<u32>; 5],
    ) {
        let Range { start: lo, end: hi } = self.data;
        let (front, back) = (lo - self.old.start, self.old.end - hi);
        if front + back == 0 {
            // Nothing read aside (the edit in one part).
            let mut shift = |run: &Run| {
                let to = run.old.start.wrapping_add_signed(run.by) - base;
                let from = run.old.start - base..run.old.end - base;
                for a in arrays.iter_mut() {
                    a.copy_within(from.clone(), to);
                }
            };
            runs.iter().filter(|r| r.by < 0).for_each(&mut shift);
            runs.iter().rev().filter(|r| r.by > 0).for_each(&mut shift);
            return;
        }
        let mut shift = |run: &Run| {
            let to = |p: usize| p.wrapping_add_signed(run.by) - base;
            let Range { start, end } = run.old;
            let (s, e) = (start.max(lo), end.min(hi));
            if s < e {
                for a in arrays.iter_mut() {
                    a.copy_within(s - base..e - base, to(s));
                }
            }
            let (s, e) = (start, end.min(lo));
            if s < e {
                let from = self.front + s - self.old.start..self.front + e - self.old.start;
                debug_assert!(e - self.old.start <= front);
                for (a, saved) in arrays.iter_mut().zip(saved) {
                    a[to(s)..to(e)].copy_from_slice(&saved[from.clone()]);
                }
            }
            let (s, e) = (start.max(hi), end);
            if s < e {
                let from = self.back + s - hi..self.back + e - hi;
                debug_assert!(e - hi <= back);
                for (a, saved) in arrays.iter_mut().zip(saved) {
                    a[to(s)..to(e)].copy_from_slice(&saved[from.clone()]);
                }
            }
        };
        runs.iter().filter(|r| r.by < 0).for_each(&mut shift);
        runs.iter().rev().filter(|r| r.by > 0).for_each(&mut shift);
    }
}

impl Grid {
    /// Room in [`repair_few`](Self::repair_few)'s buffers for an edit of up to `changes`
    /// removals and entries in up to `parts` parts: the runs between changes, each entry's
    /// landing, the runs cut into parts, and the old positions the parts read aside. A frame
    /// loop whose frames mostly repair (many escapers change cells) and now and then edit
    /// grew these in the first frame that edited, however late.
    pub(crate) fn room_for_edit(&mut self, changes: usize, parts: usize) {
        let s = &mut self.shifts;
        // The runs and the cut runs trade places as they are cut: each room for either.
        reserve_to(&mut s.runs, changes + 1 + parts);
        reserve_to(&mut s.cut, changes + 1 + parts);
        reserve_to(&mut s.landing, changes);
        reserve_to(&mut s.parts, parts + 1);
        if parts > 1 {
            for saved in &mut s.saved {
                reserve_to(saved, 2 * parts * changes);
            }
        }
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

    /// The runs cut into `count` parts of about as many moved positions each (one part of all
    /// of them where `count` is one, or where the runs at a cut move by more than the parts
    /// beside it hold), each cut within a run, that run in two.
    fn cut(&mut self, count: usize, old_len: usize) {
        self.parts.clear();
        let whole = |runs: usize| Part::new(0..runs, 0..old_len, 0);
        if count <= 1 {
            self.parts.push(whole(self.runs.len()));
            return;
        }
        let total: usize = self.runs.iter().map(|r| r.old.len()).sum();
        self.cut.clear();
        // Each part from its first run and first old position, and the runs' move there.
        let mut first = (0, 0, 0isize);
        let (mut done, mut k) = (0, 1);
        for run in &self.runs {
            let mut from = run.old.start;
            while k < count && done + (run.old.end - from) > total * k / count {
                let at = from + (total * k / count - done);
                k += 1;
                if at > from {
                    self.cut.push(Run {
                        old: from..at,
                        by: run.by,
                    });
                    done += at - from;
                    from = at;
                    let (runs, old) = (first.0..self.cut.len(), first.1..at);
                    self.parts.push(Part::new(runs, old, first.2));
                    first = (self.cut.len(), at, run.by);
                }
            }
            done += run.old.end - from;
            self.cut.push(Run {
                old: from..run.old.end,
                by: run.by,
            });
        }
        let (runs, old) = (first.0..self.cut.len(), first.1..old_len);
        self.parts.push(Part::new(runs, old, first.2));
        core::mem::swap(&mut self.runs, &mut self.cut);
        // A part reads where they lie the old positions that the parts beside it do not
        // overwrite: from its first one plus the move at its start where that is to the
        // right, up to its last one less the move at its end where that is to the left.
        let mut offset = 0;
        for i in 0..self.parts.len() {
            let moves = |j: usize| {
                self.parts
                    .get(j)
                    .map_or(0, |p| p.touch as isize - p.old.start as isize)
            };
            let part = &self.parts[i];
            let lo = part.old.start + moves(i).max(0) as usize;
            let hi = part.old.end.wrapping_add_signed(moves(i + 1).min(0));
            if lo > hi {
                // Fewer parts, as the runs cut there: still the same edit.
                let runs = self.runs.len();
                self.parts.clear();
                self.parts.push(whole(runs));
                return;
            }
            let (front, back) = (offset, offset + (lo - part.old.start));
            offset = back + (part.old.end - hi);
            let part = &mut self.parts[i];
            (part.data, part.front, part.back) = (lo..hi, front, back);
        }
    }

    /// Copies the old positions of `arrays` that each part reads aside into `saved`, at the
    /// part's `front` and `back`.
    ///
    /// Where `saved` must grow, it takes room for the most the parts can read aside: each
    /// part's two ends, each at most the `changes` (the runs at a cut move by the entries and
    /// removals before it). What they read aside varies from call to call with where the
    /// cuts fall; grown only to each call's need, the lists grew now and then in a steady
    /// frame loop on two threads, dozens of frames after its warm-up.
    fn save(&mut self, arrays: &[&mut [u32]; 5], changes: usize) {
        let ends = |p: &Part| p.data.start - p.old.start + p.old.end - p.data.end;
        let need: usize = self.parts.iter().map(ends).sum();
        let most = 2 * self.parts.len() * changes;
        for (a, saved) in arrays.iter().zip(&mut self.saved) {
            saved.clear();
            if saved.capacity() < need {
                saved.reserve_exact(need.max(most));
            }
            for part in &self.parts {
                saved.extend_from_slice(&a[part.old.start..part.data.start]);
                saved.extend_from_slice(&a[part.data.end..part.old.end]);
            }
        }
    }
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

    /// How boxes move in a case: every `every`-th item from `first` (`u32::MAX`: none), by
    /// up to `far` (`None`: anywhere), and `new` new items.
    type Case = (u32, u32, Option<f32>, u32);

    /// The edit in place of case `case` on a grid of `n` boxes (`sized`: over several levels)
    /// leaves the grid exactly as the repair does, in pools of each of `threads`.
    fn edit_as_repair(n: u32, sized: bool, (every, first, far, new): Case, threads: &[usize]) {
        let side = (n as f32).sqrt().max(1.0);
        let boxes: Vec<_> = (0..n).map(|i| a_box(i, 0, side, sized)).collect();
        let build = || {
            let (mut grid, mut items) = (Grid::default(), vec![0; n as usize]);
            grid.build(&boxes, None, |i| i, &mut Vec::new(), &mut items);
            (grid, items)
        };
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
        let want = state(&want, &want_items);
        for &t in threads {
            let (mut got, mut got_items) = build();
            crate::test_pool::in_pool(t, || {
                got.repair_few(&mut got_items, &removed, &enter, &entered)
            });
            assert!(
                state(&got, &got_items) == want,
                "{n} boxes, {t} threads, case {:?}: {} removed, {} entered",
                (every, first, far, new),
                removed.len(),
                enter.len()
            );
        }
    }

    /// On grids of one level and of several, with moves to nearby places (which balance) and
    /// anywhere, entries only, removals only, none, and the first and last positions
    /// removed, the edit in place leaves the grid exactly as the repair does.
    #[test]
    fn the_edit_in_place_is_the_repair() {
        for (n, sized) in [(0u32, false), (1, false), (3000, false), (20_000, true)] {
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
            for case in cases {
                edit_as_repair(n, sized, case, &[1]);
            }
        }
    }

    /// The edit cut into parts on two to sixteen threads is the edit on one, and the repair:
    /// where nearly every position moves (boxes moved anywhere, entries and removals that do
    /// not balance), where the runs at a cut move to the right (new items) and to the left
    /// (removals only), and where they move by more than a part holds (40 k boxes and 30 k new
    /// items: one part).
    #[test]
    fn the_edit_in_parts_is_the_edit() {
        let threads = [1, 2, 3, 4, 16];
        for (n, sized) in [(150_000u32, false), (120_000, true)] {
            let cases = [
                (61, 3, None, 0),
                (29, 0, Some(3.0), 0),
                (u32::MAX, 0, None, 2000),
                (3, 0, Some(0.0), 0),
                (1, 0, None, 0),
                (5000, 1, Some(0.5), 7),
            ];
            for case in cases {
                edit_as_repair(n, sized, case, &threads);
            }
        }
        edit_as_repair(40_000, false, (u32::MAX, 0, None, 30_000), &threads);
    }
}

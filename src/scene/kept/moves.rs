//! The escapers' move in the grid: each to the cell of its new enlarged box (or out of the
//! grid), a box written in place where the cell stays, one repair of the grid for the rest.

use super::Kept;
use super::flags::flag_escapers;
use super::follow::mark;
use super::lists::TAG;
use super::margin::{Margin, TURN_CALLS};
use super::numbers::gather;
use super::tasks::{MIN_TASK, Task, each_task, plan};
use crate::broadphase::grid::Grid;
use crate::room::{reserve_to, resize_with_room};
use crate::scene::store::Scene;
use crate::tasks::piece_len;
use core::ops::Range;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

/// Enlarged boxes outside the grid's cells (clamped into its border cells) that a frame
/// tolerates before it rebuilds, beyond those that were when the grid was built: at least this
/// many, at least a sixteenth of the shapes.
pub(super) const OUTSIDE_MIN: usize = 64;

/// Where an escaper goes: its new enlarged box (NaN where it has no box: removed, or left
/// out of the grid) and how far it moved ahead, that box's cell (`None` where NaN), and how it
/// changes the count of enlarged boxes outside their level's cells.
pub(super) struct Relocated {
    pub(super) fat: [f32; 4],
    pub(super) shift: [f32; 2],
    /// The cell of the old enlarged box (`u32::MAX`: none).
    pub(super) was_in: u32,
    pub(super) key: Option<u32>,
    pub(super) outside: isize,
}

/// [`Relocated`] of the escaper at `slot`, whose enlarged box was `old` and whose padded box
/// is `b` (`None`: removed). `None` when the new box fits no level of `grid`, even
/// [`trimmed`]: the caller rebuilds.
#[inline(always)]
pub(super) fn relocate(
    grid: &Grid,
    margin: Margin,
    slot: usize,
    (old, (was, then), now): (&[f32; 4], ([f32; 2], u32), u32),
    b: Option<&[f32; 4]>,
) -> Option<Relocated> {
    // A turn within a few calls of the last enlargement is a shape going to and fro.
    let recent = now.wrapping_sub(then) < TURN_CALLS;
    let clamped = |b: &[f32; 4]| grid.key_for(b).map(|key| (key, grid.clamped(key, b)));
    let (was_in, before) = if old[0].is_nan() {
        (u32::MAX, 0)
    } else {
        clamped(old).map_or((u32::MAX, 0), |(key, out)| (key, isize::from(out)))
    };
    let (fat, shift) = b.map_or(([f32::NAN; 4], [0.0; 2]), |b| {
        margin.enlarge_ahead(b, slot as u32, old, (was, recent))
    });
    if fat[0].is_nan() {
        return Some(Relocated {
            fat,
            shift,
            was_in,
            key: None,
            outside: -before,
        });
    }
    let (fat, (key, out)) = match clamped(&fat) {
        Some(at) => (fat, at),
        None => {
            // Cut down to the widest box the grid takes; where rounding at large coordinates
            // leaves that too wide, the padded box itself.
            let b = b?;
            let fat = trimmed(&fat, b, grid.max_side()?);
            match clamped(&fat) {
                Some(at) => (fat, at),
                None => (*b, clamped(b)?),
            }
        }
    };
    Some(Relocated {
        fat,
        shift,
        was_in,
        key: Some(key),
        outside: isize::from(out) - before,
    })
}

/// `fat` (an enlarged box holding `b`) cut down on each axis where it is wider than
/// `side`, the largest side the grid takes, to a box that still holds `b`: a shape whose
/// box grew since the grid was built (an OBB turning shows a wider box) keeps the grid
/// while its padded box fits, with a smaller margin on that axis, rather than make the
/// call rebuild. The result always holds `b`. It aims 2⁻¹⁰ of `side` below `side`, so that
/// the rounding of its ends leaves it narrow enough up to coordinates hundreds of times
/// `side`; beyond, the caller checks and falls back on `b`.
fn trimmed(fat: &[f32; 4], b: &[f32; 4], side: f32) -> [f32; 4] {
    let side = side - side * (1.0 / 1024.0);
    let mut t = *fat;
    for k in 0..2 {
        let excess = (t[k + 2] - t[k]) - side;
        if excess > 0.0 {
            // Half the excess off each end, neither end past `b`'s.
            let half = 0.5 * excess;
            t[k] = (t[k] + half).min(b[k]);
            t[k + 2] = (t[k + 2] - half).max(b[k + 2]);
        }
    }
    t
}

impl Kept {
    /// Every index's record gathered ([`gather`](super::numbers::gather)) and the escapers
    /// moved to their new cells ([`move_escapers`](Self::move_escapers), whose result this
    /// returns), side by side: they read and write apart (the gather the records, their tags
    /// and the polygons' copies; the move the grid and the escapers' flags; both read the
    /// slots' indices). The move is a dozen short passes and a few steps on one thread
    /// between them; beside the gather, the threads it leaves waiting gather records.
    pub(super) fn gather_and_move(&mut self, scene: &Scene, written: usize) -> bool {
        let index_of = core::mem::take(&mut self.index_of);
        let slot_of = core::mem::take(&mut self.slot_of);
        let mut local = core::mem::take(&mut self.local);
        let mut kinds = core::mem::take(&mut self.kinds);
        let mut copies = core::mem::take(&mut self.copies);
        let (top, numbers) = (self.top, (&index_of[..], &slot_of[..]));
        let records = (&mut local, &mut kinds, &mut copies);
        let ((), moved) = crate::awake::join(
            || gather(scene, written, top, records, numbers),
            || self.move_escapers(scene, &index_of),
        );
        (self.local, self.kinds, self.copies) = (local, kinds, copies);
        (self.index_of, self.slot_of) = (index_of, slot_of);
        moved
    }

    /// Moves the escapers to their new cells (a removed slot's index out of the grid): those
    /// the escape check did not see (new slots, removed ones) get their new enlarged boxes
    /// here. The escapers are slots; the grid's items and `escaped` are by index.
    /// `false` when one is larger than the grid's coarsest level allows, or too many boxes lie
    /// outside the grid's cells: the caller rebuilds. `index_of`: each slot's index (the
    /// finder's, lent while the records are gathered beside this: see
    /// [`gather_and_move`](Self::gather_and_move)).
    pub(super) fn move_escapers(&mut self, scene: &Scene, index_of: &[AtomicU32]) -> bool {
        if self.escapers.is_empty() {
            return true;
        }
        let boxes = &scene.moving.boxes;
        let both = scene.moving.len().min(self.len);
        let unseen = self.escapers.partition_point(|&e| (e as usize) < both);
        // The escape check wrote the index and flag of each escaper it saw; those of the
        // others follow.
        debug_assert_eq!(self.marks.len(), unseen, "a mark per escaper the check saw");
        self.marks.truncate(unseen);
        for &e in &self.escapers[unseen..] {
            let e = e as usize;
            let record = scene.moving.records.get(e);
            if let Some(r) = record {
                self.tags[e] = r.kind & TAG;
            }
            let same = record.is_some_and(|r| r.id == self.slot_ids[e]);
            let index = index_of[e].load(Relaxed);
            self.marks.push(mark(index, same));
            let old = (&self.fat[e], self.shifts[e], self.call);
            let Some(to) = relocate(&self.grid, self.margin, e, old, boxes.get(e)) else {
                return false;
            };
            (self.fat[e], self.shifts[e]) = (to.fat, (to.shift, self.call));
            self.outside = self.outside.wrapping_add_signed(to.outside);
            // An entry for each that enters a cell, and for each that leaves the grid (its
            // box NaN, no key: a removed shape's slot), so that the edit finds its old place.
            if let Some(key) = to.key {
                self.enter.push((key, self.entering.len() as u32));
            } else if to.was_in == NONE {
                continue;
            }
            self.entering.push((index, to.fat));
            self.was_in.push(to.was_in);
        }
        // By cell, then by slot (the numbers in `entering` ascend with the slots): the
        // escapers' places in their cells, the repair and their queries then read the grid
        // in its order rather than at random.
        self.sort.sort(&mut self.enter);
        let tolerated = self.outside_built + OUTSIDE_MIN.max(boxes.len() / 16);
        if self.unkeyed || self.outside > tolerated {
            return false;
        }
        // An escaper whose new box has the cell of its old one keeps its place in the grid,
        // its box written there: only those that change cells (or leave the grid) make the
        // repair rewrite the grid, and a frame in which none does has no repair at all.
        // Where each escaper that keeps its cell lies in it, beside its index, and its box
        // written there, in one pass on rayon's threads.
        let (ids, entering, was_in, enter) = (&self.ids, &self.entering, &self.was_in, &self.enter);
        let stays = |j: usize, cell: Range<usize>| {
            let (key, k) = enter[j];
            let e = entering[k as usize].0;
            let at = (was_in[k as usize] == key).then(|| place(ids, cell, e));
            (at.flatten().unwrap_or(NONE), e)
        };
        resize_with_room(&mut self.stays, enter.len(), (NONE, NONE));
        self.grid
            .set_boxes(enter, entering, &stays, &mut self.stays);
        self.leaving.resize(self.escaped.len(), false);
        let flags = (&mut self.escaped[..], &mut self.leaving[..]);
        flag_escapers(flags, &self.marks, &self.stays, &mut self.flags);
        self.moves_between_cells();
        // Every escaper that does not keep its place leaves it: those that change cells, and
        // those that enter none.
        let leaving = !self.moves.is_empty() || self.enter.len() < self.marks.len();
        debug_assert_eq!(
            leaving,
            self.marks.iter().any(|&(i, _)| self.leaving[i as usize])
        );
        if leaving {
            // `moves` is in the order of `enter`: by cell, then by slot.
            if self.find_removed() {
                self.grid
                    .repair_few(&mut self.ids, &self.removed, &self.moves, &self.entering);
            } else {
                self.grid.repair(
                    &mut self.ids,
                    &mut self.spare_ids,
                    &self.leaving,
                    &self.moves,
                    &self.entering,
                );
            }
        }
        // The escapers' flags that the repair read stay until they are settled, after the
        // kernels (`settle_escapers`).
        true
    }

    /// Room for the most an edit of the grid takes on these threads ([`find_removed`]'s
    /// buffers and the grid's), whichever way a frame goes: a frame loop that mostly
    /// repaired, and now and then edited, grew the edit's buffers in the first frame that
    /// did. The repair's parts have about half the threads: the records are gathered beside
    /// the move (see [`FEW_MOVES`]). Returns that most: the moves an edit takes.
    ///
    /// [`find_removed`]: Self::find_removed
    pub(super) fn room_for_edit(&mut self) -> usize {
        let threads = rayon::current_num_threads();
        let most = self.grid.len() / (FEW_MOVES * threads.div_ceil(2));
        reserve_to(&mut self.removed, most);
        self.grid.room_for_edit(2 * most, threads);
        most
    }

    /// Where the escapers that change cells or leave the grid are few ([`FEW_MOVES`]): the
    /// grid positions they leave, each found in the cell it was in, into `removed`
    /// (`(position, cell)`, ascending), for [`Grid::repair_few`]. `false` otherwise (or where
    /// one is not found in its cell): the repair finds them.
    ///
    /// Those that leave the grid are the entries without a key (their boxes NaN): a frame
    /// that removed a shape, or whose shape turned invalid, repaired every grid position for
    /// it before (and a steady frame loop whose shapes now and then did allocated the
    /// repair's buffers the first time).
    fn find_removed(&mut self) -> bool {
        let leavers = self.entering.len() - self.enter.len();
        let most = self.room_for_edit();
        // A removed slot whose box was cut has no entry to find its place by.
        if (self.moves.len() + leavers) > most || self.boxes_cut {
            return false;
        }
        // Each found on rayon's threads in pieces (a search of its old cell, a cache miss or
        // two each); `(NONE, NONE)` for one that was in no cell, `(NONE, 0)` for one not
        // found there. Both sort after every position.
        let (grid, ids) = (&self.grid, &self.ids);
        let (entering, was_in) = (&self.entering, &self.was_in);
        let old_place = |k: usize| {
            let (e, was_in) = (entering[k].0, was_in[k]);
            if was_in == NONE {
                return (NONE, NONE);
            }
            place(ids, grid.cell(was_in), e).map_or((NONE, 0), |p| (p, was_in))
        };
        in_pieces(&mut self.removed, &self.moves, |&(_, k)| {
            old_place(k as usize)
        });
        if leavers > 0 {
            // Few, as `few` counts them with the moves: found on this thread, in a pass
            // over the entries.
            let gone = (entering.iter().enumerate()).filter(|(_, (_, fat))| fat[0].is_nan());
            self.removed.extend(gone.map(|(k, _)| old_place(k)));
        }
        self.removed.sort_unstable();
        let found = self.removed.partition_point(|&(p, _)| p != NONE);
        // Every escaper lies in the cell of the box it was filed by (checked where debug
        // assertions are on: the tests and CI's world fuzzing with them); were one not found
        // there, the repair, which finds the leavers by their flags, would still be right.
        let lost = self.removed.get(found).is_some_and(|&(_, c)| c != NONE);
        debug_assert!(!lost, "an escaper not found in the cell of its old box");
        if lost {
            return false;
        }
        self.removed.truncate(found);
        true
    }

    /// The entries that change cells (whose `stays` has no position), in the order of `enter`,
    /// into `moves`: filtered by tasks of [`MIN_TASK`]` / 4` entries and more on rayon's threads,
    /// each counting its range's moves, then writing them where they go in `moves`. (Each
    /// into a list of its own, then copied, a task's list grew whenever its share passed the
    /// most it had held: at 100 k shapes, half of them turning back every 64 frames, on sixteen
    /// threads, 170 frames after the warm-up.)
    fn moves_between_cells(&mut self) {
        let (enter, stays) = (&self.enter, &self.stays);
        let moving = |range: Range<usize>| {
            (enter[range.clone()].iter().zip(&stays[range]))
                .filter(|(_, s)| s.0 == NONE)
                .map(|(&entry, _)| entry)
        };
        // Room for every entry, moving or not, on any number of tasks: the moves of a frame
        // loop whose shapes barely move, a few dozen, grew now and then.
        reserve_to(&mut self.moves, enter.len());
        let tasks = plan(&mut self.tasks, enter.len(), MIN_TASK / 4);
        if let [_] = tasks {
            self.moves.clear();
            self.moves.extend(moving(0..enter.len()));
            return;
        }
        each_task(tasks, |_, t| t.kept = moving(t.range.clone()).count());
        let total = tasks.iter().map(|t| t.kept).sum();
        self.moves.resize(total, (0, 0));
        write_kept(tasks, &mut self.moves, &|t, out| {
            out.iter_mut()
                .zip(moving(t.range.clone()))
                .for_each(|(o, m)| *o = m);
        });
    }
}

/// `write(t, part)` for each of `tasks`, its part of `out` the next [`Task::kept`] items, on
/// rayon's threads (halves of the tasks at a time).
fn write_kept<T: Send>(tasks: &[Task], out: &mut [T], write: &(impl Fn(&Task, &mut [T]) + Sync)) {
    match tasks {
        [] => {}
        [t] => write(t, out),
        _ => {
            let (first, rest) = tasks.split_at(tasks.len() / 2);
            let (head, tail) = out.split_at_mut(first.iter().map(|t| t.kept).sum());
            crate::awake::join(
                || write_kept(first, head, write),
                || write_kept(rest, tail, write),
            );
        }
    }
}

/// No cell or position.
const NONE: u32 = u32::MAX;

/// `out` cleared and filled with `f` of each of `items`, in order, on rayon's threads in
/// pieces of [`MIN_PIECE`] or more (a few items neither fork nor, from outside the pool, hand
/// over); nothing allocated where `out` has the room.
fn in_pieces<T: Sync, U: Send>(out: &mut Vec<U>, items: &[T], f: impl Fn(&T) -> U + Sync + Send) {
    out.clear();
    out.par_extend(items.par_iter().with_min_len(piece_len(MIN_PIECE)).map(f));
}

/// The grid position of slot `e` in the cell at positions `cell` (a search of the cell's
/// ids), if it is there.
fn place(ids: &[u32], cell: Range<usize>, e: u32) -> Option<u32> {
    let p = ids[cell.clone()].iter().position(|&s| s == e)?;
    Some((cell.start + p) as u32)
}

/// How many grid positions per escaper that changes cells, and per thread, a frame needs for
/// the grid to be edited in place ([`Grid::repair_few`]: only the positions between each
/// one's old and new places move) rather than repaired (every position copied, on rayon's
/// threads). At 1 M shapes on one thread (Zen 5) the edit took 0.36 µs a move
/// (2.6 ms for 7.3 k moves, 39 µs for 22) and the repair 4.4–6.5 ms for 19–44 k: even at
/// about a seventieth of the positions. On an Intel Xeon (a stage probe at 1 M) the repair
/// took 5.9 ms a frame on one thread and 3.0 on two, and in the edit's frames on one thread
/// finding the old places took 0.75 ms beside the edit's 1.93 (now on rayon's threads). With
/// the Zen 5 edit cost, the two break even nearer `n / (85 T)` moves (an estimate). At 128
/// (the value before), the one-thread 1 M kept frame took 81.6–86.7 ms against 78.9–83.5
/// here (five alternated rounds on the Xeon); two threads measured the same either way.
///
/// The edit was on one thread when this was chosen; it now splits into parts from 32 k moved
/// positions (at 1 M on two threads a frame's edit or repair took 1.11–1.14 ms rather than
/// 1.45–1.47, medians of two stage probes on the Xeon). The rule kept the thread count:
/// without it, more frames edited, and finding their old places cost 0.13 ms more where the
/// edit and repair saved 0.06 (one probe at 1 M on two threads).
///
/// Since then the move runs beside the records' gather ([`Kept::gather_and_move`]), which
/// keeps a thread busy on two threads: the repair's parts then ran on the move's thread
/// alone, as the edit does. So the rule counts half the threads (rounded up): on two, the
/// limit of one. A stage probe on the two-vCPU Intel Xeon (family 6 model 207, 2000 frames
/// of the mixed scene, every shape moving), gather and move together on two threads: 100 k
/// shapes 495, 472, 490 µs with the whole thread count against 440, 423, 462 with one
/// (alternated); 1 M shapes 8.13, 7.37 ms against 6.99, 7.02.
const FEW_MOVES: usize = 64;

/// Fewest escapers in a piece of the pass that finds each one's place in its cell (10–30 ns
/// each: a piece of 256 is a few microseconds). In pieces of 1024, the 1.5–3 k escapers of a
/// 100 k frame were one or two pieces, 20–50 µs on one thread whatever the thread count.
const MIN_PIECE: usize = 256;

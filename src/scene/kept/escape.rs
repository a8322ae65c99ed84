//! The escape check: one streaming pass, a task per range of slots, that finds every moving
//! shape whose box left its enlarged box (or whose slot, kind or filter changed) and gives
//! each its new enlarged box and cell while its data is in cache; on one thread from
//! [`MIN_SCATTER`] shapes, where few changed at the last call, it also writes every changed
//! record at its index for the kernels. Where the store's stamps say which slots changed since
//! the last call (see `stamps.rs`), it reads only theirs, and where those are few it writes
//! their records at their indices, so that the gather reads none of the shapes at rest.

use super::follow::mark;
use super::lists::TAG;
use super::margin::{Margin, inside, jumped_from};
use super::moves::relocate;
use super::numbers::size_records;
use super::tasks::{MIN_TASK, Task, concat, plan_of, room_for_escapes};
use super::untouched::FEW;
use super::{AUTO_REBUILD, Kept};
use crate::broadphase::grid::Grid;
use crate::prefetch::{AHEAD, prefetch};
use crate::room::{reserve_to, resize_with_room};
use crate::scene::records::Record;
use crate::scene::stamps::{any_changed, changed};
use crate::scene::store::Scene;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering::Relaxed};

/// Shapes the escape check looks at between two looks at the escapers found so far.
pub(super) const STOP_CHECK: usize = 4096;

/// Slots whose stamps the escape check compares at once, passing over them all where none
/// changed since the last call: a compare and a branch per slot made the check of a million
/// shapes at rest 0.58 ms (Zen 5), a vector maximum per run of them 0.13.
const QUIET_RUN: usize = 64;

/// Holes (indices whose slots the scene no longer has) beyond as many again as the moving
/// shapes that a call tolerates before it rebuilds.
const HOLES_MIN: usize = 1024;

/// Moving shapes from which the escape check, where it is one task (one thread) and few of
/// the slots changed at the last call (see [`SCATTER_SHARE`]), writes each changed slot's
/// record and tag at its index as it passes them, rather than the gather reading every record
/// by slot after it (see `numbers.rs`): a store out of grid order makes either a random access
/// per shape. At 100 k, whose records stay in cache, the gather was the cheaper, by 0.1 ms
/// (Zen 5).
const MIN_SCATTER: usize = 256 * 1024;

/// The share `1 / SCATTER_SHARE` of the slots changed at the last call under which the
/// one-task escape check writes the changed records at their indices (from [`MIN_SCATTER`]
/// shapes). The scatter writes two random lines a changed shape (record and tag), each read
/// for ownership and written back; the gather reads one a shape, asked for ahead, and writes
/// in order. At 1 M shapes on one thread (Intel Xeon, `build` ms, both asking ahead): with
/// every shape moving, 31.5–34.1 scattered against 27.5–30.3 gathered; half, 27.8–28.6
/// against 23.5–25.2; a quarter, 20.6–21.2 against 21.2–21.5; a tenth, 11.1–14.4 against
/// 14.9–17.6. (Before either asked ahead, Zen 5 measured the scatter cheaper with every shape
/// moving: 14.1 ms for check and gather rather than 15.9.)
const SCATTER_SHARE: usize = 4;

/// Fewest items (escapers and entries together) of a part of the escape check's lists that
/// [`copy_found`] copies on a thread of its own. (Each list was copied by a pass of its own,
/// two beside the other two: four passes one after another where the escapers were many, on
/// sixteen threads 0.14 ms of a 1 M frame's 0.25 on one.)
const MIN_FOUND: usize = 4 * 1024;

/// The share `1 / FEW_CHANGED` of a task's slots up to which the escape check lists the slots
/// that changed, and, where every task's are that few, writes their records at their indices
/// on one thread rather than let the gather read every record (a random read each, on every
/// thread).
const FEW_CHANGED: usize = 32;

/// Where the escape check's tasks' lists go, one task's after another: the escapers, their
/// marks (index and flag), their old enlarged boxes (none where they are not kept), the cell
/// key and number of each entry that enters a cell, and per entry its index and new enlarged
/// box (NaN where it leaves the grid) and the cell it was in.
struct Found<'a> {
    ids: &'a mut [u32],
    marks: &'a mut [(u32, u8)],
    olds: &'a mut [[f32; 4]],
    keys: &'a mut [(u32, u32)],
    entering: &'a mut [(u32, [f32; 4])],
    was_in: &'a mut [u32],
}

impl<'a> Found<'a> {
    /// The places of the first `ids` escapers, `keys` keys and `entries` entries, and the
    /// rest.
    fn split(self, (ids, keys, entries): Sizes) -> (Found<'a>, Found<'a>) {
        let (ids_a, ids_b) = self.ids.split_at_mut(ids);
        let (marks_a, marks_b) = self.marks.split_at_mut(ids);
        let (olds_a, olds_b) = self.olds.split_at_mut(ids.min(self.olds.len()));
        let (keys_a, keys_b) = self.keys.split_at_mut(keys);
        let (entering_a, entering_b) = self.entering.split_at_mut(entries);
        let (was_in_a, was_in_b) = self.was_in.split_at_mut(entries);
        let first = Found {
            ids: ids_a,
            marks: marks_a,
            olds: olds_a,
            keys: keys_a,
            entering: entering_a,
            was_in: was_in_a,
        };
        let rest = Found {
            ids: ids_b,
            marks: marks_b,
            olds: olds_b,
            keys: keys_b,
            entering: entering_b,
            was_in: was_in_b,
        };
        (first, rest)
    }
}

/// How many escapers, keys and entries a run of tasks found.
type Sizes = (usize, usize, usize);

/// The [`Sizes`] of `tasks`' lists.
fn sizes(tasks: &[Task]) -> Sizes {
    tasks.iter().fold((0, 0, 0), |(ids, keys, entries), t| {
        (
            ids + t.ids.len(),
            keys + t.found.len(),
            entries + t.entering.len(),
        )
    })
}

/// Copies every list of `tasks` (their escapers and marks, old enlarged boxes where `out`
/// keeps them, and entries, each entry's number moved by its task's `base`) into `out`, task
/// after task: all the lists in one pass, in halves of the tasks on rayon's threads down to
/// parts of [`MIN_FOUND`] items.
fn copy_found(tasks: &[Task], out: Found<'_>) {
    let (ids, _, entries) = sizes(tasks);
    if tasks.len() == 1 || ids + entries < 2 * MIN_FOUND {
        let mut out = out;
        for t in tasks {
            let (mine, rest) = out.split(sizes(core::slice::from_ref(t)));
            mine.ids.copy_from_slice(&t.ids);
            mine.marks.copy_from_slice(&t.marks_found);
            if !mine.olds.is_empty() {
                mine.olds.copy_from_slice(&t.olds);
            }
            for (to, &(key, k)) in mine.keys.iter_mut().zip(&t.found) {
                *to = (key, t.base + k);
            }
            mine.entering.copy_from_slice(&t.entering);
            mine.was_in.copy_from_slice(&t.was_in);
            out = rest;
        }
        return;
    }
    let mid = tasks.len() / 2;
    let (first, rest) = out.split(sizes(&tasks[..mid]));
    crate::awake::join(
        || copy_found(&tasks[..mid], first),
        || copy_found(&tasks[mid..], rest),
    );
}

impl Kept {
    /// The most escapers a frame of `n` moving shapes keeps the grid for where it rebuilds
    /// above a `share` of them escaping.
    fn most_kept(share: f32, n: usize) -> usize {
        (share * n as f32) as usize
    }

    /// Room, where they hold less, in every list of a frame's escapers (those found, their
    /// marks and old boxes, their entries and cells, those that keep their places and those
    /// that move) for `most` escapers of `n` moving shapes: the most a frame keeps the grid
    /// for, under the default threshold. Their number swings with the shapes' motion, and a
    /// frame loop whose shapes turned back every 64 frames met a new high 270 frames after
    /// its warm-up (100 k shapes, eight threads: 18 k escapers against 17 k), which grew
    /// these lists then, each with the room it took. About 70 bytes an escaper, room
    /// included: 17 MB at a million shapes.
    fn room_for_escapers(&mut self, most: usize, n: usize) {
        reserve_to(&mut self.escapers, most);
        reserve_to(&mut self.marks, most);
        reserve_to(&mut self.old_fat, most.min(n / FEW));
        reserve_to(&mut self.enter, most);
        reserve_to(&mut self.entering, most);
        reserve_to(&mut self.was_in, most);
        reserve_to(&mut self.stays, most);
        reserve_to(&mut self.moves, most);
    }

    /// The escape check: every moving slot whose current box is not inside its enlarged box
    /// (new slots included, and slots beyond the store's end, whose shapes were removed) is
    /// flagged and listed, ascending. `false` when there are too many: the caller rebuilds.
    ///
    /// In the same streaming pass, each escaper among the slots both calls hold gets its new
    /// enlarged box, kind and id, and its new cell (see [`move_escapers`](Self::move_escapers)),
    /// while its data is in cache (one pass over the escapers afterwards read it again from
    /// memory, a few cache lines per escaper). A call that then rebuilds or searches from
    /// scratch computes all of these anew. Where the pass is one task over [`MIN_SCATTER`]
    /// slots or more and under [`SCATTER_SHARE`]'s share of them changed at the last call, it
    /// also writes each changed slot's record and tag at the slot's index, and notes in
    /// `scattered` the slots it covered (none otherwise, or where it returns `false`).
    ///
    /// With `since` (the store's version at the last call, which left every slot's enlarged
    /// box, tag, last id, record and index as the scene then had them), a slot whose stamp is
    /// not newer is passed over: it cannot have escaped, and its record is at its index
    /// already (a polygon's too, and its vertices' copy: see `copies.rs`). Where the changed
    /// slots are few, the check lists them in `changed` and notes `listed`, for the
    /// candidates of the others to keep their flags (see `still.rs`); where they are few in
    /// every task, their records are written at their indices after the check, and
    /// `scattered` counts every slot.
    pub(super) fn find_escapers(&mut self, scene: &Scene, since: Option<u32>) -> bool {
        let (n, old) = (scene.moving.len(), self.len);
        let (both, top) = (n.min(old), n.max(old));
        (self.scattered, self.listed) = (0, false);
        // Holes left by a scene that shrank cost every call until a rebuild numbers anew.
        if self.top > 2 * n + HOLES_MIN {
            return false;
        }
        // Whether every slot of the last call still has its box, the removed ones too: the
        // escape check and the grid's edit find each escaper's old place by it. A jump sample
        // before the check only counts and keeps them (see `enlarge_sample`); one that cut
        // them left the removed shapes' places in the grid after an edit, and shapes pushed
        // into those slots were then in the grid twice. Where they are cut, the grid is
        // repaired, which finds the places by the escapers' flags (see `find_removed`).
        let removed_boxes = self.fat.len() >= old;
        debug_assert!(removed_boxes, "{} boxes for {old} slots", self.fat.len());
        self.boxes_cut = !removed_boxes;
        self.fat.resize(top, [f32::NAN; 4]);
        self.shifts.resize(top, ([0.0; 2], 0));
        self.tags.resize(top, u32::MAX);
        self.slot_ids.resize(top, u32::MAX);
        // The most escapers a frame keeps the grid for; the pass stops once they are more.
        let limit = Self::most_kept(self.rebuild_above, n);
        let Some(room) = limit.checked_sub(top - both) else {
            return false;
        };
        self.room_for_escapers(limit.min(Self::most_kept(AUTO_REBUILD, n)), n);
        // Tasks of 1 k slots and more (six a thread at 100 k on sixteen): see `fine_tasks_of`.
        let tasks = plan_of(&mut self.tasks, both, MIN_TASK, MIN_TASK / 16);
        let planned = tasks.len();
        // Equal ranges, as the slices below are split.
        let chunk = both.div_ceil(tasks.len()).max(1);
        for (k, t) in tasks.iter_mut().enumerate() {
            t.range = (k * chunk).min(both)..((k + 1) * chunk).min(both);
        }
        let found = AtomicUsize::new(0);
        let check = Check {
            grid: &self.grid,
            margin: self.margin,
            call: self.call,
            index_of: &self.index_of,
            boxes: &scene.moving.boxes[..both],
            records: &scene.moving.records[..both],
            stamps: &scene.moving.stamps.of[..both],
            since,
            found: &found,
            room,
        };
        let (fat, shifts) = (&mut self.fat[..both], &mut self.shifts[..both]);
        let (tags, slot_ids) = (&mut self.tags[..both], &self.slot_ids[..both]);
        let few_changed = since.is_some() && self.last_changed.saturating_mul(SCATTER_SHARE) < both;
        let scattered = if let [t] = &mut *tasks
            && both >= MIN_SCATTER
            && few_changed
        {
            // One task, few changed: each changed record goes to its index as the check
            // passes it (see `SCATTER_SHARE`); the gather then reads only the slots beyond
            // `both`.
            let (local, kinds, copies) = (&mut self.local, &mut self.kinds, &mut self.copies);
            size_records((local, kinds, copies), self.top.max(n));
            let index_of = &self.index_of;
            check.run(t, fat, shifts, tags, slot_ids, |slot, r| {
                // The index a few slots ahead, whose lines are then fetched by the time
                // they are written (see `prefetch.rs`).
                if let Some(ahead) = index_of.get(slot + AHEAD) {
                    let j = ahead.load(Relaxed) as usize;
                    if let (Some(at), Some(tag)) = (local.get(j), kinds.get(j)) {
                        prefetch(at);
                        prefetch(tag);
                    }
                }
                let i = index_of[slot].load(Relaxed) as usize;
                copies.put(slot, (&mut local[i], &mut kinds[i]), r);
            });
            both
        } else {
            let tasks = (tasks.par_iter_mut())
                .zip(fat.par_chunks_mut(chunk))
                .zip(shifts.par_chunks_mut(chunk))
                .zip(tags.par_chunks_mut(chunk))
                .zip(slot_ids.par_chunks(chunk));
            crate::awake::for_each(tasks, |((((t, fat), shifts), tags), slot_ids)| {
                check.run(t, fat, shifts, tags, slot_ids, |_, _| {});
            });
            0
        };
        room_for_escapes(tasks);
        if found.into_inner() > room {
            return false;
        }
        self.scattered = scattered;
        self.last_changed = tasks.iter().map(|t| t.looked).sum();
        let (mut outside, mut jumps, mut unkeyed) = (self.outside as isize, 0, false);
        let mut base = 0;
        for t in tasks.iter_mut() {
            t.base = base;
            base += t.entering.len() as u32;
            outside += t.outside;
            jumps += t.jumps;
            unkeyed |= t.unkeyed;
        }
        (self.outside, self.jumps, self.unkeyed) = (outside as usize, jumps, unkeyed);
        // The tasks' lists, one after another, all in one pass on rayon's threads (see
        // `copy_found`); an entry's number counts from the first task's. The escapers' old
        // enlarged boxes only where they are few enough for the lists to copy what they leave
        // untouched (see `untouched.rs`).
        let tasks = &*tasks;
        let ids: usize = tasks.iter().map(|t| t.ids.len()).sum();
        let few = (ids + top - both) * FEW <= n && removed_boxes;
        // Only a longer list than the last is written before it is copied into.
        resize_with_room(&mut self.escapers, ids, 0);
        resize_with_room(&mut self.marks, ids, (0, 0));
        resize_with_room(&mut self.old_fat, if few { ids } else { 0 }, [0.0; 4]);
        let entries = base as usize;
        let keys = tasks.iter().map(|t| t.found.len()).sum();
        resize_with_room(&mut self.enter, keys, (0, 0));
        resize_with_room(&mut self.entering, entries, (0, [0.0; 4]));
        resize_with_room(&mut self.was_in, entries, 0);
        let out = Found {
            ids: &mut self.escapers,
            marks: &mut self.marks,
            olds: &mut self.old_fat,
            keys: &mut self.enter,
            entering: &mut self.entering,
            was_in: &mut self.was_in,
        };
        copy_found(tasks, out);
        self.escapers.extend(both as u32..top as u32);
        if few {
            // The slots of removed shapes have their boxes (the check leaves them be, and
            // `removed_boxes` says no sample cut them); pushed ones had none (NaN, as the
            // resize above left them).
            self.old_fat.extend_from_slice(&self.fat[both..top]);
        }
        // The slots that changed, where every task listed them (the changed few: see
        // `FEW_CHANGED`), then written at their indices.
        let tasks = &self.tasks[..planned];
        self.changed.clear();
        self.listed = since.is_some() && tasks.iter().all(|t| t.listed);
        if self.listed {
            concat(&mut self.changed, tasks, &|t: &Task| &t.changed[..]);
            if scattered == 0 {
                self.scatter_changed(scene);
                self.scattered = both;
            }
        }
        true
    }

    /// Writes the records and tags of the slots the escape check listed as changed at their
    /// indices (the other slots', unchanged, are there already).
    fn scatter_changed(&mut self, scene: &Scene) {
        let (records, index_of) = (&scene.moving.records, &self.index_of);
        let (local, kinds, copies) = (&mut self.local, &mut self.kinds, &mut self.copies);
        size_records((local, kinds, copies), self.top.max(scene.moving.len()));
        for &slot in &self.changed {
            let (slot, i) = (
                slot as usize,
                index_of[slot as usize].load(Relaxed) as usize,
            );
            copies.put(slot, (&mut local[i], &mut kinds[i]), &records[slot]);
        }
    }
}

/// What every task of the escape check reads.
struct Check<'a> {
    grid: &'a Grid,
    margin: Margin,
    call: u32,
    index_of: &'a [AtomicU32],
    boxes: &'a [[f32; 4]],
    records: &'a [Record],
    /// Each slot's stamp, and the version of the last call where they tell which changed.
    stamps: &'a [u32],
    since: Option<u32>,
    /// The escapers found so far (held by reference: a struct that holds an atomic is not
    /// read-only behind `&`, and its other fields would be read again after every store),
    /// and the most the call keeps the grid for.
    found: &'a AtomicUsize,
    room: usize,
}

impl Check<'_> {
    /// The escape check of task `t`'s slots, whose enlarged boxes, shifts, tags and last ids
    /// are `fat`, `shifts`, `tags` and `slot_ids`; `put(slot, record)` sees every slot's
    /// record as it passes. Stops early once the escapers of all tasks are more than `room`.
    #[inline(always)]
    fn run(
        &self,
        t: &mut Task,
        fat: &mut [[f32; 4]],
        shifts: &mut [([f32; 2], u32)],
        tags: &mut [u32],
        slot_ids: &[u32],
        mut put: impl FnMut(usize, &Record),
    ) {
        t.ids.clear();
        t.marks_found.clear();
        t.olds.clear();
        t.found.clear();
        t.entering.clear();
        t.was_in.clear();
        t.changed.clear();
        (t.outside, t.jumps, t.unkeyed, t.listed, t.looked) = (0, 0, false, false, 0);
        // One more listed than `few` says "too many".
        let (first, few) = (t.range.start, t.range.len() / FEW_CHANGED);
        for block in (0..t.range.len()).step_by(STOP_CHECK) {
            let before = t.ids.len();
            let end = (block + STOP_CHECK).min(t.range.len());
            for run in (block..end).step_by(QUIET_RUN) {
                let run_end = (run + QUIET_RUN).min(end);
                // A run none of whose slots changed since the last call, passed over at once.
                let stamps = &self.stamps[first + run..first + run_end];
                if self.since.is_some_and(|since| !any_changed(stamps, since)) {
                    continue;
                }
                for i in run..run_end {
                    let slot = first + i;
                    if let Some(since) = self.since {
                        if !changed(self.stamps[slot], since) {
                            continue;
                        }
                        if t.changed.len() <= few {
                            t.changed.push(slot as u32);
                        }
                    }
                    let (b, r) = (&self.boxes[slot], &self.records[slot]);
                    let tag = r.kind & TAG;
                    t.looked += 1;
                    put(slot, r);
                    let same = r.id == slot_ids[i];
                    if inside(b, &fat[i]) & (tag == tags[i]) & same {
                        continue;
                    }
                    // Its index and flag while its slot's lines are in cache (a pass over
                    // the escapers after the check took three misses each: 1.1 ms of a 1 M
                    // frame on one thread).
                    let index = self.index_of[slot].load(Relaxed);
                    t.ids.push(slot as u32);
                    t.marks_found.push(mark(index, same));
                    t.olds.push(fat[i]);
                    t.jumps += usize::from(jumped_from(b, &fat[i]));
                    tags[i] = tag;
                    let old = (&fat[i], shifts[i], self.call);
                    let Some(to) = relocate(self.grid, self.margin, slot, old, Some(b)) else {
                        t.unkeyed = true;
                        continue;
                    };
                    (fat[i], shifts[i]) = (to.fat, (to.shift, self.call));
                    t.outside += to.outside;
                    // An entry for each that enters a cell, and for each that leaves the
                    // grid (its box NaN, no key), so that the edit finds its old place.
                    if let Some(key) = to.key {
                        t.found.push((key, t.entering.len() as u32));
                    } else if to.was_in == u32::MAX {
                        continue;
                    }
                    t.entering.push((index, to.fat));
                    t.was_in.push(to.was_in);
                }
            }
            let more = t.ids.len() - before;
            if self.found.fetch_add(more, Relaxed) + more > self.room {
                return;
            }
        }
        // Every changed slot listed: the listing never stopped.
        t.listed = self.since.is_some() && t.changed.len() <= few;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Xorshift;

    /// The tasks' lists copied in one pass, split or not, on any thread count, are each
    /// list's parts (escapers, marks, old boxes, keys, entries: a quarter of the entries with
    /// no key, as those that leave the grid) one task after another, a key's entry number
    /// moved by its task's base; the old boxes only where kept.
    #[test]
    fn the_tasks_lists_are_copied_task_after_task() {
        let mut rng = Xorshift::new(0x3c6e_f372);
        for (count, most) in [(1, 50), (3, 10), (7, 3000), (64, 900), (16, 0)] {
            let mut tasks: Vec<Task> = (0..count).map(|_| Task::default()).collect();
            let mut base = 0;
            for t in &mut tasks {
                let (ids, entries) = (rng.below(most + 1), rng.below(most + 1));
                t.ids = (0..ids).map(|_| rng.bits()).collect();
                t.marks_found = (0..ids).map(|_| (rng.bits(), rng.below(3) as u8)).collect();
                t.olds = (0..ids).map(|_| [rng.unit(); 4]).collect();
                // Some entries leave the grid: no key of their own.
                t.found.clear();
                for k in 0..entries {
                    if rng.below(4) != 0 {
                        t.found.push((rng.bits(), k));
                    }
                }
                t.entering = (0..entries)
                    .map(|_| (rng.bits(), [rng.unit(); 4]))
                    .collect();
                t.was_in = (0..entries).map(|_| rng.bits()).collect();
                t.base = base;
                base += entries;
            }
            let all = |f: &dyn Fn(&Task) -> usize| tasks.iter().map(f).sum::<usize>();
            let (ids, entries) = (all(&|t| t.ids.len()), all(&|t| t.entering.len()));
            for (threads, kept) in [(1, true), (2, false), (3, true), (16, true), (16, false)] {
                let mut want_keys = Vec::new();
                for t in &tasks {
                    want_keys.extend(t.found.iter().map(|&(key, k)| (key, t.base + k)));
                }
                let mut got_ids = vec![0; ids];
                let mut got_marks = vec![(0, 0); ids];
                let mut got_olds = vec![[0.0; 4]; if kept { ids } else { 0 }];
                let mut got_keys = vec![(0, 0); all(&|t| t.found.len())];
                let mut got_entering = vec![(0, [0.0; 4]); entries];
                let mut got_was_in = vec![0; entries];
                let out = Found {
                    ids: &mut got_ids,
                    marks: &mut got_marks,
                    olds: &mut got_olds,
                    keys: &mut got_keys,
                    entering: &mut got_entering,
                    was_in: &mut got_was_in,
                };
                crate::test_pool::in_pool(threads, || copy_found(&tasks, out));
                let cat =
                    |f: &dyn Fn(&Task) -> Vec<u32>| tasks.iter().flat_map(f).collect::<Vec<_>>();
                assert_eq!(
                    got_ids,
                    cat(&|t| t.ids.clone()),
                    "{count} tasks, {threads} threads"
                );
                let marks: Vec<_> = tasks.iter().flat_map(|t| t.marks_found.clone()).collect();
                assert_eq!(got_marks, marks);
                let olds: Vec<[f32; 4]> = tasks.iter().flat_map(|t| t.olds.clone()).collect();
                assert_eq!(got_olds, if kept { olds } else { Vec::new() });
                assert_eq!(got_keys, want_keys);
                let entering: Vec<_> = tasks.iter().flat_map(|t| t.entering.clone()).collect();
                assert_eq!(got_entering, entering);
                assert_eq!(got_was_in, cat(&|t| t.was_in.clone()));
            }
        }
    }
}

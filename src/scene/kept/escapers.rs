//! The escapers' queries: each escaper's new candidates, the moving shapes overlapping its new
//! enlarged box through the grid and the static ones through its neighbourhood, filed by pair
//! kind for the lists to merge in.

use super::Kept;
use super::filed::file;
use super::follow::{MOVED, STAYED};
use super::lists::filters_of;
use super::mixed::find_mixed;
use super::tasks::{MIN_TASK, each_task, plan, room_for_filed};
use crate::scene::records::Record;
use crate::scene::store::Scene;
use rayon::prelude::*;
use std::time::{Duration, Instant};

impl Kept {
    /// The escapers' new candidates, by pair kind, for the lists to follow the escapers'
    /// moves as the kernels read them (see [`Follow`](super::follow::Follow)): those of an escaper
    /// dropped, the others kept (a neighbour's position moved by the change in the number of
    /// slots), and the new ones merged in. With `mixed`, the mixed candidates too (otherwise the
    /// caller files them anew). `before`: the number of moving slots in the last call (the
    /// neighbours' positions follow them).
    pub(super) fn follow_moves(&mut self, scene: &Scene, mixed: bool, before: u32) {
        self.query_escapers(scene);
        self.mark_touched();
        if mixed {
            let (enter, entering) = (&self.enter, &self.entering);
            let at = |i: usize| entering[enter[i].1 as usize].0;
            let (tasks, filtered, cpu) = find_mixed(
                &mut self.statics,
                &mut self.tasks,
                scene,
                (&self.fat, &self.local, &self.slot_of, self.margin.far()),
                (enter.len(), MIN_QUERIES, true),
                (at, &self.chunks),
            );
            self.filtered += filtered;
            self.search_cpu += cpu;
            // Positions up to the last neighbour's, after the moving ones.
            let positions = (self.top + self.statics.labels.len()) as u32;
            self.mixed
                .take_filed_sorted(&mut self.sort, tasks, positions);
            let used = tasks.len();
            room_for_filed(&mut self.tasks, used, &self.chunks);
        }
        self.follow = Some(before);
        self.follow_mixed = mixed;
    }

    /// The escapers' new moving candidates, by pair kind and ascending, into the candidate
    /// lists' `added`: every box that overlaps an escaper's new enlarged box (a pair of two
    /// escapers once, from the later position).
    pub(super) fn query_escapers(&mut self, scene: &Scene) {
        let tasks = plan(&mut self.tasks, self.enter.len(), MIN_QUERIES);
        let (grid, ids, entering, escaped, enter) = (
            &self.grid,
            &self.ids,
            &self.entering,
            &self.escaped,
            &self.enter,
        );
        let filing = (&self.kinds[..], filters_of(scene));
        let (top, pool) = (self.top, &self.chunks);
        each_task(tasks, |_, t| {
            let start = Instant::now();
            t.filed.clear(top, pool);
            t.filtered = 0;
            for &(_, k) in &enter[t.range.clone()] {
                let (e, fat) = entering[k as usize];
                grid.overlapping(fat, &mut |x| {
                    let s = ids[x as usize];
                    if s != e && !(escaped[s as usize] != STAYED && s > e) {
                        let filed = file(&mut t.filed, filing, s.min(e), s.max(e));
                        t.filtered += usize::from(!filed);
                    }
                });
            }
            t.time = start.elapsed();
        });
        self.search_cpu += tasks.iter().map(|t| t.time).sum::<Duration>();
        self.filtered += tasks.iter().map(|t| t.filtered).sum::<usize>();
        // Each kind's new candidates ascending.
        let used = tasks.len();
        self.candidates
            .take_filed_sorted(&mut self.sort, &self.tasks[..used], top as u32);
        room_for_filed(&mut self.tasks, used, &self.chunks);
    }

    /// After the kernels: every escaper's flag back to [`STAYED`] (a rebuild cleared them
    /// already), none leaving its place in the grid (the repair read those flags), and its id
    /// now the one its slot holds in this call; the escapers forgotten. On rayon's threads
    /// where they are many ([`MIN_SETTLE`]): the flags by index, in one pass over them all,
    /// beside the ids of the slots whose shapes changed ([`settle_ids`]). (The
    /// flags that said which escapers leave their places were cleared in a pass of their own
    /// after the repair: on sixteen threads a fork and join more, for 100 kB.)
    pub(super) fn settle_escapers(&mut self, scene: &Scene) {
        let (escapers, records) = (&self.escapers, &scene.moving.records);
        // As long as the flags (all false beyond where they were set).
        self.leaving.resize(self.escaped.len(), false);
        if rayon::current_num_threads() <= 1 || escapers.len() < MIN_SETTLE {
            if self.marks.len() * SPARSE_SETTLE < self.escaped.len() {
                // The flags were written at the marks' indices (`flag_escapers`), and only
                // there: read in order, rather than each escaper's index at random.
                for &(i, _) in &self.marks {
                    let i = i as usize;
                    if let (Some(flag), Some(leaving)) =
                        (self.escaped.get_mut(i), self.leaving.get_mut(i))
                    {
                        (*flag, *leaving) = (STAYED, false);
                    }
                }
            } else {
                self.escaped.fill(STAYED);
                self.leaving.fill(false);
            }
            settle_ids(escapers, &self.marks, &mut self.slot_ids, records);
        } else {
            let (flags, leaving, ids) = (&mut self.escaped, &mut self.leaving, &mut self.slot_ids);
            let marks = &self.marks;
            crate::awake::join(
                || {
                    let each =
                        (flags.par_chunks_mut(MIN_TASK)).zip(leaving.par_chunks_mut(MIN_TASK));
                    crate::awake::for_each(each, |(flags, leaving)| {
                        flags.fill(STAYED);
                        leaving.fill(false);
                    });
                },
                || settle_ids(escapers, marks, ids, records),
            );
        }
        debug_assert!(!self.leaving.contains(&true), "an escaper left leaving");
        debug_assert!(
            self.escaped.iter().all(|&f| f == STAYED),
            "an escaper left flagged"
        );
        self.escapers.clear();
    }
}

/// Escapers from which [`Kept::settle_escapers`] clears their flags on rayon's threads, by
/// filling both arrays (their indices lie all over them), beside their ids.
const MIN_SETTLE: usize = 1024;

/// On one thread, indices per escaper below which the escapers' flags are cleared by
/// filling the arrays rather than escaper by escaper: a filled index costs a fraction of a
/// nanosecond, an escaper's two flags (at its mark's index) 10–25 ns at random (43 k
/// escapers of a 1 M-shape frame, each one's index read at random too, took about a
/// millisecond so on a Zen 4).
const SPARSE_SETTLE: usize = 128;

/// Escapers from which their queries split into tasks, of a quarter of this at the least: a
/// query costs 150–300 ns (the 100 k scene, Zen 5), so a task of 64 is 10–20 µs. (At 1 k, the
/// 1.5–3 k escapers of a 100 k frame made 6–12 tasks of 40–120 µs: sixteen threads had work
/// for six to twelve.) The escapers' static candidates split alike: a neighbourhood of a few
/// dozen static shapes costs about as much as a query (tasks of [`MIN_TASK`]` / 4` ran the 1–4 k
/// escapers of a scene of 50 k moving shapes among 50 k static tiles on one thread, 0.5–1.2 ms).
pub(super) const MIN_QUERIES: usize = 256;

/// Each of `escapers` whose slot now holds another shape its id in `records` in `ids`: those
/// not [`MOVED`] by their `marks` (the escape check's, one per escaper it saw; the escapers
/// beyond them, pushed or removed since, the move's), whose ids changed. A moved one's id is
/// the one its slot held (the check compared them), so that its write, a cache miss or two
/// at random, is left out: a pass over the marks in order, on one thread. (Every escaper's
/// record read and id written, in halves on rayon's threads, it was a fork and join over
/// every thread, and about 0.5 ms of a 1 M-shape frame on one thread, Zen 4.) Slots beyond
/// either (removed shapes) keep theirs.
fn settle_ids(escapers: &[u32], marks: &[(u32, u8)], ids: &mut [u32], records: &[Record]) {
    for (j, &e) in escapers.iter().enumerate() {
        if marks.get(j).is_some_and(|&(_, flag)| flag == MOVED) {
            continue;
        }
        let e = e as usize;
        if let (Some(id), Some(r)) = (ids.get_mut(e), records.get(e)) {
            *id = r.id;
        }
    }
}

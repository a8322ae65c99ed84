//! The mixed candidates: for each moving shape, the static shapes whose boxes overlap its
//! enlarged box, from its neighbourhood or, where it left its far box, from the static grid.

use super::Kept;
use super::lists::filters_of;
use super::margin::{Margin, inside, overlap};
use super::tasks::{MIN_TASK, Task, each_task, plan, room_for_filed, room_for_hoods};
use crate::broadphase::union;
use crate::scene::candidates::Candidates;
use crate::scene::chunks::Chunks;
use crate::scene::records::{FILTER_SHIFT, Record};
use crate::scene::statics::{NONE, Statics};
use crate::scene::store::Scene;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Entries of a neighbourhood tested at a time for a moving shape's static candidates.
pub(super) const HOOD_PART: usize = 32;

/// The mixed candidates of `n` moving shapes, on rayon's threads from `min` of them (see
/// [`plan`]), shape `i` at slot `at(i)` (its position in the records the kernels read) with
/// its enlarged box in `fat` and its record in `sorted` (the moving records): every static
/// shape whose box overlaps the enlarged box, as its pair of positions `(p, moving + c)` (`c`
/// its neighbour slot) in its pair kind's argument order, filed by kind in the `filed` lists
/// of the tasks returned (in order within each kind: the shapes' order within each task,
/// when positions ascend with `i`). A shape's static shapes come from its neighbourhood where
/// its far box still holds the enlarged box, else from the static grid over a new far box
/// (the padded box grown by `far_margin`), which becomes its neighbourhood. Also returns the
/// pairs left unfiled because their filters do not pair, and the CPU time of the tasks.
///
/// In passes: the tasks search (a new neighbourhood's static shapes that are neighbours
/// already get a user more, atomically, those that are not are claimed, and the old
/// neighbourhood's get a user fewer); the neighbour slots left without users are freed and
/// the claimed static shapes get slots in order of grid position (the same slots on any
/// thread count, [`Statics::settle_new`]), their users counted by the tasks; each new
/// neighbourhood is kept ([`Statics::set_hoods`]); then the tasks file their candidates. (All
/// of it after the search on one thread was 0.2 ms of a 100 k-shape frame, half of it static
/// tiles, 5 ms at a million, and 42 ms in a rebuild there.)
///
/// With `idle`, where the tasks it ran must grow their lists, the others grow them too (see
/// [`room_for_hoods`]): for the escapers, whose count sets the tasks'. The pairs filed in
/// `pool`'s chunks: the caller gives them back once it read them ([`room_for_filed`]).
pub(super) fn find_mixed<'t>(
    statics: &mut Statics,
    all: &'t mut Vec<Task>,
    scene: &Scene,
    (fat, sorted, slot_of, far_margin): (&[[f32; 4]], &[Record], &[u32], Margin),
    (n, min, idle): (usize, usize, bool),
    (at, pool): (impl Fn(usize) -> u32 + Sync, &Arc<Chunks>),
) -> (&'t mut [Task], usize, Duration) {
    // The padded box `b` of slot `e` grown by `far_margin`, and grown further to hold the
    // enlarged box `fat` (which an escaper's move ahead may put beyond it).
    let far_box = |b: &[f32; 4], e: u32, fat: &[f32; 4]| union(far_margin.enlarge(b, e), *fat);
    statics.tidy(sorted.len());
    let used = plan(all, n, min).len();
    // The tasks whose lists take room after each pass: those run, or all (`idle`).
    let sized = if idle { all.len() } else { used };
    let tasks = &mut all[..used];
    if statics.grid.len() == 0 {
        for t in tasks.iter_mut() {
            t.filed.clear(sorted.len() + statics.labels.len(), pool);
        }
        return (&mut all[..used], 0, Duration::ZERO);
    }
    // The padded and enlarged boxes of index `e`, by its slot.
    let boxes = &scene.moving.boxes;
    let slot = |e: u32| slot_of[e as usize] as usize;
    let kept: &Statics = statics;
    each_task(tasks, |_, t| {
        let start = Instant::now();
        t.mixed.clear();
        t.clear_requeries();
        for i in t.range.clone() {
            let e = at(i);
            // A hole (its slot gone) has no box.
            let Some(fat) = fat.get(slot(e)).filter(|f| !f[0].is_nan()) else {
                continue;
            };
            if inside(fat, &kept.far(e as usize)) {
                // Without a branch per entry (about half overlap): each is written, and
                // counted where it does.
                for part in kept.hood(e as usize).chunks(HOOD_PART) {
                    let (mut near, mut n) = ([(e, 0); HOOD_PART], 0);
                    for &(c, b) in part {
                        near[n].1 = c;
                        n += usize::from(overlap(&b, fat));
                    }
                    t.mixed.extend_from_slice(&near[..n]);
                }
            } else {
                let (far, before) = (far_box(&boxes[slot(e)], e, fat), t.hood.len());
                let (hood, pending, claimed) = (&mut t.hood, &mut t.pending, &mut t.claimed);
                kept.grid.overlapping(far, &mut |s| {
                    let c = kept.join(s, claimed);
                    if c == NONE {
                        pending.push((hood.len() as u32, s));
                    }
                    hood.push((c, kept.grid.box_at(s as usize)));
                });
                kept.leave(e as usize, &mut t.emptied);
                t.requery.push((e, (t.hood.len() - before) as u32, far));
            }
        }
        t.time = start.elapsed();
    });
    room_for_hoods(&mut all[..sized], used);
    let tasks = &mut all[..used];
    statics.free_emptied(tasks.iter().flat_map(|t| t.emptied.iter().copied()));
    statics.settle_new(scene, tasks, &|t: &Task| &t.claimed[..]);
    if tasks.iter().any(|t| !t.pending.is_empty()) {
        let kept = &*statics;
        each_task(tasks, |_, t| {
            for &(k, s) in &t.pending {
                t.hood[k as usize].0 = kept.join_new(s);
            }
        });
    }
    let slots = sorted.len();
    statics.set_hoods(slots, tasks, &|t: &Task| &t.hood[..], &|t: &Task| {
        &t.requery[..]
    });
    let moving = sorted.len() as u32;
    let (filters, kept) = (filters_of(scene), &*statics);
    let positions = sorted.len() + kept.labels.len();
    each_task(tasks, |_, t| {
        let start = Instant::now();
        t.filed.clear(positions, pool);
        t.filtered = 0;
        let (filed, filtered) = (&mut t.filed, &mut t.filtered);
        let mut file = |(p, c): (u32, u32)| {
            let kinds = (sorted[p as usize].kind, kept.labels[c as usize].1);
            if let Some(table) = filters {
                let filter = |k: u32| table[(k >> FILTER_SHIFT) as usize];
                if !filter(kinds.0).pairs_with(filter(kinds.1)) {
                    *filtered += 1;
                    return;
                }
            }
            let (kind, pair) = Candidates::kind_of(kinds.0, kinds.1, p, moving + c);
            filed.put(kind, pair);
        };
        let (mut ready, mut from) = (&t.mixed[..], 0);
        for &(e, count, _) in &t.requery {
            while let Some((&first, rest)) = ready.split_first()
                && first.0 < e
            {
                file(first);
                ready = rest;
            }
            let (fat, to) = (&fat[slot(e)], from + count as usize);
            for &(c, b) in &t.hood[from..to] {
                if overlap(&b, fat) {
                    file((e, c));
                }
            }
            from = to;
        }
        for &pair in ready {
            file(pair);
        }
        t.time += start.elapsed();
    });
    let cpu = tasks.iter().map(|t| t.time).sum::<Duration>();
    let filtered = tasks.iter().map(|t| t.filtered).sum();
    (&mut all[..used], filtered, cpu)
}

impl Kept {
    /// The mixed candidates anew, of every moving slot. A shape whose
    /// neighbourhood no longer holds its enlarged box gets one over the enlarged box itself
    /// (the far box waits for its next escape): a rebuild, or a change of the static shapes,
    /// then queries the level as it did before neighbourhoods, instead of over every far box
    /// at once (which made such a frame about twice as slow).
    pub(super) fn all_mixed(&mut self, scene: &Scene) {
        let n = self.top;
        let (tasks, filtered, cpu) = find_mixed(
            &mut self.statics,
            &mut self.tasks,
            scene,
            (&self.fat, &self.local, &self.slot_of, self.margin),
            (n, MIN_TASK / 4, false),
            (|s| s as u32, &self.chunks),
        );
        self.mixed.take_filed(tasks);
        let used = tasks.len();
        room_for_filed(&mut self.tasks, used, &self.chunks);
        self.filtered += filtered;
        self.search_cpu += cpu;
    }
}

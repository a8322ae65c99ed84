//! The rebuild: every moving shape's enlarged box anew, the grid over them, a full search for
//! the candidates (filed by pair kind, each list by first slot) and the mixed candidates.

use super::by_first::sort_lists;
use super::filed::file;
use super::lists::{TAG, filters_of};
use super::tasks::{MIN_TASK, chunk_len, each_task, plan, room_for_filed};
use super::{Kept, KeptStats};
use crate::broadphase::grid::MIN_BUFFER;
use crate::scene::store::Scene;
use rayon::prelude::*;
use std::time::{Duration, Instant};

impl Kept {
    /// Every moving slot's enlarged box anew, into `fat`, centred on its box (not moved
    /// ahead: its shift reset), for a rebuild.
    pub(super) fn enlarge_all(&mut self, scene: &Scene) {
        let (margin, boxes) = (self.margin, &scene.moving.boxes);
        self.fat.resize(boxes.len(), [f32::NAN; 4]);
        self.shifts.clear();
        self.shifts.resize(boxes.len(), ([0.0; 2], self.call));
        let chunk = chunk_len(boxes.len());
        self.fat
            .par_chunks_mut(chunk)
            .zip(boxes.par_chunks(chunk))
            .enumerate()
            .for_each(|(c, (fat, boxes))| {
                let first = c * chunk;
                for (k, (f, b)) in fat.iter_mut().zip(boxes).enumerate() {
                    *f = margin.enlarge(b, (first + k) as u32);
                }
            });
    }

    /// Everything of the moving shapes anew over enlarged boxes: the grid, the candidates
    /// (sorted), and the mixed candidates.
    pub(super) fn rebuild(&mut self, scene: &Scene, stats: &mut KeptStats) {
        stats.rebuilt = true;
        self.built_at = self.call;
        let n = scene.moving.len();
        self.enlarge_all(scene);
        let records = &scene.moving.records;
        self.tags.clear();
        self.tags
            .par_extend(records.par_iter().map(|r| r.kind & TAG));
        self.slot_ids.clear();
        self.slot_ids.par_extend(records.par_iter().map(|r| r.id));
        self.ids.resize(n, 0);
        self.grid.build(
            &self.fat,
            scene.cell_size,
            |i| i,
            &mut self.staged,
            &mut self.ids,
        );
        // The entered boxes (those not NaN) outside their level's cells, counted in slot
        // order: read through the grid's items, the boxes were a cache miss each (9 % of a
        // 1 M frame that rebuilt every fifth call).
        let grid = &self.grid;
        self.outside = self
            .fat
            .par_chunks(chunk_len(self.fat.len()))
            .map(|fat| {
                fat.iter()
                    .filter(|b| {
                        !b[0].is_nan() && grid.key_for(b).is_some_and(|key| grid.clamped(key, b))
                    })
                    .count()
            })
            .sum();
        self.outside_built = self.outside;
        self.number(n);
        self.gather(scene, 0);
        stats.build += stats.laps.lap();

        let tasks = plan(&mut self.tasks, self.grid.len(), MIN_TASK);
        // Shares of about equal work: a coarse level's positions cost more.
        let shares = self.grid.shares(tasks.len());
        for (t, share) in tasks.iter_mut().zip(shares) {
            t.range = share;
        }
        let (grid, ids) = (&self.grid, &self.ids);
        let filing = (&self.kinds[..], filters_of(scene));
        let pool = &self.chunks;
        each_task(tasks, |_, t| {
            let start = Instant::now();
            t.filed.clear(n, pool);
            t.filtered = 0;
            t.buf.resize(MIN_BUFFER * 8, (0, 0));
            let (filed, filtered) = (&mut t.filed, &mut t.filtered);
            grid.search(t.range.clone(), &mut t.buf, &mut |pairs: &[(
                u32,
                u32,
            )]| {
                for &(p, q) in pairs {
                    let (s, u) = (ids[p as usize], ids[q as usize]);
                    *filtered += usize::from(!file(filed, filing, s.min(u), s.max(u)));
                }
            });
            t.time = start.elapsed();
        });
        self.search_cpu += tasks.iter().map(|t| t.time).sum::<Duration>();
        self.candidates.take_filed(tasks);
        self.filtered += tasks.iter().map(|t| t.filtered).sum::<usize>();
        // The chunks back, and room for a busier rebuild (see `room_for_filed`).
        let used = tasks.len();
        room_for_filed(&mut self.tasks, used, &self.chunks);
        // By first index, which the kernels read in order.
        sort_lists(
            &mut self.candidates.kinds,
            &mut self.candidates.new,
            &mut self.counts,
            n,
        );
        self.all_mixed(scene);
        self.room_to_follow();
        stats.search += stats.laps.lap();
    }

    /// Room in the buffers that a frame following the moves of a few escapers takes and a
    /// frame with none does not: the grid's edit, the marks of the blocks they touch, and
    /// the lists' spares and the walk's places, for as many tasks as any pass has run. A
    /// world fast enough to rebuild every third frame, whose frames between kept every
    /// shape in its box, grew them all in the first frame that had an escaper, hundreds of
    /// frames after its warm-up (23 allocations on one thread, 30 on thirteen).
    fn room_to_follow(&mut self) {
        self.room_for_edit();
        self.room_for_touched();
        let tasks = self.tasks.len();
        self.candidates.room_to_follow(tasks);
        self.mixed.room_to_follow(tasks);
    }
}

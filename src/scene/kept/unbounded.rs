//! The unbounded shapes (infinite or overflow-prone bounds, never in a grid): each tested
//! against every shape, their pairs added to the answer.

use super::tasks::{MIN_TASK, each_task, plan, room_for_events};
use super::{Kept, KeptStats};
use crate::scene::candidates::CHUNK;
use crate::scene::pack::Shared;
use crate::scene::records::{Copied, INVALID, Record, STATIC, UNBOUNDED};
use crate::scene::store::Scene;
use std::time::Instant;

impl Kept {
    /// The pairs of the unbounded shapes (infinite or overflow-prone bounds, never in a
    /// grid), appended to `out`: their records after the static and the moving ones in the
    /// grids, each tested against every shape before it (a static one only against the
    /// moving ones and the unbounded).
    pub(super) fn add_unbounded(
        &mut self,
        scene: &Scene,
        out: &mut Vec<(u32, u32)>,
        stats: &mut KeptStats,
    ) {
        let statics = self.statics.sorted.len();
        let mut records = core::mem::take(&mut self.fresh_records);
        records.clear();
        records.extend_from_slice(&self.statics.sorted);
        // The moving shapes in the grid (the unbounded ones come next, and the invalid ones
        // pair with nothing).
        records.extend(
            scene
                .moving
                .records
                .iter()
                .filter(|r| r.kind & (UNBOUNDED | INVALID) == 0),
        );
        let entered = records.len() as u32;
        for store in [&scene.statics, &scene.moving] {
            if store.unbounded > 0 {
                let unbounded = store.records.iter().filter(|r| r.kind & UNBOUNDED != 0);
                records.extend(unbounded);
            }
        }
        let mut pairs = core::mem::take(&mut self.fresh);
        pairs.clear();
        for u in entered..records.len() as u32 {
            let first = if records[u as usize].kind & STATIC != 0 {
                statics as u32
            } else {
                0
            };
            pairs.extend((first..u).map(|p| (p, u)));
        }
        self.decide(scene, &records, &[], false, &pairs, |_, c| c, out, stats);
        self.fresh = pairs;
        self.fresh_records = records;
    }

    /// The kernels over `candidates` (candidate `i` the pair of positions into `shapes` that
    /// `at(i, candidates[i])` gives), on rayon's threads: the ids of those that overlap,
    /// `(smaller, larger)`, appended to `out` in the candidates' order. `admitted`: no
    /// candidate is two static shapes.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn decide(
        &mut self,
        scene: &Scene,
        shapes: &[Record],
        copies: &[Copied],
        admitted: bool,
        candidates: &[(u32, u32)],
        at: impl Fn(usize, (u32, u32)) -> (u32, u32) + Sync,
        out: &mut Vec<(u32, u32)>,
        stats: &mut KeptStats,
    ) {
        if candidates.is_empty() {
            return;
        }
        let tasks = plan(&mut self.tasks, candidates.len(), MIN_TASK);
        let pool = &self.answer_chunks;
        let shared =
            Shared::new(&self.grid, shapes, [scene, scene], 0, false).with_copies(copies, u32::MAX);
        let shared = if admitted { shared.admitted() } else { shared };
        each_task(tasks, |_, t| {
            let start = Instant::now();
            let narrow = &mut t.narrow;
            narrow.reset(pool);
            for (k, chunk) in candidates[t.range.clone()].chunks(CHUNK).enumerate() {
                let first = t.range.start + k * CHUNK;
                narrow.decide_in_order(&shared, chunk, |i, c| at(first + i, c));
            }
            t.time = start.elapsed();
        });
        for t in tasks.iter() {
            t.narrow
                .pairs
                .chunks()
                .for_each(|c| out.extend_from_slice(c));
            // Filing and collecting hits count as packing: all but the kernels.
            stats.cpu_pack += t.time.saturating_sub(t.narrow.kernel_time);
            stats.cpu_kernels += t.narrow.kernel_time;
            stats.filtered += t.narrow.filtered;
            stats.candidates += t.narrow.candidates;
        }
        let used = tasks.len();
        room_for_events(&mut self.tasks, used, &self.answer_chunks);
    }
}

//! The frame's answer (stage 7): the pairs that began and ended sorted and merged into the
//! last answer, or the whole answer sorted and compared with the last.

use super::{Kept, KeptStats};
use crate::scene::sort::apply_events;

/// Fewest began and ended pairs in all for which their two sorts run side by side: below, each
/// sort runs on one thread anyway, and a fork would only cost (from outside the pool, a
/// hand-over to a worker).
const MIN_SORTS_APART: usize = 4 * 1024;

impl Kept {
    /// The answer into `out` and the pairs that began and ended into the caller's lists:
    /// with `events`, those this call's tasks found (in `self.began` and `self.ended`), sorted
    /// and merged into `previous` (`out` written over); else `out` (the hits) sorted and
    /// compared with `previous`.
    pub(super) fn answer(
        &mut self,
        previous: &[(u32, u32)],
        out: &mut Vec<(u32, u32)>,
        [began, ended]: [&mut Vec<(u32, u32)>; 2],
        stats: &mut KeptStats,
        events: bool,
    ) {
        if events {
            // The two lists at once, each with its own sort's buffers (3 k pairs each in the
            // 100 k scene: sorted one after the other, they left the other threads waiting).
            let apart = self.began.len() + self.ended.len() >= MIN_SORTS_APART;
            let mut sort_began = || self.sort.sort_sparse(&mut self.began);
            let mut sort_ended = || self.sort_ended.sort_sparse(&mut self.ended);
            if apart {
                crate::awake::join(sort_began, sort_ended);
            } else {
                sort_began();
                sort_ended();
            }
            // A pair an escaper dropped and found again that still overlaps goes on. (Beside
            // the merge below, which may read the lists uncancelled, it cost 10–15 µs more of
            // the 100 k frame on two threads than after it.)
            self.cancel.cancel_common(&mut self.began, &mut self.ended);
            stats.events += stats.laps.lap();
            apply_events(previous, &self.began, &self.ended, out);
            // The caller's lists take these buffers (and this the caller's, cleared next call).
            core::mem::swap(began, &mut self.began);
            core::mem::swap(ended, &mut self.ended);
            stats.sort += stats.laps.lap();
        } else {
            self.sort.sort(out);
            stats.sort += stats.laps.lap();
            self.events.between(previous, out, began, ended);
            stats.events += stats.laps.lap();
        }
    }
}

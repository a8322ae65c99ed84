//! The frame's answer (stage 7): the pairs that began and ended sorted and merged into the
//! last answer, or the whole answer sorted and compared with the last.

use super::stats::KeptStats;
use crate::scene::radix::RadixSort;
use crate::scene::sort::{Cancel, Events, apply_events};

/// Fewest began and ended pairs in all for which their two sorts run side by side: below, each
/// sort runs on one thread anyway, and a fork would only cost (from outside the pool, a
/// hand-over to a worker).
const MIN_SORTS_APART: usize = 4 * 1024;

/// What a kept frame's answer is made with, apart from the rest of the frame's state, so that
/// it can be made beside the escapers' settling (`Kept::settle_escapers`), which writes
/// other arrays: the pairs that began and ended in this call while they are gathered, the
/// buffers of their sorts (each its own: the two run side by side) and of their
/// cancelling, and those of the events between two whole answers.
#[derive(Debug, Default)]
pub(super) struct Answer {
    pub(super) began: Vec<(u32, u32)>,
    pub(super) ended: Vec<(u32, u32)>,
    sort_began: RadixSort,
    sort_ended: RadixSort,
    cancel: Cancel,
    /// The buffers of the events between two answers: a rebuild's, and those of the finder's
    /// searches from scratch, which it hands over.
    pub(super) events: Events,
}

impl Answer {
    /// The answer into `out` and the pairs that began and ended into the caller's lists:
    /// those this call's tasks found (in `self.began` and `self.ended`), sorted and merged
    /// into `previous` (`out` written over).
    pub(super) fn merge_events(
        &mut self,
        previous: &[(u32, u32)],
        out: &mut Vec<(u32, u32)>,
        [began, ended]: [&mut Vec<(u32, u32)>; 2],
        stats: &mut KeptStats,
    ) {
        // The two lists at once, each with its own sort's buffers (3 k pairs each in the
        // 100 k scene: sorted one after the other, they left the other threads waiting).
        let apart = self.began.len() + self.ended.len() >= MIN_SORTS_APART;
        let mut sort_began = || self.sort_began.sort_sparse(&mut self.began);
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
    }

    /// The answer `out` (the hits) sorted by `sort` (the frame's, whose buffers the lists'
    /// sorts have grown) and compared with `previous`: the pairs that began and ended into
    /// the caller's lists.
    pub(super) fn sort_whole(
        &mut self,
        sort: &mut RadixSort,
        previous: &[(u32, u32)],
        out: &mut [(u32, u32)],
        [began, ended]: [&mut Vec<(u32, u32)>; 2],
        stats: &mut KeptStats,
    ) {
        sort.sort(out);
        stats.sort += stats.laps.lap();
        self.events.between(previous, out, began, ended);
        stats.events += stats.laps.lap();
    }
}

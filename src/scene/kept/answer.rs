//! The frame's answer (stage 7): the pairs that began and ended sorted and merged into the
//! last answer, or the whole answer sorted and compared with the last.

use super::stats::KeptStats;
use crate::room::reserve_swinging;
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
        // Every buffer the pairs pass through takes room for them at once, half again as
        // many where it must grow (see `reserve_swinging`): the caller's lists, which trade
        // places with these (and these with the cancelling's spares), and the sorts' keys. A
        // buffer growing on its own met its own new highs: a world drifting slowly, whose
        // escapers come in waves, allocated in some frames hundreds of frames after warm-up.
        reserve_swinging(began, self.began.len());
        reserve_swinging(ended, self.ended.len());
        self.sort_began.reserve_swinging(self.began.len());
        self.sort_ended.reserve_swinging(self.ended.len());
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::room::swinging;

    /// A frame's events, unsorted, merged into the last answer: the answer is the last one
    /// without the pairs that ended and with those that began (a pair in both goes on), and
    /// the caller's lists and the ones they trade places with next call have room for half
    /// again the events they met, through waves of events that rise and fall.
    #[test]
    fn events_merge_and_their_buffers_take_room_to_swing() {
        let mut rng = crate::test_rng::Xorshift::new(0xe7e7);
        let previous: Vec<(u32, u32)> = (0..4000).map(|i| (i, 2 * i)).collect();
        let (mut answer, mut stats) = (Answer::default(), KeptStats::default());
        let (mut began, mut ended, mut out) = (Vec::new(), Vec::new(), Vec::new());
        for wave in [10, 900, 40, 3000, 5, 3900, 2000] {
            // `wave` pairs of the last answer end, every other one found again (both lists).
            let gone: Vec<(u32, u32)> = (0..wave).map(|i| previous[i as usize]).collect();
            let new: Vec<(u32, u32)> = (0..wave).map(|i| (i, 2 * i + 1)).collect();
            answer.began = new.iter().chain(gone.iter().step_by(2)).copied().collect();
            answer.ended = gone.clone();
            for list in [&mut answer.began, &mut answer.ended] {
                for i in (1..list.len()).rev() {
                    list.swap(i, rng.below(i as u32 + 1) as usize);
                }
            }
            let (b, e) = (answer.began.len(), answer.ended.len());
            answer.merge_events(&previous, &mut out, [&mut began, &mut ended], &mut stats);
            let mut want: Vec<_> = previous.iter().copied().filter(|p| p.1 % 2 == 0).collect();
            want.retain(|p| p.0 >= wave || p.0 % 2 == 0);
            want.extend_from_slice(&new);
            want.sort_unstable();
            assert_eq!(out, want, "wave {wave}");
            let (mut b_want, mut e_want) = (new.clone(), gone.clone());
            e_want.retain(|p| p.0 % 2 == 1);
            b_want.sort_unstable();
            e_want.sort_unstable();
            assert_eq!((&began, &ended), (&b_want, &e_want), "wave {wave}");
            for (list, n) in [
                (&began, b),
                (&answer.began, b),
                (&ended, e),
                (&answer.ended, e),
            ] {
                assert!(
                    list.capacity() >= swinging(n),
                    "wave {wave}: {}",
                    list.capacity()
                );
            }
        }
    }
}

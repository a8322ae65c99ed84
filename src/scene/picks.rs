//! Which of a kept list's candidates the kernels decide: [`Candidates::pick`] passes over
//! those of two still shapes and those whose filters do not pair.

use super::blocks::ahead_or_all;
use super::candidates::{Candidates, HIT, LIST_BATCH};
use super::pack::Shared;

impl Candidates {
    /// Picks from `list[from..]` the candidates the kernels decide into `kept`, their places
    /// in the list into `number`, until `kept` is full or the list ends; returns how many it
    /// picked and where it stopped. Passed over: a candidate of two still positions (whose
    /// records are those the last call decided it with, see [`Shared::with_still`]), which
    /// keeps its flag, a run of them at once where the blocks of first positions say so (see
    /// [`Shared::busy_run`]), and one whose filters do not pair (its flag cleared).
    #[inline(never)]
    pub(super) fn pick(
        &mut self,
        shared: &Shared<'_>,
        list: &mut [(u32, u32)],
        from: usize,
        into: (&mut [(u32, u32); LIST_BATCH], &mut [u32; LIST_BATCH]),
        events: bool,
    ) -> (usize, usize) {
        // Two loops, so that one without marks tests none per candidate (a test cost the
        // pick of a world of a 333rd of its shapes moving 13 % more instructions).
        if shared.marks_busy() {
            self.pick_with::<true>(shared, list, from, into, events)
        } else {
            self.pick_with::<false>(shared, list, from, into, events)
        }
    }

    /// [`pick`](Self::pick), reading the busy blocks where `MARKS`.
    #[inline(always)]
    fn pick_with<const MARKS: bool>(
        &mut self,
        shared: &Shared<'_>,
        list: &mut [(u32, u32)],
        from: usize,
        (kept, number): (&mut [(u32, u32); LIST_BATCH], &mut [u32; LIST_BATCH]),
        events: bool,
    ) -> (usize, usize) {
        let (mut n, mut at) = (0, from);
        // The first position from which the busy blocks are read again (see
        // [`Shared::busy_run`]): a run of quiet blocks holds only candidates of two still
        // positions, passed over together.
        let mut look_from = 0;
        while n < LIST_BATCH && at < list.len() {
            if MARKS && list[at].0 >= look_from {
                let (busy, end) = shared.busy_run(list[at].0);
                if !busy {
                    // A run that reaches past the list's end, as at rest, is not searched:
                    // the walk just read its last candidate.
                    let run = ahead_or_all(&list[at..], |c| c.0 < end);
                    self.still += run;
                    at += run;
                    continue;
                }
                look_from = end;
            }
            let c = &mut list[at];
            let q = c.1 & !HIT;
            if shared.is_still(c.0) & shared.is_still(q) {
                self.still += 1;
            } else if !shared.layered || shared.layers_pair(shared.record(c.0), shared.record(q)) {
                (kept[n], number[n]) = (*c, at as u32);
                n += 1;
            } else {
                self.filtered += 1;
                if c.1 & HIT != 0 {
                    self.flip(shared, c, false, events);
                }
            }
            at += 1;
        }
        (n, at)
    }
}

//! Which of a kept list's candidates the kernels decide: [`Candidates::pick`] passes over
//! those of two still shapes, those whose filters do not pair, and, for the pair kinds with a
//! polygon, those whose shapes' padded boxes are apart.

use super::blocks::ahead_or_all;
use super::candidates::{Candidates, HIT, LIST_BATCH};
use super::pack::{Shared, Stored};
use super::records::{POLYGON, Record, apart, padded_box};
use crate::prefetch::{AHEAD, prefetch};

/// Whether the candidates of the pair kind of `A` and `B` have their padded boxes compared
/// before the kernels: the kinds with a polygon. A kept candidate is a pair of overlapping
/// enlarged boxes, and about two in three of those have padded boxes apart; a polygon's
/// kernel costs 3–18 ns a pair (at eight lanes, in cache) and its gather a 64-byte copy, where
/// the check reads the two records (which the gather reads next) and compares four numbers.
/// The `scaling` example's scene of polygons and capsules, kept frame (Intel Xeon): 8.40–8.49
/// → 7.67–7.75 ms at 100 k shapes on one thread, 4.92–4.96 → 4.39–4.43 on two; 113–121 →
/// 104–110 at 1 M on one (see `docs/benchmarks.md`). The kernels of the other kinds cost
/// about what the check does, and a rotated box's or capsule's box is worked out from its
/// fields: checking their kinds too made the default scene's (circles, boxes, rotated boxes)
/// 4.56–4.58 ms at 100 k on one thread 5.95–5.98.
#[inline(always)]
const fn boxed<A: Stored, B: Stored>() -> bool {
    matches!(A::CODE, Some(POLYGON)) || matches!(B::CODE, Some(POLYGON))
}

impl Candidates {
    /// Whether a list of the pair kind of `A` and `B` is taken by [`pick`](Self::pick) rather
    /// than a batch at a time as it lies: where filters, still shapes or, for the kinds with
    /// a polygon ([`boxed`]), boxes pass over some of its candidates.
    #[inline(always)]
    pub(super) fn picks<A: Stored, B: Stored>(shared: &Shared<'_>) -> bool {
        boxed::<A, B>() || shared.layered || !shared.still.is_empty()
    }

    /// Picks from `list[from..]` (a list of the pair kind of `A` and `B`) the candidates the
    /// kernels decide into `kept`, their places in the list into `number`, until `kept` is full
    /// or the list ends; returns how many it picked and where it stopped. Passed over: a
    /// candidate of two still positions (whose records are those the last call decided it
    /// with, see [`Shared::with_still`]), which keeps its flag, a run of them at once where the
    /// blocks of first positions say so (see [`Shared::busy_run`]); one whose filters do not
    /// pair; and where [`boxed`], one whose shapes' padded boxes are apart, which cannot
    /// overlap (these two get their flags cleared).
    #[inline(never)]
    pub(super) fn pick<A: Stored, B: Stored>(
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
            self.pick_with::<A, B, true>(shared, list, from, into, events)
        } else {
            self.pick_with::<A, B, false>(shared, list, from, into, events)
        }
    }

    /// [`pick`](Self::pick), reading the busy blocks where `MARKS`.
    #[inline(always)]
    fn pick_with<A: Stored, B: Stored, const MARKS: bool>(
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
            // The second record a few candidates ahead (see `prefetch.rs`): the batch's
            // prefetch covers its length of the list, and the check passes over about two
            // candidates in three.
            if boxed::<A, B>()
                && let Some(&(_, ahead)) = list.get(at + AHEAD)
                && let Some(r) = shared.get_record(ahead & !HIT)
            {
                prefetch(r);
            }
            let c = &mut list[at];
            let q = c.1 & !HIT;
            at += 1;
            if shared.is_still(c.0) & shared.is_still(q) {
                self.still += 1;
                continue;
            }
            let p = c.0;
            if shared.layered && !shared.layers_pair(shared.record(p), shared.record(q)) {
                self.filtered += 1;
                if c.1 & HIT != 0 {
                    self.flip(shared, c, false, events);
                }
                continue;
            }
            // Written either way and counted only when kept: whether boxes are apart is a
            // coin toss of a branch.
            (kept[n], number[n]) = (*c, (at - 1) as u32);
            let gone = boxed::<A, B>() && apart_records::<A, B>(shared.record(p), shared.record(q));
            n += usize::from(!gone);
            self.apart += usize::from(gone);
            if gone & (c.1 & HIT != 0) {
                self.flip(shared, c, false, events);
            }
        }
        (n, at)
    }
}

/// Whether the padded boxes of two shapes of kinds `A` and `B`, read from their records, are
/// apart (see [`padded_box`]).
#[inline(always)]
fn apart_records<A: Stored, B: Stored>(p: &Record, q: &Record) -> bool {
    // `CODE` is `None` only for points, which a scene never stores.
    let code = |c: Option<u32>| c.unwrap_or(POLYGON);
    apart(&padded_box(code(A::CODE), p), &padded_box(code(B::CODE), q))
}

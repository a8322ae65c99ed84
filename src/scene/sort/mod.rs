//! The answer from the last one and the pairs that began and ended since, and the events
//! between two sorted answers (the sort itself is [`radix`](super::radix)'s).

use super::chunks::{CHUNK, Chunked, Chunks, concat_chunked, room_for_lists};
use crate::concat::copy_runs;
use crate::room::{reserve_swinging, reserve_to};
use rayon::prelude::*;
use std::sync::Arc;

/// A pair as one number that orders as the pair does.
#[inline(always)]
pub(crate) fn pair_key((a, b): (u32, u32)) -> u64 {
    u64::from(a) << 32 | u64::from(b)
}

/// The pairs of `new` not in `old` appended to `began`, and those of `old` not in `new` to
/// `ended` (a `Vec`, or a part's [`Chunked`] list), in order: one merge of the two sorted
/// answers.
///
/// Without a branch on the comparison: each step writes both heads to a small buffer and
/// advances the sides by the comparison's outcome (a teleport-heavy frame's answers differ
/// every few pairs, and a branch on each was mispredicted about as often).
pub(crate) fn events_between(
    old: &[(u32, u32)],
    new: &[(u32, u32)],
    began: &mut impl for<'a> Extend<&'a (u32, u32)>,
    ended: &mut impl for<'a> Extend<&'a (u32, u32)>,
) {
    const STEPS: usize = 64;
    let (mut i, mut j) = (0, 0);
    let (mut gone, mut come) = ([(0, 0); STEPS], [(0, 0); STEPS]);
    loop {
        // Each step moves `i`, `j` or both on by one: this many stay within both lists.
        let steps = STEPS.min(old.len() - i).min(new.len() - j);
        if steps == 0 {
            break;
        }
        let (mut e, mut b) = (0, 0);
        for _ in 0..steps {
            let (x, y) = (old[i], new[j]);
            (gone[e], come[b]) = (x, y);
            let (kx, ky) = (pair_key(x), pair_key(y));
            let (less, more) = (kx < ky, ky < kx);
            e += usize::from(less);
            b += usize::from(more);
            i += usize::from(!more);
            j += usize::from(!less);
        }
        ended.extend(&gone[..e]);
        began.extend(&come[..b]);
    }
    ended.extend(&old[i..]);
    began.extend(&new[j..]);
}

/// Fewest pairs of the two answers together for [`Events::between`] to split them among
/// tasks (the merge takes one to two nanoseconds a pair). At 64 k, the two 63 k-pair answers
/// of a 100 k-shape frame whose shapes jumped were compared on one thread (0.22 ms).
const MIN_EVENTS: usize = 16 * 1024;

/// The buffers of [`Events::between`]'s tasks, kept from call to call (each part's lists in
/// chunks of one pool, see `chunks.rs`, made by the first call that runs parts: a default
/// one allocates nothing, and a kept frame takes its answer's buffers out with one), and
/// where the last call cut its lists.
#[derive(Debug, Default)]
pub(crate) struct Events {
    parts: Vec<[Chunked; 2]>,
    pool: Option<Arc<Chunks>>,
    cuts: Vec<(usize, usize)>,
}

/// Where the first `d` pairs of the sorted lists `old` and `new` merged end: `(j, i)`, the
/// merge's first `d` being `new[..j]` and `old[..i]` (a pair of `old` before an equal one of
/// `new`), except that a pair in both lies on one side, `j` one more where the cut would
/// part it (a part finds the events of its pairs alone). Monotone in `d`: `d` and `d + 1`
/// give the same cut only where the first parts an equal pair.
fn co_rank(old: &[(u32, u32)], new: &[(u32, u32)], d: usize) -> (usize, usize) {
    let (mut lo, mut hi) = (d.saturating_sub(new.len()), d.min(old.len()));
    while lo < hi {
        // `i < old.len()` and `1 <= d - i <= new.len()`.
        let i = (lo + hi) / 2;
        if old[i] <= new[d - i - 1] {
            lo = i + 1;
        } else {
            hi = i;
        }
    }
    let (i, j) = (lo, d - lo);
    let parted = i > 0 && j < new.len() && old[i - 1] == new[j];
    (j + usize::from(parted), i)
}

impl Events {
    /// How many chunks its parts' pool made.
    #[cfg(test)]
    fn made(&self) -> usize {
        self.pool.as_ref().map_or(0, |pool| pool.made())
    }

    /// [`events_between`] on rayon's threads: the two answers cut into as many parts as
    /// there are threads, each part's pairs that began and ended found by a task of its own,
    /// then copied after one another (a few per cent of the answers). A search from scratch
    /// in a kept finder's frame ran it on one thread: 1–2 ms at 1 M moving shapes.
    pub(crate) fn between(
        &mut self,
        old: &[(u32, u32)],
        new: &[(u32, u32)],
        began: &mut Vec<(u32, u32)>,
        ended: &mut Vec<(u32, u32)>,
    ) {
        self.split(old, new, [began, ended], MIN_EVENTS);
    }

    /// [`between`](Self::between) in tasks of `min` pairs of the two lists together at the
    /// least, the parts' pairs copied after one another on rayon's threads. Each part writes
    /// its pairs into chunks of the parts' pool, which first takes room for all the pairs the
    /// parts could find. (Each part's own buffers, with room for twice the busiest part's
    /// pairs, grew every part's the first time one met a busier share than any before: a
    /// drifting world on eight threads, 340 frames into its loop.)
    ///
    /// Each part holds as many pairs of the two lists together, give or take one
    /// ([`co_rank`]). (Cut where `new`'s pairs were shared evenly, a call with few pairs in
    /// `new` and many in `old` ran as many parts as `new` has pairs, each with its share of
    /// `old`: ten pairs against 60 k, a part of 6 k on sixteen threads, where an even share
    /// is under 4 k.)
    fn split(
        &mut self,
        old: &[(u32, u32)],
        new: &[(u32, u32)],
        [began, ended]: [&mut Vec<(u32, u32)>; 2],
        min: usize,
    ) {
        // Where one list is empty, the other's pairs all began or all ended: copied on
        // rayon's threads, no part run. (Found in parts, a finder's first answer of 63 k
        // pairs, 100 k shapes on sixteen threads, gave three parts 21 k pairs each, and
        // every part's buffers, both lists of sixteen, took room for twice that: 17 MB.)
        if old.is_empty() || new.is_empty() {
            copy_runs([began, ended], [new, old], &|p| p);
            return;
        }
        let threads = rayon::current_num_threads();
        let total = old.len() + new.len();
        let tasks = threads.min(total / min);
        if tasks < 2 {
            began.clear();
            ended.clear();
            events_between(old, new, began, ended);
            return;
        }
        // A part for every thread, kept with its buffers: a call with more pairs splits
        // them among more parts.
        if self.parts.len() < threads {
            self.parts.resize_with(threads, Default::default);
            reserve_to(&mut self.cuts, threads + 1);
        }
        // Part `k` holds `new[cuts[k].0..cuts[k + 1].0]` and `old[cuts[k].1..cuts[k + 1].1]`.
        self.cuts.clear();
        let cuts = (0..=tasks).map(|k| co_rank(old, new, k * total / tasks));
        self.cuts.extend(cuts);
        // A part's list holds no more pairs than the part's share of the list it comes from:
        // chunks for all of both lists, a partly filled one for every list, and those that
        // the idle parts hold. A call then takes no new chunk unless its lists are longer than
        // any before (where `began` and `ended` grow too), however the pairs it finds fall
        // among the parts.
        let pool = self.pool.get_or_insert_with(Chunks::shared);
        let cuts = &self.cuts[..];
        pool.room_for_at_most(total / CHUNK + 2 * (tasks + self.parts.len()));
        crate::awake::for_each(
            self.parts[..tasks].par_iter_mut().enumerate(),
            |(k, [b, e])| {
                let ((n0, o0), (n1, o1)) = (cuts[k], cuts[k + 1]);
                b.clear_from(pool);
                e.clear_from(pool);
                events_between(&old[o0..o1], &new[n0..n1], b, e);
            },
        );
        concat_chunked([began, ended], &self.parts[..tasks], &|[b, e], j| {
            [[b, e][j]]
        });
        room_for_lists(&mut self.parts, tasks, pool, |[b, e]| [b, e]);
    }
}

/// Fewest pairs of the two lists together for [`Cancel::cancel_common`] to split them among
/// tasks (its merge takes about three nanoseconds a pair: most pairs go on). At 8 k the 3 k +
/// 3 k of a 100 k frame were merged on one thread (13–14 µs, the longest pass of that frame
/// that ran alone, sixteen threads modelled). The parts' chunks take room for all the pairs
/// first (see [`Events::split`]): grown by what they found, the parts' buffers grew on their
/// own, and a steady frame loop on two threads allocated in some frames.
const MIN_CANCEL: usize = 2 * 1024;

/// The buffers of [`Cancel::cancel_common`], kept from call to call.
#[derive(Debug, Default)]
pub(crate) struct Cancel {
    spare: [Vec<(u32, u32)>; 2],
    events: Events,
}

impl Cancel {
    /// Takes the pairs that are in both sorted lists out of both: [`events_between`]'s merge
    /// without a branch on the comparison, into the spare lists, which then take `a`'s and
    /// `b`'s places (their buffers are the spares next call). An in-place merge that branched
    /// on each comparison took twice as long: in a kept 1 M frame, with 19–31 k pairs in each
    /// list, 230–350 µs against 120–190 on one thread. From [`MIN_CANCEL`] pairs, in parts on
    /// rayon's threads as [`Events::between`] splits its answers.
    pub(crate) fn cancel_common(&mut self, a: &mut Vec<(u32, u32)>, b: &mut Vec<(u32, u32)>) {
        let [only_a, only_b] = &mut self.spare;
        // Room for the lists as they come in, not only as they leave: the buffers pass on to
        // the frame's began and ended pairs before their cancelling (see `Answer`), which
        // then grew now and then in a loop where many pairs cancel. Room to swing: the events
        // come in waves (see `reserve_swinging`).
        reserve_swinging(only_a, a.len());
        reserve_swinging(only_b, b.len());
        self.events.split(b, a, [only_a, only_b], MIN_CANCEL);
        core::mem::swap(a, only_a);
        core::mem::swap(b, only_b);
    }
}

/// The answer `out` kept in `previous` for the next call, copied on rayon's threads, where
/// any pair began or ended (`events`): where none did, `previous` holds it already (both
/// sorted, no pair twice), and a world at rest copies its answer once a call, not twice (0.18
/// ms of a 0.6 ms frame at a million shapes at rest, one thread).
pub(crate) fn keep_answer(
    previous: &mut Vec<(u32, u32)>,
    out: &[(u32, u32)],
    events: [&[(u32, u32)]; 2],
) {
    if events.iter().any(|e| !e.is_empty()) {
        copy_runs([previous], [out], &|pair| pair);
    }
    debug_assert!(previous == out);
}

/// Fewest pairs of the last answer from which [`apply_events`] merges in parts on rayon's
/// threads, twice this (at 64 k the 100 k scene's 63 k were merged on one thread).
const MIN_MERGE: usize = 8 * 1024;

/// Fewest pairs of the last answer a part of [`apply_events`] merges into: a few
/// microseconds (about 2 ns a pair). Parts of [`MIN_MERGE`] made the 100 k scene's 63 k seven
/// parts of 20 µs, on any number of threads from two.
const MIN_MERGE_PART: usize = 2 * 1024;

/// `previous` (sorted) without the pairs of `ended` and with those of `began` (both sorted;
/// every pair of `ended` is in `previous`, none of `began`) into `out` (written over), on
/// rayon's threads: `previous` split into parts, each merged with the changes that fall in it
/// where its pairs lie in `out` (see [`merge_part`]).
pub(crate) fn apply_events(
    previous: &[(u32, u32)],
    began: &[(u32, u32)],
    ended: &[(u32, u32)],
    out: &mut Vec<(u32, u32)>,
) {
    let threads = rayon::current_num_threads();
    let total = previous.len() + began.len() - ended.len();
    if threads <= 1 || previous.len() < 2 * MIN_MERGE {
        out.clear();
        out.reserve(total);
        merge_part(previous, began, ended, |run| out.extend_from_slice(run));
        return;
    }
    // The room. What `out` holds is written over: only where it grows is it written first,
    // on the threads where that is much (no allocation once it has grown). Cleared and
    // filled on the threads whole, the 100 k scene's 63 k pairs took a fifth of the merge's
    // work and most of its fork-joins (156 a frame of its 534, sixteen threads modelled).
    let grows = total.saturating_sub(out.len());
    if grows < 2 * MIN_MERGE {
        out.resize(total, (0, 0));
    } else {
        out.par_extend(rayon::iter::repeat_n((0, 0), grows));
    }
    let parts = (threads * 4).min(previous.len() / MIN_MERGE_PART);
    // Part `k` takes `previous[bound(k)..bound(k + 1)]` and the changes below the pair at its
    // end, above those of the parts before.
    let bound = |k: usize| previous.len() * k / parts;
    let cut = |k: usize| -> [usize; 3] {
        if k == 0 {
            return [0; 3];
        }
        if k == parts {
            return [previous.len(), began.len(), ended.len()];
        }
        let at = bound(k);
        let pair = previous[at];
        [
            at,
            began.partition_point(|&b| b < pair),
            ended.partition_point(|&e| e < pair),
        ]
    };
    let groups = crate::awake::groups_for(threads, parts, 1);
    split_merge(previous, began, ended, out, (0, parts), groups, &cut);
}

/// [`merge_part`] over the parts `from .. to` (their cuts by `cut`) into `out`, which holds
/// exactly their pairs, in `groups` groups forked one after another from this thread (as
/// [`crate::awake::for_each`] hands out a pass on many threads), each in halves on rayon's
/// threads.
fn split_merge(
    previous: &[(u32, u32)],
    began: &[(u32, u32)],
    ended: &[(u32, u32)],
    out: &mut [(u32, u32)],
    (from, to): (usize, usize),
    groups: usize,
    cut: &(impl Fn(usize) -> [usize; 3] + Sync),
) {
    let ([p0, b0, e0], [p1, b1, e1]) = (cut(from), cut(to));
    if to - from == 1 {
        let mut w = 0;
        merge_part(&previous[p0..p1], &began[b0..b1], &ended[e0..e1], |run| {
            out[w..w + run.len()].copy_from_slice(run);
            w += run.len();
        });
        return;
    }
    let (mid, rest) = crate::awake::fan_split(to - from, groups);
    let mid = from + mid;
    let [pm, bm, em] = cut(mid);
    let (left, right) = out.split_at_mut((pm - p0) + (bm - b0) - (em - e0));
    crate::awake::join(
        || split_merge(previous, began, ended, left, (from, mid), rest, cut),
        || split_merge(previous, began, ended, right, (mid, to), 1, cut),
    );
}

/// `previous` without `ended` and with `began` (as for [`apply_events`]), given to `emit` a run
/// at a time: the runs of `previous` between two changes copied whole, each change found
/// by a galloping search from the last (a plain binary search over the rest cost three times as
/// much: the changes are a few percent of the answer, so most lie near the last).
fn merge_part(
    previous: &[(u32, u32)],
    began: &[(u32, u32)],
    ended: &[(u32, u32)],
    mut emit: impl FnMut(&[(u32, u32)]),
) {
    let (mut at, mut b, mut e) = (0, 0, 0);
    loop {
        let (pair, begins) = match (began.get(b), ended.get(e)) {
            (None, None) => break,
            (Some(&x), None) => (x, true),
            (None, Some(&y)) => (y, false),
            (Some(&x), Some(&y)) => {
                if x < y {
                    (x, true)
                } else {
                    (y, false)
                }
            }
        };
        let to = at + first_not_below(&previous[at..], pair);
        emit(&previous[at..to]);
        at = to;
        if begins {
            debug_assert!(previous.get(at) != Some(&pair), "a pair began twice");
            emit(&[pair]);
            b += 1;
        } else {
            debug_assert!(
                previous.get(at) == Some(&pair),
                "a pair ended that was not on"
            );
            at += 1;
            e += 1;
        }
    }
    emit(&previous[at..]);
}

/// then a binary search within the last step.
fn first_not_below(sorted: &[(u32, u32)], pair: (u32, u32)) -> usize {
    let mut end = 1;
    while end < sorted.len() && sorted[end - 1] < pair {
        end *= 2;
    }
    let (from, to) = (end / 2, end.min(sorted.len()));
    from + sorted[from..to].partition_point(|&p| p < pair)
}

#[cfg(test)]
mod tests;

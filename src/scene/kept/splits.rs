//! Splitting the kept candidate lists among the tasks that decide them: each task takes the
//! candidates of a range of first positions of its own in every list, about as many as the
//! others, and the next call starts its search where this one ended.

use super::follow::Part;
use super::tasks::Splits;
use crate::scene::candidates::PAIR_KINDS;
use rayon::prelude::*;

/// How close to its share of the candidates a split is searched: within a `SHARE`th of a
/// task. Closer does not balance the tasks better: they are several a thread, rayon's threads
/// take them as they come, and a candidate's cost varies more than a quarter of a task's
/// count does. Within a 32nd, the 63 splits of a 100 k-shape frame on sixteen threads took
/// 2.4–2.9 steps each and 0.46 ms of its work; within a 4th, 0.25 ms, and the longest task
/// of the walk was as long (sixteen threads modelled; at 1 M, 0.79 → 0.69 ms).
const SHARE: usize = 4;

/// Where `tasks` tasks split `parts` (first positions below `positions`): task `k` decides the
/// candidates from `splits[k][j]` to `splits[k + 1][j]` of each part `j` (old, new), those
/// whose first positions fall in a range of its own, about as many candidates per task.
/// Ascending in `k`, so that every candidate is decided once.
///
/// `hints` are where the last call's tasks started writing their shares of the old lists (the
/// moving ones', the mixed ones': [`Lists::shares`](super::lists::Lists::shares)): a search
/// that starts at the last call's position of boundary `k` reads each old list's count there
/// first (see [`Part::below_near`]) rather than searching the whole list for it. Searched,
/// that first step took a cache miss per probe, twenty-odd per list: 1 M shapes on sixteen
/// threads' 63 boundaries were 0.8 ms of work, 67 µs of the frame.
pub(super) fn split_parts<'s>(
    parts: &[Part<'_>; 2 * PAIR_KINDS],
    hints: [&[[(usize, usize); PAIR_KINDS]]; 2],
    positions: u32,
    tasks: usize,
    splits: &'s mut Splits,
) -> &'s [[(usize, usize); 2 * PAIR_KINDS]] {
    let total: usize = parts.iter().map(|p| p.old.len() + p.added.len()).sum();
    // The parts that hold candidates (a scene of three kinds fills a few of the lists).
    let mut full = [0usize; 2 * PAIR_KINDS];
    let mut count = 0;
    for (j, p) in parts.iter().enumerate() {
        if !p.old.is_empty() || !p.added.is_empty() {
            full[count] = j;
            count += 1;
        }
    }
    let full = &full[..count];
    // Each boundary by its own search over positions, on rayon's threads: a position below
    // which about `k / tasks` of all the candidates start, within a [`SHARE`]th of a task.
    // Each step guesses the position where the candidates between the search's bounds would
    // reach `want` if they were spread evenly, and halves the bounds instead where that guess
    // did not halve them last time; each part's count is searched between its counts at the
    // bounds. (A binary search, each step over every part's whole
    // lists, each boundary to the exact position, was 1.6 M instructions of a 100 k-shape
    // frame on 16 threads.)
    let tolerance = total / (tasks * SHARE);
    let ends = parts.map(|p| (p.old.len(), p.added.len()));
    let Splits {
        at,
        positions: mids,
        found_at,
    } = splits;
    // The last call's boundaries, where it had as many tasks: the first guesses.
    let last = &mids[..];
    let last = if last.len() + 1 == tasks { last } else { &[] };
    // Where the last call's task `k` started its share of part `j`'s old list, its count
    // below the last call's position of boundary `k`.
    let hint = |k: usize, j: usize| {
        let shares = hints[j / PAIR_KINDS];
        (shares.len() == tasks).then(|| shares[k][j % PAIR_KINDS].0)
    };
    let boundary = |k: usize| {
        let want = total * k / tasks;
        let (mut lo, mut hi) = (0u32, positions);
        let (mut lo_at, mut hi_at) = ([(0, 0); 2 * PAIR_KINDS], ends);
        let (mut lo_count, mut hi_count) = (0, total);
        let mut guess = true;
        // First the last call's position, then one as far from it as the candidates it
        // missed by would spread over the positions between its two neighbours then.
        let mut next = last.get(k - 1).copied().filter(|&m| m < positions);
        let spread = |m: u32, below: usize| {
            let before = if k >= 2 { last[k - 2] } else { 0 };
            let after = last.get(k).copied().unwrap_or(positions);
            let per = f64::from(after.saturating_sub(before)) / (2 * total / tasks).max(1) as f64;
            let shift = (want as f64 - below as f64) * per;
            (f64::from(m) + shift.abs().max(1.0).copysign(shift)) as u32
        };
        let mut first = next.is_some();
        while lo < hi {
            let mid = if let Some(m) = next.take() {
                m.clamp(lo, hi - 1)
            } else if guess && hi_count > lo_count {
                let share =
                    (want - lo_count) as u64 * u64::from(hi - lo) / (hi_count - lo_count) as u64;
                lo + (share as u32).min(hi - lo - 1)
            } else {
                lo + (hi - lo) / 2
            };
            let mut at = lo_at;
            let mut below = 0;
            for &j in full {
                at[j] = match hint(k, j).filter(|_| first) {
                    Some(h) => parts[j].below_near(mid, lo_at[j], hi_at[j], h),
                    None => parts[j].below_within(mid, lo_at[j], hi_at[j]),
                };
                below += at[j].0 + at[j].1;
            }
            if below.abs_diff(want) <= tolerance {
                return (at, mid);
            }
            let width = hi - lo;
            if below < want {
                (lo, lo_at, lo_count) = (mid + 1, at, below);
            } else {
                (hi, hi_at, hi_count) = (mid, at, below);
            }
            guess = hi - lo <= width / 2;
            if core::mem::take(&mut first) {
                (next, guess) = (Some(spread(mid, below)), true);
            }
        }
        (hi_at, hi)
    };
    // Handed out as the frame's passes are (one group a thread on many threads).
    found_at.resize(tasks.saturating_sub(1), Default::default());
    let each = found_at.par_iter_mut().enumerate();
    crate::awake::for_each(each, |(k, found)| *found = boundary(k + 1));
    mids.clear();
    mids.extend(found_at.iter().map(|&(_, mid)| mid));
    at.clear();
    at.push([(0, 0); 2 * PAIR_KINDS]);
    at.extend(found_at.iter().map(|&(s, _)| s));
    // Ascending in `k`, whatever the rounding of `want`.
    for k in 1..tasks {
        let last = at[k - 1];
        for (j, s) in at[k].iter_mut().enumerate() {
            *s = (s.0.max(last[j].0), s.1.max(last[j].1));
        }
    }
    at.push(parts.map(|p| (p.old.len(), p.added.len())));
    at
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Xorshift;

    /// Lists of three kinds (one also with new candidates to merge in, one empty), first
    /// positions repeating a few times each, spread evenly or crowded towards the start and
    /// into two runs of positions, split for 1 to 100 tasks: the splits run from the lists'
    /// starts to their ends, ascending; each falls at one first position in every list, and
    /// leaves its share of the candidates within a [`SHARE`]th of a task, or the candidates
    /// of that one position. Each split is searched twice in a row, the second time from the
    /// first's positions, and falls where it fell; the crowded lists are searched from the
    /// even ones' positions, and the other way round.
    #[test]
    fn splits_fall_at_one_position_in_every_list_and_share_the_candidates() {
        let mut splits = Splits::default();
        for crowded in [false, true, false] {
            split_lists(crowded, &mut splits);
        }
    }

    /// Hints as the last call's tasks would have left them where its splits were `at`: each
    /// task's share of every old list starting at its split, moved by `shift`.
    fn shares_at(
        at: &[[(usize, usize); 2 * PAIR_KINDS]],
        shift: isize,
    ) -> [Vec<[(usize, usize); PAIR_KINDS]>; 2] {
        let tasks = &at[..at.len() - 1];
        core::array::from_fn(|set| {
            let start = |s: &[(usize, usize); 2 * PAIR_KINDS], j: usize| {
                (s[set * PAIR_KINDS + j].0.saturating_add_signed(shift), 0)
            };
            (tasks.iter())
                .map(|s| core::array::from_fn(|j| start(s, j)))
                .collect()
        })
    }

    fn split_lists(crowded: bool, splits: &mut Splits) {
        let mut rng = Xorshift::new(0x9e37_79b9);
        let mut next = |m: u32| rng.below(m);
        let positions = 5000;
        // Crowded: a tenth of the candidates in the first 1.25 % of the positions, none from
        // 1000 to 4000.
        let at = |x: u32| match (crowded, x < 2000) {
            (false, _) => x,
            (true, true) => x * x / 4000,
            (true, false) => 4000 + (x - 2000) / 3,
        };
        let mut list = |len: usize| {
            let mut l: Vec<(u32, u32)> = (0..len).map(|_| (at(next(positions)), next(9))).collect();
            l.sort_unstable();
            l
        };
        let (a, b, c) = (list(20_000), list(3_000), list(7_000));
        let added = list(500);
        let mut parts = [Part {
            kind: 0,
            old: &[],
            added: &[],
            follow: None,
            touched: &[],
        }; 2 * PAIR_KINDS];
        parts[0].old = &a;
        parts[2].old = &b;
        parts[2].added = &added;
        parts[PAIR_KINDS + 1].old = &c;
        let total = a.len() + b.len() + c.len() + added.len();
        // The most candidates of one first position, over all the lists.
        let mut at_one = vec![0usize; positions as usize];
        for l in [&a, &b, &c, &added] {
            for x in l.iter() {
                at_one[x.0 as usize] += 1;
            }
        }
        let most = *at_one.iter().max().unwrap();
        let mut prev = None;
        for tasks in [1, 2, 3, 8, 8, 16, 64, 64, 100] {
            let (again, last) = (prev == Some(tasks), splits.at.clone());
            prev = Some(tasks);
            if again {
                // The last splits' old counts as the hints (where the last call's tasks
                // started their shares), then hints off by one either way or out of the
                // lists, then none: each search falls where the last one fell.
                let mids = splits.positions.clone();
                for shift in [0isize, -1, 1, 1 << 20] {
                    let shares = shares_at(&last, shift);
                    let s = split_parts(&parts, [&shares[0], &shares[1]], positions, tasks, splits);
                    assert_eq!(s, last, "{tasks} tasks, hints off by {shift}");
                    assert_eq!(splits.positions, mids);
                }
            }
            let s = split_parts(&parts, [&[], &[]], positions, tasks, splits);
            if again {
                assert_eq!(s, last, "{tasks} tasks, searched from the last splits");
            }
            assert_eq!(s.len(), tasks + 1);
            assert_eq!(s[0], [(0, 0); 2 * PAIR_KINDS]);
            assert_eq!(s[tasks], parts.map(|p| (p.old.len(), p.added.len())));
            for k in 1..tasks {
                let (before, split) = (s[k - 1], s[k]);
                let mut count = 0;
                // The largest first position before the split and the least after it.
                let (mut last, mut first) = (None, None);
                for (j, p) in parts.iter().enumerate() {
                    let (o, n) = split[j];
                    assert!(
                        o >= before[j].0 && n >= before[j].1,
                        "{tasks} tasks: ascending"
                    );
                    count += o + n;
                    for (l, i) in [(p.old, o), (p.added, n)] {
                        last = last.max(i.checked_sub(1).map(|i| l[i].0));
                        first = match (first, l.get(i)) {
                            (Some(f), Some(c)) => Some(c.0.min(f)),
                            (f, c) => f.or(c.map(|c| c.0)),
                        };
                    }
                }
                if let (Some(last), Some(first)) = (last, first) {
                    assert!(last < first, "{tasks} tasks, split {k}: one position");
                }
                let want = total * k / tasks;
                assert!(
                    count.abs_diff(want) <= total / (tasks * SHARE) + most,
                    "{tasks} tasks, split {k}: {count} candidates before it, want {want}"
                );
            }
        }
    }
}

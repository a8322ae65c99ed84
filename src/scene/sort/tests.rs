//! The tests of the answers' sorting, events and cancelling.

use super::*;
use std::collections::BTreeSet;

/// A small random set of pairs from a seeded generator.
fn pairs(seed: &mut u64, n: usize, ids: u32) -> BTreeSet<(u32, u32)> {
    let mut next = || {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (*seed >> 33) as u32 % ids
    };
    (0..n)
        .map(|_| {
            let (a, b) = (next(), next());
            (a.min(b), a.max(b) + 1)
        })
        .collect()
}

#[test]
fn events_rebuild_the_answer_as_a_sort_would() {
    let mut seed = 5;
    for round in 0..200 {
        let ids = 5 + round * 7;
        let old = pairs(&mut seed, round as usize * 3, ids);
        let mut new = pairs(&mut seed, round as usize * 2, ids);
        // Most pairs go on, as from frame to frame.
        new.extend(old.iter().step_by(2));
        let (old, new): (Vec<_>, Vec<_>) = (old.into_iter().collect(), new.into_iter().collect());
        let (mut began, mut ended) = (Vec::new(), Vec::new());
        events_between(&old, &new, &mut began, &mut ended);
        let set = |v: &[(u32, u32)]| v.iter().copied().collect::<BTreeSet<_>>();
        assert_eq!(set(&began), &set(&new) - &set(&old));
        assert_eq!(set(&ended), &set(&old) - &set(&new));
        // The same pair both ended and began (dropped and found again) goes on.
        let on = &set(&old) & &set(&new);
        let common: Vec<_> = on.iter().step_by(3).copied().collect();
        let (mut b2, mut e2) = (set(&began), set(&ended));
        b2.extend(&common);
        e2.extend(&common);
        let (mut b2, mut e2): (Vec<_>, Vec<_>) =
            (b2.into_iter().collect(), e2.into_iter().collect());
        Cancel::default().cancel_common(&mut b2, &mut e2);
        assert_eq!((&b2, &e2), (&began, &ended));
        let mut out = vec![(9, 9)];
        apply_events(&old, &began, &ended, &mut out);
        assert_eq!(out, new, "round {round}");
    }
}

/// The lists the cancelling hands back hold room for the lists it was handed, however
/// many pairs cancel (they take their places as the next call's lists, which hold the
/// pairs before the cancelling), on one thread and in parts on three.
#[test]
fn the_cancelled_lists_hold_room_for_the_lists_handed_in() {
    for threads in [1, 3] {
        crate::test_pool::in_pool(threads, || {
            let mut cancel = Cancel::default();
            for len in [100, 5_000, 40_000] {
                // Nine pairs in ten in both lists.
                let a: Vec<(u32, u32)> = (0..len).map(|i| (i, i + 1)).collect();
                let b: Vec<(u32, u32)> = (0..len)
                    .map(|i| if i % 10 == 0 { (i, i + 2) } else { (i, i + 1) })
                    .collect();
                let (mut a2, mut b2) = (a.clone(), b.clone());
                cancel.cancel_common(&mut a2, &mut b2);
                assert_eq!(a2.len(), (len as usize).div_ceil(10));
                assert!(
                    a2.capacity() >= a.len() && b2.capacity() >= b.len(),
                    "{threads} threads, {len} pairs: {} and {}",
                    a2.capacity(),
                    b2.capacity()
                );
            }
        });
    }
}

#[test]
fn first_not_below_is_the_partition_point() {
    let sorted: Vec<(u32, u32)> = (0..300).map(|i| (i / 3 * 2, i % 3)).collect();
    for n in [0, 1, 2, 3, 7, 64, 300] {
        let s = &sorted[..n];
        for a in 0..202 {
            for b in 0..4 {
                let want = s.partition_point(|&p| p < (a, b));
                assert_eq!(first_not_below(s, (a, b)), want, "n {n} pair {a},{b}");
            }
        }
    }
}

/// The cancelling leaves each list's pairs not in the other, in order (lists of very
/// different lengths, pairs in both at the ends and in runs, one list empty, both equal),
/// with new buffers and with those it kept from the call before, on one thread and in
/// parts on two, three and sixteen.
#[test]
fn cancelling_leaves_each_list_less_the_other() {
    let mut seed = 23;
    let base: Vec<_> = pairs(&mut seed, 60_000, 1 << 18).into_iter().collect();
    let other: Vec<_> = pairs(&mut seed, 9_000, 1 << 18).into_iter().collect();
    let both: BTreeSet<_> = base.iter().step_by(7).copied().collect();
    let a: BTreeSet<_> = base.iter().step_by(2).chain(&both).copied().collect();
    let a: Vec<_> = a.into_iter().collect();
    let b: BTreeSet<_> = other
        .iter()
        .chain(&both)
        .chain([&base[0]])
        .copied()
        .collect();
    let b: Vec<_> = b.into_iter().collect();
    let cases = [
        (a.clone(), b.clone()),
        (b.clone(), a.clone()),
        (a.clone(), Vec::new()),
        (a.clone(), a.clone()),
        (a[..5_000].to_vec(), a[4_000..].to_vec()),
    ];
    let set = |v: &[(u32, u32)]| v.iter().copied().collect::<BTreeSet<_>>();
    let mut cancel = Cancel::default();
    for threads in [1, 2, 3, 16] {
        let pool = crate::test_pool::pool(threads);
        for round in 0..2 {
            for (c, (x, y)) in cases.iter().enumerate() {
                let want_x: Vec<_> = (&set(x) - &set(y)).into_iter().collect();
                let want_y: Vec<_> = (&set(y) - &set(x)).into_iter().collect();
                let (mut got_x, mut got_y) = (x.clone(), y.clone());
                pool.install(|| cancel.cancel_common(&mut got_x, &mut got_y));
                assert!(
                    got_x == want_x && got_y == want_y,
                    "case {c}, round {round}, {threads} threads"
                );
            }
        }
    }
}

/// Split into parts, the cancelling's chunks serve every later call of as many pairs: a call
/// that cancels every pair and then one that cancels none, on lists of the same lengths and
/// cuts, make no chunk in the second (each part's buffers, grown by what they found, grew in
/// the second, an allocation in a steady frame loop), and every part holds one chunk after
/// each (its full ones given back).
#[test]
fn cancelling_in_parts_makes_no_chunk_once_it_has_room() {
    let a: Vec<(u32, u32)> = (0..6_000).map(|i| (i / 3, 2 * i)).collect();
    let b: Vec<(u32, u32)> = a.iter().map(|&(p, q)| (p, q + 1)).collect();
    for threads in [2, 3, 16] {
        let mut cancel = Cancel::default();
        let (mut x, mut y) = (a.clone(), a.clone());
        crate::test_pool::in_pool(threads, || cancel.cancel_common(&mut x, &mut y));
        assert!(x.is_empty() && y.is_empty(), "{threads} threads");
        let made = cancel.events.made();
        assert!(made >= 2, "{threads} threads: split");
        let (mut x, mut y) = (a.clone(), b.clone());
        crate::test_pool::in_pool(threads, || cancel.cancel_common(&mut x, &mut y));
        assert!(x == a && y == b, "{threads} threads");
        assert_eq!(cancel.events.made(), made, "{threads} threads: chunks");
        let held = cancel.events.parts.iter().flatten().map(Chunked::held);
        assert!(held.into_iter().all(|h| h == 1), "{threads} threads");
    }
}

/// The pairs left by a cancelling in parts move between the parts from call to call: once
/// its pool held the chunks for a call's pairs, a call of as many pairs in all, every one of
/// them in half of the parts (twice the busiest share before), makes no chunk (each part's
/// buffers, with room for twice the busiest part's pairs, all grew the first time one part
/// met a busier share than any before). On one thread, in one part, no chunk at all.
#[test]
fn cancelling_whose_pairs_move_between_parts_makes_no_chunk() {
    let n = 24_000;
    let a: Vec<(u32, u32)> = (0..n).map(|i| (i / 3, 2 * i)).collect();
    // Half of the pairs apart from `a`'s: every other run of three, or the first half (a
    // part's pairs are a run of both lists), or the last.
    let apart = |at: &dyn Fn(u32) -> bool| -> Vec<(u32, u32)> {
        let b = a
            .iter()
            .enumerate()
            .map(|(i, &(p, q))| (p, q + u32::from(at(i as u32))));
        b.collect()
    };
    let cases = [
        apart(&|i| (i / 3) % 2 == 0),
        apart(&|i| i < n / 2),
        apart(&|i| i >= n / 2),
        apart(&|i| (i / 3) % 2 == 1),
    ];
    let kept = |l: &[(u32, u32)], o: &[(u32, u32)]| -> Vec<(u32, u32)> {
        l.iter()
            .filter(|p| o.binary_search(p).is_err())
            .copied()
            .collect()
    };
    for threads in [1, 3, 16] {
        let mut cancel = Cancel::default();
        let mut made = None;
        for (c, b) in cases.iter().enumerate() {
            let [mut x, mut y] = [a.clone(), b.clone()];
            crate::test_pool::in_pool(threads, || cancel.cancel_common(&mut x, &mut y));
            assert_eq!(
                (x, y),
                (kept(&a, b), kept(b, &a)),
                "{threads} threads, case {c}"
            );
            let now = cancel.events.made();
            assert_eq!(*made.get_or_insert(now), now, "{threads} threads, case {c}");
        }
        assert_eq!(made == Some(0), threads == 1, "{threads} threads");
    }
}

/// On four threads the merge runs in parts (every boundary with changes on both sides,
/// changes before the first pair and after the last): the same answer as on one; and the
/// events found in parts on any number of threads are those found in one.
#[test]
fn events_apply_in_parts_as_in_one() {
    let mut seed = 17;
    let old: Vec<_> = pairs(&mut seed, 400_000, 1 << 20).into_iter().collect();
    let mut new: BTreeSet<_> = old.iter().copied().filter(|p| p.0 % 13 != 5).collect();
    new.extend(pairs(&mut seed, 20_000, 1 << 20));
    // Below the first and above the last old pair.
    new.extend([(0, 0), (u32::MAX, u32::MAX)]);
    new.remove(&old[0]);
    new.remove(&old[old.len() - 1]);
    let new: Vec<_> = new.into_iter().collect();
    let (mut began, mut ended) = (Vec::new(), Vec::new());
    events_between(&old, &new, &mut began, &mut ended);
    let mut events = Events::default();
    for threads in [1, 2, 3, 4, 16] {
        let pool = crate::test_pool::pool(threads);
        // Twice, with the buffers of the call before; and both answers empty, or one.
        for _ in 0..2 {
            let (mut b, mut e) = (vec![(1, 1)], vec![(2, 2)]);
            pool.install(|| events.between(&old, &new, &mut b, &mut e));
            assert!(b == began && e == ended, "{threads} threads");
        }
        // Also `old` beginning below `new` and ending above it (what a finder handed two
        // scenes in turn sees), and the other way round.
        let inner = &new[1..new.len() - 1];
        for (x, y) in [
            (&old[..0], &new[..]),
            (&old[..], &new[..0]),
            (&old[..0], &old[..0]),
            (&old[..], inner),
            (inner, &old[..]),
        ] {
            let [mut b, mut e, mut want_b, mut want_e]: [Vec<(u32, u32)>; 4] = Default::default();
            events_between(x, y, &mut want_b, &mut want_e);
            pool.install(|| events.between(x, y, &mut b, &mut e));
            assert!(b == want_b && e == want_e, "{threads} threads");
        }
    }
    // Into buffers that hold junk: none, a few pairs, as many as the answer, more, a
    // few fewer (the room written on this thread) and many fewer (on the threads).
    let junk = |len: usize| (0..len as u32).map(|i| (i, i)).collect::<Vec<_>>();
    for threads in [1, 2, 4, 16] {
        for len in [0, 3, new.len(), new.len() + 5_000, new.len() - 100, 4_000] {
            let mut out = junk(len);
            crate::test_pool::in_pool(threads, || {
                apply_events(&old, &began, &ended, &mut out);
            });
            assert!(out == new, "{threads} threads, {len} pairs before");
        }
    }
}

/// The merge's cut of two lists at every count: the counts add up (one more where a pair in
/// both would be parted), grow with the count, part no pair in both, and leave every pair
/// of one side below every pair of the other (lists that interleave, that share runs and
/// ends, one empty, one all below the other, equal).
#[test]
fn the_co_rank_cuts_the_merge_with_equal_pairs_together() {
    let mut seed = 31;
    let a: Vec<_> = pairs(&mut seed, 300, 64).into_iter().collect();
    let b: Vec<_> = pairs(&mut seed, 200, 64).into_iter().collect();
    let high: Vec<_> = a.iter().map(|&(p, q)| (p + 100, q + 100)).collect();
    let cases = [
        (a.clone(), b.clone()),
        (b.clone(), a.clone()),
        (a.clone(), Vec::new()),
        (Vec::new(), a.clone()),
        (a.clone(), a.clone()),
        (a.clone(), high.clone()),
        (high, a.clone()),
        (a[..50].to_vec(), a[20..].to_vec()),
    ];
    for (c, (old, new)) in cases.iter().enumerate() {
        let mut last = (0, 0);
        for d in 0..=old.len() + new.len() {
            let (j, i) = co_rank(old, new, d);
            assert!(j <= new.len() && i <= old.len(), "case {c}, {d}");
            assert!(i + j == d || i + j == d + 1, "case {c}, {d}: {i} + {j}");
            assert!(j >= last.0 && i >= last.1, "case {c}, {d}: not monotone");
            last = (j, i);
            let left = old[..i].iter().chain(&new[..j]).max();
            let right = old[i..].iter().chain(&new[j..]).min();
            if let (Some(l), Some(r)) = (left, right) {
                assert!(l < r, "case {c}, {d}: {l:?} left of {r:?}");
            }
        }
        assert_eq!(last, (new.len(), old.len()), "case {c}");
    }
}

/// A cancelling of a few pairs against many, on sixteen threads, cuts the two lists into
/// parts of as many pairs each: cut where the few were shared evenly, ten parts each held a
/// tenth of the many. The answer is the one a merge on one thread finds.
#[test]
fn cancelling_few_against_many_cuts_even_shares() {
    let many: Vec<(u32, u32)> = (0..60_000).map(|i| (i / 4, 2 * i)).collect();
    // None in both (odd second positions).
    let few: Vec<(u32, u32)> = many
        .iter()
        .step_by(6_000)
        .map(|&(p, q)| (p, q + 1))
        .collect();
    for (x, y) in [(&few, &many), (&many, &few)] {
        let mut cancel = Cancel::default();
        let (mut got_x, mut got_y) = (x.clone(), y.clone());
        crate::test_pool::in_pool(16, || cancel.cancel_common(&mut got_x, &mut got_y));
        assert!(got_x == *x && got_y == *y);
        let share = (x.len() + y.len()).div_ceil(16) + 1;
        let cuts = &cancel.events.cuts;
        assert_eq!(cuts.len(), 17);
        for w in cuts.windows(2) {
            let pairs = (w[1].0 - w[0].0) + (w[1].1 - w[0].1);
            assert!(pairs <= share, "{pairs} pairs in a part, {share} a share");
        }
    }
}

/// The events between an empty answer and another (a finder's first, a scene emptied) are
/// the other's pairs, every one begun or ended, copied without a part: found in parts, a
/// first answer of 63 k pairs on sixteen threads gave three parts a third each, and every
/// part's buffers, both lists of sixteen parts, took room for twice that (17 MB). No chunk
/// is made.
#[test]
fn events_from_nothing_take_no_part() {
    let mut seed = 41;
    let answer: Vec<_> = pairs(&mut seed, 60_000, 1 << 18).into_iter().collect();
    for threads in [2, 16] {
        let mut events = Events::default();
        for (old, new) in [(&[][..], &answer[..]), (&answer[..], &[][..])] {
            let (mut b, mut e) = (vec![(1, 1)], vec![(2, 2)]);
            crate::test_pool::in_pool(threads, || events.between(old, new, &mut b, &mut e));
            assert!(b == new && e == old, "{threads} threads");
        }
        assert_eq!(events.made(), 0, "{threads} threads");
    }
}

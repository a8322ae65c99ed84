//! The radix sort's tests: every size threshold, bit width and shape of list, on any thread
//! count.

use super::*;

/// `sort_unstable`'s order from `sort` and `sort_sparse` (in place, and from a source), on 1,
/// 2, 3 and 16 threads, around every size threshold (the comparison sort, one group, the
/// single thread), with
/// ids of few bits, of many and of all 32 (0 and `u32::MAX` included), lists where every
/// pair has the same first id (one top digit holds them all), where all pairs are one,
/// sorted and reversed lists, pairs repeated, runs of one first id of about
/// [`SHORT_RUN`] pairs and one of thousands among runs of one, their second ids out of
/// order; one sort's buffers reused over all of them. Given their bounds, or bounds as
/// wide as can be, the same.
#[test]
fn radix_sort_is_a_sort_on_any_thread_count() {
    let mut rng = crate::test_rng::Xorshift::new(11);
    let mut next = |below: u64| (u64::from(rng.bits()) % below) as u32;
    let mut cases: Vec<Vec<(u32, u32)>> = Vec::new();
    for n in [
        SMALL - 1,
        SMALL,
        LOCAL,
        LOCAL + 1,
        MIN_PARALLEL - 1,
        MIN_PARALLEL,
        MIN_PARALLEL + 1,
        19_000,
        MIN_PARALLEL_TWO - 1,
        MIN_PARALLEL_TWO,
        100_000,
        300_000,
    ] {
        for below in [1 << 12, 1 << 20, 1 << 32] {
            cases.push((0..n).map(|_| (next(below), next(below))).collect());
        }
    }
    let mut edges: Vec<(u32, u32)> = (0..70_000).map(|_| (7, next(1 << 32))).collect();
    edges.extend([(0, 0), (u32::MAX, u32::MAX), (0, u32::MAX), (u32::MAX, 0)]);
    cases.push(edges);
    cases.push(vec![(5, 9); 40_000]);
    cases.push((0..50_000).map(|i| (i / 3, i)).collect());
    cases.push((0..50_000).rev().map(|i| (i, i / 7)).collect());
    let twice: Vec<_> = (0..30_000)
        .map(|_| (next(1 << 16), next(1 << 16)))
        .collect();
    cases.push(twice.iter().chain(&twice).copied().collect());
    // Merged halves (two threads) with ties between them: the same pairs in both
    // halves, one pair throughout, one half's all below the other's, and one first id
    // throughout.
    let tied: Vec<_> = (0..10_000).map(|_| (next(1 << 10), next(1 << 4))).collect();
    cases.push(tied.iter().chain(&tied).copied().collect());
    cases.push(vec![(5, 9); 20_000]);
    cases.push((0..20_000).rev().map(|i| (i, 0)).collect());
    cases.push((0..20_001).map(|i| (3, (i * 7919) % 20_001)).collect());
    // Runs of one first id about as long as sorted by insertion and one longer, their
    // second ids descending; a first id with thousands of pairs among firsts with one.
    for len in [SHORT_RUN - 1, SHORT_RUN, SHORT_RUN + 1] {
        let run = |i: usize| ((i / len) as u32, (len - i % len) as u32 * 977);
        cases.push((0..len * 900).map(run).collect());
    }
    let mut heavy: Vec<_> = (0..30_000).map(|i| (i * 2, next(1 << 20))).collect();
    heavy.extend((0..5000).map(|_| (20_001, next(1 << 20))));
    cases.push(heavy);
    for threads in [1, 2, 3, 16] {
        let pool = crate::test_pool::pool(threads);
        let mut sort = RadixSort::default();
        for (c, input) in cases.iter().enumerate() {
            let mut want = input.clone();
            want.sort_unstable();
            let (exact, wide) = (Some(bounds(input)), Some((0, u32::MAX, u32::MAX)));
            for (sparse, known) in [(false, None), (true, None), (true, exact), (false, wide)] {
                let mut got = input.clone();
                pool.install(|| sort.sort_as(&mut got, IN_PLACE, sparse, known, u32::MAX));
                assert!(
                    got == want,
                    "case {c} ({} pairs), {threads} threads, sparse: {sparse}, {known:?}",
                    input.len()
                );
            }
            // Read from the input where it lies, into a list of other pairs.
            let mut got = vec![(u32::MAX, 1); input.len()];
            pool.install(|| sort.sort_as(&mut got, Some(&input[..]), true, exact, u32::MAX));
            assert!(got == want, "case {c} from a source, {threads} threads");
        }
    }
}

/// Pairs tagged with one of a few kinds above their first ids' bits, sorted within bounds as
/// wide as the tags make them and written back without the tags: each kind's pairs one run
/// after another, ascending, on any thread count and at every size threshold.
#[test]
fn tagged_pairs_come_out_as_runs_of_each_kind_without_their_tags() {
    let mut rng = crate::test_rng::Xorshift::new(0x2545_f491);
    let bits = 17;
    for n in [SMALL - 1, LOCAL + 1, MIN_PARALLEL_TWO + 1, 100_000] {
        let pairs: Vec<(u32, u32, u32)> = (0..n)
            .map(|_| (rng.below(5) + 1, rng.below(100_000), rng.below(100_000)))
            .collect();
        let mut want = pairs.clone();
        want.sort_unstable();
        let want: Vec<_> = want.into_iter().map(|(_, a, b)| (a, b)).collect();
        let tagged: Vec<_> = pairs.iter().map(|&(k, a, b)| (k << bits | a, b)).collect();
        let bounds = (1 << bits, 6 << bits, 99_999);
        for threads in [1, 2, 3, 16] {
            // In place, and read from a source into a list holding other pairs.
            let mut got = tagged.clone();
            let mut from = vec![(u32::MAX, 7); n];
            crate::test_pool::in_pool(threads, || {
                let mut sort = RadixSort::default();
                sort.sort_sparse_from(&mut got, IN_PLACE, bounds, (1 << bits) - 1);
                sort.sort_sparse_from(&mut from, Some(&tagged[..]), bounds, (1 << bits) - 1);
            });
            assert!(got == want, "{n} pairs, {threads} threads");
            assert!(from == want, "{n} pairs from a source, {threads} threads");
        }
    }
}

/// A sort whose top digit is a bit wider than the last one's (twice the pairs, on four
/// threads) finds room for it in the counters and the digits' totals: they grew, where they
/// must, for twice the digits. (Grown to exactly each call's digits, the sorts of a frame
/// loop's began pairs, swinging around a power of two, grew them now and then.)
#[test]
fn a_digit_wider_takes_no_new_room() {
    let mut rng = crate::test_rng::Xorshift::new(5);
    let pool = crate::test_pool::pool(4);
    let mut sort = RadixSort::default();
    let rooms = |s: &RadixSort| (s.counts.capacity(), s.totals.capacity());
    let mut held = None;
    for n in [20_000, 40_000] {
        let mut pairs: Vec<(u32, u32)> = (0..n).map(|_| (rng.bits(), rng.bits())).collect();
        let mut want = pairs.clone();
        want.sort_unstable();
        pool.install(|| sort.sort_sparse(&mut pairs));
        assert!(pairs == want, "{n} pairs sorted");
        let (counts, totals) = rooms(&sort);
        assert!(
            counts > 0 && totals > 0,
            "{n} pairs: split by the top digit"
        );
        assert_eq!(
            held.unwrap_or((counts, totals)),
            (counts, totals),
            "{n} pairs"
        );
        held = Some((counts, totals));
    }
}

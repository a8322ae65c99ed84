//! The radix sort of the scene's pair lists (the answer, the escapers' cells and candidates,
//! the began and ended pairs): pairs ascending, in four to six parallel passes whatever their
//! count.
//!
//! Each pair becomes one number that orders as the pair does (its first id less the smallest,
//! above its second id). The first passes split the numbers by their top digit (a count per
//! task, then a scatter per task into each digit's place); the digits are then dealt out in
//! groups of about equal size, and each group is sorted on its own, least significant digit
//! first, where it lies (a group fits in a core's cache), and written back as pairs. So a sort
//! costs four fork-joins (the bounds, unless the caller knows them; the count, the scatter, the
//! groups; two more for the top digits' places where they are many) however many digits its
//! numbers have, and every pass but the first two reads and writes in cache: a
//! least-significant-digit sort over the whole list took two fork-joins a digit and
//! scattered every digit across all of memory.
//!
//! On two threads a list too short for that split to pay (4–32 k pairs) is sorted as two
//! halves, one a thread, each as one group in its cache, and merged by both threads, each
//! writing half of the list.
//!
//! The pairs may come from elsewhere than the list they are sorted into ([`Source`]): the count
//! by the top digit then reads them where they lie, and only a sort that does not split copies
//! them into the list first.
//!
//! For lists in which few first ids repeat (an escaper's new candidates, the pairs that began
//! or ended: `sort_sparse`), the digits order only the first ids, and one pass more sorts the
//! few pairs of each first id by insertion: about half the digits' passes saved.

use crate::room::{swinging, with_room};
use crate::tasks::task_count;
use core::ops::Range;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};

mod source;
pub(crate) use source::Source;

/// Pairs below which a comparison sort is faster.
const SMALL: usize = 512;

/// Numbers one group sorts in cache: two arrays of them and their pairs are 384 KiB, within a
/// core's second-level cache. A list this short on one thread is one group, without the split
/// by the top digit.
const LOCAL: usize = 16 * 1024;

/// Fewest numbers a group is planned with (its passes take narrower digits the fewer it has).
const MIN_GROUP: usize = 1024;

/// Pairs below which the sort runs on one thread, on many threads: the split into groups costs
/// about two thirds more work than one group sorted whole, so it pays from three threads on;
/// on fewer, below [`MIN_PARALLEL_TWO`].
const MIN_PARALLEL: usize = 4 * 1024;

/// Pairs below which the sort does not split by the top digit when rayon has two threads:
/// split on two threads, 28 k pairs took 317–522 µs against 320–389 on one, 63 k 413–451
/// against 610–801. From [`MIN_PARALLEL`] up to this (twice [`LOCAL`]), two threads sort a
/// half each in cache and merge them (see [`halves`]).
const MIN_PARALLEL_TWO: usize = 2 * LOCAL;

/// Fewest top digits a task of the passes by digit takes.
const MIN_DIGITS: usize = 512;

/// Widest digit: 4096 counters (16 KiB), which stay in the first-level cache.
const DIGIT: u32 = 12;

/// The sort's buffers, kept from call to call.
#[derive(Debug, Default)]
pub(crate) struct RadixSort {
    keys: Vec<AtomicU64>,
    tmp: Vec<AtomicU64>,
    /// A count per task and top digit, then each task's place for each digit (shared by the
    /// tasks of the passes by digit, each writing its own digits of every task's counts).
    counts: Vec<AtomicU32>,
    /// Per top digit, how many numbers have it, then where its numbers start.
    totals: Vec<u32>,
    /// Each group's first top digit and first number, and the end of both.
    groups: Vec<(usize, usize)>,
}

/// How the pairs map to numbers: `(a - min_a) << low | b`; the bits below `runs` that a
/// group's sort leaves to its runs (see [`sort_local`]: `low` for
/// [`sort_sparse`](RadixSort::sort_sparse), else none); the bits of a first id written back.
#[derive(Clone, Copy)]
struct Layout {
    min_a: u32,
    low: u32,
    bits: u32,
    runs: u32,
    first: u32,
}

impl Layout {
    /// The layout of pairs with these bounds, its runs sorted on their own where `sparse`.
    fn of((min_a, max_a, max_b): (u32, u32, u32), sparse: bool, first: u32) -> Self {
        let bits_of = |m: u32| u32::BITS - m.leading_zeros();
        let low = bits_of(max_b);
        Self {
            min_a,
            low,
            bits: bits_of(max_a - min_a) + low,
            runs: if sparse { low } else { 0 },
            first,
        }
    }

    #[inline(always)]
    fn key(self, (a, b): (u32, u32)) -> u64 {
        u64::from(a - self.min_a) << self.low | u64::from(b)
    }

    #[inline(always)]
    fn pair(self, k: u64) -> (u32, u32) {
        (
            ((k >> self.low) as u32 + self.min_a) & self.first,
            (k & ((1u64 << self.low) - 1)) as u32,
        )
    }
}

/// No source: the pairs lie in the list sorted.
const IN_PLACE: Option<&[(u32, u32)]> = None;

/// The smallest first id, the largest first id and the largest second id of `pairs`.
fn bounds(pairs: &[(u32, u32)]) -> (u32, u32, u32) {
    pairs.iter().fold((u32::MAX, 0, 0), |(lo, a, b), &(x, y)| {
        (lo.min(x), a.max(x), b.max(y))
    })
}

impl RadixSort {
    /// Room to sort `n` pairs, half again as many and 64 where it must grow: for a sort of a
    /// list whose length swings (the pairs that began or ended, which come in waves), whose
    /// keys otherwise took an eighth more the first time and met new highs now and then.
    pub(crate) fn reserve_swinging(&mut self, n: usize) {
        self.room_for_keys(n, swinging(n));
    }

    /// Both key buffers hold `n` keys, grown to `room` where they hold fewer.
    fn room_for_keys(&mut self, n: usize, room: usize) {
        for keys in [&mut self.keys, &mut self.tmp] {
            if keys.len() < n {
                keys.resize_with(room, AtomicU64::default);
            }
        }
    }

    /// Sorts `out` ascending (a comparison sort for short lists). The same order on any
    /// number of threads: the numbers are distinct where the pairs are.
    pub(crate) fn sort(&mut self, out: &mut [(u32, u32)]) {
        self.sort_as(out, IN_PLACE, false, None, u32::MAX);
    }

    /// [`sort`](Self::sort) for lists in which few first ids hold more than one pair (the
    /// pairs an escaper found, the pairs that began or ended): the digits only order the
    /// first ids, and one pass over the numbers sorts each run of one first id on its own
    /// (see [`sort_local`]). The same order as `sort`, faster where most runs are one pair
    /// (14.7 k pairs shaped like a 100 k kept frame's new candidates: 59 µs rather than 84
    /// on an Intel Xeon), slower where many are a few pairs out of order (a search's answer
    /// at 100 k shapes: 0.87 ms rather than 0.51; each run's branches are mispredicted).
    pub(crate) fn sort_sparse(&mut self, out: &mut [(u32, u32)]) {
        self.sort_as(out, IN_PLACE, true, None, u32::MAX);
    }

    /// [`sort_sparse`](Self::sort_sparse) of pairs the caller knows to lie within `bounds`
    /// (the least first id, the largest first id, the largest second id: a pair outside
    /// them would be out of order), no pass over the pairs finding them (on many threads a
    /// fork and join of its own); each first id written back as its bits in `first` (a
    /// caller's tag above them dropped, say). The pairs are those of `src` (as many as `out` is
    /// long), read where they lie (see [`Source`]), or with `None`, those of `out`.
    pub(crate) fn sort_sparse_from<S: Source + ?Sized>(
        &mut self,
        out: &mut [(u32, u32)],
        src: Option<&S>,
        bounds: (u32, u32, u32),
        first: u32,
    ) {
        if cfg!(debug_assertions) {
            let within = |(a, b): (u32, u32)| (bounds.0..=bounds.1).contains(&a) && b <= bounds.2;
            let mut all = true;
            match src {
                Some(src) => src.each(0..out.len(), |p| all &= within(p)),
                None => all = out.iter().all(|&p| within(p)),
            }
            debug_assert!(all, "a pair outside the bounds given");
        }
        self.sort_as(out, src, true, Some(bounds), first);
    }

    /// [`sort`](Self::sort), or [`sort_sparse`](Self::sort_sparse) where `sparse`; within
    /// `known` bounds where given, each first id written back as its bits in `first`; the
    /// pairs read from `src` where given (then `known` must be), else from `out`.
    fn sort_as<S: Source + ?Sized>(
        &mut self,
        out: &mut [(u32, u32)],
        src: Option<&S>,
        sparse: bool,
        known: Option<(u32, u32, u32)>,
        first: u32,
    ) {
        let n = out.len();
        // Every path but the split by the top digit reads the pairs from `out`.
        let copied = |out: &mut [(u32, u32)]| {
            if let Some(src) = src {
                src.copy_into(out);
            }
        };
        if n < SMALL {
            copied(out);
            out.sort_unstable();
            out.iter_mut().for_each(|p| p.0 &= first);
            return;
        }
        let threads = rayon::current_num_threads();
        let least = if threads <= 2 {
            MIN_PARALLEL_TWO
        } else {
            MIN_PARALLEL
        };
        let tasks = if n < least {
            1
        } else {
            task_count(n, MIN_PARALLEL)
        };
        let chunk = n.div_ceil(tasks);
        debug_assert!(
            src.is_none() || known.is_some(),
            "a source's bounds are known"
        );
        let layout = Layout::of(
            if let Some(known) = known {
                known
            } else if tasks == 1 {
                bounds(out)
            } else {
                crate::awake::map_reduce(
                    out.par_chunks(chunk),
                    || (u32::MAX, 0, 0),
                    bounds,
                    |(l, a, b), (x, y, z)| (l.min(x), a.max(y), b.max(z)),
                )
            },
            sparse,
            first,
        );
        // Each with room for a few more keys than this call's, where it grows (the began
        // pairs of a frame loop whose shapes barely move, a few dozen, grew now and then).
        self.room_for_keys(n, with_room(n));
        let (keys, tmp) = (&self.keys[..n], &self.tmp[..n]);
        if tasks == 1
            && n >= MIN_PARALLEL
            && threads == 2
            && rayon::current_thread_index().is_some()
        {
            copied(out);
            halves(out, (keys, tmp), layout);
            return;
        }
        if tasks == 1 && n <= LOCAL {
            copied(out);
            let sorted = sort_part(out, (keys, tmp), layout);
            write_back(out, sorted, layout);
            return;
        }
        // The split by the top digit, counted by as many tasks as threads (each task's
        // counters are summed in turn for every digit: at most a quarter as many counters as
        // numbers, and enough digits for the groups to come out even).
        let counters = tasks.min(threads);
        let chunk = n.div_ceil(counters);
        // A counter row for each chunk of the numbers, exactly: each row is zeroed by its own
        // chunk's task, so that no row outlives a longer sort's counts.
        let counters = n.div_ceil(chunk);
        let groups = (n / MIN_GROUP).clamp(1, 2 * tasks).max(n.div_ceil(LOCAL));
        let bits_of = |m: usize| usize::BITS - m.leading_zeros();
        let top = bits_of(n / (4 * counters))
            .max(bits_of(8 * groups))
            .min(DIGIT)
            .min(layout.bits);
        let (shift, digits) = (layout.bits - top, 1usize << top);
        // Room for twice the digits on every thread where they must grow: the top digit
        // follows the number sorted across powers of two (began pairs swinging around one).
        let room = (2 * digits).min(1 << DIGIT);
        if self.counts.len() < counters * digits {
            (self.counts).resize_with(counters.max(threads) * room, AtomicU32::default);
        }
        if self.totals.capacity() < digits {
            self.totals.reserve_exact(room - self.totals.len());
        }
        let counts = &self.counts[..counters * digits];
        let rows = (counts.par_chunks(digits))
            .zip(keys.par_chunks(chunk))
            .zip(out.par_chunks(chunk))
            .enumerate();
        crate::awake::for_each(rows, |(j, ((counts, keys), pairs))| {
            counts.iter().for_each(|c| c.store(0, Relaxed));
            let mut keys = keys.iter();
            let count = |p| {
                let key = layout.key(p);
                let k = keys.next().expect("a source gives a pair per position");
                k.store(key, Relaxed);
                let c = &counts[(key >> shift) as usize];
                c.store(c.load(Relaxed) + 1, Relaxed);
            };
            match src {
                Some(src) => src.each(j * chunk..j * chunk + pairs.len(), count),
                None => pairs.iter().copied().for_each(count),
            }
            debug_assert!(keys.next().is_none(), "a source gives a pair per position");
        });
        // Each task's place for each digit, and the groups: a new one at the first digit
        // that starts at or past its share of the numbers. The counts summed and turned into
        // places by ranges of digits on rayon's threads (in one pass over the digits, a
        // counter each, they were a quarter as many steps on one thread as the numbers).
        self.totals.resize(digits, 0);
        let by_digits = digits.div_ceil(counters).max(MIN_DIGITS);
        let ranges = self.totals.par_chunks_mut(by_digits).enumerate();
        crate::awake::for_each(ranges, |(c, totals)| {
            for (d, t) in (c * by_digits..).zip(totals) {
                *t = (0..counters)
                    .map(|j| counts[j * digits + d].load(Relaxed))
                    .sum();
            }
        });
        self.groups.clear();
        let mut sum = 0;
        for (d, t) in self.totals.iter_mut().enumerate() {
            if sum * groups >= self.groups.len() * n {
                self.groups.push((d, sum));
            }
            (*t, sum) = (sum as u32, sum + *t as usize);
        }
        self.groups.push((digits, n));
        let ranges = self.totals.par_chunks(by_digits).enumerate();
        crate::awake::for_each(ranges, |(c, starts)| {
            for (d, &start) in (c * by_digits..).zip(starts) {
                let mut place = start;
                for j in 0..counters {
                    let c = &counts[j * digits + d];
                    let count = c.load(Relaxed);
                    c.store(place, Relaxed);
                    place += count;
                }
            }
        });
        let rows = counts.par_chunks(digits).zip(keys.par_chunks(chunk));
        crate::awake::for_each(rows, |(places, keys)| {
            for k in keys {
                let k = k.load(Relaxed);
                let place = &places[(k >> shift) as usize];
                let at = place.load(Relaxed);
                tmp[at as usize].store(k, Relaxed);
                place.store(at + 1, Relaxed);
            }
        });
        // Each group sorted where it lies, on the numbers less its first digit's.
        sort_groups(out, &self.groups, &|out, (d0, s0), (d1, s1)| {
            // Below `(d1 - d0) << shift`: `shift` bits and those of the last digit's offset.
            let bits = shift + bits_of(d1 - d0 - 1);
            let sorted = sort_local(
                &tmp[s0..s1],
                &keys[s0..s1],
                (d0 as u64) << shift,
                bits,
                layout.runs,
            );
            write_back(out, sorted, layout);
        });
    }
}

/// Sorts `out` (at most twice [`LOCAL`] pairs) on two threads: each sorts a half in its cache,
/// least significant digit first, and then each writes half of the merged list, from where
/// the two halves' first `n / 2` numbers end. (The split by the top digit costs about two
/// thirds more work than one group and lost to one thread at this size: the 16.8 k new
/// candidates of a 100 k-shape kept frame, a mean, took 199 µs of its 560 µs of queries on
/// two threads, 225 on one; as halves, 170–177.)
fn halves(out: &mut [(u32, u32)], (keys, tmp): (&[AtomicU64], &[AtomicU64]), layout: Layout) {
    let half = out.len() / 2;
    let ((keys_a, keys_b), (tmp_a, tmp_b)) = (keys.split_at(half), tmp.split_at(half));
    let (pairs_a, pairs_b) = out.split_at(half);
    let (a, b) = crate::awake::join(
        || sort_part(pairs_a, (keys_a, tmp_a), layout),
        || sort_part(pairs_b, (keys_b, tmp_b), layout),
    );
    let i = merge_split(a, b, half);
    let (first, second) = out.split_at_mut(half);
    crate::awake::join(
        || merge(&a[..i], &b[..half - i], first, layout),
        || merge(&a[i..], &b[half - i..], second, layout),
    );
}

/// The numbers of `pairs` sorted in `keys` and `tmp` (as long as `pairs`): the one holding them.
fn sort_part<'a>(
    pairs: &[(u32, u32)],
    (keys, tmp): (&'a [AtomicU64], &'a [AtomicU64]),
    layout: Layout,
) -> &'a [AtomicU64] {
    for (k, &p) in keys.iter().zip(pairs) {
        k.store(layout.key(p), Relaxed);
    }
    sort_local(keys, tmp, 0, layout.bits, layout.runs)
}

/// How many of the first `k` numbers of the merge of the ascending `a` and `b` come from `a`
/// (`k` at most both lengths together; of equal numbers, `a`'s first).
fn merge_split(a: &[AtomicU64], b: &[AtomicU64], k: usize) -> usize {
    let (mut lo, mut hi) = (k.saturating_sub(b.len()), k.min(a.len()));
    while lo < hi {
        let mid = (lo + hi) / 2;
        // `a[mid]` comes before `b[k - mid - 1]`: more than `mid` come from `a`.
        if a[mid].load(Relaxed) <= b[k - mid - 1].load(Relaxed) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    lo
}

/// The pairs of the ascending numbers `a` and `b`, merged, into `out` (as long as both).
/// Without a branch on which comes next: the halves of a sort interleave at random.
fn merge(a: &[AtomicU64], b: &[AtomicU64], out: &mut [(u32, u32)], layout: Layout) {
    let (mut i, mut j) = (0, 0);
    let mut slots = out.iter_mut();
    while i < a.len() && j < b.len() {
        let (x, y) = (a[i].load(Relaxed), b[j].load(Relaxed));
        let from_a = x <= y;
        if let Some(slot) = slots.next() {
            *slot = layout.pair(if from_a { x } else { y });
        }
        i += usize::from(from_a);
        j += usize::from(!from_a);
    }
    for (slot, k) in slots.zip(a[i..].iter().chain(&b[j..])) {
        *slot = layout.pair(k.load(Relaxed));
    }
}

/// `each(out's part, group start, group end)` for every group of `groups` (their first digits
/// and numbers, and the end of both), each on `out`'s part where its pairs go, in halves on
/// rayon's threads.
fn sort_groups<F>(out: &mut [(u32, u32)], groups: &[(usize, usize)], each: &F)
where
    F: Fn(&mut [(u32, u32)], (usize, usize), (usize, usize)) + Sync,
{
    match groups.len() {
        0 | 1 => {}
        2 => each(out, groups[0], groups[1]),
        len => {
            let mid = len / 2;
            let (left, right) = out.split_at_mut(groups[mid].1 - groups[0].1);
            crate::awake::join(
                || sort_groups(left, &groups[..=mid], each),
                || sort_groups(right, &groups[mid..], each),
            );
        }
    }
}

/// Sorts the numbers of `a` (each less `base` below `2^bits`) through `b`; the one of the two
/// that holds them sorted.
///
/// Least significant digit first over the bits from `low` up only (`low`: the second ids'
/// bits, or 0 for all bits), which orders the numbers by their first ids (less `base`'s part
/// there), keeping the order they came in within each first id; then each run of one first
/// id is sorted on its own (see [`runs_sorted`]). Where most first ids have one pair, the
/// second ids' bits (about half of all) cost one pass over the numbers rather than one or two
/// passes of the digits.
fn sort_local<'a>(
    a: &'a [AtomicU64],
    b: &'a [AtomicU64],
    base: u64,
    bits: u32,
    low: u32,
) -> &'a [AtomicU64] {
    let low = low.min(bits);
    let (sorted, spare) = by_digits(a, b, base, low..bits);
    runs_sorted(sorted, spare, base, low);
    sorted
}

/// Runs of one first id at most this long are sorted by insertion; longer ones by their
/// second ids' digits.
const SHORT_RUN: usize = 24;

/// Each run of `a` (numbers less `base` ordered by their bits from `low` up) whose numbers
/// share those bits, sorted: by insertion where short (a few numbers, most often already in
/// order), else least significant digit first on the `low` bits below through `b`'s
/// positions beside it (a shape paired with thousands: a radix sort still, not a comparison
/// sort over them).
fn runs_sorted(a: &[AtomicU64], b: &[AtomicU64], base: u64, low: u32) {
    if low == 0 || a.is_empty() {
        return;
    }
    let high = |k: u64| (k - base) >> low;
    let sort_run = |run: Range<usize>, first: u64| {
        let (a, b) = (&a[run.clone()], &b[run]);
        if a.len() <= SHORT_RUN {
            for j in 1..a.len() {
                let k = a[j].load(Relaxed);
                let mut at = j;
                while at > 0 && a[at - 1].load(Relaxed) > k {
                    a[at].store(a[at - 1].load(Relaxed), Relaxed);
                    at -= 1;
                }
                a[at].store(k, Relaxed);
            }
        } else {
            let (sorted, _) = by_digits(a, b, base + (first << low), 0..low);
            if !core::ptr::eq(sorted, a) {
                for (to, k) in a.iter().zip(sorted) {
                    to.store(k.load(Relaxed), Relaxed);
                }
            }
        }
    };
    let (mut start, mut first) = (0, high(a[0].load(Relaxed)));
    for (j, k) in a.iter().enumerate().skip(1) {
        let h = high(k.load(Relaxed));
        if h != first {
            if j - start > 1 {
                sort_run(start..j, first);
            }
            (start, first) = (j, h);
        }
    }
    if a.len() - start > 1 {
        sort_run(start..a.len(), first);
    }
}

/// Sorts the numbers of `a` by their bits `bits` (less `base`, below `2^bits.end`) least
/// significant digit first, through `b`, keeping the order of numbers equal there: the one of
/// the two that holds them sorted, and the other.
fn by_digits<'a>(
    mut a: &'a [AtomicU64],
    mut b: &'a [AtomicU64],
    base: u64,
    bits: Range<u32>,
) -> (&'a [AtomicU64], &'a [AtomicU64]) {
    let (from, width) = (bits.start, bits.end - bits.start);
    if width == 0 {
        return (a, b);
    }
    // As many passes as cost least: each reads and writes every number, and clears and sums
    // its digit's counters (a short list takes more, narrower digits).
    let m = a.len();
    let cost = |passes: u32| passes as usize * (2 * m + (2usize << width.div_ceil(passes)));
    let passes = (width.div_ceil(DIGIT)..=width.div_ceil(4))
        .min_by_key(|&p| cost(p))
        .unwrap_or(width.div_ceil(DIGIT));
    let digit = width.div_ceil(passes);
    let mask = (1u64 << digit) - 1;
    // Counters for this digit only: a group of a few thousand numbers takes digits of 8 bits
    // or fewer, and zeroing all 4096 counters (16 KiB) for it was more writes than its numbers
    // (on sixteen threads, 26 groups and 0.4 MB zeroed in a 100 k-shape kept frame).
    let (mut narrow, mut wide);
    let counts: &mut [u32] = if digit <= 8 {
        narrow = [0u32; 1 << 8];
        &mut narrow[..1 << digit]
    } else {
        wide = [0u32; 1 << DIGIT];
        &mut wide[..1 << digit]
    };
    for pass in 0..passes {
        let shift = from + pass * digit;
        counts.fill(0);
        for k in a {
            counts[((k.load(Relaxed) - base) >> shift & mask) as usize] += 1;
        }
        let mut sum = 0;
        for c in counts.iter_mut() {
            (*c, sum) = (sum, sum + *c);
        }
        for k in a {
            let k = k.load(Relaxed);
            let place = &mut counts[((k - base) >> shift & mask) as usize];
            b[*place as usize].store(k, Relaxed);
            *place += 1;
        }
        (a, b) = (b, a);
    }
    (a, b)
}

/// The pairs of the sorted numbers `keys` into `out`.
fn write_back(out: &mut [(u32, u32)], keys: &[AtomicU64], layout: Layout) {
    for (pair, k) in out.iter_mut().zip(keys) {
        *pair = layout.pair(k.load(Relaxed));
    }
}

#[cfg(test)]
mod tests;

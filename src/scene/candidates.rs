//! Candidate pairs into answer pairs: each candidate is filed by pair kind (the kinds a scene
//! holds, taken from the pair table), every [`BATCH`] of a kind are packed into lane blocks and
//! decided by the kernels, and the hits become answer pairs.

use super::SIDE;
use super::chunks::{Chunked, Chunks};
use super::pack::{BATCH, BLOCKS, Pack, Shared, Stored, block_of};
use super::records::KIND;
use crate::batch::Overlaps;
use crate::lanes::{KERNEL_LANES, Wide};
use crate::prefetch::prefetch;
use core::ops::Range;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Number of shape kinds a scene holds (kind codes `0 .. KINDS`).
pub(crate) const KINDS: usize = 5;

/// Candidates [`Candidates::decide_in_order`] decides at a time: its hit bits, 512 bytes, stay
/// in the first-level cache, and a partial block per pair kind at its end is a small share.
pub(crate) const CHUNK: usize = 4096;

/// A candidate as filed: two positions in the kernels' argument order, and its index in the
/// chunk being decided in order (0 otherwise).
type Item = (u32, u32, u32);

/// Tests a pair kind's pending candidates.
type Test = fn(&mut Candidates, &Shared<'_>, usize);

/// A pair kind of the table: the kind codes of its two shape kinds, and its test.
type PairKind = (Option<u32>, Option<u32>, Test);

/// One side of a list batch's lane blocks: the first `blocks` gathered from the positions
/// `side` picks from each candidate, the rest inert (never tested).
#[inline(always)]
fn gathered<S: Stored, const N: usize>(
    shared: &Shared<'_>,
    at: &[[(u32, u32); KERNEL_LANES]; N],
    blocks: usize,
    side: impl Fn((u32, u32)) -> u32,
) -> [S::Lanes<Wide>; N] {
    core::array::from_fn(|k| {
        if k < blocks {
            S::gather_lanes(shared, &at[k].map(&side))
        } else {
            S::INERT
        }
    })
}

/// Every pair kind of the pair table, with its kind codes and test.
macro_rules! table_kinds {
    (
        distinct { $($d:ident: $A:ty, $B:ty;)* }
        same { $($s:ident: $S:ty;)* }
        casts { $($c:ident: $C:ty;)* }
    ) => {
        &[
            $((<$A as Stored>::CODE, <$B as Stored>::CODE, Candidates::test::<$A, $B>),)*
            $((<$S as Stored>::CODE, <$S as Stored>::CODE, Candidates::test::<$S, $S>),)*
        ]
    };
}

const TABLE: &[PairKind] = crate::pair_table!(table_kinds);

/// Tests a list of one pair kind's candidates.
type ListTest = fn(&mut Candidates, &Shared<'_>, &mut [(u32, u32)], bool);

/// The flag a kept candidate list sets on a candidate's second position while its pair is in
/// the answer (positions stay below 2³¹: a scene's ids do).
pub(crate) const HIT: u32 = 1 << 31;

/// Every pair kind of the pair table, with its kind codes and list test.
macro_rules! table_listed {
    (
        distinct { $($d:ident: $A:ty, $B:ty;)* }
        same { $($s:ident: $S:ty;)* }
        casts { $($c:ident: $C:ty;)* }
    ) => {
        &[
            $((<$A as Stored>::CODE, <$B as Stored>::CODE, Candidates::test_list::<$A, $B> as ListTest),)*
            $((<$S as Stored>::CODE, <$S as Stored>::CODE, Candidates::test_list::<$S, $S> as ListTest),)*
        ]
    };
}

const LISTED: &[(Option<u32>, Option<u32>, ListTest)] = crate::pair_table!(table_listed);

/// The list tests of the pair kinds a scene files candidates by, in [`SCENE`]'s order.
const LIST_TESTS: [ListTest; PAIR_KINDS] = scene_kinds(LISTED).0;

/// Candidates of a list that [`Candidates::test_list`] gathers before it runs their kernels
/// (whole lane blocks; the blocks of both shapes stay in the first-level cache).
pub(super) const LIST_BATCH: usize = 256;
const LIST_BLOCKS: usize = LIST_BATCH / KERNEL_LANES;

/// A batch of a list's candidates for [`Candidates::test_list`]'s kernels: those it picked (if
/// it picks them), else the list's in a range.
type Batch<'a> = (Option<&'a [(u32, u32)]>, Range<usize>);

/// Lane blocks of a short batch's arrays (see [`Candidates::test_list`]).
const SHORT_BLOCKS: usize = LIST_BLOCKS / 4;

/// How many pair kinds of the table a scene holds both kinds of.
pub(crate) const PAIR_KINDS: usize = {
    let mut n = 0;
    let mut i = 0;
    while i < TABLE.len() {
        if let (Some(_), Some(_)) = (TABLE[i].0, TABLE[i].1) {
            n += 1;
        }
        i += 1;
    }
    n
};

/// The entries of a pair table (kind codes and a per-kind value `T`) that a scene holds, in
/// table order, and the index among them of the pair kind of two kind codes. Checked here, at
/// compile time: the table has exactly one pair kind for each pair of kinds a scene holds, with
/// the smaller kind code first (the order [`Candidates::file`] passes them in).
pub(crate) const fn scene_kinds<T: Copy, const N: usize>(
    table: &[(Option<u32>, Option<u32>, T)],
) -> ([T; N], [[u8; KINDS]; KINDS]) {
    let mut values = [table[0].2; N];
    let mut kind_of = [[u8::MAX; KINDS]; KINDS];
    let (mut i, mut n) = (0, 0);
    while i < table.len() {
        if let (Some(a), Some(b)) = (table[i].0, table[i].1) {
            let (a, b) = (a as usize, b as usize);
            assert!(
                a <= b,
                "a scene pair kind must have the smaller kind code first"
            );
            assert!(
                kind_of[a][b] == u8::MAX,
                "two pair kinds for one pair of kinds"
            );
            values[n] = table[i].2;
            kind_of[a][b] = n as u8;
            kind_of[b][a] = n as u8;
            n += 1;
        }
        i += 1;
    }
    assert!(n == N, "the table has N scene pair kinds");
    let mut a = 0;
    while a < KINDS {
        let mut b = 0;
        while b < KINDS {
            assert!(
                kind_of[a][b] != u8::MAX,
                "a pair of scene kinds has no kernel"
            );
            b += 1;
        }
        a += 1;
    }
    (values, kind_of)
}

/// The pair kinds a scene files candidates by (their tests), and the pair kind of two kind
/// codes.
pub(crate) const SCENE: ([Test; PAIR_KINDS], [[u8; KINDS]; KINDS]) = scene_kinds(TABLE);

/// The narrow phase of one job: candidates by pair kind, the answer pairs, the counts and
/// times.
#[derive(Debug, Default)]
pub(crate) struct Candidates {
    pending: Pack<Item, PAIR_KINDS>,
    /// While a chunk is decided in order: bit `i` set when its candidate `i` overlaps.
    hit_bits: Vec<u64>,
    ordered: bool,
    /// The pairs found to overlap, without events (in chunks of the pool that
    /// [`reset`](Self::reset) names).
    pub(crate) pairs: Chunked,
    /// The pairs (ids, smaller first) whose candidates' [`HIT`] flags
    /// [`decide_list`](Self::decide_list) set, and cleared: those that began and ended (in
    /// chunks of the same pool).
    pub(crate) began: Chunked,
    pub(crate) ended: Chunked,
    pub(crate) candidates: usize,
    /// Candidates dropped because their filters do not pair.
    pub(crate) filtered: usize,
    /// Candidates of two still shapes, which kept their flags without a kernel (see
    /// [`Shared::with_still`]).
    pub(crate) still: usize,
    /// Candidates of a kept list whose shapes' padded boxes are apart, decided without a
    /// kernel (see `picks.rs`).
    pub(crate) apart: usize,
    /// The time [`test`](Self::test) spent gathering records into lane blocks, which a
    /// search reads (a kept call counts its tasks' whole time and takes the kernels' out of
    /// it, so [`decide_list`](Self::decide_list) leaves this as it is).
    pub(crate) pack_time: Duration,
    /// The time spent in the kernels (in `test`, with their hits recorded).
    pub(crate) kernel_time: Duration,
}

impl Candidates {
    /// Empty pending batches, answer, counts and times, for a new frame: the answer's lists
    /// take their chunks from `pool`.
    pub(crate) fn reset(&mut self, pool: &Arc<Chunks>) {
        self.pending.clear();
        self.hit_bits.clear();
        self.hit_bits.resize(CHUNK / 64, 0);
        for list in [&mut self.pairs, &mut self.began, &mut self.ended] {
            list.clear_from(pool);
        }
        self.candidates = 0;
        self.filtered = 0;
        self.still = 0;
        self.apart = 0;
        self.pack_time = Duration::ZERO;
        self.kernel_time = Duration::ZERO;
    }

    /// Files a candidate (two positions) under its pair kind, the smaller kind first (the
    /// kernels' argument order), and tests the batch when it is full. Two static shapes, a
    /// pair whose filters do not pair, and in `pairs_with` a pair from one scene are dropped
    /// here. No branch depends on the kinds.
    #[inline(always)]
    pub(crate) fn file(&mut self, shared: &Shared<'_>, p: u32, q: u32) {
        self.file_tagged::<true, true>(shared, p, q, 0);
    }

    /// [`file`](Self::file) with the candidate's index in the chunk being decided in order.
    /// `KINDS` and `LAYERS` say whether to look at the shared flags at all: a caller that
    /// knows [`Shared::mixed_kinds`] or [`Shared::layered`] is false passes `false`, so that
    /// the loop over a chunk pays nothing for rules that cannot drop a pair.
    #[inline(always)]
    fn file_tagged<const KINDS: bool, const LAYERS: bool>(
        &mut self,
        shared: &Shared<'_>,
        p: u32,
        q: u32,
        tag: u32,
    ) {
        let (rp, rq) = (shared.record(p), shared.record(q));
        let mut keep = !(KINDS && shared.mixed_kinds) || shared.admits(rp, rq);
        // Only a scene with filters other than `Filter::ALL` pays for the rule.
        if LAYERS && shared.layered {
            let layers = shared.layers_pair(rp, rq);
            self.filtered += usize::from(keep & !layers);
            keep &= layers;
        }
        let (kp, kq) = (rp.kind & KIND, rq.kind & KIND);
        let swap = kq < kp;
        let item = if swap { (q, p, tag) } else { (p, q, tag) };
        let kind = SCENE.1[kp as usize][kq as usize] as usize;
        if self.pending.push(kind, item, keep) {
            SCENE.0[kind](self, shared, kind);
        }
    }

    /// The pair kind of two records' kinds (an index of [`SCENE`]) and a pair of their
    /// positions `(p, q)` in that kind's argument order (the smaller kind code first; as given
    /// for two shapes of one kind).
    #[inline(always)]
    pub(crate) fn kind_of(kind_p: u32, kind_q: u32, p: u32, q: u32) -> (usize, (u32, u32)) {
        let (kp, kq) = (kind_p & KIND, kind_q & KIND);
        let kind = SCENE.1[kp as usize][kq as usize] as usize;
        (kind, if kq < kp { (q, p) } else { (p, q) })
    }

    /// Decides a list of candidates of pair kind `kind`, each two positions in the shared
    /// records in the kernel's argument order (see [`kind_of`](Self::kind_of)), the second
    /// perhaps flagged [`HIT`] (the pair was in the last answer). Pairs whose filters do not
    /// pair are dropped (and counted) before any kernel; the list holds no pair of two static
    /// shapes.
    ///
    /// Each candidate's flag is set to its hit: the pair of one whose flag changed goes to
    /// `began` or `ended` with `events`; without, every hit goes to `pairs`, as ids
    /// `(smaller, larger)`.
    pub(crate) fn decide_list(
        &mut self,
        shared: &Shared<'_>,
        kind: usize,
        list: &mut [(u32, u32)],
        events: bool,
    ) {
        LIST_TESTS[kind](self, shared, list, events);
    }

    /// The ids of the pair of positions `(p, q)`, smaller first.
    #[inline(always)]
    fn ids(shared: &Shared<'_>, p: u32, q: u32) -> (u32, u32) {
        let (x, y) = (shared.record(p).id, shared.record(q & !HIT).id);
        (x.min(y), x.max(y))
    }

    /// A flag that changes: the candidate's pair began (`now`) or ended.
    #[inline(always)]
    pub(super) fn flip(
        &mut self,
        shared: &Shared<'_>,
        c: &mut (u32, u32),
        now: bool,
        events: bool,
    ) {
        if events {
            let pair = Self::ids(shared, c.0, c.1);
            if now {
                self.began.push(pair);
            } else {
                self.ended.push(pair);
            }
        }
        c.1 ^= HIT;
    }

    /// [`decide_list`](Self::decide_list) for the pair kind of `A` and `B`: every
    /// [`LIST_BATCH`] candidates gathered into lane blocks at once, then their kernels, then
    /// their hits, so that the three are timed per batch rather than per block. A batch of
    /// one lane block or of up to [`SHORT_BLOCKS`] takes arrays of that length: at ten shapes
    /// (a few candidates a kind) writing the full arrays made the kept frame 3.7 µs against
    /// 1.7 (Intel Xeon, one thread).
    fn test_list<A, B>(&mut self, shared: &Shared<'_>, list: &mut [(u32, u32)], events: bool)
    where
        A: Overlaps<B> + Stored,
        B: Stored,
    {
        // The candidates picked for the kernels, and their places in the list.
        let mut kept = [(0u32, 0u32); LIST_BATCH];
        let mut number = [0u32; LIST_BATCH];
        // Whether the batches are picked (see `pick`) rather than the list's next candidates.
        let picked = Self::picks::<A, B>(shared);
        let mut from = 0;
        while from < list.len() {
            let (n, to) = if picked {
                self.pick::<A, B>(shared, list, from, (&mut kept, &mut number), events)
            } else {
                let to = (from + LIST_BATCH).min(list.len());
                (to - from, to)
            };
            // The next batch's second records, a grid row or a level away from the first
            // ones, asked for while this batch is gathered and tested (see `prefetch.rs`).
            for &(_, q) in list[to..].iter().take(LIST_BATCH) {
                if let Some(r) = shared.get_record(q & !HIT) {
                    prefetch(r);
                }
            }
            let batch = (picked.then_some(&kept[..n]), from..to);
            from = to;
            if n == 0 {
                continue;
            }
            // Where the batch's `i`th candidate lies in the list.
            let place = |i: usize| {
                if picked {
                    number[i] as usize
                } else {
                    to - n + i
                }
            };
            // A short batch (a small scene's lists, a window's last candidates of a kind) in
            // arrays of its own length: the blocks past a batch's end are still written, and
            // at ten shapes the full arrays' writes were most of the frame.
            if n <= KERNEL_LANES {
                self.decide_batch::<A, B, 1>(shared, batch, list, &place, events);
            } else if n <= SHORT_BLOCKS * KERNEL_LANES {
                self.decide_batch::<A, B, SHORT_BLOCKS>(shared, batch, list, &place, events);
            } else {
                self.decide_batch::<A, B, LIST_BLOCKS>(shared, batch, list, &place, events);
            }
        }
    }

    /// The kernels of a batch of candidates (the `picked` ones, else those of `list` in
    /// `range`; at most `N` lane blocks, at least one candidate; the kernels' time counted)
    /// and each one's flag in `list` (at `place` of its number in the batch) set to its
    /// answer, the pairs and changes recorded. Two readings of the clock a batch, around the
    /// kernels: the walk's task takes their time out of its own for the rest. (Four a batch,
    /// which also counted the gathering, were 1.6 % of a kept frame's samples at 100 k shapes
    /// on one thread, spent in the clock's own code; two, 0.9 %.)
    #[inline(always)]
    fn decide_batch<A, B, const N: usize>(
        &mut self,
        shared: &Shared<'_>,
        (picked, range): Batch<'_>,
        list: &mut [(u32, u32)],
        place: &impl Fn(usize) -> usize,
        events: bool,
    ) where
        A: Overlaps<B> + Stored,
        B: Stored,
    {
        let batch = match picked {
            Some(picked) => picked,
            None => &list[range],
        };
        let (n, pad) = (batch.len(), batch[0]);
        let blocks = n.div_ceil(KERNEL_LANES);
        // Positions of blocks past the last are the last block's (never gathered).
        let at =
            |k: usize| -> [(u32, u32); KERNEL_LANES] { block_of(batch, k.min(blocks - 1), pad) };
        let at: [_; N] = core::array::from_fn(at);
        let a = gathered::<A, N>(shared, &at, blocks, |p| p.0);
        let b = gathered::<B, N>(shared, &at, blocks, |p| p.1 & !HIT);
        let packed = Instant::now();
        let mut hits = [0u32; N];
        for k in 0..blocks {
            hits[k] = A::lanes(a[k], b[k]).to_bitmask();
        }
        let tested = Instant::now();
        let last = n - (blocks - 1) * KERNEL_LANES;
        let tail = u32::MAX >> (32 - last);
        hits[blocks - 1] &= tail;
        for (k, (&hit, block)) in hits[..blocks].iter().zip(&at).enumerate() {
            let flags = block.map(|(_, q)| q >> 31);
            let was = (0..KERNEL_LANES).fold(0u32, |w, l| w | flags[l] << l);
            let was = if k + 1 == blocks { was & tail } else { was };
            if !events {
                let mut word = hit;
                while word != 0 {
                    let (p, q) = block[word.trailing_zeros() as usize];
                    self.pairs.push(Self::ids(shared, p, q));
                    word &= word - 1;
                }
            }
            let mut changed = hit ^ was;
            while changed != 0 {
                let lane = changed.trailing_zeros();
                let i = place(k * KERNEL_LANES + lane as usize);
                self.flip(shared, &mut list[i], hit >> lane & 1 != 0, events);
                changed &= changed - 1;
            }
        }
        self.candidates += n;
        self.kernel_time += tested - packed;
    }

    /// Decides `chunk` (at most [`CHUNK`] candidate pairs of positions) and appends the ids
    /// of those that overlap, `(smaller, larger)`, to the answer in the chunk's order: the
    /// kernels take them by kind, their hits come back as bits by index.
    /// `at(i, chunk[i])` gives the two positions of candidate `i` in the shared records.
    pub(crate) fn decide_in_order(
        &mut self,
        shared: &Shared<'_>,
        chunk: &[(u32, u32)],
        at: impl Fn(usize, (u32, u32)) -> (u32, u32),
    ) {
        debug_assert!(chunk.len() <= CHUNK && !shared.cross);
        self.ordered = true;
        match (shared.mixed_kinds, shared.layered) {
            (false, false) => self.file_chunk::<false, false>(shared, chunk, &at),
            (false, true) => self.file_chunk::<false, true>(shared, chunk, &at),
            _ => self.file_chunk::<true, true>(shared, chunk, &at),
        }
        self.flush(shared);
        self.ordered = false;
        for (w, word) in self.hit_bits.iter_mut().enumerate() {
            while *word != 0 {
                let i = w * 64 + word.trailing_zeros() as usize;
                let (p, q) = at(i, chunk[i]);
                self.pairs.push(Self::ids(shared, p, q));
                *word &= *word - 1;
            }
        }
    }

    /// Files every candidate of `chunk`, tagged with its index (see
    /// [`file_tagged`](Self::file_tagged)).
    #[inline(always)]
    fn file_chunk<const KINDS: bool, const LAYERS: bool>(
        &mut self,
        shared: &Shared<'_>,
        chunk: &[(u32, u32)],
        at: &impl Fn(usize, (u32, u32)) -> (u32, u32),
    ) {
        for (i, &c) in chunk.iter().enumerate() {
            let (p, q) = at(i, c);
            self.file_tagged::<KINDS, LAYERS>(shared, p, q, i as u32);
        }
    }

    /// Tests every pair kind's pending candidates.
    pub(crate) fn flush(&mut self, shared: &Shared<'_>) {
        for (kind, test) in SCENE.0.iter().enumerate() {
            test(self, shared, kind);
        }
    }

    /// Packs one pair kind's pending pairs into lane blocks (a partial block padded with its
    /// first pair, whose lanes are masked out), runs the kernel, and records the hits: as
    /// answer pairs, or as bits by index while a chunk is decided in order.
    fn test<A, B>(&mut self, shared: &Shared<'_>, kind: usize)
    where
        A: Overlaps<B> + Stored,
        B: Stored,
    {
        let pending = self.pending.take(kind);
        let filled = pending.len();
        if filled == 0 {
            return;
        }
        let start = Instant::now();
        let blocks = filled.div_ceil(KERNEL_LANES);
        let mut a = [A::INERT; BLOCKS];
        let mut b = [B::INERT; BLOCKS];
        for k in 0..blocks {
            let at: [_; KERNEL_LANES] = block_of(pending, k, pending[0]);
            a[k] = A::gather_lanes(shared, &at.map(|p| p.0));
            b[k] = B::gather_lanes(shared, &at.map(|p| p.1));
        }
        let packed = Instant::now();
        let mut hits = 0u64;
        for k in 0..blocks {
            hits |= u64::from(A::lanes(a[k], b[k]).to_bitmask()) << (k * KERNEL_LANES);
        }
        hits &= u64::MAX >> (64 - filled);
        if self.ordered {
            while hits != 0 {
                let tag = pending[hits.trailing_zeros() as usize].2 as usize;
                self.hit_bits[tag / 64] |= 1 << (tag % 64);
                hits &= hits - 1;
            }
        }
        while hits != 0 {
            let (p, q, _) = pending[hits.trailing_zeros() as usize];
            let (x, y) = (shared.record(p).id, shared.record(q).id);
            self.pairs.push(if shared.cross {
                // (id in the first scene, id in the second)
                if x & SIDE == 0 {
                    (x, y & !SIDE)
                } else {
                    (y, x & !SIDE)
                }
            } else {
                (x.min(y), x.max(y))
            });
            hits &= hits - 1;
        }
        self.candidates += filled;
        let done = Instant::now();
        self.pack_time += packed - start;
        self.kernel_time += done - packed;
    }
}

const _: () = assert!(BATCH <= 64, "a batch's hits fit one u64");

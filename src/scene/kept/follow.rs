//! How a kept list follows the escapers' moves: an escaper's candidates dropped (the pairs of
//! the flagged ones ended, or passed to the same pair found again), every other kept, the new
//! ones merged in, in one pass.

use super::written::{DEAD, Share};
use crate::scene::blocks::{BLOCK_SHIFT, ahead, block_start, is_set, next_set, scan};
use crate::scene::candidates::HIT;
use crate::scene::chunks::Chunked;
use crate::scene::records::Record;
use crate::scene::sort::pair_key;

/// [`Kept::escaped`](super::Kept::escaped): a slot that did not escape in this call.
pub(super) const STAYED: u8 = 0;
/// An escaper that holds the shape it held in the last call.
pub(super) const MOVED: u8 = 1;
/// An escaper whose slot holds another shape than in the last call, or none (new, removed).
pub(super) const TAKEN: u8 = 2;

/// An escaper's mark for the move: its index (`index_of` at its slot) and [`MOVED`] where its
/// slot holds the shape it held in the last call (`same`), else [`TAKEN`]. Written by the
/// escape check for the escapers it sees and by the move for the others.
pub(super) fn mark(index: u32, same: bool) -> (u32, u8) {
    (index, if same { MOVED } else { TAKEN })
}

/// How a frame's lists follow the escapers' moves: a candidate of an escaper is dropped, a
/// moving slot stays where it is, and a neighbour's position moves with the number of moving
/// slots (`before` in the last call, `after` in this one). A dropped candidate's pair is named
/// by the ids its positions held in the last call: a slot's from this call's record by index
/// (`records`) where it holds the same shape, else from `last_ids` by slot; a neighbour's from
/// its label, which stays until the next call (see `Statics::tidy`).
#[derive(Clone, Copy)]
pub(super) struct Follow<'a> {
    pub(super) before: u32,
    pub(super) after: u32,
    pub(super) escaped: &'a [u8],
    pub(super) records: &'a [Record],
    pub(super) last_ids: &'a [u32],
    pub(super) slot_of: &'a [u32],
    pub(super) labels: &'a [(u32, u32)],
}

impl Follow<'_> {
    /// A neighbour's position `x` of the last call (not below `before`) in this call.
    #[inline(always)]
    pub(super) fn shifted(&self, x: u32) -> u32 {
        x - self.before + self.after
    }

    /// The position of `x` in this call, `None` for an escaper's slot and for a pad's
    /// [`DEAD`] (see `written.rs`).
    #[inline(always)]
    pub(super) fn at(&self, x: u32) -> Option<u32> {
        if x >= self.before {
            (x != DEAD).then(|| self.shifted(x))
        } else if self.escaped[x as usize] != STAYED {
            None
        } else {
            Some(x)
        }
    }

    /// A key of the last call's position `x`, ascending with `x`, equal to its position in
    /// this call where it has one: a list in order of first positions is in order of keys.
    #[inline(always)]
    pub(super) fn key(&self, x: u32) -> u32 {
        if x < self.before {
            x.min(self.after)
        } else {
            self.shifted(x)
        }
    }

    /// A candidate at its positions in this call (keeping its flag), `None` if an escaper's.
    #[inline(always)]
    pub(super) fn moved(&self, (p, q): (u32, u32)) -> Option<(u32, u32)> {
        Some((self.at(p)?, self.at(q & !HIT)? | q & HIT))
    }

    /// Where a dropped candidate lies in this call if both its shapes are the ones it had (an
    /// escaper that moved, not a slot another shape took): its escaper finds it again there
    /// if its boxes still overlap. `None` if either slot is gone or holds another shape.
    #[inline(always)]
    pub(super) fn twin(&self, (p, q): (u32, u32)) -> Option<(u32, u32)> {
        let at = |x: u32| {
            if x >= self.before {
                Some(self.shifted(x))
            } else {
                (self.escaped[x as usize] != TAKEN).then_some(x)
            }
        };
        Some((at(p)?, at(q & !HIT)?))
    }

    /// The pair of ids of a dropped candidate, smaller first. A slot that holds the shape it
    /// held (not [`TAKEN`]) names it by the record gathered at its index, which the frame
    /// reads in the lists' order, rather than through its slot at random (two dependent
    /// cache misses).
    pub(super) fn named(&self, (p, q): (u32, u32)) -> (u32, u32) {
        let id_at = |x: u32| {
            let i = x as usize;
            if x >= self.before {
                self.labels[(x - self.before) as usize].0
            } else if self.escaped[i] != TAKEN {
                self.records[i].id
            } else {
                self.last_ids[self.slot_of[i] as usize]
            }
        };
        let (x, y) = (id_at(p), id_at(q & !HIT));
        (x.min(y), x.max(y))
    }
}

/// One kept list as a frame decides it: its pair kind, its candidates as the last call left
/// them, the new ones to merge in (ascending), and how it follows the escapers' moves (`None`:
/// it does not, and `added` is empty). `touched`: for a moving list, the blocks of first
/// indices that the escapers touch, a bit each (see `untouched.rs`; empty: every block is
/// followed candidate by candidate).
#[derive(Clone, Copy)]
pub(super) struct Part<'a> {
    pub(super) kind: usize,
    pub(super) old: &'a [(u32, u32)],
    pub(super) added: &'a [(u32, u32)],
    pub(super) follow: Option<Follow<'a>>,
    pub(super) touched: &'a [u64],
}

impl Part<'_> {
    /// The key of a last call's first position (see [`Follow::key`]).
    #[inline(always)]
    pub(super) fn key(&self, x: u32) -> u32 {
        self.follow.map_or(x, |f| f.key(x))
    }

    /// The least key of the first positions of the candidates from `from` to `to` (old,
    /// new), `None` where there are none.
    pub(super) fn first_key(&self, from: (usize, usize), to: (usize, usize)) -> Option<u32> {
        let old = (from.0 < to.0).then(|| self.key(self.old[from.0].0));
        let new = (from.1 < to.1).then(|| self.added[from.1].0);
        old.into_iter().chain(new).min()
    }

    /// The number of old candidates whose first positions' keys are below `at`, and of new
    /// ones whose first positions are, known to lie between `from` and `to`.
    pub(super) fn below_within(
        &self,
        at: u32,
        from: (usize, usize),
        to: (usize, usize),
    ) -> (usize, usize) {
        (
            from.0 + self.old[from.0..to.0].partition_point(|c| self.key(c.0) < at),
            from.1 + below(&self.added[from.1..to.1], at),
        )
    }

    /// [`below_within`](Self::below_within), the old candidates' count looked for first at
    /// `hint` (where the last call's walk started writing a task's share of this list: the
    /// count below that task's first position, where the positions did not shift): two reads
    /// where it holds, else a search on the side of it where the count lies.
    pub(super) fn below_near(
        &self,
        at: u32,
        from: (usize, usize),
        to: (usize, usize),
        hint: usize,
    ) -> (usize, usize) {
        if !(from.0..=to.0).contains(&hint) {
            return self.below_within(at, from, to);
        }
        let is_below = |c: &(u32, u32)| self.key(c.0) < at;
        let old = if hint > from.0 && !is_below(&self.old[hint - 1]) {
            from.0 + self.old[from.0..hint - 1].partition_point(is_below)
        } else if hint < to.0 && is_below(&self.old[hint]) {
            hint + 1 + self.old[hint + 1..to.0].partition_point(is_below)
        } else {
            hint
        };
        (old, from.1 + below(&self.added[from.1..to.1], at))
    }

    /// Writes to `out` the candidates from `at` (old, new) to `end` whose first positions lie
    /// below `window`, in order: the old ones followed (an escaper's dropped, its pair to
    /// `dropped` if it is flagged [`HIT`]) and the new ones merged in.
    pub(super) fn merge(
        &self,
        at: &mut (usize, usize),
        end: (usize, usize),
        window: u32,
        out: &mut Share<'_>,
        dropped: &mut Chunked,
    ) {
        // The ends of this window in both, so that the loops below test neither the window
        // nor the kind of list per candidate: the old list's read through from where the
        // window starts (see [`scan`]: every one of them is copied or followed next), the
        // new one's searched (see [`ahead`]). Searched, the old list's end waited on a miss
        // per probe, twenty-odd per list per window.
        let old_end = at.0 + scan(&self.old[at.0..end.0], |c| self.key(c.0) < window);
        let new_end = at.1 + ahead(&self.added[at.1..end.1], |c| c.0 < window);
        let (old, new) = (&self.old[at.0..old_end], &self.added[at.1..new_end]);
        *at = (old_end, new_end);
        match self.follow {
            // Lists filed anew this call, which hold no pads.
            None => merge_into(old, new, (Some, |_| None), |c| c, out, dropped),
            Some(f) if !self.touched.is_empty() => {
                merge_blocks(f, self.touched, old, new, out, dropped);
            }
            Some(f) => merge_into(
                old,
                new,
                (|c| f.moved(c), |c| f.twin(c)),
                |c| f.named(c),
                out,
                dropped,
            ),
        }
    }
}

/// [`merge_into`] by blocks of first indices (a moving list's, whose indices are all below
/// `f.before` and stay where they are): the runs of blocks that `touched` leaves unmarked
/// copied as they are (they hold no escaper's candidate and no new one), each marked block
/// followed candidate by candidate with its new candidates (a dropped candidate's twin has
/// its first index).
fn merge_blocks(
    f: Follow<'_>,
    touched_bits: &[u64],
    mut old: &[(u32, u32)],
    mut new: &[(u32, u32)],
    out: &mut Share<'_>,
    dropped: &mut Chunked,
) {
    let first = |l: &[(u32, u32)]| l.first().map_or(u32::MAX, |c| c.0);
    while !old.is_empty() || !new.is_empty() {
        let at = first(old).min(first(new));
        let b = (at >> BLOCK_SHIFT) as usize;
        // A new candidate's block is marked; the second test only keeps a wrong mark from
        // stalling the loop.
        if is_set(touched_bits, b) || first(new) >> BLOCK_SHIFT == b as u32 {
            let end = (at | ((1 << BLOCK_SHIFT) - 1)).saturating_add(1);
            let (o, k) = (ahead(old, |c| c.0 < end), ahead(new, |c| c.0 < end));
            let moves = (|c| f.moved(c), |c| f.twin(c));
            merge_into(&old[..o], &new[..k], moves, |c| f.named(c), out, dropped);
            (old, new) = (&old[o..], &new[k..]);
        } else {
            let end = block_start(next_set(touched_bits, b)).min(first(new));
            // Read through rather than searched: the run is copied next.
            let o = scan(old, |c| c.0 < end);
            out.put_all(&old[..o]);
            old = &old[o..];
        }
    }
}

/// Writes `old` (each as `moved` gives it, dropped where that is `None`) and `new` to `out`,
/// merged in order. A dropped candidate flagged [`HIT`] passes its flag to its `twin` among
/// the new ones if there is one (the same pair found again), else its pair as `named` gives
/// it goes to `dropped`.
#[inline(always)]
pub(super) fn merge_into(
    old: &[(u32, u32)],
    mut new: &[(u32, u32)],
    (moved, twin): (
        impl Fn((u32, u32)) -> Option<(u32, u32)>,
        impl Fn((u32, u32)) -> Option<(u32, u32)>,
    ),
    named: impl Fn((u32, u32)) -> (u32, u32),
    out: &mut Share<'_>,
    dropped: &mut Chunked,
) {
    // Compared with its flag, as one number: a flagged pair may come after a new one of the
    // same first position that it would precede. Any order is right; the order is for
    // locality.
    // The key of the next new candidate (none: above every key).
    let head_of = |new: &[(u32, u32)]| new.first().map_or(u64::MAX, |&c| pair_key(c));
    let mut head = head_of(new);
    let take = |new: &mut &[(u32, u32)], head: &mut u64, key: u64, out: &mut Share<'_>| {
        while *head < key {
            out.put(new[0]);
            *new = &new[1..];
            *head = head_of(new);
        }
    };
    for &c in old {
        let Some(m) = moved(c) else {
            if c.1 & HIT != 0 {
                // An escaper's pair found again stays flagged: it neither ended nor began
                // unless its kernel now says otherwise.
                if let Some(t) = twin(c) {
                    let key = pair_key(t);
                    take(&mut new, &mut head, key, out);
                    if head == key {
                        out.put((t.0, t.1 | HIT));
                        new = &new[1..];
                        head = head_of(new);
                        continue;
                    }
                }
                dropped.push(named(c));
            }
            continue;
        };
        take(&mut new, &mut head, pair_key(m), out);
        out.put(m);
    }
    out.put_all(new);
}

/// The number of `list`'s candidates whose first position is below `at`, by binary search.
pub(super) fn below(list: &[(u32, u32)], at: u32) -> usize {
    list.partition_point(|c| c.0 < at)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::blocks::set;

    /// Slots 0–2 moving (slot 1 escaped this call) at indices 1, 2, 0, neighbours after
    /// them; each slot's id in the last call its number plus 10. `replaced`: slot 2 escaped
    /// too, holding shape 32 now.
    fn follow(labels: &[(u32, u32)], replaced: bool) -> Follow<'_> {
        const ESCAPED: [[u8; 3]; 2] = [[STAYED, STAYED, MOVED], [TAKEN, STAYED, MOVED]];
        const fn record(id: u32) -> Record {
            Record {
                id,
                ..Record::INERT
            }
        }
        const RECORDS: [[Record; 3]; 2] = [
            [record(12), record(10), record(11)],
            [record(32), record(10), record(11)],
        ];
        Follow {
            before: 3,
            after: 3,
            escaped: &ESCAPED[usize::from(replaced)],
            records: &RECORDS[usize::from(replaced)],
            last_ids: &[10, 11, 12],
            slot_of: &[2, 0, 1],
            labels,
        }
    }

    /// `part`'s candidates merged in one window: those written, and the pairs dropped.
    fn merge_whole(part: &Part<'_>) -> [Vec<(u32, u32)>; 2] {
        let mut places = vec![(0, 0); part.old.len() + part.added.len()];
        let mut dropped = Chunked::new();
        let mut out = Share::new(&mut places);
        let end = (part.old.len(), part.added.len());
        part.merge(&mut (0, 0), end, u32::MAX, &mut out, &mut dropped);
        let written = out.pad(0);
        places.truncate(written);
        [places, dropped.chunks().flatten().copied().collect()]
    }

    fn merged(f: Follow<'_>, old: &[(u32, u32)], new: &[(u32, u32)]) -> [Vec<(u32, u32)>; 2] {
        merge_whole(&Part {
            kind: 0,
            old,
            added: new,
            follow: Some(f),
            touched: &[],
        })
    }

    #[test]
    pub(super) fn an_escapers_pair_found_again_keeps_its_flag() {
        let labels = [(20, 0), (21, 0)];
        // Slot 1 (index 2) escaped: its pair with neighbour 0 (position 3) overlapped and is
        // found again, its pair with slot 2 (index 0) overlapped and is not, its pair with
        // neighbour 1 did not overlap and is found again.
        let old = [(0, 2 | HIT), (1, 3 | HIT), (2, 3 | HIT), (2, 4)];
        let new = [(2, 3), (2, 4)];
        let [out, dropped] = merged(follow(&labels, false), &old, &new);
        assert_eq!(out, [(1, 3 | HIT), (2, 3 | HIT), (2, 4)]);
        assert_eq!(dropped, [(11, 12)]);
    }

    #[test]
    fn ahead_finds_what_a_binary_search_finds() {
        // Every length up to a few doublings, every split point (none, all, each between).
        for len in 0..70u32 {
            let list: Vec<(u32, u32)> = (0..len).map(|i| (2 * i, 0)).collect();
            for at in 0..=2 * len + 1 {
                let want = list.partition_point(|c| c.0 < at);
                assert_eq!(
                    ahead(&list, |c| c.0 < at),
                    want,
                    "{len} candidates below {at}"
                );
            }
        }
    }

    /// Lists of 3000 indices with escapers (moved or taken) among them, candidates of every
    /// kind of index, flagged or not, and new candidates of the escapers: followed by blocks,
    /// with the blocks the escapers touch marked and some others besides, they come out as
    /// followed candidate by candidate, and their dropped pairs too; with one touched block
    /// left unmarked they do not.
    #[test]
    fn lists_followed_by_blocks_are_lists_followed_one_by_one() {
        use crate::test_rng::Xorshift;
        let mut rng = Xorshift::new(0x51ed_2701);
        let n = 3000u32;
        for round in 0..20 {
            let share = [5, 50, 300][round % 3];
            let escaped: Vec<u8> = (0..n)
                .map(|_| match rng.below(1000) {
                    x if x < share => MOVED,
                    x if x < share + share / 4 => TAKEN,
                    _ => STAYED,
                })
                .collect();
            let records: Vec<Record> = (0..n)
                .map(|i| Record {
                    id: i + 10 * n,
                    ..Record::INERT
                })
                .collect();
            let last_ids: Vec<u32> = (0..n).map(|i| i + 20 * n).collect();
            let slot_of: Vec<u32> = (0..n).collect();
            let f = Follow {
                before: n,
                after: n,
                escaped: &escaped,
                records: &records,
                last_ids: &last_ids,
                slot_of: &slot_of,
                labels: &[],
            };
            let is_escaper = |x: u32| escaped[x as usize] != STAYED;
            let mut old: Vec<(u32, u32)> = (0..4 * n)
                .map(|_| {
                    let p = rng.below(n);
                    let q = (p + 1 + rng.below(200)) % n;
                    (p, q | if rng.below(3) == 0 { HIT } else { 0 })
                })
                .collect();
            old.sort_unstable_by_key(|c| c.0);
            // The escapers' new candidates, some the same pairs again.
            let mut new: Vec<(u32, u32)> = old
                .iter()
                .filter(|c| (is_escaper(c.0) || is_escaper(c.1 & !HIT)) && rng.below(2) == 0)
                .map(|c| (c.0, c.1 & !HIT))
                .collect();
            for e in (0..n).filter(|&x| is_escaper(x)) {
                new.push((e, (e + 1 + rng.below(100)) % n));
            }
            new.sort_unstable_by_key(|&c| pair_key(c));
            new.dedup();
            let blocks = (n >> BLOCK_SHIFT) as usize + 1;
            let mut bits = vec![0u64; blocks.div_ceil(64)];
            let mut mark = |x: u32| set(&mut bits, (x >> BLOCK_SHIFT) as usize);
            let mut touched_blocks = Vec::new();
            for c in old
                .iter()
                .filter(|c| is_escaper(c.0) || is_escaper(c.1 & !HIT))
            {
                mark(c.0);
                touched_blocks.push(c.0 >> BLOCK_SHIFT);
            }
            new.iter().for_each(|c| mark(c.0));
            (0..5).for_each(|_| mark(rng.below(n)));
            let followed = |touched: &[u64]| {
                merge_whole(&Part {
                    kind: 0,
                    old: &old,
                    added: &new,
                    follow: Some(f),
                    touched,
                })
            };
            let one_by_one = followed(&[]);
            assert_eq!(followed(&bits), one_by_one, "round {round}");
            // A touched block left unmarked keeps an escaper's candidate.
            let b = touched_blocks[touched_blocks.len() / 2] as usize;
            bits[b / 64] &= !(1 << (b % 64));
            if !new.iter().any(|c| c.0 >> BLOCK_SHIFT == b as u32) {
                assert_ne!(
                    followed(&bits),
                    one_by_one,
                    "round {round}, block {b} unmarked"
                );
            }
        }
    }

    #[test]
    pub(super) fn a_pair_of_a_slot_another_shape_took_ends() {
        let labels = [(20, 0)];
        // Slot 2 (index 0) holds another shape now: its pair with neighbour 0, found again at
        // the same positions, is another pair (the old one ended, the new one begins
        // unflagged), named by the shape it held.
        let old = [(0, 3 | HIT)];
        let new = [(0, 3)];
        let [out, dropped] = merged(follow(&labels, true), &old, &new);
        assert_eq!(out, [(0, 3)]);
        assert_eq!(dropped, [(12, 20)]);
    }
}

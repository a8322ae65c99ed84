//! A task's filed pairs: the candidates a search finds, all pair kinds in one list, each
//! pair's kind above its first position.

use crate::scene::candidates::{Candidates, PAIR_KINDS};
use crate::scene::chunks::{Chunked, Chunks};
use crate::scene::filter::Rule;
use crate::scene::handles::INDEX_BITS;
use crate::scene::records::FILTER_SHIFT;
use std::sync::Arc;

/// The bits a kind takes above a position in [`Filed`].
const KIND_BITS: u32 = u32::BITS - (PAIR_KINDS as u32 - 1).leading_zeros();

/// The most positions (of moving and static shapes) a list is filed for: those of the most
/// shapes a scene holds ([`MAX_SHAPES`](crate::MAX_SHAPES)), whose bits leave room for a kind.
pub(super) const MOST_POSITIONS: usize = 1 << INDEX_BITS;
const _: () = assert!(INDEX_BITS + 1 + KIND_BITS <= u32::BITS);

/// A task's filed pairs, all kinds in one list in the order filed, each as `(kind << bits |
/// first, second)`: its pair kind above its first position's bits, where the positions are
/// below the number the list was cleared for; and how many of each kind. One list a task
/// rather than one a task and kind: the escapers of a frame come in waves, and on thirteen
/// threads a wave grew the lists of 104 tasks and 15 kinds one after another, up to 3 000
/// allocations in one frame of a steady loop (a task's pairs of all kinds together swing
/// less, and one list grows once). The escapers' new pairs are sorted by that first word
/// (kind after kind) as they are; a rebuild's are written where their kind goes
/// ([`Lists::take_filed`](super::lists::Lists::take_filed)).
///
/// The list lies in chunks taken from the tasks' shared [`Chunks`] as the last one fills
/// (see `chunks.rs`).
#[derive(Debug, Default)]
pub(super) struct Filed {
    /// Its pairs as filed (see `room_for_filed`, which gives its full chunks back).
    pub(super) list: Chunked,
    pub(super) counts: [usize; PAIR_KINDS],
    bits: u32,
}

impl Filed {
    /// Empty, for pairs of positions below `positions`, its chunks from `pool` (its full
    /// ones given back).
    pub(super) fn clear(&mut self, positions: usize, pool: &Arc<Chunks>) {
        self.list.clear_from(pool);
        self.counts = [0; PAIR_KINDS];
        debug_assert!(positions <= MOST_POSITIONS, "{positions} positions");
        self.bits = usize::BITS - positions.leading_zeros();
    }

    /// The bits above which the pairs' kinds lie.
    pub(super) fn bits(&self) -> u32 {
        self.bits
    }

    /// Files `pair`, a pair of kind `kind`.
    #[inline(always)]
    pub(super) fn put(&mut self, kind: usize, (a, b): (u32, u32)) {
        debug_assert!(
            a >> self.bits == 0,
            "position {a} beyond {} bits",
            self.bits
        );
        self.list.push(((kind as u32) << self.bits | a, b));
        self.counts[kind] += 1;
    }

    /// How many pairs it holds.
    pub(super) fn len(&self) -> usize {
        self.list.len()
    }

    /// Its chunks in order, the pairs as filed.
    pub(super) fn chunks(&self) -> impl Iterator<Item = &[(u32, u32)]> {
        self.list.chunks()
    }
}

/// The bits of a filed first word below a kind filed above `bits`: its position's.
pub(super) fn position_mask(bits: u32) -> u32 {
    !(u32::MAX << bits)
}

/// A filed first word's kind and position, its kind filed above `bits` (see [`Filed`]).
#[inline(always)]
pub(super) fn untag(word: u32, bits: u32) -> (usize, u32) {
    ((word >> bits) as usize, word & position_mask(bits))
}

/// Files the pair of indices `(p, q)` under its pair kind in `filed`, by their records'
/// [`TAG`](super::lists::TAG)s in `tags` (by index: a word per hit rather than a record),
/// unless their filters (in `filters`, the scene's table; `None`: every filter is
/// [`Filter::ALL`]) do not pair; whether it filed it.
///
/// [`Filter::ALL`]: crate::Filter::ALL
#[inline(always)]
pub(super) fn file(
    filed: &mut Filed,
    (tags, filters): (&[u32], Option<&[Rule]>),
    p: u32,
    q: u32,
) -> bool {
    let (tp, tq) = (tags[p as usize], tags[q as usize]);
    if let Some(table) = filters
        && !table[(tp >> FILTER_SHIFT) as usize].pairs_with(table[(tq >> FILTER_SHIFT) as usize])
    {
        return false;
    }
    let (kind, pair) = Candidates::kind_of(tp, tq, p, q);
    filed.put(kind, pair);
    true
}

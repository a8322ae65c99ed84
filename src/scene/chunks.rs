//! Lists of pairs that lie in chunks taken from a pool shared by the tasks of a pass: a task
//! takes one as it fills its last, and gives the full ones back once what it wrote was read
//! (see [`room_for_lists`]): the kept frame's filed pairs, the pairs its walk finds, began
//! and ended, a search's answers from scratch, and the parts of the events between two
//! answers.
//!
//! One list a task kept room for the busiest task's share (a share swings with the escapers
//! and the cells in each task's range), on every task: on sixteen threads (128 tasks) the
//! filed lists of a 40 k-shape world held 70 MB for a rebuild's 8 MB of pairs, and a busier
//! share than any before, in any one task, grew every task's list (a drifting world's pairs
//! that began and ended, 384 lists in one frame, 264 frames into the loop). The chunks are
//! held once, for the most pairs the tasks wrote together, and a list holds at most one that
//! is not full.

use crate::concat::fill_parts;
use crate::room::resize_with_room;
use std::sync::{Arc, Mutex, PoisonError};

/// Pairs a chunk holds: 8 kB. A task's last chunk is partly empty, at most this much of it
/// on each of up to 128 tasks (1 MB); a million pairs take a thousand chunks, each taken
/// under the pool's lock.
pub(crate) const CHUNK: usize = 1024;

/// The chunks no task holds, and how many there are in all (see the module's doc).
#[derive(Debug, Default)]
pub(crate) struct Chunks {
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    free: Vec<Vec<(u32, u32)>>,
    made: usize,
    /// Whether a task found no free chunk since the last [`Chunks::room_for`].
    ran_out: bool,
}

impl Chunks {
    /// A new pool, shared by the tasks' lists.
    pub(crate) fn shared() -> Arc<Self> {
        Arc::default()
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        // A panic inside the lock leaves whole chunks (taking and giving only move them).
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// An empty chunk of [`CHUNK`] pairs' room: a free one, else a new one (where a pass
    /// files more than the pool held room for).
    pub(crate) fn take(&self) -> Vec<(u32, u32)> {
        let mut state = self.state();
        if let Some(chunk) = state.free.pop() {
            return chunk;
        }
        state.made += 1;
        state.ran_out = true;
        let made = state.made;
        // Room to give every chunk back without growing.
        state.free.reserve(made);
        Vec::with_capacity(CHUNK)
    }

    /// Takes `chunks` back, emptied.
    pub(crate) fn give(&self, chunks: impl Iterator<Item = Vec<(u32, u32)>>) {
        let mut state = self.state();
        for mut chunk in chunks {
            chunk.clear();
            state.free.push(chunk);
        }
    }

    /// How many chunks there are, free or held.
    pub(crate) fn made(&self) -> usize {
        self.state().made
    }

    /// Before a pass that holds at most `chunks` chunks at once (those its lists hold already
    /// included): where fewer were made, chunks made until there are half as many again (the
    /// bound swings with the lists a pass reads), so that the pass takes no new one.
    pub(crate) fn room_for_at_most(&self, chunks: usize) {
        let mut state = self.state();
        if state.made < chunks {
            state.make_up_to(chunks + chunks / 2);
        }
    }

    /// After a pass whose tasks held `held` chunks: where the pass ran out of free chunks
    /// (and made some), chunks made until there are half as many again as `held`, and
    /// `tasks` more (a task holds a chunk that is not full), so that a busier pass does not
    /// allocate. Whether it made any. Only where it ran out: grown also where fewer than a
    /// quarter more than `held` were free, the pool grew in a frame that needed none (a
    /// turning loop on sixteen threads, the first rebuild after the finder's timed search
    /// from scratch, with more tasks than the first).
    pub(crate) fn room_for(&self, held: usize, tasks: usize) -> bool {
        let mut state = self.state();
        let want = held + held / 2 + tasks;
        if !core::mem::take(&mut state.ran_out) || state.made >= want {
            return false;
        }
        state.make_up_to(want);
        true
    }
}

impl State {
    /// New free chunks until `want` were made in all (more than now).
    fn make_up_to(&mut self, want: usize) {
        self.free.reserve(want - self.free.len());
        self.free
            .extend((self.made..want).map(|_| Vec::with_capacity(CHUNK)));
        self.made = want;
    }
}

/// A list of pairs in chunks of [`CHUNK`] taken from a shared [`Chunks`] as the last one
/// fills: `full` ones, then `open`, which has room for a chunk once the list is cleared for a
/// pool ([`clear_from`](Self::clear_from)). One never cleared for a pool makes its own chunks.
#[derive(Debug, Default)]
pub(crate) struct Chunked {
    full: Vec<Vec<(u32, u32)>>,
    open: Vec<(u32, u32)>,
    pool: Option<Arc<Chunks>>,
}

impl Chunked {
    /// An empty list with no pool (see [`clear_from`](Self::clear_from)).
    pub(crate) const fn new() -> Self {
        Self {
            full: Vec::new(),
            open: Vec::new(),
            pool: None,
        }
    }

    /// Empty, its chunks from `pool` (its full ones given back; those of another pool, which
    /// it held before, dropped), with room for a chunk.
    pub(crate) fn clear_from(&mut self, pool: &Arc<Chunks>) {
        if !self.pool.as_ref().is_some_and(|p| Arc::ptr_eq(p, pool)) {
            self.full.clear();
            self.open = Vec::new();
            self.pool = Some(Arc::clone(pool));
        }
        self.clear();
        if self.open.capacity() < CHUNK {
            self.open = pool.take();
        }
    }

    /// Empty: its full chunks given back to its pool, the open one kept.
    pub(crate) fn clear(&mut self) {
        self.release();
        self.open.clear();
    }

    /// Appends `pair`.
    #[inline(always)]
    pub(crate) fn push(&mut self, pair: (u32, u32)) {
        if self.open.len() == CHUNK {
            self.next_chunk();
        }
        self.open.push(pair);
    }

    /// `open` full: a chunk from the pool in its place (a new one where there is no pool).
    #[cold]
    fn next_chunk(&mut self) {
        let next = self
            .pool
            .as_ref()
            .map_or_else(|| Vec::with_capacity(CHUNK), |pool| pool.take());
        self.full.push(core::mem::replace(&mut self.open, next));
    }

    /// How many pairs it holds.
    pub(crate) fn len(&self) -> usize {
        self.full.len() * CHUNK + self.open.len()
    }

    /// Its chunks in order, the pairs as pushed.
    pub(crate) fn chunks(&self) -> impl Iterator<Item = &[(u32, u32)]> {
        self.full.iter().map(Vec::as_slice).chain([&self.open[..]])
    }

    /// Its pairs into `dst`, which holds as many.
    pub(crate) fn copy_to(&self, dst: &mut [(u32, u32)]) {
        debug_assert_eq!(dst.len(), self.len());
        for (d, c) in dst.chunks_mut(CHUNK).zip(self.chunks()) {
            d.copy_from_slice(c);
        }
    }

    /// The chunks it holds.
    pub(crate) fn held(&self) -> usize {
        self.full.len() + 1
    }

    /// Its full chunks given back to the pool they came from, once what it holds was read
    /// (dropped where it has no pool).
    pub(crate) fn release(&mut self) {
        match &self.pool {
            Some(pool) if !self.full.is_empty() => pool.give(self.full.drain(..)),
            Some(_) => {}
            None => self.full.clear(),
        }
    }

    /// Room to hold `chunks` chunks without growing its list of them.
    pub(crate) fn room_for_chunks(&mut self, chunks: usize) {
        crate::room::reserve_to(&mut self.full, chunks);
    }
}

/// Appends pairs one by one (see [`Chunked::push`]).
impl<'a> Extend<&'a (u32, u32)> for Chunked {
    fn extend<I: IntoIterator<Item = &'a (u32, u32)>>(&mut self, pairs: I) {
        for &pair in pairs {
            self.push(pair);
        }
    }
}

/// After a pass that wrote `lists` of the first `used` of `parts` (its tasks' scratch), once
/// they were read: every part's full chunks of them back to `pool`, and room there for a
/// busier pass (see [`Chunks::room_for`]: half as many chunks again as the lists held, where
/// the pass ran out). Each list's list of the chunks it holds (three words a chunk, 24 bytes
/// for 8 kB) takes room for every chunk, so that it grows only in a call that makes chunks:
/// room for four times the busiest task's, on sixteen threads, grew 96 tasks' lists in one
/// frame of a steady loop (an escapers' pass of few tasks, each with a share of pairs beyond
/// any before).
pub(crate) fn room_for_lists<P, const N: usize>(
    parts: &mut [P],
    used: usize,
    pool: &Chunks,
    lists: impl Fn(&mut P) -> [&mut Chunked; N],
) {
    let held = parts[..used]
        .iter_mut()
        .flat_map(|p| lists(p).map(|l| l.held()))
        .sum();
    // Each list holds a chunk that is not full.
    pool.room_for(held, N * parts.len());
    let made = pool.made();
    for p in parts.iter_mut() {
        for list in lists(p) {
            list.release();
            list.room_for_chunks(made);
        }
    }
}

/// Each of `lists` as the parts of every task one after another (resized, with room where it
/// grows, its old items overwritten): list `j` takes the lists `parts(t, j)` of each task `t`
/// in turn, copied on rayon's threads as [`fill_parts`] splits them.
pub(crate) fn concat_chunked<'s, P: Sync, const N: usize, const M: usize>(
    lists: [&mut Vec<(u32, u32)>; N],
    tasks: &'s [P],
    parts: &(impl Fn(&'s P, usize) -> [&'s Chunked; M] + Sync),
) {
    let len = |t: &'s P, j: usize| parts(t, j).iter().map(|c| c.len()).sum::<usize>();
    let mut j = 0;
    let dst = lists.map(|list| {
        let total = tasks.iter().map(|t| len(t, j)).sum();
        j += 1;
        resize_with_room(list, total, (0, 0));
        &mut list[..]
    });
    fill_parts(dst, tasks, &len, &|t, outs: [&mut [(u32, u32)]; N]| {
        for (j, out) in outs.into_iter().enumerate() {
            let mut rest = out;
            for list in parts(t, j) {
                let mine;
                (mine, rest) = core::mem::take(&mut rest).split_at_mut(list.len());
                list.copy_to(mine);
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Chunks taken and given back are taken again rather than made; a pass that runs out
    /// makes more, and the room after it takes half as many again; a pass that does not run
    /// out makes none, however few are left free.
    #[test]
    fn chunks_are_made_once_and_taken_again() {
        let pool = Chunks::shared();
        let first: Vec<_> = (0..3).map(|_| pool.take()).collect();
        assert_eq!(pool.made(), 3);
        assert!(first.iter().all(|c| c.is_empty() && c.capacity() >= CHUNK));
        let mut full = first;
        full[0].push((1, 2));
        pool.give(full.into_iter());
        assert!(pool.room_for(3, 2), "ran out");
        assert_eq!(pool.made(), 3 + 1 + 2);
        let again: Vec<_> = (0..6).map(|_| pool.take()).collect();
        assert_eq!(pool.made(), 6, "taken again, not made");
        assert!(again.iter().all(Vec::is_empty), "given back emptied");
        pool.give(again.into_iter());
        assert!(
            !pool.room_for(6, 2),
            "none left free, but it did not run out"
        );
        let more: Vec<_> = (0..8).map(|_| pool.take()).collect();
        assert_eq!(pool.made(), 8, "two made in the pass");
        assert!(pool.room_for(8, 2));
        assert_eq!(pool.made(), 8 + 4 + 2);
        assert!(!pool.room_for(8, 2), "room enough already");
        pool.give(more.into_iter());
    }

    /// A chunked list holds what was pushed and extended, in order, across chunks (copied
    /// whole, read chunk by chunk), with or without a pool; cleared, it is empty and keeps
    /// one chunk, its full ones back in its pool to be taken again; cleared for another
    /// pool, it takes that pool's chunks.
    #[test]
    fn a_chunked_list_keeps_its_pairs_in_order() {
        let pairs: Vec<(u32, u32)> = (0..3 * CHUNK as u32 + 5).map(|i| (i, !i)).collect();
        let (pool, other) = (Chunks::shared(), Chunks::shared());
        for with_pool in [false, true] {
            let mut list = Chunked::new();
            if with_pool {
                list.clear_from(&pool);
            }
            for round in 0..2 {
                let (head, tail) = pairs.split_at(CHUNK + 1);
                head.iter().for_each(|&p| list.push(p));
                list.extend(tail);
                assert_eq!(list.len(), pairs.len(), "{with_pool} {round}");
                assert_eq!(list.held(), 4);
                let read: Vec<_> = list.chunks().flatten().copied().collect();
                assert_eq!(read, pairs);
                let mut copied = vec![(0, 0); pairs.len()];
                list.copy_to(&mut copied);
                assert_eq!(copied, pairs);
                list.clear();
                assert_eq!((list.len(), list.held()), (0, 1));
            }
            // Four chunks made in the first round, taken again in the second.
            assert_eq!(pool.made(), if with_pool { 4 } else { 0 });
        }
        let mut list = Chunked::new();
        list.clear_from(&pool);
        list.extend(&pairs);
        list.clear_from(&other);
        assert_eq!((list.len(), other.made()), (0, 1));
        list.extend(&pairs);
        assert_eq!(other.made(), 4, "from its new pool");
    }
}

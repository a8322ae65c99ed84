//! The chunks that the tasks of a pass file their pairs into, shared by all of them: a task
//! takes one as it fills the last, and gives the full ones back once what it filed was read
//! (see `room_for_filed`).
//!
//! One list a task kept room for the busiest task's share (a share swings with the escapers
//! and the cells in each task's range), on every task: on sixteen threads (128 tasks) the
//! filed lists of a 40 k-shape world held 70 MB for a rebuild's 8 MB of pairs. The chunks
//! are held once, for the most pairs the tasks filed together, and a task holds at most one
//! that is not full.

use std::sync::{Arc, Mutex, PoisonError};

/// Pairs a chunk holds: 8 kB. A task's last chunk is partly empty, at most this much of it
/// on each of up to 128 tasks (1 MB); a million pairs take a thousand chunks, each taken
/// under the pool's lock.
pub(super) const CHUNK: usize = 1024;

/// The chunks no task holds, and how many there are in all (see the module's doc).
#[derive(Debug, Default)]
pub(super) struct Chunks {
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
    pub(super) fn shared() -> Arc<Self> {
        Arc::default()
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        // A panic inside the lock leaves whole chunks (taking and giving only move them).
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// An empty chunk of [`CHUNK`] pairs' room: a free one, else a new one (where a pass
    /// files more than the pool held room for).
    pub(super) fn take(&self) -> Vec<(u32, u32)> {
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
    pub(super) fn give(&self, chunks: impl Iterator<Item = Vec<(u32, u32)>>) {
        let mut state = self.state();
        for mut chunk in chunks {
            chunk.clear();
            state.free.push(chunk);
        }
    }

    /// How many chunks there are, free or held.
    pub(super) fn made(&self) -> usize {
        self.state().made
    }

    /// After a pass whose tasks held `held` chunks: where the pass ran out of free chunks
    /// (and made some), chunks made until there are half as many again as `held`, and
    /// `tasks` more (a task holds a chunk that is not full), so that a busier pass does not
    /// allocate. Whether it made any. Only where it ran out: grown also where fewer than a
    /// quarter more than `held` were free, the pool grew in a frame that needed none (a
    /// turning loop on sixteen threads, the first rebuild after the finder's timed search
    /// from scratch, with more tasks than the first).
    pub(super) fn room_for(&self, held: usize, tasks: usize) -> bool {
        let mut state = self.state();
        let State {
            free,
            made,
            ran_out,
        } = &mut *state;
        let want = held + held / 2 + tasks;
        if !core::mem::take(ran_out) || *made >= want {
            return false;
        }
        free.reserve(want - free.len());
        free.extend((*made..want).map(|_| Vec::with_capacity(CHUNK)));
        *made = want;
        true
    }
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
}

//! The kept finder's indices: the moving slots numbered in the grid's order at a rebuild, so
//! that the candidates of neighbouring shapes read neighbouring records, and each call's
//! records gathered in that order.

use super::Kept;
use super::copies::Copies;
use super::follow::STAYED;
use super::lists::TAG;
use super::tasks::{MIN_TASK, Task, chunk_len, each_task, plan};
use crate::concat::copy_runs;
use crate::prefetch::{AHEAD, prefetch};
use crate::scene::records::Record;
use crate::scene::store::Scene;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

impl Kept {
    /// Numbers the `n` moving slots in the order of the grid just built over their enlarged
    /// boxes, whose items are the slots (the slots left out of it after, ascending): the grid's
    /// items become its positions, which are the slots' indices.
    pub(super) fn number(&mut self, n: usize) {
        let entered = self.grid.len();
        let ids = &mut self.ids[..entered];
        number_slots(
            ids,
            n,
            &mut self.slot_of,
            &mut self.index_of,
            &mut self.tasks,
        );
        ids.par_iter_mut()
            .enumerate()
            .for_each(|(x, id)| *id = x as u32);
        self.top = n;
        self.escaped.clear();
        self.escaped.resize(n, STAYED);
    }

    /// Indices for the slots pushed since the last call: each its own slot, beyond those the
    /// finder has (which then number as many as the slots).
    pub(super) fn number_new(&mut self, n: usize) {
        let top = self.top.max(n);
        self.slot_of.extend(self.top as u32..top as u32);
        (self.index_of).extend((self.top as u32..top as u32).map(AtomicU32::new));
        self.escaped.resize(top, STAYED);
        self.top = top;
    }

    /// Every index's record, read from the scene by its slot (inert for a hole), and its
    /// [`TAG`], in parallel, for the kernels and the filing; then the moving polygons'
    /// vertices copied in the same order (see `copies.rs`). The first `written` slots' records
    /// are in place already (the escape check wrote those that changed since the last call:
    /// see `escape.rs`): then only the slots beyond, pushed or removed since the last call,
    /// are read, and only the polygons written copied (but where the copies no record points
    /// to have grown too many: every record is then read again, see `copies.rs`).
    pub(super) fn gather(&mut self, scene: &Scene, written: usize) {
        let records = (&mut self.local, &mut self.kinds, &mut self.copies);
        let numbers = (&self.index_of[..], &self.slot_of[..]);
        gather(scene, written, self.top, records, numbers);
    }
}

/// [`Kept::gather`] of the `top` indices, over the finder's records, their tags and the
/// polygons' copies, by its numbers (`index_of`, `slot_of`): apart from the rest of the
/// finder, so that the escapers' move may run beside it.
pub(super) fn gather(
    scene: &Scene,
    written: usize,
    top: usize,
    (local, kinds, copies): (&mut Vec<Record>, &mut Vec<u32>, &mut Copies),
    (index_of, slot_of): (&[AtomicU32], &[u32]),
) {
    let records = &scene.moving.records[..];
    let read = move |s: u32| records.get(s as usize).copied().unwrap_or(Record::INERT);
    size_records((local, kinds, copies), top);
    if written > 0 {
        for (s, index) in index_of.iter().enumerate().skip(written) {
            let i = index.load(Relaxed) as usize;
            copies.put(s, (&mut local[i], &mut kinds[i]), &read(s as u32));
        }
        if copies.write(scene) {
            return;
        }
    }
    let chunk = chunk_len(top);
    let pieces = (local.par_chunks_mut(chunk))
        .zip(kinds.par_chunks_mut(chunk))
        .zip(slot_of.par_chunks(chunk));
    crate::awake::for_each(pieces, |((local, kinds), slots)| {
        for (n, ((r, k), &s)) in local.iter_mut().zip(kinds).zip(slots).enumerate() {
            // The record a few indices ahead (see `prefetch.rs`).
            if let Some(&ahead) = slots.get(n + AHEAD)
                && let Some(a) = records.get(ahead as usize)
            {
                prefetch(a);
            }
            *r = read(s);
            *k = r.kind & TAG;
        }
    });
    copies.copy_all((&mut local[..], &kinds[..], slot_of), scene);
}

/// A kept finder's `local` records, their `kinds` and the copies' places with room for
/// `indices` indices (the moving slots and the holes of a scene that shrank, as many as the
/// slots), for records written at their indices.
pub(super) fn size_records(
    (local, kinds, copies): (&mut Vec<Record>, &mut Vec<u32>, &mut Copies),
    indices: usize,
) {
    local.resize(indices, Record::INERT);
    kinds.resize(indices, 0);
    copies.size(indices);
}

/// Numbers slots `0 .. n`: the slots `entered` (each once, in the grid's order) take indices
/// `0 ..` in that order, the others the indices after them, ascending. `slot_of` gets each
/// index's slot, `index_of` each slot's index.
///
/// On rayon's threads: each task writes the indices of a range of `entered` wherever their
/// slots lie (each slot's index written once, so atomics that need no ordering suffice), then
/// tasks by ranges of slots list those left out. At a million shapes the pass on one thread
/// was 1.4–1.8 ms of a rebuild (Zen 5), the longest that ran alone; tasks that owned ranges of
/// slots and read every entered slot lost on two threads (a coin toss of a branch per slot
/// emptied the pipeline of the writes' cache misses: 3.7–5.7 ms).
fn number_slots(
    entered: &[u32],
    n: usize,
    slot_of: &mut Vec<u32>,
    index_of: &mut Vec<AtomicU32>,
    tasks: &mut Vec<Task>,
) {
    let chunk = chunk_len(n);
    index_of.truncate(n);
    index_of
        .par_chunks(chunk)
        .for_each(|part| part.iter().for_each(|x| x.store(u32::MAX, Relaxed)));
    index_of.resize_with(n, || AtomicU32::new(u32::MAX));
    let slots = &index_of[..];
    entered.par_chunks(chunk).enumerate().for_each(|(c, part)| {
        for (x, &s) in (c * chunk..).zip(part) {
            slots[s as usize].store(x as u32, Relaxed);
        }
    });
    // The slots left out take the indices after the entered ones, task after task.
    let tasks = plan(tasks, n, MIN_TASK);
    each_task(tasks, |_, t| {
        t.ids.clear();
        t.ids.extend(
            t.range
                .clone()
                .filter(|&s| slots[s].load(Relaxed) == u32::MAX)
                .map(|s| s as u32),
        );
    });
    let mut next = entered.len() as u32;
    for t in tasks.iter_mut() {
        t.base = next;
        next += t.ids.len() as u32;
    }
    each_task(tasks, |_, t| {
        for (x, &s) in (t.base..).zip(&t.ids) {
            slots[s as usize].store(x, Relaxed);
        }
    });
    copy_runs([slot_of], [entered], &|s| s);
    for t in tasks.iter() {
        slot_of.extend_from_slice(&t.ids);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The numbering one slot after another: entered slots first, then the rest ascending.
    fn one_by_one(entered: &[u32], n: usize) -> (Vec<u32>, Vec<u32>) {
        let mut seen = vec![false; n];
        entered.iter().for_each(|&s| seen[s as usize] = true);
        let mut slot_of = entered.to_vec();
        slot_of.extend((0..n as u32).filter(|&s| !seen[s as usize]));
        let mut index_of = vec![0; n];
        for (x, &s) in slot_of.iter().enumerate() {
            index_of[s as usize] = x as u32;
        }
        (slot_of, index_of)
    }

    #[test]
    fn numbering_is_the_same_on_any_thread_count() {
        // Below and above one task's worth, every slot entered or a few, many or most left
        // out, entered in a scrambled order.
        for n in [0, 7, MIN_TASK - 1, MIN_TASK + 5, 3 * MIN_TASK + 1] {
            for keep in [1, 2, 5, 97] {
                let mut entered: Vec<u32> = (0..n as u32).filter(|s| s % keep == 0).collect();
                let len = entered.len();
                for i in 0..len {
                    entered.swap(i, (i * 7919 + 13) % len);
                }
                let want = one_by_one(&entered, n);
                for threads in [1, 2, 3, 16] {
                    let (mut slot_of, mut index_of, mut tasks) =
                        (vec![9], vec![AtomicU32::new(9)], vec![]);
                    crate::test_pool::in_pool(threads, || {
                        number_slots(&entered, n, &mut slot_of, &mut index_of, &mut tasks);
                    });
                    let index_of = index_of.into_iter().map(AtomicU32::into_inner).collect();
                    let got = (slot_of, index_of);
                    assert!(
                        got == want,
                        "{n} slots, every {keep}th entered, {threads} threads"
                    );
                }
            }
        }
    }
}

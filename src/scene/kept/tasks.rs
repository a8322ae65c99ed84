//! The kept frame's rayon tasks: each a share of a pass with scratch of its own, kept from
//! call to call.

use super::filed::Filed;
use crate::concat::concat_all;
use crate::room::{Room, room_for_each, room_for_each_of};
use crate::scene::candidates::{Candidates, PAIR_KINDS};
use crate::scene::chunks::{Chunked, Chunks, room_for_lists};
use crate::tasks::fine_tasks_of;
use core::ops::Range;
use rayon::prelude::*;
use std::time::Duration;

/// Items below which a coherent pass stays one task (a second thread would cost more than it
/// saves); above, tasks of a quarter of that at the least (see [`plan`]).
pub(super) const MIN_TASK: usize = 16 * 1024;

/// The chunk length of a coherent pass over `n` items by `par_chunks`: all of them below
/// [`MIN_TASK`], else a quarter of it (see [`plan`]).
pub(super) fn chunk_len(n: usize) -> usize {
    if n < MIN_TASK { MIN_TASK } else { MIN_TASK / 4 }
}

/// One rayon task's share of a pass and its scratch. Each on cache lines of its own (and
/// their 128-byte pairs, which Intel cores fetch together): the tasks lie end to end, 12.8 kB
/// each, and one's last fields (the escape check's counts) shared a line with the next one's
/// first (`found`, pushed to by the searches) while both ran. No change measured on two
/// threads, where the neighbours mostly run on one thread; on sixteen they run together.
#[derive(Debug, Default)]
#[repr(align(128))]
pub(super) struct Task {
    pub(super) range: Range<usize>,
    /// How long the task took to decide its candidates.
    pub(super) time: Duration,
    /// Pairs or ids the task found (and mixed pairs), and the search's candidate buffer.
    pub(super) found: Vec<(u32, u32)>,
    /// The pairs of the last answer whose candidates the task dropped.
    pub(super) ended: Chunked,
    pub(super) mixed: Vec<(u32, u32)>,
    /// The shapes whose neighbourhood the task found wanting, `(slot, number of static shapes
    /// found for it, new far box)`, those static shapes in `hood` as `(neighbour slot, box)`
    /// (the slot [`NONE`](crate::scene::statics::NONE) until it is given one: `pending` holds
    /// `(place in hood, grid position)` of those, `claimed` the grid positions of those this
    /// task claimed), and the neighbour slots whose last user left on the way.
    pub(super) requery: Vec<(u32, u32, [f32; 4])>,
    pub(super) hood: Vec<(u32, [f32; 4])>,
    pub(super) pending: Vec<(u32, u32)>,
    pub(super) claimed: Vec<u32>,
    pub(super) emptied: Vec<u32>,
    /// Candidates the task left unfiled because their filters do not pair.
    pub(super) filtered: usize,
    /// Pairs the task filed, all kinds in one list (see [`Filed`]); and how many candidates
    /// of each list it wrote as they follow the escapers' moves (the moving lists', then the
    /// mixed ones': see `written.rs`).
    pub(super) filed: Filed,
    pub(super) written: [usize; 2 * PAIR_KINDS],
    /// The escapers the task found that enter the grid, `(id, new enlarged box)` (their
    /// `(key, number)` in `found`), how they change the count of boxes outside their
    /// level's cells, how many jumped, and whether one fits no level.
    pub(super) entering: Vec<(u32, [f32; 4])>,
    pub(super) was_in: Vec<u32>,
    pub(super) outside: isize,
    pub(super) jumps: usize,
    pub(super) unkeyed: bool,
    /// Where the task's `entering` starts in the call's.
    pub(super) base: u32,
    pub(super) ids: Vec<u32>,
    /// The old enlarged boxes of the escapers in `ids`, and each one's index and flag
    /// ([`MOVED`](super::follow::MOVED) where its slot holds the shape it held at the last
    /// call, else [`TAKEN`](super::follow::TAKEN)).
    pub(super) olds: Vec<[f32; 4]>,
    pub(super) marks_found: Vec<(u32, u8)>,
    /// The slots the escape check found changed since the last call, listed while they are
    /// few; whether it listed them all (see `escape.rs`).
    pub(super) changed: Vec<u32>,
    pub(super) listed: bool,
    /// How many slots the escape check looked at: those changed since the last call.
    pub(super) looked: usize,
    /// How many items of its range a pass that counts before it writes keeps (the entries
    /// that change cells: see `moves.rs`).
    pub(super) kept: usize,
    /// The blocks of first indices the task found busy (see `still.rs`).
    pub(super) marks: Vec<u32>,
    pub(super) buf: Vec<(u32, u32)>,
    pub(super) narrow: Candidates,
}

impl Task {
    /// Forgets the shapes whose neighbourhoods the task found wanting, and what it found
    /// for them.
    pub(super) fn clear_requeries(&mut self) {
        self.requery.clear();
        self.hood.clear();
        self.pending.clear();
        self.claimed.clear();
        self.emptied.clear();
    }
}

/// After a walk that ran the first `used` of `tasks`, once what it found was read: the full
/// chunks of every task's lists of the pairs that began and ended, of those whose candidates
/// it dropped and of those found without events (a rebuild's walk) back to `pool`, and room
/// there for a busier walk ([`room_for_lists`]). A task's share of a call's pairs changes from
/// call to call with its range of first positions: each task's own lists, with room for twice
/// the busiest share of any task, grew every task's lists the first time one met a busier
/// share than any before (now and then dozens or hundreds of frames after the warm-up: in a
/// drifting world, 384 lists in one frame on sixteen threads, and a rebuild's pairs on three
/// and six). The chunks grow only with the pairs of all tasks together.
pub(super) fn room_for_events(tasks: &mut [Task], used: usize, pool: &Chunks) {
    room_for_lists(tasks, used, pool, |t| {
        let narrow = &mut t.narrow;
        [
            &mut narrow.began,
            &mut narrow.ended,
            &mut narrow.pairs,
            &mut t.ended,
        ]
    });
}

/// After a pass that filed pairs in the first `used` of `tasks`, and after what it filed was
/// read: every task's full chunks back to `pool`, and room there for a busier pass
/// ([`room_for_lists`]). The escapers' queries and the mixed searches file a share that
/// changes with the escapers of each task's range, a rebuild a hundred times as many: the
/// chunks serve them all, the pairs of a pass held once.
pub(super) fn room_for_filed(tasks: &mut [Task], used: usize, pool: &Chunks) {
    room_for_lists(tasks, used, pool, |t| [&mut t.filed.list]);
}

/// After a mixed search ([`find_mixed`](super::mixed::find_mixed)) in the first `used` of
/// `tasks`, grows every task's lists of it with room for a busier share
/// ([`room_for_each_of`], each list on its own, 64 items over four times the mean): the mixed
/// pairs found, and the neighbourhoods sought and what they found. Which tasks: as in
/// [`room_for_filed`].
pub(super) fn room_for_hoods(tasks: &mut [Task], used: usize) {
    // A search that sought every task's neighbourhoods (a first build) finds about as many
    // neighbours as the next one that keeps them (a rebuild after a timed search from
    // scratch) finds mixed pairs, of the same tasks: that one grew every task's list, so
    // each takes room for the most neighbours a task sought.
    let sought = tasks[..used]
        .iter()
        .map(|t| t.hood.len())
        .max()
        .unwrap_or(0);
    for t in tasks[..used].iter_mut() {
        t.mixed.grow_to(sought);
    }
    room_for_each_of(tasks, used, 64, |t| -> [&mut dyn Room; 6] {
        [
            &mut t.mixed,
            &mut t.hood,
            &mut t.requery,
            &mut t.pending,
            &mut t.claimed,
            &mut t.emptied,
        ]
    });
}

/// Grows every task's lists of the escape check (see `escape.rs`) with room for a busier
/// share ([`room_for_each`], each list on its own, 64 items over four times the mean): the
/// escapers found and their marks and old boxes, the entries and their keys, and the slots
/// changed. A task's share of the escapers changes from call to call with where its range's
/// shapes move: in a loop whose shapes wander a little (0.03 of their size a frame), on six
/// threads and more, one task's lists grew now and then, dozens of frames after the warm-up.
pub(super) fn room_for_escapes(tasks: &mut [Task]) {
    room_for_each(tasks, 64, |t| -> [&mut dyn Room; 7] {
        [
            &mut t.ids,
            &mut t.marks_found,
            &mut t.olds,
            &mut t.found,
            &mut t.entering,
            &mut t.was_in,
            &mut t.changed,
        ]
    });
}

/// Where the tasks of a walk over the candidate lists split each list (see
/// [`split_parts`](super::splits::split_parts)), and at which first positions: the next call
/// searches from the last call's positions, which the escapers' moves shift little. (From
/// the even shares' positions a search took 3.6–5.1 steps a boundary, each a binary search
/// over every list: at 100 k shapes on 16 threads, 64 tasks, about 1.1 ms of work a frame
/// among crowds. From the last call's, 2.4–2.9 steps and 0.6–0.8 ms: a step waits on the
/// lists' misses, and where one first position holds more candidates than the tolerance the
/// search still ends at one position.)
#[derive(Debug, Default)]
pub(super) struct Splits {
    /// Each task's first candidate in every list, and the lists' ends.
    pub(super) at: Vec<[(usize, usize); 2 * PAIR_KINDS]>,
    /// The first position of each task but the first.
    pub(super) positions: Vec<u32>,
    /// Each boundary's splits and position as its search found them.
    pub(super) found_at: Vec<([(usize, usize); 2 * PAIR_KINDS], u32)>,
}

/// Runs `f` on each task and its number: on rayon's threads, a thread that ends its share
/// first waiting for the rest awake (`awake::for_each`), or on this one where there is one
/// task (a caller outside the pool would otherwise hand it to a worker and wait; the 100 k
/// frame measured the same either way, the point is to not depend on it).
pub(super) fn each_task(tasks: &mut [Task], f: impl Fn(usize, &mut Task) + Sync + Send) {
    if let [t] = tasks {
        f(0, t);
    } else {
        crate::awake::for_each(tasks.par_iter_mut().enumerate(), |(k, t)| f(k, t));
    }
}

/// Splits `0 .. n` into tasks of about a quarter of `min` and more
/// ([`fine_tasks_of`](crate::tasks::fine_tasks_of): up to eight a thread on many threads) and
/// returns them.
/// Tasks beyond those are kept with their scratch, so that a pass with fewer tasks does not
/// free what the next one needs.
pub(super) fn plan(tasks: &mut Vec<Task>, n: usize, min: usize) -> &mut [Task] {
    plan_of(tasks, n, min, min / 4)
}

/// [`plan`] with tasks as small as about `least` items ([`fine_tasks_of`]).
pub(super) fn plan_of(tasks: &mut Vec<Task>, n: usize, min: usize, least: usize) -> &mut [Task] {
    let want = fine_tasks_of(n, min, least);
    if tasks.len() < want {
        tasks.resize_with(want, Task::default);
    }
    let tasks = &mut tasks[..want];
    for (k, t) in tasks.iter_mut().enumerate() {
        t.range = n * k / want..n * (k + 1) / want;
    }
    tasks
}

/// `list` as exactly `part` of every task, one after another in task order (resized, its old
/// items overwritten), each copied where it lies in `list` on rayon's threads.
pub(super) fn concat<T: Copy + Default + Send + Sync>(
    list: &mut Vec<T>,
    tasks: &[Task],
    part: &(impl Fn(&Task) -> &[T] + Sync),
) {
    concat_all([list], tasks, &|t, _| part(t), &|_, _, x| x);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::chunks::{CHUNK, Chunks};

    /// Sixteen tasks file forty chunks' pairs and a few, all in the first task, then spread
    /// evenly, then all in the last: the first pass and its room are the only ones that make
    /// chunks (half as many again as the tasks held, and one a task), the shares that move
    /// between tasks take no new one, and each pass gives every full chunk back.
    #[test]
    fn shares_that_move_between_tasks_take_no_new_chunk() {
        let pool = Chunks::shared();
        let mut tasks: Vec<Task> = (0..16).map(|_| Task::default()).collect();
        let total = 40 * CHUNK + 5;
        let pass = |tasks: &mut [Task], share: &dyn Fn(usize) -> usize| {
            for (k, t) in tasks.iter_mut().enumerate() {
                t.filed.clear(1 << 20, &pool);
                for i in 0..share(k) {
                    t.filed
                        .put(k % PAIR_KINDS, (i as u32 % (1 << 20), k as u32));
                }
            }
            let filed: usize = tasks.iter().map(|t| t.filed.len()).sum();
            assert_eq!(filed, (0..16).map(share).sum::<usize>());
            room_for_filed(tasks, 16, &pool);
            assert!(
                tasks.iter().all(|t| t.filed.list.held() == 1),
                "full chunks given back"
            );
        };
        pass(&mut tasks, &|k| if k == 0 { total } else { 0 });
        // The first task's 41 chunks, and the other tasks' one each.
        let held = 41 + 15;
        let made = pool.made();
        assert_eq!(made, held + held / 2 + 16);
        pass(&mut tasks, &|k| total / 16 + usize::from(k < total % 16));
        assert_eq!(pool.made(), made, "spread evenly");
        pass(&mut tasks, &|k| if k == 15 { total } else { 0 });
        assert_eq!(pool.made(), made, "all in the last task");
        // A pass of twice the pairs fits in the room; one of three times makes more, and its
        // room takes half as many again.
        pass(&mut tasks, &|k| if k == 3 { 2 * total } else { 0 });
        assert_eq!(pool.made(), made, "twice the pairs");
        pass(&mut tasks, &|k| if k == 3 { 3 * total } else { 0 });
        assert_eq!(pool.made(), 121 + 15 + (121 + 15) / 2 + 16);
    }
}

//! Deciding the kept lists: the tasks split every list by first position, each writes its
//! share anew as it follows the escapers' moves and runs the kernels over it, a window of
//! positions at a time so that the records stay in cache for every pair kind.

use super::follow::{Follow, Part};
use super::splits::split_parts;
use super::tasks::{MIN_TASK, Task, plan, room_for_events};
use super::written::{Share, place};
use super::{Kept, KeptStats};
use crate::room::reserve_swinging;
use crate::scene::blocks::ahead_or_all;
use crate::scene::candidates::{Candidates, PAIR_KINDS};
use crate::scene::chunks::{Chunked, Chunks, concat_chunked};
use crate::scene::pack::Shared;
use crate::scene::store::Scene;
use std::sync::Arc;
use std::time::Instant;

/// First positions per window of the walk over the candidate lists (more where few blocks
/// are busy, see [`window_len`]).
pub(super) const WINDOW: u32 = 16 * 1024;

impl Kept {
    /// The kernels over the kept candidates and mixed candidates, on rayon's threads: the ids
    /// of those that overlap, `(smaller, larger)`, in `out` (written over). Each task
    /// decides the candidates of every list whose first positions fall in a range of its own
    /// (see [`split_parts`] and [`walk`]), and sets their
    /// [`HIT`](crate::scene::candidates::HIT) flags to their hits. With `events`, the hits
    /// that began and ended go to `self.began` and `self.ended` instead (see
    /// [`Candidates::decide_list`]), and `out` is left as it is.
    ///
    /// Where the lists follow the escapers' moves ([`Follow`]), each is written anew as it is
    /// decided, the escapers' candidates dropped (the pairs of flagged ones ended) and the new
    /// ones merged in, in the same pass: a list is read once per frame, not once to follow the
    /// moves and once more for the kernels. Several tasks write it where it will lie, with
    /// pads (see `written.rs`).
    pub(super) fn decide_lists(
        &mut self,
        scene: &Scene,
        out: &mut Vec<(u32, u32)>,
        stats: &mut KeptStats,
        events: bool,
    ) {
        let n = self.top as u32;
        let pool = &self.answer_chunks;
        let follow = self.follow.map(|before| Follow {
            before,
            after: n,
            escaped: &self.escaped,
            records: &self.local,
            last_ids: &self.slot_ids,
            slot_of: &self.slot_of,
            labels: &self.statics.labels,
        });
        if follow.is_none() {
            // Decided where they lie, the lists must not hold pads.
            self.candidates.unpad();
            self.mixed.unpad();
        }
        let follows = [follow.is_some(), follow.is_some() && self.follow_mixed];
        let touched = &self.touched[..];
        let [moving, mixed] = [&mut self.candidates, &mut self.mixed];
        let kinds = [&moving.kinds, &mixed.kinds];
        // Each set's new candidates by kind, in runs of its `new` (see `Lists::added`).
        let added = [(&moving.new, &moving.added), (&mixed.new, &mixed.added)];
        let added = |set: usize, kind: usize| &added[set].0[added[set].1[kind].clone()];
        let count =
            |lists: &[Vec<(u32, u32)>; PAIR_KINDS]| lists.iter().map(Vec::len).sum::<usize>();
        let new = |set: usize| (0..PAIR_KINDS).map(|k| added(set, k).len()).sum::<usize>();
        let total: usize = (0..2)
            .map(|set| count(kinds[set]) + if follows[set] { new(set) } else { 0 })
            .sum();
        if total == 0 {
            out.clear();
            return;
        }
        let tasks = plan(&mut self.tasks, total, MIN_TASK);
        let shared = Shared::new(&self.grid, &self.local, [scene, scene], 0, false)
            .with_tail(&self.neighbours)
            .with_copies(&self.statics.polygons, n)
            .with_gathered(&self.copies.of)
            .admitted()
            .paired()
            .with_still(&self.still);
        // The moving lists pass over the blocks of candidates of still shapes (see
        // `still.rs`); the mixed lists are not in order of moving indices.
        let shared = [shared.with_busy(&self.busy), shared];
        let positions = n.saturating_add(self.neighbours.len() as u32);
        let parts: [Part<'_>; 2 * PAIR_KINDS] = core::array::from_fn(|j| {
            let (set, kind) = (j / PAIR_KINDS, j % PAIR_KINDS);
            Part {
                kind,
                old: &kinds[set][kind],
                added: if follows[set] { added(set, kind) } else { &[] },
                follow: if follows[set] { follow } else { None },
                touched: if set == 0 { touched } else { &[] },
            }
        });
        let hints = [&moving.shares[..], &mixed.shares[..]];
        let splits = split_parts(&parts, hints, positions, tasks.len(), &mut self.splits);
        if follow.is_none() {
            // Nothing to follow: the lists are decided where they are, each task over its own
            // range of first positions. (Written anew like followed lists, as they were on
            // more than one thread, they were copied twice in every frame that rebuilt: at 1 M
            // shapes on 16 threads, 30 M instructions a frame over 16 frames.)
            let mut lists = moving.kinds.iter_mut().chain(&mut mixed.kinds);
            let lists = core::array::from_fn(|_| &mut lists.next().expect("every list")[..]);
            let at = |k: usize, j: usize| splits[k][j].0;
            let window = window_len(shared[0].busy_share());
            with_shares(tasks, 0, lists, &at, &|_, t, lists| {
                timed(t, pool, |narrow, _| {
                    walk(narrow, &shared, lists, window, events)
                });
            });
        } else {
            let mut spares = moving.spare.iter_mut().chain(&mut mixed.spare);
            let spares: [_; 2 * PAIR_KINDS] =
                core::array::from_fn(|_| spares.next().expect("every list"));
            place(&mut moving.places, kinds[0], &moving.shares, splits, 0);
            place(&mut mixed.places, kinds[1], &mixed.shares, splits, 1);
            let places = [&moving.places, &mixed.places];
            // Where task `k`'s share of list `j` starts in the lists written.
            let at = |k: usize, j: usize| places[j / PAIR_KINDS][k][j % PAIR_KINDS];
            merge_tasks(tasks, pool, &shared, &parts, splits, spares, &at, events);
            moving.take_written(tasks, 0);
            mixed.take_written(tasks, 1);
        }
        // The tasks' answers one after another, on rayon's threads (a frame that decides the
        // whole answer, after a rebuild or a refile, copied every hit on this one); `out` is
        // only written first where it grows. With `events` the tasks keep no hits and `out`
        // is left as it is, for the events to be applied over it. The pairs that ended (the
        // kernels' and those of the candidates dropped, task by task) are sorted next, in
        // whatever order they come.
        static NONE: Chunked = Chunked::new();
        fn events_of(t: &Task, j: usize) -> [&Chunked; 2] {
            if j == 0 {
                [&t.narrow.began, &NONE]
            } else {
                [&t.narrow.ended, &t.ended]
            }
        }
        // The pairs that began and ended swing with the waves of escapers (see
        // `reserve_swinging`): the lists of a slowly drifting world met new highs now and
        // then, hundreds of frames after a warm-up.
        let count = |j: usize| {
            (tasks.iter())
                .flat_map(|t| events_of(t, j).map(Chunked::len))
                .sum::<usize>()
        };
        reserve_swinging(&mut self.answer.began, count(0));
        reserve_swinging(&mut self.answer.ended, count(1));
        let answer = [&mut self.answer.began, &mut self.answer.ended];
        concat_chunked(answer, tasks, &events_of);
        if !events {
            concat_chunked([out], tasks, &|t, _| [&t.narrow.pairs]);
        }
        for t in tasks.iter() {
            stats.cpu_pack += t.time.saturating_sub(t.narrow.kernel_time);
            stats.cpu_kernels += t.narrow.kernel_time;
            stats.filtered += t.narrow.filtered;
            stats.candidates += t.narrow.candidates;
            stats.still += t.narrow.still;
            stats.apart += t.narrow.apart;
        }
        // Where the tasks it ran must grow, so do the others: the walk's task count follows
        // the candidates, and a rebuild's walk, which has no events, may run fewer tasks than
        // the next.
        let used = tasks.len();
        room_for_events(&mut self.tasks, used, &self.answer_chunks);
    }
}

/// [`merge_walk`] by `tasks` tasks, task `k` over the candidates of each part `j` from
/// `splits[k][j]` to `splits[k + 1][j]`, each writing its share of the lists anew into
/// `spares`, from `at(k, j)` to `at(k + 1, j)`, where the lists will lie, and padding it (see
/// `written.rs`); how many candidates each wrote, in its `written`.
#[allow(clippy::too_many_arguments)]
fn merge_tasks(
    tasks: &mut [Task],
    pool: &Arc<Chunks>,
    shared: &[Shared<'_>; 2],
    parts: &[Part<'_>; 2 * PAIR_KINDS],
    splits: &[[(usize, usize); 2 * PAIR_KINDS]],
    spares: [&mut Vec<(u32, u32)>; 2 * PAIR_KINDS],
    at: &(impl Fn(usize, usize) -> usize + Sync),
    events: bool,
) {
    let mut j = 0;
    let places = spares.map(|v| {
        reserve_swinging(v, at(tasks.len(), j));
        v.resize(at(tasks.len(), j), (0, 0));
        j += 1;
        &mut v[..]
    });
    with_shares(tasks, 0, places, at, &|k, t, places| {
        let mut outs = places.map(Share::new);
        timed(t, pool, |narrow, ended| {
            let bounds = [&splits[k], &splits[k + 1]];
            merge_walk(narrow, shared, parts, bounds, &mut outs, events, ended);
        });
        let mut j = 0;
        t.written = outs.map(|out| {
            let first = parts[j].first_key(splits[k][j], splits[k + 1][j]);
            j += 1;
            out.pad(first.unwrap_or(0))
        });
    });
}

/// `f` over the task's scratch, reset first (the kernels' and the pairs it drops, those
/// lists' chunks from `pool`), timed into its `time`.
fn timed(t: &mut Task, pool: &Arc<Chunks>, f: impl FnOnce(&mut Candidates, &mut Chunked)) {
    let start = Instant::now();
    t.narrow.reset(pool);
    t.ended.clear_from(pool);
    f(&mut t.narrow, &mut t.ended);
    t.time = start.elapsed();
}

/// `f(k, task k, its shares)` for each of `tasks` on rayon's threads (on this one for one
/// task), task `k`'s share of list `j` of `lists` (the moving lists, then the mixed ones) its
/// places from `at(k, j)` to `at(k + 1, j)`, counted from `at(k0, j)` where the slices start:
/// the lists halved at the middle task's places, each half to its half of the tasks.
fn with_shares<'l>(
    tasks: &mut [Task],
    k0: usize,
    lists: [&'l mut [(u32, u32)]; 2 * PAIR_KINDS],
    at: &(impl Fn(usize, usize) -> usize + Sync),
    f: &(impl Fn(usize, &mut Task, [&'l mut [(u32, u32)]; 2 * PAIR_KINDS]) + Sync),
) {
    if let [t] = tasks {
        return f(k0, t, lists);
    }
    let mid = tasks.len() / 2;
    let mut j = 0;
    let mut halves = lists.map(|list| {
        let cut = at(k0 + mid, j) - at(k0, j);
        j += 1;
        list.split_at_mut(cut)
    });
    let left = core::array::from_fn(|j| core::mem::take(&mut halves[j].0));
    let right = core::array::from_fn(|j| core::mem::take(&mut halves[j].1));
    let (first, last) = tasks.split_at_mut(mid);
    crate::awake::join(
        || with_shares(first, k0, left, at, f),
        || with_shares(last, k0 + mid, right, at, f),
    );
}

/// The first positions of a window of [`walk`], given the share of busy blocks (see
/// [`Shared::busy_share`]): [`WINDOW`] times the blocks over the busy ones, so that a window
/// still holds about a window's candidates to decide (at rest, one window holds them all). A
/// window's end is searched for in every list, a miss at each probe where the walk then
/// passes over the candidates unread: at a million shapes at rest, 61 windows' searches were
/// the whole of `pack`, 0.7 ms.
fn window_len(busy_share: Option<(u64, u64)>) -> u32 {
    let Some((busy, blocks)) = busy_share else {
        return WINDOW;
    };
    let len = u64::from(WINDOW) * blocks / busy.max(1);
    len.clamp(u64::from(WINDOW), u64::from(u32::MAX)) as u32
}

/// Decides every one of `lists` (the moving lists, then the mixed ones, list `j` of pair kind
/// `j % PAIR_KINDS`, read through `shared[j / PAIR_KINDS]`) where it is (see
/// [`Candidates::decide_list`]), all the lists together, `len` first positions at a time
/// ([`WINDOW`], more where few blocks are busy: see [`window_len`]): the records a window
/// reads stay in cache for every pair kind (one list after another read all the records once
/// per pair kind).
pub(super) fn walk(
    narrow: &mut Candidates,
    shared: &[Shared<'_>; 2],
    mut lists: [&mut [(u32, u32)]; 2 * PAIR_KINDS],
    len: u32,
    events: bool,
) {
    let mut at = [0usize; 2 * PAIR_KINDS];
    // Each window starts at the least first position left in any list.
    while let Some(low) = (0..2 * PAIR_KINDS)
        .filter_map(|j| lists[j].get(at[j]))
        .map(|c| c.0)
        .min()
    {
        let window = low.saturating_add(len);
        for (j, list) in lists.iter_mut().enumerate() {
            let start = at[j];
            if start == list.len() {
                continue;
            }
            // At least the first candidate where it lies in the window, so that the walk ends
            // however the list is ordered. (A task's share that ends within the window is
            // not searched: its last candidate, read once, stays in cache.)
            let stop = (start + ahead_or_all(&list[start..], |c| c.0 < window))
                .max(start + usize::from(list[start].0 < window));
            if start < stop {
                let (shared, kind) = (&shared[j / PAIR_KINDS], j % PAIR_KINDS);
                narrow.decide_list(shared, kind, &mut list[start..stop], events);
            }
            at[j] = stop;
        }
    }
}

/// [`walk`] over the parts' candidates from `from[j]` to `to[j]`, each list written anew to
/// `outs[j]` as it follows the escapers' moves (see [`Part::merge`]), and decided there.
pub(super) fn merge_walk(
    narrow: &mut Candidates,
    shared: &[Shared<'_>; 2],
    parts: &[Part<'_>; 2 * PAIR_KINDS],
    [from, to]: [&[(usize, usize); 2 * PAIR_KINDS]; 2],
    outs: &mut [Share<'_>; 2 * PAIR_KINDS],
    events: bool,
    dropped: &mut Chunked,
) {
    let mut at = *from;
    // Each window starts at the least first position left in any list.
    while let Some(low) = (0..2 * PAIR_KINDS)
        .flat_map(|j| {
            let (p, (o, a)) = (&parts[j], at[j]);
            let old = (o < to[j].0).then(|| p.key(p.old[o].0));
            let new = (a < to[j].1).then(|| p.added[a].0);
            [old, new]
        })
        .flatten()
        .min()
    {
        let window = low.saturating_add(WINDOW);
        for (j, part) in parts.iter().enumerate() {
            let start = outs[j].written().len();
            part.merge(&mut at[j], to[j], window, &mut outs[j], dropped);
            let written = &mut outs[j].written()[start..];
            if !written.is_empty() {
                narrow.decide_list(&shared[j / PAIR_KINDS], part.kind, written, events);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::blocks::BLOCK_SHIFT;

    /// A window is [`WINDOW`] where no block is marked or every one is busy, as many times
    /// more as the busy blocks are fewer, and holds every first position where none is.
    #[test]
    fn windows_widen_as_fewer_blocks_are_busy() {
        assert_eq!(window_len(None), WINDOW);
        assert_eq!(window_len(Some((640, 640))), WINDOW);
        assert_eq!(window_len(Some((160, 640))), 4 * WINDOW);
        assert_eq!(window_len(Some((1, 1 << 20))), u32::MAX);
        // None busy: one window over every position the blocks hold.
        for blocks in [64, 1 << 14, 1 << 26] {
            let len = u64::from(window_len(Some((0, blocks))));
            assert!(len >= (blocks << BLOCK_SHIFT).min(u64::from(u32::MAX)));
        }
    }
}

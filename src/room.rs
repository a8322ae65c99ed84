//! Room to grow in buffers kept from call to call: where one must grow, it takes a little
//! more than the call needs, so that a later call needing a little more does not allocate.
//!
//! A buffer grown by `Vec::resize` from empty holds exactly what the first call needed; the
//! grid's arrays, sized by the boxes in the grid, then reallocated (doubled, every array) in
//! the first call of a steady frame loop that had one box more, as when a shape turned valid
//! again after an invalid frame.

/// Resizes `v` to `len`, new places `fill`; where its allocation must grow, to
/// [`room_for`] `len` items.
pub(crate) fn resize_with_room<T: Clone>(v: &mut Vec<T>, len: usize, fill: T) {
    if v.capacity() < len {
        v.reserve_exact(room_for(v.capacity(), len) - v.len());
    }
    v.resize(len, fill);
}

/// Grows `v`'s allocation to hold `items` items, where it holds fewer: to [`room_for`]
/// `items`.
pub(crate) fn reserve_to<T>(v: &mut Vec<T>, items: usize) {
    if v.capacity() < items {
        v.reserve_exact(room_for(v.capacity(), items) - v.len());
    }
}

/// `len` items and room for an eighth more and 64: a buffer that grows by a little now and
/// then (by the boxes of the grid, the candidates of a pair kind) is not copied each time,
/// as with no room, nor doubled, as `Vec`'s own growth does (a million boxes' four bounds
/// and items: 2.5 MB more rather than up to 20).
pub(crate) fn with_room(len: usize) -> usize {
    len + len / 8 + 64
}

/// The items a buffer that holds `held` and must hold `len` grows to: [`with_room`]`(len)`
/// the first time (from nothing), half again as many as `len` and 64 after that. A buffer
/// that outgrows the room it took once holds something that swings more than an eighth: the
/// pairs an escaper drops and finds again, or a task's share of the escapers, which in a
/// world of bouncing shapes rise and fall many times over between two rebuilds; with an
/// eighth of room each, those lists grew at each new high for hundreds of frames.
pub(crate) fn room_for(held: usize, len: usize) -> usize {
    if held == 0 {
        with_room(len)
    } else {
        swinging(len)
    }
}

/// `len` items and room for half again as many and 64: for a buffer whose need swings by
/// more than an eighth (see [`room_for`]).
pub(crate) fn swinging(len: usize) -> usize {
    len + len / 2 + 64
}

/// Grows `v`'s allocation to hold `items` items, where it holds fewer: to half again as many
/// and 64 from the first time, for a buffer whose need swings by more than an eighth from
/// the start. A kept candidate list is written anew as its old candidates and the escapers'
/// new ones (see `walk.rs`): the escapers come in waves, which add a tenth or a quarter to a
/// list's need; and it passes between two buffers, each of which met its own new high now
/// and then, hundreds of frames after a warm-up.
pub(crate) fn reserve_swinging<T>(v: &mut Vec<T>, items: usize) {
    if v.capacity() < items {
        v.reserve_exact(swinging(items) - v.len());
    }
}

/// Where a list of the group (those `lists` gives of every task) could not hold as many
/// items as the longest one holds (or `floor`), grows every list of the group to hold twice
/// the longest, rounded up to a power of two, where it holds less; but to no more than
/// four times what a task wrote into the group on average, plus `floor` items, before the
/// rounding (a call whose items crowd into a few tasks does not size every task by those);
/// and to `floor` items at the least, written or not.
///
/// A task's share of a pass changes from call to call with its range, so each task's own
/// lists grew the first time it met a busier share than any before, now and then for dozens
/// of frames; sized by the busiest task, every task's lists settle when the busiest share
/// does. Only a busiest share that outgrew a list grows them (one grown to twice the
/// busiest whenever that passed half its room grew every list at once, now and then, with
/// no list short of room). The floor is for a list that a rare frame first writes a few
/// items to (a shape seeking a new neighbourhood of static shapes, in a loop whose shapes
/// barely move).
pub(crate) fn room_for_busiest<P, T: 'static, const N: usize>(
    tasks: &mut [P],
    floor: usize,
    lists: impl Fn(&mut P) -> [&mut Vec<T>; N],
) {
    room_for_busiest_of(tasks, tasks.len(), floor, lists);
}

/// [`room_for_busiest`] after a pass that ran on the first `used` of `tasks`: the busiest
/// list and the mean are those of the tasks it ran on, and where one of their lists must
/// grow, the idle tasks' lists take the same room. For a pass whose task count follows its
/// items (the escapers' queries, a task per 64 of them up to eight a thread): a frame
/// busier than any before runs tasks that none had run, whose lists, never sized, grew as
/// they filled. On thirteen threads a wave of 7.4 k escapers, 2 k more than any before, ran
/// 26 tasks more and made 152 allocations in one frame of a steady loop. Not after a pass of
/// one task, which holds what a split pass shares among several; and the idle lists do not
/// make the group grow (sized by what the used ones held, they took room from a few busy
/// tasks, or from another pass's: a rebuild's filed pairs, a hundred times an escaper's).
pub(crate) fn room_for_busiest_of<P, T: 'static, const N: usize>(
    tasks: &mut [P],
    used: usize,
    floor: usize,
    lists: impl Fn(&mut P) -> [&mut Vec<T>; N],
) {
    fn as_room<'t, T>(list: &'t mut Vec<T>) -> &'t mut (dyn Room + 't) {
        list
    }
    room_in_groups(tasks, used, floor, false, |t| lists(t).map(as_room));
}

/// [`room_for_busiest`] with each of the `N` lists a group of its own (the same list of every
/// task: the pairs filed of one kind, the escapers found), in one pass over the tasks to see
/// them all and, where one must grow, one to grow them. The lists may hold items of
/// different types.
pub(crate) fn room_for_each<P, const N: usize>(
    tasks: &mut [P],
    floor: usize,
    lists: impl Fn(&mut P) -> [&mut dyn Room; N],
) {
    room_for_each_of(tasks, tasks.len(), floor, lists);
}

/// [`room_for_each`] after a pass that ran on the first `used` of `tasks`, every task's
/// lists taking the room (see [`room_for_busiest_of`]).
pub(crate) fn room_for_each_of<P, const N: usize>(
    tasks: &mut [P],
    used: usize,
    floor: usize,
    lists: impl Fn(&mut P) -> [&mut dyn Room; N],
) {
    room_in_groups(tasks, used, floor, true, lists);
}

/// [`room_for_each_of`] where `apart`, else [`room_for_busiest_of`]: the `N` lists of the
/// first `used` tasks seen, each into its own group or all into one, and where a group must
/// grow, its lists grown in a second pass, those of the other tasks too where `used` is two
/// or more.
fn room_in_groups<P, const N: usize>(
    tasks: &mut [P],
    used: usize,
    floor: usize,
    apart: bool,
    lists: impl Fn(&mut P) -> [&mut dyn Room; N],
) {
    let group = |i: usize| if apart { i } else { 0 };
    // Per group: the most items a list holds, the items of all, the least room of one.
    let mut seen = [(0, 0, usize::MAX); N];
    for t in tasks[..used].iter_mut() {
        for (i, list) in lists(t).into_iter().enumerate() {
            let (most, all, least) = &mut seen[group(i)];
            (*most, *all) = ((*most).max(list.items()), *all + list.items());
            *least = (*least).min(list.room());
        }
    }
    // A group with no list (all in one) has most 0 and least `usize::MAX`: no room to take.
    let rooms = seen.map(|(most, all, least)| {
        (least < most.max(floor)).then(|| room_of(most, all, used, floor))
    });
    if rooms.iter().all(Option::is_none) {
        return;
    }
    let sized = if used >= 2 { tasks.len() } else { used };
    for t in tasks[..sized].iter_mut() {
        for (i, list) in lists(t).into_iter().enumerate() {
            if let Some(room) = rooms[group(i)] {
                list.grow_to(room);
            }
        }
    }
}

/// A list [`room_for_each`] sizes: a `Vec` of any items.
pub(crate) trait Room {
    /// The items it holds.
    fn items(&self) -> usize;
    /// The items it can hold without growing.
    fn room(&self) -> usize;
    /// Grows it to hold `items` items at the least, where it holds fewer.
    fn grow_to(&mut self, items: usize);
}

impl<T> Room for Vec<T> {
    fn items(&self) -> usize {
        self.len()
    }
    fn room(&self) -> usize {
        self.capacity()
    }
    fn grow_to(&mut self, items: usize) {
        if self.capacity() < items {
            self.reserve(items - self.len());
        }
    }
}

/// The room every list of a group that must grow takes: twice the busiest list's `most`
/// items, at most four times the mean of `all` over `tasks` and `floor`, at least `floor`,
/// rounded up to a power of two (every list that grows grows to the same: the next growth is
/// a call away whose busiest share is twice this one's, not one a list).
fn room_of(most: usize, all: usize, tasks: usize, floor: usize) -> usize {
    let room = (2 * most).min(4 * all / tasks.max(1) + floor);
    room.max(floor).next_power_of_two()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A buffer grown takes room beyond what it needs, and within that room grows and
    /// shrinks without a new allocation; its items are those `Vec::resize` leaves.
    #[test]
    fn a_grown_buffer_takes_room_and_keeps_it() {
        for len in [1, 63, 64, 1000, 100_000] {
            let mut v: Vec<u32> = (0..len as u32 / 2).collect();
            resize_with_room(&mut v, len, 7);
            assert_eq!(v.len(), len);
            assert!(v.capacity() >= with_room(len));
            assert!(v.iter().take(len / 2).copied().eq(0..len as u32 / 2));
            assert!(v[len / 2..].iter().all(|&x| x == 7));
            let (cap, at) = (v.capacity(), v.as_ptr());
            for l in [with_room(len), len / 3, len + 1] {
                resize_with_room(&mut v, l, 9);
                assert_eq!(
                    (v.len(), v.capacity(), v.as_ptr()),
                    (l, cap, at),
                    "{len} to {l}"
                );
            }
            // Past the room it grows again, by half again as many: what it holds swings.
            resize_with_room(&mut v, cap + 1, 0);
            assert!(v.capacity() >= room_for(cap, cap + 1));
            assert!(room_for(cap, cap + 1) >= (cap + 1) * 3 / 2);
        }
    }

    /// Room reserved is room held: items beyond it grow the allocation, items within it
    /// do not, and a buffer that has the room is left as it is.
    #[test]
    fn reserved_room_holds_that_many() {
        let mut v: Vec<u64> = vec![1, 2, 3];
        reserve_to(&mut v, 100);
        assert!(v.capacity() >= with_room(100));
        assert_eq!(v, [1, 2, 3]);
        let (cap, at) = (v.capacity(), v.as_ptr());
        reserve_to(&mut v, 10);
        v.resize(cap, 0);
        assert_eq!((v.capacity(), v.as_ptr()), (cap, at));
        v.clear();
        reserve_to(&mut v, cap + 1);
        assert!(v.capacity() >= (cap + 1) * 3 / 2);
    }

    /// Every task's lists take room for twice the busiest one's (a power of two), capped by
    /// the mean: a task that meets the busiest share later does not grow, lists of a group
    /// nobody wrote take the floor, and a crowd in one task does not size the others by it.
    #[test]
    fn tasks_take_room_for_the_busiest() {
        let mut tasks: Vec<[Vec<u32>; 2]> = (0..8).map(|k| [vec![0; 10 * k], vec![0; k]]).collect();
        room_for_busiest(&mut tasks, 16, |[a, b]| [a, b]);
        // Busiest 70, mean (280 + 28) / 8 = 38: min(140, 4 * 38 + 16 = 168) = 140, then 256.
        for t in &tasks {
            assert!(
                t.iter().all(|l| l.capacity() >= 256),
                "{:?}",
                t.each_ref().map(Vec::capacity)
            );
        }
        // Busier shares within every list's room grow nothing.
        tasks[3][0].resize(250, 0);
        let caps: Vec<_> = tasks
            .iter()
            .map(|t| t.each_ref().map(Vec::capacity))
            .collect();
        room_for_busiest(&mut tasks, 16, |[a, b]| [a, b]);
        assert!(
            tasks
                .iter()
                .map(|t| t.each_ref().map(Vec::capacity))
                .eq(caps)
        );
        let before: Vec<_> = tasks.iter().map(|t| t[1].as_ptr()).collect();
        for t in &mut tasks {
            t[1].clear();
            t[1].resize(256, 1);
        }
        assert!(tasks.iter().map(|t| t[1].as_ptr()).eq(before));
        let mut idle: Vec<[Vec<u32>; 1]> = vec![[Vec::new()], [Vec::new()]];
        room_for_busiest(&mut idle, 48, |t| [&mut t[0]]);
        assert!(idle.iter().all(|t| t[0].capacity() == 64));
        // One task of 1000 among 99 empty: room for 4 * 10 + 4 = 44, then 64; not 2048.
        let mut crowd: Vec<[Vec<u32>; 1]> = (0..100)
            .map(|k| [vec![0; if k == 0 { 1000 } else { 0 }]])
            .collect();
        room_for_busiest(&mut crowd, 4, |t| [&mut t[0]]);
        assert!(
            crowd[1..]
                .iter()
                .all(|t| (64..2048).contains(&t[0].capacity()))
        );
    }

    /// After a pass on some of the tasks, where their lists grow, the idle tasks' lists take
    /// the same room (none after a pass of one task); idle lists short of it do not make the
    /// used ones grow.
    #[test]
    fn idle_tasks_take_the_room_the_used_ones_grow_to() {
        let caps =
            |ts: &[[Vec<u32>; 1]]| -> Vec<usize> { ts.iter().map(|t| t[0].capacity()).collect() };
        // Three of eight used, the busiest 100: room for 256 in all eight.
        let mut tasks: Vec<[Vec<u32>; 1]> = (0..8)
            .map(|k| [vec![0; [40, 100, 70][k.min(2)] * usize::from(k < 3)]])
            .collect();
        for t in &mut tasks[..3] {
            t[0].shrink_to_fit();
        }
        room_for_busiest_of(&mut tasks, 3, 16, |t| [&mut t[0]]);
        assert!(caps(&tasks).iter().all(|&c| c >= 256), "{:?}", caps(&tasks));
        // Idle lists with no room, used ones with room enough: nothing grows.
        tasks.extend((0..4).map(|_| [Vec::new()]));
        let before = caps(&tasks);
        room_for_busiest_of(&mut tasks, 3, 16, |t| [&mut t[0]]);
        assert_eq!(caps(&tasks), before);
        // One task used, short of the floor: it grows, the idle ones do not.
        tasks[0][0].resize(600, 1);
        tasks[0][0].shrink_to_fit();
        room_for_busiest_of(&mut tasks, 1, 2048, |t| [&mut t[0]]);
        let after = caps(&tasks);
        assert!(after[0] >= 2048 && after[1..] == before[1..], "{after:?}");
        // Two used, one short of the other's 1500: the idle ones grow with them.
        tasks[0][0].resize(1500, 1);
        tasks[0][0].shrink_to_fit();
        room_for_busiest_of(&mut tasks, 2, 16, |t| [&mut t[0]]);
        assert!(
            caps(&tasks).iter().all(|&c| c >= 2048),
            "{:?}",
            caps(&tasks)
        );
    }

    /// A buffer whose need swings takes half again as much from its first growth, and grows
    /// nothing within that.
    #[test]
    fn a_swinging_buffer_takes_half_again() {
        let mut v: Vec<(u32, u32)> = Vec::new();
        reserve_swinging(&mut v, 1000);
        assert!(v.capacity() >= 1564);
        let (cap, at) = (v.capacity(), v.as_ptr());
        v.resize(cap, (1, 2));
        reserve_swinging(&mut v, cap);
        assert_eq!((v.capacity(), v.as_ptr()), (cap, at));
        reserve_swinging(&mut v, cap + 1);
        assert!(v.capacity() >= (cap + 1) * 3 / 2 + 64);
        assert!(v.iter().all(|&p| p == (1, 2)));
    }

    /// Each list of [`room_for_each`] grows as [`room_for_busiest`] grows it as a group of
    /// one, and a list with room enough is not grown for another's sake.
    #[test]
    fn each_list_takes_room_of_its_own() {
        let make = || -> Vec<[Vec<u32>; 3]> {
            (0..8)
                .map(|k| {
                    [
                        vec![0; 10 * k],
                        vec![0; k],
                        vec![0; usize::from(k == 5) * 300],
                    ]
                })
                .collect()
        };
        let (mut each, mut apart) = (make(), make());
        room_for_each(&mut each, 16, |t| t.each_mut().map(|l| l as &mut dyn Room));
        for j in 0..3 {
            room_for_busiest(&mut apart, 16, |t| [&mut t[j]]);
        }
        let caps = |ts: &[[Vec<u32>; 3]]| -> Vec<[usize; 3]> {
            ts.iter().map(|t| t.each_ref().map(Vec::capacity)).collect()
        };
        assert_eq!(caps(&each), caps(&apart));
        // 70 at most: 256; 7 at most: 16; 300 in one of eight: 4 * 37 + 16 = 164, then 256.
        assert!(
            caps(&each)
                .iter()
                .all(|c| c[0] >= 256 && c[1] >= 16 && c[2] >= 256)
        );
        assert!(caps(&each)[..5].iter().all(|c| c[1] < 256));
        // A busier second list grows the second lists only.
        each[2][1].resize(40, 0);
        let before = caps(&each);
        room_for_each(&mut each, 16, |t| t.each_mut().map(|l| l as &mut dyn Room));
        let after = caps(&each);
        assert!(
            before
                .iter()
                .zip(&after)
                .all(|(b, a)| b[0] == a[0] && b[2] == a[2])
        );
        assert!(after.iter().all(|c| c[1] >= 64));
        // Nothing busier than the room: nothing grows.
        room_for_each(&mut each, 16, |t| t.each_mut().map(|l| l as &mut dyn Room));
        assert_eq!(caps(&each), after);
    }
}

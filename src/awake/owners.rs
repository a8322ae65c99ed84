//! Which thread takes which group of a pass: each thread its own group (the one that holds its
//! share of the items) where that is still free, so that pass after pass the same thread works
//! on the same share of the data.
//!
//! A frame's passes over the same items split them alike: `Scene::update` and the escape
//! check both walk the moving slots in equal shares, the gather and the lists' tasks the
//! indices. Where a share goes to whichever thread steals it first, each pass reads lines that
//! another core's cache wrote last, and on many cores (each with a cache of its own, a few
//! hundred kilobytes of the frame's data a core) those reads wait for the other core. A thread
//! that comes back to its own share finds it in its own cache. A group whose thread is busy
//! elsewhere goes to whichever thread looks for one next: no thread waits for another to show
//! up, as it would under a fixed split. (Box2D v3's solver starts each worker at its own
//! block of a stage, and lets it take others after, for the same reason.)

/// Most groups a pass is handed out in, each with its owner (see `waits.rs`'s `groups_for`):
/// on a pool of more threads, the threads past these take halves of the groups. Each group's
/// lock has a cache line of its own on the stack of the thread that starts the pass.
pub(super) const MOST_OWNED: usize = 32;

/// The group of `groups` that the thread of index `thread` in a pool of `threads` takes first:
/// the one that holds its share of a pass cut one group a thread (group `thread * groups /
/// threads`). In a pass cut in fewer groups than threads, neighbouring threads share one, and
/// each thread's share of the items lies within it.
pub(super) fn own_group([thread, threads]: [usize; 2], groups: usize) -> usize {
    (thread * groups / threads.max(1)).min(groups.max(1) - 1)
}

/// The groups in the order a thread whose own group is `own` looks for a free one: its own,
/// then those after it, then those before (so that threads whose groups were taken spread
/// over the rest rather than all trying the first).
pub(super) fn search_order(own: usize, groups: usize) -> impl Iterator<Item = usize> {
    (own..groups).chain(0..own.min(groups))
}

/// `T` on a cache line (or more) of its own: a group's lock, which its thread takes while the
/// others take theirs.
#[derive(Debug, Default)]
#[repr(align(64))]
pub(super) struct Line<T>(pub(super) T);

/// A group's piece of a pass, on its own line, taken once.
pub(super) type Piece<T> = Line<std::sync::Mutex<Option<T>>>;

#[cfg(test)]
mod tests {
    use super::{Line, own_group, search_order};

    /// On as many groups as threads each thread's own group is its index; on fewer, the one
    /// that holds its share (two neighbours share one); on more, within range.
    #[test]
    fn a_threads_own_group_holds_its_share() {
        assert!((0..16).all(|t| own_group([t, 16], 16) == t));
        assert_eq!(own_group([6, 16], 8), 3);
        assert_eq!(own_group([7, 16], 8), 3);
        assert_eq!(own_group([15, 16], 8), 7);
        assert_eq!(own_group([15, 16], 3), 2);
        assert_eq!(own_group([3, 4], 8), 6);
        assert_eq!(own_group([9, 4], 8), 7, "an index past the pool's size");
        assert_eq!(own_group([0, 0], 1), 0);
    }

    /// A thread looks at every group once, its own first, then on from there.
    #[test]
    fn a_thread_looks_at_every_group_once_its_own_first() {
        assert_eq!(
            search_order(5, 8).collect::<Vec<_>>(),
            [5, 6, 7, 0, 1, 2, 3, 4]
        );
        for groups in [1, 2, 3, 16, 32] {
            for own in 0..groups {
                let mut seen: Vec<usize> = search_order(own, groups).collect();
                assert_eq!(seen[0], own);
                seen.sort_unstable();
                assert_eq!(seen, (0..groups).collect::<Vec<_>>());
            }
        }
        assert!(align_of::<Line<u8>>() >= 64);
    }
}

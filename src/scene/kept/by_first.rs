//! A rebuild's sort of its candidate lists by first index, stable (ties keep the order the
//! search filed them in). On one thread, a counting sort over every first index, list after
//! list. On more, the lists at once, each by a least-significant-digit radix sort of its
//! first indices only, which needs no buffer but its share of one spare list: the counting
//! sort's count array, as long as the moving slots, was one per list and kept them to one
//! thread — the longest serial pass of a rebuild on two threads (4 % of the busy samples of
//! frames that rebuilt every third call). The two give the same order; on one thread a
//! rebuild's search phase took 3–6 % longer with the radix sort (two or three passes over
//! each list), so one thread keeps the counting sort.

use crate::room::resize_with_room;

/// Widest digit: 2048 counters (8 KiB).
const DIGIT: u32 = 11;

/// Sorts every list of `lists` by first index (each below `n`), stably, using `spare` and
/// `counts` (kept buffers) for their scratch: on one thread a counting sort list after list,
/// on more the lists at once on rayon's threads, each by its radix sort.
pub(super) fn sort_lists(
    lists: &mut [Vec<(u32, u32)>],
    spare: &mut Vec<(u32, u32)>,
    counts: &mut Vec<u32>,
    n: usize,
) {
    if rayon::current_num_threads() == 1 {
        for list in lists {
            count_by_first(list, spare, counts, n);
        }
        return;
    }
    let total: usize = lists.iter().map(Vec::len).sum();
    // Only growing: every item of a list's part is written before it is read. Where it must
    // grow, to as many as the lists can hold, which grow with room (`concat_all`): a rebuild
    // whose lists first held more than any before, but fit in their room, then does not
    // allocate here either (one did, in a steady frame loop whose finder rebuilt after a
    // timed search from scratch).
    if spare.len() < total {
        if spare.capacity() < total {
            let room: usize = lists.iter().map(Vec::capacity).sum();
            spare.reserve_exact(room - spare.len());
        }
        spare.resize(total, (0, 0));
    }
    sort_halves(lists, &mut spare[..total], n);
}

/// Sorts `list` by first index (each below `n`), stably, by counting sort through `spare`
/// and `counts`: one count, one scatter into `spare` (grown with room where it must grow) and
/// one copy back.
fn count_by_first(
    list: &mut [(u32, u32)],
    spare: &mut Vec<(u32, u32)>,
    counts: &mut Vec<u32>,
    n: usize,
) {
    if list.len() < 2 {
        return;
    }
    counts.clear();
    counts.resize(n, 0);
    resize_with_room(spare, list.len(), (0, 0));
    scatter_by(list, spare, counts, |p| p);
    // Copied back rather than swapped in: each list keeps its own buffer (swapped, the
    // buffers moved one list along at every rebuild, and the lists and the walk's spares,
    // sized by their own kinds, grew again after each: in a frame loop that rebuilt every
    // 68 frames, three frames of every 68 allocated, on and on).
    list.copy_from_slice(spare);
}

/// `from` into `to` (as long) ordered by `digit` of each pair's first index, stably: a count
/// per digit into `counts` (one per digit value, zeroed here), their places, one scatter.
#[inline(always)]
fn scatter_by(
    from: &[(u32, u32)],
    to: &mut [(u32, u32)],
    counts: &mut [u32],
    digit: impl Fn(u32) -> u32,
) {
    counts.fill(0);
    for &(p, _) in from {
        counts[digit(p) as usize] += 1;
    }
    let mut at = 0;
    for c in counts.iter_mut() {
        (*c, at) = (at, at + *c);
    }
    for &c in from {
        let place = &mut counts[digit(c.0) as usize];
        to[*place as usize] = c;
        *place += 1;
    }
}

/// [`sort_lists`] with `spare` exactly as long as the lists together: halves of the lists,
/// each with its share of the spare, on rayon's threads.
fn sort_halves(lists: &mut [Vec<(u32, u32)>], spare: &mut [(u32, u32)], n: usize) {
    match lists {
        [] => {}
        [list] => radix_by_first(list, spare, n),
        _ => {
            let mid = lists.len() / 2;
            let (low, high) = lists.split_at_mut(mid);
            let (low_spare, high_spare) = spare.split_at_mut(low.iter().map(Vec::len).sum());
            crate::awake::join(
                || sort_halves(low, low_spare, n),
                || sort_halves(high, high_spare, n),
            );
        }
    }
}

/// Sorts `list` by first index (each below `n`), stably, through `spare` (as long as the
/// list): one pass a digit of the first indices, least significant first.
fn radix_by_first(list: &mut [(u32, u32)], spare: &mut [(u32, u32)], n: usize) {
    if list.len() < 2 {
        return;
    }
    let bits = usize::BITS - n.saturating_sub(1).leading_zeros();
    let passes = bits.div_ceil(DIGIT).max(1);
    let width = bits.div_ceil(passes).max(1);
    let mut counts = [0u32; 1 << DIGIT];
    let counts = &mut counts[..1 << width];
    let mask = (1u32 << width) - 1;
    let (mut from, mut to) = (list, spare);
    for pass in 0..passes {
        let shift = pass * width;
        scatter_by(from, to, counts, |p| (p >> shift) & mask);
        core::mem::swap(&mut from, &mut to);
    }
    // After an odd number of passes the sorted list is in the spare.
    if passes % 2 == 1 {
        to.copy_from_slice(from);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The radix sort and the counting sort of a list by first index are each a stable sort
    /// by first index, for slot counts of one, two and three digits' passes (down to one slot,
    /// up to 2²⁴), lists empty, of one pair, of equal first indices and of first indices at
    /// the top of their range; and the lists sorted together, on one thread (counting) and
    /// on three (radix, the lists at once), are each sorted as alone.
    #[test]
    fn both_sorts_by_first_are_a_stable_sort_by_first() {
        let mut seed = 3u64;
        let mut next = |m: usize| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ((seed >> 33) % m.max(1) as u64) as u32
        };
        let mut lists = Vec::new();
        for (n, len) in [
            (1, 5),
            (2, 0),
            (2_000, 1),
            (2_048, 3_000),
            (2_049, 3_000),
            (100_000, 20_000),
            (1 << 22, 9_000),
            (1 << 24, 50_000),
        ] {
            let list: Vec<(u32, u32)> = (0..len).map(|i| (next(n), i as u32)).collect();
            let top: Vec<(u32, u32)> = (0..len)
                .map(|i| (((n - 1) as u32).saturating_sub(next(2)), i as u32))
                .collect();
            lists.push((n, list));
            lists.push((n, top));
        }
        for (n, list) in &lists {
            let mut want = list.clone();
            want.sort_by_key(|&(p, _)| p);
            let (mut got, mut spare) = (list.clone(), vec![(7, 7); list.len()]);
            radix_by_first(&mut got, &mut spare, *n);
            assert!(got == want, "{} pairs below {n}: radix", list.len());
            let (mut got, mut spare, mut counts) = (list.clone(), Vec::new(), Vec::new());
            count_by_first(&mut got, &mut spare, &mut counts, *n);
            assert!(got == want, "{} pairs below {n}: counting", list.len());
        }
        // The lists of one scene (one slot count) at once, on 1 and 3 threads.
        let n = 1 << 22;
        let scene: Vec<Vec<(u32, u32)>> = (0..9)
            .map(|k| (0..k * 1_000).map(|i| (next(n), i)).collect())
            .collect();
        for threads in [1, 3] {
            let (mut got, mut spare, mut counts) = (scene.clone(), Vec::new(), Vec::new());
            crate::test_pool::in_pool(threads, || sort_lists(&mut got, &mut spare, &mut counts, n));
            for (k, (got, list)) in got.iter().zip(&scene).enumerate() {
                let mut want = list.clone();
                want.sort_by_key(|&(p, _)| p);
                assert!(*got == want, "list {k}, {threads} threads");
            }
        }
    }

    /// On one thread each list keeps its own buffer through the sort, however long the
    /// lists and whichever order their lengths come in (each sorted into the spare and copied
    /// back: swapped with it, the buffers moved one list along at every rebuild, and the lists
    /// of a steady frame loop grew again after each).
    #[test]
    fn one_thread_sorts_each_list_in_its_own_buffer() {
        let n = 3_000;
        let mut lists: Vec<Vec<(u32, u32)>> = [5_000, 200, 0, 1, 9_000, 40]
            .iter()
            .map(|&len| {
                (0..len as u32)
                    .map(|i| ((i * 7919 + len as u32) % n, i))
                    .collect()
            })
            .collect();
        let (mut spare, mut counts) = (Vec::new(), Vec::new());
        crate::test_pool::in_pool(1, || {
            for _ in 0..3 {
                let at: Vec<_> = lists.iter().map(|l| (l.as_ptr(), l.capacity())).collect();
                sort_lists(&mut lists, &mut spare, &mut counts, n as usize);
                let now: Vec<_> = lists.iter().map(|l| (l.as_ptr(), l.capacity())).collect();
                assert_eq!(now, at);
                assert!(lists.iter().all(|l| l.is_sorted_by_key(|&(p, _)| p)));
                lists.rotate_left(1);
            }
        });
    }

    /// On more than one thread the spare, where it must grow, takes room for as many pairs as
    /// the lists can hold: lists that then fill their room are sorted without the spare
    /// growing again (a rebuild's lists, grown with room in the frames before, allocated in
    /// the spare once in a steady frame loop).
    #[test]
    fn the_spare_grows_to_what_the_lists_can_hold() {
        let n = 5_000;
        let lists_of = |len: usize| -> Vec<Vec<(u32, u32)>> {
            (0..4u32)
                .map(|k| {
                    let mut list = Vec::with_capacity(1_000 * (k as usize + 1));
                    list.extend((0..len as u32).map(|i| ((i * 7919 + k) % n as u32, i)));
                    list
                })
                .collect()
        };
        crate::test_pool::in_pool(2, || {
            let (mut spare, mut counts) = (Vec::new(), Vec::new());
            sort_lists(&mut lists_of(10), &mut spare, &mut counts, n);
            let room: usize = lists_of(0).iter().map(Vec::capacity).sum();
            assert!(spare.capacity() >= room, "{} < {room}", spare.capacity());
            let at = spare.as_ptr();
            let mut full = lists_of(1_000);
            sort_lists(&mut full, &mut spare, &mut counts, n);
            assert_eq!(spare.as_ptr(), at, "the spare grew again");
            assert!(full.iter().all(|l| l.is_sorted_by_key(|&(p, _)| p)));
        });
    }
}

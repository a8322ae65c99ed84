//! The escapers' flags by index: each escaper's `escaped` flag, and whether it leaves its
//! place in the grid, written on rayon's threads by tasks that each own a range of the
//! indices (cleared with the escapers' settling, after the kernels: `escapers.rs`).

use crate::room::resize_with_room;
use crate::tasks::piece_len;
use rayon::prelude::*;

/// Escapers from which their flags are written on rayon's threads (a few nanoseconds each).
const MIN_FLAGS: usize = 1024;

/// Threads up to which each task reads every escaper and writes those in its range. On more,
/// the escapers are first grouped by range, each piece of them on its own (a read and a write
/// of each, and one more read), unless they are fewer than [`READ_ALL_BELOW`]. Sixteen tasks
/// that each read every escaper did sixteen times the reads of one thread: about 0.22 ms of
/// the 100 k-shape frame's work and 3.5 ms of the 1 M frame's, the longest task 0.3 ms
/// (sixteen threads modelled); grouped, 0.05 and 0.6.
const READ_ALL_UP_TO: usize = 4;

/// Escapers (marks) below which every task reads them all on any thread count: each task
/// then reads at most twice this many marks and places in order, 10–20 µs, where the
/// grouping is two more passes over every thread. (On sixteen threads of the forty-ninth
/// session's many-core Xeon, the escapers of a 100 k-shape frame, 4.7 k a frame on average
/// in the scaling example, took 49 µs to flag, grouped, against 38 on one thread, and a pass
/// of a few microseconds of work took 12–25 µs there.)
const READ_ALL_BELOW: usize = 8 * 1024;

/// The escapers grouped by the range of indices their flags lie in, kept from call to call.
#[derive(Debug, Default)]
pub(super) struct Flags {
    marks: Groups<(u32, u8)>,
    stays: Groups<(u32, u32)>,
}

/// The flags of the escapers `marks` (`(index, flag)`): `escaped` takes each one's flag and
/// `leaving` says it leaves its place in the grid, all but those `stays` (`(position,
/// index)` per entry) finds a place for (a position, not `u32::MAX`). Indices beyond the
/// flags are left out. On rayon's threads from [`MIN_FLAGS`] escapers, each task owning a
/// range of the indices and writing the escapers that fall in it: the indices lie all over,
/// so each task reads every escaper (up to [`READ_ALL_UP_TO`] threads), or reads the
/// escapers of its range from `flags`, where pieces of them grouped them by range. Atomic
/// flags written by whichever task holds the escaper were tried: sixteen threads' work in a
/// sixteenth of the time, but their relaxed loads in the lists' merge took it 25 % more
/// instructions, one thread 2 % more for the whole 100 k frame.
pub(super) fn flag_escapers(
    (escaped, leaving): (&mut [u8], &mut [bool]),
    marks: &[(u32, u8)],
    stays: &[(u32, u32)],
    flags: &mut Flags,
) {
    debug_assert_eq!(escaped.len(), leaving.len());
    let threads = rayon::current_num_threads();
    if marks.len() < piece_len(MIN_FLAGS) {
        write(0, (escaped, leaving), marks.iter(), stays.iter());
        return;
    }
    let chunk = escaped.len().div_ceil(threads).max(1);
    let ranges = escaped.len().div_ceil(chunk);
    let tasks = (escaped.par_chunks_mut(chunk))
        .zip(leaving.par_chunks_mut(chunk))
        .enumerate();
    if threads <= READ_ALL_UP_TO || marks.len() < READ_ALL_BELOW {
        crate::awake::for_each(tasks, |(r, flags)| {
            write(r * chunk, flags, marks.iter(), stays.iter());
        });
        return;
    }
    let range = |i: u32| (i as usize / chunk).min(ranges);
    let stay = |&(at, e): &(u32, u32)| if at == u32::MAX { ranges } else { range(e) };
    // The two groupings side by side: one fork and join over the threads rather than two.
    let Flags {
        marks: by_marks,
        stays: by_stays,
    } = flags;
    crate::awake::join(
        || by_marks.group(marks, threads, ranges, &|&(i, _)| range(i)),
        || by_stays.group(stays, threads, ranges, &stay),
    );
    let (marks, stays) = (&flags.marks, &flags.stays);
    crate::awake::for_each(tasks, |(r, flags)| {
        write(r * chunk, flags, marks.range(r), stays.range(r));
    });
}

/// The flags of `marks` and `stays` (as [`flag_escapers`] writes them) whose indices fall in
/// `escaped` and `leaving`, which start at index `base`.
fn write<'a>(
    base: usize,
    (escaped, leaving): (&mut [u8], &mut [bool]),
    marks: impl Iterator<Item = &'a (u32, u8)>,
    stays: impl Iterator<Item = &'a (u32, u32)>,
) {
    let len = escaped.len();
    let own = |i: u32| (i as usize).checked_sub(base).filter(|&i| i < len);
    for &(i, flag) in marks {
        if let Some(i) = own(i) {
            (escaped[i], leaving[i]) = (flag, true);
        }
    }
    for &(at, e) in stays {
        if let Some(e) = own(e).filter(|_| at != u32::MAX) {
            leaving[e] = false;
        }
    }
}

/// Unused ends between two pieces' rows (64 bytes): each piece counts into cache lines of its
/// own, rather than into lines its neighbours count into too (as the counting sort's chunks
/// did, `counting_sort.rs`, and took longer on two threads than on one).
const APART: usize = 8;

/// Items grouped by range, each piece of a list on its own: piece `p` (`piece` items of the
/// list from `p * piece`) holds its items in the same places, those of range 0 first, in
/// their order, then range 1's, and so on; `ends` holds where each range's items end in
/// each piece (`ranges + 1` a piece, the last for the items of no range, in rows [`APART`]
/// apart).
#[derive(Debug, Default)]
struct Groups<T> {
    items: Vec<T>,
    ends: Vec<usize>,
    piece: usize,
    pieces: usize,
    ranges: usize,
}

impl<T: Copy + Default + Send + Sync> Groups<T> {
    /// `items` grouped by `range_of` (below `ranges`, or `ranges` for none) in `pieces`
    /// pieces (fewer where they are fewer items), each on rayon's threads.
    fn group(
        &mut self,
        items: &[T],
        pieces: usize,
        ranges: usize,
        range_of: &(impl Fn(&T) -> usize + Sync),
    ) {
        self.piece = items.len().div_ceil(pieces).max(1);
        self.pieces = items.len().div_ceil(self.piece);
        self.ranges = ranges;
        // With room: the escapers' count rises and falls from call to call.
        resize_with_room(&mut self.items, items.len(), T::default());
        resize_with_room(&mut self.ends, self.pieces * (ranges + 1 + APART), 0);
        (self.items.par_chunks_mut(self.piece))
            .zip(items.par_chunks(self.piece))
            .zip(self.ends.par_chunks_mut(ranges + 1 + APART))
            .for_each(|((out, items), row)| {
                // Each range's start, then (each item placed at it) its end.
                let ends = &mut row[..ranges + 1];
                ends.fill(0);
                for x in items {
                    if let Some(next) = ends.get_mut(range_of(x) + 1) {
                        *next += 1;
                    }
                }
                for r in 1..ends.len() {
                    ends[r] += ends[r - 1];
                }
                for x in items {
                    let end = &mut ends[range_of(x)];
                    out[*end] = *x;
                    *end += 1;
                }
            });
    }

    /// The items of range `r`, piece after piece.
    fn range(&self, r: usize) -> impl Iterator<Item = &T> {
        (0..self.pieces).flat_map(move |p| {
            let row = p * (self.ranges + 1 + APART);
            let (ends, at) = (&self.ends[row..], p * self.piece);
            let start = if r == 0 { 0 } else { ends[r - 1] };
            &self.items[at + start..at + ends[r]]
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Xorshift;

    /// Escapers' marks and places, as [`flag_escapers`] reads them.
    type Escapers = (Vec<(u32, u8)>, Vec<(u32, u32)>);

    /// Marks and places of escapers for flags of `len` indices, in random order: `n` indices
    /// spread over the flags or `crowded` into their first seventh, and the first, the last
    /// and one beyond; a third of them without a place in their cell.
    fn escapers(rng: &mut Xorshift, (n, len): (usize, usize), crowded: bool) -> Escapers {
        let span = if crowded { len / 7 } else { len + 50 } as u32;
        let mut indices: Vec<u32> = (0..len as u32).collect();
        for i in 0..n {
            indices.swap(i, i + rng.below((len - i) as u32) as usize);
        }
        let flag = |rng: &mut Xorshift| rng.below(3) as u8 + 1;
        let mut marks: Vec<(u32, u8)> = indices[..n]
            .iter()
            .map(|&i| (i % span, flag(rng)))
            .collect();
        marks.extend([(0, 7), (len as u32 - 1, 8), (len as u32, 9)]);
        marks.sort_by_key(|&(i, _)| i);
        marks.dedup_by_key(|&mut (i, _)| i);
        let place = |rng: &mut Xorshift, i: u32| if rng.below(3) == 0 { u32::MAX } else { i * 2 };
        let stays = marks
            .iter()
            .rev()
            .map(|&(i, _)| (place(rng, i), i))
            .collect();
        for _ in 0..marks.len() {
            let (a, b) = (rng.below(marks.len() as u32), rng.below(marks.len() as u32));
            marks.swap(a as usize, b as usize);
        }
        (marks, stays)
    }

    /// The flags as one thread writes them, escaper by escaper, on 1, 2, 3, 4, 5 and 16
    /// threads (each task reading every escaper, and grouped by range), from a few escapers
    /// to many (see [`escapers`]: a few more and fewer than [`READ_ALL_BELOW`] among them,
    /// the marks deduplicated), the buffers of the grouping reused from call to call.
    #[test]
    fn escapers_flags_are_written_as_one_by_one_on_any_thread_count() {
        let mut rng = Xorshift::new(0x51ed_270b);
        let sizes = [
            (10, 100),
            (1_500, 10_000),
            (5_000, 9_999),
            (READ_ALL_BELOW - 100, 60_000),
            (READ_ALL_BELOW + 100, 60_000),
            (40_000, 300_000),
        ];
        let cases: Vec<_> = (sizes.iter())
            .flat_map(|&size| {
                [false, true].map(|crowded| (size.1, escapers(&mut rng, size, crowded)))
            })
            .collect();
        let counts = cases.iter().map(|(_, (marks, _))| marks.len());
        assert!(
            counts
                .clone()
                .any(|n| (MIN_FLAGS..READ_ALL_BELOW).contains(&n))
        );
        assert!(counts.clone().any(|n| n >= READ_ALL_BELOW));
        let mut flags = Flags::default();
        for threads in [1, 2, 3, 4, 5, 16] {
            let pool = crate::test_pool::pool(threads);
            for (c, (len, (marks, stays))) in cases.iter().enumerate() {
                let (mut want_escaped, mut want_leaving) = (vec![0u8; *len], vec![false; *len]);
                for &(i, flag) in marks.iter().filter(|&&(i, _)| (i as usize) < *len) {
                    (want_escaped[i as usize], want_leaving[i as usize]) = (flag, true);
                }
                for &(at, e) in stays {
                    if at != u32::MAX && (e as usize) < *len {
                        want_leaving[e as usize] = false;
                    }
                }
                let (mut escaped, mut leaving) = (vec![0u8; *len], vec![false; *len]);
                pool.install(|| {
                    flag_escapers((&mut escaped, &mut leaving), marks, stays, &mut flags);
                });
                assert!(
                    escaped == want_escaped && leaving == want_leaving,
                    "case {c}, {threads} threads"
                );
            }
        }
    }
}

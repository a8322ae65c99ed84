//! Blocks of positions and searches in lists sorted by first position: a bit per block of
//! [`BLOCK_SHIFT`] positions says where a kept frame's walk must look (see
//! `kept/untouched.rs` for the blocks the escapers touch, `kept/still.rs` for those that hold
//! a candidate of a changed shape), and [`ahead`], [`ahead_or_all`] and [`scan`] find where a
//! run of a list ends: by probes, or by reading it through where the caller reads it next.

/// Positions per block, as a power of two: a block is copied or passed over whole, or looked
/// at candidate by candidate.
pub(crate) const BLOCK_SHIFT: u32 = 6;

/// Whether block `b` is set in `bits` (a bit per block; none beyond its end).
#[inline(always)]
pub(crate) fn is_set(bits: &[u64], b: usize) -> bool {
    bits.get(b / 64).is_some_and(|w| w >> (b % 64) & 1 != 0)
}

/// Sets block `b` in `bits` (which reach it).
#[inline(always)]
pub(crate) fn set(bits: &mut [u64], b: usize) {
    bits[b / 64] |= 1 << (b % 64);
}

/// The first set block at `b` or after it (`usize::MAX`: none).
#[inline(always)]
pub(crate) fn next_set(bits: &[u64], b: usize) -> usize {
    next_where(bits, b, |w| w)
}

/// The first clear block at `b` or after it, within `bits` (`usize::MAX`: none).
#[inline(always)]
pub(crate) fn next_clear(bits: &[u64], b: usize) -> usize {
    next_where(bits, b, |w| !w)
}

/// The first block at `b` or after it whose bit is set in `word(bits' word)`.
#[inline(always)]
fn next_where(bits: &[u64], b: usize, word: impl Fn(u64) -> u64) -> usize {
    let mut w = b / 64;
    let Some(&first) = bits.get(w) else {
        return usize::MAX;
    };
    let mut found = word(first) & (u64::MAX << (b % 64));
    loop {
        if found != 0 {
            return w * 64 + found.trailing_zeros() as usize;
        }
        w += 1;
        match bits.get(w) {
            Some(&next) => found = word(next),
            None => return usize::MAX,
        }
    }
}

/// The first position of block `b`, `u32::MAX` where it lies beyond every position.
#[inline(always)]
pub(crate) fn block_start(b: usize) -> u32 {
    if b >> (32 - BLOCK_SHIFT) != 0 {
        u32::MAX
    } else {
        (b as u32) << BLOCK_SHIFT
    }
}

/// `list.partition_point(pred)` searched from the start: probes 1, 2, 4, … ahead, then a
/// binary search within the last step. A window's end lies a window's length ahead in a list
/// of millions: its probes stay in the memory the walk reads next, where a binary search over
/// the whole rest of the list misses the cache at every step.
pub(crate) fn ahead<T>(list: &[T], pred: impl Fn(&T) -> bool) -> usize {
    let mut lo = 0;
    let mut step = 1;
    while lo + step <= list.len() && pred(&list[lo + step - 1]) {
        lo += step;
        step *= 2;
    }
    let hi = (lo + step).min(list.len());
    lo + list[lo..hi].partition_point(pred)
}

/// [`ahead`], but the list's last item read first: where it satisfies `pred`, so does every
/// item, and the search is skipped. For a slice whose last item is in cache (a window of a
/// list whose end the walk just found, a task's share whose last candidate every window
/// reads again): passing over the candidates of a world at rest, [`ahead`] to the end
/// probed twenty-odd cache lines per list per window.
pub(crate) fn ahead_or_all<T>(list: &[T], pred: impl Fn(&T) -> bool) -> usize {
    match list.last() {
        Some(last) if pred(last) => list.len(),
        _ => ahead(list, pred),
    }
}

/// Candidates [`scan`] steps over at a time: 64 bytes of pairs, a cache line.
const SCAN_STEP: usize = 8;

/// `list.partition_point(pred)` found by reading every [`SCAN_STEP`]th item from the start,
/// then a binary search within the last step: for a list the caller reads up to that point
/// next (a window's candidates it copies or decides), the reads stream through memory the
/// caller then finds in cache, where [`ahead`]'s probes wait for a miss each.
pub(crate) fn scan<T>(list: &[T], pred: impl Fn(&T) -> bool) -> usize {
    let mut lo = 0;
    while lo + SCAN_STEP <= list.len() && pred(&list[lo + SCAN_STEP - 1]) {
        lo += SCAN_STEP;
    }
    let hi = (lo + SCAN_STEP).min(list.len());
    lo + list[lo..hi].partition_point(pred)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_next_set_and_clear_blocks_are_the_first_from_there() {
        let mut bits = vec![0u64; 3];
        for b in [0, 63, 64, 130] {
            set(&mut bits, b);
        }
        bits[2] |= u64::MAX << 40;
        for b in 0..200 {
            let set = (b..192).find(|&x| is_set(&bits, x)).unwrap_or(usize::MAX);
            let clear = (b..192).find(|&x| !is_set(&bits, x)).unwrap_or(usize::MAX);
            assert_eq!(next_set(&bits, b), set, "from block {b}");
            assert_eq!(next_clear(&bits, b), clear, "from block {b}");
        }
        assert!(!is_set(&bits, 500));
        assert_eq!(next_clear(&[u64::MAX], 3), usize::MAX);
    }

    #[test]
    fn ahead_is_the_partition_point() {
        for len in [0, 1, 7, 8, 9, 31, 300, 1000] {
            let list: Vec<u32> = (0..len).map(|x| x / 3).collect();
            for at in 0..len / 3 + 3 {
                let want = list.partition_point(|&x| x < at);
                assert_eq!(ahead(&list, |&x| x < at), want, "{len} items, below {at}");
                assert_eq!(ahead_or_all(&list, |&x| x < at), want);
                assert_eq!(scan(&list, |&x| x < at), want);
            }
        }
        assert_eq!(ahead(&[] as &[u32], |_| true), 0);
        assert_eq!(block_start(3), 3 << BLOCK_SHIFT);
        for b in [1 << (32 - BLOCK_SHIFT), 1 << 58, usize::MAX] {
            assert_eq!(block_start(b), u32::MAX);
        }
        assert_eq!(block_start((1 << (32 - BLOCK_SHIFT)) - 1), u32::MAX - 63);
    }
}

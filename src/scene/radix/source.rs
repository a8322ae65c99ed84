//! Where a sort's pairs come from: a list, or the lists of a pass's tasks read where they lie.

use core::ops::Range;

/// Pairs a sort reads where they lie (the lists of a pass's tasks, say) rather than from the
/// list it sorts them into: a sort that splits its pairs by their top digit reads them
/// straight from here as it counts the digits, one pass over them less (on many threads a
/// fork and join less); one that does not first copies them into its list.
pub(crate) trait Source: Sync {
    /// Every pair, in order, into `out` (exactly as long as the pairs).
    fn copy_into(&self, out: &mut [(u32, u32)]);
    /// `f(pair)` for each pair at positions `range`, in order.
    fn each(&self, range: Range<usize>, f: impl FnMut((u32, u32)));
}

/// A list as a source: its pairs as they lie.
impl Source for [(u32, u32)] {
    fn copy_into(&self, out: &mut [(u32, u32)]) {
        out.copy_from_slice(self);
    }

    fn each(&self, range: Range<usize>, f: impl FnMut((u32, u32))) {
        self[range].iter().copied().for_each(f);
    }
}

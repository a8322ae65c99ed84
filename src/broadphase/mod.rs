//! Broadphase: turning a set of boxes into the few candidate pairs worth a narrow-phase test.
//!
//! [`levels`] sorts boxes into size levels and lays out each level's cells; [`counting_sort`]
//! puts the boxes into cell order; [`grid`] finds every overlapping pair of boxes exactly once
//! and answers box queries. [`crate::scene`] drives them.

pub(crate) mod counting_sort;
pub(crate) mod grid;
pub(crate) mod levels;

/// Lanes per box test.
const LANES: usize = 8;

/// The smallest box `[min_x, min_y, max_x, max_y]` that holds `a` and `b` (a NaN bound of one
/// gives way to the other's, as `f32::min` and `max` do).
#[inline(always)]
pub(crate) fn union(a: [f32; 4], b: [f32; 4]) -> [f32; 4] {
    [
        a[0].min(b[0]),
        a[1].min(b[1]),
        a[2].max(b[2]),
        a[3].max(b[3]),
    ]
}

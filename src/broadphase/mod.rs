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

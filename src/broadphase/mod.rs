//! Broadphase: turning a set of shapes into the few candidate pairs worth a narrow-phase test.
//!
//! [`grid`] is a multi-level uniform grid built by counting sort; [`crate::scene`] drives it.

pub(crate) mod grid;

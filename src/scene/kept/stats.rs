//! What one kept call did: its phases on the frame's clock and its counts, for the finder's
//! `FrameStats`.

use crate::scene::stats::Laps;
use std::time::Duration;

/// What one call did, for [`FrameStats`](crate::FrameStats).
/// Its phases are wall time, read off `laps` (started when the call began); `decide` is the
/// packing and the kernels together, whose CPU times (summed over the tasks) share it out.
#[derive(Debug, Default)]
pub(crate) struct KeptStats {
    pub(crate) laps: Laps,
    pub(crate) rebuilt: bool,
    pub(crate) escaped: usize,
    pub(crate) candidates: usize,
    pub(crate) still: usize,
    pub(crate) apart: usize,
    pub(crate) filtered: usize,
    pub(crate) build: Duration,
    pub(crate) search: Duration,
    pub(crate) decide: Duration,
    pub(crate) sort: Duration,
    pub(crate) events: Duration,
    pub(crate) merged: bool,
    /// Whether the call searched from scratch by [`Choice`](super::Choice).
    pub(crate) chosen: bool,
    pub(crate) cpu_search: Duration,
    pub(crate) cpu_pack: Duration,
    pub(crate) cpu_kernels: Duration,
}

//! One job of a search from scratch: a share of the grid's positions (and of the unbounded
//! shapes), searched for candidate pairs that are filed by kind and decided by the kernels as
//! they come, on the job's own scratch (`finder.rs` plans the jobs and joins their answers).

use super::candidates::Candidates;
use super::chunks::Chunks;
use super::pack::Shared;
use core::ops::Range;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Candidates a job collects before filing them by kind.
const FOUND: usize = 512;

/// One share of the pair search and everything after it, with its own scratch, on cache
/// lines of its own as the kept frame's tasks are (`kept/tasks.rs`).
#[derive(Debug, Default)]
#[repr(align(128))]
pub(super) struct Job {
    pub(super) positions: Range<usize>,
    pub(super) unbounded: Range<usize>,
    /// Candidates as the search finds them.
    found: Vec<(u32, u32)>,
    pub(super) narrow: Candidates,
    pub(super) search_time: Duration,
}

impl Job {
    /// Searches the job's grid positions and unbounded shapes and decides their candidates.
    /// Its answer's chunks come from `pool`.
    pub(super) fn run(&mut self, shared: &Shared<'_>, pool: &Arc<Chunks>) {
        let start = Instant::now();
        let narrow = &mut self.narrow;
        narrow.reset(pool);
        self.found.resize(FOUND, (0, 0));
        let mut drain = |found: &[(u32, u32)]| {
            for &(p, q) in found {
                narrow.file(shared, p, q);
            }
        };
        shared
            .grid
            .search(self.positions.clone(), &mut self.found, &mut drain);
        let entered = shared.grid.len();
        for u in self.unbounded.clone() {
            let p = (entered + u) as u32;
            for q in (0..entered).chain(entered + u + 1..entered + shared.unbounded) {
                narrow.file(shared, p, q as u32);
            }
        }
        narrow.flush(shared);
        self.search_time = start
            .elapsed()
            .saturating_sub(narrow.pack_time + narrow.kernel_time);
    }
}

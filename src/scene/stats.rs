//! [`FrameStats`]: what one frame of a [`PairFinder`](crate::PairFinder) did and how long each
//! phase took.

use std::time::{Duration, Instant};

/// What one frame of a [`PairFinder`](crate::PairFinder) did and how long each phase took.
///
/// **Every phase is wall-clock time of the frame**, and the phases add up to it: `build`,
/// `search`, `pack`, `kernels`, `sort`, `events` (and `contacts` for
/// [`PairFinder::contacts`](crate::PairFinder::contacts)) are read off one clock, each the time
/// since the last phase ended. Where phases run interleaved in the same tasks (the search, the
/// packing and the kernels of a search from scratch, or the packing and kernels of a kept
/// frame), their wall time together is shared among them in proportion to their CPU time,
/// which [`cpu_search`](Self::cpu_search), [`cpu_pack`](Self::cpu_pack) and
/// [`cpu_kernels`](Self::cpu_kernels) give: summed over the tasks that ran them, so on `t`
/// threads up to `t` times the wall time.
///
/// For a kept finder's `overlapping_pairs` (see [`PairFinder`](crate::PairFinder)), `build` is
/// the escape check and the escapers' move to their new cells (or, in a frame that rebuilt, the
/// enlarged boxes and the grid), `search` the escapers' queries (or the whole search), `pack`
/// everything of deciding the candidates but the kernels (the kept lists written anew as they are
/// read, the escapers' candidates dropped and their new ones merged in; copying the shapes into
/// lane blocks, collecting the hits), `events` finding the pairs that began and ended and `sort`
/// merging them into the last answer (or sorting it).
///
/// Non-exhaustive: later phases (contacts) may add fields; read it, do not build it.
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct FrameStats {
    /// Live shapes in the scene(s), moving and static.
    pub shapes: usize,
    /// Of those, static shapes.
    pub statics: usize,
    /// Shapes never paired because they fail [`Shape::check`](crate::Shape::check).
    pub invalid: usize,
    /// Shapes with infinite or overflow-prone bounds, tested against every other shape.
    pub unbounded: usize,
    /// Grid levels (shapes are sorted into levels by size, a factor 8 per level).
    pub levels: usize,
    /// Shapes in the levels coarser than the level of the median size.
    pub large: usize,
    /// Cells over all levels.
    pub cells: usize,
    /// The cell side of the median size's level.
    pub cell_size: f32,
    /// Candidate pairs (overlapping bounding boxes) handed to the kernels.
    pub candidates: usize,
    /// Candidate pairs a kept finder kept as they were, without a kernel, because neither
    /// shape changed since its last call (no [`Scene::update`](crate::Scene::update) gave it
    /// other bits, no other change touched it): their pairs are in the answer as they were.
    /// `candidates + still + apart` are all the candidates. Only a frame in which few shapes
    /// changed (under a 32nd) keeps any.
    pub still: usize,
    /// Candidate pairs a kept finder decided without a kernel because the shapes' padded
    /// boxes (their bounding boxes, grown against rounding) no longer touch: a kept candidate
    /// is a pair whose enlarged boxes overlap, and for the pair kinds with a polygon, whose
    /// kernels cost several times such a check, the boxes are compared first. 0 for a search
    /// from scratch, whose candidates are pairs of touching padded boxes.
    pub apart: usize,
    /// Candidate pairs dropped before any kernel because their [`Filter`](crate::Filter)s do
    /// not pair. A kept finder drops them when it finds them (its kept candidates are only
    /// pairs whose filters pair; a shape whose filter changed is found again): it counts those
    /// of the shapes it searched for in this call, not all.
    pub filtered: usize,
    /// Overlapping pairs found.
    pub pairs: usize,
    /// Building the grid and copying the shapes into cell order (wall time).
    pub build: Duration,
    /// Pairing bounding boxes through the grid (wall time).
    pub search: Duration,
    /// Copying candidates' shapes into lane blocks (wall time).
    pub pack: Duration,
    /// Running the kernels and collecting their hits (wall time).
    pub kernels: Duration,
    /// The search's CPU time, summed over the tasks that ran it.
    pub cpu_search: Duration,
    /// The packing's CPU time, summed over the tasks that ran it.
    pub cpu_pack: Duration,
    /// The kernels' CPU time, summed over the tasks that ran them.
    pub cpu_kernels: Duration,
    /// Putting the answer in order: merging the pairs that began and ended into the last
    /// answer (see [`merged`](Self::merged)), or sorting it.
    pub sort: Duration,
    /// Whether `overlapping_pairs` rebuilt the grid and the candidates from scratch this call
    /// (first call, the first after `forget`, or too many escapers), or searched from scratch
    /// (too many shapes jumped, kept escaping, or by [`chosen`](Self::chosen)), rather than
    /// updating them; always for
    /// `overlapping_pairs_from_scratch` and `pairs_with`, which search anew every call.
    pub rebuilt: bool,
    /// Shapes whose box left their enlarged box since the last call (all of them when it
    /// rebuilt).
    pub escaped: usize,
    /// Computing the contacts of the pairs found
    /// ([`PairFinder::contacts`](crate::PairFinder::contacts) only; zero otherwise). The other
    /// phases are those of finding the pairs.
    pub contacts: Duration,
    /// Pairs that began and ended with this call ([`PairFinder::began`](crate::PairFinder::began),
    /// [`PairFinder::ended`](crate::PairFinder::ended); kept `overlapping_pairs` and `contacts`
    /// only, zero otherwise).
    pub began: usize,
    /// See [`began`](Self::began).
    pub ended: usize,
    /// Finding the began and ended pairs and keeping the answer for the next call.
    pub events: Duration,
    /// Whether this call's answer came from the last one, the pairs that began and ended
    /// merged into it, rather than from a sort (a kept call without a rebuild, without a
    /// change of the static shapes, and without unbounded shapes in it or the last call).
    pub merged: bool,
    /// Static shapes a kept finder holds copies of, with the copies' places it freed for the
    /// next (it copies the static shapes near each moving shape's enlarged box, and gives a
    /// copy up when no moving shape is near any more): bounded by the static shapes near
    /// moving ones, however long the frames run. Kept `overlapping_pairs` only; zero
    /// otherwise.
    pub static_copies: usize,
    /// Whether a kept `overlapping_pairs` searched from scratch because that has been the
    /// cheaper path for this scene on this machine (from 2¹⁷ moving shapes, 2¹⁶ on eight
    /// threads or more, the finder times both, see [`PairFinder`](crate::PairFinder));
    /// `rebuilt` is then true too. Kept `overlapping_pairs` and `contacts` only; false
    /// otherwise.
    pub chosen: bool,
}

/// A frame's wall clock, read as each phase ends: each phase is the time since the last
/// reading, so that the phases add up to the frame.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Laps(Instant);

impl Default for Laps {
    fn default() -> Self {
        Self(Instant::now())
    }
}

impl Laps {
    /// The time since the last reading (or since the clock started).
    pub(crate) fn lap(&mut self) -> Duration {
        let now = Instant::now();
        let since = now - self.0;
        self.0 = now;
        since
    }
}

/// `wall`, the wall time of phases that ran interleaved in the same tasks, shared among them in
/// proportion to their CPU times `cpu` (equally where those are all zero). The shares add up
/// to `wall`.
pub(crate) fn share<const N: usize>(wall: Duration, cpu: [Duration; N]) -> [Duration; N] {
    let total: f64 = cpu.iter().map(Duration::as_secs_f64).sum();
    let mut left = wall;
    core::array::from_fn(|k| {
        if k == N - 1 {
            return left;
        }
        let part = if total > 0.0 {
            wall.mul_f64(cpu[k].as_secs_f64() / total)
        } else {
            wall / N as u32
        }
        .min(left);
        left -= part;
        part
    })
}

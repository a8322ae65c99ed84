//! [`FrameStats`]: what one frame of a [`PairFinder`](crate::PairFinder) did and how long each
//! phase took.

use std::time::Duration;

/// What one frame of a [`PairFinder`](crate::PairFinder) did and how long each phase took.
///
/// Search, pack and kernel times are summed over the threads that ran them (CPU time); on one
/// thread they are wall time. In `pairs_with`, packing and kernels run in small batches inside the
/// search, so the search time excludes them.
///
/// For a kept finder's `overlapping_pairs` (see [`PairFinder`](crate::PairFinder)), `build` is the
/// escape check, and the escapers' move to their new cells (or, in a frame that rebuilt, the
/// enlarged boxes and the grid), `search` the escapers' queries (or the whole search), and `pack`
/// everything of deciding the candidates but the kernels (the kept lists written anew as they are
/// read, the escapers' candidates dropped and their new ones merged in; copying the shapes into
/// lane blocks, collecting the hits).
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
    /// Candidate pairs dropped before any kernel because their [`Filter`](crate::Filter)s do
    /// not pair. A kept finder drops them when it finds them (its kept candidates are only
    /// pairs whose filters pair; a shape whose filter changed is found again): it counts those
    /// of the shapes it searched for in this call, not all.
    pub filtered: usize,
    /// Overlapping pairs found.
    pub pairs: usize,
    /// Building the grid and copying the shapes into cell order.
    pub build: Duration,
    /// Pairing bounding boxes through the grid.
    pub search: Duration,
    /// Copying candidates' shapes into lane blocks.
    pub pack: Duration,
    /// Running the kernels and collecting their hits.
    pub kernels: Duration,
    /// Putting the answer in order: merging the pairs that began and ended into the last
    /// answer (see [`merged`](Self::merged)), or sorting it.
    pub sort: Duration,
    /// Whether `overlapping_pairs` rebuilt the grid and the candidates from scratch this call
    /// (first call, the first after `forget`, or too many escapers), or searched from scratch
    /// (too many shapes jumped, or kept escaping), rather than updating them; always for
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
}

//! [`Scene`]: many mixed shapes in, every overlapping pair out, through a uniform grid and the
//! lane kernels ([`KERNEL_LANES`](crate::KERNEL_LANES) lanes per call: sixteen with AVX-512).
//!
//! **A collision world.** A scene holds moving and static shapes under stable ids (see
//! [`Scene`]: push, remove, ids that are never handed out twice), each with a [`Filter`]
//! (collision layers) and user data; two static shapes are never paired, and pairs whose
//! filters do not pair are dropped before any kernel.
//!
//! **A frame loop.** A simulation moves its shapes with [`Scene::update`] (or [`Scene::set`])
//! and asks a kept [`PairFinder`] for the overlapping pairs every frame, and for the pairs that
//! [began](PairFinder::began) and [ended](PairFinder::ended). The finder remembers each moving
//! shape's enlarged box (its padded box grown by a margin), a grid over those boxes, the sorted
//! candidate pairs whose enlarged boxes overlap, and the static shapes filed once: a grid of
//! their own and a copy of each static shape that is a candidate of a moving one. A call
//! (timed in [`FrameStats`]):
//! 1. **build**: one streaming pass checks that every moving shape's box still lies inside its
//!    enlarged box; the escapers (and removed shapes) move to their new cells (or out), the
//!    other boxes stay where they are;
//! 2. **search**: each escaper is tested, eight lanes at a time, against the boxes in the cells
//!    of a window around its enlarged box in the moving grid, and against the static shapes
//!    of its neighbourhood (the static grid only when it left its far box), for its new
//!    candidates, sorted by pair kind;
//! 3. **pack** and **kernels**: each pair kind's list is written anew as it is read, its
//!    escapers' candidates dropped and their new ones merged in, and gathered into lane
//!    blocks, 256 candidates at a time, and decided exactly by the kernels; each kept
//!    candidate carries a flag, set while its pair is in the answer, and the candidates whose
//!    hit differs from their flag give the pairs that began and ended (with the flagged
//!    candidates the escapers dropped);
//! 4. **sort** and **events**: the few pairs that began and ended are sorted and merged into
//!    the last answer, which gives the new one without sorting it. A call that rebuilt, filed
//!    the static shapes anew, or has unbounded shapes radix-sorts its answer and compares it
//!    with the last.
//!
//! On the first call, or when too many shapes escaped, the call rebuilds the moving part: the
//! grid over all enlarged boxes (counting sort, below), a full search in which each overlapping
//! pair of boxes is found exactly once, and a radix sort of the candidates; a change of the
//! static shapes files them anew. Exactness does not depend on how the shapes moved: the check
//! covers every moving shape on every call. Every pass over the shapes, cells or candidates
//! runs on rayon's threads (the escapers' bookkeeping and the merge of the few pairs that
//! began and ended do not); the answer is the same on any number of threads.
//! [`PairFinder::pairs_with`] (two scenes), [`PairFinder::overlapping_pairs_from_scratch`] and
//! a scene with unbounded shapes search anew every call, as a rebuild does, with records
//! copied into cell order and the answer radix-sorted.
//!
//! **Queries.** [`PairFinder::index`] builds the same grid for [`SceneIndex::raycast`] (the
//! nearest shape a ray hits, walking the grid along the ray), [`SceneIndex::query_aabb`] and
//! [`SceneIndex::query_point`] (the shapes overlapping a box or containing a point); each answers
//! exactly what testing every shape with the kernels would. [`Scene::raycast`] and its twins do
//! the same with a grid of their own.
//!
//! **Polygons** in a scene keep their vertices out of line (a record holds a slot), so circles
//! and boxes do not pay for eight vertices.
//!
//! **The grid.** Shapes are sorted into levels by the larger side of their bounding box, each
//! level a factor 8 in size, aligned so that the median size is in the middle of its level.
//! Each level is a uniform grid whose cell side is chosen from its shapes' size and density.
//! A shape is entered once, in the cell of its box's minimum corner; it looks for partners in
//! the cells where a box that can reach it must have its corner, among the shapes sorted before
//! it in its own level and all shapes of the finer levels. The window is computed with monotone
//! roundings, so no pair is lost to rounding, clamping or huge coordinates.
//!
//! **What it costs.** A frame is linear in the number of shapes and candidate pairs while shapes
//! are spread out. Mixed sizes cost a few levels, not coarse cells for everyone: a large shape
//! looks up the finer levels' cells under it (one that covers everything costs one pass over
//! them). Shapes piled on one point share one cell and cost their number squared (every pair
//! overlaps, so the answer is that large anyway). A shape with infinite bounds, or bounds beyond
//! ±2⁶⁰ where a kernel's squares could overflow, is tested against every other shape. A level
//! never has more than about four cells per shape; far outliers (beyond the 0.1 % and 99.9 %
//! quantiles) are clamped into its border cells, which costs only the outliers' own tests.
//!
//! **Memory.** A scene keeps 52 bytes per shape (box, record, slot) plus a polygon's vertices. A
//! [`PairFinder`] keeps its buffers from frame to frame: for `overlapping_pairs` the enlarged
//! boxes, the grid's boxes and slots and their second buffers, the ids each slot held, the
//! staging of a rebuild, the candidates twice (the list and the next one), the answer's
//! sort scratch and the last answer (8 bytes per pair), and for static shapes their grid, their
//! records in its order and the neighbours (a record and a polygon's vertices each); for
//! `overlapping_pairs_from_scratch`, `pairs_with` and queries, once it has seen a scene of more
//! than 16 k shapes, the records and boxes in cell order and the staging of the two-pass sort.
//! Measured with a counting allocator on the 100 k mixed bench scene after 60 moving frames,
//! before the last answer was kept: about 275 bytes per shape kept (about 1.9 candidates per
//! shape), about 155 from scratch.

mod answers;
mod blocks;
mod candidates;
mod chunks;
mod contacts;
mod filter;
mod finder;
mod handles;
mod job;
mod kept;
mod pack;
mod packed;
mod picks;
mod polygon_blocks;
mod query;
mod radix;
mod ray_hit;
mod ray_walk;
mod records;
mod reorder;
#[cfg(feature = "serde")]
mod saved;
mod settings;
mod shape_cast;
mod sort;
#[cfg(test)]
mod stamped;
mod stamps;
mod statics;
mod stats;
mod store;

pub use filter::Filter;
pub use finder::PairFinder;
pub use query::SceneIndex;
pub use ray_hit::RayHit;
pub use stats::FrameStats;
pub use store::Scene;

/// Bit of an internal id that says the shape belongs to the second scene of `pairs_with`.
const SIDE: u32 = 1 << 31;
/// Largest number of shapes one scene holds at once: 2²⁴ (16 777 216).
///
/// An id is a `u32` whose low 24 bits are an *index* below `MAX_SHAPES` and whose next 7 bits
/// are a *generation* (the top bit is always 0). A push takes the smallest free index with the
/// next generation, so a removed id is never handed out again and a stale id is answered like
/// an unknown one (see [`Scene`]). An index is handed out 128 times over a scene's life, then
/// retired ([`Scene::clear`] keeps the generations too); a scene therefore hands out at most
/// 2³¹ ids over its life, and a push past that panics, naming the limit (a new scene starts
/// again). A scene that never removes hands out 0, 1, 2, ….
pub const MAX_SHAPES: usize = 1 << handles::INDEX_BITS;
/// Bounds beyond this magnitude could overflow a kernel's squares: such shapes skip the grid.
const BOUNDED: f32 = (1u64 << 60) as f32;

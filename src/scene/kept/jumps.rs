//! Jump sampling: whether so many moving shapes jumped (left their enlarged box for one that
//! does not overlap it) that a search from scratch is cheaper than following them, counted
//! on a sample of the slots.

/// The share of the moving shapes that must have jumped (left their enlarged box for a box
/// that does not overlap it) for a call to search from scratch rather than follow them: at a
/// tenth jumping every frame, following them cost 1.5x a search from scratch (their new
/// candidates, and a scene they make denser); at two percent, 1.24x (see `docs/benchmarks.md`).
pub(super) const JUMPED: f32 = 0.05;

/// Moving slots from which the jumps between searches from scratch are counted on a sample:
/// below this, every slot.
pub(super) const SAMPLE_FROM: usize = 4096;

/// Slots per run of the sample, and of every run of [`SAMPLE_STRIDE`] slots the sample takes
/// the first: an eighth of the slots, in runs a few cache lines long, so that counting the
/// jumps reads an eighth of the boxes.
pub(super) const SAMPLE_RUN: usize = 64;
pub(super) const SAMPLE_STRIDE: usize = 8 * SAMPLE_RUN;

/// The runs of the `n` moving slots whose jumps are counted between searches from scratch:
/// all of them below [`SAMPLE_FROM`], else the first [`SAMPLE_RUN`] of every
/// [`SAMPLE_STRIDE`]. Whether a frame searches from scratch is a matter of speed only (both
/// ways give the same answer), and a share of jumpers is estimated as well from an eighth
/// of the shapes, at an eighth of the memory traffic (a pass over every box was most of what
/// a jumping frame cost beyond its search).
pub(super) fn sampled(n: usize) -> impl Iterator<Item = core::ops::Range<usize>> {
    let (run, stride) = if n < SAMPLE_FROM {
        (n, n.max(1))
    } else {
        (SAMPLE_RUN, SAMPLE_STRIDE)
    };
    (0..n).step_by(stride).map(move |s| s..(s + run).min(n))
}

/// Whether `jumpers` of `n` moving shapes are more than [`JUMPED`] of them.
pub(super) fn too_many_jumped(jumpers: usize, n: usize) -> bool {
    jumpers as f32 > JUMPED * n as f32
}

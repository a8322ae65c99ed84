//! [`batch_sweep`], [`batch_sweep_at`] and [`par_batch_sweep`]: each pair's first contact while
//! its first shape moves.

use super::contact::par_columns;
use super::length::{LengthMismatch, check_lengths};
use super::sweep_kinds::SweepPair;
use crate::lanes::{KERNEL_LANES, Simd, Wide};
use crate::narrow::sweep::gaps;
use crate::soa::{Columns, Motions, ShapeSoa, Sweeps};
use crate::tasks::TASK_PAIRS;

batch_family! {
    /// Sweeps pair `i` for every `i`, [`KERNEL_LANES`] pairs per kernel call: shape `a[i]`
    /// translated by `t · motions[i]` for `t` in `[0, 1]`, without turning, against `b[i]`, which
    /// stays; the first `t` at which they touch and the normal there (see [`Sweep`](crate::Sweep)
    /// for the rules: touching counts, a pair overlapping at the start hits at `t = 0` only where
    /// the motion goes deeper). For two moving shapes, pass `a`'s displacement minus `b`'s.
    ///
    /// Every pair kind of [`batch_contact`](crate::batch_contact), in both orders. The lengths of
    /// `a`, `b` and `motions` must be equal: otherwise the error names `a`'s length and the first
    /// that differs (`b`'s, else the motions'), and `out` is left as it was. `out`'s allocations
    /// are reused.
    ///
    /// ```
    /// use widephase::{batch_sweep, Capsule, Capsules, Motions, Obb, Obbs, Sweeps};
    /// // A character (a capsule) stepping right onto a box turned 45°: it meets the box's corner.
    /// let players: Capsules = [Capsule::new(0.0, 0.0, 0.0, 1.0, 0.5)].into_iter().collect();
    /// let crates: Obbs = [Obb::new(3.0, 0.5, 1.0, 1.0, std::f32::consts::FRAC_PI_4)].into_iter().collect();
    /// let motions: Motions = [[4.0, 0.0]].into_iter().collect();
    /// let mut sweeps = Sweeps::new();
    /// batch_sweep(&players, &crates, &motions, &mut sweeps)?;
    /// let hit = sweeps.get(0).expect("it walks into the crate");
    /// // The corner sits at x = 3 - √2; the capsule's side (x + 0.5) reaches it at t ≈ 0.27.
    /// assert!((hit.t * 4.0 - (3.0 - 2f32.sqrt() - 0.5)).abs() < 1e-5);
    /// assert!(hit.normal[0] > 0.99);
    /// # Ok::<(), widephase::LengthMismatch>(())
    /// ```
    batch_sweep,

    /// [`batch_sweep`] at the lane width of `V` instead of the build's: the same bits (see
    /// [`batch_test_at`](crate::batch_test_at)).
    batch_sweep_at,

    /// [`batch_sweep`] split over rayon's threads at lane-block boundaries; the result is
    /// identical.
    par_batch_sweep:
    SweepPair, (motions: Motions) -> Sweeps, fill fill_sweeps, split par_columns
}

/// Fills a run of [`Sweeps`] storage (whole `L`-lane blocks, `L = V::LANES`) with the sweeps
/// of the blocks from `first_block` on.
#[inline]
fn fill_sweeps<V: Simd, A: SweepPair<B>, B: ShapeSoa>(
    a: &A,
    b: &B,
    motions: &Motions,
    first_block: usize,
    out: Columns<'_>,
) {
    let range = first_block..first_block + out.blocks::<V>();
    let (va, vb, vm) = (
        a.blocks_view::<V>(range.clone()),
        b.blocks_view::<V>(range.clone()),
        motions.blocks_view::<V>(range),
    );
    // Room for what a block's sweep leaves between its passes, kept from block to block.
    let mut room = gaps::<V>();
    let once = |j| {
        let motion = Motions::block_at(&vm, j);
        A::sweep_lanes_in(A::block_at(&va, j), B::block_at(&vb, j), motion, &mut room)
    };
    if !A::TWINNED[usize::from(V::LANES > 8)] {
        return out.fill(once);
    }
    out.fill_twice(once, |j| {
        let a = [A::block_at(&va, j), A::block_at(&va, j + 1)];
        let b = [B::block_at(&vb, j), B::block_at(&vb, j + 1)];
        let m = [Motions::block_at(&vm, j), Motions::block_at(&vm, j + 1)];
        A::sweep_lanes_twice(a, b, m)
    });
}

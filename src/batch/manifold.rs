//! [`batch_manifold`], [`batch_manifold_at`] and [`par_batch_manifold`]: each overlapping
//! pair's contact manifold.

use super::kinds::ManifoldPair;
use super::length::{LengthMismatch, check_lengths};
use crate::lanes::{KERNEL_LANES, Simd, Wide};
use crate::soa::{ManifoldRun, Manifolds, ShapeSoa};
use crate::tasks::{TASK_PAIRS, each_task};
use rayon::prelude::*;

batch_family! {
    /// The manifold of every pair: pair `i` of `a` against pair `i` of `b`
    /// ([`batch_test`](crate::batch_test)'s length rule and hit bits), [`KERNEL_LANES`] pairs per
    /// kernel call. Each pair's manifold is [`ManifoldPair::manifold_reference`]'s, bit for bit.
    ///
    /// ```
    /// use widephase::{batch_manifold, Obb, Obbs, Aabb, Aabbs, Manifolds};
    /// let floor: Aabbs = [Aabb::new(-5.0, -1.0, 5.0, 0.0)].into_iter().collect();
    /// // A box tilted by 0.1 rad, one corner 0.05 into the floor.
    /// let o = Obb::new(0.0, 0.0, 0.5, 0.5, 0.1);
    /// let lift = o.bounding_box().min_y + 0.05;
    /// let boxes: Obbs = [Obb::new(0.0, -lift, 0.5, 0.5, 0.1)].into_iter().collect();
    /// let mut out = Manifolds::new();
    /// batch_manifold(&floor, &boxes, &mut out)?;
    /// let m = out.get(0).expect("the corner is in the floor");
    /// assert_eq!(m.count, 1);
    /// assert!((m.points[0].depth - 0.05).abs() < 1e-5);
    /// # Ok::<(), widephase::LengthMismatch>(())
    /// ```
    batch_manifold,

    /// [`batch_manifold`] at a chosen lane width (`f32x8` or `f32x16`): the same answer.
    batch_manifold_at,

    /// [`batch_manifold`] on rayon's threads: the same answer.
    par_batch_manifold:
    ManifoldPair, () -> Manifolds, fill fill_manifolds, split par_runs
}

/// `task(i, run)` for each `TASK_PAIRS`-pair run `i` of manifold storage, on rayon's threads.
fn par_runs(mut rest: ManifoldRun<'_>, task: &(dyn Fn(usize, ManifoldRun<'_>) + Sync)) {
    let mut runs = Vec::with_capacity(rest.len().div_ceil(TASK_PAIRS));
    while rest.len() > 0 {
        let (run, more) = rest.split(TASK_PAIRS);
        runs.push(run);
        rest = more;
    }
    each_task(runs.into_par_iter(), task);
}

/// Fills a run of [`Manifolds`] storage (whole `L`-lane blocks, `L = V::LANES`) with the
/// manifolds of the blocks from `first_block` on.
#[inline]
fn fill_manifolds<V: Simd, A: ManifoldPair<B>, B: ShapeSoa>(
    a: &A,
    b: &B,
    first_block: usize,
    mut out: ManifoldRun<'_>,
) {
    let blocks = out.len() / V::LANES;
    let (va, vb) = (
        a.blocks_view::<V>(first_block..first_block + blocks),
        b.blocks_view::<V>(first_block..first_block + blocks),
    );
    for j in 0..blocks {
        let m = A::manifold_lanes(A::block_at(&va, j), B::block_at(&vb, j));
        out.write(j, &m);
    }
}

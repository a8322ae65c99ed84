//! [`batch_raycast`], [`batch_raycast_at`] and [`par_batch_raycast`]: one entry parameter per
//! ray.

use super::kinds::RayCast;
use super::length::{LengthMismatch, check_lengths};
use crate::lanes::{KERNEL_LANES, Simd, Wide};
use crate::soa::{Rays, ShapeSoa};
use crate::tasks::each_task;
use rayon::prelude::*;

/// Casts ray `i` against shape `i` for every `i`, [`KERNEL_LANES`] per kernel call.
///
/// On success `out` holds `rays.len()` parameters: the entry parameter `t` of ray `i` into
/// shape `i` (the hit point is `origin + t · dir`; 0 when the origin is inside), or
/// `f32::INFINITY` for a miss. Its allocation is reused. If the lengths differ, the error
/// names both and `out` is left as it was.
///
/// ```
/// use widephase::{batch_raycast, Aabb, Aabbs, Ray, Rays};
/// let rays: Rays = [
///     Ray::new(0.0, 0.5, 1.0, 0.0, 100.0), // along +x
///     Ray::new(2.5, 0.5, 1.0, 0.0, 100.0), // starts inside
///     Ray::new(0.0, 5.0, 1.0, 0.0, 100.0), // passes above
/// ]
/// .into_iter()
/// .collect();
/// let boxes: Aabbs = (0..3).map(|_| Aabb::new(2.0, 0.0, 3.0, 1.0)).collect();
/// let mut t = Vec::new();
/// batch_raycast(&rays, &boxes, &mut t)?;
/// assert_eq!(t, [2.0, 0.0, f32::INFINITY]);
/// # Ok::<(), widephase::LengthMismatch>(())
/// ```
pub fn batch_raycast<S: RayCast>(
    rays: &Rays,
    shapes: &S,
    out: &mut Vec<f32>,
) -> Result<(), LengthMismatch> {
    batch_raycast_at::<Wide, S>(rays, shapes, out)
}

/// [`batch_raycast`] at the lane width of `V` instead of the build's: the same bits (see
/// [`batch_test_at`](crate::batch_test_at)).
pub fn batch_raycast_at<V: Simd, S: RayCast>(
    rays: &Rays,
    shapes: &S,
    out: &mut Vec<f32>,
) -> Result<(), LengthMismatch> {
    let out = prepare_cast(rays, shapes, out)?;
    fill_casts::<V, S>(rays, shapes, 0, out);
    Ok(())
}

/// [`batch_raycast`] split over rayon's threads at lane-block boundaries; the result is
/// identical.
pub fn par_batch_raycast<S: RayCast + Sync>(
    rays: &Rays,
    shapes: &S,
    out: &mut Vec<f32>,
) -> Result<(), LengthMismatch> {
    let out = prepare_cast(rays, shapes, out)?;
    const RAYS_PER_TASK: usize = 4096;
    par_floats(out, RAYS_PER_TASK, &|task, chunk| {
        fill_casts::<Wide, S>(rays, shapes, task * RAYS_PER_TASK / KERNEL_LANES, chunk);
    });
    Ok(())
}

/// `task(i, chunk)` for each `per_task`-float chunk `i` of `out`, on rayon's threads.
fn par_floats(out: &mut [f32], per_task: usize, task: &(dyn Fn(usize, &mut [f32]) + Sync)) {
    each_task(out.par_chunks_mut(per_task), task);
}

fn prepare_cast<'o, S: ShapeSoa>(
    rays: &Rays,
    shapes: &S,
    out: &'o mut Vec<f32>,
) -> Result<&'o mut [f32], LengthMismatch> {
    check_lengths(rays.len(), &[shapes.len()])?;
    // Every element is written below, so a buffer reused at the same length is not filled first.
    out.truncate(rays.len());
    out.resize(rays.len(), f32::INFINITY);
    Ok(out)
}

/// Fills `out` with the parameters of the `L`-lane blocks from `first_block` on (`L =
/// V::LANES`): 64 rays at a time, like `word_of` in `test.rs`, then the rest block by block.
#[inline]
fn fill_casts<V: Simd, S: RayCast>(rays: &Rays, shapes: &S, first_block: usize, out: &mut [f32]) {
    let (lanes, group) = (V::LANES, 64 / V::LANES);
    let (whole, blocks) = (out.len() / lanes, out.len().div_ceil(lanes));
    let (head, rest) = out.split_at_mut(whole * lanes);
    let mut groups = head.chunks_exact_mut(64);
    for (g, run) in (&mut groups).enumerate() {
        let start = first_block + g * group;
        let (vr, vs) = (
            rays.blocks_view::<V>(start..start + group),
            shapes.blocks_view::<V>(start..start + group),
        );
        // A constant trip count over views one group long: unrolled, no bounds checks.
        for (j, slot) in run.chunks_exact_mut(lanes).enumerate() {
            let t = S::lanes(Rays::block_at(&vr, j), S::block_at(&vs, j));
            slot.copy_from_slice(t.as_slice());
        }
    }
    let left = groups.into_remainder();
    let start = first_block + whole / group * group;
    let end = first_block + blocks;
    let (vr, vs) = (
        rays.blocks_view::<V>(start..end),
        shapes.blocks_view::<V>(start..end),
    );
    let left_blocks = left.len() / lanes;
    for (j, chunk) in left.chunks_exact_mut(lanes).enumerate() {
        let t = S::lanes(Rays::block_at(&vr, j), S::block_at(&vs, j));
        chunk.copy_from_slice(t.as_slice());
    }
    if !rest.is_empty() {
        let t = S::lanes(
            Rays::block_at(&vr, left_blocks),
            S::block_at(&vs, left_blocks),
        );
        rest.copy_from_slice(&t.as_slice()[..rest.len()]);
    }
}

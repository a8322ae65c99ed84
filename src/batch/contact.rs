//! [`batch_contact`], [`batch_contact_at`] and [`par_batch_contact`]: each overlapping pair's
//! normal and depth.

use super::kinds::ContactPair;
use super::length::{LengthMismatch, check_lengths};
use crate::lanes::{KERNEL_LANES, Simd, Wide};
use crate::soa::{Columns, Contacts, ShapeSoa};
use crate::tasks::{TASK_PAIRS, WORDS_PER_TASK};
use rayon::prelude::*;

/// Computes the contact of pair `i` of `a` and pair `i` of `b` for every `i`, [`KERNEL_LANES`]
/// pairs per kernel call: which pairs overlap (the same bits as [`batch_test`](crate::batch_test)),
/// and for each that does, the unit normal from `a`'s shape towards `b`'s and the penetration depth
/// (see [`Contact`](crate::Contact)).
///
/// Same length rule as [`batch_test`](crate::batch_test): if the lengths differ, the error names
/// both and `out` is left as it was. `out`'s allocations are reused.
///
/// ```
/// use widephase::{batch_contact, Aabb, Aabbs, Contacts, Obb, Obbs};
/// // A box resting 0.1 deep in a floor, and one 45° box whose corner dips 0.2 into it.
/// let boxes: Obbs = [Obb::new(0.0, 0.9, 1.0, 1.0, 0.0), Obb::new(5.0, 1.2, 1.0, 1.0, 0.25 * std::f32::consts::PI)]
///     .into_iter()
///     .collect();
/// let floor: Aabbs = (0..2).map(|_| Aabb::new(-10.0, -1.0, 10.0, 0.0)).collect();
/// let mut contacts = Contacts::new();
/// batch_contact(&boxes, &floor, &mut contacts)?;
/// for (i, c) in contacts.iter() {
///     assert_eq!(c.normal[1], -1.0); // the floor is below the box
///     assert!((c.depth - [0.1, 0.21421][i]).abs() < 1e-4);
/// }
/// assert_eq!(contacts.hits().count_ones(), 2);
/// # Ok::<(), widephase::LengthMismatch>(())
/// ```
pub fn batch_contact<A, B>(a: &A, b: &B, out: &mut Contacts) -> Result<(), LengthMismatch>
where
    A: ContactPair<B>,
    B: ShapeSoa,
{
    batch_contact_at::<Wide, A, B>(a, b, out)
}

/// [`batch_contact`] at the lane width of `V` instead of the build's: the same bits (see
/// [`batch_test_at`](crate::batch_test_at)).
pub fn batch_contact_at<V, A, B>(a: &A, b: &B, out: &mut Contacts) -> Result<(), LengthMismatch>
where
    V: Simd,
    A: ContactPair<B>,
    B: ShapeSoa,
{
    check_lengths(a, b)?;
    fill_contacts::<V, A, B>(a, b, 0, out.reset(a.len()));
    out.mask_tail();
    Ok(())
}

/// [`batch_contact`] split over rayon's threads at lane-block boundaries; the result is
/// identical.
pub fn par_batch_contact<A, B>(a: &A, b: &B, out: &mut Contacts) -> Result<(), LengthMismatch>
where
    A: ContactPair<B> + Sync,
    B: ShapeSoa + Sync,
{
    check_lengths(a, b)?;
    par_columns(out.reset(a.len()), &|task, run| {
        fill_contacts::<Wide, A, B>(a, b, task * TASK_PAIRS / KERNEL_LANES, run);
    });
    out.mask_tail();
    Ok(())
}

/// `task(i, run)` for each `TASK_PAIRS`-pair run `i` of a three-column answer (contacts,
/// sweeps), on rayon's threads.
pub(super) fn par_columns(columns: Columns<'_>, task: &(dyn Fn(usize, Columns<'_>) + Sync)) {
    let Columns {
        words,
        cols: [c0, c1, c2],
    } = columns;
    words
        .par_chunks_mut(WORDS_PER_TASK)
        .zip(c0.par_chunks_mut(TASK_PAIRS))
        .zip(c1.par_chunks_mut(TASK_PAIRS))
        .zip(c2.par_chunks_mut(TASK_PAIRS))
        .enumerate()
        .for_each(|(i, (((words, c0), c1), c2))| {
            task(
                i,
                Columns {
                    words,
                    cols: [c0, c1, c2],
                },
            );
        });
}

/// Fills a run of [`Contacts`] storage (whole `L`-lane blocks, `L = V::LANES`) with the
/// contacts of the blocks from `first_block` on.
#[inline]
fn fill_contacts<V: Simd, A: ContactPair<B>, B: ShapeSoa>(
    a: &A,
    b: &B,
    first_block: usize,
    out: Columns<'_>,
) {
    let l = V::LANES;
    let [normal_x, normal_y, depth] = out.cols;
    let blocks = normal_x.len() / l;
    let (va, vb) = (
        a.blocks_view::<V>(first_block..first_block + blocks),
        b.blocks_view::<V>(first_block..first_block + blocks),
    );
    let columns = normal_x
        .chunks_exact_mut(l)
        .zip(normal_y.chunks_exact_mut(l))
        .zip(depth.chunks_exact_mut(l));
    for (j, ((nx, ny), depth)) in columns.enumerate() {
        let [mask, normal_x, normal_y, d] =
            A::contact_lanes(A::block_at(&va, j), B::block_at(&vb, j));
        nx.copy_from_slice(normal_x.as_slice());
        ny.copy_from_slice(normal_y.as_slice());
        depth.copy_from_slice(d.as_slice());
        out.words[j * l / 64] |= u64::from(mask.to_bitmask()) << (j * l % 64);
    }
}

//! [`batch_contact`], [`batch_contact_at`] and [`par_batch_contact`]: each overlapping pair's
//! normal and depth.

use super::kinds::ContactPair;
use super::length::{LengthMismatch, check_lengths};
use crate::lanes::{KERNEL_LANES, Simd, Wide};
use crate::soa::{Columns, Contacts, ShapeSoa};
use crate::tasks::{TASK_PAIRS, WORDS_PER_TASK, each_task};
use rayon::prelude::*;

batch_family! {
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
    batch_contact,

    /// [`batch_contact`] at the lane width of `V` instead of the build's: the same bits (see
    /// [`batch_test_at`](crate::batch_test_at)).
    batch_contact_at,

    /// [`batch_contact`] split over rayon's threads at lane-block boundaries; the result is
    /// identical.
    par_batch_contact:
    ContactPair, () -> Contacts, fill fill_contacts, split par_columns
}

/// `task(i, run)` for each `TASK_PAIRS`-pair run `i` of a three-column answer (contacts,
/// sweeps), on rayon's threads.
pub(super) fn par_columns(columns: Columns<'_>, task: &(dyn Fn(usize, Columns<'_>) + Sync)) {
    let Columns {
        words,
        cols: [c0, c1, c2],
    } = columns;
    let runs = words
        .par_chunks_mut(WORDS_PER_TASK)
        .zip(c0.par_chunks_mut(TASK_PAIRS))
        .zip(c1.par_chunks_mut(TASK_PAIRS))
        .zip(c2.par_chunks_mut(TASK_PAIRS))
        .map(|(((words, c0), c1), c2)| Columns {
            words,
            cols: [c0, c1, c2],
        });
    each_task(runs, task);
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
    let range = first_block..first_block + out.blocks::<V>();
    let (va, vb) = (a.blocks_view::<V>(range.clone()), b.blocks_view::<V>(range));
    out.fill(|j| A::contact_lanes(A::block_at(&va, j), B::block_at(&vb, j)));
}

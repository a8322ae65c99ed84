//! [`batch_test`] and [`par_batch_test`]: pair `i` of one container against pair `i` of another,
//! eight pairs per kernel call, and the [`Overlaps`] trait that picks the kernel for a pair of
//! container types at compile time. [`batch_raycast`] and [`par_batch_raycast`] do the same for
//! ray `i` against shape `i`, through the [`RayCast`] trait; [`batch_contact`] and
//! [`par_batch_contact`] answer each overlapping pair's contact, through [`ContactPair`].

use crate::lanes::{ContactX8, LANES, RayX8};
use crate::narrow;
use crate::shape::{Contact, Ray};
use crate::soa::{Columns, Contacts, HitMask, Rays, ShapeSoa};
use core::fmt;
use rayon::prelude::*;
use wide::f32x8;

/// Pair kinds that have a kernel: `A: Overlaps<B>` when shapes in `A` can be tested against shapes
/// in `B`. Implemented for every supported pair in both argument orders; a pair without an
/// implementation is a compile error in [`batch_test`].
pub trait Overlaps<B: ShapeSoa>: ShapeSoa {
    /// The eight-lane kernel: bit `i` of the result is lane `i`'s answer.
    fn kernel(a: &Self::X8, b: &B::X8) -> u8;
    /// The scalar reference the kernel matches bit for bit.
    fn reference(a: &Self::Shape, b: &B::Shape) -> bool;
}

/// Pair kinds whose contacts can be computed: every pair kind with an [`Overlaps`] kernel, in
/// both orders. The swapped order of two distinct kinds is the one kernel with its arguments
/// exchanged and every normal reversed ([`Contact::reversed`]).
pub trait ContactPair<B: ShapeSoa>: Overlaps<B> {
    /// The eight-lane contact kernel; its `hits` are [`Overlaps::kernel`]'s bits.
    fn contact_kernel(a: &Self::X8, b: &B::X8) -> ContactX8;
    /// The scalar reference the kernel matches bit for bit: `None` when the pair does not
    /// overlap.
    fn contact_reference(a: &Self::Shape, b: &B::Shape) -> Option<Contact>;
}

/// The [`Overlaps`], [`ContactPair`] and [`RayCast`] implementations of every pair kind in the
/// pair table: a pair of distinct kinds in both orders (the swapped order exchanges the
/// arguments of the one kernel), a pair of one kind once.
macro_rules! pair_impls {
    (
        distinct { $($d:ident: $A:ty, $B:ty;)* }
        same { $($s:ident: $S:ty;)* }
        casts { $($c:ident: $C:ty;)* }
    ) => {
        $(
            pair_impls!(@overlaps $d: $A, $B);
            impl Overlaps<$A> for $B {
                #[inline(always)]
                fn kernel(a: &Self::X8, b: &<$A as ShapeSoa>::X8) -> u8 {
                    <$A as Overlaps<$B>>::kernel(b, a)
                }
                #[inline]
                fn reference(a: &Self::Shape, b: &<$A as ShapeSoa>::Shape) -> bool {
                    <$A as Overlaps<$B>>::reference(b, a)
                }
            }
            impl ContactPair<$A> for $B {
                #[inline(always)]
                fn contact_kernel(a: &Self::X8, b: &<$A as ShapeSoa>::X8) -> ContactX8 {
                    <$A as ContactPair<$B>>::contact_kernel(b, a).reversed()
                }
                #[inline]
                fn contact_reference(
                    a: &Self::Shape,
                    b: &<$A as ShapeSoa>::Shape,
                ) -> Option<Contact> {
                    <$A as ContactPair<$B>>::contact_reference(b, a).map(Contact::reversed)
                }
            }
        )*
        $( pair_impls!(@overlaps $s: $S, $S); )*
        $(
            impl RayCast for $C {
                #[inline(always)]
                fn kernel(r: &RayX8, s: &<$C as ShapeSoa>::X8) -> f32x8 {
                    narrow::$c::x8(r, s)
                }
                #[inline]
                fn reference(r: &Ray, s: &<$C as ShapeSoa>::Shape) -> f32 {
                    narrow::$c::reference(r, s)
                }
            }
        )*
    };
    (@overlaps $pair:ident: $A:ty, $B:ty) => {
        impl Overlaps<$B> for $A {
            #[inline(always)]
            fn kernel(a: &Self::X8, b: &<$B as ShapeSoa>::X8) -> u8 {
                narrow::$pair::x8(a, b)
            }
            #[inline]
            fn reference(a: &Self::Shape, b: &<$B as ShapeSoa>::Shape) -> bool {
                narrow::$pair::reference(a, b)
            }
        }
        impl ContactPair<$B> for $A {
            #[inline(always)]
            fn contact_kernel(a: &Self::X8, b: &<$B as ShapeSoa>::X8) -> ContactX8 {
                narrow::$pair::contact_x8(a, b)
            }
            #[inline]
            fn contact_reference(a: &Self::Shape, b: &<$B as ShapeSoa>::Shape) -> Option<Contact> {
                narrow::$pair::contact_reference(a, b)
            }
        }
    };
}

crate::pair_table!(pair_impls);

/// The two containers passed to [`batch_test`] have different lengths.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LengthMismatch {
    /// Length of the first container.
    pub a: usize,
    /// Length of the second container.
    pub b: usize,
}

impl fmt::Display for LengthMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "pairwise test needs containers of equal length, got {} and {}",
            self.a, self.b
        )
    }
}

impl std::error::Error for LengthMismatch {}

/// Tests pair `i` of `a` against pair `i` of `b` for every `i`, eight pairs per kernel call.
///
/// On success `out` holds `a.len()` bits, bit `i` set when pair `i` overlaps; its allocation is
/// reused, so a frame loop that keeps one `HitMask` does not allocate once it has grown. If the
/// lengths differ, the error names both and `out` is left as it was.
///
/// ```
/// use widephase::{batch_test, Aabb, Aabbs, Circle, Circles, HitMask};
/// let circles: Circles = (0..10).map(|i| Circle::new(i as f32, 0.0, 0.5)).collect();
/// let boxes: Aabbs = (0..10).map(|_| Aabb::new(3.0, -1.0, 5.0, 1.0)).collect();
/// let mut hits = HitMask::new();
/// batch_test(&circles, &boxes, &mut hits)?;
/// assert_eq!(hits.iter_ones().collect::<Vec<_>>(), [3, 4, 5]);
///
/// // Swapped order, same answers.
/// let mut swapped = HitMask::new();
/// batch_test(&boxes, &circles, &mut swapped)?;
/// assert_eq!(hits, swapped);
///
/// // Mismatched lengths are an error, not a panic.
/// let short: Aabbs = boxes.iter().take(3).collect();
/// let err = batch_test(&circles, &short, &mut hits).unwrap_err();
/// assert_eq!((err.a, err.b), (10, 3));
/// # Ok::<(), widephase::LengthMismatch>(())
/// ```
pub fn batch_test<A, B>(a: &A, b: &B, out: &mut HitMask) -> Result<(), LengthMismatch>
where
    A: Overlaps<B>,
    B: ShapeSoa,
{
    let words = prepare(a, b, out)?;
    fill_words(a, b, 0, words);
    mask_tail(a.len(), words);
    Ok(())
}

/// Number of 64-pair words one rayon task fills: 4096 pairs, enough to amortise the task.
const WORDS_PER_TASK: usize = 64;

/// [`batch_test`] split over rayon's threads at lane-block boundaries; the result is identical.
///
/// Worth it from tens of thousands of pairs; below one task's share (4096 pairs) it runs on the
/// calling thread.
pub fn par_batch_test<A, B>(a: &A, b: &B, out: &mut HitMask) -> Result<(), LengthMismatch>
where
    A: Overlaps<B> + Sync,
    B: ShapeSoa + Sync,
{
    let words = prepare(a, b, out)?;
    words
        .par_chunks_mut(WORDS_PER_TASK)
        .enumerate()
        .for_each(|(task, chunk)| fill_words(a, b, task * WORDS_PER_TASK * 64 / LANES, chunk));
    mask_tail(a.len(), words);
    Ok(())
}

fn prepare<'o, A: ShapeSoa, B: ShapeSoa>(
    a: &A,
    b: &B,
    out: &'o mut HitMask,
) -> Result<&'o mut [u64], LengthMismatch> {
    check_lengths(a, b)?;
    Ok(out.reset(a.len()))
}

/// Fills `words` with the answers of the blocks from `first_block` on, eight blocks per word
/// (block `j` of a word in bits `8j .. 8j + 8`).
#[inline]
fn fill_words<A: Overlaps<B>, B: ShapeSoa>(a: &A, b: &B, first_block: usize, words: &mut [u64]) {
    const BLOCKS_PER_WORD: usize = 64 / LANES;
    let end = a.blocks().min(first_block + words.len() * BLOCKS_PER_WORD);
    let full = (end - first_block) / BLOCKS_PER_WORD;
    for (w, word) in words[..full].iter_mut().enumerate() {
        let start = first_block + w * BLOCKS_PER_WORD;
        // A constant trip count: the eight kernel calls unroll, with constant shifts.
        *word = word_of(a, b, start..start + BLOCKS_PER_WORD);
    }
    if let Some(last) = words.get_mut(full) {
        *last = word_of(a, b, first_block + full * BLOCKS_PER_WORD..end);
    }
}

/// The answers of the blocks in `range` (at most eight), block `j` in bits `8j .. 8j + 8`. Each
/// field is sliced once here, so the loop itself has no bounds checks.
#[inline(always)]
fn word_of<A: Overlaps<B>, B: ShapeSoa>(a: &A, b: &B, range: core::ops::Range<usize>) -> u64 {
    let (va, vb) = (a.blocks_view(range.clone()), b.blocks_view(range.clone()));
    let mut acc = 0u64;
    for j in 0..range.len() {
        acc |= u64::from(A::kernel(&A::block_at(&va, j), &B::block_at(&vb, j))) << (j * LANES);
    }
    acc
}

/// Clears the bits at and past `len` in the last word. Padding lanes are NaN and never hit, so
/// this is a second guard rather than the only one.
#[inline]
fn mask_tail(len: usize, words: &mut [u64]) {
    if let Some(last) = words.last_mut()
        && !len.is_multiple_of(64)
    {
        *last &= (1u64 << (len % 64)) - 1;
    }
}

/// Shapes a ray can be cast against: `S: RayCast` when [`Rays`] can be tested against `S`.
/// Implemented for [`Aabbs`](crate::Aabbs), [`Circles`](crate::Circles), [`Obbs`](crate::Obbs)
/// and [`Polygons`](crate::Polygons), as the pair table lists the casts.
pub trait RayCast: ShapeSoa {
    /// The eight-lane kernel: lane `i` is the entry parameter of ray `i` into shape `i`, or
    /// `f32::INFINITY` for a miss.
    fn kernel(r: &RayX8, s: &Self::X8) -> f32x8;
    /// The scalar reference the kernel matches bit for bit.
    fn reference(r: &Ray, s: &Self::Shape) -> f32;
}

/// Casts ray `i` against shape `i` for every `i`, eight per kernel call.
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
    let out = prepare_cast(rays, shapes, out)?;
    fill_casts(rays, shapes, 0, out);
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
    out.par_chunks_mut(RAYS_PER_TASK)
        .enumerate()
        .for_each(|(task, chunk)| fill_casts(rays, shapes, task * RAYS_PER_TASK / LANES, chunk));
    Ok(())
}

fn prepare_cast<'o, S: ShapeSoa>(
    rays: &Rays,
    shapes: &S,
    out: &'o mut Vec<f32>,
) -> Result<&'o mut [f32], LengthMismatch> {
    check_lengths(rays, shapes)?;
    // Every element is written below, so a buffer reused at the same length is not filled first.
    out.truncate(rays.len());
    out.resize(rays.len(), f32::INFINITY);
    Ok(out)
}

/// Fills `out` with the parameters of the blocks from `first_block` on: eight blocks (64 rays)
/// at a time, like [`word_of`], then the rest block by block.
#[inline]
fn fill_casts<S: RayCast>(rays: &Rays, shapes: &S, first_block: usize, out: &mut [f32]) {
    let (whole, blocks) = (out.len() / LANES, out.len().div_ceil(LANES));
    let (head, rest) = out.split_at_mut(whole * LANES);
    let head: &mut [[f32; LANES]] = bytemuck::cast_slice_mut(head);
    let mut groups = head.chunks_exact_mut(8);
    for (g, group) in (&mut groups).enumerate() {
        let start = first_block + g * 8;
        let (vr, vs) = (
            rays.blocks_view(start..start + 8),
            shapes.blocks_view(start..start + 8),
        );
        // A constant trip count over views eight blocks long: unrolled, no bounds checks.
        let group: &mut [[f32; LANES]; 8] = group.try_into().expect("eight blocks");
        for (j, slot) in group.iter_mut().enumerate() {
            *slot = *S::kernel(&Rays::block_at(&vr, j), &S::block_at(&vs, j)).as_array();
        }
    }
    let left = groups.into_remainder();
    let start = first_block + whole / 8 * 8;
    let end = first_block + blocks;
    let (vr, vs) = (rays.blocks_view(start..end), shapes.blocks_view(start..end));
    for (j, chunk) in left.iter_mut().enumerate() {
        *chunk = *S::kernel(&Rays::block_at(&vr, j), &S::block_at(&vs, j)).as_array();
    }
    if !rest.is_empty() {
        let t = S::kernel(
            &Rays::block_at(&vr, left.len()),
            &S::block_at(&vs, left.len()),
        );
        rest.copy_from_slice(&t.as_array()[..rest.len()]);
    }
}

/// Computes the contact of pair `i` of `a` and pair `i` of `b` for every `i`, eight pairs per
/// kernel call: which pairs overlap (the same bits as [`batch_test`]), and for each that does,
/// the unit normal from `a`'s shape towards `b`'s and the penetration depth (see [`Contact`]).
///
/// Same length rule as [`batch_test`]: if the lengths differ, the error names both and `out` is
/// left as it was. `out`'s allocations are reused.
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
    check_lengths(a, b)?;
    fill_contacts(a, b, 0, out.reset(a.len()));
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
    const PAIRS: usize = WORDS_PER_TASK * 64;
    let Columns {
        words,
        normal_x,
        normal_y,
        depth,
    } = out.reset(a.len());
    words
        .par_chunks_mut(WORDS_PER_TASK)
        .zip(normal_x.par_chunks_mut(PAIRS))
        .zip(normal_y.par_chunks_mut(PAIRS))
        .zip(depth.par_chunks_mut(PAIRS))
        .enumerate()
        .for_each(|(task, (((words, normal_x), normal_y), depth))| {
            let run = Columns {
                words,
                normal_x,
                normal_y,
                depth,
            };
            fill_contacts(a, b, task * PAIRS / LANES, run);
        });
    out.mask_tail();
    Ok(())
}

/// The one length rule of every batch call: equal lengths, or an error naming both.
fn check_lengths<A: ShapeSoa, B: ShapeSoa>(a: &A, b: &B) -> Result<(), LengthMismatch> {
    if a.len() == b.len() {
        Ok(())
    } else {
        Err(LengthMismatch {
            a: a.len(),
            b: b.len(),
        })
    }
}

/// Fills a run of [`Contacts`] storage (whole lane blocks) with the contacts of the blocks from
/// `first_block` on.
#[inline]
fn fill_contacts<A: ContactPair<B>, B: ShapeSoa>(
    a: &A,
    b: &B,
    first_block: usize,
    out: Columns<'_>,
) {
    let blocks = out.normal_x.len() / LANES;
    let (va, vb) = (
        a.blocks_view(first_block..first_block + blocks),
        b.blocks_view(first_block..first_block + blocks),
    );
    let columns = out
        .normal_x
        .chunks_exact_mut(LANES)
        .zip(out.normal_y.chunks_exact_mut(LANES))
        .zip(out.depth.chunks_exact_mut(LANES));
    for (j, ((nx, ny), depth)) in columns.enumerate() {
        let c = A::contact_kernel(&A::block_at(&va, j), &B::block_at(&vb, j));
        nx.copy_from_slice(c.normal_x.as_array());
        ny.copy_from_slice(c.normal_y.as_array());
        depth.copy_from_slice(c.depth.as_array());
        out.words[j / 8] |= u64::from(c.hits) << (j % 8 * LANES);
    }
}

//! [`batch_test`] and [`par_batch_test`]: pair `i` of one container against pair `i` of another,
//! [`KERNEL_LANES`] pairs per kernel call (sixteen with AVX-512, else eight), and the
//! [`Overlaps`] trait that picks the kernel for a pair of
//! container types at compile time. [`batch_raycast`] and [`par_batch_raycast`] do the same for
//! ray `i` against shape `i`, through the [`RayCast`] trait; [`batch_contact`] and
//! [`par_batch_contact`] answer each overlapping pair's contact, through [`ContactPair`].

use crate::lanes::{ContactX8, ContactX16, KERNEL_LANES, RayX8, RayX16, Simd, Wide};
use crate::narrow;
use crate::narrow::manifold::ManifoldLanes;
use crate::shape::{B_REFERENCE, CLIPPED, Contact, Manifold, ManifoldPoint, Ray};
use crate::soa::{Columns, Contacts, HitMask, ManifoldRun, Manifolds, Rays, ShapeSoa};
use core::fmt;
use rayon::prelude::*;
use wide::{f32x8, f32x16};

/// Pair kinds that have a kernel: `A: Overlaps<B>` when shapes in `A` can be tested against shapes
/// in `B`. Implemented for every supported pair in both argument orders; a pair without an
/// implementation is a compile error in [`batch_test`].
pub trait Overlaps<B: ShapeSoa>: ShapeSoa {
    /// The eight-lane kernel: bit `i` of the result is lane `i`'s answer.
    fn kernel(a: &Self::X8, b: &B::X8) -> u8;
    /// The sixteen-lane kernel: bit `i` of the result is lane `i`'s answer.
    fn kernel16(a: &Self::X16, b: &B::X16) -> u16;
    /// The kernel at the width of `V`, on lane columns: all ones in a lane that overlaps. The
    /// one function behind [`kernel`](Self::kernel) and [`kernel16`](Self::kernel16).
    fn lanes<V: Simd>(a: Self::Lanes<V>, b: B::Lanes<V>) -> V;
    /// The scalar reference the kernel matches bit for bit.
    fn reference(a: &Self::Shape, b: &B::Shape) -> bool;
}

/// Pair kinds whose contacts can be computed: every pair kind with an [`Overlaps`] kernel, in
/// both orders. The swapped order of two distinct kinds is the one kernel with its arguments
/// exchanged and every normal reversed ([`Contact::reversed`]).
pub trait ContactPair<B: ShapeSoa>: Overlaps<B> {
    /// The eight-lane contact kernel; its `hits` are [`Overlaps::kernel`]'s bits.
    fn contact_kernel(a: &Self::X8, b: &B::X8) -> ContactX8;
    /// The sixteen-lane contact kernel; its `hits` are [`Overlaps::kernel16`]'s bits.
    fn contact_kernel16(a: &Self::X16, b: &B::X16) -> ContactX16;
    /// The contact kernel at the width of `V`, on lane columns: `[mask, normal_x, normal_y,
    /// depth]`, the mask being [`Overlaps::lanes`]'s.
    fn contact_lanes<V: Simd>(a: Self::Lanes<V>, b: B::Lanes<V>) -> [V; 4];
    /// The scalar reference the kernel matches bit for bit: `None` when the pair does not
    /// overlap.
    fn contact_reference(a: &Self::Shape, b: &B::Shape) -> Option<Contact>;
}

/// The [`Overlaps`], [`ContactPair`] and [`RayCast`] implementations of every pair kind in the
/// pair table: a pair of distinct kinds in both orders (the swapped order exchanges the
/// arguments of the one kernel), a pair of one kind once.
/// The contact manifold of a pair of container kinds (see [`Manifold`]), picked at compile
/// time like [`Overlaps`]; implemented for every supported pair in both argument orders, the
/// swapped order being the same manifold seen from the other shape ([`Manifold::reversed`]).
pub trait ManifoldPair<B: ShapeSoa>: ContactPair<B> {
    /// The scalar reference: the manifold of `a` and `b`, or `None` when they do not overlap.
    fn manifold_reference(a: &Self::Shape, b: &B::Shape) -> Option<Manifold>;
    /// Eight lanes: lane `i`'s manifold, the reference's bits, `None` where it does not
    /// overlap.
    fn manifold_kernel(a: &Self::X8, b: &B::X8) -> [Option<Manifold>; 8];
    /// Sixteen lanes, the same bits lane for lane.
    fn manifold_kernel16(a: &Self::X16, b: &B::X16) -> [Option<Manifold>; 16];
    /// The kernel on lane columns: the overlap mask, the normal, each point's `x`, `y`,
    /// `depth` and `id` (as a number), and the count.
    #[doc(hidden)]
    fn manifold_lanes<V: Simd>(a: Self::Lanes<V>, b: B::Lanes<V>) -> [V; 12];
}

/// Lane `l` of a manifold kernel's columns (see [`ManifoldPair::manifold_lanes`]).
#[inline]
pub(crate) fn manifold_lane<V: Simd>(m: &[V; 12], l: usize) -> Option<Manifold> {
    let at = |c: usize| m[c].as_slice()[l];
    let hit = at(0).to_bits() != 0;
    hit.then(|| Manifold {
        normal: [at(1), at(2)],
        points: core::array::from_fn(|k| ManifoldPoint {
            point: [at(3 + 4 * k), at(4 + 4 * k)],
            depth: at(5 + 4 * k),
            id: at(6 + 4 * k) as u32,
        }),
        count: at(11) as u8,
    })
}

/// A column of manifold point ids (whole numbers below 512) seen from the pair's other shape,
/// as [`Manifold::reversed`]: a clipped point's reference bit flipped.
#[inline(always)]
fn reversed_ids<V: Simd>(id: V) -> V {
    let (clipped, b_reference) = (CLIPPED as f32, (CLIPPED | B_REFERENCE) as f32);
    let flip = V::splat(B_REFERENCE as f32);
    let delta = V::splat(b_reference).simd_le(id).select(
        V::ZERO - flip,
        V::splat(clipped).simd_le(id).select(flip, V::ZERO),
    );
    id + delta
}

/// The manifold columns of a built manifold and its mask.
#[inline(always)]
fn manifold_columns<V: Simd>(m: ManifoldLanes<V>, mask: V) -> [V; 12] {
    [
        mask, m.nx, m.ny, m.x[0], m.y[0], m.depth[0], m.id[0], m.x[1], m.y[1], m.depth[1], m.id[1],
        m.count,
    ]
}

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
                #[inline(always)]
                fn kernel16(a: &Self::X16, b: &<$A as ShapeSoa>::X16) -> u16 {
                    <$A as Overlaps<$B>>::kernel16(b, a)
                }
                #[inline(always)]
                fn lanes<V: Simd>(a: Self::Lanes<V>, b: <$A as ShapeSoa>::Lanes<V>) -> V {
                    <$A as Overlaps<$B>>::lanes(b, a)
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
                #[inline(always)]
                fn contact_kernel16(a: &Self::X16, b: &<$A as ShapeSoa>::X16) -> ContactX16 {
                    <$A as ContactPair<$B>>::contact_kernel16(b, a).reversed()
                }
                #[inline(always)]
                fn contact_lanes<V: Simd>(a: Self::Lanes<V>, b: <$A as ShapeSoa>::Lanes<V>) -> [V; 4] {
                    let [mask, nx, ny, depth] = <$A as ContactPair<$B>>::contact_lanes(b, a);
                    // As `ContactX8::reversed`: `0 - n` keeps `+0` where there is no hit.
                    [mask, V::ZERO - nx, V::ZERO - ny, depth]
                }
                #[inline]
                fn contact_reference(
                    a: &Self::Shape,
                    b: &<$A as ShapeSoa>::Shape,
                ) -> Option<Contact> {
                    <$A as ContactPair<$B>>::contact_reference(b, a).map(Contact::reversed)
                }
            }
            impl ManifoldPair<$A> for $B {
                #[inline]
                fn manifold_reference(
                    a: &Self::Shape,
                    b: &<$A as ShapeSoa>::Shape,
                ) -> Option<Manifold> {
                    <$A as ManifoldPair<$B>>::manifold_reference(b, a).map(Manifold::reversed)
                }
                #[inline]
                fn manifold_kernel(a: &Self::X8, b: &<$A as ShapeSoa>::X8) -> [Option<Manifold>; 8] {
                    <$A as ManifoldPair<$B>>::manifold_kernel(b, a).map(|m| m.map(Manifold::reversed))
                }
                #[inline]
                fn manifold_kernel16(a: &Self::X16, b: &<$A as ShapeSoa>::X16) -> [Option<Manifold>; 16] {
                    <$A as ManifoldPair<$B>>::manifold_kernel16(b, a).map(|m| m.map(Manifold::reversed))
                }
                #[inline(always)]
                fn manifold_lanes<V: Simd>(a: Self::Lanes<V>, b: <$A as ShapeSoa>::Lanes<V>) -> [V; 12] {
                    let mut m = <$A as ManifoldPair<$B>>::manifold_lanes(b, a);
                    // As `Manifold::reversed`: `0 - n` keeps `+0` where there is no hit, and
                    // the clipped points name the other shape as the reference.
                    m[1] = V::ZERO - m[1];
                    m[2] = V::ZERO - m[2];
                    m[6] = reversed_ids(m[6]);
                    m[10] = reversed_ids(m[10]);
                    m
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
                #[inline(always)]
                fn kernel16(r: &RayX16, s: &<$C as ShapeSoa>::X16) -> f32x16 {
                    narrow::$c::x16(r, s)
                }
                #[inline(always)]
                fn lanes<V: Simd>(r: <Rays as ShapeSoa>::Lanes<V>, s: Self::Lanes<V>) -> V {
                    narrow::$c::cast_lanes(r, s)
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
            #[inline(always)]
            fn kernel16(a: &Self::X16, b: &<$B as ShapeSoa>::X16) -> u16 {
                narrow::$pair::x16(a, b)
            }
            #[inline(always)]
            fn lanes<V: Simd>(a: Self::Lanes<V>, b: <$B as ShapeSoa>::Lanes<V>) -> V {
                narrow::$pair::overlap(a, b)
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
            #[inline(always)]
            fn contact_kernel16(a: &Self::X16, b: &<$B as ShapeSoa>::X16) -> ContactX16 {
                narrow::$pair::contact_x16(a, b)
            }
            #[inline(always)]
            fn contact_lanes<V: Simd>(a: Self::Lanes<V>, b: <$B as ShapeSoa>::Lanes<V>) -> [V; 4] {
                let c = narrow::$pair::contact_lanes(a, b);
                [c.mask, c.normal_x, c.normal_y, c.depth]
            }
            #[inline]
            fn contact_reference(a: &Self::Shape, b: &<$B as ShapeSoa>::Shape) -> Option<Contact> {
                narrow::$pair::contact_reference(a, b)
            }
        }
        impl ManifoldPair<$B> for $A {
            #[inline]
            fn manifold_reference(a: &Self::Shape, b: &<$B as ShapeSoa>::Shape) -> Option<Manifold> {
                let c = narrow::$pair::contact_reference(a, b)?;
                let m = narrow::manifold::build::<
                    f32,
                    <$A as ShapeSoa>::Shape,
                    <$B as ShapeSoa>::Shape,
                    { <<$A as ShapeSoa>::Shape as narrow::manifold::Outlined>::N },
                    { <<$B as ShapeSoa>::Shape as narrow::manifold::Outlined>::N },
                >(
                    bytemuck::cast_slice(core::slice::from_ref(a)),
                    bytemuck::cast_slice(core::slice::from_ref(b)),
                    [c.normal[0], c.normal[1], c.depth],
                    true,
                );
                Some(Manifold {
                    normal: [m.nx, m.ny],
                    points: core::array::from_fn(|k| ManifoldPoint {
                        point: [m.x[k], m.y[k]],
                        depth: m.depth[k],
                        id: m.id[k] as u32,
                    }),
                    count: m.count as u8,
                })
            }
            #[inline]
            fn manifold_kernel(a: &Self::X8, b: &<$B as ShapeSoa>::X8) -> [Option<Manifold>; 8] {
                let m = <Self as ManifoldPair<$B>>::manifold_lanes::<f32x8>(bytemuck::cast(*a), bytemuck::cast(*b));
                core::array::from_fn(|l| manifold_lane(&m, l))
            }
            #[inline]
            fn manifold_kernel16(a: &Self::X16, b: &<$B as ShapeSoa>::X16) -> [Option<Manifold>; 16] {
                let m = <Self as ManifoldPair<$B>>::manifold_lanes::<f32x16>(bytemuck::cast(*a), bytemuck::cast(*b));
                core::array::from_fn(|l| manifold_lane(&m, l))
            }
            #[inline(always)]
            fn manifold_lanes<V: Simd>(a: Self::Lanes<V>, b: <$B as ShapeSoa>::Lanes<V>) -> [V; 12] {
                let c = narrow::$pair::contact_lanes(a, b);
                if c.mask.to_bitmask() == 0 {
                    return [V::ZERO; 12];
                }
                let m = narrow::manifold::build::<
                    V,
                    <$A as ShapeSoa>::Shape,
                    <$B as ShapeSoa>::Shape,
                    { <<$A as ShapeSoa>::Shape as narrow::manifold::Outlined>::N },
                    { <<$B as ShapeSoa>::Shape as narrow::manifold::Outlined>::N },
                >(&a, &b, [c.normal_x, c.normal_y, c.depth], c.mask);
                manifold_columns(m, c.mask)
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

/// Tests pair `i` of `a` against pair `i` of `b` for every `i`, [`KERNEL_LANES`] pairs per
/// kernel call (sixteen where the build has AVX-512, else eight; the same bits either way).
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
    batch_test_at::<Wide, A, B>(a, b, out)
}

/// [`batch_test`] at the lane width of `V` ([`f32x8`] or [`f32x16`]) instead of the build's:
/// the same bits. For comparing the widths in one build (the benchmarks do); a sixteen-lane
/// call on a build without AVX-512 runs each `f32x16` as two `f32x8`.
///
/// ```
/// use widephase::{batch_test, batch_test_at, Circle, Circles, HitMask};
/// use widephase::wide::{f32x8, f32x16};
/// let a: Circles = (0..40).map(|i| Circle::new(i as f32, 0.0, 0.3)).collect();
/// let b: Circles = (0..40).map(|i| Circle::new(i as f32 * 1.5, 0.0, 0.3)).collect();
/// let (mut eight, mut sixteen, mut build) = (HitMask::new(), HitMask::new(), HitMask::new());
/// batch_test_at::<f32x8, _, _>(&a, &b, &mut eight)?;
/// batch_test_at::<f32x16, _, _>(&a, &b, &mut sixteen)?;
/// batch_test(&a, &b, &mut build)?;
/// assert_eq!(eight, sixteen);
/// assert_eq!(eight, build);
/// # Ok::<(), widephase::LengthMismatch>(())
/// ```
pub fn batch_test_at<V, A, B>(a: &A, b: &B, out: &mut HitMask) -> Result<(), LengthMismatch>
where
    V: Simd,
    A: Overlaps<B>,
    B: ShapeSoa,
{
    let words = prepare(a, b, out)?;
    fill_words::<V, A, B>(a, b, 0, words);
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
    par_words(words, &|task, chunk| {
        fill_words::<Wide, A, B>(a, b, task * WORDS_PER_TASK * 64 / KERNEL_LANES, chunk);
    });
    mask_tail(a.len(), words);
    Ok(())
}

// The rayon side of the `par_batch_*` functions takes the pair kind's work as a `&dyn Fn`, one
// call per task of thousands of pairs: rayon's plumbing is compiled once, not once per pair kind
// and output type in every crate that calls these (it was most of a test build's machine code).

/// `task(i, chunk)` for each `WORDS_PER_TASK`-word chunk `i` of `words`, on rayon's threads.
fn par_words(words: &mut [u64], task: &(dyn Fn(usize, &mut [u64]) + Sync)) {
    words
        .par_chunks_mut(WORDS_PER_TASK)
        .enumerate()
        .for_each(|(i, chunk)| task(i, chunk));
}

fn prepare<'o, A: ShapeSoa, B: ShapeSoa>(
    a: &A,
    b: &B,
    out: &'o mut HitMask,
) -> Result<&'o mut [u64], LengthMismatch> {
    check_lengths(a, b)?;
    Ok(out.reset(a.len()))
}

/// Fills `words` with the answers of the `L`-lane blocks from `first_block` on (`L =
/// V::LANES`), `64 / L` blocks per word (block `j` of a word in bits `jL .. jL + L`).
#[inline]
fn fill_words<V: Simd, A: Overlaps<B>, B: ShapeSoa>(
    a: &A,
    b: &B,
    first_block: usize,
    words: &mut [u64],
) {
    let per_word = 64 / V::LANES;
    let end = a
        .len()
        .div_ceil(V::LANES)
        .min(first_block + words.len() * per_word);
    let full = (end - first_block) / per_word;
    for (w, word) in words[..full].iter_mut().enumerate() {
        let start = first_block + w * per_word;
        // A constant trip count: the kernel calls unroll, with constant shifts.
        *word = word_of::<V, A, B>(a, b, start..start + per_word);
    }
    if let Some(last) = words.get_mut(full) {
        *last = word_of::<V, A, B>(a, b, first_block + full * per_word..end);
    }
}

/// The answers of the blocks in `range` (one word's worth at most), block `j` in bits
/// `jL .. jL + L`. Each field is sliced once here, so the loop itself has no bounds checks.
#[inline(always)]
fn word_of<V: Simd, A: Overlaps<B>, B: ShapeSoa>(
    a: &A,
    b: &B,
    range: core::ops::Range<usize>,
) -> u64 {
    let (va, vb) = (
        a.blocks_view::<V>(range.clone()),
        b.blocks_view::<V>(range.clone()),
    );
    let mut acc = 0u64;
    for j in 0..range.len() {
        let hits = A::lanes(A::block_at(&va, j), B::block_at(&vb, j)).to_bitmask();
        acc |= u64::from(hits) << (j * V::LANES);
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
/// Implemented for [`Aabbs`](crate::Aabbs), [`Circles`](crate::Circles), [`Obbs`](crate::Obbs),
/// [`Polygons`](crate::Polygons) and [`Capsules`](crate::Capsules), as the pair table lists the
/// casts.
pub trait RayCast: ShapeSoa {
    /// The eight-lane kernel: lane `i` is the entry parameter of ray `i` into shape `i`, or
    /// `f32::INFINITY` for a miss.
    fn kernel(r: &RayX8, s: &Self::X8) -> f32x8;
    /// The sixteen-lane kernel, likewise.
    fn kernel16(r: &RayX16, s: &Self::X16) -> f32x16;
    /// The kernel at the width of `V`, on lane columns: the one function behind
    /// [`kernel`](Self::kernel) and [`kernel16`](Self::kernel16).
    fn lanes<V: Simd>(r: <Rays as ShapeSoa>::Lanes<V>, s: Self::Lanes<V>) -> V;
    /// The scalar reference the kernel matches bit for bit.
    fn reference(r: &Ray, s: &Self::Shape) -> f32;
}

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
/// [`batch_test_at`]).
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
    out.par_chunks_mut(per_task)
        .enumerate()
        .for_each(|(i, chunk)| task(i, chunk));
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

/// Fills `out` with the parameters of the `L`-lane blocks from `first_block` on (`L =
/// V::LANES`): 64 rays at a time, like [`word_of`], then the rest block by block.
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

/// Computes the contact of pair `i` of `a` and pair `i` of `b` for every `i`, [`KERNEL_LANES`]
/// pairs per kernel call: which pairs overlap (the same bits as [`batch_test`]), and for each that does,
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
    batch_contact_at::<Wide, A, B>(a, b, out)
}

/// [`batch_contact`] at the lane width of `V` instead of the build's: the same bits (see
/// [`batch_test_at`]).
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

/// Pairs per task of [`par_batch_contact`] and [`par_batch_manifold`].
const TASK_PAIRS: usize = WORDS_PER_TASK * 64;

/// `task(i, run)` for each `TASK_PAIRS`-pair run `i` of contact columns, on rayon's threads.
fn par_columns(columns: Columns<'_>, task: &(dyn Fn(usize, Columns<'_>) + Sync)) {
    let Columns {
        words,
        normal_x,
        normal_y,
        depth,
    } = columns;
    words
        .par_chunks_mut(WORDS_PER_TASK)
        .zip(normal_x.par_chunks_mut(TASK_PAIRS))
        .zip(normal_y.par_chunks_mut(TASK_PAIRS))
        .zip(depth.par_chunks_mut(TASK_PAIRS))
        .enumerate()
        .for_each(|(i, (((words, normal_x), normal_y), depth))| {
            let run = Columns {
                words,
                normal_x,
                normal_y,
                depth,
            };
            task(i, run);
        });
}

/// The manifold of every pair: pair `i` of `a` against pair `i` of `b` ([`batch_test`]'s length
/// rule and hit bits), [`KERNEL_LANES`] pairs per kernel call. Each pair's manifold is
/// [`ManifoldPair::manifold_reference`]'s, bit for bit.
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
pub fn batch_manifold<A, B>(a: &A, b: &B, out: &mut Manifolds) -> Result<(), LengthMismatch>
where
    A: ManifoldPair<B>,
    B: ShapeSoa,
{
    batch_manifold_at::<Wide, A, B>(a, b, out)
}

/// [`batch_manifold`] at a chosen lane width (`f32x8` or `f32x16`): the same answer.
pub fn batch_manifold_at<V, A, B>(a: &A, b: &B, out: &mut Manifolds) -> Result<(), LengthMismatch>
where
    V: Simd,
    A: ManifoldPair<B>,
    B: ShapeSoa,
{
    check_lengths(a, b)?;
    fill_manifolds::<V, A, B>(a, b, 0, out.reset(a.len()));
    out.mask_tail();
    Ok(())
}

/// [`batch_manifold`] on rayon's threads: the same answer.
pub fn par_batch_manifold<A, B>(a: &A, b: &B, out: &mut Manifolds) -> Result<(), LengthMismatch>
where
    A: ManifoldPair<B> + Sync,
    B: ShapeSoa + Sync,
{
    check_lengths(a, b)?;
    par_runs(out.reset(a.len()), &|task, run| {
        fill_manifolds::<Wide, A, B>(a, b, task * TASK_PAIRS / KERNEL_LANES, run);
    });
    out.mask_tail();
    Ok(())
}

/// `task(i, run)` for each `TASK_PAIRS`-pair run `i` of manifold storage, on rayon's threads.
fn par_runs(mut rest: ManifoldRun<'_>, task: &(dyn Fn(usize, ManifoldRun<'_>) + Sync)) {
    let mut runs = Vec::with_capacity(rest.len().div_ceil(TASK_PAIRS));
    while rest.len() > 0 {
        let (run, more) = rest.split(TASK_PAIRS);
        runs.push(run);
        rest = more;
    }
    runs.into_par_iter()
        .enumerate()
        .for_each(|(i, run)| task(i, run));
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
    let blocks = out.normal_x.len() / l;
    let (va, vb) = (
        a.blocks_view::<V>(first_block..first_block + blocks),
        b.blocks_view::<V>(first_block..first_block + blocks),
    );
    let columns = out
        .normal_x
        .chunks_exact_mut(l)
        .zip(out.normal_y.chunks_exact_mut(l))
        .zip(out.depth.chunks_exact_mut(l));
    for (j, ((nx, ny), depth)) in columns.enumerate() {
        let [mask, normal_x, normal_y, d] =
            A::contact_lanes(A::block_at(&va, j), B::block_at(&vb, j));
        nx.copy_from_slice(normal_x.as_slice());
        ny.copy_from_slice(normal_y.as_slice());
        depth.copy_from_slice(d.as_slice());
        out.words[j * l / 64] |= u64::from(mask.to_bitmask()) << (j * l % 64);
    }
}

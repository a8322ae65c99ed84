//! The contacts of answer pairs: each pair `(a, b)` names its shapes' records by position
//! where the scene keeps them (the moving store, then the static one), is filed by pair kind
//! (the kernels' argument order, remembering when that is `(b, a)`), every [`BATCH`] of a kind
//! are gathered from those records into lane blocks and handed to the contact kernels, and
//! each contact lands at its pair's index, reversed where the kernel saw the pair the other
//! way round.

use super::Scene;
use super::candidates::{KINDS, PAIR_KINDS, scene_kinds};
use super::pack::{BATCH, BLOCKS, Pack, Shared, Stored, block_of};
use super::records::KIND;
use crate::batch::ManifoldPair;
use crate::broadphase::grid::Grid;
use crate::lanes::{KERNEL_LANES, Simd, Wide};
use crate::shape::{Contact, Manifold};
use crate::soa::ShapeSoa;
use rayon::prelude::*;

/// A pair as filed: the positions of its two records in the kernels' argument order, and its
/// index in the run (with
/// [`REVERSED`] when the kernel's `a` is the pair's `b`).
type Item = (u32, u32, u32);

/// Flag of [`Item`]'s index: the contact is seen from the pair's second shape.
const REVERSED: u32 = 1 << 31;

/// Computes a pair kind's pending answers (contacts or manifolds) into a run of the answer.
type Compute<T> = fn(&mut Pack<Item, PAIR_KINDS>, &Shared<'_>, usize, &mut [(u32, u32, T)]);

/// Every pair kind of the pair table, with its kind codes and its computation `$f::<A, B, $T>`.
macro_rules! table_answers {
    (
        $f:ident, $T:ident
        distinct { $($d:ident: $A:ty, $B:ty;)* }
        same { $($s:ident: $S:ty;)* }
        casts { $($c:ident: $C:ty;)* }
    ) => {
        &[
            $((<$A as Stored>::CODE, <$B as Stored>::CODE, $f::<$A, $B, $T> as Compute<$T>),)*
            $((<$S as Stored>::CODE, <$S as Stored>::CODE, $f::<$S, $S, $T> as Compute<$T>),)*
        ]
    };
}

/// The contact computation of each scene pair kind, indexed like the candidates' pair kinds.
const SCENE: ([Compute<Contact>; PAIR_KINDS], [[u8; KINDS]; KINDS]) =
    scene_kinds(crate::pair_table!(table_answers, compute, Contact));

/// The manifold computation of each scene pair kind, indexed like [`SCENE`].
const MANIFOLDS: [Compute<Manifold>; PAIR_KINDS] =
    scene_kinds(crate::pair_table!(table_answers, compute, Manifold)).0;

/// Pairs per rayon task: enough to amortise a task and its batches' partial blocks.
const PAIRS_PER_TASK: usize = 8192;

/// Scratch of the contact computation: per task, one batch per pair kind, kept across calls.
#[derive(Debug, Default)]
pub(crate) struct ContactScratch {
    tasks: Vec<Pack<Item, PAIR_KINDS>>,
}

impl ContactScratch {
    /// The contacts of `pairs` (overlapping pairs of `scene`'s ids) into `out`, in the same
    /// order, on rayon's threads. `grid` is any grid: the records are read where the scene
    /// keeps them.
    pub(crate) fn compute(
        &mut self,
        scene: &Scene,
        grid: &Grid,
        pairs: &[(u32, u32)],
        out: &mut Vec<(u32, u32, Contact)>,
    ) {
        self.answer(scene, grid, pairs, out, &SCENE.0);
    }

    /// The manifolds of `pairs`, as [`compute`](Self::compute) the contacts.
    pub(crate) fn manifolds(
        &mut self,
        scene: &Scene,
        grid: &Grid,
        pairs: &[(u32, u32)],
        out: &mut Vec<(u32, u32, Manifold)>,
    ) {
        self.answer(scene, grid, pairs, out, &MANIFOLDS);
    }

    /// The answers of `pairs` by the computations `table`, in the same order.
    fn answer<T: Copy + Default + Send>(
        &mut self,
        scene: &Scene,
        grid: &Grid,
        pairs: &[(u32, u32)],
        out: &mut Vec<(u32, u32, T)>,
        table: &[Compute<T>; PAIR_KINDS],
    ) {
        out.clear();
        out.extend(pairs.iter().map(|&(a, b)| (a, b, T::default())));
        let runs = pairs.len().div_ceil(PAIRS_PER_TASK);
        if self.tasks.len() < runs {
            self.tasks.resize_with(runs, Default::default);
        }
        // The records in place: the moving store's by slot, then the static store's.
        let shared = Shared::new(grid, &scene.moving.records, [scene, scene], 0, false)
            .with_tail(&scene.statics.records);
        let work = out
            .par_chunks_mut(PAIRS_PER_TASK)
            .zip(&mut self.tasks[..runs]);
        crate::awake::for_each(work, |(run, pack)| {
            run_answers(pack, scene, &shared, run, table);
        });
    }
}

/// Files each pair of `run` (its records at their positions in `shared`, see
/// [`Scene::position`]) by pair kind, computes every full batch, then the rest.
fn run_answers<T>(
    pack: &mut Pack<Item, PAIR_KINDS>,
    scene: &Scene,
    shared: &Shared<'_>,
    run: &mut [(u32, u32, T)],
    table: &[Compute<T>; PAIR_KINDS],
) {
    pack.clear();
    let position = |id| {
        scene
            .position(id)
            .expect("an answer pair names live shapes")
    };
    for i in 0..run.len() {
        let (a, b) = (position(run[i].0), position(run[i].1));
        let (ka, kb) = (shared.record(a).kind & KIND, shared.record(b).kind & KIND);
        let item = if kb < ka {
            (b, a, i as u32 | REVERSED)
        } else {
            (a, b, i as u32)
        };
        let kind = SCENE.1[ka as usize][kb as usize] as usize;
        if pack.push(kind, item, true) {
            table[kind](pack, shared, kind, run);
        }
    }
    for (kind, compute) in table.iter().enumerate() {
        compute(pack, shared, kind, run);
    }
}

/// An answer the scene computes per overlapping pair: a [`Contact`] or a [`Manifold`], from
/// its kernel's lane block.
trait Answer: Copy {
    /// The kernel's answer for a lane block of the pair kind `A`–`B`.
    type Lanes;
    /// Runs the kernel on gathered lane columns.
    fn kernel<A: ManifoldPair<B>, B: ShapeSoa>(a: A::Lanes<Wide>, b: B::Lanes<Wide>)
    -> Self::Lanes;
    /// Lane `l`'s answer (every lane given overlaps).
    fn lane(lanes: &Self::Lanes, l: usize) -> Self;
    /// The same answer seen from the pair's other shape.
    fn reversed(self) -> Self;
}

impl Answer for Contact {
    type Lanes = [Wide; 4];
    #[inline(always)]
    fn kernel<A: ManifoldPair<B>, B: ShapeSoa>(a: A::Lanes<Wide>, b: B::Lanes<Wide>) -> [Wide; 4] {
        A::contact_lanes(a, b)
    }
    #[inline(always)]
    fn lane([_, nx, ny, depth]: &[Wide; 4], l: usize) -> Self {
        Contact {
            normal: [nx.as_slice()[l], ny.as_slice()[l]],
            depth: depth.as_slice()[l],
        }
    }
    #[inline(always)]
    fn reversed(self) -> Self {
        Contact::reversed(self)
    }
}

impl Answer for Manifold {
    type Lanes = [Wide; 12];
    #[inline(always)]
    fn kernel<A: ManifoldPair<B>, B: ShapeSoa>(a: A::Lanes<Wide>, b: B::Lanes<Wide>) -> [Wide; 12] {
        A::manifold_lanes(a, b)
    }
    #[inline(always)]
    fn lane(m: &[Wide; 12], l: usize) -> Self {
        crate::batch::manifold_lane(m, l).unwrap_or_default()
    }
    #[inline(always)]
    fn reversed(self) -> Self {
        Manifold::reversed(self)
    }
}

/// Gathers one pair kind's pending pairs into lane blocks (a partial block padded with its
/// first pair), runs the kernel of the answer `T`, and writes each lane's answer at its pair's
/// index, reversed where the kernel saw the pair the other way round.
fn compute<A, B, T: Answer>(
    pack: &mut Pack<Item, PAIR_KINDS>,
    shared: &Shared<'_>,
    kind: usize,
    run: &mut [(u32, u32, T)],
) where
    A: ManifoldPair<B> + Stored,
    B: Stored,
{
    let pending = pack.take(kind);
    let blocks = pending.len().div_ceil(KERNEL_LANES);
    for k in 0..blocks {
        let at: [_; KERNEL_LANES] = block_of(pending, k, pending[0]);
        let a = A::gather_lanes(shared, &at.map(|p| p.0));
        let b = B::gather_lanes(shared, &at.map(|p| p.1));
        let answers = T::kernel::<A, B>(a, b);
        let lanes = (pending.len() - k * KERNEL_LANES).min(KERNEL_LANES);
        for (l, &(_, _, index)) in at[..lanes].iter().enumerate() {
            // Every pair given here overlaps (the same kernels decided it), so every lane
            // holds its answer.
            let x = T::lane(&answers, l);
            let x = if index & REVERSED != 0 {
                x.reversed()
            } else {
                x
            };
            run[(index & !REVERSED) as usize].2 = x;
        }
    }
}

const _: () = assert!(BLOCKS * KERNEL_LANES == BATCH);

//! Lane packing: candidates wait in [`Pack`] by key (a pair kind, or a shape kind for a query)
//! until [`BATCH`] of a key are there, then their records are gathered into lane blocks
//! ([`Stored::gather`]) for one kernel call per block, while they are still in cache.

use super::blocks::{BLOCK_SHIFT, block_start, is_set, next_clear, next_set};
use super::filter::Rule;
use super::records::{
    AABB, CAPSULE, CIRCLE, COPIED, Copied, GATHERED, KIND, OBB, POLYGON, Record, STATIC,
};
use super::{SIDE, Scene};
use crate::broadphase::grid::Grid;
use crate::lanes::{
    AabbX8, CapsuleX8, CircleX8, KERNEL_LANES, LANES, ObbX8, PointX8, PolygonX8, Simd, Wide,
};
use crate::shape::MAX_VERTICES;
use crate::soa::{Aabbs, Capsules, Circles, Obbs, Points, Polygons, ShapeSoa};
use bytemuck::Pod;
use wide::f32x8;

/// Candidates collected per key before they are packed and tested: whole lane blocks, and
/// their hits fit one `u64`.
pub(crate) const BATCH: usize = 64;
const _: () = assert!(BATCH <= 64 && BATCH.is_multiple_of(KERNEL_LANES));

/// Kernel-width lane blocks per batch ([`KERNEL_LANES`] lanes each).
pub(crate) const BLOCKS: usize = BATCH / KERNEL_LANES;

/// What the narrow phase reads: the shapes' records by position (for a search, in the grid's
/// order, then the unbounded shapes, then one inert sentinel that pads partial lane blocks;
/// for a kept finder, the moving shapes by index as it gathered them, then the static
/// neighbours), and the scenes whose polygons and filters they point to.
#[derive(Clone, Copy)]
pub(crate) struct Shared<'a> {
    pub(crate) grid: &'a Grid,
    /// The records of positions `0 .. split`, and of `split ..` (empty unless a kept finder
    /// reads two arrays).
    shapes: &'a [Record],
    tail: &'a [Record],
    split: u32,
    /// The scenes, by side (the same scene twice but in `pairs_with`).
    pub(crate) scenes: [&'a Scene; 2],
    /// Each scene's filter table, by side, and whether any shape has a filter other than
    /// [`Filter::ALL`](crate::Filter::ALL).
    pub(crate) filters: [&'a [Rule]; 2],
    pub(crate) layered: bool,
    /// Whether a candidate may be two static shapes or, in `pairs_with`, two shapes of one
    /// scene (a kept finder's lists never hold such pairs).
    pub(crate) mixed_kinds: bool,
    /// The vertices of copied static polygons (records flagged [`COPIED`]), and the position
    /// from which the records are those copies' neighbours, by slot (`u32::MAX`: none).
    pub(crate) copies: &'a [Copied],
    pub(crate) copies_at: u32,
    /// The vertices of gathered moving polygons (records flagged [`GATHERED`]).
    pub(crate) gathered: &'a [Copied],
    pub(crate) unbounded: usize,
    /// Whether this is `pairs_with` (pairs within one scene are dropped).
    pub(crate) cross: bool,
    /// A bit per position, set where its record is the one the last call of a kept finder
    /// decided its candidates with (see `kept/still.rs`; empty, and beyond its end: none is).
    pub(crate) still: &'a [u64],
    /// A bit per block of first positions of a kept finder's moving lists, set where the
    /// block may hold a candidate that is not of two still positions (see `kept/still.rs`;
    /// empty: every candidate is looked at, and beyond its end every block is set).
    busy: &'a [u64],
}

impl<'a> Shared<'a> {
    /// What the narrow phase reads of `shapes`, records of `scenes` (by side).
    pub(crate) fn new(
        grid: &'a Grid,
        shapes: &'a [Record],
        scenes: [&'a Scene; 2],
        unbounded: usize,
        cross: bool,
    ) -> Self {
        Self {
            grid,
            shapes,
            tail: &[],
            split: u32::MAX,
            scenes,
            filters: scenes.map(|s| s.filters.all()),
            layered: scenes.iter().any(|s| s.filters.layered()),
            mixed_kinds: true,
            copies: &[],
            copies_at: u32::MAX,
            gathered: &[],
            unbounded,
            cross,
            still: &[],
            busy: &[],
        }
    }

    /// This, with the vertices of copied static polygons; the records from position `at` on
    /// are the neighbours by slot (`u32::MAX`: none are).
    pub(crate) fn with_copies(self, copies: &'a [Copied], at: u32) -> Self {
        Self {
            copies,
            copies_at: at,
            ..self
        }
    }

    /// This, with the vertices of the gathered moving polygons.
    pub(crate) fn with_gathered(self, gathered: &'a [Copied]) -> Self {
        Self { gathered, ..self }
    }

    /// This, with the records of positions from `shapes.len()` on read from `tail`.
    pub(crate) fn with_tail(self, tail: &'a [Record]) -> Self {
        Self {
            tail,
            split: self.shapes.len() as u32,
            ..self
        }
    }

    /// This, with the positions whose records are still the last call's: a candidate of two
    /// such positions keeps its flag without a kernel (see
    /// [`decide_list`](crate::scene::candidates::Candidates::decide_list)).
    pub(crate) fn with_still(self, still: &'a [u64]) -> Self {
        Self { still, ..self }
    }

    /// This, with the blocks of first positions that may hold candidates of changed shapes
    /// (see [`busy_run`](Self::busy_run)): for a kept finder's moving lists, whose candidates
    /// are in order of first positions.
    pub(crate) fn with_busy(self, busy: &'a [u64]) -> Self {
        Self { busy, ..self }
    }

    /// Whether blocks of first positions are marked busy at all (see
    /// [`with_busy`](Self::with_busy)).
    #[inline(always)]
    pub(crate) fn marks_busy(&self) -> bool {
        !self.busy.is_empty()
    }

    /// The share of the blocks marked busy, as `(busy, blocks)`; `None` where the blocks are
    /// not marked at all (every candidate is looked at).
    pub(crate) fn busy_share(&self) -> Option<(u64, u64)> {
        let busy = self.busy.iter().map(|w| u64::from(w.count_ones())).sum();
        self.marks_busy()
            .then(|| (busy, self.busy.len() as u64 * 64))
    }

    /// The run of blocks from first position `p`'s: `(true, end)` where its candidates and
    /// those up to first position `end` may be of changed shapes, `(false, end)` where those
    /// up to `end` are all of two still positions.
    #[inline(always)]
    pub(crate) fn busy_run(&self, p: u32) -> (bool, u32) {
        let (bits, b) = (self.busy, (p >> BLOCK_SHIFT) as usize);
        let blocks = bits.len() * 64;
        if b >= blocks {
            (true, u32::MAX)
        } else if is_set(bits, b) {
            (true, block_start(next_clear(bits, b)))
        } else {
            (false, block_start(next_set(bits, b).min(blocks)))
        }
    }

    /// Whether the record at position `p` is still the last call's (see
    /// [`with_still`](Self::with_still)).
    #[inline(always)]
    pub(crate) fn is_still(&self, p: u32) -> bool {
        self.still
            .get(p as usize / 64)
            .is_some_and(|w| w >> (p % 64) & 1 != 0)
    }

    /// The record at position `p`, if any.
    #[inline(always)]
    pub(crate) fn get_record(&self, p: u32) -> Option<&'a Record> {
        if p < self.split {
            self.shapes.get(p as usize)
        } else {
            self.tail.get((p - self.split) as usize)
        }
    }

    /// The record at position `p` (which must be one).
    #[inline(always)]
    pub(crate) fn record(&self, p: u32) -> &'a Record {
        self.get_record(p).expect("a record at every position read")
    }

    /// This, for candidates that are never two static shapes nor of one `pairs_with` scene.
    pub(crate) fn admitted(self) -> Self {
        Self {
            mixed_kinds: false,
            ..self
        }
    }

    /// This, for candidates whose filters are known to pair (a kept finder files only those):
    /// the kernels' walk does not look at filters.
    pub(crate) fn paired(self) -> Self {
        Self {
            layered: false,
            ..self
        }
    }

    /// The position of the inert sentinel.
    #[inline(always)]
    pub(crate) fn sentinel(&self) -> u32 {
        (self.shapes.len() + self.tail.len() - 1) as u32
    }

    /// The rule (filter and sensor flag) of a record.
    #[inline(always)]
    pub(crate) fn rule(&self, r: &Record) -> Rule {
        self.filters[(r.id >> 31) as usize][r.filter()]
    }

    /// Whether the pair of two records may be reported at all: a pair across the scenes in
    /// `pairs_with`, not two static shapes.
    #[inline(always)]
    pub(crate) fn admits(&self, p: &Record, q: &Record) -> bool {
        let sides = !self.cross || (p.id ^ q.id) & SIDE != 0;
        sides & (p.kind & q.kind & STATIC == 0)
    }

    /// Whether the filters of two records pair.
    #[inline(always)]
    pub(crate) fn layers_pair(&self, p: &Record, q: &Record) -> bool {
        self.rule(p).pairs_with(self.rule(q))
    }
}

/// A container kind as a scene stores it: its kind code, and its lane blocks gathered from
/// records.
pub(crate) trait Stored: ShapeSoa {
    /// The kind code of [`Record::kind`], or `None` for a kind a scene does not hold.
    const CODE: Option<u32>;
    /// A kernel-width block that never hits.
    const INERT: Self::Lanes<Wide>;
    /// The lane block of the shapes at eight positions.
    fn gather(shared: &Shared<'_>, at: [u32; LANES]) -> Self::X8;
    /// The kernel-width lane columns of the shapes at [`KERNEL_LANES`] positions: eight-lane
    /// [`gather`](Self::gather)s, side by side.
    fn gather_lanes(shared: &Shared<'_>, at: &[u32; KERNEL_LANES]) -> Self::Lanes<Wide>;
}

/// Eight-lane blocks side by side as kernel-width columns: column `c` of block `h` becomes
/// lanes `8h .. 8h + 8` of column `c`.
#[inline(always)]
fn widen<X: Pod, const C: usize>(halves: &[X; KERNEL_LANES / LANES]) -> [Wide; C] {
    let mut out = [Wide::ZERO; C];
    let flat: &mut [f32] = bytemuck::cast_slice_mut(&mut out);
    for (h, half) in halves.iter().enumerate() {
        let columns: &[f32] = bytemuck::cast_slice(core::slice::from_ref(half));
        for c in 0..C {
            let to = c * KERNEL_LANES + h * LANES;
            flat[to..to + LANES].copy_from_slice(&columns[c * LANES..(c + 1) * LANES]);
        }
    }
    out
}

/// [`Stored::gather_lanes`] from [`Stored::gather`].
#[inline(always)]
fn gather_halves<S: Stored, const C: usize>(
    shared: &Shared<'_>,
    at: &[u32; KERNEL_LANES],
) -> [Wide; C]
where
    S::X8: Pod,
{
    let halves: [S::X8; KERNEL_LANES / LANES] = core::array::from_fn(|h| {
        S::gather(
            shared,
            at[h * LANES..][..LANES]
                .try_into()
                .expect("eight positions"),
        )
    });
    widen(&halves)
}

/// The records at eight positions, transposed: lane `l` of column `c` is word `c` of record
/// `at[l]` (columns 0 to 5 are the fields). A record is one 32-byte row, so this is eight row
/// loads and an 8×8 transpose instead of a scalar load and insert per field and lane.
#[inline(always)]
fn transposed(shared: &Shared<'_>, at: [u32; LANES]) -> [f32x8; LANES] {
    let mut rows = [f32x8::ZERO; LANES];
    for (row, &p) in rows.iter_mut().zip(&at) {
        *row = bytemuck::cast(*shared.record(p));
    }
    f32x8::transpose(rows)
}

/// `$body` with `$S` the container type of the stored kind code `$kind` (any code but
/// those of circles, boxes and capsules is a polygon's): one kernel call per kind where the
/// kernels differ by type, for the queries and casts.
macro_rules! by_kind {
    ($kind:expr, $S:ident => $body:expr) => {
        by_kind!(@ $kind, $S => $body; CIRCLE: Circles, AABB: Aabbs, OBB: Obbs, CAPSULE: Capsules)
    };
    (@ $kind:expr, $S:ident => $body:expr; $($code:ident: $T:ident),+) => {
        match $kind {
            $($crate::scene::records::$code => { type $S = $crate::soa::$T; $body })+
            _ => { type $S = $crate::soa::Polygons; $body }
        }
    };
}

pub(crate) use by_kind;

/// The shapes whose records hold their fields in line, in the order of the lane type's
/// fields (`CODE` `None`: points, which only queries use, never a record).
macro_rules! stored_in_line {
    ($($Soa:ident: $X8:ident = $code:expr;)+) => {$(
        impl Stored for $Soa {
            const CODE: Option<u32> = $code;
            const INERT: Self::Lanes<Wide> = [Wide::INERT; size_of::<$X8>() / size_of::<f32x8>()];
            #[inline(always)]
            fn gather_lanes(shared: &Shared<'_>, at: &[u32; KERNEL_LANES]) -> Self::Lanes<Wide> {
                gather_halves::<Self, { size_of::<$X8>() / size_of::<f32x8>() }>(shared, at)
            }
            #[inline(always)]
            fn gather(shared: &Shared<'_>, at: [u32; LANES]) -> $X8 {
                const C: usize = size_of::<$X8>() / size_of::<f32x8>();
                let columns = transposed(shared, at);
                let fields: &[f32x8; C] = columns[..C].try_into().expect("C <= 8 columns");
                *bytemuck::cast_ref(fields)
            }
        }
    )+};
}

stored_in_line! {
    Points: PointX8 = None;
    Circles: CircleX8 = Some(CIRCLE);
    Aabbs: AabbX8 = Some(AABB);
    Obbs: ObbX8 = Some(OBB);
    Capsules: CapsuleX8 = Some(CAPSULE);
}

impl Stored for Polygons {
    const CODE: Option<u32> = Some(POLYGON);
    const INERT: Self::Lanes<Wide> = [Wide::INERT; 2 * MAX_VERTICES];
    #[inline(always)]
    fn gather_lanes(shared: &Shared<'_>, at: &[u32; KERNEL_LANES]) -> Self::Lanes<Wide> {
        gather_halves::<Self, { 2 * MAX_VERTICES }>(shared, at)
    }
    /// The polygons the records point to, from their scene's slots; the inert sentinel record
    /// stays inert.
    #[inline(always)]
    fn gather(shared: &Shared<'_>, at: [u32; LANES]) -> PolygonX8 {
        // Each polygon's xs and ys are two 8-float rows: load them, transpose both.
        let inert = <f32x8 as Simd>::INERT;
        let (mut xs, mut ys) = ([inert; LANES], [inert; LANES]);
        for ((x, y), &i) in xs.iter_mut().zip(&mut ys).zip(&at) {
            // A neighbour's vertices by its slot, without reading its record: a list of a
            // polygon kind holds polygons on that side, and its blocks are whole candidates.
            if i >= shared.copies_at {
                let p = &shared.copies[(i - shared.copies_at) as usize].0;
                (*x, *y) = (f32x8::new(p.xs), f32x8::new(p.ys));
                continue;
            }
            let r = shared.record(i);
            if r.kind & KIND != POLYGON {
                continue;
            }
            let scene = shared.scenes[(r.id >> 31) as usize];
            let handle = r.fields[0].to_bits();
            let p = if r.kind & COPIED != 0 {
                &shared.copies[handle as usize].0
            } else if r.kind & GATHERED != 0 {
                &shared.gathered[handle as usize].0
            } else if r.kind & STATIC != 0 {
                scene.statics.polygon(handle)
            } else {
                scene.moving.polygon(handle)
            };
            (*x, *y) = (f32x8::new(p.xs), f32x8::new(p.ys));
        }
        PolygonX8 {
            x: f32x8::transpose(xs),
            y: f32x8::transpose(ys),
        }
    }
}

/// Items waiting to be tested, by key, [`BATCH`] at most per key. Both the pair search (items:
/// pairs of positions, keys: pair kinds) and the queries (items: positions, keys: shape kinds)
/// file their candidates here.
#[derive(Debug)]
pub(crate) struct Pack<T, const K: usize> {
    pending: [[T; BATCH]; K],
    filled: [usize; K],
}

impl<T: Copy + Default, const K: usize> Default for Pack<T, K> {
    fn default() -> Self {
        Self {
            pending: [[T::default(); BATCH]; K],
            filled: [0; K],
        }
    }
}

impl<T: Copy, const K: usize> Pack<T, K> {
    /// Files `item` under `key` when `keep` (without a branch: it is written either way and
    /// counted only when kept); whether `key`'s batch is full now, and must be taken before
    /// the next push under `key`.
    #[inline(always)]
    pub(crate) fn push(&mut self, key: usize, item: T, keep: bool) -> bool {
        let filled = self.filled[key];
        self.pending[key][filled] = item;
        self.filled[key] = filled + usize::from(keep);
        filled + 1 == BATCH
    }

    /// The items filed under `key`, which is empty afterwards.
    #[inline(always)]
    pub(crate) fn take(&mut self, key: usize) -> &[T] {
        let n = core::mem::take(&mut self.filled[key]);
        &self.pending[key][..n]
    }

    /// Empties every key.
    pub(crate) fn clear(&mut self) {
        self.filled = [0; K];
    }
}

/// Lane block `k` of `items` (at most [`BATCH`]): items `Nk .. Nk + N`, the last block padded
/// with `pad`.
#[inline(always)]
pub(crate) fn block_of<T: Copy, const N: usize>(items: &[T], k: usize, pad: T) -> [T; N] {
    let chunk = &items[k * N..items.len().min(k * N + N)];
    let mut at = [pad; N];
    at[..chunk.len()].copy_from_slice(chunk);
    at
}

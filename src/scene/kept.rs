//! Frame-to-frame coherence: what a kept [`PairFinder`](super::PairFinder) remembers between
//! calls of `overlapping_pairs`, and how a frame pays only for what moved.
//!
//! **Static shapes** are filed once per change of the scene's static shapes (its
//! `static_epoch`): a grid over their padded boxes and their records in its order; for each
//! moving shape, the static shapes whose boxes overlap its enlarged box (the mixed candidates,
//! kept and followed like the moving ones), found in its neighbourhood (the static shapes
//! near its far box, copied: see `statics.rs`) and only when it leaves that in the level's
//! grid. Two static shapes are never candidates, and a frame in which no static shape changed
//! reads the level's own arrays only for the shapes that left their far boxes.
//!
//! **Moving shapes** are kept by slot of the scene's moving store, and the kernels read their
//! records where the scene keeps them (nothing is copied per frame). Each has an enlarged box,
//! its padded box grown by a margin (and moved ahead the way it last left one: see
//! [`Margin::enlarge_ahead`]); the grid holds the enlarged boxes, and the candidates are
//! every pair of shapes whose enlarged boxes overlap, as pairs of slots. A frame first checks,
//! in one streaming pass, that every shape's current box lies inside its enlarged box. Those
//! that do not (they moved too far, changed size, appeared, or turned valid or invalid) are
//! the escapers: each gets a new enlarged box and moves to its new cell (or stays in its place
//! in the grid, its box written there, where the cell is the same); its candidates are
//! dropped and it is queried against the grid for its new ones, while every other candidate
//! stays as it is (a slot does not move when a shape does). The candidates are kept filed by
//! pair kind, each in its kernel's argument order and ascending by first slot, so that a
//! frame gathers and tests them without looking at their kinds again and reads the records
//! in one sweep. Only pairs whose filters pair are filed, and a shape whose kind or filter
//! changed is an escaper. Each kept candidate carries a flag
//! ([`HIT`]) set while its pair is in the answer: a frame's answer is the last one without
//! the pairs whose flag the kernels cleared or whose candidate an escaper dropped, and with
//! those whose flag they set, a merge of a few thousand changes rather than a sort of the
//! whole answer (the flags stay true because a slot that holds another id is an escaper).
//!
//! Exactness rests on the check alone: a pair whose shapes overlap has overlapping padded
//! boxes, hence overlapping enlarged boxes, hence is a candidate, however the shapes moved.
//! Too many escapers or the first call rebuild the moving part over enlarged boxes; removed
//! shapes are escapers whose new box is none.

use super::Filter;
use super::candidates::{CHUNK, Candidates, HIT, PAIR_KINDS};
use super::pack::Shared;
use super::records::{CLASS, Copied, FILTER_SHIFT, INVALID, KIND, Record, STATIC, UNBOUNDED};
use super::sort::{RadixSort, apply_events, cancel_common, events_between, pair_key};
use super::statics::Statics;
use super::store::Scene;
use crate::broadphase::counting_sort::Staged;
use crate::broadphase::grid::{Grid, MIN_BUFFER};
use crate::broadphase::union;
use core::ops::Range;
use rayon::prelude::*;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// The bits of a record's kind word that its candidates are filed by: its kind code and its
/// filter's index. A kept list holds only pairs whose filters pair, so a shape whose filter
/// changed is an escaper, and the kernels' walk need not look at filters.
const TAG: u32 = KIND | !CLASS;

/// The scene's filter table, where some shape's filter is not [`Filter::ALL`].
fn filters_of(scene: &Scene) -> Option<&[Filter]> {
    scene.filters.layered().then(|| scene.filters.all())
}

/// How far a shape's enlarged box reaches beyond its padded box.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Margin {
    /// A share of the box's larger side, on each side.
    Relative(f32),
    /// A fixed distance on each side.
    Fixed(f32),
}

/// The automatic margin: about three tenths of a box's larger side on each side. With the
/// enlarged boxes moved ahead (see [`AHEAD`]), the bench's moving 100 k frame took 7 % less on
/// average at 0.3 than at 0.25 (fewer escapers for a few more candidates), and more at 0.35
/// and 0.4; without moving them ahead, 0.25 was best (see `docs/benchmarks.md`).
pub(crate) const AUTO_MARGIN: Margin = Margin::Relative(0.3);

/// How far an escaper's new enlarged box moves ahead, as a share of its displacement since
/// its last one (see [`Margin::enlarge_ahead`]).
const AHEAD: f32 = 1.0;

/// Calls within which a shape that leaves its enlarged box through the back of it (it was moved
/// ahead) is taken to go to and fro, and gets one that is not moved ahead: at least two (a shape
/// reversing every call), few enough that a shape turning after a long run gets one moved
/// its new way at once (see [`Margin::enlarge_ahead`]).
const TURN_CALLS: u32 = 4;

/// The automatic rebuild threshold: a frame rebuilds when more than this share of the shapes
/// escaped their enlarged boxes.
pub(crate) const AUTO_REBUILD: f32 = 0.25;

/// How many times the margin a moving shape's far box reaches beyond its padded box: its
/// neighbourhood, the static shapes that overlap the far box, serves every enlarged box
/// that lies inside the far box (see `statics.rs`). Six: with the answer merged rather than
/// sorted, a 1 M-tile level's kept frame took 13 % less on average than with four (fewer
/// shapes leave their far boxes and query the level); five and seven gained less.
const FAR: f32 = 6.0;

/// The share of the moving shapes that must have jumped (left their enlarged box for a box
/// that does not overlap it) for a call to search from scratch rather than follow them: at a
/// tenth jumping every frame, following them cost 1.5x a search from scratch (their new
/// candidates, and a scene they make denser); at two percent, 1.24x (see `docs/benchmarks.md`).
const JUMPED: f32 = 0.05;

/// Enlarged boxes outside the grid's cells (clamped into its border cells) that a frame
/// tolerates before it rebuilds, beyond those that were when the grid was built: at least this
/// many, at least a sixteenth of the shapes.
const OUTSIDE_MIN: usize = 64;

/// Shapes the escape check looks at between two looks at the escapers found so far.
const STOP_CHECK: usize = 4096;

/// Fewest items per rayon task in the coherent passes.
const MIN_TASK: usize = 16 * 1024;

/// Entries of a neighbourhood tested at a time for a moving shape's static candidates.
const HOOD_PART: usize = 32;

/// First positions per window of the walk over the candidate lists.
const WINDOW: u32 = 16 * 1024;

impl Margin {
    /// `b`, the box of shape `id`, grown by the margin; a NaN box (not entered) stays NaN.
    ///
    /// A relative margin varies by shape, from 3/4 to 5/4 of its value (a fixed hash of the
    /// id): shapes enlarged in the same frame and moving alike would otherwise all leave their
    /// boxes in the same later frame, and make it rebuild.
    #[inline(always)]
    fn enlarge(self, b: &[f32; 4], id: u32) -> [f32; 4] {
        let m = match self {
            Margin::Relative(r) => {
                let spread = (id.wrapping_mul(0x9e37_79b9) >> 8) as f32 * (0.5 / (1 << 24) as f32);
                (b[2] - b[0]).max(b[3] - b[1]) * (r * (0.75 + spread))
            }
            Margin::Fixed(m) => m,
        };
        [b[0] - m, b[1] - m, b[2] + m, b[3] + m]
    }

    /// `b`, the box of shape `id`, grown by the margin and moved ahead: the way the shape left
    /// its last enlarged box `old` (which was moved by `was`), from that box's centre, by at
    /// most the margin on each axis: a shape that keeps its course crosses the whole box
    /// before it leaves it, not half. On an axis where the shape turned back `recent`ly (it
    /// left through the back of a box moved ahead within [`TURN_CALLS`] calls), the box is not
    /// moved: a shape going to and fro would otherwise leave every box through its near back.
    /// A shape that jumped (its box no
    /// longer overlaps `old`), or has no `old` box (NaN), is not moved either. The box always
    /// holds `b`; returns it and how far it moved.
    #[inline(always)]
    fn enlarge_ahead(
        self,
        b: &[f32; 4],
        id: u32,
        old: &[f32; 4],
        (was, recent): ([f32; 2], bool),
    ) -> ([f32; 4], [f32; 2]) {
        let fat = self.enlarge(b, id);
        if !overlap(b, old) {
            return (fat, [0.0; 2]);
        }
        let reach = [fat[2] - b[2], fat[3] - b[3]];
        // Where the box left its last enlarged box, from that box's centre: ahead of it when
        // the shape kept its course, behind it when it turned back.
        let moved = [
            0.5 * ((b[0] + b[2]) - (old[0] + old[2])),
            0.5 * ((b[1] + b[3]) - (old[1] + old[3])),
        ];
        // Overflows move nothing, and rounding never uncovers `b`.
        let shift = [0, 1].map(|k| {
            let (d, r) = (moved[k], reach[k] * AHEAD);
            let turned = recent && d * was[k] < 0.0;
            let ahead = d.is_finite() && r.is_finite() && r >= 0.0 && !turned;
            if ahead { d.clamp(-r, r) } else { 0.0 }
        });
        let ahead = [
            fat[0] + shift[0],
            fat[1] + shift[1],
            fat[2] + shift[0],
            fat[3] + shift[1],
        ];
        (union(ahead, *b), shift)
    }

    /// The margin of the far boxes: [`FAR`] times this one.
    fn far(self) -> Self {
        match self {
            Margin::Relative(r) => Margin::Relative(r * FAR),
            Margin::Fixed(m) => Margin::Fixed(m * FAR),
        }
    }
}
/// Whether `b` lies inside `fat`, both boxes entered or both left out (NaN `min_x`).
#[inline(always)]
fn inside(b: &[f32; 4], fat: &[f32; 4]) -> bool {
    // Without branches: the streaming escape check takes the other way a few times in a
    // hundred. A comparison with NaN is false, so `within` is false where either is NaN.
    let (left, gone) = (fat[0].is_nan(), b[0].is_nan());
    let within = (fat[0] <= b[0]) & (fat[1] <= b[1]) & (b[2] <= fat[2]) & (b[3] <= fat[3]);
    (left & gone) | within
}

/// Whether a shape jumped: its box `b` does not overlap the enlarged box `fat` it had (both
/// entered).
#[inline(always)]
fn jumped_from(b: &[f32; 4], fat: &[f32; 4]) -> bool {
    !fat[0].is_nan() && !b[0].is_nan() && !overlap(b, fat)
}

/// Moving slots from which the jumps between searches from scratch are counted on a sample:
/// below this, every slot.
const SAMPLE_FROM: usize = 4096;

/// Slots per run of the sample, and of every run of [`SAMPLE_STRIDE`] slots the sample takes
/// the first: an eighth of the slots, in runs a few cache lines long, so that counting the
/// jumps reads an eighth of the boxes.
const SAMPLE_RUN: usize = 64;
const SAMPLE_STRIDE: usize = 8 * SAMPLE_RUN;

/// The runs of the `n` moving slots whose jumps are counted between searches from scratch:
/// all of them below [`SAMPLE_FROM`], else the first [`SAMPLE_RUN`] of every
/// [`SAMPLE_STRIDE`]. Whether a frame searches from scratch is a matter of speed only (both
/// ways give the same answer), and a share of jumpers is estimated as well from an eighth
/// of the shapes, at an eighth of the memory traffic (a pass over every box was most of what
/// a jumping frame cost beyond its search).
fn sampled(n: usize) -> impl Iterator<Item = core::ops::Range<usize>> {
    let (run, stride) = if n < SAMPLE_FROM {
        (n, n.max(1))
    } else {
        (SAMPLE_RUN, SAMPLE_STRIDE)
    };
    (0..n).step_by(stride).map(move |s| s..(s + run).min(n))
}

/// Whether `jumpers` of `n` moving shapes are more than [`JUMPED`] of them.
fn too_many_jumped(jumpers: usize, n: usize) -> bool {
    jumpers as f32 > JUMPED * n as f32
}

/// Whether two closed boxes overlap.
#[inline(always)]
fn overlap(a: &[f32; 4], b: &[f32; 4]) -> bool {
    (a[0] <= b[2]) & (b[0] <= a[2]) & (a[1] <= b[3]) & (b[1] <= a[3])
}

/// Where an escaper goes: its new enlarged box (NaN where it has no box: removed, or left
/// out of the grid) and how far it moved ahead, that box's cell (`None` where NaN), and how it changes the count of
/// enlarged boxes outside their level's cells.
struct Relocated {
    fat: [f32; 4],
    shift: [f32; 2],
    /// The cell of the old enlarged box (`u32::MAX`: none).
    was_in: u32,
    key: Option<u32>,
    outside: isize,
}

/// [`Relocated`] of the escaper at `slot`, whose enlarged box was `old` and whose padded box
/// is `b` (`None`: removed). `None` when the new box fits no level of `grid`: the caller
/// rebuilds.
#[inline(always)]
fn relocate(
    grid: &Grid,
    margin: Margin,
    slot: usize,
    (old, (was, then), now): (&[f32; 4], ([f32; 2], u32), u32),
    b: Option<&[f32; 4]>,
) -> Option<Relocated> {
    // A turn within a few calls of the last enlargement is a shape going to and fro.
    let recent = now.wrapping_sub(then) < TURN_CALLS;
    let clamped = |b: &[f32; 4]| grid.key_for(b).map(|key| (key, grid.clamped(key, b)));
    let (was_in, before) = if old[0].is_nan() {
        (u32::MAX, 0)
    } else {
        clamped(old).map_or((u32::MAX, 0), |(key, out)| (key, isize::from(out)))
    };
    let (fat, shift) = b.map_or(([f32::NAN; 4], [0.0; 2]), |b| {
        margin.enlarge_ahead(b, slot as u32, old, (was, recent))
    });
    if fat[0].is_nan() {
        return Some(Relocated {
            fat,
            shift,
            was_in,
            key: None,
            outside: -before,
        });
    }
    let (key, out) = clamped(&fat)?;
    Some(Relocated {
        fat,
        shift,
        was_in,
        key: Some(key),
        outside: isize::from(out) - before,
    })
}

/// What one call did, for [`FrameStats`](super::FrameStats).
#[derive(Debug, Default)]
pub(crate) struct KeptStats {
    pub(crate) rebuilt: bool,
    pub(crate) escaped: usize,
    pub(crate) candidates: usize,
    pub(crate) filtered: usize,
    pub(crate) build: Duration,
    pub(crate) search: Duration,
    pub(crate) sort: Duration,
    pub(crate) events: Duration,
    pub(crate) merged: bool,
    pub(crate) pack: Duration,
    pub(crate) kernels: Duration,
}

/// The coherent state of a kept finder and its scratch.
#[derive(Debug)]
pub(crate) struct Kept {
    /// Whether the state describes the moving slots `0 .. len` of the last scene; and whether
    /// only their enlarged boxes do, after a search from scratch (see
    /// [`note_boxes`](Self::note_boxes)).
    valid: bool,
    boxes_only: bool,
    /// How many calls in a row, up to the last, rebuilt because too many shapes escaped.
    crowded: u8,
    len: usize,
    /// The static shapes as filed, and their neighbours.
    statics: Statics,
    /// The mixed candidates: pairs of a moving slot `p` and the position
    /// `moving + c` of neighbour `c` (a static shape whose box overlaps the moving one's
    /// enlarged box) in the records the kernels read, by pair kind.
    mixed: Lists,
    pub(crate) margin: Margin,
    pub(crate) rebuild_above: f32,
    /// Per id: its enlarged box (NaN `min_x`: not entered).
    fat: Vec<[f32; 4]>,
    /// Per id: how far its enlarged box was moved ahead of its padded box, and the call that
    /// enlarged it (see [`Margin::enlarge_ahead`]); the number of this call.
    shifts: Vec<([f32; 2], u32)>,
    call: u32,
    grid: Grid,
    /// Per grid position: the slot; and the second buffer of a repair.
    ids: Vec<u32>,
    spare_ids: Vec<u32>,
    staged: Vec<Staged<u32>>,
    /// The static neighbours' records by neighbour slot, which the kernels read after the
    /// moving shapes' (those the scene keeps by slot).
    neighbours: Vec<Record>,
    /// The candidates: pairs of slots whose enlarged boxes overlap, by pair kind.
    candidates: Lists,
    /// Per slot: whether it escaped in this call ([`STAYED`] between calls), and whether it
    /// still holds the shape it held in the last call ([`MOVED`]) or not ([`TAKEN`]).
    escaped: Vec<u8>,
    /// Per slot: the kind code and filter index its candidates were filed by ([`TAG`] of its
    /// kind word), and the id it held in the last call (a shape whose kind or filter changed,
    /// or a slot that holds another shape, is an escaper). An escaper's id is updated at the
    /// end of the call, so that the candidates it drops are named by the ids they had.
    tags: Vec<u32>,
    slot_ids: Vec<u32>,
    /// Whether this call's lists follow the escapers' moves (the number of moving slots of
    /// the last call), and whether the mixed lists do too (see [`Follow`]).
    follow: Option<u32>,
    follow_mixed: bool,
    /// Candidates this call left unfiled because their filters do not pair.
    filtered: usize,
    /// Whether the last answer is exactly the pairs of the candidates flagged [`HIT`]: then a
    /// call can find its answer from the last one and the flags that change (see
    /// [`overlapping_pairs`](Self::overlapping_pairs)) rather than by sorting it.
    flagged: bool,
    /// The pairs that began and ended in this call, while they are gathered.
    began: Vec<(u32, u32)>,
    ended: Vec<(u32, u32)>,
    /// The escapers of this call, ascending; `(key, k)` of each that enters the grid (`k` its
    /// number in `entering`, which holds its slot and new enlarged box), sorted by key for
    /// the repair. The escape check also counts the
    /// escapers that jumped, and notes one whose new box fits no level.
    escapers: Vec<u32>,
    enter: Vec<(u32, u32)>,
    entering: Vec<(u32, [f32; 4])>,
    /// Per entry of `entering`: the cell it was in (`u32::MAX`: none); the entries that
    /// change cells, `(key, k)` as in `enter`, and the slots that leave their cells (flagged
    /// for the repair, all false between calls).
    was_in: Vec<u32>,
    moves: Vec<(u32, u32)>,
    leaving: Vec<bool>,
    jumps: usize,
    unkeyed: bool,
    /// Per slot, a rebuild's counts of candidates by first slot.
    counts: Vec<u32>,
    /// Scratch of the unbounded shapes' pairs, and of the static grid's positions.
    fresh: Vec<(u32, u32)>,
    fresh_records: Vec<Record>,
    /// Enlarged boxes whose corner lies outside their level's cells, and how many did when
    /// the grid was built (the outliers its layout clamped on purpose, see
    /// [`Levels::plan`](crate::broadphase::levels::Levels::plan)).
    outside: usize,
    outside_built: usize,
    tasks: Vec<Task>,
    /// Where the tasks of a walk over the candidate lists split each list.
    splits: Vec<[(usize, usize); 2 * PAIR_KINDS]>,
    sort: RadixSort,
}

impl Default for Kept {
    fn default() -> Self {
        Self {
            valid: false,
            boxes_only: false,
            crowded: 0,
            len: 0,
            statics: Statics::default(),
            mixed: Lists::default(),
            margin: AUTO_MARGIN,
            rebuild_above: AUTO_REBUILD,
            fat: Vec::new(),
            shifts: Vec::new(),
            call: 0,
            grid: Grid::default(),
            ids: Vec::new(),
            spare_ids: Vec::new(),
            staged: Vec::new(),
            neighbours: Vec::new(),
            splits: Vec::new(),
            candidates: Lists::default(),
            escaped: Vec::new(),
            tags: Vec::new(),
            slot_ids: Vec::new(),
            follow: None,
            follow_mixed: false,
            filtered: 0,
            flagged: false,
            began: Vec::new(),
            ended: Vec::new(),
            escapers: Vec::new(),
            enter: Vec::new(),
            entering: Vec::new(),
            was_in: Vec::new(),
            moves: Vec::new(),
            leaving: Vec::new(),
            jumps: 0,
            unkeyed: false,
            counts: Vec::new(),
            fresh: Vec::new(),
            fresh_records: Vec::new(),
            outside: 0,
            outside_built: 0,
            tasks: Vec::new(),
            sort: RadixSort::default(),
        }
    }
}

/// One rayon task's share of a pass and its scratch.
#[derive(Debug, Default)]
struct Task {
    range: Range<usize>,
    /// How long the task took to decide its candidates.
    time: Duration,
    /// Pairs or ids the task found (and mixed pairs), and the search's candidate buffer.
    found: Vec<(u32, u32)>,
    /// The pairs of the last answer whose candidates the task dropped.
    ended: Vec<(u32, u32)>,
    mixed: Vec<(u32, u32)>,
    /// The shapes whose neighbourhood the task found wanting, `(slot, number of static shapes
    /// found for it)`, those static shapes' positions in the level's grid in `ids`.
    requery: Vec<(u32, u32)>,
    /// Candidates the task left unfiled because their filters do not pair.
    filtered: usize,
    /// Pairs the task filed, by pair kind; and the lists it decided, as they follow the
    /// escapers' moves (the moving lists', then the mixed ones').
    filed: [Vec<(u32, u32)>; PAIR_KINDS],
    outs: [Vec<(u32, u32)>; 2 * PAIR_KINDS],
    /// The escapers the task found that enter the grid, `(id, new enlarged box)` (their
    /// `(key, number)` in `found`), how they change the count of boxes outside their
    /// level's cells, how many jumped, and whether one fits no level.
    entering: Vec<(u32, [f32; 4])>,
    was_in: Vec<u32>,
    outside: isize,
    jumps: usize,
    unkeyed: bool,
    ids: Vec<u32>,
    buf: Vec<(u32, u32)>,
    narrow: Candidates,
}

/// Candidate pairs by pair kind ([`Candidates::kind_of`]): pairs of positions in the records
/// the kernels read, each in its kernel's argument order, so that a frame gathers and tests
/// them without filing them again. A list keeps about the order of its first position.
#[derive(Debug, Default)]
struct Lists {
    kinds: [Vec<(u32, u32)>; PAIR_KINDS],
    /// The escapers' new candidates of this call, all kinds (sorted once, then split by kind
    /// before they are merged in), and by kind.
    new: Vec<(u32, u32)>,
    added: [Vec<(u32, u32)>; PAIR_KINDS],
}

impl Lists {
    fn len(&self) -> usize {
        self.kinds.iter().map(Vec::len).sum()
    }

    fn clear(&mut self) {
        self.kinds.iter_mut().for_each(Vec::clear);
    }

    /// The pairs each task filed, appended to the lists in task order.
    fn take_filed(&mut self, tasks: &[Task]) {
        for (k, list) in self.kinds.iter_mut().enumerate() {
            for t in tasks {
                list.extend_from_slice(&t.filed[k]);
            }
        }
    }

    /// The new candidates (`new`, whose kind codes `kind_at` gives by position) sorted into
    /// `added` by pair kind, each kind's ascending, for the lists to merge in.
    fn prepare(&mut self, sort: &mut RadixSort, kind_at: impl Fn(u32) -> u32) {
        // One sort of all the new pairs; split by kind, each kind's stay sorted.
        sort.sort(&mut self.new);
        self.added.iter_mut().for_each(Vec::clear);
        for &(x, y) in &self.new {
            let (kind, pair) = Candidates::kind_of(kind_at(x), kind_at(y), x, y);
            self.added[kind].push(pair);
        }
    }
}

/// The mixed candidates of `n` moving shapes, shape `i` at slot `at(i)` (its position in
/// the records the kernels read) with its enlarged box in `fat` and its record in `sorted` (the moving records):
/// every static shape whose box overlaps the enlarged box, given to `put` as its pair kind
/// and pair of positions `(p, moving + c)` (`c` its neighbour slot) in that kind's argument
/// order. A shape's static shapes come from its neighbourhood where its far box still
/// holds the enlarged box, else from the static grid over a new far box (the padded box
/// grown by `far_margin`), which becomes its neighbourhood. Shapes come out in the order
/// given within each task when positions ascend with `i`.
fn find_mixed(
    statics: &mut Statics,
    tasks: &mut Vec<Task>,
    scene: &Scene,
    (fat, sorted, far_margin): (&[[f32; 4]], &[Record], Margin),
    n: usize,
    at: impl Fn(usize) -> u32 + Sync,
    mut put: impl FnMut(usize, (u32, u32)),
) -> usize {
    // The padded box `b` of slot `e` grown by `far_margin`, and grown further to hold the
    // enlarged box `fat` (which an escaper's move ahead may put beyond it).
    let far_box = |b: &[f32; 4], e: u32, fat: &[f32; 4]| union(far_margin.enlarge(b, e), *fat);
    statics.tidy(scene.moving.len());
    let tasks = plan(tasks, n, MIN_TASK / 4);
    if statics.grid.len() == 0 {
        return 0;
    }
    let boxes = &scene.moving.boxes;
    let kept: &Statics = statics;
    each_task(tasks, |_, t| {
        t.mixed.clear();
        t.requery.clear();
        t.ids.clear();
        for i in t.range.clone() {
            let e = at(i);
            let fat = &fat[e as usize];
            if fat[0].is_nan() {
                continue;
            }
            if inside(fat, &kept.far(e as usize)) {
                // Without a branch per entry (about half overlap): each is written, and
                // counted where it does.
                for part in kept.hood(e as usize).chunks(HOOD_PART) {
                    let (mut near, mut n) = ([(e, 0); HOOD_PART], 0);
                    for &(c, b) in part {
                        near[n].1 = c;
                        n += usize::from(overlap(&b, fat));
                    }
                    t.mixed.extend_from_slice(&near[..n]);
                }
            } else {
                let (far, before) = (far_box(&boxes[e as usize], e, fat), t.ids.len());
                kept.grid.overlapping(far, &mut |s| t.ids.push(s));
                t.requery.push((e, (t.ids.len() - before) as u32));
            }
        }
    });
    let moving = sorted.len() as u32;
    let (filters, mut filtered) = (filters_of(scene), 0);
    let mut file = |statics: &Statics, (p, c): (u32, u32)| {
        let kinds = (sorted[p as usize].kind, statics.labels[c as usize].1);
        if let Some(table) = filters {
            let filter = |k: u32| table[(k >> FILTER_SHIFT) as usize];
            if !filter(kinds.0).pairs_with(filter(kinds.1)) {
                filtered += 1;
                return;
            }
        }
        let (kind, pair) = Candidates::kind_of(kinds.0, kinds.1, p, moving + c);
        put(kind, pair);
    };
    for t in tasks.iter() {
        let (mut ready, mut from) = (&t.mixed[..], 0);
        for &(e, count) in &t.requery {
            while let Some((&first, rest)) = ready.split_first()
                && first.0 < e
            {
                file(statics, first);
                ready = rest;
            }
            let (slot, found) = (e as usize, &t.ids[from..from + count as usize]);
            from += count as usize;
            let far = far_box(&boxes[slot], e, &fat[slot]);
            let span = statics.refill(scene, slot, far, found);
            for k in span {
                let (c, b) = statics.entry(k);
                if overlap(&b, &fat[slot]) {
                    file(statics, (e, c));
                }
            }
        }
        for &pair in ready {
            file(statics, pair);
        }
    }
    filtered
}

/// Files the pair of slots `(p, q)` under its pair kind in `lists`, by the slots' [`tags`]
/// (a word per slot: a search's hits come in no order of slots, and a record per hit read
/// from the scene's store cost a tenth of a frame's escaper queries), unless their filters
/// (in `filters`, the scene's table; `None`: every filter is [`Filter::ALL`]) do not pair;
/// whether it filed it.
///
/// [`tags`]: Kept::tags
/// [`Filter::ALL`]: super::Filter::ALL
#[inline(always)]
fn file(
    lists: &mut [Vec<(u32, u32)>; PAIR_KINDS],
    (tags, filters): (&[u32], Option<&[Filter]>),
    p: u32,
    q: u32,
) -> bool {
    let (tp, tq) = (tags[p as usize], tags[q as usize]);
    if let Some(table) = filters
        && !table[(tp >> FILTER_SHIFT) as usize].pairs_with(table[(tq >> FILTER_SHIFT) as usize])
    {
        return false;
    }
    let (kind, pair) = Candidates::kind_of(tp, tq, p, q);
    lists[kind].push(pair);
    true
}

impl Kept {
    /// The grid over the enlarged boxes.
    pub(crate) fn grid(&self) -> &Grid {
        &self.grid
    }

    /// The places of static shapes' copies, in use or freed for the next.
    pub(crate) fn static_copies(&self) -> usize {
        self.statics.records.len()
    }

    /// Forgets the state: the next call rebuilds.
    pub(crate) fn invalidate(&mut self) {
        (self.valid, self.flagged, self.boxes_only, self.crowded) = (false, false, false, 0);
        self.statics.filed = None;
    }

    /// Every overlapping pair of `scene` into `out` (cleared first), sorted, and the pairs
    /// of that answer not in `previous` (the last call's) into `began`, those of `previous`
    /// not in it into `ended`.
    ///
    /// A frame that kept its candidates finds the answer from the last one: the flags of the
    /// candidates that changed, and the pairs of the flagged candidates that escapers dropped,
    /// give the pairs that began and ended, and a merge of those into `previous` gives the
    /// answer, without sorting it. Other frames (a rebuild, a change of the static shapes,
    /// unbounded shapes now or in the last call) sort the answer and compare it with
    /// `previous`.
    ///
    /// Returns `false`, keeping only the enlarged boxes of a sample of the moving shapes (see
    /// [`sampled`]), when more than [`JUMPED`] of them jumped since the last call (counted on
    /// that sample after a search from scratch), the static shapes are no more than the
    /// moving ones, and the rebuild threshold is below 1: the caller then searches from
    /// scratch. The next call that does not rebuilds.
    pub(crate) fn overlapping_pairs(
        &mut self,
        scene: &Scene,
        previous: &[(u32, u32)],
        out: &mut Vec<(u32, u32)>,
        [began, ended]: [&mut Vec<(u32, u32)>; 2],
        stats: &mut KeptStats,
    ) -> bool {
        self.began.clear();
        self.ended.clear();
        self.call = self.call.wrapping_add(1);
        self.filtered = 0;
        let mut events = false;
        let n = scene.moving.len();
        let start = Instant::now();
        let refile = self.statics.filed != Some(scene.static_epoch);
        // Too many shapes jumped, since the last kept call or the last search from scratch:
        // the caller searches from scratch (with a level of many static shapes, following the
        // jumps stays cheaper than filing the level again).
        let may_jump = !refile && scene.static_len() <= n && self.rebuild_above < 1.0;
        // A sample that escaped more than the rebuild threshold would make this call rebuild,
        // which costs more than a search from scratch.
        let above = self.rebuild_above;
        let rush = |(jumps, escaped, of): (usize, usize, usize)| {
            too_many_jumped(jumps, of) || escaped as f32 > above * of as f32
        };
        if self.boxes_only && may_jump && rush(self.enlarge_sample(scene, true)) {
            self.noted(n);
            return false;
        }
        // After two calls in a row that too many escapers made rebuild (the escape check
        // stops early and counts no jumps), the sample says whether they jumped or would
        // make this call rebuild again: frames in which every shape teleports, or moves its
        // own size, would otherwise rebuild every call, at about twice a search from scratch.
        // (After one, a single fast frame or a finder switching scenes would search from
        // scratch and then rebuild anyway.)
        let crowded = core::mem::take(&mut self.crowded);
        if self.valid && crowded >= 2 && may_jump && rush(self.enlarge_sample(scene, false)) {
            self.note_boxes(scene);
            return false;
        }
        self.boxes_only = false;
        let checked = self.valid;
        let incremental = checked && self.find_escapers(scene);
        // The escape check counted the escapers that jumped.
        if incremental && may_jump && too_many_jumped(self.jumps, n) {
            self.note_boxes(scene);
            return false;
        }
        if refile {
            self.statics.file(scene);
        }
        if incremental {
            stats.escaped = self.escapers.len();
            let before = self.len as u32;
            self.follow = None;
            if !self.move_escapers(scene) {
                self.rebuild(scene, stats);
            } else {
                stats.build = start.elapsed();
                let search = Instant::now();
                if !self.escapers.is_empty() {
                    self.follow_moves(scene, !refile, before);
                }
                if refile {
                    self.all_mixed(scene);
                }
                stats.search = search.elapsed();
                events = self.flagged && !refile;
            }
        } else {
            stats.escaped = n;
            self.follow = None;
            self.rebuild(scene, stats);
            self.crowded = if checked {
                crowded.saturating_add(1)
            } else {
                0
            };
        }
        // The neighbours' records that changed since the last call (all after a refile).
        self.statics.copy_into(&mut self.neighbours, 0, true);
        out.clear();
        let events = events && scene.unbounded() == 0;
        // The kernels, the lists following the escapers' moves on the way (their slots'
        // flags and last ids still as the escape check left them).
        self.decide_lists(scene, out, stats, events);
        self.follow = None;
        // A rebuild may have cut the flags of removed slots already. Each escaper's id is
        // now the one its slot holds in this call.
        for &e in &self.escapers {
            if let Some(flag) = self.escaped.get_mut(e as usize) {
                *flag = STAYED;
            }
            if let (Some(id), Some(r)) = (
                self.slot_ids.get_mut(e as usize),
                scene.moving.records.get(e as usize),
            ) {
                *id = r.id;
            }
        }
        self.escapers.clear();
        self.fat.truncate(n);
        self.shifts.truncate(n);
        self.escaped.truncate(n);
        self.tags.truncate(n);
        self.slot_ids.truncate(n);
        self.len = n;
        self.valid = true;
        if scene.unbounded() > 0 {
            self.add_unbounded(scene, out, stats);
        }
        self.flagged = scene.unbounded() == 0;
        stats.merged = events;
        stats.filtered += self.filtered;
        if events {
            let start = Instant::now();
            self.sort.sort(&mut self.began);
            self.sort.sort(&mut self.ended);
            // A pair an escaper dropped and found again that still overlaps goes on.
            cancel_common(&mut self.began, &mut self.ended);
            let merge = Instant::now();
            apply_events(previous, &self.began, &self.ended, out);
            stats.sort = merge.elapsed();
            // The caller's lists take these buffers (and this the caller's, cleared next call).
            core::mem::swap(began, &mut self.began);
            core::mem::swap(ended, &mut self.ended);
            stats.events = merge - start;
        } else {
            let sort = Instant::now();
            self.sort.sort(out);
            let compare = Instant::now();
            events_between(previous, out, began, ended);
            stats.sort = compare - sort;
            stats.events = compare.elapsed();
        }
        true
    }

    /// Every moving slot's enlarged box anew, into `fat`, centred on its box (not moved
    /// ahead: its shift reset), for a rebuild.
    fn enlarge_all(&mut self, scene: &Scene) {
        let (margin, boxes) = (self.margin, &scene.moving.boxes);
        self.fat.resize(boxes.len(), [f32::NAN; 4]);
        self.shifts.clear();
        self.shifts.resize(boxes.len(), ([0.0; 2], self.call));
        self.fat
            .par_chunks_mut(MIN_TASK)
            .zip(boxes.par_chunks(MIN_TASK))
            .enumerate()
            .for_each(|(c, (fat, boxes))| {
                let first = c * MIN_TASK;
                for (k, (f, b)) in fat.iter_mut().zip(boxes).enumerate() {
                    *f = margin.enlarge(b, (first + k) as u32);
                }
            });
    }

    /// The sampled moving shapes (see [`sampled`]) that jumped from the enlarged boxes `fat`
    /// holds for them, those that left them, and the size of the sample; with `enlarge`,
    /// their enlarged boxes anew, centred on their boxes, in the same pass. Between searches
    /// from scratch the finder keeps only these boxes, to count the next call's jumps: the
    /// other slots' are never read before a rebuild enlarges every box anew.
    fn enlarge_sample(&mut self, scene: &Scene, enlarge: bool) -> (usize, usize, usize) {
        let (margin, boxes) = (self.margin, &scene.moving.boxes);
        let old = self.len.min(self.fat.len());
        self.fat.resize(boxes.len(), [f32::NAN; 4]);
        let (mut jumps, mut escaped, mut of) = (0, 0, 0);
        for run in sampled(boxes.len()) {
            for (k, (f, b)) in self.fat[run.clone()]
                .iter_mut()
                .zip(&boxes[run.clone()])
                .enumerate()
            {
                let slot = run.start + k;
                jumps += usize::from(slot < old && jumped_from(b, f));
                escaped += usize::from(slot < old && !f[0].is_nan() && !inside(b, f));
                if enlarge {
                    *f = margin.enlarge(b, slot as u32);
                }
            }
            of += run.len();
        }
        (jumps, escaped, of)
    }

    /// After a search from scratch: the sampled moving slots' enlarged boxes, for the next
    /// call to count the shapes that jumped; the rest of the state is given up (the next call
    /// that does not search from scratch rebuilds).
    fn note_boxes(&mut self, scene: &Scene) {
        self.enlarge_sample(scene, true);
        self.noted(scene.moving.len());
    }

    /// The state given up but the `n` moving slots' enlarged boxes, just computed.
    fn noted(&mut self, n: usize) {
        self.len = n;
        (self.valid, self.flagged, self.boxes_only) = (false, false, true);
        self.escapers.clear();
    }

    /// The pairs of the unbounded shapes (infinite or overflow-prone bounds, never in a
    /// grid), appended to `out`: their records after the static and the moving ones in the
    /// grids, each tested against every shape before it (a static one only against the
    /// moving ones and the unbounded).
    fn add_unbounded(&mut self, scene: &Scene, out: &mut Vec<(u32, u32)>, stats: &mut KeptStats) {
        let statics = self.statics.sorted.len();
        let mut records = core::mem::take(&mut self.fresh_records);
        records.clear();
        records.extend_from_slice(&self.statics.sorted);
        // The moving shapes in the grid (the unbounded ones come next, and the invalid ones
        // pair with nothing).
        records.extend(
            scene
                .moving
                .records
                .iter()
                .filter(|r| r.kind & (UNBOUNDED | INVALID) == 0),
        );
        let entered = records.len() as u32;
        for store in [&scene.statics, &scene.moving] {
            if store.unbounded > 0 {
                let unbounded = store.records.iter().filter(|r| r.kind & UNBOUNDED != 0);
                records.extend(unbounded);
            }
        }
        let mut pairs = core::mem::take(&mut self.fresh);
        pairs.clear();
        for u in entered..records.len() as u32 {
            let first = if records[u as usize].kind & STATIC != 0 {
                statics as u32
            } else {
                0
            };
            pairs.extend((first..u).map(|p| (p, u)));
        }
        self.decide(scene, &records, &[], false, &pairs, |_, c| c, out, stats);
        self.fresh = pairs;
        self.fresh_records = records;
    }

    /// The escape check: every moving slot whose current box is not inside its enlarged box
    /// (new slots included, and slots beyond the store's end, whose shapes were removed) is
    /// flagged and listed, ascending. `false` when there are too many: the caller rebuilds.
    ///
    /// In the same streaming pass, each escaper among the slots both calls hold gets its new
    /// enlarged box, kind and id, and its new cell (see [`move_escapers`](Self::move_escapers)),
    /// while its data is in cache (one pass over the escapers afterwards read it again from
    /// memory, a few cache lines per escaper). A call that then rebuilds or searches from
    /// scratch computes all of these anew.
    fn find_escapers(&mut self, scene: &Scene) -> bool {
        let (n, old) = (scene.moving.len(), self.len);
        let (both, top) = (n.min(old), n.max(old));
        self.escaped.resize(top, STAYED);
        self.fat.resize(top, [f32::NAN; 4]);
        self.shifts.resize(top, ([0.0; 2], 0));
        self.tags.resize(top, u32::MAX);
        self.slot_ids.resize(top, u32::MAX);
        // The most escapers a frame keeps the grid for; the pass stops once they are more.
        let limit = (self.rebuild_above * n as f32) as usize;
        let Some(room) = limit.checked_sub(top - both) else {
            return false;
        };
        let tasks = plan(&mut self.tasks, both, MIN_TASK);
        // Equal ranges, as the slices below are split.
        let chunk = both.div_ceil(tasks.len()).max(1);
        for (k, t) in tasks.iter_mut().enumerate() {
            t.range = (k * chunk).min(both)..((k + 1) * chunk).min(both);
        }
        let (grid, margin, call) = (&self.grid, self.margin, self.call);
        let (boxes, records) = (&scene.moving.boxes[..both], &scene.moving.records[..both]);
        let found = AtomicUsize::new(0);
        tasks
            .par_iter_mut()
            .zip(self.fat[..both].par_chunks_mut(chunk))
            .zip(self.shifts[..both].par_chunks_mut(chunk))
            .zip(self.tags[..both].par_chunks_mut(chunk))
            .zip(self.slot_ids[..both].par_chunks(chunk))
            .for_each(|((((t, fat), shifts), tags), slot_ids)| {
                t.ids.clear();
                t.found.clear();
                t.entering.clear();
                t.was_in.clear();
                (t.outside, t.jumps, t.unkeyed) = (0, 0, false);
                let first = t.range.start;
                for block in (0..t.range.len()).step_by(STOP_CHECK) {
                    let before = t.ids.len();
                    for i in block..(block + STOP_CHECK).min(t.range.len()) {
                        let slot = first + i;
                        let (b, r) = (&boxes[slot], &records[slot]);
                        let tag = r.kind & TAG;
                        if inside(b, &fat[i]) & (tag == tags[i]) & (r.id == slot_ids[i]) {
                            continue;
                        }
                        t.ids.push(slot as u32);
                        t.jumps += usize::from(jumped_from(b, &fat[i]));
                        tags[i] = tag;
                        let old = (&fat[i], shifts[i], call);
                        let Some(to) = relocate(grid, margin, slot, old, Some(b)) else {
                            t.unkeyed = true;
                            continue;
                        };
                        (fat[i], shifts[i]) = (to.fat, (to.shift, call));
                        t.outside += to.outside;
                        if let Some(key) = to.key {
                            t.found.push((key, t.entering.len() as u32));
                            t.entering.push((slot as u32, to.fat));
                            t.was_in.push(to.was_in);
                        }
                    }
                    let more = t.ids.len() - before;
                    if found.fetch_add(more, Relaxed) + more > room {
                        return;
                    }
                }
            });
        if found.into_inner() > room {
            return false;
        }
        self.escapers.clear();
        self.enter.clear();
        self.entering.clear();
        self.was_in.clear();
        let (mut outside, mut jumps, mut unkeyed) = (self.outside as isize, 0, false);
        for t in tasks.iter() {
            self.escapers.extend_from_slice(&t.ids);
            let base = self.entering.len() as u32;
            self.enter
                .extend(t.found.iter().map(|&(key, k)| (key, base + k)));
            self.entering.extend_from_slice(&t.entering);
            self.was_in.extend_from_slice(&t.was_in);
            outside += t.outside;
            jumps += t.jumps;
            unkeyed |= t.unkeyed;
        }
        (self.outside, self.jumps, self.unkeyed) = (outside as usize, jumps, unkeyed);
        self.escapers.extend(both as u32..top as u32);
        true
    }

    /// Moves the escapers to their new cells (a removed slot out of the grid): those the
    /// escape check did not see (new slots, removed ones) get their new enlarged boxes here.
    /// `false` when one is larger than the grid's coarsest level allows, or too many boxes lie
    /// outside the grid's cells: the caller rebuilds.
    fn move_escapers(&mut self, scene: &Scene) -> bool {
        if self.escapers.is_empty() {
            return true;
        }
        let boxes = &scene.moving.boxes;
        let both = scene.moving.len().min(self.len);
        let unseen = self.escapers.partition_point(|&e| (e as usize) < both);
        for &e in &self.escapers[unseen..] {
            let e = e as usize;
            if let Some(r) = scene.moving.records.get(e) {
                self.tags[e] = r.kind & TAG;
            }
            let old = (&self.fat[e], self.shifts[e], self.call);
            let Some(to) = relocate(&self.grid, self.margin, e, old, boxes.get(e)) else {
                return false;
            };
            (self.fat[e], self.shifts[e]) = (to.fat, (to.shift, self.call));
            self.outside = self.outside.wrapping_add_signed(to.outside);
            if let Some(key) = to.key {
                self.enter.push((key, self.entering.len() as u32));
                self.entering.push((e as u32, to.fat));
                self.was_in.push(to.was_in);
            }
        }
        let records = &scene.moving.records;
        for &e in &self.escapers {
            let e = e as usize;
            let same = records.get(e).is_some_and(|r| r.id == self.slot_ids[e]);
            self.escaped[e] = if same { MOVED } else { TAKEN };
        }
        let tolerated = self.outside_built + OUTSIDE_MIN.max(boxes.len() / 16);
        if self.unkeyed || self.outside > tolerated {
            return false;
        }
        // An escaper whose new box has the cell of its old one keeps its place in the grid,
        // its box written there: only those that change cells (or leave the grid) make the
        // repair rewrite the grid, and a frame in which none does has no repair at all.
        self.leaving.resize(self.escaped.len(), false);
        for &e in &self.escapers {
            self.leaving[e as usize] = true;
        }
        self.moves.clear();
        for &(key, k) in &self.enter {
            let (e, fat) = self.entering[k as usize];
            let stays = self.was_in[k as usize] == key && {
                let cell = self.grid.cell(key);
                let at = self.ids[cell.clone()].iter().position(|&s| s == e);
                at.map(|p| self.grid.set_box(cell.start + p, fat)).is_some()
            };
            if stays {
                self.leaving[e as usize] = false;
            } else {
                self.moves.push((key, k));
            }
        }
        let leaving = self.escapers.iter().any(|&e| self.leaving[e as usize]);
        if leaving {
            // By cell, then by slot (the numbers in `entering` ascend with the slots).
            self.sort.sort(&mut self.moves);
            self.grid.repair(
                &mut self.ids,
                &mut self.spare_ids,
                &self.leaving,
                &self.moves,
                &self.entering,
            );
        }
        for &e in &self.escapers {
            self.leaving[e as usize] = false;
        }
        true
    }

    /// The escapers' new candidates, by pair kind, for the lists to follow the escapers'
    /// moves as the kernels read them (see [`Follow`]): those of an escaper dropped, the
    /// others kept (a neighbour's position moved by the change in the number of slots), and
    /// the new ones merged in. With `mixed`, the mixed candidates too (otherwise the caller
    /// files them anew). `before`: the number of moving slots in the last call (the
    /// neighbours' positions follow them).
    fn follow_moves(&mut self, scene: &Scene, mixed: bool, before: u32) {
        self.query_escapers(scene);
        if mixed {
            self.mixed.new.clear();
            let (enter, entering) = (&self.enter, &self.entering);
            let at = |i: usize| entering[enter[i].1 as usize].0;
            let new = &mut self.mixed.new;
            self.filtered += find_mixed(
                &mut self.statics,
                &mut self.tasks,
                scene,
                (&self.fat, &scene.moving.records, self.margin.far()),
                enter.len(),
                at,
                |_, pair| new.push(pair),
            );
        }
        let after = scene.moving.len() as u32;
        let (tags, neighbours) = (&self.tags, &self.statics.labels);
        // The kind code at a position (a neighbour's after the moving slots).
        let kind_at = |x: u32| {
            if x < after {
                tags[x as usize]
            } else {
                neighbours[(x - after) as usize].1
            }
        };
        self.candidates.prepare(&mut self.sort, kind_at);
        if mixed {
            self.mixed.prepare(&mut self.sort, kind_at);
        }
        self.follow = Some(before);
        self.follow_mixed = mixed;
    }

    /// The escapers' new moving candidates, into the candidate lists' `new`: every box that
    /// overlaps an escaper's new enlarged box (a pair of two escapers once, from the later
    /// position).
    fn query_escapers(&mut self, scene: &Scene) {
        let tasks = plan(&mut self.tasks, self.enter.len(), MIN_TASK / 16);
        let (grid, ids, entering, escaped, enter, tags) = (
            &self.grid,
            &self.ids,
            &self.entering,
            &self.escaped,
            &self.enter,
            &self.tags,
        );
        let filing = (&tags[..], filters_of(scene));
        each_task(tasks, |_, t| {
            t.filed.iter_mut().for_each(Vec::clear);
            t.filtered = 0;
            for &(_, k) in &enter[t.range.clone()] {
                let (e, fat) = entering[k as usize];
                grid.overlapping(fat, &mut |x| {
                    let s = ids[x as usize];
                    if s != e && !(escaped[s as usize] != STAYED && s > e) {
                        let filed = file(&mut t.filed, filing, s.min(e), s.max(e));
                        t.filtered += usize::from(!filed);
                    }
                });
            }
        });
        self.candidates.new.clear();
        for t in tasks.iter() {
            self.filtered += t.filtered;
            for list in &t.filed {
                self.candidates.new.extend_from_slice(list);
            }
        }
    }

    /// The mixed candidates anew, of every moving slot. A shape whose
    /// neighbourhood no longer holds its enlarged box gets one over the enlarged box itself
    /// (the far box waits for its next escape): a rebuild, or a change of the static shapes,
    /// then queries the level as it did before neighbourhoods, instead of over every far box
    /// at once (which made such a frame about twice as slow).
    fn all_mixed(&mut self, scene: &Scene) {
        self.mixed.clear();
        let kinds = &mut self.mixed.kinds;
        let n = scene.moving.len();
        self.filtered += find_mixed(
            &mut self.statics,
            &mut self.tasks,
            scene,
            (&self.fat, &scene.moving.records, self.margin),
            n,
            |s| s as u32,
            |kind, pair| kinds[kind].push(pair),
        );
    }

    /// Everything of the moving shapes anew over enlarged boxes: the grid, the candidates
    /// (sorted), and the mixed candidates.
    fn rebuild(&mut self, scene: &Scene, stats: &mut KeptStats) {
        let start = Instant::now();
        stats.rebuilt = true;
        let n = scene.moving.len();
        self.enlarge_all(scene);
        self.escaped.resize(n, STAYED);
        self.tags.clear();
        self.tags
            .extend(scene.moving.records.iter().map(|r| r.kind & TAG));
        self.slot_ids.clear();
        self.slot_ids
            .extend(scene.moving.records.iter().map(|r| r.id));
        self.ids.resize(n, 0);
        self.grid.build(
            &self.fat,
            scene.cell_size,
            |i| i,
            &mut self.staged,
            &mut self.ids,
        );
        let (grid, fat) = (&self.grid, &self.fat);
        self.outside = self.ids[..grid.len()]
            .iter()
            .filter(|&&id| {
                let b = &fat[id as usize];
                grid.key_for(b).is_some_and(|key| grid.clamped(key, b))
            })
            .count();
        self.outside_built = self.outside;
        stats.build = start.elapsed();

        let search = Instant::now();
        let tasks = plan(&mut self.tasks, self.grid.len(), MIN_TASK);
        let (grid, ids) = (&self.grid, &self.ids);
        let filing = (&self.tags[..], filters_of(scene));
        each_task(tasks, |_, t| {
            t.filed.iter_mut().for_each(Vec::clear);
            t.filtered = 0;
            t.buf.resize(MIN_BUFFER * 8, (0, 0));
            let (filed, filtered) = (&mut t.filed, &mut t.filtered);
            grid.search(t.range.clone(), &mut t.buf, &mut |pairs: &[(
                u32,
                u32,
            )]| {
                for &(p, q) in pairs {
                    let (s, u) = (ids[p as usize], ids[q as usize]);
                    *filtered += usize::from(!file(filed, filing, s.min(u), s.max(u)));
                }
            });
        });
        self.candidates.clear();
        self.candidates.take_filed(tasks);
        self.filtered += tasks.iter().map(|t| t.filtered).sum::<usize>();
        // By first slot, which the kernels read in order.
        let spare = &mut self.candidates.new;
        for list in &mut self.candidates.kinds {
            sort_by_first(list, spare, &mut self.counts, n);
        }
        self.all_mixed(scene);
        stats.search = search.elapsed();
    }

    /// The kernels over the kept candidates and mixed candidates, on rayon's threads: the ids
    /// of those that overlap, `(smaller, larger)`, appended to `out`. Each task decides the
    /// candidates of every list whose first positions fall in a range of its own (see
    /// [`split_parts`] and [`walk`]), and sets their [`HIT`] flags to their hits. With
    /// `events`, the hits that began and ended go to `self.began` and `self.ended` instead
    /// (see [`Candidates::decide_list`]).
    ///
    /// Where the lists follow the escapers' moves ([`Follow`]), each is written anew as it is
    /// decided, the escapers' candidates dropped (the pairs of flagged ones ended) and the new
    /// ones merged in, in the same pass: a list is read once per frame, not once to follow the
    /// moves and once more for the kernels.
    fn decide_lists(
        &mut self,
        scene: &Scene,
        out: &mut Vec<(u32, u32)>,
        stats: &mut KeptStats,
        events: bool,
    ) {
        let n = scene.moving.len() as u32;
        let follow = self.follow.map(|before| Follow {
            before,
            after: n,
            escaped: &self.escaped,
            last_ids: &self.slot_ids,
            labels: &self.statics.labels,
        });
        let follows = [follow.is_some(), follow.is_some() && self.follow_mixed];
        let [moving, mixed] = [&mut self.candidates, &mut self.mixed];
        let added = |set: usize, lists: &Lists| -> usize {
            if follows[set] {
                lists.added.iter().map(Vec::len).sum()
            } else {
                0
            }
        };
        let total = moving.len() + mixed.len() + added(0, moving) + added(1, mixed);
        if total == 0 {
            return;
        }
        let tasks = plan(&mut self.tasks, total, MIN_TASK);
        let shared = Shared::new(&self.grid, &scene.moving.records, [scene, scene], 0, false)
            .with_tail(&self.neighbours)
            .with_copies(&self.statics.polygons, n)
            .admitted()
            .paired();
        if follow.is_none() && tasks.len() == 1 {
            // Nothing to follow: the lists are decided where they are.
            let t = &mut tasks[0];
            let start = Instant::now();
            t.narrow.reset();
            t.ended.clear();
            walk(
                &mut t.narrow,
                &shared,
                [&mut moving.kinds, &mut mixed.kinds],
                events,
            );
            t.time = start.elapsed();
        } else {
            {
                let parts: [Part<'_>; 2 * PAIR_KINDS] = core::array::from_fn(|j| {
                    let (set, kind) = (j / PAIR_KINDS, j % PAIR_KINDS);
                    let lists: &Lists = if set == 0 { moving } else { mixed };
                    Part {
                        kind,
                        old: &lists.kinds[kind],
                        added: if follows[set] {
                            &lists.added[kind]
                        } else {
                            &[]
                        },
                        follow: if follows[set] { follow } else { None },
                    }
                });
                let positions = n.saturating_add(self.neighbours.len() as u32);
                let splits = split_parts(&parts, positions, tasks.len(), &mut self.splits);
                each_task(tasks, |k, t| {
                    let start = Instant::now();
                    t.narrow.reset();
                    t.ended.clear();
                    let bounds = [&splits[k], &splits[k + 1]];
                    merge_walk(
                        &mut t.narrow,
                        &shared,
                        &parts,
                        bounds,
                        &mut t.outs,
                        events,
                        &mut t.ended,
                    );
                    t.time = start.elapsed();
                });
            }
            // The lists as written: one task's buffers take the lists' place (the old lists
            // are its buffers next call), several tasks' follow one another.
            for (j, list) in moving.kinds.iter_mut().chain(&mut mixed.kinds).enumerate() {
                if let [t] = tasks {
                    core::mem::swap(list, &mut t.outs[j]);
                } else {
                    list.clear();
                    for t in tasks.iter() {
                        list.extend_from_slice(&t.outs[j]);
                    }
                }
            }
        }
        for t in tasks.iter() {
            out.extend_from_slice(&t.narrow.pairs);
            self.began.extend_from_slice(&t.narrow.began);
            self.ended.extend_from_slice(&t.narrow.ended);
            self.ended.extend_from_slice(&t.ended);
            stats.pack += t.time.saturating_sub(t.narrow.kernel_time);
            stats.kernels += t.narrow.kernel_time;
            stats.filtered += t.narrow.filtered;
            stats.candidates += t.narrow.candidates;
        }
    }

    /// The kernels over `candidates` (candidate `i` the pair of positions into `shapes` that
    /// `at(i, candidates[i])` gives), on rayon's threads: the ids of those that overlap,
    /// `(smaller, larger)`, appended to `out` in the candidates' order. `admitted`: no
    /// candidate is two static shapes.
    #[allow(clippy::too_many_arguments)]
    fn decide(
        &mut self,
        scene: &Scene,
        shapes: &[Record],
        copies: &[Copied],
        admitted: bool,
        candidates: &[(u32, u32)],
        at: impl Fn(usize, (u32, u32)) -> (u32, u32) + Sync,
        out: &mut Vec<(u32, u32)>,
        stats: &mut KeptStats,
    ) {
        if candidates.is_empty() {
            return;
        }
        let tasks = plan(&mut self.tasks, candidates.len(), MIN_TASK);
        let shared =
            Shared::new(&self.grid, shapes, [scene, scene], 0, false).with_copies(copies, u32::MAX);
        let shared = if admitted { shared.admitted() } else { shared };
        each_task(tasks, |_, t| {
            let start = Instant::now();
            let narrow = &mut t.narrow;
            narrow.reset();
            for (k, chunk) in candidates[t.range.clone()].chunks(CHUNK).enumerate() {
                let first = t.range.start + k * CHUNK;
                narrow.decide_in_order(&shared, chunk, |i, c| at(first + i, c));
            }
            t.time = start.elapsed();
        });
        for t in tasks.iter() {
            out.extend_from_slice(&t.narrow.pairs);
            // Filing and collecting hits count as packing: all but the kernels.
            stats.pack += t.time.saturating_sub(t.narrow.kernel_time);
            stats.kernels += t.narrow.kernel_time;
            stats.filtered += t.narrow.filtered;
            stats.candidates += t.narrow.candidates;
        }
    }
}

/// [`Kept::escaped`]: a slot that did not escape in this call.
const STAYED: u8 = 0;
/// An escaper that holds the shape it held in the last call.
const MOVED: u8 = 1;
/// An escaper whose slot holds another shape than in the last call, or none (new, removed).
const TAKEN: u8 = 2;

/// How a frame's lists follow the escapers' moves: a candidate of an escaper is dropped, a
/// moving slot stays where it is, and a neighbour's position moves with the number of moving
/// slots (`before` in the last call, `after` in this one). A dropped candidate's pair is named
/// by the ids its positions held in the last call: a slot's from `last_ids`, a neighbour's
/// from its label, which stays until the next call (see `Statics::tidy`).
#[derive(Clone, Copy)]
struct Follow<'a> {
    before: u32,
    after: u32,
    escaped: &'a [u8],
    last_ids: &'a [u32],
    labels: &'a [(u32, u32)],
}

impl Follow<'_> {
    /// A neighbour's position `x` of the last call (not below `before`) in this call.
    #[inline(always)]
    fn shifted(&self, x: u32) -> u32 {
        x - self.before + self.after
    }

    /// The position of `x` in this call, `None` for an escaper's slot.
    #[inline(always)]
    fn at(&self, x: u32) -> Option<u32> {
        if x >= self.before {
            Some(self.shifted(x))
        } else if self.escaped[x as usize] != STAYED {
            None
        } else {
            Some(x)
        }
    }

    /// A key of the last call's position `x`, ascending with `x`, equal to its position in
    /// this call where it has one: a list in order of first positions is in order of keys.
    #[inline(always)]
    fn key(&self, x: u32) -> u32 {
        if x < self.before {
            x.min(self.after)
        } else {
            self.shifted(x)
        }
    }

    /// A candidate at its positions in this call (keeping its flag), `None` if an escaper's.
    #[inline(always)]
    fn moved(&self, (p, q): (u32, u32)) -> Option<(u32, u32)> {
        Some((self.at(p)?, self.at(q & !HIT)? | q & HIT))
    }

    /// Where a dropped candidate lies in this call if both its shapes are the ones it had (an
    /// escaper that moved, not a slot another shape took): its escaper finds it again there
    /// if its boxes still overlap. `None` if either slot is gone or holds another shape.
    #[inline(always)]
    fn twin(&self, (p, q): (u32, u32)) -> Option<(u32, u32)> {
        let at = |x: u32| {
            if x >= self.before {
                Some(self.shifted(x))
            } else {
                (self.escaped[x as usize] != TAKEN).then_some(x)
            }
        };
        Some((at(p)?, at(q & !HIT)?))
    }

    /// The pair of ids of a dropped candidate, smaller first.
    fn named(&self, (p, q): (u32, u32)) -> (u32, u32) {
        let id_at = |x: u32| {
            if x < self.before {
                self.last_ids[x as usize]
            } else {
                self.labels[(x - self.before) as usize].0
            }
        };
        let (x, y) = (id_at(p), id_at(q & !HIT));
        (x.min(y), x.max(y))
    }
}

/// One kept list as a frame decides it: its pair kind, its candidates as the last call left
/// them, the new ones to merge in (ascending), and how it follows the escapers' moves (`None`:
/// it does not, and `added` is empty).
#[derive(Clone, Copy)]
struct Part<'a> {
    kind: usize,
    old: &'a [(u32, u32)],
    added: &'a [(u32, u32)],
    follow: Option<Follow<'a>>,
}

impl Part<'_> {
    /// The key of a last call's first position (see [`Follow::key`]).
    #[inline(always)]
    fn key(&self, x: u32) -> u32 {
        self.follow.map_or(x, |f| f.key(x))
    }

    /// The number of old candidates whose first positions' keys are below `at`, and of new
    /// ones whose first positions are.
    fn below(&self, at: u32) -> (usize, usize) {
        (
            self.old.partition_point(|c| self.key(c.0) < at),
            below(self.added, at),
        )
    }

    /// Writes to `out` the candidates from `at` (old, new) to `end` whose first positions lie
    /// below `window`, in order: the old ones followed (an escaper's dropped, its pair to
    /// `dropped` if it is flagged [`HIT`]) and the new ones merged in.
    fn merge(
        &self,
        at: &mut (usize, usize),
        end: (usize, usize),
        window: u32,
        out: &mut Vec<(u32, u32)>,
        dropped: &mut Vec<(u32, u32)>,
    ) {
        // The ends of this window in both, by binary search, so that the loops below test
        // neither the window nor the kind of list per candidate.
        let old_end = at.0 + self.old[at.0..end.0].partition_point(|c| self.key(c.0) < window);
        let new_end = at.1 + below(&self.added[at.1..end.1], window);
        let (old, new) = (&self.old[at.0..old_end], &self.added[at.1..new_end]);
        *at = (old_end, new_end);
        match self.follow {
            None => merge_into(old, new, (Some, |_| None), |c| c, out, dropped),
            Some(f) => merge_into(
                old,
                new,
                (|c| f.moved(c), |c| f.twin(c)),
                |c| f.named(c),
                out,
                dropped,
            ),
        }
    }
}

/// Writes `old` (each as `moved` gives it, dropped where that is `None`) and `new` to `out`,
/// merged in order. A dropped candidate flagged [`HIT`] passes its flag to its `twin` among
/// the new ones if there is one (the same pair found again), else its pair as `named` gives
/// it goes to `dropped`.
#[inline(always)]
fn merge_into(
    old: &[(u32, u32)],
    mut new: &[(u32, u32)],
    (moved, twin): (
        impl Fn((u32, u32)) -> Option<(u32, u32)>,
        impl Fn((u32, u32)) -> Option<(u32, u32)>,
    ),
    named: impl Fn((u32, u32)) -> (u32, u32),
    out: &mut Vec<(u32, u32)>,
    dropped: &mut Vec<(u32, u32)>,
) {
    // Compared with its flag, as one number: a flagged pair may come after a new one of the
    // same first position that it would precede. Any order is right; the order is for
    // locality.
    // The key of the next new candidate (none: above every key).
    let head_of = |new: &[(u32, u32)]| new.first().map_or(u64::MAX, |&c| pair_key(c));
    let mut head = head_of(new);
    let take = |new: &mut &[(u32, u32)], head: &mut u64, key: u64, out: &mut Vec<_>| {
        while *head < key {
            out.push(new[0]);
            *new = &new[1..];
            *head = head_of(new);
        }
    };
    for &c in old {
        let Some(m) = moved(c) else {
            if c.1 & HIT != 0 {
                // An escaper's pair found again stays flagged: it neither ended nor began
                // unless its kernel now says otherwise.
                if let Some(t) = twin(c) {
                    let key = pair_key(t);
                    take(&mut new, &mut head, key, out);
                    if head == key {
                        out.push((t.0, t.1 | HIT));
                        new = &new[1..];
                        head = head_of(new);
                        continue;
                    }
                }
                dropped.push(named(c));
            }
            continue;
        };
        take(&mut new, &mut head, pair_key(m), out);
        out.push(m);
    }
    out.extend_from_slice(new);
}

/// Sorts `list` by first position (each below `n`), stably, by counting sort through `spare`
/// and `counts` (kept buffers): one count and one scatter, where a radix sort of the whole
/// pairs took three of each (a new finder per frame, a rebuild every frame, 1–9 % faster).
fn sort_by_first(
    list: &mut Vec<(u32, u32)>,
    spare: &mut Vec<(u32, u32)>,
    counts: &mut Vec<u32>,
    n: usize,
) {
    if list.len() < 2 {
        return;
    }
    counts.clear();
    counts.resize(n + 1, 0);
    for &(p, _) in list.iter() {
        counts[p as usize + 1] += 1;
    }
    for k in 1..counts.len() {
        counts[k] += counts[k - 1];
    }
    spare.clear();
    spare.resize(list.len(), (0, 0));
    for &c in list.iter() {
        let at = &mut counts[c.0 as usize];
        spare[*at as usize] = c;
        *at += 1;
    }
    core::mem::swap(list, spare);
}

/// The number of `list`'s candidates whose first position is below `at`, by binary search.
fn below(list: &[(u32, u32)], at: u32) -> usize {
    list.partition_point(|c| c.0 < at)
}

/// Where `tasks` tasks split `parts` (first positions below `positions`): task `k` decides the
/// candidates from `splits[k][j]` to `splits[k + 1][j]` of each part `j` (old, new), those
/// whose first positions fall in a range of its own, about as many candidates per task.
/// Ascending in `k`, so that every candidate is decided once.
fn split_parts<'s>(
    parts: &[Part<'_>; 2 * PAIR_KINDS],
    positions: u32,
    tasks: usize,
    splits: &'s mut Vec<[(usize, usize); 2 * PAIR_KINDS]>,
) -> &'s [[(usize, usize); 2 * PAIR_KINDS]] {
    let total: usize = parts.iter().map(|p| p.old.len() + p.added.len()).sum();
    splits.clear();
    splits.push([(0, 0); 2 * PAIR_KINDS]);
    for k in 1..tasks {
        // The least position below which about `k / tasks` of all the candidates start.
        let want = total * k / tasks;
        let (mut lo, mut hi) = (0u32, positions);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            let count = parts.iter().map(|p| p.below(mid)).map(|(o, a)| o + a);
            if count.sum::<usize>() < want {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        let last = splits[k - 1];
        splits.push(core::array::from_fn(|j| {
            let (o, a) = parts[j].below(lo);
            (o.max(last[j].0), a.max(last[j].1))
        }));
    }
    splits.push(parts.map(|p| (p.old.len(), p.added.len())));
    splits
}

/// Decides every list of `sets` (the moving lists, the mixed lists) where it is (see
/// [`Candidates::decide_list`]), all the lists together, a [`WINDOW`] of first positions at
/// a time: the records a window reads stay in cache for every pair kind (one list after
/// another read all the records once per pair kind).
fn walk(
    narrow: &mut Candidates,
    shared: &Shared<'_>,
    sets: [&mut [Vec<(u32, u32)>; PAIR_KINDS]; 2],
    events: bool,
) {
    let mut at = [[0usize; PAIR_KINDS]; 2];
    // Each window starts at the least first position left in any list.
    while let Some(low) = (0..2 * PAIR_KINDS)
        .filter_map(|j| {
            sets[j / PAIR_KINDS][j % PAIR_KINDS].get(at[j / PAIR_KINDS][j % PAIR_KINDS])
        })
        .map(|c| c.0)
        .min()
    {
        let window = low.saturating_add(WINDOW);
        for j in 0..2 * PAIR_KINDS {
            let (set, kind) = (j / PAIR_KINDS, j % PAIR_KINDS);
            let list = &mut sets[set][kind];
            let start = at[set][kind];
            if start == list.len() {
                continue;
            }
            // At least the first candidate where it lies in the window, so that the walk ends
            // however the list is ordered.
            let stop = (start + below(&list[start..], window))
                .max(start + usize::from(list[start].0 < window));
            if start < stop {
                narrow.decide_list(shared, kind, &mut list[start..stop], events);
            }
            at[set][kind] = stop;
        }
    }
}

/// [`walk`] over the parts' candidates from `from[j]` to `to[j]`, each list written anew to
/// `outs[j]` (cleared first) as it follows the escapers' moves (see [`Part::merge`]), and
/// decided there.
fn merge_walk(
    narrow: &mut Candidates,
    shared: &Shared<'_>,
    parts: &[Part<'_>; 2 * PAIR_KINDS],
    [from, to]: [&[(usize, usize); 2 * PAIR_KINDS]; 2],
    outs: &mut [Vec<(u32, u32)>; 2 * PAIR_KINDS],
    events: bool,
    dropped: &mut Vec<(u32, u32)>,
) {
    for (j, out) in outs.iter_mut().enumerate() {
        out.clear();
        // Room for a sixteenth more, so that the buffers, which take turns with the lists, do
        // not grow by turns in a steady frame loop.
        let n = (to[j].0 - from[j].0) + (to[j].1 - from[j].1);
        out.reserve(n + n / 16);
    }
    let mut at = *from;
    // Each window starts at the least first position left in any list.
    while let Some(low) = (0..2 * PAIR_KINDS)
        .flat_map(|j| {
            let (p, (o, a)) = (&parts[j], at[j]);
            let old = (o < to[j].0).then(|| p.key(p.old[o].0));
            let new = (a < to[j].1).then(|| p.added[a].0);
            [old, new]
        })
        .flatten()
        .min()
    {
        let window = low.saturating_add(WINDOW);
        for (j, part) in parts.iter().enumerate() {
            let start = outs[j].len();
            part.merge(&mut at[j], to[j], window, &mut outs[j], dropped);
            if start < outs[j].len() {
                narrow.decide_list(shared, part.kind, &mut outs[j][start..], events);
            }
        }
    }
}

/// Runs `f` on each task and its number: on rayon's threads, or on this one where there is
/// one task (a caller outside the pool would otherwise hand it to a worker and wait; the 100 k
/// frame measured the same either way, the point is to not depend on it).
fn each_task(tasks: &mut [Task], f: impl Fn(usize, &mut Task) + Sync + Send) {
    if let [t] = tasks {
        f(0, t);
    } else {
        tasks.par_iter_mut().enumerate().for_each(|(k, t)| f(k, t));
    }
}

/// Splits `0 .. n` into tasks (one on one thread, up to four per thread otherwise, none
/// smaller than `min` items) and returns them. Tasks beyond those are kept with their scratch,
/// so that a pass with fewer tasks does not free what the next one needs.
fn plan(tasks: &mut Vec<Task>, n: usize, min: usize) -> &mut [Task] {
    let threads = rayon::current_num_threads();
    let want = if threads <= 1 {
        1
    } else {
        (threads * 4).min(n / min.max(1) + 1)
    };
    if tasks.len() < want {
        tasks.resize_with(want, Task::default);
    }
    let tasks = &mut tasks[..want];
    for (k, t) in tasks.iter_mut().enumerate() {
        t.range = n * k / want..n * (k + 1) / want;
    }
    tasks
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Slots 0–2 moving (slot 1 escaped this call), neighbours after them; each slot's id
    /// in the last call its number plus 10. `replaced`: slot 2 escaped too, holding another
    /// shape now.
    fn follow(labels: &[(u32, u32)], replaced: bool) -> Follow<'_> {
        const ESCAPED: [[u8; 3]; 2] = [[STAYED, MOVED, STAYED], [STAYED, MOVED, TAKEN]];
        Follow {
            before: 3,
            after: 3,
            escaped: &ESCAPED[usize::from(replaced)],
            last_ids: &[10, 11, 12],
            labels,
        }
    }

    fn merged(f: Follow<'_>, old: &[(u32, u32)], new: &[(u32, u32)]) -> [Vec<(u32, u32)>; 2] {
        let (mut out, mut dropped) = (Vec::new(), Vec::new());
        let part = Part {
            kind: 0,
            old,
            added: new,
            follow: Some(f),
        };
        let mut at = (0, 0);
        part.merge(
            &mut at,
            (old.len(), new.len()),
            u32::MAX,
            &mut out,
            &mut dropped,
        );
        [out, dropped]
    }

    #[test]
    fn an_escapers_pair_found_again_keeps_its_flag() {
        let labels = [(20, 0), (21, 0)];
        // Slot 1 escaped: its pair with neighbour 0 (position 3) overlapped and is found
        // again, its pair with slot 2 overlapped and is not, its pair with neighbour 1 did
        // not overlap and is found again.
        let old = [(0, 3 | HIT), (1, 2 | HIT), (1, 3 | HIT), (1, 4)];
        let new = [(1, 3), (1, 4)];
        let [out, dropped] = merged(follow(&labels, false), &old, &new);
        assert_eq!(out, [(0, 3 | HIT), (1, 3 | HIT), (1, 4)]);
        assert_eq!(dropped, [(11, 12)]);
    }

    #[test]
    fn a_pair_of_a_slot_another_shape_took_ends() {
        let labels = [(20, 0)];
        // Slot 2 holds another shape now: its pair with neighbour 0, found again at the same
        // positions, is another pair (the old one ended, the new one begins unflagged).
        let old = [(2, 3 | HIT)];
        let new = [(2, 3)];
        let [out, dropped] = merged(follow(&labels, true), &old, &new);
        assert_eq!(out, [(2, 3)]);
        assert_eq!(dropped, [(12, 20)]);
    }
}

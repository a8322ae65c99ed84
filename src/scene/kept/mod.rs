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
//! **Moving shapes** are checked by slot of the scene's moving store, and known to the grid,
//! the candidate lists and the kernels by index: the slots numbered in the grid's order at the
//! last rebuild, each call's records gathered in that order (see `numbers.rs`). Each has an
//! enlarged box, its padded box grown by a margin (and moved ahead the way it last left one: see
//! [`Margin::enlarge_ahead`]); the grid holds the enlarged boxes, and the candidates are
//! every pair of shapes whose enlarged boxes overlap, as pairs of indices. A frame first checks,
//! in one streaming pass, that every shape's current box lies inside its enlarged box. Those
//! that do not (they moved too far, changed size, appeared, or turned valid or invalid) are
//! the escapers: each gets a new enlarged box and moves to its new cell (or stays in its place
//! in the grid, its box written there, where the cell is the same); its candidates are
//! dropped and it is queried against the grid for its new ones, while every other candidate
//! stays as it is (an index does not move when a shape does). The candidates are kept filed by
//! pair kind, each in its kernel's argument order and ascending by first index, so that a
//! frame gathers and tests them without looking at their kinds again and reads the records
//! in one sweep. Only pairs whose filters pair are filed, and a shape whose kind or filter
//! changed is an escaper. Each kept candidate carries a flag
//! ([`HIT`](crate::scene::candidates::HIT)) set while its pair is in the answer: a frame's answer
//! is the last one without the pairs whose flag the kernels cleared or whose candidate an escaper
//! dropped, and with those whose flag they set, a merge of a few thousand changes rather than a
//! sort of the whole answer (the flags stay true because a slot that holds another id is an
//! escaper). Where few shapes changed since the last call, a candidate of two that did not
//! keeps its flag without a kernel (see `still.rs`).
//!
//! Exactness rests on the check alone: a pair whose shapes overlap has overlapping padded
//! boxes, hence overlapping enlarged boxes, hence is a candidate, however the shapes moved.
//! Too many escapers or the first call rebuild the moving part over enlarged boxes; removed
//! shapes are escapers whose new box is none.

mod answer;
mod by_first;
mod choice;
mod copies;
mod escape;
mod escapers;
mod filed;
mod flags;
mod follow;
mod jumps;
mod lists;
mod margin;
mod mixed;
mod moves;
mod numbers;
mod rebuild;
mod splits;
mod stats;
mod still;
mod tasks;
mod unbounded;
mod untouched;
mod walk;
mod written;

#[cfg(test)]
pub(crate) use choice::FIRST_TIMED;
pub(crate) use choice::{CHOOSE_FROM, CHOOSE_FROM_MANY, Choice, Path};
pub(crate) use margin::{AUTO_MARGIN, Margin};
pub(crate) use stats::KeptStats;

use super::chunks::Chunks;
use super::radix::RadixSort;
use super::records::Record;
use super::sort::Events;
use super::stamps::Seen;
use super::statics::Statics;
use super::store::Scene;
use crate::broadphase::counting_sort::Staged;
use crate::broadphase::grid::Grid;
use answer::Answer;
use copies::Copies;
use lists::Lists;
use std::sync::Arc;
use std::sync::atomic::AtomicU32;
use std::time::Duration;
use tasks::{Splits, Task};

/// The automatic rebuild threshold: a frame rebuilds when more than this share of the shapes
/// escaped their enlarged boxes.
pub(crate) const AUTO_REBUILD: f32 = 0.25;

/// Calls within which a state that too many escapers end, twice in a row, is short-lived: the
/// finder then searches from scratch (see [`Kept::overlapping_pairs`]). A rebuild costs about
/// 1.75 searches from scratch and a followed call 0.65–1.1 (100 k shapes moving 0.4–0.5 of
/// their half extent a call, Zen 5): a state that lives two calls costs 1.2–1.4 searches a
/// call, one that lives three about one.
const SHORT_LIFE: u32 = 2;

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
    /// The call that last rebuilt; how many states in a row too many escapers ended within
    /// [`SHORT_LIFE`] calls of their rebuild.
    built_at: u32,
    short: u8,
    /// The call that noted the sample's enlarged boxes after a search from scratch, and after
    /// how many calls the sample decides whether to rebuild (see [`note_boxes`](Self::note_boxes)).
    noted_at: u32,
    span: u32,
    len: usize,
    /// The static shapes as filed, and their neighbours.
    statics: Statics,
    /// The mixed candidates: pairs of a moving slot `p` and the position
    /// `moving + c` of neighbour `c` (a static shape whose box overlaps the moving one's
    /// enlarged box) in the records the kernels read, by pair kind.
    mixed: Lists,
    pub(crate) margin: Margin,
    pub(crate) rebuild_above: f32,
    /// Whether a call follows the kept state or searches from scratch.
    pub(crate) choice: Choice,
    /// Per index, the moving slot it stands for and that slot's record as the kernels read it
    /// (inert for a hole: an index whose slot the scene no longer has); per slot, its index;
    /// and the number of indices, `len` or more where the scene shrank since the last rebuild.
    /// The grid's items, the candidate lists and `escaped` are by index: the slots numbered in
    /// the grid's order at the last rebuild (a slot pushed since keeps its own number), so that
    /// the kernels read the records of neighbouring shapes from neighbouring memory. Read by
    /// slot, in the order the shapes were pushed, those reads were over half of a
    /// million-shape frame, cache and TLB misses.
    slot_of: Vec<u32>,
    /// Each slot's index: atomics, so that a rebuild numbers the slots on rayon's threads
    /// (see `numbers.rs`); read and written with no ordering, plain loads and stores.
    index_of: Vec<AtomicU32>,
    local: Vec<Record>,
    /// How many slots' records this call's escape check wrote at their indices (all that
    /// both calls hold, or none: see `escape.rs`), which the gather then skips.
    scattered: usize,
    /// How many slots the last escape check looked at (changed since the call before).
    last_changed: usize,
    /// The vertices of the moving polygons among `local`, one per polygon (their records
    /// flagged [`GATHERED`](crate::scene::records::GATHERED) and pointing there: see
    /// `copies.rs`).
    copies: Copies,
    top: usize,
    /// Per index, the [`TAG`](lists::TAG) of its record: what filing a pair reads, a word
    /// rather than a record per hit.
    kinds: Vec<u32>,
    /// Per slot: its enlarged box (NaN `min_x`: not entered).
    fat: Vec<[f32; 4]>,
    /// Per id: how far its enlarged box was moved ahead of its padded box, and the call that
    /// enlarged it (see [`Margin::enlarge_ahead`]); the number of this call.
    shifts: Vec<([f32; 2], u32)>,
    call: u32,
    grid: Grid,
    /// Per grid position: the index; and the second buffer of a repair.
    ids: Vec<u32>,
    spare_ids: Vec<u32>,
    staged: Vec<Staged<u32>>,
    /// The static neighbours' records by neighbour slot, which the kernels read after the
    /// moving shapes' (those the scene keeps by slot).
    neighbours: Vec<Record>,
    /// The candidates: pairs of indices whose enlarged boxes overlap, by pair kind.
    candidates: Lists,
    /// Per index: whether its slot escaped in this call ([`STAYED`](follow::STAYED) between
    /// calls), and whether it still holds the shape it held in the last call
    /// ([`MOVED`](follow::MOVED)) or not ([`TAKEN`](follow::TAKEN)).
    escaped: Vec<u8>,
    /// Per slot: the kind code and filter index its candidates were filed by ([`TAG`](lists::TAG)
    /// of its kind word), and the id it held in the last call (a shape whose kind or filter
    /// changed, or a slot that holds another shape, is an escaper). An escaper's id is updated at
    /// the end of the call, so that the candidates it drops are named by the ids they had.
    tags: Vec<u32>,
    slot_ids: Vec<u32>,
    /// Whether this call's lists follow the escapers' moves (the number of moving slots of
    /// the last call), and whether the mixed lists do too (see [`Follow`](follow::Follow)).
    follow: Option<u32>,
    follow_mixed: bool,
    /// Where this call's escapers are few: their old enlarged boxes (as `escapers`), and the
    /// blocks of first indices they touch, by which the moving lists copy the rest as they
    /// are (see `untouched.rs`; empty: they do not).
    old_fat: Vec<[f32; 4]>,
    touched: Vec<u64>,
    /// The moving store as the last call left the state matching it (`None`: the state may
    /// not match, or no call did): the escape check then reads only the slots changed since
    /// (see `stamps.rs`).
    seen: Option<Seen>,
    /// Whether this call's escape check listed the slots that changed since the last call
    /// (few of them, see `escape.rs`), and those slots; a bit per
    /// position whose record is still the one its candidates were last decided with (see
    /// `still.rs`; empty: none), and a bit per block of first indices that may hold a
    /// moving candidate of a position not still (empty: not marked).
    listed: bool,
    changed: Vec<u32>,
    still: Vec<u64>,
    busy: Vec<u64>,
    /// Candidates this call left unfiled because their filters do not pair; the CPU time of
    /// its searches, summed over their tasks.
    filtered: usize,
    search_cpu: Duration,
    /// Whether the last answer is exactly the pairs of the candidates flagged
    /// [`HIT`](crate::scene::candidates::HIT): then a call can find its answer from the last one
    /// and the flags that change (see
    /// [`overlapping_pairs`](Self::overlapping_pairs)) rather than by sorting it.
    flagged: bool,
    /// The escapers of this call, ascending; `(key, k)` of each that enters the grid (`k` its
    /// number in `entering`, which holds its slot and new enlarged box, and also the slots
    /// that leave the grid, their boxes NaN and no key theirs), sorted by key once
    /// they are all in (for the repair, and so that the escapers' queries read the grid in its
    /// order). The escape check also counts the
    /// escapers that jumped, and notes one whose new box fits no level.
    escapers: Vec<u32>,
    enter: Vec<(u32, u32)>,
    entering: Vec<(u32, [f32; 4])>,
    /// Per entry of `entering`: the cell it was in (`u32::MAX`: none); the entries that
    /// change cells, `(key, k)` as in `enter`; per index, whether it leaves its place in the
    /// grid (flagged for the repair, all false between calls).
    was_in: Vec<u32>,
    moves: Vec<(u32, u32)>,
    leaving: Vec<bool>,
    /// Where few escapers change cells, the grid positions they leave and those positions'
    /// cells, ascending (see `moves.rs`).
    removed: Vec<(u32, u32)>,
    /// Per escaper, its index and [`MOVED`](follow::MOVED) or [`TAKEN`](follow::TAKEN); per
    /// entry of `enter`, the grid position where it keeps its cell (`u32::MAX`: it moves) and
    /// its index; `flags` groups both by range of indices (see `flags.rs`).
    marks: Vec<(u32, u8)>,
    stays: Vec<(u32, u32)>,
    flags: flags::Flags,
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
    /// Whether the escape check found the boxes of slots the last call held cut (see
    /// `find_escapers`): the grid is then repaired, not edited.
    boxes_cut: bool,
    tasks: Vec<Task>,
    /// The chunks the tasks file their pairs into, and those they write the pairs that
    /// overlap, began and ended into (see `chunks.rs`).
    chunks: Arc<Chunks>,
    answer_chunks: Arc<Chunks>,
    /// Where the tasks of a walk over the candidate lists split each list.
    splits: Splits,
    sort: RadixSort,
    /// The pairs that began and ended, and what the answer is made with.
    answer: Answer,
}

impl Default for Kept {
    fn default() -> Self {
        Self {
            valid: false,
            boxes_only: false,
            crowded: 0,
            built_at: 0,
            short: 0,
            noted_at: 0,
            span: 1,
            len: 0,
            statics: Statics::default(),
            mixed: Lists::default(),
            margin: AUTO_MARGIN,
            rebuild_above: AUTO_REBUILD,
            choice: Choice::default(),
            slot_of: Vec::new(),
            index_of: Vec::new(),
            local: Vec::new(),
            scattered: 0,
            last_changed: usize::MAX,
            copies: Copies::default(),
            top: 0,
            kinds: Vec::new(),
            fat: Vec::new(),
            shifts: Vec::new(),
            call: 0,
            grid: Grid::default(),
            ids: Vec::new(),
            spare_ids: Vec::new(),
            staged: Vec::new(),
            neighbours: Vec::new(),
            splits: Splits::default(),
            candidates: Lists::default(),
            escaped: Vec::new(),
            tags: Vec::new(),
            slot_ids: Vec::new(),
            follow: None,
            follow_mixed: false,
            old_fat: Vec::new(),
            touched: Vec::new(),
            seen: None,
            listed: false,
            changed: Vec::new(),
            still: Vec::new(),
            busy: Vec::new(),
            filtered: 0,
            search_cpu: Duration::ZERO,
            flagged: false,
            escapers: Vec::new(),
            enter: Vec::new(),
            entering: Vec::new(),
            was_in: Vec::new(),
            moves: Vec::new(),
            removed: Vec::new(),
            marks: Vec::new(),
            stays: Vec::new(),
            flags: flags::Flags::default(),
            leaving: Vec::new(),
            jumps: 0,
            unkeyed: false,
            counts: Vec::new(),
            fresh: Vec::new(),
            fresh_records: Vec::new(),
            outside: 0,
            outside_built: 0,
            boxes_cut: false,
            tasks: Vec::new(),
            chunks: Chunks::shared(),
            answer_chunks: Chunks::shared(),
            sort: RadixSort::default(),
            answer: Answer::default(),
        }
    }
}

impl Kept {
    /// The buffers of the events between two whole answers (the finder's searches from
    /// scratch use them too).
    pub(crate) fn events(&mut self) -> &mut Events {
        &mut self.answer.events
    }

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
        self.give_up();
        self.statics.filed = None;
    }

    /// Gives the moving part of the state up (the static shapes stay filed): the next call
    /// rebuilds it.
    fn give_up(&mut self) {
        (self.valid, self.flagged, self.boxes_only, self.crowded) = (false, false, false, 0);
        self.short = 0;
        self.escapers.clear();
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
    /// Returns `false`, giving the state up, when [`Choice`] finds searching from scratch the
    /// cheaper path (`stats.chosen`): the caller then searches from scratch. Returns `false`,
    /// keeping only the enlarged boxes of a sample of the moving shapes (see
    /// [`sampled`](jumps::sampled)), when more than [`JUMPED`](jumps::JUMPED) of them jumped
    /// since the last call (counted on that sample after a search from scratch), the static
    /// shapes are no more than the moving ones, and the rebuild threshold is below 1: the
    /// caller then searches from scratch. The next call that does not rebuilds.
    pub(crate) fn overlapping_pairs(
        &mut self,
        scene: &Scene,
        previous: &[(u32, u32)],
        out: &mut Vec<(u32, u32)>,
        [began, ended]: [&mut Vec<(u32, u32)>; 2],
        stats: &mut KeptStats,
    ) -> bool {
        self.answer.began.clear();
        self.answer.ended.clear();
        self.call = self.call.wrapping_add(1);
        self.filtered = 0;
        let mut events = false;
        let n = scene.moving.len();
        // Set again only where this call leaves the state as the scene has it.
        let seen = self.seen.take();
        if self.choice.next(n) == Path::Scratch {
            stats.chosen = true;
            self.give_up();
            return false;
        }
        let refile = self.statics.filed != Some(scene.static_epoch);
        // Too many shapes jumped, since the last kept call or the last search from scratch:
        // the caller searches from scratch (with a level of many static shapes, following the
        // jumps stays cheaper than filing the level again).
        let may_jump = !refile && scene.static_len() <= n && self.rebuild_above < 1.0;
        // A sample that escaped more than the rebuild threshold would make this call rebuild,
        // which costs more than a search from scratch.
        let above = self.rebuild_above;
        let rush = |(jumps, escaped, of): (usize, usize, usize)| {
            Self::too_many_jumped(jumps, of) || escaped as f32 > above * of as f32
        };
        let mut sampled = self.boxes_only && may_jump;
        if sampled {
            // A sample noted after short-lived states decides once it spans as many calls as
            // they lived: one call's motion leaves fresh boxes too little to tell.
            if self.call.wrapping_sub(self.noted_at) < self.span {
                return false;
            }
            if rush(self.enlarge_sample(scene, true)) {
                self.noted(n);
                return false;
            }
        }
        // After two calls in a row that too many escapers made rebuild (the escape check
        // stops early and counts no jumps), the sample says whether they jumped or would
        // make this call rebuild again: frames in which every shape teleports, or moves its
        // own size, would otherwise rebuild every call, at about twice a search from scratch.
        // (After one, a single fast frame or a finder switching scenes would search from
        // scratch and then rebuild anyway.)
        let crowded = core::mem::take(&mut self.crowded);
        let crowded_sample = self.valid && crowded >= 2 && may_jump;
        sampled |= crowded_sample;
        if crowded_sample && rush(self.enlarge_sample(scene, false)) {
            self.note_boxes(scene, 1);
            return false;
        }
        self.boxes_only = false;
        let checked = self.valid;
        // Which slots changed since the last call, where the store's stamps tell (no sample
        // of enlarged boxes in this call rewrote some of them).
        let since = seen
            .and_then(|s| s.since(&scene.moving.stamps))
            .filter(|_| !sampled);
        let incremental = checked && self.find_escapers(scene, since);
        // The escape check counted the escapers that jumped.
        if incremental && may_jump && Self::too_many_jumped(self.jumps, n) {
            self.note_boxes(scene, 1);
            return false;
        }
        if refile {
            self.statics.file(scene);
        }
        if incremental {
            stats.escaped = self.escapers.len();
            let before = self.top as u32;
            self.number_new(n);
            let written = core::mem::take(&mut self.scattered);
            self.follow = None;
            if !self.gather_and_move(scene, written) {
                self.rebuild(scene, stats);
            } else {
                stats.build += stats.laps.lap();
                if !self.escapers.is_empty() {
                    self.follow_moves(scene, !refile, before);
                }
                if refile {
                    self.all_mixed(scene);
                }
                stats.search += stats.laps.lap();
                events = self.flagged && !refile;
            }
        } else {
            // Too many escaped. Twice in a row within SHORT_LIFE calls of a rebuild: the
            // shapes outrun their enlarged boxes, and rebuilding every second call costs more
            // than searching from scratch until the sample says they slowed down.
            let short = checked && self.call.wrapping_sub(self.built_at) <= SHORT_LIFE;
            self.short = if short {
                self.short.saturating_add(1)
            } else {
                0
            };
            if self.short >= 2 && may_jump {
                self.note_boxes(scene, SHORT_LIFE);
                return false;
            }
            stats.escaped = n;
            self.follow = None;
            self.rebuild(scene, stats);
            self.crowded = if checked {
                crowded.saturating_add(1)
            } else {
                0
            };
        }
        stats.cpu_search += core::mem::take(&mut self.search_cpu);
        let events = events && scene.unbounded() == 0;
        // Which shapes are as the last call decided their candidates with, where the answer
        // follows from the flags; then the neighbours' records that changed since the last
        // call (all after a refile).
        self.mark_still(events);
        self.statics.copy_into(&mut self.neighbours, 0, true);
        // The kernels, the lists following the escapers' moves on the way (their slots'
        // flags and last ids still as the escape check left them), but for the candidates
        // of two still shapes. They write `out` whole, or with `events` leave it for the
        // events to be applied over: left as the caller gave it (most often the answer
        // before last), it is written over rather than filled first on this thread.
        self.decide_lists(scene, out, stats, events);
        self.follow = None;
        if !events {
            self.settle_escapers(scene);
            self.tidy(scene, n);
            if scene.unbounded() > 0 {
                self.add_unbounded(scene, out, stats);
            }
        }
        stats.merged = events;
        stats.filtered += self.filtered;
        stats.decide += stats.laps.lap();
        if events {
            // The answer beside the escapers' settling, which writes other arrays: its sorts,
            // cancelling and merge are short passes over every thread, and so is the
            // settling.
            let mut answer = core::mem::take(&mut self.answer);
            crate::awake::join(
                || answer.merge_events(previous, out, [began, ended], stats),
                || self.settle_escapers(scene),
            );
            self.answer = answer;
            self.tidy(scene, n);
        } else {
            (self.answer).sort_whole(&mut self.sort, previous, out, [began, ended], stats);
        }
        true
    }

    /// The state a call leaves for the next, once its `n` moving slots' escapers are
    /// settled.
    fn tidy(&mut self, scene: &Scene, n: usize) {
        self.fat.truncate(n);
        self.shifts.truncate(n);
        self.top = self.local.len();
        self.escaped.truncate(self.top);
        self.tags.truncate(n);
        self.slot_ids.truncate(n);
        self.len = n;
        self.valid = true;
        self.seen = Some(Seen::of(&scene.moving.stamps));
        self.flagged = scene.unbounded() == 0;
    }

    /// After a search from scratch: the sampled moving slots' enlarged boxes, for the call
    /// `span` calls on to count the shapes that jumped or left them (the calls before it
    /// search from scratch); the rest of the state is given up (the next call that does not
    /// search from scratch rebuilds).
    fn note_boxes(&mut self, scene: &Scene, span: u32) {
        self.enlarge_sample(scene, true);
        self.noted(scene.moving.len());
        self.span = span;
    }

    /// The state given up but the `n` moving slots' enlarged boxes, just computed.
    fn noted(&mut self, n: usize) {
        (self.len, self.noted_at) = (n, self.call);
        (self.valid, self.flagged, self.boxes_only) = (false, false, true);
        self.escapers.clear();
    }
}

//! [`PairFinder`]: the frame driver. `overlapping_pairs` keeps its state from call to call
//! (see `kept/`); `pairs_with` and `index` build the grid over a scene's boxes, place the
//! shapes' records in cell order, run the search and the narrow phase in jobs on rayon's
//! threads, and sort the answer. Every call reports its phases in [`FrameStats`].

use super::chunks::{Chunks, concat_chunked, room_for_lists};
use super::contacts::ContactScratch;
use super::job::Job;
use super::kept::{Kept, KeptStats, Path};
use super::pack::Shared;
use super::packed::Store;
use super::radix::RadixSort;
use super::records::{Record, UNBOUNDED};
use super::sort::keep_answer;
use super::stats::{FrameStats, Laps, share};
use super::{SIDE, Scene};
use crate::broadphase::counting_sort::Staged;
use crate::broadphase::grid::Grid;
use crate::concat::concat_pieces;
use crate::shape::Contact;
use crate::tasks::{fine_tasks_of, on_pool, on_pool_kept};
use rayon::prelude::*;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Shapes below which the search is one job (waking a sleeping worker costs tens of µs);
/// above, jobs of a sixteenth of that at the least (see `plan_jobs`).
const MIN_JOB: usize = 16 * 1024;

/// The pair search, kept from frame to frame.
///
/// A kept finder remembers, for [`overlapping_pairs`](Self::overlapping_pairs), each moving
/// shape's enlarged box (its padded bounding box grown by a margin, by default three tenths of
/// the box's larger side on each side, and moved ahead by up to the margin the way the shape
/// left its last one, so that a shape that keeps its course crosses the whole box before it
/// leaves it, unless it is going to and fro; see [`with_margin`](Self::with_margin)), a grid
/// over those boxes, the sorted candidate pairs whose enlarged boxes overlap (and whose filters
/// pair), and what it filed of
/// the static shapes (their own grid, and a copy of each static shape near a moving one). Each
/// call checks, in one streaming pass, that every moving shape's box still lies inside its
/// enlarged box; only those that left it are moved in the grid and queried again, and the
/// kernels decide the candidates in order, so a simulation's frame pays for what moved, not
/// for the whole scene, and static shapes cost nothing until a moving shape comes near. The
/// answer is exact whatever happened between calls (any moves, teleports, kind changes,
/// `push`, `remove`, filter changes, `clear`, or another scene handed to the same finder):
/// the check covers every moving shape every call, and a change of the static shapes makes it
/// file them anew. When more than a quarter of the moving shapes escaped (see
/// [`with_rebuild_threshold`](Self::with_rebuild_threshold)), or on the first call, it
/// rebuilds the moving part. When more than a twentieth of the moving shapes jumped (left
/// their enlarged box for a box that does not overlap it: teleports, respawns) in a scene
/// with no more static shapes than moving ones, following them would cost more than a search
/// from scratch, and the call is one (as
/// [`overlapping_pairs_from_scratch`](Self::overlapping_pairs_from_scratch), `began` and
/// `ended` as always); so is a call after two rebuilds in a row for escapers when a sample
/// of the shapes shows more than the rebuild threshold escaping again (shapes moving their own
/// size every frame, which leave their boxes without jumping), and a call that too many
/// escapers would make rebuild a state that lived two calls or fewer, for the second time in
/// a row (shapes that outrun their enlarged boxes every second call; the sample then decides
/// every second call). The first call after the jumps or the rush stop rebuilds. From 2¹⁷
/// moving shapes (2¹⁶ on eight threads or more) it also times its calls (its first calls
/// search from scratch): where following the kept state cost over 6 % more than a search
/// from scratch (a million shapes on one or two cores of some machines), it searches from
/// scratch in runs of up to 1024 calls and tries the kept path again between them
/// ([`FrameStats::chosen`], [`with_choice`](Self::with_choice)). Unbounded shapes (infinite
/// bounds or beyond ±2⁶⁰) stay out of the grids and are tested against every shape every
/// call.
///
/// It also keeps its last answer, and reports which pairs [`began`](Self::began) and
/// [`ended`](Self::ended) with each call.
///
/// Keep one across frames: a steady frame loop allocates nothing once its buffers have grown.
/// (Called from outside rayon's pool, each call hands the pool its frame as one job through
/// rayon's global queue, which allocates a block of job slots for every 63 jobs queued.)
///
/// ```
/// use widephase::{Circle, PairFinder, Scene};
/// let mut scene: Scene = (0..100).map(|i| Circle::new(i as f32, 0.0, 0.6)).collect();
/// let mut finder = PairFinder::new();
/// let mut pairs = Vec::new();
/// for frame in 0..3 {
///     for id in 0..100 {
///         scene.set(id, Circle::new(id as f32 + frame as f32 * 0.1, 0.0, 0.6));
///     }
///     finder.overlapping_pairs(&scene, &mut pairs);
///     assert_eq!(pairs.len(), 99); // each circle touches its neighbours
/// }
/// assert_eq!(finder.stats().pairs, 99);
/// ```
#[derive(Debug, Default)]
pub struct PairFinder {
    /// Both scenes' boxes, for `pairs_with`.
    boxes: Vec<[f32; 4]>,
    pub(crate) grid: Grid,
    /// Input indices of the unbounded shapes.
    pub(crate) unbounded: Vec<u32>,
    /// Per position: the records in the grid's order, then the unbounded shapes, then one inert
    /// sentinel that pads partial lane blocks.
    pub(crate) sorted: Vec<Record>,
    /// Scratch of the grid's two-pass sort.
    staged: Vec<Staged<Record>>,
    jobs: Vec<Job>,
    /// The chunks the jobs write their answers into (see `chunks.rs`), made at the first
    /// search from scratch.
    job_chunks: Option<Arc<Chunks>>,
    sort: RadixSort,
    stats: FrameStats,
    /// The coherent state of `overlapping_pairs`.
    pub(crate) kept: Kept,
    /// The pairs of the last `contacts` call, and its scratch.
    contact_pairs: Vec<(u32, u32)>,
    contact_scratch: ContactScratch,
    /// The pairs without a sensor, when the scene has sensors.
    solid_pairs: Vec<(u32, u32)>,
    /// The answer of the last kept call, and the pairs that began and ended with it.
    previous: Vec<(u32, u32)>,
    began: Vec<(u32, u32)>,
    ended: Vec<(u32, u32)>,
    /// Whether the pool's threads may sleep between a call's passes
    /// ([`with_spinning`](Self::with_spinning)`(false)`).
    pub(crate) let_sleep: bool,
}

impl PairFinder {
    /// Empty scratch.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Forgets what the last call of [`overlapping_pairs`](Self::overlapping_pairs)
    /// recorded, keeping the buffers: the next call rebuilds from scratch and reports every
    /// pair as [`began`](Self::began). Never needed for the answer (every call checks every
    /// shape), only to measure, to choose when to pay, or to start a new stream of events.
    pub fn forget(&mut self) {
        self.kept.invalidate();
        self.previous.clear();
    }

    /// The pairs of the last [`overlapping_pairs`](Self::overlapping_pairs) (or
    /// [`contacts`](Self::contacts)) answer that were not in the answer before it, sorted like
    /// the answer. Every pair on the first call and the first after [`forget`](Self::forget).
    ///
    /// The two calls share one stream of answers; pairs are compared by id, so a pair whose
    /// shape was removed and whose id was pushed again between two calls, overlapping the same
    /// partner, continues (neither ends nor begins).
    ///
    /// ```
    /// use widephase::{Circle, PairFinder, Scene};
    /// let mut scene = Scene::new();
    /// let zone = scene.push_static(Circle::new(0.0, 0.0, 1.0));
    /// let player = scene.push(Circle::new(-3.0, 0.0, 0.5));
    /// let mut finder = PairFinder::new();
    /// let mut pairs = Vec::new();
    /// finder.overlapping_pairs(&scene, &mut pairs);
    /// assert!(finder.began().is_empty() && finder.ended().is_empty());
    ///
    /// scene.set(player, Circle::new(-1.0, 0.0, 0.5)); // walks in
    /// finder.overlapping_pairs(&scene, &mut pairs);
    /// assert_eq!(finder.began(), [(zone, player)]);
    ///
    /// scene.remove(player); // despawns inside the zone
    /// finder.overlapping_pairs(&scene, &mut pairs);
    /// assert_eq!(finder.ended(), [(zone, player)]);
    /// assert!(pairs.is_empty());
    /// ```
    #[must_use]
    pub fn began(&self) -> &[(u32, u32)] {
        &self.began
    }

    /// The pairs of the answer before the last [`overlapping_pairs`](Self::overlapping_pairs)
    /// (or [`contacts`](Self::contacts)) call that are not in its answer (they separated, a
    /// shape was removed, or a filter changed), sorted like the answer. See
    /// [`began`](Self::began).
    #[must_use]
    pub fn ended(&self) -> &[(u32, u32)] {
        &self.ended
    }

    /// [`Scene::overlapping_pairs`] into `out` (cleared first), keeping what it can from the
    /// last call (see [`PairFinder`]).
    ///
    /// Called from outside rayon's pool over 8 k shapes (16 k on one thread), it hands the pool
    /// the whole frame once, as do `contacts` and `manifolds`; the searches from scratch and
    /// [`index`](Self::index) from 16 k. Smaller calls run on the calling thread. From those
    /// sizes the pool's other threads look for work until the call returns
    /// ([`with_spinning`](Self::with_spinning)).
    pub fn overlapping_pairs(&mut self, scene: &Scene, out: &mut Vec<(u32, u32)>) {
        on_pool_kept(scene.len(), !self.let_sleep, || self.kept_frame(scene, out));
    }

    /// `overlapping_pairs` on one of rayon's threads.
    fn kept_frame(&mut self, scene: &Scene, out: &mut Vec<(u32, u32)>) {
        let (start, mut kept) = (Instant::now(), KeptStats::default());
        let events = [&mut self.began, &mut self.ended];
        let followed = self
            .kept
            .overlapping_pairs(scene, &self.previous, out, events, &mut kept);
        let path = if kept.chosen {
            Path::Scratch
        } else {
            Path::Kept
        };
        if !followed {
            // Too many shapes jumped, or searching from scratch is the cheaper path.
            let mut laps = kept.laps;
            self.run(&[scene], scene.cell_size, out, &mut laps);
            let (began, ended) = (&mut self.began, &mut self.ended);
            self.kept
                .events()
                .between(&self.previous, out, began, ended);
            keep_answer(&mut self.previous, out, [&self.began, &self.ended]);
            self.stats.began = self.began.len();
            self.stats.ended = self.ended.len();
            self.stats.events = laps.lap();
            self.stats.static_copies = self.kept.static_copies();
            self.stats.chosen = kept.chosen;
            let moving = scene.moving.len();
            self.kept.choice.record(moving, path, start.elapsed());
            return;
        }
        keep_answer(&mut self.previous, out, [&self.began, &self.ended]);
        let grid = self.kept.grid();
        let [pack, kernels] = share(kept.decide, [kept.cpu_pack, kept.cpu_kernels]);
        self.stats = FrameStats {
            shapes: scene.len(),
            statics: scene.static_len(),
            invalid: scene.invalid(),
            unbounded: scene.unbounded(),
            levels: grid.levels(),
            large: grid.coarse(),
            cells: grid.cells(),
            cell_size: grid.cell_size(),
            candidates: kept.candidates,
            still: kept.still,
            apart: kept.apart,
            filtered: kept.filtered,
            pairs: out.len(),
            build: kept.build,
            search: kept.search,
            pack,
            kernels,
            cpu_search: kept.cpu_search,
            cpu_pack: kept.cpu_pack,
            cpu_kernels: kept.cpu_kernels,
            sort: kept.sort,
            rebuilt: kept.rebuilt,
            escaped: kept.escaped,
            contacts: Duration::ZERO,
            began: self.began.len(),
            ended: self.ended.len(),
            events: kept.events + kept.laps.lap(),
            merged: kept.merged,
            static_copies: self.kept.static_copies(),
            chosen: false,
        };
        let moving = scene.moving.len();
        self.kept.choice.record(moving, path, start.elapsed());
    }

    /// The pairs of [`overlapping_pairs`](Self::overlapping_pairs) but those with a sensor
    /// ([`Scene::push_sensor`](crate::Scene::push_sensor)), in the same order, each with its
    /// [`Contact`] into `out` (cleared first): `(a, b, contact)`, the normal pointing from
    /// shape `a` towards shape `b`, exactly what
    /// [`contact_reference`](mod@crate::contact_reference) answers for the two shapes in that
    /// order. Keeps what it can from call to call, like `overlapping_pairs`; the time spent on
    /// the contacts is [`FrameStats::contacts`].
    ///
    /// ```
    /// use widephase::{Aabb, Circle, PairFinder, Scene};
    /// let mut scene = Scene::new();
    /// let floor = scene.push(Aabb::new(-10.0, -1.0, 10.0, 0.0));
    /// let ball = scene.push(Circle::new(0.0, 0.8, 1.0));
    /// let mut finder = PairFinder::new();
    /// let mut contacts = Vec::new();
    /// finder.contacts(&scene, &mut contacts);
    /// let (a, b, c) = contacts[0];
    /// assert_eq!((a, b), (floor, ball));
    /// assert_eq!(c.normal, [0.0, 1.0]); // from the floor up to the ball
    /// assert!((c.depth - 0.2).abs() < 1e-6);
    /// ```
    pub fn contacts(&mut self, scene: &Scene, out: &mut Vec<(u32, u32, Contact)>) {
        on_pool_kept(scene.len(), !self.let_sleep, || {
            self.with_pairs(Self::kept_frame, scene, |f, p| f.contacts_of(scene, p, out));
        });
    }

    /// [`contacts`](Self::contacts) over the pairs of
    /// [`overlapping_pairs_from_scratch`](Self::overlapping_pairs_from_scratch), leaving the
    /// kept state alone.
    pub fn contacts_from_scratch(&mut self, scene: &Scene, out: &mut Vec<(u32, u32, Contact)>) {
        on_pool(scene.len(), !self.let_sleep, || {
            self.with_pairs(Self::overlapping_pairs_from_scratch, scene, |f, p| {
                f.contacts_of(scene, p, out)
            });
        });
    }

    /// `then` over the pairs `pairs_of` finds in `scene`, held in the finder's buffer for them.
    fn with_pairs(
        &mut self,
        pairs_of: fn(&mut Self, &Scene, &mut Vec<(u32, u32)>),
        scene: &Scene,
        then: impl FnOnce(&mut Self, &[(u32, u32)]),
    ) {
        let mut pairs = core::mem::take(&mut self.contact_pairs);
        pairs_of(self, scene, &mut pairs);
        then(self, &pairs);
        self.contact_pairs = pairs;
    }

    /// The pairs of [`overlapping_pairs`](Self::overlapping_pairs) but those with a sensor
    /// ([`Scene::push_sensor`](crate::Scene::push_sensor)), in the same order, each with its
    /// [`Manifold`](crate::Manifold) into `out` (cleared first): `(a, b, manifold)`, exactly
    /// what [`manifold_reference`](mod@crate::manifold_reference) answers for the two shapes in
    /// that order. Keeps what it can from call to call and shares the `began`/`ended` stream of
    /// `overlapping_pairs` and `contacts`; the time spent on the manifolds is
    /// [`FrameStats::contacts`].
    ///
    /// ```
    /// use widephase::{Aabb, PairFinder, Scene};
    /// let mut scene = Scene::new();
    /// let floor = scene.push_static(Aabb::new(-10.0, -1.0, 10.0, 0.0));
    /// let crate_ = scene.push(Aabb::new(-0.5, -0.1, 0.5, 0.9));
    /// let mut finder = PairFinder::new();
    /// let mut manifolds = Vec::new();
    /// finder.manifolds(&scene, &mut manifolds);
    /// let (a, b, m) = manifolds[0];
    /// assert_eq!((a, b, m.normal, m.count), (floor, crate_, [0.0, 1.0], 2));
    /// ```
    pub fn manifolds(&mut self, scene: &Scene, out: &mut Vec<(u32, u32, crate::Manifold)>) {
        on_pool_kept(scene.len(), !self.let_sleep, || {
            self.with_pairs(Self::kept_frame, scene, |f, p| {
                f.manifolds_of(scene, p, out)
            });
        });
    }

    /// The manifolds of `pairs` (overlapping pairs of `scene`) into `out`, timed as
    /// [`FrameStats::contacts`].
    pub(crate) fn manifolds_of(
        &mut self,
        scene: &Scene,
        pairs: &[(u32, u32)],
        out: &mut Vec<(u32, u32, crate::Manifold)>,
    ) {
        let start = Instant::now();
        let pairs = solid(scene, pairs, &mut self.solid_pairs);
        self.contact_scratch
            .manifolds(scene, &self.grid, pairs, out);
        self.stats.contacts = start.elapsed();
    }

    fn contacts_of(
        &mut self,
        scene: &Scene,
        pairs: &[(u32, u32)],
        out: &mut Vec<(u32, u32, Contact)>,
    ) {
        let start = Instant::now();
        let pairs = solid(scene, pairs, &mut self.solid_pairs);
        self.contact_scratch.compute(scene, &self.grid, pairs, out);
        self.stats.contacts = start.elapsed();
    }

    /// [`Scene::pairs_with`] into `out` (cleared first), reusing this scratch.
    pub fn pairs_with(&mut self, scene: &Scene, other: &Scene, out: &mut Vec<(u32, u32)>) {
        on_pool(scene.len() + other.len(), !self.let_sleep, || {
            self.run(&[scene, other], scene.cell_size, out, &mut Laps::default());
        });
    }

    /// [`Scene::overlapping_pairs`] into `out` (cleared first), searched from scratch: the grid
    /// over the shapes' padded boxes, the records copied into cell order while the grid sorts
    /// them, the candidates decided as they are found. It keeps nothing from call to call but
    /// its buffers, and it neither reads nor changes what
    /// [`overlapping_pairs`](Self::overlapping_pairs) keeps, so the two can be mixed on one
    /// finder.
    ///
    /// The right call when most shapes jump farther than their own size between calls
    /// (respawned particles, a scene rebuilt every call) or for a single search: it skips the
    /// enlarged boxes and kept candidates that would be thrown away. For a scene that moves a
    /// little each frame, `overlapping_pairs` is faster (see the README's frames table).
    ///
    /// ```
    /// use widephase::{Circle, PairFinder, Scene};
    /// let scene: Scene = (0..100).map(|i| Circle::new(i as f32, 0.0, 0.6)).collect();
    /// let mut finder = PairFinder::new();
    /// let (mut fresh, mut kept) = (Vec::new(), Vec::new());
    /// finder.overlapping_pairs_from_scratch(&scene, &mut fresh);
    /// assert!(finder.stats().rebuilt);
    /// finder.overlapping_pairs(&scene, &mut kept);
    /// assert_eq!(fresh, kept);
    /// assert_eq!(fresh.len(), 99);
    /// ```
    pub fn overlapping_pairs_from_scratch(&mut self, scene: &Scene, out: &mut Vec<(u32, u32)>) {
        on_pool(scene.len(), !self.let_sleep, || {
            self.run(&[scene], scene.cell_size, out, &mut Laps::default());
        });
    }

    /// What the last frame did.
    #[must_use]
    pub fn stats(&self) -> &FrameStats {
        &self.stats
    }

    /// A search from scratch of `sides` (one scene, or two for `pairs_with`) into `out`, its
    /// phases read off `laps`.
    fn run(
        &mut self,
        sides: &[&Scene],
        cell_size: Option<f32>,
        out: &mut Vec<(u32, u32)>,
        laps: &mut Laps,
    ) {
        let cross = sides.len() == 2;
        let mut stats = FrameStats {
            shapes: sides.iter().map(|s| s.len()).sum(),
            statics: sides.iter().map(|s| s.static_len()).sum(),
            invalid: sides.iter().map(|s| s.invalid()).sum(),
            unbounded: sides.iter().map(|s| s.unbounded()).sum(),
            ..FrameStats::default()
        };
        let sentinel = self.build(sides, cell_size);
        stats.build = laps.lap();
        stats.levels = self.grid.levels();
        stats.large = self.grid.coarse();
        stats.cells = self.grid.cells();
        stats.cell_size = self.grid.cell_size();

        self.plan_jobs();
        let shared = Shared::new(
            &self.grid,
            &self.sorted[..=sentinel],
            [sides[0], sides[sides.len() - 1]],
            self.unbounded.len(),
            cross,
        );
        let pool = self.job_chunks.get_or_insert_with(Chunks::shared);
        crate::awake::for_each(self.jobs.par_iter_mut(), |job| job.run(&shared, pool));
        let jobs = laps.lap();

        // The jobs' answers one after another, copied in parallel (a copy on this thread was
        // the longest serial pass of a 1 M-shape search: 637 k pairs).
        concat_chunked([out], &self.jobs, &|job, _| [&job.narrow.pairs]);
        // The jobs' chunks back, and room for a busier search (a job's share of the pairs
        // moves from frame to frame with its cells: each job's answer, with room for the
        // busiest job's, grew every job's as one met a busier share than any before).
        let used = self.jobs.len();
        room_for_lists(&mut self.jobs, used, pool, |job| [&mut job.narrow.pairs]);
        for job in &self.jobs {
            let narrow = &job.narrow;
            stats.candidates += narrow.candidates;
            stats.filtered += narrow.filtered;
            stats.cpu_search += job.search_time;
            stats.cpu_pack += narrow.pack_time;
            stats.cpu_kernels += narrow.kernel_time;
        }
        [stats.search, stats.pack, stats.kernels] =
            share(jobs, [stats.cpu_search, stats.cpu_pack, stats.cpu_kernels]);
        self.sort.sort(out);
        stats.sort = laps.lap();
        stats.pairs = out.len();
        (stats.rebuilt, stats.escaped) = (true, stats.shapes);
        self.stats = stats;
    }

    /// Builds the grid over the scenes' shapes and copies their records into cell order,
    /// then the unbounded shapes, then the inert sentinel; returns the sentinel's position.
    /// The input order is each scene's moving store, then its static store, scene by scene.
    pub(crate) fn build(&mut self, sides: &[&Scene], cell_size: Option<f32>) -> usize {
        // The stores in input order, with the side bit of their ids.
        let mut stores: [(&Store, u32); 4] = [(&sides[0].moving, 0); 4];
        for (k, scene) in sides.iter().enumerate() {
            let side = if k == 0 { 0 } else { SIDE };
            stores[2 * k] = (&scene.moving, side);
            stores[2 * k + 1] = (&scene.statics, side);
        }
        let stores = &stores[..2 * sides.len()];
        let total: usize = stores.iter().map(|(s, _)| s.len()).sum();
        let boxes = if total == stores[0].0.len() {
            &stores[0].0.boxes[..]
        } else {
            concat_pieces(&mut self.boxes, stores, &|(s, _)| &s.boxes[..]);
            &self.boxes[..]
        };
        let record = |i: u32| -> Record {
            let mut i = i as usize;
            for &(store, side) in stores {
                if i < store.len() {
                    let r = store.records[i];
                    return Record {
                        id: r.id | side,
                        ..r
                    };
                }
                i -= store.len();
            }
            unreachable!("an input index names a shape")
        };
        // Room for every shape and the sentinel; the grid places the entered ones in cell order.
        if self.sorted.len() < boxes.len() + 1 {
            self.sorted.resize(boxes.len() + 1, Record::INERT);
        }
        self.grid.build(
            boxes,
            cell_size,
            record,
            &mut self.staged,
            &mut self.sorted[..],
        );
        // The unbounded shapes after the grid's, then the sentinel.
        self.unbounded.clear();
        let mut offset = 0;
        for (store, _) in stores {
            if store.unbounded > 0 {
                self.unbounded.extend(
                    (0..store.len() as u32)
                        .filter(|&i| store.records[i as usize].kind & UNBOUNDED != 0)
                        .map(|i| i + offset),
                );
            }
            offset += store.len() as u32;
        }
        let entered = self.grid.len();
        for (k, &i) in self.unbounded.iter().enumerate() {
            self.sorted[entered + k] = record(i);
        }
        let sentinel = entered + self.unbounded.len();
        self.sorted[sentinel] = Record::INERT;
        sentinel
    }

    /// Splits the grid positions (in shares of about equal work, see `Grid::shares`) and the
    /// unbounded shapes into jobs: one job on one thread, from [`MIN_JOB`] up to four per
    /// thread, eight on more than four threads, none much below 1 k positions
    /// ([`fine_tasks_of`]). At a sixteen-way split of a 100 k search (measured on one core,
    /// each fork's halves timed) the 16 jobs of 4 k positions and more waited 226–254 µs
    /// for the slowest, 96 jobs 62–65, their work 5 % more; the frame's longest chain of
    /// work went from 529–674 to 370–391 µs (721–850 to 582–602 with 5 µs added to every
    /// fork for the steal); at 1 M (64 jobs against 128) from 1.91 to 1.70 ms with the 5 µs.
    fn plan_jobs(&mut self) {
        let work = self.grid.len() + self.unbounded.len() * 64;
        let want = fine_tasks_of(work, MIN_JOB, MIN_JOB / 16);
        if self.jobs.len() < want {
            self.jobs.resize_with(want, Job::default);
        }
        self.jobs.truncate(want);
        let (shares, unbounded) = (self.grid.shares(want), self.unbounded.len());
        let split = |k: usize| unbounded * k / want;
        for (k, (job, share)) in self.jobs.iter_mut().zip(shares).enumerate() {
            (job.positions, job.unbounded) = (share, split(k)..split(k + 1));
        }
    }
}

/// `pairs` without those with a sensor (`scratch` holds them when the scene has sensors):
/// sensors get no contacts or manifolds.
fn solid<'a>(
    scene: &Scene,
    pairs: &'a [(u32, u32)],
    scratch: &'a mut Vec<(u32, u32)>,
) -> &'a [(u32, u32)] {
    if !scene.filters.sensors() {
        return pairs;
    }
    scratch.clear();
    scratch.extend(
        pairs
            .iter()
            .filter(|&&(a, b)| !scene.is_sensor(a) && !scene.is_sensor(b)),
    );
    scratch
}

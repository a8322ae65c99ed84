//! What one run of the world fuzzer does, drawn from its seed: the scene's size and crowding,
//! the finder's settings, the grid's cell size, the thread count and the motion.

use crate::model::{Entry, FILTERS};
use crate::shapes::{Gen, moved, unit_hash};
use widephase::{Aabb, Capsule, Circle, Filter, Obb, PairFinder, Shape};

/// What one run does, drawn from its seed.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Plan {
    pub(crate) moving: usize,
    pub(crate) statics: usize,
    pub(crate) side: f32,
    pub(crate) frames: u32,
    /// A share of each shape's half extent per frame.
    pub(crate) speed: f32,
    /// The share of the moving shapes that jump anywhere each frame (1: every one teleports).
    pub(crate) jumps: f32,
    /// Random operations per frame, at most.
    pub(crate) ops: usize,
    /// Filters other than `Filter::ALL`, unbounded shapes, invalid ones.
    pub(crate) layered: bool,
    pub(crate) unbounded: bool,
    pub(crate) invalid: bool,
    /// A few unbounded shapes in all, pushed by a run at scale (where `unbounded` is off).
    pub(crate) unbounded_few: bool,
    /// `PairFinder::with_margin` and `with_rebuild_threshold`, where set.
    pub(crate) margin: Option<f32>,
    pub(crate) rebuild: Option<f32>,
    pub(crate) threads: usize,
    /// `Scene::with_cell_size`, where set.
    pub(crate) cell: Option<f32>,
    /// Awkward scales and places: see [`Scale`].
    pub(crate) scale: Scale,
    /// The share of the moving shapes that change at all in a frame (drawn anew each frame):
    /// 1, or so few that a kept finder's escapers are under a thousandth of its shapes (the
    /// lists then copy the blocks of candidates the escapers leave untouched) and, in a frame
    /// of few operations, its changed shapes under a 512th (the kernels pass over the blocks
    /// that hold no candidate of theirs). Those few move at least 0.4 of their half extent.
    pub(crate) stirring: f32,
    /// Whether new shapes may be convex polygons (always, but in half the worlds at rest).
    pub(crate) polygons: bool,
}

/// How a plan's shapes are sized and placed beyond the ordinary.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Scale {
    Ordinary,
    /// Now and then a shape as large as the whole square or larger (a level's floor, a
    /// trigger over the whole map), among the ordinary ones.
    Huge,
    /// The square far from the origin (where a float's step is a good part of a shape), and
    /// shapes that jump land near the origin: a world spread over a million units.
    Far(f32),
    /// A few percent of the shapes parked on a far point (a game's despawned objects waiting
    /// there): the grid must not stretch over the empty space between.
    Parked,
    /// Every shape on one of a few points: everything overlaps everything near it.
    Stacked,
    /// Some shapes of no size: circles of radius 0, boxes of no width or height, capsules of
    /// no length and radius.
    Degenerate,
}

/// The thread counts a run draws from where `--threads` does not name others. Three and
/// sixteen split the passes as a larger machine does (sorts from 4 k pairs, more and smaller
/// tasks), which one and two threads never do.
pub(crate) const THREADS: [usize; 4] = [1, 2, 3, 16];

impl Plan {
    /// A run's plan, its thread count one of `threads` (not empty).
    pub(crate) fn draw(g: &mut Gen, threads: &[usize]) -> Self {
        let moving = [40, 400, 2500, 5000][g.index(4)] + g.index(200);
        let statics = match g.index(4) {
            0 => 0,
            1 => moving / 4,
            2 => moving,
            _ => 2 * moving,
        };
        // About 0.1 to 0.6 of the square covered (shapes of area ~2).
        let cover = [0.1, 0.3, 0.6][g.index(3)];
        let side = ((moving + statics) as f32 * 2.0 / cover).sqrt();
        let (speed, jumps) = match g.index(6) {
            0 => (0.02, 0.0),
            1 => (0.1, 0.0),
            2 => (0.5, 0.0),
            3 => (0.05, 0.02),
            4 => (0.05, 0.15),
            _ => (0.05, 1.0),
        };
        let mut plan = Self {
            moving,
            statics,
            side,
            frames: 12 + g.index(60) as u32,
            speed,
            jumps,
            ops: [0, 4, 24][g.index(3)],
            layered: g.index(2) == 0,
            unbounded: g.index(4) == 0,
            invalid: g.index(2) == 0,
            unbounded_few: false,
            margin: [None, None, None, Some(0.0), Some(0.05), Some(2.0)][g.index(6)],
            rebuild: [None, None, None, Some(0.0), Some(0.02), Some(1.0)][g.index(6)],
            threads: threads[g.index(threads.len())],
            cell: [None, None, None, Some(0.25), Some(3.0), Some(40.0)][g.index(6)],
            // Drawn last, so that the draws before it are those of earlier versions.
            scale: match g.index(8) {
                0 => Scale::Huge,
                1 => Scale::Far([1.0e4, -3.0e5, 1.0e6][g.index(3)]),
                // Stacks of a few hundred each: the model's brute force stays quick.
                2 if moving + statics <= 1500 => Scale::Stacked,
                3 => Scale::Degenerate,
                4 => Scale::Parked,
                _ => Scale::Ordinary,
            },
            stirring: [1.0, 1.0, 1.0, 0.0004][g.index(4)],
            polygons: true,
        };
        // A moving polygon counts as changed in every frame (its vertices change under its
        // record): half the worlds at rest have none. (Drawn after the others, as `scale`.)
        plan.polygons = plan.stirring == 1.0 || g.index(2) == 0;
        plan
    }

    /// A plan at the sizes where a kept frame's passes split over the threads (20 k to 300 k
    /// moving shapes, more operations a frame, fewer frames): [`draw`](Self::draw)'s plan
    /// grown to that size over a square as crowded, without the scales that make the pairs
    /// grow with the square of the shapes (stacks, shapes as large as the square, and the
    /// parked fortieth of the shapes, all on one spot: 32 M pairs at 600 k shapes).
    pub(crate) fn draw_large(g: &mut Gen, threads: &[usize]) -> Self {
        let mut plan = Self::draw(g, threads);
        let (moving, before) = (plan.moving, (plan.moving + plan.statics) as f32);
        plan.moving = [20_000, 70_000, 150_000, 300_000][g.index(4)] + g.index(5_000);
        // As many static shapes to each moving one as the small plan had.
        plan.statics = plan.statics * plan.moving / moving;
        // As crowded as the small plan, but at most 0.3 of the square covered: a million
        // pairs a call checked slower than it was found.
        let cover = (2.0 * before / (plan.side * plan.side)).min(0.3);
        plan.side = (2.0 * (plan.moving + plan.statics) as f32 / cover).sqrt();
        plan.frames = 6 + g.index(10) as u32;
        plan.ops = [100, 1_000, 5_000][g.index(3)];
        if matches!(plan.scale, Scale::Stacked | Scale::Huge | Scale::Parked) {
            plan.scale = Scale::Ordinary;
        }
        // One shape in 500 unbounded would pair with every other (tens of millions of
        // pairs): the run pushes a few itself (see `large.rs`).
        plan.unbounded_few = plan.unbounded;
        plan.unbounded = false;
        // Three worlds in four move as a kept finder follows (slowly, a margin, no forced
        // rebuilds), with a share of the shapes jumping that makes hundreds to thousands of
        // escapers a frame (a steady motion soon makes few: the margins grow ahead of it):
        // the passes under test are those of the kept frame.
        if g.index(4) != 0 {
            plan.speed = plan.speed.min(0.1);
            plan.jumps = [0.0, 0.003, 0.02][g.index(3)];
            plan.margin = plan.margin.filter(|&m| m > 0.0);
            plan.rebuild = None;
        }
        // A third of the runs on a thread count the small runs never draw, in task counts
        // that are multiples of it: four writes the escapers' flags as three does, five and
        // up group them by range first as sixteen does and hand each pass out one group a
        // thread, each group first to its own thread; from eight the finder times its two
        // paths from fewer moving shapes; forty has more threads than a pass gives groups
        // their own threads (`awake::owners`' 32).
        if g.index(3) == 0 {
            plan.threads = [4, 5, 6, 8, 12, 40][g.index(6)];
        }
        plan
    }

    /// Where a new shape's centre goes.
    pub(crate) fn place(&self, g: &mut Gen) -> (f32, f32) {
        match self.scale {
            Scale::Far(origin) => (
                origin + g.uniform(0.0, self.side),
                origin + g.uniform(0.0, self.side),
            ),
            Scale::Parked if g.index(40) == 0 => {
                (2.0e5 + g.uniform(0.0, 4.0), -1.0e6 + g.uniform(0.0, 4.0))
            }
            Scale::Stacked => {
                let k = g.index(8) as f32;
                (self.side * (0.1 + 0.1 * k), self.side * (0.9 - 0.1 * k))
            }
            _ => (g.uniform(0.0, self.side), g.uniform(0.0, self.side)),
        }
    }

    /// A new shape: mostly ordinary sizes, some large; invalid and unbounded ones where the
    /// plan has them.
    pub(crate) fn shape(&self, g: &mut Gen) -> Shape {
        let (x, y) = self.place(g);
        if self.scale == Scale::Huge && g.index(300) == 0 {
            let size = self.side * g.uniform(0.3, 2.0);
            return match g.index(3) {
                0 => Aabb::from_center(x, y, size, g.uniform(0.5, 2.0)).into(),
                1 => Circle::new(x, y, size).into(),
                _ => Obb::new(x, y, size, g.uniform(0.5, 2.0), g.uniform(-3.2, 3.2)).into(),
            };
        }
        if self.scale == Scale::Degenerate && g.index(8) == 0 {
            return match g.index(5) {
                0 => Circle::new(x, y, 0.0).into(),
                1 => Aabb::new(x, y, x, y).into(),
                2 => Aabb::new(x, y, x + 1.0, y).into(),
                3 => Obb::new(x, y, 0.0, 0.0, g.uniform(-3.2, 3.2)).into(),
                _ => Capsule::new(x, y, x, y, 0.0).into(),
            };
        }
        if self.unbounded && g.index(500) == 0 {
            return match g.index(2) {
                0 => Aabb::new(f32::NEG_INFINITY, y, f32::INFINITY, y + 0.5).into(),
                _ => Circle::new(1e30, 1e30, 2e30).into(),
            };
        }
        if self.invalid && g.index(40) == 0 {
            return match g.index(4) {
                0 => Circle::new(x, f32::NAN, 1.0).into(),
                1 => Aabb::new(x, y, x - 1.0, y + 1.0).into(),
                2 => Capsule::new(x, y, f32::INFINITY, y, 0.5).into(),
                _ => Circle::new(x, y, -1.0).into(),
            };
        }
        let size = if g.percent() < 3 {
            g.uniform(3.0, 10.0)
        } else {
            g.uniform(0.3, 1.5)
        };
        match g.index(5) {
            0 => Circle::new(x, y, size).into(),
            1 => Aabb::from_center(x, y, size, g.uniform(0.3, 1.5)).into(),
            2 => Obb::new(x, y, size, g.uniform(0.3, 1.5), g.uniform(-3.2, 3.2)).into(),
            3 if self.polygons => g.convex(x, y, size).into(),
            3 => Circle::new(x, y, size).into(),
            _ => Capsule::new(
                x,
                y,
                x + size,
                y + g.uniform(-1.0, 1.0),
                g.uniform(0.0, 0.5),
            )
            .into(),
        }
    }

    /// The shape a random `set` gives shape `id` (now `s`) in `frame`: a new shape of the
    /// plan in a third of the calls, else `s` moved 0.3 of its half extent.
    pub(crate) fn set_to(&self, g: &mut Gen, id: u32, frame: u32, s: Shape) -> Shape {
        if g.index(3) == 0 {
            self.shape(g)
        } else {
            moved(s, id, frame, 0.3, self.side)
        }
    }

    /// A new entry: its shape, filter, sensor flag and user data; static where `fixed`.
    pub(crate) fn entry(&self, g: &mut Gen, fixed: bool) -> Entry {
        Entry {
            shape: self.shape(g),
            filter: self.filter(g),
            fixed,
            sensor: self.sensor(g),
            data: g.index(1 << 20) as u64,
        }
    }

    /// Whether a new shape is a sensor: one in ten where the plan has layers.
    pub(crate) fn sensor(&self, g: &mut Gen) -> bool {
        self.layered && g.index(10) == 0
    }

    pub(crate) fn filter(&self, g: &mut Gen) -> Filter {
        if self.layered {
            FILTERS[g.index(FILTERS.len())]
        } else {
            Filter::ALL
        }
    }

    /// Shape `id` one frame on: jumping anywhere for the plan's share of the shapes (drawn
    /// anew each frame), else moved at the plan's speed; now and then, where the plan has
    /// invalid shapes, turned to NaN. A pure function, as `Scene::update` needs.
    pub(crate) fn step(&self, id: u32, frame: u32, s: Shape) -> Shape {
        let (id64, f) = (u64::from(id), u64::from(frame));
        if self.stirring < 1.0 && unit_hash(id64 + (4 << 40), f) >= self.stirring {
            return s;
        }
        if self.invalid && unit_hash(id64 + (3 << 40), f) < 0.002 {
            return Circle::new(f32::NAN, 1.0, 1.0).into();
        }
        let jumps = unit_hash(id64 + (2 << 40), f) < self.jumps;
        // The few stirred shapes of a world at rest take long steps, so that their pairs with
        // the shapes at rest begin and end (see `Plan::stirring`).
        let speed = match (jumps, self.stirring < 1.0) {
            (true, _) => f32::INFINITY,
            (false, true) => self.speed.max(0.4),
            (false, false) => self.speed,
        };
        moved(s, id, frame, speed, self.side)
    }

    pub(crate) fn finder(&self) -> PairFinder {
        let mut f = PairFinder::new();
        if let Some(m) = self.margin {
            f = f.with_margin(m);
        }
        if let Some(r) = self.rebuild {
            f = f.with_rebuild_threshold(r);
        }
        f
    }
}

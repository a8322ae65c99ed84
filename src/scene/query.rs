//! Queries on a built scene: [`SceneIndex::raycast`], [`SceneIndex::query_aabb`] and
//! [`SceneIndex::query_point`], through the same grid and kernels as the pair search.

use super::{AABB, BATCH, CIRCLE, FromRecords, KIND, OBB, PairFinder, Scene, Shared, padded};
use crate::batch::{Overlaps, RayCast};
use crate::shape::{Aabb, Point, Ray};
use crate::soa::{
    AabbX8, Aabbs, CircleX8, Circles, LANES, ObbX8, Obbs, PointX8, Points, PolygonX8, Polygons,
    RayX8, ShapeSoa,
};

/// A [`Scene`] with its grid built, for many queries: ray casts, boxes, points. Borrowed from
/// a [`PairFinder`] (whose scratch it uses) and from the scene, which therefore cannot change
/// while the index lives. Queries take `&self`, so threads may share one index.
///
/// ```
/// use widephase::{Aabb, Circle, PairFinder, Point, Ray, Scene};
/// let scene: Scene = (0..10).map(|i| Circle::new(3.0 * i as f32, 0.0, 1.0)).collect();
/// let mut finder = PairFinder::new();
/// let index = finder.index(&scene);
/// // From x = 4.5 along +x: circle 2 (x 5..7) is entered at t = 0.5.
/// assert_eq!(index.raycast(&Ray::new(4.5, 0.0, 1.0, 0.0, f32::INFINITY)), Some((2, 0.5)));
/// // From x = 4, on circle 1's rim: inside at t = 0.
/// assert_eq!(index.raycast(&Ray::new(4.0, 0.0, 1.0, 0.0, f32::INFINITY)), Some((1, 0.0)));
/// let mut ids = Vec::new();
/// index.query_aabb(&Aabb::new(2.5, -0.5, 9.5, 0.5), &mut ids);
/// assert_eq!(ids, [1, 2, 3]);
/// index.query_point(Point::new(12.5, 0.5), &mut ids);
/// assert_eq!(ids, [4]);
/// ```
#[derive(Debug)]
pub struct SceneIndex<'a> {
    finder: &'a PairFinder,
    scene: &'a Scene,
    sentinel: usize,
}

impl PairFinder {
    /// Builds this finder's grid over `scene` and returns an index for queries. Reuses the
    /// finder's buffers, so a frame loop that keeps one finder allocates nothing for it once
    /// they have grown.
    pub fn index<'a>(&'a mut self, scene: &'a Scene) -> SceneIndex<'a> {
        let sentinel = self.build(&[scene], scene.cell_size);
        SceneIndex {
            finder: self,
            scene,
            sentinel,
        }
    }
}

impl Scene {
    /// The nearest shape the ray hits and the entry parameter: `(id, t)` with the smallest
    /// `t`, and of those the smallest id; `None` when it hits nothing up to `max_t`, or the ray
    /// is invalid (see [`Ray::check`]). Builds a grid each call; for many rays use
    /// [`PairFinder::index`] and [`SceneIndex::raycast`].
    #[must_use]
    pub fn raycast(&self, ray: &Ray) -> Option<(u32, f32)> {
        PairFinder::new().index(self).raycast(ray)
    }

    /// The ids of the shapes that overlap `aabb` (touching included), ascending. Builds a grid
    /// each call; for many queries use [`PairFinder::index`].
    #[must_use]
    pub fn query_aabb(&self, aabb: &Aabb) -> Vec<u32> {
        let mut out = Vec::new();
        PairFinder::new().index(self).query_aabb(aabb, &mut out);
        out
    }

    /// The ids of the shapes that contain `point` (boundary included), ascending. Builds a grid
    /// each call; for many queries use [`PairFinder::index`].
    #[must_use]
    pub fn query_point(&self, point: Point) -> Vec<u32> {
        let mut out = Vec::new();
        PairFinder::new().index(self).query_point(point, &mut out);
        out
    }
}

/// A query shape: one value tested against every kind.
trait Probe:
    ShapeSoa + Overlaps<Circles> + Overlaps<Aabbs> + Overlaps<Obbs> + Overlaps<Polygons>
{
    fn splat(s: &Self::Shape) -> Self::X8;
}

impl Probe for Points {
    fn splat(s: &Point) -> PointX8 {
        PointX8::splat(*s)
    }
}

impl Probe for Aabbs {
    fn splat(s: &Aabb) -> AabbX8 {
        AabbX8::splat(*s)
    }
}

/// Candidate positions by kind, decided [`BATCH`] at a time.
struct Batches {
    pending: [[u32; BATCH]; 4],
    filled: [usize; 4],
}

impl Batches {
    fn new() -> Self {
        Self {
            pending: [[0; BATCH]; 4],
            filled: [0; 4],
        }
    }

    /// Files position `p`; returns the kind whose batch is now full, if any.
    #[inline]
    fn push(&mut self, shared: &Shared<'_>, p: u32) -> Option<usize> {
        let kind = (shared.shapes[p as usize].kind & KIND) as usize;
        self.pending[kind][self.filled[kind]] = p;
        self.filled[kind] += 1;
        (self.filled[kind] == BATCH).then_some(kind)
    }

    /// The lane blocks of kind `kind`'s batch (padded with the sentinel), and how many
    /// positions it holds; empties it.
    fn take(&mut self, kind: usize, sentinel: u32) -> ([[u32; LANES]; BATCH / LANES], usize) {
        let n = self.filled[kind];
        self.filled[kind] = 0;
        let mut blocks = [[sentinel; LANES]; BATCH / LANES];
        for (i, &p) in self.pending[kind][..n].iter().enumerate() {
            blocks[i / LANES][i % LANES] = p;
        }
        (blocks, n)
    }
}

impl SceneIndex<'_> {
    fn shared(&self) -> Shared<'_> {
        Shared {
            grid: &self.finder.grid,
            shapes: &self.finder.sorted[..=self.sentinel],
            polygons: [&self.scene.polygons, &self.scene.polygons],
            unbounded: self.finder.unbounded.len(),
            cross: false,
        }
    }

    /// The ids of the shapes that overlap `aabb` (touching included), ascending, into `out`
    /// (cleared first). An invalid box (NaN, `min > max`) overlaps nothing; an infinite one is
    /// tested against every shape.
    pub fn query_aabb(&self, aabb: &Aabb, out: &mut Vec<u32>) {
        let valid = aabb.check().is_ok();
        self.query::<Aabbs>(aabb, valid, padded(*aabb), out);
    }

    /// The ids of the shapes that contain `point` (boundary included), ascending, into `out`
    /// (cleared first). A NaN point is in nothing.
    pub fn query_point(&self, point: Point, out: &mut Vec<u32>) {
        let valid = point.check().is_ok();
        let region = padded(Aabb::new(point.x, point.y, point.x, point.y));
        self.query::<Points>(&point, valid, region, out);
    }

    fn query<Q: Probe>(
        &self,
        q: &Q::Shape,
        valid: bool,
        region: Option<[f32; 4]>,
        out: &mut Vec<u32>,
    ) {
        out.clear();
        if !valid {
            return;
        }
        let shared = self.shared();
        let probe = Q::splat(q);
        let mut batches = Batches::new();
        let sentinel = self.sentinel as u32;
        let decide = |batches: &mut Batches, kind: usize, out: &mut Vec<u32>| {
            let (blocks, n) = batches.take(kind, sentinel);
            for (k, at) in blocks.iter().enumerate().take(n.div_ceil(LANES)) {
                let bits = match kind as u32 {
                    CIRCLE => {
                        <Q as Overlaps<Circles>>::kernel(&probe, &CircleX8::gather(&shared, *at))
                    }
                    AABB => <Q as Overlaps<Aabbs>>::kernel(&probe, &AabbX8::gather(&shared, *at)),
                    OBB => <Q as Overlaps<Obbs>>::kernel(&probe, &ObbX8::gather(&shared, *at)),
                    _ => {
                        <Q as Overlaps<Polygons>>::kernel(&probe, &PolygonX8::gather(&shared, *at))
                    }
                };
                let mut bits = u32::from(bits) & ((1u32 << (n - k * LANES).min(LANES)) - 1);
                while bits != 0 {
                    out.push(shared.shapes[at[bits.trailing_zeros() as usize] as usize].id);
                    bits &= bits - 1;
                }
            }
        };
        let mut visit = |p: u32| {
            if let Some(kind) = batches.push(&shared, p) {
                decide(&mut batches, kind, out);
            }
        };
        let entered = shared.grid.len();
        match region {
            Some(b) => {
                for l in 0..shared.grid.levels() {
                    shared.grid.overlapping_in(l, b, &mut visit);
                }
            }
            None => (0..entered as u32).for_each(&mut visit),
        }
        (entered as u32..sentinel).for_each(&mut visit);
        for kind in 0..4 {
            decide(&mut batches, kind, out);
        }
        out.sort_unstable();
    }

    /// The nearest shape the ray hits and the entry parameter (see [`Scene::raycast`]).
    ///
    /// Walks each grid level along the ray in steps of about one cell, testing the shapes whose
    /// boxes reach each step's stretch of the ray (found through the same rounding-proof cell
    /// windows as the pair search), nearest stretch first, until a stretch begins beyond the
    /// best hit so far. The parts of the ray outside a level's cells are one stretch each,
    /// whose window lies in the border cells where far outliers are kept.
    #[must_use]
    pub fn raycast(&self, ray: &Ray) -> Option<(u32, f32)> {
        if ray.check().is_err() {
            return None;
        }
        let shared = self.shared();
        let probe = RayX8::splat(*ray);
        let sentinel = self.sentinel as u32;
        let mut best = (f32::INFINITY, u32::MAX);
        let mut batches = Batches::new();
        let decide = |batches: &mut Batches, kind: usize, best: &mut (f32, u32)| {
            let (blocks, n) = batches.take(kind, sentinel);
            for (k, at) in blocks.iter().enumerate().take(n.div_ceil(LANES)) {
                let t = match kind as u32 {
                    CIRCLE => <Circles as RayCast>::kernel(&probe, &CircleX8::gather(&shared, *at)),
                    AABB => <Aabbs as RayCast>::kernel(&probe, &AabbX8::gather(&shared, *at)),
                    OBB => <Obbs as RayCast>::kernel(&probe, &ObbX8::gather(&shared, *at)),
                    _ => <Polygons as RayCast>::kernel(&probe, &PolygonX8::gather(&shared, *at)),
                };
                for (lane, &t) in t.as_array().iter().enumerate().take(n - k * LANES) {
                    let id = shared.shapes[at[lane] as usize].id;
                    if t < best.0 || (t == best.0 && t < f32::INFINITY && id < best.1) {
                        *best = (t, id);
                    }
                }
            }
        };
        let visit = |p: u32, batches: &mut Batches, best: &mut (f32, u32)| {
            if let Some(kind) = batches.push(&shared, p) {
                decide(batches, kind, best);
            }
        };
        let entered = shared.grid.len() as u32;
        for p in entered..sentinel {
            visit(p, &mut batches, &mut best);
        }
        for l in 0..shared.grid.levels() {
            let (region, cell, reach) = shared.grid.region(l);
            for (t0, t1) in stretches(ray, region, cell, reach) {
                if f64::from(best.0) < t0 {
                    break;
                }
                let b = stretch_box(ray, t0, t1, cell);
                shared
                    .grid
                    .overlapping_in(l, b, &mut |p| visit(p, &mut batches, &mut best));
                for kind in 0..4 {
                    decide(&mut batches, kind, &mut best);
                }
            }
        }
        for kind in 0..4 {
            decide(&mut batches, kind, &mut best);
        }
        (best.0 < f32::INFINITY).then_some((best.1, best.0))
    }
}

/// The point at parameter `t` (in `f64`); a zero direction component keeps the origin's
/// coordinate even for an infinite `t`.
fn point_at(r: &Ray, t: f64) -> [f64; 2] {
    let along = |o: f32, d: f32| {
        if d == 0.0 {
            f64::from(o)
        } else {
            f64::from(o) + t * f64::from(d)
        }
    };
    [along(r.origin_x, r.dir_x), along(r.origin_y, r.dir_y)]
}

/// The stretches `[t0, t1]` of the ray, in order, that cover `[0, max_t]`: the part before it
/// enters the level's cells (grown by a cell and the reach), steps of about one cell inside,
/// and the part after it leaves.
fn stretches(r: &Ray, region: [f32; 4], cell: f32, reach: f32) -> Stretches {
    let (cell, reach) = (f64::from(cell), f64::from(reach));
    let lo = [f64::from(region[0]) - cell, f64::from(region[1]) - cell];
    let hi = [
        f64::from(region[2]) + reach + cell,
        f64::from(region[3]) + reach + cell,
    ];
    let o = [f64::from(r.origin_x), f64::from(r.origin_y)];
    let d = [f64::from(r.dir_x), f64::from(r.dir_y)];
    let (mut t_in, mut t_out) = (f64::NEG_INFINITY, f64::INFINITY);
    for k in 0..2 {
        if d[k] == 0.0 {
            if o[k] < lo[k] || o[k] > hi[k] {
                (t_in, t_out) = (f64::INFINITY, f64::NEG_INFINITY);
            }
        } else {
            let (a, b) = ((lo[k] - o[k]) / d[k], (hi[k] - o[k]) / d[k]);
            t_in = t_in.max(a.min(b));
            t_out = t_out.min(a.max(b));
        }
    }
    let end = f64::from(r.max_t);
    let (a, b) = (t_in.max(0.0), t_out.min(end));
    if a > b {
        // Never inside the cells: one stretch, whose window is in the border cells.
        return Stretches {
            before: Some((0.0, end)),
            a: 0.0,
            b: 0.0,
            steps: 0,
            k: 0,
            after: None,
        };
    }
    let step = cell / d[0].abs().max(d[1].abs());
    let steps = if step.is_finite() && step > 0.0 {
        ((b - a) / step).ceil().clamp(1.0, MAX_STEPS)
    } else {
        1.0
    };
    Stretches {
        before: (a > 0.0).then_some((0.0, a)),
        a,
        b,
        steps: steps as u64,
        k: 0,
        after: (b < end).then_some((b, end)),
    }
}

/// Most steps a ray takes through one level (a ray longer than a million cells takes longer
/// steps).
const MAX_STEPS: f64 = 1e6;

/// The iterator of [`stretches`].
struct Stretches {
    before: Option<(f64, f64)>,
    a: f64,
    b: f64,
    steps: u64,
    k: u64,
    after: Option<(f64, f64)>,
}

impl Iterator for Stretches {
    type Item = (f64, f64);
    fn next(&mut self) -> Option<(f64, f64)> {
        if let Some(s) = self.before.take() {
            return Some(s);
        }
        if self.k < self.steps {
            let at = |k: u64| self.a + (self.b - self.a) * k as f64 / self.steps as f64;
            let t1 = if self.k + 1 == self.steps {
                self.b
            } else {
                at(self.k + 1)
            };
            let s = (at(self.k), t1);
            self.k += 1;
            return Some(s);
        }
        self.after.take()
    }
}

/// The box around the ray's points from `t0` to `t1`, grown by a margin far above the
/// rounding of any kernel's hit point (2⁻¹² of the largest coordinate involved, and of the
/// cell), as `f32` bounds.
fn stretch_box(r: &Ray, t0: f64, t1: f64, cell: f32) -> [f32; 4] {
    let (p0, p1) = (point_at(r, t0), point_at(r, t1));
    let scale = [
        p0[0],
        p0[1],
        p1[0],
        p1[1],
        f64::from(r.origin_x),
        f64::from(r.origin_y),
    ]
    .iter()
    .filter(|v| v.is_finite())
    .fold(f64::from(cell), |m, v| m.max(v.abs()));
    let margin = scale * (1.0 / 4096.0) + 1e-18;
    [
        (p0[0].min(p1[0]) - margin) as f32,
        (p0[1].min(p1[1]) - margin) as f32,
        (p0[0].max(p1[0]) + margin) as f32,
        (p0[1].max(p1[1]) + margin) as f32,
    ]
}

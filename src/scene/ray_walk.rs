//! [`SceneIndex::raycast`]: the nearest hit of a ray, walking each grid level along the ray in
//! stretches of about one cell.

use super::candidates::KINDS;
use super::pack::{Pack, Shared, Stored, block_of, by_kind};
use super::records::KIND;
use super::{Filter, SceneIndex};
use crate::batch::RayCast;
use crate::lanes::{KERNEL_LANES, Simd, Wide, splat_columns};
use crate::shape::Ray;

impl SceneIndex<'_> {
    /// The nearest shape the ray hits and the entry parameter (see [`Scene::raycast`](crate::Scene::raycast)).
    ///
    /// Walks each grid level along the ray in steps of about one cell, testing the shapes whose
    /// boxes reach each step's stretch of the ray (found through the same rounding-proof cell
    /// windows as the pair search), nearest stretch first, until a stretch begins beyond the
    /// best hit so far. The parts of the ray outside a level's cells are one stretch each,
    /// whose window lies in the border cells where far outliers are kept.
    #[must_use]
    pub fn raycast(&self, ray: &Ray) -> Option<(u32, f32)> {
        self.raycast_as(ray, None)
    }

    /// [`raycast`](Self::raycast) as a shape with `filter`: only shapes whose [`Filter`]
    /// pairs with it are hit.
    #[must_use]
    pub fn raycast_filtered(&self, ray: &Ray, filter: Filter) -> Option<(u32, f32)> {
        self.raycast_as(ray, Some(filter))
    }

    fn raycast_as(&self, ray: &Ray, filter: Option<Filter>) -> Option<(u32, f32)> {
        if ray.check().is_err() {
            return None;
        }
        let shared = self.shared();
        let probe: [Wide; 5] = splat_columns(ray);
        let sentinel = shared.sentinel();
        let mut best = (f32::INFINITY, u32::MAX);
        let decide = |batches: &mut Pack<u32, KINDS>, kind: usize, best: &mut (f32, u32)| {
            let positions = batches.take(kind);
            let n = positions.len();
            for k in 0..n.div_ceil(KERNEL_LANES) {
                let at: [u32; KERNEL_LANES] = block_of(positions, k, sentinel);
                let t = by_kind!(kind as u32, S => S::lanes(probe, S::gather_lanes(&shared, &at)));
                for (lane, &t) in t.as_slice().iter().enumerate().take(n - k * KERNEL_LANES) {
                    let id = shared.record(at[lane]).id;
                    if t < best.0 || (t == best.0 && t < f32::INFINITY && id < best.1) {
                        *best = (t, id);
                    }
                }
            }
        };
        let until = |b: &(f32, u32)| f64::from(b.0);
        walk(&shared, ray, [0.0; 2], filter, &mut best, until, decide);
        (best.0 < f32::INFINITY).then_some((best.1, best.0))
    }
}

/// Visits the shapes along `path` (a ray over `t` in `[0, max_t]`, carrying a box of half
/// extents `grow`) that `filter` pairs with, sensors passed through (zones, not surfaces): the
/// unbounded ones first, then on each grid level the shapes whose boxes reach each stretch of
/// the path, nearest stretch first, batched by kind, until a stretch begins beyond
/// `until(best)` (the best hit's `t`). `decide` decides one kind's batch (when it is full,
/// and every batch after each stretch).
#[allow(
    clippy::too_many_arguments,
    reason = "a walk's path, its rule and its answer"
)]
pub(super) fn walk<B>(
    shared: &Shared<'_>,
    path: &Ray,
    grow: [f64; 2],
    filter: Option<Filter>,
    best: &mut B,
    until: impl Fn(&B) -> f64,
    decide: impl Fn(&mut Pack<u32, KINDS>, usize, &mut B),
) {
    let visit = |p: u32, batches: &mut Pack<u32, KINDS>, best: &mut B| {
        let r = shared.record(p);
        let kind = (r.kind & KIND) as usize;
        let rule = shared.rule(r);
        let keep = !rule.sensor && filter.is_none_or(|f| f.pairs_with(rule.filter));
        if batches.push(kind, p, keep) {
            decide(batches, kind, best);
        }
    };
    let mut batches = Pack::<u32, KINDS>::default();
    for p in shared.grid.len() as u32..shared.sentinel() {
        visit(p, &mut batches, best);
    }
    for l in 0..shared.grid.levels() {
        let (region, cell, reach) = shared.grid.region(l);
        for (t0, t1) in stretches(path, region, cell, reach, grow) {
            if until(best) < t0 {
                break;
            }
            let b = stretch_box(path, t0, t1, cell, grow);
            shared
                .grid
                .overlapping_in(l, b, &mut |p| visit(p, &mut batches, best));
            for kind in 0..KINDS {
                decide(&mut batches, kind, best);
            }
        }
    }
    for kind in 0..KINDS {
        decide(&mut batches, kind, best);
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
/// enters the level's cells (grown by a cell and the reach, and by `grow`, the half extents of
/// a box carried along the ray by a shape cast), steps of about one cell inside, and the part
/// after it leaves.
fn stretches(r: &Ray, region: [f32; 4], cell: f32, reach: f32, grow: [f64; 2]) -> Stretches {
    let (cell, reach) = (f64::from(cell), f64::from(reach));
    let lo = [
        f64::from(region[0]) - cell - grow[0],
        f64::from(region[1]) - cell - grow[1],
    ];
    let hi = [
        f64::from(region[2]) + reach + cell + grow[0],
        f64::from(region[3]) + reach + cell + grow[1],
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

/// The box around the ray's points from `t0` to `t1`, grown by `grow` (a shape cast's half
/// extents) and by a margin far above the rounding of any kernel's hit point (2⁻¹² of the
/// largest coordinate involved, and of the cell), as `f32` bounds.
fn stretch_box(r: &Ray, t0: f64, t1: f64, cell: f32, grow: [f64; 2]) -> [f32; 4] {
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
    let (mx, my) = (margin + grow[0], margin + grow[1]);
    [
        (p0[0].min(p1[0]) - mx) as f32,
        (p0[1].min(p1[1]) - my) as f32,
        (p0[0].max(p1[0]) + mx) as f32,
        (p0[1].max(p1[1]) + my) as f32,
    ]
}

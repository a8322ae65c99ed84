//! Queries on a built scene: [`SceneIndex::query_aabb`] and [`SceneIndex::query_point`] here,
//! [`SceneIndex::raycast`] in `ray_walk.rs`, through the same grid and kernels as the pair
//! search.

use super::candidates::KINDS;
use super::pack::{Pack, Shared, Stored, block_of};
use super::records::{AABB, CIRCLE, KIND, OBB, padded};
use super::{PairFinder, Scene};
use crate::batch::Overlaps;
use crate::lanes::{KERNEL_LANES, Wide, splat_columns};
use crate::shape::{Aabb, Point, Ray};
use crate::soa::{Aabbs, Circles, Obbs, Points, Polygons, ShapeSoa};

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
    pub(crate) finder: &'a PairFinder,
    pub(crate) scene: &'a Scene,
    pub(crate) sentinel: usize,
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
    /// The shape in every lane of a kernel-width block.
    fn splat(s: &Self::Shape) -> Self::Lanes<Wide>;
}

impl Probe for Points {
    fn splat(s: &Point) -> [Wide; 2] {
        splat_columns(s)
    }
}

impl Probe for Aabbs {
    fn splat(s: &Aabb) -> [Wide; 4] {
        splat_columns(s)
    }
}

impl SceneIndex<'_> {
    /// What the kernels read: the finder's records in cell order and the scene's polygons.
    pub(crate) fn shared(&self) -> Shared<'_> {
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
        let mut batches = Pack::<u32, KINDS>::default();
        let sentinel = shared.sentinel();
        let decide = |batches: &mut Pack<u32, KINDS>, kind: usize, out: &mut Vec<u32>| {
            let positions = batches.take(kind);
            let n = positions.len();
            for k in 0..n.div_ceil(KERNEL_LANES) {
                let at: [u32; KERNEL_LANES] = block_of(positions, k, sentinel);
                let mask = match kind as u32 {
                    CIRCLE => {
                        <Q as Overlaps<Circles>>::lanes(probe, Circles::gather_lanes(&shared, &at))
                    }
                    AABB => <Q as Overlaps<Aabbs>>::lanes(probe, Aabbs::gather_lanes(&shared, &at)),
                    OBB => <Q as Overlaps<Obbs>>::lanes(probe, Obbs::gather_lanes(&shared, &at)),
                    _ => <Q as Overlaps<Polygons>>::lanes(
                        probe,
                        Polygons::gather_lanes(&shared, &at),
                    ),
                };
                let lanes = (n - k * KERNEL_LANES).min(KERNEL_LANES);
                let mut bits = mask.to_bitmask() & (u32::MAX >> (32 - lanes));
                while bits != 0 {
                    out.push(shared.shapes[at[bits.trailing_zeros() as usize] as usize].id);
                    bits &= bits - 1;
                }
            }
        };
        let mut visit = |p: u32| {
            let kind = (shared.shapes[p as usize].kind & KIND) as usize;
            if batches.push(kind, p, true) {
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
        for kind in 0..KINDS {
            decide(&mut batches, kind, out);
        }
        out.sort_unstable();
    }
}

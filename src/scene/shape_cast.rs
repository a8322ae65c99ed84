//! [`SceneIndex::cast_shape`] and [`Scene::cast_shape`]: the first shape a moving shape
//! touches, walking the grid along its path like a ray cast (`ray_walk.rs`), the candidates
//! decided by the sweep kernels a lane block at a time.

use super::candidates::KINDS;
use super::pack::{Pack, Stored, block_of, by_kind};
use super::query::Probe;
use super::ray_walk::walk;
use super::{Filter, PairFinder, Scene, SceneIndex};
use crate::batch::SweepPair;
use crate::lanes::{KERNEL_LANES, Simd, Wide, splat_columns};
use crate::shape::{Ray, Shape, Sweep};
use crate::soa::{Aabbs, Capsules, Circles, Obbs, Polygons};

impl Scene {
    /// The first shape that `shape`, translated by `t · motion` for `t` in `[0, 1]`, touches:
    /// its id and the [`Sweep`] (`t` and the normal from the moving shape towards it), the
    /// smallest `t` and of those the smallest id; `None` when it touches nothing. The rules
    /// of [`Sweep`]: a shape it overlaps at the start counts (at `t = 0`) only where the motion
    /// goes deeper, so a character standing on a floor walks off freely. Statics count;
    /// sensors are passed through, as by rays; shapes with infinite coordinates are not swept
    /// (see the crate docs, "Sweeps"). An invalid shape or a non-finite motion touches nothing.
    ///
    /// One-shot: builds a grid each call (see [`raycast`](Self::raycast)); for many casts on
    /// one frame use [`PairFinder::index`] and [`SceneIndex::cast_shape`].
    ///
    /// ```
    /// use widephase::{Aabb, Circle, Scene};
    /// let mut scene = Scene::new();
    /// let near = scene.push_static(Aabb::new(2.0, -5.0, 2.02, 5.0)); // thin walls
    /// let far = scene.push_static(Aabb::new(4.0, -5.0, 4.02, 5.0));
    /// let bullet = Circle::new(0.0, 0.0, 0.1);
    /// let (id, hit) = scene.cast_shape(bullet, [6.0, 0.0]).expect("it hits a wall");
    /// assert_eq!(id, near);
    /// assert!((hit.t * 6.0 - 1.9).abs() < 1e-5 && hit.normal == [1.0, 0.0]);
    /// # let _ = far;
    /// ```
    #[must_use]
    pub fn cast_shape(&self, shape: impl Into<Shape>, motion: [f32; 2]) -> Option<(u32, Sweep)> {
        PairFinder::new()
            .index(self)
            .cast_shape(&shape.into(), motion)
    }

    /// [`cast_shape`](Self::cast_shape) as a shape with `filter`: only shapes whose [`Filter`]
    /// pairs with it are touched. One-shot (see [`raycast`](Self::raycast)).
    #[must_use]
    pub fn cast_shape_filtered(
        &self,
        shape: impl Into<Shape>,
        motion: [f32; 2],
        filter: Filter,
    ) -> Option<(u32, Sweep)> {
        PairFinder::new()
            .index(self)
            .cast_shape_filtered(&shape.into(), motion, filter)
    }
}

impl SceneIndex<'_> {
    /// The first shape that `shape` touches moving by `motion` (see [`Scene::cast_shape`]).
    ///
    /// Walks each grid level along the path of the shape's bounding box in steps of about one
    /// cell, sweeping the shapes whose boxes reach each step's stretch of the path (found
    /// through the same rounding-proof cell windows as the pair search and the ray casts),
    /// nearest stretch first, until a stretch begins beyond the best hit so far.
    ///
    /// ```
    /// use widephase::{Aabb, Capsule, PairFinder, Scene};
    /// let mut scene = Scene::new();
    /// let floor = scene.push_static(Aabb::new(-10.0, -1.0, 10.0, 0.0));
    /// let wall = scene.push_static(Aabb::new(3.0, 0.0, 4.0, 5.0));
    /// let mut finder = PairFinder::new();
    /// let index = finder.index(&scene);
    /// let player = Capsule::new(0.0, 0.5, 0.0, 1.5, 0.5); // standing on the floor
    /// // Walking right: the floor it stands on is free to walk along; the wall stops it.
    /// let (id, hit) = index.cast_shape(&player, [5.0, 0.0]).unwrap();
    /// assert_eq!((id, hit.t, hit.normal), (wall, 0.5, [1.0, 0.0]));
    /// // Pressing down into the floor stops it at once.
    /// assert_eq!(index.cast_shape(&player, [1.0, -1.0]).map(|(id, s)| (id, s.t)), Some((floor, 0.0)));
    /// ```
    #[must_use]
    pub fn cast_shape<S: Into<Shape> + Copy>(
        &self,
        shape: &S,
        motion: [f32; 2],
    ) -> Option<(u32, Sweep)> {
        self.cast_as(&(*shape).into(), motion, None)
    }

    /// [`cast_shape`](Self::cast_shape) as a shape with `filter`: only shapes whose [`Filter`]
    /// pairs with it are touched.
    #[must_use]
    pub fn cast_shape_filtered<S: Into<Shape> + Copy>(
        &self,
        shape: &S,
        motion: [f32; 2],
        filter: Filter,
    ) -> Option<(u32, Sweep)> {
        self.cast_as(&(*shape).into(), motion, Some(filter))
    }

    fn cast_as(
        &self,
        shape: &Shape,
        motion: [f32; 2],
        filter: Option<Filter>,
    ) -> Option<(u32, Sweep)> {
        let finite = |v: f32| v.is_finite();
        if shape.check().is_err() || !motion.iter().all(|&v| finite(v)) {
            return None;
        }
        match shape {
            Shape::Circle(c) => self.cast::<Circles>(c, shape, motion, filter),
            Shape::Aabb(b) => self.cast::<Aabbs>(b, shape, motion, filter),
            Shape::Obb(o) => self.cast::<Obbs>(o, shape, motion, filter),
            Shape::Polygon(p) => self.cast::<Polygons>(p, shape, motion, filter),
            Shape::Capsule(c) => self.cast::<Capsules>(c, shape, motion, filter),
        }
    }

    fn cast<Q: Probe>(
        &self,
        q: &Q::Shape,
        shape: &Shape,
        motion: [f32; 2],
        filter: Option<Filter>,
    ) -> Option<(u32, Sweep)> {
        let b = shape.bounding_box();
        let grow = [
            (f64::from(b.max_x) - f64::from(b.min_x)) * 0.5,
            (f64::from(b.max_y) - f64::from(b.min_y)) * 0.5,
        ];
        if !(grow[0].is_finite() && grow[1].is_finite()) {
            return None;
        }
        // The path of the box's centre, as a ray over `t` in `[0, 1]`.
        let centre = |lo: f32, hi: f32| (f64::from(lo) + f64::from(hi)) * 0.5;
        let path = Ray::new(
            centre(b.min_x, b.max_x) as f32,
            centre(b.min_y, b.max_y) as f32,
            motion[0],
            motion[1],
            1.0,
        );
        // The rounding of the centre, added to the half extents.
        let grow = [
            grow[0] + (f64::from(path.origin_x) - centre(b.min_x, b.max_x)).abs(),
            grow[1] + (f64::from(path.origin_y) - centre(b.min_y, b.max_y)).abs(),
        ];
        let shared = self.shared();
        let probe = Q::splat(q);
        let moves: [Wide; 2] = splat_columns(&motion);
        let sentinel = shared.sentinel();
        let mut best: Option<(u32, Sweep)> = None;
        let decide =
            |batches: &mut Pack<u32, KINDS>, kind: usize, best: &mut Option<(u32, Sweep)>| {
                let positions = batches.take(kind);
                let n = positions.len();
                for k in 0..n.div_ceil(KERNEL_LANES) {
                    let at: [u32; KERNEL_LANES] = block_of(positions, k, sentinel);
                    let [mask, t, nx, ny] = by_kind!(kind as u32, S => {
                        let shapes = S::gather_lanes(&shared, &at);
                        <Q as SweepPair<S>>::sweep_lanes(probe, shapes, moves)
                    });
                    let lanes = (n - k * KERNEL_LANES).min(KERNEL_LANES);
                    let mut bits = mask.to_bitmask() & (u32::MAX >> (32 - lanes));
                    while bits != 0 {
                        let lane = bits.trailing_zeros() as usize;
                        bits &= bits - 1;
                        let id = shared.record(at[lane]).id;
                        let s = Sweep {
                            t: t.as_slice()[lane],
                            normal: [nx.as_slice()[lane], ny.as_slice()[lane]],
                        };
                        if best.is_none_or(|(bid, b)| s.t < b.t || (s.t == b.t && id < bid)) {
                            *best = Some((id, s));
                        }
                    }
                }
            };
        let until = |b: &Option<(u32, Sweep)>| b.map_or(f64::INFINITY, |(_, s)| f64::from(s.t));
        walk(&shared, &path, grow, filter, &mut best, until, decide);
        best
    }
}

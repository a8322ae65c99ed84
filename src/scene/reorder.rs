//! [`Scene::reorder`]: the moving shapes' storage put in spatial order, along a Z-order curve
//! over their boxes' centres.

use super::records::KIND;
use super::store::Scene;

impl Scene {
    /// Puts the moving shapes' storage in spatial order (along a Z-order curve over their
    /// boxes' centres, each run of 64 grouped by kind), so that a search reads neighbours from
    /// nearby memory. Nothing a user sees changes: ids, shapes, filters and every answer stay
    /// as they are; a kept [`PairFinder`](crate::PairFinder) finds every slot holding another
    /// shape on its next call and rebuilds, which costs about a search from scratch (with a
    /// rebuild threshold of 1 it follows every shape as an escaper instead, which costs more).
    ///
    /// A trade: [`update`](Self::update) then calls `f` in that spatial order, so an `f` that
    /// reads the caller's own arrays by id reads them out of order. Measured on a million
    /// shapes scattered in push order (one thread, AMD Zen 5): with an `f` that needs nothing
    /// by id, a kept frame took 50–55 ms instead of 77–87 ms; with an `f` that reads an
    /// 8-byte-per-id array by id, the search gained about 35 ms and `f` lost about 30 (a
    /// wash). A scene of a hundred thousand shapes stays in cache in any order and gains
    /// little on one thread. On several it gains more: a kept finder reads the records in
    /// its own, spatial, order, and in push order most of the records one thread's `update`
    /// wrote were read last on another core, whose copy the write must take back. On two
    /// cores that shared no cache (a two-vCPU VM), a two-thread `update` of 100 k shapes
    /// after each kept frame took 2.8–3.0 ms in push order and 0.44–0.75 ms reordered (0.8
    /// on one thread either way). Call it after loading a large level, or after shapes have
    /// wandered far from where they were pushed; [`update`](Self::update) never reorders by
    /// itself.
    ///
    /// ```
    /// use widephase::{Circle, PairFinder, Scene};
    /// let mut scene: Scene = (0..100).map(|i| Circle::new((i * 37 % 100) as f32, 0.0, 0.6)).collect();
    /// let mut finder = PairFinder::new();
    /// let (mut before, mut after) = (Vec::new(), Vec::new());
    /// finder.overlapping_pairs(&scene, &mut before);
    /// let shapes: Vec<_> = scene.iter().collect();
    /// scene.reorder();
    /// finder.overlapping_pairs(&scene, &mut after);
    /// assert_eq!(before, after);
    /// assert!(finder.began().is_empty() && finder.ended().is_empty());
    /// assert_eq!(scene.iter().collect::<Vec<_>>(), shapes);
    /// assert_eq!(scene.get(37), Some(Circle::new(69.0, 0.0, 0.6).into()));
    /// ```
    pub fn reorder(&mut self) {
        let store = &self.moving;
        let centre = |b: &[f32; 4]| [0.5 * (b[0] + b[2]), 0.5 * (b[1] + b[3])];
        // The bounds of the finite centres (a box the grid leaves out has a NaN `min_x`; such
        // shapes, and any whose centre overflows, go last).
        let finite = |c: &[f32; 2]| c[0].is_finite() && c[1].is_finite();
        let (mut lo, mut hi) = ([f32::INFINITY; 2], [f32::NEG_INFINITY; 2]);
        for c in store.boxes.iter().map(centre).filter(finite) {
            for k in 0..2 {
                (lo[k], hi[k]) = (lo[k].min(c[k]), hi[k].max(c[k]));
            }
        }
        let scale = [0, 1].map(|k| {
            let span = hi[k] - lo[k];
            if span > 0.0 && span.is_finite() {
                65_535.0 / span
            } else {
                0.0
            }
        });
        let mut keys: Vec<u64> = store
            .boxes
            .iter()
            .enumerate()
            .map(|(slot, b)| {
                let c = centre(b);
                let z = if finite(&c) {
                    // Saturating casts: a centre at the bounds' edge rounds to 0 or 65 535.
                    z_order(
                        ((c[0] - lo[0]) * scale[0]) as u32,
                        ((c[1] - lo[1]) * scale[1]) as u32,
                    )
                } else {
                    u64::from(u32::MAX)
                };
                z << 32 | slot as u64
            })
            .collect();
        keys.sort_unstable();
        let mut order: Vec<u32> = keys.iter().map(|&k| k as u32).collect();
        for run in order.chunks_mut(KIND_RUN) {
            run.sort_by_key(|&slot| store.records[slot as usize].kind & KIND);
        }
        self.moving.permute(&order);
        for (slot, r) in self.moving.records.iter().enumerate() {
            self.handles.place(r.id, slot as u32);
        }
    }
}

/// Shapes of the moving store that [`Scene::reorder`] groups by kind within each run of this
/// many in spatial order: a frame loop's per-kind work then predicts its branches, while
/// the run stays a few cache lines of neighbours.
const KIND_RUN: usize = 64;

/// The position of `(x, y)` (each scaled to `0 ..= 65 535`) along the Z-order curve: the
/// bits of `x` and `y` interleaved.
fn z_order(x: u32, y: u32) -> u64 {
    let spread = |v: u32| {
        let mut v = u64::from(v & 0xFFFF);
        v = (v | (v << 8)) & 0x00FF_00FF;
        v = (v | (v << 4)) & 0x0F0F_0F0F;
        v = (v | (v << 2)) & 0x3333_3333;
        (v | (v << 1)) & 0x5555_5555
    };
    spread(x) | (spread(y) << 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::{Aabb, Capsule, Circle, Obb, Polygon, Shape};

    /// The mean distance between the centres of consecutive moving slots.
    fn spread(scene: &Scene) -> f64 {
        let c = |b: &[f32; 4]| (0.5 * f64::from(b[0] + b[2]), 0.5 * f64::from(b[1] + b[3]));
        let boxes = &scene.moving.boxes;
        let total: f64 = boxes
            .windows(2)
            .map(|w| {
                let (p, q) = (c(&w[0]), c(&w[1]));
                (p.0 - q.0).hypot(p.1 - q.1)
            })
            .sum();
        total / (boxes.len() - 1) as f64
    }

    /// The ids of the moving slots, in slot order.
    fn ids(scene: &Scene) -> Vec<u32> {
        scene.moving.records.iter().map(|r| r.id).collect()
    }

    /// A scene of `n` shapes of every kind at scattered places (a polygon every fifth).
    fn scattered(n: u32) -> Vec<Shape> {
        (0..n)
            .map(|i| {
                let (x, y) = ((i * 7919 % 1000) as f32, (i * 104_729 % 997) as f32);
                match i % 5 {
                    0 => Circle::new(x, y, 1.0).into(),
                    1 => Aabb::new(x, y, x + 1.0, y + 2.0).into(),
                    2 => Obb::new(x, y, 1.0, 0.5, 0.3).into(),
                    3 => Capsule::new(x, y, x + 1.0, y, 0.25).into(),
                    _ => Polygon::regular(5, x, y, 1.0, 0.1).into(),
                }
            })
            .collect()
    }

    #[test]
    fn reorder_puts_the_store_in_spatial_order_and_keeps_every_id() {
        let shapes = scattered(20_000);
        let mut scene: Scene = shapes.iter().copied().collect();
        scene.remove(17);
        let before = spread(&scene);
        let order = ids(&scene);
        scene.update(|_, s| s);
        assert!(ids(&scene) == order, "update keeps the storage order");
        scene.reorder();
        let after = spread(&scene);
        assert!(after * 5.0 < before, "spread {before} -> {after}");
        // Ids, shapes (polygons moved to new blocks) and the id -> slot map intact.
        for (id, s) in shapes.iter().enumerate() {
            let want = (id != 17).then_some(*s);
            assert_eq!(scene.get(id as u32), want);
            if let Some(slot) = scene.handles.slot(id as u32) {
                assert_eq!(scene.moving.records[slot as usize].id, id as u32);
            }
        }
        assert_eq!(scene.len(), 19_999);
        // Reordering an ordered store changes nothing.
        let order = ids(&scene);
        scene.reorder();
        assert!(ids(&scene) == order, "a second reorder");
    }

    #[test]
    fn reorder_takes_empty_invalid_and_unbounded_stores() {
        let mut empty = Scene::new();
        empty.push_static(Circle::new(0.0, 0.0, 1.0));
        empty.reorder();
        assert_eq!(empty.len(), 1);
        // No finite centre at all: the order stays the slots'.
        let odd = [
            Circle::new(f32::NAN, 0.0, 1.0),
            Circle::new(0.0, 0.0, f32::INFINITY),
            Circle::new(1.0, 2.0, -1.0),
        ];
        let mut scene: Scene = odd.into_iter().cycle().take(30).collect();
        let order = ids(&scene);
        scene.reorder();
        assert!(ids(&scene) == order);
        // A finite shape goes before them, and they keep their shapes.
        scene.push(Circle::new(5.0, 5.0, 1.0));
        scene.reorder();
        assert_eq!(scene.moving.records[0].id, 30);
        for id in 0..30 {
            let want = odd[id % 3];
            let got = scene.get(id as u32).expect("live");
            assert_eq!(format!("{got:?}"), format!("{:?}", Shape::from(want)));
        }
    }
}

//! parry2d's coherent broadphase, the peer of a kept `PairFinder` in the `pipeline` bench's
//! frames: a module of that bench, not a bench of its own.

use crate::support::{ParryScene, ParryTwin, parry_scene};
use parry2d::bounding_volume::{Aabb as ParryAabb, BoundingVolume};
use parry2d::partitioning::{Bvh, BvhWorkspace};
use parry2d::query::intersection_test;
use widephase::{Scene, Shape};

/// parry2d's coherent path, as a physics engine runs it: shapes built once, poses updated
/// every frame, `Bvh::insert_or_update_partially` with a margin, `refit`, the change-detecting
/// `traverse_bvtt_single_tree::<true>`, a persistent set of candidate pairs (dropped once their
/// boxes part), and `intersection_test` per candidate.
pub struct ParryCoherent {
    shapes: ParryScene,
    bvh: Bvh,
    workspace: BvhWorkspace,
    margin: f32,
    candidates: std::collections::HashSet<(u32, u32)>,
}

impl ParryCoherent {
    pub fn new(scene: &Scene, margin: f32) -> Self {
        Self {
            shapes: parry_scene(scene),
            bvh: Bvh::new(),
            workspace: BvhWorkspace::default(),
            margin,
            candidates: std::collections::HashSet::new(),
        }
    }

    /// One frame: the poses of `scene`'s shapes (the same shapes, moved), then the pairs.
    pub fn frame(&mut self, scene: &Scene) -> usize {
        for (i, (_, s)) in scene.iter().enumerate() {
            let pose = match s {
                Shape::Circle(c) => c.to_parry().0,
                Shape::Aabb(a) => a.to_parry().0,
                Shape::Obb(o) => o.to_parry().0,
                Shape::Polygon(q) => q.to_parry().0,
                Shape::Capsule(c) => c.to_parry().0,
            };
            self.shapes[i].0 = pose;
            let aabb = self.shapes[i].1.compute_aabb(&pose);
            self.bvh
                .insert_or_update_partially(aabb, i as u32, self.margin);
        }
        self.bvh.refit(&mut self.workspace);
        let candidates = &mut self.candidates;
        self.bvh
            .traverse_bvtt_single_tree::<true>(&mut self.workspace, &mut |a, b| {
                candidates.insert((a.min(b), a.max(b)));
            });
        let shapes = &self.shapes;
        let aabbs: Vec<ParryAabb> = shapes.iter().map(|(p, s)| s.compute_aabb(p)).collect();
        let margin = self.margin;
        candidates.retain(|&(a, b)| {
            aabbs[a as usize]
                .loosened(margin)
                .intersects(&aabbs[b as usize].loosened(margin))
        });
        candidates
            .iter()
            .filter(|&&(a, b)| {
                let (x, y) = (&shapes[a as usize], &shapes[b as usize]);
                intersection_test(&x.0, &*x.1, &y.0, &*y.1)
                    .unwrap()
                    .intersecting
            })
            .count()
    }
}

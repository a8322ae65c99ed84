//! [`Manifolds`]: the answer of [`batch_manifold`](crate::batch_manifold), one manifold per
//! pair.

use super::HitMask;
use crate::shape::{Manifold, ManifoldPoint};

/// One [`Manifold`] per tested pair, structure of arrays: [`hits`](Self::hits) says which pairs
/// overlap (exactly [`batch_test`](crate::batch_test)'s answer); the normal, each of the two
/// points' coordinates, depth and id, and the point count are columns of `len()` each. A pair
/// that does not overlap holds zeros and a count of 0.
///
/// Its allocations are reused from call to call.
///
/// ```
/// use widephase::{batch_manifold, Aabb, Aabbs, Circle, Circles, Manifolds};
/// let balls: Circles = [Circle::new(0.0, 0.8, 1.0), Circle::new(0.0, 5.0, 1.0)].into_iter().collect();
/// let floor: Aabbs = (0..2).map(|_| Aabb::new(-10.0, -1.0, 10.0, 0.0)).collect();
/// let mut out = Manifolds::new();
/// batch_manifold(&balls, &floor, &mut out)?;
/// let m = out.get(0).expect("the first ball touches the floor");
/// assert_eq!((m.normal, m.count), ([0.0, -1.0], 1));
/// assert!((m.points[0].point[1] + 0.1).abs() < 1e-6); // midway through the 0.2 overlap
/// assert_eq!(out.get(1), None);
/// assert_eq!(out.counts(), [1, 0]);
/// # Ok::<(), widephase::LengthMismatch>(())
/// ```
#[derive(Clone, Default, PartialEq)]
pub struct Manifolds {
    hits: HitMask,
    normal_x: Vec<f32>,
    normal_y: Vec<f32>,
    x: [Vec<f32>; 2],
    y: [Vec<f32>; 2],
    depth: [Vec<f32>; 2],
    id: [Vec<u32>; 2],
    count: Vec<u8>,
}

impl Manifolds {
    /// No manifolds.
    #[inline]
    #[must_use]
    pub const fn new() -> Self {
        Self {
            hits: HitMask::new(),
            normal_x: Vec::new(),
            normal_y: Vec::new(),
            x: [Vec::new(), Vec::new()],
            y: [Vec::new(), Vec::new()],
            depth: [Vec::new(), Vec::new()],
            id: [Vec::new(), Vec::new()],
            count: Vec::new(),
        }
    }

    /// Number of pairs tested.
    #[inline]
    #[must_use]
    pub const fn len(&self) -> usize {
        self.hits.len()
    }

    /// Whether no pairs were tested.
    #[inline]
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The manifold of pair `i`, or `None` when it does not overlap. Panics if `i >= len()`.
    #[must_use]
    pub fn get(&self, i: usize) -> Option<Manifold> {
        assert!(
            i < self.len(),
            "manifold {i} out of range for {}",
            self.len()
        );
        self.hits.get(i).then(|| self.at(i))
    }

    /// Pair `i`'s columns as a [`Manifold`].
    fn at(&self, i: usize) -> Manifold {
        Manifold {
            normal: [self.normal_x[i], self.normal_y[i]],
            points: core::array::from_fn(|k| ManifoldPoint {
                point: [self.x[k][i], self.y[k][i]],
                depth: self.depth[k][i],
                id: self.id[k][i],
            }),
            count: self.count[i],
        }
    }

    /// Which pairs overlap: [`batch_test`](crate::batch_test)'s answer.
    #[inline]
    #[must_use]
    pub fn hits(&self) -> &HitMask {
        &self.hits
    }

    /// The normals' horizontal components.
    #[inline]
    #[must_use]
    pub fn normal_x(&self) -> &[f32] {
        &self.normal_x
    }

    /// The normals' vertical components.
    #[inline]
    #[must_use]
    pub fn normal_y(&self) -> &[f32] {
        &self.normal_y
    }

    /// Point `k`'s (0 or 1) horizontal coordinates. Panics if `k > 1`.
    #[inline]
    #[must_use]
    pub fn point_x(&self, k: usize) -> &[f32] {
        &self.x[k]
    }

    /// Point `k`'s (0 or 1) vertical coordinates. Panics if `k > 1`.
    #[inline]
    #[must_use]
    pub fn point_y(&self, k: usize) -> &[f32] {
        &self.y[k]
    }

    /// Point `k`'s (0 or 1) depths. Panics if `k > 1`.
    #[inline]
    #[must_use]
    pub fn depth(&self, k: usize) -> &[f32] {
        &self.depth[k]
    }

    /// Point `k`'s (0 or 1) feature ids. Panics if `k > 1`.
    #[inline]
    #[must_use]
    pub fn id(&self, k: usize) -> &[u32] {
        &self.id[k]
    }

    /// The point counts: 0 where a pair does not overlap, else 1 or 2.
    #[inline]
    #[must_use]
    pub fn counts(&self) -> &[u8] {
        &self.count
    }

    /// The overlapping pairs' indices and manifolds, in order.
    pub fn iter(&self) -> impl Iterator<Item = (usize, Manifold)> + '_ {
        self.hits.iter_ones().map(|i| (i, self.at(i)))
    }

    /// Sized for `len` pairs, every column zero, the hits cleared.
    pub(crate) fn reset(&mut self, len: usize) {
        self.hits.reset(len);
        for v in [&mut self.normal_x, &mut self.normal_y]
            .into_iter()
            .chain(&mut self.x)
            .chain(&mut self.y)
            .chain(&mut self.depth)
        {
            v.clear();
            v.resize(len, 0.0);
        }
        for v in &mut self.id {
            v.clear();
            v.resize(len, 0);
        }
        self.count.clear();
        self.count.resize(len, 0);
    }

    /// Writes the lane block of pairs `first ..` (at most `len()` of them) from a manifold
    /// kernel's columns (see `ManifoldPair::manifold_lanes`): the float columns as slices, the
    /// ids and counts lane by lane, the hit bits from the mask.
    #[inline]
    pub(crate) fn write_block<V: crate::lanes::Simd>(&mut self, first: usize, m: &[V; 12]) {
        let n = V::LANES.min(self.len() - first);
        let range = first..first + n;
        let columns: [(&mut Vec<f32>, usize); 8] = {
            let [x0, x1] = &mut self.x;
            let [y0, y1] = &mut self.y;
            let [d0, d1] = &mut self.depth;
            [
                (&mut self.normal_x, 1),
                (&mut self.normal_y, 2),
                (x0, 3),
                (y0, 4),
                (d0, 5),
                (x1, 7),
                (y1, 8),
                (d1, 9),
            ]
        };
        for (column, c) in columns {
            column[range.clone()].copy_from_slice(&m[c].as_slice()[..n]);
        }
        for l in 0..n {
            self.id[0][first + l] = m[6].as_slice()[l] as u32;
            self.id[1][first + l] = m[10].as_slice()[l] as u32;
            self.count[first + l] = m[11].as_slice()[l] as u8;
        }
        let bits = u64::from(m[0].to_bitmask()) & ((1u64 << n) - 1);
        self.hits.or_bits(first, bits);
    }
}

impl core::fmt::Debug for Manifolds {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

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

    answer_views!(
        /// The normals' horizontal components.
        normal_x: f32,
        /// The normals' vertical components.
        normal_y: f32,
        /// Point `k`'s (0 or 1) horizontal coordinates. Panics if `k > 1`.
        point_x = x[k]: f32,
        /// Point `k`'s (0 or 1) vertical coordinates. Panics if `k > 1`.
        point_y = y[k]: f32,
        /// Point `k`'s (0 or 1) depths. Panics if `k > 1`.
        depth = depth[k]: f32,
        /// Point `k`'s (0 or 1) feature ids. Panics if `k > 1`.
        id = id[k]: u32,
    );

    /// The point counts: 0 where a pair does not overlap, else 1 or 2.
    #[inline]
    #[must_use]
    pub fn counts(&self) -> &[u8] {
        &self.count[..self.len()]
    }

    /// The overlapping pairs' indices and manifolds, in order.
    pub fn iter(&self) -> impl Iterator<Item = (usize, Manifold)> + '_ {
        self.hits.iter_ones().map(|i| (i, self.at(i)))
    }

    /// Sized for `len` pairs (the columns padded to whole blocks of sixteen), the hits
    /// cleared; the columns keep whatever they held: every block is written by the caller.
    pub(crate) fn reset(&mut self, len: usize) -> ManifoldRun<'_> {
        let padded = len.div_ceil(16) * 16;
        let [x0, x1] = &mut self.x;
        let [y0, y1] = &mut self.y;
        let [d0, d1] = &mut self.depth;
        let mut floats = [
            &mut self.normal_x,
            &mut self.normal_y,
            x0,
            y0,
            d0,
            x1,
            y1,
            d1,
        ];
        for v in &mut floats {
            v.truncate(padded);
            v.resize(padded, 0.0);
        }
        for v in &mut self.id {
            v.truncate(padded);
            v.resize(padded, 0);
        }
        self.count.truncate(padded);
        self.count.resize(padded, 0);
        let [id0, id1] = &mut self.id;
        ManifoldRun {
            words: self.hits.reset(len),
            floats: floats.map(|v| &mut v[..]),
            ids: [id0, id1],
            counts: &mut self.count,
        }
    }

    /// Clears the hit bits at and past `len()`.
    pub(crate) fn mask_tail(&mut self) {
        self.hits.mask_tail();
    }
}

/// The storage of a run of pairs (a multiple of 64 pairs, or the rest): their hit words and
/// columns, which a kernel fills block by block.
pub(crate) struct ManifoldRun<'a> {
    words: &'a mut [u64],
    /// The normal's two columns, then each point's `x`, `y`, `depth`.
    floats: [&'a mut [f32]; 8],
    ids: [&'a mut [u32]; 2],
    counts: &'a mut [u8],
}

/// Where each float column's values are in a kernel's columns (see
/// `ManifoldPair::manifold_lanes`).
const FLOAT_COLUMNS: [usize; 8] = [1, 2, 3, 4, 5, 7, 8, 9];

/// Byte `l` of `SPREAD[b]` is bit `l` of `b`.
static SPREAD: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let mut l = 0;
        while l < 8 {
            table[b] |= ((b as u64 >> l) & 1) << (8 * l);
            l += 1;
        }
        b += 1;
    }
    table
};

impl<'a> ManifoldRun<'a> {
    /// Number of pairs (whole blocks of sixteen).
    pub(crate) fn len(&self) -> usize {
        self.counts.len()
    }

    /// The first `pairs` pairs (a multiple of 64) and the rest.
    pub(crate) fn split(self, pairs: usize) -> (Self, Self) {
        let pairs = pairs.min(self.len());
        let (w0, w1) = self
            .words
            .split_at_mut(pairs.div_ceil(64).min(self.words.len()));
        let (mut f0, mut f1): ([&mut [f32]; 8], [&mut [f32]; 8]) = Default::default();
        for ((v, x), y) in self.floats.into_iter().zip(&mut f0).zip(&mut f1) {
            (*x, *y) = v.split_at_mut(pairs);
        }
        let [i0, i1] = self.ids.map(|v| v.split_at_mut(pairs));
        let (c0, c1) = self.counts.split_at_mut(pairs);
        (
            Self {
                words: w0,
                floats: f0,
                ids: [i0.0, i1.0],
                counts: c0,
            },
            Self {
                words: w1,
                floats: f1,
                ids: [i0.1, i1.1],
                counts: c1,
            },
        )
    }

    /// Writes lane block `j` (pairs `j·L ..`, `L = V::LANES`) from a manifold kernel's columns:
    /// whole blocks, the ids and counts converted lane-wide, the hit bits from the mask.
    #[inline(always)]
    pub(crate) fn write<V: crate::lanes::Simd>(&mut self, j: usize, m: &[V; 12]) {
        let l = V::LANES;
        let range = j * l..j * l + l;
        for (column, c) in self.floats.iter_mut().zip(FLOAT_COLUMNS) {
            column[range.clone()].copy_from_slice(m[c].as_slice());
        }
        for (ids, c) in self.ids.iter_mut().zip([6, 10]) {
            m[c].whole_into(&mut ids[range.clone()]);
        }
        // The counts (0, 1 or 2) as bytes, eight lanes at a time: (count ≥ 1) + (count ≥ 2)
        // from two bit masks, each spread to one byte per lane by a table (one store of eight
        // bytes instead of a lane extracted and stored at a time).
        let one = m[11].ge(V::splat(1.0)).to_bitmask();
        let two = m[11].ge(V::splat(2.0)).to_bitmask();
        for (h, bytes) in self.counts[range].chunks_exact_mut(8).enumerate() {
            let at = |bits: u32| SPREAD[(bits >> (8 * h) & 0xff) as usize];
            bytes.copy_from_slice(&(at(one) + at(two)).to_le_bytes());
        }
        self.words[j * l / 64] |= u64::from(m[0].to_bitmask()) << (j * l % 64);
    }
}

impl core::fmt::Debug for Manifolds {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

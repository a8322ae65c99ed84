//! [`Sweeps`]: the answer of [`batch_sweep`](crate::batch_sweep), one sweep per pair.

use super::HitMask;
use super::contacts::Columns;
use crate::shape::Sweep;
use core::fmt;

/// One sweep per pair, structure of arrays: [`hits`](Self::hits) says which pairs touch during
/// their motion, and [`t`](Self::t), [`normal_x`](Self::normal_x) and
/// [`normal_y`](Self::normal_y) hold their first contacts (see [`Sweep`]), `len()` each. A pair
/// that does not touch holds `t = 1` (its whole motion is free) and normal `(0, 0)`, so
/// `position + t · motion` is where every shape may go, hit or not.
///
/// Its allocations are reused from call to call, so a frame loop that keeps one does not
/// allocate once it has grown.
///
/// ```
/// use widephase::{batch_sweep, Aabb, Aabbs, Circle, Circles, Motions, Sweeps};
/// let bullets: Circles = [Circle::new(0.0, 0.0, 0.1), Circle::new(0.0, 3.0, 0.1)]
///     .into_iter()
///     .collect();
/// let walls: Aabbs = (0..2).map(|_| Aabb::new(1.0, -1.0, 1.02, 1.0)).collect();
/// let motions: Motions = (0..2).map(|_| [3.0, 0.0]).collect();
/// let mut sweeps = Sweeps::new();
/// batch_sweep(&bullets, &walls, &motions, &mut sweeps)?;
/// let hit = sweeps.get(0).expect("the first bullet hits the wall");
/// assert_eq!(hit.normal, [1.0, 0.0]);
/// assert_eq!(sweeps.get(1), None); // the second one flies above it
/// assert_eq!(sweeps.t()[1], 1.0);
/// # Ok::<(), widephase::LengthMismatch>(())
/// ```
#[derive(Clone, Default, PartialEq)]
pub struct Sweeps {
    hits: HitMask,
    /// Each column padded to whole lane blocks, so that kernels write blocks whole.
    t: Vec<f32>,
    normal_x: Vec<f32>,
    normal_y: Vec<f32>,
}

impl Sweeps {
    /// No sweeps.
    #[inline]
    #[must_use]
    pub const fn new() -> Self {
        Self {
            hits: HitMask::new(),
            t: Vec::new(),
            normal_x: Vec::new(),
            normal_y: Vec::new(),
        }
    }

    /// Number of pairs swept.
    #[inline]
    #[must_use]
    pub const fn len(&self) -> usize {
        self.hits.len()
    }

    /// Whether no pairs were swept.
    #[inline]
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The sweep of pair `i`, or `None` when that pair does not touch or `i >= len()`.
    #[inline]
    #[must_use]
    pub fn get(&self, i: usize) -> Option<Sweep> {
        (i < self.len() && self.hits.get(i)).then(|| self.at(i))
    }

    /// Pair `i`'s columns as a [`Sweep`].
    fn at(&self, i: usize) -> Sweep {
        Sweep {
            t: self.t[i],
            normal: [self.normal_x[i], self.normal_y[i]],
        }
    }

    /// Which pairs touch during their motion.
    #[inline]
    #[must_use]
    pub fn hits(&self) -> &HitMask {
        &self.hits
    }

    answer_views!(
        /// The fractions of the motion at first contact, `len()` of them (1 where a pair does
        /// not touch).
        t: f32,
        /// The normals' horizontal components, `len()` of them (0 where a pair does not touch).
        normal_x: f32,
        /// The normals' vertical components, `len()` of them (0 where a pair does not touch).
        normal_y: f32,
    );

    /// The touching pairs' indices and sweeps, ascending.
    pub fn iter(&self) -> impl Iterator<Item = (usize, Sweep)> + '_ {
        self.hits.iter_ones().map(|i| (i, self.at(i)))
    }

    /// Sets the length to `len` and hands out the hit words and the three columns (`t`, normal
    /// x, normal y; whole lane blocks) for kernels to fill; every word and lane is written by
    /// them.
    pub(crate) fn reset(&mut self, len: usize) -> Columns<'_> {
        let cols = [&mut self.t, &mut self.normal_x, &mut self.normal_y];
        Columns::reset(&mut self.hits, cols, len)
    }

    /// Clears the hit bits at and past `len()` (padding lanes never hit; a second guard).
    pub(crate) fn mask_tail(&mut self) {
        self.hits.mask_tail();
    }
}

impl fmt::Debug for Sweeps {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Sweeps")
            .field("len", &self.len())
            .field("sweeps", &self.iter().collect::<Vec<_>>())
            .finish()
    }
}

//! A manifold on lanes, what every path of [the manifold](super) answers.

use crate::lanes::Lane;

/// A manifold on lanes: the normal, two points (`x`, `y`, `depth`, `id` as a number) and the
/// count, zero where there is no hit.
#[derive(Clone, Copy)]
pub(crate) struct ManifoldLanes<L> {
    pub(crate) nx: L,
    pub(crate) ny: L,
    pub(crate) x: [L; 2],
    pub(crate) y: [L; 2],
    pub(crate) depth: [L; 2],
    pub(crate) id: [L; 2],
    pub(crate) count: L,
}

impl<L: Lane> ManifoldLanes<L> {
    /// The points' coordinates with NaN (from shapes whose sizes overflow, such as an infinite
    /// radius or an infinite box) replaced by 0.
    #[cfg(test)]
    pub(super) fn finite(self) -> Self {
        let zero = L::splat(0.0);
        let f = |v: L| L::select(v.eq(v), v, zero);
        Self {
            x: self.x.map(f),
            y: self.y.map(f),
            ..self
        }
    }

    /// `when ? a : b`, lane by lane.
    #[inline(always)]
    pub(super) fn pick(when: L::Mask, a: Self, b: Self) -> Self {
        let s = |p: L, q: L| L::select(when, p, q);
        let both = |p: [L; 2], q: [L; 2]| [s(p[0], q[0]), s(p[1], q[1])];
        Self {
            nx: s(a.nx, b.nx),
            ny: s(a.ny, b.ny),
            x: both(a.x, b.x),
            y: both(a.y, b.y),
            depth: both(a.depth, b.depth),
            id: both(a.id, b.id),
            count: s(a.count, b.count),
        }
    }

    /// Every lane zero where `hit` is clear; where it is set, the points' coordinates with NaN
    /// replaced by 0 (as the tests' `finite` does), one select per column.
    #[inline(always)]
    pub(super) fn finite_masked(self, hit: L::Mask) -> Self {
        let zero = L::splat(0.0);
        let z = |v: L| L::select(hit, v, zero);
        let f = |v: L| L::select(hit & v.eq(v), v, zero);
        Self {
            nx: z(self.nx),
            ny: z(self.ny),
            x: self.x.map(f),
            y: self.y.map(f),
            depth: self.depth.map(z),
            id: self.id.map(z),
            count: z(self.count),
        }
    }
}

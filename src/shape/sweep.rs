//! [`Sweep`]: when a moving shape first touches another, and along which direction.

/// The first contact of a shape `a` translated by `t · motion` (for `t` in `[0, 1]`, without
/// turning) with a shape `b` that stays: the answer of [`batch_sweep`](crate::batch_sweep) and
/// the sweep kernels.
///
/// - `t` is the first time in `[0, 1]` at which the two touch (closed shapes: touching
///   counts), a fraction of the motion: `a` may move by `t · motion` and no further.
/// - `normal` is the unit normal from `a` towards `b` at that contact: a direction along which
///   the two touch and `a` moves towards `b` (`motion · normal > 0`). Where a corner meets a
///   corner, it is the face normal most opposed to the motion, so that sliding along it works.
/// - A pair that already overlaps (touching included) answers `t = 0` and
///   [`batch_contact`](crate::batch_contact)'s normal where the motion goes deeper
///   (`motion · normal > 0`), and no sweep at all where it leaves or slides along: a shape can
///   always move out of, or along, what it touches; a motion that only grazes `b` (touching
///   it at one instant, square to the normal there) is no hit either.
///
/// The full statement, and how each kind's time is derived: the crate docs, "Sweeps".
///
/// ```
/// use widephase::{sweep_reference, Aabb, Circle, Sweep};
/// // A bullet of radius 0.1 flying 3 units right, through a wall 0.02 thick at x = 1.
/// let bullet = Circle::new(0.0, 0.0, 0.1);
/// let wall = Aabb::new(1.0, -5.0, 1.02, 5.0);
/// let hit = sweep_reference::circle_aabb(&bullet, &wall, [3.0, 0.0]).expect("it hits the wall");
/// assert_eq!(hit.normal, [1.0, 0.0]);
/// assert!((hit.t * 3.0 - 0.9).abs() < 1e-6); // it stops with its edge on the wall's face
/// // Moving away, or along, never hits.
/// assert_eq!(sweep_reference::circle_aabb(&bullet, &wall, [-3.0, 0.0]), None);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Sweep {
    /// The fraction of the motion at first contact, in `[0, 1]`.
    pub t: f32,
    /// Unit direction from `a` towards `b` at first contact: `[x, y]`.
    pub normal: [f32; 2],
}

impl Sweep {
    /// The same contact seen from `b` (`b` moving by `-motion` while `a` stays): the normal
    /// reversed (as `0 - n`, exactly), `t` unchanged.
    #[inline]
    #[must_use]
    pub fn reversed(self) -> Self {
        Self {
            t: self.t,
            normal: [0.0 - self.normal[0], 0.0 - self.normal[1]],
        }
    }
}

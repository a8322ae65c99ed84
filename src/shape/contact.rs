//! [`Contact`]: how deeply two overlapping shapes overlap, and along which direction.

/// The contact of an overlapping pair `(a, b)`: the unit `normal` pointing from `a` towards
/// `b`, and the penetration `depth`, the length of the smallest translation that separates
/// them.
///
/// Moving `b` by `depth · normal` (or `a` by the opposite) leaves the two just touching; any
/// shorter move leaves them overlapping. `depth >= 0`, and `normal` has length 1 up to f32
/// rounding. How ties between directions and degenerate directions are decided is stated once
/// in the crate docs (see "Contacts" there) and in [`narrow`](crate::narrow).
///
/// ```
/// use widephase::{contact_reference, Circle, Contact};
/// let a = Circle::new(0.0, 0.0, 1.0);
/// let b = Circle::new(1.5, 0.0, 1.0);
/// let c = contact_reference::circle_circle(&a, &b).expect("they overlap");
/// assert_eq!(c, Contact { normal: [1.0, 0.0], depth: 0.5 });
/// // Seen from b, the same contact points the other way.
/// assert_eq!(c.reversed().normal, [-1.0, 0.0]);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Contact {
    /// Unit direction from `a` towards `b`: `[x, y]`.
    pub normal: [f32; 2],
    /// Penetration depth, `>= 0`.
    pub depth: f32,
}

impl Contact {
    /// The same contact seen from `b`: the normal reversed (as `0 - n`, exactly), the depth
    /// unchanged.
    #[inline]
    #[must_use]
    pub fn reversed(self) -> Self {
        Self {
            normal: [0.0 - self.normal[0], 0.0 - self.normal[1]],
            depth: self.depth,
        }
    }
}

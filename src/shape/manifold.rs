//! [`Manifold`]: where two overlapping shapes touch: up to two points, each with its depth and a
//! feature id.

/// One point of a [`Manifold`]: in world coordinates, midway between the two surfaces along the
/// manifold's normal (`point + depth/2 · normal` lies on `a`'s boundary, `point - depth/2 ·
/// normal` on `b`'s), its penetration `depth >= 0`, and an `id` naming the features that made
/// it, the same from frame to frame while the same features touch (for warm starting a solver).
#[derive(Clone, Copy, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ManifoldPoint {
    /// The point, `[x, y]`.
    pub point: [f32; 2],
    /// The penetration at this point, `>= 0`.
    pub depth: f32,
    /// The features that made the point (see [`Manifold`]).
    pub id: u32,
}

/// Where two overlapping shapes `a` and `b` touch: the [`Contact`](crate::Contact)'s unit
/// `normal` (from `a` towards `b`) and one or two points (`count`; the rest are zero).
///
/// A circle or a point against anything touches at one point, the deepest. Two shapes with
/// edges (boxes, polygons, capsules) whose contact normal is the outward normal of one of their
/// faces (the reference face: `a`'s, or the reverse of `b`'s) touch along the other shape's edge
/// most opposed to it (the incident edge), clipped to the reference face's side lines; the
/// clipped ends that penetrate are the points. Where the normal is no face's (two rounded or
/// vertex features), the one deepest point. A box or capsule shrunk to a point (every edge of
/// length 0) has no face: never the reference, and no edge to clip, so it too touches at its
/// one deepest point. The deepest point's depth is the contact's, exactly (both points', where
/// they are equally deep: a face resting flat on a face).
///
/// A clipped point's `id` is `1 << 8 | reference << 7 | reference edge << 4 | incident edge << 1
/// | end`: `reference` is 0 when the reference face is `a`'s and 1 when it is `b`'s, the edges
/// are indices of their first vertex (counter-clockwise; a polygon's closing edge is edge 7
/// whatever its number of vertices, as it repeats its last vertex in the free slots), and `end`
/// which end (0, 1) of the incident edge made the point; a single deepest point has id 0. The
/// two points of a manifold have different ids. Whichever order a pair is given in, `a` is
/// the first shape of the call (of the pair, in a [`Scene`](crate::Scene)'s answers).
///
/// ```
/// use widephase::{manifold_reference, Aabb, Manifold};
/// // A unit box resting 0.1 deep on a floor: two points at the ends of the shared span.
/// let floor = Aabb::new(-10.0, -1.0, 10.0, 0.0);
/// let block = Aabb::new(-0.5, -0.1, 0.5, 0.9);
/// let m = manifold_reference::aabb_aabb(&floor, &block).expect("they overlap");
/// assert_eq!(m.normal, [0.0, 1.0]);
/// assert_eq!(m.points().len(), 2);
/// for p in m.points() {
///     assert!((p.depth - 0.1).abs() < 1e-6);
///     assert!((p.point[0].abs() - 0.5).abs() < 1e-6 && (p.point[1] + 0.05).abs() < 1e-6);
/// }
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Manifold {
    /// Unit direction from `a` towards `b`: the contact's normal.
    pub normal: [f32; 2],
    /// The points; only the first `count` mean anything (the others are zero).
    pub points: [ManifoldPoint; 2],
    /// How many points: 1 or 2 for an overlapping pair.
    pub count: u8,
}

impl Manifold {
    /// The points, the first `count` of `points`.
    #[inline]
    #[must_use]
    pub fn points(&self) -> &[ManifoldPoint] {
        &self.points[..usize::from(self.count.min(2))]
    }

    /// The same manifold seen from `b`: the normal reversed (as `0 - n`, exactly), the points
    /// and depths unchanged, and each clipped point's id naming the other shape as the
    /// reference (its `reference` bit flipped: the features are the same).
    #[inline]
    #[must_use]
    pub fn reversed(self) -> Self {
        let mut points = self.points;
        for p in &mut points {
            p.id = reversed_id(p.id);
        }
        Self {
            normal: [0.0 - self.normal[0], 0.0 - self.normal[1]],
            points,
            ..self
        }
    }
}

/// The bit of a clipped point's id (never set in a single deepest point's, 0).
pub(crate) const CLIPPED: u32 = 1 << 8;
/// The bit of a clipped point's id set where the reference face is `b`'s.
pub(crate) const B_REFERENCE: u32 = 1 << 7;

/// A point's id seen from the pair's other shape: a clipped point's reference bit flipped.
#[inline]
pub(crate) const fn reversed_id(id: u32) -> u32 {
    if id & CLIPPED != 0 {
        id ^ B_REFERENCE
    } else {
        id
    }
}

//! The one-shot answers of a [`Scene`]: its overlapping pairs, contacts and manifolds, and the
//! pairs it makes with another scene, each through a [`PairFinder`] made for the call (a frame
//! loop keeps one instead).

use super::finder::PairFinder;
use super::store::Scene;

impl Scene {
    /// Every pair `(a, b)`, `a < b`, of live shapes that overlap by the kernels' exact answer,
    /// whose [`Filter`](crate::Filter)s pair and which are not both static; sorted, without
    /// duplicates. Shapes that fail [`Shape::check`](crate::Shape::check) are never paired.
    ///
    /// Allocates its scratch and its answer; a frame loop should keep a [`PairFinder`] instead.
    #[must_use]
    pub fn overlapping_pairs(&self) -> Vec<(u32, u32)> {
        let mut out = Vec::new();
        PairFinder::new().overlapping_pairs_from_scratch(self, &mut out);
        out
    }

    /// The pairs of [`overlapping_pairs`](Self::overlapping_pairs) but those with a sensor
    /// ([`Scene::push_sensor`](crate::Scene::push_sensor)), in the same order, each with its
    /// [`Contact`](crate::Contact): `(a, b, contact)`, the normal pointing from shape `a`
    /// towards shape `b`.
    ///
    /// Allocates its scratch and its answer; a frame loop should keep a [`PairFinder`] and call
    /// [`PairFinder::contacts`] instead.
    ///
    /// ```
    /// use widephase::{Circle, Scene};
    /// let scene: Scene = [Circle::new(0.0, 0.0, 1.0), Circle::new(1.5, 0.0, 1.0)]
    ///     .into_iter()
    ///     .collect();
    /// let contacts = scene.contacts();
    /// assert_eq!(contacts.len(), 1);
    /// let (a, b, c) = contacts[0];
    /// assert_eq!((a, b, c.normal, c.depth), (0, 1, [1.0, 0.0], 0.5));
    /// ```
    #[must_use]
    pub fn contacts(&self) -> Vec<(u32, u32, crate::Contact)> {
        let mut out = Vec::new();
        PairFinder::new().contacts_from_scratch(self, &mut out);
        out
    }

    /// The pairs of [`overlapping_pairs`](Self::overlapping_pairs) but those with a sensor
    /// ([`Scene::push_sensor`](crate::Scene::push_sensor)), in the same order, each with its
    /// [`Manifold`](crate::Manifold): `(a, b, manifold)`, as
    /// [`manifold_reference`](mod@crate::manifold_reference) answers for the two shapes in that
    /// order. Allocates its scratch and its answer; a frame loop should keep a [`PairFinder`]
    /// and call [`PairFinder::manifolds`] instead.
    ///
    /// ```
    /// use widephase::{Aabb, Circle, Scene};
    /// let mut scene = Scene::new();
    /// scene.push(Aabb::new(-5.0, -1.0, 5.0, 0.0));
    /// scene.push(Circle::new(0.0, 0.75, 1.0));
    /// let (a, b, m) = scene.manifolds()[0];
    /// assert_eq!((a, b, m.normal, m.count), (0, 1, [0.0, 1.0], 1));
    /// assert_eq!((m.points[0].point, m.points[0].depth), ([0.0, -0.125], 0.25));
    /// ```
    #[must_use]
    pub fn manifolds(&self) -> Vec<(u32, u32, crate::Manifold)> {
        let mut out = Vec::new();
        let mut finder = PairFinder::new();
        let mut pairs = Vec::new();
        finder.overlapping_pairs_from_scratch(self, &mut pairs);
        finder.manifolds_of(self, &pairs, &mut out);
        out
    }

    /// Every pair `(id in self, id in other)` whose shapes overlap, sorted (for example bullets
    /// against enemies), with the rules of [`overlapping_pairs`](Self::overlapping_pairs): each
    /// shape's [`Filter`](crate::Filter) from its own scene, and a static shape of one scene
    /// pairs with a moving one of the other, never with a static one. Uses `self`'s cell size
    /// setting.
    #[must_use]
    pub fn pairs_with(&self, other: &Scene) -> Vec<(u32, u32)> {
        let mut out = Vec::new();
        PairFinder::new().pairs_with(self, other, &mut out);
        out
    }
}

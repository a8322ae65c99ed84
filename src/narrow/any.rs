//! One pair of shapes of any kinds, in either order: [`Shape::overlaps`],
//! [`Shape::contact`] and [`Shape::sweep`], through the scalar references (which the kernels
//! match bit for bit).

use crate::batch::SweepPair;
use crate::shape::{Contact, Shape, Sweep};
use crate::soa::{Aabbs, Capsules, Circles, Obbs, Polygons};

impl Shape {
    /// Whether this shape and `other` overlap (touching included), in either order: the
    /// scene's rule, which [`Scene::query_shape`](crate::Scene::query_shape) and the pair
    /// search follow: a shape that fails [`check`](Self::check) (NaN, a negative radius, a
    /// polygon that rounding made concave, …) overlaps nothing, and two valid shapes overlap as
    /// [`reference`](mod@crate::reference) answers for their kinds (the kernels' bits).
    ///
    /// ```
    /// use widephase::{Aabb, Capsule, Circle, Shape};
    /// let blast: Shape = Circle::new(0.0, 0.0, 3.0).into();
    /// let crate_: Shape = Aabb::new(2.2, 2.2, 4.0, 4.0).into();
    /// let rod: Shape = Capsule::new(2.5, -1.0, 5.0, -1.0, 0.2).into();
    /// assert!(!blast.overlaps(&crate_)); // its corner (2.2, 2.2) is 3.11 away
    /// assert!(blast.overlaps(&rod) && rod.overlaps(&blast));
    /// ```
    #[must_use]
    pub fn overlaps(&self, other: &Shape) -> bool {
        use crate::reference as r;
        use Shape::{Aabb, Capsule, Circle, Obb, Polygon};
        if !self.valid_with(other) {
            return false;
        }
        match (self, other) {
            (Circle(a), Circle(b)) => r::circle_circle(a, b),
            (Circle(a), Aabb(b)) | (Aabb(b), Circle(a)) => r::circle_aabb(a, b),
            (Circle(a), Obb(b)) | (Obb(b), Circle(a)) => r::circle_obb(a, b),
            (Circle(a), Polygon(b)) | (Polygon(b), Circle(a)) => r::circle_polygon(a, b),
            (Circle(a), Capsule(b)) | (Capsule(b), Circle(a)) => r::circle_capsule(a, b),
            (Aabb(a), Aabb(b)) => r::aabb_aabb(a, b),
            (Aabb(a), Obb(b)) | (Obb(b), Aabb(a)) => r::aabb_obb(a, b),
            (Aabb(a), Polygon(b)) | (Polygon(b), Aabb(a)) => r::aabb_polygon(a, b),
            (Aabb(a), Capsule(b)) | (Capsule(b), Aabb(a)) => r::aabb_capsule(a, b),
            (Obb(a), Obb(b)) => r::obb_obb(a, b),
            (Obb(a), Polygon(b)) | (Polygon(b), Obb(a)) => r::obb_polygon(a, b),
            (Obb(a), Capsule(b)) | (Capsule(b), Obb(a)) => r::obb_capsule(a, b),
            (Polygon(a), Polygon(b)) => r::polygon_polygon(a, b),
            (Polygon(a), Capsule(b)) | (Capsule(b), Polygon(a)) => r::polygon_capsule(a, b),
            (Capsule(a), Capsule(b)) => r::capsule_capsule(a, b),
        }
    }

    /// The [`Contact`] of this shape and `other` when they overlap: the normal points from
    /// `self` towards `other`, as [`contact_reference`](mod@crate::contact_reference) answers
    /// for the two kinds in that order (the other order's answer reversed, bit for bit, where
    /// the table has the kinds the other way round): what
    /// [`PairFinder::contacts`](crate::PairFinder::contacts) reports for the pair. `Some`
    /// exactly when [`overlaps`](Self::overlaps).
    ///
    /// ```
    /// use widephase::{Aabb, Circle, Shape};
    /// let floor: Shape = Aabb::new(-10.0, -1.0, 10.0, 0.0).into();
    /// let ball: Shape = Circle::new(0.0, 0.75, 1.0).into();
    /// let c = ball.contact(&floor).unwrap();
    /// assert_eq!(c.normal, [0.0, -1.0]); // from the ball down to the floor
    /// assert_eq!(c.depth, 0.25);
    /// assert_eq!(floor.contact(&ball).unwrap().normal, [0.0, 1.0]);
    /// ```
    #[must_use]
    pub fn contact(&self, other: &Shape) -> Option<Contact> {
        // A contact's hit is the overlap test's (crate docs, "Contacts"): no second test.
        self.valid_with(other)
            .then(|| self.contact_of(other))
            .flatten()
    }

    /// Whether this shape and `other` both pass [`check`](Self::check).
    fn valid_with(&self, other: &Shape) -> bool {
        self.check().is_ok() && other.check().is_ok()
    }

    /// [`contact`](Self::contact) of two shapes known to be valid.
    fn contact_of(&self, other: &Shape) -> Option<Contact> {
        use crate::contact_reference as r;
        use Shape::{Aabb, Capsule, Circle, Obb, Polygon};
        match (self, other) {
            (Circle(a), Circle(b)) => r::circle_circle(a, b),
            (Circle(a), Aabb(b)) => r::circle_aabb(a, b),
            (Circle(a), Obb(b)) => r::circle_obb(a, b),
            (Circle(a), Polygon(b)) => r::circle_polygon(a, b),
            (Circle(a), Capsule(b)) => r::circle_capsule(a, b),
            (Aabb(a), Aabb(b)) => r::aabb_aabb(a, b),
            (Aabb(a), Obb(b)) => r::aabb_obb(a, b),
            (Aabb(a), Polygon(b)) => r::aabb_polygon(a, b),
            (Aabb(a), Capsule(b)) => r::aabb_capsule(a, b),
            (Obb(a), Obb(b)) => r::obb_obb(a, b),
            (Obb(a), Polygon(b)) => r::obb_polygon(a, b),
            (Obb(a), Capsule(b)) => r::obb_capsule(a, b),
            (Polygon(a), Polygon(b)) => r::polygon_polygon(a, b),
            (Polygon(a), Capsule(b)) => r::polygon_capsule(a, b),
            (Capsule(a), Capsule(b)) => r::capsule_capsule(a, b),
            (a, b) => b.contact_of(a).map(Contact::reversed),
        }
    }

    /// The [`Sweep`] of this shape moving by `motion` against `other`, which stays: when it
    /// first touches it and the normal from `self` towards `other` there (see [`Sweep`] and
    /// the crate docs, "Sweeps"), as [`SweepPair`] answers for the two kinds in this order,
    /// and what [`Scene::cast_shape`](crate::Scene::cast_shape) reports for the pair. A shape
    /// that fails [`check`](Self::check) touches nothing, as in [`overlaps`](Self::overlaps).
    ///
    /// ```
    /// use widephase::{Aabb, Circle, Shape};
    /// let wall: Shape = Aabb::new(2.0, -5.0, 2.02, 5.0).into();
    /// let bullet: Shape = Circle::new(0.0, 0.0, 0.1).into();
    /// let hit = bullet.sweep(&wall, [6.0, 0.0]).unwrap();
    /// assert!((hit.t * 6.0 - 1.9).abs() < 1e-5 && hit.normal == [1.0, 0.0]);
    /// // The wall moving onto the bullet: the same time, the normal from the wall.
    /// assert_eq!(wall.sweep(&bullet, [-6.0, 0.0]).unwrap().normal, [-1.0, 0.0]);
    /// ```
    #[must_use]
    pub fn sweep(&self, other: &Shape, motion: [f32; 2]) -> Option<Sweep> {
        use Shape::{Aabb, Capsule, Circle, Obb, Polygon};
        fn of<A: SweepPair<B>, B: crate::soa::ShapeSoa>(
            a: &A::Shape,
            b: &B::Shape,
            m: [f32; 2],
        ) -> Option<Sweep> {
            A::sweep_reference(a, b, m)
        }
        if !self.valid_with(other) {
            return None;
        }
        let m = motion;
        match (self, other) {
            (Circle(a), Circle(b)) => of::<Circles, Circles>(a, b, m),
            (Circle(a), Aabb(b)) => of::<Circles, Aabbs>(a, b, m),
            (Circle(a), Obb(b)) => of::<Circles, Obbs>(a, b, m),
            (Circle(a), Polygon(b)) => of::<Circles, Polygons>(a, b, m),
            (Circle(a), Capsule(b)) => of::<Circles, Capsules>(a, b, m),
            (Aabb(a), Circle(b)) => of::<Aabbs, Circles>(a, b, m),
            (Aabb(a), Aabb(b)) => of::<Aabbs, Aabbs>(a, b, m),
            (Aabb(a), Obb(b)) => of::<Aabbs, Obbs>(a, b, m),
            (Aabb(a), Polygon(b)) => of::<Aabbs, Polygons>(a, b, m),
            (Aabb(a), Capsule(b)) => of::<Aabbs, Capsules>(a, b, m),
            (Obb(a), Circle(b)) => of::<Obbs, Circles>(a, b, m),
            (Obb(a), Aabb(b)) => of::<Obbs, Aabbs>(a, b, m),
            (Obb(a), Obb(b)) => of::<Obbs, Obbs>(a, b, m),
            (Obb(a), Polygon(b)) => of::<Obbs, Polygons>(a, b, m),
            (Obb(a), Capsule(b)) => of::<Obbs, Capsules>(a, b, m),
            (Polygon(a), Circle(b)) => of::<Polygons, Circles>(a, b, m),
            (Polygon(a), Aabb(b)) => of::<Polygons, Aabbs>(a, b, m),
            (Polygon(a), Obb(b)) => of::<Polygons, Obbs>(a, b, m),
            (Polygon(a), Polygon(b)) => of::<Polygons, Polygons>(a, b, m),
            (Polygon(a), Capsule(b)) => of::<Polygons, Capsules>(a, b, m),
            (Capsule(a), Circle(b)) => of::<Capsules, Circles>(a, b, m),
            (Capsule(a), Aabb(b)) => of::<Capsules, Aabbs>(a, b, m),
            (Capsule(a), Obb(b)) => of::<Capsules, Obbs>(a, b, m),
            (Capsule(a), Polygon(b)) => of::<Capsules, Polygons>(a, b, m),
            (Capsule(a), Capsule(b)) => of::<Capsules, Capsules>(a, b, m),
        }
    }
}

//! [`Contacts`]: the answer of [`batch_contact`](crate::batch_contact), one contact per pair.

use crate::shape::Contact;

column_answer! {
    /// One contact per tested pair, structure of arrays: [`hits`](Self::hits) says which pairs
    /// overlap (exactly [`batch_test`](crate::batch_test)'s answer), and
    /// [`normal_x`](Self::normal_x), [`normal_y`](Self::normal_y) and [`depth`](Self::depth) hold
    /// their contacts, `len()` each. A pair that does not overlap holds normal `(0, 0)` and depth
    /// 0.
    ///
    /// Its allocations are reused from call to call, so a frame loop that keeps one does not
    /// allocate once it has grown.
    ///
    /// ```
    /// use widephase::{batch_contact, Aabb, Aabbs, Circle, Circles, Contact, Contacts};
    /// let circles: Circles = [Circle::new(0.0, 0.0, 1.0), Circle::new(0.0, 5.0, 1.0)]
    ///     .into_iter()
    ///     .collect();
    /// let floors: Aabbs = (0..2).map(|_| Aabb::new(-10.0, -10.0, 10.0, -0.75)).collect();
    /// let mut contacts = Contacts::new();
    /// batch_contact(&circles, &floors, &mut contacts)?;
    /// assert_eq!(contacts.len(), 2);
    /// // The floor lies below the first circle: the normal points down, 0.25 deep.
    /// assert_eq!(contacts.get(0), Some(Contact { normal: [0.0, -1.0], depth: 0.25 }));
    /// assert_eq!(contacts.get(1), None); // the second one is far above
    /// assert_eq!(contacts.depth(), [0.25, 0.0]);
    /// # Ok::<(), widephase::LengthMismatch>(())
    /// ```
    Contacts of Contact {
        tested: "tested", one: "contact", meets: "overlap", met: "overlapping",
        /// Which pairs overlap: the same bits as [`batch_test`](crate::batch_test) on the same
        /// input.
        hits,
        /// The normals' horizontal components, `len()` of them (0 where a pair does not
        /// overlap).
        normal_x,
        /// The normals' vertical components, `len()` of them (0 where a pair does not overlap).
        normal_y,
        /// The penetration depths, `len()` of them (0 where a pair does not overlap).
        depth,
    }
}

impl Contacts {
    /// Pair `i`'s columns as a [`Contact`].
    fn at(&self, i: usize) -> Contact {
        Contact {
            normal: [self.normal_x[i], self.normal_y[i]],
            depth: self.depth[i],
        }
    }
}

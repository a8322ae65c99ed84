//! [`Sweeps`]: the answer of [`batch_sweep`](crate::batch_sweep), one sweep per pair.

use crate::shape::Sweep;

column_answer! {
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
    Sweeps of Sweep {
        tested: "swept", one: "sweep", meets: "touch", met: "touching",
        /// Which pairs touch during their motion.
        hits,
        /// The fractions of the motion at first contact, `len()` of them (1 where a pair does
        /// not touch).
        t,
        /// The normals' horizontal components, `len()` of them (0 where a pair does not touch).
        normal_x,
        /// The normals' vertical components, `len()` of them (0 where a pair does not touch).
        normal_y,
    }
}

impl Sweeps {
    /// Pair `i`'s columns as a [`Sweep`].
    fn at(&self, i: usize) -> Sweep {
        Sweep {
            t: self.t[i],
            normal: [self.normal_x[i], self.normal_y[i]],
        }
    }
}

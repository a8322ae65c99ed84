//! [`Contacts`]: the answer of [`batch_contact`](crate::batch_contact), one contact per pair.

use super::HitMask;
use crate::shape::Contact;
use core::fmt;

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
#[derive(Clone, Default, PartialEq)]
pub struct Contacts {
    hits: HitMask,
    /// Each column padded to whole lane blocks, so that kernels write blocks whole.
    normal_x: Vec<f32>,
    normal_y: Vec<f32>,
    depth: Vec<f32>,
}

impl Contacts {
    /// No contacts.
    #[inline]
    #[must_use]
    pub const fn new() -> Self {
        Self {
            hits: HitMask::new(),
            normal_x: Vec::new(),
            normal_y: Vec::new(),
            depth: Vec::new(),
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

    /// The contact of pair `i`, or `None` when that pair does not overlap or `i >= len()`.
    #[inline]
    #[must_use]
    pub fn get(&self, i: usize) -> Option<Contact> {
        (i < self.len() && self.hits.get(i)).then(|| self.at(i))
    }

    /// Pair `i`'s columns as a [`Contact`].
    fn at(&self, i: usize) -> Contact {
        Contact {
            normal: [self.normal_x[i], self.normal_y[i]],
            depth: self.depth[i],
        }
    }

    /// Which pairs overlap: the same bits as [`batch_test`](crate::batch_test) on the same
    /// input.
    #[inline]
    #[must_use]
    pub fn hits(&self) -> &HitMask {
        &self.hits
    }

    answer_views!(
        /// The normals' horizontal components, `len()` of them (0 where a pair does not
        /// overlap).
        normal_x: f32,
        /// The normals' vertical components, `len()` of them (0 where a pair does not overlap).
        normal_y: f32,
        /// The penetration depths, `len()` of them (0 where a pair does not overlap).
        depth: f32,
    );

    /// The overlapping pairs' indices and contacts, ascending.
    pub fn iter(&self) -> impl Iterator<Item = (usize, Contact)> + '_ {
        self.hits.iter_ones().map(|i| (i, self.at(i)))
    }

    /// Sets the length to `len` and hands out the hit words and the three columns (normal x,
    /// normal y, depth; whole lane blocks) for kernels to fill; every word and lane is written
    /// by them.
    pub(crate) fn reset(&mut self, len: usize) -> Columns<'_> {
        let cols = [&mut self.normal_x, &mut self.normal_y, &mut self.depth];
        Columns::reset(&mut self.hits, cols, len)
    }

    /// Clears the hit bits at and past `len()` (padding lanes never hit; a second guard).
    pub(crate) fn mask_tail(&mut self) {
        self.hits.mask_tail();
    }
}

/// A three-column answer's storage ([`Contacts`]: normal x, normal y, depth; [`Sweeps`](super::Sweeps):
/// `t`, normal x, normal y), or a run of it, as kernels fill it.
pub(crate) struct Columns<'a> {
    pub(crate) words: &'a mut [u64],
    pub(crate) cols: [&'a mut [f32]; 3],
}

impl<'a> Columns<'a> {
    /// Sets `hits` to `len` pairs and each column to whole blocks of the widest kernel (sixteen
    /// lanes, whatever width fills them), and hands them out.
    pub(crate) fn reset(hits: &'a mut HitMask, cols: [&'a mut Vec<f32>; 3], len: usize) -> Self {
        let padded = len.div_ceil(16) * 16;
        let cols = cols.map(|column| {
            column.truncate(padded);
            column.resize(padded, 0.0);
            column.as_mut_slice()
        });
        Self {
            words: hits.reset(len),
            cols,
        }
    }
}

impl fmt::Debug for Contacts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Contacts")
            .field("len", &self.len())
            .field("contacts", &self.iter().collect::<Vec<_>>())
            .finish()
    }
}

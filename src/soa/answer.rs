//! What the three-column answers ([`Contacts`](super::Contacts), [`Sweeps`](super::Sweeps))
//! share: `column_answer!`, which writes such a type around the `at(i)` that turns pair `i`'s
//! columns into its item, and [`Columns`], their storage as kernels fill it.

use super::HitMask;
use crate::lanes::Simd;

/// A three-column answer type: the struct (the hit mask and one padded `f32` column per named
/// column), `new`, `len`, `is_empty`, `get`, `hits`, the column views, `iter`, and for the
/// batch functions `reset` and `mask_tail`, and a `Debug` that lists the hits. The caller
/// writes `fn at(&self, i: usize) -> Item` in its own `impl`. The literals word the docs: what
/// was done to the pairs (`tested`), one item (`one`), and what a hit does (`meets`, `met`).
macro_rules! column_answer {
    (
        $(#[$doc:meta])*
        $Answer:ident of $Item:ident {
            tested: $tested:literal, one: $one:literal, meets: $meets:literal, met: $met:literal,
            $(#[$hits_doc:meta])*
            hits,
            $($(#[$col_doc:meta])* $col:ident,)+
        }
    ) => {
        $(#[$doc])*
        #[derive(Clone, Default, PartialEq)]
        pub struct $Answer {
            hits: $crate::soa::HitMask,
            // Each column padded to whole lane blocks, so that kernels write blocks whole.
            $($col: Vec<f32>,)+
        }

        impl $Answer {
            #[doc = concat!("No ", $one, "s.")]
            #[inline]
            #[must_use]
            pub const fn new() -> Self {
                Self { hits: $crate::soa::HitMask::new(), $($col: Vec::new(),)+ }
            }

            #[doc = concat!("Number of pairs ", $tested, ".")]
            #[inline]
            #[must_use]
            pub const fn len(&self) -> usize {
                self.hits.len()
            }

            #[doc = concat!("Whether no pairs were ", $tested, ".")]
            #[inline]
            #[must_use]
            pub const fn is_empty(&self) -> bool {
                self.len() == 0
            }

            #[doc = concat!("The ", $one, " of pair `i`, or `None` when that pair does not ",
                $meets, " or `i >= len()`.")]
            #[inline]
            #[must_use]
            pub fn get(&self, i: usize) -> Option<$Item> {
                (i < self.len() && self.hits.get(i)).then(|| self.at(i))
            }

            $(#[$hits_doc])*
            #[inline]
            #[must_use]
            pub fn hits(&self) -> &$crate::soa::HitMask {
                &self.hits
            }

            answer_views!($($(#[$col_doc])* $col: f32,)+);

            #[doc = concat!("The ", $met, " pairs' indices and ", $one, "s, ascending.")]
            pub fn iter(&self) -> impl Iterator<Item = (usize, $Item)> + '_ {
                self.hits.iter_ones().map(|i| (i, self.at(i)))
            }

            /// Sets the length to `len` and hands out the hit words and the columns (whole
            /// lane blocks) for kernels to fill; every word and lane is written by them.
            pub(crate) fn reset(&mut self, len: usize) -> $crate::soa::Columns<'_> {
                $crate::soa::Columns::reset(&mut self.hits, [$(&mut self.$col),+], len)
            }

            /// Clears the hit bits at and past `len()` (padding lanes never hit; a second
            /// guard).
            pub(crate) fn mask_tail(&mut self) {
                self.hits.mask_tail();
            }
        }

        impl core::fmt::Debug for $Answer {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.debug_struct(stringify!($Answer))
                    .field("len", &self.len())
                    .field(concat!($one, "s"), &self.iter().collect::<Vec<_>>())
                    .finish()
            }
        }
    };
}

/// A three-column answer's storage ([`Contacts`](super::Contacts): normal x, normal y, depth; [`Sweeps`](super::Sweeps):
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

impl Columns<'_> {
    /// Number of `V::LANES`-lane blocks the columns hold.
    #[inline(always)]
    pub(crate) fn blocks<V: Simd>(&self) -> usize {
        self.cols[0].len() / V::LANES
    }

    /// Writes every block `j` from `kernel(j)`, a kernel's lane columns `[mask, c0, c1, c2]`:
    /// the three columns whole, the hit bits from the mask (the words start zero).
    #[inline(always)]
    pub(crate) fn fill<V: Simd>(self, mut kernel: impl FnMut(usize) -> [V; 4]) {
        let l = V::LANES;
        let [c0, c1, c2] = self.cols;
        let columns = c0
            .chunks_exact_mut(l)
            .zip(c1.chunks_exact_mut(l))
            .zip(c2.chunks_exact_mut(l));
        for (j, ((x0, x1), x2)) in columns.enumerate() {
            write_block(self.words, [x0, x1, x2], j, kernel(j));
        }
    }

    /// [`fill`](Self::fill), blocks `j` and `j + 1` from one call `twice(j)` (the last block,
    /// where their number is odd, from `once`).
    #[inline(always)]
    pub(crate) fn fill_twice<V: Simd>(
        self,
        mut once: impl FnMut(usize) -> [V; 4],
        twice: impl Fn(usize) -> [[V; 4]; 2],
    ) {
        let l = V::LANES;
        let [c0, c1, c2] = self.cols;
        let columns = c0
            .chunks_exact_mut(2 * l)
            .zip(c1.chunks_exact_mut(2 * l))
            .zip(c2.chunks_exact_mut(2 * l));
        let pairs = columns.len();
        for (p, ((x0, x1), x2)) in columns.enumerate() {
            let (j, [first, second]) = (2 * p, twice(2 * p));
            let ((a0, b0), (a1, b1), (a2, b2)) =
                (x0.split_at_mut(l), x1.split_at_mut(l), x2.split_at_mut(l));
            write_block(self.words, [a0, a1, a2], j, first);
            write_block(self.words, [b0, b1, b2], j + 1, second);
        }
        let j = 2 * pairs;
        if j * l < c0.len() {
            let at = j * l..(j + 1) * l;
            let block = [&mut c0[at.clone()], &mut c1[at.clone()], &mut c2[at]];
            write_block(self.words, block, j, once(j));
        }
    }
}

/// Block `j`'s kernel answer `[mask, v0, v1, v2]` into its three column runs and its hit bits
/// in `words` (which start zero).
#[inline(always)]
fn write_block<V: Simd>(words: &mut [u64], cols: [&mut [f32]; 3], j: usize, answer: [V; 4]) {
    let l = V::LANES;
    let [mask, v0, v1, v2] = answer;
    let [x0, x1, x2] = cols;
    x0.copy_from_slice(v0.as_slice());
    x1.copy_from_slice(v1.as_slice());
    x2.copy_from_slice(v2.as_slice());
    words[j * l / 64] |= u64::from(mask.to_bitmask()) << (j * l % 64);
}

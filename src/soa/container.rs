//! `soa_container!`: one macro generates every container, plain and array fields alike.
//!
//! A container stores its shape's `f32`s as columns of sixteen-lane chunks ([`Chunk`]),
//! `cols[c]` for the shape's `c`-th `f32`: a plain field is one column, an array field one
//! column per element. Shapes and lane types are `#[repr(C)]` runs of `f32` and lane vectors in
//! the same order, so reading and writing go by column number, whatever the fields are called;
//! the named views know their column.
//!
//! Why chunks of sixteen at every lane width: a chunk is one 64-byte cache line, so a
//! sixteen-lane kernel loads each field of a block with one aligned load, never split across
//! two lines, and an eight-lane kernel reads each chunk as two blocks (`bytemuck::cast_slice`,
//! no copy). The cost is up to fifteen padding lanes per column instead of seven.

use crate::lanes::Simd;
use wide::f32x16;

/// What a column is made of: sixteen lanes, 64-byte aligned.
pub(crate) type Chunk = f32x16;

/// Lanes per [`Chunk`].
pub(crate) const CHUNK: usize = 16;

/// Lane block `k` of every column. A loop, not `array::map`, which the compiler leaves as an
/// out-of-line call that goes through the stack (measured: up to 3x slower kernels).
#[inline(always)]
pub(crate) fn block_of<V: Simd, const C: usize>(columns: &[&[V]; C], k: usize) -> [V; C] {
    let mut block = [V::ZERO; C];
    for c in 0..C {
        block[c] = columns[c][k];
    }
    block
}

/// The first `len` lanes of a column as plain `f32`s.
#[inline(always)]
pub(crate) fn flat(col: &[Chunk], len: usize) -> &[f32] {
    &bytemuck::cast_slice::<Chunk, f32>(col)[..len]
}

/// The first `len` lanes of a column as plain `f32`s, mutably.
#[inline(always)]
pub(crate) fn flat_mut(col: &mut [Chunk], len: usize) -> &mut [f32] {
    &mut bytemuck::cast_slice_mut::<Chunk, f32>(col)[..len]
}

/// The zero-copy views of each field, `name()` for a plain field (column `$at`) and `name(k)`
/// for an array field (columns `$at ..`), the next field's columns after them.
macro_rules! soa_views {
    ($what:literal, $at:expr;) => {};
    ($what:literal, $at:expr; $field:ident / $field_mut:ident : $doc:literal $(, $($rest:tt)*)?) => {
        #[doc = concat!("Zero-copy view of every ", $what, "'s `", stringify!($field), "` (", $doc, "), `len()` long.")]
        #[inline]
        #[must_use]
        pub fn $field(&self) -> &[f32] {
            flat(&self.cols[$at], self.len)
        }

        #[doc = concat!("Mutable view of every ", $what, "'s `", stringify!($field), "`, `len()` long; the padding stays out of reach.")]
        #[inline]
        #[must_use]
        pub fn $field_mut(&mut self) -> &mut [f32] {
            flat_mut(&mut self.cols[$at], self.len)
        }

        soa_views!($what, $at + 1; $($($rest)*)?);
    };
    ($what:literal, $at:expr; $field:ident / $field_mut:ident [$n:expr] : $doc:literal $(, $($rest:tt)*)?) => {
        #[doc = concat!("Zero-copy view of every ", $what, "'s `", stringify!($field), "[k]` (", $doc, "), `len()` long. Panics if `k` is out of range.")]
        #[inline]
        #[must_use]
        pub fn $field(&self, k: usize) -> &[f32] {
            assert!(k < $n, "{} has {} elements, got index {k}", stringify!($field), $n);
            flat(&self.cols[$at + k], self.len)
        }

        #[doc = concat!("Mutable view of every ", $what, "'s `", stringify!($field), "[k]`, `len()` long; the padding stays out of reach. Panics if `k` is out of range.")]
        #[inline]
        #[must_use]
        pub fn $field_mut(&mut self, k: usize) -> &mut [f32] {
            assert!(k < $n, "{} has {} elements, got index {k}", stringify!($field), $n);
            flat_mut(&mut self.cols[$at + k], self.len)
        }

        soa_views!($what, $at + $n; $($($rest)*)?);
    };
}

/// An answer's read-only columns, each `len()` long: `name() -> &[T]` of field `name`, or, for a
/// per-point field (`[k]`), `name(k)` of `field[k]` (panics if `k` is out of range).
macro_rules! answer_views {
    () => {};
    ($(#[$doc:meta])* $name:ident: $T:ty $(, $($rest:tt)*)?) => {
        $(#[$doc])*
        #[inline]
        #[must_use]
        pub fn $name(&self) -> &[$T] {
            &self.$name[..self.len()]
        }

        answer_views!($($($rest)*)?);
    };
    ($(#[$doc:meta])* $name:ident = $field:ident[k]: $T:ty $(, $($rest:tt)*)?) => {
        $(#[$doc])*
        #[inline]
        #[must_use]
        pub fn $name(&self, k: usize) -> &[$T] {
            &self.$field[k][..self.len()]
        }

        answer_views!($($($rest)*)?);
    };
}

/// A type that keeps `$Item`s (`#[repr(C)]` runs of `f32`) as columns of [`Chunk`]s, one per
/// `f32`, padded with NaN: the struct, `new`, `with_capacity`, `len`, `is_empty`, `push`,
/// `get`, `set`, `clear`, `iter`, the crate's `columns_view`, and `Debug`, `PartialEq`,
/// `Extend`, `FromIterator` and `From<&[$Item]>`. `$what` names one item in the docs.
macro_rules! chunk_columns {
    ($(#[$doc:meta])* $Soa:ident of $Item:ty, $what:literal) => {
        $(#[$doc])*
        #[derive(Clone, Default)]
        pub struct $Soa {
            len: usize,
            cols: [Vec<Chunk>; $Soa::COLUMNS],
        }

        impl $Soa {
            /// Number of lane-block columns: one per `f32` of an item.
            const COLUMNS: usize = size_of::<$Item>() / size_of::<f32>();

            #[doc = concat!("No ", $what, "s.")]
            #[inline]
            #[must_use]
            pub const fn new() -> Self {
                Self { len: 0, cols: [const { Vec::new() }; Self::COLUMNS] }
            }

            #[doc = concat!("No ", $what, "s, with room for `n` before it reallocates.")]
            #[must_use]
            pub fn with_capacity(n: usize) -> Self {
                let chunks = n.div_ceil(CHUNK);
                Self { len: 0, cols: core::array::from_fn(|_| Vec::with_capacity(chunks)) }
            }

            #[doc = concat!("Number of ", $what, "s.")]
            #[inline]
            #[must_use]
            pub const fn len(&self) -> usize {
                self.len
            }

            #[doc = concat!("Whether there are no ", $what, "s.")]
            #[inline]
            #[must_use]
            pub const fn is_empty(&self) -> bool {
                self.len == 0
            }

            #[doc = concat!("Appends a ", $what, "; its index is the old `len()`.")]
            #[inline]
            pub fn push(&mut self, item: $Item) {
                let (chunk, lane) = (self.len / CHUNK, self.len % CHUNK);
                let fields: [f32; Self::COLUMNS] = bytemuck::cast(item);
                for (col, &v) in self.cols.iter_mut().zip(&fields) {
                    if lane == 0 {
                        col.push(<Chunk as Simd>::INERT);
                    }
                    col[chunk].as_mut_array()[lane] = v;
                }
                self.len += 1;
            }

            #[doc = concat!("The ", $what, " at `i`. Panics if `i >= len()`.")]
            #[inline]
            #[must_use]
            pub fn get(&self, i: usize) -> $Item {
                assert!(i < self.len, "index {i} out of range for {} of length {}", stringify!($Soa), self.len);
                let mut fields = [0.0; Self::COLUMNS];
                for (v, col) in fields.iter_mut().zip(&self.cols) {
                    *v = flat(col, self.len)[i];
                }
                bytemuck::cast(fields)
            }

            #[doc = concat!("Replaces the ", $what, " at `i`. Panics if `i >= len()`.")]
            #[inline]
            pub fn set(&mut self, i: usize, item: $Item) {
                assert!(i < self.len, "index {i} out of range for {} of length {}", stringify!($Soa), self.len);
                let fields: [f32; Self::COLUMNS] = bytemuck::cast(item);
                for (col, &v) in self.cols.iter_mut().zip(&fields) {
                    flat_mut(col, self.len)[i] = v;
                }
            }

            #[doc = concat!("Removes every ", $what, ", keeping the allocation.")]
            #[inline]
            pub fn clear(&mut self) {
                self.len = 0;
                self.cols.iter_mut().for_each(Vec::clear);
            }

            #[doc = concat!("The ", $what, "s in index order.")]
            pub fn iter(&self) -> impl ExactSizeIterator<Item = $Item> + '_ {
                (0..self.len).map(move |i| self.get(i))
            }

            /// Every column's `V::LANES`-lane blocks in `range`, each sliced once (see
            /// [`ShapeSoa::blocks_view`](crate::ShapeSoa::blocks_view)).
            #[inline(always)]
            pub(crate) fn columns_view<V: Simd>(&self, range: core::ops::Range<usize>) -> [&[V]; $Soa::COLUMNS] {
                let n = range.len();
                let mut view: [&[V]; $Soa::COLUMNS] = [&[]; $Soa::COLUMNS];
                for c in 0..$Soa::COLUMNS {
                    view[c] = &bytemuck::cast_slice::<Chunk, V>(&self.cols[c])[range.clone()][..n];
                }
                view
            }
        }

        impl core::fmt::Debug for $Soa {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.debug_list().entries(self.iter()).finish()
            }
        }

        impl PartialEq for $Soa {
            #[doc = concat!("Equal when the ", $what, "s are equal field by field (NaN never equals NaN).")]
            fn eq(&self, other: &Self) -> bool {
                self.len == other.len && self.iter().eq(other.iter())
            }
        }

        impl Extend<$Item> for $Soa {
            fn extend<I: IntoIterator<Item = $Item>>(&mut self, iter: I) {
                let iter = iter.into_iter();
                let chunks = (self.len + iter.size_hint().0).div_ceil(CHUNK);
                for col in &mut self.cols {
                    col.reserve(chunks.saturating_sub(col.len()));
                }
                for item in iter {
                    self.push(item);
                }
            }
        }

        impl FromIterator<$Item> for $Soa {
            fn from_iter<I: IntoIterator<Item = $Item>>(iter: I) -> Self {
                let mut soa = Self::new();
                soa.extend(iter);
                soa
            }
        }

        impl From<&[$Item]> for $Soa {
            fn from(items: &[$Item]) -> Self {
                items.iter().copied().collect()
            }
        }
    };
}

/// A container of `$Shape`s whose lane blocks are `$X8`s ([`chunk_columns`] and what makes it
/// a [`ShapeSoa`](crate::ShapeSoa)). Each field names its view and mutable view, `[N]` for an
/// array field, and what it holds; the fields must follow the shape's field order.
macro_rules! soa_container {
    (
        $(#[$soa_doc:meta])*
        $Soa:ident of $Shape:ident, lanes $X8:ident, $X16:ident {
            $( $field:ident / $field_mut:ident $([$n:expr])? : $doc:literal ),+ $(,)?
        }
    ) => {
        chunk_columns!($(#[$soa_doc])* $Soa of $Shape, "shape");

        impl $Soa {
            /// Checks every shape; the error names the first one that can never overlap
            /// anything (or is not what the kernels expect), and why.
            pub fn validate(&self) -> Result<(), InvalidShape> {
                for (index, shape) in self.iter().enumerate() {
                    shape.check().map_err(|error| InvalidShape {
                        container: stringify!($Soa),
                        index,
                        error,
                    })?;
                }
                Ok(())
            }

            /// Number of lane blocks, `len().div_ceil(8)`.
            #[inline]
            #[must_use]
            pub const fn blocks(&self) -> usize {
                self.len.div_ceil(LANES)
            }

            /// Lane block `i`: shapes `8i .. 8i + 8`, padding lanes NaN. Panics if
            /// `i >= blocks()`.
            #[inline]
            #[must_use]
            pub fn block(&self, i: usize) -> $X8 {
                assert!(i < self.blocks(), "block {i} out of range for {} of {} blocks", stringify!($Soa), self.blocks());
                bytemuck::cast(<Self as ShapeSoa>::block_at::<f32x8>(&self.blocks_view(i..i + 1), 0))
            }

            soa_views!("shape", 0; $( $field / $field_mut $([$n])? : $doc ),+);
        }

        impl sealed::Sealed for $Soa {}

        impl ShapeSoa for $Soa {
            type Shape = $Shape;
            type X8 = $X8;
            type X16 = $X16;
            type Lanes<V: Simd> = [V; $Soa::COLUMNS];
            #[inline]
            fn len(&self) -> usize {
                self.len
            }
            #[inline]
            fn block(&self, i: usize) -> $X8 {
                $Soa::block(self, i)
            }
            #[inline]
            fn get(&self, i: usize) -> $Shape {
                $Soa::get(self, i)
            }
            type Blocks<'a, V: Simd> = [&'a [V]; $Soa::COLUMNS];
            #[inline(always)]
            fn blocks_view<V: Simd>(&self, range: core::ops::Range<usize>) -> Self::Blocks<'_, V> {
                self.columns_view(range)
            }
            #[inline(always)]
            fn block_at<V: Simd>(view: &Self::Blocks<'_, V>, k: usize) -> [V; $Soa::COLUMNS] {
                block_of(view, k)
            }
            fn field_blocks(&self) -> Vec<&[f32x8]> {
                self.cols.iter().map(|col| bytemuck::cast_slice(col)).collect()
            }
        }
    };
}

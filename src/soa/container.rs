//! `soa_container!`: one macro generates every container, plain and array fields alike.
//!
//! A container stores its shape's `f32`s as lane-block columns, in the shape's field order: a
//! plain field is one column (`Vec<f32x8>`), an array field one column per element
//! (`[Vec<f32x8>; N]`). Shapes and lane types are `#[repr(C)]` runs of `f32` and `f32x8` in the
//! same order, so reading and writing go by column number, whatever the fields are called.

use wide::f32x8;

/// A container field's storage: one lane-block column, or one per array element.
pub(crate) trait Column: Sized {
    /// Empty columns with room for `blocks` lane blocks each.
    fn with_capacity(blocks: usize) -> Self;
    /// The columns, in order.
    fn cols(&self) -> &[Vec<f32x8>];
    /// The columns, in order, mutably.
    fn cols_mut(&mut self) -> &mut [Vec<f32x8>];
}

impl Column for Vec<f32x8> {
    fn with_capacity(blocks: usize) -> Self {
        Vec::with_capacity(blocks)
    }
    #[inline(always)]
    fn cols(&self) -> &[Vec<f32x8>] {
        core::slice::from_ref(self)
    }
    #[inline(always)]
    fn cols_mut(&mut self) -> &mut [Vec<f32x8>] {
        core::slice::from_mut(self)
    }
}

impl<const N: usize> Column for [Vec<f32x8>; N] {
    fn with_capacity(blocks: usize) -> Self {
        core::array::from_fn(|_| Vec::with_capacity(blocks))
    }
    #[inline(always)]
    fn cols(&self) -> &[Vec<f32x8>] {
        self
    }
    #[inline(always)]
    fn cols_mut(&mut self) -> &mut [Vec<f32x8>] {
        self
    }
}

/// A placeholder column, overwritten before use.
pub(crate) static NO_COLUMN: Vec<f32x8> = Vec::new();

/// The first `len` lanes of a column as plain `f32`s.
#[inline(always)]
pub(crate) fn flat(col: &[f32x8], len: usize) -> &[f32] {
    &bytemuck::cast_slice::<f32x8, f32>(col)[..len]
}

/// The first `len` lanes of a column as plain `f32`s, mutably.
#[inline(always)]
pub(crate) fn flat_mut(col: &mut [f32x8], len: usize) -> &mut [f32] {
    &mut bytemuck::cast_slice_mut::<f32x8, f32>(col)[..len]
}

/// A field's storage type and its empty value (`const`), plain or array.
macro_rules! soa_storage {
    (type) => { Vec<f32x8> };
    (type [$n:expr]) => { [Vec<f32x8>; $n] };
    (new) => { Vec::new() };
    (new [$n:expr]) => { [const { Vec::new() }; $n] };
}

/// A field's zero-copy views: `name()` for a plain field, `name(k)` for an array field.
macro_rules! soa_views {
    ($Soa:ident, $field:ident / $field_mut:ident, $doc:literal) => {
        #[doc = concat!("Zero-copy view of every shape's `", stringify!($field), "` (", $doc, "), `len()` long.")]
        #[inline]
        #[must_use]
        pub fn $field(&self) -> &[f32] {
            flat(&self.$field, self.len)
        }

        #[doc = concat!("Mutable view of every shape's `", stringify!($field), "`, `len()` long; the padding stays out of reach.")]
        #[inline]
        #[must_use]
        pub fn $field_mut(&mut self) -> &mut [f32] {
            flat_mut(&mut self.$field, self.len)
        }
    };
    ($Soa:ident, $field:ident / $field_mut:ident [$n:expr], $doc:literal) => {
        #[doc = concat!("Zero-copy view of every shape's `", stringify!($field), "[k]` (", $doc, "), `len()` long. Panics if `k` is out of range.")]
        #[inline]
        #[must_use]
        pub fn $field(&self, k: usize) -> &[f32] {
            flat(&self.$field[k], self.len)
        }

        #[doc = concat!("Mutable view of every shape's `", stringify!($field), "[k]`, `len()` long; the padding stays out of reach. Panics if `k` is out of range.")]
        #[inline]
        #[must_use]
        pub fn $field_mut(&mut self, k: usize) -> &mut [f32] {
            flat_mut(&mut self.$field[k], self.len)
        }
    };
}

/// A container of `$Shape`s whose lane blocks are `$X8`s. Each field names its view and
/// mutable view, `[N]` for an array field, and what it holds; the fields must follow the
/// shape's field order.
macro_rules! soa_container {
    (
        $(#[$soa_doc:meta])*
        $Soa:ident of $Shape:ident, lanes $X8:ident {
            $( $field:ident / $field_mut:ident $([$n:expr])? : $doc:literal ),+ $(,)?
        }
    ) => {
        $(#[$soa_doc])*
        #[derive(Clone, Default)]
        pub struct $Soa {
            len: usize,
            $( $field: soa_storage!(type $([$n])?), )+
        }

        impl $Soa {
            /// Number of lane-block columns: one per `f32` of a shape.
            const COLUMNS: usize = size_of::<$Shape>() / size_of::<f32>();

            /// An empty container.
            #[inline]
            #[must_use]
            pub const fn new() -> Self {
                Self { len: 0, $( $field: soa_storage!(new $([$n])?), )+ }
            }

            /// An empty container with room for `n` shapes before it reallocates.
            #[must_use]
            pub fn with_capacity(n: usize) -> Self {
                let blocks = n.div_ceil(LANES);
                Self { len: 0, $( $field: Column::with_capacity(blocks), )+ }
            }

            /// Number of shapes.
            #[inline]
            #[must_use]
            pub const fn len(&self) -> usize {
                self.len
            }

            /// Whether there are no shapes.
            #[inline]
            #[must_use]
            pub const fn is_empty(&self) -> bool {
                self.len == 0
            }

            /// Every column, in the shape's field order.
            #[inline(always)]
            fn columns(&self) -> [&Vec<f32x8>; Self::COLUMNS] {
                let mut out = [&NO_COLUMN; Self::COLUMNS];
                let mut c = 0;
                $( for col in self.$field.cols() {
                    out[c] = col;
                    c += 1;
                } )+
                out
            }

            /// Appends a shape; its index is the old `len()`.
            #[inline]
            pub fn push(&mut self, shape: $Shape) {
                let (block, lane) = (self.len / LANES, self.len % LANES);
                let fields: [f32; Self::COLUMNS] = bytemuck::cast(shape);
                let mut c = 0;
                $( for col in self.$field.cols_mut() {
                    if lane == 0 {
                        col.push(INERT);
                    }
                    col[block].as_mut_array()[lane] = fields[c];
                    c += 1;
                } )+
                self.len += 1;
            }

            /// Shape `i`. Panics if `i >= len()`.
            #[inline]
            #[must_use]
            pub fn get(&self, i: usize) -> $Shape {
                assert!(i < self.len, "index {i} out of range for {} of length {}", stringify!($Soa), self.len);
                bytemuck::cast(self.columns().map(|col| flat(col, self.len)[i]))
            }

            /// Replaces shape `i`. Panics if `i >= len()`.
            #[inline]
            pub fn set(&mut self, i: usize, shape: $Shape) {
                assert!(i < self.len, "index {i} out of range for {} of length {}", stringify!($Soa), self.len);
                let fields: [f32; Self::COLUMNS] = bytemuck::cast(shape);
                let (len, mut c) = (self.len, 0);
                $( for col in self.$field.cols_mut() {
                    flat_mut(col, len)[i] = fields[c];
                    c += 1;
                } )+
            }

            /// Removes every shape, keeping the allocation.
            #[inline]
            pub fn clear(&mut self) {
                self.len = 0;
                $( self.$field.cols_mut().iter_mut().for_each(Vec::clear); )+
            }

            /// The shapes in index order.
            pub fn iter(&self) -> impl ExactSizeIterator<Item = $Shape> + '_ {
                (0..self.len).map(move |i| self.get(i))
            }

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
                bytemuck::cast(self.columns().map(|col| col[i]))
            }

            $( soa_views!($Soa, $field / $field_mut $([$n])?, $doc); )+
        }

        impl sealed::Sealed for $Soa {}

        impl ShapeSoa for $Soa {
            type Shape = $Shape;
            type X8 = $X8;
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
            type Blocks<'a> = [&'a [f32x8]; $Soa::COLUMNS];
            #[inline(always)]
            fn blocks_view(&self, range: core::ops::Range<usize>) -> Self::Blocks<'_> {
                let n = range.len();
                self.columns().map(|col| &col[range.clone()][..n])
            }
            #[inline(always)]
            fn block_at(view: &Self::Blocks<'_>, k: usize) -> $X8 {
                bytemuck::cast(view.map(|col| col[k]))
            }
            fn field_blocks(&self) -> Vec<&[f32x8]> {
                self.columns().map(|col| &col[..]).to_vec()
            }
        }

        impl fmt::Debug for $Soa {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_list().entries(self.iter()).finish()
            }
        }

        impl PartialEq for $Soa {
            /// Equal when the shapes are equal field by field (NaN never equals NaN).
            fn eq(&self, other: &Self) -> bool {
                self.len == other.len && self.iter().eq(other.iter())
            }
        }

        impl Extend<$Shape> for $Soa {
            fn extend<I: IntoIterator<Item = $Shape>>(&mut self, iter: I) {
                let iter = iter.into_iter();
                let blocks = (self.len + iter.size_hint().0).div_ceil(LANES);
                $( for col in self.$field.cols_mut() {
                    col.reserve(blocks.saturating_sub(col.len()));
                } )+
                for shape in iter {
                    self.push(shape);
                }
            }
        }

        impl FromIterator<$Shape> for $Soa {
            fn from_iter<I: IntoIterator<Item = $Shape>>(iter: I) -> Self {
                let mut soa = Self::new();
                soa.extend(iter);
                soa
            }
        }

        impl From<&[$Shape]> for $Soa {
            fn from(shapes: &[$Shape]) -> Self {
                shapes.iter().copied().collect()
            }
        }
    };
}

//! Structure-of-arrays containers in lane blocks, the eight-lane shape types the kernels take, and
//! [`HitMask`].
//!
//! Each container keeps one `Vec<f32x8>` per field, so field `k` of shape `i` lives in lane `i % 8`
//! of block `i / 8`. The last block is padded with NaN in every field; by the NaN policy a padding
//! lane can never be a hit, whatever it is paired with. The field views (`x()`, `radius()`, …)
//! are zero-copy `&[f32]` of exactly `len()` elements; the `_mut` views let a simulation update
//! positions in place without touching the padding.

use crate::shape::{Aabb, Circle, MAX_VERTICES, Obb, Point, Polygon, Ray, ShapeError};
use core::fmt;
use wide::f32x8;

/// Number of lanes in one block.
pub const LANES: usize = 8;

const INERT: f32x8 = f32x8::new([f32::NAN; LANES]);

/// Why a container failed [`validate`](Circles::validate): the first bad index and what is wrong.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct InvalidShape {
    /// The container type, e.g. `"Circles"`.
    pub container: &'static str,
    /// Index of the first shape that fails its check.
    pub index: usize,
    /// What is wrong with it.
    pub error: ShapeError,
}

impl fmt::Display for InvalidShape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}[{}]: {}", self.container, self.index, self.error)
    }
}

impl std::error::Error for InvalidShape {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

mod sealed {
    pub trait Sealed {}
}

/// A lane-block container of one shape kind; implemented by [`Points`], [`Circles`], [`Aabbs`] and
/// [`Obbs`] only.
pub trait ShapeSoa: sealed::Sealed {
    /// The scalar shape stored.
    type Shape: Copy;
    /// Eight shapes, one per lane.
    type X8: Copy;
    /// Number of shapes.
    fn len(&self) -> usize;
    /// Whether there are no shapes.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Number of lane blocks, `len().div_ceil(8)`.
    fn blocks(&self) -> usize {
        self.len().div_ceil(LANES)
    }
    /// Lane block `i` (shapes `8i .. 8i + 8`, padding lanes NaN). Panics if `i >= blocks()`.
    fn block(&self, i: usize) -> Self::X8;
    /// Shape `i`. Panics if `i >= len()`.
    fn get(&self, i: usize) -> Self::Shape;
    /// A borrowed run of lane blocks: every field sliced to the same length.
    type Blocks<'a>: Copy
    where
        Self: 'a;
    /// The lane blocks in `range`, each field sliced once, so that [`block_at`](Self::block_at)
    /// needs no bounds check per field. Panics if `range.end > blocks()`.
    fn blocks_view(&self, range: core::ops::Range<usize>) -> Self::Blocks<'_>;
    /// Block `k` of a view (block `range.start + k` of the container). Panics if `k` is past the
    /// view.
    fn block_at(view: &Self::Blocks<'_>, k: usize) -> Self::X8;
    /// Every field's lane blocks, padding included, in declaration order: the bytes a kernel
    /// reads.
    fn field_blocks(&self) -> Vec<&[f32x8]>;
}

macro_rules! soa_container {
    (
        $(#[$soa_doc:meta])*
        $Soa:ident of $Shape:ident, lanes $X8:ident {
            $( $field:ident / $field_mut:ident : $doc:literal ),+ $(,)?
        }
    ) => {
        #[doc = concat!("Eight [`", stringify!($Shape), "`]s, one per lane, field by field.")]
        ///
        /// Converts from and to an array of eight shapes.
        #[derive(Clone, Copy, Debug)]
        pub struct $X8 {
            $( #[doc = $doc] pub $field: f32x8, )+
        }

        impl $X8 {
            /// Eight lanes that never overlap anything (every field NaN), used for padding.
            pub const INERT: Self = Self { $( $field: INERT, )+ };

            #[doc = concat!("The same [`", stringify!($Shape), "`] in all eight lanes.")]
            #[inline]
            #[must_use]
            pub fn splat(shape: $Shape) -> Self {
                Self { $( $field: f32x8::splat(shape.$field), )+ }
            }

            /// The shape in lane `lane` (0..8). Panics if `lane >= 8`.
            #[inline]
            #[must_use]
            pub fn lane(&self, lane: usize) -> $Shape {
                $Shape { $( $field: self.$field.as_array()[lane], )+ }
            }
        }

        impl From<[$Shape; LANES]> for $X8 {
            #[inline]
            fn from(shapes: [$Shape; LANES]) -> Self {
                Self { $( $field: f32x8::new(shapes.map(|s| s.$field)), )+ }
            }
        }

        impl From<$X8> for [$Shape; LANES] {
            #[inline]
            fn from(lanes: $X8) -> Self {
                core::array::from_fn(|i| lanes.lane(i))
            }
        }

        $(#[$soa_doc])*
        #[derive(Clone, Default)]
        pub struct $Soa {
            len: usize,
            $( $field: Vec<f32x8>, )+
        }

        impl $Soa {
            /// An empty container.
            #[inline]
            #[must_use]
            pub const fn new() -> Self {
                Self { len: 0, $( $field: Vec::new(), )+ }
            }

            /// An empty container with room for `n` shapes before it reallocates.
            #[must_use]
            pub fn with_capacity(n: usize) -> Self {
                let blocks = n.div_ceil(LANES);
                Self { len: 0, $( $field: Vec::with_capacity(blocks), )+ }
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

            /// Appends a shape; its index is the old `len()`.
            #[inline]
            pub fn push(&mut self, shape: $Shape) {
                let (block, lane) = (self.len / LANES, self.len % LANES);
                if lane == 0 {
                    $( self.$field.push(INERT); )+
                }
                $( self.$field[block].as_mut_array()[lane] = shape.$field; )+
                self.len += 1;
            }

            /// Shape `i`. Panics if `i >= len()`.
            #[inline]
            #[must_use]
            pub fn get(&self, i: usize) -> $Shape {
                assert!(i < self.len, "index {i} out of range for {} of length {}", stringify!($Soa), self.len);
                $Shape { $( $field: self.$field()[i], )+ }
            }

            /// Replaces shape `i`. Panics if `i >= len()`.
            #[inline]
            pub fn set(&mut self, i: usize, shape: $Shape) {
                assert!(i < self.len, "index {i} out of range for {} of length {}", stringify!($Soa), self.len);
                $( self.$field_mut()[i] = shape.$field; )+
            }

            /// Removes every shape, keeping the allocation.
            #[inline]
            pub fn clear(&mut self) {
                self.len = 0;
                $( self.$field.clear(); )+
            }

            /// The shapes in index order.
            pub fn iter(&self) -> impl ExactSizeIterator<Item = $Shape> + '_ {
                (0..self.len).map(move |i| self.get(i))
            }

            /// Checks every shape; the error names the first one that can never overlap anything,
            /// and why.
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
                $X8 { $( $field: self.$field[i], )+ }
            }

            $(
                #[doc = concat!("Zero-copy view of every shape's `", stringify!($field), "` (", $doc, "), `len()` long.")]
                #[inline]
                #[must_use]
                pub fn $field(&self) -> &[f32] {
                    &bytemuck::cast_slice::<f32x8, f32>(&self.$field)[..self.len]
                }

                #[doc = concat!("Mutable view of every shape's `", stringify!($field), "`, `len()` long; the padding stays out of reach.")]
                #[inline]
                #[must_use]
                pub fn $field_mut(&mut self) -> &mut [f32] {
                    &mut bytemuck::cast_slice_mut::<f32x8, f32>(&mut self.$field)[..self.len]
                }
            )+
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
            type Blocks<'a> = [&'a [f32x8]; [$(stringify!($field)),+].len()];
            #[inline(always)]
            fn blocks_view(&self, range: core::ops::Range<usize>) -> Self::Blocks<'_> {
                let n = range.len();
                [$( &self.$field[range.clone()][..n], )+]
            }
            #[inline(always)]
            fn block_at(view: &Self::Blocks<'_>, k: usize) -> $X8 {
                let [$( $field, )+] = view;
                $X8 { $( $field: $field[k], )+ }
            }
            fn field_blocks(&self) -> Vec<&[f32x8]> {
                vec![$( &self.$field[..], )+]
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
                let extra = iter.size_hint().0;
                $( self.$field.reserve((self.len + extra).div_ceil(LANES).saturating_sub(self.$field.len())); )+
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

soa_container! {
    /// [`Point`]s in lane blocks.
    ///
    /// ```
    /// use widephase::{Point, Points};
    /// let pts: Points = [Point::new(1.0, 2.0), Point::new(3.0, 4.0)].into_iter().collect();
    /// assert_eq!(pts.len(), 2);
    /// assert_eq!(pts.y(), &[2.0, 4.0]);
    /// ```
    Points of Point, lanes PointX8 {
        x / x_mut: "horizontal coordinate",
        y / y_mut: "vertical coordinate",
    }
}

soa_container! {
    /// [`Circle`]s in lane blocks.
    ///
    /// ```
    /// use widephase::{Circle, Circles};
    /// let mut c = Circles::with_capacity(100);
    /// c.push(Circle::new(0.0, 0.0, 1.0));
    /// c.x_mut()[0] += 0.5; // move it in place
    /// assert_eq!(c.get(0), Circle::new(0.5, 0.0, 1.0));
    /// assert!(c.validate().is_ok());
    /// ```
    Circles of Circle, lanes CircleX8 {
        x / x_mut: "centre, horizontal",
        y / y_mut: "centre, vertical",
        radius / radius_mut: "radius",
    }
}

soa_container! {
    /// [`Aabb`]s in lane blocks.
    ///
    /// ```
    /// use widephase::{Aabb, Aabbs};
    /// let boxes: Aabbs = vec![Aabb::new(0.0, 0.0, 1.0, 1.0), Aabb::new(2.0, 0.0, 1.0, 1.0)]
    ///     .into_iter()
    ///     .collect();
    /// let err = boxes.validate().unwrap_err();
    /// assert_eq!(err.index, 1); // max_x < min_x
    /// assert_eq!(err.to_string(), "Aabbs[1]: `max_x` is below the minimum on its axis (1.0)");
    /// ```
    Aabbs of Aabb, lanes AabbX8 {
        min_x / min_x_mut: "left edge",
        min_y / min_y_mut: "bottom edge",
        max_x / max_x_mut: "right edge",
        max_y / max_y_mut: "top edge",
    }
}

soa_container! {
    /// [`Obb`]s in lane blocks.
    ///
    /// ```
    /// use widephase::{Obb, Obbs};
    /// let boxes: Obbs = (0..10).map(|i| Obb::new(i as f32, 0.0, 0.5, 0.25, 0.1 * i as f32)).collect();
    /// assert_eq!(boxes.blocks(), 2);
    /// assert_eq!(boxes.cos().len(), 10);
    /// ```
    Obbs of Obb, lanes ObbX8 {
        center_x / center_x_mut: "centre, horizontal",
        center_y / center_y_mut: "centre, vertical",
        half_width / half_width_mut: "half extent along the local x axis",
        half_height / half_height_mut: "half extent along the local y axis",
        cos / cos_mut: "cosine of the rotation",
        sin / sin_mut: "sine of the rotation",
    }
}

soa_container! {
    /// [`Ray`]s in lane blocks, for [`batch_raycast`](crate::batch_raycast).
    ///
    /// ```
    /// use widephase::{Ray, Rays};
    /// let rays: Rays = (0..3).map(|i| Ray::new(0.0, i as f32, 1.0, 0.0, 10.0)).collect();
    /// assert_eq!(rays.origin_y(), &[0.0, 1.0, 2.0]);
    /// assert!(rays.validate().is_ok());
    /// ```
    Rays of Ray, lanes RayX8 {
        origin_x / origin_x_mut: "origin, horizontal",
        origin_y / origin_y_mut: "origin, vertical",
        dir_x / dir_x_mut: "direction, horizontal",
        dir_y / dir_y_mut: "direction, vertical",
        max_t / max_t_mut: "largest parameter tested",
    }
}

/// Eight [`Polygon`]s, one per lane: `x[k]` holds vertex `k`'s horizontal coordinate of all
/// eight polygons.
///
/// Converts from and to an array of eight polygons.
#[derive(Clone, Copy, Debug)]
pub struct PolygonX8 {
    /// Vertex `k`'s horizontal coordinate, lane by lane.
    pub x: [f32x8; MAX_VERTICES],
    /// Vertex `k`'s vertical coordinate, lane by lane.
    pub y: [f32x8; MAX_VERTICES],
}

impl PolygonX8 {
    /// Eight lanes that never overlap anything (every coordinate NaN), used for padding.
    pub const INERT: Self = Self {
        x: [INERT; MAX_VERTICES],
        y: [INERT; MAX_VERTICES],
    };

    /// The same [`Polygon`] in all eight lanes.
    #[inline]
    #[must_use]
    pub fn splat(p: Polygon) -> Self {
        Self {
            x: p.xs.map(f32x8::splat),
            y: p.ys.map(f32x8::splat),
        }
    }

    /// The polygon in lane `lane` (0..8). Panics if `lane >= 8`.
    #[inline]
    #[must_use]
    pub fn lane(&self, lane: usize) -> Polygon {
        Polygon {
            xs: self.x.map(|v| v.as_array()[lane]),
            ys: self.y.map(|v| v.as_array()[lane]),
        }
    }
}

impl From<[Polygon; LANES]> for PolygonX8 {
    #[inline]
    fn from(polys: [Polygon; LANES]) -> Self {
        Self {
            x: core::array::from_fn(|k| f32x8::new(polys.map(|p| p.xs[k]))),
            y: core::array::from_fn(|k| f32x8::new(polys.map(|p| p.ys[k]))),
        }
    }
}

impl From<PolygonX8> for [Polygon; LANES] {
    #[inline]
    fn from(lanes: PolygonX8) -> Self {
        core::array::from_fn(|i| lanes.lane(i))
    }
}

/// [`Polygon`]s in lane blocks: vertex `k` of polygon `i` is lane `i % 8` of block `i / 8` of
/// the `k`-th coordinate field.
///
/// One polygon per lane, like every other container, so that a kernel tests eight pairs at
/// once with the same instructions as its scalar reference, without shuffles; a polygon of
/// fewer than eight vertices pays for eight (its padding edges have zero length).
///
/// Chosen over "one polygon's vertices across the lanes" by measurement
/// (`cargo bench --bench polygon_layout`, polygon–polygon): this layout runs at the same speed
/// whether pairs overlap or not (81 M pairs/s on the test machine); the other one, testing one
/// pair at a time, is 13 % faster when most pairs are far apart (it can stop after one
/// polygon's axes) and 15 % slower when most overlap, as the pairs a broadphase hands over do,
/// and 25 % slower still if it has to transpose blocks of this layout.
///
/// ```
/// use widephase::{Polygon, Polygons};
/// let tri = Polygon::new(&[[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])?;
/// let mut polys: Polygons = [tri, tri.transformed(5.0, 0.0, 0.5)].into_iter().collect();
/// assert_eq!(polys.len(), 2);
/// assert_eq!(polys.xs(1)[0], 1.0); // vertex 1 of polygon 0
/// polys.xs_mut(0)[1] += 2.0; // move polygon 1's first vertex
/// assert_eq!(polys.get(1).xs[0], 7.0);
/// # Ok::<(), widephase::InvalidPolygon>(())
/// ```
#[derive(Clone, Default)]
pub struct Polygons {
    len: usize,
    x: [Vec<f32x8>; MAX_VERTICES],
    y: [Vec<f32x8>; MAX_VERTICES],
}

impl Polygons {
    /// An empty container.
    #[inline]
    #[must_use]
    pub const fn new() -> Self {
        Self {
            len: 0,
            x: [const { Vec::new() }; MAX_VERTICES],
            y: [const { Vec::new() }; MAX_VERTICES],
        }
    }

    /// An empty container with room for `n` polygons before it reallocates.
    #[must_use]
    pub fn with_capacity(n: usize) -> Self {
        let blocks = n.div_ceil(LANES);
        Self {
            len: 0,
            x: core::array::from_fn(|_| Vec::with_capacity(blocks)),
            y: core::array::from_fn(|_| Vec::with_capacity(blocks)),
        }
    }

    /// Number of polygons.
    #[inline]
    #[must_use]
    pub const fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no polygons.
    #[inline]
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Appends a polygon; its index is the old `len()`.
    #[inline]
    pub fn push(&mut self, p: Polygon) {
        let (block, lane) = (self.len / LANES, self.len % LANES);
        if lane == 0 {
            for field in self.x.iter_mut().chain(&mut self.y) {
                field.push(INERT);
            }
        }
        for k in 0..MAX_VERTICES {
            self.x[k][block].as_mut_array()[lane] = p.xs[k];
            self.y[k][block].as_mut_array()[lane] = p.ys[k];
        }
        self.len += 1;
    }

    /// Polygon `i`. Panics if `i >= len()`.
    #[inline]
    #[must_use]
    pub fn get(&self, i: usize) -> Polygon {
        assert!(
            i < self.len,
            "index {i} out of range for Polygons of length {}",
            self.len
        );
        Polygon {
            xs: core::array::from_fn(|k| self.xs(k)[i]),
            ys: core::array::from_fn(|k| self.ys(k)[i]),
        }
    }

    /// Replaces polygon `i`. Panics if `i >= len()`.
    #[inline]
    pub fn set(&mut self, i: usize, p: Polygon) {
        assert!(
            i < self.len,
            "index {i} out of range for Polygons of length {}",
            self.len
        );
        for k in 0..MAX_VERTICES {
            self.xs_mut(k)[i] = p.xs[k];
            self.ys_mut(k)[i] = p.ys[k];
        }
    }

    /// Removes every polygon, keeping the allocation.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
        for field in self.x.iter_mut().chain(&mut self.y) {
            field.clear();
        }
    }

    /// The polygons in index order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = Polygon> + '_ {
        (0..self.len).map(move |i| self.get(i))
    }

    /// Checks every polygon; the error names the first one with a non-finite coordinate or
    /// that is not convex and counter-clockwise, and why.
    pub fn validate(&self) -> Result<(), InvalidShape> {
        for (index, p) in self.iter().enumerate() {
            p.check().map_err(|error| InvalidShape {
                container: "Polygons",
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

    /// Lane block `i`: polygons `8i .. 8i + 8`, padding lanes NaN. Panics if `i >= blocks()`.
    #[inline]
    #[must_use]
    pub fn block(&self, i: usize) -> PolygonX8 {
        PolygonX8 {
            x: core::array::from_fn(|k| self.x[k][i]),
            y: core::array::from_fn(|k| self.y[k][i]),
        }
    }

    /// Zero-copy view of vertex `k`'s horizontal coordinate of every polygon, `len()` long.
    /// Panics if `k >= 8`.
    #[inline]
    #[must_use]
    pub fn xs(&self, k: usize) -> &[f32] {
        &bytemuck::cast_slice::<f32x8, f32>(&self.x[k])[..self.len]
    }

    /// Zero-copy view of vertex `k`'s vertical coordinate of every polygon, `len()` long.
    /// Panics if `k >= 8`.
    #[inline]
    #[must_use]
    pub fn ys(&self, k: usize) -> &[f32] {
        &bytemuck::cast_slice::<f32x8, f32>(&self.y[k])[..self.len]
    }

    /// Mutable view of vertex `k`'s horizontal coordinates, `len()` long; the padding stays
    /// out of reach. Panics if `k >= 8`.
    #[inline]
    #[must_use]
    pub fn xs_mut(&mut self, k: usize) -> &mut [f32] {
        &mut bytemuck::cast_slice_mut::<f32x8, f32>(&mut self.x[k])[..self.len]
    }

    /// Mutable view of vertex `k`'s vertical coordinates, `len()` long. Panics if `k >= 8`.
    #[inline]
    #[must_use]
    pub fn ys_mut(&mut self, k: usize) -> &mut [f32] {
        &mut bytemuck::cast_slice_mut::<f32x8, f32>(&mut self.y[k])[..self.len]
    }
}

impl sealed::Sealed for Polygons {}

impl ShapeSoa for Polygons {
    type Shape = Polygon;
    type X8 = PolygonX8;
    #[inline]
    fn len(&self) -> usize {
        self.len
    }
    #[inline]
    fn block(&self, i: usize) -> PolygonX8 {
        Polygons::block(self, i)
    }
    #[inline]
    fn get(&self, i: usize) -> Polygon {
        Polygons::get(self, i)
    }
    type Blocks<'a> = [&'a [f32x8]; 2 * MAX_VERTICES];
    #[inline(always)]
    fn blocks_view(&self, range: core::ops::Range<usize>) -> Self::Blocks<'_> {
        let n = range.len();
        core::array::from_fn(|f| {
            let field = if f < MAX_VERTICES {
                &self.x[f]
            } else {
                &self.y[f - MAX_VERTICES]
            };
            &field[range.clone()][..n]
        })
    }
    #[inline(always)]
    fn block_at(view: &Self::Blocks<'_>, k: usize) -> PolygonX8 {
        PolygonX8 {
            x: core::array::from_fn(|v| view[v][k]),
            y: core::array::from_fn(|v| view[MAX_VERTICES + v][k]),
        }
    }
    fn field_blocks(&self) -> Vec<&[f32x8]> {
        self.x.iter().chain(&self.y).map(|f| &f[..]).collect()
    }
}

impl fmt::Debug for Polygons {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl PartialEq for Polygons {
    /// Equal when the polygons are equal coordinate by coordinate (NaN never equals NaN).
    fn eq(&self, other: &Self) -> bool {
        self.len == other.len && self.iter().eq(other.iter())
    }
}

impl Extend<Polygon> for Polygons {
    fn extend<I: IntoIterator<Item = Polygon>>(&mut self, iter: I) {
        let iter = iter.into_iter();
        let extra = (self.len + iter.size_hint().0).div_ceil(LANES);
        for field in self.x.iter_mut().chain(&mut self.y) {
            field.reserve(extra.saturating_sub(field.len()));
        }
        for p in iter {
            self.push(p);
        }
    }
}

impl FromIterator<Polygon> for Polygons {
    fn from_iter<I: IntoIterator<Item = Polygon>>(iter: I) -> Self {
        let mut polys = Self::new();
        polys.extend(iter);
        polys
    }
}

impl From<&[Polygon]> for Polygons {
    fn from(polys: &[Polygon]) -> Self {
        polys.iter().copied().collect()
    }
}

/// One bit per tested pair: bit `i` is set when pair `i` overlaps.
///
/// Bits are packed little-endian into `u64` words (pair `i` is bit `i % 64` of word `i / 64`).
/// Bits at and past [`len`](HitMask::len) are always zero.
///
/// ```
/// use widephase::{batch_test, Circle, Circles, HitMask};
/// let a: Circles = [Circle::new(0.0, 0.0, 1.0), Circle::new(0.0, 0.0, 1.0)].into_iter().collect();
/// let b: Circles = [Circle::new(2.0, 0.0, 1.0), Circle::new(3.0, 0.0, 1.0)].into_iter().collect();
/// let mut hits = HitMask::new();
/// batch_test(&a, &b, &mut hits).unwrap();
/// assert_eq!(hits.iter_ones().collect::<Vec<_>>(), [0]); // touching counts
/// ```
#[derive(Clone, Default, PartialEq, Eq)]
pub struct HitMask {
    len: usize,
    words: Vec<u64>,
}

impl HitMask {
    /// An empty mask.
    #[inline]
    #[must_use]
    pub const fn new() -> Self {
        Self {
            len: 0,
            words: Vec::new(),
        }
    }

    /// Number of pairs the mask describes.
    #[inline]
    #[must_use]
    pub const fn len(&self) -> usize {
        self.len
    }

    /// Whether the mask describes no pairs.
    #[inline]
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether pair `i` overlaps. Panics if `i >= len()`.
    #[inline]
    #[must_use]
    pub fn get(&self, i: usize) -> bool {
        assert!(
            i < self.len,
            "index {i} out of range for HitMask of length {}",
            self.len
        );
        self.words[i / 64] >> (i % 64) & 1 == 1
    }

    /// Number of overlapping pairs.
    #[inline]
    #[must_use]
    pub fn count_ones(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Indices of the overlapping pairs, ascending.
    pub fn iter_ones(&self) -> impl Iterator<Item = usize> + '_ {
        self.words.iter().enumerate().flat_map(|(k, &word)| {
            let mut rest = word;
            core::iter::from_fn(move || {
                if rest == 0 {
                    return None;
                }
                let bit = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                Some(k * 64 + bit)
            })
        })
    }

    /// Every pair's answer in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = bool> + '_ {
        (0..self.len).map(move |i| self.get(i))
    }

    /// The packed words, `len().div_ceil(64)` of them.
    #[inline]
    #[must_use]
    pub fn words(&self) -> &[u64] {
        &self.words
    }

    /// Sets the length to `len` with every bit zero, reusing the allocation, and hands out the
    /// words for a kernel to fill.
    pub(crate) fn reset(&mut self, len: usize) -> &mut [u64] {
        self.len = len;
        self.words.clear();
        self.words.resize(len.div_ceil(64), 0);
        &mut self.words
    }
}

impl fmt::Debug for HitMask {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HitMask")
            .field("len", &self.len)
            .field("ones", &self.iter_ones().collect::<Vec<_>>())
            .finish()
    }
}

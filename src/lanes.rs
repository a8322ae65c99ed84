//! The lane-block shape types the kernels take: [`PointX8`] … [`RayX8`] hold eight shapes, one
//! per lane, field by field; [`LANES`] and the padding value that never hits.
//!
//! A lane type has one [`f32x8`] per `f32` of its scalar shape, in the same order
//! (`#[repr(C)]` both), so a shape and a lane column of it convert by position: the type is
//! eight shapes transposed. [`PolygonX8`] has array fields like [`Polygon`]'s.

use crate::shape::{Aabb, Circle, Contact, MAX_VERTICES, Obb, Point, Polygon, Ray};
use bytemuck::{Pod, Zeroable};
use wide::f32x8;

/// Number of lanes in one block.
pub const LANES: usize = 8;

/// Eight padding lanes: NaN never hits, whatever it is paired with.
pub(crate) const INERT: f32x8 = f32x8::new([f32::NAN; LANES]);

/// A field of a lane type: one lane block, or an array of them.
trait Inert {
    /// Every lane NaN.
    const INERT: Self;
}

impl Inert for f32x8 {
    const INERT: Self = INERT;
}

impl<const N: usize> Inert for [f32x8; N] {
    const INERT: Self = [INERT; N];
}

/// The lane columns of eight shapes: `columns[c]` lane `l` is `f32` number `c` of shape `l`.
/// `C` is the number of `f32`s in a shape (checked by `bytemuck::cast`).
#[inline(always)]
pub(crate) fn transpose<S: Pod, const C: usize>(shapes: &[S; LANES]) -> [f32x8; C] {
    let mut columns = [[0.0f32; LANES]; C];
    for (l, shape) in shapes.iter().enumerate() {
        let fields: &[f32; C] = bytemuck::cast_ref(shape);
        for c in 0..C {
            columns[c][l] = fields[c];
        }
    }
    bytemuck::cast(columns)
}

/// Shape number `lane` of lane columns (the inverse of [`transpose`] for one lane).
#[inline(always)]
pub(crate) fn lane_of<S: Pod, const C: usize>(columns: &[f32x8; C], lane: usize) -> S {
    let mut fields = [0.0f32; C];
    for c in 0..C {
        fields[c] = columns[c].as_array()[lane];
    }
    bytemuck::cast(fields)
}

macro_rules! lane_types {
    ($(
        $Shape:ident => $X8:ident {
            $( $(#[$doc:meta])* $field:ident: $ty:ty, )+
        }
    )+) => {$(
        #[doc = concat!("Eight [`", stringify!($Shape), "`]s, one per lane, field by field.")]
        ///
        /// Converts from and to an array of eight shapes.
        #[derive(Clone, Copy, Debug, Pod, Zeroable)]
        #[repr(C)]
        pub struct $X8 {
            $( $(#[$doc])* pub $field: $ty, )+
        }

        impl $X8 {
            /// Eight lanes that never overlap anything (every field NaN), used for padding.
            pub const INERT: Self = Self { $( $field: <$ty as Inert>::INERT, )+ };

            #[doc = concat!("The same [`", stringify!($Shape), "`] in all eight lanes.")]
            #[inline]
            #[must_use]
            pub fn splat(shape: $Shape) -> Self {
                Self::from([shape; LANES])
            }

            /// The shape in lane `lane` (0..8). Panics if `lane >= 8`.
            #[inline]
            #[must_use]
            pub fn lane(&self, lane: usize) -> $Shape {
                let columns: &[f32x8; size_of::<$Shape>() / 4] = bytemuck::cast_ref(self);
                lane_of(columns, lane)
            }
        }

        impl From<[$Shape; LANES]> for $X8 {
            #[inline]
            fn from(shapes: [$Shape; LANES]) -> Self {
                bytemuck::cast(transpose::<$Shape, { size_of::<$Shape>() / 4 }>(&shapes))
            }
        }

        impl From<$X8> for [$Shape; LANES] {
            #[inline]
            fn from(lanes: $X8) -> Self {
                core::array::from_fn(|i| lanes.lane(i))
            }
        }
    )+};
}

lane_types! {
    Point => PointX8 {
        /// Horizontal coordinate, lane by lane.
        x: f32x8,
        /// Vertical coordinate.
        y: f32x8,
    }
    Circle => CircleX8 {
        /// Centre, horizontal.
        x: f32x8,
        /// Centre, vertical.
        y: f32x8,
        /// Radius.
        radius: f32x8,
    }
    Aabb => AabbX8 {
        /// Left edge.
        min_x: f32x8,
        /// Bottom edge.
        min_y: f32x8,
        /// Right edge.
        max_x: f32x8,
        /// Top edge.
        max_y: f32x8,
    }
    Obb => ObbX8 {
        /// Centre, horizontal.
        center_x: f32x8,
        /// Centre, vertical.
        center_y: f32x8,
        /// Half extent along the local x axis.
        half_width: f32x8,
        /// Half extent along the local y axis.
        half_height: f32x8,
        /// Cosine of the rotation.
        cos: f32x8,
        /// Sine of the rotation.
        sin: f32x8,
    }
    Polygon => PolygonX8 {
        /// Vertex `k`'s horizontal coordinate, lane by lane.
        x: [f32x8; MAX_VERTICES],
        /// Vertex `k`'s vertical coordinate, lane by lane.
        y: [f32x8; MAX_VERTICES],
    }
    Ray => RayX8 {
        /// Origin, horizontal.
        origin_x: f32x8,
        /// Origin, vertical.
        origin_y: f32x8,
        /// Direction, horizontal.
        dir_x: f32x8,
        /// Direction, vertical.
        dir_y: f32x8,
        /// Largest parameter tested.
        max_t: f32x8,
    }
}

/// The contacts of eight pairs, one per lane: the answer of a contact kernel
/// ([`contact_kernel`](mod@crate::contact_kernel)).
///
/// `hits` is the overlap kernel's bits, bit for bit; lanes without a hit hold normal `(0, 0)`
/// and depth 0.
#[derive(Clone, Copy, Debug)]
pub struct ContactX8 {
    /// Bit `i` set when pair `i` overlaps.
    pub hits: u8,
    /// The normals' horizontal components.
    pub normal_x: f32x8,
    /// The normals' vertical components.
    pub normal_y: f32x8,
    /// The penetration depths.
    pub depth: f32x8,
}

impl ContactX8 {
    /// Eight lanes without a hit: normal `(0, 0)` and depth 0 in every lane.
    pub const NONE: Self = Self {
        hits: 0,
        normal_x: f32x8::ZERO,
        normal_y: f32x8::ZERO,
        depth: f32x8::ZERO,
    };

    /// The contact of lane `lane`, or `None` where that pair does not overlap. Panics if
    /// `lane >= 8`.
    #[inline]
    #[must_use]
    pub fn lane(&self, lane: usize) -> Option<Contact> {
        assert!(lane < LANES, "lane {lane} out of range for eight lanes");
        (self.hits >> lane & 1 == 1).then(|| Contact {
            normal: [
                self.normal_x.as_array()[lane],
                self.normal_y.as_array()[lane],
            ],
            depth: self.depth.as_array()[lane],
        })
    }

    /// The same contacts seen from the other shape: every normal reversed (as `0 - n`, so that
    /// lanes without a hit keep `+0`).
    #[inline]
    #[must_use]
    pub fn reversed(self) -> Self {
        Self {
            normal_x: f32x8::ZERO - self.normal_x,
            normal_y: f32x8::ZERO - self.normal_y,
            ..self
        }
    }
}

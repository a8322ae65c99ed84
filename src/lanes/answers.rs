//! The answers of a lane block of pairs: [`ContactX8`] / [`ContactX16`] (contact kernels) and
//! [`SweepX8`] / [`SweepX16`] (sweep kernels), and how they are built from the generic kernels'
//! lane columns.

use crate::shape::{Contact, Sweep};
use wide::{f32x8, f32x16};

/// A lane answer's `lane(i)` (the item of lane `i`, made by `$make` from its fields) and its
/// `From` a kernel's lane columns `[mask, fields…]` (the hit bits from the mask).
macro_rules! lane_columns {
    (
        $X:ident: $V:ident, $bits:ty, $lanes:literal, [$($field:ident),+] => $Item:ident,
        $meets:literal, $make:expr
    ) => {
        impl $X {
            #[doc = concat!("The ", stringify!($Item), " of lane `lane`, or `None` where that pair ",
                "does not ", $meets, ". Panics if `lane >= ", $lanes, "`.")]
            #[inline]
            #[must_use]
            pub fn lane(&self, lane: usize) -> Option<$Item> {
                assert!(lane < $lanes, "lane {lane} out of range for {} lanes", $lanes);
                let [$($field),+] = [$(self.$field.as_array()[lane]),+];
                (self.hits >> lane & 1 == 1).then(|| $make)
            }
        }

        impl From<[$V; 4]> for $X {
            #[inline(always)]
            fn from([mask, $($field),+]: [$V; 4]) -> Self {
                Self { hits: mask.to_bitmask() as $bits, $($field),+ }
            }
        }
    };
}

macro_rules! contact_types {
    ($($X:ident: $V:ident, $bits:ty, $lanes:literal, $Count:literal, $count:literal;)+) => {$(
        #[doc = concat!("The contacts of ", $count, " pairs, one per lane: the answer of a contact kernel")]
        /// ([`contact_kernel`](mod@crate::contact_kernel), [`contact_kernel16`](mod@crate::contact_kernel16)).
        ///
        /// `hits` is the overlap kernel's bits, bit for bit; lanes without a hit hold normal `(0, 0)`
        /// and depth 0.
        #[derive(Clone, Copy, Debug)]
        pub struct $X {
            /// Bit `i` set when pair `i` overlaps.
            pub hits: $bits,
            /// The normals' horizontal components.
            pub normal_x: $V,
            /// The normals' vertical components.
            pub normal_y: $V,
            /// The penetration depths.
            pub depth: $V,
        }

        impl $X {
            #[doc = concat!($Count, " lanes without a hit: normal `(0, 0)` and depth 0 in every lane.")]
            pub const NONE: Self = Self {
                hits: 0,
                normal_x: $V::ZERO,
                normal_y: $V::ZERO,
                depth: $V::ZERO,
            };

            /// The same contacts seen from the other shape: every normal reversed (as `0 - n`, so that
            /// lanes without a hit keep `+0`).
            #[inline]
            #[must_use]
            pub fn reversed(self) -> Self {
                Self {
                    normal_x: $V::ZERO - self.normal_x,
                    normal_y: $V::ZERO - self.normal_y,
                    ..self
                }
            }
        }

        lane_columns!($X: $V, $bits, $lanes, [normal_x, normal_y, depth] => Contact, "overlap",
            Contact { normal: [normal_x, normal_y], depth });
    )+};
}

contact_types! {
    ContactX8: f32x8, u8, 8, "Eight", "eight";
    ContactX16: f32x16, u16, 16, "Sixteen", "sixteen";
}

macro_rules! sweep_types {
    ($($X:ident: $V:ident, $bits:ty, $lanes:literal, $count:literal;)+) => {$(
        #[doc = concat!("The sweeps of ", $count, " pairs, one per lane: the answer of a sweep kernel")]
        /// ([`sweep_kernel`](mod@crate::sweep_kernel), [`sweep_kernel16`](mod@crate::sweep_kernel16)).
        ///
        /// Lanes without a hit hold `t = 1` (the whole motion is free) and normal `(0, 0)`.
        #[derive(Clone, Copy, Debug)]
        pub struct $X {
            /// Bit `i` set when pair `i` touches during the motion.
            pub hits: $bits,
            /// The fractions of the motion at first contact.
            pub t: $V,
            /// The normals' horizontal components.
            pub normal_x: $V,
            /// The normals' vertical components.
            pub normal_y: $V,
        }

        lane_columns!($X: $V, $bits, $lanes, [t, normal_x, normal_y] => Sweep, "touch",
            Sweep { t, normal: [normal_x, normal_y] });
    )+};
}

sweep_types! {
    SweepX8: f32x8, u8, 8, "eight";
    SweepX16: f32x16, u16, 16, "sixteen";
}

//! The pair table: the one list of pair kinds, from which the crate generates the pair modules,
//! [`crate::reference`](mod@crate::reference) and [`crate::kernel`](mod@crate::kernel), the
//! [`Overlaps`](crate::Overlaps) and [`RayCast`](crate::RayCast) implementations (the swapped
//! order delegating to the one kernel), the sweeps ([`SweepPair`](crate::SweepPair) in both
//! orders, [`crate::sweep_reference`](mod@crate::sweep_reference) and the sweep kernels), and
//! the pair kinds a [`Scene`](crate::Scene) files its candidates by; the tests, the fuzzer and
//! the benchmarks iterate over it too.
//!
//! Adding a pair kind is one file in `src/narrow/` (its `reference` and `x8`) and one line
//! below; its sweep needs no code of its own (`narrow::sweep` is written once over the shapes'
//! outlines), only the shape kinds' `Swept` description. (Points and circles, and two
//! polygons, take faster paths there that share their start contact's work.)

/// Calls the macro `$callback` with every pair kind that has a kernel, as three lists (after
/// any further tokens given, `pair_table!(callback, tokens…)`):
///
/// - `distinct { name: A, B; … }`: pairs of two different shape kinds, named and implemented
///   in one order (`narrow::name`); the other order is the same kernel with the arguments
///   exchanged;
/// - `same { name: S; … }`: pairs of one shape kind (their tests are symmetric to the bit);
/// - `casts { name: S; … }`: ray casts against shapes of kind `S`.
///
/// `A`, `B` and `S` are the container types (`widephase::Circles`, …); each `name` is a
/// function in [`reference`](mod@crate::reference) and in [`kernel`](mod@crate::kernel). Code
/// that should cover every pair kind (a test per kind, a benchmark per kind) iterates over this
/// list instead of repeating it:
///
/// ```
/// use widephase::{pair_table, reference, ShapeSoa};
///
/// macro_rules! names {
///     (
///         distinct { $($d:ident: $A:ty, $B:ty;)* }
///         same { $($s:ident: $S:ty;)* }
///         casts { $($c:ident: $C:ty;)* }
///     ) => {
///         [$(stringify!($d),)* $(stringify!($s),)*]
///     };
/// }
/// let names = pair_table!(names);
/// assert!(names.contains(&"circle_aabb") && names.contains(&"polygon_polygon"));
/// assert_eq!(names.len(), 20);
/// ```
#[macro_export]
macro_rules! pair_table {
    ($callback:ident $(, $($first:tt)+)?) => {
        $callback! {
            $($($first)+)?
            distinct {
                point_aabb: $crate::Points, $crate::Aabbs;
                point_circle: $crate::Points, $crate::Circles;
                point_obb: $crate::Points, $crate::Obbs;
                point_polygon: $crate::Points, $crate::Polygons;
                circle_aabb: $crate::Circles, $crate::Aabbs;
                circle_obb: $crate::Circles, $crate::Obbs;
                circle_polygon: $crate::Circles, $crate::Polygons;
                aabb_obb: $crate::Aabbs, $crate::Obbs;
                aabb_polygon: $crate::Aabbs, $crate::Polygons;
                obb_polygon: $crate::Obbs, $crate::Polygons;
                point_capsule: $crate::Points, $crate::Capsules;
                circle_capsule: $crate::Circles, $crate::Capsules;
                aabb_capsule: $crate::Aabbs, $crate::Capsules;
                obb_capsule: $crate::Obbs, $crate::Capsules;
                polygon_capsule: $crate::Polygons, $crate::Capsules;
            }
            same {
                circle_circle: $crate::Circles;
                aabb_aabb: $crate::Aabbs;
                obb_obb: $crate::Obbs;
                polygon_polygon: $crate::Polygons;
                capsule_capsule: $crate::Capsules;
            }
            casts {
                ray_aabb: $crate::Aabbs;
                ray_circle: $crate::Circles;
                ray_obb: $crate::Obbs;
                ray_polygon: $crate::Polygons;
                ray_capsule: $crate::Capsules;
            }
        }
    };
}

/// Declares the pair modules (`src/narrow/<name>.rs`).
macro_rules! pair_modules {
    (
        distinct { $($d:ident: $A:ty, $B:ty;)* }
        same { $($s:ident: $S:ty;)* }
        casts { $($c:ident: $C:ty;)* }
    ) => {
        $(pub mod $d;)*
        $(pub mod $s;)*
        $(pub mod $c;)*
    };
}

pub(crate) use pair_modules;

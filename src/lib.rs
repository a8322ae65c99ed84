//! # widephase
//!
//! Finds overlapping 2D shapes, how deeply they overlap and where, many at once: points,
//! circles, axis-aligned boxes, rotated boxes, convex polygons of up to eight vertices, capsules
//! and segments, and rays. Two ways in:
//!
//! - **A collision world** for a game or a simulation: a [`Scene`] holds moving and static
//!   shapes under ids that never alias, each with a [`Filter`] (layers and groups), optionally
//!   a sensor, and a `u64` of user data; a kept [`PairFinder`] answers each frame's overlapping
//!   pairs, the pairs that began and ended, [contacts](PairFinder::contacts) and
//!   [manifolds](PairFinder::manifolds); a [`SceneIndex`] answers ray casts (with the point and
//!   normal hit) and box, point and shape queries. See [`scene`] for how a frame works.
//! - **Batches** of pairs in structure-of-arrays containers, tested a lane block at a time:
//!   [`batch_test`], [`batch_contact`], [`batch_manifold`], [`batch_raycast`] (see
//!   [Batches](#batches)).
//!
//! ```
//! use widephase::{Aabb, Capsule, Circle, Filter, PairFinder, Ray, Scene};
//! const WALLS: u32 = 1 << 1; // your layers: `Filter::ALL` is layer 1 (`1 << 0`)
//! const PLAYER: u32 = 1 << 2;
//! const ENEMIES: u32 = 1 << 3;
//! const BULLETS: u32 = 1 << 4;
//!
//! let mut scene = Scene::new();
//! // The level: static shapes, filed once, never paired with each other.
//! let wall = scene.push_static_with(Aabb::new(10.0, -5.0, 11.0, 5.0), Filter::new(WALLS, !0));
//! // A trigger zone: a static sensor that sees the player come and go and pushes nobody.
//! let zone = scene.push_static_with(Aabb::new(-3.0, -3.0, 3.0, 3.0), Filter::new(WALLS, PLAYER));
//! scene.set_sensor(zone, true);
//! // The player and its bullets share group -1: they never pair, and its rays skip them.
//! let me = Filter::new(PLAYER, !0).with_group(-1);
//! let player = scene.push_with(Capsule::new(0.0, -0.5, 0.0, 0.5, 0.5), me);
//! let shot = Filter::new(BULLETS, ENEMIES | WALLS).with_group(-1);
//! let bullet = scene.push_with(Circle::new(0.8, 0.0, 0.1), shot);
//! let enemy = scene.push_with(Circle::new(6.0, 0.0, 1.0), Filter::new(ENEMIES, !0));
//! scene.set_user_data(enemy, 17); // the game's entity, found again from any answer
//!
//! let mut finder = PairFinder::new(); // keep it: frames reuse its state and buffers
//! let mut pairs = Vec::new();
//! finder.overlapping_pairs(&scene, &mut pairs);
//! assert_eq!(pairs, [(zone, player)]);
//! assert_eq!(finder.began(), [(zone, player)]);
//!
//! // Next frame: the bullet reaches the enemy.
//! scene.set(bullet, Circle::new(5.2, 0.0, 0.1));
//! finder.overlapping_pairs(&scene, &mut pairs);
//! assert_eq!(finder.began(), [(bullet, enemy)]);
//! let (_, hit) = finder.began()[0];
//! assert_eq!(scene.user_data(hit), Some(17));
//!
//! // The enemy dies and another spawns in the same frame: a new id, never the dead one's.
//! scene.remove(enemy);
//! let next = scene.push_with(Circle::new(5.5, 0.0, 1.0), Filter::new(ENEMIES, !0));
//! assert_ne!(next, enemy);
//! finder.overlapping_pairs(&scene, &mut pairs);
//! assert_eq!((finder.ended(), finder.began()), (&[(bullet, enemy)][..], &[(bullet, next)][..]));
//! // Contacts leave out the sensor's pair.
//! let mut contacts = Vec::new();
//! finder.contacts(&scene, &mut contacts);
//! assert_eq!(contacts.len(), 1);
//!
//! // Many queries on one frame: one index. An explosion, and the player's line of sight,
//! // which passes through the zone (a sensor) and its own group.
//! let index = finder.index(&scene);
//! let mut ids = Vec::new();
//! index.query_shape(&Circle::new(6.0, 0.0, 1.5), &mut ids);
//! assert_eq!(ids, [bullet, next]);
//! let sight = index.raycast_hit_filtered(&Ray::new(0.0, 0.0, 1.0, 0.0, f32::INFINITY), me);
//! let hit = sight.unwrap();
//! assert_eq!((hit.id, hit.point, hit.normal), (next, [4.5, 0.0], [-1.0, 0.0]));
//! # let _ = wall;
//! ```
//!
//! ## Batches
//!
//! Shapes live in structure-of-arrays containers ([`Points`], [`Circles`], [`Aabbs`],
//! [`Obbs`], [`Polygons`], [`Capsules`], [`Rays`]) laid out in lane blocks; [`batch_test`] tests
//! pair `i` of one container against pair `i` of another, and [`batch_raycast`] casts ray `i`
//! against shape `i`, [`KERNEL_LANES`] per kernel call: sixteen ([`wide::f32x16`]) where the
//! build has AVX-512, eight ([`wide::f32x8`]) otherwise. Every kernel is written once over
//! [`Simd`] and instantiated at both widths ([`kernel`](mod@kernel), [`kernel16`](mod@kernel16);
//! the lane types are in [`lanes`]); every kernel has a plain scalar twin in
//! [`reference`](mod@reference) and gives exactly its answer on every input. [`batch_contact`]
//! adds the normal and penetration depth of every overlapping pair (see [Contacts](#contacts)),
//! and [`batch_manifold`] the points where they touch (see [`Manifold`]).
//!
//! ```
//! use widephase::{batch_test, Circle, Circles, Obb, Obbs, HitMask};
//!
//! let bullets: Circles = (0..1000).map(|i| Circle::new(i as f32 * 0.01, 0.0, 0.05)).collect();
//! let walls: Obbs = (0..1000).map(|_| Obb::new(5.0, 0.0, 0.5, 2.0, 0.3)).collect();
//! let mut hits = HitMask::new();
//! batch_test(&bullets, &walls, &mut hits).unwrap();
//! for i in hits.iter_ones() {
//!     assert!(widephase::reference::circle_obb(&bullets.get(i), &walls.get(i)));
//! }
//! ```
//!
//! ## Conventions
//!
//! - **Closed shapes.** Touching counts as overlapping: every comparison is `<=`. A circle of
//!   radius 1 at (2, 0) and one at (0, 0) overlap; so do `[0, 1]` and `[1, 2]` boxes.
//! - **Frame.** x to the right, y up, angles in radians counter-clockwise. An [`Obb`] stores its
//!   rotation as the unit vector `(cos, sin)`, computed once when it is built; no pair test calls
//!   trigonometry. A [`Polygon`] is convex with up to eight vertices, counter-clockwise; a
//!   shorter one repeats its last vertex in the unused slots. A [`Capsule`] is every point
//!   within its radius of a segment; a segment is a capsule of radius 0 (two segments that
//!   cross or touch overlap), and equal endpoints make a circle.
//! - **Rays.** [`Ray`] casts answer the entry parameter `t` (the point `origin + t · dir`, in
//!   units of the given direction): 0 when the origin is inside, `f32::INFINITY` for a miss or
//!   an entry beyond `max_t`. Grazing a corner or an edge is a hit; an axis-parallel or zero
//!   direction is handled exactly (see [`narrow`]).
//! - **Bad data never hits.** A pair in which either shape has a NaN field, a negative radius or
//!   half extent, an AABB with `min > max`, a non-finite OBB rotation, or a non-finite polygon
//!   or capsule endpoint coordinate is never reported as overlapping, and a ray with a non-finite origin or
//!   direction or a NaN or negative `max_t` never hits, by the scalar reference and the kernel
//!   alike; no data makes a kernel panic. `validate()` on a container names the first such
//!   shape and why (see [`InvalidShape`]). A finite polygon that is not convex and
//!   counter-clockwise, like a finite rotation that is not unit length, is used as given by the
//!   kernels; `validate()` refuses it and a [`Scene`] never pairs it.
//! - **Infinity follows IEEE.** `Aabb::new(-inf, -inf, inf, inf)` contains every finite point and
//!   circle. Where a formula meets `inf - inf` or `0 · inf` the result is NaN and the pair is not a
//!   hit; the module docs of [`narrow`] say per pair where that happens (e.g. an AABB with an
//!   infinite bound against an OBB). Squared distances overflow past about ±1.8e19.
//! - **Determinism.** The same inputs give the same bits on every build: the kernel and the
//!   reference perform the same IEEE operations in the same order, with no fused multiply-add and
//!   no horizontal sums, and `min`/`max` follow one pinned rule (see [`narrow`]). The test suite and
//!   the fuzzer demand zero mismatches, at the x86-64-v3 and the baseline x86-64 targets.
//! - **Padding.** A container's last block is padded with NaN, which never hits; [`HitMask`] bits
//!   at and past `len()` are always zero.
//!
//! ## Contacts
//!
//! [`batch_contact`] (and [`par_batch_contact`], [`PairFinder::contacts`], [`Scene::contacts`])
//! answer, for every overlapping pair `(a, b)`, a [`Contact`]: a unit `normal` pointing from `a`
//! towards `b` and the penetration `depth >= 0`, the length of the smallest translation that
//! separates the two. Moving `b` by `depth · normal` (or `a` by the opposite) leaves them just
//! touching; any shorter move leaves them overlapping (up to f32 rounding).
//!
//! ```
//! use widephase::{batch_contact, Circle, Circles, Contacts};
//! let a: Circles = [Circle::new(0.0, 0.0, 1.0)].into_iter().collect();
//! let b: Circles = [Circle::new(0.0, 1.5, 1.0)].into_iter().collect();
//! let mut contacts = Contacts::new();
//! batch_contact(&a, &b, &mut contacts).unwrap();
//! let c = contacts.get(0).unwrap();
//! assert_eq!((c.normal, c.depth), ([0.0, 1.0], 0.5));
//! ```
//!
//! - **The hit is the overlap test's.** A contact's hit bit is [`batch_test`]'s bit for the same
//!   pair, always; bad data never hits, and no input makes a contact kernel panic.
//! - **How it is found.** The depth is the smallest of a set of candidate moves that contains the
//!   true minimum: for boxes and polygons the edge normals of both shapes (the separating-axis
//!   minimum), for a circle also the axis from its centre to the other shape's nearest vertex
//!   (or nearest point of a box), for a point inside a shape its nearest edge, for a capsule its
//!   segment's two normals and the axis between the nearest pair of vertices (its ends, the
//!   other shape's corners, centre or ends). Each pair's file in [`narrow`] lists its
//!   candidates in order.
//! - **Shapes that meet within rounding.** A normal never comes from an offset too short to
//!   trust: every candidate is a face's normal (computed from the face's two stored ends) or the
//!   axis between two vertices (one subtraction per coordinate), with the exact move along it,
//!   never the offset from a vertex to its nearest point inside an edge, whose direction is
//!   rounding noise where the shapes' cores meet (a capsule lying along another, a corner or an
//!   end on a segment, a zero-length capsule centred on a core). There the faces' normals
//!   decide, as where the cores cross, and the normal and depth are the smallest separating
//!   move of the stored shapes up to a few roundings of their coordinates (the derivation:
//!   [`narrow`], "Capsules").
//! - **Ties** between candidates go to the earliest in that order (a later one must be strictly
//!   smaller), in the reference and the kernel alike.
//! - **Degenerate directions**: coincident circle centres and a point at a circle's centre give
//!   the normal `(1, 0)` and the full reach as depth, as do a centre on a zero-length capsule's
//!   ends and two zero-length capsules on one point; never NaN. A centre on a capsule's segment,
//!   exactly or within rounding, is left sideways, along the segment's left normal
//!   `(-dy, dx) / |d|`. Where no finite move separates
//!   the pair (an infinite box), the depth is `f32::INFINITY` along `(1, 0)`; with coordinates
//!   so large that squares overflow (about 1e19), the normal may fall back to `(1, 0)` as well.
//! - **Order.** The swapped order of two kinds is the same contact reversed
//!   ([`Contact::reversed`]: `0 - n`, exact). Pairs of one kind are computed in the order given;
//!   ties can make `(b, a)` differ from `(a, b)` reversed, so the scene answers each pair in its
//!   `(a, b)` order.
//! - **No hit**: lanes and [`Contacts`] entries of pairs that do not overlap hold normal `(0, 0)`
//!   and depth 0 (`+0`); [`Contacts::get`] answers `None` for them.
//! - **Exactness**: each contact is written once, generic over the scalar `f32` and the lane type
//!   (same operations, same order), so the kernel gives the reference's bits, normal and depth,
//!   on every input and every build.
//!
//! ## Sweeps
//!
//! [`batch_sweep`] (and [`par_batch_sweep`]) answers, for pair `i`, when shape `a[i]`,
//! translated by `t · motions[i]` for `t` in `[0, 1]` without turning, first touches `b[i]`,
//! which stays: a [`Sweep`] `{ t, normal }`, or none. Every pair kind of [`batch_contact`], in
//! both orders; for two moving shapes, pass `a`'s displacement minus `b`'s. A bullet that
//! crosses a thin wall within one step hits it; a character learns how far it can move.
//!
//! - **`t`** is the first time at which the two touch (closed shapes: touching counts);
//!   **`normal`** the unit normal from `a` towards `b` there, along which they touch and `a`
//!   moves towards `b` (`motion · normal > 0`). Where a corner meets a corner (a cone of valid
//!   normals), the face normal most opposed to the motion (the largest `motion · normal`), so
//!   that sliding along it works; ties between equal faces go to the first in the pair's order.
//! - **Overlapping at the start** (the overlap test's answer, touching included): `t = 0` with
//!   [`batch_contact`]'s normal, bit for bit, where the motion goes deeper
//!   (`motion · normal > 0`); **no hit** where it leaves or slides along (`<= 0`): a shape can
//!   always move out of, or along, what it touches, so a character standing on a floor walks,
//!   and one that moved to a contact slides along it without a gap. Two convex shapes cannot
//!   touch again later in one straight motion. Likewise a motion that only **grazes** the
//!   other shape (touches it at one instant, moving square to the normal there) is no hit.
//! - **How it is found** (once for every kind, [`narrow`]'s `sweep`): two flat kinds (points,
//!   boxes, polygons) by swept separating axes, the latest entry over both shapes' edge normals
//!   before the earliest exit; a pair with a circle or a capsule as the first touch of the
//!   motion with the rounded Minkowski difference, covered by its edges' bands and its
//!   vertices' discs (a moving point or circle is a ray against the other shape grown by the
//!   radii). In `f32`, exact up to rounding of the coordinates; the tests judge every kind
//!   against a first touch computed apart in `f64`.
//! - **Bad data never hits**: a NaN or infinite field or motion, a negative size, an AABB with
//!   `min > max`. Shapes with infinite coordinates (valid for the overlap tests) are not swept.
//!   Coordinates, sizes and motions whose squares overflow (beyond about 1e19) may miss or hit
//!   at a wrong time, as the overlap tests there may find pairs touching; nothing panics. The round kinds' discs, whose roots multiply four lengths, are solved
//!   scaled by a power of two, so every kind holds from about 1e-18 to 1e18 (a pair that
//!   starts touching, as its contact does: to about 1e12 with a polygon or a capsule).
//! - **No hit**: [`Sweeps`] holds `t = 1` and normal `(0, 0)`, so `position + t · motion` is
//!   where each shape may go, hit or not. Reference ([`sweep_reference`](mod@sweep_reference))
//!   and kernels ([`sweep_kernel`](mod@sweep_kernel), [`sweep_kernel16`](mod@sweep_kernel16))
//!   give the same bits, as for every kernel.
//!
//! A character's move and slide against walls, three sweeps at most per step:
//!
//! ```
//! use widephase::{batch_sweep, Aabb, Aabbs, Capsule, Capsules, Motions, Sweeps};
//!
//! let walls: Aabbs = [Aabb::new(-10.0, -1.0, 10.0, 0.0), Aabb::new(3.0, 0.0, 4.0, 5.0)]
//!     .into_iter()
//!     .collect();
//! let mut me = Capsule::new(0.0, 0.5, 0.0, 1.5, 0.5); // standing on the floor
//! let mut left = [5.0, -1.0]; // walking right, pressing down
//! let mut sweeps = Sweeps::new();
//! for _ in 0..3 {
//!     let players: Capsules = (0..walls.len()).map(|_| me).collect();
//!     let motions: Motions = (0..walls.len()).map(|_| left).collect();
//!     batch_sweep(&players, &walls, &motions, &mut sweeps)?;
//!     // The first wall touched, or the whole motion.
//!     let first = sweeps.iter().min_by(|x, y| x.1.t.total_cmp(&y.1.t)).map(|(_, s)| s);
//!     let t = first.map_or(1.0, |s| s.t);
//!     let (dx, dy) = (t * left[0], t * left[1]);
//!     me = Capsule::new(me.x0 + dx, me.y0 + dy, me.x1 + dx, me.y1 + dy, me.radius);
//!     let Some(hit) = first else { break };
//!     // Keep what is left of the motion, less its part into the wall.
//!     let rest = [(1.0 - t) * left[0], (1.0 - t) * left[1]];
//!     let into = rest[0] * hit.normal[0] + rest[1] * hit.normal[1];
//!     left = [rest[0] - into * hit.normal[0], rest[1] - into * hit.normal[1]];
//! }
//! // It walked along the floor and stopped at the wall's face (x = 3, less its radius).
//! assert!((me.x0 - 2.5).abs() < 1e-5 && (me.y0 - 0.5).abs() < 1e-5, "{me:?}");
//! # Ok::<(), widephase::LengthMismatch>(())
//! ```
//!
//! ## Real lanes: eight with AVX2, sixteen with AVX-512
//!
//! `wide` chooses how `f32x8` and `f32x16` are implemented when it is compiled. Built for
//! baseline x86-64 an `f32x8` is two SSE halves; built with AVX it is one 256-bit register,
//! roughly 2.5x faster here; built with AVX-512 (`avx512f`) an `f32x16` is one 512-bit register
//! and the batch functions and the [`Scene`] switch to the sixteen-lane kernels. Runtime feature
//! detection cannot change that choice, so build the final binary for the CPU it runs on, e.g.
//! `RUSTFLAGS="-C target-cpu=x86-64-v3"` (AVX2), `x86-64-v4` (AVX-512) or `native`.
//! [`SIMD_BACKEND`] and [`KERNEL_LANES`] say what a build got. Results are bit-identical either
//! way.
//!
//! ## Pair kinds
//!
//! | | [`Points`] | [`Circles`] | [`Aabbs`] | [`Obbs`] | [`Polygons`] | [`Capsules`] |
//! |---|---|---|---|---|---|---|
//! | [`Points`] | | ✓ | ✓ | ✓ | ✓ | ✓ |
//! | [`Circles`] | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ |
//! | [`Aabbs`] | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ |
//! | [`Obbs`] | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ |
//! | [`Polygons`] | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ |
//! | [`Capsules`] | ✓ | ✓ | ✓ | ✓ | ✓ | ✓ |
//! | [`Rays`] ([`batch_raycast`]) | | ✓ | ✓ | ✓ | ✓ | ✓ |
//!
//! Point–point has no kernel (two points overlap only when equal); a pair without an [`Overlaps`]
//! implementation does not compile:
//!
//! ```compile_fail
//! use widephase::{batch_test, HitMask, Points};
//! batch_test(&Points::new(), &Points::new(), &mut HitMask::new()).unwrap();
//! ```

// Denied, not forbidden: `prefetch.rs` allows its one block (a measured win, see there).
#![deny(unsafe_code)]
#![warn(missing_docs)]

mod awake;
pub mod batch;
mod broadphase;
mod concat;
pub mod lanes;
pub mod narrow;
mod prefetch;
mod room;
pub mod scene;
pub mod shape;
pub mod soa;
mod tasks;
#[cfg(test)]
mod test_pool;
#[cfg(test)]
mod test_rng;

pub use batch::{
    ContactPair, LengthMismatch, ManifoldPair, Overlaps, RayCast, SweepPair, batch_contact,
    batch_contact_at, batch_manifold, batch_manifold_at, batch_raycast, batch_raycast_at,
    batch_sweep, batch_sweep_at, batch_test, batch_test_at, par_batch_contact, par_batch_manifold,
    par_batch_raycast, par_batch_sweep, par_batch_test,
};
pub use lanes::{KERNEL_LANES, LANES, Simd};
pub use scene::{Filter, FrameStats, MAX_SHAPES, PairFinder, RayHit, Scene, SceneIndex};
pub use shape::{
    Aabb, Capsule, Circle, Contact, InvalidPolygon, MAX_VERTICES, Manifold, ManifoldPoint, Obb,
    Point, Polygon, Problem, Ray, Shape, ShapeError, Sweep,
};
pub use soa::{
    Aabbs, Capsules, Circles, Contacts, HitMask, InvalidShape, Manifolds, Motions, Obbs, Points,
    Polygons, Rays, ShapeSoa, Sweeps,
};
pub use wide;

/// The re-exports of one function of every pair module under the pair's name, and with
/// `; casts f` of function `f` of every ray-cast module: `pair_table!(pair_exports, reference;
/// casts reference)`, `… x8; casts x8)`, `… contact_reference)`, ….
macro_rules! pair_exports {
    (
        $function:ident $(; casts $cast:ident)?
        distinct { $($d:ident: $A:ty, $B:ty;)* }
        same { $($s:ident: $S:ty;)* }
        casts { $($c:ident: $C:ty;)* }
    ) => {
        $(pub use crate::narrow::$d::$function as $d;)*
        $(pub use crate::narrow::$s::$function as $s;)*
        pair_exports!(@casts $($cast)?; $($c)*);
    };
    (@casts ; $($c:ident)*) => {};
    (@casts $cast:ident; $($c:ident)*) => {
        $(pub use crate::narrow::$c::$cast as $c;)*
    };
}

/// The scalar reference of every pair test and ray cast: plain, readable, the ground truth the
/// kernels match bit for bit. Each function's derivation is in its file under [`narrow`].
pub mod reference {
    crate::pair_table!(pair_exports, reference; casts reference);
}

/// The eight-lane kernel of every pair test; bit `i` of the result is lane `i`'s answer (for
/// the ray casts, lane `i` of the result is ray `i`'s entry parameter).
pub mod kernel {
    crate::pair_table!(pair_exports, x8; casts x8);
}

/// The sixteen-lane kernel of every pair test, the same operations as [`kernel`](mod@kernel)'s
/// (one generic function per pair, instantiated at both widths): bit `i` of the result is lane
/// `i`'s answer (for the ray casts, lane `i` is ray `i`'s entry parameter). One 512-bit register
/// per `f32x16` where the build has `avx512f`, two 256-bit halves otherwise; the same bits
/// either way.
pub mod kernel16 {
    crate::pair_table!(pair_exports, x16; casts x16);
}

/// The scalar reference of every pair's contact (see [`Contact`]): `None` when the pair does
/// not overlap. Each function's candidates are in its file under [`narrow`].
pub mod contact_reference {
    crate::pair_table!(pair_exports, contact_reference);
}

/// The eight-lane contact kernel of every pair: the overlap kernel's bits and each hit lane's
/// normal and depth (see [`ContactX8`](lanes::ContactX8)).
pub mod contact_kernel {
    crate::pair_table!(pair_exports, contact_x8);
}

/// The sixteen-lane contact kernel of every pair (see [`ContactX16`](lanes::ContactX16)); the
/// same bits as [`contact_kernel`](mod@contact_kernel) lane for lane.
pub mod contact_kernel16 {
    crate::pair_table!(pair_exports, contact_x16);
}

/// The scalar reference of every pair's contact manifold (see [`Manifold`]): `None` when the
/// pair does not overlap. How the points are found: [`narrow`]'s manifold notes.
pub mod manifold_reference {
    macro_rules! manifold_fns {
        (
            $function:ident
            distinct { $($d:ident: $A:ty, $B:ty;)* }
            same { $($s:ident: $S:ty;)* }
            casts { $($c:ident: $C:ty;)* }
        ) => {
            manifold_fns!(@pairs $function; $($d: $A, $B;)* $($s: $S, $S;)*);
        };
        (@pairs $function:ident; $($name:ident: $A:ty, $B:ty;)*) => {
            $(
                #[doc = concat!("The manifold of a `", stringify!($name), "` pair.")]
                #[must_use]
                pub fn $name(a: &<$A as $crate::ShapeSoa>::Shape, b: &<$B as $crate::ShapeSoa>::Shape)
                    -> Option<$crate::Manifold> {
                    <$A as $crate::ManifoldPair<$B>>::$function(a, b)
                }
            )*
        };
    }
    crate::pair_table!(manifold_fns, manifold_reference);
}

/// The eight-lane manifold kernel of every pair: lane `i`'s manifold, the reference's bits.
pub mod manifold_kernel {
    macro_rules! manifold_kernels {
        (
            $function:ident, $X:ident, $n:literal
            distinct { $($d:ident: $A:ty, $B:ty;)* }
            same { $($s:ident: $S:ty;)* }
            casts { $($c:ident: $C:ty;)* }
        ) => {
            manifold_kernels!(@pairs $function, $X, $n; $($d: $A, $B;)* $($s: $S, $S;)*);
        };
        (@pairs $function:ident, $X:ident, $n:literal; $($name:ident: $A:ty, $B:ty;)*) => {
            $(
                #[doc = concat!("The manifolds of ", stringify!($n), " `", stringify!($name), "` pairs, `None` where a pair does not overlap.")]
                #[must_use]
                pub fn $name(a: &<$A as $crate::ShapeSoa>::$X, b: &<$B as $crate::ShapeSoa>::$X)
                    -> [Option<$crate::Manifold>; $n] {
                    <$A as $crate::ManifoldPair<$B>>::$function(a, b)
                }
            )*
        };
    }
    pub(crate) use manifold_kernels;
    crate::pair_table!(manifold_kernels, manifold_kernel, X8, 8);
}

/// The sixteen-lane manifold kernel of every pair: the same bits as
/// [`manifold_kernel`](mod@manifold_kernel) lane for lane.
pub mod manifold_kernel16 {
    use super::manifold_kernel::manifold_kernels;
    crate::pair_table!(manifold_kernels, manifold_kernel16, X16, 16);
}

/// The scalar reference of every pair's sweep (see [`Sweep`]): shape `a` moving by `motion`
/// against `b`, `None` when they do not touch during the motion. How the time is found: the
/// crate docs, "Sweeps". The swapped order of two kinds is [`SweepPair`]'s.
pub mod sweep_reference {
    macro_rules! sweep_fns {
        (

            distinct { $($d:ident: $A:ty, $B:ty;)* }
            same { $($s:ident: $S:ty;)* }
            casts { $($c:ident: $C:ty;)* }
        ) => {
            sweep_fns!(@pairs $($d: $A, $B;)* $($s: $S, $S;)*);
        };
        (@pairs $($name:ident: $A:ty, $B:ty;)*) => {
            $(
                #[doc = concat!("The sweep of a `", stringify!($name), "` pair, the first shape moving.")]
                #[must_use]
                pub fn $name(
                    a: &<$A as $crate::ShapeSoa>::Shape,
                    b: &<$B as $crate::ShapeSoa>::Shape,
                    motion: [f32; 2],
                ) -> Option<$crate::Sweep> {
                    <$A as $crate::SweepPair<$B>>::sweep_reference(a, b, motion)
                }
            )*
        };
    }
    crate::pair_table!(sweep_fns);
}

/// The eight-lane sweep kernel of every pair: lane `i`'s sweep, the reference's bits (see
/// [`SweepX8`](lanes::SweepX8)); `motion` is the `[dx, dy]` lane columns.
pub mod sweep_kernel {
    macro_rules! sweep_kernels {
        (
            $function:ident, $X:ident, $V:ty, $Out:ty;
            distinct { $($d:ident: $A:ty, $B:ty;)* }
            same { $($s:ident: $S:ty;)* }
            casts { $($c:ident: $C:ty;)* }
        ) => {
            sweep_kernels!(@pairs $function, $X, $V, $Out; $($d: $A, $B;)* $($s: $S, $S;)*);
        };
        (@pairs $function:ident, $X:ident, $V:ty, $Out:ty; $($name:ident: $A:ty, $B:ty;)*) => {
            $(
                #[doc = concat!("The sweeps of a lane block of `", stringify!($name), "` pairs, the first shapes moving.")]
                #[must_use]
                pub fn $name(
                    a: &<$A as $crate::ShapeSoa>::$X,
                    b: &<$B as $crate::ShapeSoa>::$X,
                    motion: &[$V; 2],
                ) -> $Out {
                    <$A as $crate::SweepPair<$B>>::$function(a, b, motion)
                }
            )*
        };
    }
    pub(crate) use sweep_kernels;
    crate::pair_table!(sweep_kernels, sweep_kernel, X8, wide::f32x8, crate::lanes::SweepX8;);
}

/// The sixteen-lane sweep kernel of every pair: the same bits as
/// [`sweep_kernel`](mod@sweep_kernel) lane for lane.
pub mod sweep_kernel16 {
    use super::sweep_kernel::sweep_kernels;
    crate::pair_table!(sweep_kernels, sweep_kernel16, X16, wide::f32x16, crate::lanes::SweepX16;);
}

/// What this build's kernels run on, decided when `wide` was compiled: `"16-lane AVX-512"` when
/// the build has `avx512f` (the batch functions and the [`Scene`] call the sixteen-lane kernels,
/// one 512-bit register per `f32x16`); otherwise the eight-lane kernels, on `"8-lane AVX"` when
/// each `f32x8` is one 256-bit register, `"2x4-lane SSE"` on baseline x86-64 (two 128-bit
/// halves), and likewise for NEON, WASM SIMD, or `"8 scalar lanes"` without SIMD. See
/// [`KERNEL_LANES`].
pub const SIMD_BACKEND: &str = if cfg!(target_feature = "avx512f") {
    "16-lane AVX-512"
} else if cfg!(target_feature = "avx") {
    "8-lane AVX"
} else if cfg!(target_feature = "sse2") {
    "2x4-lane SSE"
} else if cfg!(all(target_arch = "aarch64", target_feature = "neon")) {
    "2x4-lane NEON"
} else if cfg!(target_feature = "simd128") {
    "2x4-lane WASM SIMD"
} else {
    "8 scalar lanes"
};

/// The README's code blocks, compiled and run as doctests so the README cannot drift.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

//! What every contact computation is made of, written once over [`Lane`]: a scalar `f32` (the
//! reference), eight lanes of `f32x8` or sixteen of `f32x16` (the kernels) run the same IEEE
//! operations in the same order, so they give the same bits by construction. Also the two
//! macros that turn a pair file's generic functions into its public kernels.
//!
//! A contact is a minimum over candidate axes ([`Best::offer`]): each candidate is a unit
//! normal `n` pointing from `a` towards `b` and the distance `b` must travel along `n` until
//! the two only touch (the overlap of their projections on `n`, measured in that direction).
//! Every candidate is a translation that separates the pair, so the smallest of a set that
//! contains the true minimum is the penetration depth. For two convex polygons that set is the
//! edge normals of both (the facets of their Minkowski difference: `a`'s outward normals, and
//! `b`'s reversed); a disc adds the axis from its centre to the nearest vertex; a point is a
//! polygon without edges; a box's four faces are its edges; a capsule is a segment (an edge seen
//! from either side) grown by its radius, and adds the axis between the nearest pair of
//! vertices, one of each shape ([the capsule notes](super#capsules)). No candidate's direction
//! is an offset to a nearest point inside an edge: where shapes meet within rounding, that
//! offset's direction is rounding noise.
//!
//! **Ties.** Candidates are offered in a fixed order, listed in each pair's file, and a later one
//! replaces the best only when its depth is strictly smaller: ties go to the earliest. A NaN
//! depth never replaces anything, nor does a polygon's padding edge (zero length). Polygon edges
//! are compared before any division ([`Scaled`]), so "strictly smaller" is decided on
//! `depth · |n|` products there (products of three lengths: polygon and capsule contacts hold
//! to about 1e12, and below about 1e-12 ties may go either way); the order is the same up to
//! rounding.
//!
//! **Degenerate directions.** Where a direction cannot be formed (coincident circle centres, a
//! point at a circle's centre, coincident vertices on a capsule pair's ends axis, a length
//! whose square overflowed beyond about 1e19), the normal is `(1, 0)`; it is also `(1, 0)` where no candidate had a number (infinite shapes: the depth
//! is then infinite). The depth is never negative: a pair that touches after rounding has depth
//! 0.

use crate::lanes::{Lane, Simd, select_each};

/// The best candidate so far: its depth and unit normal.
#[derive(Clone, Copy)]
pub(crate) struct Best<L> {
    depth: L,
    nx: L,
    ny: L,
}

impl<L: Lane> Best<L> {
    /// No candidate yet: an infinite depth along `(1, 0)`.
    #[inline(always)]
    pub(crate) fn new() -> Self {
        Self {
            depth: L::splat(f32::INFINITY),
            nx: L::splat(1.0),
            ny: L::splat(0.0),
        }
    }

    /// The one candidate `depth` along `(nx, ny)`.
    #[inline(always)]
    pub(crate) fn new_with(depth: L, nx: L, ny: L) -> Self {
        Self { depth, nx, ny }
    }

    /// Takes the candidate `depth` along `(nx, ny)` where it is strictly smaller than the best.
    #[inline(always)]
    pub(crate) fn offer(&mut self, depth: L, nx: L, ny: L) {
        let better = depth.lt(self.depth);
        let old = [self.depth, self.nx, self.ny];
        [self.depth, self.nx, self.ny] = select_each(better, [depth, nx, ny], old);
    }

    /// The candidate of a box's axis `(ux, uy)` (unit) on which the two boxes' projection
    /// radii sum to `reach` and the centres' offset projects to `d`: the overlap `reach - |d|`,
    /// moving `b` the way it already lies (`+u` for `d >= 0`).
    #[inline(always)]
    pub(crate) fn offer_axis(&mut self, reach: L, d: L, ux: L, uy: L) {
        let sign = L::select(d.ge(L::splat(0.0)), L::splat(1.0), L::splat(-1.0));
        self.offer(reach - d.abs(), sign * ux, sign * uy);
    }

    /// `when ? a : b`, candidate by candidate.
    #[inline(always)]
    pub(crate) fn pick(when: L::Mask, a: Self, b: Self) -> Self {
        Self {
            depth: L::select(when, a.depth, b.depth),
            nx: L::select(when, a.nx, b.nx),
            ny: L::select(when, a.ny, b.ny),
        }
    }

    /// The normal taken from a frame with x axis `(cos, sin)` and y axis `(-sin, cos)` to the
    /// world.
    #[inline(always)]
    pub(crate) fn to_world(self, cos: L, sin: L) -> Self {
        Self {
            depth: self.depth,
            nx: self.nx * cos - self.ny * sin,
            ny: self.nx * sin + self.ny * cos,
        }
    }

    /// `[normal_x, normal_y, depth]` where `hit`, `[0, 0, 0]` elsewhere, the depth not below 0
    /// (`max(depth, 0)`, which also turns NaN into 0). Every candidate's normal is unit length
    /// or the fixed `(1, 0)` ([`disc`] and [`Scaled::normalized`] see to it where a length could
    /// overflow).
    #[inline(always)]
    pub(crate) fn finish(self, hit: L::Mask) -> [L; 3] {
        let zero = L::splat(0.0);
        [
            L::select(hit, self.nx, zero),
            L::select(hit, self.ny, zero),
            L::select(hit, self.depth.pmax(zero), zero),
        ]
    }
}

/// The best candidate so far among candidates given unnormalised: a move `num / |n|` along
/// `n / |n|`, with `len = |n|` (a polygon edge's normal and its projections, before any
/// division). Candidates compare by `max(num, 0) · |n_best| < num_best · |n|`, the same order
/// as the depths `num / |n|` for depths `>= 0` (every candidate of an overlapping pair is, up
/// to rounding), with no division: the caller gives `|n|` (a square root most take for a
/// radius anyway); the best is normalised once ([`Scaled::normalized`]). The products
/// are of three lengths (`num` is of two): in range from about 1e-12 to 1e12, where the
/// squared form, of six, held only from about 1e-6 to 1e6 (and was slower). A padding edge
/// (`n = 0`, `num = 0`) compares `0 < 0` and is never taken, nor is a NaN.
#[derive(Clone, Copy)]
pub(crate) struct Scaled<L> {
    num: L,
    len: L,
    nx: L,
    ny: L,
}

impl<L: Lane> Scaled<L> {
    /// No candidate yet: an infinite move along `(1, 0)`.
    #[inline(always)]
    pub(crate) fn new() -> Self {
        Self {
            num: L::splat(f32::INFINITY),
            len: L::splat(1.0),
            nx: L::splat(1.0),
            ny: L::splat(0.0),
        }
    }

    /// Takes the move `num / |n|` along `n = (nx, ny)`, `len = |n|`, where it is strictly
    /// smaller than the best (a negative `num` counts as 0).
    #[inline(always)]
    pub(crate) fn offer(&mut self, num: L, len: L, nx: L, ny: L) {
        // `max(0, num)`: NaN stays NaN (the second operand wins) and is never taken.
        let num = L::splat(0.0).pmax(num);
        let better = (num * self.len).lt(self.num * len);
        let old = [self.num, self.len, self.nx, self.ny];
        [self.num, self.len, self.nx, self.ny] = select_each(better, [num, len, nx, ny], old);
    }

    /// The best as a depth along a unit normal: one division.
    #[inline(always)]
    pub(crate) fn normalized(self) -> Best<L> {
        let inv = L::splat(1.0) / self.len;
        // A length that overflowed (coordinates beyond about 1e19) has no direction: (1, 0).
        let finite = self.len.lt(L::splat(f32::INFINITY));
        Best {
            depth: self.num * inv,
            nx: L::select(finite, self.nx * inv, L::splat(1.0)),
            ny: L::select(finite, self.ny * inv, L::splat(0.0)),
        }
    }
}

/// A disc of radius `reach` around a point `p` and a point `q` (the other shape's nearest point
/// or centre) at the offset `(dx, dy)` between them, `q - p` when `toward` is `1` and `p - q`
/// when it is `-1` (so that the offset can be the very expression an overlap test computed):
/// depth `reach - |d|` along the unit vector from `p` to `q`; `(1, 0)` when `d` is zero. Also
/// whether `|d| > 0`.
#[inline(always)]
pub(crate) fn disc<L: Lane>(dx: L, dy: L, toward: f32, reach: L) -> (Best<L>, L::Mask) {
    disc_squared(dx, dy, dx * dx + dy * dy, toward, reach)
}

/// [`disc`] given `d2 = dx² + dy²` as the overlap test computed it (possibly from the
/// components' absolute values).
#[inline(always)]
pub(crate) fn disc_squared<L: Lane>(
    dx: L,
    dy: L,
    d2: L,
    toward: f32,
    reach: L,
) -> (Best<L>, L::Mask) {
    let dist = d2.sqrt();
    // Coincident points, or a distance that overflowed, have no direction: (1, 0).
    let apart = dist.gt(L::splat(0.0)) & dist.lt(L::splat(f32::INFINITY));
    // One division for both components (a square root and a division are the slow part);
    // `toward / dist` turns the offset around where it was given from `q` to `p`.
    let inv = L::splat(toward) / dist;
    let best = Best {
        depth: reach - dist,
        nx: L::select(apart, dx * inv, L::splat(1.0)),
        ny: L::select(apart, dy * inv, L::splat(0.0)),
    };
    (best, apart)
}

/// A disc of radius `r` around `(px, py)` inside the box `[lo_x, hi_x] × [lo_y, hi_y]` (r = 0:
/// a point): the box leaves it through one of its faces, candidates in the order `+x` (the box
/// moves right, its left face passing the disc), `-x`, `+y`, `-y`, ties to the earlier. Written
/// as two pinned minimums per axis and one between the axes (`min(a, b)` is `a` only when
/// `a < b`), which is that order's answer in fewer operations than four offers.
#[inline(always)]
pub(crate) fn faces<L: Lane>(px: L, py: L, [lo_x, lo_y, hi_x, hi_y]: [L; 4], r: L) -> Best<L> {
    let (zero, one, minus) = (L::splat(0.0), L::splat(1.0), L::splat(-1.0));
    let (left, right) = (px - lo_x, hi_x - px);
    let (low, high) = (py - lo_y, hi_y - py);
    let (x, y) = (right.pmin(left), high.pmin(low));
    let (sx, sy) = (
        L::select(right.lt(left), minus, one),
        L::select(high.lt(low), minus, one),
    );
    let vertical = y.lt(x);
    Best {
        depth: y.pmin(x) + r,
        nx: L::select(vertical, zero, sx),
        ny: L::select(vertical, sy, zero),
    }
}

/// A disc of radius `r` around `(cx, cy)` against the box `[lo_x, hi_x] × [lo_y, hi_y]`: with
/// the centre outside, along the offset to the box's nearest point (the clamp of the centre),
/// depth `r - distance`; with it inside or on the boundary, through the nearest face.
#[inline(always)]
pub(crate) fn disc_box<L: Lane>(cx: L, cy: L, r: L, bounds: [L; 4]) -> Best<L> {
    let [lo_x, lo_y, hi_x, hi_y] = bounds;
    // The centre's offset from its clamp, as circle–AABB's overlap test computes it.
    let gx = cx - cx.pmax(lo_x).pmin(hi_x);
    let gy = cy - cy.pmax(lo_y).pmin(hi_y);
    let (outside, apart) = disc(gx, gy, -1.0, r);
    Best::pick(apart, outside, faces(cx, cy, bounds, r))
}

/// A box centred on the origin with half extents `hw, hh`, as bounds.
#[inline(always)]
pub(crate) fn centred<L: Lane>(hw: L, hh: L) -> [L; 4] {
    let zero = L::splat(0.0);
    [zero - hw, zero - hh, hw, hh]
}

/// A reference's contact: `None` without a hit, else the best candidate, finished.
#[inline(always)]
pub(crate) fn scalar(hit: bool, best: impl FnOnce() -> Best<f32>) -> Option<crate::Contact> {
    hit.then(|| {
        let [nx, ny, depth] = best().finish(true);
        crate::Contact {
            normal: [nx, ny],
            depth,
        }
    })
}

/// A kernel's contacts as lane columns `[mask, normal_x, normal_y, depth]`: the overlap mask
/// `hit` and the best candidates finished under it; no contact work at all for a block without
/// a hit (every lane zero, the same bits).
#[inline(always)]
pub(crate) fn lanes<V: Simd>(hit: V, best: impl FnOnce() -> Best<V>) -> [V; 4] {
    if hit.to_bitmask() == 0 {
        return [V::ZERO; 4];
    }
    let [normal_x, normal_y, depth] = best().finish(hit);
    [hit, normal_x, normal_y, depth]
}

/// The public kernels of a pair file and its entry points for the batch functions, around its
/// overlap test (`reference`, and `hits`, generic over [`Simd`]) and its contact (`contact`,
/// generic over [`Lane`]). Each shape reaches `hits` and `contact` as its fields, by
/// `bytemuck::cast` of the shape, of its lane type or of a container's lane columns:
///
/// - `x8`, `x16`: the overlap test on eight and sixteen lanes, as bits;
/// - `overlap::<V>`: the same on lane columns, as a mask (what the batch functions call);
/// - `contact_reference`, `contact_x8`, `contact_x16`, and `contact_lanes::<V>` likewise.
///
/// A pair whose contact computes every quantity its overlap test compares (a separating-axis
/// test: each axis's overlap is the contact's candidate) ends the invocation with `; fused`
/// and also provides `fused::<V>(a, b) -> (V, Best<V>)`, the overlap mask and the best
/// candidate from one pass: its kernels then compute each axis once, not once for the mask
/// and again for the contact. `fused`'s mask must be `hits`' bit for bit (the same
/// comparisons of the same values), which the kernel tests check against the reference.
macro_rules! pair_kernels {
    ($a:ident: $A:ident, $AX8:ident, $AX16:ident; $b:ident: $B:ident, $BX8:ident, $BX16:ident) => {
        $crate::narrow::contact::pair_kernels!(@common $a: $A, $AX8, $AX16; $b: $B, $BX8, $BX16);
        $crate::narrow::contact::pair_kernels!(@lanes $a: $A; $b: $B;
            "[`contact_reference`] on the lane columns of the two shapes.";
            $crate::narrow::contact::lanes(overlap($a, $b), || {
                contact(bytemuck::cast($a), bytemuck::cast($b))
            })
        );
    };
    ($a:ident: $A:ident, $AX8:ident, $AX16:ident; $b:ident: $B:ident, $BX8:ident, $BX16:ident; fused) => {
        $crate::narrow::contact::pair_kernels!(@common $a: $A, $AX8, $AX16; $b: $B, $BX8, $BX16);
        $crate::narrow::contact::pair_kernels!(@lanes $a: $A; $b: $B;
            "[`contact_reference`] on the lane columns of the two shapes: the overlap mask and \
             the contact from one pass ([`fused`]).";
            {
                let (hit, best) = fused::<V>(bytemuck::cast($a), bytemuck::cast($b));
                $crate::narrow::contact::lanes(hit, || best)
            }
        );
    };
    (@lanes $a:ident: $A:ident; $b:ident: $B:ident; $doc:literal; $body:expr) => {
        #[doc = $doc]
        #[inline(always)]
        pub(crate) fn contact_lanes<V: Simd>(
            $a: [V; size_of::<$crate::$A>() / 4],
            $b: [V; size_of::<$crate::$B>() / 4],
        ) -> [V; 4] {
            $body
        }
    };
    (@contact_widths $a:ident, $b:ident; $(
        $name:ident, $Count:literal, $test:literal: $AX:ident, $BX:ident, $V:ident => $Out:ident;
    )+) => {$(
        #[doc = concat!($Count, " lanes of [`contact_reference`]: `hits` is [`", $test, "`]'s answer, ",
            "and each hit lane holds the reference's normal and depth, bit for bit.")]
        #[inline]
        #[must_use]
        pub fn $name($a: &$crate::lanes::$AX, $b: &$crate::lanes::$BX) -> $crate::lanes::$Out {
            contact_lanes::<wide::$V>(bytemuck::cast(*$a), bytemuck::cast(*$b)).into()
        }
    )+};
    (@common $a:ident: $A:ident, $AX8:ident, $AX16:ident; $b:ident: $B:ident, $BX8:ident, $BX16:ident) => {
        /// Eight lanes of [`reference`](fn@reference); bit `i` is lane `i`.
        #[inline]
        #[must_use]
        pub fn x8($a: &$crate::lanes::$AX8, $b: &$crate::lanes::$BX8) -> u8 {
            overlap::<wide::f32x8>(bytemuck::cast(*$a), bytemuck::cast(*$b)).to_bitmask() as u8
        }

        /// Sixteen lanes of [`reference`](fn@reference); bit `i` is lane `i`.
        #[inline]
        #[must_use]
        pub fn x16($a: &$crate::lanes::$AX16, $b: &$crate::lanes::$BX16) -> u16 {
            overlap::<wide::f32x16>(bytemuck::cast(*$a), bytemuck::cast(*$b)).to_bitmask() as u16
        }

        /// [`hits`] on the lane columns of the two shapes (`[V; fields]`).
        #[inline(always)]
        pub(crate) fn overlap<V: Simd>(
            $a: [V; size_of::<$crate::$A>() / 4],
            $b: [V; size_of::<$crate::$B>() / 4],
        ) -> V {
            hits(bytemuck::cast($a), bytemuck::cast($b))
        }

        #[doc = concat!("The contact of `", stringify!($a), "` and `", stringify!($b), "`, normal from `",
            stringify!($a), "` towards `", stringify!($b), "`, or `None` when [`reference`](fn@reference) ",
            "says they do not overlap. Candidates and their order: see the module docs.")]
        #[inline]
        #[must_use]
        pub fn contact_reference($a: &$crate::$A, $b: &$crate::$B) -> Option<$crate::Contact> {
            $crate::narrow::contact::scalar(reference($a, $b), || {
                contact(bytemuck::cast(*$a), bytemuck::cast(*$b))
            })
        }

        $crate::narrow::contact::pair_kernels!(@contact_widths $a, $b;
            contact_x8, "Eight", "x8": $AX8, $BX8, f32x8 => ContactX8;
            contact_x16, "Sixteen", "x16": $AX16, $BX16, f32x16 => ContactX16;
        );
    };
}

pub(crate) use pair_kernels;

/// `reference` and `hits` of a pair whose overlap test is written once over [`Lane`], as
/// `fn test<L: Lane>(a, b) -> L::Mask` on the two shapes' fields: the reference is its `f32`
/// instance, the kernels its lane one, so the two are the same operations by construction.
macro_rules! over_lanes {
    ($a:ident: $A:ident; $b:ident: $B:ident) => {
        #[doc = concat!("Whether `", stringify!($a), "` and `", stringify!($b), "` overlap, touching included.")]
        #[inline]
        #[must_use]
        pub fn reference($a: &$crate::$A, $b: &$crate::$B) -> bool {
            test::<f32>(bytemuck::cast(*$a), bytemuck::cast(*$b))
        }

        /// [`reference`](fn@reference) on every lane of `V`: all ones where a lane overlaps.
        #[inline(always)]
        pub(crate) fn hits<V: Simd>(
            $a: [V; size_of::<$crate::$A>() / 4],
            $b: [V; size_of::<$crate::$B>() / 4],
        ) -> V {
            test::<V>(bytemuck::cast($a), bytemuck::cast($b))
        }
    };
}

pub(crate) use over_lanes;

/// The public kernels of a ray-cast file and its entry point for the batch functions, around
/// its cast (`reference`, and `entry`, generic over [`Simd`]): `x8`, `x16`, and
/// `cast_lanes::<V>` on lane columns.
macro_rules! cast_kernels {
    ($s:ident: $S:ident, $SX8:ident, $SX16:ident) => {
        /// Eight lanes of [`reference`](fn@reference): lane `i` is ray `i`'s entry parameter.
        #[inline]
        #[must_use]
        pub fn x8(r: &$crate::lanes::RayX8, $s: &$crate::lanes::$SX8) -> wide::f32x8 {
            cast_lanes(bytemuck::cast(*r), bytemuck::cast(*$s))
        }

        /// Sixteen lanes of [`reference`](fn@reference): lane `i` is ray `i`'s entry parameter.
        #[inline]
        #[must_use]
        pub fn x16(r: &$crate::lanes::RayX16, $s: &$crate::lanes::$SX16) -> wide::f32x16 {
            cast_lanes(bytemuck::cast(*r), bytemuck::cast(*$s))
        }

        /// [`entry`] on the lane columns of the rays and the shapes.
        #[inline(always)]
        pub(crate) fn cast_lanes<V: Simd>(
            r: [V; size_of::<$crate::Ray>() / 4],
            $s: [V; size_of::<$crate::$S>() / 4],
        ) -> V {
            entry(r, bytemuck::cast($s))
        }
    };
}

pub(crate) use cast_kernels;

//! Contact manifolds for every pair kind, written once over [`Lane`] on top of the pair's
//! contact (normal `n` from `a` to `b`, depth): the reference (`f32`) and the kernels (`f32x8`,
//! `f32x16`) are the same operations, so the same bits.
//!
//! Each shape is seen as a convex outline grown by a radius ([`Outline`]): a point or a circle
//! is one vertex (radius 0 or its radius), a capsule its segment's two vertices (its two faces
//! are the segment seen from either side), a box its four corners, a polygon its eight vertex
//! slots (padding edges have length 0 and are never chosen), counter-clockwise.
//!
//! **One point** where either shape is a single vertex, or where `n` is no face's normal (two
//! rounded or vertex features touch), or where clipping does not describe the contact (below):
//! the deepest point. `a`'s support point along `n` (the vertex with the largest `n·v`, the
//! first of equal ones) moved out by its radius lies on its boundary; the point is that minus
//! `depth/2 · n`; or `b`'s support along `-n`, moved in by its radius, plus `depth/2 · n`. The
//! support taken is the single vertex's (a point or circle), else that of the shape whose best
//! face is farther from `n` (`b`'s where `a`'s face is the nearer, as for the reference face).
//!
//! **A face.** The face of `a` whose outward normal is most aligned with `n` (largest cosine,
//! the first of equal ones) and the face of `b` most aligned with `-n`; the reference face is
//! the one whose normal is closer to `n` (by the sine of the angle, `|m × n|`; `a`'s unless
//! `b`'s is closer by more than [`PREFER_A`]); `n` is that face's normal when the sine is at
//! most [`ALIGNED`] (only rounding: the contact took `n` from that face). The incident edge is
//! the other shape's edge whose outward normal is most opposed to the reference face's
//! (smallest cosine, the first of equal ones). It is clipped to the reference face's side lines
//! (the parameter along the face's tangent kept between its two vertices, and within the edge:
//! an edge lying beyond a side line is clipped to its end nearest the span); each clipped end
//! `c`, moved to the incident surface (by the incident radius along the incident face's unit
//! outward normal: a capsule's flat side), has depth `m·(v₁ - q) + r_ref` below the reference
//! surface (unit outward normal `m`, first vertex `v₁`), and is a point where that is `>= 0`,
//! placed from that surface point by `depth/2` along `±n` to midway. The deeper point takes the
//! contact's depth exactly, the other at most that; two equally deep ends (a face resting flat
//! on a face) both take it, so they stay equal; two ends at one place (corners touching, edges
//! meeting end to end) are one point. If no end penetrates (faces touching, at depth about 0
//! after rounding) or none lies across the span, the deeper clipped end alone, at the
//! contact's depth (the support of a face would be any of its corners, however far from the
//! other shape). If the deepest end is not within [`REACHED`] of the contact's depth (the side
//! lines cut off the deepest feature, as for two crossing capsules), the one deepest point
//! instead. Coordinates that come out NaN (infinite sizes) are reported as 0.
//!
//! **Two boxes** (AABBs and OBBs in any mix) follow these rules in each box's frame (centre,
//! unit axes, half extents; an edge has length 0 where its half extent is 0) instead of over
//! their corners: the face searches are dot products with the axes, and the clip is done along
//! the reference face's unit tangent from its centre. The same faces, ids and points, up to
//! rounding.
//!
//! Laid out as: [`outline`] (shapes as outlines, the face searches), [`frame`] (boxes as frames,
//! and two AABBs in closed form), [`clip`] (the reference face and incident edge of two
//! outlines), [`finish`] (the clipped ends to points, shared by outlines and frames),
//! [`answer`] (a manifold on lanes), [`rules`] (the thresholds).
//!
//! [`PREFER_A`]: rules::PREFER_A
//! [`ALIGNED`]: rules::ALIGNED
//! [`REACHED`]: rules::REACHED

mod answer;
mod clip;
mod finish;
mod frame;
mod outline;
mod rules;
#[cfg(test)]
mod tests;

pub(crate) use answer::ManifoldLanes;
pub(crate) use outline::{Outline, Outlined, centre_and_half};

use crate::lanes::Lane;
use clip::faces;
use frame::{aabbs, framed};

/// The manifold of `a` (kind `A`, fields `fa`) and `b` (kind `B`, fields `fb`) whose contact is
/// `[nx, ny, depth]` where `hit` (see the module docs); zero elsewhere. Two AABBs take a
/// closed form inline, two boxes otherwise (an OBB, or a flat AABB) their frames ([`framed`]),
/// the other kinds with faces the face searches; each of those is one call per lane block.
#[inline(always)]
pub(crate) fn build<L: Lane, A: Outlined, B: Outlined, const NA: usize, const NB: usize>(
    fa: &[L],
    fb: &[L],
    [nx, ny, depth]: [L; 3],
    hit: L::Mask,
) -> ManifoldLanes<L> {
    if A::ALIGNED_BOX && B::ALIGNED_BOX {
        // Two AABBs: the clipped faces in closed form where no box is flat; a flat one (a
        // segment or a point, whose edges of length 0 have no normal) takes the general path.
        let flat = |f: &[L]| f[0].eq(f[2]) | f[1].eq(f[3]);
        let flat = flat(fa) | flat(fb);
        let closed = aabbs(fa, fb, [nx, ny, depth]);
        if !L::any(flat & hit) {
            return closed.finite_masked(hit);
        }
        let general = match (A::frame(fa), B::frame(fb)) {
            (Some(a), Some(b)) => framed(a, b, [nx, ny, depth]),
            _ => unreachable!("AABBs have frames"),
        };
        return ManifoldLanes::pick(flat, general, closed).finite_masked(hit);
    }
    if let (Some(a), Some(b)) = (A::frame(fa), B::frame(fb)) {
        return framed(a, b, [nx, ny, depth]).finite_masked(hit);
    }
    if NA == 1 || NB == 1 {
        let (a, b) = (Outline::<L, NA>::of::<A>(fa), Outline::<L, NB>::of::<B>(fb));
        return single(&a, &b, [nx, ny, depth]).finite_masked(hit);
    }
    faces::<L, A, B, NA, NB>(fa, fb, [nx, ny, depth]).finite_masked(hit)
}

/// The one point of a pair where either shape is a single vertex (a point or a circle): the
/// other's support, as in [`faces`], inline (a few operations).
#[inline(always)]
fn single<L: Lane, const NA: usize, const NB: usize>(
    a: &Outline<L, NA>,
    b: &Outline<L, NB>,
    [nx, ny, depth]: [L; 3],
) -> ManifoldLanes<L> {
    let zero = L::splat(0.0);
    let (px, py) = if NA == 1 {
        a.deepest_from_a([nx, ny, depth])
    } else {
        b.deepest_from_b([nx, ny, depth])
    };
    ManifoldLanes {
        nx,
        ny,
        x: [px, zero],
        y: [py, zero],
        depth: [depth, zero],
        id: [zero, zero],
        count: L::splat(1.0),
    }
}

//! The reference face and the incident edge of two outlines, and the incident edge clipped to
//! the reference face's side lines ([the manifold notes](super), "A face").

use super::answer::ManifoldLanes;
use super::finish::{Clip, finish, first_id, opposed};
use super::outline::{Face, Outline, Outlined};
use super::rules::{ALIGNED, PREFER_A};
use crate::lanes::Lane;

/// The manifold of two shapes with outlines by the face searches and clipping of the module
/// docs, before NaN coordinates are cleared and lanes without a hit zeroed. Not inlined: one
/// call per lane block, and its body is large.
#[inline(never)]
pub(super) fn faces<L: Lane, A: Outlined, B: Outlined, const NA: usize, const NB: usize>(
    fa: &[L],
    fb: &[L],
    [nx, ny, depth]: [L; 3],
) -> ManifoldLanes<L> {
    let (a, b) = (Outline::<L, NA>::of::<A>(fa), Outline::<L, NB>::of::<B>(fb));
    let zero = L::splat(0.0);
    // The one deepest point, from `a`'s support along `n` or `b`'s along `-n`.
    let from_a_support = || a.deepest_from_a([nx, ny, depth]);
    let from_b_support = || b.deepest_from_b([nx, ny, depth]);
    // A single vertex takes `single`, two boxes `framed`, inline.
    debug_assert!(NA > 1 && NB > 1);
    // Both have faces: the reference face and the incident edge, either way round.
    let (a, b) = (a.with_normals_of::<A>(fa), b.with_normals_of::<B>(fb));
    let fa_ = a.face(nx, ny, true);
    let fb_ = b.face(zero - nx, zero - ny, true);
    // Alignment by the sine of the angle to `n` (`|m × n|`, linear in the angle where the
    // cosine is flat): the reference face is the closer one, `a`'s on a rounding tie.
    let sin_a = (fa_.mx * ny - fa_.my * nx).abs();
    let sin_b = (fb_.mx * ny - fb_.my * nx).abs();
    // A shape whose edges all have length 0 (a box or capsule shrunk to a point) has no face:
    // its search keeps its starting cosine, and it is never the reference.
    let none = L::splat(f32::NEG_INFINITY);
    let (faced_a, faced_b) = (fa_.cos.gt(none), fb_.cos.gt(none));
    let from_a = (sin_a.le(sin_b + L::splat(PREFER_A)) & faced_a) | !faced_b;
    let reference = Face::pick(from_a, fa_, fb_);
    // Without a face on both sides there is no edge to clip: the one deepest point.
    let aligned = L::select(from_a, sin_a, sin_b).le(L::splat(ALIGNED)) & faced_a & faced_b;
    let radii = (L::select(from_a, a.r, b.r), L::select(from_a, b.r, a.r));
    // The incident edge: one search over the other shape, lane by lane, where both have as
    // many vertices; else a search on each side. One point: where `n` is nearer `a`'s face
    // normal than `b`'s, `b`'s support is the deepest feature (`a`'s support along `n` is a
    // face, or the nearest point of one), and the other way round: the other shape's, so one
    // support search on the shape already picked, where there is one.
    let (incident, deepest) = if NA == NB {
        let other = b.pick(from_a, &a);
        let (sx, sy) = other.support(
            L::select(from_a, zero - nx, nx),
            L::select(from_a, zero - ny, ny),
        );
        // `deepest_from_b` and `deepest_from_a` of the picked shape, the same operations.
        let half_depth = depth * L::splat(0.5);
        let k = L::select(from_a, half_depth - other.r, other.r - half_depth);
        (
            other.face(reference.mx, reference.my, false),
            (sx + k * nx, sy + k * ny),
        )
    } else {
        let inc_b = b.face(fa_.mx, fa_.my, false);
        let inc_a = a.face(fb_.mx, fb_.my, false);
        let ((ax_, ay_), (bx_, by_)) = (from_a_support(), from_b_support());
        (
            Face::pick(from_a, inc_b, inc_a),
            (L::select(from_a, bx_, ax_), L::select(from_a, by_, ay_)),
        )
    };
    clipped(
        reference,
        incident,
        radii,
        (from_a, aligned),
        [nx, ny, depth],
        deepest,
    )
}

/// The manifold from a reference face and an incident edge (see the module docs): the
/// incident edge, moved to its surface by the incident radius, clipped to the reference
/// face's side lines, the ends below the reference surface (reference radius) kept and placed
/// midway, ids from the features; or the one `deepest` point where `n` is not the reference
/// face's normal (`aligned` clear) or the clip does not reach the contact's depth. `from_a`:
/// the reference face is `a`'s.
#[inline(always)]
pub(super) fn clipped<L: Lane>(
    reference: Face<L>,
    incident: Face<L>,
    (r_ref, r_inc): (L, L),
    (from_a, aligned): (L::Mask, L::Mask),
    [nx, ny, depth]: [L; 3],
    deepest: (L, L),
) -> ManifoldLanes<L> {
    let (zero, half) = (L::splat(0.0), L::splat(0.5));
    // Clip the incident edge to the reference face's side lines: along the tangent `t`, keep
    // `0 <= t·(c - v₁) <= t·t`.
    // The incident surface: the incident edge moved by the incident radius along its own unit
    // outward normal (a capsule's flat side; nothing for a polygon).
    let (ox, oy) = (r_inc * incident.mx, r_inc * incident.my);
    let (w1x, w1y) = (incident.x1 + ox, incident.y1 + oy);
    let (w2x, w2y) = (incident.x2 + ox, incident.y2 + oy);
    let (tx, ty) = (reference.x2 - reference.x1, reference.y2 - reference.y1);
    let tt = tx * tx + ty * ty;
    let s1 = tx * (w1x - reference.x1) + ty * (w1y - reference.y1);
    let s2 = tx * (w2x - reference.x1) + ty * (w2y - reference.y1);
    let spans = s1.pmax(s2).ge(zero) & s1.pmin(s2).le(tt);
    let (dx, dy) = (w2x - w1x, w2y - w1y);
    // The end at `s` moved to the clamped `σ`: along the edge by `(σ - s) / (s_other - s)` of
    // it (no move where the edge is across the tangent, `s1 == s2`, and 0 / 0 would be NaN).
    // `λ` kept within the edge: where the edge lies beyond a side line, both ends go to the
    // end nearest the span.
    let clip = |s: L, other: L, x: L, y: L, toward: f32| {
        let sigma = s.pmax(zero).pmin(tt);
        let lambda = L::select(
            s.eq(other),
            zero,
            ((sigma - s) / (other - s)).pmax(zero).pmin(L::splat(1.0)),
        );
        let k = lambda * L::splat(toward);
        (x + k * dx, y + k * dy)
    };
    let surface = [clip(s1, s2, w1x, w1y, 1.0), clip(s2, s1, w2x, w2y, -1.0)];
    // Each end's depth below the reference surface.
    let d = surface.map(|(qx, qy)| {
        reference.mx * (reference.x1 - qx) + reference.my * (reference.y1 - qy) + r_ref
    });
    let base = first_id(from_a, reference.index, incident.index);
    let scale = reference.x1.abs().pmax(reference.y1.abs()) + r_ref;
    let scale = scale.pmax(reference.x2.abs().pmax(reference.y2.abs()) + r_ref);
    let k = L::select(from_a, half * depth - r_inc, r_inc - half * depth);
    let lift = (k * nx - ox, k * ny - oy);
    let clip = Clip {
        surface,
        d,
        spans,
        base,
        lift,
        parallel: opposed((reference.mx, reference.my), (incident.mx, incident.my)),
        scale,
    };
    finish(clip, (from_a, aligned), [nx, ny, depth], deepest)
}

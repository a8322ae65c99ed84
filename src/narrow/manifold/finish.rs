//! The clipped incident ends made into the manifold's points (or its one point), for outlines
//! and frames alike.

use super::answer::ManifoldLanes;
use super::rules::{ALIGNED, REACHED};
use crate::lanes::Lane;
use crate::shape::{B_REFERENCE, CLIPPED};

/// Whether the unit normals `m` and `w` point within [`ALIGNED`] (in the sine of the angle) of
/// opposite ways: an incident edge lying along the reference face.
#[inline(always)]
pub(super) fn opposed<L: Lane>((mx, my): (L, L), (wx, wy): (L, L)) -> L::Mask {
    let zero = L::splat(0.0);
    (mx * wy - my * wx).abs().le(L::splat(ALIGNED)) & (mx * wx + my * wy).lt(zero)
}

/// The id of a clipped manifold's first point (the second's is one more): [`CLIPPED`], plus
/// [`B_REFERENCE`] where the reference face is `b`'s, the reference edge's index times 16 and
/// the incident edge's times 2.
#[inline(always)]
pub(super) fn first_id<L: Lane>(from_a: L::Mask, reference: L, incident: L) -> L {
    L::select(
        from_a,
        L::splat(CLIPPED as f32),
        L::splat((CLIPPED | B_REFERENCE) as f32),
    ) + reference * L::splat(16.0)
        + incident * L::splat(2.0)
}

/// The incident edge clipped to the reference face's side lines, as [`finish`] takes it.
pub(super) struct Clip<L: Lane> {
    /// Each clipped end's place on the incident surface.
    pub(super) surface: [(L, L); 2],
    /// Each end's depth below the reference surface.
    pub(super) d: [L; 2],
    /// Whether the edge reaches across the reference face's span.
    pub(super) spans: L::Mask,
    /// The first end's id (the second's is one more).
    pub(super) base: L,
    /// What takes an end from its place on the incident surface to its place as the one
    /// point: back to the incident core, to the incident surface along `n` (a round end's
    /// deepest point, where a flat side tilted by a rounding would be off by its radius times
    /// the tilt), then to midway.
    pub(super) lift: (L, L),
    /// Whether the incident edge lies along the reference face ([`opposed`]).
    pub(super) parallel: L::Mask,
    /// The reference face's magnitude, to which [`REACHED`] is relative.
    pub(super) scale: L,
}

/// The manifold from the clipped incident ends: the ends below the reference surface kept and
/// placed midway, the deeper at the contact's depth; where the incident edge lies along the
/// reference face but no end is kept, the deeper end alone; or the one `deepest` point where
/// `n` is not the reference face's normal (`aligned` clear) or the clip does not reach the
/// contact's depth. `from_a`: the reference face is `a`'s.
#[inline(always)]
pub(super) fn finish<L: Lane>(
    clip: Clip<L>,
    (from_a, aligned): (L::Mask, L::Mask),
    [nx, ny, depth]: [L; 3],
    deepest: (L, L),
) -> ManifoldLanes<L> {
    let Clip {
        surface,
        d,
        spans,
        base,
        lift,
        parallel,
        scale,
    } = clip;
    let (zero, half) = (L::splat(0.0), L::splat(0.5));
    let below = [spans & d[0].ge(zero), spans & d[1].ge(zero)];
    // The deeper end below the surface takes the contact's depth; both where they are equally
    // deep (a face resting flat on a face), so that they stay equal.
    let first_deeper = below[0] & !(below[1] & d[1].gt(d[0]));
    let second_deeper = below[1] & (!first_deeper | d[1].eq(d[0]));
    let depths = [
        L::select(first_deeper, depth, d[0].pmin(depth)),
        L::select(second_deeper, depth, d[1].pmin(depth)),
    ];
    // Midway: from the incident surface by `depth/2` along `n` (from b's surface) or `-n`
    // (from a's).
    let side = L::select(from_a, half, zero - half);
    let (mut x, mut y) = ([zero; 2], [zero; 2]);
    for i in 0..2 {
        let (qx, qy) = surface[i];
        let k = side * depths[i];
        x[i] = qx + k * nx;
        y[i] = qy + k * ny;
    }
    let ids = [base, base + L::splat(1.0)];
    // Two ends at one place (the incident edge meets the reference face's span in a single
    // point: corners touching, or edges meeting end to end): one point, the deeper.
    let twin = below[0] & below[1] & x[0].eq(x[1]) & y[0].eq(y[1]);
    let keep = [
        below[0] & !(twin & !first_deeper),
        below[1] & !(twin & first_deeper),
    ];
    // Kept points first.
    let s = |when: L::Mask, p: L, q: L| L::select(when, p, q);
    let one = L::splat(1.0);
    let count = s(keep[0], one, zero) + s(keep[1], one, zero);
    let clipped = ManifoldLanes {
        nx,
        ny,
        x: [s(keep[0], x[0], x[1]), s(keep[0] & keep[1], x[1], zero)],
        y: [s(keep[0], y[0], y[1]), s(keep[0] & keep[1], y[1], zero)],
        depth: [
            s(keep[0], depths[0], depths[1]),
            s(keep[0] & keep[1], depths[1], zero),
        ],
        id: [
            s(keep[0], ids[0], ids[1]),
            s(keep[0] & keep[1], ids[1], zero),
        ],
        count,
    };
    let reached = (L::select(below[0], d[0], zero).pmax(L::select(below[1], d[1], zero)) - depth)
        .abs()
        .le(L::splat(REACHED) * (scale + depth));
    let any = below[0] | below[1];
    let faced = aligned & any & reached;
    // `n` is the reference face's and the incident edge lies along it (`parallel`), but no end
    // lies below it (faces touching, rounding put both ends above) or across its span (both
    // clipped to the incident end nearest it): the deeper end, at the contact's depth. The
    // support of either face would be any of its corners, however far from the other shape.
    let second = d[1].gt(d[0]);
    let touching = aligned & parallel & !any;
    let (px, py) = (
        s(
            touching,
            s(second, surface[1].0, surface[0].0) + lift.0,
            deepest.0,
        ),
        s(
            touching,
            s(second, surface[1].1, surface[0].1) + lift.1,
            deepest.1,
        ),
    );
    let id = s(touching, s(second, ids[1], ids[0]), zero);
    let pick = |p: L, q: L| L::select(faced, p, q);
    ManifoldLanes {
        nx,
        ny,
        x: [pick(clipped.x[0], px), pick(clipped.x[1], zero)],
        y: [pick(clipped.y[0], py), pick(clipped.y[1], zero)],
        depth: [pick(clipped.depth[0], depth), pick(clipped.depth[1], zero)],
        id: [pick(clipped.id[0], id), pick(clipped.id[1], zero)],
        count: pick(clipped.count, one),
    }
}

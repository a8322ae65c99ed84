//! The thresholds of the manifold's rules (see [the manifold notes](super)).

/// How much closer to `n` `b`'s face normal must be than `a`'s (in the sine of the angle
/// between them) to be the reference face: a rounding tie goes to `a`.
pub(crate) const PREFER_A: f32 = 1e-6;
/// The largest sine of the angle between `n` and a face's normal for `n` to be that face's: the
/// rounding of a normal computed from vertices or a rotation is about 1e-7 (every contact takes
/// a face's normal from that face, never from an offset between nearest points); the margin
/// keeps the rule's decision away from rounding. A point placed with `n` off the face by this
/// angle moves by at most that share of its depth.
pub(crate) const ALIGNED: f32 = 1e-3;
/// How far the deepest clipped end may be from the contact's depth, relative to the reference
/// face's magnitude (the largest of its coordinates' absolute values, plus its radius) plus the
/// depth, for the clipped face to describe the contact (else the one deepest point): where the
/// reference face's side lines cut off the deepest feature (two crossing capsules), the clip
/// does not reach the contact's depth. About 170 roundings of that magnitude: the two depths
/// are computed apart, each from coordinates of that size, so they differ by rounding even
/// where they describe the same feature; relative, so that shapes a thousandth of a unit across
/// are judged as finely as shapes of a unit.
pub(crate) const REACHED: f32 = 1e-5;

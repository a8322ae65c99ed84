//! The enlarged-box policy: how far a moving shape's enlarged box reaches beyond its padded
//! box, how it moves ahead of a shape that keeps going one way, and the box tests the frame
//! is made of.

use crate::broadphase::union;

/// How far a shape's enlarged box reaches beyond its padded box.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Margin {
    /// A share of the box's larger side, on each side.
    Relative(f32),
    /// A fixed distance on each side.
    Fixed(f32),
}

/// The automatic margin: about three tenths of a box's larger side on each side. With the
/// enlarged boxes moved ahead (see [`AHEAD`]), the bench's moving 100 k frame took 7 % less on
/// average at 0.3 than at 0.25 (fewer escapers for a few more candidates), and more at 0.35
/// and 0.4; without moving them ahead, 0.25 was best (see `docs/benchmarks.md`).
pub(crate) const AUTO_MARGIN: Margin = Margin::Relative(0.3);

/// How far an escaper's new enlarged box moves ahead, as a share of its displacement since
/// its last one (see [`Margin::enlarge_ahead`]).
pub(super) const AHEAD: f32 = 1.0;

/// Calls within which a shape that leaves its enlarged box through the back of it (it was moved
/// ahead) is taken to go to and fro, and gets one that is not moved ahead: at least two (a shape
/// reversing every call), few enough that a shape turning after a long run gets one moved
/// its new way at once (see [`Margin::enlarge_ahead`]).
pub(super) const TURN_CALLS: u32 = 4;

/// How many times the margin a moving shape's far box reaches beyond its padded box: its
/// neighbourhood, the static shapes that overlap the far box, serves every enlarged box
/// that lies inside the far box (see `statics.rs`). Six: with the answer merged rather than
/// sorted, a 1 M-tile level's kept frame took 13 % less on average than with four (fewer
/// shapes leave their far boxes and query the level); five and seven gained less.
pub(super) const FAR: f32 = 6.0;

impl Margin {
    /// `b`, the box of shape `id`, grown by the margin; a NaN box (not entered) stays NaN.
    ///
    /// A relative margin varies by shape, from 3/4 to 5/4 of its value (a fixed hash of the
    /// id): shapes enlarged in the same frame and moving alike would otherwise all leave their
    /// boxes in the same later frame, and make it rebuild.
    #[inline(always)]
    pub(super) fn enlarge(self, b: &[f32; 4], id: u32) -> [f32; 4] {
        let m = match self {
            Margin::Relative(r) => {
                let spread = (id.wrapping_mul(0x9e37_79b9) >> 8) as f32 * (0.5 / (1 << 24) as f32);
                (b[2] - b[0]).max(b[3] - b[1]) * (r * (0.75 + spread))
            }
            Margin::Fixed(m) => m,
        };
        [b[0] - m, b[1] - m, b[2] + m, b[3] + m]
    }

    /// `b`, the box of shape `id`, grown by the margin and moved ahead: the way the shape left
    /// its last enlarged box `old` (which was moved by `was`), from that box's centre, by at
    /// most the margin on each axis: a shape that keeps its course crosses the whole box
    /// before it leaves it, not half. On an axis where the shape turned back `recent`ly (it
    /// left through the back of a box moved ahead within [`TURN_CALLS`] calls), the box is not
    /// moved: a shape going to and fro would otherwise leave every box through its near back.
    /// A shape that jumped (its box no
    /// longer overlaps `old`), or has no `old` box (NaN), is not moved either. The box always
    /// holds `b`; returns it and how far it moved.
    #[inline(always)]
    pub(super) fn enlarge_ahead(
        self,
        b: &[f32; 4],
        id: u32,
        old: &[f32; 4],
        (was, recent): ([f32; 2], bool),
    ) -> ([f32; 4], [f32; 2]) {
        let fat = self.enlarge(b, id);
        if !overlap(b, old) {
            return (fat, [0.0; 2]);
        }
        let reach = [fat[2] - b[2], fat[3] - b[3]];
        // Where the box left its last enlarged box, from that box's centre: ahead of it when
        // the shape kept its course, behind it when it turned back.
        let moved = [
            0.5 * ((b[0] + b[2]) - (old[0] + old[2])),
            0.5 * ((b[1] + b[3]) - (old[1] + old[3])),
        ];
        // Overflows move nothing, and rounding never uncovers `b`.
        let shift = [0, 1].map(|k| {
            let (d, r) = (moved[k], reach[k] * AHEAD);
            let turned = recent && d * was[k] < 0.0;
            let ahead = d.is_finite() && r.is_finite() && r >= 0.0 && !turned;
            if ahead { d.clamp(-r, r) } else { 0.0 }
        });
        let ahead = [
            fat[0] + shift[0],
            fat[1] + shift[1],
            fat[2] + shift[0],
            fat[3] + shift[1],
        ];
        (union(ahead, *b), shift)
    }

    /// The margin of the far boxes: [`FAR`] times this one.
    pub(super) fn far(self) -> Self {
        match self {
            Margin::Relative(r) => Margin::Relative(r * FAR),
            Margin::Fixed(m) => Margin::Fixed(m * FAR),
        }
    }
}
/// Whether `b` lies inside `fat`, both boxes entered or both left out (NaN `min_x`).
#[inline(always)]
pub(super) fn inside(b: &[f32; 4], fat: &[f32; 4]) -> bool {
    // Without branches: the streaming escape check takes the other way a few times in a
    // hundred. A comparison with NaN is false, so `within` is false where either is NaN.
    let (left, gone) = (fat[0].is_nan(), b[0].is_nan());
    let within = (fat[0] <= b[0]) & (fat[1] <= b[1]) & (b[2] <= fat[2]) & (b[3] <= fat[3]);
    (left & gone) | within
}

/// Whether a shape jumped: its box `b` does not overlap the enlarged box `fat` it had (both
/// entered).
#[inline(always)]
pub(super) fn jumped_from(b: &[f32; 4], fat: &[f32; 4]) -> bool {
    !fat[0].is_nan() && !b[0].is_nan() && !overlap(b, fat)
}

/// Whether two closed boxes overlap.
#[inline(always)]
pub(super) fn overlap(a: &[f32; 4], b: &[f32; 4]) -> bool {
    (a[0] <= b[2]) & (b[0] <= a[2]) & (a[1] <= b[3]) & (b[1] <= a[3])
}

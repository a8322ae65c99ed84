//! A circle or a capsule against a box (axis-aligned or oriented), apart at the start: the
//! round pieces of `round.rs` (see the module docs) found in the box's own frame, where they
//! take a few comparisons of coordinates instead of a search over every vertex.
//!
//! In the frame (the box's centre at the origin, its axes `u`, `v` along x and y, half
//! extents `h`), the round shape `R` (vertices `P`, radius `r`) moves by `V` against the box
//! `[-hx, hx] × [-hy, hy]` (`V` is `a`'s motion where `R` is `a`, its reverse where `R` is
//! `b`; normals are found from `R` towards the box and turned to `a` to `b` at the end):
//!
//! - a box face along axis `k`, the one the motion closes (`R` on the side `σ = -sign(V_k)`):
//!   `R`'s support distance beyond it is `min(σ P_k) - h_k`, reached by `r` at
//!   `t = (min(σ P_k) - h_k - r) / |V_k|` (0 if within already); a touch if a support
//!   vertex's other coordinate then lies in `[-h, h]`. Normal `-σ e_k`.
//! - a capsule's side, the one the motion closes (outward unit normal `w`, `w · V > 0`): the
//!   box's support distance is `-(w · P₀) - (|w_x| hx + |w_y| hy)` (its corner
//!   `-sign(w) ∘ h`), reached by `r` at that distance less `r` over `w · V`; a touch if the
//!   corner's foot along the side then lies on it. Normal `w`.
//! - a vertex pair: the one nearest to where the motion enters the mitred difference (the
//!   latest of the closing faces' times, as `round.rs` takes them, or 0): there the moving
//!   point is either on a face's band (the first touch, no disc earlier) or in the corner
//!   region of one vertex of the difference, which it leaves only by touching that vertex's
//!   disc or by leaving the difference's mitred outline for good; that vertex is the region's
//!   nearest point of the difference, so the nearest of the pairs' offsets. In the frame the
//!   corner nearest a point is the one on its side of each axis, so the nearest pair is the
//!   nearer of two (one for a circle), and only its disc is solved (`round.rs`'s root).
//!
//! Ties and grazes are `round.rs`'s: faces before vertices, as early faces closing faster,
//! then the first taken (`a`'s edges, then `b`'s; the box's `v` face before its `u` face, as
//! its outline orders them).

use super::round::{Face, Root, settle};
use super::{BoxFrame, Swept, Toi};
use crate::lanes::Lane;
use crate::narrow::manifold::Outline;

/// Whether kinds `A` and `B` are a box and a circle or a capsule, in either order.
pub(super) const fn takes<A: Swept, B: Swept>() -> bool {
    (A::BOX && B::ROUND && B::N <= 2) || (B::BOX && A::ROUND && A::N <= 2)
}

/// The first touch of `a` (kind `A`, fields `fa`) moving by `m` against `b` (kind `B`, fields
/// `fb`), one a box and the other a circle or a capsule, apart at the start (see the module
/// docs): the normal from `a` to `b`.
#[inline(always)]
pub(super) fn first<L: Lane, A: Swept, B: Swept, const NA: usize, const NB: usize>(
    fa: &[L],
    fb: &[L],
    (mx, my): (L, L),
) -> Toi<L> {
    let zero = L::splat(0.0);
    if B::BOX {
        let frame = B::box_frame(fb).expect("a box has a frame");
        framed(&Outline::<L, NA>::of::<A>(fa), frame, (mx, my), true)
    } else {
        let frame = A::box_frame(fa).expect("a box has a frame");
        framed(
            &Outline::<L, NB>::of::<B>(fb),
            frame,
            (zero - mx, zero - my),
            false,
        )
    }
}

/// The first touch of the round outline `p` (one or two vertices) moving by `(mx, my)`
/// against the box `frame`, the normal from `p` to the box where `p_is_a`, from the box to `p`
/// otherwise.
#[inline(always)]
fn framed<L: Lane, const N: usize>(
    p: &Outline<L, N>,
    frame: BoxFrame<L>,
    (mx, my): (L, L),
    p_is_a: bool,
) -> Toi<L> {
    let (zero, one) = (L::splat(0.0), L::splat(1.0));
    let ((cx, cy), (hx, hy)) = (frame.centre, frame.half);
    let pts: [(L, L); N] = core::array::from_fn(|i| frame.local(p.x[i] - cx, p.y[i] - cy));
    let (vx, vy) = frame.local(mx, my);
    let r = p.r;
    let mut face = Face::none();
    let side = |face: &mut Face<L>| {
        if N == 2 {
            capsule_side(face, [pts[0], pts[1]], (hx, hy), (vx, vy), r)
        } else {
            zero
        }
    };
    let mut late = if p_is_a { side(&mut face) } else { zero };
    // The `v` face (edges 0 and 2 of the box's outline), then the `u` face.
    late = late.pmax(box_face(&mut face, &pts, [hy, hx], [vy, vx], r, false));
    late = late.pmax(box_face(&mut face, &pts, [hx, hy], [vx, vy], r, true));
    if !p_is_a {
        late = late.pmax(side(&mut face));
    }
    let late = late.pmin(one);
    // The nearest vertex pair at `late`: each vertex against the corner on its side.
    let (tx, ty) = (late * vx, late * vy);
    let corner = |(x, y): (L, L)| {
        let (qx, qy) = (x + tx, y + ty);
        let (kx, ky) = (
            L::select(qx.lt(zero), zero - hx, hx),
            L::select(qy.lt(zero), zero - hy, hy),
        );
        let (wx, wy) = (kx - qx, ky - qy);
        ((kx - x, ky - y), wx * wx + wy * wy)
    };
    let (mut d, near) = corner(pts[0]);
    if N == 2 {
        let (d1, near1) = corner(pts[1]);
        let second = near1.lt(near);
        d = (L::select(second, d1.0, d.0), L::select(second, d1.1, d.1));
    }
    let vv = vx * vx + vy * vy;
    let mut root = Root::new((vx, vy), vv, r);
    root.offer(d);
    // Extents along the motion: the box's least, `p`'s greatest.
    let low = zero - (vx.abs() * hx + vy.abs() * hy);
    let mut high = vx * pts[0].0 + vy * pts[0].1;
    for &(x, y) in &pts[1..] {
        high = high.pmax(vx * x + vy * y);
    }
    let toi = settle(&face, &root, (vx, vy), r, [low, high]);
    // Back to the world, from `a` to `b`.
    let (nx, ny) = frame.world(toi.nx, toi.ny);
    let (nx, ny) = if p_is_a {
        (nx, ny)
    } else {
        (zero - nx, zero - ny)
    };
    Toi { nx, ny, ..toi }
}

/// The box's face along the axis whose half extent is `h` (the other's `h_across`), against
/// the vertices `pts` moving at `v` along that axis and `v_across` across it (`along_u`: the
/// axis is the frame's x, else its y): offered to `face` where its band is touched. Returns
/// its time where the motion closes it (0 elsewhere), for the entry into the mitred
/// difference.
#[inline(always)]
fn box_face<L: Lane, const N: usize>(
    face: &mut Face<L>,
    pts: &[(L, L); N],
    [h, h_across]: [L; 2],
    [v, v_across]: [L; 2],
    r: L,
    along_u: bool,
) -> L {
    let zero = L::splat(0.0);
    let coord = |(x, y): (L, L)| if along_u { (x, y) } else { (y, x) };
    // `R` lies on the side `σ = -sign(v)` of the face it closes on: `σ P` its distance
    // beyond the centre line.
    let ahead = v.lt(zero);
    let sigma = |x: L| L::select(ahead, x, zero - x);
    let s = v.abs();
    let mut low = sigma(coord(pts[0]).0);
    for &p in &pts[1..] {
        low = low.pmin(sigma(coord(p).0));
    }
    let reach = low - h;
    let t = zero.pmax(reach - r) / s;
    let mut on = zero.lt(zero);
    for &p in pts {
        let (along, across) = coord(p);
        let foot = across + t * v_across;
        on = on | (sigma(along).le(low) & foot.abs().le(h_across));
    }
    // The normal from `R` to the box: `-σ` along the axis.
    let n = L::select(ahead, L::splat(-1.0), L::splat(1.0));
    let (nx, ny) = if along_u { (n, zero) } else { (zero, n) };
    let closes = s.gt(zero);
    face.offer(on & closes & reach.ge(zero), t, nx, ny, s);
    L::select(closes, t, zero)
}

/// The side of the capsule's segment `(x0, y0)`–`(x1, y1)` that the motion `(vx, vy)` closes,
/// against the box with half extents `(hx, hy)`: offered to `face` where its band is touched.
/// Returns its time where the motion closes it (0 elsewhere). A segment of length 0 has no
/// side (its normal is NaN).
#[inline(always)]
fn capsule_side<L: Lane>(
    face: &mut Face<L>,
    [(x0, y0), (x1, y1)]: [(L, L); 2],
    (hx, hy): (L, L),
    (vx, vy): (L, L),
    r: L,
) -> L {
    let (zero, one) = (L::splat(0.0), L::splat(1.0));
    let (dx, dy) = (x1 - x0, y1 - y0);
    let len = (dx * dx + dy * dy).sqrt();
    let inv = one / len;
    let (ex, ey) = (dx * inv, dy * inv);
    // The left normal `(-ey, ex)`, or its reverse: the one the motion closes.
    let ln = ex * vy - ey * vx;
    let left = ln.gt(zero);
    let (wx, wy) = (
        L::select(left, zero - ey, ey),
        L::select(left, ex, zero - ex),
    );
    let s = ln.abs();
    // The box's support: the corner `-sign(w) ∘ h`. Where `w` is along an axis (`w_k = 0`)
    // the whole face is (either corner is taken): the side is then exactly parallel to the
    // face, both its ends are the face's supports at the same time, and where the two
    // overlap either that corner lies on the side or an end lies on the face (its band).
    let reach = zero - (wx * x0 + wy * y0) - (wx.abs() * hx + wy.abs() * hy);
    let t = zero.pmax(reach - r) / s;
    let toward = |w: L, h: L| L::select(w.gt(zero), zero - h, h);
    let (kx, ky) = (toward(wx, hx), toward(wy, hy));
    let foot = ex * (kx - x0) + ey * (ky - y0) - t * (ex * vx + ey * vy);
    let on = foot.ge(zero) & foot.le(len);
    let closes = s.gt(zero);
    face.offer(on & closes & reach.ge(zero), t, wx, wy, s);
    L::select(closes, t, zero)
}

//! The closed forms (two AABBs, two boxes) against the general face searches on outlines
//! whose edge normals come edge by edge: the same manifold, point for point.
use super::rules::ALIGNED;
use super::*;
use crate::narrow::{aabb_aabb, aabb_obb, obb_obb};
use crate::shape::{Aabb, Obb};

/// A box kind seen only as its outline: the general path, edge normals edge by edge.
struct Plain<S>(S);

impl<S: Outlined> Outlined for Plain<S> {
    const N: usize = S::N;
    fn outline<L: Lane>(f: &[L], x: &mut [L], y: &mut [L]) -> L {
        S::outline(f, x, y)
    }
}

/// A small xorshift in `[0, 1)`.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> f32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 40) as f32 / (1u64 << 24) as f32
    }
}

/// `fast` and `general` describe one manifold: same count and ids in the same order,
/// points and depths equal up to rounding.
fn same(fast: &ManifoldLanes<f32>, general: &ManifoldLanes<f32>, what: &str) {
    assert_eq!(fast.count, general.count, "{what}: count");
    for k in 0..fast.count as usize {
        assert_eq!(fast.id[k], general.id[k], "{what}: id {k}");
        let close = |p: f32, q: f32| (p - q).abs() <= 1e-5 * (1.0 + q.abs());
        assert!(close(fast.x[k], general.x[k]), "{what}: x {k}");
        assert!(close(fast.y[k], general.y[k]), "{what}: y {k}");
        assert!(close(fast.depth[k], general.depth[k]), "{what}: depth {k}");
    }
}

/// The general path's sines of both best faces, to skip the rare pairs where the two
/// are so close that rounding of the normals may pick either as the reference.
fn clear_reference<A: Outlined, B: Outlined>(fa: &[f32], fb: &[f32], n: [f32; 2]) -> bool {
    let a = Outline::<f32, 4>::of::<A>(fa).with_normals();
    let b = Outline::<f32, 4>::of::<B>(fb).with_normals();
    let (fa_, fb_) = (a.face(n[0], n[1], true), b.face(-n[0], -n[1], true));
    let sin_a = (fa_.mx * n[1] - fa_.my * n[0]).abs();
    let sin_b = (fb_.mx * n[1] - fb_.my * n[0]).abs();
    (sin_a - sin_b).abs() > 1e-4 && (sin_a.min(sin_b) - ALIGNED).abs() > 1e-4
}

#[test]
fn two_aabbs_in_closed_form_are_the_face_searches() {
    let mut r = Rng(7);
    let mut tested = 0;
    for _ in 0..20_000 {
        let mut aabb = || {
            let (x, y) = (4.0 * r.next(), 4.0 * r.next());
            Aabb::new(x, y, x + 0.1 + 2.0 * r.next(), y + 0.1 + 2.0 * r.next())
        };
        let (a, b) = (aabb(), aabb());
        let Some(c) = aabb_aabb::contact_reference(&a, &b) else {
            continue;
        };
        let (fa, fb) = (
            bytemuck::cast_slice(core::slice::from_ref(&a)),
            bytemuck::cast_slice(core::slice::from_ref(&b)),
        );
        let contact = [c.normal[0], c.normal[1], c.depth];
        let fast = build::<f32, Aabb, Aabb, 4, 4>(fa, fb, contact, true);
        let general = faces::<f32, Plain<Aabb>, Plain<Aabb>, 4, 4>(fa, fb, contact).finite();
        same(&fast, &general, &format!("{a:?} {b:?}"));
        tested += 1;
    }
    assert!(tested > 3_000, "only {tested} overlapping pairs");
}

/// The box path and the general one on `a` and `b` (contact `c`): `None` where they do not
/// overlap, `Some(false)` where the reference face is not clear (not compared).
fn compare<A, B>(a: &A, b: &B, c: Option<crate::Contact>, what: &str) -> Option<bool>
where
    A: Outlined + bytemuck::Pod,
    B: Outlined + bytemuck::Pod,
{
    let c = c?;
    let fa = bytemuck::cast_slice::<A, f32>(core::slice::from_ref(a));
    let fb = bytemuck::cast_slice::<B, f32>(core::slice::from_ref(b));
    if !clear_reference::<A, B>(fa, fb, c.normal) {
        return Some(false);
    }
    let contact = [c.normal[0], c.normal[1], c.depth];
    let fast = build::<f32, A, B, 4, 4>(fa, fb, contact, true);
    let general = faces::<f32, Plain<A>, Plain<B>, 4, 4>(fa, fb, contact);
    same(&fast, &general.finite(), what);
    Some(true)
}

#[test]
fn boxes_by_their_frames_are_the_face_searches() {
    let mut r = Rng(11);
    let obb = |r: &mut Rng| {
        let (x, y) = (3.0 * r.next(), 3.0 * r.next());
        Obb::new(x, y, 0.1 + r.next(), 0.1 + r.next(), 6.3 * r.next())
    };
    let (mut tested, mut clear) = (0, 0);
    for k in 0..40_000 {
        let b = obb(&mut r);
        let what = format!("pair {k}");
        let compared = if k % 2 == 0 {
            let a = obb(&mut r);
            compare(&a, &b, obb_obb::contact_reference(&a, &b), &what)
        } else {
            let (x, y) = (3.0 * r.next(), 3.0 * r.next());
            let a = Aabb::new(x, y, x + 0.2 + 2.0 * r.next(), y + 0.2 + 2.0 * r.next());
            compare(&a, &b, aabb_obb::contact_reference(&a, &b), &what)
        };
        tested += usize::from(compared.is_some());
        clear += usize::from(compared == Some(true));
    }
    assert!(
        clear > tested / 2 && tested > 5_000,
        "{clear} of {tested} compared"
    );
}

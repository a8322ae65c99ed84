//! Every pair at every scale: ordinary pairs (lengths about 0.1 to 10), apart, overlapping and
//! meeting within rounding, multiplied by `2^k` (exact), give the same answers, bit for bit:
//! the same overlap for every `k` from -48 to 48 (every overlap test takes products of at
//! most two lengths; further down, squares of the smallest gaps turn subnormal), and the same
//! contact normal with the depth times `2^k`, the same manifold with its points and depths
//! times `2^k`, and the same sweep time and normal, from -24 to 24.
//!
//! Before 2026-11-30 the overlap tests of a capsule, and of a circle against a polygon,
//! multiplied four lengths (`(e × d)² <= r²·(e·e)`) and failed from about `2^±31`; the
//! polygons' and capsules' contacts compared products of six (`num² · len2`) and failed from
//! about `2^±15`, and so did the polygon sweeps' ties between axes entered at the same time
//! (`s² · |n|²`; seed 1 meets one at `2^22`). Beyond `2^±24` the contacts compare products of
//! three lengths (to about 1e±12) and the two-disc sweeps switch to their scaled path, whose
//! rounding differs; `sweep_scales.rs` holds every sweep to `2^±60` within rounding. The
//! lanes give the reference's bits (the widths' and levels' tests), so the references alone
//! are compared.

use crate::support::shapes::{Arbitrary, Gen};
use widephase::{
    Aabb, Capsule, Circle, Manifold, ManifoldPair, Obb, Point, Polygon, ShapeSoa, SweepPair,
};

/// Multiplying a shape's lengths by a power of two: every field but an OBB's rotation.
trait Scale: Sized {
    fn scaled(self, s: f32) -> Self;
}

/// Multiplies the first `lengths` `f32` fields of `shape` by `s`.
fn times<S: bytemuck::Pod>(mut shape: S, s: f32, lengths: usize) -> S {
    let fields = bytemuck::cast_slice_mut::<S, f32>(core::slice::from_mut(&mut shape));
    for f in &mut fields[..lengths] {
        *f *= s;
    }
    shape
}

macro_rules! lengths_only {
    ($($S:ty: $n:expr;)*) => {$(
        impl Scale for $S {
            fn scaled(self, s: f32) -> Self {
                times(self, s, $n)
            }
        }
    )*};
}

lengths_only! {
    Point: 2;
    Circle: 3;
    Aabb: 4;
    Obb: 4;
    Capsule: 5;
    Polygon: 16;
}

/// The exponents at which the overlap tests, and the contacts and sweeps, are checked.
const OVERLAPS: i32 = 48;
const ANSWERS: i32 = 24;

/// A motion of `a` against `b`: aimed at `b`, through it, away, across, along an axis, or at
/// random (no special or huge values: those are the limits' tests).
fn motion<A: Arbitrary, B: Arbitrary>(g: &mut Gen, a: &A, b: &B) -> [f32; 2] {
    let ((ax, ay), (bx, by)) = (a.center(), b.center());
    let (dx, dy) = (bx - ax, by - ay);
    match g.index(6) {
        0 => [dx, dy],
        1 => [2.0 * dx, 2.0 * dy],
        2 => [-dx, -dy],
        3 => [2.0 * dx - dy, 2.0 * dy + dx],
        4 => [dx.round(), 0.0],
        _ => [g.uniform(-10.0, 10.0), g.uniform(-10.0, 10.0)],
    }
}

fn every_scale<A, B>()
where
    A: SweepPair<B> + ManifoldPair<B>,
    B: ShapeSoa,
    A::Shape: Arbitrary + Scale,
    B::Shape: Arbitrary + Scale,
{
    let mut g = Gen::new(1);
    for _ in 0..300 {
        let a = A::Shape::ordinary(&mut g);
        let mut b = B::Shape::ordinary(&mut g);
        if g.percent() < 30 {
            b = g.meeting(&a, b);
        }
        let m = motion(&mut g, &a, &b);
        let overlaps = A::reference(&a, &b);
        let contact = A::contact_reference(&a, &b);
        let manifold = A::manifold_reference(&a, &b);
        let sweep = A::sweep_reference(&a, &b, m);
        for k in -OVERLAPS..=OVERLAPS {
            let s = 2f32.powi(k);
            let (sa, sb) = (a.scaled(s), b.scaled(s));
            let case = || format!("{a:?} {b:?} motion {m:?} at 2^{k}");
            assert_eq!(A::reference(&sa, &sb), overlaps, "overlap: {}", case());
            if k.abs() > ANSWERS {
                continue;
            }
            let c = A::contact_reference(&sa, &sb);
            assert_eq!(
                c.map(|c| (c.normal.map(f32::to_bits), c.depth.to_bits())),
                contact.map(|c| (c.normal.map(f32::to_bits), (c.depth * s).to_bits())),
                "contact: {}",
                case()
            );
            assert_eq!(
                A::manifold_reference(&sa, &sb).map(|m| bits(&m, 1.0)),
                manifold.map(|m| bits(&m, s)),
                "manifold: {}",
                case()
            );
            let w = A::sweep_reference(&sa, &sb, [m[0] * s, m[1] * s]);
            assert_eq!(
                w.map(|w| (w.t.to_bits(), w.normal.map(f32::to_bits))),
                sweep.map(|w| (w.t.to_bits(), w.normal.map(f32::to_bits))),
                "sweep: {}",
                case()
            );
        }
    }
}

/// A manifold's bits with its points and depths multiplied by `s`.
fn bits(m: &Manifold, s: f32) -> Vec<u32> {
    let mut out = vec![
        m.normal[0].to_bits(),
        m.normal[1].to_bits(),
        u32::from(m.count),
    ];
    for p in m.points() {
        out.extend([p.point[0] * s, p.point[1] * s, p.depth * s].map(f32::to_bits));
        out.push(p.id);
    }
    out
}

widephase::pair_table!(both_orders, every_scale;);

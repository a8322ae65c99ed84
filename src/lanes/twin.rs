//! [`Twin`]: two lane blocks computed as one, operation by operation.
//!
//! A kernel whose work is one long chain per lane (a square root, then a division, then the
//! values that wait on them) keeps the core waiting on that chain: the blocks after it cannot
//! start before their instructions are issued, and a block's chain fills the queues first. Run
//! over a `Twin`, the same kernel issues each operation for two blocks in turn, so each block's
//! chain fills the other's waits. Every lane gets exactly the operations it gets alone, so the
//! bits are the same; only [`Lane::any`] (control flow) asks about both blocks at once.

use super::{Lane, Simd};
use core::ops::{Add, BitAnd, BitOr, Div, Mul, Not, Sub};

/// Two lane blocks of `V`, the first and the second, computed together (see the module docs).
#[derive(Clone, Copy)]
pub(crate) struct Twin<V>(pub(crate) V, pub(crate) V);

impl<V: Simd> super::sealed::Sealed for Twin<V> {}

/// `Twin<V> op Twin<V>` as `op` on each block.
macro_rules! twin_ops {
    ($($Op:ident $op:ident;)+) => {$(
        impl<V: Simd> $Op for Twin<V> {
            type Output = Self;
            #[inline(always)]
            fn $op(self, other: Self) -> Self {
                Self(self.0.$op(other.0), self.1.$op(other.1))
            }
        }
    )+};
}

twin_ops! {
    Add add;
    Sub sub;
    Mul mul;
    Div div;
    BitAnd bitand;
    BitOr bitor;
}

impl<V: Simd> Not for Twin<V> {
    type Output = Self;
    #[inline(always)]
    fn not(self) -> Self {
        Self(!self.0, !self.1)
    }
}

/// A [`Lane`] method of one argument besides `self` as that method on each block.
macro_rules! twin_binary {
    ($($name:ident;)+) => {$(
        #[inline(always)]
        fn $name(self, other: Self) -> Self {
            Self(Lane::$name(self.0, other.0), Lane::$name(self.1, other.1))
        }
    )+};
}

impl<V: Simd> Lane for Twin<V> {
    type Mask = Self;
    #[inline(always)]
    fn splat(x: f32) -> Self {
        Self(V::splat(x), V::splat(x))
    }
    twin_binary! {
        lt;
        gt;
        ge;
        le;
        eq;
        pmin;
        pmax;
    }
    #[inline(always)]
    fn select(mask: Self, a: Self, b: Self) -> Self {
        Self(
            Lane::select(mask.0, a.0, b.0),
            Lane::select(mask.1, a.1, b.1),
        )
    }
    #[inline(always)]
    fn abs(self) -> Self {
        Self(self.0.abs(), self.1.abs())
    }
    #[inline(always)]
    fn sqrt(self) -> Self {
        Self(self.0.sqrt(), self.1.sqrt())
    }
    #[inline(always)]
    fn inverse_power(self) -> Self {
        Self(self.0.inverse_power(), self.1.inverse_power())
    }
    #[inline(always)]
    fn any(mask: Self) -> bool {
        V::any(mask.0 | mask.1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wide::f32x8;

    /// Each block of a twin computes what it computes alone, NaN, infinities and signed zeros
    /// included; `any` sees a lane of either block.
    #[test]
    fn each_block_is_computed_as_alone() {
        let a = f32x8::new([1.5, -0.0, f32::NAN, f32::INFINITY, 3.0, -2.0, 1e-40, 7.0]);
        let b = f32x8::new([0.0, 0.0, 1.0, -f32::INFINITY, 3.0, 4.0, 1e30, -7.0]);
        let t = Twin(a, b);
        let u = Twin(b, a);
        let bits = |v: f32x8| v.to_array().map(f32::to_bits);
        let same = |got: Twin<f32x8>, first: f32x8, second: f32x8| {
            assert_eq!(bits(got.0), bits(first));
            assert_eq!(bits(got.1), bits(second));
        };
        same(t + u, a + b, b + a);
        same(t - u, a - b, b - a);
        same(t * u, a * b, b * a);
        same(t / u, a / b, b / a);
        same(t.pmin(u), a.pmin(b), b.pmin(a));
        same(t.pmax(u), a.pmax(b), b.pmax(a));
        same(t.sqrt(), a.sqrt(), b.sqrt());
        same(t.abs(), a.abs(), b.abs());
        same(t.inverse_power(), a.inverse_power(), b.inverse_power());
        let m = t.lt(u);
        same(m, a.lt(b), b.lt(a));
        same(
            Lane::select(m, t, u),
            Lane::select(a.lt(b), a, b),
            Lane::select(b.lt(a), b, a),
        );
        same(
            !m & t.le(u) | t.eq(u),
            !a.lt(b) & a.le(b) | a.eq(b),
            !b.lt(a) & b.le(a) | b.eq(a),
        );
        let none = f32x8::splat(0.0).lt(f32x8::splat(0.0));
        let one = f32x8::new([0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0]).gt(f32x8::splat(0.0));
        assert!(!<Twin<f32x8> as Lane>::any(Twin(none, none)));
        assert!(<Twin<f32x8> as Lane>::any(Twin(none, one)));
        assert!(<Twin<f32x8> as Lane>::any(Twin(one, none)));
    }

    /// `inverse_power`: `x · inverse_power(x)` in `[1, 2)` for a normal `x` below `2^127`
    /// (both signs), `2^127` for zeros and subnormals, `+0` from `2^127` on, for infinities and
    /// NaN; the lanes of both widths give the scalar's bits.
    #[test]
    fn inverse_power_by_the_exponent() {
        use wide::f32x16;
        let normal = [
            1.0f32,
            1.5,
            1.999_999_9,
            3.0,
            -6.0,
            1e-30,
            1e30,
            f32::MIN_POSITIVE,
        ];
        for x in normal.into_iter().chain([f32::from_bits(0x7eff_ffff)]) {
            let scaled = x.abs() * x.inverse_power();
            assert!((1.0..2.0).contains(&scaled), "{x}: {scaled}");
        }
        let big = f32::from_bits(0x7f00_0000);
        for (x, want) in [
            (0.0f32, big),
            (-0.0, big),
            (1e-40, big),
            (big, 0.0),
            (f32::MAX, 0.0),
            (f32::INFINITY, 0.0),
            (f32::NEG_INFINITY, 0.0),
            (f32::NAN, 0.0),
        ] {
            assert_eq!(x.inverse_power().to_bits(), want.to_bits(), "{x}");
        }
        let xs = [0.0f32, 1e-40, 1.5, -6.0, 1e30, big, f32::INFINITY, f32::NAN];
        let want = xs.map(|x| x.inverse_power().to_bits());
        assert_eq!(
            f32x8::new(xs).inverse_power().to_array().map(f32::to_bits),
            want
        );
        let wide: [f32; 16] = core::array::from_fn(|i| xs[i % 8]);
        let got = f32x16::new(wide)
            .inverse_power()
            .to_array()
            .map(f32::to_bits);
        assert_eq!(got[..8], want);
        assert_eq!(got[8..], want);
    }
}

//! Helpers shared by the test modules: generators, the failure report, and independent geometry.

pub mod independent;
pub mod model;
pub mod peer;
pub mod penetration;
pub mod shapes;
pub mod threads;
pub mod toi;

/// Panics with everything needed to reproduce a failing pair: what failed, the seed, the index,
/// and both shapes as values and raw bits.
#[macro_export]
macro_rules! pair_assert {
    ($cond:expr, seed = $seed:expr, index = $i:expr, $a:expr, $b:expr, $($msg:tt)+) => {
        if !$cond {
            panic!(
                "{}\n  seed {} index {}\n  a = {}\n      bits {:?}\n  b = {}\n      bits {:?}",
                format!($($msg)+),
                $seed,
                $i,
                $crate::support::shapes::rust_literal(&$a),
                $crate::support::shapes::bits(&$a),
                $crate::support::shapes::rust_literal(&$b),
                $crate::support::shapes::bits(&$b),
            );
        }
    };
}

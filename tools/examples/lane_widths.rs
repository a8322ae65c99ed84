//! Eight against sixteen lanes, every kernel, in one process: `batch_test_at::<f32x8>` and
//! `::<f32x16>` (`batch_raycast_at` for the casts, `batch_contact_at` for the contacts) on the kernel benchmark's inputs, at 512 pairs
//! (every input in the 48 KiB L1 data cache of a Zen 5 core) and at 4096 (the benchmark's "in
//! cache" size: 16 to 64 bytes per pair, so mostly L2), alternated round by round, medians of 21
//! rounds, in G pairs/s. Meaningful on a build with AVX-512:
//!
//! ```text
//! RUSTFLAGS="-C target-cpu=x86-64-v4" cargo run --release -p widephase-tools --example lane_widths
//! ```
//!
//! (elsewhere an `f32x16` is two `f32x8` halves, and the sixteen-lane column shows what that
//! costs).

#[path = "../../tests/support/shapes.rs"]
mod shapes;

use shapes::{Arbitrary, Gen, Spread};
use std::hint::black_box;
use std::time::Instant;
use widephase::wide::{f32x8, f32x16};
use widephase::{
    ContactPair, Contacts, HitMask, Overlaps, Ray, RayCast, Rays, SIMD_BACKEND, ShapeSoa,
    batch_contact_at, batch_raycast_at, batch_test_at, pair_table,
};

const ROUNDS: usize = 21;
/// Pairs tested per timing of one contender: enough for a few milliseconds.
const WORK: usize = 1 << 21;

fn shapes<S: Arbitrary>(n: usize, seed: u64) -> Vec<S> {
    let mut g = Gen::new(seed);
    (0..n)
        .map(|_| S::ordinary_in(&mut g, &Spread::BENCH))
        .collect()
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

/// The two widths' throughput, alternated: `[eight, sixteen]` in G pairs/s.
fn race(n: usize, mut eight: impl FnMut(), mut sixteen: impl FnMut()) -> [f64; 2] {
    let reps = WORK / n;
    let mut times = [vec![], vec![]];
    for _ in 0..ROUNDS {
        for (w, times) in times.iter_mut().enumerate() {
            let t = Instant::now();
            for _ in 0..reps {
                if w == 0 { eight() } else { sixteen() }
            }
            times.push((reps * n) as f64 / t.elapsed().as_secs_f64() / 1e9);
        }
    }
    times.map(median)
}

fn pair<A, B>(name: &str)
where
    A: Overlaps<B> + FromIterator<A::Shape>,
    B: ShapeSoa + FromIterator<B::Shape>,
    A::Shape: Arbitrary,
    B::Shape: Arbitrary,
{
    let mut row = format!("| {name} |");
    for n in [512, 4096] {
        let a: A = shapes(n, 1).into_iter().collect();
        let b: B = shapes(n, 2).into_iter().collect();
        let (mut h8, mut h16) = (HitMask::new(), HitMask::new());
        let [x8, x16] = race(
            n,
            || batch_test_at::<f32x8, _, _>(black_box(&a), black_box(&b), &mut h8).unwrap(),
            || batch_test_at::<f32x16, _, _>(black_box(&a), black_box(&b), &mut h16).unwrap(),
        );
        assert_eq!(h8, h16, "{name}: the widths disagree");
        row += &format!(" {x8:.2} | {x16:.2} | {:.2}x |", x16 / x8);
    }
    println!("{row}");
}

fn contact<A, B>(name: &str)
where
    A: ContactPair<B> + FromIterator<A::Shape>,
    B: ShapeSoa + FromIterator<B::Shape>,
    A::Shape: Arbitrary,
    B::Shape: Arbitrary,
{
    let mut row = format!("| contact_{name} |");
    for n in [512, 4096] {
        let a: A = shapes(n, 1).into_iter().collect();
        let b: B = shapes(n, 2).into_iter().collect();
        let (mut c8, mut c16) = (Contacts::new(), Contacts::new());
        let [x8, x16] = race(
            n,
            || batch_contact_at::<f32x8, _, _>(black_box(&a), black_box(&b), &mut c8).unwrap(),
            || batch_contact_at::<f32x16, _, _>(black_box(&a), black_box(&b), &mut c16).unwrap(),
        );
        assert!(c8 == c16, "{name}: the widths disagree");
        row += &format!(" {x8:.2} | {x16:.2} | {:.2}x |", x16 / x8);
    }
    println!("{row}");
}

fn cast<S>(name: &str)
where
    S: RayCast + FromIterator<S::Shape>,
    S::Shape: Arbitrary,
{
    let mut row = format!("| {name} |");
    for n in [512, 4096] {
        let rays: Rays = shapes::<Ray>(n, 3).into_iter().collect();
        let s: S = shapes(n, 4).into_iter().collect();
        let (mut t8, mut t16) = (vec![], vec![]);
        let [x8, x16] = race(
            n,
            || batch_raycast_at::<f32x8, _>(black_box(&rays), black_box(&s), &mut t8).unwrap(),
            || batch_raycast_at::<f32x16, _>(black_box(&rays), black_box(&s), &mut t16).unwrap(),
        );
        let same = t8.iter().zip(&t16).all(|(x, y)| x.to_bits() == y.to_bits());
        assert!(same, "{name}: the widths disagree");
        row += &format!(" {x8:.2} | {x16:.2} | {:.2}x |", x16 / x8);
    }
    println!("{row}");
}

macro_rules! all {
    (
        distinct { $($d:ident: $A:ty, $B:ty;)* }
        same { $($s:ident: $S:ty;)* }
        casts { $($c:ident: $C:ty;)* }
    ) => {
        $(pair::<$A, $B>(stringify!($d));)*
        $(pair::<$S, $S>(stringify!($s));)*
        $(cast::<$C>(stringify!($c));)*
        $(contact::<$A, $B>(stringify!($d));)*
        $(contact::<$S, $S>(stringify!($s));)*
    };
}

fn main() {
    println!("SIMD backend: {SIMD_BACKEND}; G pairs/s, medians of {ROUNDS} alternated rounds\n");
    println!(
        "| pair | 512: x8 | 512: x16 | 512: x16 / x8 | 4096: x8 | 4096: x16 | 4096: x16 / x8 |"
    );
    println!("|---|---|---|---|---|---|---|");
    pair_table!(all);
}

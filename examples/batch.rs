//! A frame loop in miniature: one million bullets (circles) tested pairwise against one million
//! walls (rotated boxes) with `batch_test`, the hits checked against the scalar reference, and the
//! throughput printed next to the reference loop's.
//!
//! `cargo run --release --example batch [-- PAIRS]`

use std::time::Instant;
use widephase::{Circle, Circles, HitMask, Obb, Obbs, SIMD_BACKEND, batch_test, reference};

fn main() {
    let pairs: usize = match std::env::args().nth(1) {
        None => 1_000_000,
        Some(arg) => arg.parse().unwrap_or_else(|_| {
            eprintln!("usage: batch [PAIRS]   (PAIRS must be a whole number, got {arg:?})");
            std::process::exit(2)
        }),
    };

    // Deterministic positions from a tiny hash, so the example needs no random-number crate.
    let unit = |i: usize, salt: u32| {
        let h = (i as u32).wrapping_mul(0x9E37_79B9) ^ salt;
        let h = (h ^ (h >> 15)).wrapping_mul(0x2C1B_3C6D);
        (h ^ (h >> 12)) as f32 / u32::MAX as f32
    };
    let bullets: Circles = (0..pairs)
        .map(|i| Circle::new(unit(i, 1) * 10.0, unit(i, 2) * 10.0, 0.1 + unit(i, 3) * 0.2))
        .collect();
    let walls: Obbs = (0..pairs)
        .map(|i| {
            Obb::new(
                unit(i, 4) * 10.0,
                unit(i, 5) * 10.0,
                0.5,
                2.0,
                unit(i, 6) * core::f32::consts::TAU,
            )
        })
        .collect();
    bullets.validate().expect("generated bullets are valid");
    walls.validate().expect("generated walls are valid");

    let mut hits = HitMask::new();
    batch_test(&bullets, &walls, &mut hits).expect("same lengths"); // warm-up, sizes the mask
    let frames = 20;
    let start = Instant::now();
    for _ in 0..frames {
        batch_test(&bullets, &walls, &mut hits).expect("same lengths");
    }
    let kernel = start.elapsed().as_secs_f64() / f64::from(frames);

    let (a, b): (Vec<Circle>, Vec<Obb>) = (bullets.iter().collect(), walls.iter().collect());
    let start = Instant::now();
    let expected = a
        .iter()
        .zip(&b)
        .filter(|(c, o)| reference::circle_obb(c, o))
        .count();
    let scalar = start.elapsed().as_secs_f64();

    let mismatches = (0..pairs)
        .filter(|&i| hits.get(i) != reference::circle_obb(&a[i], &b[i]))
        .count();
    println!(
        "widephase batch_test: {pairs} circle-vs-OBB pairs per frame, SIMD backend: {SIMD_BACKEND}"
    );
    println!(
        "  hits: {} (reference: {expected}), mismatches: {mismatches}",
        hits.count_ones()
    );
    println!(
        "  x8 kernel: {:.3} ms/frame ({:.2} G pairs/s); scalar reference: {:.3} ms ({:.2} G pairs/s)",
        kernel * 1e3,
        pairs as f64 / kernel / 1e9,
        scalar * 1e3,
        pairs as f64 / scalar / 1e9,
    );
    if let Some(first) = hits.iter_ones().next() {
        println!(
            "  first hit: pair {first}: {:?} vs {:?}",
            a[first], b[first]
        );
    }
    if mismatches != 0 {
        eprintln!("kernel and reference disagree on {mismatches} pairs");
        std::process::exit(1);
    }
}

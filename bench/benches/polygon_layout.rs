//! Which layout for polygons: the measurement behind `Polygons`.
//!
//! `Polygons` stores vertex `k` of eight polygons in one `f32x8` (one polygon per lane), so a
//! kernel tests eight pairs at once with the same formulas as its scalar reference. The other
//! layout the design allows puts one polygon's eight vertices across the lanes of an `f32x8`
//! (the memory layout of [`Polygon`] itself): polygon–polygon then tests one pair at a time,
//! all eight edge normals of one polygon at once, against each vertex of the other broadcast to
//! every lane. Both do the same 128 dot products per pair; the second can stop after the first
//! polygon's axes when they already separate the pair, which the first cannot (all eight lanes
//! would have to be separated).
//!
//! Contenders, on the same pairs, every one checked against the reference first:
//! - `per-lane`: `batch_test` on `Polygons` (what the crate ships);
//! - `across`: vertices across lanes, read straight from `&[Polygon]`, stopping early;
//! - `across-no-exit`: the same without stopping early (both polygons' axes always);
//! - `across-transposed`: `Polygons` blocks transposed (`f32x8::transpose`) into the second
//!   layout, so that `batch_test` could use it without a second container.
//!
//! On two inputs: `spread` (the kernel benchmark's polygons, ~23 % of pairs overlap) and
//! `close` (pairs drawn close together, as a broadphase hands them over; most overlap).
//!
//! `cargo bench -p widephase-bench --bench polygon_layout`. Elements are pairs.

mod support;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use std::hint::black_box;
use std::time::Duration;
use widephase::wide::f32x8;
use widephase::{HitMask, Polygon, Polygons, batch_test, reference};

const PAIRS: usize = 4096;

/// Lane `k` of the result is lane `k + 1` of `v` (mod 8): vertex `k + 1` beside vertex `k`.
#[inline(always)]
fn next_vertex(v: f32x8) -> f32x8 {
    let a = v.to_array();
    f32x8::from([a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[0]])
}

/// Whether an edge of the polygon with vertices `(ax, ay)` (across lanes) separates the one with
/// vertices `(bx, by)`; the same operations per edge, in the same order, as the reference.
#[inline(always)]
fn separates(ax: f32x8, ay: f32x8, bx: &[f32; 8], by: &[f32; 8]) -> bool {
    let (nx, ny) = (next_vertex(ay) - ay, ax - next_vertex(ax));
    let limit = nx * ax + ny * ay;
    let mut lowest = nx * f32x8::splat(bx[0]) + ny * f32x8::splat(by[0]);
    for j in 1..8 {
        // `fast_min` is `vminps`, the rule of the crate's `min`.
        lowest = lowest.fast_min(nx * f32x8::splat(bx[j]) + ny * f32x8::splat(by[j]));
    }
    lowest.simd_gt(limit).any()
}

/// Every coordinate finite.
#[inline(always)]
#[allow(clippy::eq_op, reason = "x - x is the finiteness test")]
fn finite(x: f32x8, y: f32x8) -> bool {
    ((x - x) + (y - y)).simd_eq(f32x8::ZERO).all()
}

/// One pair in the vertices-across-lanes layout; `EXIT` stops after `a`'s axes separate.
#[inline(always)]
fn across<const EXIT: bool>(a: &Polygon, b: &Polygon) -> bool {
    let (ox, oy) = (a.xs[0] * 0.5 + b.xs[0] * 0.5, a.ys[0] * 0.5 + b.ys[0] * 0.5);
    let (ax0, ay0, bx0, by0) = (
        f32x8::from(a.xs),
        f32x8::from(a.ys),
        f32x8::from(b.xs),
        f32x8::from(b.ys),
    );
    centred_pair::<EXIT>(ax0, ay0, bx0, by0, ox, oy)
}

#[inline(always)]
fn centred_pair<const EXIT: bool>(
    ax0: f32x8,
    ay0: f32x8,
    bx0: f32x8,
    by0: f32x8,
    ox: f32,
    oy: f32,
) -> bool {
    let (ox, oy) = (f32x8::splat(ox), f32x8::splat(oy));
    let (ax, ay, bx, by) = (ax0 - ox, ay0 - oy, bx0 - ox, by0 - oy);
    let (xa, ya, xb, yb) = (ax.to_array(), ay.to_array(), bx.to_array(), by.to_array());
    let apart = if EXIT {
        separates(ax, ay, &xb, &yb) || separates(bx, by, &xa, &ya)
    } else {
        separates(ax, ay, &xb, &yb) | separates(bx, by, &xa, &ya)
    };
    !apart & finite(ax0, ay0) & finite(bx0, by0)
}

/// Eight pairs of `Polygons` blocks, transposed into the across-lanes layout.
#[inline(always)]
fn transposed(a: &Polygons, b: &Polygons, block: usize) -> u8 {
    let (pa, pb) = (a.block(block), b.block(block));
    let (ax, ay) = (f32x8::transpose(pa.x), f32x8::transpose(pa.y));
    let (bx, by) = (f32x8::transpose(pb.x), f32x8::transpose(pb.y));
    let half = f32x8::splat(0.5);
    let ox = (pa.x[0] * half + pb.x[0] * half).to_array();
    let oy = (pa.y[0] * half + pb.y[0] * half).to_array();
    let mut bits = 0;
    for i in 0..8 {
        let hit = centred_pair::<true>(ax[i], ay[i], bx[i], by[i], ox[i], oy[i]);
        bits |= u8::from(hit) << i;
    }
    bits
}

/// Pairs drawn close together: centres within 1.2 of each other, radii 0.25–1.5.
fn close_pairs(n: usize, seed: u64) -> (Vec<Polygon>, Vec<Polygon>) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let one = |rng: &mut SmallRng| {
        let sides = rng.random_range(3..=8usize);
        let (x, y) = (rng.random_range(-0.6..0.6), rng.random_range(-0.6..0.6));
        let (r, angle) = (rng.random_range(0.25..1.5), rng.random_range(-3.2..3.2));
        Polygon::regular(sides, x, y, r, angle)
    };
    (0..n).map(|_| (one(&mut rng), one(&mut rng))).unzip()
}

fn layout(c: &mut Criterion) {
    let spread: (Vec<Polygon>, Vec<Polygon>) =
        (support::shapes(PAIRS, 1), support::shapes(PAIRS, 2));
    for (label, (va, vb)) in [("spread", spread), ("close", close_pairs(PAIRS, 3))] {
        let (sa, sb): (Polygons, Polygons) =
            (va.iter().copied().collect(), vb.iter().copied().collect());
        let mut out = HitMask::new();
        batch_test(&sa, &sb, &mut out).unwrap();
        let mut hits = 0;
        for i in 0..PAIRS {
            let want = reference::polygon_polygon(&va[i], &vb[i]);
            assert_eq!(out.get(i), want, "per-lane, pair {i}");
            assert_eq!(across::<true>(&va[i], &vb[i]), want, "across, pair {i}");
            assert_eq!(
                across::<false>(&va[i], &vb[i]),
                want,
                "across-no-exit, pair {i}"
            );
            let bits = transposed(&sa, &sb, i / 8);
            assert_eq!(
                bits >> (i % 8) & 1 == 1,
                want,
                "across-transposed, pair {i}"
            );
            hits += usize::from(want);
        }
        eprintln!("polygon_layout/{label}: {hits} of {PAIRS} pairs overlap");

        let mut group = c.benchmark_group(format!("polygon_layout/{label}"));
        group
            .throughput(Throughput::Elements(PAIRS as u64))
            .sample_size(30)
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(2));
        group.bench_function("per-lane", |bench| {
            bench.iter(|| batch_test(black_box(&sa), black_box(&sb), &mut out).unwrap())
        });
        let mut words = vec![0u64; PAIRS / 64];
        let mut run = |name: &str, test: fn(&Polygon, &Polygon) -> bool| {
            group.bench_function(name, |bench| {
                bench.iter(|| {
                    let (a, b) = (black_box(&va), black_box(&vb));
                    for (w, (ca, cb)) in words.iter_mut().zip(a.chunks(64).zip(b.chunks(64))) {
                        let mut word = 0;
                        for (i, (pa, pb)) in ca.iter().zip(cb).enumerate() {
                            word |= u64::from(test(pa, pb)) << i;
                        }
                        *w = word;
                    }
                })
            });
        };
        run("across", across::<true>);
        run("across-no-exit", across::<false>);
        let mut bytes = vec![0u8; PAIRS / 8];
        group.bench_function("across-transposed", |bench| {
            bench.iter(|| {
                for (block, byte) in bytes.iter_mut().enumerate() {
                    *byte = transposed(black_box(&sa), black_box(&sb), block);
                }
            })
        });
        group.finish();
    }
}

criterion_group!(benches, layout);
criterion_main!(benches);

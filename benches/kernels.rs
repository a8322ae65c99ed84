//! Throughput of every pair kernel next to its scalar reference in a plain loop and next to
//! parry2d on the same shapes, at 4096 pairs (in cache) and 4 Mi pairs (streaming from memory),
//! plus, at 4 Mi, a loop that only reads the bytes the kernel reads (the memory-bandwidth bound).
//!
//! `cargo bench --bench kernels` (filter with e.g. `-- circle_aabb/4k`). Elements are pairs.

mod support;

use criterion::{
    BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main, measurement::WallTime,
};
use parry2d::math::Pose;
use parry2d::query::intersection_test;
use parry2d::shape::Shape;
use std::hint::black_box;
use std::time::Duration;
use support::{BenchShape, shapes};
use widephase::wide::f32x8;
use widephase::{Aabbs, Circles, HitMask, Obbs, Overlaps, Points, ShapeSoa, batch_test, reference};

const IN_CACHE: usize = 4096;
const STREAMING: usize = 4 << 20;

/// How parry2d answers one pair.
type Peer<A, B> = fn(&(Pose, A), &(Pose, B)) -> bool;

fn shape_test<A: Shape, B: Shape>(a: &(Pose, A), b: &(Pose, B)) -> bool {
    intersection_test(&a.0, &a.1, &b.0, &b.1)
        .unwrap()
        .intersecting
}

fn point_test<B: Shape>(p: &(Pose, parry2d::math::Vector), b: &(Pose, B)) -> bool {
    b.1.contains_point(&b.0, p.1)
}

/// Packs one answer per pair into 64-bit words, as `HitMask` does, so every contender produces
/// the same output.
fn pack(words: &mut [u64], answers: impl Iterator<Item = bool>) {
    for (i, hit) in answers.enumerate() {
        words[i / 64] |= u64::from(hit) << (i % 64);
    }
}

fn bench_pair<A, B>(
    c: &mut Criterion,
    name: &str,
    reference: fn(&A::Shape, &B::Shape) -> bool,
    peer: Peer<<A::Shape as BenchShape>::Parry, <B::Shape as BenchShape>::Parry>,
) where
    A: Overlaps<B> + FromIterator<A::Shape>,
    B: ShapeSoa + FromIterator<B::Shape>,
    A::Shape: BenchShape,
    B::Shape: BenchShape,
{
    for (n, label) in [(IN_CACHE, "4k"), (STREAMING, "4M")] {
        let va: Vec<A::Shape> = shapes(n, 1);
        let vb: Vec<B::Shape> = shapes(n, 2);
        let a: A = va.iter().copied().collect();
        let b: B = vb.iter().copied().collect();
        let pa: Vec<_> = va.iter().map(BenchShape::to_parry).collect();
        let pb: Vec<_> = vb.iter().map(BenchShape::to_parry).collect();
        let mut words = vec![0u64; n.div_ceil(64)];
        let mut hits = HitMask::new();

        let mut group = c.benchmark_group(format!("{name}/{label}"));
        group.throughput(Throughput::Elements(n as u64));
        configure(&mut group, n);
        group.bench_function("x8", |bench| {
            bench.iter(|| batch_test(black_box(&a), black_box(&b), &mut hits).unwrap())
        });
        group.bench_function("reference", |bench| {
            bench.iter(|| {
                words.fill(0);
                pack(
                    &mut words,
                    va.iter().zip(&vb).map(|(x, y)| reference(black_box(x), y)),
                );
            })
        });
        group.bench_function("parry2d", |bench| {
            bench.iter(|| {
                words.fill(0);
                pack(
                    &mut words,
                    pa.iter().zip(&pb).map(|(x, y)| peer(black_box(x), y)),
                );
            })
        });
        if n == STREAMING {
            group.bench_function("read-only", |bench| bench.iter(|| read_only(&a, &b)));
        }
        group.finish();
        // The contenders must agree, or the comparison is meaningless.
        batch_test(&a, &b, &mut hits).unwrap();
        let agree = (0..n)
            .filter(|&i| hits.get(i) == peer(&pa[i], &pb[i]))
            .count();
        assert!(
            agree * 1000 >= n * 999,
            "{name}: parry2d agrees on only {agree} of {n}"
        );
    }
}

/// Reads every lane block of both containers and nothing else, one field after another (the
/// cheapest order to stream the same bytes): the memory-bandwidth bound for the kernel.
fn read_only<A: ShapeSoa, B: ShapeSoa>(a: &A, b: &B) -> f32x8 {
    let mut acc = f32x8::ZERO;
    for field in a.field_blocks().into_iter().chain(b.field_blocks()) {
        for &block in field {
            acc ^= block;
        }
    }
    black_box(acc)
}

fn configure(group: &mut BenchmarkGroup<'_, WallTime>, n: usize) {
    if n == STREAMING {
        group
            .sample_size(10)
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(3));
    } else {
        group
            .sample_size(30)
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(2));
    }
}

fn kernels(c: &mut Criterion) {
    bench_pair::<Points, Aabbs>(c, "point_aabb", reference::point_aabb, point_test);
    bench_pair::<Points, Circles>(c, "point_circle", reference::point_circle, point_test);
    bench_pair::<Points, Obbs>(c, "point_obb", reference::point_obb, point_test);
    bench_pair::<Circles, Circles>(c, "circle_circle", reference::circle_circle, shape_test);
    bench_pair::<Aabbs, Aabbs>(c, "aabb_aabb", reference::aabb_aabb, shape_test);
    bench_pair::<Circles, Aabbs>(c, "circle_aabb", reference::circle_aabb, shape_test);
    bench_pair::<Circles, Obbs>(c, "circle_obb", reference::circle_obb, shape_test);
    bench_pair::<Aabbs, Obbs>(c, "aabb_obb", reference::aabb_obb, shape_test);
    bench_pair::<Obbs, Obbs>(c, "obb_obb", reference::obb_obb, shape_test);
}

criterion_group!(benches, kernels);
criterion_main!(benches);

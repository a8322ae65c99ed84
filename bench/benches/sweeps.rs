//! Sweeps of every pair kind, 4096 pairs in cache, one thread: `batch_sweep` at eight and
//! sixteen lanes (`batch_sweep_at`; the build's width is one of them), the scalar reference in
//! a plain loop, and parry2d's `query::cast_shapes` (`max_time_of_impact = 1`,
//! `stop_at_penetration = true`), on the same shapes and motions. Elements are pairs.
//!
//! `cargo bench -p widephase-bench --bench sweeps` (filter with e.g. `-- sweep/circle_aabb`).
//!
//! Also (`-- threads`) `par_batch_sweep` over 4 Mi pairs beside `par_batch_contact`, each
//! against its one-thread form.
//!
//! The shapes are the kernel benches' (a 4×4 square, sizes 0.25–1.5); each first shape moves
//! by up to 2 on each axis, so that about half the pairs start apart, and of those a good
//! share meet during the motion.

mod support;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use parry2d::math::{Pose, Vector};
use parry2d::query::{ShapeCastOptions, cast_shapes};
use parry2d::shape::SharedShape;
use std::hint::black_box;
use std::time::Duration;
use support::{Gen, ParryTwin, Solid, shapes};
use widephase::wide::{f32x8, f32x16};
use widephase::{
    Motions, ShapeSoa, Sweep, SweepPair, Sweeps, batch_sweep, batch_sweep_at, pair_table,
    sweep_reference,
};

const N: usize = 4096;

/// A scalar sweep: `a` moving by the motion against `b`.
type SweepFn<A, B> = fn(&A, &B, [f32; 2]) -> Option<Sweep>;

/// The sweep of `A` moving against `B` next to its reference and parry2d.
fn bench_sweep<A, B>(c: &mut Criterion, name: &str, reference: SweepFn<A::Shape, B::Shape>)
where
    A: SweepPair<B> + FromIterator<A::Shape>,
    B: ShapeSoa + FromIterator<B::Shape>,
    A::Shape: Solid + ParryTwin,
    B::Shape: Solid + ParryTwin,
{
    let va: Vec<A::Shape> = shapes(N, 1);
    let vb: Vec<B::Shape> = shapes(N, 2);
    let mut g = Gen::new(3);
    let vm: Vec<[f32; 2]> = (0..N)
        .map(|_| [g.uniform(-2.0, 2.0), g.uniform(-2.0, 2.0)])
        .collect();
    let (a, b): (A, B) = (va.iter().copied().collect(), vb.iter().copied().collect());
    let motions: Motions = vm.iter().copied().collect();
    let pa: Vec<(Pose, SharedShape)> = va.iter().map(Solid::solid).collect();
    let pb: Vec<(Pose, SharedShape)> = vb.iter().map(Solid::solid).collect();
    let options = ShapeCastOptions {
        max_time_of_impact: 1.0,
        target_distance: 0.0,
        stop_at_penetration: true,
        compute_impact_geometry_on_penetration: false,
    };
    let peer = |(p1, s1): &(Pose, SharedShape), (p2, s2): &(Pose, SharedShape), m: [f32; 2]| {
        cast_shapes(
            p1,
            Vector::new(m[0], m[1]),
            &*s1.0,
            p2,
            Vector::ZERO,
            &*s2.0,
            options,
        )
        .unwrap()
        .map(|hit| hit.time_of_impact)
    };

    // The contenders must agree on the pairs apart at the start (there the rules for leaving
    // pairs differ: parry2d reports every overlap at 0), or the comparison is meaningless.
    let mut sweeps = Sweeps::new();
    batch_sweep(&a, &b, &motions, &mut sweeps).unwrap();
    let (mut apart, mut agree, mut hits) = (0, 0, 0);
    for i in 0..N {
        if A::contact_reference(&va[i], &vb[i]).is_some() {
            continue;
        }
        apart += 1;
        let ours = sweeps.get(i).map(|s| s.t);
        hits += usize::from(ours.is_some());
        agree += usize::from(match (ours, peer(&pa[i], &pb[i], vm[i])) {
            (None, None) => true,
            (Some(x), Some(y)) => (x - y).abs() * 2.0 <= 1e-3,
            _ => false,
        });
    }
    assert!(
        apart * 4 > N && hits * 20 > apart && agree * 100 >= apart * 99,
        "{name}: of {apart} pairs apart ({hits} hits), parry2d agrees on {agree}"
    );

    let mut answers: Vec<Option<Sweep>> = vec![None; N];
    let mut theirs: Vec<Option<f32>> = vec![None; N];
    let mut group = c.benchmark_group(format!("sweep/{name}"));
    group.throughput(Throughput::Elements(N as u64));
    group
        .sample_size(30)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    group.bench_function("x8", |bench| {
        bench.iter(|| {
            batch_sweep_at::<f32x8, _, _>(black_box(&a), black_box(&b), &motions, &mut sweeps)
                .unwrap()
        })
    });
    group.bench_function("x16", |bench| {
        bench.iter(|| {
            batch_sweep_at::<f32x16, _, _>(black_box(&a), black_box(&b), &motions, &mut sweeps)
                .unwrap()
        })
    });
    group.bench_function("reference", |bench| {
        bench.iter(|| {
            for (((out, x), y), &m) in answers.iter_mut().zip(&va).zip(&vb).zip(&vm) {
                *out = reference(black_box(x), y, m);
            }
        })
    });
    group.bench_function("parry2d", |bench| {
        bench.iter(|| {
            for (((out, x), y), &m) in theirs.iter_mut().zip(&pa).zip(&pb).zip(&vm) {
                *out = peer(black_box(x), y, m);
            }
        })
    });
    group.finish();
}

macro_rules! sweep_benches {
    (
        distinct { $($d:ident: $A:ty, $B:ty;)* }
        same { $($s:ident: $S:ty;)* }
        casts { $($c:ident: $C:ty;)* }
    ) => {
        fn sweeps(c: &mut Criterion) {
            $( bench_sweep::<$A, $B>(c, stringify!($d), sweep_reference::$d); )*
            $( bench_sweep::<$S, $S>(c, stringify!($s), sweep_reference::$s); )*
            // The character controller's pair: a capsule moving against boxes.
            bench_sweep::<widephase::Capsules, widephase::Aabbs>(
                c,
                "capsule_aabb",
                <widephase::Capsules as SweepPair<widephase::Aabbs>>::sweep_reference,
            );
        }
    };
}

pair_table!(sweep_benches);

/// `par_batch_sweep` against `batch_sweep` over 4 Mi circle–AABB pairs (streaming from memory),
/// next to `par_batch_contact` against `batch_contact` on the same pairs: the speed-up of each
/// on rayon's threads (all of the machine's).
fn threads(c: &mut Criterion) {
    use widephase::{Aabbs, Circles, Contacts, batch_contact, par_batch_contact, par_batch_sweep};
    const M: usize = 4 << 20;
    let a: Circles = shapes(M, 1).into_iter().collect();
    let b: Aabbs = shapes(M, 2).into_iter().collect();
    let mut g = Gen::new(3);
    let motions: Motions = (0..M)
        .map(|_| [g.uniform(-2.0, 2.0), g.uniform(-2.0, 2.0)])
        .collect();
    let (mut sweeps, mut contacts) = (Sweeps::new(), Contacts::new());
    let mut group = c.benchmark_group("threads/circle_aabb/4M");
    group.throughput(Throughput::Elements(M as u64));
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    group.bench_function("batch_sweep", |bench| {
        bench.iter(|| batch_sweep(black_box(&a), &b, &motions, &mut sweeps).unwrap())
    });
    group.bench_function("par_batch_sweep", |bench| {
        bench.iter(|| par_batch_sweep(black_box(&a), &b, &motions, &mut sweeps).unwrap())
    });
    group.bench_function("batch_contact", |bench| {
        bench.iter(|| batch_contact(black_box(&a), &b, &mut contacts).unwrap())
    });
    group.bench_function("par_batch_contact", |bench| {
        bench.iter(|| par_batch_contact(black_box(&a), &b, &mut contacts).unwrap())
    });
    group.finish();
}

criterion_group!(benches, sweeps, threads);
criterion_main!(benches);

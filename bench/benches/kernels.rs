//! Throughput of every pair kernel and ray cast, at eight lanes ("x8", `batch_test_at::<f32x8>`)
//! and at sixteen ("x16"; `batch_test` runs the build's width, sixteen with AVX-512, so one of
//! the two is exactly `batch_test`), next to its scalar reference in a plain loop and next to
//! parry2d on the same shapes, at 4096 pairs (in cache) and 4 Mi pairs (streaming from
//! memory), plus, at 4 Mi, a loop that only reads the bytes the kernel reads (the
//! memory-bandwidth bound).
//!
//! `cargo bench -p widephase-bench --bench kernels` (filter with e.g. `-- circle_aabb/4k`). Elements are pairs.

mod support;

use criterion::{
    BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main, measurement::WallTime,
};
use parry2d::math::Pose;
use parry2d::query::{
    ContactManifold, ContactManifoldsWorkspace, DefaultQueryDispatcher, PersistentQueryDispatcher,
};
use parry2d::shape::Shape;
use std::hint::black_box;
use std::time::Duration;
use support::{ParryTwin, Peer, Solid, shapes};
use widephase::wide::{f32x8, f32x16};
use widephase::{
    Contact, ContactPair, Contacts, HitMask, Manifold, ManifoldPair, Manifolds, Overlaps, Ray,
    RayCast, Rays, ShapeSoa, batch_contact, batch_contact_at, batch_manifold, batch_manifold_at,
    batch_raycast, batch_raycast_at, batch_test, batch_test_at, contact_reference,
    manifold_reference, pair_table, reference,
};

const IN_CACHE: usize = 4096;
const STREAMING: usize = 4 << 20;

/// Packs one answer per pair into 64-bit words, as `HitMask` does, so every contender produces
/// the same output.
fn pack(words: &mut [u64], answers: impl Iterator<Item = bool>) {
    for (i, hit) in answers.enumerate() {
        words[i / 64] |= u64::from(hit) << (i % 64);
    }
}

/// The kernel of `A` against `B` next to its reference and parry2d (`intersection_test`, or
/// `contains_point` for points).
fn bench_pair<A, B>(c: &mut Criterion, name: &str, reference: fn(&A::Shape, &B::Shape) -> bool)
where
    A: Overlaps<B> + FromIterator<A::Shape>,
    B: ShapeSoa + FromIterator<B::Shape>,
    A::Shape: Peer<B::Shape>,
    B::Shape: ParryTwin,
{
    let peer = <A::Shape as Peer<B::Shape>>::overlaps;
    for (n, label) in [(IN_CACHE, "4k"), (STREAMING, "4M")] {
        let va: Vec<A::Shape> = shapes(n, 1);
        let vb: Vec<B::Shape> = shapes(n, 2);
        let a: A = va.iter().copied().collect();
        let b: B = vb.iter().copied().collect();
        let pa: Vec<_> = va.iter().map(ParryTwin::to_parry).collect();
        let pb: Vec<_> = vb.iter().map(ParryTwin::to_parry).collect();
        let mut words = vec![0u64; n.div_ceil(64)];
        let mut hits = HitMask::new();

        let mut group = c.benchmark_group(format!("{name}/{label}"));
        group.throughput(Throughput::Elements(n as u64));
        configure(&mut group, n);
        group.bench_function("x8", |bench| {
            bench.iter(|| {
                batch_test_at::<f32x8, _, _>(black_box(&a), black_box(&b), &mut hits).unwrap()
            })
        });
        group.bench_function("x16", |bench| {
            bench.iter(|| {
                batch_test_at::<f32x16, _, _>(black_box(&a), black_box(&b), &mut hits).unwrap()
            })
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

/// Ray casts: one entry parameter per ray, `f32::INFINITY` for a miss, from every contender.
fn bench_cast<S>(c: &mut Criterion, name: &str, reference: fn(&Ray, &S::Shape) -> f32)
where
    S: RayCast + FromIterator<S::Shape>,
    S::Shape: ParryTwin,
    <S::Shape as ParryTwin>::Parry: Shape,
{
    use parry2d::query::RayCast as _;
    for (n, label) in [(IN_CACHE, "4k"), (STREAMING, "4M")] {
        let vr: Vec<Ray> = shapes(n, 3);
        let vs: Vec<S::Shape> = shapes(n, 4);
        let rays: Rays = vr.iter().copied().collect();
        let s: S = vs.iter().copied().collect();
        let pr: Vec<_> = vr.iter().map(ParryTwin::to_parry).collect();
        let ps: Vec<_> = vs.iter().map(ParryTwin::to_parry).collect();
        let peer = |r: &(Pose, parry2d::query::Ray),
                    max_t: f32,
                    s: &(Pose, <S::Shape as ParryTwin>::Parry)| {
            s.1.cast_ray(&s.0, &r.1, max_t, true)
                .unwrap_or(f32::INFINITY)
        };
        let mut out = Vec::new();
        let mut t = vec![0.0f32; n];

        let mut group = c.benchmark_group(format!("{name}/{label}"));
        group.throughput(Throughput::Elements(n as u64));
        configure(&mut group, n);
        group.bench_function("x8", |bench| {
            bench.iter(|| {
                batch_raycast_at::<f32x8, _>(black_box(&rays), black_box(&s), &mut out).unwrap()
            })
        });
        group.bench_function("x16", |bench| {
            bench.iter(|| {
                batch_raycast_at::<f32x16, _>(black_box(&rays), black_box(&s), &mut out).unwrap()
            })
        });
        group.bench_function("reference", |bench| {
            bench.iter(|| {
                for ((t, r), x) in t.iter_mut().zip(&vr).zip(&vs) {
                    *t = reference(black_box(r), x);
                }
            })
        });
        group.bench_function("parry2d", |bench| {
            bench.iter(|| {
                for (((t, r), x), ray) in t.iter_mut().zip(&pr).zip(&ps).zip(&vr) {
                    *t = peer(black_box(r), ray.max_t, x);
                }
            })
        });
        if n == STREAMING {
            group.bench_function("read-only", |bench| bench.iter(|| read_only(&rays, &s)));
        }
        group.finish();
        // The contenders must agree on hit or miss, and on where, or the comparison is
        // meaningless.
        batch_raycast(&rays, &s, &mut out).unwrap();
        let agree = (0..n)
            .filter(|&i| {
                let theirs = peer(&pr[i], vr[i].max_t, &ps[i]);
                match (out[i] < f32::INFINITY, theirs < f32::INFINITY) {
                    (true, true) => (out[i] - theirs).abs() <= 1e-3 * (1.0 + theirs.abs()),
                    (false, false) => true,
                    _ => false,
                }
            })
            .count();
        let hits = out.iter().filter(|t| t.is_finite()).count();
        assert!(
            agree * 1000 >= n * 999,
            "{name}: parry2d agrees on only {agree} of {n}"
        );
        assert!(
            hits * 5 > n && hits * 5 < n * 4,
            "{name}: {hits} hits of {n}"
        );
    }
}

/// `n` ordinary pairs as scalar shapes, as containers and as parry2d solids.
struct Solids<A: ShapeSoa, B: ShapeSoa> {
    va: Vec<A::Shape>,
    vb: Vec<B::Shape>,
    a: A,
    b: B,
    pa: Vec<(Pose, parry2d::shape::SharedShape)>,
    pb: Vec<(Pose, parry2d::shape::SharedShape)>,
}

/// The inputs of the contact and manifold benches: seeds 1 and 2, as every kernel bench.
fn solids<A, B>(n: usize) -> Solids<A, B>
where
    A: ShapeSoa + FromIterator<A::Shape>,
    B: ShapeSoa + FromIterator<B::Shape>,
    A::Shape: Solid + ParryTwin,
    B::Shape: Solid + ParryTwin,
{
    let va: Vec<A::Shape> = shapes(n, 1);
    let vb: Vec<B::Shape> = shapes(n, 2);
    Solids {
        a: va.iter().copied().collect(),
        b: vb.iter().copied().collect(),
        pa: va.iter().map(Solid::solid).collect(),
        pb: vb.iter().map(Solid::solid).collect(),
        va,
        vb,
    }
}

/// Contacts of `A` against `B`, 4096 pairs in cache: `batch_contact` at eight and sixteen lanes
/// next to `batch_test` (the build's width) on the same pairs (what a contact costs over the
/// overlap bit), the scalar reference, and
/// parry2d's `query::contact` (prediction 0: contacts of overlapping pairs only).
fn bench_contact<A, B>(
    c: &mut Criterion,
    name: &str,
    reference: fn(&A::Shape, &B::Shape) -> Option<Contact>,
) where
    A: ContactPair<B> + FromIterator<A::Shape>,
    B: ShapeSoa + FromIterator<B::Shape>,
    A::Shape: Solid + ParryTwin,
    B::Shape: Solid + ParryTwin,
{
    let n = IN_CACHE;
    let Solids {
        va,
        vb,
        a,
        b,
        pa,
        pb,
    } = solids::<A, B>(n);
    let peer = |(p1, s1): &(Pose, parry2d::shape::SharedShape),
                (p2, s2): &(Pose, parry2d::shape::SharedShape)| {
        parry2d::query::contact(p1, &*s1.0, p2, &*s2.0, 0.0)
            .unwrap()
            .map(|c| (c.normal1, -c.dist))
    };
    let (mut contacts, mut hits) = (Contacts::new(), HitMask::new());
    let mut answers: Vec<Option<Contact>> = vec![None; n];
    let mut theirs = vec![None; n];

    // The contenders must agree on the depth of the pairs both call overlapping (parry2d's
    // normal may differ where two axes tie), or the comparison is meaningless. parry2d 0.31 is
    // wrong on some capsule depths (no penetration for crossing capsules, too shallow deep in
    // boxes; the tests judge capsules by an independent f64 check instead), so there nine in
    // ten must agree.
    batch_contact(&a, &b, &mut contacts).unwrap();
    let (mut both, mut agree) = (0, 0);
    for (i, c) in contacts.iter() {
        if let Some((_, depth)) = peer(&pa[i], &pb[i]) {
            both += 1;
            agree += usize::from((depth - c.depth).abs() <= 1e-3);
        }
    }
    let share = if A::Shape::CONTACT_PEER && B::Shape::CONTACT_PEER {
        99
    } else {
        90
    };
    assert!(
        both * 20 > n && agree * 100 >= both * share,
        "{name}: parry2d agrees on the depth of {agree} of {both} contacts"
    );

    let mut group = c.benchmark_group(format!("contact/{name}"));
    group.throughput(Throughput::Elements(n as u64));
    configure(&mut group, n);
    group.bench_function("x8", |bench| {
        bench.iter(|| {
            batch_contact_at::<f32x8, _, _>(black_box(&a), black_box(&b), &mut contacts).unwrap()
        })
    });
    group.bench_function("x16", |bench| {
        bench.iter(|| {
            batch_contact_at::<f32x16, _, _>(black_box(&a), black_box(&b), &mut contacts).unwrap()
        })
    });
    group.bench_function("overlap", |bench| {
        bench.iter(|| batch_test(black_box(&a), black_box(&b), &mut hits).unwrap())
    });
    group.bench_function("reference", |bench| {
        bench.iter(|| {
            for ((out, x), y) in answers.iter_mut().zip(&va).zip(&vb) {
                *out = reference(black_box(x), y);
            }
        })
    });
    group.bench_function("parry2d", |bench| {
        bench.iter(|| {
            for ((out, x), y) in theirs.iter_mut().zip(&pa).zip(&pb) {
                *out = peer(black_box(x), y);
            }
        })
    });
    group.finish();
}

/// The manifold kernel of `A` against `B` at both widths (`batch_manifold_at`-like: the batch
/// function at this build's width is exactly one of them), next to `batch_contact` on the same
/// pairs, the scalar reference in a plain loop, and parry2d's contact-manifold generation
/// (`PersistentQueryDispatcher::contact_manifolds` of its default dispatcher, prediction 0, one
/// kept manifold list per pair, as a physics engine keeps them), 4096 pairs.
fn bench_manifold<A, B>(
    c: &mut Criterion,
    name: &str,
    reference: fn(&A::Shape, &B::Shape) -> Option<Manifold>,
) where
    A: ManifoldPair<B> + FromIterator<A::Shape>,
    B: ShapeSoa + FromIterator<B::Shape>,
    A::Shape: Solid + ParryTwin,
    B::Shape: Solid + ParryTwin,
{
    let n = IN_CACHE;
    let Solids {
        va,
        vb,
        a,
        b,
        pa,
        pb,
    } = solids::<A, B>(n);
    let mut kept: Vec<Vec<ContactManifold<(), ()>>> = vec![Vec::new(); n];
    let mut spaces: Vec<Option<ContactManifoldsWorkspace>> = (0..n).map(|_| None).collect();
    let (mut manifolds, mut contacts) = (Manifolds::new(), Contacts::new());
    let mut answers: Vec<Option<Manifold>> = vec![None; n];

    // Both must find points for the pairs both call overlapping, or the race is meaningless.
    batch_manifold(&a, &b, &mut manifolds).unwrap();
    let (mut both, mut ours) = (0, 0);
    // parry2d's manifolds of pair `i` into its kept list.
    let peer = |i: usize,
                kept: &mut [Vec<ContactManifold<(), ()>>],
                spaces: &mut [Option<ContactManifoldsWorkspace>]| {
        let ((p1, s1), (p2, s2)) = (&pa[i], &pb[i]);
        DefaultQueryDispatcher
            .contact_manifolds(
                &p1.inv_mul(p2),
                &*s1.0,
                black_box(&*s2.0),
                0.0,
                &mut kept[i],
                &mut spaces[i],
            )
            .unwrap();
    };
    for i in 0..n {
        peer(i, &mut kept, &mut spaces);
        let theirs = kept[i].iter().any(|m| !m.points.is_empty());
        ours += usize::from(manifolds.hits().get(i));
        both += usize::from(theirs && manifolds.hits().get(i));
    }
    assert!(
        both * 10 >= ours * 9,
        "{name}: parry2d finds points for {both} of our {ours} hits"
    );

    let mut group = c.benchmark_group(format!("manifold/{name}"));
    group.throughput(Throughput::Elements(n as u64));
    configure(&mut group, n);
    group.bench_function("x8", |bench| {
        bench.iter(|| {
            batch_manifold_at::<f32x8, _, _>(black_box(&a), black_box(&b), &mut manifolds).unwrap()
        })
    });
    group.bench_function("x16", |bench| {
        bench.iter(|| {
            batch_manifold_at::<f32x16, _, _>(black_box(&a), black_box(&b), &mut manifolds).unwrap()
        })
    });
    group.bench_function("contact", |bench| {
        bench.iter(|| batch_contact(black_box(&a), black_box(&b), &mut contacts).unwrap())
    });
    group.bench_function("reference", |bench| {
        bench.iter(|| {
            for ((out, x), y) in answers.iter_mut().zip(&va).zip(&vb) {
                *out = reference(black_box(x), y);
            }
        })
    });
    group.bench_function("parry2d", |bench| {
        bench.iter(|| {
            for i in 0..n {
                peer(i, &mut kept, &mut spaces);
            }
        })
    });
    group.finish();
}

/// Every pair kind of the pair table (a distinct pair in its file's order) and every ray cast.
macro_rules! bench_all {
    (
        distinct { $($d:ident: $A:ty, $B:ty;)* }
        same { $($s:ident: $S:ty;)* }
        casts { $($c:ident: $C:ty;)* }
    ) => {
        fn kernels(c: &mut Criterion) {
            $(bench_pair::<$A, $B>(c, stringify!($d), reference::$d);)*
            $(bench_pair::<$S, $S>(c, stringify!($s), reference::$s);)*
            $(bench_cast::<$C>(c, stringify!($c), reference::$c);)*
        }

        fn contacts(c: &mut Criterion) {
            $(bench_contact::<$A, $B>(c, stringify!($d), contact_reference::$d);)*
            $(bench_contact::<$S, $S>(c, stringify!($s), contact_reference::$s);)*
        }

        fn manifolds(c: &mut Criterion) {
            $(bench_manifold::<$A, $B>(c, stringify!($d), manifold_reference::$d);)*
            $(bench_manifold::<$S, $S>(c, stringify!($s), manifold_reference::$s);)*
        }
    };
}

pair_table!(bench_all);

criterion_group!(benches, kernels, contacts, manifolds);
criterion_main!(benches);

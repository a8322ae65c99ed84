//! Differential fuzzer: every kernel at eight and at sixteen lanes (through `batch_test_at`, the
//! contact kernels through `batch_contact_at`, the manifolds through `batch_manifold_at`, the
//! sweeps, both orders, through `batch_sweep_at` (`fuzz/sweeps.rs`), and the ray casts through
//! `batch_raycast_at`, each batch at both widths) against its scalar reference on seeded random
//! batches, on all cores, until a time or pair budget runs out. Any disagreement is a bug: the
//! kernels promise the reference's exact answer on every input (for contacts, the same hit and
//! the same bits of normal and depth; for sweeps, of `t` and normal; for ray casts, the same
//! bits of the entry parameter).
//!
//! ```text
//! cargo run --release -p widephase-tools --example fuzz -- --seconds 60
//!     [--pairs N]      stop after about N pairs in all (default: no limit)
//!     [--seed S]       first batch seed (default: from the clock; printed)
//!     [--kind K]       one kind, e.g. circle_aabb, contact_circle_aabb, sweep_circle_aabb,
//!                      sweep_circle_aabb_swapped or ray_polygon (default: all)
//!     [--batch N]      pairs per batch (default 65536)
//!     [--replay FILE]  re-run a reproducer written by an earlier run
//! ```
//!
//! On a mismatch it prints a reproducer (kind, seed, index, both shapes as Rust literals and as
//! raw bits), writes it to `fuzz-repro-<kind>-<seed>.txt`, and exits with status 1.

#[path = "fuzz/replay.rs"]
mod replay;
#[path = "../../tests/support/shapes.rs"]
mod shapes;
#[path = "fuzz/sweeps.rs"]
mod sweeps;

use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use replay::{replay_cast, replay_contact, replay_manifold, replay_pair};
use shapes::{Arbitrary, Gen, manifold_bits};
use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};
use widephase::wide::{f32x8, f32x16};
use widephase::{
    Contact, ContactPair, Contacts, HitMask, Manifold, ManifoldPair, Manifolds, Overlaps, Ray,
    RayCast, Rays, SIMD_BACKEND, ShapeSoa, batch_contact_at, batch_manifold_at, batch_raycast_at,
    batch_test_at, contact_reference, manifold_reference, pair_table, reference,
};

/// One disagreement between a kernel and its reference.
pub(crate) struct Mismatch {
    kind: &'static str,
    seed: u64,
    batch: usize,
    index: usize,
    kernel: String,
    reference: String,
    a: String,
    b: String,
    a_bits: Vec<u32>,
    b_bits: Vec<u32>,
}

impl Mismatch {
    /// The mismatch of pair `index` of a batch of `batch` pairs (`a`, `b`), with what the
    /// kernel and the reference answered.
    #[allow(clippy::too_many_arguments)]
    fn new<A: Arbitrary, B: Arbitrary>(
        kind: &'static str,
        seed: u64,
        batch: usize,
        index: usize,
        a: &A,
        b: &B,
        kernel: String,
        reference: String,
    ) -> Self {
        Self {
            kind,
            seed,
            batch,
            index,
            kernel,
            reference,
            a: shapes::rust_literal(a),
            b: shapes::rust_literal(b),
            a_bits: field_bits(a),
            b_bits: field_bits(b),
        }
    }
}

/// The first pair `i` of `va`, `vb` whose answers at eight and sixteen lanes (`lanes(i)`) are
/// not the reference's (`reference(i)`), compared by `key` (their bits, so that NaN and -0 compare too), as a
/// mismatch of batch `seed` of kind `kind`.
pub(crate) fn first_mismatch<SA: Arbitrary, SB: Arbitrary, T: core::fmt::Debug, K: PartialEq>(
    (kind, seed): (&'static str, u64),
    (va, vb): (&[SA], &[SB]),
    lanes: impl Fn(usize) -> (T, T),
    reference: impl Fn(usize) -> T,
    key: impl Fn(&T) -> K,
) -> Option<Mismatch> {
    (0..va.len()).find_map(|i| {
        let want = reference(i);
        let (x8, x16) = lanes(i);
        (key(&x8) != key(&want) || key(&x16) != key(&want)).then(|| {
            Mismatch::new(
                kind,
                seed,
                va.len(),
                i,
                &va[i],
                &vb[i],
                format!("{x8:?} at 8 lanes, {x16:?} at 16"),
                format!("{want:?}"),
            )
        })
    })
}

/// Runs one seeded batch of `n` pairs of kind `A`–`B`; the first mismatch, if any.
fn batch<A, B>(
    kind: &'static str,
    seed: u64,
    n: usize,
    reference: fn(&A::Shape, &B::Shape) -> bool,
) -> Option<Mismatch>
where
    A: Overlaps<B> + FromIterator<A::Shape>,
    B: ShapeSoa + FromIterator<B::Shape>,
    A::Shape: Arbitrary,
    B::Shape: Arbitrary,
{
    let (va, vb) = Gen::new(seed).pairs::<A::Shape, B::Shape>(n);
    let a: A = va.iter().copied().collect();
    let b: B = vb.iter().copied().collect();
    let (mut eight, mut sixteen) = (HitMask::new(), HitMask::new());
    batch_test_at::<f32x8, _, _>(&a, &b, &mut eight).expect("equal lengths");
    batch_test_at::<f32x16, _, _>(&a, &b, &mut sixteen).expect("equal lengths");
    for hits in [&eight, &sixteen] {
        let tail_clean =
            n.is_multiple_of(64) || hits.words().last().is_none_or(|w| w >> (n % 64) == 0);
        assert!(
            tail_clean,
            "{kind} seed {seed}: HitMask bits set past len()"
        );
    }
    first_mismatch(
        (kind, seed),
        (&va, &vb),
        |i| (eight.get(i), sixteen.get(i)),
        |i| reference(&va[i], &vb[i]),
        |&hit| hit,
    )
}

/// A contact's bits: `None`, or the bits of normal and depth.
fn contact_bits(c: Option<Contact>) -> Option<[u32; 3]> {
    c.map(|c| {
        [
            c.normal[0].to_bits(),
            c.normal[1].to_bits(),
            c.depth.to_bits(),
        ]
    })
}

/// Runs one seeded batch of `n` contacts of kind `A`–`B`; the first mismatch (in the hit or in
/// the bits of normal and depth), if any.
fn batch_contacts<A, B>(
    kind: &'static str,
    seed: u64,
    n: usize,
    reference: fn(&A::Shape, &B::Shape) -> Option<Contact>,
) -> Option<Mismatch>
where
    A: ContactPair<B> + FromIterator<A::Shape>,
    B: ShapeSoa + FromIterator<B::Shape>,
    A::Shape: Arbitrary,
    B::Shape: Arbitrary,
{
    let (va, vb) = Gen::new(seed).pairs::<A::Shape, B::Shape>(n);
    let a: A = va.iter().copied().collect();
    let b: B = vb.iter().copied().collect();
    let (mut eight, mut sixteen) = (Contacts::new(), Contacts::new());
    batch_contact_at::<f32x8, _, _>(&a, &b, &mut eight).expect("equal lengths");
    batch_contact_at::<f32x16, _, _>(&a, &b, &mut sixteen).expect("equal lengths");
    first_mismatch(
        (kind, seed),
        (&va, &vb),
        |i| (eight.get(i), sixteen.get(i)),
        |i| reference(&va[i], &vb[i]),
        |&c| contact_bits(c),
    )
}

/// Runs one seeded batch of `n` manifolds of kind `A`–`B` at both widths; the first mismatch
/// with the reference, if any.
fn batch_manifolds<A, B>(
    kind: &'static str,
    seed: u64,
    n: usize,
    reference: fn(&A::Shape, &B::Shape) -> Option<Manifold>,
) -> Option<Mismatch>
where
    A: ManifoldPair<B> + FromIterator<A::Shape>,
    B: ShapeSoa + FromIterator<B::Shape>,
    A::Shape: Arbitrary,
    B::Shape: Arbitrary,
{
    let (va, vb) = Gen::new(seed).pairs::<A::Shape, B::Shape>(n);
    let a: A = va.iter().copied().collect();
    let b: B = vb.iter().copied().collect();
    let (mut eight, mut sixteen) = (Manifolds::new(), Manifolds::new());
    batch_manifold_at::<f32x8, _, _>(&a, &b, &mut eight).expect("equal lengths");
    batch_manifold_at::<f32x16, _, _>(&a, &b, &mut sixteen).expect("equal lengths");
    first_mismatch(
        (kind, seed),
        (&va, &vb),
        |i| (eight.get(i), sixteen.get(i)),
        |i| reference(&va[i], &vb[i]),
        |&m| manifold_bits(m),
    )
}

fn field_bits<S: bytemuck::Pod>(s: &S) -> Vec<u32> {
    bytemuck::cast_slice(core::slice::from_ref(s)).to_vec()
}

pub(crate) fn from_bits<S: bytemuck::Pod>(bits: &[u32]) -> Option<S> {
    bytemuck::try_cast_slice::<u32, S>(bits)
        .ok()?
        .first()
        .copied()
}

/// Runs one seeded batch of `n` rays cast against shapes of kind `S`; the first mismatch (in
/// the bits of the entry parameter), if any.
fn batch_cast<S>(
    kind: &'static str,
    seed: u64,
    n: usize,
    reference: fn(&Ray, &S::Shape) -> f32,
) -> Option<Mismatch>
where
    S: RayCast + FromIterator<S::Shape>,
    S::Shape: Arbitrary,
{
    let (vr, vs) = Gen::new(seed).pairs::<Ray, S::Shape>(n);
    let rays: Rays = vr.iter().copied().collect();
    let shapes: S = vs.iter().copied().collect();
    let (mut eight, mut sixteen) = (Vec::new(), Vec::new());
    batch_raycast_at::<f32x8, _>(&rays, &shapes, &mut eight).expect("equal lengths");
    batch_raycast_at::<f32x16, _>(&rays, &shapes, &mut sixteen).expect("equal lengths");
    first_mismatch(
        (kind, seed),
        (&vr, &vs),
        |i| (eight[i], sixteen[i]),
        |i| reference(&vr[i], &vs[i]),
        |t| t.to_bits(),
    )
}

/// A pair kind: its name, its batch runner and its replayer.
struct Kind {
    name: &'static str,
    run: fn(u64, usize) -> Option<Mismatch>,
    replay: fn(&[u32], &[u32]) -> Result<bool, String>,
}

/// Every pair kind of the pair table (a distinct pair in its file's order) and every ray cast.
macro_rules! kinds {
    (
        distinct { $($d:ident: $A:ty, $B:ty;)* }
        same { $($s:ident: $S:ty;)* }
        casts { $($c:ident: $C:ty;)* }
    ) => {
        vec![
            $(Kind {
                name: stringify!($d),
                run: |seed, n| batch::<$A, $B>(stringify!($d), seed, n, reference::$d),
                replay: |a, b| replay_pair::<$A, $B>(a, b, reference::$d),
            },)*
            $(Kind {
                name: stringify!($s),
                run: |seed, n| batch::<$S, $S>(stringify!($s), seed, n, reference::$s),
                replay: |a, b| replay_pair::<$S, $S>(a, b, reference::$s),
            },)*
            $(Kind {
                name: concat!("contact_", stringify!($d)),
                run: |seed, n| {
                    batch_contacts::<$A, $B>(concat!("contact_", stringify!($d)), seed, n, contact_reference::$d)
                },
                replay: |a, b| replay_contact::<$A, $B>(a, b, contact_reference::$d),
            },)*
            $(Kind {
                name: concat!("contact_", stringify!($s)),
                run: |seed, n| {
                    batch_contacts::<$S, $S>(concat!("contact_", stringify!($s)), seed, n, contact_reference::$s)
                },
                replay: |a, b| replay_contact::<$S, $S>(a, b, contact_reference::$s),
            },)*
            $(Kind {
                name: concat!("manifold_", stringify!($d)),
                run: |seed, n| {
                    batch_manifolds::<$A, $B>(concat!("manifold_", stringify!($d)), seed, n, manifold_reference::$d)
                },
                replay: |a, b| replay_manifold::<$A, $B>(a, b, manifold_reference::$d),
            },)*
            $(Kind {
                name: concat!("manifold_", stringify!($s)),
                run: |seed, n| {
                    batch_manifolds::<$S, $S>(concat!("manifold_", stringify!($s)), seed, n, manifold_reference::$s)
                },
                replay: |a, b| replay_manifold::<$S, $S>(a, b, manifold_reference::$s),
            },)*
            $(Kind {
                name: concat!("sweep_", stringify!($d)),
                run: |seed, n| sweeps::batch_sweeps::<$A, $B>(concat!("sweep_", stringify!($d)), seed, n),
                replay: |a, b| sweeps::replay_sweep::<$A, $B>(a, b),
            },)*
            $(Kind {
                name: concat!("sweep_", stringify!($d), "_swapped"),
                run: |seed, n| {
                    sweeps::batch_sweeps::<$B, $A>(concat!("sweep_", stringify!($d), "_swapped"), seed, n)
                },
                replay: |a, b| sweeps::replay_sweep::<$B, $A>(a, b),
            },)*
            $(Kind {
                name: concat!("sweep_", stringify!($s)),
                run: |seed, n| sweeps::batch_sweeps::<$S, $S>(concat!("sweep_", stringify!($s)), seed, n),
                replay: |a, b| sweeps::replay_sweep::<$S, $S>(a, b),
            },)*
            $(Kind {
                name: stringify!($c),
                run: |seed, n| batch_cast::<$C>(stringify!($c), seed, n, reference::$c),
                replay: |a, b| replay_cast::<$C>(a, b, reference::$c),
            },)*
        ]
    };
}

fn all_kinds() -> Vec<Kind> {
    pair_table!(kinds)
}

/// The reproducer text: comments for people, `key value` lines for `--replay`.
fn reproducer(m: &Mismatch) -> String {
    let hex = |bits: &[u32]| {
        bits.iter()
            .map(|b| format!("{b:#010x}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# widephase fuzz mismatch: kernel says {}, reference says {}",
        m.kernel, m.reference
    );
    let _ = writeln!(s, "# a = {}", m.a);
    let _ = writeln!(s, "# b = {}", m.b);
    let _ = writeln!(
        s,
        "# regenerate: cargo run --release -p widephase-tools --example fuzz -- --kind {} --seed {} --batch {} --pairs 1",
        m.kind, m.seed, m.batch
    );
    let _ = writeln!(s, "kind {}", m.kind);
    let _ = writeln!(s, "seed {}", m.seed);
    let _ = writeln!(s, "index {}", m.index);
    let _ = writeln!(s, "a {}", hex(&m.a_bits));
    let _ = writeln!(s, "b {}", hex(&m.b_bits));
    s
}

struct Options {
    seconds: Option<f64>,
    pairs: Option<u64>,
    seed: u64,
    kind: Option<String>,
    batch: usize,
    replay: Option<String>,
}

fn usage(problem: &str) -> ! {
    eprintln!("fuzz: {problem}");
    eprintln!(
        "usage: fuzz [--seconds S] [--pairs N] [--seed S] [--kind K] [--batch N] [--replay FILE]"
    );
    let names: Vec<_> = all_kinds().iter().map(|k| k.name).collect();
    eprintln!("kinds: {}", names.join(", "));
    std::process::exit(2)
}

fn parse_options() -> Options {
    let mut o = Options {
        seconds: None,
        pairs: None,
        seed: std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs()),
        kind: None,
        batch: 1 << 16,
        replay: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut value = || {
            args.next()
                .unwrap_or_else(|| usage(&format!("{flag} needs a value")))
        };
        fn num<T: std::str::FromStr>(flag: &str, v: String) -> T {
            v.parse()
                .unwrap_or_else(|_| usage(&format!("{flag} takes a number, got {v:?}")))
        }
        match flag.as_str() {
            "--seconds" => o.seconds = Some(num(&flag, value())),
            "--pairs" => o.pairs = Some(num(&flag, value())),
            "--seed" => o.seed = num(&flag, value()),
            "--batch" => o.batch = num::<usize>(&flag, value()).max(1),
            "--kind" => o.kind = Some(value()),
            "--replay" => o.replay = Some(value()),
            "-h" | "--help" => usage(
                "differential fuzzer, every kernel at 8 and 16 lanes against the scalar reference",
            ),
            other => usage(&format!("unknown option {other:?}")),
        }
    }
    if o.seconds.is_none() && o.pairs.is_none() && o.replay.is_none() {
        o.seconds = Some(60.0);
    }
    o
}

fn replay(path: &str) -> ! {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| usage(&format!("cannot read {path}: {e}")));
    let field = |key: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(key).and_then(|rest| rest.strip_prefix(' ')))
            .unwrap_or_else(|| usage(&format!("{path} has no `{key}` line")))
    };
    let bits = |key: &str| -> Vec<u32> {
        field(key)
            .split_whitespace()
            .map(|h| {
                u32::from_str_radix(h.trim_start_matches("0x"), 16)
                    .unwrap_or_else(|_| usage(&format!("bad hex {h:?} in {path}")))
            })
            .collect()
    };
    let name = field("kind");
    let kind = all_kinds()
        .into_iter()
        .find(|k| k.name == name)
        .unwrap_or_else(|| usage(&format!("unknown kind {name:?} in {path}")));
    println!(
        "replaying {path}: {name}, seed {}, index {}, SIMD backend {SIMD_BACKEND}",
        field("seed"),
        field("index")
    );
    match (kind.replay)(&bits("a"), &bits("b")) {
        Ok(true) => {
            println!("kernel and reference agree");
            std::process::exit(0)
        }
        Ok(false) => {
            println!("MISMATCH reproduced");
            std::process::exit(1)
        }
        Err(e) => usage(&format!("{path}: {e}")),
    }
}

fn main() {
    let options = parse_options();
    if let Some(path) = &options.replay {
        replay(path);
    }
    let kinds: Vec<Kind> = match &options.kind {
        None => all_kinds(),
        Some(name) => match all_kinds().into_iter().find(|k| k.name == name) {
            Some(k) => vec![k],
            None => usage(&format!("unknown kind {name:?}")),
        },
    };
    let threads = rayon::current_num_threads();
    println!(
        "fuzzing {} kind(s), {} pairs per batch, first seed {}, {threads} threads, SIMD backend {SIMD_BACKEND}",
        kinds.len(),
        options.batch,
        options.seed
    );

    let deadline = options
        .seconds
        .map(|s| Instant::now() + Duration::from_secs_f64(s));
    let bar = match (options.seconds, options.pairs) {
        (Some(s), _) => ProgressBar::new((s * 1000.0) as u64).with_style(
            ProgressStyle::with_template("{bar:40} {elapsed}/{duration} {msg}")
                .expect("valid template"),
        ),
        (None, Some(p)) => ProgressBar::new(p).with_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} pairs, {elapsed} {msg}")
                .expect("valid template"),
        ),
        (None, None) => unreachable!("a budget is always set"),
    };
    let per_kind: Vec<AtomicU64> = kinds.iter().map(|_| AtomicU64::new(0)).collect();
    let total = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let start = Instant::now();
    let mut first: Option<Mismatch> = None;
    let mut round = 0u64;

    while first.is_none() && !stop.load(Ordering::Relaxed) {
        // One round: every kind gets `threads` batches, run in parallel; seeds never repeat.
        let jobs: Vec<(usize, u64)> = (0..threads as u64)
            .flat_map(|t| (0..kinds.len()).map(move |k| (k, t)))
            .map(|(k, t)| {
                (
                    k,
                    options
                        .seed
                        .wrapping_add((round * threads as u64 + t) * kinds.len() as u64 + k as u64),
                )
            })
            .collect();
        round += 1;
        let found = jobs.into_par_iter().filter_map(|(k, seed)| {
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            let result = (kinds[k].run)(seed, options.batch);
            per_kind[k].fetch_add(options.batch as u64, Ordering::Relaxed);
            let done =
                total.fetch_add(options.batch as u64, Ordering::Relaxed) + options.batch as u64;
            if options.pairs.is_some_and(|p| done >= p)
                || deadline.is_some_and(|d| Instant::now() >= d)
            {
                stop.store(true, Ordering::Relaxed);
            }
            result
        });
        first = found.min_by_key(|m| m.seed);
        let done = total.load(Ordering::Relaxed);
        let rate = done as f64 / start.elapsed().as_secs_f64();
        bar.set_position(if options.seconds.is_some() {
            start.elapsed().as_millis() as u64
        } else {
            done
        });
        bar.set_message(format!("{done} pairs, {:.1} M pairs/s", rate / 1e6));
    }
    bar.finish_and_clear();

    let elapsed = start.elapsed().as_secs_f64();
    let done = total.load(Ordering::Relaxed);
    println!(
        "tested {done} pairs in {elapsed:.1} s ({:.1} M pairs/s):",
        done as f64 / elapsed / 1e6
    );
    for (kind, count) in kinds.iter().zip(&per_kind) {
        println!(
            "  {:<24} {:>14} pairs",
            kind.name,
            count.load(Ordering::Relaxed)
        );
    }
    match first {
        None => println!("fuzz: 0 mismatches"),
        Some(m) => {
            let text = reproducer(&m);
            let path = format!("fuzz-repro-{}-{}.txt", m.kind, m.seed);
            eprint!("fuzz: MISMATCH\n{text}");
            match std::fs::write(&path, &text) {
                Ok(()) => eprintln!("reproducer written to {path}; replay with --replay {path}"),
                Err(e) => eprintln!("could not write {path}: {e}"),
            }
            std::process::exit(1);
        }
    }
}

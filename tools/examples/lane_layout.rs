//! How the containers' columns should be laid out for the sixteen-lane kernels, measured: the
//! sixteen-lane circle–AABB and OBB–OBB kernels over 4096 pairs,
//!
//! 1. over the containers' columns as shipped (64-byte, sixteen-lane chunks: one aligned load
//!    per field and block);
//! 2. over columns of eight-lane blocks, two of them combined into each sixteen-lane load, the
//!    columns starting on a cache line;
//! 3. the same, the columns starting 32 bytes off a cache line (every sixteen-lane load then
//!    spans two lines, as it would half the time in a `Vec<f32x8>`);
//!
//! the same loop in each (`batch_test_at::<f32x16>`'s, answers asserted equal to it),
//! alternated in one process, 31 rounds, medians in G pairs/s. Meaningful on a build with
//! AVX-512 (`RUSTFLAGS="-C target-cpu=x86-64-v4" cargo run --release -p widephase-tools --example lane_layout`);
//! elsewhere an `f32x16` is two halves.
use std::hint::black_box;
use std::time::Instant;
use widephase::wide::{f32x8, f32x16};
use widephase::*;

/// Each column as eight-lane blocks, padding included, and where its data starts: on a cache
/// line, or 32 bytes off one (a spare block in front decides).
fn cols8<S: ShapeSoa>(s: &S, misalign: bool) -> Vec<(Vec<f32x8>, usize)> {
    s.field_blocks()
        .into_iter()
        .map(|col| {
            let mut v: Vec<f32x8> = Vec::with_capacity(col.len() + 1);
            let on_line = (v.as_ptr() as usize).is_multiple_of(64);
            let start = usize::from(on_line == misalign);
            if start == 1 {
                v.push(f32x8::ZERO);
            }
            v.extend_from_slice(col);
            (v, start)
        })
        .collect()
}

/// Sixteen-lane block `k` of every column, from eight-lane blocks `2k` and `2k + 1`.
#[inline(always)]
fn load<const C: usize>(cols: &[&[f32x8]; C], k: usize) -> [f32x16; C] {
    let mut out = [f32x16::ZERO; C];
    for c in 0..C {
        out[c] = bytemuck::cast([cols[c][2 * k], cols[c][2 * k + 1]]);
    }
    out
}

/// `batch_test_at::<f32x16>`'s loop over eight-lane columns, two blocks combined per load.
fn run<A, B, const CA: usize, const CB: usize>(
    a: &[(Vec<f32x8>, usize)],
    b: &[(Vec<f32x8>, usize)],
    n: usize,
    words: &mut [u64],
) where
    A: Overlaps<B, Lanes<f32x16> = [f32x16; CA]>,
    B: ShapeSoa<Lanes<f32x16> = [f32x16; CB]>,
{
    let ca: [&[f32x8]; CA] = core::array::from_fn(|c| &a[c].0[a[c].1..][..n / 8]);
    let cb: [&[f32x8]; CB] = core::array::from_fn(|c| &b[c].0[b[c].1..][..n / 8]);
    for (w, word) in words.iter_mut().enumerate() {
        let mut acc = 0u64;
        for j in 0..4 {
            let k = w * 4 + j;
            let m = A::lanes::<f32x16>(load(&ca, k), load(&cb, k)).to_bitmask();
            acc |= u64::from(m) << (j * 16);
        }
        *word = acc;
    }
}

/// The same loop over the shipped columns of sixteen-lane chunks, one load per field and block.
fn run16<A, B, const CA: usize, const CB: usize>(
    a: &[&[f32x16]; CA],
    b: &[&[f32x16]; CB],
    words: &mut [u64],
) where
    A: Overlaps<B, Lanes<f32x16> = [f32x16; CA]>,
    B: ShapeSoa<Lanes<f32x16> = [f32x16; CB]>,
{
    for (w, word) in words.iter_mut().enumerate() {
        let mut acc = 0u64;
        for j in 0..4 {
            let k = w * 4 + j;
            let (mut x, mut y) = ([f32x16::ZERO; CA], [f32x16::ZERO; CB]);
            for c in 0..CA {
                x[c] = a[c][k];
            }
            for c in 0..CB {
                y[c] = b[c][k];
            }
            acc |= u64::from(A::lanes::<f32x16>(x, y).to_bitmask()) << (j * 16);
        }
        *word = acc;
    }
}

/// A container's columns as shipped, as sixteen-lane blocks (`n / 16` of them).
fn cols16<S: ShapeSoa, const C: usize>(s: &S, n: usize) -> [&[f32x16]; C] {
    let fields = s.field_blocks();
    core::array::from_fn(|c| &bytemuck::cast_slice(fields[c])[..n / 16])
}

fn main() {
    let n = 4096;
    let mut s = 1u32;
    let mut r = || {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        (s % 1000) as f32 / 250.0
    };
    let a: Circles = (0..n)
        .map(|_| Circle::new(r(), r(), 0.25 + r() / 4.0))
        .collect();
    let ab: Aabbs = (0..n)
        .map(|_| {
            let (x, y) = (r(), r());
            Aabb::new(x, y, x + 0.5 + r() / 4.0, y + 0.5 + r() / 4.0)
        })
        .collect();
    let o: Obbs = (0..n)
        .map(|_| Obb::new(r(), r(), 0.3 + r() / 4.0, 0.2 + r() / 4.0, r()))
        .collect();
    let o2: Obbs = (0..n)
        .map(|_| Obb::new(r(), r(), 0.3 + r() / 4.0, 0.2 + r() / 4.0, r()))
        .collect();
    // Eight-lane columns starting on a cache line ([0]) and 32 bytes off one ([1]).
    let (ca, cb) = (
        [cols8(&a, false), cols8(&a, true)],
        [cols8(&ab, false), cols8(&ab, true)],
    );
    let (oa, ob) = (
        [cols8(&o, false), cols8(&o, true)],
        [cols8(&o2, false), cols8(&o2, true)],
    );
    let mut h = HitMask::new();
    let mut words = vec![0u64; n / 64];
    // The three must do the same work: the same answers.
    let (a16, ab16) = (cols16::<_, 3>(&a, n), cols16::<_, 4>(&ab, n));
    let (o16, o216) = (cols16::<_, 6>(&o, n), cols16::<_, 6>(&o2, n));
    batch_test_at::<f32x16, _, _>(&a, &ab, &mut h).unwrap();
    run16::<Circles, Aabbs, 3, 4>(&a16, &ab16, &mut words);
    assert_eq!(h.words(), &words[..], "circle-AABB");
    batch_test_at::<f32x16, _, _>(&o, &o2, &mut h).unwrap();
    run16::<Obbs, Obbs, 6, 6>(&o16, &o216, &mut words);
    assert_eq!(h.words(), &words[..], "OBB-OBB");
    for m in 0..2 {
        batch_test_at::<f32x16, _, _>(&a, &ab, &mut h).unwrap();
        run::<Circles, Aabbs, 3, 4>(&ca[m], &cb[m], n, &mut words);
        assert_eq!(h.words(), &words[..], "circle-AABB");
        batch_test_at::<f32x16, _, _>(&o, &o2, &mut h).unwrap();
        run::<Obbs, Obbs, 6, 6>(&oa[m], &ob[m], n, &mut words);
        assert_eq!(h.words(), &words[..], "OBB-OBB");
    }
    let reps = 2000;
    let mut res: Vec<Vec<f64>> = vec![vec![]; 6];
    for _ in 0..31 {
        for (k, v) in res.iter_mut().enumerate() {
            let t = Instant::now();
            for _ in 0..reps {
                match k {
                    0 => {
                        run16::<Circles, Aabbs, 3, 4>(black_box(&a16), black_box(&ab16), &mut words)
                    }
                    1 | 2 => run::<Circles, Aabbs, 3, 4>(
                        black_box(&ca[k - 1]),
                        black_box(&cb[k - 1]),
                        n,
                        &mut words,
                    ),
                    3 => run16::<Obbs, Obbs, 6, 6>(black_box(&o16), black_box(&o216), &mut words),
                    _ => run::<Obbs, Obbs, 6, 6>(
                        black_box(&oa[k - 4]),
                        black_box(&ob[k - 4]),
                        n,
                        &mut words,
                    ),
                }
                black_box(&words);
            }
            v.push((reps * n) as f64 / t.elapsed().as_secs_f64() / 1e9);
        }
    }
    let m: Vec<f64> = res
        .iter_mut()
        .map(|v| {
            v.sort_by(|a, b| a.partial_cmp(b).unwrap());
            v[v.len() / 2]
        })
        .collect();
    println!("SIMD backend: {SIMD_BACKEND}");
    println!("G pairs/s, medians of 31 alternated rounds, 4096 pairs, 16 lanes:");
    println!(
        "circle-AABB: chunks of 16 (shipped) {:.2} | 8-blocks combined, 64-aligned {:.2} | combined, 32 B off {:.2}",
        m[0], m[1], m[2]
    );
    println!(
        "OBB-OBB:     chunks of 16 (shipped) {:.2} | 8-blocks combined, 64-aligned {:.2} | combined, 32 B off {:.2}",
        m[3], m[4], m[5]
    );
}

//! The answer's sort: pairs ascending, by a parallel least-significant-digit radix sort.

use crate::broadphase::counting_sort::chunking;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Widest digit of the answer's radix sort: 4096 counters, which stay in the first-level cache.
const RADIX_BITS: u32 = 12;

/// The sort's buffers, kept from frame to frame.
#[derive(Debug, Default)]
pub(crate) struct RadixSort {
    keys: Vec<AtomicU64>,
    keys_tmp: Vec<AtomicU64>,
    digit_counts: Vec<u32>,
}

impl RadixSort {
    /// Sorts the answer ascending with a least-significant-digit radix sort over the bits the
    /// ids use (a comparison sort for short answers). Each pass counts digits per chunk in
    /// parallel and scatters in parallel: a stable sort whatever the number of chunks.
    pub(crate) fn sort(&mut self, out: &mut [(u32, u32)]) {
        if out.len() < 512 {
            out.sort_unstable();
            return;
        }
        let (max_a, max_b) = out
            .iter()
            .fold((0, 0), |(a, b), &(x, y)| (a.max(x), b.max(y)));
        let bits_of = |m: u32| 32 - m.leading_zeros();
        let low = bits_of(max_b);
        let bits = bits_of(max_a) + low;
        let passes = bits.div_ceil(RADIX_BITS).max(1);
        let digit = bits.div_ceil(passes);
        let (mask, buckets) = ((1u64 << digit) - 1, 1usize << digit);
        let n = out.len();
        for keys in [&mut self.keys, &mut self.keys_tmp] {
            if keys.len() < n {
                keys.resize_with(n, AtomicU64::default);
            }
        }
        let (chunks, chunk) = chunking(n);
        self.keys[..n]
            .par_chunks(chunk)
            .zip(out.par_chunks(chunk))
            .for_each(|(keys, out)| {
                for (k, &(a, b)) in keys.iter().zip(out) {
                    k.store(u64::from(a) << low | u64::from(b), Relaxed);
                }
            });
        let counts = &mut self.digit_counts;
        counts.clear();
        counts.resize(chunks * buckets, 0);
        for pass in 0..passes {
            let shift = pass * digit;
            let (from, to) = (&self.keys[..n], &self.keys_tmp[..n]);
            counts
                .par_chunks_mut(buckets)
                .zip(from.par_chunks(chunk))
                .for_each(|(counts, keys)| {
                    counts.fill(0);
                    for k in keys {
                        counts[(k.load(Relaxed) >> shift & mask) as usize] += 1;
                    }
                });
            let mut sum = 0;
            for d in 0..buckets {
                for j in 0..chunks {
                    let c = &mut counts[j * buckets + d];
                    (*c, sum) = (sum, sum + *c);
                }
            }
            counts
                .par_chunks_mut(buckets)
                .zip(from.par_chunks(chunk))
                .for_each(|(cursor, keys)| {
                    for k in keys {
                        let k = k.load(Relaxed);
                        let slot = &mut cursor[(k >> shift & mask) as usize];
                        to[*slot as usize].store(k, Relaxed);
                        *slot += 1;
                    }
                });
            std::mem::swap(&mut self.keys, &mut self.keys_tmp);
        }
        let low_mask = (1u64 << low) - 1;
        out.par_chunks_mut(chunk)
            .zip(self.keys[..n].par_chunks(chunk))
            .for_each(|(out, keys)| {
                for (pair, k) in out.iter_mut().zip(keys) {
                    let k = k.load(Relaxed);
                    *pair = ((k >> low) as u32, (k & low_mask) as u32);
                }
            });
    }
}

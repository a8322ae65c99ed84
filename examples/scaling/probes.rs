//! What the machine gives beside the frames: the kernels' own speed-up, and how long two
//! threads take to pass a cache line.

use crate::median;
use std::time::{Duration, Instant};
use widephase::{Aabbs, Circles, HitMask, par_batch_test};

/// `par_batch_test` over 4 M circle–AABB pairs on each pool, in G pairs per second (medians).
/// The pools take turns, round after round, so that a slow spell of the host falls on every
/// thread count alike rather than on whichever was measured first. Each turn first calls for
/// 30 ms untimed: on the 2-core VMs a core left idle for a while ran the first milliseconds
/// after its return at half speed (a 2-thread call took a 1-thread time for ~10 ms).
pub(crate) fn kernels(
    circles: &Circles,
    boxes: &Aabbs,
    pools: &[rayon::ThreadPool],
    main: bool,
) -> Vec<f64> {
    let mut hits = HitMask::new();
    let mut times = vec![Vec::new(); pools.len()];
    for _round in 0..4 {
        for (pool, times) in pools.iter().zip(&mut times) {
            let mut turn = || {
                let warm = Instant::now();
                while warm.elapsed() < Duration::from_millis(30) {
                    par_batch_test(circles, boxes, &mut hits).expect("equal lengths");
                }
                for _ in 0..5 {
                    let begin = Instant::now();
                    par_batch_test(circles, boxes, &mut hits).expect("equal lengths");
                    times.push(begin.elapsed().as_secs_f64());
                }
            };
            if main { turn() } else { pool.install(turn) }
        }
    }
    times
        .iter_mut()
        .map(|t| circles.len() as f64 / median(t) / 1e9)
        .collect()
}

/// The time for two threads of this process to pass one cache line there and back (median
/// of five tries of up to 20 000 round trips or 0.2 s each, ns), wherever the system runs
/// them. On the two-vCPU VMs this ranged from 60–190 ns to 320–440 ns from one minute to the
/// next (by every sign the host moving its vCPUs between cores that share a cache and cores
/// that do not), and in the slow spells every line one thread wrote and another read cost
/// that much more: a two-thread kept frame then ran no faster than one thread (see
/// `docs/benchmarks.md`, fifty-ninth session). Two threads that share one core (a busy
/// machine) pass the line once a time slice: the 0.2 s bound keeps that short.
pub(crate) fn round_trip() -> f64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    const TRIPS: u64 = 20_000;
    const DONE: u64 = u64::MAX;
    let mut tries: Vec<f64> = (0..5)
        .map(|_| {
            let line = AtomicU64::new(0);
            std::thread::scope(|s| {
                // Answers each odd value with the next one, until told it is done.
                // (After its store it reads its own even value until the next odd one.)
                s.spawn(|| {
                    loop {
                        match line.load(Ordering::Acquire) {
                            DONE => return,
                            v if v % 2 == 1 => line.store(v + 1, Ordering::Release),
                            _ => std::hint::spin_loop(),
                        }
                    }
                });
                let begin = Instant::now();
                let mut trips = 0;
                while trips < TRIPS
                    && (trips % 256 != 0 || begin.elapsed() < Duration::from_millis(200))
                {
                    line.store(2 * trips + 1, Ordering::Release);
                    while line.load(Ordering::Acquire) != 2 * trips + 2 {
                        std::hint::spin_loop();
                    }
                    trips += 1;
                }
                let each = begin.elapsed().as_secs_f64() * 1e9 / trips as f64;
                line.store(DONE, Ordering::Release);
                each
            })
        })
        .collect();
    median(&mut tries)
}

//! A call's helpers: the pool's other threads kept looking for work while the call runs, so
//! that each parallel pass finds them awake.
//!
//! rayon puts a thread that found no work for some 32 rounds of looking (about 20 µs) to
//! sleep, and wakes one when a job is queued. A frame is dozens of passes with serial steps
//! between them, and a step of more than those 20 µs let the other threads fall asleep: on
//! a 2-core Intel Xeon VM a woken thread took 50–100 µs to start, so that a fork of two 50 µs
//! halves after 100 µs of serial work took 139 µs, more than the two halves on one thread
//! (rayon's own `join`, measured alone). On more threads each pass woke them one after
//! another. A thread held awake here takes the same fork's half within a few microseconds.
//!
//! [`held`] runs a call beside one helper job that recruits up to one thread per core of the
//! pool but the caller's: each helper looks for rayon work (`rayon::yield_now`: the call's
//! tasks, or anything else queued) until the call ends. It allocates nothing (every job is
//! a `join`'s half, on the stack), and a helper that finds no work for [`IDLE_LIMIT`] lets
//! its thread go. A thread that takes a helper's part while it waits inside another job (in a
//! `join` of its own) would hold that job until the call ends: a part taken deeper in the
//! thread's stack than where it took one from its idle loop ends at once ([`NESTED`]), and the
//! idle limit bounds the delay of a first one.
//!
//! The helpers keep awake the threads that have no work; a thread that waits for the other
//! half of its own fork is kept awake by `waits.rs`'s [`join`], [`for_each`] and
//! [`map_reduce`].

mod owners;
mod waits;

pub(crate) use waits::{fan_split, for_each, groups_for, groups_here, join, map_reduce};

use core::cell::Cell;
use core::hint::spin_loop;
use core::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use waits::{End, cores};

/// How long a helper finding no work keeps looking before it lets its thread go: longer than
/// the serial steps between a frame's passes (at most a few hundred microseconds at 1 M
/// shapes), short against a frame.
const IDLE_LIMIT: Duration = Duration::from_micros(500);

/// How long a helper that hands half of its recruits to another thread waits for one to take
/// them before it goes on (a sleeping thread that rayon wakes for them took 50–100 µs on a VM).
/// Not taken by then, it takes them back itself (they end at once) and offers no more.
const OFFER_WAIT: Duration = Duration::from_micros(150);

/// How much deeper in its stack than its shallowest helper a thread may take a helper's part
/// (bytes): deeper, it took the part while it waited inside another job (a join of a call's
/// pass, say), and would hold that job until the call ends or for [`IDLE_LIMIT`]. Parts taken
/// from a thread's idle loop all start at one depth; inside a job, on sixteen threads of a
/// 2-core VM, 448 bytes deeper or more.
const NESTED: usize = 256;

std::thread_local! {
    /// Whether this thread runs a helper: a second one taken while it looks for work ends
    /// at once rather than nesting.
    static HELPING: Cell<bool> = const { Cell::new(false) };
    /// The highest stack address at which this thread took a helper's part (the stack grows
    /// down on x86-64, AArch64 and the other common targets; where it grew up, parts would
    /// look nested and end at once: a loss of speed only).
    static SHALLOWEST: Cell<usize> = const { Cell::new(0) };
}

/// `f()`, with the pool's other threads held awake until it returns (see the module docs),
/// where `hold` and the call runs on one of rayon's threads in a pool of two or more threads
/// and two or more cores; else just `f()`. Only as many threads as the machine has cores help,
/// the caller's among them: on a pool with more threads than cores, spinning ones would take
/// the cores from the working ones.
pub(crate) fn held<R: Send>(hold: bool, f: impl FnOnce() -> R + Send) -> R {
    let helpers = if hold {
        rayon::current_num_threads().min(cores()).saturating_sub(1)
    } else {
        0
    };
    held_by(helpers, |_| f())
}

/// A held call's state, shared with its helpers.
#[derive(Debug, Default)]
struct Call {
    /// Whether the call returned (or unwound).
    done: AtomicBool,
    /// How many threads took a helper's part.
    helped: AtomicUsize,
}

impl Call {
    fn done(&self) -> bool {
        self.done.load(Ordering::Acquire)
    }
}

/// [`held`] with `helpers` helpers at most; `f` may read how many helped so far.
fn held_by<R: Send>(helpers: usize, f: impl FnOnce(&Call) -> R + Send) -> R {
    let call = Call::default();
    if helpers == 0 || rayon::current_thread_index().is_none() {
        return f(&call);
    }
    // The caller's thread takes no helper's part while it waits within the call: it would
    // look for work until the call ends, and the call's end is beneath it.
    let _reset = Reset(HELPING.replace(true));
    let (r, ()) = rayon::join(
        || {
            let _end = End(&call.done);
            f(&call)
        },
        || help(&call, helpers),
    );
    r
}

/// A helper on this thread that recruits `n - 1` more, unless the call ended, this thread
/// already helps, or it took the part while it waited inside another job ([`NESTED`]).
fn help(call: &Call, n: usize) {
    if call.done() || HELPING.get() || inside_a_job() {
        return;
    }
    let _reset = Reset(HELPING.replace(true));
    call.helped.fetch_add(1, Ordering::Relaxed);
    offer(call, n - 1);
}

/// Whether this thread runs deeper in its stack than [`NESTED`] below the shallowest place it
/// called this from (noting this place).
#[inline(never)]
fn inside_a_job() -> bool {
    let marker = 0u8;
    let here = core::ptr::addr_of!(marker) as usize;
    let shallowest = SHALLOWEST.get().max(here);
    SHALLOWEST.set(shallowest);
    here + NESTED < shallowest
}

/// Sets this thread's [`HELPING`] back to what it was when dropped.
struct Reset(bool);

impl Drop for Reset {
    fn drop(&mut self) {
        HELPING.set(self.0);
    }
}

/// Hands `k` recruits to other threads, half at a time (each taker hands on half of its
/// own), then looks for work until the call ends. Where no thread took a half within
/// [`OFFER_WAIT`], none is free to take the rest either: it looks for work at once.
fn offer(call: &Call, k: usize) {
    if k == 0 {
        look(call);
        return;
    }
    let half = k.div_ceil(2);
    let taken = AtomicBool::new(false);
    rayon::join(
        || {
            let since = Instant::now();
            while !taken.load(Ordering::Acquire) && !call.done() && since.elapsed() < OFFER_WAIT {
                spin_loop();
            }
            let rest = if taken.load(Ordering::Acquire) {
                k - half
            } else {
                0
            };
            offer(call, rest);
        },
        || {
            taken.store(true, Ordering::Release);
            help(call, half);
        },
    );
}

/// Runs whatever rayon work this thread finds until the call ends, or until it found none
/// for [`IDLE_LIMIT`].
fn look(call: &Call) {
    let mut idle = Instant::now();
    while !call.done() {
        if rayon::yield_now() == Some(rayon::Yield::Executed) {
            idle = Instant::now();
        } else if idle.elapsed() > IDLE_LIMIT {
            return;
        } else {
            spin_loop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{HELPING, held, held_by, inside_a_job};
    use rayon::prelude::*;
    use std::sync::atomic::Ordering::Relaxed;
    use std::time::{Duration, Instant};

    /// Whether any thread of the current pool is marked as helping.
    fn any_helping() -> bool {
        rayon::broadcast(|_| HELPING.get()).into_iter().any(|h| h)
    }

    /// A held call gives what it computes, its parallel passes and held calls nested in them
    /// included (as frames of several finders called from one `par_iter`), on every thread
    /// count and with as many helpers as threads or more; and no thread is left helping.
    #[test]
    fn a_held_call_returns_what_it_computes_and_lets_every_thread_go() {
        let sum = |n: u64| (0..n).into_par_iter().map(|i| i * i % 7).sum::<u64>();
        let expected = |n: u64| (0..n).map(|i| i * i % 7).sum::<u64>();
        for threads in [1, 2, 3, 4, 8, 16] {
            let pool = crate::test_pool::pool(threads);
            for helpers in [0, 1, threads - 1, threads + 3] {
                for round in 0..20 {
                    let n = 1_000 + 997 * round;
                    let (one, nested) = pool.install(|| {
                        held_by(helpers, |_| {
                            let one = sum(n);
                            let nested: Vec<u64> = (0..6)
                                .into_par_iter()
                                .map(|k| held_by(helpers, |_| sum(n + k)))
                                .collect();
                            (one, nested)
                        })
                    });
                    assert_eq!(one, expected(n), "{threads} threads, {helpers} helpers");
                    for (k, s) in nested.into_iter().enumerate() {
                        assert_eq!(s, expected(n + k as u64), "nested {k}");
                    }
                }
                assert!(
                    !pool.install(any_helping),
                    "{threads} threads: a helper left"
                );
            }
        }
    }

    /// A thread is inside a job where it is deeper in its stack than where it first asked, and
    /// not where it is as shallow again.
    #[test]
    fn a_part_taken_deeper_in_the_stack_is_taken_inside_a_job() {
        #[inline(never)]
        fn deeper(depth: usize) -> bool {
            let pad = std::hint::black_box([depth as u8; 1024]);
            if depth == 0 {
                inside_a_job() && pad[0] == 0
            } else {
                deeper(depth - 1)
            }
        }
        let seen = std::thread::spawn(|| [inside_a_job(), deeper(2), inside_a_job(), deeper(0)])
            .join()
            .expect("the spawned thread");
        assert_eq!(seen, [false, true, false, true]);
    }

    /// A call that panics unwinds to its caller, its helpers end, and the pool works on.
    #[test]
    fn a_panicking_call_ends_its_helpers() {
        let pool = crate::test_pool::pool(4);
        let caught = pool.install(|| {
            std::panic::catch_unwind(|| {
                held_by(3, |_| {
                    (0..64)
                        .into_par_iter()
                        .for_each(|i| assert_ne!(i, 40, "the call's own"));
                })
            })
        });
        assert!(caught.is_err());
        assert!(!pool.install(any_helping));
        assert_eq!(
            pool.install(|| held(true, || (0..100u32).into_par_iter().sum::<u32>())),
            4950
        );
    }

    /// On two threads the other one takes the helper's part while the call runs (it was
    /// asleep: rayon wakes it for the queued helper), and outside a pool nothing is held.
    #[test]
    fn the_other_thread_helps_while_the_call_runs() {
        let pool = crate::test_pool::pool(2);
        let helped = pool.install(|| {
            held_by(1, |call| {
                let since = Instant::now();
                while call.helped.load(Relaxed) == 0 && since.elapsed() < Duration::from_secs(5) {
                    std::hint::spin_loop();
                }
                call.helped.load(Relaxed)
            })
        });
        assert_eq!(helped, 1);
        let outside = held_by(1, |call| call.helped.load(Relaxed));
        assert_eq!(outside, 0);
    }
}

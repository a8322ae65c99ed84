//! Jump sampling: whether so many moving shapes jumped (left their enlarged box for one that
//! does not overlap it) that a search from scratch is cheaper than following them, counted
//! on a sample of the slots.

use super::Kept;
use super::margin::{inside, jumped_from};
use super::tasks::MIN_TASK;
use crate::scene::store::Scene;
use core::ops::Range;
use rayon::prelude::*;

/// The share of the moving shapes that must have jumped (left their enlarged box for a box
/// that does not overlap it) for a call to search from scratch rather than follow them: at a
/// tenth jumping every frame, following them cost 1.5x a search from scratch (their new
/// candidates, and a scene they make denser); at two percent, 1.24x (see `docs/benchmarks.md`).
pub(super) const JUMPED: f32 = 0.05;

/// Moving slots from which the jumps between searches from scratch are counted on a sample:
/// below this, every slot.
pub(super) const SAMPLE_FROM: usize = 4096;

/// Slots per run of the sample, and of every run of [`SAMPLE_STRIDE`] slots the sample takes
/// the first: an eighth of the slots, in runs a few cache lines long, so that counting the
/// jumps reads an eighth of the boxes.
pub(super) const SAMPLE_RUN: usize = 64;
pub(super) const SAMPLE_STRIDE: usize = 8 * SAMPLE_RUN;

/// The runs of the `n` moving slots whose jumps are counted between searches from scratch
/// that start in `within` (whose start is a whole number of strides): all of them below
/// [`SAMPLE_FROM`], else the first [`SAMPLE_RUN`] of every [`SAMPLE_STRIDE`]. Whether a frame
/// searches from scratch is a matter of speed only (both ways give the same answer), and a
/// share of jumpers is estimated as well from an eighth of the shapes, at an eighth of the
/// memory traffic (a pass over every box was most of what a jumping frame cost beyond its
/// search).
pub(super) fn sampled(n: usize, within: Range<usize>) -> impl Iterator<Item = Range<usize>> {
    let (run, stride) = if n < SAMPLE_FROM {
        (n, n.max(1))
    } else {
        (SAMPLE_RUN, SAMPLE_STRIDE)
    };
    within.step_by(stride).map(move |s| s..(s + run).min(n))
}

/// Slots a task of [`Kept::enlarge_sample`] covers: whole strides, so that each task's runs
/// are the sample's runs in its slots, and 2 k sampled slots a task.
const SAMPLE_TASK: usize = MIN_TASK;
const _: () = assert!(SAMPLE_TASK.is_multiple_of(SAMPLE_STRIDE));

impl Kept {
    /// Whether `jumpers` of `n` moving shapes are more than [`JUMPED`] of them.
    pub(super) fn too_many_jumped(jumpers: usize, n: usize) -> bool {
        jumpers as f32 > JUMPED * n as f32
    }

    /// The sampled moving shapes (see [`sampled`]) that jumped from the enlarged boxes `fat`
    /// holds for them, those that left them, and the size of the sample; with `enlarge`,
    /// their enlarged boxes anew, centred on their boxes, in the same pass. Between searches
    /// from scratch the finder keeps only these boxes, to count the next call's jumps: the
    /// other slots' are never read before a rebuild enlarges every box anew. On rayon's
    /// threads in tasks of [`SAMPLE_TASK`] slots (on one thread, the eighth of a million
    /// shapes took 0.5 ms of each frame in which they jumped; the counts are sums, the same
    /// on any number of threads).
    pub(super) fn enlarge_sample(&mut self, scene: &Scene, enlarge: bool) -> (usize, usize, usize) {
        let (margin, boxes) = (self.margin, &scene.moving.boxes);
        let (old, n) = (self.len.min(self.fat.len()), boxes.len());
        // Only counting, the sample keeps the boxes of the slots beyond the store's end: the
        // escape check that follows finds those removed shapes' places in the grid by them.
        if enlarge || self.fat.len() < n {
            self.fat.resize(n, [f32::NAN; 4]);
        }
        let chunk = if n < SAMPLE_FROM {
            n.max(1)
        } else {
            SAMPLE_TASK
        };
        let count = |first: usize, fat: &mut [[f32; 4]]| {
            let (mut jumps, mut escaped, mut of) = (0, 0, 0);
            for run in sampled(n, first..first + fat.len()) {
                let fat = &mut fat[run.start - first..run.end - first];
                for (k, (f, b)) in fat.iter_mut().zip(&boxes[run.clone()]).enumerate() {
                    let slot = run.start + k;
                    jumps += usize::from(slot < old && jumped_from(b, f));
                    escaped += usize::from(slot < old && !f[0].is_nan() && !inside(b, f));
                    if enlarge {
                        *f = margin.enlarge(b, slot as u32);
                    }
                }
                of += run.len();
            }
            (jumps, escaped, of)
        };
        self.fat[..n]
            .par_chunks_mut(chunk)
            .enumerate()
            .map(|(k, fat)| count(k * chunk, fat))
            .reduce(|| (0, 0, 0), |a, b| (a.0 + b.0, a.1 + b.1, a.2 + b.2))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::Circle;

    /// What [`Kept::enlarge_sample`] finds, one slot after another: the sample's jumpers, its
    /// shapes that left their enlarged boxes, its size, and the enlarged boxes anew.
    fn one_by_one(kept: &Kept, scene: &Scene) -> ((usize, usize, usize), Vec<[f32; 4]>) {
        let (boxes, old) = (&scene.moving.boxes, kept.len.min(kept.fat.len()));
        let mut fat = kept.fat.clone();
        fat.resize(boxes.len(), [f32::NAN; 4]);
        let (mut jumps, mut escaped, mut of) = (0, 0, 0);
        for (slot, (f, b)) in fat.iter_mut().zip(boxes).enumerate() {
            let in_sample = boxes.len() < SAMPLE_FROM || slot % SAMPLE_STRIDE < SAMPLE_RUN;
            if !in_sample {
                continue;
            }
            of += 1;
            jumps += usize::from(slot < old && jumped_from(b, f));
            escaped += usize::from(slot < old && !f[0].is_nan() && !inside(b, f));
            *f = kept.margin.enlarge(b, slot as u32);
        }
        ((jumps, escaped, of), fat)
    }

    /// The sample counted in tasks on several threads is the sample counted one slot after
    /// another: for scenes below the sampling size, at it, and over several tasks with a
    /// partial last stride; for shapes that stayed, moved out of their boxes, jumped, became
    /// invalid, and slots the last call did not have (the scene grew or shrank).
    #[test]
    fn the_sample_in_tasks_is_the_sample_one_slot_after_another() {
        let pool = crate::test_pool::pool(3);
        let circle = |i: usize, shift: f32| {
            let (x, y) = ((i % 1000) as f32 * 3.0, (i / 1000) as f32 * 3.0);
            Circle::new(x + shift, y, 1.0)
        };
        for (n, later) in [
            (0, 5),
            (7, 7),
            (SAMPLE_FROM - 1, SAMPLE_FROM + 600),
            (SAMPLE_FROM, SAMPLE_FROM),
            (3 * SAMPLE_TASK + 777, 3 * SAMPLE_TASK + 777),
            (5 * SAMPLE_TASK, 2 * SAMPLE_TASK + SAMPLE_STRIDE + 3),
        ] {
            let mut scene = Scene::new();
            for i in 0..n {
                scene.push(circle(i, 0.0));
            }
            let mut kept = Kept::default();
            let first = pool.install(|| kept.enlarge_sample(&scene, true));
            kept.len = n;
            assert_eq!(
                first.2,
                one_by_one(&Kept::default(), &scene).0.2,
                "{n}: size"
            );
            let mut scene = Scene::new();
            for i in 0..later {
                let shift = match i % 5 {
                    0 => 0.0,      // stays inside
                    1 => 0.6,      // leaves its enlarged box
                    2 => 50.0,     // jumps
                    3 => f32::NAN, // invalid
                    _ => 0.01,
                };
                scene.push(circle(i, shift));
            }
            for enlarge in [false, true] {
                let (want, fat) = one_by_one(&kept, &scene);
                let mut got = Kept::default();
                (got.len, got.fat) = (kept.len, kept.fat.clone());
                let counts = pool.install(|| got.enlarge_sample(&scene, enlarge));
                assert_eq!(counts, want, "{n} then {later} shapes");
                assert!(want.0 > 0 || n < 5, "{n}: some jumped");
                if enlarge {
                    let bits = |f: &[[f32; 4]]| -> Vec<[u32; 4]> {
                        f.iter().map(|b| b.map(f32::to_bits)).collect()
                    };
                    assert_eq!(bits(&got.fat), bits(&fat), "{n} then {later}: boxes");
                }
            }
        }
    }
}

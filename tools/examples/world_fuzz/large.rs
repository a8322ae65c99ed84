//! The world fuzzer's runs at scale (`--large`): worlds of 20 k to 300 k moving shapes, where
//! a kept frame's passes split into tasks (the escape check, the grid's repair, the sorts,
//! the lists) and, from a quarter of a million on one thread, the escape check writes the
//! records it reads at their indices itself. The model's brute force is too slow there: each
//! call is checked against a search from scratch on another thread count instead (itself
//! checked against the model by the small runs), and the events against the set differences
//! of consecutive answers.

use crate::plan::Plan;
use crate::shapes::Gen;
use crate::{Met, Stream, check, pool};
use widephase::{Aabb, Circle, PairFinder, Scene, Shape};

/// The thread count the reference search runs on: another than the plan's, so that every
/// answer is also compared across two thread counts.
fn reference_threads(threads: usize) -> usize {
    if threads == 1 { 3 } else { 1 }
}

/// One run of `seed` at scale: its plan, and the first disagreement (frame and what), if any.
pub(crate) fn run_large(
    seed: u64,
    threads: &[usize],
    met: &mut Met,
) -> Result<Plan, (Plan, String)> {
    let mut g = Gen::new(seed);
    let plan = Plan::draw_large(&mut g, threads);
    let (threads, reference) = (pool(plan.threads), pool(reference_threads(plan.threads)));
    let mut scene = Scene::new();
    if let Some(c) = plan.cell {
        scene = scene.with_cell_size(c);
    }
    let mut live: Vec<u32> = (0..plan.moving + plan.statics)
        .map(|k| plan.entry(&mut g, k >= plan.moving).push_into(&mut scene))
        .collect();
    if plan.unbounded_few {
        // Two strips across the whole world and a circle over all of it: every shape pairs
        // with the circle.
        let (y, side) = (g.uniform(0.0, plan.side), plan.side);
        for s in [
            Shape::from(Aabb::new(f32::NEG_INFINITY, y, f32::INFINITY, y + 0.5)),
            Aabb::new(
                side / 3.0,
                f32::NEG_INFINITY,
                side / 3.0 + 0.5,
                f32::INFINITY,
            )
            .into(),
            Circle::new(1e30, 1e30, 2e30).into(),
        ] {
            live.push(scene.push(s));
        }
    }
    let stream = || Stream {
        finder: plan.finder(),
        last: Vec::new(),
    };
    let (mut every, mut now_and_then) = (stream(), stream());
    // Half the runs keep the kept path from 2^17 moving shapes on, where the finder would
    // otherwise time a search from scratch against it and may take that.
    if g.index(2) == 0 {
        every.finder = plan.finder().with_choice(false);
    }
    let (mut scratch, mut want) = (PairFinder::new(), Vec::new());
    let mut contacts_scratch = PairFinder::new();
    for frame in 0..plan.frames {
        let fail = |what: String| (plan, format!("frame {frame}: {what}"));
        for _ in 0..g.index(plan.ops + 1) {
            match g.index(10) {
                0 | 1 => {
                    let fixed = plan.statics > 0 && g.index(6) == 0;
                    live.push(plan.entry(&mut g, fixed).push_into(&mut scene));
                }
                2..=4 if !live.is_empty() => {
                    let id = live.swap_remove(g.index(live.len()));
                    if scene.remove(id).is_none() {
                        return Err(fail(format!("remove({id}) of a live id gave None")));
                    }
                }
                5 | 6 if !live.is_empty() => {
                    let id = live[g.index(live.len())];
                    let s = plan.set_to(&mut g, id, frame, scene.get(id).expect("a live id"));
                    scene.set(id, s);
                }
                7 if !live.is_empty() && plan.layered => {
                    let id = live[g.index(live.len())];
                    if g.index(3) == 0 {
                        scene.set_sensor(id, !scene.is_sensor(id));
                    } else {
                        scene.set_filter(id, plan.filter(&mut g));
                    }
                }
                8 if g.index(2_000) == 0 => scene.reorder(),
                9 if g.index(2_000) == 0 => {
                    every.finder.forget();
                    every.last.clear();
                }
                _ => {}
            }
        }
        threads.install(|| scene.update(|id, s| plan.step(id, frame, s)));
        reference.install(|| scratch.overlapping_pairs_from_scratch(&scene, &mut want));
        let solid: Vec<(u32, u32)> = (want.iter().copied())
            .filter(|&(a, b)| !scene.is_sensor(a) && !scene.is_sensor(b))
            .collect();
        // Contacts now and then (checked against a search from scratch's, on the plan's
        // threads); manifolds seldom (checked against the one-shot `Scene::manifolds`).
        let call = match g.index(12) {
            0 | 1 => 1,
            2 => 2,
            _ => 0,
        };
        let mut checked = |stream: &mut Stream, call: usize| {
            threads.install(|| {
                check(
                    stream,
                    &scene,
                    &want,
                    &solid,
                    call,
                    &mut contacts_scratch,
                    met,
                )
            })
        };
        checked(&mut every, call)
            .map_err(|e| fail(format!("the finder called every frame: {e}")))?;
        if frame % 3 == 2 {
            checked(&mut now_and_then, 0)
                .map_err(|e| fail(format!("the finder called every third frame: {e}")))?;
        }
        if scene.len() != live.len() {
            return Err(fail(format!("len {} of {}", scene.len(), live.len())));
        }
        met.frames += 1;
        met.largest = met.largest.max(scene.len());
    }
    met.runs += 1;
    Ok(plan)
}

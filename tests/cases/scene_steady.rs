//! A steady frame loop allocates nothing once its buffers have grown.

use super::scene::mixed;
use crate::support::shapes::Gen;
use widephase::{Aabb, PairFinder};

/// Once its buffers have grown, a steady frame loop allocates nothing: `Scene::update` of
/// every shape (polygons too, whose copies the kept finder writes again), a despawn and a
/// spawn, a kept `PairFinder`'s pairs (updating its grid for the shapes that left their
/// enlarged boxes, against a static level) with their began and ended pairs, and contacts,
/// cross pairs and queries, on one, two, three, six, thirteen, sixteen, twenty-four, forty and
/// a hundred threads (three: tasks that do not pair up; six: passes cut one group a thread,
/// each group first to its own thread; sixteen: each pass in as many tasks as these shapes
/// make, whatever cores run them; thirteen and twenty-four: the walk's tasks, eight a thread,
/// met busier shares of the events than before dozens of frames after the warm-up, and grew
/// their lists then; forty: more threads than groups a pass hands out to their own threads;
/// a hundred: a pass forked one group a thread grew the forking thread's deque past its 64
/// jobs, in every frame; the pool's workers are the counted threads, other tests run
/// elsewhere). Twenty-four frames after the warm-up: on twenty-four threads, before the walk's
/// tasks were sized together, the first allocation came in the second and the last in the
/// fortieth.
#[test]
fn steady_frames_allocate_nothing() {
    use crate::support::alloc;
    use widephase::{Point, Ray};
    let mut g = Gen::new(99);
    let mut scene = mixed(&mut g, 40_000, 250.0);
    for i in 0..2_000 {
        let x = (i % 50) as f32 * 5.0;
        scene.push_static(Aabb::new(
            x,
            (i / 50) as f32 * 6.0,
            x + 4.0,
            (i / 50) as f32 * 6.0 + 0.5,
        ));
    }
    let bullets = mixed(&mut g, 3_000, 250.0);
    let mut respawned = [0, 7919];
    for threads in [1, 2, 3, 6, 13, 16, 24, 40, 100] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .start_handler(|_| alloc::mark_thread())
            .build()
            .unwrap();
        let (mut finder, mut pairs, mut cross, mut ids) =
            (PairFinder::new(), Vec::new(), Vec::new(), Vec::new());
        let mut contacts = Vec::new();
        let mut allocated = Vec::new();
        pool.install(|| {
            for step in 0..36 {
                // Move every shape back and forth, as a simulation does, between two states
                // that the warm-up frames both see (a new largest answer may grow a buffer).
                // Twelve warm-up frames: the began and ended pairs' buffers pass between the
                // finder's lists, the caller's and the sorts' spares, each grown (doubled)
                // the first time it takes a longer list than it held (polygons moving too,
                // three frames left one still growing on two threads; on sixteen, the walk's
                // 128 tasks each keep their own began and ended pairs, and one task's grew in
                // the tenth frame, none after it in forty).
                let dx = if step % 2 == 0 { 0.25 } else { -0.25 };
                let before = alloc::count();
                let despawn = &mut respawned[step % 2];
                let shape = scene.remove(*despawn).expect("a live shape");
                *despawn = scene.push(shape);
                scene.update(|_, s| s.translated(dx, 0.0));
                finder.overlapping_pairs(&scene, &mut pairs);
                let events = finder.began().len() + finder.ended().len();
                finder.contacts(&scene, &mut contacts);
                finder.pairs_with(&bullets, &scene, &mut cross);
                let index = finder.index(&scene);
                let hit = index.raycast(&Ray::new(-10.0, 100.0, 1.0, 0.3, f32::INFINITY));
                index.query_aabb(&Aabb::new(100.0, 100.0, 110.0, 105.0), &mut ids);
                index.query_point(Point::new(50.0, 50.0), &mut ids);
                let spent = alloc::count() - before;
                assert!(hit.is_some() && !pairs.is_empty() && !cross.is_empty() && events > 0);
                assert!(finder.stats().statics == 2_000);
                assert_eq!(contacts.len(), pairs.len());
                if step >= 12 {
                    allocated.push(spent);
                }
            }
        });
        assert_eq!(
            allocated, [0; 24],
            "{threads} thread(s): allocations per frame"
        );
    }
}

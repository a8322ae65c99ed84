//! A steady frame loop allocates nothing once its buffers have grown.

use crate::support::shapes::Gen;
use widephase::{Aabb, PairFinder};

/// Once its buffers have grown, a steady frame loop allocates nothing: `Scene::update` of
/// every shape (polygons too, whose copies the kept finder writes again), a despawn and a
/// spawn, a kept `PairFinder`'s pairs (updating its grid for the shapes that left their
/// enlarged boxes, against a static level) with their began and ended pairs, and contacts,
/// cross pairs and queries, on one, two, three, six, thirteen, sixteen, twenty-four, forty and
/// a hundred threads (three: tasks that do not pair up; six: passes cut one group a thread,
/// each group first to its own thread, where the cores are counted as six or more, as CI's
/// second run of the tests counts them with `WIDEPHASE_CORES=16`; sixteen: each pass in as
/// many tasks as these shapes make, whatever cores run them; thirteen and twenty-four: the walk's tasks, eight a thread,
/// met busier shares of the events than before dozens of frames after the warm-up, and grew
/// their lists then; forty: more threads than groups a pass hands out to their own threads;
/// a hundred: a pass forked one group a thread grew the forking thread's deque past its 64
/// jobs, in every frame; the pool's workers are the counted threads, other tests run
/// elsewhere). Twenty-four frames after the warm-up: on twenty-four threads, before the walk's
/// tasks were sized together, the first allocation came in the second and the last in the
/// fortieth.
#[test]
fn steady_frames_allocate_nothing() {
    use crate::alloc;
    use widephase::{Point, Ray};
    let _alone = alloc::counting();
    let mut g = Gen::new(99);
    let mut scene = g.mixed_world(40_000, 250.0);
    for i in 0..2_000 {
        let x = (i % 50) as f32 * 5.0;
        scene.push_static(Aabb::new(
            x,
            (i / 50) as f32 * 6.0,
            x + 4.0,
            (i / 50) as f32 * 6.0 + 0.5,
        ));
    }
    let bullets = g.mixed_world(3_000, 250.0);
    let mut respawned = [0, 7919];
    for threads in [1, 2, 3, 6, 13, 16, 24, 40, 100] {
        let pool = alloc::counted_pool(threads);
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

/// A frame loop whose shapes wander allocates nothing once its buffers have grown either:
/// every frame each shape lies up to `a` from its home in x and y, at random, among static
/// tiles, sixty frames after a warm-up of forty (`a` 0.3: a few thousand escapers, a hundred
/// thousand began and ended pairs a frame, on one to twenty-four threads; 0.03 and 0.01: a
/// few hundred escapers, a few thousand pairs, on one, three, six and twenty-four). Before
/// the buffers took room (`room.rs`), the frames that allocated came now and then, however
/// long the loop ran: a shape that turned invalid made the grid repair every position the
/// first time, the edit and the repair each grew their buffers the first frame they ran
/// (the two alternate near their threshold), the tasks' lists grew whenever one met a
/// busier share than before (at 0.3 the walk's, the queries' and the mixed search's; at
/// 0.03, on six threads, the escape check's and the events' parts), and a list an escaper
/// first filed into thirty frames after the warm-up (at 0.01, the mixed candidates') was
/// empty until then. A second scene (seed 19, no tiles) at 0.05 on two threads and 0.5 on
/// three: its answer first outgrew the first frame's after the warm-up (frame 90, and frame
/// 57 in a rebuild), and the kept copy of it grew then, on every thread count, until copies
/// took room. (Each case's pool is kept for the whole binary, every thread started: a
/// thread of the case before, dropped, once counted its late end in the next case on CI.)
#[test]
fn wandering_frames_allocate_nothing() {
    use crate::alloc;
    let _alone = alloc::counting();
    // 40 k wandering shapes of seed `seed`, among 3 k static tiles where `tiles`, and the
    // shapes' homes.
    let world = |(seed, tiles)| {
        let mut scene = Gen::new(seed).mixed_world(40_000, 250.0);
        let homes: Vec<widephase::Shape> = scene.iter().map(|(_, s)| s).collect();
        for i in 0..if tiles { 3_000 } else { 0 } {
            let (x, y) = ((i % 50) as f32 * 5.0, (i / 50) as f32 * 4.1);
            scene.push_static(Aabb::new(x, y, x + 4.0, y + 0.5));
        }
        (scene, homes)
    };
    let wide = [1, 2, 3, 6, 13, 24].map(|t| (7, 0.3, t));
    let near = [0.03, 0.01]
        .into_iter()
        .flat_map(|a| [1, 3, 6, 24].map(|t| (7, a, t)));
    let grown = [(19, 0.05, 2), (19, 0.5, 3)];
    let mut scenes = [(7, true), (19, false)].map(world);
    for (seed, a, threads) in wide.into_iter().chain(near).chain(grown) {
        let (scene, homes) = &mut scenes[usize::from(seed == 19)];
        let pool = alloc::counted_pool(threads);
        let (mut finder, mut pairs, mut allocated) = (PairFinder::new(), Vec::new(), Vec::new());
        pool.install(|| {
            for step in 0..100 {
                let before = alloc::count();
                scene.update(|id, _| {
                    let (dx, dy) = (unit(id, 2 * step), unit(id, 2 * step + 1));
                    homes[id as usize].translated(2.0 * a * dx - a, 2.0 * a * dy - a)
                });
                finder.overlapping_pairs(scene, &mut pairs);
                let spent = alloc::count() - before;
                assert!(finder.began().len() > 500 && finder.stats().escaped > 100);
                if step >= 40 {
                    allocated.push(spent);
                }
            }
        });
        assert_eq!(
            allocated, [0; 60],
            "seed {seed}, {threads} thread(s), shapes up to {a} from home: allocations per frame"
        );
    }
}

/// A counted pool's threads are counted while they work, not as they start after the pool
/// is built (each allocates then, on its own time), and a second call for as many threads
/// hands out the same pool (none ends, see `alloc.rs`): the allocations of a pool's frames
/// are its own.
#[test]
fn a_counted_pool_has_started_every_thread() {
    use crate::alloc;
    let _alone = alloc::counting();
    // Thread counts no other test asks for: pools built here.
    for threads in [5, 11, 32] {
        let pool = alloc::counted_pool(threads);
        let built = alloc::count();
        // Long enough for an idle machine to start the threads (a few milliseconds).
        std::thread::sleep(std::time::Duration::from_millis(200));
        assert_eq!(
            alloc::count(),
            built,
            "{threads} threads starting after the build"
        );
        assert!(std::ptr::eq(pool, alloc::counted_pool(threads)));
        let job = pool.install(|| {
            let at = alloc::count();
            drop(std::hint::black_box(vec![threads; 8]));
            alloc::count() - at
        });
        assert_eq!(job, 1, "a job's allocation on a counted thread is counted");
        assert_eq!(pool.current_num_threads(), threads);
    }
}

/// A world of shapes that bounce between four walls, each at a speed of its own, allocates
/// nothing either once its first rebuild has passed: the kept finder rebuilds every 68 frames
/// here (a quarter of the shapes escaped), and a rebuild on one thread sorted its lists by
/// swapping each with a spare, so that the buffers moved one list along at every rebuild and
/// the lists and the walk's spares grew again after each (three frames in 68, on and on); the
/// grid a rebuild lays out with a few more cells than the first grew its cell arrays; and the
/// buffers the pairs that began and ended pass through, sized by their lists after the
/// cancelling and with an eighth of room over each new high, grew as the next frame's lists
/// before it (their counts swing with the escapers: a buffer that outgrows its room now takes
/// half again). Frames 100 to 300, on one, two and three threads.
#[test]
fn bouncing_frames_allocate_nothing() {
    // Up to 0.2 a frame on each axis.
    let velocity = |id: u32, _: f32| [1, 2].map(|salt| 0.2 * (2.0 * unit(id, salt) - 1.0));
    for threads in [1, 2, 3] {
        let (rebuilds, spent) = bouncing(7, velocity, threads, (300, 100, None));
        // Rebuilds after the first search, within the counted frames too.
        assert!(rebuilds >= 3, "{threads} thread(s): {rebuilds} rebuilds");
        assert!(
            spent.is_empty(),
            "{threads} thread(s): frames that allocated (frame, allocations): {spent:?}"
        );
    }
}

/// The bouncing world of other seeds on more threads, for 400 frames (counted from 100),
/// allocates nothing either: the pairs that began and ended, those found in a rebuild's walk
/// and the events of two whole answers went to lists of each task (or part), each with room
/// for twice the busiest share any task had met, and a task that met a busier share than any
/// before grew every task's lists (seed 7 on sixteen threads, 386 allocations in frame 264;
/// seed 3 on thirteen, 314 in frame 107; a rebuild's pairs, seed 11 on six threads, 49 in
/// frame 136; the events of two answers, seed 23 on three threads, 13 in frame 340). They
/// now lie in chunks of a pool, which grows only with the pairs of all tasks together.
#[test]
fn drifting_frames_allocate_nothing_on_many_threads() {
    let velocity = |id: u32, _: f32| [1, 2].map(|salt| 0.2 * (2.0 * unit(id, salt) - 1.0));
    for (seed, threads) in [(7, 16), (3, 13), (11, 6), (23, 3)] {
        let (rebuilds, spent) = bouncing(seed, velocity, threads, (400, 100, None));
        assert!(
            rebuilds >= 5,
            "seed {seed}, {threads} threads: {rebuilds} rebuilds"
        );
        assert!(
            spent.is_empty(),
            "seed {seed}, {threads} threads: frames that allocated (frame, allocations): \
             {spent:?}"
        );
    }
}

/// The bouncing world faster, each shape moving 0.2 of its half extent a frame in a
/// direction of its own, allocates nothing either, from its first rebuild on: it rebuilds
/// every third frame, and the frames between keep every shape in its box, until one, right
/// after a rebuild, moves one shape by its half extent more: the first frame to follow an
/// escaper. The grid's edit, the marks of the blocks it touched, the lists' spares and the
/// walk's places grew in such a frame (23 allocations on one thread, 30 on more; 65 frames
/// into this world, 121 into one a little different), until a rebuild took room for them.
/// Frames 20 to 90, the lone escaper after frame 30 (before any of the world's own), on one
/// and three threads.
#[test]
fn racing_frames_allocate_nothing() {
    let velocity = |id: u32, half: f32| {
        let angle = core::f32::consts::TAU * unit(id, 1);
        [0.2 * half * angle.cos(), 0.2 * half * angle.sin()]
    };
    for threads in [1, 3] {
        let (rebuilds, spent) = bouncing(7, velocity, threads, (90, 20, Some(30)));
        assert!(rebuilds >= 20, "{threads} thread(s): {rebuilds} rebuilds");
        assert!(
            spent.is_empty(),
            "{threads} thread(s): frames that allocated (frame, allocations): {spent:?}"
        );
    }
}

/// 40 k shapes of the mixed world of `seed`, each moving at its `velocity` (of its id and
/// half extent) and reflected at four walls, on `threads` threads for `frames` frames (with
/// `lone`, in the first frame after that one that follows a rebuild, shape 0 moved by its
/// half extent more): how many frames rebuilt after the first, and the frames from
/// `counted` on that allocated (with their allocations).
fn bouncing(
    seed: u64,
    velocity: impl Fn(u32, f32) -> [f32; 2],
    threads: usize,
    (frames, counted, mut lone): (usize, usize, Option<usize>),
) -> (usize, Vec<(usize, usize)>) {
    use crate::alloc;
    use widephase::Shape;
    let _alone = alloc::counting();
    let n = 40_000;
    let side = (n as f32 * 1.5).sqrt() * 1.3;
    let mut scene = Gen::new(seed).mixed_world(n, side);
    // Each shape, the centre of its box, its half extent and its velocity.
    let homes: Vec<(Shape, [f32; 2], f32, [f32; 2])> = scene
        .iter()
        .map(|(id, s)| {
            let b = s.bounding_box();
            let centre = [0.5 * (b.min_x + b.max_x), 0.5 * (b.min_y + b.max_y)];
            let half = 0.5 * (b.max_x - b.min_x).max(b.max_y - b.min_y);
            (s, centre, half, velocity(id, half))
        })
        .collect();
    // A coordinate moving on from `x`, reflected at 0 and `side`.
    let bounce = |x: f32| {
        let p = x.rem_euclid(2.0 * side);
        if p > side { 2.0 * side - p } else { p }
    };
    let pool = alloc::counted_pool(threads);
    let (mut finder, mut pairs, mut allocated) = (PairFinder::new(), Vec::new(), Vec::new());
    let mut rebuilds = 0;
    pool.install(|| {
        for frame in 0..frames {
            let t = frame as f32;
            let alone = lone.is_some_and(|from| frame > from && finder.stats().rebuilt);
            lone = lone.filter(|_| !alone);
            let before = alloc::count();
            scene.update(|id, _| {
                let (shape, [x, y], half, [vx, vy]) = homes[id as usize];
                let jump = if alone && id == 0 { half } else { 0.0 };
                shape.translated(bounce(x + vx * t) - x + jump, bounce(y + vy * t) - y)
            });
            finder.overlapping_pairs(&scene, &mut pairs);
            let spent = alloc::count() - before;
            // The lone escaper's frame followed it.
            let stats = finder.stats();
            assert!(
                !alone || (!stats.rebuilt && stats.escaped > 0),
                "frame {frame}"
            );
            rebuilds += usize::from(stats.rebuilt && frame > 0);
            if frame >= counted && spent > 0 {
                allocated.push((frame, spent));
            }
        }
    });
    (rebuilds, allocated)
}

/// The held-out scene's motion allocates nothing either: 100 k mixed shapes, every one (or
/// half of them) moving a share of its half extent a frame and turning back every 64
/// frames, frames 100 to 320 on eight and sixteen threads, where the finder times the search
/// from scratch against the kept path (and rebuilds as it goes back to it). The escapers come
/// in waves as the shapes turn, and a wave now and then passes every one before it: 180
/// frames after the warm-up (0.06, all moving, eight threads) the escapers' lists grew, each
/// with the eighth of room it had taken over the last high, until they took room for as many
/// escapers as a frame keeps the grid for; the lists of the moves between cells, one a task,
/// grew (half moving, sixteen threads) until the moves were written where they go; and at
/// 0.18 (all moving, eight threads) lists grew in frame 131 until the kept candidate lists
/// took half again.
///
/// That last case runs without the finder's choice: at 0.12 with it, the frames that the
/// timing hands to the search from scratch move the rebuilds, and now and then (one run in
/// four here under a busy core, once in a debug build in CI) a frame of the kept path met a
/// wave just under the rebuild threshold (24.9 k escapers of 100 k), a new high for every
/// task's lists, which grew (286 allocations, then 732 as the next frame's escape check
/// overflowed; 614 and 732 before the filed lists were one a task). Not zero, and not
/// tested: a test must not depend on the host's timing.
#[test]
fn turning_frames_allocate_nothing() {
    use crate::alloc;
    use crate::support::shapes::Motion;
    use widephase::Scene;
    let _alone = alloc::counting();
    let start: Scene = Gen::new(7).mixed_scene(100_000).into_iter().collect();
    let side = start
        .iter()
        .map(|(_, s)| s.bounding_box().max_x)
        .fold(0.0, f32::max);
    let cases = [
        (0.06, 1.0, 8, true),
        (0.06, 0.5, 16, true),
        (0.18, 1.0, 8, false),
    ];
    for (speed, moving, threads, choice) in cases {
        let motion = Motion::new(&start, speed, side).with_moving(moving);
        let mut scene = start.clone();
        let pool = alloc::counted_pool(threads);
        let mut finder = PairFinder::new().with_choice(choice);
        let (mut pairs, mut frame, mut spent, mut escaping) = (Vec::new(), 0, Vec::new(), 0);
        pool.install(|| {
            while frame < 320 {
                let before = alloc::count();
                motion.step(&mut scene, &mut frame);
                finder.overlapping_pairs(&scene, &mut pairs);
                let allocated = alloc::count() - before;
                if frame > 100 {
                    escaping += usize::from(finder.stats().escaped > 0);
                    if allocated > 0 {
                        spent.push((frame - 1, allocated));
                    }
                }
            }
        });
        assert!(escaping > 50, "{escaping} of 220 frames with escapers");
        assert!(
            spent.is_empty(),
            "speed {speed}, {moving} moving, {threads} threads, choice {choice}: frames that \
             allocated (frame, allocations): {spent:?}"
        );
    }
}

/// A number in 0..1 from a shape's id and a salt (a frame's, or an axis's).
fn unit(id: u32, salt: u32) -> f32 {
    let x =
        (id.wrapping_mul(0x9e37_79b9) ^ salt.wrapping_mul(0x85eb_ca6b)).wrapping_mul(0x2c1b_3c6d);
    ((x ^ (x >> 15)) >> 8) as f32 / (1 << 24) as f32
}

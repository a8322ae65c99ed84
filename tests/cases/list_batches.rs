//! A kept finder's candidate lists of every length around the sizes its kernels take them in
//! (one lane block, a short batch, a full batch, several), on scenes of 1 to 300 shapes.

use super::scene::brute_scene;
use crate::support::model::events;
use crate::support::threads::in_pool;
use widephase::{Aabb, Circle, Obb, PairFinder, Scene, Shape};

/// Shape `i` of a row at frame `frame`: circles (with `kinds`, every third an AABB and every
/// third a turning OBB) each overlapping the next, the moving ones sliding to and fro by up to
/// 0.3, so that pairs begin and end every frame; with `rest`, only every other shape moves
/// (the kernels then pick the candidates they test, passing over those of two still shapes).
fn shape(i: u32, frame: u32, kinds: bool, rest: bool) -> Shape {
    let moving = !rest || i.is_multiple_of(2);
    let phase = if moving {
        frame as f32 * 0.9 + i as f32
    } else {
        0.0
    };
    let (x, y) = (i as f32 * 0.95 + 0.3 * phase.sin(), 0.2 * (i % 3) as f32);
    match (kinds, i % 3) {
        (true, 1) => Aabb::new(x - 0.45, y - 0.45, x + 0.45, y + 0.45).into(),
        (true, 2) => Obb::new(x, y, 0.5, 0.3, 0.4 * phase).into(),
        _ => Circle::new(x, y, 0.5).into(),
    }
}

/// Over eight frames of motion, the kept finder's answer is brute force's and its began and
/// ended pairs are the difference from the last frame's, for every row length from 1 to 300
/// shapes (its lists' lengths run through every batch boundary of either lane width), of one
/// kind and of three (lists of three lengths at once), all moving and half at rest, on one
/// thread and on three.
#[test]
fn kept_lists_of_every_length_are_decided_exactly() {
    for threads in [1, 3] {
        in_pool(threads, || {
            for kinds in [false, true] {
                for rest in [false, true] {
                    for n in 1..=300 {
                        check_row(n, kinds, rest, threads);
                    }
                }
            }
        });
    }
}

/// [`kept_lists_of_every_length_are_decided_exactly`] for one row.
fn check_row(n: u32, kinds: bool, rest: bool, threads: usize) {
    let mut scene: Scene = (0..n).map(|i| shape(i, 0, kinds, rest)).collect();
    let (mut finder, mut pairs) = (PairFinder::new(), Vec::new());
    let mut last: Vec<(u32, u32)> = Vec::new();
    for frame in 0..8 {
        scene.update(|id, _| shape(id, frame, kinds, rest));
        finder.overlapping_pairs(&scene, &mut pairs);
        let want = brute_scene(&scene);
        let at =
            format!("{n} shapes, kinds {kinds}, rest {rest}, frame {frame}, {threads} threads");
        assert_eq!(pairs, want, "{at}");
        let (began, ended) = events(&last, &want);
        assert_eq!(finder.began(), began, "began, {at}");
        assert_eq!(finder.ended(), ended, "ended, {at}");
        last = want;
    }
}

//! Sweeps onto a capsule's ends worked by hand: a polygon's corner that crosses the line
//! beside the segment beyond its far end meets that end, not the near one; one moving along
//! the segment's line meets the end it moves towards; both orders (the capsule moving).

use widephase::{Capsule, Capsules, Polygon, Polygons, Sweep, SweepPair, sweep_reference};

#[test]
fn a_corner_meets_the_end_of_a_capsule_it_reaches_first() {
    // A capsule along x from 0 to 4, radius 0.5, and a diamond whose bottom corner leads.
    let capsule = Capsule::new(0.0, 0.0, 4.0, 0.0, 0.5);
    let diamond = |x: f32, y: f32| {
        Polygon::new(&[[x, y], [x + 0.5, y + 0.5], [x, y + 1.0], [x - 0.5, y + 0.5]]).unwrap()
    };
    let both = |p: &Polygon, m: [f32; 2]| {
        let forward = sweep_reference::polygon_capsule(p, &capsule, m);
        let back = <Capsules as SweepPair<Polygons>>::sweep_reference(&capsule, p, [-m[0], -m[1]]);
        let (f, b) = (
            forward.expect("it meets an end"),
            back.expect("the same, reversed"),
        );
        assert_eq!(f.t, b.t);
        assert_eq!(f.normal, [-b.normal[0], -b.normal[1]]);
        f
    };
    let close = |s: Sweep, t: f32, n: [f32; 2]| {
        assert!((s.t - t).abs() < 1e-6, "t {} against {t}", s.t);
        assert!((s.normal[0] - n[0]).abs() < 1e-6 && (s.normal[1] - n[1]).abs() < 1e-6);
    };
    // Crossing the band's line beyond the far end (x = 4.25), past the near end's side: the
    // far end's disc, at t = 9.75 / 15 along (-0.6, -0.8); mirrored, the near end's.
    close(both(&diamond(3.0, 3.0), [2.0, -4.0]), 0.65, [-0.6, -0.8]);
    close(both(&diamond(1.0, 3.0), [-2.0, -4.0]), 0.65, [0.6, -0.8]);
    // Along the segment's line (no side of it closes): the end it moves towards, both ways,
    // corner first (the diamond turned on its side).
    let side = |x: f32, dir: f32| {
        let tip = [x, 0.0];
        Polygon::new(&[tip, [x - dir, -0.5], [x - 2.0 * dir, 0.0], [x - dir, 0.5]]).unwrap()
    };
    let left = both(&side(-2.0, 1.0), [4.0, 0.0]);
    assert_eq!(
        left,
        Sweep {
            t: 0.375,
            normal: [1.0, 0.0]
        }
    );
    let right = both(&side(6.0, -1.0), [-4.0, 0.0]);
    assert_eq!(
        right,
        Sweep {
            t: 0.375,
            normal: [-1.0, 0.0]
        }
    );
}

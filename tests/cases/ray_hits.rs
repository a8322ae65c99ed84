//! `RayHit`: the nearest hit of `raycast` with its entry point and the surface's outward
//! normal, checked against the shape's support function (an independent statement of "the
//! tangent line at the entry point") on random scenes of every kind, and hand-worked cases.

use crate::support::shapes::Gen;
use widephase::{
    Aabb, Capsule, Circle, Filter, Obb, PairFinder, Polygon, Ray, RayHit, Scene, Shape,
};

/// The largest `n · x` over the shape: where its tangent line with normal `n` lies.
fn support(s: &Shape, n: [f64; 2]) -> f64 {
    let f = |v: f32| f64::from(v);
    let at = |x: f32, y: f32| n[0] * f(x) + n[1] * f(y);
    let len = (n[0] * n[0] + n[1] * n[1]).sqrt();
    match s {
        Shape::Circle(c) => at(c.x, c.y) + f(c.radius) * len,
        Shape::Capsule(c) => at(c.x0, c.y0).max(at(c.x1, c.y1)) + f(c.radius) * len,
        Shape::Aabb(b) => [
            (b.min_x, b.min_y),
            (b.min_x, b.max_y),
            (b.max_x, b.min_y),
            (b.max_x, b.max_y),
        ]
        .iter()
        .map(|&(x, y)| at(x, y))
        .fold(f64::MIN, f64::max),
        Shape::Obb(o) => {
            let (c, s) = (f(o.cos), f(o.sin));
            let (hw, hh) = (f(o.half_width), f(o.half_height));
            [(1.0, 1.0), (1.0, -1.0), (-1.0, 1.0), (-1.0, -1.0)]
                .iter()
                .map(|&(a, b)| {
                    let x = f(o.center_x) + a * hw * c - b * hh * s;
                    let y = f(o.center_y) + a * hw * s + b * hh * c;
                    n[0] * x + n[1] * y
                })
                .fold(f64::MIN, f64::max)
        }
        Shape::Polygon(p) => (0..8)
            .map(|k| at(p.xs[k], p.ys[k]))
            .fold(f64::MIN, f64::max),
    }
}

/// What every hit must be: `raycast`'s id and `t`, the point `ray.at(t)` to the bit, a unit
/// normal; from outside, a normal against the ray whose tangent line through the point
/// touches the shape; from inside, the reverse direction.
fn check_hit(scene: &Scene, ray: &Ray, hit: Option<RayHit>, cast: Option<(u32, f32)>) {
    assert_eq!(
        hit.map(|h| (h.id, h.t.to_bits())),
        cast.map(|(id, t)| (id, t.to_bits()))
    );
    let Some(h) = hit else { return };
    let p = ray.at(h.t);
    assert_eq!(h.point.map(f32::to_bits), [p.x.to_bits(), p.y.to_bits()]);
    let n = h.normal.map(f64::from);
    let d = [f64::from(ray.dir_x), f64::from(ray.dir_y)];
    let dlen = (d[0] * d[0] + d[1] * d[1]).sqrt();
    if dlen == 0.0 {
        assert_eq!(h.normal, [0.0, 0.0]);
        return;
    }
    assert!(
        ((n[0] * n[0] + n[1] * n[1]).sqrt() - 1.0).abs() < 1e-6,
        "{h:?}"
    );
    if h.t == 0.0 {
        let back = [-d[0] / dlen, -d[1] / dlen];
        assert!(
            (n[0] - back[0]).abs() < 1e-6 && (n[1] - back[1]).abs() < 1e-6,
            "{h:?}"
        );
        return;
    }
    let shape = scene.get(h.id).unwrap();
    assert!(
        n[0] * d[0] + n[1] * d[1] <= 1e-6 * dlen,
        "normal along the ray: {h:?} {ray:?} {shape:?}"
    );
    let (px, py) = (f64::from(p.x), f64::from(p.y));
    let scale = px.abs().max(py.abs()).max(1.0);
    let gap = support(&shape, n) - (n[0] * px + n[1] * py);
    assert!(
        gap.abs() < 1e-4 * scale,
        "tangent line off by {gap}: {h:?} {shape:?} {ray:?}"
    );
}

/// A shape of any kind, radius-0 capsules (segments) included.
fn any_shape(g: &mut Gen, side: f32) -> Shape {
    let (x, y) = (g.uniform(0.0, side), g.uniform(0.0, side));
    let size = g.uniform(0.3, 2.0);
    match g.index(6) {
        0 => Circle::new(x, y, size).into(),
        1 => Aabb::from_center(x, y, size, g.uniform(0.2, 2.0)).into(),
        2 => Obb::new(x, y, size, g.uniform(0.2, 2.0), g.uniform(-3.2, 3.2)).into(),
        3 => g.convex(x, y, size).into(),
        4 => Capsule::new(
            x,
            y,
            x + g.uniform(-2.0, 2.0),
            y + g.uniform(-2.0, 2.0),
            size * 0.3,
        )
        .into(),
        _ => Capsule::new(
            x,
            y,
            x + g.uniform(-2.0, 2.0),
            y + g.uniform(-2.0, 2.0),
            0.0,
        )
        .into(),
    }
}

#[test]
fn ray_hits_lie_on_the_surface_they_enter() {
    let mut g = Gen::new(5);
    let side = 60.0;
    let mut scene = Scene::new();
    for k in 0..1500 {
        let s = any_shape(&mut g, side);
        if k % 4 == 0 {
            scene.push_static(s);
        } else {
            scene.push(s);
        }
    }
    let mut finder = PairFinder::new();
    let index = finder.index(&scene);
    let mut outside = 0;
    for k in 0..3000 {
        let (x, y) = (g.uniform(-5.0, side + 5.0), g.uniform(-5.0, side + 5.0));
        let (dx, dy) = match k % 10 {
            0 => (0.0, 0.0),
            1 => (g.uniform(-1.0, 1.0), 0.0),
            2 => (0.0, g.uniform(-1.0, 1.0)),
            _ => (g.uniform(-3.0, 3.0), g.uniform(-3.0, 3.0)),
        };
        let ray = Ray::new(x, y, dx, dy, [4.0, 40.0, f32::INFINITY][k % 3]);
        let hit = index.raycast_hit(&ray);
        check_hit(&scene, &ray, hit, index.raycast(&ray));
        assert_eq!(scene.raycast_hit(&ray), hit);
        let filter = Filter::new(1, 1).with_group(-1);
        let filtered = index.raycast_hit_filtered(&ray, filter);
        check_hit(&scene, &ray, filtered, index.raycast_filtered(&ray, filter));
        assert_eq!(scene.raycast_hit_filtered(&ray, filter), filtered);
        outside += usize::from(hit.is_some_and(|h| h.t > 0.0));
    }
    assert!(outside > 500, "{outside} hits from outside");
}

fn hit_of(shape: impl Into<Shape>, ray: Ray) -> RayHit {
    let mut scene = Scene::new();
    scene.push(shape);
    scene.raycast_hit(&ray).expect("a hit")
}

#[test]
fn hand_worked_normals() {
    let inf = f32::INFINITY;
    // A box face, and a box corner hit on the diagonal of a wider-than-tall approach: the
    // face more opposed to the ray (x here, |dx| > |dy|).
    let b = Aabb::new(0.0, 0.0, 2.0, 2.0);
    assert_eq!(
        hit_of(b, Ray::new(1.0, 5.0, 0.0, -1.0, inf)).normal,
        [0.0, 1.0]
    );
    let corner = hit_of(b, Ray::new(-2.0, -1.0, 2.0, 1.0, inf));
    assert_eq!(
        (corner.t, corner.point, corner.normal),
        (1.0, [0.0, 0.0], [-1.0, 0.0])
    );
    let corner = hit_of(b, Ray::new(-1.0, -2.0, 1.0, 2.0, inf));
    assert_eq!((corner.point, corner.normal), ([0.0, 0.0], [0.0, -1.0]));
    // A box turned by 90 degrees: its local x face now faces up.
    let o = Obb::new(0.0, 0.0, 2.0, 1.0, core::f32::consts::FRAC_PI_2);
    let h = hit_of(o, Ray::new(0.0, 10.0, 0.0, -1.0, inf));
    assert!(
        (h.normal[0]).abs() < 1e-6 && (h.normal[1] - 1.0).abs() < 1e-6,
        "{h:?}"
    );
    assert!((h.t - 8.0).abs() < 1e-5);
    // A triangle's slanted face.
    let tri = Polygon::new(&[[0.0, 0.0], [2.0, 0.0], [0.0, 2.0]]).unwrap();
    let h = hit_of(tri, Ray::new(2.0, 2.0, -1.0, -1.0, inf));
    let s = core::f32::consts::FRAC_1_SQRT_2;
    assert!(
        (h.normal[0] - s).abs() < 1e-6 && (h.normal[1] - s).abs() < 1e-6,
        "{h:?}"
    );
    // A capsule's round end and its flat side; a segment's side from either side, its end.
    let cap = Capsule::new(0.0, 0.0, 4.0, 0.0, 1.0);
    assert_eq!(
        hit_of(cap, Ray::new(10.0, 0.0, -1.0, 0.0, inf)).normal,
        [1.0, 0.0]
    );
    assert_eq!(
        hit_of(cap, Ray::new(2.0, -5.0, 0.0, 1.0, inf)).normal,
        [0.0, -1.0]
    );
    let seg = Capsule::new(0.0, 0.0, 4.0, 0.0, 0.0);
    assert_eq!(
        hit_of(seg, Ray::new(1.0, 3.0, 0.5, -1.0, inf)).normal,
        [0.0, 1.0]
    );
    assert_eq!(
        hit_of(seg, Ray::new(1.0, -3.0, 0.5, 1.0, inf)).normal,
        [0.0, -1.0]
    );
    let end = hit_of(seg, Ray::new(-3.0, 0.0, 1.0, 0.0, inf));
    assert_eq!((end.t, end.normal), (3.0, [-1.0, 0.0]));
    // A circle from inside: t = 0, the origin, the reverse of the ray.
    let c = Circle::new(0.0, 0.0, 1.0);
    let h = hit_of(c, Ray::new(0.5, 0.0, 0.0, 3.0, inf));
    assert_eq!((h.t, h.point, h.normal), (0.0, [0.5, 0.0], [-0.0, -1.0]));
    let h = hit_of(c, Ray::new(0.5, 0.0, 0.0, 0.0, inf));
    assert_eq!(h.normal, [0.0, 0.0], "a zero direction");
    // Huge coordinates: still a unit normal against the ray.
    let far = hit_of(
        Circle::new(1e7, 1e7, 10.0),
        Ray::new(1e7, 1e7 + 100.0, 0.0, -1.0, inf),
    );
    assert_eq!(far.normal, [0.0, 1.0]);
}

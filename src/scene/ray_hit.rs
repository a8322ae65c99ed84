//! [`RayHit`]: the nearest shape a ray enters, with where it enters and the surface's normal
//! there, for ricochets and decals. The hit itself is [`SceneIndex::raycast`]'s; the point and
//! normal are computed afterwards from the one shape hit, in `f64`.

use super::{Filter, Scene, SceneIndex};
use crate::shape::{Aabb, Obb, Polygon, Ray, Shape};

/// The nearest shape a ray enters: its id, the entry parameter `t` (as
/// [`SceneIndex::raycast`] answers: the smallest `t`, ties to the smallest id), the entry
/// point `origin + t · direction`, and the unit outward normal of the surface entered there.
///
/// - **Starting inside** a shape (its boundary included): `t = 0`, `point` is the origin and
///   `normal` is `-direction` normalised (`[0, 0]` for a zero direction): there is no surface
///   to report, and the reverse of the ray is where it would leave by.
/// - **Faces** (boxes, rotated boxes, polygons): the normal of the face entered. At a corner,
///   where two faces are entered at the same `t`, the face whose normal is more opposed to
///   the ray's direction.
/// - **Round shapes** (circles, capsules): the direction from the nearest point of the core
///   (the centre, or the capsule's segment) to the entry point. A segment (radius 0) hit on
///   its side: its normal on the ray's side; hit on an end: the direction the ray came from.
///
/// ```
/// use widephase::{Aabb, Circle, Ray, Scene};
/// let mut scene = Scene::new();
/// let wall = scene.push_static(Aabb::new(5.0, -10.0, 6.0, 10.0));
/// let ball = scene.push(Circle::new(0.0, 3.0, 1.0));
/// let hit = scene.raycast_hit(&Ray::new(0.0, 0.0, 1.0, 0.0, f32::INFINITY)).unwrap();
/// assert_eq!((hit.id, hit.t, hit.point, hit.normal), (wall, 5.0, [5.0, 0.0], [-1.0, 0.0]));
/// let down = Ray::new(0.0, 10.0, 0.0, -2.0, f32::INFINITY);
/// let hit = scene.raycast_hit(&down).unwrap();
/// assert_eq!((hit.id, hit.t, hit.point, hit.normal), (ball, 3.0, [0.0, 4.0], [0.0, 1.0]));
/// // From inside: t = 0, the origin, the reverse direction.
/// let inside = scene.raycast_hit(&Ray::new(0.0, 3.0, 0.0, -2.0, 10.0)).unwrap();
/// assert_eq!((inside.t, inside.point, inside.normal), (0.0, [0.0, 3.0], [0.0, 1.0]));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RayHit {
    /// The shape hit.
    pub id: u32,
    /// The entry parameter: the hit is at `origin + t · direction`.
    pub t: f32,
    /// The entry point.
    pub point: [f32; 2],
    /// The unit outward normal of the surface entered (see [`RayHit`] for corners, segments
    /// and rays that start inside).
    pub normal: [f32; 2],
}

impl SceneIndex<'_> {
    /// [`raycast`](Self::raycast)'s hit with its entry point and surface normal (see
    /// [`RayHit`]).
    #[must_use]
    pub fn raycast_hit(&self, ray: &Ray) -> Option<RayHit> {
        self.hit(ray, self.raycast(ray)?)
    }

    /// [`raycast_filtered`](Self::raycast_filtered)'s hit with its entry point and surface
    /// normal: a bullet's ray that skips its shooter by group, and tells where it struck.
    #[must_use]
    pub fn raycast_hit_filtered(&self, ray: &Ray, filter: Filter) -> Option<RayHit> {
        self.hit(ray, self.raycast_filtered(ray, filter)?)
    }

    fn hit(&self, ray: &Ray, (id, t): (u32, f32)) -> Option<RayHit> {
        let shape = self.scene.get(id)?;
        let p = ray.at(t);
        let normal = if t == 0.0 {
            backwards(ray)
        } else {
            normal_at(&shape, ray, [f64::from(p.x), f64::from(p.y)])
        };
        Some(RayHit {
            id,
            t,
            point: [p.x, p.y],
            normal,
        })
    }
}

impl Scene {
    /// [`raycast`](Self::raycast)'s hit with its entry point and surface normal (see
    /// [`RayHit`]). Builds a grid each call; for many rays use
    /// [`PairFinder::index`](crate::PairFinder::index) and [`SceneIndex::raycast_hit`].
    #[must_use]
    pub fn raycast_hit(&self, ray: &Ray) -> Option<RayHit> {
        crate::PairFinder::new().index(self).raycast_hit(ray)
    }

    /// [`raycast_filtered`](Self::raycast_filtered)'s hit with its entry point and surface
    /// normal.
    #[must_use]
    pub fn raycast_hit_filtered(&self, ray: &Ray, filter: Filter) -> Option<RayHit> {
        crate::PairFinder::new()
            .index(self)
            .raycast_hit_filtered(ray, filter)
    }
}

type V = [f64; 2];

fn dot(a: V, b: V) -> f64 {
    a[0] * b[0] + a[1] * b[1]
}

fn sub(a: V, b: V) -> V {
    [a[0] - b[0], a[1] - b[1]]
}

/// `v` normalised, in `f32`; `None` for a zero (or non-finite) vector.
fn unit(v: V) -> Option<[f32; 2]> {
    let len = dot(v, v).sqrt();
    (len > 0.0 && len.is_finite()).then(|| [(v[0] / len) as f32, (v[1] / len) as f32])
}

fn direction(ray: &Ray) -> V {
    [f64::from(ray.dir_x), f64::from(ray.dir_y)]
}

fn origin(ray: &Ray) -> V {
    [f64::from(ray.origin_x), f64::from(ray.origin_y)]
}

/// `-direction` normalised, `[0, 0]` for a zero direction.
fn backwards(ray: &Ray) -> [f32; 2] {
    let d = direction(ray);
    unit([-d[0], -d[1]]).unwrap_or([0.0, 0.0])
}

/// The outward normal of `shape` where the ray entered it at `p` (`t > 0`).
fn normal_at(shape: &Shape, ray: &Ray, p: V) -> [f32; 2] {
    let normal = match shape {
        Shape::Circle(c) => {
            let centre = [f64::from(c.x), f64::from(c.y)];
            round(ray, p, centre, centre)
        }
        Shape::Capsule(c) => {
            let f = |v: f32| f64::from(v);
            round(ray, p, [f(c.x0), f(c.y0)], [f(c.x1), f(c.y1)])
        }
        Shape::Aabb(b) => faces(ray, &box_faces(b)),
        Shape::Obb(o) => faces(ray, &obb_faces(o)),
        Shape::Polygon(q) => faces(ray, &polygon_faces(q)),
    };
    normal.unwrap_or_else(|| backwards(ray))
}

/// The normal of a round shape whose core is the segment `a`–`b` (a point when they are
/// equal) at `p`: from the nearest core point to `p`; on the core itself (radius 0), the
/// segment's side facing the ray.
fn round(ray: &Ray, p: V, a: V, b: V) -> Option<[f32; 2]> {
    let ab = sub(b, a);
    let len2 = dot(ab, ab);
    let s = if len2 > 0.0 {
        (dot(sub(p, a), ab) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let q = [a[0] + s * ab[0], a[1] + s * ab[1]];
    // Within the `f32` rounding of the entry point from the core: the hit is on a radius-0
    // capsule (or a point), where the direction from the core is rounding noise.
    let scale = [p, a, b]
        .iter()
        .flatten()
        .fold(1.0f64, |m, v| m.max(v.abs()));
    let away = sub(p, q);
    if dot(away, away).sqrt() > scale * 64.0 * f64::from(f32::EPSILON) {
        return unit(away);
    }
    if len2 > 0.0 && s > 0.0 && s < 1.0 {
        let side = [-ab[1], ab[0]];
        let facing = if dot(side, direction(ray)) > 0.0 {
            [-side[0], -side[1]]
        } else {
            side
        };
        return unit(facing);
    }
    None
}

/// A face as a point on it and its outward normal (not normalised).
type Face = (V, V);

fn box_faces(b: &Aabb) -> [Face; 4] {
    let f = |v: f32| f64::from(v);
    let (lo, hi) = ([f(b.min_x), f(b.min_y)], [f(b.max_x), f(b.max_y)]);
    [
        (lo, [-1.0, 0.0]),
        (lo, [0.0, -1.0]),
        (hi, [1.0, 0.0]),
        (hi, [0.0, 1.0]),
    ]
}

fn obb_faces(o: &Obb) -> [Face; 4] {
    let f = |v: f32| f64::from(v);
    let (c, ux, uy) = (
        [f(o.center_x), f(o.center_y)],
        [f(o.cos), f(o.sin)],
        [-f(o.sin), f(o.cos)],
    );
    let (hw, hh) = (f(o.half_width), f(o.half_height));
    let at = |u: V, h: f64| [c[0] + u[0] * h, c[1] + u[1] * h];
    let neg = |u: V| [-u[0], -u[1]];
    [
        (at(ux, hw), ux),
        (at(ux, -hw), neg(ux)),
        (at(uy, hh), uy),
        (at(uy, -hh), neg(uy)),
    ]
}

fn polygon_faces(q: &Polygon) -> Vec<Face> {
    let n = q.vertex_count();
    let v = |k: usize| [f64::from(q.xs[k % n]), f64::from(q.ys[k % n])];
    (0..n)
        .map(|k| {
            let e = sub(v(k + 1), v(k));
            // Counter-clockwise: the outside is on the right of each edge.
            (v(k), [e[1], -e[0]])
        })
        .collect()
}

/// The face a ray from outside enters a convex shape by: of the faces it crosses inwards, the
/// one it crosses last; on a tie, the one more opposed to the ray's direction.
fn faces(ray: &Ray, faces: &[Face]) -> Option<[f32; 2]> {
    let (o, d) = (origin(ray), direction(ray));
    let mut best: Option<(f64, f64, V)> = None;
    for &(on, n) in faces {
        let len = dot(n, n).sqrt();
        let facing = dot(n, d);
        if len == 0.0 || facing >= 0.0 {
            continue;
        }
        let t = dot(n, sub(on, o)) / facing;
        let opposed = facing / len;
        if best.is_none_or(|(bt, bo, _)| t > bt || t == bt && opposed < bo) {
            best = Some((t, opposed, n));
        }
    }
    unit(best?.2)
}

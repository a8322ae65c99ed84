//! What a `Scene` must answer, written out again without its grids: the reference overlap test
//! of any two shapes, a sweep over bounding boxes, and a model of a scene's live shapes (ids,
//! filters, static flags) with the pairs and events it must report. Shared by the tests and
//! the world fuzzer (`tools/examples/world_fuzz.rs`), each of which uses part of it.

#![allow(dead_code)]

use widephase::{Circle, Filter, Point, Ray, Scene, Shape, Sweep, reference};

/// The filters the model tests and the world fuzzer draw from: everything, layer pairs that
/// accept each other or not, a shape that pairs with nothing (`mask: 0`), one in no layer, and
/// groups: a positive group whose members pair whatever their layers (two of them have
/// `mask: 0`), a negative one whose members never pair with each other.
pub const FILTERS: [Filter; 10] = [
    Filter::ALL,
    Filter::new(2, 2),
    Filter::new(4, 1 | 4),
    Filter::new(1 | 2, 4),
    Filter::new(1, 0),
    Filter::new(0, u32::MAX),
    Filter::new(1, 0).with_group(3),
    Filter::new(8, 1).with_group(3),
    Filter::ALL.with_group(-5),
    Filter::new(2, 2 | 1).with_group(-5),
];

/// Sorted pairs of ids.
pub type Pairs = Vec<(u32, u32)>;

/// The reference's answer for two scene shapes, in the kernels' argument order.
pub fn overlap(a: &Shape, b: &Shape) -> bool {
    use Shape::*;
    match (a, b) {
        (Circle(x), Circle(y)) => reference::circle_circle(x, y),
        (Circle(x), Aabb(y)) | (Aabb(y), Circle(x)) => reference::circle_aabb(x, y),
        (Circle(x), Obb(y)) | (Obb(y), Circle(x)) => reference::circle_obb(x, y),
        (Aabb(x), Aabb(y)) => reference::aabb_aabb(x, y),
        (Aabb(x), Obb(y)) | (Obb(y), Aabb(x)) => reference::aabb_obb(x, y),
        (Obb(x), Obb(y)) => reference::obb_obb(x, y),
        (Circle(x), Polygon(y)) | (Polygon(y), Circle(x)) => reference::circle_polygon(x, y),
        (Aabb(x), Polygon(y)) | (Polygon(y), Aabb(x)) => reference::aabb_polygon(x, y),
        (Obb(x), Polygon(y)) | (Polygon(y), Obb(x)) => reference::obb_polygon(x, y),
        (Polygon(x), Polygon(y)) => reference::polygon_polygon(x, y),
        (Circle(x), Capsule(y)) | (Capsule(y), Circle(x)) => reference::circle_capsule(x, y),
        (Aabb(x), Capsule(y)) | (Capsule(y), Aabb(x)) => reference::aabb_capsule(x, y),
        (Obb(x), Capsule(y)) | (Capsule(y), Obb(x)) => reference::obb_capsule(x, y),
        (Polygon(x), Capsule(y)) | (Capsule(y), Polygon(x)) => reference::polygon_capsule(x, y),
        (Capsule(x), Capsule(y)) => reference::capsule_capsule(x, y),
    }
}

/// Every overlapping pair of valid shapes by index, sorted: a sweep along x over bounding
/// boxes grown by 10⁻⁵ of their largest coordinate (about eighty times a float's rounding
/// there, far more than any rounding of the reference; a thousandth made the sweep quadratic
/// in a world a million units wide), each candidate decided by [`overlap`].
pub fn sweep(shapes: &[Shape]) -> Pairs {
    let grown = |s: &Shape| {
        let b = s.bounding_box();
        let pad = 1e-5
            * [b.min_x, b.min_y, b.max_x, b.max_y]
                .map(f32::abs)
                .iter()
                .fold(1.0f32, |m, v| m.max(*v));
        [b.min_x - pad, b.min_y - pad, b.max_x + pad, b.max_y + pad]
    };
    let mut order: Vec<(u32, [f32; 4])> = shapes
        .iter()
        .enumerate()
        .filter(|(_, s)| s.check().is_ok())
        .map(|(i, s)| (i as u32, grown(s)))
        .collect();
    order.sort_by(|a, b| a.1[0].total_cmp(&b.1[0]));
    let mut out = Vec::new();
    for (k, (i, a)) in order.iter().enumerate() {
        for (j, b) in &order[k + 1..] {
            if b[0] > a[2] {
                break;
            }
            if b[1] <= a[3] && a[1] <= b[3] && overlap(&shapes[*i as usize], &shapes[*j as usize]) {
                out.push((*i.min(j), *i.max(j)));
            }
        }
    }
    out.sort_unstable();
    out
}

/// The reference's ray cast against one scene shape: the entry parameter, infinite for none.
fn cast(r: &Ray, s: &Shape) -> f32 {
    match s {
        Shape::Circle(c) => reference::ray_circle(r, c),
        Shape::Aabb(b) => reference::ray_aabb(r, b),
        Shape::Obb(o) => reference::ray_obb(r, o),
        Shape::Polygon(p) => reference::ray_polygon(r, p),
        Shape::Capsule(c) => reference::ray_capsule(r, c),
    }
}

/// The first valid shape (by index) that `r` enters, nearest first, the smaller index on a
/// tie, with its entry parameter.
pub fn brute_raycast(shapes: &[Shape], r: &Ray) -> Option<(u32, f32)> {
    raycast_by(shapes, r, |i| i as u32)
}

/// The first valid shape that `r` enters, nearest first, the smaller `id_of` its index on a
/// tie, as `(id, t)`.
fn raycast_by(shapes: &[Shape], r: &Ray, id_of: impl Fn(usize) -> u32) -> Option<(u32, f32)> {
    let mut best: Option<(u32, f32)> = None;
    for (i, s) in shapes.iter().enumerate() {
        if s.check().is_err() {
            continue;
        }
        let (id, t) = (id_of(i), cast(r, s));
        if t < f32::INFINITY && best.is_none_or(|(b, bt)| t < bt || t == bt && id < b) {
            best = Some((id, t));
        }
    }
    best
}

/// The indices of the valid shapes that overlap the box `q` (a `Shape::Aabb`), ascending.
pub fn brute_query(shapes: &[Shape], q: &Shape) -> Vec<u32> {
    (0..shapes.len() as u32)
        .filter(|&i| {
            let s = &shapes[i as usize];
            s.check().is_ok()
                && match (q, s) {
                    (Shape::Aabb(a), Shape::Circle(c)) => reference::circle_aabb(c, a),
                    (Shape::Aabb(a), Shape::Aabb(b)) => reference::aabb_aabb(a, b),
                    (Shape::Aabb(a), Shape::Obb(o)) => reference::aabb_obb(a, o),
                    (Shape::Aabb(a), Shape::Polygon(p)) => reference::aabb_polygon(a, p),
                    (Shape::Aabb(a), Shape::Capsule(c)) => reference::aabb_capsule(a, c),
                    _ => unreachable!("box queries only"),
                }
        })
        .collect()
}

/// The indices of the valid shapes that hold the point `p`, ascending.
pub fn brute_point(shapes: &[Shape], p: &Point) -> Vec<u32> {
    (0..shapes.len() as u32)
        .filter(|&i| {
            let s = &shapes[i as usize];
            s.check().is_ok()
                && match s {
                    Shape::Circle(c) => reference::point_circle(p, c),
                    Shape::Aabb(b) => reference::point_aabb(p, b),
                    Shape::Obb(o) => reference::point_obb(p, o),
                    Shape::Polygon(q) => reference::point_polygon(p, q),
                    Shape::Capsule(c) => reference::point_capsule(p, c),
                }
        })
        .collect()
}

/// Set differences of two answers: (began, ended), each sorted and without repeats. A walk
/// along sorted copies of the two, rather than two trees: the fuzzer's runs at scale check
/// answers of up to a million pairs a call.
pub fn events(old: &[(u32, u32)], new: &[(u32, u32)]) -> (Pairs, Pairs) {
    let sorted = |v: &[(u32, u32)]| {
        let mut v = v.to_vec();
        v.sort_unstable();
        v.dedup();
        v
    };
    let (o, n) = (sorted(old), sorted(new));
    let (mut began, mut ended) = (Vec::new(), Vec::new());
    let (mut i, mut j) = (0, 0);
    loop {
        match (o.get(i), n.get(j)) {
            (Some(a), Some(b)) if a == b => (i, j) = (i + 1, j + 1),
            (Some(a), b) if b.is_none_or(|b| a < b) => {
                ended.push(*a);
                i += 1;
            }
            (_, Some(b)) => {
                began.push(*b);
                j += 1;
            }
            _ => return (began, ended),
        }
    }
}

/// The filter rule written out again (not `Filter::pairs_with`, which is under test): a shared
/// non-zero group decides by its sign, else each one's layer in the other's mask.
pub fn pair(a: Filter, b: Filter) -> bool {
    if a.group != 0 && a.group == b.group {
        return a.group > 0;
    }
    a.layer & b.mask != 0 && b.layer & a.mask != 0
}

/// A live shape of the model.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    pub shape: Shape,
    pub filter: Filter,
    pub fixed: bool,
    /// A sensor: paired with solid shapes only, no contacts, invisible to ray casts.
    pub sensor: bool,
    /// The user data the scene keeps for it.
    pub data: u64,
}

impl Entry {
    /// Pushes this entry into `scene` (static or moving, sensor or solid, with its filter and
    /// user data), by the call that says most of it at once; its id.
    pub fn push_into(&self, scene: &mut Scene) -> u32 {
        let id = match (self.fixed, self.sensor) {
            (true, _) => scene.push_static_with(self.shape, self.filter),
            (false, true) => scene.push_sensor_with(self.shape, self.filter),
            (false, false) => scene.push_with(self.shape, self.filter),
        };
        if self.fixed && self.sensor {
            scene.set_sensor(id, true);
        }
        if self.data != 0 {
            scene.set_user_data(id, self.data);
        }
        id
    }
}

/// Whether the shapes of two entries pair, apart from their geometry: the filter rule, no two
/// static shapes, no two sensors.
pub fn entries_pair(a: &Entry, b: &Entry) -> bool {
    let (both_static, both_sensors) = (a.fixed && b.fixed, a.sensor && b.sensor);
    !both_static && !both_sensors && pair(a.filter, b.filter)
}

/// Bits of an id that give its index; the bits above are its generation.
pub const INDEX_BITS: u32 = 24;
/// Generations an index is handed out with before it is retired.
pub const GENERATIONS: u32 = 128;

/// What the scene should hold, by index, with the id rule written out again: a push takes the
/// smallest index that is free and has a generation left (its last id plus one generation),
/// else the next new index (generation 0); a removed id is never handed out again.
#[derive(Clone, Default)]
pub struct Model {
    /// Per index: the live entry, or `None`.
    pub entries: Vec<Option<Entry>>,
    /// Per index: the id it was last handed out as.
    pub ids: Vec<u32>,
}

impl Model {
    /// Adds `e` under the id a scene gives it.
    pub fn push(&mut self, e: Entry) -> u32 {
        let reusable =
            |i: usize| self.entries[i].is_none() && (self.ids[i] >> INDEX_BITS) + 1 < GENERATIONS;
        match (0..self.entries.len()).find(|&i| reusable(i)) {
            Some(i) => {
                self.entries[i] = Some(e);
                self.ids[i] += 1 << INDEX_BITS;
                self.ids[i]
            }
            None => {
                self.entries.push(Some(e));
                self.ids.push((self.entries.len() - 1) as u32);
                self.ids[self.ids.len() - 1]
            }
        }
    }

    /// The index of `id` when it is live.
    pub fn index(&self, id: u32) -> Option<usize> {
        let i = (id & ((1 << INDEX_BITS) - 1)) as usize;
        (self.ids.get(i) == Some(&id) && self.entries[i].is_some()).then_some(i)
    }

    /// The live entry of `id`.
    pub fn get(&self, id: u32) -> Option<Entry> {
        self.index(id).and_then(|i| self.entries[i])
    }

    /// The live entry of `id`, to change. Panics when `id` is not live.
    pub fn get_mut(&mut self, id: u32) -> &mut Entry {
        let i = self.index(id).expect("a live id");
        self.entries[i].as_mut().unwrap()
    }

    /// Removes `id`; its entry, or `None` when it was not live.
    pub fn remove(&mut self, id: u32) -> Option<Entry> {
        self.index(id).and_then(|i| self.entries[i].take())
    }

    /// An id that is not live but looks like one: a removed id, an index's next generation,
    /// or an index never handed out.
    pub fn stale(&self, pick: usize) -> u32 {
        let n = self.ids.len();
        match pick % 3 {
            0 if n > 0 => self.ids[pick / 3 % n] + (1 << INDEX_BITS),
            1 if n > 0 => {
                let i = pick / 3 % n;
                if self.entries[i].is_none() {
                    self.ids[i]
                } else {
                    self.ids[i].wrapping_sub(1 << INDEX_BITS) & !(1 << 31)
                }
            }
            _ => (n + pick % 3) as u32,
        }
    }

    /// The live ids, by index (the order of `Scene::iter`).
    pub fn live(&self) -> Vec<u32> {
        (0..self.entries.len())
            .filter(|&i| self.entries[i].is_some())
            .map(|i| self.ids[i])
            .collect()
    }

    /// [`brute_raycast`] over `visible` (shapes by index) with the ties by id: the nearest hit,
    /// the smallest id among those at the same `t`.
    pub fn raycast(&self, visible: &[Shape], r: &Ray) -> Option<(u32, f32)> {
        raycast_by(visible, r, |i| self.ids[i])
    }

    /// The first shape of `visible` (shapes by index) that `probe` touches moving by `m`
    /// (`Shape::sweep` on each): the smallest `t`, the smallest id among those at the same `t`.
    pub fn cast(&self, visible: &[Shape], probe: &Shape, m: [f32; 2]) -> Option<(u32, Sweep)> {
        let mut best: Option<(u32, Sweep)> = None;
        for (i, s) in visible.iter().enumerate() {
            let id = self.ids[i];
            if let Some(sw) = probe.sweep(s, m)
                && best.is_none_or(|(bid, b)| sw.t < b.t || (sw.t == b.t && id < bid))
            {
                best = Some((id, sw));
            }
        }
        best
    }

    /// The ids of `indices` (a brute-force answer by index), ascending.
    pub fn ids_of(&self, indices: impl IntoIterator<Item = u32>) -> Vec<u32> {
        let mut ids: Vec<u32> = indices.into_iter().map(|i| self.ids[i as usize]).collect();
        ids.sort_unstable();
        ids
    }

    /// The shapes by index as a query with filter `q` sees them (`None`: an unfiltered query,
    /// which sees every shape): a removed shape, one whose filter does not pair with `q`, and
    /// for a ray cast (`ray`) a sensor, made invalid (so never found).
    pub fn visible(&self, q: Option<Filter>, ray: bool) -> Vec<Shape> {
        let nothing: Shape = Circle::new(f32::NAN, 0.0, 1.0).into();
        self.entries
            .iter()
            .map(|e| match e {
                Some(e) if q.is_none_or(|q| pair(q, e.filter)) && !(ray && e.sensor) => e.shape,
                _ => nothing,
            })
            .collect()
    }

    /// `pairs` (an answer of this model) without the pairs with a sensor: what contacts and
    /// manifolds answer.
    pub fn solid(&self, pairs: &[(u32, u32)]) -> Pairs {
        let sensor = |id| self.get(id).is_some_and(|e| e.sensor);
        pairs
            .iter()
            .copied()
            .filter(|&(a, b)| !sensor(a) && !sensor(b))
            .collect()
    }

    /// Every pair the scene must report: live shapes, the reference overlap test (through an
    /// independent sweep, and shapes with bounds beyond 2⁶⁰ against every shape, since where
    /// squares overflow the reference's answer need not follow the bounding boxes), the filter
    /// rule, no two static shapes.
    pub fn pairs(&self) -> Pairs {
        self.id_pairs(self.pairs_where(|_, _| true))
    }

    /// Pairs of indices as pairs of ids, smaller first, sorted.
    fn id_pairs(&self, pairs: Pairs) -> Pairs {
        let mut out: Pairs = pairs
            .into_iter()
            .map(|(a, b)| {
                let (a, b) = (self.ids[a as usize], self.ids[b as usize]);
                (a.min(b), a.max(b))
            })
            .collect();
        out.sort_unstable();
        out
    }

    /// What `Scene::pairs_with` of this scene's shapes and `other`'s must report: `(id here, id
    /// there)` of every overlapping pair, by the same rules (each shape's filter from its own
    /// scene, a static shape pairing with a moving one of the other scene only), sorted.
    pub fn cross(&self, other: &Model) -> Pairs {
        let n = self.entries.len() as u32;
        let both = Model {
            entries: self.entries.iter().chain(&other.entries).copied().collect(),
            ids: self.ids.iter().chain(&other.ids).copied().collect(),
        };
        let mut out: Pairs = both
            .pairs_where(|a, b| a < n && b >= n)
            .into_iter()
            .map(|(a, b)| (self.ids[a as usize], other.ids[(b - n) as usize]))
            .collect();
        out.sort_unstable();
        out
    }

    /// [`pairs`](Self::pairs), of those pairs `(a, b)` (`a < b`) for which `keep` holds.
    fn pairs_where(&self, keep: impl Fn(u32, u32) -> bool) -> Pairs {
        let nothing: Shape = Circle::new(f32::NAN, 0.0, 1.0).into();
        let huge = |s: &Shape| {
            let b = s.bounding_box();
            let m = [b.min_x, b.min_y, b.max_x, b.max_y].map(f32::abs);
            s.check().is_ok() && !m.iter().all(|&v| v <= (1u64 << 60) as f32)
        };
        let live: Vec<Shape> = self
            .entries
            .iter()
            .map(|e| e.map_or(nothing, |e| e.shape))
            .collect();
        let bounded: Vec<Shape> = live
            .iter()
            .map(|s| if huge(s) { nothing } else { *s })
            .collect();
        let mut pairs = sweep(&bounded);
        for (u, s) in live.iter().enumerate().filter(|(_, s)| huge(s)) {
            for (v, t) in live.iter().enumerate() {
                if v != u && t.check().is_ok() && overlap(s, t) {
                    pairs.push((u.min(v) as u32, u.max(v) as u32));
                }
            }
        }
        pairs.sort_unstable();
        pairs.dedup();
        pairs
            .into_iter()
            .filter(|&(a, b)| keep(a, b))
            .filter(|&(a, b)| {
                let (a, b) = (
                    self.entries[a as usize].unwrap(),
                    self.entries[b as usize].unwrap(),
                );
                entries_pair(&a, &b)
            })
            .collect()
    }
}

//! Feature `serde`: a `Scene` saved and loaded answers the same (ids and generations, the
//! next push's id, filters, statics, sensors, user data, pairs, contacts), the plain types
//! round-trip bit for bit, and a file that could alias ids is refused.

use crate::support::model::FILTERS;
use crate::support::shapes::Gen;
use widephase::{
    Aabb, Capsule, Circle, Contact, Filter, Manifold, Obb, PairFinder, Ray, RayHit, Scene, Shape,
};

/// A scene with a history: pushes of every kind, statics, sensors, filters with groups, user
/// data, removals and pushes into removed indices.
fn lived_in(seed: u64) -> Scene {
    let mut g = Gen::new(seed);
    let mut scene = Scene::new().with_cell_size(2.5);
    let mut live = Vec::new();
    for k in 0..3000 {
        let (x, y) = (g.uniform(0.0, 80.0), g.uniform(0.0, 80.0));
        let s: Shape = match k % 5 {
            0 => Circle::new(x, y, g.uniform(0.2, 1.5)).into(),
            1 => Aabb::from_center(x, y, 0.7, 0.4).into(),
            2 => Obb::new(x, y, 0.8, 0.3, g.uniform(-3.0, 3.0)).into(),
            3 => g.convex(x, y, 1.0).into(),
            _ => Capsule::new(x, y, x + 1.0, y + 0.5, g.uniform(0.0, 0.4)).into(),
        };
        let filter = FILTERS[g.index(FILTERS.len())];
        let id = match g.index(10) {
            0 => scene.push_static_with(s, filter),
            1 => scene.push_sensor_with(s, filter),
            _ => scene.push_with(s, filter),
        };
        if g.index(7) == 0 {
            scene.set_sensor(id, true);
        }
        scene.set_user_data(id, g.next());
        live.push(id);
        if g.index(3) == 0 {
            let gone = live.swap_remove(g.index(live.len()));
            scene.remove(gone);
        }
    }
    scene
}

fn same_scene(a: &Scene, b: &Scene) {
    let shapes = |s: &Scene| -> Vec<_> {
        s.iter()
            .map(|(id, shape)| {
                let bits: Vec<u32> = match shape {
                    Shape::Circle(c) => bytemuck::cast::<_, [u32; 3]>(c).to_vec(),
                    Shape::Aabb(b) => bytemuck::cast::<_, [u32; 4]>(b).to_vec(),
                    Shape::Obb(o) => bytemuck::cast::<_, [u32; 6]>(o).to_vec(),
                    Shape::Polygon(p) => bytemuck::cast::<_, [u32; 16]>(p).to_vec(),
                    Shape::Capsule(c) => bytemuck::cast::<_, [u32; 5]>(c).to_vec(),
                };
                let flags = (
                    s.is_static(id),
                    s.is_sensor(id),
                    s.filter(id),
                    s.user_data(id),
                );
                (id, bits, flags)
            })
            .collect()
    };
    assert_eq!(shapes(a), shapes(b));
    assert_eq!(a.overlapping_pairs(), b.overlapping_pairs());
    let contacts = |s: &Scene| -> Vec<_> {
        s.contacts()
            .into_iter()
            .map(|(x, y, c)| (x, y, c.normal.map(f32::to_bits), c.depth.to_bits()))
            .collect()
    };
    assert_eq!(contacts(a), contacts(b));
}

#[test]
fn a_saved_scene_loads_with_its_ids_and_answers() {
    let mut scene = lived_in(3);
    let json = serde_json::to_string(&scene).unwrap();
    let mut loaded: Scene = serde_json::from_str(&json).unwrap();
    same_scene(&scene, &loaded);
    assert!(!scene.overlapping_pairs().is_empty());
    // Ids go on as they would have: pushes into removed indices under the next generation,
    // removals, more pushes.
    for k in 0..500 {
        let s = Circle::new(k as f32 * 0.1, 5.0, 0.5);
        assert_eq!(scene.push(s), loaded.push(s));
        if k % 3 == 0 {
            let id = scene.iter().nth(k).unwrap().0;
            assert_eq!(scene.remove(id), loaded.remove(id));
        }
    }
    same_scene(&scene, &loaded);
    // A kept finder on the loaded scene follows it like one on the original.
    let (mut f1, mut f2, mut p1, mut p2) = (PairFinder::new(), PairFinder::new(), vec![], vec![]);
    f1.overlapping_pairs(&scene, &mut p1);
    f2.overlapping_pairs(&loaded, &mut p2);
    assert_eq!((p1, f1.began()), (p2, f2.began()));
    // An empty scene, and the default cell size.
    let empty: Scene =
        serde_json::from_str(&serde_json::to_string(&Scene::new()).unwrap()).unwrap();
    assert!(empty.is_empty());
}

#[test]
fn a_saved_scene_that_could_alias_ids_is_refused() {
    let mut scene = Scene::new();
    let a = scene.push(Circle::new(0.0, 0.0, 1.0));
    scene.push_static(Aabb::new(0.0, 0.0, 1.0, 1.0));
    scene.remove(a);
    scene.push(Circle::new(3.0, 0.0, 1.0));
    let json = serde_json::to_string(&scene).unwrap();
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    let edit = |f: &dyn Fn(&mut serde_json::Value)| {
        let mut v = value.clone();
        f(&mut v);
        serde_json::from_value::<Scene>(v)
            .map(|_| ())
            .unwrap_err()
            .to_string()
    };
    // A shape under an older generation of its index, a shape twice, an id for another
    // index, an id with the top bit, no such index, a bad cell size.
    let older = edit(&|v| v["shapes"][0]["id"] = 0.into());
    assert!(older.contains("shape id 0: its index was"), "{older}");
    let twice = edit(&|v| {
        let s = v["shapes"][1].clone();
        v["shapes"].as_array_mut().unwrap().push(s);
    });
    assert!(twice.contains("twice"), "{twice}");
    assert!(edit(&|v| v["ids"][1] = 0.into()).contains("cannot be the id of index 1"));
    assert!(edit(&|v| v["ids"][1] = (1u64 << 31 | 1).into()).contains("cannot be the id"));
    assert!(edit(&|v| v["shapes"][0]["id"] = 7.into()).contains("no such index"));
    assert!(edit(&|v| v["cell_size"] = (-1.0).into()).contains("cell size"));
    // The file as written loads.
    assert!(serde_json::from_value::<Scene>(value).is_ok());
}

#[test]
fn plain_types_round_trip_bit_for_bit() {
    fn again<T: serde::Serialize + serde::de::DeserializeOwned>(t: &T) -> T {
        serde_json::from_str(&serde_json::to_string(t).unwrap()).unwrap()
    }
    let shapes: [Shape; 5] = [
        Circle::new(1.5, -2.25, 0.1).into(),
        Aabb::new(-1.0, -2.0, 3.0, 4.0).into(),
        Obb::new(1.0, 2.0, 3.0, 0.5, 0.7).into(),
        widephase::Polygon::new(&[[0.0, 0.0], [1.0, 0.1], [0.3, 0.9]])
            .unwrap()
            .into(),
        Capsule::new(0.0, 0.0, 1.0, 1.0, 0.0).into(),
    ];
    for s in shapes {
        assert_eq!(again(&s), s);
    }
    let f = Filter::new(1 << 3, !0).with_group(-7);
    assert_eq!(again(&f), f);
    let c = Contact {
        normal: [0.6, -0.8],
        depth: 0.125,
    };
    assert_eq!(again(&c), c);
    let m = Manifold::default();
    assert_eq!(again(&m), m);
    let h = RayHit {
        id: 1 << 24 | 5,
        t: 2.5,
        point: [1.0, 2.0],
        normal: [0.0, 1.0],
    };
    assert_eq!(again(&h), h);
    let r = Ray::new(0.0, 1.0, 2.0, 3.0, f32::MAX);
    assert_eq!(again(&r), r);
}

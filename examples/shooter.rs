//! A top-down shooter on a `Scene`, with no table from ids to the game's entities: 150 static
//! walls, 20 trigger zones (static sensors), a player capsule, 2 000 enemies that walk towards
//! the player and shoot back, and a few hundred bullets. Each shape's user data is the index of
//! its entity in the game's own `Vec`; bullets share a negative group with their shooter, so
//! they skip it (and only it); an enemy killed and another spawned in the same frame get
//! different ids, so no event names the wrong entity (the example counts them: 0). Every
//! tenth frame the player's line of sight is a `raycast_hit_filtered` through one
//! `SceneIndex`, and every 30th a grenade is a `query_shape`.
//!
//! ```text
//! cargo run --release --example shooter [--frames F] (300) [--enemies N] (2000) [--seed S] (1)
//! ```

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use std::collections::HashMap;
use std::time::{Duration, Instant};
use widephase::{Aabb, Capsule, Circle, Filter, PairFinder, Ray, Scene};

const WALLS: u32 = 1 << 1;
const PLAYER: u32 = 1 << 2;
const ENEMIES: u32 = 1 << 3;
const BULLETS: u32 = 1 << 4;
/// The player's group: its own bullets and line of sight skip it.
const PLAYER_GROUP: i32 = -1;
/// Side of the square arena.
const SIDE: f32 = 400.0;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Wall,
    Zone(usize),
    Player,
    Enemy { hp: u32 },
    Bullet { dx: f32, dy: f32, life: u32 },
    Dead,
}

/// The game's own entity: what it is and the shape id that stands for it.
struct Entity {
    kind: Kind,
    id: u32,
}

struct Game {
    scene: Scene,
    entities: Vec<Entity>,
    rng: SmallRng,
    kills: usize,
    wall_hits: usize,
    zone_entries: usize,
    spawned: usize,
}

impl Game {
    /// Adds an entity whose shape is pushed by `push`; the shape's user data is its index.
    fn spawn(&mut self, kind: Kind, push: impl FnOnce(&mut Scene) -> u32) -> usize {
        let id = push(&mut self.scene);
        let e = self.entities.len();
        self.scene.set_user_data(id, e as u64);
        self.entities.push(Entity { kind, id });
        e
    }

    /// The entity of shape `id`: its user data.
    fn entity(&self, id: u32) -> usize {
        self.scene.user_data(id).expect("a live shape") as usize
    }

    fn spawn_enemy(&mut self) -> usize {
        let (x, y) = (
            self.rng.random_range(0.0..SIDE),
            self.rng.random_range(0.0..SIDE),
        );
        let k = self.entities.len() as i32;
        // Each enemy its own negative group, which its bullets share.
        let filter = Filter::new(ENEMIES, !0).with_group(-2 - k);
        self.spawned += 1;
        self.spawn(Kind::Enemy { hp: 2 }, |s| {
            s.push_with(Circle::new(x, y, 0.8), filter)
        })
    }

    fn fire(&mut self, from: [f32; 2], to: [f32; 2], shooter: Filter) {
        let (dx, dy) = (to[0] - from[0], to[1] - from[1]);
        let len = (dx * dx + dy * dy).sqrt().max(1e-3);
        let (dx, dy) = (dx / len * 3.0, dy / len * 3.0);
        let mask = if shooter.group == PLAYER_GROUP {
            ENEMIES | WALLS
        } else {
            PLAYER | ENEMIES | WALLS
        };
        let filter = Filter::new(BULLETS, mask).with_group(shooter.group);
        let life = 60;
        self.spawn(Kind::Bullet { dx, dy, life }, |s| {
            s.push_with(Circle::new(from[0], from[1], 0.15), filter)
        });
    }

    fn remove(&mut self, e: usize) {
        if self.entities[e].kind != Kind::Dead {
            self.scene.remove(self.entities[e].id);
            self.entities[e].kind = Kind::Dead;
        }
    }
}

fn main() {
    let (mut frames, mut enemies, mut seed) = (300usize, 2000usize, 1u64);
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value: u64 = args
            .next()
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("{flag} needs a number"));
        match flag.as_str() {
            "--frames" => frames = value as usize,
            "--enemies" => enemies = value as usize,
            "--seed" => seed = value,
            _ => panic!("usage: shooter [--frames F] [--enemies N] [--seed S]"),
        }
    }
    let mut game = Game {
        scene: Scene::new(),
        entities: Vec::new(),
        rng: SmallRng::seed_from_u64(seed),
        kills: 0,
        wall_hits: 0,
        zone_entries: 0,
        spawned: 0,
    };
    // The level: walls, and trigger zones that are static sensors.
    for _ in 0..150 {
        let (x, y) = (
            game.rng.random_range(0.0..SIDE),
            game.rng.random_range(0.0..SIDE),
        );
        let (w, h) = if game.rng.random::<bool>() {
            (12.0, 0.5)
        } else {
            (0.5, 12.0)
        };
        let wall = Filter::new(WALLS, !0);
        game.spawn(Kind::Wall, |s| {
            s.push_static_with(Aabb::new(x, y, x + w, y + h), wall)
        });
    }
    for z in 0..20 {
        let (x, y) = (
            game.rng.random_range(0.0..SIDE),
            game.rng.random_range(0.0..SIDE),
        );
        game.spawn(Kind::Zone(z), |s| {
            let id =
                s.push_static_with(Aabb::new(x, y, x + 30.0, y + 30.0), Filter::new(WALLS, !0));
            s.set_sensor(id, true);
            id
        });
    }
    let me = Filter::new(PLAYER, !0).with_group(PLAYER_GROUP);
    let c = SIDE / 2.0;
    let player = game.spawn(Kind::Player, |s| {
        s.push_with(Capsule::new(c, c - 0.5, c, c + 0.5, 0.6), me)
    });
    for _ in 0..enemies {
        game.spawn_enemy();
    }

    let mut finder = PairFinder::new();
    let mut pairs = Vec::new();
    // The entities each live pair named when it began: an `ended` pair must name the same.
    let mut began_with: HashMap<(u32, u32), (u64, u64)> = HashMap::new();
    let (mut wrong, mut events, mut sight_hits, mut grenade_kills) =
        (0usize, 0usize, 0usize, 0usize);
    let mut times = Vec::with_capacity(frames);
    for frame in 0..frames {
        let start = Instant::now();
        // Move: the player walks a circle through the arena, bullets fly, enemies walk
        // towards the player.
        let turn = frame as f32 * 0.01;
        let target = [c + 120.0 * turn.cos(), c + 120.0 * turn.sin()];
        let (x, y) = (target[0], target[1]);
        game.scene.set(
            game.entities[player].id,
            Capsule::new(x, y - 0.5, x, y + 0.5, 0.6),
        );
        let kinds: Vec<Kind> = game.entities.iter().map(|e| e.kind).collect();
        for (e, kind) in kinds.iter().enumerate() {
            let id = game.entities[e].id;
            let step = match *kind {
                Kind::Bullet { dx, dy, .. } => Some((dx, dy)),
                Kind::Enemy { .. } => game.scene.get(id).map(|s| {
                    let b = s.bounding_box();
                    let (x, y) = ((b.min_x + b.max_x) / 2.0, (b.min_y + b.max_y) / 2.0);
                    let (dx, dy) = (target[0] - x, target[1] - y);
                    let len = (dx * dx + dy * dy).sqrt().max(1e-3);
                    (dx / len * 0.1, dy / len * 0.1)
                }),
                _ => None,
            };
            if let (Some((dx, dy)), Some(s)) = (step, game.scene.get(id)) {
                game.scene.set(id, s.translated(dx, dy));
            }
            if let Kind::Bullet { dx, dy, life } = *kind {
                game.entities[e].kind = if life == 0 {
                    Kind::Dead
                } else {
                    Kind::Bullet {
                        dx,
                        dy,
                        life: life - 1,
                    }
                };
                if life == 0 {
                    game.scene.remove(id);
                }
            }
        }
        // Fire: the player at a random enemy, a few enemies at the player.
        let aim = [
            game.rng.random_range(0.0..SIDE),
            game.rng.random_range(0.0..SIDE),
        ];
        game.fire(target, aim, me);
        for _ in 0..2 {
            let e = game.rng.random_range(0..game.entities.len());
            if let (Kind::Enemy { .. }, Some(s)) =
                (game.entities[e].kind, game.scene.get(game.entities[e].id))
            {
                let b = s.bounding_box();
                let from = [(b.min_x + b.max_x) / 2.0, (b.min_y + b.max_y) / 2.0];
                let filter = game.scene.filter(game.entities[e].id).expect("live");
                game.fire(from, target, filter);
            }
        }

        finder.overlapping_pairs(&game.scene, &mut pairs);
        for &(a, b) in finder.ended() {
            events += 1;
            if let Some(&(da, db)) = began_with.get(&(a, b)) {
                // A live shape of an ended pair still stands for the entity it began with.
                let same = |id: u32, d: u64| game.scene.user_data(id).is_none_or(|now| now == d);
                wrong += usize::from(!same(a, da) || !same(b, db));
            }
            began_with.remove(&(a, b));
        }
        let began = finder.began().to_vec();
        for &(a, b) in &began {
            events += 1;
            // One of the two may have died already this frame (a bullet in two enemies).
            let (Some(da), Some(db)) = (game.scene.user_data(a), game.scene.user_data(b)) else {
                continue;
            };
            began_with.insert((a, b), (da, db));
            let (ea, eb) = (da as usize, db as usize);
            for (x, y) in [(ea, eb), (eb, ea)] {
                match (game.entities[x].kind, game.entities[y].kind) {
                    (Kind::Bullet { .. }, Kind::Enemy { hp }) => {
                        game.remove(x);
                        if hp <= 1 {
                            game.remove(y);
                            game.kills += 1;
                            game.spawn_enemy(); // in the same frame: a new id
                        } else {
                            game.entities[y].kind = Kind::Enemy { hp: hp - 1 };
                        }
                    }
                    (Kind::Bullet { .. }, Kind::Wall) => {
                        game.remove(x);
                        game.wall_hits += 1;
                    }
                    (Kind::Zone(_), Kind::Player) => game.zone_entries += 1,
                    _ => {}
                }
            }
        }
        // Line of sight and grenades, many queries on one index.
        if frame % 10 == 0 || frame % 30 == 0 {
            let index = finder.index(&game.scene);
            for k in 0..16 {
                let a = k as f32 * core::f32::consts::TAU / 16.0;
                let ray = Ray::new(target[0], target[1], a.cos(), a.sin(), 60.0);
                if let Some(hit) = index.raycast_hit_filtered(&ray, me) {
                    assert!(
                        hit.id != game.entities[player].id,
                        "the line of sight skips the player"
                    );
                    sight_hits += 1;
                }
            }
            if frame % 30 == 0 {
                let mut caught = Vec::new();
                let at = Circle::new(aim[0], aim[1], 6.0);
                index.query_shape_filtered(&at, Filter::new(BULLETS, ENEMIES), &mut caught);
                for id in caught {
                    let e = game.entity(id);
                    if let Kind::Enemy { .. } = game.entities[e].kind {
                        game.remove(e);
                        grenade_kills += 1;
                        game.spawn_enemy();
                    }
                }
            }
        }
        times.push(start.elapsed());
    }
    times.sort();
    let median = times[times.len() / 2];
    let live_bullets = game
        .entities
        .iter()
        .filter(|e| matches!(e.kind, Kind::Bullet { .. }))
        .count();
    println!(
        "shooter: {frames} frames, {} shapes at the end ({live_bullets} bullets), median frame {:.2} ms, slowest {:.2} ms",
        game.scene.len(),
        ms(median),
        ms(*times.last().unwrap_or(&Duration::ZERO))
    );
    println!(
        "  {} kills by bullets, {grenade_kills} by grenades, {} enemies spawned, {} bullets stopped by walls, {} zone entries",
        game.kills, game.spawned, game.wall_hits, game.zone_entries
    );
    println!(
        "  {events} began and ended pairs, {sight_hits} line-of-sight hits; events naming another entity: {wrong}"
    );
    assert_eq!(wrong, 0, "an event named a shape's successor");
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

//! [`Filter`]: collision layers, and the table a scene keeps them in (each record names its
//! filter by an index into the table, so that a record stays half a cache line).

use std::collections::HashMap;

/// Which shapes a shape may pair with: Box2D's category, mask and group rule.
///
/// Two shapes `a` and `b` are paired when
/// - they share a non-zero `group`: then a positive group always pairs and a negative group
///   never does, whatever the layers say (a ragdoll's limbs, a shooter and its own bullets);
/// - otherwise when `a.layer & b.mask != 0` and `b.layer & a.mask != 0`: each belongs to a
///   layer the other accepts. A shape whose `mask` is 0 (or whose `layer` is 0) pairs with
///   nothing outside its positive group.
///
/// The rule is symmetric. Filtered pairs are dropped before any kernel runs
/// ([`FrameStats::filtered`](crate::FrameStats) counts them). Queries and ray casts have
/// `_filtered` twins in which the query acts as a shape with the given filter, groups
/// included, so that a bullet's ray or a line of sight can skip the shooter.
///
/// **Layer 1.** [`Filter::ALL`], what [`Scene::push`](crate::Scene::push) gives, is layer 1
/// (`1 << 0`) with every mask bit: if your game's own layers start at `1 << 0`, the shapes
/// pushed without a filter belong to your first layer. Start your layers at `1 << 1` or give
/// every shape a filter.
///
/// ```
/// use widephase::{Circle, Filter, Scene};
/// const PLAYER: u32 = 1 << 1;
/// const PLAYER_BULLETS: u32 = 1 << 2;
/// const ENEMIES: u32 = 1 << 3;
/// let mut scene = Scene::new();
/// let player = scene.push_with(Circle::new(0.0, 0.0, 1.0), Filter::new(PLAYER, ENEMIES));
/// let bullet = scene.push_with(
///     Circle::new(0.5, 0.0, 0.1),
///     Filter::new(PLAYER_BULLETS, ENEMIES),
/// );
/// let enemy = scene.push_with(
///     Circle::new(1.0, 0.0, 0.5),
///     Filter::new(ENEMIES, PLAYER | PLAYER_BULLETS | ENEMIES),
/// );
/// // The bullet overlaps the player, but neither accepts the other's layer.
/// assert_eq!(scene.overlapping_pairs(), [(player, enemy), (bullet, enemy)]);
///
/// // Two enemies of one squad (group -7) never pair; a third one pairs with both.
/// let squad = Filter::new(ENEMIES, ENEMIES).with_group(-7);
/// let (s1, s2) = (
///     scene.push_with(Circle::new(10.0, 0.0, 1.0), squad),
///     scene.push_with(Circle::new(11.0, 0.0, 1.0), squad),
/// );
/// let lone = scene.push_with(Circle::new(10.5, 1.0, 1.0), Filter::new(ENEMIES, ENEMIES));
/// assert_eq!(scene.query_point_filtered(widephase::Point::new(10.5, 0.0), squad), [lone]);
/// let pairs = scene.overlapping_pairs();
/// assert!(pairs.contains(&(s1, lone)) && pairs.contains(&(s2, lone)));
/// assert!(!pairs.contains(&(s1, s2)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Filter {
    /// The layers this shape belongs to (usually one bit).
    pub layer: u32,
    /// The layers this shape pairs with.
    pub mask: u32,
    /// 0: none. Shapes that share a positive group always pair, a negative group never.
    pub group: i32,
}

impl Filter {
    /// Layer 1, pairs with every layer, no group: what [`Scene::push`](crate::Scene::push)
    /// gives.
    pub const ALL: Filter = Filter::new(1, u32::MAX);

    /// The filter of a shape in `layer` that pairs with the layers of `mask`, in no group.
    #[inline]
    #[must_use]
    pub const fn new(layer: u32, mask: u32) -> Self {
        Self {
            layer,
            mask,
            group: 0,
        }
    }

    /// This filter in `group` (see [`Filter`] for the rule; 0 is no group).
    #[inline]
    #[must_use]
    pub const fn with_group(self, group: i32) -> Self {
        Self { group, ..self }
    }

    /// Whether shapes with these two filters may pair (the rule above; symmetric).
    #[inline(always)]
    #[must_use]
    pub const fn pairs_with(self, other: Filter) -> bool {
        if self.group == other.group && self.group != 0 {
            self.group > 0
        } else {
            self.layer & other.mask != 0 && other.layer & self.mask != 0
        }
    }
}

impl Default for Filter {
    /// [`Filter::ALL`].
    fn default() -> Self {
        Filter::ALL
    }
}

/// What a scene keeps per shape besides its geometry that decides its pairs: its [`Filter`]
/// and whether it is a sensor (two sensors never pair).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Rule {
    pub(crate) filter: Filter,
    pub(crate) sensor: bool,
}

impl Rule {
    /// A solid shape's rule.
    pub(crate) const ALL: Rule = Rule {
        filter: Filter::ALL,
        sensor: false,
    };

    /// A solid shape's rule with `filter`.
    #[inline(always)]
    pub(crate) const fn solid(filter: Filter) -> Rule {
        Rule {
            filter,
            sensor: false,
        }
    }

    /// Whether shapes with these two rules pair: the filters pair and not both are sensors.
    #[inline(always)]
    pub(crate) const fn pairs_with(self, other: Rule) -> bool {
        !(self.sensor && other.sensor) && self.filter.pairs_with(other.filter)
    }
}

/// Most distinct filters a scene holds at once: a record's kind word keeps the index in its
/// upper 24 bits.
pub(crate) const MAX_FILTERS: usize = 1 << 24;

/// The distinct rules (filter and sensor flag) of a scene's live shapes, each with the number
/// of shapes using it. Index 0 is always [`Rule::ALL`]; an index whose count falls to zero is
/// reused.
#[derive(Clone, Debug)]
pub(crate) struct FilterTable {
    filters: Vec<Rule>,
    users: Vec<usize>,
    index: HashMap<Rule, u32>,
    free: Vec<u32>,
    /// Users of every rule but [`Rule::ALL`], and of the sensors' rules.
    others: usize,
    sensors: usize,
}

impl Default for FilterTable {
    fn default() -> Self {
        Self {
            filters: vec![Rule::ALL],
            users: vec![0],
            index: HashMap::from([(Rule::ALL, 0)]),
            free: Vec::new(),
            others: 0,
            sensors: 0,
        }
    }
}

impl FilterTable {
    /// The rules by index.
    #[inline(always)]
    pub(crate) fn all(&self) -> &[Rule] {
        &self.filters
    }

    /// The index of `f`, counting one more user.
    ///
    /// # Panics
    /// When [`MAX_FILTERS`] distinct filters are in use already.
    pub(crate) fn acquire(&mut self, f: Rule) -> u32 {
        let i = match self.index.get(&f) {
            Some(&i) => i,
            None => {
                let i = match self.free.pop() {
                    Some(i) => {
                        self.filters[i as usize] = f;
                        i
                    }
                    None => {
                        assert!(
                            self.filters.len() < MAX_FILTERS,
                            "a Scene holds at most {MAX_FILTERS} distinct filters at once"
                        );
                        self.filters.push(f);
                        self.users.push(0);
                        (self.filters.len() - 1) as u32
                    }
                };
                self.index.insert(f, i);
                i
            }
        };
        self.users[i as usize] += 1;
        self.others += usize::from(i != 0);
        self.sensors += usize::from(f.sensor);
        i
    }

    /// Whether some live shape is a sensor.
    #[inline(always)]
    pub(crate) fn sensors(&self) -> bool {
        self.sensors > 0
    }

    /// Whether some live shape has a rule other than [`Rule::ALL`] (otherwise every pair
    /// passes, and the narrow phase skips the rule).
    #[inline(always)]
    pub(crate) fn layered(&self) -> bool {
        self.others > 0
    }

    /// One user fewer of index `i`.
    pub(crate) fn release(&mut self, i: u32) {
        let users = &mut self.users[i as usize];
        *users -= 1;
        self.others -= usize::from(i != 0);
        self.sensors -= usize::from(self.filters[i as usize].sensor);
        if *users == 0 && i != 0 {
            self.index.remove(&self.filters[i as usize]);
            self.free.push(i);
        }
    }

    /// Forgets every rule but [`Rule::ALL`].
    pub(crate) fn clear(&mut self) {
        *self = Self::default();
    }
}

//! [`Filter`]: collision layers, and the table a scene keeps them in (each record names its
//! filter by an index into the table, so that a record stays half a cache line).

use std::collections::HashMap;

/// Which shapes a shape may pair with: Box2D's category and mask rule.
///
/// Two shapes `a` and `b` are paired only when `a.layer & b.mask != 0` and
/// `b.layer & a.mask != 0`: each belongs to a layer the other accepts. The rule is symmetric,
/// and a shape whose `mask` is 0 (or whose `layer` is 0) pairs with nothing. Filtered pairs
/// are dropped before any kernel runs ([`FrameStats::filtered`](crate::FrameStats) counts
/// them). Queries and ray casts have `_filtered` twins in which the query acts as a shape with
/// the given filter.
///
/// ```
/// use widephase::{Circle, Filter, Scene};
/// const PLAYER: u32 = 1 << 1;
/// const PLAYER_BULLETS: u32 = 1 << 2;
/// const ENEMIES: u32 = 1 << 3;
/// let mut scene = Scene::new();
/// let player = scene.push_with(
///     Circle::new(0.0, 0.0, 1.0),
///     Filter { layer: PLAYER, mask: ENEMIES },
/// );
/// let bullet = scene.push_with(
///     Circle::new(0.5, 0.0, 0.1),
///     Filter { layer: PLAYER_BULLETS, mask: ENEMIES },
/// );
/// let enemy = scene.push_with(
///     Circle::new(1.0, 0.0, 0.5),
///     Filter { layer: ENEMIES, mask: PLAYER | PLAYER_BULLETS },
/// );
/// // The bullet overlaps the player, but neither accepts the other's layer.
/// assert_eq!(scene.overlapping_pairs(), [(player, enemy), (bullet, enemy)]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Filter {
    /// The layers this shape belongs to (usually one bit).
    pub layer: u32,
    /// The layers this shape pairs with.
    pub mask: u32,
}

impl Filter {
    /// Layer 1, pairs with every layer: what [`Scene::push`](crate::Scene::push) gives.
    pub const ALL: Filter = Filter {
        layer: 1,
        mask: u32::MAX,
    };

    /// Whether shapes with these two filters may pair (the rule above; symmetric).
    #[inline(always)]
    #[must_use]
    pub const fn pairs_with(self, other: Filter) -> bool {
        self.layer & other.mask != 0 && other.layer & self.mask != 0
    }
}

impl Default for Filter {
    /// [`Filter::ALL`].
    fn default() -> Self {
        Filter::ALL
    }
}

/// Most distinct filters a scene holds at once: a record's kind word keeps the index in its
/// upper 24 bits.
pub(crate) const MAX_FILTERS: usize = 1 << 24;

/// The distinct filters of a scene's live shapes, each with the number of shapes using it.
/// Index 0 is always [`Filter::ALL`]; an index whose count falls to zero is reused.
#[derive(Clone, Debug)]
pub(crate) struct FilterTable {
    filters: Vec<Filter>,
    users: Vec<usize>,
    index: HashMap<Filter, u32>,
    free: Vec<u32>,
    /// Users of every filter but [`Filter::ALL`].
    others: usize,
}

impl Default for FilterTable {
    fn default() -> Self {
        Self {
            filters: vec![Filter::ALL],
            users: vec![0],
            index: HashMap::from([(Filter::ALL, 0)]),
            free: Vec::new(),
            others: 0,
        }
    }
}

impl FilterTable {
    /// The filters by index.
    #[inline(always)]
    pub(crate) fn all(&self) -> &[Filter] {
        &self.filters
    }

    /// The index of `f`, counting one more user.
    ///
    /// # Panics
    /// When [`MAX_FILTERS`] distinct filters are in use already.
    pub(crate) fn acquire(&mut self, f: Filter) -> u32 {
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
        i
    }

    /// Whether some live shape has a filter other than [`Filter::ALL`] (otherwise every pair
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
        if *users == 0 && i != 0 {
            self.index.remove(&self.filters[i as usize]);
            self.free.push(i);
        }
    }

    /// Forgets every filter but [`Filter::ALL`].
    pub(crate) fn clear(&mut self) {
        *self = Self::default();
    }
}

//! Shares of the pair search: where to split the sorted positions so that tasks get about the
//! same work, from what a position of each level costs.
//!
//! A box looks at the boxes of its own level in half a window and at those of every finer
//! level in a whole one, so a position of a coarse level costs far more than one of the
//! finest: in a scene whose sizes spanned a factor 100, tasks of equally many positions took
//! from 45 µs to 835 µs, and the last tasks' coarse boxes held sixteen threads back.

use super::Grid;
use crate::broadphase::levels::ROW_COST;
use core::ops::Range;

/// What a candidate pair costs the search (filed into lanes, its kernel run), in boxes looked
/// at.
const CANDIDATE_COST: f64 = 8.0;

impl Grid {
    /// The search's cost of a position of level `l`, in boxes looked at (the model of
    /// [`auto_cell`](crate::broadphase::levels)): a box of the level's sides (their mean and
    /// mean square) looks at the rows of each finer level's window (a scan started each) and
    /// at the boxes in it, by that level's density, and files those it overlaps as candidates;
    /// in its own level, half a window. At least 1.
    fn position_cost(&self, l: usize) -> f64 {
        let levels = self.levels.all();
        let [mean, square] = levels[l].sides.map(f64::from);
        let window = |f: usize| {
            let level = &levels[f];
            let (cell, reach) = (f64::from(level.cell), f64::from(level.reach));
            let [x0, y0, x1, y1] = level.region().map(f64::from);
            let density = self.level_positions(f).len() as f64 / ((x1 - x0) * (y1 - y0));
            let [their_mean, their_square] = level.sides.map(f64::from);
            // The mean of (side + a)², and of (side + their side)²: a window's area and the
            // area within which two boxes overlap.
            let around = |a: f64| square + 2.0 * a * mean + a * a;
            let overlaps = square + 2.0 * mean * their_mean + their_square;
            ROW_COST * ((mean + reach) / cell + 1.0)
                + density * (around(reach + cell) + CANDIDATE_COST * overlaps)
        };
        let cost = 1.0 + 0.5 * window(l) + (0..l).map(window).sum::<f64>();
        if cost.is_finite() { cost.max(1.0) } else { 1.0 }
    }

    /// The sorted positions split into `parts` ranges of about equal search work (see
    /// [`position_cost`](Self::position_cost)), in order, from 0 to [`len`](Self::len).
    pub(crate) fn shares(&self, parts: usize) -> impl Iterator<Item = Range<usize>> + '_ {
        let levels = self.levels();
        let total: f64 = (0..levels)
            .map(|l| self.level_positions(l).len() as f64 * self.position_cost(l))
            .sum();
        // The level the last split fell in, its cost a position, the work before it, and the
        // split.
        let cost_of = move |l: usize| (l < levels).then(|| self.position_cost(l));
        let (mut l, mut cost, mut before, mut last) = (0, cost_of(0), 0.0, 0);
        (1..=parts).map(move |k| {
            let want = total * k as f64 / parts as f64;
            let at = loop {
                let Some(c) = cost.filter(|_| k < parts) else {
                    break self.len();
                };
                let mine = self.level_positions(l);
                let work = mine.len() as f64 * c;
                if before + work >= want {
                    let into = ((want - before) / c).ceil() as usize;
                    break mine.start + into.min(mine.len());
                }
                before += work;
                l += 1;
                cost = cost_of(l);
            };
            let share = last..at.max(last);
            last = share.end;
            share
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Xorshift;

    /// Three levels of boxes (sides about 1, 10 and 100, a level each): the shares cover the
    /// positions in order, the coarser levels' positions get shares of fewer positions, and
    /// every share's modelled work is within one position's of an equal share.
    #[test]
    fn shares_cover_the_positions_with_equal_modelled_work() {
        let mut rng = Xorshift::new(0x9e37_79b9);
        let groups = [(40_000, 1.0), (2_000, 10.0), (100, 100.0)];
        let sides = groups
            .iter()
            .flat_map(|&(n, side)| core::iter::repeat_n(side, n));
        let boxes: Vec<[f32; 4]> = sides
            .map(|side| {
                let side = side * (0.7 + 0.5 * rng.unit());
                rng.square([0.0; 2], 1000.0, side)
            })
            .collect();
        let mut grid = Grid::default();
        let mut ids = vec![0u32; boxes.len()];
        grid.build(&boxes, None, |i| i, &mut Vec::new(), &mut ids);
        assert_eq!(grid.levels(), 3);
        let costs: Vec<f64> = (0..3).map(|l| grid.position_cost(l)).collect();
        assert!(costs[0] < costs[1] && costs[1] < costs[2], "{costs:?}");
        let cost_at = |p: usize| {
            let l = (0..3).find(|&l| grid.level_positions(l).contains(&p));
            costs[l.expect("a level")]
        };
        let total: f64 = (0..grid.len()).map(cost_at).sum();
        for parts in [1, 2, 7, 16, 64] {
            let shares: Vec<_> = grid.shares(parts).collect();
            assert_eq!(shares.len(), parts);
            let (mut at, fair) = (0, total / parts as f64);
            for (k, share) in shares.iter().enumerate() {
                assert_eq!(
                    share.start, at,
                    "{parts} parts: share {k} does not follow on"
                );
                assert!(
                    share.start <= share.end,
                    "{parts} parts: share {k} runs backwards"
                );
                at = share.end;
                let work: f64 = share.clone().map(cost_at).sum();
                assert!(
                    (work - fair).abs() <= 2.0 * costs[2] + 1e-6 * total,
                    "{parts} parts, share {k}: {work} against {fair}"
                );
            }
            assert_eq!(at, grid.len());
        }
        // The last share, over the coarse boxes, has far fewer positions than the first.
        let shares: Vec<_> = grid.shares(16).collect();
        assert!(shares[15].len() < shares[0].len() / 2, "{shares:?}");
    }
}

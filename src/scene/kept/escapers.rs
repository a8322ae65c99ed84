//! The escapers' queries: each escaper's new candidates, the moving shapes overlapping its new
//! enlarged box through the grid and the static ones through its neighbourhood, filed by pair
//! kind for the lists to merge in.

use super::Kept;
use super::follow::STAYED;
use super::lists::{file, filters_of};
use super::mixed::find_mixed;
use super::tasks::{MIN_TASK, each_task, plan};
use crate::scene::store::Scene;
use std::time::{Duration, Instant};

impl Kept {
    /// The escapers' new candidates, by pair kind, for the lists to follow the escapers'
    /// moves as the kernels read them (see [`Follow`](super::follow::Follow)): those of an escaper
    /// dropped, the others kept (a neighbour's position moved by the change in the number of
    /// slots), and the new ones merged in. With `mixed`, the mixed candidates too (otherwise the
    /// caller files them anew). `before`: the number of moving slots in the last call (the
    /// neighbours' positions follow them).
    pub(super) fn follow_moves(&mut self, scene: &Scene, mixed: bool, before: u32) {
        self.query_escapers(scene);
        if mixed {
            self.mixed.new.clear();
            let (enter, entering) = (&self.enter, &self.entering);
            let at = |i: usize| entering[enter[i].1 as usize].0;
            let new = &mut self.mixed.new;
            let (filtered, cpu) = find_mixed(
                &mut self.statics,
                &mut self.tasks,
                scene,
                (&self.fat, &self.local, &self.slot_of, self.margin.far()),
                enter.len(),
                at,
                |_, pair| new.push(pair),
            );
            self.filtered += filtered;
            self.search_cpu += cpu;
        }
        let after = self.top as u32;
        let (kinds, neighbours) = (&self.kinds, &self.statics.labels);
        // The kind code at a position (a neighbour's after the moving indices).
        let kind_at = |x: u32| {
            if x < after {
                kinds[x as usize]
            } else {
                neighbours[(x - after) as usize].1
            }
        };
        self.candidates.prepare(&mut self.sort, kind_at);
        if mixed {
            self.mixed.prepare(&mut self.sort, kind_at);
        }
        self.follow = Some(before);
        self.follow_mixed = mixed;
    }

    /// The escapers' new moving candidates, into the candidate lists' `new`: every box that
    /// overlaps an escaper's new enlarged box (a pair of two escapers once, from the later
    /// position).
    pub(super) fn query_escapers(&mut self, scene: &Scene) {
        let tasks = plan(&mut self.tasks, self.enter.len(), MIN_TASK / 16);
        let (grid, ids, entering, escaped, enter) = (
            &self.grid,
            &self.ids,
            &self.entering,
            &self.escaped,
            &self.enter,
        );
        let filing = (&self.kinds[..], filters_of(scene));
        each_task(tasks, |_, t| {
            let start = Instant::now();
            t.filed.iter_mut().for_each(Vec::clear);
            t.filtered = 0;
            for &(_, k) in &enter[t.range.clone()] {
                let (e, fat) = entering[k as usize];
                grid.overlapping(fat, &mut |x| {
                    let s = ids[x as usize];
                    if s != e && !(escaped[s as usize] != STAYED && s > e) {
                        let filed = file(&mut t.filed, filing, s.min(e), s.max(e));
                        t.filtered += usize::from(!filed);
                    }
                });
            }
            t.time = start.elapsed();
        });
        self.search_cpu += tasks.iter().map(|t| t.time).sum::<Duration>();
        self.candidates.new.clear();
        for t in tasks.iter() {
            self.filtered += t.filtered;
            for list in &t.filed {
                self.candidates.new.extend_from_slice(list);
            }
        }
    }
}

/// Tests of every overlap pair kind in both orders (and each kind against itself), each
/// calling `super::$run::<A, B>()`: the callback of `widephase::pair_table!(both_orders, $run;);`.
macro_rules! both_orders {
    (
        $run:ident;
        distinct { $($d:ident: $A:ty, $B:ty;)* }
        same { $($s:ident: $S:ty;)* }
        casts { $($c:ident: $C:ty;)* }
    ) => {
        mod forward {
            $(
                #[test]
                fn $d() {
                    super::$run::<$A, $B>();
                }
            )*
            $(
                #[test]
                fn $s() {
                    super::$run::<$S, $S>();
                }
            )*
        }
        mod swapped {
            $(
                #[test]
                fn $d() {
                    super::$run::<$B, $A>();
                }
            )*
        }
    };
}

mod box_check;
mod capsules;
mod coherence;
mod coherence_policy;
mod contact_cases;
mod contacts;
mod containers;
mod differential;
mod independent;
mod known_answers;
mod list_batches;
mod manifold_cases;
mod manifolds;
mod meeting;
mod policy;
mod polygons;
mod ray_hits;
mod rays;
#[cfg(feature = "serde")]
mod saved;
mod scaled;
mod scene;
mod scene_queries;
mod sensors;
mod shape_casts;
mod sweep_cases;
mod sweep_corners;
mod sweep_ends;
mod sweep_scales;
mod sweeps;
mod widths;
mod world;
mod world_filters;
mod world_ids;
mod world_large;
mod world_rest;
mod world_runs;

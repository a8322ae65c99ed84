//! [`batch_test`] and [`par_batch_test`]: pair `i` of one container against pair `i` of another,
//! [`KERNEL_LANES`](crate::KERNEL_LANES) pairs per kernel call (sixteen with AVX-512, else eight),
//! and the [`Overlaps`] trait that picks the kernel for a pair of container types at compile time.
//! [`batch_raycast`] and [`par_batch_raycast`] do the same for ray `i` against shape `i`, through
//! the [`RayCast`] trait; [`batch_contact`] and [`par_batch_contact`] answer each overlapping
//! pair's contact, through [`ContactPair`].
//!
//! One file per family: `kinds.rs` (the traits that pick a pair's kernels at compile time, and
//! their implementations from the pair table), `test.rs`, `raycast.rs`, `contact.rs`, `manifold.rs`,
//! `sweep.rs` (each batch function with its `_at` and `par_` forms, written by `family.rs`), `sweep_kinds.rs` (the
//! [`SweepPair`] trait: the sweep kernels of every pair kind), `length.rs` (the one length rule).

#[macro_use]
mod family;
mod contact;
mod kinds;
mod length;
mod manifold;
mod raycast;
mod sweep;
mod sweep_kinds;
mod test;

pub use contact::{batch_contact, batch_contact_at, par_batch_contact};
pub(crate) use kinds::manifold_lane;
pub use kinds::{ContactPair, ManifoldPair, Overlaps, RayCast};
pub use length::LengthMismatch;
pub use manifold::{batch_manifold, batch_manifold_at, par_batch_manifold};
pub use raycast::{batch_raycast, batch_raycast_at, par_batch_raycast};
pub use sweep::{batch_sweep, batch_sweep_at, par_batch_sweep};
pub use sweep_kinds::SweepPair;
pub use test::{batch_test, batch_test_at, par_batch_test};

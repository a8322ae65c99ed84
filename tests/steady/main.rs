//! Steady frame loops allocate nothing: the tests that count allocations, in a binary of their
//! own. Rayon's threads allocate as they start and as they end, on their own time, and a
//! thread's end leaves garbage that any other thread may later free and, now and then, file
//! with an allocation of its own (crossbeam-epoch, see `alloc.rs`): in the one binary of every
//! other test, whose tests start and end pools of threads all the time, a counted frame could
//! count one of those. Here the counted pools are the only pools, and none ends.

#[allow(dead_code)]
#[path = "../support/mod.rs"]
mod support;

mod alloc;
mod frames;

//! The test suite, one binary: bit-exact kernel-vs-reference tests, references against
//! independently written geometry, hand-worked answers, the bad-data policy, and the containers.

mod cases;
mod support;

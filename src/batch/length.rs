//! The one length rule of every batch call: equal lengths, or an error naming both.

use crate::soa::ShapeSoa;
use core::fmt;

/// The two containers passed to [`batch_test`](crate::batch_test) have different lengths.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LengthMismatch {
    /// Length of the first container.
    pub a: usize,
    /// Length of the second container.
    pub b: usize,
}

impl fmt::Display for LengthMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "pairwise test needs containers of equal length, got {} and {}",
            self.a, self.b
        )
    }
}

impl std::error::Error for LengthMismatch {}

/// The one length rule of every batch call: equal lengths, or an error naming both.
pub(crate) fn check_lengths<A: ShapeSoa, B: ShapeSoa>(a: &A, b: &B) -> Result<(), LengthMismatch> {
    if a.len() == b.len() {
        Ok(())
    } else {
        Err(LengthMismatch {
            a: a.len(),
            b: b.len(),
        })
    }
}

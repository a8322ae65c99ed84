//! The one length rule of every batch call: equal lengths, or an error naming both.

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

/// The one length rule of every batch call: every length equal to `a`'s, or an error naming
/// `a`'s and the first that differs.
pub(crate) fn check_lengths(a: usize, others: &[usize]) -> Result<(), LengthMismatch> {
    match others.iter().find(|&&b| b != a) {
        None => Ok(()),
        Some(&b) => Err(LengthMismatch { a, b }),
    }
}

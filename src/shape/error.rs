//! Why a shape can never overlap anything: [`ShapeError`] names the field, the [`Problem`] and
//! the value.

use core::fmt;

/// What is wrong with one field of a shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Problem {
    /// The field is NaN.
    Nan,
    /// A radius or half extent is below zero.
    Negative,
    /// An AABB's maximum is below its minimum on the same axis.
    BelowMin,
    /// An OBB's rotation component, or a ray's or a capsule's coordinate, is infinite or NaN.
    NonFinite,
    /// An OBB's rotation `(cos, sin)` is finite but its length is not within 2e-3 of 1.
    NotUnitRotation,
    /// A polygon turns clockwise (or not at all) at this vertex, or winds more than once: it is
    /// not convex and counter-clockwise. The value is the cross product of the two edges.
    NotConvex,
}

/// Why one shape can never overlap anything: the first offending field, the problem and the value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShapeError {
    /// Name of the offending field, as in the shape's struct.
    pub field: &'static str,
    /// What is wrong with it.
    pub problem: Problem,
    /// The offending value (for [`Problem::NotUnitRotation`], the rotation's length).
    pub value: f32,
}

impl ShapeError {
    pub(crate) const fn new(field: &'static str, problem: Problem, value: f32) -> Self {
        Self {
            field,
            problem,
            value,
        }
    }
}

impl fmt::Display for ShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.problem {
            Problem::Nan => "is NaN",
            Problem::Negative => "is negative",
            Problem::BelowMin => "is below the minimum on its axis",
            Problem::NonFinite => "is not finite",
            Problem::NotUnitRotation => "belongs to a rotation whose length is not 1",
            Problem::NotConvex => {
                "is a vertex where the polygon is not convex and counter-clockwise"
            }
        };
        write!(f, "`{}` {} ({:?})", self.field, what, self.value)
    }
}

impl std::error::Error for ShapeError {}

#[inline]
pub(crate) fn not_nan(field: &'static str, value: f32) -> Result<(), ShapeError> {
    if value.is_nan() {
        Err(ShapeError::new(field, Problem::Nan, value))
    } else {
        Ok(())
    }
}

/// The first of `fields` that is NaN, as that error.
#[inline]
pub(crate) fn none_nan(fields: &[(&'static str, f32)]) -> Result<(), ShapeError> {
    fields.iter().try_for_each(|&(field, v)| not_nan(field, v))
}

/// The first of `fields` that is NaN ([`Problem::Nan`]) or infinite ([`Problem::NonFinite`]),
/// as that error.
#[inline]
pub(crate) fn all_finite(fields: &[(&'static str, f32)]) -> Result<(), ShapeError> {
    fields.iter().try_for_each(|&(field, v)| {
        not_nan(field, v)?;
        if v.is_finite() {
            Ok(())
        } else {
            Err(ShapeError::new(field, Problem::NonFinite, v))
        }
    })
}

/// Fields `[x0, y0, x1, y1, size]` named `names`: the first of the four coordinates that is
/// NaN or infinite, else a size that is NaN or negative (a capsule's and a ray's rule).
#[inline]
pub(crate) fn finite_and_sized(
    names: [&'static str; 5],
    values: [f32; 5],
) -> Result<(), ShapeError> {
    let [n0, n1, n2, n3, size] = names;
    let [v0, v1, v2, v3, v] = values;
    all_finite(&[(n0, v0), (n1, v1), (n2, v2), (n3, v3)])?;
    non_negative(size, v)
}

#[inline]
pub(crate) fn non_negative(field: &'static str, value: f32) -> Result<(), ShapeError> {
    not_nan(field, value)?;
    if value < 0.0 {
        Err(ShapeError::new(field, Problem::Negative, value))
    } else {
        Ok(())
    }
}

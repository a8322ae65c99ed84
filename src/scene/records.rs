//! Records: one shape as the narrow phase reads it (its fields, id and kind code), and its
//! padded bounding box, both computed once when a shape enters a [`Scene`](super::Scene).

use super::BOUNDED;
use crate::shape::{Aabb, Capsule, Obb, Polygon, Shape};

/// Kind codes of the scene's shapes, in the kernels' argument order, in the low three bits.
pub(crate) const CIRCLE: u32 = 0;
pub(crate) const AABB: u32 = 1;
pub(crate) const OBB: u32 = 2;
pub(crate) const POLYGON: u32 = 3;
pub(crate) const CAPSULE: u32 = 4;
pub(crate) const KIND: u32 = 7;
// The flags: one bit each above the kind code.
/// Flag: a moving polygon's record as a kept finder gathered it: its field holds the place of
/// its vertices' copy in the finder's list of them (see `kept/numbers.rs`).
pub(crate) const GATHERED: u32 = 1 << 3;
/// Flag: a static polygon copied by a kept finder: its field holds the slot of its copied
/// vertices (see `statics.rs`).
pub(crate) const COPIED: u32 = 1 << 4;
/// Flag: the shape is static (never paired with another static shape).
pub(crate) const STATIC: u32 = 1 << 5;
/// Flag: the shape's bounds are infinite or beyond [`BOUNDED`].
pub(crate) const UNBOUNDED: u32 = 1 << 6;
/// Flag: the shape fails [`Shape::check`].
pub(crate) const INVALID: u32 = 1 << 7;
/// The kind word's bits below the filter index: kind code and flags.
pub(crate) const FILTER_SHIFT: u32 = 8;
/// The kind word's kind code and flags (what [`classify`] computes), without the filter index.
pub(crate) const CLASS: u32 = (1 << FILTER_SHIFT) - 1;
/// One shape as the narrow phase reads it: its fields as the lane blocks take them (circle `x,
/// y, radius`; AABB `min_x, min_y, max_x, max_y`; OBB `center_x, center_y, half_width,
/// half_height, cos, sin`; capsule `x0, y0, x1, y1, radius`; polygon: its handle in its
/// store's polygon blocks, then its padded box), its id (with [`SIDE`](super::SIDE) for the
/// second scene) and its kind word: the kind code and flags in the low byte, the index of its
/// [`Filter`](super::Filter) in its scene's table above.
/// Half a cache line, so that copying records in any order touches one line each.
#[derive(Clone, Copy, Debug, bytemuck::Zeroable, bytemuck::Pod)]
#[repr(C, align(32))]
pub(crate) struct Record {
    pub(crate) fields: [f32; 6],
    pub(crate) id: u32,
    pub(crate) kind: u32,
}

/// Whether a kind word (or its kind code alone, as a kept finder's tags hold it) is a
/// polygon's.
#[inline(always)]
pub(crate) fn is_polygon(kind: u32) -> bool {
    kind & KIND == POLYGON
}

impl Record {
    /// Whether the record is a polygon's (its field then holds a handle, not coordinates).
    #[inline(always)]
    pub(crate) fn is_polygon(&self) -> bool {
        is_polygon(self.kind)
    }

    /// Whether the two records are the same bits (NaN fields included), for the tests.
    #[cfg(test)]
    pub(crate) fn same(&self, other: &Self) -> bool {
        (self.fields.iter().zip(&other.fields)).all(|(a, b)| a.to_bits() == b.to_bits())
            && self.id == other.id
            && self.kind == other.kind
    }

    /// The index of the shape's filter in its scene's table.
    #[inline(always)]
    pub(crate) fn filter(&self) -> usize {
        (self.kind >> FILTER_SHIFT) as usize
    }

    /// NaN fields never hit, whatever they are paired with.
    pub(crate) const INERT: Self = Self {
        fields: [f32::NAN; 6],
        id: 0,
        kind: INVALID,
    };
}

/// A shape's padded box (with a NaN `min_x` for shapes the grid leaves out) and its record.
/// Each kind's check and bounding box are called directly, so that they inline: a frame loop
/// classifies every shape it moves.
#[inline(always)]
pub(crate) fn classify(shape: &Shape, id: u32) -> ([f32; 4], Record) {
    let (kind, fields) = fields_of(shape);
    match shape {
        Shape::Circle(c) => finish(fields, kind, id, c.check().is_ok(), || {
            Aabb::from_center(c.x, c.y, c.radius, c.radius)
        }),
        Shape::Aabb(b) => finish(fields, kind, id, b.check().is_ok(), || *b),
        Shape::Obb(o) => finish(fields, kind, id, o.check().is_ok(), || o.bounding_box()),
        Shape::Capsule(c) => finish(fields, kind, id, c.check().is_ok(), || c.bounding_box()),
        Shape::Polygon(p) => finish(fields, kind, id, p.check().is_ok(), || {
            p.finite_bounding_box()
        }),
    }
}

/// A shape's kind code and its record's fields (0 beyond its own; a polygon's, all 0 here,
/// take its handle in the scene, and its padded box where the record is made).
#[inline(always)]
pub(crate) fn fields_of(shape: &Shape) -> (u32, [f32; 6]) {
    match *shape {
        Shape::Circle(c) => (CIRCLE, [c.x, c.y, c.radius, 0.0, 0.0, 0.0]),
        Shape::Aabb(b) => (AABB, [b.min_x, b.min_y, b.max_x, b.max_y, 0.0, 0.0]),
        Shape::Obb(o) => (
            OBB,
            [
                o.center_x,
                o.center_y,
                o.half_width,
                o.half_height,
                o.cos,
                o.sin,
            ],
        ),
        Shape::Capsule(c) => (CAPSULE, [c.x0, c.y0, c.x1, c.y1, c.radius, 0.0]),
        Shape::Polygon(_) => (POLYGON, [0.0; 6]),
    }
}

/// The box and record of a shape of kind `kind` with `fields`, valid or not, whose bounding
/// box `bounds` gives.
#[inline(always)]
fn finish(
    fields: [f32; 6],
    kind: u32,
    id: u32,
    valid: bool,
    bounds: impl FnOnce() -> Aabb,
) -> ([f32; 4], Record) {
    const OUT: [f32; 4] = [f32::NAN; 4];
    let record = |flag| Record {
        fields,
        id,
        kind: kind | flag,
    };
    let (b, mut r) = if !valid {
        (OUT, record(INVALID))
    } else {
        match padded(bounds()) {
            Some(b) => (b, record(0)),
            None => (OUT, record(UNBOUNDED)),
        }
    };
    // A polygon's record holds its padded box beside its handle (see `padded_box`).
    if kind == POLYGON {
        r.fields[1..5].copy_from_slice(&b);
    }
    (b, r)
}

/// The padded box of the shape of kind code `code` whose record is `r`, read from the record
/// alone: for a valid shape the bits [`classify`] gave (the same functions of the same fields;
/// a polygon's record holds its box in fields 1 to 4, its vertices being elsewhere). NaN where
/// it gave none (a shape out of bounds). An invalid shape, which never hits, may get any box.
/// For the kept candidates' box check (see `picks.rs`): two shapes whose padded boxes are
/// apart never overlap.
#[inline(always)]
pub(crate) fn padded_box(code: u32, r: &Record) -> [f32; 4] {
    let f = &r.fields;
    let bounds = match code {
        CIRCLE => Aabb::from_center(f[0], f[1], f[2], f[2]),
        AABB => Aabb::new(f[0], f[1], f[2], f[3]),
        OBB => Obb::from_rotation(f[0], f[1], f[2], f[3], f[4], f[5]).bounding_box(),
        CAPSULE => Capsule::new(f[0], f[1], f[2], f[3], f[4]).bounding_box(),
        _ => return [f[1], f[2], f[3], f[4]],
    };
    padded(bounds).unwrap_or([f32::NAN; 4])
}

/// Whether two padded boxes are apart (closed boxes that do not touch); `false` where either
/// is NaN.
#[inline(always)]
pub(crate) fn apart(a: &[f32; 4], b: &[f32; 4]) -> bool {
    (a[2] < b[0]) | (b[2] < a[0]) | (a[3] < b[1]) | (b[3] < a[1])
}

/// The box of a shape, padded against rounding, or `None` when its bounds are not finite or are
/// large enough for a kernel's squares to overflow.
///
/// A kernel computes with rounding errors of a few ULPs of the largest coordinate involved, and
/// squared distances underflow to zero below about 1e-19; growing each box by 2⁻¹⁹ of its largest
/// coordinate (about 32 ULPs) plus 1e-18 keeps every pair a kernel could report inside the grid's
/// candidates.
#[inline(always)]
pub(crate) fn padded(b: Aabb) -> Option<[f32; 4]> {
    let m = b
        .min_x
        .abs()
        .max(b.min_y.abs())
        .max(b.max_x.abs())
        .max(b.max_y.abs());
    // `m` is NaN when a bound is NaN; `is_nan` and the size test together keep those out too.
    if m.is_nan() || m > BOUNDED {
        return None;
    }
    let pad = m * (1.0 / (1u32 << 19) as f32) + 1e-18;
    Some([b.min_x - pad, b.min_y - pad, b.max_x + pad, b.max_y + pad])
}

/// A static polygon's vertices as a neighbour copies them: aligned to a cache line, so that
/// gathering one into lanes reads one line rather than two (a polygon is 64 bytes; a vector of
/// them is aligned only to 4).
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
pub(crate) struct Copied(pub(crate) Polygon);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Circle, Polygon};

    /// A polygon's padded box is the same to the bit whichever zero its least or greatest
    /// coordinate is, so that `finite_bounding_box`, which may give either, boxes a polygon
    /// as `bounding_box` would.
    #[test]
    fn a_polygon_box_at_zero_pads_alike_with_either_zero() {
        for (low, high) in [(0.0, 0.0), (-0.0, 0.0), (0.0, -0.0), (-0.0, -0.0)] {
            let p = Polygon {
                xs: [low, 1.0, 1.0, high, high, high, high, high],
                ys: [low, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
            };
            let (b, r) = classify(&Shape::Polygon(p), 3);
            assert_eq!(r.kind & (INVALID | UNBOUNDED), 0, "{p:?}");
            let want = padded(p.bounding_box()).map(|b| b.map(f32::to_bits));
            assert_eq!(Some(b.map(f32::to_bits)), want, "{p:?}");
            let zero = padded(Aabb::new(0.0, 0.0, 1.0, 1.0)).map(|b| b.map(f32::to_bits));
            assert_eq!(want, zero, "{p:?}");
        }
    }

    /// `padded_box` reads from the record the very bits `classify` gave, for every kind, at
    /// every scale from tiny to the edge of the grid's bounds, at signed zeros, for degenerate
    /// shapes (a zero radius, a point of a box, a capsule of one point), and for shapes
    /// beyond the bounds (NaN, never apart from anything). An invalid shape's record is not
    /// asked (it is never a kept candidate).
    #[test]
    fn a_records_padded_box_is_the_box_it_was_classified_with() {
        let mut rng = crate::test_rng::Xorshift::new(0x5eed_b0c5);
        let mut shapes: Vec<Shape> = vec![
            Circle::new(-0.0, 0.0, 0.0).into(),
            Aabb::new(-0.0, -0.0, 0.0, 0.0).into(),
            Capsule::new(1.0, -1.0, 1.0, -1.0, 0.0).into(),
            Obb::new(0.0, -0.0, 0.0, 0.0, 0.3).into(),
            Polygon::regular(3, -0.0, 0.0, 1e-30, 0.0).into(),
            Circle::new(1e18, -1e18, 1e17).into(),
            Circle::new(1.2e18, 0.0, 1.0).into(),
            Polygon::regular(8, 0.0, 0.0, 2e18, 0.1).into(),
        ];
        for scale in [1e-30, 1e-6, 1.0, 3e4, 1e12, 1e17] {
            for _ in 0..200 {
                let v = |rng: &mut crate::test_rng::Xorshift| scale * (2.0 * rng.unit() - 1.0);
                let (x, y, r) = (v(&mut rng), v(&mut rng), scale * rng.unit());
                let (a, b) = (v(&mut rng), v(&mut rng));
                shapes.extend([
                    Shape::from(Circle::new(x, y, r)),
                    Aabb::new(x.min(a), y.min(b), x.max(a), y.max(b)).into(),
                    Obb::new(x, y, r, 0.5 * r, 7.0 * rng.unit()).into(),
                    Capsule::new(x, y, a, b, 0.25 * r).into(),
                    Polygon::regular(3 + rng.below(6) as usize, x, y, r, rng.unit()).into(),
                ]);
            }
        }
        let (mut bounded, mut beyond) = (0, 0);
        for shape in &shapes {
            assert!(shape.check().is_ok(), "{shape:?}");
            let (b, r) = classify(shape, 1);
            let got = padded_box(r.kind & KIND, &r);
            assert_eq!(got.map(f32::to_bits), b.map(f32::to_bits), "{shape:?}");
            if b[0].is_nan() {
                beyond += 1;
                assert!(
                    !apart(&got, &[0.0; 4]) && !apart(&[0.0; 4], &got),
                    "{shape:?}"
                );
            } else {
                bounded += 1;
            }
        }
        assert!(
            beyond >= 2 && bounded > 5000,
            "{beyond} beyond, {bounded} bounded"
        );
    }

    /// Two boxes are apart only where they do not touch: a shared edge or corner, or a NaN
    /// box, is not apart, in either order.
    #[test]
    fn boxes_that_touch_are_not_apart() {
        let unit = [0.0, 0.0, 1.0, 1.0];
        let touching = [
            [1.0, 0.0, 2.0, 1.0],
            [1.0, 1.0, 2.0, 2.0],
            [-1.0, -1.0, 0.0, 0.0],
        ];
        let away = [
            [1.0 + f32::EPSILON, 0.0, 2.0, 1.0],
            [0.0, -2.0, 1.0, -1e-30],
        ];
        for b in touching.iter().chain(&[[f32::NAN; 4]]) {
            assert!(!apart(&unit, b) && !apart(b, &unit), "{b:?}");
        }
        for b in &away {
            assert!(apart(&unit, b) && apart(b, &unit), "{b:?}");
        }
    }
}

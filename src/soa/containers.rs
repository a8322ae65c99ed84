//! The containers, one `soa_container!` each: [`Points`], [`Circles`], [`Aabbs`], [`Obbs`],
//! [`Polygons`], [`Capsules`] and [`Rays`].

use super::container::{CHUNK, Chunk, block_of, flat, flat_mut};
use super::{InvalidShape, ShapeSoa, sealed};
use crate::lanes::{
    AabbX8, AabbX16, CapsuleX8, CapsuleX16, CircleX8, CircleX16, LANES, ObbX8, ObbX16, PointX8,
    PointX16, PolygonX8, PolygonX16, RayX8, RayX16, Simd,
};
use crate::shape::{Aabb, Capsule, Circle, MAX_VERTICES, Obb, Point, Polygon, Ray};
use wide::f32x8;

soa_container! {
    /// [`Point`]s in lane blocks.
    ///
    /// ```
    /// use widephase::{Point, Points};
    /// let pts: Points = [Point::new(1.0, 2.0), Point::new(3.0, 4.0)].into_iter().collect();
    /// assert_eq!(pts.len(), 2);
    /// assert_eq!(pts.y(), &[2.0, 4.0]);
    /// ```
    Points of Point, lanes PointX8, PointX16 {
        x / x_mut: "horizontal coordinate",
        y / y_mut: "vertical coordinate",
    }
}

soa_container! {
    /// [`Circle`]s in lane blocks.
    ///
    /// ```
    /// use widephase::{Circle, Circles};
    /// let mut c = Circles::with_capacity(100);
    /// c.push(Circle::new(0.0, 0.0, 1.0));
    /// c.x_mut()[0] += 0.5; // move it in place
    /// assert_eq!(c.get(0), Circle::new(0.5, 0.0, 1.0));
    /// assert!(c.validate().is_ok());
    /// ```
    Circles of Circle, lanes CircleX8, CircleX16 {
        x / x_mut: "centre, horizontal",
        y / y_mut: "centre, vertical",
        radius / radius_mut: "radius",
    }
}

soa_container! {
    /// [`Aabb`]s in lane blocks.
    ///
    /// ```
    /// use widephase::{Aabb, Aabbs};
    /// let boxes: Aabbs = vec![Aabb::new(0.0, 0.0, 1.0, 1.0), Aabb::new(2.0, 0.0, 1.0, 1.0)]
    ///     .into_iter()
    ///     .collect();
    /// let err = boxes.validate().unwrap_err();
    /// assert_eq!(err.index, 1); // max_x < min_x
    /// assert_eq!(err.to_string(), "Aabbs[1]: `max_x` is below the minimum on its axis (1.0)");
    /// ```
    Aabbs of Aabb, lanes AabbX8, AabbX16 {
        min_x / min_x_mut: "left edge",
        min_y / min_y_mut: "bottom edge",
        max_x / max_x_mut: "right edge",
        max_y / max_y_mut: "top edge",
    }
}

soa_container! {
    /// [`Obb`]s in lane blocks.
    ///
    /// ```
    /// use widephase::{Obb, Obbs};
    /// let boxes: Obbs = (0..10).map(|i| Obb::new(i as f32, 0.0, 0.5, 0.25, 0.1 * i as f32)).collect();
    /// assert_eq!(boxes.blocks(), 2);
    /// assert_eq!(boxes.cos().len(), 10);
    /// ```
    Obbs of Obb, lanes ObbX8, ObbX16 {
        center_x / center_x_mut: "centre, horizontal",
        center_y / center_y_mut: "centre, vertical",
        half_width / half_width_mut: "half extent along the local x axis",
        half_height / half_height_mut: "half extent along the local y axis",
        cos / cos_mut: "cosine of the rotation",
        sin / sin_mut: "sine of the rotation",
    }
}

soa_container! {
    /// [`Capsule`]s (and segments, capsules of radius 0) in lane blocks.
    ///
    /// ```
    /// use widephase::{Capsule, Capsules};
    /// let limbs: Capsules = (0..3).map(|i| Capsule::new(i as f32, 0.0, i as f32, 2.0, 0.25)).collect();
    /// assert_eq!(limbs.x1(), &[0.0, 1.0, 2.0]);
    /// assert!(limbs.validate().is_ok());
    /// let bad: Capsules = [Capsule::segment(0.0, 0.0, f32::INFINITY, 0.0)].into_iter().collect();
    /// assert_eq!(bad.validate().unwrap_err().to_string(), "Capsules[0]: `x1` is not finite (inf)");
    /// ```
    Capsules of Capsule, lanes CapsuleX8, CapsuleX16 {
        x0 / x0_mut: "first endpoint, horizontal",
        y0 / y0_mut: "first endpoint, vertical",
        x1 / x1_mut: "second endpoint, horizontal",
        y1 / y1_mut: "second endpoint, vertical",
        radius / radius_mut: "radius around the segment",
    }
}

soa_container! {
    /// [`Ray`]s in lane blocks, for [`batch_raycast`](crate::batch_raycast).
    ///
    /// ```
    /// use widephase::{Ray, Rays};
    /// let rays: Rays = (0..3).map(|i| Ray::new(0.0, i as f32, 1.0, 0.0, 10.0)).collect();
    /// assert_eq!(rays.origin_y(), &[0.0, 1.0, 2.0]);
    /// assert!(rays.validate().is_ok());
    /// ```
    Rays of Ray, lanes RayX8, RayX16 {
        origin_x / origin_x_mut: "origin, horizontal",
        origin_y / origin_y_mut: "origin, vertical",
        dir_x / dir_x_mut: "direction, horizontal",
        dir_y / dir_y_mut: "direction, vertical",
        max_t / max_t_mut: "largest parameter tested",
    }
}

soa_container! {
    /// [`Polygon`]s in lane blocks: vertex `k` of polygon `i` is lane `i % 8` of block `i / 8` of
    /// the `k`-th coordinate field.
    ///
    /// One polygon per lane, like every other container, so that a kernel tests eight pairs at
    /// once with the same instructions as its scalar reference, without shuffles; a polygon of
    /// fewer than eight vertices pays for eight (its padding edges have zero length).
    ///
    /// Chosen over "one polygon's vertices across the lanes" by measurement
    /// (`cargo bench -p widephase-bench --bench polygon_layout`, polygon–polygon): this layout runs at the same speed
    /// whether pairs overlap or not (81 M pairs/s on the test machine); the other one, testing one
    /// pair at a time, is 13 % faster when most pairs are far apart (it can stop after one
    /// polygon's axes) and 15 % slower when most overlap, as the pairs a broadphase hands over do,
    /// and 25 % slower still if it has to transpose blocks of this layout.
    ///
    /// ```
    /// use widephase::{Polygon, Polygons};
    /// let tri = Polygon::new(&[[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])?;
    /// let mut polys: Polygons = [tri, tri.transformed(5.0, 0.0, 0.5)].into_iter().collect();
    /// assert_eq!(polys.len(), 2);
    /// assert_eq!(polys.xs(1)[0], 1.0); // vertex 1 of polygon 0
    /// polys.xs_mut(0)[1] += 2.0; // move polygon 1's first vertex
    /// assert_eq!(polys.get(1).xs[0], 7.0);
    /// # Ok::<(), widephase::InvalidPolygon>(())
    /// ```
    Polygons of Polygon, lanes PolygonX8, PolygonX16 {
        xs / xs_mut [MAX_VERTICES]: "vertex `k`'s horizontal coordinate",
        ys / ys_mut [MAX_VERTICES]: "vertex `k`'s vertical coordinate",
    }
}

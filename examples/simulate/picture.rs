//! The demo's picture: a corner of the last frame as SVG.

use super::Body;
use super::bullets::Path;
use std::fmt::Write as _;
use widephase::{Aabb, Manifold, Shape};

/// An SVG of a 70 x 70 window at the bottom-left corner of the box, walls included:
/// overlapping shapes red, others grey, static shapes dark, and each manifold point a small
/// dark dot with a short tick along its normal; over them the bullets' thin walls (dark
/// lines) and their latest paths (orange), each ending in a dot where it hit a wall.
pub(super) fn svg(
    bodies: &[Body],
    overlapping: &[bool],
    statics: &[Shape],
    manifolds: &[(u32, u32, Manifold)],
    (range, paths): (&[Aabb], &[Path]),
) -> String {
    let window = 70.0f32;
    let (x0, y0) = (-5.0f32, -5.0f32);
    let scale = 800.0 / window;
    let at = |vx: f32, vy: f32| {
        format!(
            "{:.1},{:.1}",
            (vx - x0) * scale,
            (window - (vy - y0)) * scale
        )
    };
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="800" height="800" viewBox="0 0 800 800">"#
    );
    let _ = writeln!(s, r##"<rect width="800" height="800" fill="#fafafa"/>"##);
    // Static shapes as polygons (a box by its four corners), clipped by the view.
    for shape in statics {
        let corners: Vec<[f32; 2]> = match shape {
            Shape::Aabb(b) => vec![
                [b.min_x, b.min_y],
                [b.max_x, b.min_y],
                [b.max_x, b.max_y],
                [b.min_x, b.max_y],
            ],
            Shape::Obb(b) => [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
                .iter()
                .map(|&(u, v)| {
                    let (dx, dy) = (u * b.half_width, v * b.half_height);
                    [
                        b.center_x + dx * b.cos - dy * b.sin,
                        b.center_y + dx * b.sin + dy * b.cos,
                    ]
                })
                .collect(),
            Shape::Polygon(p) => p.vertices().collect(),
            Shape::Circle(_) | Shape::Capsule(_) => continue,
        };
        let b = shape.bounding_box();
        if b.min_x > x0 + window || b.min_y > y0 + window || b.max_x < x0 || b.max_y < y0 {
            continue;
        }
        let points: Vec<String> = corners.iter().map(|&[x, y]| at(x, y)).collect();
        let _ = writeln!(
            s,
            r##"<polygon points="{}" fill="#2b2d38"/>"##,
            points.join(" ")
        );
    }
    for (body, &hit) in bodies.iter().zip(overlapping) {
        let (x, y) = (
            (body.pos.0 - x0) * scale,
            (window - (body.pos.1 - y0)) * scale,
        );
        let reach = 2.2 * scale;
        if x < -reach || y < -reach || x > 800.0 + reach || y > 800.0 + reach {
            continue;
        }
        let style = if hit {
            r##"fill="#e5484d" fill-opacity="0.75""##
        } else {
            r##"fill="#8b8d98" fill-opacity="0.45""##
        };
        let (w, h) = (body.size.0 * scale, body.size.1 * scale);
        let _ = match body.kind {
            0 => writeln!(s, r#"<circle cx="{x:.1}" cy="{y:.1}" r="{w:.1}" {style}/>"#),
            1 => writeln!(
                s,
                r#"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" {style}/>"#,
                x - w,
                y - h,
                2.0 * w,
                2.0 * h
            ),
            2 => writeln!(
                s,
                r#"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" transform="rotate({:.1} {x:.1} {y:.1})" {style}/>"#,
                x - w,
                y - h,
                2.0 * w,
                2.0 * h,
                -body.angle.to_degrees()
            ),
            4 => {
                let Shape::Capsule(c) = body.shape() else {
                    unreachable!("kind 4 is a capsule")
                };
                // A line with round caps, as wide as the capsule.
                let (a, b) = (at(c.x0, c.y0), at(c.x1, c.y1));
                let (a, b) = (
                    a.split_once(',').expect("x,y"),
                    b.split_once(',').expect("x,y"),
                );
                let color = if hit { "#e5484d" } else { "#8b8d98" };
                let opacity = if hit { 0.75 } else { 0.45 };
                writeln!(
                    s,
                    r#"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{color}" stroke-opacity="{opacity}" stroke-width="{:.1}" stroke-linecap="round"/>"#,
                    a.0,
                    a.1,
                    b.0,
                    b.1,
                    2.0 * c.radius * scale
                )
            }
            _ => {
                let Shape::Polygon(p) = body.shape() else {
                    unreachable!("kind 3 is a polygon")
                };
                let points: Vec<String> = p.vertices().map(|[vx, vy]| at(vx, vy)).collect();
                writeln!(s, r#"<polygon points="{}" {style}/>"#, points.join(" "))
            }
        };
    }
    for (_, _, m) in manifolds {
        for p in m.points() {
            let [px, py] = p.point;
            if px < x0 || py < y0 || px > x0 + window || py > y0 + window {
                continue;
            }
            let tip = at(px + 0.6 * m.normal[0], py + 0.6 * m.normal[1]);
            let (from, to) = (at(px, py), tip);
            let (from, to) = (
                from.split_once(',').expect("x,y"),
                to.split_once(',').expect("x,y"),
            );
            let _ = writeln!(
                s,
                r##"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#1b1d28" stroke-width="1"/><circle cx="{}" cy="{}" r="1.6" fill="#1b1d28"/>"##,
                from.0, from.1, to.0, to.1, from.0, from.1
            );
        }
    }
    for w in range {
        let (a, b) = (at(w.min_x, w.min_y), at(w.min_x, w.max_y));
        let (a, b) = (
            a.split_once(',').expect("x,y"),
            b.split_once(',').expect("x,y"),
        );
        let _ = writeln!(
            s,
            r##"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#1b1d28" stroke-width="1.5"/>"##,
            a.0, a.1, b.0, b.1
        );
    }
    for &(from, to, hit) in paths {
        let (a, b) = (at(from[0], from[1]), at(to[0], to[1]));
        let (a, b) = (
            a.split_once(',').expect("x,y"),
            b.split_once(',').expect("x,y"),
        );
        let _ = writeln!(
            s,
            r##"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#f76b15" stroke-opacity="0.7" stroke-width="0.8"/>"##,
            a.0, a.1, b.0, b.1
        );
        if hit {
            let _ = writeln!(
                s,
                r##"<circle cx="{}" cy="{}" r="2.2" fill="#f76b15"/>"##,
                b.0, b.1
            );
        }
    }
    s.push_str("</svg>\n");
    s
}

//! An independent check of contacts: the distance between two moving shapes, scanned densely
//! over the tick in `f64` and refined around every local minimum.
//!
//! It shares nothing with `bevy_sweep`'s narrow phase but the motion model: each vertex (a
//! point, a segment endpoint, a circle's or box's centre) moves linearly over the tick, as in
//! [`ShapePath::at`] (here interpolated in `f64`).

use bevy::math::DVec2;
use bevy_sweep::narrow::{Shape, ShapePath};

/// A shape at one moment, in `f64`: a segment thickened by a radius (a point, a segment, a
/// disk) or an axis-aligned box.
#[derive(Clone, Copy, Debug)]
enum Solid {
    Capsule { a: DVec2, b: DVec2, radius: f64 },
    Box { center: DVec2, half: DVec2 },
}

fn solid(shape: Shape) -> Solid {
    let d = |v: bevy::math::Vec2| v.as_dvec2();
    match shape {
        Shape::Point(p) => Solid::Capsule {
            a: d(p),
            b: d(p),
            radius: 0.0,
        },
        Shape::Segment(a, b) => Solid::Capsule {
            a: d(a),
            b: d(b),
            radius: 0.0,
        },
        Shape::Circle { center, radius } => Solid::Capsule {
            a: d(center),
            b: d(center),
            radius: f64::from(radius),
        },
        Shape::Aabb {
            center,
            half_extents,
        } => Solid::Box {
            center: d(center),
            half: d(half_extents),
        },
        Shape::Convex(_) => unreachable!("the comparison's scenes have no polygons"),
    }
}

/// `(1 − t)·p + t·q` in `f64`.
fn lerp(path: [bevy::math::Vec2; 2], t: f64) -> DVec2 {
    let (p, q) = (path[0].as_dvec2(), path[1].as_dvec2());
    p + (q - p) * t
}

/// The shape of `path` at `t`, interpolated in `f64` (interpolating in `f32` would move it by
/// up to an `f32` step of its coordinates, which decides grazes).
fn solid_at(path: &ShapePath, t: f64) -> Solid {
    match *path {
        ShapePath::Point(p) => {
            let p = lerp(p, t);
            Solid::Capsule {
                a: p,
                b: p,
                radius: 0.0,
            }
        }
        ShapePath::Segment { a, b } => Solid::Capsule {
            a: lerp(a, t),
            b: lerp(b, t),
            radius: 0.0,
        },
        ShapePath::Circle { center, radius } => {
            let c = lerp(center, t);
            Solid::Capsule {
                a: c,
                b: c,
                radius: f64::from(radius),
            }
        }
        ShapePath::Aabb {
            center,
            half_extents,
        } => Solid::Box {
            center: lerp(center, t),
            half: half_extents.as_dvec2(),
        },
        ShapePath::Convex(_) => unreachable!("the comparison's scenes have no polygons"),
    }
}

fn point_segment(p: DVec2, a: DVec2, b: DVec2) -> f64 {
    let ab = b - a;
    let len2 = ab.length_squared();
    let t = if len2 > 0.0 {
        ((p - a).dot(ab) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    p.distance(a + t * ab)
}

fn cross(a: DVec2, b: DVec2) -> f64 {
    a.x * b.y - a.y * b.x
}

/// `true` if the closed segments `ab` and `cd` share a point.
fn segments_meet(a: DVec2, b: DVec2, c: DVec2, d: DVec2) -> bool {
    let d1 = cross(b - a, c - a);
    let d2 = cross(b - a, d - a);
    let d3 = cross(d - c, a - c);
    let d4 = cross(d - c, b - c);
    if ((d1 > 0.0 && d2 < 0.0) || (d1 < 0.0 && d2 > 0.0))
        && ((d3 > 0.0 && d4 < 0.0) || (d3 < 0.0 && d4 > 0.0))
    {
        return true;
    }
    // Touching or collinear cases are covered by the endpoint distances being 0.
    false
}

fn segment_segment(a: DVec2, b: DVec2, c: DVec2, d: DVec2) -> f64 {
    if segments_meet(a, b, c, d) {
        return 0.0;
    }
    point_segment(a, c, d)
        .min(point_segment(b, c, d))
        .min(point_segment(c, a, b))
        .min(point_segment(d, a, b))
}

fn point_box(p: DVec2, center: DVec2, half: DVec2) -> f64 {
    let q = (p - center).abs() - half;
    q.max(DVec2::ZERO).length()
}

fn segment_box(a: DVec2, b: DVec2, center: DVec2, half: DVec2) -> f64 {
    // Slab clip: does the segment enter the closed box?
    let (mut t0, mut t1) = (0.0_f64, 1.0_f64);
    let dir = b - a;
    let mut inside = true;
    for axis in 0..2 {
        let (p, v, lo, hi) = (
            a[axis],
            dir[axis],
            center[axis] - half[axis],
            center[axis] + half[axis],
        );
        if v == 0.0 {
            if p < lo || p > hi {
                inside = false;
            }
        } else {
            let (mut ta, mut tb) = ((lo - p) / v, (hi - p) / v);
            if ta > tb {
                core::mem::swap(&mut ta, &mut tb);
            }
            t0 = t0.max(ta);
            t1 = t1.min(tb);
        }
    }
    if inside && t0 <= t1 {
        return 0.0;
    }
    let corners = [
        center + DVec2::new(-half.x, -half.y),
        center + DVec2::new(half.x, -half.y),
        center + DVec2::new(half.x, half.y),
        center + DVec2::new(-half.x, half.y),
    ];
    corners.iter().map(|&k| point_segment(k, a, b)).fold(
        point_box(a, center, half).min(point_box(b, center, half)),
        f64::min,
    )
}

/// The distance between two shapes at one moment (0 where they touch or overlap).
#[must_use]
pub fn distance(s: Shape, t: Shape) -> f64 {
    solid_distance(solid(s), solid(t))
}

fn solid_distance(s: Solid, t: Solid) -> f64 {
    let d = match (s, t) {
        (
            Solid::Capsule { a, b, radius: r1 },
            Solid::Capsule {
                a: c,
                b: d,
                radius: r2,
            },
        ) => segment_segment(a, b, c, d) - r1 - r2,
        (Solid::Capsule { a, b, radius }, Solid::Box { center, half })
        | (Solid::Box { center, half }, Solid::Capsule { a, b, radius }) => {
            segment_box(a, b, center, half) - radius
        }
        (
            Solid::Box { center, half },
            Solid::Box {
                center: c2,
                half: h2,
            },
        ) => ((center - c2).abs() - (half + h2))
            .max(DVec2::ZERO)
            .length(),
    };
    d.max(0.0)
}

/// The smallest distance between two moving shapes during the tick, and when (a fraction of
/// the tick): `samples` evenly spaced moments, then a golden-section search around each
/// local minimum.
#[must_use]
pub fn closest_approach(a: &ShapePath, b: &ShapePath, samples: usize) -> (f64, f64) {
    let at = |t: f64| solid_distance(solid_at(a, t), solid_at(b, t));
    let n = samples.max(2);
    let step = 1.0 / n as f64;
    let d: Vec<f64> = (0..=n).map(|i| at(i as f64 * step)).collect();
    let mut best = (f64::INFINITY, 0.0);
    for i in 0..=n {
        let left = if i > 0 { d[i - 1] } else { f64::INFINITY };
        let right = if i < n { d[i + 1] } else { f64::INFINITY };
        if d[i] > left || d[i] > right {
            continue;
        }
        // Golden-section search on [t - step, t + step] ∩ [0, 1].
        let (mut lo, mut hi) = (
            ((i as f64 - 1.0) * step).max(0.0),
            ((i as f64 + 1.0) * step).min(1.0),
        );
        let g = 0.5 * (5.0_f64.sqrt() - 1.0);
        let (mut x1, mut x2) = (hi - g * (hi - lo), lo + g * (hi - lo));
        let (mut f1, mut f2) = (at(x1), at(x2));
        for _ in 0..60 {
            if f1 <= f2 {
                hi = x2;
                x2 = x1;
                f2 = f1;
                x1 = hi - g * (hi - lo);
                f1 = at(x1);
            } else {
                lo = x1;
                x1 = x2;
                f1 = f2;
                x2 = lo + g * (hi - lo);
                f2 = at(x2);
            }
        }
        for (t, v) in [(i as f64 * step, d[i]), (x1, f1), (x2, f2)] {
            if v < best.0 {
                best = (v, t);
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::math::Vec2;

    #[test]
    fn distances() {
        let p = Shape::Point(Vec2::new(0.0, 2.0));
        let s = Shape::Segment(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0));
        assert!((distance(p, s) - 2.0).abs() < 1e-12);
        let b = Shape::Aabb {
            center: Vec2::new(3.0, 0.0),
            half_extents: Vec2::new(1.0, 1.0),
        };
        assert!((distance(s, b) - 1.0).abs() < 1e-12);
        let c = Shape::Circle {
            center: Vec2::new(0.0, 0.5),
            radius: 1.0,
        };
        assert_eq!(distance(c, s), 0.0);
        let crossing = Shape::Segment(Vec2::new(0.0, -1.0), Vec2::new(0.0, 1.0));
        assert_eq!(distance(crossing, s), 0.0);
        let through = Shape::Segment(Vec2::new(2.0, -5.0), Vec2::new(2.5, 5.0));
        assert_eq!(distance(through, b), 0.0);
    }

    #[test]
    fn a_point_through_a_segment_inside_the_tick() {
        // The point crosses the segment at t = 0.3 only.
        let point = ShapePath::Point([Vec2::new(0.0, -3.0), Vec2::new(0.0, 7.0)]);
        let segment = ShapePath::Segment {
            a: [Vec2::new(-1.0, 0.0); 2],
            b: [Vec2::new(1.0, 0.0); 2],
        };
        let (d, t) = closest_approach(&point, &segment, 16);
        assert!(d < 1e-9, "{d}");
        assert!((t - 0.3).abs() < 1e-6, "{t}");
    }
}

//! Closest points of two basic shapes (point, segment, circle, box) at one moment, and
//! where along a segment they are.

use crate::geometry::{SegmentIntersection, clip_segment_aabb, intersect_segment_segment};
use crate::narrow::shape::Shape;
use bevy_math::{Vec2, bounding::Aabb2d};

/// Closest points (equal when the shapes touch or overlap) and the segment parameters there.
#[derive(Clone, Copy, Debug)]
pub(super) struct Closest {
    pub(super) on_a: Vec2,
    pub(super) on_b: Vec2,
    pub(super) along_a: Option<f32>,
    pub(super) along_b: Option<f32>,
}

impl Closest {
    pub(super) fn swap(self) -> Self {
        Self {
            on_a: self.on_b,
            on_b: self.on_a,
            along_a: self.along_b,
            along_b: self.along_a,
        }
    }
}

fn on_segment(p: Vec2, a: Vec2, b: Vec2) -> (Vec2, f32) {
    let d = b - a;
    let len2 = d.length_squared();
    let s = if len2 > 0.0 {
        ((p - a).dot(d) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (a + d * s, s)
}

fn on_disk(p: Vec2, center: Vec2, radius: f32) -> Vec2 {
    let d = p - center;
    let len = d.length();
    if len <= radius {
        p
    } else {
        center + d * (radius / len)
    }
}

fn on_box(p: Vec2, center: Vec2, half: Vec2) -> Vec2 {
    p.clamp(center - half, center + half)
}

/// Closest points for `a.rank() <= b.rank()` (point, segment, circle, box).
pub(super) fn closest_points(a: &Shape, b: &Shape) -> Closest {
    let plain = |on_a, on_b| Closest {
        on_a,
        on_b,
        along_a: None,
        along_b: None,
    };
    match (*a, *b) {
        (Shape::Point(p), Shape::Point(q)) => plain(p, q),
        (Shape::Point(p), Shape::Segment(s, e)) => {
            let (q, along) = on_segment(p, s, e);
            Closest {
                along_b: Some(along),
                ..plain(p, q)
            }
        }
        (Shape::Point(p), Shape::Circle { center, radius }) => plain(p, on_disk(p, center, radius)),
        (
            Shape::Point(p),
            Shape::Aabb {
                center,
                half_extents,
            },
        ) => plain(p, on_box(p, center, half_extents)),
        (Shape::Segment(a0, a1), Shape::Segment(b0, b1)) => segment_segment(a0, a1, b0, b1),
        (Shape::Segment(s, e), Shape::Circle { center, radius }) => {
            let (p, along) = on_segment(center, s, e);
            Closest {
                along_a: Some(along),
                ..plain(p, on_disk(p, center, radius))
            }
        }
        (
            Shape::Segment(s, e),
            Shape::Aabb {
                center,
                half_extents,
            },
        ) => segment_box(s, e, center, half_extents),
        (
            Shape::Circle { center, radius },
            Shape::Circle {
                center: other,
                radius: other_radius,
            },
        ) => {
            let n = (center - other).try_normalize().unwrap_or(Vec2::X);
            let depth = (center - other).length() - radius - other_radius;
            if depth < 0.0 {
                // Overlapping: both at the middle of the overlap.
                let p = other + n * (other_radius + 0.5 * depth);
                plain(p, p)
            } else {
                plain(center - n * radius, other + n * other_radius)
            }
        }
        (
            Shape::Circle { center, radius },
            Shape::Aabb {
                center: box_center,
                half_extents,
            },
        ) => {
            let q = on_box(center, box_center, half_extents);
            plain(on_disk(q, center, radius), q)
        }
        (
            Shape::Aabb {
                center: c,
                half_extents: h,
            },
            Shape::Aabb {
                center: d,
                half_extents: k,
            },
        ) => {
            let (a_min, a_max, b_min, b_max) = (c - h, c + h, d - k, d + k);
            let lo = a_min.max(b_min);
            let hi = a_max.min(b_max);
            let axis = |lo: f32, hi: f32, a_center: f32, b_center: f32| {
                if lo <= hi {
                    let m = 0.5 * (lo + hi);
                    (m, m)
                } else if a_center < b_center {
                    (hi, lo) // a's max face, b's min face
                } else {
                    (lo, hi)
                }
            };
            let (ax, bx) = axis(lo.x, hi.x, c.x, d.x);
            let (ay, by) = axis(lo.y, hi.y, c.y, d.y);
            plain(Vec2::new(ax, ay), Vec2::new(bx, by))
        }
        // Callers order the pair by rank.
        _ => plain(a.center(), b.center()),
    }
}

fn segment_segment(a0: Vec2, a1: Vec2, b0: Vec2, b1: Vec2) -> Closest {
    match intersect_segment_segment(a0, a1, b0, b1) {
        SegmentIntersection::Point { t, u, point } => Closest {
            on_a: point,
            on_b: point,
            along_a: Some(t),
            along_b: Some(u),
        },
        SegmentIntersection::Overlap { t, u } => {
            let (tm, um) = (0.5 * (t[0] + t[1]), 0.5 * (u[0] + u[1]));
            let p = a0.lerp(a1, tm);
            Closest {
                on_a: p,
                on_b: p,
                along_a: Some(tm),
                along_b: Some(um),
            }
        }
        SegmentIntersection::None => {
            let candidates = [
                {
                    let (q, u) = on_segment(a0, b0, b1);
                    (a0, q, 0.0, u)
                },
                {
                    let (q, u) = on_segment(a1, b0, b1);
                    (a1, q, 1.0, u)
                },
                {
                    let (p, t) = on_segment(b0, a0, a1);
                    (p, b0, t, 0.0)
                },
                {
                    let (p, t) = on_segment(b1, a0, a1);
                    (p, b1, t, 1.0)
                },
            ];
            let best = candidates
                .into_iter()
                .min_by(|x, y| {
                    x.0.distance_squared(x.1)
                        .total_cmp(&y.0.distance_squared(y.1))
                })
                .unwrap_or((a0, b0, 0.0, 0.0));
            Closest {
                on_a: best.0,
                on_b: best.1,
                along_a: Some(best.2),
                along_b: Some(best.3),
            }
        }
    }
}

fn segment_box(s: Vec2, e: Vec2, center: Vec2, half: Vec2) -> Closest {
    let aabb = Aabb2d {
        min: center - half,
        max: center + half,
    };
    if let Some(clip) = clip_segment_aabb(s, e, &aabb) {
        let t = 0.5 * (clip.entry + clip.exit);
        let p = s.lerp(e, t);
        return Closest {
            on_a: p,
            on_b: p,
            along_a: Some(t),
            along_b: None,
        };
    }
    let mut distance = s
        .distance(on_box(s, center, half))
        .min(e.distance(on_box(e, center, half)));
    for sign in [
        Vec2::ONE,
        -Vec2::ONE,
        Vec2::new(1.0, -1.0),
        Vec2::new(-1.0, 1.0),
    ] {
        let corner = center + sign * half;
        distance = distance.min(on_segment(corner, s, e).0.distance(corner));
    }
    // The part of the segment (nearly) at that distance, which is a whole stretch when the
    // segment lies along a face: its middle. Grown by a few ulps of the coordinates too, or
    // rounding in the clip can miss a segment that touches a corner.
    let scale = [s, e, aabb.min, aabb.max]
        .iter()
        .map(|p| p.abs().max_element())
        .fold(0.0, f32::max);
    let grow = distance * (1.0 + 1e-4) + scale * (4.0 * f32::EPSILON) + f32::MIN_POSITIVE;
    let grown = Aabb2d {
        min: aabb.min - Vec2::splat(grow),
        max: aabb.max + Vec2::splat(grow),
    };
    let t = clip_segment_aabb(s, e, &grown).map_or(0.0, |c| 0.5 * (c.entry + c.exit));
    let p = s.lerp(e, t);
    Closest {
        on_a: p,
        on_b: on_box(p, center, half),
        along_a: Some(t),
        along_b: None,
    }
}

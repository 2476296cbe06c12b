//! Which way a contact between two sharp corners may face, and the way that lets a motion
//! pass: the rule that keeps a shape sliding over the seam between two tiles.
//!
//! Where a face or a rounded shape is touched, a contact has one normal. Where a corner of
//! one sharp shape touches a corner of another (a box's corner on the corner of the next
//! tile, level with the floor it slides on), every direction between the faces meeting at
//! the two corners separates them: the contact's normals form a cone. A motion is blocked
//! only if it goes into the other shape along *every* one of them; if some separating line
//! through the contact has the motion along it or away from it, the shapes pass each other
//! (the box goes on over the next tile). This is the exact answer to the seam: the corner of
//! the next tile, level with the surface, is no wall.

use super::convex::{edges, outward};
use crate::narrow::path::{ConvexShape, Shape};
use crate::narrow::witness::as_convex;
use bevy_math::Vec2;

/// The normals a shape's boundary has at a corner, as outward unit directions.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Cone {
    /// Every direction (a point).
    All,
    /// The half-plane of directions `n` with `n·h >= 0` (a segment's end, `h` along it).
    Half(Vec2),
    /// The directions from `p` counter-clockwise to `q`, less than half a turn (a
    /// polygon's corner).
    Wedge(Vec2, Vec2),
}

/// How far a direction may fall outside a cone (rounding of unit vectors).
const SLACK: f32 = 1e-6;

impl Cone {
    fn contains(self, r: Vec2) -> bool {
        match self {
            Cone::All => true,
            Cone::Half(h) => r.dot(h) >= -SLACK,
            Cone::Wedge(p, q) => p.perp_dot(r) >= -SLACK && r.perp_dot(q) >= -SLACK,
        }
    }

    fn negated(self) -> Self {
        match self {
            Cone::All => Cone::All,
            Cone::Half(h) => Cone::Half(-h),
            Cone::Wedge(p, q) => Cone::Wedge(-p, -q),
        }
    }

    /// A segment end's half-plane narrowed to the side `towards` points to (else `or`):
    /// the quarter between the face on that side and the direction along the segment.
    fn on_side(self, towards: Vec2, or: Vec2) -> Self {
        let Cone::Half(h) = self else {
            return self;
        };
        let face = h.perp();
        let side = match face.dot(towards) {
            0.0 => face.dot(or),
            side => side,
        };
        let face = match side {
            s if s > 0.0 => face,
            s if s < 0.0 => -face,
            _ => return self,
        };
        if face.perp_dot(h) > 0.0 {
            Cone::Wedge(face, h)
        } else {
            Cone::Wedge(h, face)
        }
    }

    /// The directions on its boundary.
    fn rays(self) -> [Option<Vec2>; 2] {
        match self {
            Cone::All => [None, None],
            Cone::Half(h) => [Some(h.perp()), Some(-h.perp())],
            Cone::Wedge(p, q) => [Some(p), Some(q)],
        }
    }
}

/// The normal of a contact between `a` and `b` (touching) that opposes `motion` (of `a`'s
/// contact point relative to `b`'s) least, and whether there was a choice: `(normal, false)`
/// unless a sharp corner of each touches (within rounding), where the normal may be any
/// direction between the faces meeting there.
///
/// `normal` is the contact's normal as [`witness`](super::witness) gives it (from `b`
/// towards `a`); it is returned where the contact has one normal.
#[must_use]
#[cfg_attr(
    not(feature = "plugin"),
    allow(dead_code, reason = "used by the plugin")
)]
pub(crate) fn freest_normal(a: &Shape, b: &Shape, motion: Vec2, normal: Vec2) -> (Vec2, bool) {
    let (ca, cb) = (as_convex(a), as_convex(b));
    if ca.radius() > 0.0 || cb.radius() > 0.0 {
        return (normal, false);
    }
    // Rounding places the corners of two shapes that touch corner to corner a few ulps of
    // their coordinates apart: a touch that close to a corner is at the corner.
    let size = ca
        .vertices()
        .iter()
        .chain(cb.vertices())
        .fold(1.0_f32, |m, v| m.max(v.abs().max_element()));
    let near = size * (1.0 / (1 << 18) as f32);
    // A face touched anywhere (two faces lying along each other, a corner on a face): the
    // contact has one normal.
    if touches_a_face(&ca, &cb, near) || touches_a_face(&cb, &ca, near) {
        return (normal, false);
    }
    // The two corners that touch.
    let Some((i, j)) = nearest_corners(&ca, &cb) else {
        return (normal, false);
    };
    let (Some(cone_a), Some(cone_b)) = (corner_cone(&ca, i), corner_cone(&cb, j)) else {
        return (normal, false);
    };
    // A segment has a face on each side: at its end, the normals are those of the side the
    // other shape is on, which is the side it comes from (or, moving along the segment's
    // line, the side its middle is on).
    let middle =
        |shape: &ConvexShape| shape.vertices().iter().sum::<Vec2>() / shape.vertices().len() as f32;
    let cone_b = cone_b.on_side(-motion, middle(&ca) - middle(&cb));
    let cone_a = cone_a.on_side(motion, middle(&cb) - middle(&ca));
    // From `b` towards `a`: outward of `b`, inward of `a`.
    let from_a = cone_a.negated();
    // Two points: every direction; the contact's own.
    if cone_b == Cone::All && from_a == Cone::All {
        return (normal, false);
    }
    let mut best: Option<Vec2> = None;
    let mut consider = |n: Vec2| {
        if best.is_none_or(|b| n.dot(motion) > b.dot(motion)) {
            best = Some(n);
        }
    };
    for (cone, other) in [(cone_b, from_a), (from_a, cone_b)] {
        for ray in cone.rays().into_iter().flatten() {
            if other.contains(ray) {
                consider(ray);
            }
        }
    }
    if let Some(m) = motion.try_normalize()
        && cone_b.contains(m)
        && from_a.contains(m)
    {
        consider(m);
    }
    match best {
        Some(n) => (n, true),
        // Cones apart: not two corners that touch after all.
        None => (normal, false),
    }
}

/// `true` if a corner of `p` lies on the inside of an edge of `q` (within `near` of it, and
/// farther than `near` from its ends).
fn touches_a_face(p: &ConvexShape, q: &ConvexShape, near: f32) -> bool {
    p.vertices().iter().any(|&v| {
        edges(q).any(|(_, s, e)| {
            let d = e - s;
            let along = (v - s).dot(d) / d.length_squared();
            let foot = s + d * along.clamp(0.0, 1.0);
            foot.distance(v) <= near && foot.distance(s) > near && foot.distance(e) > near
        })
    })
}

/// The corner of `a` and the corner of `b` nearest each other.
fn nearest_corners(a: &ConvexShape, b: &ConvexShape) -> Option<(usize, usize)> {
    let mut best: Option<(f32, usize, usize)> = None;
    for (i, p) in a.vertices().iter().enumerate() {
        for (j, q) in b.vertices().iter().enumerate() {
            let d = p.distance_squared(*q);
            if best.is_none_or(|(bd, ..)| d < bd) {
                best = Some((d, i, j));
            }
        }
    }
    best.map(|(_, i, j)| (i, j))
}

/// The cone of outward normals of `shape` at its corner `corner`.
fn corner_cone(shape: &ConvexShape, corner: usize) -> Option<Cone> {
    let v = shape.vertices();
    let n = v.len();
    match n {
        1 => Some(Cone::All),
        2 => (v[corner] - v[1 - corner]).try_normalize().map(Cone::Half),
        _ => {
            let (before, after) = ((corner + n - 1) % n, (corner + 1) % n);
            let incoming = outward(shape, v[before], v[corner])?;
            let outgoing = outward(shape, v[corner], v[after])?;
            // Counter-clockwise from the edge coming in to the edge going out, for a
            // counter-clockwise polygon; the other way round for a clockwise one.
            let counter_clockwise = edges(shape).map(|(_, s, e)| s.perp_dot(e)).sum::<f32>() > 0.0;
            Some(if counter_clockwise {
                Cone::Wedge(incoming, outgoing)
            } else {
                Cone::Wedge(outgoing, incoming)
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tile(x: f32, y: f32) -> Shape {
        Shape::Aabb {
            center: Vec2::new(x, y),
            half_extents: Vec2::splat(8.0),
        }
    }

    /// A box sliding right along a floor reaches the corner of the next tile, level with the
    /// floor: some normal lets it pass (up), and that is the one given.
    #[test]
    fn the_next_tile_level_with_the_floor_lets_a_box_pass() {
        let mover = Shape::Aabb {
            center: Vec2::new(10.0, 14.0),
            half_extents: Vec2::splat(6.0),
        };
        let next = tile(24.0, 0.0);
        let (n, choice) = freest_normal(&mover, &next, Vec2::new(5.0, 0.0), Vec2::NEG_X);
        assert!(choice);
        assert_eq!(n, Vec2::Y);
        // Pressed down as well, it goes into the tile along every normal: blocked.
        let (n, _) = freest_normal(&mover, &next, Vec2::new(5.0, -1.0), Vec2::NEG_X);
        assert!(n.dot(Vec2::new(5.0, -1.0)) < 0.0, "{n}");
    }

    /// A step up is a face: one normal, the wall's.
    #[test]
    fn a_step_up_is_a_wall() {
        let mover = Shape::Aabb {
            center: Vec2::new(10.0, 14.0),
            half_extents: Vec2::splat(6.0),
        };
        let step = tile(24.0, 1.0);
        let (n, choice) = freest_normal(&mover, &step, Vec2::new(5.0, 0.0), Vec2::NEG_X);
        assert_eq!((n, choice), (Vec2::NEG_X, false));
    }

    /// A segment lying on the floor, a point, and a polygon's flat bottom pass the seam too;
    /// a circle's contact has one normal.
    #[test]
    fn other_sharp_shapes_pass_and_round_ones_have_one_normal() {
        let next = tile(24.0, 0.0);
        let motion = Vec2::new(5.0, 0.0);
        let segment = Shape::Segment(Vec2::new(4.0, 8.0), Vec2::new(16.0, 8.0));
        assert_eq!(
            freest_normal(&segment, &next, motion, Vec2::NEG_X).0,
            Vec2::Y
        );
        let point = Shape::Point(Vec2::new(16.0, 8.0));
        assert_eq!(freest_normal(&point, &next, motion, Vec2::NEG_X).0, Vec2::Y);
        let polygon = ConvexShape::new(
            &[
                Vec2::new(16.0, 8.0),
                Vec2::new(16.0, 20.0),
                Vec2::new(4.0, 20.0),
                Vec2::new(3.0, 14.0),
                Vec2::new(4.0, 8.0),
            ],
            0.0,
        )
        .unwrap();
        let (n, choice) = freest_normal(&Shape::Convex(polygon), &next, motion, Vec2::NEG_X);
        assert!(choice && n == Vec2::Y, "{n}");
        let ball = Shape::Circle {
            center: Vec2::new(12.0, 12.0),
            radius: 4.0,
        };
        assert_eq!(
            freest_normal(&ball, &next, motion, Vec2::new(-0.6, 0.8)),
            (Vec2::new(-0.6, 0.8), false)
        );
    }

    /// A segment lying along a floor segment, one end at the floor's end, touches its face:
    /// one normal, not a choice between its ends.
    #[test]
    fn a_segment_lying_along_another_touches_its_face() {
        let floor = Shape::Segment(Vec2::new(144.0, 0.0), Vec2::new(160.0, 0.0));
        let mover = Shape::Segment(Vec2::new(144.0, 0.0), Vec2::new(156.0, 0.0));
        assert_eq!(
            freest_normal(&mover, &floor, Vec2::new(4.0, -0.2), Vec2::Y),
            (Vec2::Y, false)
        );
    }

    /// A point on the shared end of two floor segments, moving on and down, crosses the
    /// segment ahead: blocked, along its face on the side the point comes from; moving on
    /// level, it passes.
    #[test]
    fn a_point_at_the_end_of_a_thin_floor_is_on_one_side_of_it() {
        let floor = Shape::Segment(Vec2::new(0.0, 0.0), Vec2::new(16.0, 0.0));
        let point = Shape::Point(Vec2::ZERO);
        let (n, choice) = freest_normal(&point, &floor, Vec2::new(4.0, -0.2), Vec2::Y);
        assert!(choice && n == Vec2::Y, "{n}");
        assert!(n.dot(Vec2::new(4.0, -0.2)) < 0.0);
        let (n, _) = freest_normal(&point, &floor, Vec2::new(4.0, 0.0), Vec2::Y);
        assert!(n.dot(Vec2::new(4.0, 0.0)) >= 0.0, "{n}");
        // From below, the face below.
        let (n, _) = freest_normal(&point, &floor, Vec2::new(4.0, 0.2), Vec2::NEG_Y);
        assert_eq!(n, Vec2::NEG_Y);
    }

    /// Rounding that leaves the mover's corner a hair off the tile's corner is no wall.
    #[test]
    fn a_corner_a_rounding_error_off_is_still_the_corner() {
        let next = tile(1016.0, 0.0);
        for dx in [-1e-4_f32, 0.0, 1e-4] {
            for dy in [-1e-4_f32, 0.0, 1e-4] {
                let mover = Shape::Aabb {
                    center: Vec2::new(1002.0 + dx, 14.0 + dy),
                    half_extents: Vec2::splat(6.0),
                };
                let (n, _) = freest_normal(&mover, &next, Vec2::new(5.0, 0.0), Vec2::NEG_X);
                assert_eq!(n, Vec2::Y, "off by ({dx}, {dy})");
            }
        }
    }
}

//! Which way a contact at a corner faces, when the corner is flush with its neighbours: the
//! rule that keeps a shape sliding over the seam between two tiles, and out of the crack
//! between two.
//!
//! Where a face or a rounded shape is touched, a contact has one normal. At a sharp corner
//! the normals form a cone: every direction between the faces that meet there. The solids a
//! mover meets are often pieces of one surface (tiles, boxes side by side, a polyline's
//! edges), and what it meets is their union: at a corner shared with neighbours, the normals
//! of the union are the directions in *every* piece's cone at that point. Two tiles side by
//! side leave the floor's normal alone at their shared corners; two stacked tiles leave the
//! wall's. A mover's own sharp corner has a cone too (turned round: the directions from the
//! solid towards it).
//!
//! The contact then blocks only if the motion goes into the solid along every direction
//! left; it is answered along the one that opposes it least (a box sliding level over the
//! next tile's corner is not stopped; a point sliding along the crack between two stacked
//! tiles is stopped by the wall they make). A rounded mover's one normal (from its centre)
//! is taken to the nearest direction left (a ball meeting the corner where two tiles of a
//! wall meet is answered along the wall's normal).

use super::convex::{edges, outward};
use crate::narrow::shape::{ConvexShape, Shape};
use crate::narrow::witness::as_convex;
use bevy_math::Vec2;

/// The normals a shape's boundary has at a point, as outward unit directions: a convex cone
/// of at most half a turn.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Cone {
    /// Every direction (a point).
    All,
    /// The half-plane of directions `n` with `n·h >= 0` (a segment's end, `h` along it).
    Half(Vec2),
    /// The directions from `p` counter-clockwise to `q`, less than half a turn (a
    /// polygon's corner; one direction for a face: `p == q`).
    Wedge(Vec2, Vec2),
}

/// How far a direction may fall outside a cone (rounding of unit vectors).
const SLACK: f32 = 1e-6;

impl Cone {
    fn contains(self, r: Vec2) -> bool {
        match self {
            Cone::All => true,
            Cone::Half(h) => r.dot(h) >= -SLACK,
            // Between the two, on the side they open to (less than half a turn: its
            // directions all point along `p + q`, and one direction is not its opposite).
            Cone::Wedge(p, q) => {
                p.perp_dot(r) >= -SLACK && r.perp_dot(q) >= -SLACK && r.dot(p + q) > 0.0
            }
        }
    }

    fn negated(self) -> Self {
        match self {
            Cone::All => Cone::All,
            Cone::Half(h) => Cone::Half(-h),
            Cone::Wedge(p, q) => Cone::Wedge(-p, -q),
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

/// The direction in every one of `cones` that points most along `towards` (a direction in
/// them all on one of their boundaries, or `towards` itself), and whether they share more
/// than one; `None` if they share none.
fn most_along(cones: &[Cone], towards: Vec2) -> Option<(Vec2, bool)> {
    let in_all = |n: Vec2| cones.iter().all(|c| c.contains(n));
    let mut best: Option<Vec2> = None;
    let mut several = false;
    let mut consider = |n: Vec2| {
        several |= best.is_some_and(|b| b.dot(n) < 1.0 - SLACK);
        if best.is_none_or(|b| n.dot(towards) > b.dot(towards)) {
            best = Some(n);
        }
    };
    for ray in cones.iter().flat_map(|c| c.rays()).flatten() {
        if in_all(ray) {
            consider(ray);
        }
    }
    if let Some(t) = towards.try_normalize()
        && in_all(t)
    {
        consider(t);
    }
    best.map(|b| (b, several))
}

/// Where the solids' cones share no direction, the point is in a crease of their union: a
/// corner bent towards the mover, if only by rounding (a straight run whose points `f32`
/// could not keep in line, cut into pieces there). The union's faces at the point are the
/// boundary rays of the cones that no other cone continues the opposite way (a cut line
/// between two pieces is a ray of both, pointing opposite ways); of those, the one most along
/// `towards`. `None` if every ray is such a cut line.
fn crease_face(cones: &[Cone], towards: Vec2) -> Option<Vec2> {
    let rays = || {
        cones
            .iter()
            .enumerate()
            .filter(|(_, c)| matches!(c, Cone::Wedge(..)))
            .flat_map(|(k, c)| c.rays().into_iter().flatten().map(move |r| (k, r)))
    };
    rays()
        .filter(|&(k, r)| !rays().any(|(j, o)| j != k && o.dot(r) <= -1.0 + SLACK))
        .map(|(_, r)| r)
        .max_by(|x, y| x.dot(towards).total_cmp(&y.dot(towards)))
}

/// Whether two unit directions are the same to a few ulps (an edge's normal and the normal
/// a witness took from that edge); a sharp piece's edges meet at angles far above this.
fn same_direction(n: Vec2, m: Vec2) -> bool {
    n.dot(m) > 0.0 && n.perp_dot(m).abs() <= 4.0 * f32::EPSILON
}

/// Whether polygon `other` has the edge from `s` to `e` (its ends within `near`, either way
/// round): a cut line the two share, inside their union.
fn shares_edge(other: &ConvexShape, s: Vec2, e: Vec2, near: f32) -> bool {
    other.radius() == 0.0
        && other.vertices().len() >= 3
        && edges(other).any(|(_, p, q)| {
            (p.distance(s) <= near && q.distance(e) <= near)
                || (p.distance(e) <= near && q.distance(s) <= near)
        })
}

/// Which side of a segment the other shape is on: the first of these directions that is not
/// along the segment.
type Sides = [Vec2; 3];

/// The outward normals of `shape` (a sharp one: no radius) at its boundary point `p`, if
/// `p` is on its boundary: within `near` of a corner, its corner's cone; on a face, the
/// face's normal. A segment has a face on each side: on its inside, the face on the side of
/// `sides`; at an end, with `narrow_ends`, the quarter between that face and the end's
/// direction, else the half-plane of both. `None` where `p` is not on the boundary.
fn cone_at(
    shape: &ConvexShape,
    p: Vec2,
    near: f32,
    sides: Sides,
    narrow_ends: bool,
) -> Option<Cone> {
    let v = shape.vertices();
    let n = v.len();
    if let Some(corner) = (0..n).find(|&i| v[i].distance(p) <= near) {
        return match n {
            1 => Some(Cone::All),
            2 => {
                let h = (v[corner] - v[1 - corner]).try_normalize()?;
                Some(match one_side(h.perp(), sides).filter(|_| narrow_ends) {
                    Some(face) if face.perp_dot(h) > 0.0 => Cone::Wedge(face, h),
                    Some(face) => Cone::Wedge(h, face),
                    None => Cone::Half(h),
                })
            }
            _ => {
                let (before, after) = ((corner + n - 1) % n, (corner + 1) % n);
                let incoming = outward(shape, v[before], v[corner])?;
                let outgoing = outward(shape, v[corner], v[after])?;
                // Counter-clockwise from the edge coming in to the edge going out, for a
                // counter-clockwise polygon; the other way round for a clockwise one.
                Some(if counter_clockwise(shape) {
                    Cone::Wedge(incoming, outgoing)
                } else {
                    Cone::Wedge(outgoing, incoming)
                })
            }
        };
    }
    for (_, s, e) in edges(shape) {
        let d = e - s;
        let along = (p - s).dot(d) / d.length_squared();
        if !(0.0..=1.0).contains(&along) || (s + d * along).distance(p) > near {
            continue;
        }
        let face = match n {
            2 => one_side(d.perp().try_normalize()?, sides)?,
            _ => outward(shape, s, e)?,
        };
        return Some(Cone::Wedge(face, face));
    }
    None
}

/// `face` or `-face`, whichever points to the side of the first of `sides` not along it.
fn one_side(face: Vec2, sides: Sides) -> Option<Vec2> {
    sides.iter().find_map(|side| match face.dot(*side) {
        s if s > 0.0 => Some(face),
        s if s < 0.0 => Some(-face),
        _ => None,
    })
}

fn counter_clockwise(shape: &ConvexShape) -> bool {
    edges(shape).map(|(_, s, e)| s.perp_dot(e)).sum::<f32>() > 0.0
}

fn middle(shape: &ConvexShape) -> Vec2 {
    shape.vertices().iter().sum::<Vec2>() / shape.vertices().len() as f32
}

/// The normal of a contact between a mover `a` and a solid `b` that touch at `point` (as
/// [`witness`](super::witness) places it, its normal `normal` from `b` towards `a`), given
/// `motion` (of `a`'s contact point relative to `b`'s), and whether it was a choice among
/// several directions.
///
/// Where `point` is at a sharp corner of `b`, the corner may be flush with other solids: it
/// is the union of `b` and `neighbours(point, near)` (the other solids there, as shapes; not
/// `b`) that is met. The normal is taken among the directions every one of them allows at
/// the point, and `a`'s own corner or face allows: the one that opposes the motion least for
/// a sharp mover, the nearest to `normal` for a rounded one. Elsewhere (a face, a rounded
/// solid), the contact's own `normal`.
#[must_use]
#[cfg_attr(
    not(feature = "plugin"),
    allow(dead_code, reason = "used by the plugin")
)]
pub(crate) fn contact_normal(
    a: &Shape,
    b: &Shape,
    point: Vec2,
    normal: Vec2,
    motion: Vec2,
    neighbours: impl FnOnce(Vec2, f32) -> Vec<Shape>,
) -> (Vec2, bool) {
    let (ca, cb) = (as_convex(a), as_convex(b));
    if cb.radius() > 0.0 {
        return (normal, false);
    }
    // Rounding places shapes that touch at a corner a few ulps of their coordinates apart.
    let size = ca
        .vertices()
        .iter()
        .chain(cb.vertices())
        .fold(1.0_f32, |m, v| m.max(v.abs().max_element()));
    let near = size * (1.0 / (1 << 18) as f32);
    // The side of a thin solid the mover is on: the contact's own normal's (from the solid
    // towards it), else the one it comes from, else its middle's.
    let mover_side = [normal, -motion, middle(&ca) - point];
    let mut neighbours = Some(neighbours);
    let mut others =
        |at: Vec2, within: f32| neighbours.take().map_or_else(Vec::new, |f| f(at, within));
    let own = match cone_at(&cb, point, near, mover_side, true) {
        // On a face of the solid: its normal. The contact's own is that normal, but where
        // two faces lie flush on each other with their corners on each other's (a crate as
        // wide as the tile it stands on), the closest points may be corners, and their
        // direction a diagonal: the face's own normal then (for a mover outside the face).
        Some(Cone::Wedge(face, q)) if face == q => {
            let cos = normal.dot(face);
            // The contact's own normal may be that of a cut line of the piece, which nothing
            // from outside touches but at its ends: the witness took a sharp piece's other
            // edge, which meets the face at a hair's angle. The face's normal then too.
            let across_cut = cos > 0.0
                && normal != face
                && edges(&cb).any(|(_, s, e)| {
                    // Whatever shares the edge holds its point nearest the contact.
                    let d = e - s;
                    let along = ((point - s).dot(d) / d.length_squared()).clamp(0.0, 1.0);
                    outward(&cb, s, e).is_some_and(|n| same_direction(n, normal))
                        && others(s + d * along, near)
                            .iter()
                            .any(|o| shares_edge(&as_convex(o), s, e, near))
                });
            let flush = cos > 0.0 && (cos < 1.0 - 1e-4 || across_cut);
            return (if flush { face } else { normal }, false);
        }
        Some(cone) => cone,
        None => return (normal, false),
    };
    // Two points: no face anywhere, every direction; the contact's own.
    if own == Cone::All && ca.vertices().len() == 1 && ca.radius() == 0.0 {
        return (normal, false);
    }
    let mut cones = vec![own];
    // Whether every solid there is a polygon: a crease of their union has faces only then
    // (a segment's end allows directions along it, which are no face).
    let mut polygons = cb.vertices().len() >= 3;
    for other in others(point, near) {
        let other = as_convex(&other);
        if other.radius() == 0.0
            && let Some(cone) = cone_at(&other, point, near, mover_side, true)
        {
            polygons &= other.vertices().len() >= 3;
            cones.push(cone);
        }
    }
    let crease = |cones: &[Cone], towards: Vec2| {
        if polygons {
            crease_face(cones, towards)
        } else {
            None
        }
    };
    if ca.radius() > 0.0 {
        // A rounded mover: its one normal, taken to the nearest the solids allow.
        let answer = most_along(&cones, normal).map(|(n, _)| n);
        return (
            answer.or_else(|| crease(&cones, normal)).unwrap_or(normal),
            false,
        );
    }
    let solids = cones.len();
    // The mover's own normals there, turned round (from the solid towards it): on a face, the
    // face's (the solid's corner on it: that is the contact's normal; a segment's face on the
    // side the solid lies, else the side it comes from); at a corner, its cone.
    let away = middle(&cb) - point;
    let solid_side = [
        if away.length() > near {
            away
        } else {
            Vec2::ZERO
        },
        motion,
        -normal,
    ];
    match cone_at(&ca, point, near, solid_side, false) {
        Some(Cone::Wedge(f, g)) if f == g => return (-f, false),
        Some(mine) => cones.push(mine.negated()),
        None => return (normal, false),
    }
    match most_along(&cones, motion) {
        Some(found) => found,
        // The mover's normals and the solids' share no direction (a corner of the mover in
        // the crack between two solids): the solids' alone.
        None => (
            most_along(&cones[..solids], motion)
                .map(|(n, _)| n)
                .or_else(|| crease(&cones[..solids], motion))
                .unwrap_or(normal),
            false,
        ),
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

    fn none(_: Vec2, _: f32) -> Vec<Shape> {
        Vec::new()
    }

    /// A box sliding right along a floor of tiles reaches the corner of the next tile,
    /// level with the floor, where the tile before meets it: the floor's normal is left,
    /// and the motion is along it.
    #[test]
    fn the_next_tile_level_with_the_floor_lets_a_box_pass() {
        let mover = Shape::Aabb {
            center: Vec2::new(10.0, 14.0),
            half_extents: Vec2::splat(6.0),
        };
        let (before, next) = (tile(0.0, 0.0), tile(24.0, 0.0));
        let corner = Vec2::new(16.0, 8.0);
        let (n, choice) = contact_normal(
            &mover,
            &next,
            corner,
            Vec2::NEG_X,
            Vec2::new(5.0, 0.0),
            |_, _| vec![before],
        );
        assert!(choice);
        assert_eq!(n, Vec2::Y);
        // Pressed down as well, it goes into the tile along every normal: blocked, along
        // the floor's.
        let (n, _) = contact_normal(
            &mover,
            &next,
            corner,
            Vec2::NEG_X,
            Vec2::new(5.0, -1.0),
            |_, _| vec![before],
        );
        assert_eq!(n, Vec2::Y);
    }

    /// A point sliding along the crack between two stacked tiles meets the wall they make:
    /// blocked, along the wall's normal.
    #[test]
    fn the_crack_between_two_stacked_tiles_is_a_wall() {
        let (upper, lower) = (tile(20.0, 8.0), tile(20.0, -8.0));
        let point = Shape::Point(Vec2::new(12.0, 0.0));
        let (n, _) = contact_normal(
            &point,
            &upper,
            Vec2::new(12.0, 0.0),
            Vec2::NEG_X,
            Vec2::new(10.0, 0.0),
            |_, _| vec![lower],
        );
        assert_eq!(n, Vec2::NEG_X);
        // Alone, the upper tile's corner lets the point graze past below it.
        let (n, _) = contact_normal(
            &point,
            &upper,
            Vec2::new(12.0, 0.0),
            Vec2::NEG_X,
            Vec2::new(10.0, 0.0),
            none,
        );
        assert!(n.dot(Vec2::X) >= 0.0, "{n}");
    }

    /// A ball meeting the corner where two tiles of a wall meet, a hair off the seam, is
    /// answered along the wall's normal, not the corner's.
    #[test]
    fn a_ball_at_the_seam_of_a_wall_meets_the_wall() {
        let (upper, lower) = (tile(8.0, 72.0), tile(8.0, 56.0));
        let ball = Shape::Circle {
            center: Vec2::new(22.0, 63.999),
            radius: 6.0,
        };
        let radial = (Vec2::new(22.0, 63.999) - Vec2::new(16.0, 64.0)).normalize();
        let (n, _) = contact_normal(
            &ball,
            &upper,
            Vec2::new(16.0, 64.0),
            radial,
            Vec2::new(-10.0, 0.0),
            |_, _| vec![lower],
        );
        assert_eq!(n, Vec2::X);
    }

    /// A crate exactly as wide as the tile it stands on, its corners on the tile's: where the
    /// closest points found are the corners and their normal a diagonal, the contact on the
    /// tile's face is answered along the face's normal.
    #[test]
    fn a_crate_as_wide_as_its_tile_stands_on_the_floor() {
        let rectangle = ConvexShape::new(
            &[
                Vec2::new(-8.0, 0.0),
                Vec2::new(8.0, 0.0),
                Vec2::new(8.0, 12.0),
                Vec2::new(-8.0, 12.0),
            ],
            0.0,
        )
        .unwrap();
        let diagonal = Vec2::new(-1.0, 1.0).normalize();
        let (n, choice) = contact_normal(
            &Shape::Convex(rectangle),
            &tile(0.0, -8.0),
            Vec2::ZERO,
            diagonal,
            Vec2::new(15.625, -0.2),
            |_, _| vec![tile(-16.0, -8.0), tile(16.0, -8.0)],
        );
        assert_eq!((n, choice), (Vec2::Y, false));
    }

    /// A step up is a face: one normal, the wall's.
    #[test]
    fn a_step_up_is_a_wall() {
        let mover = Shape::Aabb {
            center: Vec2::new(10.0, 14.0),
            half_extents: Vec2::splat(6.0),
        };
        let step = tile(24.0, 1.0);
        let (n, choice) = contact_normal(
            &mover,
            &step,
            Vec2::new(16.0, 9.0),
            Vec2::NEG_X,
            Vec2::new(5.0, 0.0),
            none,
        );
        assert_eq!((n, choice), (Vec2::NEG_X, false));
    }

    /// A point on the shared end of two floor segments, moving on and down, crosses them:
    /// blocked along the face on the side it comes from; level, it passes.
    #[test]
    fn a_point_at_the_joint_of_a_thin_floor_is_on_one_side_of_it() {
        let (left, right) = (
            Shape::Segment(Vec2::new(-16.0, 0.0), Vec2::ZERO),
            Shape::Segment(Vec2::ZERO, Vec2::new(16.0, 0.0)),
        );
        let point = Shape::Point(Vec2::ZERO);
        // The contact's own normal faces the side the point comes from.
        let at = |motion: Vec2, normal: Vec2| {
            contact_normal(&point, &right, Vec2::ZERO, normal, motion, |_, _| {
                vec![left]
            })
            .0
        };
        assert_eq!(at(Vec2::new(4.0, -0.2), Vec2::Y), Vec2::Y);
        assert!(at(Vec2::new(4.0, 0.0), Vec2::Y).dot(Vec2::X) >= 0.0);
        assert_eq!(at(Vec2::new(4.0, 0.2), Vec2::NEG_Y), Vec2::NEG_Y);
    }

    /// A tilted segment sliding on its end over the seam of two tiles passes it.
    #[test]
    fn a_segment_sliding_on_its_end_passes_the_seam() {
        let segment = Shape::Segment(Vec2::new(22.0, 5.0), Vec2::new(32.0, 0.0));
        let (before, next) = (tile(24.0, -8.0), tile(40.0, -8.0));
        let (n, _) = contact_normal(
            &segment,
            &next,
            Vec2::new(32.0, 0.0),
            Vec2::NEG_X,
            Vec2::new(10.0, 0.0),
            |_, _| vec![before],
        );
        assert!(n.dot(Vec2::new(10.0, 0.0)) >= 0.0, "{n}");
    }

    /// Rounding that leaves the mover's corner a hair off the tiles' corner changes
    /// nothing.
    #[test]
    fn a_corner_a_rounding_error_off_is_still_the_corner() {
        let (before, next) = (tile(1000.0, 0.0), tile(1016.0, 0.0));
        for dx in [-1e-4_f32, 0.0, 1e-4] {
            for dy in [-1e-4_f32, 0.0, 1e-4] {
                let mover = Shape::Aabb {
                    center: Vec2::new(1002.0 + dx, 14.0 + dy),
                    half_extents: Vec2::splat(6.0),
                };
                let (n, _) = contact_normal(
                    &mover,
                    &next,
                    Vec2::new(1008.0 + dx, 8.0 + dy),
                    Vec2::NEG_X,
                    Vec2::new(5.0, 0.0),
                    |_, _| vec![before],
                );
                assert_eq!(n, Vec2::Y, "off by ({dx}, {dy})");
            }
        }
    }

    fn polygon(points: &[Vec2]) -> Shape {
        Shape::Convex(ConvexShape::new(points, 0.0).unwrap())
    }

    /// A floor whose top bends up by a hair at `(0, 0)` (a straight run rounding could not
    /// keep straight), cut there into two pieces: the pieces' cones share no direction, and
    /// a ball at the bend is answered along a face of the floor, not along its own normal to
    /// the corner nor along the cut.
    #[test]
    fn a_ball_in_a_crease_of_two_pieces_meets_a_face() {
        let left = polygon(&[
            Vec2::new(-100.0, -50.0),
            Vec2::new(0.0, -50.0),
            Vec2::new(0.0, 0.0),
            Vec2::new(-100.0, 0.0),
        ]);
        let right = polygon(&[
            Vec2::new(0.0, -50.0),
            Vec2::new(100.0, -50.0),
            Vec2::new(100.0, 0.001),
            Vec2::new(0.0, 0.0),
        ]);
        let center = Vec2::new(0.5, 3.0).normalize() * 3.0;
        let ball = Shape::Circle {
            center,
            radius: 3.0,
        };
        let raw = center.normalize();
        let (n, _) = contact_normal(
            &ball,
            &left,
            Vec2::ZERO,
            raw,
            Vec2::new(10.0, -1.0),
            |_, _| vec![right],
        );
        assert_eq!(n, Vec2::Y);
        // A box's corner there: the same.
        let corner = polygon(&[
            Vec2::new(0.0, 0.0),
            Vec2::new(6.0, 0.0),
            Vec2::new(6.0, 6.0),
            Vec2::new(0.0, 6.0),
        ]);
        let (n, _) = contact_normal(
            &corner,
            &left,
            Vec2::ZERO,
            Vec2::new(1.0, 1.0).normalize(),
            Vec2::new(10.0, -1.0),
            |_, _| vec![right],
        );
        assert_eq!(n, Vec2::Y);
    }

    /// A sliver piece of a fan (its long edge a cut line to a corner 1,000 away, meeting its
    /// top at 0.01 rad): a contact on its top whose witness took the cut line's normal is
    /// answered along the top's, where the next piece shares that cut line; where nothing
    /// shares it, it is a face of the solid, and the contact keeps its own normal.
    #[test]
    fn a_contact_never_takes_the_normal_of_a_cut_line() {
        let far = Vec2::new(-1000.0, -10.0);
        let points = [far, Vec2::new(8.0, 0.0), Vec2::ZERO];
        let sliver = ConvexShape::new(&points, 0.0).unwrap();
        let cut = outward(&sliver, Vec2::ZERO, far).unwrap();
        assert!(cut.dot(Vec2::Y) > 0.99 && cut != Vec2::Y);
        let before = polygon(&[far, Vec2::ZERO, Vec2::new(-8.0, 0.0)]);
        let ball = Shape::Circle {
            center: Vec2::new(1.0, 3.0),
            radius: 3.0,
        };
        let ask = |neighbours: Vec<Shape>| {
            contact_normal(
                &ball,
                &Shape::Convex(sliver),
                Vec2::new(1.0, 0.0),
                cut,
                Vec2::new(10.0, -1.0),
                move |_, _| neighbours,
            )
            .0
        };
        assert_eq!(ask(vec![before]), Vec2::Y);
        assert_eq!(ask(Vec::new()), cut);
    }
}

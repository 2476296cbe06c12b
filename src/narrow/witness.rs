//! Where and in which direction two shapes touch at one moment.

mod closest;
mod cone;
mod convex;
mod normal;

#[cfg(feature = "plugin")]
pub(crate) use cone::contact_normal;

pub(crate) use convex::as_convex;
#[cfg(feature = "plugin")]
pub(crate) use convex::project;

use super::shape::{ConvexShape, ConvexVertices, Shape, ShapePath};
use bevy_math::Vec2;
use closest::closest_points;
use normal::normal;

/// The geometry of a contact between shapes `a` and `b` at one moment.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Witness {
    /// The contact point, world space: midway between the closest points of the two shapes
    /// (they coincide when the shapes touch).
    pub point: Vec2,
    /// Unit normal pointing from `b` towards `a`.
    pub normal: Vec2,
    /// Where along `a` the contact is, if `a` is a segment (`0` at its first endpoint).
    pub along_a: Option<f32>,
    /// Where along `b` the contact is, if `b` is a segment.
    pub along_b: Option<f32>,
    /// How far `a`'s contact point moves during the step, relative to `b`'s (divide by the
    /// step's duration for a velocity).
    pub relative_motion: Vec2,
    /// Which vertex or edge of `a` is touched, if `a` is a polygon of three or more
    /// vertices ([`Shape::Convex`]).
    pub feature_a: Option<Feature>,
    /// Which vertex or edge of `b` is touched, if `b` is such a polygon.
    pub feature_b: Option<Feature>,
}

/// A vertex or an edge of a polygon or a polyline: where on it a contact is.
///
/// Vertices are numbered as they were given; edge `i` runs from vertex `i` to vertex `i + 1`
/// (and, in a closed polygon, the last edge back to vertex `0`).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "plugin", derive(bevy::reflect::Reflect))]
#[cfg_attr(feature = "plugin", reflect(Debug, PartialEq, Clone))]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub enum Feature {
    /// The contact is at vertex `i`.
    Vertex(u32),
    /// The contact is inside edge `index`, `along` of the way from its first vertex to its
    /// second (`0 < along < 1`).
    Edge {
        /// The edge: from vertex `index` to the next.
        index: u32,
        /// Where along it, `0` at its first vertex.
        along: f32,
    },
    /// The contact is on part `part` of a compound collider (numbered as the parts were
    /// given), at `feature` of that part when the part has vertices and edges to name (a
    /// rectangle, capsule, polygon or polyline).
    Part {
        /// Which part.
        part: u32,
        /// Where on the part.
        feature: Option<PartFeature>,
    },
}

/// Where on a compound's part a contact is: a vertex or an edge of the part, numbered as in
/// the part's own [`Feature`]s.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "plugin", derive(bevy::reflect::Reflect))]
#[cfg_attr(feature = "plugin", reflect(Debug, PartialEq, Clone))]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub enum PartFeature {
    /// The contact is at the part's vertex `i`.
    Vertex(u32),
    /// The contact is inside the part's edge `index`, `along` of the way from its first
    /// vertex to its second.
    Edge {
        /// The edge: from vertex `index` to the next.
        index: u32,
        /// Where along it, `0` at its first vertex.
        along: f32,
    },
}

impl PartFeature {
    /// A part's own feature as a part's feature (`None` for a [`Feature::Part`]).
    #[must_use]
    pub fn of(feature: Feature) -> Option<Self> {
        match feature {
            Feature::Vertex(i) => Some(Self::Vertex(i)),
            Feature::Edge { index, along } => Some(Self::Edge { index, along }),
            Feature::Part { .. } => None,
        }
    }
}

impl From<PartFeature> for Feature {
    fn from(feature: PartFeature) -> Self {
        match feature {
            PartFeature::Vertex(i) => Feature::Vertex(i),
            PartFeature::Edge { index, along } => Feature::Edge { index, along },
        }
    }
}

impl Witness {
    /// The same contact seen from `b`: normal reversed, `along`s and motion swapped.
    #[must_use]
    pub fn flipped(self) -> Self {
        Self {
            point: self.point,
            normal: -self.normal,
            along_a: self.along_b,
            along_b: self.along_a,
            relative_motion: -self.relative_motion,
            feature_a: self.feature_b,
            feature_b: self.feature_a,
        }
    }
}

/// Where `a` and `b` touch at `time`, for a contact found by
/// [`contact_intervals`](super::contact_intervals).
///
/// `separating` says which way the normal of a contact between two thin features (a point or
/// segment against a point or segment, where the shapes themselves give no outward side) is
/// oriented: `false` for a contact that begins (the normal faces where `a` comes from),
/// `true` for one that ends (where `a` goes). Solid shapes (circles, boxes) give the outward
/// normal of their boundary at the contact.
///
/// Never NaN: degenerate cases (coincident centres, no relative motion) fall back to a fixed
/// unit axis.
#[must_use]
pub fn witness(a: &ShapePath, b: &ShapePath, time: f32, separating: bool) -> Witness {
    // The same contact whichever of the two comes first (the plugin's pairs come in an order
    // that follows how entities are numbered): the two are taken in an order of their own,
    // by kind, then by where they start and end (two bullets fired from one muzzle differ
    // where they end). Only paths alike in all of that keep the order they come in.
    if path_key(b) < path_key(a) {
        return witness_in_order(b, a, time, separating).flipped();
    }
    witness_in_order(a, b, time, separating)
}

/// An order of paths that does not depend on how their entities are numbered: by kind, then
/// by where the first point starts and ends (two bullets fired from one muzzle differ where
/// they end).
pub(crate) type PathKey = (u8, (i32, i32), (i32, i32));

/// A path's place in the order of [`PathKey`].
#[must_use]
pub(crate) fn path_key(path: &ShapePath) -> PathKey {
    let [start, end] = first_point(path);
    (path.rank(), start.cmp_key(), end.cmp_key())
}

/// A point's place in a total order (by `x`, then `y`, as `f32::total_cmp` orders them).
#[must_use]
#[cfg(feature = "plugin")]
pub(crate) fn ordered(p: Vec2) -> (i32, i32) {
    p.cmp_key()
}

/// The path of a path's first point: a point, a segment's first end, a centre, a polygon's
/// first vertex.
fn first_point(path: &ShapePath) -> [Vec2; 2] {
    match path {
        ShapePath::Point(p) => *p,
        ShapePath::Segment { a, .. } => *a,
        ShapePath::Circle { center, .. } | ShapePath::Aabb { center, .. } => *center,
        ShapePath::Convex(convex) => convex
            .path()
            .vertices
            .first()
            .copied()
            .unwrap_or([Vec2::ZERO; 2]),
    }
}

/// A total order on points, by `x` then `y` (as `f32::total_cmp` orders them).
trait CmpKey {
    fn cmp_key(self) -> (i32, i32);
}

impl CmpKey for Vec2 {
    fn cmp_key(self) -> (i32, i32) {
        // `total_cmp`'s key: the bits, with the magnitude flipped for negative numbers.
        let key = |v: f32| {
            let bits = v.to_bits() as i32;
            bits ^ (((bits >> 31) as u32) >> 1) as i32
        };
        (key(self.x), key(self.y))
    }
}

/// [`witness`] with `a` and `b` in the order given.
fn witness_in_order(a: &ShapePath, b: &ShapePath, time: f32, separating: bool) -> Witness {
    if matches!(a, ShapePath::Convex(_)) || matches!(b, ShapePath::Convex(_)) {
        return convex_witness_near(a, b, time, separating);
    }
    let (sa, sb) = (a.at(time), b.at(time));
    let closest = if a.rank() <= b.rank() {
        closest_points(&sa, &sb)
    } else {
        closest_points(&sb, &sa).swap()
    };
    let relative_motion = a.displacement(closest.along_a) - b.displacement(closest.along_b);
    // Positions at `time` carry rounding errors of a few ulps of the largest coordinate
    // along the paths.
    let scale = [a.swept_bounds(), b.swept_bounds()]
        .iter()
        .flat_map(|x| [x.min.abs().max_element(), x.max.abs().max_element()])
        .fold(0.0, f32::max);
    let normal = normal(&sa, &sb, &closest, relative_motion, separating, scale)
        .filter(|n| n.is_finite())
        .unwrap_or(Vec2::X);
    let point = closest.on_a.midpoint(closest.on_b);
    let point = if point.is_finite() {
        point
    } else {
        sa.center().midpoint(sb.center())
    };
    Witness {
        point,
        normal,
        along_a: closest.along_a,
        along_b: closest.along_b,
        relative_motion,
        feature_a: None,
        feature_b: None,
    }
}

/// How far the material point of `path` that a [`Witness`] names (by `feature` for a
/// polygon, `along` for a segment or capsule) moves during the step: a turning shape's
/// point moves with the turn, not only with the shape's centre.
#[cfg(feature = "plugin")]
pub(crate) fn material_motion(
    path: &ShapePath,
    feature: Option<Feature>,
    along: Option<f32>,
) -> Vec2 {
    match path {
        ShapePath::Convex(convex) => {
            let vertices = convex.path().vertices;
            let moves: Vec2x8 =
                core::array::from_fn(|i| vertices.get(i).map_or(Vec2::ZERO, |v| v[1] - v[0]));
            let n = vertices.len();
            match (feature, along) {
                (Some(feature), _) => convex::feature_motion(&moves[..n], feature),
                (None, Some(along)) if n == 2 => moves[0].lerp(moves[1], along),
                _ => path.displacement(None),
            }
        }
        _ => path.displacement(along),
    }
}

/// Eight vertices' displacements.
#[cfg(feature = "plugin")]
type Vec2x8 = [Vec2; 8];

/// [`convex_witness`] found about a place near the contact when the shapes are far from the
/// origin: there, positions at `time` round to the ulps of their coordinates, which can be
/// more than a thin polygon is thick, while about `b` at `time` (rounded to a float) the
/// differences that decide the features are small numbers, exact or nearly.
fn convex_witness_near(a: &ShapePath, b: &ShapePath, time: f32, separating: bool) -> Witness {
    /// Below this, a coordinate's ulp is at most `2^-17`: not worth moving.
    const LOCAL_FRAME_BEYOND: f32 = 64.0;
    let origin = b.at(time).center();
    if !(origin.abs().max_element() > LOCAL_FRAME_BEYOND && origin.is_finite()) {
        return convex_witness(a, b, time, separating);
    }
    let local = convex_witness(&a.shifted(-origin), &b.shifted(-origin), time, separating);
    let point = local.point + origin;
    Witness {
        point: if point.is_finite() { point } else { origin },
        ..local
    }
}

/// [`witness`] for a pair with a rounded polygon: the closest features of the two cores
/// (each shape as a rounded polygon), the normal between them or the outward normal of the
/// touched feature, and the contact point midway between the two surfaces.
fn convex_witness(a: &ShapePath, b: &ShapePath, time: f32, separating: bool) -> Witness {
    let (sa, sb) = (as_convex(&a.at(time)), as_convex(&b.at(time)));
    let found = convex::closest(&sa, &sb);
    let moves = |path: &ShapePath| {
        let vertices = ConvexVertices::from(path);
        let mut moves = [Vec2::ZERO; 8];
        for (m, v) in moves.iter_mut().zip(vertices.path().vertices) {
            *m = v[1] - v[0];
        }
        (moves, vertices.path().vertices.len())
    };
    let ((ma, na), (mb, nb)) = (moves(a), moves(b));
    let relative_motion = convex::feature_motion(&ma[..na], found.on_a.feature)
        - convex::feature_motion(&mb[..nb], found.on_b.feature);
    let towards_a = if separating {
        relative_motion
    } else {
        -relative_motion
    };
    // A thin side (a segment or capsule core) touched inside gives a line; the motion the
    // side.
    let thin_line = |shape: &ConvexShape, feature: Feature| match (shape.vertices(), feature) {
        ([s, e], Feature::Edge { .. }) => (*e - *s).perp().try_normalize(),
        _ => None,
    };
    // Apart: between the cores. Touching: a face's normal (a polygon's edge, then a thin
    // core's line, turned by the motion), then a corner's (the mean of its two edges').
    let face = |feature: Feature| matches!(feature, Feature::Edge { .. });
    let (fa, fb) = (found.on_a.feature, found.on_b.feature);
    // Apart, with the nearest point of one core inside a face of the other (a capsule's end
    // against a wall): that face's own normal, which is exact for an axis-aligned face,
    // where the direction between the two points carries the rounding of the point on the
    // face.
    let across = found.on_a.point - found.on_b.point;
    let facing = |shape: &ConvexShape, feature: Feature, towards: Vec2| {
        if !face(feature) {
            return None;
        }
        match shape.vertices() {
            [s, e] => {
                let n = (*e - *s).perp().try_normalize()?;
                match n.dot(towards) {
                    side if side > 0.0 => Some(n),
                    side if side < 0.0 => Some(-n),
                    _ => None,
                }
            }
            _ => convex::feature_normal(shape, feature),
        }
    };
    let apart_on_a_face = found
        .normal
        .and_then(|_| facing(&sb, fb, across).or_else(|| facing(&sa, fa, -across).map(|n| -n)));
    let normal = apart_on_a_face
        .or(found.normal)
        .or_else(|| face(fb).then(|| convex::feature_normal(&sb, fb)).flatten())
        .or_else(|| {
            face(fa)
                .then(|| convex::feature_normal(&sa, fa))
                .flatten()
                .map(|n| -n)
        })
        .or_else(|| {
            let line = thin_line(&sb, fb).or_else(|| thin_line(&sa, fa))?;
            // The side `a` comes from (or leaves to); sliding along the line, the side it
            // is on.
            let side = match line.dot(towards_a) {
                0.0 => line.dot(Shape::Convex(sa).center() - Shape::Convex(sb).center()),
                side => side,
            };
            Some(if side < 0.0 { -line } else { line })
        })
        .or_else(|| convex::feature_normal(&sb, fb))
        .or_else(|| convex::feature_normal(&sa, fa).map(|n| -n))
        .or_else(|| towards_a.try_normalize())
        .filter(|n| n.is_finite())
        .unwrap_or(Vec2::X);
    let point =
        (found.on_a.point - normal * sa.radius()).midpoint(found.on_b.point + normal * sb.radius());
    let point = if point.is_finite() {
        point
    } else {
        sa.vertices()[0].midpoint(sb.vertices()[0])
    };
    // Segments and capsules say where along them; polygons which feature.
    let along = |path: &ShapePath, shape: &ConvexShape, feature: Feature| {
        let thin = matches!(path, ShapePath::Segment { .. })
            || matches!(path, ShapePath::Convex(_)) && shape.vertices().len() == 2;
        thin.then_some(match feature {
            Feature::Vertex(i) => i as f32,
            Feature::Edge { along, .. } => along,
            // Not made here.
            Feature::Part { .. } => 0.5,
        })
    };
    let feature = |path: &ShapePath, shape: &ConvexShape, feature: Feature| {
        (matches!(path, ShapePath::Convex(_)) && shape.vertices().len() >= 3).then_some(feature)
    };
    Witness {
        point,
        normal,
        along_a: along(a, &sa, found.on_a.feature),
        along_b: along(b, &sb, found.on_b.feature),
        relative_motion,
        feature_a: feature(a, &sa, found.on_a.feature),
        feature_b: feature(b, &sb, found.on_b.feature),
    }
}

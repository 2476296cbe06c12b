//! A rounded convex polygon moving during one step: its vertex paths ([`ConvexPath`]),
//! stored inline ([`ConvexVertices`]), and its vertices at one moment.

use super::{ConvexShape, ShapePath, lerp};
use bevy_math::Vec2;

/// A convex polygon grown by a radius, moving during one step: each vertex moves linearly
/// from `[0]` (the start of the step) to `[1]` (its end).
///
/// - One vertex: a point (`radius` 0) or a disk.
/// - Two: a segment or a capsule.
/// - Three to [`MAX_VERTICES`](Self::MAX_VERTICES): a convex polygon, in either winding,
///   rounded by `radius`.
///
/// The vertices must be in convex position at both ends of the step, in the same order;
/// see [`convex_contact_intervals`](crate::narrow::convex_contact_intervals).
#[derive(Clone, Copy, Debug)]
pub struct ConvexPath<'a> {
    /// The vertices' paths, in order around the polygon.
    pub vertices: &'a [[Vec2; 2]],
    /// How far the shape extends beyond its core polygon, `>= 0`.
    pub radius: f32,
}

impl ConvexPath<'_> {
    /// The most vertices of one shape.
    pub const MAX_VERTICES: usize = 8;

    /// `true` if the path can be solved: 1 to [`MAX_VERTICES`](Self::MAX_VERTICES)
    /// vertices, every coordinate finite, the radius finite and not negative.
    #[must_use]
    pub fn is_valid(&self) -> bool {
        (1..=Self::MAX_VERTICES).contains(&self.vertices.len())
            && self
                .vertices
                .iter()
                .all(|v| v[0].is_finite() && v[1].is_finite())
            && self.radius.is_finite()
            && self.radius >= 0.0
    }

    /// Its edges as pairs of vertex indices: none for a point, one for a segment, and the
    /// closed loop of a polygon.
    pub(crate) fn edges(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        let n = self.vertices.len();
        let count = match n {
            0 | 1 => 0,
            2 => 1,
            _ => n,
        };
        (0..count).map(move |i| (i, (i + 1) % n))
    }
}

/// A rounded convex polygon's vertex paths stored inline (no allocation), for building a
/// [`ConvexPath`]; a basic shape's path converts into one.
///
/// ```
/// use bevy_math::{DVec2, Vec2};
/// use bevy_sweep::narrow::{ConvexVertices, ShapePath};
///
/// let disk = ShapePath::Circle { center: [Vec2::ZERO, Vec2::X], radius: 2.0 };
/// let convex = ConvexVertices::from(&disk);
/// assert_eq!((convex.path().vertices.len(), convex.path().radius), (1, 2.0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct ConvexVertices {
    paths: [[Vec2; 2]; ConvexPath::MAX_VERTICES],
    len: u8,
    radius: f32,
}

impl ConvexVertices {
    /// The given vertex paths and radius; `None` past
    /// [`ConvexPath::MAX_VERTICES`] vertices or with none.
    #[must_use]
    pub fn new(vertices: &[[Vec2; 2]], radius: f32) -> Option<Self> {
        if vertices.is_empty() || vertices.len() > ConvexPath::MAX_VERTICES {
            return None;
        }
        Some(Self::copy(vertices, radius))
    }

    /// `vertices` (at most [`ConvexPath::MAX_VERTICES`]) copied inline.
    fn copy(vertices: &[[Vec2; 2]], radius: f32) -> Self {
        let len = vertices.len().min(ConvexPath::MAX_VERTICES);
        let mut paths = [[Vec2::ZERO; 2]; ConvexPath::MAX_VERTICES];
        paths[..len].copy_from_slice(&vertices[..len]);
        Self {
            paths,
            len: len as u8,
            radius,
        }
    }

    /// The motion from `start` to `end`, vertex by vertex (the radius is `end`'s). The two
    /// must have as many vertices.
    pub(crate) fn between(start: &ConvexShape, end: &ConvexShape) -> Self {
        let mut paths = [[Vec2::ZERO; 2]; ConvexPath::MAX_VERTICES];
        for (path, (&p, &q)) in paths
            .iter_mut()
            .zip(start.vertices().iter().zip(end.vertices()))
        {
            *path = [p, q];
        }
        Self {
            paths,
            len: end.vertices().len() as u8,
            radius: end.radius(),
        }
    }

    /// The same motion with every vertex moved by `by`.
    pub(crate) fn shifted(mut self, by: Vec2) -> Self {
        for path in &mut self.paths[..usize::from(self.len)] {
            *path = path.map(|v| v + by);
        }
        self
    }

    /// The path to solve.
    #[must_use]
    pub fn path(&self) -> ConvexPath<'_> {
        ConvexPath {
            vertices: &self.paths[..usize::from(self.len)],
            radius: self.radius,
        }
    }

    /// The shape at `time` in `[0, 1]`: exactly the start at `0` and the end at `1`.
    #[must_use]
    pub fn at(&self, time: f32) -> ConvexShape {
        let pose = Pose::at(&self.path(), time);
        ConvexShape {
            vertices: pose.points,
            len: self.len,
            radius: self.radius,
        }
    }
}

impl AsRef<ConvexVertices> for ConvexVertices {
    fn as_ref(&self) -> &ConvexVertices {
        self
    }
}

impl From<&ShapePath> for ConvexVertices {
    /// A point is one vertex, a circle one vertex and its radius, a segment its two
    /// endpoints, a box its four corners (counter-clockwise from the lowest-left; each
    /// rounded to `f32` from the centre and the half extents).
    fn from(path: &ShapePath) -> Self {
        let (vertices, radius): (&[[Vec2; 2]], f32) = match path {
            ShapePath::Point(p) => (core::slice::from_ref(p), 0.0),
            ShapePath::Segment { a, b } => (&[*a, *b], 0.0),
            ShapePath::Circle { center, radius } => (core::slice::from_ref(center), *radius),
            ShapePath::Aabb {
                center,
                half_extents: h,
            } => {
                let corner = |x: f32, y: f32| center.map(|c| c + Vec2::new(x * h.x, y * h.y));
                let corners = [
                    corner(-1.0, -1.0),
                    corner(1.0, -1.0),
                    corner(1.0, 1.0),
                    corner(-1.0, 1.0),
                ];
                return Self::copy(&corners, 0.0);
            }
            ShapePath::Convex(convex) => return *convex,
        };
        Self::copy(vertices, radius)
    }
}

/// The positions of a shape's vertices at one moment, inline.
pub(crate) struct Pose {
    pub(crate) points: [Vec2; ConvexPath::MAX_VERTICES],
    pub(crate) len: usize,
}

impl Pose {
    pub(crate) fn at(path: &ConvexPath, t: f32) -> Self {
        let mut points = [Vec2::ZERO; ConvexPath::MAX_VERTICES];
        for (p, v) in points.iter_mut().zip(path.vertices) {
            *p = if t == 0.0 {
                v[0]
            } else if t == 1.0 {
                v[1]
            } else {
                lerp(*v, t)
            };
        }
        Self {
            points,
            len: path.vertices.len(),
        }
    }

    pub(crate) fn points(&self) -> &[Vec2] {
        &self.points[..self.len]
    }
}

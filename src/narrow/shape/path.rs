//! A shape's motion over a step: [`ShapePath`].

use super::{ConvexVertices, Shape};
use bevy_math::{Vec2, bounding::Aabb2d};

/// One shape's motion during a step: each vertex moves linearly from `[0]` (start of the
/// step) to `[1]` (end of the step).
///
/// Sizes (radius, half extents) are constant during the step. Build one from two [`Shape`]s
/// with [`ShapePath::between`], or directly.
///
/// A rounded polygon's vertex paths are kept inline ([`ConvexVertices`], the default `C`):
/// a path is a plain value. The plugin keeps them in a table of its own and its paths an
/// index into it (`C` is where the polygon is kept); every method here is on the inline
/// form.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub enum ShapePath<C = ConvexVertices> {
    /// A point moving from `[0]` to `[1]`.
    Point([Vec2; 2]),
    /// A segment whose endpoint `a` moves `a[0] → a[1]` and endpoint `b` moves `b[0] → b[1]`:
    /// it translates, turns and stretches.
    Segment {
        /// Path of the first endpoint.
        a: [Vec2; 2],
        /// Path of the second endpoint.
        b: [Vec2; 2],
    },
    /// A disk whose centre moves `center[0] → center[1]`.
    Circle {
        /// Path of the centre.
        center: [Vec2; 2],
        /// Radius, `> 0`.
        radius: f32,
    },
    /// An axis-aligned box whose centre moves `center[0] → center[1]`.
    Aabb {
        /// Path of the centre.
        center: [Vec2; 2],
        /// Half the size on each axis, `> 0`.
        half_extents: Vec2,
    },
    /// A rounded convex polygon whose vertices each move linearly (it translates, turns
    /// and scales; see [`ConvexVertices`]).
    Convex(C),
}

#[cfg(feature = "plugin")]
impl<C> ShapePath<C> {
    /// The same motion with its polygon, if it is one, kept as `f` makes it from the one
    /// this path keeps (the basic shapes are copied as they are): how the plugin moves a
    /// polygon's vertex paths into its table and back.
    #[inline(always)]
    pub(crate) fn map_convex_ref<'a, D>(&'a self, f: impl FnOnce(&'a C) -> D) -> ShapePath<D> {
        match *self {
            ShapePath::Point(p) => ShapePath::Point(p),
            ShapePath::Segment { a, b } => ShapePath::Segment { a, b },
            ShapePath::Circle { center, radius } => ShapePath::Circle { center, radius },
            ShapePath::Aabb {
                center,
                half_extents,
            } => ShapePath::Aabb {
                center,
                half_extents,
            },
            ShapePath::Convex(ref convex) => ShapePath::Convex(f(convex)),
        }
    }
}

/// The answers that do not depend on where a path keeps its polygon, written once: the
/// polygon's part comes from a function of it. The methods of [`ShapePath`] (inline
/// polygons) call these, and so does the plugin on its own paths.
impl<C> ShapePath<C> {
    /// [`ShapePath::is_still`], a polygon's answer from `convex`.
    #[inline(always)]
    pub(crate) fn is_still_with(&self, convex: impl FnOnce(&C) -> bool) -> bool {
        match self {
            ShapePath::Point(p) => p[0] == p[1],
            ShapePath::Segment { a, b } => a[0] == a[1] && b[0] == b[1],
            ShapePath::Circle { center, .. } | ShapePath::Aabb { center, .. } => {
                center[0] == center[1]
            }
            ShapePath::Convex(c) => convex(c),
        }
    }

    /// [`ShapePath::end`], a polygon's end from `convex`.
    #[inline(always)]
    pub(crate) fn end_with(&self, convex: impl FnOnce(&C) -> Shape) -> Shape {
        match *self {
            ShapePath::Point(p) => Shape::Point(p[1]),
            ShapePath::Segment { a, b } => Shape::Segment(a[1], b[1]),
            ShapePath::Circle { center, radius } => Shape::Circle {
                center: center[1],
                radius,
            },
            ShapePath::Aabb {
                center,
                half_extents,
            } => Shape::Aabb {
                center: center[1],
                half_extents,
            },
            ShapePath::Convex(ref c) => convex(c),
        }
    }

    /// [`ShapePath::swept_bounds`], a polygon's vertices' bounds and radius from `convex`.
    #[inline(always)]
    pub(crate) fn swept_bounds_with(&self, convex: impl FnOnce(&C) -> ([Vec2; 2], f32)) -> Aabb2d {
        // The corners of the moving points' bounds, then the size around them: exactly the
        // union of `at(0.0).bounds()` and `at(1.0).bounds()` (rounding is monotonic).
        let ([p, q], grow) = match *self {
            ShapePath::Point(p) => (p, Vec2::ZERO),
            ShapePath::Segment { a, b } => (
                [
                    a[0].min(a[1]).min(b[0].min(b[1])),
                    a[0].max(a[1]).max(b[0].max(b[1])),
                ],
                Vec2::ZERO,
            ),
            ShapePath::Circle { center, radius } => (center, Vec2::splat(radius)),
            ShapePath::Aabb {
                center,
                half_extents,
            } => (center, half_extents),
            ShapePath::Convex(ref c) => {
                let (corners, radius) = convex(c);
                (corners, Vec2::splat(radius))
            }
        };
        Aabb2d {
            min: p.min(q) - grow,
            max: p.max(q) + grow,
        }
    }

    /// [`ShapePath::is_valid`], a polygon's answer from `convex`.
    #[inline(always)]
    pub(crate) fn is_valid_with(&self, convex: impl FnOnce(&C) -> bool) -> bool {
        // `at(0.0)` and `at(1.0)` are exactly the two ends when both are finite (see `lerp`),
        // so this is `self.at(0.0).is_valid() && self.at(1.0).is_valid()` without building
        // the shapes.
        let finite = |[p, q]: [Vec2; 2]| p.is_finite() && q.is_finite();
        match *self {
            ShapePath::Point(p) => finite(p),
            ShapePath::Segment { a, b } => finite(a) && finite(b),
            ShapePath::Circle { center, radius } => {
                finite(center) && radius.is_finite() && radius > 0.0
            }
            ShapePath::Aabb {
                center,
                half_extents,
            } => finite(center) && half_extents.is_finite() && half_extents.cmpgt(Vec2::ZERO).all(),
            ShapePath::Convex(ref c) => convex(c),
        }
    }

    /// The motion of a point, segment, circle or box from where `start` ends to where `end`
    /// ends, the sizes `end`'s; `None` for two kinds of shape, and for polygons (which
    /// [`ShapePath::between`] joins).
    #[cfg(feature = "plugin")]
    #[inline(always)]
    pub(crate) fn joined(start: &Self, end: &Self) -> Option<Self> {
        Some(match (start, end) {
            (ShapePath::Point([_, p]), ShapePath::Point([_, q])) => ShapePath::Point([*p, *q]),
            (ShapePath::Segment { a: a0, b: b0 }, ShapePath::Segment { a, b }) => {
                ShapePath::Segment {
                    a: [a0[1], a[1]],
                    b: [b0[1], b[1]],
                }
            }
            (ShapePath::Circle { center: c0, .. }, &ShapePath::Circle { center, radius }) => {
                ShapePath::Circle {
                    center: [c0[1], center[1]],
                    radius,
                }
            }
            (
                ShapePath::Aabb { center: c0, .. },
                &ShapePath::Aabb {
                    center,
                    half_extents,
                },
            ) => ShapePath::Aabb {
                center: [c0[1], center[1]],
                half_extents,
            },
            _ => return None,
        })
    }
}

/// A polygon's vertices' bounds over the step, and its radius.
fn polygon_bounds(convex: &ConvexVertices) -> ([Vec2; 2], f32) {
    let path = convex.path();
    let (min, max) = path
        .vertices
        .iter()
        .fold((Vec2::INFINITY, Vec2::NEG_INFINITY), |(min, max), v| {
            (min.min(v[0]).min(v[1]), max.max(v[0]).max(v[1]))
        });
    ([min, max], path.radius)
}

/// `(1 − t)·p + t·q`, exactly `p` at `t = 0` and exactly `q` at `t = 1`, and exactly `p`
/// throughout where a coordinate does not move.
#[inline]
pub(crate) fn lerp(path: [Vec2; 2], t: f32) -> Vec2 {
    let [p, q] = path;
    let s = 1.0 - t;
    Vec2::new(
        if p.x == q.x { p.x } else { s * p.x + t * q.x },
        if p.y == q.y { p.y } else { s * p.y + t * q.y },
    )
}

impl ShapePath {
    /// The motion from `start` to `end`. `None` if the two are different kinds of shape; the
    /// sizes are taken from `end`.
    #[must_use]
    #[inline]
    pub fn between(start: Shape, end: Shape) -> Option<Self> {
        Some(match (start, end) {
            (Shape::Point(p), Shape::Point(q)) => ShapePath::Point([p, q]),
            (Shape::Segment(a0, b0), Shape::Segment(a1, b1)) => ShapePath::Segment {
                a: [a0, a1],
                b: [b0, b1],
            },
            (Shape::Circle { center: c0, .. }, Shape::Circle { center, radius }) => {
                ShapePath::Circle {
                    center: [c0, center],
                    radius,
                }
            }
            (
                Shape::Aabb { center: c0, .. },
                Shape::Aabb {
                    center,
                    half_extents,
                },
            ) => ShapePath::Aabb {
                center: [c0, center],
                half_extents,
            },
            (Shape::Convex(p), Shape::Convex(q)) if p.len == q.len => {
                ShapePath::Convex(ConvexVertices::between(&p, &q))
            }
            _ => return None,
        })
    }

    /// A shape that does not move.
    #[must_use]
    #[inline]
    pub fn still(shape: Shape) -> Self {
        Self::between(shape, shape).unwrap_or(ShapePath::Point([Vec2::ZERO; 2]))
    }

    /// The shape at `time` in `[0, 1]`: exactly the start at `0` and the end at `1`.
    #[must_use]
    #[inline]
    pub fn at(&self, time: f32) -> Shape {
        match *self {
            ShapePath::Point(p) => Shape::Point(lerp(p, time)),
            ShapePath::Segment { a, b } => Shape::Segment(lerp(a, time), lerp(b, time)),
            ShapePath::Circle { center, radius } => Shape::Circle {
                center: lerp(center, time),
                radius,
            },
            ShapePath::Aabb {
                center,
                half_extents,
            } => Shape::Aabb {
                center: lerp(center, time),
                half_extents,
            },
            ShapePath::Convex(ref convex) => Shape::Convex(convex.at(time)),
        }
    }

    /// The same motion moved by `by` (every point of every pose).
    #[must_use]
    pub(crate) fn shifted(&self, by: Vec2) -> Self {
        let moved = |p: [Vec2; 2]| p.map(|v| v + by);
        match *self {
            ShapePath::Point(p) => ShapePath::Point(moved(p)),
            ShapePath::Segment { a, b } => ShapePath::Segment {
                a: moved(a),
                b: moved(b),
            },
            ShapePath::Circle { center, radius } => ShapePath::Circle {
                center: moved(center),
                radius,
            },
            ShapePath::Aabb {
                center,
                half_extents,
            } => ShapePath::Aabb {
                center: moved(center),
                half_extents,
            },
            ShapePath::Convex(convex) => ShapePath::Convex(convex.shifted(by)),
        }
    }

    /// The shape at the end of the step: `at(1.0)`, read off the path without arithmetic.
    #[must_use]
    #[inline]
    pub fn end(&self) -> Shape {
        self.end_with(|convex| Shape::Convex(convex.at(1.0)))
    }

    /// `true` if no vertex moves during the step.
    #[must_use]
    #[inline]
    pub fn is_still(&self) -> bool {
        self.is_still_with(|convex| convex.path().vertices.iter().all(|v| v[0] == v[1]))
    }

    /// A box containing the shape at every moment of the step (the union of the start and
    /// end bounds, which contains everything in between under linear motion).
    #[must_use]
    #[inline]
    pub fn swept_bounds(&self) -> Aabb2d {
        self.swept_bounds_with(polygon_bounds)
    }

    /// How far the material point at `along` (segments; ignored for other shapes) moves
    /// during the step. For a rounded polygon, the mean of its vertices' motions ([`witness`]
    /// takes the motion of the touched feature's point).
    ///
    /// [`witness`]: crate::narrow::witness()
    #[must_use]
    pub fn displacement(&self, along: Option<f32>) -> Vec2 {
        let d = |p: [Vec2; 2]| p[1] - p[0];
        match *self {
            ShapePath::Point(p) => d(p),
            ShapePath::Segment { a, b } => d(a).lerp(d(b), along.unwrap_or(0.5)),
            ShapePath::Circle { center, .. } | ShapePath::Aabb { center, .. } => d(center),
            ShapePath::Convex(ref convex) => {
                let vertices = convex.path().vertices;
                vertices.iter().map(|&v| d(v)).sum::<Vec2>() / vertices.len() as f32
            }
        }
    }

    /// `true` if every coordinate is finite and every size is positive (and finite): the
    /// inputs [`contact_intervals`](crate::narrow::contact_intervals) is specified for. That
    /// is, the shapes at both ends of the step are [valid](Shape::is_valid).
    #[must_use]
    pub fn is_valid(&self) -> bool {
        self.is_valid_with(|convex| convex.path().is_valid())
    }

    /// Order of the kinds used to put a pair in canonical order: point, segment, circle, box,
    /// rounded polygon.
    pub(crate) fn rank(&self) -> u8 {
        match self {
            ShapePath::Point(_) => 0,
            ShapePath::Segment { .. } => 1,
            ShapePath::Circle { .. } => 2,
            ShapePath::Aabb { .. } => 3,
            ShapePath::Convex(_) => 4,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// `is_valid` is, by its definition, both ends' shapes valid: checked against
    /// `at(0.0)` and `at(1.0)` on paths built from ordinary, huge, zero, infinite and NaN
    /// coordinates and sizes.
    #[test]
    fn valid_paths_are_those_with_valid_ends() {
        const VALUES: [f32; 9] = [
            0.0,
            -0.0,
            1.5,
            -3.0,
            f32::MAX,
            f32::MIN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
        ];
        let mut rng = ChaCha8Rng::seed_from_u64(0x7a11d);
        let value = |rng: &mut ChaCha8Rng| VALUES[rng.random_range(0..VALUES.len())];
        for _ in 0..20_000 {
            let v = |rng: &mut ChaCha8Rng| Vec2::new(value(rng), value(rng));
            let ends = |rng: &mut ChaCha8Rng| {
                let p = v(rng);
                // Often the same at both ends (a still coordinate).
                [p, if rng.random_bool(0.3) { p } else { v(rng) }]
            };
            let path = match rng.random_range(0..4) {
                0 => ShapePath::Point(ends(&mut rng)),
                1 => ShapePath::Segment {
                    a: ends(&mut rng),
                    b: ends(&mut rng),
                },
                2 => ShapePath::Circle {
                    center: ends(&mut rng),
                    radius: value(&mut rng),
                },
                _ => ShapePath::Aabb {
                    center: ends(&mut rng),
                    half_extents: v(&mut rng),
                },
            };
            assert_eq!(
                path.is_valid(),
                path.at(0.0).is_valid() && path.at(1.0).is_valid(),
                "{path:?}"
            );
        }
    }
}

//! A composite collider's elements (a polyline's edges, a polygon's pieces, a compound's
//! parts): where each lies, and the features that name them in events.

use super::super::Composites;
use super::super::placement::plane_of_isometry;
use super::Collider;
use crate::geometry::robust::orient2d;
use crate::narrow::{ALL_EDGES, ConvexPath, ConvexShape, Feature, PartFeature, Shape};
use bevy::ecs::prelude::*;
use bevy::math::{Affine2, Vec2};

impl Collider {
    /// How many element numbers the shape uses: a polyline's edges (those between equal
    /// points too), a polygon's pieces, the sum of a compound's parts'; `1` for the others.
    pub(crate) fn element_count(&self) -> u32 {
        match self {
            Collider::Polyline { points } => points.len().saturating_sub(1) as u32,
            Collider::Polygon { pieces, .. } => pieces.len() as u32,
            Collider::Compound { parts } => parts.iter().map(|(_, p)| p.element_count()).sum(),
            _ => 1,
        }
    }

    /// Calls `f` with each element of a [composite](Self::is_composite) shape that is in
    /// both planes, with its number, where it is in `start` and where in `end`: the same
    /// elements in the same order at both ends (one degenerate at either end is left out at
    /// both). `scratch` holds the elements in `start`.
    pub(crate) fn element_pairs(
        &self,
        [start, end]: [&Affine2; 2],
        scratch: &mut Vec<(u32, Shape)>,
        f: &mut dyn FnMut(u32, Shape, Shape),
    ) {
        scratch.clear();
        self.for_each_element(start, &mut |k, shape| scratch.push((k, shape)));
        let mut at = 0;
        self.for_each_element(end, &mut |k, to| {
            if let Some(&(_, from)) = scratch.get(at).filter(|(j, _)| *j == k) {
                at += 1;
                f(k, from, to);
            }
        });
    }

    /// Calls `f` with each element of a [composite](Self::is_composite) shape in the [plane
    /// part](crate::plugin::components::placement::plane_of) of its world transform, and its number: a polyline's edges (those
    /// between equal points left out), a polygon's pieces, a compound's parts (a composite
    /// part's elements numbered after the parts before it). Nothing for the other shapes.
    pub(crate) fn for_each_element(&self, plane: &Affine2, f: &mut dyn FnMut(u32, Shape)) {
        match self {
            Collider::Polyline { .. } => {
                for (i, a, b) in self.edges_in(plane) {
                    f(i, Shape::Segment(a, b));
                }
            }
            Collider::Polygon { points, pieces } => {
                let mut placed = [Vec2::ZERO; ConvexPath::MAX_VERTICES];
                for (k, piece) in (0u32..).zip(pieces) {
                    let count = piece.len().min(ConvexPath::MAX_VERTICES);
                    for (q, &i) in placed.iter_mut().zip(&piece[..count]) {
                        *q = place_in(plane, points[i as usize]);
                    }
                    if let Some(convex) = ConvexShape::new(&placed[..count], 0.0) {
                        f(k, Shape::Convex(convex));
                    }
                }
            }
            Collider::Compound { parts } => {
                let mut offset = 0;
                for (pose, part) in parts {
                    let placed = *plane * plane_of_isometry(*pose);
                    if part.is_composite() {
                        part.for_each_element(&placed, &mut |k, shape| f(offset + k, shape));
                    } else {
                        f(offset, part.shape_in(&placed));
                    }
                    offset += part.element_count();
                }
            }
            _ => {}
        }
    }

    /// The public name of a contact on element `element` of this shape, given the element's
    /// own feature and, for a segment, where along it: a polyline's vertex or edge, a
    /// polygon's own vertex or edge (a piece's diagonal, met only at its ends, names the
    /// nearer end), a compound's part and where on it.
    pub(crate) fn feature_of(
        &self,
        element: u32,
        local: Option<Feature>,
        along: Option<f32>,
    ) -> Option<Feature> {
        match self {
            Collider::Polyline { .. } => Some(edge_feature(element, along)),
            Collider::Polygon { points, pieces } => {
                let piece = pieces.get(element as usize)?;
                match local? {
                    Feature::Vertex(i) => piece.get(i as usize).map(|&v| Feature::Vertex(v)),
                    Feature::Edge { index, along } => {
                        let s = *piece.get(index as usize)?;
                        let e = piece[(index as usize + 1) % piece.len()];
                        Some(match outline_edge(points, s, e, along) {
                            Some(feature) => feature,
                            None if along < 0.5 => Feature::Vertex(s),
                            None => Feature::Vertex(e),
                        })
                    }
                    Feature::Part { .. } => None,
                }
            }
            Collider::Compound { parts } => {
                let mut offset = 0;
                for (part_index, (_, part)) in (0u32..).zip(parts) {
                    let count = part.element_count();
                    if element < offset + count {
                        let on = if part.is_composite() {
                            part.feature_of(element - offset, local, along)
                        } else {
                            local
                        };
                        return Some(Feature::Part {
                            part: part_index,
                            feature: on.and_then(PartFeature::of),
                        });
                    }
                    offset += count;
                }
                None
            }
            _ => local,
        }
    }

    /// Which edges of element `element` lie on the shape's outline, as
    /// [`penetration_through`](crate::narrow::penetration_through)'s exits (bit `i`: the edge
    /// from the element's vertex `i` to the next): for a polygon's piece, the edges along
    /// the outline (the others are diagonals, inside the polygon); every edge for the other
    /// shapes.
    pub(crate) fn exits(&self, element: u32) -> u8 {
        if let Collider::Compound { parts } = self {
            let mut offset = 0;
            for (_, part) in parts {
                let count = part.element_count();
                if element < offset + count {
                    return part.exits(element - offset);
                }
                offset += count;
            }
            return ALL_EDGES;
        }
        let Collider::Polygon { points, pieces } = self else {
            return ALL_EDGES;
        };
        let Some(piece) = pieces.get(element as usize) else {
            return ALL_EDGES;
        };
        (0..piece.len().min(8)).fold(0, |mask, j| {
            let (s, e) = (piece[j], piece[(j + 1) % piece.len()]);
            if outline_edge(points, s, e, 0.5).is_some() {
                mask | 1 << j
            } else {
                mask
            }
        })
    }

    /// A polyline's edges in world space under the [plane part](crate::plugin::components::placement::plane_of) of its world
    /// transform, with their indices; edges between equal points are left out. Empty for
    /// the other shapes.
    pub(crate) fn edges_in<'a>(
        &'a self,
        plane: &'a Affine2,
    ) -> impl Iterator<Item = (u32, Vec2, Vec2)> + 'a {
        let points: &[Vec2] = match self {
            Collider::Polyline { points } => points,
            _ => &[],
        };
        (0u32..)
            .zip(points.windows(2))
            .filter(|(_, w)| w[0] != w[1])
            .map(move |(i, w)| {
                (
                    i,
                    plane.transform_point2(w[0]),
                    plane.transform_point2(w[1]),
                )
            })
    }
}

/// The polygon's own edge under the point `along` a piece's edge from its point `s` to its
/// point `e` (in the polygon's winding), if that piece edge runs along the outline: from `s`
/// to `e` through points where the outline runs straight on, none of them a corner of the
/// piece. `None` for a diagonal (inside the polygon).
fn outline_edge(points: &[Vec2], s: u32, e: u32, along: f32) -> Option<Feature> {
    let n = points.len() as u32;
    let (from, to) = (points[s as usize], points[e as usize]);
    let d = to - from;
    let mut j = s;
    let mut reached = 0.0;
    loop {
        let next = (j + 1) % n;
        let q = points[next as usize];
        if next != e && orient2d(from, to, q) != 0.0 {
            return None;
        }
        // How far along `s → e` the point `next` is (1 at `e`).
        let at = if next == e {
            1.0
        } else {
            (q - from).dot(d) / d.length_squared()
        };
        if along <= at || next == e {
            let span = at - reached;
            let on = if span > 0.0 {
                ((along - reached) / span).clamp(0.0, 1.0)
            } else {
                0.0
            };
            return Some(Feature::Edge {
                index: j,
                along: on,
            });
        }
        reached = at;
        j = next;
        if j == s {
            return None;
        }
    }
}

/// `p` placed by `plane`, as [`Collider::shape_in`] places vertices (as
/// `Affine3A::transform_point3` of `p.extend(0.0)` computes it, less the third column's zero).
#[inline(always)]
pub(super) fn place_in(plane: &Affine2, p: Vec2) -> Vec2 {
    plane.matrix2.x_axis * p.x + plane.matrix2.y_axis * p.y + plane.translation
}

/// A polyline edge's contact as a feature of the polyline: the edge and where along it, or
/// the point at either end.
pub(crate) fn edge_feature(edge: u32, along: Option<f32>) -> Feature {
    match along.unwrap_or(0.5) {
        0.0 => Feature::Vertex(edge),
        1.0 => Feature::Vertex(edge + 1),
        along => Feature::Edge { index: edge, along },
    }
}

impl Composites {
    /// The edges of `entity`'s element `element` a push out of it may leave through
    /// ([`Collider::exits`]): every edge but for a polygon's piece.
    pub(crate) fn exits(&self, entity: Entity, element: Option<u32>) -> u8 {
        match (element, self.0.get(&entity)) {
            (Some(k), Some(shape)) => shape.exits(k),
            _ => ALL_EDGES,
        }
    }

    /// The public feature of a contact on `entity`'s element `element` (`None` for a shape
    /// of one element), from the element's own feature and, for a segment, where along it.
    pub(crate) fn feature(
        &self,
        entity: Entity,
        element: Option<u32>,
        local: Option<Feature>,
        along: Option<f32>,
    ) -> Option<Feature> {
        // A shape of one element (most events) is named without a lookup.
        let Some(k) = element else {
            return local;
        };
        match self.0.get(&entity) {
            Some(shape) => shape.feature_of(k, local, along),
            // A polyline's edge.
            None => Some(edge_feature(k, along)),
        }
    }

    /// Keeps `entity`'s shape if it is named through it, else forgets it.
    pub(crate) fn update(&mut self, entity: Entity, collider: &Collider) {
        if matches!(
            collider,
            Collider::Polygon { .. } | Collider::Compound { .. }
        ) {
            self.0.insert(entity, std::sync::Arc::new(collider.clone()));
        } else {
            self.0.remove(&entity);
        }
    }
}

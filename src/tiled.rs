//! Tiled maps through `bevy_ecs_tiled` (cargo feature `tiled`): [`TiledSweepBackend`], a
//! physics backend for its
//! [`TiledPhysicsPlugin`](bevy_ecs_tiled::prelude::TiledPhysicsPlugin), and
//! [`TiledPolylinesPlugin`] for the polylines of object layers.
//!
//! `bevy_ecs_tiled` hands a backend the shapes of a map: the collision shapes of a tile
//! layer's tiles (drawn in Tiled's tile collision editor), merged into polygons, and the
//! rectangles, ellipses and polygons of object layers. The backend makes each polygon one
//! collider:
//! - a polygon without holes becomes a [`Collider::polygon`], exact, whose events name the
//!   polygon's own edges and vertices;
//! - a polygon with holes (tiles around a room) becomes a [`Collider::compound`] of convex
//!   pieces cut from a triangulation of it, whose events name the piece
//!   ([`Feature::Part`](crate::prelude::Feature::Part)).
//!
//! The first collider goes on the layer's or object's entity, the others on children of it.
//! Polylines, which `bevy_ecs_tiled` hands no backend, become [`Collider::polyline`]s on their
//! objects' entities with [`TiledPolylinesPlugin`].
//!
//! ```no_run
//! use bevy::prelude::*;
//! use bevy_ecs_tiled::prelude::*;
//! use bevy_sweep::prelude::*;
//! use bevy_sweep::tiled::{TiledPolylinesPlugin, TiledSweepBackend};
//!
//! App::new()
//!     .add_plugins(DefaultPlugins)
//!     .add_plugins((TiledPlugin::default(), SweepPlugin::default()))
//!     .add_plugins((TiledPhysicsPlugin::<TiledSweepBackend>::default(), TiledPolylinesPlugin))
//!     .add_systems(Startup, |mut commands: Commands, assets: Res<AssetServer>| {
//!         commands.spawn(TiledMap(assets.load("tiled/level.tmx")));
//!     })
//!     .run();
//! ```

use crate::geometry::robust::orient2d;
use crate::plugin::polygon::merge;
use crate::prelude::Collider;
use bevy::app::{App, Plugin, PreUpdate};
use bevy::ecs::prelude::*;
use bevy::math::{Isometry2d, Vec2};
use bevy::platform::collections::HashMap;
use bevy::reflect::prelude::*;
use bevy_ecs_tiled::prelude::geo::{self, TriangulateDelaunay};
use bevy_ecs_tiled::prelude::{TiledColliderSource, TiledObject, TiledPhysicsBackend};

/// A [`TiledPhysicsBackend`] that makes `bevy_sweep` colliders: one per polygon (see the
/// [module docs](self)).
#[derive(Default, Reflect, Clone, Copy, Debug)]
#[reflect(Default, Debug)]
pub struct TiledSweepBackend;

impl TiledPhysicsBackend for TiledSweepBackend {
    fn spawn_colliders(
        &self,
        commands: &mut Commands,
        source: TiledColliderSource,
        origin: Entity,
        multi_polygons_list: Vec<geo::MultiPolygon<f32>>,
    ) -> Option<Entity> {
        let colliders: Vec<Collider> = multi_polygons_list
            .iter()
            .flat_map(|multi| multi.iter())
            .filter_map(|polygon| {
                let made = collider_of(polygon);
                if made.is_none() {
                    log::warn!(
                        "bevy_sweep: a Tiled {source:?} shape of entity {origin} is no usable \
                         polygon (fewer than 3 points, or no area): it has no collider"
                    );
                }
                made
            })
            .collect();
        let (first, rest) = colliders.split_first()?;
        commands.entity(origin).insert(first.clone());
        for collider in rest {
            commands.spawn((ChildOf(origin), collider.clone()));
        }
        Some(origin)
    }
}

/// The collider of one polygon: the polygon itself if it has no holes and is simple, else
/// the convex pieces of a triangulation of it as a compound.
pub fn collider_of(polygon: &geo::Polygon<f32>) -> Option<Collider> {
    if polygon.interiors().is_empty() {
        let points = ring(polygon.exterior());
        if let Some(collider) = Collider::polygon(&points) {
            return Some(collider);
        }
    }
    pieces_of(polygon)
}

/// A closed ring's points, without the repeated last one.
fn ring(ring: &geo::LineString<f32>) -> Vec<Vec2> {
    let mut points: Vec<Vec2> = ring.coords().map(|c| Vec2::new(c.x, c.y)).collect();
    if points.len() > 1 && points.first() == points.last() {
        points.pop();
    }
    points
}

/// A polygon with holes as a compound of convex pieces: its constrained triangulation (which
/// uses the polygon's own points), each triangle counter-clockwise and with an area, merged
/// across shared edges while the pieces stay convex (as [`Collider::polygon`] merges).
fn pieces_of(polygon: &geo::Polygon<f32>) -> Option<Collider> {
    let triangles = polygon.constrained_triangulation(Default::default()).ok()?;
    let mut points: Vec<Vec2> = Vec::new();
    let mut index: HashMap<(u32, u32), u32> = HashMap::default();
    let mut at = |c: geo::Coord<f32>| {
        let p = Vec2::new(c.x, c.y);
        *index
            .entry((p.x.to_bits(), p.y.to_bits()))
            .or_insert_with(|| {
                points.push(p);
                (points.len() - 1) as u32
            })
    };
    let mut cut = Vec::with_capacity(triangles.len());
    for triangle in &triangles {
        let [a, b, c] = triangle.to_array().map(&mut at);
        cut.push([a, b, c]);
    }
    let placed = |i: u32| points[i as usize];
    let cut: Vec<[u32; 3]> = cut
        .into_iter()
        .filter_map(|[a, b, c]| {
            let turn = orient2d(placed(a), placed(b), placed(c));
            (turn != 0.0).then_some(if turn > 0.0 { [a, b, c] } else { [a, c, b] })
        })
        .collect();
    let parts: Vec<(Isometry2d, Collider)> = merge(&points, cut)
        .iter()
        .filter_map(|piece| {
            let vertices: Vec<Vec2> = piece.iter().map(|&i| placed(i)).collect();
            Collider::convex_polygon(&vertices).map(|c| (Isometry2d::IDENTITY, c))
        })
        .collect();
    Collider::compound(&parts)
}

/// Gives each polyline object of a Tiled map a [`Collider::polyline`] through its points,
/// on its entity (`bevy_ecs_tiled` hands no backend a polyline).
#[derive(Default)]
pub struct TiledPolylinesPlugin;

impl Plugin for TiledPolylinesPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(PreUpdate, polyline_colliders);
    }
}

/// A [`Collider::polyline`] on each new polyline object.
fn polyline_colliders(
    mut commands: Commands,
    objects: Query<(Entity, &TiledObject), (Added<TiledObject>, Without<Collider>)>,
) {
    for (entity, object) in &objects {
        if let TiledObject::Polyline { vertices } = object {
            match Collider::polyline(vertices) {
                Some(collider) => {
                    commands.entity(entity).insert(collider);
                }
                None => log::warn!(
                    "bevy_sweep: the Tiled polyline of entity {entity} has fewer than 2 finite \
                     points: it has no collider"
                ),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prelude::*;
    use bevy::prelude::*;

    fn square(x: f32, y: f32, side: f32) -> Vec<(f32, f32)> {
        vec![
            (x, y),
            (x + side, y),
            (x + side, y + side),
            (x, y + side),
            (x, y),
        ]
    }

    #[test]
    fn a_polygon_without_holes_is_one_exact_polygon() {
        let l_shape = geo::Polygon::new(
            geo::LineString::from(vec![
                (0.0, 0.0),
                (32.0, 0.0),
                (32.0, 16.0),
                (16.0, 16.0),
                (16.0, 48.0),
                (0.0, 48.0),
                (0.0, 0.0),
            ]),
            vec![],
        );
        match collider_of(&l_shape) {
            Some(Collider::Polygon { points, .. }) => assert_eq!(points.len(), 6),
            other => panic!("{other:?}"),
        }
    }

    /// A ring of tiles around a room: a polygon with a hole, as a compound of convex
    /// pieces whose areas add up to the ring's, and that a point in the room does not touch.
    #[test]
    fn a_ring_around_a_room_is_a_compound_of_convex_pieces() {
        let ring = geo::Polygon::new(
            geo::LineString::from(square(0.0, 0.0, 100.0)),
            vec![geo::LineString::from(square(10.0, 10.0, 80.0))],
        );
        let Some(Collider::Compound { parts }) = collider_of(&ring) else {
            panic!("a compound");
        };
        let area: f32 = parts
            .iter()
            .map(|(_, part)| {
                let Collider::ConvexPolygon { vertices } = part else {
                    panic!("{part:?}");
                };
                let n = vertices.len();
                (0..n)
                    .map(|i| vertices[i].perp_dot(vertices[(i + 1) % n]))
                    .sum::<f32>()
                    .abs()
                    / 2.0
            })
            .sum();
        assert_eq!(area, 100.0 * 100.0 - 80.0 * 80.0);
        // In a world: a point in the room touches nothing; one in the wall touches it.
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, SweepPlugin::default()));
        let wall = app
            .world_mut()
            .spawn((Collider::Compound { parts }, Transform::default()))
            .id();
        app.world_mut().run_schedule(FixedPostUpdate);
        let mut hits = Vec::new();
        let mut state = bevy::ecs::system::SystemState::<SweepQuery>::new(app.world_mut());
        let query = state.get(app.world()).expect("the snapshot");
        query.point_hits(Vec2::new(50.0, 50.0), &QueryFilter::default(), &mut hits);
        assert!(hits.is_empty());
        query.point_hits(Vec2::new(5.0, 50.0), &QueryFilter::default(), &mut hits);
        assert_eq!(hits, [wall]);
    }

    #[test]
    fn unusable_polygons_give_nothing() {
        let flat = geo::Polygon::new(
            geo::LineString::from(vec![(0.0, 0.0), (1.0, 0.0), (2.0, 0.0), (0.0, 0.0)]),
            vec![],
        );
        assert!(collider_of(&flat).is_none());
        let empty = geo::Polygon::<f32>::new(geo::LineString::new(vec![]), vec![]);
        assert!(collider_of(&empty).is_none());
    }
}

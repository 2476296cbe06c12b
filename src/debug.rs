//! Debug drawing with gizmos (cargo feature `debug-draw`).

use crate::SweepSettings;
use crate::narrow::Shape;
use crate::plugin::{Collider, CollisionEvent, CollisionKind, SweptPath};
use bevy::app::{App, Plugin, Update};
use bevy::color::{Alpha, Color, Mix};
use bevy::ecs::prelude::*;
use bevy::gizmos::gizmos::Gizmos;
use bevy::math::{Isometry2d, Vec2};
use bevy::time::{Real, Time};

/// Draws every collider where it is, the path it swept in the last tick, and recent contacts
/// (point and normal), with gizmos, in `Update`.
///
/// Needs the [`SweepPlugin`](crate::SweepPlugin) and Bevy's gizmos (in `DefaultPlugins`
/// with a renderer). Sizes scale with [`SweepPlugin::length_unit`](crate::SweepPlugin).
/// Toggle parts at run time through the [`SweepDebugSettings`] resource.
#[derive(Clone, Copy, Debug, Default)]
pub struct SweepDebugPlugin;

/// What [`SweepDebugPlugin`] draws, and in which colours.
#[derive(Resource, Clone, Copy, Debug)]
pub struct SweepDebugSettings {
    /// Draw every collider's shape at its current place.
    pub colliders: bool,
    /// Draw each collider's shape at the start of the last tick and the straight paths of
    /// its vertices.
    pub paths: bool,
    /// Draw contact points and normals of recent events.
    pub contacts: bool,
    /// How long a contact stays drawn, in seconds (it fades out).
    pub contact_lifetime: f32,
    /// Colour of colliders.
    pub collider_color: Color,
    /// Colour of swept paths.
    pub path_color: Color,
    /// Colour of `Started` contacts (`Ended` and `Crossed` use lighter and darker shades).
    pub contact_color: Color,
}

impl Default for SweepDebugSettings {
    fn default() -> Self {
        Self {
            colliders: true,
            paths: true,
            contacts: true,
            contact_lifetime: 0.75,
            collider_color: Color::srgb(0.3, 0.9, 0.4),
            path_color: Color::srgba(0.4, 0.6, 1.0, 0.6),
            contact_color: Color::srgb(1.0, 0.35, 0.2),
        }
    }
}

/// Recent contacts and when they were seen.
#[derive(Resource, Default)]
struct RecentContacts(Vec<(CollisionEvent, f32)>);

impl Plugin for SweepDebugPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<SweepDebugSettings>()
            .init_resource::<RecentContacts>()
            .add_systems(Update, (collect_contacts, draw).chain());
    }
}

fn collect_contacts(
    mut reader: MessageReader<CollisionEvent>,
    mut recent: ResMut<RecentContacts>,
    settings: Res<SweepDebugSettings>,
    time: Res<Time<Real>>,
) {
    let now = time.elapsed_secs();
    recent
        .0
        .retain(|(_, seen)| now - seen < settings.contact_lifetime);
    recent.0.extend(reader.read().map(|e| (*e, now)));
}

fn shape(gizmos: &mut Gizmos, shape: &Shape, color: Color, unit: f32) {
    match *shape {
        Shape::Point(p) => gizmos.cross_2d(Isometry2d::from_translation(p), 0.1 * unit, color),
        Shape::Segment(a, b) => gizmos.line_2d(a, b, color),
        Shape::Circle { center, radius } => {
            gizmos.circle_2d(Isometry2d::from_translation(center), radius, color);
        }
        Shape::Aabb {
            center,
            half_extents,
        } => gizmos.rect_2d(
            Isometry2d::from_translation(center),
            2.0 * half_extents,
            color,
        ),
        Shape::Convex(convex) => rounded_polygon(gizmos, convex.vertices(), convex.radius(), color),
    }
}

/// A polygon's outline grown by `radius`: each edge moved out by the radius, and an arc
/// (drawn as a circle) at each vertex; a lone vertex is a circle.
fn rounded_polygon(gizmos: &mut Gizmos, vertices: &[Vec2], radius: f32, color: Color) {
    let n = vertices.len();
    if radius <= 0.0 {
        match n {
            1 => gizmos.cross_2d(Isometry2d::from_translation(vertices[0]), 0.1, color),
            2 => gizmos.line_2d(vertices[0], vertices[1], color),
            _ => gizmos.linestrip_2d(vertices.iter().chain(&vertices[..1]).copied(), color),
        }
        return;
    }
    for &v in vertices {
        gizmos.circle_2d(Isometry2d::from_translation(v), radius, color);
    }
    let edges = if n == 2 {
        1
    } else if n > 2 {
        n
    } else {
        0
    };
    for i in 0..edges {
        let (a, b) = (vertices[i], vertices[(i + 1) % n]);
        let Some(out) = (b - a).perp().try_normalize() else {
            continue;
        };
        for side in [out, -out] {
            gizmos.line_2d(a + side * radius, b + side * radius, color);
        }
    }
}

/// The moving vertices of a shape (points whose straight paths are drawn).
fn vertices(shape: &Shape) -> Vec<Vec2> {
    match *shape {
        Shape::Point(p) | Shape::Circle { center: p, .. } | Shape::Aabb { center: p, .. } => {
            vec![p]
        }
        Shape::Segment(a, b) => vec![a, b],
        Shape::Convex(convex) => convex.vertices().to_vec(),
    }
}

fn draw(
    mut gizmos: Gizmos,
    settings: Res<SweepDebugSettings>,
    sweep: Res<SweepSettings>,
    paths: Query<(&SweptPath, &Collider)>,
    recent: Res<RecentContacts>,
    time: Res<Time<Real>>,
) {
    let unit = sweep.length_unit;
    // Each collider's path, a polyline's edge by edge.
    for path in paths
        .iter()
        .flat_map(|(swept, collider)| swept.paths(collider))
    {
        let (start, end) = (path.at(0.0), path.at(1.0));
        if settings.colliders {
            shape(&mut gizmos, &end, settings.collider_color, unit);
        }
        if settings.paths && start != end {
            shape(&mut gizmos, &start, settings.path_color, unit);
            for (from, to) in vertices(&start).into_iter().zip(vertices(&end)) {
                gizmos.line_2d(from, to, settings.path_color);
            }
        }
    }
    if settings.contacts {
        let now = time.elapsed_secs();
        for (event, seen) in &recent.0 {
            let fade = 1.0 - (now - seen) / settings.contact_lifetime.max(1e-3);
            let base = match event.kind {
                CollisionKind::Started => settings.contact_color,
                CollisionKind::Ended => settings.contact_color.mix(&Color::WHITE, 0.5),
                CollisionKind::Crossed => settings.contact_color.mix(&Color::BLACK, 0.3),
            };
            let color = base.with_alpha(base.alpha() * fade.clamp(0.0, 1.0));
            gizmos.circle_2d(
                Isometry2d::from_translation(event.point),
                0.08 * unit,
                color,
            );
            gizmos.arrow_2d(event.point, event.point + event.normal * 0.5 * unit, color);
        }
    }
}

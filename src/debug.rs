//! Debug drawing with gizmos (cargo feature `debug-draw`).

use crate::SweepSettings;
use crate::narrow::Shape;
use crate::plugin::{Collider, ColliderDisabled, CollisionEvent, CollisionKind, SweptPath};
use bevy::app::{App, Plugin, Update};
use bevy::color::{Alpha, Color, Mix};
use bevy::ecs::prelude::*;
use bevy::gizmos::AppGizmoBuilder;
use bevy::gizmos::config::{GizmoConfigGroup, GizmoConfigStore};
use bevy::gizmos::gizmos::Gizmos;
use bevy::math::{Isometry2d, Vec2};
use bevy::reflect::prelude::*;
use bevy::time::{Real, Time};

/// Draws every collider where the last tick left it, the path it swept in that tick, and
/// recent contacts (point and normal), with gizmos, in `Update`. Colliders skipped as unusable
/// are not drawn, and moves made since the tick show at the next one.
///
/// Needs the [`SweepPlugin`](crate::SweepPlugin) and Bevy's gizmos (in `DefaultPlugins`
/// with a renderer). Sizes scale with [`SweepPlugin::length_unit`](crate::SweepPlugin).
/// What is drawn, and in which colours, is the gizmo group [`SweepGizmos`]; line width,
/// layers and turning it all off are its [`GizmoConfig`](bevy::gizmos::config::GizmoConfig),
/// as for any gizmo group:
///
/// ```
/// use bevy::prelude::*;
/// use bevy_sweep::prelude::*;
///
/// // A system that turns the swept paths off and the debug drawing on or off with `F1`.
/// fn debug_keys(keys: Res<ButtonInput<KeyCode>>, mut store: ResMut<GizmoConfigStore>) {
///     let (config, sweep) = store.config_mut::<SweepGizmos>();
///     sweep.path_color = None;
///     if keys.just_pressed(KeyCode::F1) {
///         config.enabled = !config.enabled;
///     }
/// }
/// # bevy::ecs::system::assert_is_system(debug_keys);
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct SweepDebugPlugin;

/// The gizmo group of [`SweepDebugPlugin`]: what it draws and in which colours (`None`: that
/// part is not drawn). Read and change it through Bevy's `GizmoConfigStore`:
/// `store.config_mut::<SweepGizmos>()`.
#[derive(Clone, Copy, Debug, PartialEq, Reflect, GizmoConfigGroup)]
#[reflect(Default, Debug, PartialEq, Clone)]
pub struct SweepGizmos {
    /// Colour of every collider's shape where the last tick left it.
    pub collider_color: Option<Color>,
    /// Colour of each collider's shape at the start of the last tick and of the straight
    /// paths of its vertices (drawn only for colliders that moved).
    pub path_color: Option<Color>,
    /// Colour of the points and normals of recent `Started` contacts (`Ended` and `Crossed`
    /// use lighter and darker shades).
    pub contact_color: Option<Color>,
    /// How long a contact stays drawn, in seconds (it fades out).
    pub contact_lifetime: f32,
}

impl Default for SweepGizmos {
    fn default() -> Self {
        Self {
            collider_color: Some(Color::srgb(0.3, 0.9, 0.4)),
            path_color: Some(Color::srgba(0.4, 0.6, 1.0, 0.6)),
            contact_color: Some(Color::srgb(1.0, 0.35, 0.2)),
            contact_lifetime: 0.75,
        }
    }
}

/// Recent contacts and when they were seen.
#[derive(Resource, Default)]
struct RecentContacts(Vec<(CollisionEvent, f32)>);

impl Plugin for SweepDebugPlugin {
    fn build(&self, app: &mut App) {
        app.init_gizmo_group::<SweepGizmos>()
            .register_type::<SweepGizmos>()
            .init_resource::<RecentContacts>()
            .add_systems(Update, (collect_contacts, draw).chain());
    }
}

fn collect_contacts(
    mut reader: MessageReader<CollisionEvent>,
    mut recent: ResMut<RecentContacts>,
    store: Res<GizmoConfigStore>,
    time: Res<Time<Real>>,
) {
    let now = time.elapsed_secs();
    let (_, settings) = store.config::<SweepGizmos>();
    recent
        .0
        .retain(|(_, seen)| now - seen < settings.contact_lifetime);
    recent.0.extend(reader.read().map(|e| (*e, now)));
}

fn shape(gizmos: &mut Gizmos<SweepGizmos>, shape: &Shape, color: Color, unit: f32) {
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
fn rounded_polygon(gizmos: &mut Gizmos<SweepGizmos>, vertices: &[Vec2], radius: f32, color: Color) {
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
    mut gizmos: Gizmos<SweepGizmos>,
    sweep: Res<SweepSettings>,
    paths: Query<(&SweptPath, &Collider), Without<ColliderDisabled>>,
    recent: Res<RecentContacts>,
    time: Res<Time<Real>>,
) {
    if !gizmos.config.enabled {
        return;
    }
    let settings = *gizmos.config_ext;
    let unit = sweep.length_unit;
    // Each collider's path, a polyline's edge by edge.
    if settings.collider_color.is_some() || settings.path_color.is_some() {
        for path in paths
            .iter()
            .flat_map(|(swept, collider)| swept.paths(collider))
        {
            let (start, end) = (path.at(0.0), path.at(1.0));
            if let Some(color) = settings.collider_color {
                shape(&mut gizmos, &end, color, unit);
            }
            if let Some(color) = settings.path_color
                && start != end
            {
                shape(&mut gizmos, &start, color, unit);
                for (from, to) in vertices(&start).into_iter().zip(vertices(&end)) {
                    gizmos.line_2d(from, to, color);
                }
            }
        }
    }
    if let Some(contact_color) = settings.contact_color {
        let now = time.elapsed_secs();
        for (event, seen) in &recent.0 {
            let fade = 1.0 - (now - seen) / settings.contact_lifetime.max(1e-3);
            let base = match event.kind {
                CollisionKind::Started => contact_color,
                CollisionKind::Ended => contact_color.mix(&Color::WHITE, 0.5),
                CollisionKind::Crossed => contact_color.mix(&Color::BLACK, 0.3),
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

//! The debug-draw plugin draws what the sweep saw (feature `debug-draw`), headless: what it
//! drew is read back from Bevy's gizmo buffers.

use crate::common::*;
use bevy::asset::AssetPlugin;
use bevy::gizmos::{GizmoAsset, GizmoHandles, GizmoPlugin};
use bevy::prelude::*;
use bevy_sweep::prelude::*;
use core::any::TypeId;

const COLLIDER: Color = Color::srgb(1.0, 0.0, 0.0);
const PATH: Color = Color::srgb(0.0, 1.0, 0.0);
const CONTACT: Color = Color::srgb(0.0, 0.0, 1.0);

/// The vertices the sweep's gizmo group drew in the last update, with their colours: lines
/// as pairs of vertices, strips (circles, rectangles) as runs.
#[derive(Debug, Default)]
struct Drawn {
    lines: Vec<(Vec2, Vec2, LinearRgba)>,
    strips: Vec<(Vec2, LinearRgba)>,
}

impl Drawn {
    fn read(app: &App) -> Self {
        let world = app.world();
        let Some(Some(handle)) = world
            .resource::<GizmoHandles>()
            .handles()
            .get(&TypeId::of::<SweepGizmos>())
        else {
            return Self::default();
        };
        let asset = world
            .resource::<Assets<GizmoAsset>>()
            .get(handle)
            .expect("the gizmo asset of the group");
        let buffer = asset.buffer().buffer();
        let lines = buffer
            .list_positions
            .chunks(2)
            .zip(buffer.list_colors.chunks(2))
            .map(|(p, c)| (p[0].truncate(), p[1].truncate(), c[0]))
            .collect();
        let strips = buffer
            .strip_positions
            .iter()
            .zip(buffer.strip_colors.iter())
            .filter(|(p, _)| p.is_finite()) // NaN separates strips
            .map(|(p, c)| (p.truncate(), *c))
            .collect();
        Self { lines, strips }
    }

    /// Whether a line from `a` to `b` (either way) was drawn in `color`'s hue.
    fn has_line(&self, a: Vec2, b: Vec2, color: Color) -> bool {
        self.lines.iter().any(|&(p, q, c)| {
            same_hue(c, color)
                && ((p.distance(a) < 1e-4 && q.distance(b) < 1e-4)
                    || (p.distance(b) < 1e-4 && q.distance(a) < 1e-4))
        })
    }

    /// Whether a circle of `radius` around `center` was drawn in `color`'s hue.
    fn has_circle(&self, center: Vec2, radius: f32, color: Color) -> bool {
        let on: Vec<_> = self
            .strips
            .iter()
            .filter(|&&(p, c)| same_hue(c, color) && (p.distance(center) - radius).abs() < 1e-3)
            .collect();
        on.len() >= 8
    }

    fn any_in(&self, color: Color) -> bool {
        self.lines.iter().any(|&(.., c)| same_hue(c, color))
            || self.strips.iter().any(|&(_, c)| same_hue(c, color))
    }
}

/// The same pure hue (one of red, green, blue), whatever its brightness and alpha.
fn same_hue(drawn: LinearRgba, color: Color) -> bool {
    let want = color.to_linear();
    let channels = |c: LinearRgba| [c.red > 1e-6, c.green > 1e-6, c.blue > 1e-6];
    channels(drawn) == channels(want)
}

#[test]
fn draws_the_colliders_their_paths_and_the_contacts_the_sweep_saw() {
    let mut app = app();
    // Bevy's gizmos without a renderer.
    app.add_plugins((AssetPlugin::default(), GizmoPlugin, SweepDebugPlugin))
        .init_asset::<Mesh>()
        .init_asset::<bevy::mesh::skinning::SkinnedMeshInverseBindposes>();
    {
        let mut store = app.world_mut().resource_mut::<GizmoConfigStore>();
        let (_, sweep) = store.config_mut::<SweepGizmos>();
        assert_eq!(*sweep, SweepGizmos::default());
        *sweep = SweepGizmos {
            collider_color: Some(COLLIDER),
            path_color: Some(PATH),
            contact_color: Some(CONTACT),
            contact_lifetime: 10.0,
        };
    }
    // A point at 6 units a tick through a still segment: one Crossed at the origin.
    let bullet = app
        .world_mut()
        .spawn((
            Collider::point(),
            Transform::from_xyz(-3.0, 0.0, 0.0),
            Velocity(Vec2::new(6.0 * 64.0, 0.0)),
        ))
        .id();
    app.world_mut()
        .spawn(Collider::segment(Vec2::new(0.0, -1.0), Vec2::new(0.0, 1.0)));
    app.world_mut()
        .spawn((Collider::circle(1.5), Transform::from_xyz(5.0, 5.0, 0.0)));
    let events = tick(&mut app);
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(events[0].kind, CollisionKind::Crossed);
    assert!(events[0].point.distance(Vec2::ZERO) < 1e-5, "{events:?}");

    let drawn = Drawn::read(&app);
    // Every collider where it is.
    assert!(
        drawn.has_line(Vec2::new(0.0, -1.0), Vec2::new(0.0, 1.0), COLLIDER),
        "the segment: {drawn:?}"
    );
    assert!(
        drawn.has_circle(Vec2::new(5.0, 5.0), 1.5, COLLIDER),
        "the circle"
    );
    let cross = drawn
        .lines
        .iter()
        .filter(|&&(a, b, c)| {
            same_hue(c, COLLIDER) && ((a + b) / 2.0).distance(Vec2::new(3.0, 0.0)) < 1e-4
        })
        .count();
    assert!(cross >= 2, "the point, as a cross at x = 3: {drawn:?}");
    // The bullet's path over the tick; the still colliders have none.
    assert!(
        drawn.has_line(Vec2::new(-3.0, 0.0), Vec2::new(3.0, 0.0), PATH),
        "the bullet's path"
    );
    assert!(
        drawn
            .lines
            .iter()
            .filter(|&&(.., c)| same_hue(c, PATH))
            .all(|&(a, b, _)| [a, b]
                .iter()
                .all(|p| p.y.abs() <= 0.1 + 1e-4 && p.x.abs() <= 3.1 + 1e-4)),
        "only the bullet moved (its path, and its cross at the start): {drawn:?}"
    );
    // The contact: a small circle at the crossing, and its normal.
    let unit = app.world().resource::<SweepSettings>().length_unit;
    assert!(
        drawn.has_circle(Vec2::ZERO, 0.08 * unit, CONTACT),
        "{drawn:?}"
    );
    assert!(
        drawn.has_line(Vec2::ZERO, events[0].normal * 0.5 * unit, CONTACT),
        "the normal"
    );

    // Parts set to `None` are not drawn; the rest still is.
    {
        let mut store = app.world_mut().resource_mut::<GizmoConfigStore>();
        let (_, sweep) = store.config_mut::<SweepGizmos>();
        sweep.path_color = None;
        sweep.contact_color = None;
    }
    app.world_mut().get_mut::<Velocity>(bullet).unwrap().0 = Vec2::new(0.0, 64.0);
    tick(&mut app);
    let drawn = Drawn::read(&app);
    assert!(!drawn.any_in(PATH) && !drawn.any_in(CONTACT), "{drawn:?}");
    assert!(drawn.has_circle(Vec2::new(5.0, 5.0), 1.5, COLLIDER));

    // The group turned off draws nothing.
    app.world_mut()
        .resource_mut::<GizmoConfigStore>()
        .config_mut::<SweepGizmos>()
        .0
        .enabled = false;
    tick(&mut app);
    let drawn = Drawn::read(&app);
    assert!(
        drawn.lines.is_empty() && drawn.strips.is_empty(),
        "{drawn:?}"
    );
}

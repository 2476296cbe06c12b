//! The debug-draw plugin runs headless next to the sweep (feature `debug-draw`).

use super::harness::*;
use bevy::asset::AssetPlugin;
use bevy::gizmos::GizmoPlugin;
use bevy::prelude::*;
use bevy_sweep::prelude::*;

#[test]
fn draws_colliders_paths_and_contacts_without_a_renderer() {
    let mut app = app();
    // Bevy's gizmos without a renderer.
    app.add_plugins((AssetPlugin::default(), GizmoPlugin, SweepDebugPlugin))
        .init_asset::<Mesh>()
        .init_asset::<bevy::mesh::skinning::SkinnedMeshInverseBindposes>();
    app.world_mut().spawn((
        Collider::point(),
        Transform::from_xyz(-3.0, 0.0, 0.0),
        Velocity(Vec2::new(6.0 * 64.0, 0.0)),
    ));
    app.world_mut()
        .spawn(Collider::segment(Vec2::new(0.0, -1.0), Vec2::new(0.0, 1.0)));
    app.world_mut()
        .spawn((Collider::circle(1.0), Transform::from_xyz(5.0, 5.0, 0.0)));
    app.world_mut().spawn((
        Collider::aabb(Vec2::ONE),
        Transform::from_xyz(-5.0, 5.0, 0.0),
    ));
    let events = tick(&mut app);
    assert_eq!(events.len(), 1);
    for _ in 0..3 {
        tick(&mut app);
    }
    let settings = app.world().resource::<SweepDebugSettings>();
    assert!(settings.colliders && settings.paths && settings.contacts);
}

//! **Prepare** and **integrate**: where each collider's motion starts, and the velocities.
//!
//! Reads: new, changed and teleported colliders, [`Velocity`] and [`AngularVelocity`].
//! Writes: the start of their motion in [`SweptPath`] (a fresh start where they are now);
//! [`Composites`] (the shapes that name composite colliders' features);
//! transforms moved by their velocities; [`SweepStats::prepare_time`].

use crate::plugin::components::placement::world_plane;
use crate::plugin::components::{Composites, Pending, ShapeCheck, Warned};
use crate::plugin::{
    AngularVelocity, Collider, ColliderDisabled, KinematicCharacter, SweepStats, SweptPath,
    Teleport, Velocity,
};
use bevy::ecs::prelude::*;
use bevy::ecs::system::NonSendMarker;
use bevy::math::Vec2;
use bevy::platform::time::Instant;
use bevy::time::Time;
use bevy::transform::components::Transform;

/// New, re-inserted, reshaped, teleported and switched on colliders: this tick's motion
/// starts where they are now, and a new or changed shape is checked again.
pub(crate) fn prepare(
    _main_thread: NonSendMarker,
    mut commands: Commands,
    mut queries: ParamSet<(
        Query<
            (
                Entity,
                Ref<Collider>,
                &mut SweptPath,
                Option<&mut Warned>,
                Has<Teleport>,
            ),
            Or<(Changed<Collider>, With<Teleport>)>,
        >,
        Query<(&mut SweptPath, Has<ColliderDisabled>), With<Collider>>,
        Query<&Collider>,
    )>,
    mut pending: ResMut<Pending>,
    mut composites: ResMut<Composites>,
    transforms: Query<(&Transform, Option<&ChildOf>)>,
    mut stats: ResMut<SweepStats>,
) {
    let began = Instant::now();
    restart_pending(&mut pending, &mut queries.p1(), &transforms);
    for (entity, collider, mut swept, warned, teleport) in &mut queries.p0() {
        if teleport {
            commands.entity(entity).try_remove::<Teleport>();
        }
        if collider.is_added()
            && let Some(mut warned) = warned
        {
            warned.shape = false;
        }
        // A new or changed shape is checked again (a polygon's convexity is not checked
        // every tick). A shape written again unchanged (a rollback restoring every component)
        // is no change: the motion goes on exactly as if it had not been written.
        if collider.is_changed() {
            composites.update(entity, &collider);
            let key = collider.fingerprint();
            if collider.is_added() || key != swept.shape_key {
                swept.shape_check = ShapeCheck::Unchecked;
                swept.shape_key = key;
            }
        }
        // New, re-inserted (the entity may have moved while it had no collider) or
        // teleported: start from here. (A changed shape continues from where it was; the
        // gather decides whether it can. A collider written again, as a rollback does, is no
        // new one: nothing here depends on whether it was, so that a replay sweeps what the
        // first run swept.)
        // (A restored motion goes on, even on a collider just spawned, and one restored from
        // before it had a start was started above; the gather clears the flag.)
        if teleport || (collider.is_added() && !swept.restored) {
            swept.previous_world = world_plane(entity, &transforms).ok().map(Into::into);
            swept.fresh = true;
            swept.started = true;
        }
    }
    // Shapes of colliders removed or despawned since are forgotten.
    if !composites.0.is_empty() {
        let colliders = queries.p2();
        composites.0.retain(|&entity, _| colliders.contains(entity));
    }
    stats.prepare_time = began.elapsed();
}

/// Starts the colliders that wait on this prepare phase ([`Pending`]). Restored from
/// before its motion had a start: it starts where it is, as a new
/// collider does. Switched on again since the last tick: it starts afresh where it is,
/// as a teleported collider does (its record says it was off; the marker's removal
/// changed nothing). Still off: looked at again next tick.
fn restart_pending(
    pending: &mut Pending,
    records: &mut Query<(&mut SweptPath, Has<ColliderDisabled>), With<Collider>>,
    transforms: &Query<(&Transform, Option<&ChildOf>)>,
) {
    pending.0.retain(|&entity| {
        let Ok((mut swept, off)) = records.get_mut(entity) else {
            return false;
        };
        if !swept.started {
            swept.previous_world = world_plane(entity, transforms).ok().map(Into::into);
            swept.fresh = true;
            swept.started = true;
        }
        if off {
            return true;
        }
        if swept.switched_off {
            swept.skip();
            swept.switched_off = false;
            swept.previous_world = world_plane(entity, transforms).ok().map(Into::into);
            swept.fresh = true;
        }
        false
    });
}

/// Moves transforms by their velocities over the tick. Non-finite velocities are left out
/// (the collider is then reported in [`SkippedColliders`](crate::prelude::SkippedColliders)).
pub(crate) fn integrate(
    _main_thread: NonSendMarker,
    time: Res<Time>,
    mut movers: Query<
        (&mut Transform, Option<&Velocity>, Option<&AngularVelocity>),
        (
            Or<(With<Velocity>, With<AngularVelocity>)>,
            // A character moves itself, unless it is switched off.
            Or<(Without<KinematicCharacter>, With<ColliderDisabled>)>,
        ),
    >,
) {
    let dt = time.delta_secs();
    for (mut transform, velocity, angular) in &mut movers {
        if let Some(&Velocity(v)) = velocity
            && v.is_finite()
            && v != Vec2::ZERO
        {
            transform.translation += (v * dt).extend(0.0);
        }
        if let Some(&AngularVelocity(w)) = angular
            && w.is_finite()
            && w != 0.0
        {
            transform.rotate_z(w * dt);
        }
    }
}

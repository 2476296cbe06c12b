//! Rollback netcode with [`bevy_ggrs`]: [`SweepRollbackPlugin`] (cargo feature `ggrs`).
//!
//! `bevy_ggrs` rolls a game back and re-simulates it whenever a remote input arrives late,
//! and its `SyncTestSession` does so every frame to prove that a game can. The sweep keeps
//! state from tick to tick (where each collider's motion starts, the contacts, the
//! characters' ground, the colliders as the last tick left them for the queries): all of it
//! must go back with the rest of the world, or the re-simulated ticks send other events.
//! [`SweepRollbackPlugin`] does that in one line:
//!
//! ```
//! use bevy::prelude::*;
//! use bevy_ggrs::prelude::*;
//! use bevy_sweep::prelude::*;
//! # use bevy_ggrs::{LocalInputs, LocalPlayers, ReadInputs};
//! # use bevy_ggrs::ggrs::{PlayerType, SessionBuilder};
//!
//! type Config = GgrsConfig<u8>;
//!
//! #[derive(Component, Clone, Copy)]
//! struct Player(usize);
//!
//! fn move_players(inputs: Res<PlayerInputs<Config>>, mut players: Query<(&Player, &mut Velocity)>) {
//!     for (player, mut velocity) in &mut players {
//!         velocity.0.x = if inputs[player.0].0 & 1 != 0 { 200.0 } else { 0.0 };
//!     }
//! }
//!
//! let mut app = App::new();
//! app.add_plugins((MinimalPlugins, GgrsPlugin::<Config>::default())) // DefaultPlugins in a game
//!     .add_plugins(SweepRollbackPlugin::default()) // instead of SweepPlugin
//!     // The game's own state, as bevy_ggrs asks: Transform and its components.
//!     .rollback_component_with_clone::<Transform>()
//!     .rollback_component_with_copy::<Player>()
//!     .add_systems(Startup, spawn)
//!     .add_systems(GgrsSchedule, move_players.before(SweepSystems::Prepare));
//! # app.add_systems(ReadInputs, |mut commands: Commands, players: Res<LocalPlayers>| {
//! #     let inputs = players.0.iter().map(|&handle| (handle, 1)).collect();
//! #     commands.insert_resource(LocalInputs::<Config>(inputs));
//! # });
//! # let session = SessionBuilder::<Config>::new()
//! #     .with_check_distance(2)
//! #     .add_player(PlayerType::Local, 0).unwrap()
//! #     .add_player(PlayerType::Local, 1).unwrap()
//! #     .start_synctest_session().unwrap();
//! # app.insert_resource(Session::SyncTest(session)).insert_resource(
//! #     bevy::time::TimeUpdateStrategy::ManualDuration(core::time::Duration::from_secs_f64(1.0 / 60.0)),
//! # );
//!
//! fn spawn(mut commands: Commands) {
//!     for (handle, x) in [(0, -50.0), (1, 50.0)] {
//!         let at = Transform::from_xyz(x, 0.0, 0.0);
//!         // Rolled back (bevy_ggrs's `Rollback`), and despawned with a plain despawn().
//!         commands.spawn((Player(handle), Collider::circle(8.0), Velocity::default(), at, Rollback));
//!     }
//! }
//! # for _ in 0..30 {
//! #     app.update();
//! # }
//! # let mut players = app.world_mut().query::<(&Player, &Transform)>();
//! # for (player, transform) in players.iter(app.world()) {
//! #     assert!(transform.translation.x > if player.0 == 0 { -50.0 } else { 50.0 });
//! # }
//! ```
//!
//! What it does:
//! - runs the sweep in `bevy_ggrs`'s [`GgrsSchedule`], so that a rollback re-simulates it
//!   with the game (order your game systems `.before(SweepSystems::Prepare)` there);
//! - registers for rollback every component of this crate a game puts on its entities
//!   ([`Collider`], [`CollisionLayers`], [`Velocity`], [`AngularVelocity`], [`Response`],
//!   [`Sensor`], [`OneWay`], [`KinematicCharacter`], [`Body`], [`Teleport`],
//!   [`ColliderDisabled`], [`CollidingEntities`]): the game registers only its own
//!   components and `Transform`;
//! - saves a [`SweepState`] with every `bevy_ggrs` snapshot and restores it on every
//!   rollback, with the entities `bevy_ggrs` brought back under new ids mapped to them (a
//!   game may despawn with plain `despawn()`);
//! - adds the sweep's state to `bevy_ggrs`'s checksum, so that a desync in it is detected.
//!
//! It registers nothing that a game registers itself (not `Transform`, no checksum of a
//! component): `bevy_ggrs` adds each registration as a plugin, and Bevy refuses the same
//! plugin twice.
//!
//! The sweep's part of the checksum names no entity ([`SweepState::checksum`]): `bevy_ggrs`
//! gives an entity spawned again in a re-simulated frame another id and another
//! `RollbackId`.

use crate::prelude::*;
use crate::{SweepPlugin, SweepState};
use bevy::app::{App, Plugin};
use bevy::ecs::prelude::*;
use bevy::ecs::schedule::ScheduleLabel;
use bevy_ggrs::{
    ChecksumFlag, ChecksumPart, GgrsSchedule, GgrsSnapshots, LoadWorld, LoadWorldSystems,
    RollbackApp, RollbackEntityMap, RollbackFrameCount, SaveWorld, SaveWorldSystems,
};

/// [`SweepPlugin`] for a game rolled back by `bevy_ggrs`: the sweep in [`GgrsSchedule`],
/// this crate's components registered for rollback, and the sweep's state saved, restored
/// and checksummed with every `bevy_ggrs` snapshot. See the [module docs](self).
///
/// Its fields are [`SweepPlugin`]'s, but for the schedule, which is [`GgrsSchedule`].
#[derive(Clone, Debug)]
pub struct SweepRollbackPlugin {
    /// See [`SweepPlugin::integrate_velocity`]. Default: `true`.
    pub integrate_velocity: bool,
    /// See [`SweepPlugin::length_unit`]. Default: `1.0`.
    pub length_unit: f32,
    /// See [`SweepPlugin::parallel`]. Default: `true`.
    pub parallel: bool,
}

impl Default for SweepRollbackPlugin {
    fn default() -> Self {
        let plugin = SweepPlugin::default();
        Self {
            integrate_velocity: plugin.integrate_velocity,
            length_unit: plugin.length_unit,
            parallel: plugin.parallel,
        }
    }
}

impl Plugin for SweepRollbackPlugin {
    fn build(&self, app: &mut App) {
        app.add_plugins(SweepPlugin {
            schedule: GgrsSchedule.intern(),
            integrate_velocity: self.integrate_velocity,
            length_unit: self.length_unit,
            parallel: self.parallel,
        })
        .rollback_component_with_clone::<Collider>()
        .rollback_component_with_copy::<CollisionLayers>()
        .rollback_component_with_copy::<Velocity>()
        .rollback_component_with_copy::<AngularVelocity>()
        .rollback_component_with_copy::<Response>()
        .rollback_component_with_copy::<Mass>()
        .rollback_component_with_copy::<Sensor>()
        .rollback_component_with_copy::<OneWay>()
        .rollback_component_with_copy::<KinematicCharacter>()
        .rollback_component_with_copy::<Body>()
        .rollback_component_with_copy::<Teleport>()
        .rollback_component_with_copy::<ColliderDisabled>()
        .rollback_component_with_clone::<CollidingEntities>()
        .init_resource::<GgrsSnapshots<SweepState>>()
        .init_resource::<Checked>()
        .add_systems(SaveWorld, checksum.in_set(SaveWorldSystems::Checksum))
        .add_systems(
            SaveWorld,
            (
                GgrsSnapshots::<SweepState>::sync_depth,
                GgrsSnapshots::<SweepState>::discard_old_snapshots,
                save,
            )
                .chain()
                .in_set(SaveWorldSystems::Snapshot),
        )
        .add_systems(LoadWorld, load.in_set(LoadWorldSystems::Mapping));
    }
}

/// The state taken for this frame's checksum, saved by the snapshot that follows it.
#[derive(Resource, Default)]
struct Checked(Option<SweepState>);

/// Adds the sweep's state to the frame's checksum (and keeps it for the snapshot).
fn checksum(world: &mut World) {
    let state = SweepState::save(world);
    let part = ChecksumPart(u128::from(state.checksum()));
    let mut parts = world.query_filtered::<&mut ChecksumPart, With<ChecksumFlag<SweepState>>>();
    match parts.single_mut(world) {
        Ok(mut existing) => *existing = part,
        Err(_) => {
            world.spawn((part, ChecksumFlag::<SweepState>::default()));
        }
    }
    world.resource_mut::<Checked>().0 = Some(state);
}

/// Saves the sweep's state with this frame's snapshot.
fn save(world: &mut World) {
    let state = world
        .resource_mut::<Checked>()
        .0
        .take()
        .unwrap_or_else(|| SweepState::save(world));
    let frame = world.resource::<RollbackFrameCount>().0;
    world
        .resource_mut::<GgrsSnapshots<SweepState>>()
        .push(frame, state);
}

/// Restores the sweep's state of the frame rolled back to, its entities mapped to those
/// `bevy_ggrs` brought back under new ids. A frame never saved is warned about.
fn load(world: &mut World) {
    let frame = world.resource::<RollbackFrameCount>().0;
    let mut snapshots = world.resource_mut::<GgrsSnapshots<SweepState>>();
    if snapshots.peek(frame).is_none() {
        log::warn!(
            "bevy_sweep: no sweep state was saved for frame {frame}, which bevy_ggrs rolls back \
             to: the sweep goes on from where it is, and the frames that follow may differ \
             from the first run (was SweepRollbackPlugin added after the session started?)"
        );
        return;
    }
    let state = snapshots.rollback(frame).get().clone();
    let map = world.resource::<RollbackEntityMap>();
    let state = if map.is_empty() {
        state
    } else {
        state.mapped(|entity| map.get(entity).unwrap_or(entity))
    };
    state.restore(world);
}

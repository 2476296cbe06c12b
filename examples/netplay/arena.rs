//! The netplay arena, shared by the `netplay` example and `tests/ggrs.rs`: two players, each
//! a `KinematicCharacter`, running, jumping and throwing bouncing balls in a walled arena
//! with a one-way platform, a door that moves up and down and is switched off and on, and
//! coins (sensors) that jump elsewhere when picked up. Everything that happens is in
//! `bevy_ggrs`'s `GgrsSchedule`, driven by the players' inputs and the frame count alone.

use bevy::math::Vec2;
use bevy::prelude::*;
use bevy_ggrs::RollbackFrameCount;
use bevy_ggrs::prelude::*;
use bevy_sweep::prelude::*;
use core::hash::{Hash, Hasher};

/// The game's frames a second (one sweep tick each).
pub const FPS: usize = 60;

/// `bevy_ggrs`'s configuration: an input is a byte of the bits below.
pub type Config = GgrsConfig<u8>;

/// Input bits.
pub const LEFT: u8 = 1;
pub const RIGHT: u8 = 2;
pub const JUMP: u8 = 4;
pub const THROW: u8 = 8;

/// Units per second.
const RUN: f32 = 220.0;
const JUMP_SPEED: f32 = 480.0;
const GRAVITY: f32 = 1_200.0;
const BALL_SPEED: f32 = 900.0;
/// How long a ball lives, in frames.
const BALL_FRAMES: i32 = 150;
/// The arena's half size.
const HALF: Vec2 = Vec2::new(400.0, 220.0);

/// A player: its handle in the session, and the way it faces.
#[derive(Component, Clone, Copy, Debug, Hash)]
#[require(Rollback)]
pub struct Player {
    pub handle: usize,
    facing: i8,
}

/// A thrown ball: the frame it goes at.
#[derive(Component, Clone, Copy, Debug)]
#[require(Rollback)]
pub struct Ball {
    until: i32,
}

/// The door that moves up and down and is switched off and on.
#[derive(Component, Clone, Copy, Debug)]
#[require(Rollback)]
pub struct Door;

/// A coin: a sensor that jumps elsewhere when a player touches it.
#[derive(Component, Clone, Copy, Debug)]
#[require(Rollback)]
pub struct Coin;

/// What the game counts: each player's coins, balls thrown and gone, balls found outside the
/// arena (none should be), the door's switches.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Tally {
    pub coins: [u32; 2],
    pub thrown: u32,
    pub gone: u32,
    pub escaped: u32,
    pub switches: u32,
    /// Pairs of balls found touching at the start of a frame (they bounce off each other, and
    /// rest on each other).
    pub bumps: u32,
}

/// The arena's rollback registrations and systems, with `sweep` (`SweepRollbackPlugin`, or a
/// plain `SweepPlugin` in `GgrsSchedule` to show what goes wrong without it).
pub fn add_arena(app: &mut App, sweep: impl Plugin) {
    app.add_plugins(sweep)
        .insert_resource(RollbackFrameRate(FPS))
        .init_resource::<Tally>()
        .rollback_component_with_clone::<Transform>()
        .rollback_component_with_copy::<Player>()
        .rollback_component_with_copy::<Ball>()
        .rollback_component_with_copy::<Door>()
        .rollback_component_with_copy::<Coin>()
        .rollback_resource_with_copy::<Tally>()
        .checksum_component::<Transform>(hash_transform)
        .checksum_resource_with_hash::<Tally>()
        .add_systems(Startup, spawn_arena)
        .add_systems(
            GgrsSchedule,
            (run_and_jump, throw, expire, door, coins, bumps)
                .chain()
                .before(SweepSystems::Prepare),
        );
}

/// A transform's part of the checksum: its translation and rotation, bit for bit.
fn hash_transform(transform: &Transform) -> u64 {
    let mut hasher = bevy_ggrs::checksum_hasher();
    for v in [transform.translation.x, transform.translation.y]
        .into_iter()
        .chain(transform.rotation.to_array())
    {
        v.to_bits().hash(&mut hasher);
    }
    hasher.finish()
}

/// The walls, the floor, a one-way platform, the door, two coins and the two players.
fn spawn_arena(mut commands: Commands) {
    let wall = |commands: &mut Commands, half: Vec2, at: Vec2| {
        commands.spawn((
            Collider::aabb(half),
            Transform::from_translation(at.extend(0.0)),
        ));
    };
    wall(
        &mut commands,
        Vec2::new(HALF.x, 10.0),
        Vec2::new(0.0, -HALF.y),
    );
    wall(
        &mut commands,
        Vec2::new(HALF.x, 10.0),
        Vec2::new(0.0, HALF.y),
    );
    wall(
        &mut commands,
        Vec2::new(10.0, HALF.y),
        Vec2::new(-HALF.x, 0.0),
    );
    wall(
        &mut commands,
        Vec2::new(10.0, HALF.y),
        Vec2::new(HALF.x, 0.0),
    );
    // A floor of separate tiles in the middle, a step higher.
    for i in 0..8 {
        wall(
            &mut commands,
            Vec2::splat(16.0),
            Vec2::new(-112.0 + 32.0 * i as f32, -HALF.y + 26.0),
        );
    }
    commands.spawn((
        Collider::aabb(Vec2::new(90.0, 4.0)),
        Transform::from_xyz(-200.0, -60.0, 0.0),
        OneWay(Dir2::Y),
    ));
    commands.spawn((
        Door,
        Collider::rectangle(Vec2::new(8.0, 60.0)),
        Transform::from_xyz(200.0, -100.0, 0.0),
        Velocity(Vec2::new(0.0, 90.0)),
    ));
    // Six balls that stay all game, in pairs thrown at each other: they bounce off each other
    // (by their masses), off the walls and off the players.
    for k in 0..6 {
        let x = -150.0 + 60.0 * k as f32;
        let heading = if k % 2 == 0 { 1.0 } else { -1.0 };
        commands.spawn((
            Ball { until: i32::MAX },
            Collider::circle(5.0),
            Transform::from_xyz(x, 60.0 + 7.0 * k as f32, 0.0),
            Velocity(Vec2::new(heading * 400.0, 120.0 - 40.0 * k as f32)),
            Response::Bounce { restitution: 1.0 },
            Mass(1.0 + (k % 3) as f32),
        ));
    }
    for x in [-300.0, 120.0] {
        commands.spawn((
            Coin,
            Collider::circle(10.0),
            Sensor,
            CollidingEntities::default(),
            Transform::from_xyz(x, -150.0, 0.0),
        ));
    }
    for handle in 0..2 {
        commands.spawn((
            Player {
                handle,
                facing: if handle == 0 { 1 } else { -1 },
            },
            Collider::capsule(Vec2::new(0.0, -10.0), Vec2::new(0.0, 10.0), 9.0),
            Transform::from_xyz(if handle == 0 { -250.0 } else { 250.0 }, -150.0, 0.0),
            KinematicCharacter::default(),
        ));
    }
}

/// Runs, jumps and falls by the players' inputs.
fn run_and_jump(
    inputs: Res<PlayerInputs<Config>>,
    mut players: Query<(&mut Player, &mut Velocity, &CharacterState)>,
) {
    let dt = 1.0 / FPS as f32;
    for (mut player, mut velocity, state) in &mut players {
        let input = inputs[player.handle].0;
        let run = f32::from(i8::from(input & RIGHT != 0) - i8::from(input & LEFT != 0));
        if run != 0.0 {
            player.facing = run as i8;
        }
        velocity.0.x = run * RUN;
        velocity.0.y -= GRAVITY * dt;
        if input & JUMP != 0 && state.grounded {
            velocity.0.y = JUMP_SPEED;
        }
    }
}

/// Throws a bouncing ball where a player faces (at most one a player every 12 frames), if
/// there is room for it there: a player with its back to a wall has none (a ball spawned
/// inside the wall would leave it on the far side, as nothing it enters stops it).
fn throw(
    mut commands: Commands,
    inputs: Res<PlayerInputs<Config>>,
    frame: Res<RollbackFrameCount>,
    players: Query<(&Player, &Transform)>,
    query: SweepQuery,
    mut tally: ResMut<Tally>,
) {
    // In the players' order, so that the balls are spawned in the same order on every peer.
    let mut players: Vec<_> = players.iter().collect();
    players.sort_by_key(|(p, _)| p.handle);
    for (player, transform) in players {
        if inputs[player.handle].0 & THROW == 0 || frame.0.rem_euclid(12) != player.handle as i32 {
            continue;
        }
        let facing = f32::from(player.facing);
        let at = transform.translation.truncate() + Vec2::new(facing * 24.0, 10.0);
        let ball = Collider::circle(5.0);
        if query.any_hit(
            &ball,
            Isometry2d::from_translation(at),
            &QueryFilter::default(),
        ) {
            continue;
        }
        commands.spawn((
            Ball {
                until: frame.0 + BALL_FRAMES,
            },
            ball,
            Transform::from_translation(at.extend(0.0)),
            Velocity(Vec2::new(facing * BALL_SPEED, 300.0)),
            Response::Bounce { restitution: 0.9 },
        ));
        tally.thrown += 1;
    }
}

/// Despawns the balls whose time is up (with a plain `despawn`).
/// A ball outside the walls escaped: it is counted and despawned too.
fn expire(
    mut commands: Commands,
    frame: Res<RollbackFrameCount>,
    balls: Query<(Entity, &Ball, &Transform)>,
    mut tally: ResMut<Tally>,
) {
    for (entity, ball, transform) in &balls {
        let outside = transform.translation.truncate().abs().cmpgt(HALF).any();
        if frame.0 >= ball.until || outside {
            commands.entity(entity).despawn();
            tally.gone += 1;
            tally.escaped += u32::from(outside);
        }
    }
}

/// Turns the door round every 90 frames, and switches it off for 40 frames in every 100.
fn door(
    mut commands: Commands,
    frame: Res<RollbackFrameCount>,
    mut doors: Query<(Entity, &mut Velocity, Has<ColliderDisabled>), With<Door>>,
    mut tally: ResMut<Tally>,
) {
    for (entity, mut velocity, off) in &mut doors {
        if frame.0.rem_euclid(90) == 0 {
            velocity.0 = -velocity.0;
        }
        let should_be_off = frame.0.rem_euclid(100) < 40;
        if should_be_off != off {
            tally.switches += 1;
            if should_be_off {
                commands.entity(entity).insert(ColliderDisabled);
            } else {
                commands.entity(entity).remove::<ColliderDisabled>();
            }
        }
    }
}

/// Counts the pairs of balls that touch (to a hair) where the last frame left them.
fn bumps(balls: Query<&Transform, With<Ball>>, mut tally: ResMut<Tally>) {
    let at: Vec<Vec2> = balls.iter().map(|t| t.translation.truncate()).collect();
    for (k, a) in at.iter().enumerate() {
        let touching = at[k + 1..].iter().filter(|b| a.distance(**b) <= 10.05);
        tally.bumps += touching.count() as u32;
    }
}

/// A coin touched by a player counts for it and jumps elsewhere (a `Teleport`).
fn coins(
    mut commands: Commands,
    frame: Res<RollbackFrameCount>,
    mut coins: Query<(Entity, &CollidingEntities, &mut Transform), With<Coin>>,
    players: Query<&Player>,
    mut tally: ResMut<Tally>,
) {
    for (entity, touching, mut transform) in &mut coins {
        let mut takers: Vec<usize> = touching
            .iter()
            .filter_map(|e| players.get(e).ok().map(|p| p.handle))
            .collect();
        takers.sort_unstable();
        let Some(&handle) = takers.first() else {
            continue;
        };
        tally.coins[handle] += 1;
        let k = (frame.0.rem_euclid(7) as f32) - 3.0;
        transform.translation = Vec3::new(k * 100.0, -150.0 + (k * 37.0).abs(), 0.0);
        commands.entity(entity).insert(Teleport);
    }
}

/// A scripted player for tests and unattended runs: runs back and forth, jumps and throws,
/// from the frame number alone. `seed` changes how long it runs each way, when it jumps and
/// when it throws (seed 0: turns every 45 frames, jumps every 50, throws half of every 30).
pub fn bot_input(handle: usize, frame: u32, seed: u32) -> u8 {
    let handle = handle as u32;
    let turn = 45 + 7 * (seed % 4);
    let phase = frame.wrapping_add(13 * seed) / turn + handle;
    let mut input = if phase.is_multiple_of(2) { RIGHT } else { LEFT };
    let hop = 50 + 10 * (seed % 3);
    if frame.wrapping_add(17 * handle + 5 * seed) % hop < 2 {
        input |= JUMP;
    }
    if frame.wrapping_add(3 * seed) % 30 < 15 {
        input |= THROW;
    }
    input
}

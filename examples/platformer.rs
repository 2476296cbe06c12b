//! `platformer`: a [`KinematicCharacter`] runs and jumps over polyline hills and tile walls,
//! rides a lift, jumps up through [`OneWay`] platforms and collects coins ([`Sensor`]s).
//! Click to throw bouncing balls ([`Response::Bounce`]) into the level.
//!
//! ```sh
//! cargo run --release --example platformer --features debug-draw
//! ```
//!
//! | control | action |
//! |---|---|
//! | `Left` / `Right` (or `A` / `D`) | run |
//! | `Space` (or `Up`, `W`) | jump |
//! | click | throw a ball from the cursor |
//! | `Esc` | quit |
//!
//! The game's own movement code is the system `run_and_jump`: it sets the character's
//! [`Velocity`] from the keys and gravity. The plugin does the rest each tick: it moves the
//! character by move-and-slide, keeps it `skin` off the ground, walks it down slopes, steps
//! it up the small ledges, carries it on the lift, lets it jump up through the one-way
//! platforms and land on them, and writes [`CharacterState`] (grounded, and on what).

#[path = "support/demo.rs"]
mod demo;
#[path = "support/scripted.rs"]
mod scripted;

use bevy::prelude::*;
use bevy_sweep::prelude::*;
use demo::{Cursor, Hud};
use scripted::ScriptedRun;

const GRAVITY: f32 = 1400.0;
const RUN: f32 = 260.0;
const JUMP: f32 = 640.0;
const HALF_WIDTH: f32 = 620.0;
const TILE: f32 = 16.0;
/// The lift's shaft: from `LIFT_X - 60` to `LIFT_X + 60`, 120 px deep.
const LIFT_X: f32 = 330.0;
const LIFT_DEPTH: f32 = 120.0;

fn main() {
    App::new()
        .add_plugins((
            DefaultPlugins.set(demo::window("platformer", (1280, 720))),
            SweepPlugin {
                length_unit: 20.0,
                ..default()
            },
            SweepDebugPlugin,
            ScriptedRun,
        ))
        .insert_resource(ClearColor(Color::srgb(0.05, 0.07, 0.10)))
        .init_resource::<Tally>()
        .add_systems(Startup, setup)
        .add_systems(Update, (demo::quit_on_esc, controls, throw, hud))
        .add_systems(FixedUpdate, (run_and_jump, move_lift, ball_gravity))
        .add_systems(
            FixedPostUpdate,
            (pick_up, watch_hero).after(SweepSystems::Report),
        )
        .add_systems(Last, log_tally)
        .run();
}

/// The ground's height at `x`, outside the lift's shaft.
fn ground(x: f32) -> f32 {
    -200.0 + 28.0 * (x * 0.011).sin() + 10.0 * (x * 0.037).cos()
}

#[derive(Component)]
struct Hero;

#[derive(Component)]
struct Lift;

#[derive(Component)]
struct OneWayPlatform;

#[derive(Component)]
struct Coin;

#[derive(Component)]
struct Ball;

#[derive(Resource, Default)]
struct Tally {
    coins: u32,
    jumps: u32,
    /// What the hero last stood on, and each kind of landing.
    standing_on: Option<Entity>,
    landed_one_way: u32,
    landed_lift: u32,
    rode_lift_px: f32,
    /// Whether the hero stood against a wall in the last tick.
    at_wall: bool,
    balls: u32,
    /// The jump and throw keys since the last tick.
    jump: bool,
    throw: Option<Vec2>,
}

fn setup(mut commands: Commands) {
    commands.spawn(Camera2d);
    // The hills: one polyline, with the lift's shaft cut into it.
    let shaft = (LIFT_X - 60.0, LIFT_X + 60.0);
    let mut points = Vec::new();
    let mut x = -HALF_WIDTH - 40.0;
    while x <= HALF_WIDTH + 40.0 {
        if x < shaft.0 || x > shaft.1 {
            points.push(Vec2::new(x, ground(x)));
        }
        if x < shaft.0 && x + 10.0 >= shaft.0 {
            let (top, bottom) = (ground(shaft.0), ground(shaft.0) - LIFT_DEPTH);
            points.extend([Vec2::new(shaft.0, top), Vec2::new(shaft.0, bottom)]);
            let far = ground(shaft.1);
            points.extend([Vec2::new(shaft.1, bottom), Vec2::new(shaft.1, far)]);
        }
        x += 10.0;
    }
    commands.spawn(Collider::polyline(&points).expect("finite points"));
    // A low ledge to step up (12 px), a tile wall to jump (3 tiles), the level's two ends.
    commands.spawn((
        Collider::aabb(Vec2::new(40.0, 7.0)),
        Transform::from_xyz(-250.0, ground(-250.0) + 5.0, 0.0),
    ));
    let mut tiles = Vec::new();
    tiles.extend((0..3).map(|k| Vec2::new(-60.0, k as f32 * TILE * 2.0)));
    for end in [-HALF_WIDTH, HALF_WIDTH] {
        tiles.extend((0..20).map(|k| Vec2::new(end, k as f32 * TILE * 2.0)));
    }
    for tile in tiles {
        let at = Vec2::new(tile.x, ground(tile.x) + TILE + tile.y - 4.0);
        commands.spawn((
            Collider::aabb(Vec2::splat(TILE)),
            Transform::from_translation(at.extend(0.0)),
        ));
    }
    // One-way platforms: one over the start, two stacked further on.
    for (x, up) in [(-480.0, 110.0), (120.0, 100.0), (120.0, 210.0)] {
        commands.spawn((
            OneWayPlatform,
            Collider::aabb(Vec2::new(70.0, 5.0)),
            Transform::from_xyz(x, ground(x) + up, 0.0),
            OneWay(Dir2::Y),
        ));
    }
    // The lift: fills its shaft, from the bottom to level with the ground.
    commands.spawn((
        Lift,
        Collider::aabb(Vec2::new(59.0, 6.0)),
        Transform::from_xyz(LIFT_X, ground(shaft.0) - LIFT_DEPTH + 6.0, 0.0),
        Velocity(Vec2::new(0.0, 70.0)),
    ));
    // Coins along the way.
    for k in 0..9 {
        let x = -420.0 + 110.0 * k as f32;
        commands.spawn((
            Coin,
            Sensor,
            Collider::circle(9.0),
            Transform::from_xyz(x, ground(x) + 40.0, 0.0),
        ));
    }
    commands.spawn((
        Hero,
        Collider::capsule(Vec2::new(0.0, -12.0), Vec2::new(0.0, 12.0), 11.0),
        Transform::from_xyz(-480.0, ground(-480.0) + 40.0, 0.0),
        KinematicCharacter {
            step_height: 20.0,
            max_slope: 50f32.to_radians(),
            ..default()
        },
    ));
    commands.spawn(demo::hud(20.0, Vec2::new(14.0, 6.0)));
}

fn controls(
    keys: Res<ButtonInput<KeyCode>>,
    buttons: Res<ButtonInput<MouseButton>>,
    cursor: Cursor,
    mut tally: ResMut<Tally>,
) {
    if keys.any_just_pressed([KeyCode::Space, KeyCode::ArrowUp, KeyCode::KeyW]) {
        tally.jump = true;
    }
    if buttons.just_pressed(MouseButton::Left) {
        tally.throw = cursor.world();
    }
}

/// The game's movement: run from the keys, jump when grounded, fall.
fn run_and_jump(
    time: Res<Time>,
    keys: Res<ButtonInput<KeyCode>>,
    mut tally: ResMut<Tally>,
    mut hero: Single<(&mut Velocity, &CharacterState), With<Hero>>,
) {
    let (ref mut velocity, state) = *hero;
    let mut run = 0.0;
    if keys.any_pressed([KeyCode::ArrowRight, KeyCode::KeyD]) {
        run += RUN;
    }
    if keys.any_pressed([KeyCode::ArrowLeft, KeyCode::KeyA]) {
        run -= RUN;
    }
    velocity.0.x = run;
    velocity.0.y -= GRAVITY * time.delta_secs();
    if std::mem::take(&mut tally.jump) && state.grounded {
        velocity.0.y = JUMP;
        tally.jumps += 1;
        info!("jump");
    }
}

/// The lift goes up and down its shaft.
fn move_lift(mut lift: Single<(&Transform, &mut Velocity), With<Lift>>) {
    let (transform, ref mut velocity) = *lift;
    let bottom = ground(LIFT_X - 60.0) - LIFT_DEPTH + 6.0;
    let top = ground(LIFT_X - 60.0) - 6.0;
    let y = transform.translation.y;
    if y >= top && velocity.0.y > 0.0 || y <= bottom && velocity.0.y < 0.0 {
        velocity.0.y = -velocity.0.y;
    }
}

/// A click throws a bouncing ball from the cursor.
fn throw(mut commands: Commands, mut tally: ResMut<Tally>) {
    if let Some(at) = tally.throw.take() {
        tally.balls += 1;
        commands.spawn((
            Ball,
            Collider::circle(7.0),
            Transform::from_translation(at.extend(0.0)),
            Velocity(Vec2::new(
                if tally.balls.is_multiple_of(2) {
                    300.0
                } else {
                    -300.0
                },
                200.0,
            )),
            Response::Bounce { restitution: 0.8 },
        ));
        info!("ball {} thrown from {at}", tally.balls);
    }
}

fn ball_gravity(time: Res<Time>, mut balls: Query<&mut Velocity, With<Ball>>) {
    for mut velocity in &mut balls {
        velocity.0.y -= GRAVITY * time.delta_secs();
    }
}

/// Coins go when the hero touches them.
fn pick_up(
    mut commands: Commands,
    mut events: MessageReader<CollisionEvent>,
    hero: Single<Entity, With<Hero>>,
    coins: Query<(), With<Coin>>,
    mut tally: ResMut<Tally>,
) {
    for event in events.read() {
        let Some(seen) = event.seen_from(*hero) else {
            continue;
        };
        if seen.kind != CollisionKind::Ended && coins.contains(seen.other) {
            commands.entity(seen.other).try_despawn();
            tally.coins += 1;
            info!("coin {}", tally.coins);
        }
    }
}

/// Logs what the hero lands on, when it stands against a wall, and how far the lift carries it.
fn watch_hero(
    hero: Single<(&CharacterState, &Transform), With<Hero>>,
    lifts: Query<&Velocity, With<Lift>>,
    one_way: Query<(), With<OneWayPlatform>>,
    time: Res<Time>,
    mut tally: ResMut<Tally>,
) {
    let (hero, transform) = *hero;
    let at_wall = hero.on_wall && hero.grounded;
    if at_wall && !tally.at_wall {
        info!("against a wall at x = {:.0}", transform.translation.x);
    }
    tally.at_wall = at_wall;
    let ground = hero.ground_entity.filter(|_| hero.grounded);
    if ground != tally.standing_on
        && let Some(on) = ground
    {
        if one_way.contains(on) {
            tally.landed_one_way += 1;
            info!("landed on a one-way platform");
        } else if lifts.contains(on) {
            tally.landed_lift += 1;
            info!("landed on the lift");
        }
    }
    if let Some(lift) = ground.and_then(|on| lifts.get(on).ok()) {
        tally.rode_lift_px += lift.0.length() * time.delta_secs();
    }
    tally.standing_on = ground;
}

fn hud(
    tally: Res<Tally>,
    hero: Single<&CharacterState, With<Hero>>,
    mut text: Single<&mut Text, With<Hud>>,
) {
    text.0 = format!(
        "coins {}   jumps {}   {}   rode the lift {:.0} px   balls {}   \
         (run: arrows, jump: space, ball: click)",
        tally.coins,
        tally.jumps,
        if hero.grounded {
            "on the ground"
        } else {
            "in the air"
        },
        tally.rode_lift_px,
        tally.balls,
    );
}

fn log_tally(mut exits: MessageReader<AppExit>, tally: Res<Tally>) {
    if exits.read().next().is_some() {
        info!(
            "platformer: {} coins, {} jumps, {} landings on one-way platforms, {} on the lift, \
             rode it {:.0} px, {} balls",
            tally.coins,
            tally.jumps,
            tally.landed_one_way,
            tally.landed_lift,
            tally.rode_lift_px,
            tally.balls
        );
    }
}

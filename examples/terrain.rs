//! `terrain`: the shapes beyond the first four at work. A capsule hero (a
//! [`KinematicCharacter`]) walks on hills drawn as one polyline; tumbling crates (rectangles)
//! and rocks (convex polygons) drift across; a rain of bullets at 3,000 px/s strikes
//! everything, and each hit lights the edge of the hills it struck, named by the event.
//!
//! ```sh
//! cargo run --release --example terrain --features debug-draw
//! ```
//!
//! | control | action |
//! |---|---|
//! | `Left` / `Right` | walk |
//! | `Space` | jump |
//! | `Esc` | quit |
//!
//! - The hills are one [`Collider::polyline`] of 121 points: each edge has its own place in
//!   the broad phase, and an event's [`Feature`] says which edge a bullet hit.
//! - The hero is a [`Body`] of a capsule and a feet [`Sensor`] (a rectangle under it): the
//!   two overlap and are never reported against each other; [`CollidingEntities`] on the
//!   body lists what its colliders touch.
//! - The hero is a [`KinematicCharacter`]: the game sets its [`Velocity`] (walk, jump,
//!   gravity) and the plugin moves it by move-and-slide, keeps it on the slopes and says
//!   whether it stands on the ground ([`CharacterState`]).

#[path = "support/demo.rs"]
mod demo;
#[path = "support/scripted.rs"]
mod scripted;

use bevy::prelude::*;
use bevy_sweep::prelude::*;
use demo::Hud;
use scripted::ScriptedRun;

/// The collision layers: the hills, the hero, bullets, drifting props.
#[derive(CollisionLayer)]
enum Layer {
    Hills,
    Hero,
    Bullet,
    Prop,
}

const GRAVITY: f32 = -900.0;
const WALK: f32 = 220.0;
const JUMP: f32 = 480.0;
const BULLET_SPEED: f32 = 3000.0;
const HALF_WIDTH: f32 = 600.0;

fn main() {
    App::new()
        .add_plugins((
            DefaultPlugins.set(demo::window("terrain", (1280, 720))),
            SweepPlugin {
                length_unit: 20.0,
                ..default()
            },
            SweepDebugPlugin,
            ScriptedRun,
        ))
        .insert_resource(ClearColor(Color::srgb(0.04, 0.05, 0.08)))
        .init_resource::<Tally>()
        .add_systems(Startup, setup)
        .add_systems(FixedUpdate, (walk, fire, wrap_props))
        .add_systems(FixedPostUpdate, strike.after(SweepSystems::Report))
        .add_systems(Update, (demo::quit_on_esc, draw_struck, hud))
        .add_systems(Last, log_tally)
        .run();
}

/// The hills' height at `x`.
fn height(x: f32) -> f32 {
    -220.0 + 60.0 * (x * 0.008).sin() + 25.0 * (x * 0.023).cos()
}

#[derive(Component)]
struct Hills(Vec<Vec2>);

#[derive(Component, Default)]
struct Hero;

#[derive(Component)]
struct Bullet;

/// Edges of the hills struck lately: (edge, seconds left to show).
#[derive(Component, Default)]
struct Struck(Vec<(u32, f32)>);

#[derive(Resource, Default)]
struct Tally {
    fired: u32,
    hits: u32,
    hill_hits: u32,
}

fn hero_shape() -> Collider {
    Collider::capsule(Vec2::new(0.0, -14.0), Vec2::new(0.0, 14.0), 12.0)
}

fn setup(mut commands: Commands) {
    commands.spawn(Camera2d);
    let points: Vec<Vec2> = (0..=120)
        .map(|k| {
            let x = -HALF_WIDTH + 10.0 * k as f32;
            Vec2::new(x, height(x))
        })
        .collect();
    commands.spawn((
        Collider::polyline(&points).expect("finite points"),
        CollisionLayers::new(Layer::Hills, [Layer::Hero, Layer::Bullet, Layer::Prop]),
        Hills(points),
        Struck::default(),
    ));
    // The hero: a character's capsule, and a feet sensor under it in the same body.
    commands
        .spawn((
            Body,
            Hero,
            CollidingEntities::default(),
            hero_shape(),
            CollisionLayers::new(Layer::Hero, [Layer::Hills, Layer::Bullet, Layer::Prop]),
            KinematicCharacter {
                step_height: 8.0,
                ..default()
            },
            Transform::from_xyz(-300.0, 0.0, 0.0),
            Visibility::default(),
        ))
        .with_children(|hero| {
            hero.spawn((
                Collider::rectangle(Vec2::new(8.0, 3.0)),
                Transform::from_xyz(0.0, -27.0, 0.0),
                CollisionLayers::new(Layer::Hero, [Layer::Hills, Layer::Prop]),
                Sensor,
            ));
        });
    // Drifting, tumbling props: crates and rocks.
    for k in 0..8 {
        let x = -500.0 + 140.0 * k as f32;
        let collider = if k % 2 == 0 {
            Collider::rectangle(Vec2::new(22.0, 14.0))
        } else {
            let rock: Vec<Vec2> = (0..6)
                .map(|i| {
                    Vec2::from_angle(i as f32 * 1.047 + 0.2 * k as f32)
                        * (18.0 + 4.0 * (i % 2) as f32)
                })
                .collect();
            Collider::convex_polygon(&rock).expect("a hexagon this round is convex")
        };
        commands.spawn((
            collider,
            CollisionLayers::new(Layer::Prop, [Layer::Hills, Layer::Hero, Layer::Bullet]),
            Transform::from_xyz(x, 120.0 + 40.0 * (k % 3) as f32, 0.0),
            Velocity(Vec2::new(if k % 2 == 0 { 70.0 } else { -55.0 }, 0.0)),
            AngularVelocity(if k % 3 == 0 { 1.5 } else { -2.2 }),
        ));
    }
    commands.spawn(demo::hud(20.0, Vec2::new(14.0, 8.0)));
}

/// Walks, falls and jumps: the game sets the velocity, the plugin moves the character.
fn walk(
    mut commands: Commands,
    time: Res<Time>,
    keys: Res<ButtonInput<KeyCode>>,
    mut heroes: Query<(Entity, &mut Transform, &mut Velocity, &CharacterState), With<Hero>>,
) {
    for (entity, mut transform, mut velocity, state) in &mut heroes {
        let mut input = 0.0;
        // Scripted runs walk right by themselves.
        if keys.pressed(KeyCode::ArrowRight) || std::env::var_os("EXAMPLE_SECONDS").is_some() {
            input += 1.0;
        }
        if keys.pressed(KeyCode::ArrowLeft) {
            input -= 1.0;
        }
        velocity.0.x = input * WALK;
        velocity.0.y += GRAVITY * time.delta_secs();
        if state.grounded && keys.just_pressed(KeyCode::Space) {
            velocity.0.y = JUMP;
        }
        if transform.translation.x > HALF_WIDTH - 20.0 {
            let x = -HALF_WIDTH + 20.0;
            transform.translation = Vec3::new(x, height(x) + 60.0, 0.0);
            commands.entity(entity).insert(Teleport);
        }
    }
}

/// A bullet from the sky every tick, at a slant, 3,000 px/s.
fn fire(mut commands: Commands, mut tally: ResMut<Tally>, mut k: Local<u32>) {
    *k += 1;
    let x = -HALF_WIDTH + (*k as f32 * 137.5) % (2.0 * HALF_WIDTH);
    let slant = ((*k % 7) as f32 - 3.0) * 0.12;
    commands.spawn((
        Bullet,
        // Bullets report what they hit and never block the hero's moves.
        Sensor,
        Collider::point(),
        CollisionLayers::new(Layer::Bullet, [Layer::Hills, Layer::Hero, Layer::Prop]),
        Transform::from_xyz(x, 340.0, 0.0),
        Velocity(Vec2::new(slant, -1.0).normalize() * BULLET_SPEED),
    ));
    tally.fired += 1;
}

/// Props leaving the screen come back on the other side.
fn wrap_props(mut commands: Commands, mut props: Query<(Entity, &mut Transform), With<Velocity>>) {
    for (entity, mut transform) in &mut props {
        let x = transform.translation.x;
        if x.abs() > HALF_WIDTH + 40.0 {
            transform.translation.x = -x.signum() * HALF_WIDTH;
            commands.entity(entity).insert(Teleport);
        }
    }
}

/// Bullets stop at their first hit; a hit on the hills lights the edge it struck.
fn strike(
    mut commands: Commands,
    mut events: MessageReader<CollisionEvent>,
    bullets: Query<(), With<Bullet>>,
    mut hills: Query<&mut Struck>,
    mut tally: ResMut<Tally>,
    everything: Query<(Entity, &Transform), With<Bullet>>,
) {
    for event in events.read() {
        for seen in [*event, event.flipped()] {
            if !bullets.contains(seen.entity) || seen.kind == CollisionKind::Ended {
                continue;
            }
            tally.hits += 1;
            if let Ok(mut struck) = hills.get_mut(seen.other) {
                tally.hill_hits += 1;
                if let Some(Feature::Edge { index, .. } | Feature::Vertex(index)) =
                    seen.other_feature
                {
                    struck.0.push((index, 0.4));
                }
            }
            commands.entity(seen.entity).try_despawn();
        }
    }
    // Bullets that left the screen.
    for (entity, transform) in &everything {
        if transform.translation.y < -400.0 {
            commands.entity(entity).try_despawn();
        }
    }
}

fn draw_struck(time: Res<Time>, mut gizmos: Gizmos, mut hills: Query<(&Hills, &mut Struck)>) {
    for (hills, mut struck) in &mut hills {
        for (edge, left) in &mut struck.0 {
            let i = *edge as usize;
            if let (Some(&a), Some(&b)) = (hills.0.get(i), hills.0.get(i + 1)) {
                gizmos.line_2d(a, b, Color::srgb(1.0, 0.85, 0.2).with_alpha(*left / 0.4));
            }
            *left -= time.delta_secs();
        }
        struck.0.retain(|(_, left)| *left > 0.0);
    }
}

fn hud(
    tally: Res<Tally>,
    heroes: Query<(&CharacterState, &CollidingEntities), With<Hero>>,
    mut hud: Single<&mut Text, With<Hud>>,
) {
    let Ok((hero, touching)) = heroes.single() else {
        return;
    };
    hud.0 = format!(
        "bullets {}   hits {} ({} on the hills)   hero {} and touching {}",
        tally.fired,
        tally.hits,
        tally.hill_hits,
        if hero.grounded {
            "on the ground"
        } else {
            "in the air"
        },
        touching.len(),
    );
}

fn log_tally(mut exits: MessageReader<AppExit>, tally: Res<Tally>) {
    if exits.read().next().is_some() {
        info!(
            "terrain: {} bullets, {} hits, {} on the hills",
            tally.fired, tally.hits, tally.hill_hits
        );
    }
}

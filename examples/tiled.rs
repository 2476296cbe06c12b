//! A Tiled map as `bevy_sweep` colliders, through `bevy_ecs_tiled`'s physics backends: the
//! map in `assets/tiled/` (made for this example) has a tile layer whose solid tiles carry
//! collision boxes (merged by `bevy_ecs_tiled` into one ring of walls, floor and ceiling
//! around the room, a polygon with a hole: a compound of convex pieces) and an object layer
//! with a concave polygon (a mound with two humps), an ellipse (a rock), a rectangle (a
//! ledge) and a polyline (a ramp). A `KinematicCharacter` runs across all of them.
//!
//! `cargo run --example tiled --features tiled,debug-draw`. `D`/`Right` and `A`/`Left` run,
//! `Space`/`W`/`Up` jumps. The log says how many colliders the map became, and when the hero
//! has crossed the level.

#[path = "support/scripted.rs"]
mod scripted;

use bevy::prelude::*;
use bevy_ecs_tiled::prelude::*;
use bevy_sweep::prelude::*;
use bevy_sweep::tiled::{TiledPolylinesPlugin, TiledSweepBackend};
use scripted::ScriptedRun;

/// Tiles of 16 units; the map is 40 × 15 tiles, centred on the origin.
const TILE: f32 = 16.0;
/// The hero's running speed and jump, in units per second.
const RUN: f32 = 120.0;
const JUMP: f32 = 300.0;
const GRAVITY: f32 = 900.0;

#[derive(Component)]
struct Hero;

/// Whether the hero has crossed the level yet.
#[derive(Resource, Default)]
struct Crossed(bool);

fn main() {
    App::new()
        .add_plugins((
            DefaultPlugins
                .set(WindowPlugin {
                    primary_window: Some(Window {
                        title: "tiled".into(),
                        resolution: (1280, 720).into(),
                        ..default()
                    }),
                    ..default()
                })
                .set(ImagePlugin::default_nearest()),
            TiledPlugin::default(),
            TiledPhysicsPlugin::<TiledSweepBackend>::default(),
            TiledPolylinesPlugin,
            SweepPlugin {
                length_unit: TILE,
                ..default()
            },
            SweepDebugPlugin,
            ScriptedRun,
        ))
        .insert_resource(ClearColor(Color::srgb(0.05, 0.07, 0.10)))
        .init_resource::<Crossed>()
        .add_systems(Startup, setup)
        .add_systems(FixedUpdate, run_and_jump)
        .add_systems(Update, (spawn_hero, count_colliders, watch_hero))
        .run();
}

fn setup(mut commands: Commands, asset_server: Res<AssetServer>) {
    commands.spawn((
        Camera2d,
        Projection::Orthographic(OrthographicProjection {
            scale: 0.55,
            ..OrthographicProjection::default_2d()
        }),
    ));
    commands.spawn((
        TiledMap(asset_server.load("tiled/level.tmx")),
        TilemapAnchor::Center,
    ));
}

/// The hero, on the grass at the left, once the map has its colliders (it loads in the
/// background).
fn spawn_hero(
    mut commands: Commands,
    colliders: Query<(), (With<Collider>, With<TiledColliderSource>)>,
    hero: Query<(), With<Hero>>,
) {
    if colliders.is_empty() || !hero.is_empty() {
        return;
    }
    // The grass at the left: the top of row 11 (of 15, from the top).
    let start = Vec2::new(-17.0 * TILE, (7.5 - 11.0) * TILE + 12.0);
    commands.spawn((
        Hero,
        Collider::capsule(Vec2::new(0.0, -4.0), Vec2::new(0.0, 4.0), 6.0),
        Transform::from_translation(start.extend(5.0)),
        KinematicCharacter {
            step_height: TILE + 1.0,
            ..default()
        },
    ));
}

/// Runs and jumps by the keyboard, under gravity.
fn run_and_jump(
    keys: Res<ButtonInput<KeyCode>>,
    mut hero: Query<(&mut Velocity, &CharacterState), With<Hero>>,
) {
    let Ok((mut velocity, state)) = hero.single_mut() else {
        return;
    };
    let pressed = |codes: [KeyCode; 2]| keys.any_pressed(codes);
    let run = f32::from(i8::from(pressed([KeyCode::KeyD, KeyCode::ArrowRight])))
        - f32::from(i8::from(pressed([KeyCode::KeyA, KeyCode::ArrowLeft])));
    velocity.0.x = run * RUN;
    velocity.0.y -= GRAVITY / 64.0;
    if state.grounded {
        velocity.0.y = velocity.0.y.max(0.0);
        if keys.any_pressed([KeyCode::Space, KeyCode::KeyW, KeyCode::ArrowUp]) {
            velocity.0.y = JUMP;
        }
    }
}

/// Logs what the map became, whenever that changes: how many colliders, and of which kinds.
fn count_colliders(added: Query<(), Added<Collider>>, colliders: Query<&Collider, Without<Hero>>) {
    if added.is_empty() {
        return;
    }
    let mut kinds = std::collections::BTreeMap::<&str, usize>::new();
    for collider in &colliders {
        let kind = match collider {
            Collider::Polygon { .. } | Collider::ConvexPolygon { .. } => "polygon",
            Collider::Compound { .. } => "compound",
            Collider::Polyline { .. } => "polyline",
            _ => "other",
        };
        *kinds.entry(kind).or_default() += 1;
    }
    info!(
        "tiled: the map is {} colliders: {kinds:?}",
        colliders.iter().count()
    );
}

/// Logs once the hero has crossed the level onto the block at its right.
fn watch_hero(hero: Query<&Transform, With<Hero>>, mut crossed: ResMut<Crossed>) {
    let Ok(hero) = hero.single() else {
        return;
    };
    if !crossed.0 && hero.translation.x > 15.0 * TILE {
        crossed.0 = true;
        info!(
            "tiled: the hero crossed the level, at y = {:.1}",
            hero.translation.y
        );
    }
}

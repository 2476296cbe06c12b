//! A `bevy_ecs_tilemap` level as few colliders: the solid tiles (marked `SolidTile`) of a
//! 60 × 14 map are merged by `TilemapCollidersPlugin` into a handful of boxes (drawn in green
//! over the tiles), and a `KinematicCharacter` runs across them, up and down steps, under a
//! low ceiling and over a ridge, without catching on a seam.
//!
//! `cargo run --example tilemap --features tilemap,debug-draw`. `D`/`Right` and
//! `A`/`Left` run, `Space`/`W`/`Up` jumps. The log says how many tiles became how many
//! colliders, and when the hero has crossed the level.

#[path = "support/scripted.rs"]
mod scripted;

use bevy::prelude::*;
use bevy_ecs_tilemap::prelude::*;
use bevy_sweep::prelude::*;
use bevy_sweep::tilemap::{SolidTile, TilemapCollider, TilemapCollidersPlugin};
use scripted::ScriptedRun;

/// The level, top row first: `#` stone and `=` grass (solid), `~` background (not solid),
/// `.` nothing.
const LEVEL: [&str; 14] = [
    "############################################################",
    "#..........................................................#",
    "#..........................................................#",
    "#.......~~~~~~..............................~~~~~~.........#",
    "#.......~~~~~~............#########.........~~~~~~.........#",
    "#.......~~~~~~..............................~~~~~~.........#",
    "#..........................................................#",
    "#...................................######.................#",
    "#..............................===................====.....#",
    "#.........................=====###............====####===..#",
    "#.....................====########........====###########..#",
    "#=========......======############========###############==#",
    "##########======############################################",
    "############################################################",
];

/// Tiles of 16 units.
const TILE: f32 = 16.0;
/// The hero's running speed and jump, in units per second.
const RUN: f32 = 160.0;
const JUMP: f32 = 330.0;
const GRAVITY: f32 = 900.0;

#[derive(Component)]
struct Hero;

/// Whether the hero has crossed the level yet.
#[derive(Resource, Default)]
struct Crossed(bool);

fn main() {
    App::new()
        .add_plugins((
            DefaultPlugins.set(WindowPlugin {
                primary_window: Some(Window {
                    title: "tilemap".into(),
                    resolution: (1280, 720).into(),
                    ..default()
                }),
                ..default()
            }),
            TilemapPlugin,
            SweepPlugin {
                length_unit: 16.0,
                ..default()
            },
            TilemapCollidersPlugin,
            SweepDebugPlugin,
            ScriptedRun,
        ))
        .insert_resource(ClearColor(Color::srgb(0.05, 0.07, 0.10)))
        .init_resource::<Crossed>()
        .add_systems(Startup, setup)
        .add_systems(FixedUpdate, run_and_jump)
        .add_systems(Update, (count_colliders, watch_hero))
        .run();
}

fn setup(
    mut commands: Commands,
    asset_server: Res<AssetServer>,
    array_texture_loader: Res<ArrayTextureLoader>,
) {
    commands.spawn((
        Camera2d,
        Projection::Orthographic(OrthographicProjection {
            scale: 0.8,
            ..OrthographicProjection::default_2d()
        }),
    ));
    let texture = TilemapTexture::Single(asset_server.load("tilemap/tiles.png"));
    let size = TilemapSize {
        x: LEVEL[0].len() as u32,
        y: LEVEL.len() as u32,
    };
    let map = commands.spawn_empty().id();
    let mut storage = TileStorage::empty(size);
    for (row, line) in LEVEL.iter().enumerate() {
        // Row 0 of the map is the bottom: the last line.
        let y = size.y - 1 - row as u32;
        for (x, c) in line.bytes().enumerate() {
            let (index, solid) = match c {
                b'#' => (2, true),
                b'=' => (1, true),
                b'~' => (3, false),
                _ => continue,
            };
            let position = TilePos { x: x as u32, y };
            let mut tile = commands.spawn(TileBundle {
                position,
                tilemap_id: TilemapId(map),
                texture_index: TileTextureIndex(index),
                ..default()
            });
            if solid {
                tile.insert(SolidTile);
            }
            storage.set(&position, tile.id());
        }
    }
    let tile_size = TilemapTileSize { x: TILE, y: TILE };
    commands.entity(map).insert(TilemapBundle {
        grid_size: tile_size.into(),
        size,
        storage,
        texture: texture.clone(),
        tile_size,
        anchor: TilemapAnchor::Center,
        ..default()
    });
    array_texture_loader.add(TilemapArrayTexture {
        texture,
        tile_size,
        ..default()
    });
    // The hero, on the grass at the left.
    let start = Vec2::new(-27.0 * TILE, -3.0 * TILE + 12.0);
    commands.spawn((
        Hero,
        Collider::capsule(Vec2::new(0.0, -4.0), Vec2::new(0.0, 4.0), 6.0),
        Transform::from_translation(start.extend(1.0)),
        KinematicCharacter {
            step_height: TILE + 1.0,
            ..default()
        },
    ));
}

/// Runs and jumps by the keyboard, under gravity.
fn run_and_jump(
    keys: Res<ButtonInput<KeyCode>>,
    mut hero: Single<(&mut Velocity, &CharacterState), With<Hero>>,
) {
    let (velocity, state) = &mut *hero;
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

/// Logs how many tiles became how many colliders, whenever that changes.
fn count_colliders(
    colliders: Query<(), Added<TilemapCollider>>,
    all: Query<(), With<TilemapCollider>>,
    solid: Query<(), With<SolidTile>>,
) {
    if !colliders.is_empty() {
        info!(
            "tilemap: {} solid tiles as {} colliders",
            solid.iter().count(),
            all.iter().count()
        );
    }
}

/// Logs once the hero has crossed the level to its right end.
fn watch_hero(hero: Single<&Transform, With<Hero>>, mut crossed: ResMut<Crossed>) {
    if !crossed.0 && hero.translation.x > 26.0 * TILE {
        crossed.0 = true;
        info!(
            "tilemap: the hero crossed the level, at y = {:.1}",
            hero.translation.y
        );
    }
}

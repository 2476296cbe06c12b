//! A `bevy_ecs_tilemap` level as few colliders: the solid tiles (marked `SolidTile`) of a
//! 60 × 14 map are merged by `TilemapCollidersPlugin` into a handful of boxes (drawn in green
//! over the tiles), and a `KinematicCharacter` runs across them, up and down steps, under a
//! low ceiling and over a ridge, without catching on a seam.
//!
//! `cargo run --example tilemap --features tilemap,debug-draw`. `D`/`Right` and
//! `A`/`Left` run, `Space`/`W`/`Up` jumps. The log says how many tiles became how many
//! colliders, and when the hero has crossed the level.

#[path = "support/demo.rs"]
mod demo;
#[path = "support/level_hero.rs"]
mod level_hero;
#[path = "support/scripted.rs"]
mod scripted;

use bevy::prelude::*;
use bevy_ecs_tilemap::prelude::*;
use bevy_sweep::prelude::*;
use bevy_sweep::tilemap::{SolidTile, TilemapCollider, TilemapCollidersPlugin};
use level_hero::{LevelHero, hero};
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
fn main() {
    App::new()
        .add_plugins((
            DefaultPlugins.set(demo::window("tilemap", (1280, 720))),
            TilemapPlugin,
            SweepPlugin {
                length_unit: 16.0,
                ..default()
            },
            TilemapCollidersPlugin,
            SweepDebugPlugin,
            ScriptedRun,
            LevelHero {
                name: "tilemap",
                run: 160.0,
                jump: 330.0,
                finish_x: 26.0 * TILE,
            },
        ))
        .insert_resource(ClearColor(Color::srgb(0.05, 0.07, 0.10)))
        .add_systems(Startup, setup)
        .add_systems(Update, count_colliders)
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
    commands.spawn(hero(start, TILE));
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

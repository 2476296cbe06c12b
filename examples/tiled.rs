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

#[path = "support/demo.rs"]
mod demo;
#[path = "support/level_hero.rs"]
mod level_hero;
#[path = "support/scripted.rs"]
mod scripted;

use bevy::prelude::*;
use bevy_ecs_tiled::prelude::*;
use bevy_sweep::prelude::*;
use bevy_sweep::tiled::{TiledPolylinesPlugin, TiledSweepBackend};
use level_hero::{Hero, LevelHero, hero};
use scripted::ScriptedRun;

/// Tiles of 16 units; the map is 40 × 15 tiles, centred on the origin.
const TILE: f32 = 16.0;
fn main() {
    App::new()
        .add_plugins((
            DefaultPlugins
                .set(demo::window("tiled", (1280, 720)))
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
            LevelHero {
                name: "tiled",
                run: 120.0,
                jump: 300.0,
                finish_x: 15.0 * TILE,
            },
        ))
        .insert_resource(ClearColor(Color::srgb(0.05, 0.07, 0.10)))
        .add_systems(Startup, setup)
        .add_systems(Update, (spawn_hero, count_colliders))
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
    heroes: Query<(), With<Hero>>,
) {
    if colliders.is_empty() || !heroes.is_empty() {
        return;
    }
    // The grass at the left: the top of row 11 (of 15, from the top).
    let start = Vec2::new(-17.0 * TILE, (7.5 - 11.0) * TILE + 12.0);
    commands.spawn(hero(start, TILE));
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

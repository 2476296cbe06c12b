//! An LDtk level as `bevy_sweep` colliders, through `bevy_ecs_ldtk`: the level in
//! `assets/ldtk/level.ldtk` (built by `tests/ldtk.rs`) has an IntGrid layer of walls, whose
//! 150 solid cells `LdtkCollidersPlugin` merges into a few boxes, and an entity layer of
//! crates, each a box of its size. A `KinematicCharacter` runs across the level, over the
//! crates and a step.
//!
//! `cargo run --example ldtk --features ldtk,debug-draw`. `D`/`Right` and `A`/`Left` run,
//! `Space`/`W`/`Up` jumps. The log says how many colliders the level became, and when the hero
//! has crossed it.

#[path = "support/demo.rs"]
mod demo;
#[path = "support/level_hero.rs"]
mod level_hero;
#[path = "support/scripted.rs"]
mod scripted;

use bevy::prelude::*;
use bevy_ecs_ldtk::prelude::*;
use bevy_sweep::ldtk::{LdtkColliders, LdtkCollidersPlugin};
use bevy_sweep::prelude::*;
use bevy_sweep::tilemap::TilemapCollider;
use level_hero::{Hero, LevelHero, hero};
use scripted::ScriptedRun;

/// Cells of 16 units; the level is 40 × 15 cells, centred on the origin.
const TILE: f32 = 16.0;
fn main() {
    App::new()
        .add_plugins((
            DefaultPlugins
                .set(demo::window("ldtk", (1280, 720)))
                .set(ImagePlugin::default_nearest()),
            LdtkPlugin,
            LdtkCollidersPlugin(LdtkColliders {
                solid_values: vec![1],
                box_entities: vec!["Crate".into()],
            }),
            SweepPlugin {
                length_unit: TILE,
                ..default()
            },
            SweepDebugPlugin,
            ScriptedRun,
            LevelHero {
                name: "ldtk",
                run: 120.0,
                jump: 300.0,
                finish_x: 16.0 * TILE,
            },
        ))
        .insert_resource(ClearColor(Color::srgb(0.05, 0.07, 0.10)))
        .insert_resource(LevelSelection::index(0))
        .insert_resource(LdtkSettings {
            int_grid_rendering: IntGridRendering::Colorful,
            ..default()
        })
        .add_systems(Startup, setup)
        .add_systems(Update, (spawn_hero, paint_crates, count_colliders))
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
    // LDtk levels have their bottom left corner at the origin: centre this one.
    commands.spawn(LdtkWorldBundle {
        ldtk_handle: asset_server.load("ldtk/level.ldtk").into(),
        transform: Transform::from_xyz(-20.0 * TILE, -7.5 * TILE, 0.0),
        ..default()
    });
}

/// The hero, on the floor at the left, once the walls have their colliders (the level loads
/// in the background).
fn spawn_hero(
    mut commands: Commands,
    colliders: Query<(), With<TilemapCollider>>,
    heroes: Query<(), With<Hero>>,
) {
    if colliders.is_empty() || !heroes.is_empty() {
        return;
    }
    // The floor at the left: the top of row 12 (of 15, from the top).
    let start = Vec2::new(-17.0 * TILE, (7.5 - 12.0) * TILE + 12.0);
    commands.spawn(hero(start, TILE));
}

/// Draws each new entity (LDtk draws entities without a tile as nothing) in its colour.
fn paint_crates(
    mut commands: Commands,
    entities: Query<(Entity, &EntityInstance), Added<EntityInstance>>,
) {
    for (entity, instance) in &entities {
        let size = Vec2::new(instance.width as f32, instance.height as f32);
        commands
            .entity(entity)
            .insert(Sprite::from_color(instance.smart_color, size));
    }
}

/// Logs what the level became, whenever that changes: how many wall cells as how many
/// boxes, and how many crates.
fn count_colliders(
    added: Query<(), Added<Collider>>,
    walls: Query<(), With<TilemapCollider>>,
    cells: Query<&IntGridCell>,
    crates: Query<&EntityInstance, With<Collider>>,
) {
    if added.is_empty() {
        return;
    }
    info!(
        "ldtk: {} wall cells as {} colliders, {} crates",
        cells.iter().filter(|c| c.value == 1).count(),
        walls.iter().count(),
        crates.iter().count()
    );
}

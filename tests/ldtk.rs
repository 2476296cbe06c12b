//! The LDtk integration (feature `ldtk`): the level shipped in `assets/ldtk/` is the one this
//! file builds (`WRITE_LDTK=1 cargo test --features ldtk --test ldtk` writes it again), and
//! `LdtkCollidersPlugin` makes solid IntGrid cells a few merged boxes and boxed entities boxes.

use bevy::prelude::*;
use bevy_ecs_ldtk::EntityInstance;
use bevy_ecs_ldtk::ldtk::{
    Definitions, EntityDefinition, IntGridValueDefinition, LayerDefinition, LayerInstance,
    LdtkJson, Level, Type, WorldLayout,
};
use bevy_ecs_ldtk::prelude::IntGridCell;
use bevy_ecs_tilemap::prelude::*;
use bevy_sweep::ldtk::{LdtkColliders, LdtkCollidersPlugin};
use bevy_sweep::prelude::*;
use bevy_sweep::tilemap::{SolidTile, TilemapCollider};

/// The level, top row first: `#` a wall cell (IntGrid value 1), `C` a crate entity (16 × 16),
/// `.` nothing.
const LEVEL: [&str; 15] = [
    "########################################",
    "#......................................#",
    "#......................................#",
    "#......................................#",
    "#......................................#",
    "#......................................#",
    "#...........CC.........................#",
    "#......................................#",
    "#......................................#",
    "#......................................#",
    "#...................C..................#",
    "#.......C.......########.....C.........#",
    "########################################",
    "########################################",
    "########################################",
];
const GRID: i32 = 16;
const LAYER_UID: i32 = 1;
const CRATE_UID: i32 = 2;

/// The project: one level of 40 × 15 cells, an IntGrid layer `Walls` and an entity layer
/// `Entities` with crates.
fn project() -> LdtkJson {
    let (w, h) = (LEVEL[0].len() as i32, LEVEL.len() as i32);
    let cells = |c: u8| {
        LEVEL.iter().enumerate().flat_map(move |(y, row)| {
            row.bytes()
                .enumerate()
                .filter(move |&(_, b)| b == c)
                .map(move |(x, _)| IVec2::new(x as i32, y as i32))
        })
    };
    let walls = LayerInstance {
        c_wid: w,
        c_hei: h,
        grid_size: GRID,
        identifier: "Walls".into(),
        opacity: 1.0,
        layer_instance_type: Type::IntGrid,
        iid: "walls-layer".into(),
        int_grid_csv: LEVEL
            .iter()
            .flat_map(|row| row.bytes().map(|b| i32::from(b == b'#')))
            .collect(),
        layer_def_uid: LAYER_UID,
        visible: true,
        ..default()
    };
    let crates = cells(b'C')
        .enumerate()
        .map(|(k, at)| EntityInstance {
            grid: at,
            identifier: "Crate".into(),
            smart_color: Color::srgb_u8(0xd0, 0x90, 0x40),
            def_uid: CRATE_UID,
            width: GRID,
            height: GRID,
            iid: format!("crate-{k}"),
            px: at * GRID,
            ..default()
        })
        .collect();
    let entities = LayerInstance {
        c_wid: w,
        c_hei: h,
        grid_size: GRID,
        identifier: "Entities".into(),
        opacity: 1.0,
        layer_instance_type: Type::Entities,
        iid: "entities-layer".into(),
        entity_instances: crates,
        layer_def_uid: LAYER_UID + 2,
        visible: true,
        ..default()
    };
    LdtkJson {
        bg_color: Color::srgb_u8(0x10, 0x14, 0x1c),
        default_grid_size: GRID,
        default_level_bg_color: Color::srgb_u8(0x10, 0x14, 0x1c),
        defs: Definitions {
            entities: vec![EntityDefinition {
                color: Color::srgb_u8(0xd0, 0x90, 0x40),
                identifier: "Crate".into(),
                uid: CRATE_UID,
                width: GRID,
                height: GRID,
                fill_opacity: 1.0,
                line_opacity: 1.0,
                ..default()
            }],
            layers: vec![
                LayerDefinition {
                    layer_definition_type: "Entities".into(),
                    purple_type: Type::Entities,
                    identifier: "Entities".into(),
                    uid: LAYER_UID + 2,
                    grid_size: GRID,
                    display_opacity: 1.0,
                    ..default()
                },
                LayerDefinition {
                    layer_definition_type: "IntGrid".into(),
                    purple_type: Type::IntGrid,
                    identifier: "Walls".into(),
                    uid: LAYER_UID,
                    grid_size: GRID,
                    display_opacity: 1.0,
                    int_grid_values: vec![IntGridValueDefinition {
                        color: Color::srgb_u8(0x70, 0x78, 0x88),
                        identifier: Some("wall".into()),
                        value: 1,
                        ..default()
                    }],
                    ..default()
                },
            ],
            ..default()
        },
        iid: "bevy-sweep-ldtk-example".into(),
        json_version: "1.5.3".into(),
        levels: vec![Level {
            bg_color: Color::srgb_u8(0x10, 0x14, 0x1c),
            smart_color: Color::srgb_u8(0xff, 0xff, 0xff),
            identifier: "Level_0".into(),
            iid: "level-0".into(),
            // Entities drawn over the walls: the first layer is the top one.
            layer_instances: Some(vec![entities, walls]),
            px_wid: w * GRID,
            px_hei: h * GRID,
            uid: 0,
            ..default()
        }],
        next_uid: 4,
        world_layout: Some(WorldLayout::Free),
        ..default()
    }
}

#[test]
fn the_shipped_level_is_the_one_built_here() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/ldtk/level.ldtk");
    if std::env::var_os("WRITE_LDTK").is_some() {
        let text = serde_json::to_string_pretty(&project()).expect("serializable");
        std::fs::write(path, text + "\n").expect("written");
    }
    let text = std::fs::read_to_string(path).expect("assets/ldtk/level.ldtk");
    let shipped: LdtkJson = serde_json::from_str(&text).expect("an LDtk project");
    assert_eq!(shipped, project());
}

/// A tilemap as `bevy_ecs_ldtk` spawns an IntGrid layer (tiles with `IntGridCell`), and
/// crates as it spawns entities (an `EntityInstance` with a transform scaled from the
/// definition's size to the instance's).
#[test]
fn walls_merge_into_few_boxes_and_crates_are_boxes() {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        SweepPlugin::default(),
        LdtkCollidersPlugin(LdtkColliders {
            solid_values: vec![1],
            box_entities: vec!["Crate".into()],
        }),
    ));
    let size = TilemapSize {
        x: LEVEL[0].len() as u32,
        y: LEVEL.len() as u32,
    };
    let map = app.world_mut().spawn_empty().id();
    let mut storage = TileStorage::empty(size);
    let mut walls = 0;
    for (row, line) in LEVEL.iter().enumerate() {
        for (x, c) in line.bytes().enumerate() {
            let position = TilePos {
                x: x as u32,
                y: size.y - 1 - row as u32,
            };
            // Every cell is a tile: 0 where nothing is (as LDtk's CSV has it), 2 for crates.
            let value = match c {
                b'#' => 1,
                b'C' => 2,
                _ => 0,
            };
            walls += usize::from(value == 1);
            let tile = app
                .world_mut()
                .spawn((
                    TileBundle {
                        position,
                        tilemap_id: TilemapId(map),
                        ..default()
                    },
                    IntGridCell { value },
                ))
                .id();
            storage.set(&position, tile);
        }
    }
    app.world_mut().entity_mut(map).insert((
        storage,
        size,
        TilemapGridSize { x: 16.0, y: 16.0 },
        TilemapTileSize { x: 16.0, y: 16.0 },
        TilemapType::Square,
        Transform::default(),
    ));
    let crate_box = app
        .world_mut()
        .spawn((
            EntityInstance {
                identifier: "Crate".into(),
                width: 32,
                height: 16,
                ..default()
            },
            Transform::from_xyz(100.0, 50.0, 0.0).with_scale(Vec3::new(2.0, 1.0, 1.0)),
        ))
        .id();
    let other = app
        .world_mut()
        .spawn((
            EntityInstance {
                identifier: "Lamp".into(),
                width: 16,
                height: 16,
                ..default()
            },
            Transform::default(),
        ))
        .id();
    app.update();
    app.update();
    let world = app.world_mut();
    let solid = world.query::<&SolidTile>().iter(world).count();
    assert_eq!(solid, walls, "every wall cell and nothing else is solid");
    let boxes = world.query::<&TilemapCollider>().iter(world).count();
    // The border, the floor and the raised step: a handful of boxes for 150 cells.
    assert!((1..=8).contains(&boxes), "{boxes} boxes for {walls} cells");
    assert_eq!(
        world.get::<Collider>(crate_box),
        Some(&Collider::aabb(Vec2::new(8.0, 8.0))),
        "a crate 32 × 16 under a scale of 2 × 1"
    );
    assert!(world.get::<Collider>(other).is_none());
}

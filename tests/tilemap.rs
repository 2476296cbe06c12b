//! `bevy_ecs_tilemap` levels (feature `tilemap`): `TilemapCollidersPlugin` keeps a square
//! tilemap's `SolidTile`s merged into few colliders, where the tiles are drawn.
//!
//! The oracle is `bevy_ecs_tilemap`'s own projection (`TilePos::center_in_world`): on random
//! maps, anchors, grid sizes and transforms, every solid tile's centre is inside exactly one
//! collider and every other tile's centre inside none, as the sweep's queries find them.

#[allow(
    dead_code,
    unused_imports,
    reason = "each test binary uses some of the shared helpers"
)]
mod common;

use bevy::prelude::*;
use bevy_ecs_tilemap::prelude::*;
use bevy_sweep::prelude::*;
use bevy_sweep::tilemap::{SolidTile, TilemapCollider, TilemapCollidersPlugin};
use common::*;

/// Spawns a `size` tilemap whose tiles are solid where `solid` says; returns the map's
/// entity and the tiles, row by row.
fn spawn_map(
    app: &mut App,
    size: TilemapSize,
    grid: TilemapGridSize,
    anchor: TilemapAnchor,
    at: Transform,
    solid: impl Fn(u32, u32) -> bool,
) -> (Entity, Vec<Entity>) {
    let map = app.world_mut().spawn_empty().id();
    let mut storage = TileStorage::empty(size);
    let mut tiles = Vec::new();
    for y in 0..size.y {
        for x in 0..size.x {
            let position = TilePos { x, y };
            let mut tile = app.world_mut().spawn(TileBundle {
                position,
                tilemap_id: TilemapId(map),
                ..default()
            });
            if solid(x, y) {
                tile.insert(SolidTile);
            }
            let tile = tile.id();
            storage.set(&position, tile);
            tiles.push(tile);
        }
    }
    app.world_mut().entity_mut(map).insert((
        storage,
        size,
        grid,
        TilemapTileSize {
            x: grid.x,
            y: grid.y,
        },
        TilemapType::Square,
        anchor,
        at,
    ));
    (map, tiles)
}

/// How many colliders the queries find at each tile's centre, checked against the tiles'
/// marks; and the number of colliders the map has.
fn check(app: &mut App, map: Entity, what: &str) -> usize {
    // The colliders are made in PostUpdate; the next tick publishes them to the queries.
    tick(app);
    tick(app);
    let world = app.world_mut();
    let mut maps = world.query::<(
        &TileStorage,
        &TilemapSize,
        &TilemapGridSize,
        &TilemapTileSize,
        &TilemapType,
        &TilemapAnchor,
        &Transform,
    )>();
    let (storage, size, grid, tile_size, kind, anchor, at) = maps.get(world, map).unwrap();
    let (storage, size, grid, tile_size, kind, anchor, at) = (
        storage.clone(),
        *size,
        *grid,
        *tile_size,
        *kind,
        *anchor,
        *at,
    );
    let mut state = bevy::ecs::system::SystemState::<SweepQuery>::new(world);
    let world: &World = world;
    let query = state.get(world).expect("the sweep's query");
    let mut hits = Vec::new();
    for y in 0..size.y {
        for x in 0..size.x {
            let position = TilePos { x, y };
            let local = position.center_in_world(&size, &grid, &tile_size, &kind, &anchor);
            let centre = at.transform_point(local.extend(0.0)).truncate();
            query.point_hits(centre, &QueryFilter::default(), &mut hits);
            let tile = storage.get(&position).unwrap();
            let expected = usize::from(world.get::<SolidTile>(tile).is_some());
            assert_eq!(hits.len(), expected, "{what}: tile ({x}, {y}) at {centre}");
        }
    }
    world
        .iter_entities()
        .filter(|e| e.get::<TilemapCollider>().is_some_and(|c| c.0 == map))
        .count()
}

/// Random maps, anchors, grid sizes and transforms: each solid tile is inside one collider,
/// each other tile in none; there are fewer colliders than solid tiles.
#[test]
fn colliders_cover_the_solid_tiles_where_they_are_drawn() {
    let anchors = [
        TilemapAnchor::None,
        TilemapAnchor::Center,
        TilemapAnchor::BottomLeft,
        TilemapAnchor::TopRight,
        TilemapAnchor::Custom(Vec2::new(0.2, -0.3)),
    ];
    let mut seed = 0x5eed_u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for (k, anchor) in anchors.into_iter().enumerate() {
        let mut app = app_with_tilemaps();
        let size = TilemapSize {
            x: 5 + (next() % 20) as u32,
            y: 3 + (next() % 12) as u32,
        };
        let grid = TilemapGridSize {
            x: [16.0, 8.0, 32.0, 12.5, 16.0][k],
            y: [16.0, 8.0, 16.0, 12.5, 24.0][k],
        };
        let at = Transform::from_xyz(-100.0 + 37.0 * k as f32, 55.0 - 20.0 * k as f32, 0.0);
        let fill: Vec<bool> = (0..size.x * size.y).map(|_| next() % 3 != 0).collect();
        let solid = |x: u32, y: u32| fill[(y * size.x + x) as usize];
        let solid_count = fill.iter().filter(|&&s| s).count();
        let (map, _) = spawn_map(&mut app, size, grid, anchor, at, solid);
        let colliders = check(&mut app, map, &format!("{anchor:?}"));
        assert!(
            colliders > 0 && colliders < solid_count,
            "{anchor:?}: {colliders} colliders for {solid_count} solid tiles"
        );
    }
}

/// Marking and unmarking tiles builds the colliders again; a floor of 20 tiles is one.
#[test]
fn marking_tiles_rebuilds_the_colliders() {
    let mut app = app_with_tilemaps();
    let size = TilemapSize { x: 10, y: 4 };
    let grid = TilemapGridSize { x: 16.0, y: 16.0 };
    let (map, tiles) = spawn_map(
        &mut app,
        size,
        grid,
        TilemapAnchor::None,
        Transform::default(),
        |_, y| y < 2,
    );
    assert_eq!(check(&mut app, map, "a floor"), 1);
    // A pillar on the floor, then a hole in the floor.
    app.world_mut()
        .entity_mut(tiles[2 * 10 + 4])
        .insert(SolidTile);
    app.world_mut()
        .entity_mut(tiles[3 * 10 + 4])
        .insert(SolidTile);
    assert_eq!(check(&mut app, map, "a pillar"), 2);
    app.world_mut().entity_mut(tiles[7]).remove::<SolidTile>();
    assert_eq!(check(&mut app, map, "a hole"), 4);
}

/// A ball dropped on a tilemap's floor lands on it.
#[test]
fn a_ball_lands_on_the_tiles() {
    let mut app = app_with_tilemaps();
    let (map, _) = spawn_map(
        &mut app,
        TilemapSize { x: 20, y: 3 },
        TilemapGridSize { x: 16.0, y: 16.0 },
        TilemapAnchor::BottomLeft,
        Transform::from_xyz(-160.0, -100.0, 0.0),
        |_, y| y == 0,
    );
    check(&mut app, map, "a floor");
    let ball = app
        .world_mut()
        .spawn((
            Collider::circle(4.0),
            Transform::from_xyz(0.0, 0.0, 0.0),
            Velocity(Vec2::new(0.0, -3_000.0)),
            Response::Stop,
        ))
        .id();
    for _ in 0..30 {
        tick(&mut app);
    }
    let y = app.world().get::<Transform>(ball).unwrap().translation.y;
    // The floor's top is at -100 + 16.
    assert!((y - (-84.0 + 4.0)).abs() < 0.01, "the ball at y = {y}");
}

fn app_with_tilemaps() -> App {
    let mut app = app();
    app.add_plugins(TilemapCollidersPlugin);
    app
}

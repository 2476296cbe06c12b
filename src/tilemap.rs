//! `bevy_ecs_tilemap` levels as few colliders (cargo feature `tilemap`):
//! [`TilemapCollidersPlugin`].
//!
//! Mark the solid tiles with [`SolidTile`]; the plugin merges each square tilemap's solid
//! tiles into rectangles ([`TileGrid::merged`](crate::tiles::TileGrid::merged)) and keeps
//! one axis-aligned box collider per rectangle as a child of the tilemap's entity, where the
//! tiles are drawn (its grid size, anchor and transform). It builds them again when a tile
//! is marked or unmarked, or the map's storage, size or anchor changes.
//!
//! ```
//! use bevy::prelude::*;
//! use bevy_ecs_tilemap::prelude::*;
//! use bevy_sweep::prelude::*;
//! use bevy_sweep::tilemap::{SolidTile, TilemapCollidersPlugin, TilemapCollider};
//!
//! let mut app = App::new();
//! app.add_plugins((MinimalPlugins, SweepPlugin::default(), TilemapCollidersPlugin));
//! // A 10 × 4 map of 16-pixel tiles: a floor two tiles thick.
//! let size = TilemapSize { x: 10, y: 4 };
//! let map = app.world_mut().spawn_empty().id();
//! let mut storage = TileStorage::empty(size);
//! for x in 0..size.x {
//!     for y in 0..2 {
//!         let position = TilePos { x, y };
//!         let tile = app
//!             .world_mut()
//!             .spawn((TileBundle { position, tilemap_id: TilemapId(map), ..default() }, SolidTile))
//!             .id();
//!         storage.set(&position, tile);
//!     }
//! }
//! app.world_mut().entity_mut(map).insert((
//!     storage,
//!     size,
//!     TilemapGridSize { x: 16.0, y: 16.0 },
//!     TilemapTileSize { x: 16.0, y: 16.0 },
//!     TilemapType::Square,
//!     Transform::default(),
//! ));
//! app.update();
//! // One collider for the 20 tiles.
//! let mut colliders = app.world_mut().query::<&TilemapCollider>();
//! assert_eq!(colliders.iter(app.world()).count(), 1);
//! ```

use crate::tiles::TileGrid;
use bevy::app::{App, Plugin, PostUpdate};
use bevy::ecs::prelude::*;
use bevy::math::Vec2;
use bevy::platform::collections::HashSet;
use bevy::reflect::prelude::*;
use bevy_ecs_tilemap::prelude::{
    TileStorage, TilemapAnchor, TilemapGridSize, TilemapId, TilemapSize, TilemapTileSize,
    TilemapType,
};
use bevy_ecs_tilemap::tiles::TilePos;

/// A tile that is solid: the plugin merges it with its solid neighbours into a collider.
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[reflect(Component, Debug, Default, PartialEq, Clone)]
pub struct SolidTile;

/// A collider the plugin made from a tilemap's solid tiles (a child of the tilemap's
/// entity): `0` is the tilemap. Despawned and made again when the tiles change.
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq, Eq)]
#[reflect(Component, Debug, PartialEq, Clone)]
pub struct TilemapCollider(pub Entity);

/// Keeps each square `bevy_ecs_tilemap` tilemap's [`SolidTile`]s merged into few colliders.
/// See the [module docs](self).
#[derive(Default)]
pub struct TilemapCollidersPlugin;

impl Plugin for TilemapCollidersPlugin {
    fn build(&self, app: &mut App) {
        app.register_type::<SolidTile>()
            .register_type::<TilemapCollider>()
            .add_systems(PostUpdate, build_tilemap_colliders);
    }
}

/// The tilemaps: their tiles, grid, tile size, kind and anchor (the default if none).
type Maps<'w, 's> = Query<
    'w,
    's,
    (
        Entity,
        Ref<'static, TileStorage>,
        Ref<'static, TilemapGridSize>,
        &'static TilemapTileSize,
        &'static TilemapType,
        Option<Ref<'static, TilemapAnchor>>,
    ),
>;

/// Builds the colliders of the tilemaps whose solid tiles, storage, grid or anchor changed.
fn build_tilemap_colliders(
    mut commands: Commands,
    maps: Maps,
    marked: Query<&TilemapId, Added<SolidTile>>,
    mut unmarked: RemovedComponents<SolidTile>,
    tiles: Query<&TilemapId>,
    solid: Query<(), With<SolidTile>>,
    existing: Query<(Entity, &TilemapCollider)>,
    mut warned: Local<HashSet<Entity>>,
) {
    let mut changed: HashSet<Entity> = marked.iter().map(|id| id.0).collect();
    // (A tile despawned with its mark is caught by the storage's change.)
    changed.extend(
        unmarked
            .read()
            .filter_map(|tile| tiles.get(tile).ok().map(|id| id.0)),
    );
    for (map, storage, grid_size, tile_size, map_type, anchor) in &maps {
        let touched = changed.contains(&map)
            || storage.is_changed()
            || grid_size.is_changed()
            || anchor.as_ref().is_some_and(Ref::is_changed);
        if !touched {
            continue;
        }
        for (collider, of) in &existing {
            if of.0 == map {
                commands.entity(collider).despawn();
            }
        }
        if *map_type != TilemapType::Square {
            if warned.insert(map) {
                log::warn!(
                    "bevy_sweep: tilemap {map} is not square ({map_type:?}); only square \
                     tilemaps get colliders"
                );
            }
            continue;
        }
        let size = storage.size;
        let Some(grid) = TileGrid::from_fn(size.x, size.y, |cell| {
            storage
                .get(&TilePos::new(cell.x, cell.y))
                .is_some_and(|tile| solid.contains(tile))
        }) else {
            if warned.insert(map) {
                log::warn!("bevy_sweep: tilemap {map} is too large for colliders ({size:?})");
            }
            continue;
        };
        let cell = Vec2::new(grid_size.x, grid_size.y);
        let map_size = TilemapSize {
            x: size.x,
            y: size.y,
        };
        // Tile (0, 0)'s centre is at the anchor's offset; the grid's corner half a cell
        // below and left of it.
        let anchor = anchor.map(|a| *a).unwrap_or_default();
        let offset = anchor.as_offset(&map_size, &grid_size, tile_size, map_type) - cell / 2.0;
        let colliders = grid.colliders(cell);
        if colliders.is_empty() && grid.solid_count() > 0 && warned.insert(map) {
            log::warn!(
                "bevy_sweep: tilemap {map} has a grid size of {cell}, which cannot make \
                 colliders"
            );
        }
        for (collider, mut at) in colliders {
            at.translation += offset.extend(0.0);
            commands.spawn((collider, at, TilemapCollider(map), ChildOf(map)));
        }
    }
}

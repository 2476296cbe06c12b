//! LDtk levels through `bevy_ecs_ldtk` (cargo feature `ldtk`): [`LdtkCollidersPlugin`].
//!
//! The IntGrid cells whose values are in [`LdtkColliders::solid_values`] are marked
//! [`SolidTile`]: `bevy_ecs_ldtk` spawns an IntGrid layer as a `bevy_ecs_tilemap` tilemap, so
//! the [`TilemapCollidersPlugin`] (added with this plugin) merges each layer's solid cells
//! into few axis-aligned boxes. The entities whose identifiers are in
//! [`LdtkColliders::box_entities`] get a [`Collider::aabb`] of their size.
//!
//! ```no_run
//! use bevy::prelude::*;
//! use bevy_ecs_ldtk::prelude::*;
//! use bevy_sweep::ldtk::{LdtkColliders, LdtkCollidersPlugin};
//! use bevy_sweep::prelude::*;
//!
//! App::new()
//!     .add_plugins((DefaultPlugins, LdtkPlugin, SweepPlugin::default()))
//!     .add_plugins(LdtkCollidersPlugin(LdtkColliders {
//!         solid_values: vec![1],
//!         box_entities: vec!["Crate".into()],
//!     }))
//!     .insert_resource(LevelSelection::index(0))
//!     .add_systems(Startup, |mut commands: Commands, assets: Res<AssetServer>| {
//!         commands.spawn(LdtkWorldBundle {
//!             ldtk_handle: assets.load("ldtk/level.ldtk").into(),
//!             ..default()
//!         });
//!     })
//!     .run();
//! ```

use crate::prelude::Collider;
use crate::tilemap::{SolidTile, TilemapCollidersPlugin};
use bevy::app::{App, Plugin, PreUpdate};
use bevy::ecs::prelude::*;
use bevy::math::Vec2;
use bevy::reflect::prelude::*;
use bevy::transform::components::Transform;
use bevy_ecs_ldtk::EntityInstance;
use bevy_ecs_ldtk::prelude::IntGridCell;

/// Which parts of an LDtk level become colliders.
#[derive(Resource, Reflect, Clone, Debug, Default, PartialEq, Eq)]
#[reflect(Resource, Debug, Default, PartialEq, Clone)]
pub struct LdtkColliders {
    /// The IntGrid values of solid cells (walls, floors), merged per layer into boxes.
    pub solid_values: Vec<i32>,
    /// The identifiers of the entities that get an axis-aligned box of their size (crates,
    /// platforms).
    pub box_entities: Vec<String>,
}

/// Makes LDtk levels' solid IntGrid cells and chosen entities colliders. See the [module
/// docs](self).
#[derive(Default)]
pub struct LdtkCollidersPlugin(pub LdtkColliders);

impl Plugin for LdtkCollidersPlugin {
    fn build(&self, app: &mut App) {
        if !app.is_plugin_added::<TilemapCollidersPlugin>() {
            app.add_plugins(TilemapCollidersPlugin);
        }
        app.register_type::<LdtkColliders>()
            .insert_resource(self.0.clone())
            .add_systems(PreUpdate, (mark_solid_cells, box_entities));
    }
}

/// Marks each new IntGrid cell with a solid value [`SolidTile`].
fn mark_solid_cells(
    mut commands: Commands,
    settings: Res<LdtkColliders>,
    cells: Query<(Entity, &IntGridCell), Added<IntGridCell>>,
) {
    for (entity, cell) in &cells {
        if settings.solid_values.contains(&cell.value) {
            commands.entity(entity).insert(SolidTile);
        }
    }
}

/// Gives each new entity of a boxed kind a [`Collider::aabb`] of its size (in its
/// transform's frame, which `bevy_ecs_ldtk` scales from the entity's definition to the
/// instance, and centres on it).
fn box_entities(
    mut commands: Commands,
    settings: Res<LdtkColliders>,
    entities: Query<(Entity, &EntityInstance, &Transform), Added<EntityInstance>>,
) {
    for (entity, instance, transform) in &entities {
        if !settings.box_entities.contains(&instance.identifier) {
            continue;
        }
        let size = Vec2::new(instance.width as f32, instance.height as f32);
        let half = size / 2.0 / transform.scale.truncate();
        if half.is_finite() && half.cmpgt(Vec2::ZERO).all() {
            commands.entity(entity).insert(Collider::aabb(half));
        } else {
            log::warn!(
                "bevy_sweep: LDtk entity {entity} ({}) has no size: it has no collider",
                instance.identifier
            );
        }
    }
}

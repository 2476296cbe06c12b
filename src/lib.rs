#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

pub mod broad;
pub mod geometry;
pub mod narrow;

#[cfg(feature = "plugin")]
mod plugin;

#[cfg(feature = "plugin")]
pub use plugin::{SweepDiagnosticsPlugin, SweepPlugin, SweepSettings, SweepSystems};

/// Components, events and resources of the plugin.
#[cfg(feature = "plugin")]
pub mod components {
    pub use crate::plugin::{
        AngularVelocity, Body, Collider, CollidingEntities, CollisionLayers, SweptPath, Teleport,
        Velocity,
    };
}

/// Events and the contact state.
#[cfg(feature = "plugin")]
pub mod events {
    pub use crate::narrow::Feature;
    pub use crate::plugin::{
        CollisionEvent, CollisionKind, Contact, Contacts, SkippedColliders, SweepStats,
    };
}

/// Spatial queries: [`SweepQuery`](query::SweepQuery).
#[cfg(feature = "plugin")]
pub mod query {
    pub use crate::plugin::{PointProjection, QueryFilter, RayHit, ShapeCastHit, SweepQuery};
}

/// Everything a game needs: `use bevy_sweep::prelude::*;`.
#[cfg(feature = "plugin")]
pub mod prelude {
    pub use crate::components::*;
    #[cfg(feature = "debug-draw")]
    pub use crate::debug::{SweepDebugPlugin, SweepDebugSettings};
    pub use crate::events::*;
    pub use crate::query::*;
    pub use crate::{SweepDiagnosticsPlugin, SweepPlugin, SweepSettings, SweepSystems};
}

#[cfg(feature = "debug-draw")]
pub mod debug;

//! [`CollisionLayers`]: which pairs are tested at all.

use bevy::ecs::prelude::*;
use bevy::reflect::prelude::*;

/// Which pairs are tested at all: `a` and `b` are swept against each other only if
/// `a.memberships & b.filters != 0` and `b.memberships & a.filters != 0`.
///
/// The default is member of every layer, interacting with every layer.
///
/// ```
/// use bevy_sweep::prelude::*;
///
/// const PLAYER: u32 = 1 << 0;
/// const ENEMY: u32 = 1 << 1;
/// const BULLET: u32 = 1 << 2;
/// // Bullets hit enemies, and nothing else.
/// let bullet = CollisionLayers::new(BULLET, ENEMY);
/// let enemy = CollisionLayers::new(ENEMY, PLAYER | BULLET);
/// let player = CollisionLayers::new(PLAYER, ENEMY);
/// assert!(bullet.interacts_with(&enemy));
/// assert!(!bullet.interacts_with(&player));
/// ```
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[reflect(Component, Debug, Default, PartialEq, Clone)]
pub struct CollisionLayers {
    /// The layers this collider belongs to.
    pub memberships: u32,
    /// The layers this collider interacts with.
    pub filters: u32,
}

impl CollisionLayers {
    /// Member of every layer, interacting with every layer.
    pub const ALL: Self = Self {
        memberships: u32::MAX,
        filters: u32::MAX,
    };
    /// Member of no layer and interacting with none: never tested.
    pub const NONE: Self = Self {
        memberships: 0,
        filters: 0,
    };

    /// Layers from bit masks.
    #[must_use]
    pub const fn new(memberships: u32, filters: u32) -> Self {
        Self {
            memberships,
            filters,
        }
    }

    /// `true` if a pair with these two layer sets is tested (the relation is symmetric).
    #[must_use]
    pub const fn interacts_with(&self, other: &Self) -> bool {
        self.memberships & other.filters != 0 && other.memberships & self.filters != 0
    }
}

impl Default for CollisionLayers {
    fn default() -> Self {
        Self::ALL
    }
}

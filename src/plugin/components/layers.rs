//! [`CollisionLayers`]: which pairs are tested at all, from named layers ([`CollisionLayer`])
//! or raw masks ([`LayerMask`]).

use core::ops::{BitAnd, BitOr, BitOrAssign, Not};

use bevy::ecs::prelude::*;
use bevy::reflect::prelude::*;

/// An enum whose variants name collision layers: `#[derive(CollisionLayer)]` on an enum of unit
/// variants (at most 32) makes its n-th variant, in declaration order, the layer `1 << n`.
///
/// ```
/// use bevy_sweep::prelude::*;
///
/// #[derive(CollisionLayer)]
/// enum Layer {
///     Player, // 0b001
///     Ground, // 0b010
///     Enemy,  // 0b100
/// }
///
/// assert_eq!(Layer::Enemy.to_bits(), 0b100);
/// assert_eq!(Layer::all_bits(), 0b111);
/// let player = CollisionLayers::new(Layer::Player, [Layer::Ground, Layer::Enemy]);
/// assert_eq!(player, CollisionLayers::from_bits(0b001, 0b110));
/// ```
///
/// Implementing it by hand is as good: `to_bits` gives each value its mask (usually one bit,
/// but a value may stand for several layers), `all_bits` every layer of the type.
pub trait CollisionLayer {
    /// This layer's mask.
    fn to_bits(&self) -> u32;
    /// The mask of every layer of this type.
    fn all_bits() -> u32
    where
        Self: Sized;
}

pub use bevy_sweep_macros::CollisionLayer;

/// A set of layers: a `u32` with one bit per layer. Everything that names layers converts into
/// it: a raw `u32` mask, one [`CollisionLayer`] value, or an array of them.
///
/// ```
/// use bevy_sweep::prelude::*;
///
/// #[derive(CollisionLayer)]
/// enum Layer {
///     Player,
///     Ground,
/// }
///
/// assert_eq!(LayerMask::from([Layer::Player, Layer::Ground]), LayerMask(0b11));
/// assert_eq!(LayerMask::from(Layer::Ground) | LayerMask(0b100), LayerMask(0b110));
/// assert_eq!(LayerMask::from(0b1u32), LayerMask::from(Layer::Player));
/// ```
#[derive(Reflect, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[reflect(Debug, Default, PartialEq, Clone)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct LayerMask(pub u32);

impl LayerMask {
    /// Every layer.
    pub const ALL: Self = Self(u32::MAX);
    /// No layer.
    pub const NONE: Self = Self(0);

    /// `true` if `self` and `other` share a layer.
    #[must_use]
    pub const fn intersects(self, other: Self) -> bool {
        self.0 & other.0 != 0
    }
}

impl From<u32> for LayerMask {
    fn from(bits: u32) -> Self {
        Self(bits)
    }
}

impl From<LayerMask> for u32 {
    fn from(mask: LayerMask) -> Self {
        mask.0
    }
}

impl<L: CollisionLayer> From<L> for LayerMask {
    fn from(layer: L) -> Self {
        Self(layer.to_bits())
    }
}

impl<L: Into<LayerMask>, const N: usize> From<[L; N]> for LayerMask {
    fn from(layers: [L; N]) -> Self {
        layers
            .into_iter()
            .fold(Self::NONE, |mask, layer| mask | layer.into())
    }
}

impl BitOr for LayerMask {
    type Output = Self;
    fn bitor(self, other: Self) -> Self {
        Self(self.0 | other.0)
    }
}

impl BitOrAssign for LayerMask {
    fn bitor_assign(&mut self, other: Self) {
        self.0 |= other.0;
    }
}

impl BitAnd for LayerMask {
    type Output = Self;
    fn bitand(self, other: Self) -> Self {
        Self(self.0 & other.0)
    }
}

impl Not for LayerMask {
    type Output = Self;
    fn not(self) -> Self {
        Self(!self.0)
    }
}

/// Which pairs are tested at all: `a` and `b` are swept against each other only if
/// `a.memberships & b.filters != 0` and `b.memberships & a.filters != 0`.
///
/// The default is member of every layer, interacting with every layer. Name the layers with an
/// enum that derives [`CollisionLayer`], or give raw `u32` masks:
///
/// ```
/// use bevy_sweep::prelude::*;
///
/// #[derive(CollisionLayer)]
/// enum Layer {
///     Player,
///     Enemy,
///     Bullet,
/// }
///
/// // Bullets hit enemies, and nothing else.
/// let bullet = CollisionLayers::new(Layer::Bullet, Layer::Enemy);
/// let enemy = CollisionLayers::new(Layer::Enemy, [Layer::Player, Layer::Bullet]);
/// let player = CollisionLayers::new(Layer::Player, Layer::Enemy);
/// assert!(bullet.interacts_with(&enemy));
/// assert!(!bullet.interacts_with(&player));
///
/// // The same with raw masks: `new`, or `from_bits` (a `const fn`).
/// assert_eq!(enemy, CollisionLayers::new(0b010, 0b101));
/// const ENEMY: CollisionLayers = CollisionLayers::from_bits(0b010, 0b101);
/// assert_eq!(enemy, ENEMY);
/// ```
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[reflect(Component, Debug, Default, PartialEq, Clone)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct CollisionLayers {
    /// The layers this collider belongs to.
    pub memberships: u32,
    /// The layers this collider interacts with.
    pub filters: u32,
}

impl CollisionLayers {
    /// Member of every layer, interacting with every layer.
    pub const ALL: Self = Self::from_bits(u32::MAX, u32::MAX);
    /// Member of no layer and interacting with none: never tested. (To switch a collider off
    /// for a while, [`ColliderDisabled`](crate::prelude::ColliderDisabled) says so by name.)
    pub const NONE: Self = Self::from_bits(0, 0);

    /// Layers from what this collider belongs to and what it interacts with: each a
    /// [`CollisionLayer`] value, an array of them, a [`LayerMask`] or a `u32` mask.
    /// In a `const`, use [`Self::from_bits`]; for no layer, [`LayerMask::NONE`] (an empty
    /// array has no type to infer).
    #[must_use]
    pub fn new(memberships: impl Into<LayerMask>, filters: impl Into<LayerMask>) -> Self {
        Self::from_bits(memberships.into().0, filters.into().0)
    }

    /// Layers from bit masks.
    #[must_use]
    pub const fn from_bits(memberships: u32, filters: u32) -> Self {
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

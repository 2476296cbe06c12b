//! Colliders the plugin cannot sweep, and why.

use bevy::ecs::prelude::*;
use bevy::ecs::reflect::ReflectResource;
use bevy::platform::collections::HashMap;
use bevy::reflect::prelude::*;

/// Colliders the plugin could not sweep in the last tick, each with its [`SkipReason`] (a
/// missing or non-finite transform, a non-finite velocity, a size that is not positive, a
/// zero-length segment, a polygon that is not convex, …).
///
/// A skipped collider takes part in no contact (its contacts end); every other pair is
/// unaffected. The plugin logs one warning naming the entity when it starts being skipped
/// (or the reason changes), not every tick. When the input becomes usable again the
/// collider starts afresh from where it is, as if teleported.
///
/// A collider switched off with [`ColliderDisabled`](crate::prelude::ColliderDisabled) is not
/// listed: it is not swept because it is off, whatever else is wrong with it. Switched on
/// again and still unusable, it is listed (and warned about) anew.
#[derive(Resource, Clone, Default, Debug, Reflect)]
#[reflect(Resource, Default, Debug, Clone)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct SkippedColliders {
    pub(crate) reasons: HashMap<Entity, SkipReason>,
}

/// Why the plugin could not sweep a collider (see [`SkippedColliders`]). Its `Display` is the
/// sentence of the warning.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Reflect)]
#[reflect(Debug, PartialEq, Hash, Clone)]
#[non_exhaustive]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub enum SkipReason {
    /// The entity, or one of its ancestors, has no `Transform`.
    MissingTransform,
    /// Its world transform (its own composed with its ancestors') is not finite.
    NonFiniteTransform,
    /// Its [`Velocity`](crate::prelude::Velocity) is not finite.
    NonFiniteVelocity,
    /// Its [`AngularVelocity`](crate::prelude::AngularVelocity) is not finite.
    NonFiniteAngularVelocity,
    /// A point of its shape (a segment's or capsule's endpoint, a polyline or polygon point,
    /// a compound part's pose) is not finite.
    NonFiniteShape,
    /// A segment whose two endpoints are equal.
    ZeroLengthSegment,
    /// A radius or half extent that is not a positive finite number.
    NonPositiveSize,
    /// A convex polygon that is not 3 to 8 finite points in strictly convex position (build
    /// it with [`Collider::convex_polygon`](crate::prelude::Collider::convex_polygon), which
    /// checks), or a polygon whose pieces are not (build it with
    /// [`Collider::polygon`](crate::prelude::Collider::polygon)).
    NotConvex,
    /// A polyline without an edge of positive length.
    NoEdge,
    /// Its world transform scales an axis by less than
    /// [`MIN_SCALE`](crate::MIN_SCALE) or more than [`MAX_SCALE`](crate::MAX_SCALE) (a zero
    /// scale included), or its shape in the world is degenerate or not finite.
    DegenerateInWorld,
    /// Some point of its motion in the tick lies beyond
    /// [`COORDINATE_RANGE`](crate::COORDINATE_RANGE) from the origin on an axis: outside the
    /// range inside which results are exact.
    OutOfRange,
    /// It is more than [`MAX_HIERARCHY_DEPTH`](crate::MAX_HIERARCHY_DEPTH) levels below its
    /// root, or its ancestors form a cycle.
    HierarchyTooDeep,
    /// Its [`Response::Bounce`](crate::prelude::Response::Bounce) has a restitution outside
    /// `[0,` [`Response::MAX_RESTITUTION`](crate::prelude::Response::MAX_RESTITUTION)`]`.
    InvalidRestitution,
    /// Its [`Mass`](crate::prelude::Mass) is not positive (zero, negative or NaN).
    InvalidMass,
    /// A compound without parts (build it with
    /// [`Collider::compound`](crate::prelude::Collider::compound), which checks).
    EmptyCompound,
    /// A compound with a part that is itself a compound.
    NestedCompound,
    /// A shape of more than 2^24 − 1 elements (a polyline's edges, a polygon's pieces, a
    /// compound's parts' elements).
    TooManyElements,
    /// A polygon whose outline touches or crosses itself, or whose pieces are not the convex
    /// pieces [`Collider::polygon`](crate::prelude::Collider::polygon) cuts its points into
    /// (one edited through reflection, or deserialized from other data).
    NotSimple,
    /// A compound part's pose whose rotation is not a unit rotation (its cosine and sine
    /// squared add up to 1 within `1e-4`): it would scale the part.
    NonUnitRotation,
}

impl core::fmt::Display for SkipReason {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Self::MissingTransform => "its transform or a parent's is missing",
            Self::NonFiniteTransform => "its world transform is not finite",
            Self::NonFiniteVelocity => "its Velocity is not finite",
            Self::NonFiniteAngularVelocity => "its AngularVelocity is not finite",
            Self::NonFiniteShape => "a point of its shape is not finite",
            Self::ZeroLengthSegment => "its segment has zero length",
            Self::NonPositiveSize => "a radius or half extent is not a positive finite number",
            Self::NotConvex => {
                "its polygon is not 3 to 8 finite points in strictly convex position \
                 (use Collider::convex_polygon)"
            }
            Self::NoEdge => "its polyline has no edge of positive length",
            Self::DegenerateInWorld => {
                "its world transform scales an axis below 2^-32 or above 2^32 (a zero scale \
                 included), or its world-space shape is degenerate"
            }
            Self::OutOfRange => {
                "it reaches beyond 2^24 (16,777,216) units from the origin on an axis, the \
                 range inside which results are exact"
            }
            Self::HierarchyTooDeep => {
                "it is more than 1,024 levels below its root, or its ancestors form a cycle"
            }
            Self::InvalidRestitution => "its Response::Bounce restitution is outside [0, 1]",
            Self::InvalidMass => "its Mass is not positive (zero, negative or NaN)",
            Self::EmptyCompound => "its compound has no part",
            Self::NestedCompound => "its compound has a part that is a compound",
            Self::TooManyElements => {
                "it has more than 2^24 - 1 edges, pieces or parts (one collider per element)"
            }
            Self::NotSimple => {
                "its polygon's outline touches or crosses itself, or its pieces are not the \
                 ones Collider::polygon cuts (use Collider::polygon)"
            }
            Self::NonUnitRotation => {
                "a compound part's pose has a rotation that is not of unit length (use \
                 Collider::compound, which normalises it)"
            }
        })
    }
}

impl SkippedColliders {
    /// Why `entity` was skipped in the last tick, if it was.
    #[must_use]
    pub fn reason(&self, entity: Entity) -> Option<SkipReason> {
        self.reasons.get(&entity).copied()
    }

    /// Every skipped entity and why.
    pub fn iter(&self) -> impl Iterator<Item = (Entity, SkipReason)> + '_ {
        self.reasons.iter().map(|(&e, &r)| (e, r))
    }

    /// The number of skipped colliders.
    #[must_use]
    pub fn len(&self) -> usize {
        self.reasons.len()
    }

    /// `true` if no collider was skipped.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.reasons.is_empty()
    }

    pub(crate) fn record(&mut self, entity: Entity, reason: SkipReason) {
        if self.reasons.insert(entity, reason) != Some(reason) {
            log::warn!("bevy_sweep: skipping collider {entity}: {reason}");
        }
    }

    pub(crate) fn usable_again(&mut self, entity: Entity) {
        if self.reasons.remove(&entity).is_some() {
            log::info!("bevy_sweep: collider {entity} is usable again");
        }
    }
}

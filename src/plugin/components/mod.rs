//! The components a user puts on entities, one file per concern.

mod body;
mod collider;
mod disabled;
mod layers;
mod motion;
pub(crate) mod placement;
pub(crate) mod polygon;
mod response;

pub use body::{Body, CollidingEntities};
pub(crate) use collider::Composites;
pub use collider::{Checked, Collider, UnusableShape};
pub use disabled::ColliderDisabled;
pub(crate) use disabled::Pending;
pub use layers::{CollisionLayer, CollisionLayers, LayerMask};
pub use motion::{AngularVelocity, SweptPath, Teleport, Velocity};
pub(crate) use motion::{ShapeCheck, Warned};
pub use response::{CharacterState, KinematicCharacter, Mass, OneWay, Response, Sensor};

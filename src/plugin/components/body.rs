//! [`Body`] and [`CollidingEntities`]: colliders grouped, and what touches them.

use bevy::ecs::prelude::*;
use bevy::reflect::prelude::*;

/// Groups the colliders on this entity and on its descendants into one body: a character
/// made of a capsule and a feet sensor, a ship made of a hull and its turrets.
///
/// - Contacts between two colliders of one body are never tested nor reported.
/// - Events carry each side's body ([`CollisionEvent::body`](crate::prelude::CollisionEvent::body))
///   beside its collider.
/// - A collider belongs to the nearest `Body` among itself and its ancestors ([`ChildOf`]);
///   transform hierarchies work as they do without bodies.
///
/// ```
/// use bevy::prelude::*;
/// use bevy_sweep::prelude::*;
///
/// fn spawn_hero(mut commands: Commands) {
///     commands.spawn((Body, Transform::default(), Velocity(Vec2::X * 100.0)))
///         .with_children(|hero| {
///             hero.spawn(Collider::capsule(Vec2::new(0.0, -8.0), Vec2::new(0.0, 8.0), 6.0));
///             // The feet sensor overlaps the capsule; the two are never reported.
///             hero.spawn((Collider::rectangle(Vec2::new(4.0, 1.0)), Transform::from_xyz(0.0, -14.0, 0.0)));
///         });
/// }
/// # let mut app = App::new();
/// # app.add_systems(Startup, spawn_hero);
/// ```
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[reflect(Component, Debug, Default, PartialEq, Clone)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct Body;

/// The colliders touching this entity, kept up to date by the plugin after each tick
/// (opt-in: insert it where you need it). On a collider, the colliders it touches; on a
/// [`Body`], the colliders its own colliders touch.
///
/// The plugin updates it in time proportional to the contacts that changed, so it costs
/// nothing on an entity whose contacts stay as they are.
///
/// ```
/// use bevy::prelude::*;
/// use bevy_sweep::prelude::*;
///
/// fn hurt_on_touch(players: Query<&CollidingEntities, With<Body>>) {
///     for touching in &players {
///         if !touching.is_empty() {
///             info!("touching {} colliders", touching.len());
///         }
///     }
/// }
/// # let mut app = App::new();
/// # app.add_systems(Update, hurt_on_touch);
/// ```
#[derive(Component, Reflect, Clone, Debug, Default, PartialEq)]
#[reflect(Component, Debug, Default, Clone)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct CollidingEntities(#[reflect(ignore)] pub(crate) bevy::ecs::entity::EntityHashSet);

impl CollidingEntities {
    /// `true` if `entity`'s collider touches this one.
    #[must_use]
    pub fn contains(&self, entity: Entity) -> bool {
        self.0.contains(&entity)
    }

    /// The touching colliders, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = Entity> + '_ {
        self.0.iter().copied()
    }

    /// How many colliders touch this one.
    #[must_use]
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// `true` if nothing touches it.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

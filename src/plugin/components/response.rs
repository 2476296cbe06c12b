//! What answers a hit: [`Response`], [`KinematicCharacter`] and its [`CharacterState`], and
//! the colliders that change what blocks: [`Sensor`] and [`OneWay`].

use bevy::ecs::prelude::*;
use bevy::math::{Dir2, Vec2};
use bevy::reflect::prelude::*;

/// How a collider moved by its [`Velocity`](super::Velocity) answers a hit on a *solid*
/// collider (one whose layers interact with it, that is not a [`Sensor`]) or on another
/// mover that answers hits: two that can be pushed exchange momentum by their [`Mass`]es; one
/// that cannot (a `Stop`, a [`KinematicCharacter`], an infinite `Mass`) is a solid moving
/// with its velocity to the other.
///
/// Each tick the plugin moves a responder along its velocity until its first contact with a
/// solid, answers it at that exact moment, and goes on for the rest of the tick, answering
/// each later contact in order. A moving solid's velocity counts: a ball bounces faster off
/// a paddle that rises. The responder's contacts along that real path are reported as
/// [`CollisionEvent`](crate::prelude::CollisionEvent)s with their moments: a bounce is a
/// [`Crossed`](crate::prelude::CollisionKind::Crossed) contact at the bounce, a slide or a
/// stop a `Started` and later an `Ended`. At the end of every tick a responder is outside
/// every solid (touching counts as outside), to `f32` rounding.
///
/// With `v` the responder's velocity, `u` the solid's at the contact and `n` the contact's
/// normal towards the responder, of the relative velocity `w = v - u` the part `w·n < 0`
/// that goes into the solid is
///
/// | response | answer |
/// |---|---|
/// | `Bounce { restitution }` | reversed and scaled: `v' = v - (1 + restitution) (w·n) n` |
/// | `Slide` | removed: `v' = v - (w·n) n` |
/// | `Stop` | all of it removed: the responder stays at the contact (pushed only by a solid that moves into it), and its `Velocity` becomes zero |
///
/// A responder's [`Velocity`](super::Velocity) is written with the answer. It must be a
/// root entity (no parent) and not a polyline; otherwise it is swept without answering,
/// with a warning. Needs [`Velocity`](super::Velocity): without it nothing moves it, and a
/// warning says so.
///
/// ```
/// use bevy::prelude::*;
/// use bevy_sweep::prelude::*;
///
/// # use bevy::time::TimeUpdateStrategy;
/// let mut app = App::new();
/// app.add_plugins((MinimalPlugins, SweepPlugin::default()))
///     .insert_resource(TimeUpdateStrategy::FixedTimesteps(1));
/// app.update(); // the first update starts the clock and runs no tick
/// // A ball at 100,000 units/s between two walls 10 units apart never leaves them.
/// let ball = app
///     .world_mut()
///     .spawn((
///         Collider::circle(1.0),
///         Velocity(Vec2::new(100_000.0, 0.0)),
///         Response::Bounce { restitution: 1.0 },
///     ))
///     .id();
/// for x in [-6.0, 6.0] {
///     app.world_mut().spawn((
///         Collider::aabb(Vec2::new(1.0, 10.0)),
///         Transform::from_xyz(x, 0.0, 0.0),
///     ));
/// }
/// for _ in 0..20 {
///     app.update(); // one tick: 1,562.5 units, some 300 bounces (32 are answered a tick)
///     let x = app.world().get::<Transform>(ball).unwrap().translation.x;
///     assert!(x.abs() <= 4.0 + 1e-3, "the ball is at {x}");
/// }
/// assert_eq!(app.world().get::<Velocity>(ball).unwrap().0.x.abs(), 100_000.0);
/// ```
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq)]
#[reflect(Component, Debug, PartialEq, Clone)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub enum Response {
    /// Bounce off: the normal part of the relative velocity reversed and multiplied by
    /// `restitution` (`1.0`: elastic, `0.0`: like [`Slide`](Self::Slide)). In `[0,`
    /// [`MAX_RESTITUTION`](Self::MAX_RESTITUTION)`]`; otherwise the collider is skipped, with
    /// a warning naming it
    /// ([`SkipReason::InvalidRestitution`](crate::prelude::SkipReason::InvalidRestitution)).
    Bounce {
        /// How much of the normal speed is kept, in `[0, 1]`.
        restitution: f32,
    },
    /// Slide along: the normal part of the relative velocity removed.
    Slide,
    /// Stop at the contact: the velocity becomes zero.
    Stop,
}

impl Response {
    /// The largest restitution a [`Bounce`](Self::Bounce) takes: `1.0`, an elastic bounce.
    /// A bounce never adds speed of its own (a moving solid still gives its speed): a ball
    /// between two walls cannot gain speed tick after tick until it leaves the range in
    /// which results are exact. For a bumper that kicks, add to the velocity in an observer
    /// of the bounce's [`CollisionEvent`](crate::prelude::CollisionEvent).
    pub const MAX_RESTITUTION: f32 = 1.0;

    /// `true` for a bounce whose restitution cannot be used: outside `[0,`
    /// [`MAX_RESTITUTION`](Self::MAX_RESTITUTION)`]`, or NaN.
    pub(crate) fn invalid(&self) -> bool {
        matches!(*self, Response::Bounce { restitution } if !(0.0..=Self::MAX_RESTITUTION).contains(&restitution))
    }
}

/// A responder's mass, for its answers to the other movers it meets (`Mass(1.0)` where it has
/// none).
///
/// Two movers that can be pushed (a [`Response::Bounce`] or [`Response::Slide`] responder of
/// finite mass) exchange momentum along the contact's normal at the moment they meet, each
/// keeping its tangential velocity: with `w` their relative velocity, `n` the normal and `e`
/// the larger of their restitutions (a `Slide` counts as 0), the impulse is
/// `j = (1 + e) (w·n) / (1/m_a + 1/m_b)`, computed in `f64`. Momentum is kept, and with
/// `e = 1` kinetic energy too, to the final rounding to `f32`.
///
/// `Mass(f32::INFINITY)` is never pushed: like a [`Response::Stop`] responder or a
/// [`KinematicCharacter`], it is a moving solid to the movers it meets. A mass that is not
/// finite and positive (nor infinite) makes the collider skipped, with a warning
/// ([`SkipReason::InvalidMass`](crate::prelude::SkipReason::InvalidMass)).
///
/// ```
/// use bevy::prelude::*;
/// use bevy_sweep::prelude::*;
///
/// # use bevy::time::TimeUpdateStrategy;
/// let mut app = App::new();
/// app.add_plugins((MinimalPlugins, SweepPlugin::default()))
///     .insert_resource(TimeUpdateStrategy::FixedTimesteps(1));
/// app.update(); // the first update starts the clock and runs no tick
/// // A ball of mass 1 meets a still ball of mass 3 head-on.
/// let bounce = Response::Bounce { restitution: 1.0 };
/// let light = app
///     .world_mut()
///     .spawn((Collider::circle(1.0), Velocity(Vec2::new(64.0, 0.0)), bounce))
///     .id();
/// let heavy = app
///     .world_mut()
///     .spawn((
///         Collider::circle(1.0),
///         Transform::from_xyz(2.5, 0.0, 0.0),
///         Velocity(Vec2::ZERO),
///         bounce,
///         Mass(3.0),
///     ))
///     .id();
/// app.update();
/// let speed = |e| app.world().get::<Velocity>(e).unwrap().0.x;
/// assert_eq!(speed(light), -32.0);
/// assert_eq!(speed(heavy), 32.0);
/// ```
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq)]
#[reflect(Component, Debug, PartialEq, Clone)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct Mass(pub f32);

impl Default for Mass {
    fn default() -> Self {
        Self(1.0)
    }
}

impl Mass {
    /// `true` for a mass that cannot be used: not positive, or NaN (infinity is allowed).
    pub(crate) fn invalid(&self) -> bool {
        self.0.is_nan() || self.0 <= 0.0
    }
}

/// A collider that reports its contacts and never blocks: no [`Response`],
/// [`KinematicCharacter`] or [`SweepQuery::move_and_slide`](crate::prelude::SweepQuery::move_and_slide)
/// stops at it. Pickups, triggers, damage zones. Its own contacts are reported as usual.
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[reflect(Component, Debug, Default, PartialEq, Clone)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct Sensor;

/// A collider that blocks only motion against its direction, of a mover that starts the
/// tick (or the query) wholly on the side the direction points to: `OneWay(Dir2::Y)` is a
/// platform you jump up through and stand on.
///
/// The direction is in the collider's own frame: it turns with the collider. Works for
/// [`Response`]s, [`KinematicCharacter`]s and
/// [`SweepQuery::move_and_slide`](crate::prelude::SweepQuery::move_and_slide) alike. Contacts
/// with it are reported either way.
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq)]
#[reflect(Component, Debug, PartialEq, Clone)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct OneWay(pub Dir2);

impl Default for OneWay {
    fn default() -> Self {
        Self(Dir2::Y)
    }
}

/// A character moved each tick by move-and-slide along its [`Velocity`](super::Velocity):
/// it walks on ground no steeper than `max_slope`, slides along steeper slopes and walls,
/// keeps `skin` away from surfaces, steps up ledges no higher than `step_height`, and rides
/// what it stands on. Its state after each tick is in [`CharacterState`] (inserted with it).
///
/// - Its events treat being within `skin` of a surface as touching: it is `Started` on
///   landing and `Ended` on leaving. (It is swept as its shape grown by `skin`.)
/// - After the move its `Velocity` loses the part that pointed into each surface that
///   stopped it, so that gravity does not build up while it stands.
/// - It stays on the ground walking down slopes no steeper than `max_slope` while it is not
///   moving up, and stands still on a walkable slope without drifting.
/// - Standing on a collider that has a [`Velocity`](super::Velocity) (a moving platform), it
///   moves with it.
/// - Spawned or teleported inside a solid, it is pushed out along the shortest way, at most
///   `max_push` per tick. Between solids that close in on it (a crusher) it is pushed out
///   of each in turn as far as it can be and never thrown away: it may stay inside one of
///   them until they part.
///
/// A non-positive or NaN `skin`, a `max_slope` outside `[0, π/2]`, and a `skin`,
/// `step_height` or `snap_to_ground` that is negative, NaN or beyond
/// [`COORDINATE_RANGE`](crate::COORDINATE_RANGE), are warned about once and replaced by the
/// default. Must be a root entity and not a polyline.
///
/// ```
/// use bevy::prelude::*;
/// use bevy_sweep::prelude::*;
///
/// # use bevy::time::TimeUpdateStrategy;
/// let mut app = App::new();
/// app.add_plugins((MinimalPlugins, SweepPlugin::default()))
///     .insert_resource(TimeUpdateStrategy::FixedTimesteps(1));
/// app.update();
/// let hero = app
///     .world_mut()
///     .spawn((
///         Collider::capsule(Vec2::new(0.0, -6.0), Vec2::new(0.0, 6.0), 4.0),
///         Transform::from_xyz(0.0, 20.0, 0.0),
///         Velocity(Vec2::new(0.0, -300.0)),
///         KinematicCharacter::default(),
///     ))
///     .id();
/// app.world_mut().spawn((
///     Collider::aabb(Vec2::new(100.0, 5.0)),
///     Transform::from_xyz(0.0, -5.0, 0.0),
/// ));
/// for _ in 0..30 {
///     app.update();
/// }
/// let state = app.world().get::<CharacterState>(hero).unwrap();
/// assert!(state.grounded);
/// // Standing: its feet are `skin` above the ground, and its velocity has stopped.
/// let y = app.world().get::<Transform>(hero).unwrap().translation.y;
/// assert!((y - 10.0 - KinematicCharacter::default().skin).abs() < 1e-3, "{y}");
/// assert_eq!(app.world().get::<Velocity>(hero).unwrap().0, Vec2::ZERO);
/// ```
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq)]
#[reflect(Component, Debug, Default, PartialEq, Clone)]
#[require(CharacterState, super::Velocity)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct KinematicCharacter {
    /// The gap it keeps to surfaces, in world units, `> 0`. Default: `0.05`.
    pub skin: f32,
    /// The steepest ground it walks on, in radians from `up`, in `[0, π/2]`. Default: 45°.
    pub max_slope: f32,
    /// The highest ledge it steps up onto while walking, in world units. Default: `0`.
    pub step_height: f32,
    /// How far it follows the ground down while walking (slopes, small steps down), in world
    /// units beyond what `max_slope` needs at its speed. Default: `0.5`.
    pub snap_to_ground: f32,
    /// Which way is up. Default: `Dir2::Y`.
    pub up: Dir2,
    /// How far it is pushed out of a solid it starts a tick inside, at most, per tick, in
    /// world units. Default: `f32::INFINITY` (all the way at once).
    pub max_push: f32,
}

impl KinematicCharacter {
    /// The default `skin`.
    pub const DEFAULT_SKIN: f32 = 0.05;
    /// The default `max_slope`: 45°.
    pub const DEFAULT_MAX_SLOPE: f32 = core::f32::consts::FRAC_PI_4;

    /// The settings with unusable values replaced by the defaults, and whether any was.
    pub(crate) fn sanitized(&self) -> (Self, bool) {
        let mut s = *self;
        let mut bad = false;
        // A length beyond the range in which results are exact reaches nothing usable.
        let range = crate::COORDINATE_RANGE;
        if !(s.skin > 0.0 && s.skin <= range) {
            s.skin = Self::DEFAULT_SKIN;
            bad = true;
        }
        if !(0.0..=core::f32::consts::FRAC_PI_2).contains(&s.max_slope) {
            s.max_slope = Self::DEFAULT_MAX_SLOPE;
            bad = true;
        }
        if !(0.0..=range).contains(&s.step_height) {
            s.step_height = 0.0;
            bad = true;
        }
        if !(0.0..=range).contains(&s.snap_to_ground) {
            s.snap_to_ground = 0.5;
            bad = true;
        }
        if s.max_push.is_nan() || s.max_push <= 0.0 {
            s.max_push = f32::INFINITY;
            bad = true;
        }
        (s, bad)
    }
}

impl Default for KinematicCharacter {
    fn default() -> Self {
        Self {
            skin: Self::DEFAULT_SKIN,
            max_slope: Self::DEFAULT_MAX_SLOPE,
            step_height: 0.0,
            snap_to_ground: 0.5,
            up: Dir2::Y,
            max_push: f32::INFINITY,
        }
    }
}

/// Where a [`KinematicCharacter`] stands after the last tick; written by the plugin.
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq)]
#[reflect(Component, Debug, Default, PartialEq, Clone)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct CharacterState {
    /// Standing on ground: within `skin` of a surface no steeper than `max_slope`.
    pub grounded: bool,
    /// The ground's normal (unit, pointing up out of it), while grounded.
    pub ground_normal: Option<Vec2>,
    /// What it stands on, while grounded.
    pub ground_entity: Option<Entity>,
    /// Touching a surface steeper than `max_slope` (a wall) in the last tick's move.
    pub on_wall: bool,
    /// What the last tick's move did, in world units (the platform it rode included).
    pub moved: Vec2,
    /// Ticks in a row it has been grounded (0 while in the air).
    pub grounded_ticks: u32,
    /// Warned about its settings already.
    #[reflect(ignore)]
    pub(crate) warned: bool,
}

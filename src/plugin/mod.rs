//! The ECS half: [`SweepPlugin`], its components, system sets, resources and events. The
//! tick itself, phase by phase, is in [`tick`].

mod answer;
mod character;
mod components;
#[cfg(feature = "tiled")]
pub(crate) use components::polygon;
mod contacts;
mod diagnostics;
mod events;
mod query;
mod skipped;
mod state;
mod stats;
mod tick;

pub use components::{
    AngularVelocity, Body, CharacterState, Checked, Collider, ColliderDisabled, CollidingEntities,
    CollisionLayer, CollisionLayers, KinematicCharacter, LayerMask, Mass, OneWay, Response, Sensor,
    SweptPath, Teleport, UnusableShape, Velocity,
};
pub use contacts::{Contact, Contacts};
pub use diagnostics::SweepDiagnosticsPlugin;
pub use events::{CollisionEvent, CollisionKind};
pub use query::{
    CastOptions, ContactNow, MoveAndSlideConfig, MoveAndSlideHit, MoveAndSlideOutput,
    PenetrationHit, PointProjection, QueryFilter, RayHit, ShapeCastHit, SweepQuery,
};
pub use skipped::{SkipReason, SkippedColliders};
pub use state::SweepState;
pub use stats::SweepStats;

/// The smallest scale a collider's world transform may give an axis (the length of each
/// column of its plane part): `2^-32`. Below it (a zero scale included) the collider is
/// refused with [`SkipReason::DegenerateInWorld`], whatever its shape.
pub const MIN_SCALE: f32 = 1.0 / 4_294_967_296.0;

/// The largest scale a collider's world transform may give an axis: `2^32`. Above it the
/// collider is refused with [`SkipReason::DegenerateInWorld`], whatever its shape.
pub const MAX_SCALE: f32 = 4_294_967_296.0;

/// How many levels of parents the plugin follows from a collider to its root: 1,024. A
/// collider deeper than that, or whose ancestors form a cycle, is refused with
/// [`SkipReason::HierarchyTooDeep`].
pub const MAX_HIERARCHY_DEPTH: usize = 1024;

use bevy::app::{App, FixedPostUpdate, Plugin};
use bevy::ecs::intern::Interned;
use bevy::ecs::prelude::*;
use bevy::ecs::reflect::ReflectResource;
use bevy::ecs::schedule::ScheduleLabel;
use bevy::reflect::prelude::*;
use tick::{broad, gather, narrow, prepare, publish, report, respond, rest};

/// Continuous collision detection for every entity with a [`Collider`].
///
/// Each run of its schedule (a fixed tick, by default in [`FixedPostUpdate`]) it
/// 1. takes the start of each collider's motion: where it was at the end of the previous
///    tick, or where it is now if it is new or has a [`Teleport`] marker
///    ([`SweepSystems::Prepare`]);
/// 2. moves transforms by [`Velocity`] and [`AngularVelocity`] × the tick's duration
///    ([`SweepSystems::Integrate`], if [`integrate_velocity`](Self::integrate_velocity));
///    characters walk later, inside the tick, against every solid where it is this tick;
/// 3. gathers every collider's motion from its start to where it is now (including moves
///    made by other code since the last tick), and keeps the resting ones aside
///    ([`SweepSystems::Gather`]);
/// 4. walks the characters and answers the responders' hits, each on its real path
///    ([`SweepSystems::Respond`]);
/// 5. finds the pairs whose swept bounds overlap ([`SweepSystems::BroadPhase`]), then every
///    contact of those pairs inside the tick ([`SweepSystems::NarrowPhase`]);
/// 6. sends one [`CollisionEvent`] message per contact, in order of time, triggers it on both
///    entities, updates [`Contacts`] and [`CollidingEntities`], and publishes where every
///    collider is to [`SweepQuery`] ([`SweepSystems::Report`]).
///
/// Each phase reads what the phase before it wrote and writes one thing for the next (the
/// repository's `docs/design.md` has the picture). Steps 3 to 6 run on every thread of
/// Bevy's compute task pool when [`parallel`](Self::parallel), with the same results on any
/// number of threads.
///
/// The phases' systems run on the main thread, one after another, and hand their parallel
/// parts to the compute pool: Bevy's multi-threaded executor would otherwise hand each phase
/// to a pool thread and back, which cost a 1,000-collider tick a quarter of its time on a
/// two-core machine.
///
/// Add it on top of `DefaultPlugins` or `MinimalPlugins`. It detects contacts; it moves only
/// what answers hits (a [`Response`] or a [`KinematicCharacter`]), keeping it out of solids,
/// and pushes nothing else apart.
///
/// # Resting colliders
///
/// A collider that has stood still for two ticks, and whose transform, shape and layers have
/// not changed, *rests*: it keeps its place in the broad phase without being swept again, and
/// pairs of two resting colliders are never tested (their contact cannot change; a contact
/// between them is kept in [`Contacts`] and sends no events). Walls, tiles and parked
/// platforms cost almost nothing per tick. Any change to its transform, [`Collider`] or
/// [`CollisionLayers`], a [`Teleport`], or gaining a parent wakes it; despawning it ends its
/// contacts. Colliders with a parent never rest (their parent's motion would not show in
/// their own transform). [`SweepStats::resting`] counts them.
#[derive(Clone, Debug)]
pub struct SweepPlugin {
    /// The schedule the sweep runs in. Default: [`FixedPostUpdate`], after game logic in
    /// `FixedUpdate`. Use a fixed schedule: a tick's motion is what is swept.
    pub schedule: Interned<dyn ScheduleLabel>,
    /// Move transforms by [`Velocity`] and [`AngularVelocity`] each tick. Default: `true`.
    /// Turn it off when something else moves your entities; they are swept all the same.
    pub integrate_velocity: bool,
    /// World units per metre-sized object: `1.0` for games in metres, about `100.0` for games
    /// in pixels. Contact decisions are exact at any scale and do not use it; it sizes what
    #[cfg_attr(
        feature = "debug-draw",
        doc = "[`SweepDebugPlugin`](crate::debug::SweepDebugPlugin)"
    )]
    #[cfg_attr(not(feature = "debug-draw"), doc = "`SweepDebugPlugin`")]
    /// draws (with the `debug-draw` feature). Default: `1.0`.
    pub length_unit: f32,
    /// Run the gather, the broad phase, the narrow phase and the report on every thread of
    /// Bevy's compute task pool. Results, events and their order are identical either way and
    /// on any number of threads. Default: `true`.
    ///
    /// The plugin uses the compute pool as the app sets it up and starts no threads of its
    /// own: how many threads an app gives to what is the app's decision. The main thread,
    /// which runs the phases, works on their parts too (with the `multi_threaded` feature,
    /// on by default). Bevy's default `TaskPoolPlugin` keeps a quarter of the cores each (at
    /// least one) for IO and async tasks out of the compute pool: a two-core machine gets a
    /// one-thread compute pool, and with the main thread the phases run on both cores; a
    /// sixteen-core machine gets eight threads, nine with the main thread. The gather alone
    /// is split by Bevy's parallel iteration, in a batch per pool thread, and runs serially
    /// on a one-thread pool.
    ///
    /// A compute pool of one thread fewer than the cores uses every core for the phases. A
    /// thread for every core helps the gather, but the phases then run on one thread more
    /// than there are cores. Set the compute pool's size with `TaskPoolOptions`:
    ///
    /// ```
    /// use bevy::app::{TaskPoolOptions, TaskPoolPlugin};
    /// use bevy::prelude::*;
    ///
    /// let cores = std::thread::available_parallelism().map_or(1, usize::from);
    /// let mut task_pool_options = TaskPoolOptions::default();
    /// task_pool_options.compute.min_threads = cores.saturating_sub(1).max(1);
    /// App::new().add_plugins(MinimalPlugins.set(TaskPoolPlugin { task_pool_options }));
    /// ```
    pub parallel: bool,
}

impl Default for SweepPlugin {
    fn default() -> Self {
        Self::new(FixedPostUpdate)
    }
}

impl SweepPlugin {
    /// The plugin running in `schedule`, with the other settings at their defaults (as
    /// avian2d's and Bevy's own plugins take their schedule).
    ///
    /// ```
    /// use bevy::prelude::*;
    /// use bevy_sweep::prelude::*;
    ///
    /// App::new().add_plugins((MinimalPlugins, SweepPlugin::new(FixedUpdate)));
    /// ```
    #[must_use]
    pub fn new(schedule: impl ScheduleLabel) -> Self {
        Self {
            schedule: schedule.intern(),
            integrate_velocity: true,
            length_unit: 1.0,
            parallel: true,
        }
    }
}

/// The settings of the [`SweepPlugin`] in use, as a resource.
///
/// Reflected (and so editable in an inspector) except for the schedule, which cannot change
/// after the plugin is built.
#[derive(Resource, Clone, Copy, Debug, Reflect)]
#[reflect(Resource, Debug, Clone)]
pub struct SweepSettings {
    /// See [`SweepPlugin::schedule`].
    #[reflect(ignore, default = "default_schedule")]
    pub schedule: Interned<dyn ScheduleLabel>,
    /// See [`SweepPlugin::integrate_velocity`].
    pub integrate_velocity: bool,
    /// See [`SweepPlugin::length_unit`].
    pub length_unit: f32,
    /// See [`SweepPlugin::parallel`].
    pub parallel: bool,
}

/// The schedule of a [`SweepSettings`] built by reflection (which cannot carry one).
fn default_schedule() -> Interned<dyn ScheduleLabel> {
    FixedPostUpdate.intern()
}

/// The plugin's system sets, in the order they run, all in [`SweepPlugin::schedule`].
///
/// Order your systems against them: for example, read this tick's [`CollisionEvent`]s
/// `.after(SweepSystems::Report)`, or move things `.before(SweepSystems::Prepare)` in the same
/// schedule (moves in `Update` or `FixedUpdate` are swept too).
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SweepSystems {
    /// Fix where each collider's motion starts (new and teleported colliders).
    Prepare,
    /// Integrate [`Velocity`] and [`AngularVelocity`] into transforms (not the characters').
    Integrate,
    /// Gather this tick's paths ([`SweptPath`]) and keep the resting colliders aside.
    Gather,
    /// Walk the [`KinematicCharacter`]s and answer the [`Response`]s' hits: each moves on its
    /// real path, and its transform and velocity are set where the tick leaves it.
    Respond,
    /// Find the pairs whose swept bounds overlap.
    BroadPhase,
    /// Find every contact of those pairs inside the tick.
    NarrowPhase,
    /// Send and trigger [`CollisionEvent`]s; update [`Contacts`] and [`CollidingEntities`];
    /// publish where every collider is to [`SweepQuery`].
    Report,
}

impl Plugin for SweepPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(SweepSettings {
            schedule: self.schedule,
            integrate_velocity: self.integrate_velocity,
            length_unit: self.length_unit,
            parallel: self.parallel,
        })
        .init_resource::<Contacts>()
        .init_resource::<SkippedColliders>()
        .init_resource::<SweepStats>()
        .init_resource::<components::Pending>()
        .init_resource::<components::Composites>()
        .init_resource::<gather::Motions>()
        .init_resource::<rest::RestingColliders>()
        .init_resource::<respond::Solids>()
        .init_resource::<character::Walks>()
        .init_resource::<respond::Paths>()
        .init_resource::<broad::CandidatePairs>()
        .init_resource::<narrow::ContactSpans>()
        .init_resource::<report::ReportBuffers>()
        .init_resource::<report::TickCount>()
        .init_resource::<publish::Snapshot>()
        .add_message::<CollisionEvent>()
        .register_type::<Collider>()
        .register_type::<Velocity>()
        .register_type::<AngularVelocity>()
        .register_type::<CollisionLayers>()
        .register_type::<LayerMask>()
        .register_type::<Teleport>()
        .register_type::<ColliderDisabled>()
        .register_type::<Body>()
        .register_type::<Response>()
        .register_type::<Mass>()
        .register_type::<Sensor>()
        .register_type::<OneWay>()
        .register_type::<KinematicCharacter>()
        .register_type::<CharacterState>()
        .register_type::<CollidingEntities>()
        .register_type::<crate::narrow::Feature>()
        .register_type::<SweptPath>()
        .register_type::<CollisionKind>()
        .register_type::<CollisionEvent>()
        .register_type::<SweepSettings>()
        .register_type::<Contacts>()
        .register_type::<SkippedColliders>()
        .register_type::<SkipReason>()
        .register_type::<SweepStats>()
        .configure_sets(
            self.schedule,
            (
                SweepSystems::Prepare,
                SweepSystems::Integrate,
                SweepSystems::Gather,
                SweepSystems::Respond,
                SweepSystems::BroadPhase,
                SweepSystems::NarrowPhase,
                SweepSystems::Report,
            )
                // The sweep's own commands (a `Teleport` removed, a `Resting` marker) matter
                // only from the next tick on: no sync point inside the tick for them.
                .chain_ignore_deferred(),
        )
        .add_systems(
            self.schedule,
            (
                prepare::prepare.in_set(SweepSystems::Prepare),
                prepare::integrate
                    .in_set(SweepSystems::Integrate)
                    .run_if(|settings: Res<SweepSettings>| settings.integrate_velocity),
                (gather::gather, rest::rest)
                    .chain_ignore_deferred()
                    .in_set(SweepSystems::Gather),
                (
                    respond::index_solids,
                    character::move_characters,
                    respond::respond,
                )
                    .chain_ignore_deferred()
                    .in_set(SweepSystems::Respond),
                broad::broad_phase.in_set(SweepSystems::BroadPhase),
                narrow::narrow_phase.in_set(SweepSystems::NarrowPhase),
                (
                    report::report,
                    report::send_events,
                    report::trigger_observers,
                    publish::publish,
                    publish::colliding_entities,
                )
                    .chain()
                    .in_set(SweepSystems::Report),
            ),
        );
        if app
            .world()
            .contains_resource::<diagnostics::DiagnosticsWanted>()
        {
            diagnostics::add_measure(app, self.schedule);
        }
        #[cfg(feature = "ggrs")]
        app.add_systems(bevy::app::Startup, warn_outside_ggrs_schedule);
    }
}

/// With `bevy_ggrs` in the app, a sweep outside its `GgrsSchedule` is not rolled back with
/// the game: it is warned about.
#[cfg(feature = "ggrs")]
fn warn_outside_ggrs_schedule(
    settings: Res<SweepSettings>,
    ggrs: Option<Res<bevy_ggrs::RollbackFrameCount>>,
) {
    if ggrs.is_some() && settings.schedule != bevy_ggrs::GgrsSchedule.intern() {
        log::warn!(
            "bevy_sweep: SweepPlugin runs in {:?}, but bevy_ggrs is in the app: a rollback \
             re-simulates GgrsSchedule only, so the sweep would not be rolled back with the game \
             and the peers would desync. Add SweepRollbackPlugin instead of SweepPlugin (it \
             runs the sweep in GgrsSchedule and rolls its state back).",
            settings.schedule
        );
    }
}

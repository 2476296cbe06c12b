//! [`SweepStats`]: what the last tick did. Each phase of the tick writes its own fields.

use bevy::ecs::prelude::*;
use bevy::ecs::reflect::ReflectResource;
use bevy::reflect::prelude::*;
use core::time::Duration;

/// What the last tick did, for profiling and for checking a scene (read it after
/// [`SweepSystems::Report`](crate::SweepSystems::Report) or in `Update`). Each phase of the
/// tick writes its own fields. Non-exhaustive: later versions may count more.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq, Reflect)]
#[reflect(Resource, Default, Debug, PartialEq, Clone)]
#[non_exhaustive]
pub struct SweepStats {
    /// Entries in the broad phase in the tick, swept and resting: one per collider, one per
    /// edge of a polyline, piece of a concave polygon and part of a compound, and one per
    /// piece of a responder's path (cut where it hit something).
    pub colliders: usize,
    /// Entries resting (colliders, polyline edges): still for two ticks without a change,
    /// kept in the broad phase without being swept again. Pairs of two of them are never
    /// tested.
    pub resting: usize,
    /// Colliders skipped as unusable (see [`SkippedColliders`](crate::prelude::SkippedColliders)).
    pub skipped: usize,
    /// Pairs whose swept bounds overlap (the broad phase's output; the narrow phase leaves
    /// out those whose layers do not interact, and those of one body).
    pub candidate_pairs: usize,
    /// Pairs that touched at some moment of the tick (a polyline counts once per collider it
    /// touched).
    pub touching_pairs: usize,
    /// Events sent (messages; observers get each twice, once per entity).
    pub events: usize,
    /// Candidate pairs of a point and a box, which the narrow phase solves eight at a time
    /// with SIMD ([`PointBoxBatch`](crate::narrow::PointBoxBatch)).
    pub batched_pairs: usize,
    /// Candidate pairs whose contact could not be decided by floating-point arithmetic with
    /// an error bound and needed exact (expansion) arithmetic: shapes within rounding of a
    /// touch. Normally a tiny share of [`candidate_pairs`](Self::candidate_pairs).
    pub exact_pairs: usize,
    /// Time of [`SweepSystems::Prepare`](crate::SweepSystems::Prepare): new and teleported
    /// colliders.
    pub prepare_time: Duration,
    /// Time of the gather: each collider's motion in world space.
    pub gather_time: Duration,
    /// Time of the resting colliders' update: those that came to rest or woke.
    pub rest_time: Duration,
    /// Time of the [`KinematicCharacter`](crate::prelude::KinematicCharacter)s' moves
    /// (their walks, in [`SweepSystems::Respond`](crate::SweepSystems::Respond), before the
    /// responders' answers).
    pub character_time: Duration,
    /// Time of the responders' answers to their hits (their real paths).
    pub respond_time: Duration,
    /// Hits the responders answered in the tick (a group of movers answered together at one
    /// moment counts one for each mover it changed).
    pub answered_hits: usize,
    /// Responders that answered as many hits as a tick allows (32) and stayed where the last
    /// answer left them for the rest of the tick.
    pub out_of_hits: usize,
    /// Responders that came near another and were followed together in time order (movers
    /// that answer each other).
    pub crowded: usize,
    /// Time of the broad phase: the pairs whose swept bounds overlap.
    pub broad_phase_time: Duration,
    /// Time of [`SweepSystems::NarrowPhase`](crate::SweepSystems::NarrowPhase): the exact
    /// contact intervals of the candidate pairs.
    pub narrow_phase_time: Duration,
    /// Time of the report, in [`SweepSystems::Report`](crate::SweepSystems::Report): the
    /// events, their messages and observers, and [`Contacts`](crate::prelude::Contacts)
    /// (not the queries' snapshot nor [`CollidingEntities`](crate::prelude::CollidingEntities),
    /// which follow).
    pub report_time: Duration,
    /// Tasks the gather ran in parallel on the compute task pool (0: it ran serially).
    pub gather_tasks: usize,
    /// Tasks the broad phase ran in parallel.
    pub broad_phase_tasks: usize,
    /// Tasks the narrow phase ran in parallel.
    pub narrow_phase_tasks: usize,
    /// Tasks the report ran in parallel.
    pub report_tasks: usize,
}

impl SweepStats {
    /// The time of the whole sweep: the sum of its phases' times (what you order between
    /// them, and Bevy's own scheduling, are not counted).
    #[must_use]
    pub fn elapsed(&self) -> Duration {
        self.prepare_time
            + self.gather_time
            + self.rest_time
            + self.character_time
            + self.respond_time
            + self.broad_phase_time
            + self.narrow_phase_time
            + self.report_time
    }

    /// Tasks the tick ran in parallel on the compute task pool, over every phase (0: the
    /// whole tick ran serially).
    #[must_use]
    pub fn parallel_tasks(&self) -> usize {
        self.gather_tasks + self.broad_phase_tasks + self.narrow_phase_tasks + self.report_tasks
    }
}

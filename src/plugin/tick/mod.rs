//! One tick of the sweep, as phases that each read what the phases before wrote and write
//! their own hand-off for the next. Each resource has one writer; no phase writes what an
//! earlier one reads, and nothing a reader of the results does changes the next tick.
//!
//! ```text
//!  Gather ───────────────► Respond ─────────────────► BroadPhase ──► NarrowPhase ──► Report ─────────────────────────────►
//!  gather ──► rest ──────► index_solids ► walk ► respond ► broad ──► narrow ──► report ─► send ─► trigger ─► publish ─► colliding
//!  Motions    Resting      Solids     Walks   Paths     Candidate  Contact    Report     messages observers Snapshot   Colliding-
//!             Colliders                       (+ hits)  Pairs      Spans      Buffers,                      (a copy)   Entities
//!                                                                             Contacts,
//!                                                                             TickCount
//! ```
//!
//! | phase | file | reads | writes |
//! |---|---|---|---|
//! | prepare | [`prepare`] | new, changed, teleported colliders | their start in [`SweptPath`](crate::prelude::SweptPath) |
//! | integrate | [`prepare`] | velocities | transforms |
//! | gather | [`gather`] | colliders, transforms, [`SweptPath`](crate::prelude::SweptPath) | [`Motions`](gather::Motions), [`SweptPath`](crate::prelude::SweptPath), skipped colliders |
//! | rest | [`rest`] | [`Motions`](gather::Motions): who comes to rest, who woke | [`RestingColliders`](rest::RestingColliders) |
//! | index solids | [`respond`] | [`Motions`](gather::Motions), one-way colliders | [`Solids`](respond::Solids) |
//! | walk | [`character`](crate::plugin::character) | characters, [`Solids`](respond::Solids), [`RestingColliders`](rest::RestingColliders) | [`Walks`](crate::plugin::character::Walks), the characters' transforms and velocities |
//! | respond | [`respond`] | [`Motions`](gather::Motions), [`Walks`](crate::plugin::character::Walks), [`Solids`](respond::Solids), [`RestingColliders`](rest::RestingColliders) | [`Paths`](respond::Paths) (every swept path, responders' as pieces; the hits), their transforms and velocities |
//! | broad | [`broad`] | [`Paths`](respond::Paths), [`RestingColliders`](rest::RestingColliders) | [`CandidatePairs`](broad::CandidatePairs) |
//! | narrow | [`narrow`] | [`CandidatePairs`](broad::CandidatePairs), [`Paths`](respond::Paths) (entries and hits), [`RestingColliders`](rest::RestingColliders) | [`ContactSpans`](narrow::ContactSpans) |
//! | report | [`report`] | [`ContactSpans`](narrow::ContactSpans), the entries, [`Contacts`](crate::prelude::Contacts) and [`Snapshot`](publish::Snapshot) as the last tick left them | [`ReportBuffers`](report::ReportBuffers) (the events in order), [`Contacts`](crate::prelude::Contacts), [`TickCount`](report::TickCount) |
//! | send, trigger | [`report`] | [`ReportBuffers`](report::ReportBuffers) | messages; observers (the one exclusive step) |
//! | publish | [`publish`] | [`Paths`](respond::Paths), [`CandidatePairs`](broad::CandidatePairs), [`RestingColliders`](rest::RestingColliders), [`Contacts`](crate::prelude::Contacts)' changes | [`Snapshot`](publish::Snapshot) for the queries (a copy into its own buffers), [`CollidingEntities`](crate::prelude::CollidingEntities) |
//!
//! Where nothing walks or hits anything (no character, no responder), [`Paths`](respond::Paths)
//! says so and its readers read the gathered paths in [`Motions`](gather::Motions), which are
//! then the same, rather than a copy of them.
//!
//! Each phase writes its own fields of [`SweepStats`](crate::prelude::SweepStats). The
//! gather, respond, broad, narrow and report phases split their work into parts run on the
//! compute task pool ([`parts`]); the parts come in a fixed order, and the report applies
//! its results in one serial commit, so that events do not depend on the number of threads.
//!
//! What a steady tick allocates: nothing in a scene without characters and responders (the
//! buffers are kept from tick to tick; `tests/allocations.rs` counts it), but for the
//! tasks of the parallel parts. The [`SweepSystems::Respond`](crate::SweepSystems::Respond)
//! set allocates in every tick that has characters or responders: their list, each walk's
//! waypoints, and the pieces of the path of each that hits something.

pub(crate) mod broad;
pub(crate) mod entries;
pub(crate) mod gather;
pub(crate) mod narrow;
pub(crate) mod parts;
pub(crate) mod prepare;
pub(crate) mod publish;
pub(crate) mod report;
pub(crate) mod respond;
pub(crate) mod rest;
pub(crate) mod shapes;

//! One tick of the sweep, as phases that each read what the phase before wrote and write one
//! thing for the next. Nothing flows backwards inside a tick, and nothing a reader of the
//! results does changes the next tick.
//!
//! ```text
//!  prepare ──► integrate ──► gather ──► rest ──► respond ──► broad ──► narrow ──► report ──► publish
//!  SweptPath    Transform,   Motions    Resting  Motions:   Candidate  Contact   events,    Snapshot,
//!  (fresh       characters'             Colliders responders' Pairs   Spans     Contacts   Colliding-
//!   starts)     moves                            pieces                                    Entities
//! ```
//!
//! | phase | file | reads | writes |
//! |---|---|---|---|
//! | prepare | [`prepare`] | new, changed, teleported colliders | their start in [`SweptPath`](crate::prelude::SweptPath) |
//! | integrate | [`prepare`] | velocities | transforms |
//! | gather | [`gather`] | colliders, transforms, [`SweptPath`](crate::prelude::SweptPath) | [`Motions`](gather::Motions), [`SweptPath`](crate::prelude::SweptPath), skipped colliders |
//! | rest | [`rest`] | [`Motions`](gather::Motions): who comes to rest, who woke | [`RestingColliders`](rest::RestingColliders) |
//! | respond | [`respond`] | [`Motions`](gather::Motions), [`RestingColliders`](rest::RestingColliders), responders | [`Motions`](gather::Motions) (responders' paths as pieces), their transforms and velocities |
//! | broad | [`broad`] | [`Motions`](gather::Motions), [`RestingColliders`](rest::RestingColliders) | [`CandidatePairs`](broad::CandidatePairs) |
//! | narrow | [`narrow`] | [`CandidatePairs`](broad::CandidatePairs), the entries' paths | [`ContactSpans`](narrow::ContactSpans) |
//! | report | [`report`] | [`ContactSpans`](narrow::ContactSpans), the entries, [`Contacts`](crate::prelude::Contacts) as it was | events, [`Contacts`](crate::prelude::Contacts) |
//! | publish | [`publish`] | the tick's entries and index, [`Contacts`](crate::prelude::Contacts)' changes | [`Snapshot`](publish::Snapshot) for the queries, [`CollidingEntities`](crate::prelude::CollidingEntities) |
//!
//! Each phase writes its own fields of [`SweepStats`](crate::prelude::SweepStats). The
//! gather, broad, narrow and report phases split their work into parts run on the compute
//! task pool ([`parts`]); the parts come in a fixed order, and the report applies its
//! results in one serial commit, so that events do not depend on the number of threads.

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

//! **Respond**: the real paths of the colliders that answer hits.
//!
//! Two systems. [`index_solids`] indexes this tick's solids. Reads: [`Motions`] (every
//! collider's motion in this tick), the [`OneWay`] colliders' directions. Writes:
//! [`Solids`] (the index over the solids, and the one-way directions, which the walk and
//! the queries read).
//!
//! [`respond`] then finds the responders' paths. Reads: [`Motions`] (every collider's
//! gathered path), the characters' [`Walks`], [`Solids`] and [`RestingColliders`]; the
//! responders' [`Response`] or [`KinematicCharacter`]. Writes: [`Paths`] (every swept
//! collider's path as the tick sweeps it: a character's to where it walked, and a
//! responder that hits something as the pieces of its real path, each over its window of
//! the tick; and the hits the narrow phase adds), the responders' `Transform`, [`Velocity`]
//! and [`SweptPath`], and [`SweepStats`]' `respond_time` and `answered_hits`.
//!
//! A responder moves along its straight path until its first contact with a solid (one that
//! blocks: not a sensor, not a responder, layers interacting), found by the same exact
//! kernels as every contact, against the solid's own motion over the rest of the tick. There
//! its velocity is answered ([`answer`](crate::plugin::answer)), and it goes on from that
//! place and moment. Each responder's trip among the solids alone is found in parallel, in
//! any order; those that come near each other are then followed again together, in the
//! order of their hits' moments, answering each other ([`meet`]). The pieces then go
//! through the broad and narrow phases like any entry: sensors and other responders see the
//! real path, and the report merges a pair's contacts over the pieces as it merges a
//! polyline's edges.
//!
//! Where the responder meets a sharp corner of a solid, the corner may be flush with other
//! solids (the next tile, level with the floor; the tile above, in a wall): the normals are
//! those the union of the solids there allows, and a sharp corner of the responder's own
//! allows ([`contact_normal`](crate::narrow::contact_normal)). It blocks only if the motion goes into the solid along every
//! one of them, and is answered along the one that opposes it least. Of contacts at the same
//! moment, those with one normal are answered first.

use super::entries::{BoxIndex, Entries, Entry, Slot, TickEntries};
use super::gather::Motions;
use super::parts::run_parts;
use super::rest::RestingColliders;
use super::shapes::{EVENT_SKIN, inflate};
use crate::SweepSettings;
use crate::narrow::{Shape, ShapePath};
use crate::plugin::answer::{Answering, clip};
use crate::plugin::character::{Piece, Walks};
use crate::plugin::components::Composites;
use crate::plugin::components::placement::world_plane;
use crate::plugin::query::{Scene, Searched};
use crate::plugin::{KinematicCharacter, Mass, OneWay, Response, SweepStats, SweptPath, Velocity};
use bevy::ecs::entity::EntityHashMap;
use bevy::ecs::prelude::*;
use bevy::ecs::system::NonSendMarker;
use bevy::math::bounding::Aabb2d;
use bevy::math::{Affine2, Vec2};
use bevy::platform::time::Instant;
use bevy::transform::components::Transform;

/// The most hits a responder answers in one tick; past them it stays where the last left it
/// for the rest of the tick (its velocity is still answered next tick).
const MOST_HITS: usize = 32;

mod answer;
mod group;
mod meet;

use answer::answer;

/// This tick's solids: the swept entries that block, with the index over them, and the
/// one-way directions. What the characters walk against and the responders answer.
#[derive(Resource, Default)]
pub(crate) struct Solids {
    /// The swept entries that block (by slot), their bounds, and the index over them. Empty
    /// in a tick without responders.
    list: Vec<u32>,
    bounds: Vec<Aabb2d>,
    index: BoxIndex,
    /// Each [`OneWay`] collider's direction in the world at the end of the tick.
    pub(crate) one_way: EntityHashMap<Vec2>,
}

impl Solids {
    /// The solids where they start this tick, and the resting colliders, as the walk
    /// searches them (`composites`: which edges of a polygon's pieces are its outline, for
    /// one-way polygons and the push out of them).
    pub(crate) fn scene<'a>(
        &'a self,
        motions: &'a Motions,
        resting: &'a RestingColliders,
        composites: &'a Composites,
    ) -> Scene<'a> {
        Scene {
            groups: [
                Searched::new(&motions.entries, &self.index, Some(&self.list)),
                Searched::new(&resting.group.entries, &resting.group.index, None),
            ],
            moment: 0.0,
            one_way: &self.one_way,
            composites: Some(composites),
        }
    }
}

/// Indexes this tick's solids (if some collider answers hits) and the one-way directions.
pub(crate) fn index_solids(
    _main_thread: NonSendMarker,
    motions: Res<Motions>,
    mut solids: ResMut<Solids>,
    one_way: Query<(Entity, &OneWay)>,
    transforms: Query<(&Transform, Option<&ChildOf>)>,
) {
    let solids = &mut *solids;
    one_way_directions(&mut solids.one_way, &one_way, &transforms);
    solids.list.clear();
    solids.bounds.clear();
    if motions.entries.list.iter().any(Entry::responder) {
        for (i, e) in (0u32..).zip(&motions.entries.list) {
            if e.blocks() {
                solids.list.push(i);
                solids.bounds.push(motions.bounds[i as usize]);
            }
        }
    }
    solids.index.build(&solids.bounds);
}

/// The respond phase's hand-off, written by [`respond`] alone: every swept collider's path
/// as the tick sweeps it (the gathered paths of [`Motions`], with the characters' walks and
/// the responders' pieces put in), their swept bounds, and the hits answered.
#[derive(Resource, Default)]
pub(crate) struct Paths {
    /// The swept colliders' entries: those of [`Motions`], in the same order, but that a
    /// responder that walked or hit something has its one entry replaced by the first piece
    /// of its real path, and its further pieces come after all the others. Empty in a tick
    /// in which nothing walked or hit anything (see [`entries`](Self::entries)).
    entries: Entries,
    /// Their swept bounds, in the same order.
    bounds: Vec<Aabb2d>,
    /// Nothing walked or hit anything: the paths are the gathered ones, which are read
    /// from [`Motions`] rather than copied.
    gathered: bool,
    /// The hits answered in this tick: the piece that meets the solid, the solid, the part of
    /// the tick they touch for (an instant, or from a stop to the tick's end), and whether it
    /// bounced. The narrow phase adds them to the pairs' contacts: the place of a hit is
    /// computed in `f32`, and may be a rounding error short of the solid (or into it, which
    /// the kernels see as a contact of a few ulps of time: a bounce is an instant).
    pub(crate) hits: Vec<(Slot, Slot, [f32; 2], bool)>,
}

/// The respond phase's scratch: the responders' entries, and each part's answers.
#[derive(Default)]
pub(crate) struct Responders {
    movers: Vec<u32>,
    /// Each part's answers, with the place of each responder's ask.
    parts: Vec<Vec<(usize, Answer)>>,
}

/// How the tick went for one responder that hit something.
#[derive(Clone, Debug)]
struct Answer {
    /// Its entry.
    entry: u32,
    /// The pieces of its path: each window of the tick and the shapes at its ends.
    pieces: Vec<Piece>,
    /// How far it ends from where its straight path ended.
    moved: Vec2,
    /// Its velocity after the tick.
    velocity: Vec2,
    /// It hit something (else it was only pushed out).
    hit: bool,
    /// The normals of the surfaces that stopped it.
    normals: Vec<Vec2>,
    /// Each hit: the piece that meets the solid, the solid, and when.
    contacts: Vec<(usize, Slot, f32)>,
    /// It bounces (its hits are instants).
    bounces: bool,
    /// It stops (its hits last).
    stops: bool,
}

/// What a responder needs to know to find its path.
struct Ask {
    entry: Entry,
    path: ShapePath,
    answering: Answering,
    duration: f32,
    /// Its `Velocity`.
    velocity: Vec2,
    /// How far a push out of a solid may go in one tick.
    max_push: f32,
    /// An overlap no deeper than this is not pushed out of.
    tolerance: f32,
    /// A character: it has moved against the still solids already (move-and-slide), and
    /// answers only those that move.
    character: bool,
    /// A character's walk, where it hit something on its way: its pieces ([`Walks`]).
    walk: Vec<Piece>,
    /// How it answers the movers it meets.
    push: Push,
}

/// How a responder answers another that it meets.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Push {
    /// It is pushed: it exchanges momentum with another that is pushed, of its finite mass
    /// and restitution (a slide's is 0).
    Pushed { mass: f64, restitution: f32 },
    /// It is never pushed (a `Stop`, a character, an infinite [`Mass`]).
    Never,
}

/// What a responder may run into: the tick's entries, the solids' index, the resting index,
/// and the one-way directions.
#[derive(Clone, Copy)]
struct Obstacles<'a> {
    entries: TickEntries<'a>,
    solids: &'a [u32],
    index: &'a BoxIndex,
    resting: &'a BoxIndex,
    one_way: &'a EntityHashMap<Vec2>,
    /// The shapes of the polygons and compounds, for the edges a push out of one of their
    /// pieces may leave through.
    composites: &'a Composites,
}

impl Obstacles<'_> {
    /// The solids that `mover` meets at `at` (within `near` of it) at `when` in the tick,
    /// but `except`, as shapes: what a corner of `except` there may be flush with. One-way
    /// solids, which a mover may be inside, are left out.
    fn solids_at(&self, mover: &Entry, except: Slot, when: f32, at: Vec2, near: f32) -> Vec<Shape> {
        let bounds = Aabb2d {
            min: at - Vec2::splat(near),
            max: at + Vec2::splat(near),
        };
        let mut found = Vec::new();
        let mut consider = |slot: Slot| {
            let solid = self.entries.entry(slot);
            if slot != except
                && solid.blocks()
                && !solid.one_way()
                && !solid.passed()
                && mover.interacts_with(solid)
            {
                found.push(self.entries.path(slot).at(when));
            }
        };
        self.index.broad.query(&bounds, |k| {
            consider(Slot::swept(self.solids[self.index.entry(k) as usize]));
        });
        self.resting.broad.query(&bounds, |k| {
            consider(Slot::resting(self.resting.entry(k)));
        });
        found
    }
}

/// A responder's parts the phase reads and writes.
type Mover = (
    &'static mut Transform,
    &'static mut Velocity,
    &'static mut SweptPath,
    Option<&'static Response>,
    Option<&'static KinematicCharacter>,
    Option<&'static Mass>,
);

/// Finds the responders' real paths, and hands every swept collider's path on as
/// [`Paths`].
#[allow(clippy::too_many_arguments, reason = "a system's parameters")]
pub(crate) fn respond(
    _main_thread: NonSendMarker,
    settings: Res<SweepSettings>,
    motions: Res<Motions>,
    solids: Res<Solids>,
    resting: Res<RestingColliders>,
    walks: Res<Walks>,
    composites: Res<Composites>,
    mut paths: ResMut<Paths>,
    mut state: Local<Responders>,
    mut movers: Query<Mover>,
    mut stats: ResMut<SweepStats>,
) {
    let began = Instant::now();
    let paths = &mut *paths;
    paths.hits.clear();
    let state = &mut *state;
    state.movers.clear();
    state.movers.extend(
        (0u32..)
            .zip(&motions.entries.list)
            .filter(|(_, e)| e.responder())
            .map(|(i, _)| i),
    );
    // Without a responder nothing walks or is answered: the paths are the gathered ones.
    paths.gathered = state.movers.is_empty();
    if !paths.gathered {
        paths.take_walks(&motions, &walks);
    }
    stats.answered_hits = 0;
    stats.out_of_hits = 0;
    stats.crowded = 0;
    if !state.movers.is_empty() {
        let asks = asks(&state.movers, paths, &walks, &movers, motions.duration);
        let obstacles = Obstacles {
            entries: TickEntries {
                swept: &paths.entries,
                resting: &resting.group.entries,
            },
            solids: &solids.list,
            index: &solids.index,
            resting: &resting.group.index,
            one_way: &solids.one_way,
            composites: &composites,
        };
        let count = (asks.len() / 64).clamp(1, 32);
        let parts = &mut state.parts;
        parts.resize_with(count.max(parts.len()), Vec::new);
        run_parts(&settings, &mut parts[..count], |p, out| {
            out.clear();
            let range = asks.len() * p / count..asks.len() * (p + 1) / count;
            out.extend(
                asks[range.clone()]
                    .iter()
                    .zip(range)
                    .filter_map(|((i, ask), k)| Some((k, answer(*i, ask, obstacles)?))),
            );
        });
        let mut answers: Vec<Option<Answer>> = vec![None; asks.len()];
        for (k, answer) in parts[..count].iter_mut().flat_map(|p| p.drain(..)) {
            answers[k] = Some(answer);
        }
        // Movers that come near each other are followed again together.
        let (meetings, crowded) = meet::meet(&asks, &mut answers, &paths.bounds, obstacles);
        stats.crowded = crowded;
        let mut pieces = bevy::platform::collections::HashMap::new();
        for answer in answers.iter().flatten() {
            stats.answered_hits += answer.normals.len();
            stats.out_of_hits += usize::from(answer.normals.len() >= MOST_HITS);
            let slots = paths.take_answer(answer, &mut movers);
            pieces.insert(answer.entry, (answer, slots));
        }
        for (a, b, when) in meetings {
            let piece = |i: u32| match pieces.get(&i) {
                Some((answer, slots)) => answer
                    .pieces
                    .iter()
                    .position(|p| p.0[1] >= when)
                    .and_then(|k| slots[k]),
                None => Some(i),
            };
            if let (Some(a), Some(b)) = (piece(a), piece(b)) {
                paths
                    .hits
                    .push((Slot::swept(a), Slot::swept(b), [when, when], true));
            }
        }
    }
    stats.respond_time = began.elapsed();
}

impl Paths {
    /// The swept colliders' entries as the tick sweeps them (`motions`: the gathered ones).
    pub(crate) fn entries<'a>(&'a self, motions: &'a Motions) -> &'a Entries {
        if self.gathered {
            &motions.entries
        } else {
            &self.entries
        }
    }

    /// Their swept bounds, in the same order.
    pub(crate) fn bounds<'a>(&'a self, motions: &'a Motions) -> &'a [Aabb2d] {
        if self.gathered {
            &motions.bounds
        } else {
            &self.bounds
        }
    }

    /// The gathered paths, each walking character's replaced by its walk.
    fn take_walks(&mut self, motions: &Motions, walks: &Walks) {
        self.entries.copy_from(&motions.entries);
        self.bounds.clone_from(&motions.bounds);
        for (i, walk) in &walks.paths {
            let i = *i as usize;
            self.entries.replace(i, self.entries.list[i], walk);
            self.bounds[i] = inflate(walk.swept_bounds());
        }
    }

    /// Puts in one responder's answer: the pieces of its path and its hits, and where the
    /// tick leaves it (its transform, velocity and [`SweptPath`]). Returns each piece's
    /// entry.
    fn take_answer(&mut self, answer: &Answer, movers: &mut Query<Mover>) -> Vec<Option<u32>> {
        let entry = self.entries.list[answer.entry as usize];
        let slots = put_pieces(self, answer);
        for &(piece, solid, time) in &answer.contacts {
            if let Some(Some(slot)) = slots.get(piece) {
                // A stop holds it at the solid (moving with it) to the tick's end.
                let until = if answer.stops { 1.0 } else { time };
                self.hits
                    .push((Slot::swept(*slot), solid, [time, until], answer.bounces));
            }
        }
        let Ok((mut transform, mut velocity, mut swept, response, character, _)) =
            movers.get_mut(entry.entity)
        else {
            return slots;
        };
        transform.translation += answer.moved.extend(0.0);
        if let Some(plane) = swept.previous_world {
            let mut plane = Affine2::from(plane);
            plane.translation += answer.moved;
            swept.previous_world = Some(plane.into());
        }
        if let Some(&(_, start, end)) = answer.pieces.last()
            && let Some(path) = ShapePath::between(start, end)
        {
            swept.set_path(&path);
        }
        if answer.hit {
            velocity.0 = if character.is_some() {
                // A character loses the part of its velocity into what stopped it.
                answer.normals.iter().fold(velocity.0, |v, &n| clip(v, n))
            } else if response == Some(&Response::Stop) {
                Vec2::ZERO
            } else {
                answer.velocity
            };
        }
        slots
    }
}

/// What each responder asks of the tick: its path, how it answers a hit, and its walk.
fn asks(
    movers_at: &[u32],
    paths: &Paths,
    walks: &Walks,
    movers: &Query<Mover>,
    duration: f32,
) -> Vec<(u32, Ask)> {
    movers_at
        .iter()
        .filter_map(|&i| {
            let entry = paths.entries.list[i as usize];
            let (_, velocity, _, response, character, mass) = movers.get(entry.entity).ok()?;
            let (answering, max_push, tolerance) = match (character, response) {
                (Some(c), _) => {
                    let c = c.sanitized().0;
                    // Swept grown by a little more than its skin: it stands overlapping
                    // by that little.
                    (
                        Answering::Slide,
                        c.max_push,
                        c.skin * (EVENT_SKIN - 1.0) * 2.0,
                    )
                }
                (None, Some(Response::Bounce { restitution })) => {
                    (Answering::Bounce(*restitution), f32::INFINITY, 0.0)
                }
                (None, Some(Response::Slide)) => (Answering::Slide, f32::INFINITY, 0.0),
                (None, Some(Response::Stop)) => (Answering::Stop, f32::INFINITY, 0.0),
                (None, None) => return None,
            };
            let push = match (character, response, mass.map_or(1.0, |m| m.0)) {
                (None, Some(Response::Bounce { restitution }), m) if m.is_finite() => {
                    Push::Pushed {
                        mass: f64::from(m),
                        restitution: *restitution,
                    }
                }
                (None, Some(Response::Slide), m) if m.is_finite() => Push::Pushed {
                    mass: f64::from(m),
                    restitution: 0.0,
                },
                _ => Push::Never,
            };
            Some((
                i,
                Ask {
                    push,
                    entry,
                    path: paths.entries.path(i as usize),
                    answering,
                    duration,
                    velocity: velocity.0,
                    max_push,
                    tolerance,
                    character: character.is_some(),
                    walk: walks
                        .pieces
                        .binary_search_by_key(&i, |(entry, _)| *entry)
                        .map(|k| walks.pieces[k].1.clone())
                        .unwrap_or_default(),
                },
            ))
        })
        .collect()
}

/// Each one-way collider's direction in the world (turned with its transform).
fn one_way_directions(
    out: &mut EntityHashMap<Vec2>,
    one_way: &Query<(Entity, &OneWay)>,
    transforms: &Query<(&Transform, Option<&ChildOf>)>,
) {
    out.clear();
    for (entity, &OneWay(direction)) in one_way {
        let world = world_plane(entity, transforms)
            .ok()
            .and_then(|plane| (plane.matrix2 * *direction).try_normalize())
            .unwrap_or(*direction);
        out.insert(entity, world);
    }
}

/// Replaces entry `answer.entry` by the pieces of its path (the first in its place, the
/// others at the end), with their bounds; returns each piece's entry.
fn put_pieces(paths: &mut Paths, answer: &Answer) -> Vec<Option<u32>> {
    let mut slots = Vec::with_capacity(answer.pieces.len());
    let i = answer.entry as usize;
    let entry = paths.entries.list[i];
    let last = answer.pieces.len() - 1;
    for (k, &(window, start, end)) in answer.pieces.iter().enumerate() {
        let Some(path) = ShapePath::between(start, end).filter(ShapePath::is_valid) else {
            slots.push(None);
            continue;
        };
        let bounds = inflate(path.swept_bounds());
        let piece = entry.piece(k as u32, k == last);
        if k == 0 {
            paths.entries.replace(i, piece, &path);
            paths.entries.set_window(i, window);
            paths.bounds[i] = bounds;
            slots.push(Some(i as u32));
        } else {
            let at = paths.entries.len();
            slots.push(Some(at as u32));
            paths.entries.push(piece, &path);
            paths.entries.set_window(at, window);
            paths.bounds.push(bounds);
        }
    }
    slots
}

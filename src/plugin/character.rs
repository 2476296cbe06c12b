//! **Walk**: each [`KinematicCharacter`]'s move-and-slide, inside the tick.
//!
//! Reads: the characters, their [`Velocity`] and [`CharacterState`], the velocity of what
//! each stands on, the solids where they start this tick ([`Motions`] through
//! [`Solids`], and [`RestingColliders`]), and the polygons' shapes ([`Composites`]: which
//! edges of their pieces are the outline).
//! Writes: [`Walks`] (each character's path to where it walks, and the pieces of the walks
//! that hit something), their `Transform`, [`Velocity`], [`CharacterState`] and
//! [`SweptPath`], and [`SweepStats::character_time`].
//!
//! A character walks against the colliders as they are at the start of this tick: a wall
//! spawned, teleported, moved by game code or switched back on since the last tick stops it
//! like any other. The respond phase that follows holds its motion against this tick's
//! motion of the colliders that move (a platform rising into it, a door closing on it) like
//! any responder's.

use super::answer::{Surface, along_surface, clip, walkable};
use super::components::Composites;
use super::components::placement::plane_of_root;
use super::query::{
    MoveAndSlideConfig, MoveAndSlideHit, MoveAndSlideOutput, QueryFilter, Scene, ShapeCastHit,
};
use super::tick::entries::Entry;
use super::tick::gather::Motions;
use super::tick::respond::Solids;
use super::tick::rest::RestingColliders;
use super::{
    CharacterState, Collider, ColliderDisabled, KinematicCharacter, SweepStats, SweptPath, Velocity,
};
use crate::narrow::{Shape, ShapePath};
use bevy::ecs::prelude::*;
use bevy::ecs::query::QueryItem;
use bevy::ecs::system::NonSendMarker;
use bevy::math::{Affine2, Vec2};
use bevy::platform::time::Instant;
use bevy::time::Time;
use bevy::transform::components::Transform;

/// A character's parts the walk reads and writes.
type Character = (
    &'static Collider,
    &'static KinematicCharacter,
    &'static mut CharacterState,
    &'static mut Transform,
    &'static mut Velocity,
    &'static mut SweptPath,
);

/// Moves every character by move-and-slide along its velocity (and with what it stands
/// on), against the solids where they start this tick, and hands its path on in [`Walks`].
#[allow(clippy::too_many_arguments, reason = "a system's parameters")]
pub(crate) fn move_characters(
    _main_thread: NonSendMarker,
    time: Res<Time>,
    motions: Res<Motions>,
    solids: Res<Solids>,
    resting: Res<RestingColliders>,
    composites: Res<Composites>,
    mut characters: Query<Character, Without<ColliderDisabled>>,
    platforms: Query<&Velocity, Without<KinematicCharacter>>,
    mut walked: Local<Vec<(usize, Vec2, Vec<(f32, Vec2)>)>>,
    mut walks: ResMut<Walks>,
    mut stats: ResMut<SweepStats>,
) {
    let began = Instant::now();
    let dt = time.delta_secs();
    walked.clear();
    walks.paths.clear();
    walks.pieces.clear();
    if characters.is_empty() {
        stats.character_time = began.elapsed();
        return;
    }
    let mut waypoints = Vec::new();
    let scene = solids.scene(&motions, &resting, &composites);
    for (i, entry) in motions.entries.list.iter().enumerate() {
        if !entry.responder() {
            continue;
        }
        let Ok(character) = characters.get_mut(entry.entity) else {
            continue;
        };
        let moved = walk_one(character, entry, &scene, &platforms, dt, &mut waypoints);
        if let Some((moved, offsets)) = moved {
            walked.push((i, moved, offsets));
        }
    }
    walks.record(&motions, &walked, &mut characters);
    stats.character_time = began.elapsed();
}

/// One character's walk this tick: it moves (its transform, velocity and state set where
/// the walk leaves it); returns how far it moved and, if it moved, where it was at each
/// hit (`when`, offset from where it started).
fn walk_one(
    (collider, settings, mut state, mut transform, mut velocity, _): QueryItem<'_, '_, Character>,
    entry: &Entry,
    scene: &Scene,
    platforms: &Query<&Velocity, Without<KinematicCharacter>>,
    dt: f32,
    waypoints: &mut Vec<(f32, Vec2)>,
) -> Option<(Vec2, Vec<(f32, Vec2)>)> {
    let (settings, bad) = settings.sanitized();
    if bad && !state.warned {
        state.warned = true;
        log::warn!(
            "bevy_sweep: character {} has an unusable skin, max_slope, step_height, \
             snap_to_ground or max_push (non-positive, NaN or out of range): the default is \
             used instead",
            entry.entity
        );
    }
    let plane = plane_of_root(&transform);
    let walker = Walker {
        scene,
        shape: collider.shape_in(&plane),
        origin: plane.translation,
        settings: &settings,
        filter: QueryFilter::default().with_layers(entry.layers.filters),
        me: entry.entity,
    };
    // What it stands on moves it: the ground it stood on at the end of the last tick, or,
    // if it stood on none (spawned, teleported, in the air), the ground under it where it
    // starts this tick, so that one spawned on a moving platform rides from its first tick.
    let ground_velocity = state
        .ground_entity
        .filter(|_| state.grounded)
        .or_else(|| walker.standing_on(plane.translation))
        .and_then(|ground| Some((ground, platforms.get(ground).ok()?.0)));
    let before = plane.translation;
    let (at, v) = walker.walk(
        &mut state,
        before,
        velocity.0,
        ground_velocity,
        dt,
        waypoints,
    );
    state.moved = at - before;
    if v != velocity.0 {
        velocity.0 = v;
    }
    (at != before).then(|| {
        transform.translation = at.extend(transform.translation.z);
        let offsets = waypoints.iter().map(|&(when, p)| (when, p - before));
        (at - before, offsets.collect())
    })
}

impl Walks {
    /// Takes each character that moved (by entry, in order): its path from where it started
    /// to where it walked, the pieces of a walk that hit something, and its [`SweptPath`].
    fn record(
        &mut self,
        motions: &Motions,
        walked: &[(usize, Vec2, Vec<(f32, Vec2)>)],
        characters: &mut Query<Character, Without<ColliderDisabled>>,
    ) {
        // Each character's path now goes to where it walked; the path, and the pieces of its walk
        // (from where it starts this tick to each place it hit something, and on), are handed to
        // the responders' answers.
        for (i, moved, offsets) in walked {
            let (i, moved) = (*i, *moved);
            let entry = motions.entries.list[i];
            let path = motions.entries.path(i);
            let Some(walk) = ShapePath::between(path.at(0.0), path.at(1.0).translated(moved))
            else {
                continue;
            };
            if offsets.len() > 1 {
                let mut pieces = Vec::with_capacity(offsets.len());
                let (mut when, mut from) = (0.0, path.at(0.0));
                for &(until, offset) in offsets {
                    let to = path.at(1.0).translated(offset);
                    if until > when {
                        pieces.push(([when, until], from, to));
                    }
                    (when, from) = (until, to);
                }
                self.pieces.push((i as u32, pieces));
            }
            self.paths.push((i as u32, walk));
            if let Ok((.., mut swept)) = characters.get_mut(entry.entity) {
                swept.set_path(&walk);
                if let Some(plane) = swept.previous_world {
                    let mut plane = Affine2::from(plane);
                    plane.translation += moved;
                    swept.previous_world = Some(plane.into());
                }
            }
        }
    }
}

/// The characters' walks in this tick, by entry (in order), written by [`move_characters`]
/// alone: each walking character's path from where it started to where it walked; and,
/// for those that hit something on their way, each piece's window of the tick and its
/// shapes at the window's ends. The responders' answers make them the characters' paths
/// unless something moving meets them.
#[derive(Resource, Default)]
pub(crate) struct Walks {
    pub(crate) paths: Vec<(u32, ShapePath)>,
    pub(crate) pieces: Vec<(u32, Vec<Piece>)>,
}

/// One piece of a path: its window of the tick, and the shapes at the window's ends.
pub(crate) type Piece = ([f32; 2], Shape, Shape);

/// Where a character stands after its walk: on `ground` (walkable, within its skin) or
/// not, against a wall if one of its `hits` was not walkable.
fn stand(state: &mut CharacterState, ground: Option<&ShapeCastHit>, hits: &[MoveAndSlideHit]) {
    state.grounded = ground.is_some();
    state.ground_normal = ground.map(|hit| hit.normal);
    state.ground_entity = ground.map(|hit| hit.entity);
    state.on_wall = hits.iter().any(|h| !h.walkable);
    state.grounded_ticks = if state.grounded {
        state.grounded_ticks.saturating_add(1)
    } else {
        0
    };
}

/// One character's walk.
struct Walker<'a> {
    scene: &'a Scene<'a>,
    /// Its shape where it stands, in the world (scaled and turned as its transform says).
    shape: Shape,
    /// Where it stands: its transform's translation.
    origin: Vec2,
    settings: &'a KinematicCharacter,
    filter: QueryFilter,
    /// The character itself, never hit.
    me: Entity,
}

impl Walker<'_> {
    /// Walks from `before` along `velocity` for `dt` (and with what it stands on, which
    /// moves at `ground_velocity`), updating `state`; returns where it ends and its velocity
    /// after the walk, and into `waypoints` where it is at each hit of its move and at the
    /// end, with when (fractions of the tick).
    fn walk(
        &self,
        state: &mut CharacterState,
        before: Vec2,
        velocity: Vec2,
        ground_velocity: Option<(Entity, Vec2)>,
        dt: f32,
        waypoints: &mut Vec<(f32, Vec2)>,
    ) -> (Vec2, Vec2) {
        let settings = self.settings;
        let up = *settings.up;
        let rising = velocity.dot(up) > 0.0;
        let mut motion = velocity * dt;
        // On the ground, the move goes along it from the start (which saves the cast that
        // would first find the ground under it).
        if state.grounded
            && !rising
            && let Some(normal) = state.ground_normal
        {
            motion = along_surface(motion, normal, Surface::Walkable, up);
        }
        waypoints.clear();
        let out = self.scene.slide(
            &[self.shape_at(before)],
            before,
            motion,
            &self.config(),
            &self.filter,
            &[self.me],
            Some(waypoints),
        );
        let mut at = out.translation;
        let mut hits = out.hits.clone();
        // Step up a ledge: from higher up, the same move, then down onto it.
        if settings.step_height > 0.0
            && state.grounded
            && !rising
            && out.hits.iter().any(|h| !h.walkable)
            && let Some(stepped) = self.step_up(before, motion, &out)
        {
            at = stepped.translation;
            hits = stepped.hits;
            // Up and over in one go.
            waypoints.clear();
        }
        let ground = self.ground(state, &mut at, motion, rising);
        stand(state, ground.as_ref().map(|(hit, _)| hit), &hits);
        // What it stood on moves it too; that is done last, so that its own move, its step,
        // its snap and its ground are all found where the colliders start this tick, the
        // platform included.
        if let Some((platform, v)) = ground_velocity {
            let carry = v * dt;
            if carry != Vec2::ZERO && carry.is_finite() {
                at = self.slide_by(at, carry, &[self.me, platform]).translation;
            }
        }
        // The snap to the ground, the step and the ride end the walk where it ends.
        match waypoints.last_mut() {
            Some(last) => *last = (1.0, at),
            None => waypoints.push((1.0, at)),
        }
        // It loses the velocity into what stopped it; on walkable ground, all of its
        // velocity down (not only the part into the slope, which would leave it sliding
        // down the slope); against a face too steep to stand on, what goes into it, and
        // never so as to rise up it.
        let stop = |v: Vec2, n: Vec2, walkable: bool| {
            if walkable {
                clip(v, up)
            } else {
                along_surface(v, n, Surface::Steep, up)
            }
        };
        let mut v = hits
            .iter()
            .fold(velocity, |v, h| stop(v, h.normal, h.walkable));
        if let Some((hit, _)) = ground {
            v = stop(v, hit.normal, true);
        }
        (at, v)
    }

    /// The walkable ground under the character at `at`, and how far down it is: within skin
    /// (and a little rounding) of it. Walking (grounded and not rising) it keeps to the
    /// ground down a slope or off a small step: the ground within the snap's reach is found
    /// by the same cast, and `at` moved down to it.
    fn ground(
        &self,
        state: &CharacterState,
        at: &mut Vec2,
        motion: Vec2,
        rising: bool,
    ) -> Option<(ShapeCastHit, f32)> {
        let (settings, up) = (self.settings, *self.settings.up);
        if state.grounded && !rising {
            let across = (motion - up * motion.dot(up)).length();
            let snap = settings.snap_to_ground
                + across * bevy::math::ops::tan(settings.max_slope).min(100.0);
            self.cast(*at, -up, snap + settings.skin * 2.0)
                .filter(|(hit, _)| self.walkable(hit.normal))
                .inspect(|(hit, distance)| {
                    // Down to `skin` from the ground, measured along its normal.
                    let gap = settings.skin / hit.normal.dot(up).max(0.1);
                    if *distance > gap {
                        *at -= up * (distance - gap);
                    }
                })
        } else {
            self.cast(*at, -up, settings.skin * 2.0)
                .filter(|(hit, _)| self.walkable(hit.normal))
        }
    }

    fn config(&self) -> MoveAndSlideConfig {
        MoveAndSlideConfig {
            skin: self.settings.skin,
            max_slides: 4,
            max_slope: Some(self.settings.max_slope),
            up: self.settings.up,
            depenetrate: false,
        }
    }

    /// Its move from `at` by `motion`, leaving out `skip`.
    fn slide_by(&self, at: Vec2, motion: Vec2, skip: &[Entity]) -> MoveAndSlideOutput {
        let shape = self.shape_at(at);
        self.scene.slide(
            &[shape],
            at,
            motion,
            &self.config(),
            &self.filter,
            skip,
            None,
        )
    }

    /// The first blocking hit within `distance` in `direction`, and how far.
    /// The walkable ground within `skin` (and rounding) under the character at `at`.
    fn standing_on(&self, at: Vec2) -> Option<Entity> {
        let up = *self.settings.up;
        self.cast(at, -up, self.settings.skin * 2.0)
            .filter(|(hit, _)| self.walkable(hit.normal))
            .map(|(hit, _)| hit.entity)
    }

    fn cast(&self, at: Vec2, direction: Vec2, distance: f32) -> Option<(ShapeCastHit, f32)> {
        self.scene.probe(
            &[self.shape_at(at)],
            at,
            direction,
            distance,
            &self.filter,
            &[self.me],
        )
    }

    /// Its shape with its reference point (its transform's translation) at `at`.
    fn shape_at(&self, at: Vec2) -> Shape {
        self.shape.translated(at - self.origin)
    }

    fn walkable(&self, normal: Vec2) -> bool {
        walkable(normal, *self.settings.up, self.settings.max_slope)
    }

    /// The move from `before` made from `step_height` higher and set down again, if it lands
    /// on walkable ground and gets further along than `walked` did.
    fn step_up(
        &self,
        before: Vec2,
        motion: Vec2,
        walked: &MoveAndSlideOutput,
    ) -> Option<MoveAndSlideOutput> {
        let up = *self.settings.up;
        let height = self.settings.step_height;
        let raised = self.slide_by(before, up * height, &[self.me]);
        let risen = (raised.translation - before).dot(up);
        if risen <= self.settings.skin {
            return None;
        }
        let across = motion - up * motion.dot(up);
        let moved = self.slide_by(raised.translation, across, &[self.me]);
        let (hit, distance) = self.cast(moved.translation, -up, risen + self.settings.skin)?;
        if !self.walkable(hit.normal) {
            return None;
        }
        let gap = self.settings.skin / hit.normal.dot(up).max(0.1);
        let landed = moved.translation - up * (distance - gap).max(0.0);
        let gained = (landed - before).dot(across) - (walked.translation - before).dot(across);
        (gained > self.settings.skin).then_some(MoveAndSlideOutput {
            translation: landed,
            ..moved
        })
    }
}

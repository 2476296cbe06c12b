//! [`KinematicCharacter`]s: moved each tick by move-and-slide, before the sweep.
//!
//! Reads: the characters, their [`Velocity`] and [`CharacterState`], the velocity of what
//! each stands on, and the colliders where the last tick left them ([`SweepQuery`]).
//! Writes: the characters' `Transform`, [`Velocity`] and [`CharacterState`].
//!
//! A character moves against the colliders as the last tick left them. The sweep that
//! follows holds its motion against this tick's motion of the colliders that move (a
//! platform rising into it, a door closing on it) like any responder's.

use super::query::{MoveAndSlideConfig, MoveAndSlideOutput, QueryFilter, SweepQuery, slide};
use super::{
    CharacterState, Collider, ColliderDisabled, CollisionLayers, KinematicCharacter, SweepStats,
    Velocity,
};
use bevy::ecs::prelude::*;
use bevy::ecs::system::NonSendMarker;
use bevy::math::{Isometry2d, Rot2, Vec2};
use bevy::platform::time::Instant;
use bevy::time::Time;
use bevy::transform::components::Transform;

/// A character's parts the move reads and writes.
type Character = (
    Entity,
    &'static Collider,
    &'static KinematicCharacter,
    &'static mut CharacterState,
    &'static mut Transform,
    &'static mut Velocity,
    Option<&'static CollisionLayers>,
    Has<ChildOf>,
);

/// Moves every character by move-and-slide along its velocity (and with what it stands on).
pub(crate) fn move_characters(
    _main_thread: NonSendMarker,
    time: Res<Time>,
    query: SweepQuery,
    mut characters: Query<Character, Without<ColliderDisabled>>,
    platforms: Query<&Velocity, Without<KinematicCharacter>>,
    mut stats: ResMut<SweepStats>,
) {
    let began = Instant::now();
    let dt = time.delta_secs();
    for (entity, collider, settings, mut state, mut transform, mut velocity, layers, child) in
        &mut characters
    {
        // A child, a polyline, a bad shape: swept without answering (the gather warns).
        if child || collider.is_polyline() || collider.problem().is_some() {
            continue;
        }
        let (settings, bad) = settings.sanitized();
        if bad && !state.warned {
            state.warned = true;
            log::warn!(
                "bevy_sweep: character {entity} has an unusable skin, max_slope, step_height, \
                 snap_to_ground or max_push (non-positive, NaN or out of range): the default is \
                 used instead"
            );
        }
        if !(velocity.0.is_finite() && transform.translation.is_finite()) {
            continue;
        }
        let filter = QueryFilter::default().with_layers(layers.map_or(u32::MAX, |l| l.filters));
        let rotation = Rot2::from(transform.rotation.to_euler(bevy::math::EulerRot::XYZ).2);
        let mover = Mover {
            query: &query,
            shape: collider,
            rotation,
            settings: &settings,
            filter: &filter,
            me: entity,
        };
        let before = transform.translation.truncate();
        // What it stands on moves it too; that is done last, so that its own move, its step,
        // its snap and its ground are all found among the colliders as the last tick left
        // them, the platform included.
        let carried = state
            .ground_entity
            .filter(|_| state.grounded)
            .and_then(|ground| Some((ground, platforms.get(ground).ok()?.0 * dt)))
            .filter(|(_, carry)| *carry != Vec2::ZERO && carry.is_finite());
        let up = *settings.up;
        let rising = velocity.0.dot(up) > 0.0;
        let mut motion = velocity.0 * dt;
        // On the ground, the move goes along it from the start (which saves the cast that
        // would first find the ground under it).
        if state.grounded
            && !rising
            && let Some(normal) = state.ground_normal
        {
            motion = slide(motion, normal, true, up);
        }
        let out = mover.slide(before, motion, &[entity]);
        let mut at = out.translation;
        let mut hits = out.hits.clone();
        // Step up a ledge: from higher up, the same move, then down onto it.
        if settings.step_height > 0.0
            && state.grounded
            && !rising
            && out.hits.iter().any(|h| !h.walkable)
            && let Some(stepped) = mover.step_up(before, motion, &out)
        {
            at = stepped.translation;
            hits = stepped.hits;
        }
        // Grounded: within skin (and a little rounding) of walkable ground. Walking (grounded
        // and not rising) it keeps to the ground down a slope or off a small step: the
        // ground within the snap's reach is found by the same cast.
        let ground = if state.grounded && !rising {
            let across = (motion - up * motion.dot(up)).length();
            let snap = settings.snap_to_ground
                + across * bevy::math::ops::tan(settings.max_slope).min(100.0);
            mover
                .cast(at, -up, snap + settings.skin * 2.0)
                .filter(|(hit, _)| mover.walkable(hit.normal))
                .inspect(|(hit, distance)| {
                    // Down to `skin` from the ground, measured along its normal.
                    let gap = settings.skin / hit.normal.dot(up).max(0.1);
                    if *distance > gap {
                        at -= up * (distance - gap);
                    }
                })
        } else {
            mover
                .cast(at, -up, settings.skin * 2.0)
                .filter(|(hit, _)| mover.walkable(hit.normal))
        };
        state.grounded = ground.is_some();
        state.ground_normal = ground.map(|(hit, _)| hit.normal);
        state.ground_entity = ground.map(|(hit, _)| hit.entity);
        state.on_wall = hits.iter().any(|h| !h.walkable);
        state.grounded_ticks = if state.grounded {
            state.grounded_ticks.saturating_add(1)
        } else {
            0
        };
        if let Some((platform, carry)) = carried {
            at = mover.slide(at, carry, &[entity, platform]).translation;
        }
        // It loses the velocity into what stopped it; on walkable ground, all of its
        // velocity down (not only the part into the slope, which would leave it sliding
        // down the slope).
        let stop = |v: Vec2, n: Vec2, walkable: bool| {
            let n = if walkable { up } else { n };
            v - v.dot(n).min(0.0) * n
        };
        let mut v = hits
            .iter()
            .fold(velocity.0, |v, h| stop(v, h.normal, h.walkable));
        if let Some((hit, _)) = ground {
            v = stop(v, hit.normal, true);
        }
        state.moved = at - before;
        if at != before {
            transform.translation = at.extend(transform.translation.z);
        }
        if v != velocity.0 {
            velocity.0 = v;
        }
    }
    stats.character_time = began.elapsed();
}

/// One character's moves.
struct Mover<'a, 'w> {
    query: &'a SweepQuery<'w>,
    shape: &'a Collider,
    rotation: Rot2,
    settings: &'a KinematicCharacter,
    filter: &'a QueryFilter,
    /// The character itself, never hit.
    me: Entity,
}

impl Mover<'_, '_> {
    fn config(&self) -> MoveAndSlideConfig {
        MoveAndSlideConfig {
            skin: self.settings.skin,
            max_slides: 4,
            max_slope: Some(self.settings.max_slope),
            up: self.settings.up,
            depenetrate: false,
        }
    }

    fn slide(&self, at: Vec2, motion: Vec2, skip: &[Entity]) -> MoveAndSlideOutput {
        self.query.slide(
            self.shape,
            Isometry2d::new(at, self.rotation),
            motion,
            &self.config(),
            self.filter,
            skip,
        )
    }

    /// The first blocking hit within `distance` in `direction`, and how far.
    fn cast(&self, at: Vec2, direction: Vec2, distance: f32) -> Option<(super::ShapeCastHit, f32)> {
        self.query.probe(
            self.shape,
            Isometry2d::new(at, self.rotation),
            direction,
            distance,
            self.filter,
            &[self.me],
        )
    }

    fn walkable(&self, normal: Vec2) -> bool {
        normal.dot(*self.settings.up) >= bevy::math::ops::cos(self.settings.max_slope) - 1e-6
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
        let raised = self.slide(before, up * height, &[self.me]);
        let risen = (raised.translation - before).dot(up);
        if risen <= self.settings.skin {
            return None;
        }
        let across = motion - up * motion.dot(up);
        let moved = self.slide(raised.translation, across, &[self.me]);
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

//! Move-and-slide in a [`Scene`]: what [`SweepQuery::move_and_slide`] does for a game's
//! own movement and what every [`KinematicCharacter`] does each tick; with the query's
//! method itself and its [`MoveAndSlideConfig`] and [`MoveAndSlideOutput`].
//!
//! [`SweepQuery::move_and_slide`]: super::SweepQuery::move_and_slide
//! [`KinematicCharacter`]: crate::prelude::KinematicCharacter

use super::scene::Scene;
use super::{CastOptions, Placed, QueryFilter, ShapeCastHit, SweepQuery, within_range};
use crate::narrow::{Shape, ShapePath};
use crate::plugin::answer::{Surface, along_surface, clip, push_out, walkable};
use crate::plugin::components::Collider;
use crate::plugin::components::placement::plane_of_isometry;
use bevy::ecs::prelude::*;
use bevy::math::{Dir2, Isometry2d, Vec2};

impl SweepQuery<'_> {
    /// Moves `shape` from `start` by `motion`, sliding along what it hits, as a character
    /// controller does: each hit stops the part of the motion into the surface and the rest
    /// goes on along it, up to [`MoveAndSlideConfig::max_slides`] times. It keeps
    /// [`skin`](MoveAndSlideConfig::skin) away from what it hits, never stops at sensors or
    /// responders, and passes one-way platforms from below. A shape that starts inside
    /// something is first pushed out the shortest way
    /// ([`depenetrate`](MoveAndSlideConfig::depenetrate)).
    ///
    /// Exact like every query: at any speed it never passes through anything. The shape does
    /// not turn. [`KinematicCharacter`](crate::prelude::KinematicCharacter) runs this every
    /// tick for you; call it yourself to drive your own movement.
    ///
    /// ```
    /// use bevy::math::{Isometry2d, Vec2};
    /// use bevy::prelude::*;
    /// use bevy_sweep::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct Player;
    ///
    /// fn walk(
    ///     query: SweepQuery,
    ///     time: Res<Time>,
    ///     mut player: Single<(Entity, &Collider, &mut Transform, &mut Velocity), With<Player>>,
    /// ) {
    ///     let (me, shape, ref mut transform, ref mut velocity) = *player;
    ///     let start = Isometry2d::from_translation(transform.translation.truncate());
    ///     let out = query.move_and_slide(
    ///         shape,
    ///         start,
    ///         velocity.0 * time.delta_secs(),
    ///         &MoveAndSlideConfig::default(),
    ///         &QueryFilter::default().excluding(me),
    ///     );
    ///     transform.translation = out.translation.extend(transform.translation.z);
    ///     // Lose the speed into the walls it hit.
    ///     velocity.0 = out.clip_velocity(velocity.0);
    /// }
    /// # bevy::ecs::system::assert_is_system(walk);
    /// ```
    #[must_use]
    pub fn move_and_slide(
        &self,
        shape: &Collider,
        start: Isometry2d,
        motion: Vec2,
        config: &MoveAndSlideConfig,
        filter: &QueryFilter,
    ) -> MoveAndSlideOutput {
        match Placed::new(shape, &plane_of_isometry(start)) {
            Some(placed) => self.scene().slide(
                placed.shapes(),
                start.translation,
                motion,
                config,
                filter,
                &[],
                None,
            ),
            None => MoveAndSlideOutput {
                translation: start.translation,
                hits: Vec::new(),
                remaining: motion,
                pushed: Vec2::ZERO,
            },
        }
    }
}

/// How [`SweepQuery::move_and_slide`] moves a shape.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveAndSlideConfig {
    /// The gap kept to what it hits, in world units (measured along the surface's normal).
    /// Default: `0.01`.
    pub skin: f32,
    /// How many hits it slides along at most; the motion left after them is dropped.
    /// Default: `4`.
    pub max_slides: usize,
    /// The steepest slope, in radians from `up`, on which a motion pressing down keeps its
    /// horizontal progress instead of sliding down (walkable ground); `None`: every surface
    /// is slid along the same way. Default: `None`.
    pub max_slope: Option<f32>,
    /// Which way is up (for `max_slope`). Default: `Dir2::Y`.
    pub up: Dir2,
    /// Push the shape out of what it starts inside first (the shortest way). Default:
    /// `true`.
    pub depenetrate: bool,
}

impl Default for MoveAndSlideConfig {
    fn default() -> Self {
        Self {
            skin: 0.01,
            max_slides: 4,
            max_slope: None,
            up: Dir2::Y,
            depenetrate: true,
        }
    }
}

/// A surface [`SweepQuery::move_and_slide`] hit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveAndSlideHit {
    /// The collider hit.
    pub entity: Entity,
    /// Where, world space.
    pub point: Vec2,
    /// The surface's unit normal, towards the shape.
    pub normal: Vec2,
    /// No steeper than [`MoveAndSlideConfig::max_slope`].
    pub walkable: bool,
}

/// What [`SweepQuery::move_and_slide`] did.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveAndSlideOutput {
    /// Where the shape ends: the start's translation plus what it moved.
    pub translation: Vec2,
    /// Each surface it hit, in order.
    pub hits: Vec<MoveAndSlideHit>,
    /// The part of the motion it could not make (dropped after `max_slides` hits, or in a
    /// crease).
    pub remaining: Vec2,
    /// How far it was pushed out of what it started inside.
    pub pushed: Vec2,
}

impl MoveAndSlideOutput {
    /// `velocity` without the part that points into each surface hit: what a character
    /// keeps after the move.
    #[must_use]
    pub fn clip_velocity(&self, velocity: Vec2) -> Vec2 {
        self.hits.iter().fold(velocity, |v, h| clip(v, h.normal))
    }
}

impl Scene<'_> {
    /// Moves `shapes` (the pieces of one shape, its reference point at `origin`) by
    /// `motion`, sliding along what they hit, as
    /// [`SweepQuery::move_and_slide`](super::SweepQuery::move_and_slide) describes, leaving
    /// out `skip` besides what `filter` does. A motion that would take the reference point
    /// beyond [`COORDINATE_RANGE`](crate::COORDINATE_RANGE) stops at its edge (what it hits
    /// on the way still stops it); the rest is left in `remaining`.
    ///
    /// If asked, into `waypoints`: where the shape is at each hit and at the end, each with
    /// when: the fraction of the move made by then, as if the motion took a unit of time at
    /// its speed (each slide going on at the speed it had along the surface), where the move
    /// stops short of its end in a crease or after its last slide.
    #[allow(
        clippy::too_many_arguments,
        reason = "the move's arguments and where its times go"
    )]
    pub(crate) fn slide(
        &self,
        shapes: &[Shape],
        origin: Vec2,
        motion: Vec2,
        config: &MoveAndSlideConfig,
        filter: &QueryFilter,
        skip: &[Entity],
        mut waypoints: Option<&mut Vec<(f32, Vec2)>>,
    ) -> MoveAndSlideOutput {
        // When it is: the share of the move's time spent so far.
        let mut when = 0.0_f32;
        let mut mark = |when: f32, at: Vec2| {
            if let Some(waypoints) = waypoints.as_deref_mut() {
                waypoints.push((when, origin + at));
            }
        };
        let mut out = MoveAndSlideOutput {
            translation: origin,
            hits: Vec::new(),
            remaining: motion,
            pushed: Vec2::ZERO,
        };
        if shapes.is_empty() || !within_range(origin) || !motion.is_finite() {
            return out;
        }
        let skin = if config.skin.is_finite() && config.skin >= 0.0 {
            config.skin
        } else {
            MoveAndSlideConfig::default().skin
        };
        let (motion, beyond) = within_reach(origin, motion);
        // Where it is, from `origin`.
        let mut at = Vec2::ZERO;
        // Out of what it starts inside, the shortest way: `true` if it moved.
        let mut depenetrate_from = |at: &mut Vec2| {
            let pushed = push_out(origin + *at, f32::INFINITY, |moved| {
                placed(shapes, *at + moved, |shapes| {
                    self.deepest(shapes, filter, true, skip)
                })
                .map(|p| crate::narrow::Penetration {
                    depth: p.depth,
                    direction: p.direction,
                })
            });
            *at += pushed;
            out.pushed += pushed;
            pushed != Vec2::ZERO
        };
        // Looked for only if the first cast finds it touching something at the start (a
        // shape inside something touches it): most moves start a skin away from everything.
        let mut depenetrate = config.depenetrate;
        if depenetrate && motion == Vec2::ZERO {
            depenetrate_from(&mut at);
        }
        let options = CastOptions {
            ignore_touching_leaving: true,
            blocking_only: true,
        };
        let ground = |n: Vec2| {
            config
                .max_slope
                .is_some_and(|slope| walkable(n, *config.up, slope))
        };
        let mut remaining = motion;
        let mut last_normal: Option<Vec2> = None;
        let mut slides = 0;
        while slides < config.max_slides.max(1) {
            let length = remaining.length();
            if length.is_nan() || length <= 1e-9 * (1.0 + (origin + at).abs().max_element()) {
                remaining = Vec2::ZERO;
                break;
            }
            let to = at + remaining;
            let (hit, touched) = moving(shapes, at, to, |paths| {
                self.cast_paths(paths, &options, filter, skip)
            });
            if depenetrate {
                depenetrate = false;
                if touched && depenetrate_from(&mut at) {
                    continue;
                }
            }
            slides += 1;
            let Some(hit) = hit else {
                at = to;
                remaining = Vec2::ZERO;
                when = 1.0;
                break;
            };
            let direction = remaining / length;
            let approach = -direction.dot(hit.normal);
            // Stop `skin` short of the surface, measured along its normal.
            let back = if approach > 1e-3 {
                skin / approach
            } else {
                0.0
            };
            let go = (length * hit.time - back).max(0.0);
            at += direction * go;
            // This cast takes the rest of the time; it went `go` of its `length`.
            when += (1.0 - when) * (go / length).clamp(0.0, 1.0);
            mark(when, at);
            let left = remaining - direction * go;
            let walkable = ground(hit.normal);
            out.hits.push(MoveAndSlideHit {
                entity: hit.entity,
                point: hit.point,
                normal: hit.normal,
                walkable,
            });
            let surface = match config.max_slope {
                _ if walkable => Surface::Walkable,
                Some(_) => Surface::Steep,
                None => Surface::Any,
            };
            remaining = along_surface(left, hit.normal, surface, *config.up);
            // Into the surface hit before: a crease, where it stops.
            if let Some(n) = last_normal
                && remaining.dot(n) < 0.0
                && n.dot(hit.normal) < 0.999
            {
                remaining = Vec2::ZERO;
                break;
            }
            last_normal = Some(hit.normal);
        }
        mark(when.max(1.0), at);
        MoveAndSlideOutput {
            translation: origin + at,
            remaining: remaining + beyond,
            ..out
        }
    }

    /// The first blocking collider (not a sensor, not a responder) that `shapes` (the pieces
    /// of one shape, its reference point at `origin`) hit within `distance` in `direction`,
    /// and how far; the cast stops at the edge of
    /// [`COORDINATE_RANGE`](crate::COORDINATE_RANGE).
    pub(crate) fn probe(
        &self,
        shapes: &[Shape],
        origin: Vec2,
        direction: Vec2,
        distance: f32,
        filter: &QueryFilter,
        skip: &[Entity],
    ) -> Option<(ShapeCastHit, f32)> {
        if !within_range(origin) {
            return None;
        }
        let (reach, _) = within_reach(origin, direction * distance);
        let options = CastOptions {
            ignore_touching_leaving: false,
            blocking_only: true,
        };
        let length = reach.length();
        moving(shapes, Vec2::ZERO, reach, |paths| {
            self.cast_paths(paths, &options, filter, skip).0
        })
        .map(|hit| (hit, hit.time * length))
    }
}

/// `f` of `shapes` moved by `by` (without a heap allocation for one shape).
fn placed<R>(shapes: &[Shape], by: Vec2, f: impl FnOnce(&[Shape]) -> R) -> R {
    if let [shape] = shapes {
        return f(&[shape.translated(by)]);
    }
    let moved: Vec<Shape> = shapes.iter().map(|s| s.translated(by)).collect();
    f(&moved)
}

/// `f` of the paths of `shapes` moving from `from` to `to` (offsets of their place; without
/// a heap allocation for one shape).
fn moving<R>(shapes: &[Shape], from: Vec2, to: Vec2, f: impl FnOnce(&[ShapePath]) -> R) -> R {
    let path = |s: &Shape| ShapePath::between(s.translated(from), s.translated(to));
    if let [shape] = shapes {
        return f(path(shape).as_slice());
    }
    let paths: Vec<ShapePath> = shapes.iter().filter_map(path).collect();
    f(&paths)
}

/// The part of `motion` from `from` (within the range) that stays within
/// [`COORDINATE_RANGE`](crate::COORDINATE_RANGE), and the part beyond.
fn within_reach(from: Vec2, motion: Vec2) -> (Vec2, Vec2) {
    if within_range(from + motion) {
        return (motion, Vec2::ZERO);
    }
    let range = crate::COORDINATE_RANGE;
    let mut share = 1.0_f32;
    for (p, m) in [(from.x, motion.x), (from.y, motion.y)] {
        let to = p + m;
        if to.abs() > range {
            share = share.min(((range.copysign(m) - p) / m).clamp(0.0, 1.0));
        }
    }
    // A little short of the edge, so that rounding leaves the end inside.
    let mut kept = motion * share;
    while !within_range(from + kept) && kept != Vec2::ZERO {
        kept *= 1.0 - 1.0 / (1 << 20) as f32;
    }
    (kept, motion - kept)
}

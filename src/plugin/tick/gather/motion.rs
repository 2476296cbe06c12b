//! One collider's motion over the tick: from where it was to where it is, in world space,
//! with its swept bounds; whether it stands still, and whether it comes to rest.

use super::Gathered;
use crate::broad::usable as usable_bounds;
use crate::narrow::{ConvexVertices, ShapePath};
use crate::plugin::tick::entries::Entry;
use crate::plugin::tick::shapes::{flips, grown, inflate, push_elements, usable};
use crate::plugin::{Collider, SkipReason, SweptPath};
use bevy::ecs::prelude::*;
use bevy::math::{Affine2, Vec2, bounding::Aabb2d};

/// One collider's motion in this tick (its path is kept in its [`SweptPath`]).
pub(super) struct Motion {
    /// Its world plane at the end of the tick.
    pub(super) world: Affine2,
    /// The swept bounds of its path; `None` for a polyline, whose edges are swept one by one
    /// between `chain_start` and `world`.
    bounds: Option<Aabb2d>,
    chain_start: Affine2,
    still: bool,
    /// The motion starts where the last tick's ended, with the same shape.
    pub(super) continues: bool,
}

impl Motion {
    /// Adds the motion's entries (a polyline's edges, or the one path) to the swept
    /// colliders', or to those that come to rest.
    #[inline]
    pub(super) fn push(
        &self,
        collider: &Collider,
        swept: &SweptPath,
        entry: Entry,
        local: &mut Gathered,
    ) {
        let (entries, bounds) = if swept.resting {
            (&mut local.resting, &mut local.resting_bounds)
        } else {
            (&mut local.swept, &mut local.bounds)
        };
        match (self.bounds, &swept.path) {
            (Some(swept_bounds), Some(path)) => {
                entries.push(entry, path);
                bounds.push(swept_bounds);
            }
            _ => push_elements(
                collider,
                [&self.chain_start, &self.world],
                entry,
                entries,
                bounds,
                &mut local.elements,
            ),
        }
    }
}

/// The collider's motion from where its last motion ended (or, starting afresh, from where
/// it stands in its previous world plane) to where it is in `world`; the motion is kept in
/// `swept` for the next tick.
#[inline(always)]
pub(super) fn motion(
    collider: &Collider,
    world: Affine2,
    swept: &mut SweptPath,
    reshaped: bool,
    grow: f32,
) -> Result<Motion, SkipReason> {
    let previous = swept.previous_world.map(Affine2::from);
    swept.previous_world = Some(world.into());
    if collider.is_composite() {
        let motion = chain(collider, previous, world, swept.fresh)?;
        swept.chain_start = Some(motion.chain_start.into());
        swept.path = None;
        swept.still_for = still_for(swept.still_for, motion.still);
        return Ok(motion);
    }
    let fresh = swept.fresh || previous.is_none();
    let basic = if grow > 0.0 {
        None
    } else {
        collider.pose_in(&world)
    };
    let (bounds, still, continues) = match basic {
        Some(end) => basic_motion(collider, end, previous, fresh, swept)?,
        None => polygon_motion(collider, grow, world, previous, fresh || reshaped, swept)?,
    };
    swept.still_for = still_for(swept.still_for, still);
    Ok(Motion {
        world,
        bounds: Some(bounds),
        chain_start: world,
        still,
        continues,
    })
}

/// A point's, segment's, circle's or box's motion to `end` (its pose), kept in `swept`: its
/// swept bounds,
/// whether it stands still, and whether it continues the last tick's. Its paths stay small
/// throughout (the gather's hot path).
#[inline(always)]
fn basic_motion(
    collider: &Collider,
    end: ShapePath<Box<ConvexVertices>>,
    previous: Option<Affine2>,
    fresh: bool,
    swept: &mut SweptPath,
) -> Result<(Aabb2d, bool, bool), SkipReason> {
    if !usable_pose(&end) {
        return Err(SkipReason::DegenerateInWorld);
    }
    // Where the last motion ended, unless it starts afresh (from where it stands in its
    // previous world plane).
    let continued = swept
        .path
        .as_ref()
        .filter(|_| !fresh)
        .and_then(|last| ShapePath::joined(last, &end));
    let continues = continued.is_some();
    let path = continued
        .or_else(|| {
            let start = collider.pose_in(&previous?).filter(usable_pose)?;
            ShapePath::joined(&start, &end)
        })
        .unwrap_or(end);
    let bounds = in_range(path.swept_bounds_with(|_| ([Vec2::ZERO; 2], 0.0)))?;
    let still = path.is_still_with(|_| false);
    swept.path = Some(path);
    Ok((bounds, still, continues))
}

/// A rounded polygon's motion (a rectangle, capsule or convex polygon, or any shape grown by
/// `grow`), kept in `swept`.
fn polygon_motion(
    collider: &Collider,
    grow: f32,
    world: Affine2,
    previous: Option<Affine2>,
    fresh: bool,
    swept: &mut SweptPath,
) -> Result<(Aabb2d, bool, bool), SkipReason> {
    let end = grown(collider.shape_in(&world), grow);
    if !usable(&end) {
        return Err(SkipReason::DegenerateInWorld);
    }
    // Where the last motion ended, unless it starts afresh. A polygon mirrored since (a
    // flipped sprite) would pass through a line: it jumps.
    let continued = (!fresh)
        .then(|| ShapePath::between(swept.end()?, end))
        .flatten()
        .filter(|path| !flips(path));
    let continues = continued.is_some();
    let path = continued
        .or_else(|| {
            let start = grown(collider.shape_in(&previous?), grow);
            ShapePath::between(start, end)
                .filter(|path| usable(&start) && path.is_valid() && !flips(path))
        })
        .unwrap_or_else(|| ShapePath::still(end));
    let bounds = in_range(path.swept_bounds())?;
    swept.set_path(&path);
    Ok((bounds, path.is_still(), continues))
}

/// `true` if a point's, segment's, circle's or box's pose can be swept: every coordinate
/// finite, every size positive and finite, a segment's ends apart.
#[inline(always)]
fn usable_pose<C>(pose: &ShapePath<C>) -> bool {
    pose.is_valid_with(|_| false)
        && match pose {
            ShapePath::Segment { a, b } => a[0] != b[0],
            _ => true,
        }
}

/// How many ticks in a row (up to 2) the collider has stood still.
#[inline]
fn still_for(before: u8, still: bool) -> u8 {
    if still { (before + 1).min(2) } else { 0 }
}

/// `true` if a still collider rests from this tick on: still this tick and the last (so
/// every pair with it was tested while it stood still, and its contacts settled), its motion
/// not starting afresh, and a root collider (a parent's motion would not show in its own
/// transform). Whether its transform, shape and layers changed is asked last.
#[inline]
pub(super) fn comes_to_rest(swept: &SweptPath, motion: &Motion, root: bool) -> bool {
    swept.still_for == 2 && motion.continues && root
}

/// The swept bounds of a motion, [inflated](inflate), if the motion lies within
/// [`COORDINATE_RANGE`](crate::COORDINATE_RANGE).
#[inline]
pub(super) fn in_range(bounds: Aabb2d) -> Result<Aabb2d, SkipReason> {
    let range = Vec2::splat(crate::COORDINATE_RANGE);
    if bounds.min.cmpge(-range).all() && bounds.max.cmple(range).all() {
        let inflated = inflate(bounds);
        debug_assert!(usable_bounds(&inflated));
        Ok(inflated)
    } else {
        Err(SkipReason::OutOfRange)
    }
}

/// `Ok` if the world plane's origin is within [`COORDINATE_RANGE`](crate::COORDINATE_RANGE)
/// and it scales each axis within [`MIN_SCALE`](crate::MIN_SCALE) and
/// [`MAX_SCALE`](crate::MAX_SCALE) (compared squared: a square that underflows to zero is
/// below the smallest). The shape's own extent is checked with its motion ([`in_range`]).
#[inline]
pub(super) fn plane_in_range(world: Affine2) -> Result<Affine2, SkipReason> {
    let range = Vec2::splat(crate::COORDINATE_RANGE);
    if !world.translation.abs().cmple(range).all() {
        return Err(SkipReason::OutOfRange);
    }
    let (low, high) = (crate::MIN_SCALE.powi(2), crate::MAX_SCALE.powi(2));
    let columns = [world.matrix2.x_axis, world.matrix2.y_axis];
    if columns
        .iter()
        .all(|c| (low..=high).contains(&c.length_squared()))
    {
        Ok(world)
    } else {
        Err(SkipReason::DegenerateInWorld)
    }
}

/// A composite shape's motion (a polyline's, a polygon's, a compound's): from where its
/// transform was at the end of the last tick (or at the start of this one, for a fresh one)
/// to where it is.
fn chain(
    collider: &Collider,
    previous: Option<Affine2>,
    world: Affine2,
    fresh: bool,
) -> Result<Motion, SkipReason> {
    let start = previous.unwrap_or(world);
    let mut bounds: Option<Aabb2d> = None;
    let mut add = |b: Aabb2d| {
        bounds = Some(bounds.map_or(b, |a| Aabb2d {
            min: a.min.min(b.min),
            max: a.max.max(b.max),
        }));
    };
    if collider.is_polyline() {
        for (_, p, q) in collider.edges_in(&start).chain(collider.edges_in(&world)) {
            add(Aabb2d {
                min: p.min(q),
                max: p.max(q),
            });
        }
    } else {
        for plane in [&start, &world] {
            collider.for_each_element(plane, &mut |_, shape| {
                if usable(&shape) {
                    add(shape.bounds());
                }
            });
        }
    }
    in_range(bounds.ok_or(SkipReason::DegenerateInWorld)?)?;
    Ok(Motion {
        world,
        bounds: None,
        chain_start: start,
        still: start == world,
        continues: previous.is_some() && !fresh,
    })
}

//! The queries of one moment: what a point or a shape touches or overlaps now, how deep,
//! where two colliders touch, and the collider nearest a point.

use super::{Placed, QueryFilter, SweepQuery, within_range};
use crate::narrow::{ShapePath, contact_intervals, witness};
use crate::plugin::components::Collider;
use crate::plugin::components::placement::plane_of_isometry;
use bevy::ecs::prelude::*;
use bevy::math::{Isometry2d, Vec2};
use core::ops::ControlFlow;

impl SweepQuery<'_> {
    /// The collider `shape` overlaps most deeply at `pose`, and the shortest way out of it;
    /// `None` if it overlaps none (touching is not overlapping) or the shape is unusable.
    /// Sensors and responders count like any collider; [`QueryFilter`] leaves out what it
    /// should not see.
    ///
    /// ```
    /// use bevy::math::Isometry2d;
    /// use bevy::prelude::*;
    /// use bevy_sweep::prelude::*;
    ///
    /// fn unstick(query: SweepQuery, mut hero: Single<&mut Transform, With<Collider>>) {
    ///     let body = Collider::circle(4.0);
    ///     let pose = Isometry2d::from_translation(hero.translation.truncate());
    ///     if let Some(p) = query.penetration(&body, pose, &QueryFilter::default()) {
    ///         hero.translation += (p.direction * p.depth).extend(0.0);
    ///     }
    /// }
    /// # bevy::ecs::system::assert_is_system(unstick);
    /// ```
    #[must_use]
    pub fn penetration(
        &self,
        shape: &Collider,
        pose: Isometry2d,
        filter: &QueryFilter,
    ) -> Option<PenetrationHit> {
        let placed = Placed::new(shape, &plane_of_isometry(pose))?;
        self.scene().deepest(placed.shapes(), filter, false, &[])
    }

    /// Where two colliders touch now (as the last tick left them): the contact point and the
    /// normal from `b` towards `a`. `None` if they do not touch, or either is not a collider
    /// the last tick swept or kept resting. A
    /// [`KinematicCharacter`](crate::prelude::KinematicCharacter) touches what is within its
    /// skin (it is swept grown by it).
    ///
    /// This is the *current* contact of a lasting pair (a crate resting on a moving
    /// platform, a character against a wall), where [`Contacts`](crate::prelude::Contacts)
    /// keeps the event that started it. It is computed on demand: a few exact tests, and on
    /// the first call after each tick a table of where each collider is.
    ///
    /// ```
    /// use bevy::prelude::*;
    /// use bevy_sweep::prelude::*;
    ///
    /// fn pressure(contacts: Res<Contacts>, query: SweepQuery) {
    ///     for contact in contacts.iter() {
    ///         if let Some(now) = query.contact(contact.entity, contact.other) {
    ///             info!("{} on {} at {}", contact.entity, contact.other, now.point);
    ///         }
    ///     }
    /// }
    /// # bevy::ecs::system::assert_is_system(pressure);
    /// ```
    #[must_use]
    pub fn contact(&self, a: Entity, b: Entity) -> Option<ContactNow> {
        // A collider does not touch itself.
        if a == b {
            return None;
        }
        let (ga, ra) = self.snapshot.entries_of(a)?;
        let (gb, rb) = self.snapshot.entries_of(b)?;
        let mut best: Option<ContactNow> = None;
        for i in ra {
            let pa = ShapePath::still(ga.entries.path(i).end());
            for j in rb.clone() {
                let pb = ShapePath::still(gb.entries.path(j).end());
                if contact_intervals(&pa, &pb).is_empty() {
                    continue;
                }
                let w = witness(&pa, &pb, 0.0, false);
                let found = ContactNow {
                    point: w.point,
                    normal: w.normal,
                };
                // A polyline's edges: the first that touches.
                best.get_or_insert(found);
            }
        }
        best
    }

    /// The collider nearest `point` and its point nearest it, with the distance (`0` when
    /// `point` is inside or on a collider). `None` if no collider passes the filter or the
    /// point is not finite or lies beyond [`COORDINATE_RANGE`](crate::COORDINATE_RANGE).
    /// Ties go to the smaller entity.
    #[must_use]
    pub fn project_point(&self, point: Vec2, filter: &QueryFilter) -> Option<PointProjection> {
        if !within_range(point) {
            return None;
        }
        self.scene().nearest(point, filter)
    }

    /// Every collider that touches or overlaps the collider shape `shape` at the pose `pose`
    /// now, into `hits` (cleared first), in no particular order, each once: mouse picking,
    /// area checks, what a trigger zone holds. Any shape can be the query, a polyline
    /// included. Nothing if the shape is unusable (see [`Collider::problem`]) or the pose is
    /// not finite.
    ///
    /// ```
    /// use bevy::math::{Isometry2d, Vec2};
    /// use bevy::prelude::*;
    /// use bevy_sweep::prelude::*;
    ///
    /// /// What an explosion at `at` reaches.
    /// fn blast(query: SweepQuery, mut reached: Local<Vec<Entity>>) {
    ///     let at = Vec2::new(120.0, 40.0);
    ///     let area = Collider::circle(64.0);
    ///     query.shape_hits(&area, Isometry2d::from_translation(at), &QueryFilter::default(), &mut reached);
    ///     for &entity in reached.iter() {
    ///         info!("{entity} is in the blast");
    ///     }
    /// }
    /// # let mut app = App::new();
    /// # app.add_plugins(SweepPlugin::default()).add_systems(Update, blast);
    /// ```
    pub fn shape_hits(
        &self,
        shape: &Collider,
        pose: Isometry2d,
        filter: &QueryFilter,
        hits: &mut Vec<Entity>,
    ) {
        hits.clear();
        let Some(placed) = Placed::new(shape, &plane_of_isometry(pose)) else {
            return;
        };
        let several = placed.shapes().len() > 1;
        let scene = self.scene();
        for &probe in placed.shapes() {
            scene.touching(&ShapePath::still(probe), filter, |entry| {
                // (A polyline's edges are boxes of their own, and a polyline query has
                // several probes: each collider is listed once.)
                if !((several || entry.merged()) && hits.contains(&entry.entity)) {
                    hits.push(entry.entity);
                }
                ControlFlow::Continue(())
            });
        }
    }

    /// Every collider that contains or touches `point` now, into `hits` (cleared first).
    pub fn point_hits(&self, point: Vec2, filter: &QueryFilter, hits: &mut Vec<Entity>) {
        self.shape_hits(
            &Collider::Point,
            Isometry2d::from_translation(point),
            filter,
            hits,
        );
    }

    /// `true` if some collider touches or overlaps the collider shape `shape` at the pose
    /// `pose` now (`false` if the shape is unusable or the pose not finite).
    #[must_use]
    pub fn any_hit(&self, shape: &Collider, pose: Isometry2d, filter: &QueryFilter) -> bool {
        let Some(placed) = Placed::new(shape, &plane_of_isometry(pose)) else {
            return false;
        };
        let scene = self.scene();
        let mut any = false;
        for &probe in placed.shapes() {
            scene.touching(&ShapePath::still(probe), filter, |_| {
                any = true;
                ControlFlow::Break(())
            });
            if any {
                break;
            }
        }
        any
    }
}

/// Where two colliders touch now ([`SweepQuery::contact`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactNow {
    /// The contact point, world space.
    pub point: Vec2,
    /// Unit normal, from the second collider towards the first.
    pub normal: Vec2,
}

/// The deepest overlap of a [`SweepQuery::penetration`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PenetrationHit {
    /// The collider overlapped.
    pub entity: Entity,
    /// How far the shape must move to only touch it, in world units.
    pub depth: f32,
    /// Which way it must move (unit).
    pub direction: Vec2,
}

/// The nearest point of a collider to a point ([`SweepQuery::project_point`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PointProjection {
    /// The collider.
    pub entity: Entity,
    /// Its point nearest the query point (the query point itself when inside).
    pub point: Vec2,
    /// How far the query point is from the collider, in world units (`0` inside or on it).
    pub distance: f32,
}

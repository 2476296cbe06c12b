//! What the plugin reports: one [`CollisionEvent`] per contact.

use crate::narrow::Feature;
use bevy::ecs::prelude::*;
use bevy::math::Vec2;
use bevy::reflect::prelude::*;

/// What happened in a contact.
#[derive(Reflect, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[reflect(Debug, PartialEq, Clone)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub enum CollisionKind {
    /// The two colliders began to touch and still touch right after.
    Started,
    /// The two colliders touched and stop touching (the time is the last moment of contact).
    Ended,
    /// An instant contact: the colliders touch at one moment only, such as a point passing
    /// through a segment or a graze.
    ///
    /// A contact whose first moment is exactly the end of a tick is reported as `Crossed`
    /// at `time_of_impact == 1.0`; if it turns out to last, the next tick adds `Started` at
    /// `0.0` (and later `Ended`), so `Started`/`Ended` still pair up.
    Crossed,
}

/// One contact between two colliders, inside the last fixed tick.
///
/// Sent as a [`Message`] (read it with `MessageReader<CollisionEvent>`: one message per
/// contact, `entity`/`other` in a deterministic order that means nothing) and triggered as
/// an [`EntityEvent`] on each of the two entities (observe it with
/// `.observe(|contact: On<CollisionEvent>| …)`: `entity` is the observed entity).
///
/// Every field is finite. The normal points from `other` towards `entity`: for a contact that
/// begins, `entity` comes from that side; for one that ends, it leaves towards it.
///
/// When a collider is despawned, loses its `Collider` or `CollisionLayers`, is skipped as
/// unusable, or its layers stop interacting while in contact, the next tick sends `Ended` at
/// time `0`. Its place is where the two were at the start of that tick (for one that was not
/// swept in it, where it was when last swept); for a despawned or skipped collider, whose
/// place is unknown, and for a polyline, the place of the contact's last event. The despawned entity can no
/// longer be read, the other one can, and the observer event is triggered on the one that
/// still exists.
#[derive(Message, EntityEvent, Reflect, Clone, Copy, Debug, PartialEq)]
#[reflect(Debug, PartialEq, Clone)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct CollisionEvent {
    /// The entity this event is about.
    #[event_target]
    pub entity: Entity,
    /// The entity it touched.
    pub other: Entity,
    /// Whether contact started, ended or was an instant.
    pub kind: CollisionKind,
    /// When, as a fraction of the tick in `[0, 1]` (`0` = where things were at the end of the
    /// previous tick, `1` = where they are now).
    pub time_of_impact: f32,
    /// Where, in world space.
    pub point: Vec2,
    /// Unit normal, pointing from `other` towards `entity`.
    pub normal: Vec2,
    /// Velocity of `entity`'s contact point relative to `other`'s, in world units per second.
    pub relative_velocity: Vec2,
    /// Where along `entity` the contact is, if it is a segment, a capsule (along its core) or
    /// a polyline (along the edge `feature` names); `0` at the first endpoint.
    pub along: Option<f32>,
    /// Where along `other` the contact is, if it is a segment, a capsule or a polyline.
    pub other_along: Option<f32>,
    /// Which vertex or edge of `entity` is touched, if it is a polygon (a rectangle or a
    /// convex polygon) or a polyline. For a polyline, an edge's `along` is `along` too.
    pub feature: Option<Feature>,
    /// Which vertex or edge of `other` is touched, if it is a polygon or a polyline.
    pub other_feature: Option<Feature>,
    /// The [`Body`](super::Body) `entity` belongs to, if any.
    pub body: Option<Entity>,
    /// The body `other` belongs to, if any.
    pub other_body: Option<Entity>,
}

impl CollisionEvent {
    /// The same contact seen from `other`.
    #[must_use]
    pub fn flipped(&self) -> Self {
        Self {
            entity: self.other,
            other: self.entity,
            normal: -self.normal,
            relative_velocity: -self.relative_velocity,
            along: self.other_along,
            other_along: self.along,
            feature: self.other_feature,
            other_feature: self.feature,
            body: self.other_body,
            other_body: self.body,
            ..*self
        }
    }

    /// The same contact seen from `entity` (`entity` becomes the event's `entity`), or `None`
    /// if it is not one of the two. Messages carry each contact once, in an arbitrary
    /// orientation; this puts it the way round you need.
    #[must_use]
    pub fn seen_from(&self, entity: Entity) -> Option<Self> {
        if self.entity == entity {
            Some(*self)
        } else if self.other == entity {
            Some(self.flipped())
        } else {
            None
        }
    }

    /// The order messages are sent in, as a key: by time, then entities, then kind.
    pub(crate) fn order_key(&self) -> (u32, u64, u64, CollisionKind) {
        (
            crate::broad::order_key(self.time_of_impact),
            self.entity.to_bits(),
            self.other.to_bits(),
            self.kind,
        )
    }
}

/// Contact state of a pair between ticks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub(crate) enum Touch {
    /// Not touching.
    Apart,
    /// Touching at the end of the last tick, reported as `Started`.
    Touching,
    /// Touching at the very end of the last tick only, already reported as `Crossed`.
    CrossedAtEnd,
}

/// The events of one pair in one tick, from its contact intervals and its state before the
/// tick; returns the state after it.
pub(crate) fn transitions(
    intervals: &[[f32; 2]],
    prior: Touch,
    out: &mut Vec<(CollisionKind, f32)>,
) -> Touch {
    let continues = intervals.first().is_some_and(|i| i[0] == 0.0);
    let mut state = prior;
    if !continues {
        if state == Touch::Touching {
            // Touching before, not now: the contact ended between ticks (a teleport, a
            // changed shape or layer).
            out.push((CollisionKind::Ended, 0.0));
        }
        state = Touch::Apart;
    }
    for (k, &[start, end]) in intervals.iter().enumerate() {
        if k == 0 && state != Touch::Apart {
            // The contact from the last tick goes on.
            if state == Touch::CrossedAtEnd && end > 0.0 {
                out.push((CollisionKind::Started, 0.0));
            }
            if end == 1.0 {
                state = Touch::Touching;
            } else {
                if state == Touch::Touching || end > 0.0 {
                    out.push((CollisionKind::Ended, end));
                }
                state = Touch::Apart;
            }
        } else if start == end {
            out.push((CollisionKind::Crossed, start));
            state = if start == 1.0 {
                Touch::CrossedAtEnd
            } else {
                Touch::Apart
            };
        } else {
            out.push((CollisionKind::Started, start));
            if end == 1.0 {
                state = Touch::Touching;
            } else {
                out.push((CollisionKind::Ended, end));
                state = Touch::Apart;
            }
        }
    }
    state
}

#[cfg(test)]
mod tests {
    use super::CollisionKind::{Crossed, Ended, Started};
    use super::*;

    fn run(intervals: &[[f32; 2]], prior: Touch) -> (Vec<(CollisionKind, f32)>, Touch) {
        let mut out = Vec::new();
        let state = transitions(intervals, prior, &mut out);
        (out, state)
    }

    #[test]
    fn new_contacts() {
        assert_eq!(run(&[], Touch::Apart), (vec![], Touch::Apart));
        assert_eq!(
            run(&[[0.3, 0.3]], Touch::Apart),
            (vec![(Crossed, 0.3)], Touch::Apart)
        );
        assert_eq!(
            run(&[[0.2, 0.4]], Touch::Apart),
            (vec![(Started, 0.2), (Ended, 0.4)], Touch::Apart)
        );
        assert_eq!(
            run(&[[0.2, 1.0]], Touch::Apart),
            (vec![(Started, 0.2)], Touch::Touching)
        );
        assert_eq!(
            run(&[[1.0, 1.0]], Touch::Apart),
            (vec![(Crossed, 1.0)], Touch::CrossedAtEnd)
        );
        // Spawned overlapping.
        assert_eq!(
            run(&[[0.0, 1.0]], Touch::Apart),
            (vec![(Started, 0.0)], Touch::Touching)
        );
    }

    #[test]
    fn continuing_contacts() {
        assert_eq!(
            run(&[[0.0, 1.0]], Touch::Touching),
            (vec![], Touch::Touching)
        );
        assert_eq!(
            run(&[[0.0, 0.5]], Touch::Touching),
            (vec![(Ended, 0.5)], Touch::Apart)
        );
        assert_eq!(
            run(&[[0.0, 0.0]], Touch::Touching),
            (vec![(Ended, 0.0)], Touch::Apart)
        );
        assert_eq!(
            run(&[], Touch::Touching),
            (vec![(Ended, 0.0)], Touch::Apart)
        );
        assert_eq!(
            run(&[[0.0, 0.2], [0.5, 0.5], [0.7, 1.0]], Touch::Touching),
            (
                vec![(Ended, 0.2), (Crossed, 0.5), (Started, 0.7)],
                Touch::Touching
            )
        );
    }

    #[test]
    fn crossing_at_a_tick_boundary_is_reported_once() {
        assert_eq!(
            run(&[[0.0, 0.0]], Touch::CrossedAtEnd),
            (vec![], Touch::Apart)
        );
        assert_eq!(run(&[], Touch::CrossedAtEnd), (vec![], Touch::Apart));
        // It stayed: the contact did start.
        assert_eq!(
            run(&[[0.0, 1.0]], Touch::CrossedAtEnd),
            (vec![(Started, 0.0)], Touch::Touching)
        );
        assert_eq!(
            run(&[[0.0, 0.5]], Touch::CrossedAtEnd),
            (vec![(Started, 0.0), (Ended, 0.5)], Touch::Apart)
        );
    }
}

//! Every pair of shapes: a mover at 10^6 units/s against a small still target. The exact
//! answer is known in closed form; a dense scan of the tick with the static kernels agrees.

use crate::common::*;
use bevy::prelude::*;
use bevy_sweep::geometry::{
    clip_segment_aabb, intersect_segment_circle, intersect_segment_segment,
};
use bevy_sweep::narrow::Shape;
use bevy_sweep::prelude::*;

const SPEED: f32 = 1.0e6;
const START_X: f32 = -5000.0;

/// The movers: each spans `[-m, m]` on the x axis around its centre (a horizontal segment).
fn movers() -> [(Collider, f32, &'static str); 4] {
    [
        (Collider::point(), 0.0, "point"),
        (
            Collider::segment(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0)),
            1.0,
            "segment",
        ),
        (Collider::circle(1.0), 1.0, "circle"),
        (Collider::aabb(Vec2::ONE), 1.0, "box"),
    ]
}

/// The targets at the origin: each spans `[-k, k]` on the x axis (a vertical segment, 0).
fn targets() -> [(Collider, f32, &'static str); 4] {
    [
        (Collider::point(), 0.0, "point"),
        (
            Collider::segment(Vec2::new(0.0, -1.0), Vec2::new(0.0, 1.0)),
            0.0,
            "segment",
        ),
        (Collider::circle(1.0), 1.0, "circle"),
        (Collider::aabb(Vec2::ONE), 1.0, "box"),
    ]
}

/// Static contact test of two world shapes, from the geometry kernels (with a small
/// tolerance for thin shapes, which a sample only grazes).
fn touching(a: &Shape, b: &Shape) -> bool {
    let as_segment = |s: &Shape| match *s {
        Shape::Point(p) => Some((p, p)),
        Shape::Segment(p, q) => Some((p, q)),
        _ => None,
    };
    match (*a, *b) {
        (Shape::Circle { center, radius }, other) | (other, Shape::Circle { center, radius }) => {
            match other {
                Shape::Circle {
                    center: c,
                    radius: r,
                } => center.distance(c) <= radius + r,
                Shape::Aabb {
                    center: c,
                    half_extents,
                } => {
                    center
                        .clamp(c - half_extents, c + half_extents)
                        .distance(center)
                        <= radius
                }
                _ => {
                    let (p, q) = as_segment(&other).unwrap();
                    p.distance(center) <= radius
                        || q.distance(center) <= radius
                        || !intersect_segment_circle(p, q, center, radius).is_empty()
                }
            }
        }
        (
            Shape::Aabb {
                center,
                half_extents,
            },
            other,
        )
        | (
            other,
            Shape::Aabb {
                center,
                half_extents,
            },
        ) => {
            let aabb = bevy::math::bounding::Aabb2d {
                min: center - half_extents,
                max: center + half_extents,
            };
            match other {
                Shape::Aabb {
                    center: c,
                    half_extents: h,
                } => {
                    let d = (center - c).abs();
                    d.x <= half_extents.x + h.x && d.y <= half_extents.y + h.y
                }
                _ => {
                    let (p, q) = as_segment(&other).unwrap();
                    clip_segment_aabb(p, q, &aabb).is_some()
                }
            }
        }
        _ => {
            let (p, q) = as_segment(a).unwrap();
            let (r, s) = as_segment(b).unwrap();
            intersect_segment_segment(p, q, r, s).is_some()
        }
    }
}

#[test]
fn every_pair_at_a_million_units_per_second() {
    let travel = SPEED * TICK; // 15625 units in one tick
    for (mover_shape, m, mover_name) in movers() {
        for (target_shape, k, target_name) in targets() {
            let what = format!("{mover_name} → {target_name}");
            let mut app = app();
            let mover = app
                .world_mut()
                .spawn((
                    mover_shape.clone(),
                    Transform::from_xyz(START_X, 0.0, 0.0),
                    Velocity(Vec2::new(SPEED, 0.0)),
                ))
                .id();
            let target = app
                .world_mut()
                .spawn((target_shape.clone(), Transform::IDENTITY))
                .id();
            let events: Vec<CollisionEvent> =
                tick(&mut app).iter().map(|e| seen_from(e, mover)).collect();
            assert_well_formed(&events);
            // Contact while the mover's centre is within m + k of the target's: from
            // x = -(m + k) to x = m + k, i.e. the times below.
            let reach = m + k;
            let first = (-START_X - reach) / travel;
            let last = (-START_X + reach) / travel;
            let tolerance = 4e-7; // a few f32 ulps of a time near 0.32
            if reach == 0.0 {
                assert_eq!(events.len(), 1, "{what}: {events:?}");
                let e = events[0];
                assert_eq!(e.kind, CollisionKind::Crossed, "{what}");
                assert_close(e.time_of_impact, first, tolerance, &what);
                assert_vec_close(e.point, Vec2::ZERO, 1e-2, &what);
                assert_vec_close(e.normal, Vec2::NEG_X, 1e-5, &what);
            } else {
                assert_eq!(events.len(), 2, "{what}: {events:?}");
                let (s, e) = (events[0], events[1]);
                assert_eq!(
                    (s.kind, e.kind),
                    (CollisionKind::Started, CollisionKind::Ended),
                    "{what}"
                );
                assert_close(s.time_of_impact, first, tolerance, &what);
                assert_close(e.time_of_impact, last, tolerance, &what);
                // First touch on the target's left side, last on its right.
                assert_vec_close(s.point, Vec2::new(-k, 0.0), 1e-2, &format!("{what} start"));
                assert_vec_close(e.point, Vec2::new(k, 0.0), 1e-2, &format!("{what} end"));
                assert_vec_close(s.normal, Vec2::NEG_X, 1e-5, &format!("{what} start"));
                assert_vec_close(e.normal, Vec2::X, 1e-5, &format!("{what} end"));
                if mover_name == "segment" {
                    // The leading end (b, at +x) touches first, the trailing end (a) last;
                    // positions mid-tick carry an ulp of 15625 (0.001) on a 2-unit segment.
                    assert_close(s.along.unwrap(), 1.0, 1e-3, &what);
                    assert_close(e.along.unwrap(), 0.0, 1e-3, &what);
                }
            }
            for e in &events {
                assert_eq!(e.other, target);
                assert_vec_close(e.relative_velocity, Vec2::new(SPEED, 0.0), 1.0, &what);
                if target_name == "segment" {
                    assert_close(e.other_along.unwrap(), 0.5, 1e-3, &what);
                } else {
                    assert_eq!(e.other_along, None);
                }
            }
            // The same tick sampled densely with the static kernels.
            let samples = 200_000;
            let mover_at = |t: f32| {
                let x = START_X + travel * t;
                mover_shape
                    .world_shape(&Transform::from_xyz(x, 0.0, 0.0))
                    .expect("not a polyline")
            };
            let target_now = target_shape
                .world_shape(&Transform::IDENTITY)
                .expect("not a polyline");
            let hits: Vec<f32> = (0..=samples)
                .map(|i| i as f32 / samples as f32)
                .filter(|&t| touching(&mover_at(t), &target_now))
                .collect();
            let step = 1.0 / samples as f32;
            if reach == 0.0 {
                // A thin contact lasts an instant: samples straddle it instead.
                let before = START_X + travel * (events[0].time_of_impact - step);
                let after = START_X + travel * (events[0].time_of_impact + step);
                assert!(before < 0.0 && after > 0.0, "{what}: dense scan disagrees");
            } else {
                assert!(!hits.is_empty(), "{what}: dense scan saw no contact");
                assert_close(events[0].time_of_impact, hits[0], 2.0 * step, &what);
                assert_close(
                    events[1].time_of_impact,
                    *hits.last().unwrap(),
                    2.0 * step,
                    &what,
                );
            }
            // Nothing more happens after: the mover is far away.
            assert!(tick(&mut app).is_empty(), "{what}");
        }
    }
}

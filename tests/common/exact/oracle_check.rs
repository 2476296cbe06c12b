//! Holds a tick of a running app to the exact oracle: every pair whose swept bounds meet (the
//! only ones that can touch) and every pair the last tick left in contact, against the events
//! the tick sent (the churn soak, the avian2d comparison). Beside the oracle (`super::oracle`)
//! and the event rules (`super::rules`), in `tests/common/exact/` and in the comparison.

use super::rules::{exact_union, expected_events};
use bevy::platform::collections::HashMap;
use bevy::prelude::*;
use bevy_sweep::narrow::ShapePath;
use bevy_sweep::prelude::*;

/// What the oracle check counted.
#[derive(Default, Debug)]
pub(crate) struct Check {
    pub(crate) pairs: usize,
    pub(crate) events: usize,
    pub(crate) missed: usize,
    pub(crate) extra: usize,
    pub(crate) resting: usize,
    pub(crate) first_failure: Option<String>,
}

/// The documented contact state of each pair: touching, and crossed at the very end.
pub(crate) type States = HashMap<(Entity, Entity), (bool, bool)>;

/// Holds one tick's events to the oracle: every pair whose swept bounds meet (the only ones
/// that can touch), and every pair in contact at the end of the last tick.
pub(crate) fn check_tick(
    world: &mut World,
    tick: usize,
    events: &[CollisionEvent],
    states: &mut States,
    check: &mut Check,
) {
    // Each collider's paths: its one path, or a polyline's edges'. Responders, whose real
    // path is piecewise, are held to their own oracle (tests/responders_oracle.rs) and left
    // out here, with their events.
    let answering: Vec<Entity> = world
        .query_filtered::<Entity, Or<(With<Response>, With<KinematicCharacter>)>>()
        .iter(world)
        .collect();
    let mut colliders: Vec<(Entity, Vec<ShapePath>, CollisionLayers)> = world
        .query_filtered::<(Entity, &SweptPath, &Collider, &CollisionLayers), (
            Without<Response>,
            Without<KinematicCharacter>,
        )>()
        .iter(world)
        .filter_map(|(e, s, c, l)| {
            let paths: Vec<ShapePath> = s.paths(c).collect();
            (!paths.is_empty()).then_some((e, paths, *l))
        })
        .collect();
    colliders.sort_by_key(|c| c.0);
    let index: HashMap<Entity, usize> = colliders
        .iter()
        .enumerate()
        .map(|(i, c)| (c.0, i))
        .collect();
    // Pairs whose swept bounds meet: sort and sweep on x (independent of the plugin's).
    let bounds: Vec<_> = colliders.iter().map(|c| swept_bounds(&c.1)).collect();
    let mut order: Vec<usize> = (0..colliders.len()).collect();
    order.sort_by(|&i, &j| bounds[i].min.x.total_cmp(&bounds[j].min.x));
    let mut keys: Vec<(Entity, Entity)> = Vec::new();
    for (k, &i) in order.iter().enumerate() {
        for &j in &order[k + 1..] {
            if bounds[j].min.x > bounds[i].max.x {
                break;
            }
            if bounds[j].min.y <= bounds[i].max.y && bounds[i].min.y <= bounds[j].max.y {
                let (a, b) = (colliders[i].0, colliders[j].0);
                keys.push((a.min(b), a.max(b)));
            }
        }
    }
    // And every pair the last tick left in contact (or crossing at its end).
    keys.extend(states.iter().filter(|(_, s)| s.0 || s.1).map(|(k, _)| *k));
    keys.sort();
    keys.dedup();
    let mut got: HashMap<(Entity, Entity), Vec<&CollisionEvent>> = HashMap::default();
    for e in events {
        if answering.contains(&e.entity) || answering.contains(&e.other) {
            continue;
        }
        got.entry((e.entity.min(e.other), e.entity.max(e.other)))
            .or_default()
            .push(e);
    }
    // Times are accurate to a few `f32` ulps, or to the time the contact point takes to move a
    // few ulps of the coordinates towards the other collider, where the shapes meet slowly
    // (see `contact_intervals`).
    let tick_seconds = world.resource::<Time<Fixed>>().timestep().as_secs_f32();
    let tolerance = |e: &CollisionEvent, scale: f32| {
        // How far the contact point moves towards the other collider in the tick.
        let motion = e.relative_velocity.dot(e.normal).abs() * tick_seconds;
        1e-5f64.max(f64::from(8.0 * f32::EPSILON * scale / motion))
    };
    for key in keys {
        let exact = match (index.get(&key.0), index.get(&key.1)) {
            (Some(&i), Some(&j)) if colliders[i].2.interacts_with(&colliders[j].2) => {
                exact_union(&colliders[i].1, &colliders[j].1)
            }
            // Gone, or no longer interacting: no contact in this tick.
            _ => Vec::new(),
        };
        let (touching, crossed) = states.entry(key).or_default();
        let expected = expected_events(&exact, touching, crossed);
        let reported = got.remove(&key).unwrap_or_default();
        check.pairs += 1;
        check.events += expected.len();
        let scale = [key.0, key.1]
            .iter()
            .filter_map(|e| index.get(e))
            .map(|&i| {
                let b = swept_bounds(&colliders[i].1);
                b.min.abs().max(b.max.abs()).max_element()
            })
            .fold(1.0f32, f32::max);
        let matches = reported.len() == expected.len()
            && reported.iter().zip(&expected).all(|(g, x)| {
                g.kind == x.0 && (f64::from(g.time_of_impact) - x.1).abs() <= tolerance(g, scale)
            });
        if !matches {
            check.missed += expected.len().saturating_sub(reported.len()).max(1);
            check.first_failure.get_or_insert_with(|| {
                let path = |e: Entity| index.get(&e).map(|&i| colliders[i].1.clone());
                let reported: Vec<_> =
                    reported.iter().map(|e| (e.kind, e.time_of_impact)).collect();
                format!(
                    "tick {tick}, pair {key:?}: exact {exact:?}\n  expected {expected:?}\n  reported {reported:?}\n  paths {:?} / {:?}",
                    path(key.0),
                    path(key.1)
                )
            });
        }
    }
    // Events for pairs that cannot have touched.
    for (key, reported) in got {
        let reported: Vec<_> = reported
            .iter()
            .map(|e| (e.kind, e.time_of_impact))
            .collect();
        check.extra += reported.len();
        check
            .first_failure
            .get_or_insert_with(|| format!("tick {tick}: extra events {key:?} {reported:?}"));
    }
    states.retain(|_, s| s.0 || s.1);
    check.resting += world.resource::<SweepStats>().resting;
}

/// The box around every path's swept bounds.
fn swept_bounds(paths: &[ShapePath]) -> bevy::math::bounding::Aabb2d {
    paths
        .iter()
        .map(ShapePath::swept_bounds)
        .reduce(|a, b| bevy::math::bounding::Aabb2d {
            min: a.min.min(b.min),
            max: a.max.max(b.max),
        })
        .unwrap_or(bevy::math::bounding::Aabb2d {
            min: Vec2::ZERO,
            max: Vec2::ZERO,
        })
}

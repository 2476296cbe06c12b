//! Random worlds of moving colliders: the plugin's events against a brute-force reference
//! built from the exact oracle (every pair, no broad phase, its own event rules).

use super::oracle::contact_intervals;
use super::rules::{expected_events, to_oracle};
use crate::common::*;
use bevy::platform::collections::HashMap;
use bevy::prelude::*;
use bevy_sweep::narrow::ShapePath;
use bevy_sweep::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn random_world(app: &mut App, rng: &mut ChaCha8Rng) -> Vec<Entity> {
    let count = rng.random_range(4..=10);
    (0..count)
        .map(|_| {
            let position = Vec2::new(rng.random_range(-6.0..6.0), rng.random_range(-6.0..6.0));
            let velocity = Vec2::new(
                rng.random_range(-400.0..400.0),
                rng.random_range(-400.0..400.0),
            );
            let collider = match rng.random_range(0..4) {
                0 => Collider::point(),
                1 => Collider::segment(
                    Vec2::new(rng.random_range(-3.0..0.0), rng.random_range(-3.0..3.0)),
                    Vec2::new(rng.random_range(0.0..3.0), rng.random_range(-3.0..3.0)),
                ),
                2 => Collider::circle(rng.random_range(0.2..2.0)),
                _ => Collider::aabb(Vec2::new(
                    rng.random_range(0.2..2.0),
                    rng.random_range(0.2..2.0),
                )),
            };
            let mut entity = app.world_mut().spawn((
                collider,
                Transform::from_translation(position.extend(0.0)),
                Velocity(velocity),
            ));
            if rng.random_bool(0.5) {
                entity.insert(AngularVelocity(rng.random_range(-40.0..40.0)));
            }
            entity.id()
        })
        .collect()
}

#[test]
fn random_worlds_match_the_exact_oracle() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x5eed_0004);
    let (mut compared, mut events_seen) = (0usize, 0usize);
    for world in 0..40 {
        let mut app = app();
        let entities = random_world(&mut app, &mut rng);
        let mut state: HashMap<(Entity, Entity), (bool, bool)> = HashMap::default();
        for tick_number in 0..4 {
            let events = tick(&mut app);
            assert_well_formed(&events);
            events_seen += events.len();
            let paths: Vec<(Entity, ShapePath)> = entities
                .iter()
                .map(|&e| (e, app.world().get::<SweptPath>(e).unwrap().path().unwrap()))
                .collect();
            for (i, &(ea, pa)) in paths.iter().enumerate() {
                for &(eb, pb) in &paths[i + 1..] {
                    let key = (ea.min(eb), ea.max(eb));
                    let (touching, crossed) = state.entry(key).or_default();
                    let exact = contact_intervals(&to_oracle(&pa), &to_oracle(&pb));
                    let expected = expected_events(&exact, touching, crossed);
                    let got: Vec<(CollisionKind, f32)> = events
                        .iter()
                        .filter(|e| (e.entity.min(e.other), e.entity.max(e.other)) == key)
                        .map(|e| (e.kind, e.time_of_impact))
                        .collect();
                    let context = || {
                        format!(
                            "world {world} tick {tick_number}: {pa:?} vs {pb:?}\n exact {exact:?}\n expected {expected:?}\n got {got:?}"
                        )
                    };
                    assert_eq!(got.len(), expected.len(), "{}", context());
                    for (g, x) in got.iter().zip(&expected) {
                        assert_eq!(g.0, x.0, "{}", context());
                        assert!((f64::from(g.1) - x.1).abs() < 1e-5, "{}", context());
                    }
                    compared += 1;
                }
            }
        }
    }
    assert!(compared > 1000, "{compared} pair-ticks compared");
    assert!(
        events_seen > 100,
        "the worlds should be busy: {events_seen} events"
    );
}

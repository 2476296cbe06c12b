//! Things that move answer each other (DESIGN §11): balls exchange momentum, characters stop
//! at each other and push crates, all in the order of the hits' moments. Checked against
//! hand-worked answers and an `f64` oracle of two disks.

use crate::common::*;
use bevy::math::DVec2;
use bevy::prelude::*;
use bevy_sweep::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// An elastic bounce.
const BOUNCE: Response = Response::Bounce { restitution: 1.0 };

/// A ball of `radius` at `at` with `velocity`, answering with `response`, of `mass`.
fn ball(app: &mut App, at: Vec2, velocity: Vec2, response: Response, mass: Mass) -> Entity {
    app.world_mut()
        .spawn((
            Collider::circle(1.0),
            Transform::from_translation(at.extend(0.0)),
            Velocity(velocity),
            response,
            mass,
        ))
        .id()
}

/// A character 8 wide and 16 tall at `(x, 0)` walking at `vx`.
fn hero(app: &mut App, x: f32, vx: f32) -> Entity {
    app.world_mut()
        .spawn((
            Collider::aabb(v(4.0, 8.0)),
            Transform::from_xyz(x, 0.0, 0.0),
            Velocity(v(vx, 0.0)),
            KinematicCharacter::default(),
        ))
        .id()
}

fn place(app: &App, entity: Entity) -> Vec2 {
    app.world()
        .get::<Transform>(entity)
        .unwrap()
        .translation
        .truncate()
}

fn velocity(app: &App, entity: Entity) -> Vec2 {
    app.world().get::<Velocity>(entity).unwrap().0
}

/// Two equal balls meeting head-on swap velocities, at the moment they touch: they do not
/// pass through each other.
#[test]
fn equal_balls_meeting_head_on_swap_velocities() {
    let mut app = app();
    let a = ball(&mut app, v(-5.0, 0.0), v(640.0, 0.0), BOUNCE, Mass(1.0));
    let b = ball(&mut app, v(5.0, 0.0), v(-640.0, 0.0), BOUNCE, Mass(1.0));
    let events = tick(&mut app);
    assert_eq!(velocity(&app, a), v(-640.0, 0.0));
    assert_eq!(velocity(&app, b), v(640.0, 0.0));
    // Each moves 10 a tick: they touch at x = ∓1 after 4, and go back 6.
    assert_vec_close(place(&app, a), v(-7.0, 0.0), 1e-4, "a went back");
    assert_vec_close(place(&app, b), v(7.0, 0.0), 1e-4, "b went back");
    let hits: Vec<_> = events
        .iter()
        .filter(|e| (e.entity, e.other) == (a, b) || (e.entity, e.other) == (b, a))
        .collect();
    assert_eq!(hits.len(), 1, "{events:?}");
    assert_eq!(hits[0].kind, CollisionKind::Crossed);
    assert_close(hits[0].time_of_impact, 0.4, 1e-5, "the moment they touch");
    assert_close(hits[0].point.x, 0.0, 1e-4, "where they touch");
}

/// A ball of mass 1 at speed v meeting a still ball of mass 3 leaves at −v/2, and the other
/// at v/2; without `Mass`, a ball weighs 1.
#[test]
fn masses_share_the_momentum() {
    let mut app = app();
    let light = app
        .world_mut()
        .spawn((
            Collider::circle(1.0),
            Transform::from_xyz(-5.0, 0.0, 0.0),
            Velocity(v(640.0, 0.0)),
            BOUNCE,
        ))
        .id();
    let heavy = ball(&mut app, v(5.0, 0.0), Vec2::ZERO, BOUNCE, Mass(3.0));
    tick(&mut app);
    assert_eq!(velocity(&app, light), v(-320.0, 0.0));
    assert_eq!(velocity(&app, heavy), v(320.0, 0.0));
}

/// Newton's cradle: the last of five touching balls leaves with the first one's speed, and
/// the others stay.
#[test]
fn newtons_cradle_passes_the_speed_along_the_chain() {
    let mut app = app();
    let first = ball(&mut app, v(-3.0, 0.0), v(128.0, 0.0), BOUNCE, Mass(1.0));
    let rest: Vec<Entity> = (0..4)
        .map(|k| {
            ball(
                &mut app,
                v(2.0 * k as f32, 0.0),
                Vec2::ZERO,
                BOUNCE,
                Mass(1.0),
            )
        })
        .collect();
    tick(&mut app);
    assert_eq!(velocity(&app, first), Vec2::ZERO);
    for &middle in &rest[..3] {
        assert_eq!(velocity(&app, middle), Vec2::ZERO);
    }
    assert_eq!(velocity(&app, rest[3]), v(128.0, 0.0));
    // The first hits at half the tick; the last goes on 1 unit from x = 6.
    assert_vec_close(place(&app, first), v(-2.0, 0.0), 1e-4, "the first");
    assert_vec_close(place(&app, rest[3]), v(7.0, 0.0), 1e-4, "the last");
}

/// At 10⁵ units/s, two balls head-on and a ball into a crowd never pass through each
/// other, and never end inside each other.
#[test]
fn fast_balls_never_pass_through_each_other() {
    let mut app = app();
    let speed = 1.0e5;
    let a = ball(&mut app, v(-100.0, 0.0), v(speed, 0.0), BOUNCE, Mass(1.0));
    let b = ball(&mut app, v(100.0, 0.5), v(-speed, 0.0), BOUNCE, Mass(1.0));
    tick(&mut app);
    let (pa, pb) = (place(&app, a), place(&app, b));
    assert!(pa.x < pb.x, "they passed through: {pa} {pb}");
    assert!(pa.distance(pb) >= 2.0 - 1e-3, "inside: {pa} {pb}");
    // Momentum along x is kept: they were equal and opposite.
    let (va, vb) = (velocity(&app, a), velocity(&app, b));
    assert!((va + vb).length() < 1e-2 * speed.abs() * 1e-3, "{va} {vb}");
    assert!(va.x < 0.0 && vb.x > 0.0, "{va} {vb}");
}

/// Two characters walking into each other both stop where they touch; one walking into a
/// still one stops and does not push it.
#[test]
fn characters_stop_at_each_other() {
    let mut app = app();
    let (a, b) = (hero(&mut app, -30.0, 320.0), hero(&mut app, 30.0, -320.0));
    for _ in 0..20 {
        tick(&mut app);
        app.world_mut().get_mut::<Velocity>(a).unwrap().0 = v(320.0, 0.0);
        app.world_mut().get_mut::<Velocity>(b).unwrap().0 = v(-320.0, 0.0);
    }
    let (pa, pb) = (place(&app, a), place(&app, b));
    assert!(pa.x < pb.x, "they swapped places: {pa} {pb}");
    // They stand touching (each a skin off), each halfway.
    let skin = KinematicCharacter::DEFAULT_SKIN;
    assert!(pb.x - pa.x >= 8.0 - 1e-3, "inside each other: {pa} {pb}");
    assert!(pb.x - pa.x <= 8.0 + 4.0 * skin, "stopped short: {pa} {pb}");
    assert_close(pa.x + pb.x, 0.0, 0.1, "each stopped halfway");

    // One walks into a still one: it stops; the still one is not pushed.
    let mut app2 = app_with(SweepPlugin::default());
    let walker = hero(&mut app2, -30.0, 320.0);
    let still = hero(&mut app2, 0.0, 0.0);
    for _ in 0..20 {
        tick(&mut app2);
        app2.world_mut().get_mut::<Velocity>(walker).unwrap().0 = v(320.0, 0.0);
    }
    assert_eq!(place(&app2, still), Vec2::ZERO, "not pushed");
    let p = place(&app2, walker);
    assert!(
        p.x <= -8.0 + 1e-3 && p.x >= -8.0 - 4.0 * skin,
        "stopped at it: {p}"
    );
}

/// A character pushes a sliding crate in its way (the crate takes its normal velocity) and
/// is not slowed; a ball bounces off it.
#[test]
fn a_character_pushes_a_crate_and_a_ball_bounces_off_it() {
    let mut app = app();
    let walker = hero(&mut app, -20.0, 320.0);
    let crate_ = app
        .world_mut()
        .spawn((
            Collider::aabb(v(4.0, 4.0)),
            Transform::from_xyz(0.0, -2.0, 0.0),
            Velocity(Vec2::ZERO),
            Response::Slide,
        ))
        .id();
    let mut crate_before = place(&app, crate_);
    for k in 0..20 {
        tick(&mut app);
        app.world_mut().get_mut::<Velocity>(walker).unwrap().0 = v(320.0, 0.0);
        let (h, c) = (place(&app, walker), place(&app, crate_));
        assert!(
            c.x - h.x >= 8.0 - 1e-3,
            "tick {k}: the hero is in the crate: {h} {c}"
        );
        crate_before = c.max(crate_before);
    }
    // The hero walked 5 units a tick all the way (100 in 20 ticks), the crate ahead of it.
    let (h, c) = (place(&app, walker), place(&app, crate_));
    assert_close(h.x, 80.0, 1e-2, "the hero is not slowed");
    assert!(
        c.x >= h.x + 8.0 - 1e-3 && c.x <= h.x + 8.0 + 0.1,
        "pushed: {h} {c}"
    );
    assert_close(c.y, -2.0, 1e-4, "the crate moves along the push only");

    // A ball thrown at a walking character bounces off it, faster by twice its speed.
    let mut app = app_with(SweepPlugin::default());
    let walker = hero(&mut app, -20.0, 320.0);
    let b = ball(&mut app, v(0.0, 0.0), v(-640.0, 0.0), BOUNCE, Mass(1.0));
    tick(&mut app);
    tick(&mut app);
    assert_eq!(velocity(&app, b), v(1280.0, 0.0));
    assert!(place(&app, b).x > place(&app, walker).x + 5.0 - 1e-3);
}

/// A ball meeting a mover of infinite mass bounces off it as off a solid moving with it, and
/// does not push it.
#[test]
fn an_infinite_mass_is_a_moving_solid() {
    let mut app = app();
    let wall = ball(
        &mut app,
        v(5.0, 0.0),
        v(-64.0, 0.0),
        BOUNCE,
        Mass(f32::INFINITY),
    );
    let b = ball(&mut app, v(-5.0, 0.0), v(576.0, 0.0), BOUNCE, Mass(1.0));
    tick(&mut app);
    assert_eq!(velocity(&app, wall), v(-64.0, 0.0));
    assert_eq!(velocity(&app, b), v(-704.0, 0.0));
}

/// A mass that is not positive skips the collider with its reason.
#[test]
fn a_bad_mass_is_skipped_with_a_reason() {
    for bad in [0.0, -1.0, f32::NAN, f32::NEG_INFINITY] {
        let mut app = app();
        let b = ball(&mut app, Vec2::ZERO, v(64.0, 0.0), BOUNCE, Mass(bad));
        tick(&mut app);
        let skipped = app.world().resource::<SkippedColliders>();
        assert_eq!(skipped.reason(b), Some(SkipReason::InvalidMass), "{bad}");
    }
}

/// A crowd of balls of random masses and restitutions in a box: spawned in reverse order it
/// ends bit for bit the same; momentum is kept in every tick where no ball touches a wall.
#[test]
fn a_crowd_ends_the_same_whatever_the_spawn_order() {
    let mut rng = ChaCha8Rng::seed_from_u64(44);
    for round in 0..4 {
        let balls: Vec<(Vec2, Vec2, f32, f32)> = (0..40)
            .map(|_| {
                (
                    v(rng.random_range(-60.0..60.0), rng.random_range(-60.0..60.0)),
                    Vec2::from_angle(rng.random_range(0.0..6.3)) * rng.random_range(0.0..3000.0),
                    rng.random_range(0.5..4.0),
                    rng.random_range(0.0..=1.0),
                )
            })
            .collect();
        let run = |reverse: bool| {
            let mut app = app();
            for (center, half) in [
                (v(-80.0, 0.0), v(5.0, 90.0)),
                (v(80.0, 0.0), v(5.0, 90.0)),
                (v(0.0, -80.0), v(90.0, 5.0)),
                (v(0.0, 80.0), v(90.0, 5.0)),
            ] {
                app.world_mut().spawn((
                    Collider::aabb(half),
                    Transform::from_translation(center.extend(0.0)),
                ));
            }
            let mut order: Vec<usize> = (0..balls.len()).collect();
            if reverse {
                order.reverse();
            }
            let mut entities = vec![Entity::PLACEHOLDER; balls.len()];
            for k in order {
                let (at, velocity, mass, restitution) = balls[k];
                entities[k] = ball(
                    &mut app,
                    at,
                    velocity,
                    Response::Bounce { restitution },
                    Mass(mass),
                );
            }
            for _ in 0..30 {
                tick(&mut app);
            }
            entities
                .iter()
                .map(|&e| (place(&app, e), velocity(&app, e)))
                .collect::<Vec<_>>()
        };
        let (forward, backward) = (run(false), run(true));
        for (k, (f, b)) in forward.iter().zip(&backward).enumerate() {
            assert_eq!(
                (
                    f.0.to_array().map(f32::to_bits),
                    f.1.to_array().map(f32::to_bits)
                ),
                (
                    b.0.to_array().map(f32::to_bits),
                    b.1.to_array().map(f32::to_bits)
                ),
                "round {round}, ball {k}: {f:?} vs {b:?}"
            );
        }
    }
}

/// Hits at the very same moment are answered in an order that depends on the movers' data
/// only: a still ball hit from both sides at once by balls of other masses, a cross of four
/// balls meeting a fifth, and a row of cradles, end bit for bit the same spawned in either
/// order.
#[test]
fn simultaneous_hits_do_not_depend_on_the_spawn_order() {
    let scene: Vec<(Vec2, Vec2, f32)> = vec![
        // From both sides at once.
        (v(0.0, 0.0), Vec2::ZERO, 1.0),
        (v(-5.0, 0.0), v(640.0, 0.0), 2.0),
        (v(5.0, 0.0), v(-640.0, 0.0), 0.5),
        // A cross.
        (v(0.0, 100.0), Vec2::ZERO, 1.0),
        (v(-5.0, 100.0), v(640.0, 0.0), 3.0),
        (v(5.0, 100.0), v(-640.0, 0.0), 0.25),
        (v(0.0, 95.0), v(0.0, 640.0), 2.0),
        (v(0.0, 105.0), v(0.0, -640.0), 1.5),
        // Two cradles hit from both ends.
        (v(-50.0, -50.0), Vec2::ZERO, 1.0),
        (v(-48.0, -50.0), Vec2::ZERO, 2.0),
        (v(-53.0, -50.0), v(640.0, 0.0), 1.0),
        (v(-45.0, -50.0), v(-640.0, 0.0), 0.5),
    ];
    let run = |reverse: bool| {
        let mut app = app();
        let mut order: Vec<usize> = (0..scene.len()).collect();
        if reverse {
            order.reverse();
        }
        let mut entities = vec![Entity::PLACEHOLDER; scene.len()];
        for k in order {
            let (at, velocity, mass) = scene[k];
            entities[k] = ball(&mut app, at, velocity, BOUNCE, Mass(mass));
        }
        for _ in 0..3 {
            tick(&mut app);
        }
        entities
            .iter()
            .map(|&e| (place(&app, e).to_array(), velocity(&app, e).to_array()))
            .map(|(p, u)| (p.map(f32::to_bits), u.map(f32::to_bits)))
            .collect::<Vec<_>>()
    };
    assert_eq!(run(false), run(true));
    // And something happened: the still balls were hit.
    let mut app = app();
    let still = ball(&mut app, Vec2::ZERO, Vec2::ZERO, BOUNCE, Mass(1.0));
    ball(&mut app, v(-5.0, 0.0), v(640.0, 0.0), BOUNCE, Mass(2.0));
    ball(&mut app, v(5.0, 0.0), v(-640.0, 0.0), BOUNCE, Mass(0.5));
    tick(&mut app);
    assert_ne!(velocity(&app, still), Vec2::ZERO);
}

/// Two balls at 10⁵ units/s in a box one unit wide answer hundreds of hits a tick: each
/// answers 32, is counted in `SweepStats::out_of_hits`, and stays inside, neither inside the
/// other.
#[test]
fn fast_balls_in_a_tiny_box_spend_their_hits_and_stay_inside() {
    let mut app = app();
    for (center, half) in [
        (v(-1.5, 0.0), v(1.0, 3.0)),
        (v(1.5, 0.0), v(1.0, 3.0)),
        (v(0.0, -1.5), v(3.0, 1.0)),
        (v(0.0, 1.5), v(3.0, 1.0)),
    ] {
        app.world_mut().spawn((
            Collider::aabb(half),
            Transform::from_translation(center.extend(0.0)),
        ));
    }
    let balls: Vec<Entity> = [
        (v(-0.2, -0.2), v(1.0e5, 3.0e4)),
        (v(0.2, 0.2), v(-7.0e4, 1.0e5)),
    ]
    .into_iter()
    .map(|(at, velocity)| {
        app.world_mut()
            .spawn((
                Collider::circle(0.1),
                Transform::from_translation(at.extend(0.0)),
                Velocity(velocity),
                BOUNCE,
            ))
            .id()
    })
    .collect();
    for t in 0..20 {
        tick(&mut app);
        let stats = *app.world().resource::<SweepStats>();
        assert_eq!(stats.out_of_hits, 2, "tick {t}: {stats:?}");
        assert_eq!(stats.crowded, 2, "tick {t}");
        let (a, b) = (place(&app, balls[0]), place(&app, balls[1]));
        for p in [a, b] {
            assert!(p.abs().max_element() <= 0.4 + 1e-4, "tick {t}: out at {p}");
        }
        assert!(
            a.distance(b) >= 0.2 - 1e-4,
            "tick {t}: {a} {b} inside each other"
        );
        for e in &balls {
            assert!(velocity(&app, *e).is_finite());
        }
    }
}

/// Movers spawned inside each other are pushed apart the shortest way, by their shares of
/// the inverse masses, and not thrown: their velocities stay as they were.
#[test]
fn movers_spawned_inside_each_other_are_separated_not_thrown() {
    let mut app = app();
    let light = ball(&mut app, v(0.0, 0.0), Vec2::ZERO, BOUNCE, Mass(1.0));
    let heavy = ball(
        &mut app,
        v(1.0, 0.0),
        Vec2::ZERO,
        Response::Slide,
        Mass(3.0),
    );
    tick(&mut app);
    let (a, b) = (place(&app, light), place(&app, heavy));
    assert!(b.x - a.x >= 2.0 - 1e-4, "still inside: {a} {b}");
    // The light one goes three quarters of the way out.
    assert_close(a.x, -0.75, 1e-3, "the light one");
    assert_close(b.x, 1.25, 1e-3, "the heavy one");
    assert_eq!(velocity(&app, light), Vec2::ZERO, "not thrown");
    assert_eq!(velocity(&app, heavy), Vec2::ZERO, "not thrown");
}

/// Two characters closing in on a ball between them crush it: it ends the tick outside at
/// least one of them, and never with a velocity that is not finite.
#[test]
fn a_ball_crushed_between_two_characters_ends_outside_one() {
    let mut app = app();
    let (a, b) = (hero(&mut app, -10.0, 640.0), hero(&mut app, 10.0, -640.0));
    let squeezed = ball(&mut app, Vec2::ZERO, Vec2::ZERO, BOUNCE, Mass(1.0));
    for t in 0..4 {
        tick(&mut app);
        app.world_mut().get_mut::<Velocity>(a).unwrap().0 = v(640.0, 0.0);
        app.world_mut().get_mut::<Velocity>(b).unwrap().0 = v(-640.0, 0.0);
        let (pa, pb, p) = (place(&app, a), place(&app, b), place(&app, squeezed));
        let outside_a = p.x - pa.x >= 5.0 - 1e-3 || (p.y - pa.y).abs() >= 9.0 - 1e-3;
        let outside_b = pb.x - p.x >= 5.0 - 1e-3 || (p.y - pb.y).abs() >= 9.0 - 1e-3;
        assert!(outside_a || outside_b, "tick {t}: {pa} {p} {pb}");
        assert!(velocity(&app, squeezed).is_finite());
        assert!(pa.x < pb.x, "tick {t}: the characters passed: {pa} {pb}");
    }
}

/// Gravity on every mover that answers with a `Response`.
fn gravity(mut movers: Query<&mut Velocity, With<Response>>, time: Res<Time>) {
    for mut v in &mut movers {
        v.0.y -= 900.0 * time.delta_secs();
    }
}

/// A stack of ten sliding crates under gravity on a floor stands still: no sinking, jitter
/// or creep (heights kept to 1e-3 over 1,000 ticks), and no train of ever smaller hits using
/// up the hit budget: a crate is answered about once a tick.
#[test]
fn a_stack_of_crates_stands_still() {
    let mut app = app();
    app.add_systems(FixedUpdate, gravity);
    app.world_mut().spawn((
        Collider::aabb(v(100.0, 10.0)),
        Transform::from_xyz(0.0, -10.0, 0.0),
    ));
    let crates: Vec<Entity> = (0..10)
        .map(|k| {
            app.world_mut()
                .spawn((
                    Collider::aabb(v(4.0, 4.0)),
                    Transform::from_xyz(0.0, 4.0 + 8.0 * k as f32, 0.0),
                    Velocity(Vec2::ZERO),
                    Response::Slide,
                ))
                .id()
        })
        .collect();
    let mut most_hits = 0;
    for t in 0..1000 {
        tick(&mut app);
        most_hits = most_hits.max(app.world().resource::<SweepStats>().answered_hits);
        for (k, &c) in crates.iter().enumerate() {
            let p = place(&app, c);
            let want = v(0.0, 4.0 + 8.0 * k as f32);
            assert!(
                (p - want).abs().max_element() <= 1e-3,
                "tick {t}: crate {k} at {p}, not {want}"
            );
        }
    }
    assert!(
        most_hits <= 2 * crates.len(),
        "{most_hits} hits in one tick"
    );
}

/// Two disks in open space against an `f64` oracle written here: the moment they touch
/// (the root of a quadratic), the impulse, and where each ends. Random masses, radii 1,
/// restitution 0 to 1, speeds up to 10⁴ units/s; momentum kept, and with `e = 1` energy too.
#[test]
fn two_disks_match_an_f64_oracle() {
    let mut rng = ChaCha8Rng::seed_from_u64(4411);
    let dt = f64::from(TICK);
    let mut met = 0;
    for case in 0..800 {
        let pa = DVec2::new(rng.random_range(-50.0..50.0), rng.random_range(-50.0..50.0));
        // Aimed near each other: b somewhere ahead of a.
        let pb = pa + DVec2::from_angle(rng.random_range(0.0..6.3)) * rng.random_range(3.0..40.0);
        let speed = rng.random_range(100.0..10_000.0);
        let aim = (pb - pa)
            .normalize()
            .rotate(DVec2::from_angle(rng.random_range(-0.3..0.3)));
        let va = aim * speed;
        let vb = DVec2::from_angle(rng.random_range(0.0..6.3)) * rng.random_range(0.0..speed);
        let (ma, mb) = (rng.random_range(0.2..5.0), rng.random_range(0.2..5.0));
        let e = if case % 3 == 0 {
            1.0
        } else {
            rng.random_range(0.0..=1.0)
        };
        // What the balls are given, rounded to f32, is what the oracle starts from.
        let f = |p: DVec2| p.as_vec2();
        let (pa, pb, va, vb) = (
            f(pa).as_dvec2(),
            f(pb).as_dvec2(),
            f(va).as_dvec2(),
            f(vb).as_dvec2(),
        );
        let (ma, mb, e) = (ma as f32, mb as f32, e as f32);
        // The oracle: |(pa - pb) + (va - vb) t| = 2 for the first t in [0, dt].
        let d = pa - pb;
        let w = va - vb;
        let (qa, qb, qc) = (w.dot(w), 2.0 * d.dot(w), d.dot(d) - 4.0);
        let disc = qb * qb - 4.0 * qa * qc;
        let t = (disc >= 0.0 && qa > 0.0).then(|| (-qb - disc.sqrt()) / (2.0 * qa));
        let Some(t) = t.filter(|&t| t > 1e-9 && t < dt - 1e-9 && qc > 1e-6) else {
            continue;
        };
        met += 1;
        let (ca, cb) = (pa + va * t, pb + vb * t);
        let n = (ca - cb).normalize();
        let (fa, fb) = (f64::from(ma), f64::from(mb));
        let into = w.dot(n).min(0.0);
        let j = (1.0 + f64::from(e)) * into / (1.0 / fa + 1.0 / fb);
        let (va2, vb2) = (va - j / fa * n, vb + j / fb * n);
        let (ea, eb) = (ca + va2 * (dt - t), cb + vb2 * (dt - t));

        let mut app = app();
        let bounce = Response::Bounce { restitution: e };
        let a = ball(&mut app, f(pa), f(va), bounce, Mass(ma));
        let b = ball(&mut app, f(pb), f(vb), bounce, Mass(mb));
        tick(&mut app);
        let scale = speed * dt;
        for (entity, end, vel, name) in [(a, ea, va2, "a"), (b, eb, vb2, "b")] {
            let (p, u) = (
                place(&app, entity).as_dvec2(),
                velocity(&app, entity).as_dvec2(),
            );
            assert!(
                (p - end).length() <= 1e-4 * scale.max(1.0),
                "case {case} {name}: at {p}, oracle {end}"
            );
            assert!(
                (u - vel).length() <= 1e-4 * speed,
                "case {case} {name}: velocity {u}, oracle {vel}"
            );
        }
        let momentum = |u: DVec2, v: DVec2| u * fa + v * fb;
        let after = momentum(velocity(&app, a).as_dvec2(), velocity(&app, b).as_dvec2());
        assert!(
            (after - momentum(va, vb)).length() <= 1e-6 * speed * (fa + fb),
            "case {case}: momentum {after} vs {}",
            momentum(va, vb)
        );
        if e == 1.0 {
            let energy = |u: DVec2, v: DVec2| fa * u.length_squared() + fb * v.length_squared();
            let (before, now) = (
                energy(va, vb),
                energy(velocity(&app, a).as_dvec2(), velocity(&app, b).as_dvec2()),
            );
            assert!(
                (now - before).abs() <= 1e-6 * before,
                "case {case}: energy {now} vs {before}"
            );
        }
    }
    assert!(met > 150, "only {met} of the cases met within the tick");
}

//! The world as it is in this tick: a collider spawned, teleported, moved by game code or
//! switched back on since the last tick blocks characters and responders from this tick on,
//! at any speed, for every shape.

use crate::common::*;
use bevy::prelude::*;
use bevy_sweep::prelude::*;

fn place(app: &App, e: Entity) -> Vec2 {
    app.world()
        .get::<Transform>(e)
        .unwrap()
        .translation
        .truncate()
}

fn velocity(app: &App, e: Entity) -> Vec2 {
    app.world().get::<Velocity>(e).unwrap().0
}

/// The shapes a character can have, each about 4 units across its middle (the x extent from
/// its origin is `reach`).
fn walkers() -> Vec<(Collider, f32)> {
    vec![
        (Collider::circle(4.0), 4.0),
        (Collider::capsule(v(0.0, -4.0), v(0.0, 4.0), 4.0), 4.0),
        (Collider::aabb(v(4.0, 6.0)), 4.0),
        (Collider::rectangle(v(4.0, 6.0)), 4.0),
        (
            Collider::convex_polygon(&[v(-4.0, -6.0), v(4.0, -6.0), v(4.0, 6.0), v(-4.0, 6.0)])
                .unwrap(),
            4.0,
        ),
        (Collider::point(), 0.0),
        (Collider::segment(v(-4.0, 0.0), v(4.0, 0.0)), 4.0),
    ]
}

fn wall(app: &mut App, x: f32) -> Entity {
    app.world_mut()
        .spawn((
            Collider::aabb(v(1.0, 100.0)),
            Transform::from_xyz(x, 0.0, 0.0),
        ))
        .id()
}

/// A character at 3,200 and 64,000 units/s towards a wall spawned in the same tick, 20 units
/// ahead: it ends the tick short of the wall, `skin` away, and stays there.
#[test]
fn a_character_stops_at_a_wall_spawned_in_its_way() {
    for (shape, reach) in walkers() {
        for speed in [3_200.0, 64_000.0] {
            let mut app = app();
            let hero = app
                .world_mut()
                .spawn((
                    shape.clone(),
                    Transform::default(),
                    Velocity(v(speed, 0.0)),
                    KinematicCharacter::default(),
                ))
                .id();
            tick(&mut app);
            let x0 = place(&app, hero).x;
            let face = x0 + 20.0 - 1.0;
            wall(&mut app, x0 + 20.0);
            for k in 0..5 {
                tick(&mut app);
                let x = place(&app, hero).x;
                assert!(
                    x + reach <= face && x + reach >= face - 0.2,
                    "{shape:?} at {speed}: tick {k} ends at {x}, the wall's face is at {face}"
                );
                assert_eq!(velocity(&app, hero).x, 0.0, "{shape:?}: stopped");
                app.world_mut().get_mut::<Velocity>(hero).unwrap().0 = v(speed, 0.0);
            }
        }
    }
}

/// The same, with the wall spawned by a game system in `FixedUpdate` of the very tick.
#[test]
fn a_wall_a_system_spawns_before_the_sweep_stops_a_character() {
    #[derive(Resource)]
    struct SpawnAt(Option<f32>);
    fn spawn_wall(mut commands: Commands, mut at: ResMut<SpawnAt>) {
        if let Some(x) = at.0.take() {
            commands.spawn((
                Collider::aabb(v(1.0, 100.0)),
                Transform::from_xyz(x, 0.0, 0.0),
            ));
        }
    }
    let mut app = app();
    app.insert_resource(SpawnAt(None))
        .add_systems(FixedUpdate, spawn_wall);
    let hero = app
        .world_mut()
        .spawn((
            Collider::circle(4.0),
            Velocity(v(3_200.0, 0.0)),
            KinematicCharacter::default(),
        ))
        .id();
    tick(&mut app);
    let x0 = place(&app, hero).x;
    app.world_mut().resource_mut::<SpawnAt>().0 = Some(x0 + 20.0);
    tick(&mut app);
    let x = place(&app, hero).x;
    assert!(x <= x0 + 15.0 && x >= x0 + 14.8, "{x0} → {x}");
}

/// Pushed diagonally into a corner whose floor and wall are spawned with it, a character
/// ends the tick inside the corner, whatever its shape.
#[test]
fn a_character_pushed_into_a_fresh_corner_stays_in_it() {
    for (shape, _) in walkers() {
        let mut app = app();
        let hero = app
            .world_mut()
            .spawn((
                shape.clone(),
                Transform::default(),
                Velocity(v(3_200.0, -3_200.0)),
                KinematicCharacter::default(),
            ))
            .id();
        // Floor top at y = -20, wall face at x = 20.
        app.world_mut().spawn((
            Collider::aabb(v(100.0, 5.0)),
            Transform::from_xyz(0.0, -25.0, 0.0),
        ));
        app.world_mut().spawn((
            Collider::aabb(v(5.0, 100.0)),
            Transform::from_xyz(25.0, 0.0, 0.0),
        ));
        for _ in 0..4 {
            tick(&mut app);
            let at = place(&app, hero);
            assert!(at.x <= 20.0 && at.y >= -20.0, "{shape:?}: at {at}");
            app.world_mut().get_mut::<Velocity>(hero).unwrap().0 = v(3_200.0, -3_200.0);
        }
    }
}

/// Responders stop, slide and bounce at a wall spawned in their way, at any speed.
#[test]
fn responders_answer_a_wall_spawned_in_their_way() {
    for response in [
        Response::Bounce { restitution: 1.0 },
        Response::Slide,
        Response::Stop,
    ] {
        for speed in [3_200.0, 64_000.0, 1.0e6] {
            let mut app = app();
            let ball = app
                .world_mut()
                .spawn((Collider::circle(2.0), Velocity(v(speed, 0.0)), response))
                .id();
            wall(&mut app, 20.0);
            tick(&mut app);
            let x = place(&app, ball).x;
            assert!(x <= 17.0 + 1e-3, "{response:?} at {speed}: {x}");
        }
    }
}

/// A wall teleported, moved by game code, or switched back on in a character's way stops it
/// from that tick on.
#[test]
fn a_wall_teleported_moved_or_switched_on_in_the_way_stops_a_character() {
    for how in ["teleported", "moved", "switched on"] {
        let mut app = app();
        let hero = app
            .world_mut()
            .spawn((
                Collider::circle(4.0),
                Velocity(v(3_200.0, 0.0)),
                KinematicCharacter::default(),
            ))
            .id();
        let far = wall(&mut app, 1_000.0);
        if how == "switched on" {
            app.world_mut().entity_mut(far).insert(ColliderDisabled);
        }
        tick(&mut app);
        tick(&mut app);
        let x0 = place(&app, hero).x;
        let mut door = app.world_mut().entity_mut(far);
        door.insert(Transform::from_xyz(x0 + 20.0, 0.0, 0.0));
        match how {
            "teleported" => {
                door.insert(Teleport);
            }
            "switched on" => {
                door.remove::<ColliderDisabled>();
            }
            _ => {}
        }
        tick(&mut app);
        let x = place(&app, hero).x;
        assert!(x <= x0 + 15.0 && x >= x0 + 14.8, "{how}: {x0} → {x}");
    }
}

/// A character spawned standing on a one-way platform spawned in the same frame stays on it.
#[test]
fn a_character_spawned_on_a_fresh_one_way_platform_stands_on_it() {
    let mut app = app();
    app.add_systems(
        FixedUpdate,
        |mut characters: Query<&mut Velocity, With<KinematicCharacter>>| {
            for mut v in &mut characters {
                v.0.y -= 900.0 * TICK;
            }
        },
    );
    let platform = app
        .world_mut()
        .spawn((Collider::aabb(v(50.0, 1.0)), OneWay(Dir2::Y)))
        .id();
    let skin = KinematicCharacter::default().skin;
    let hero = app
        .world_mut()
        .spawn((
            Collider::capsule(v(0.0, -6.0), v(0.0, 6.0), 4.0),
            Transform::from_xyz(0.0, 11.0 + skin, 0.0),
            KinematicCharacter::default(),
        ))
        .id();
    for _ in 0..30 {
        tick(&mut app);
    }
    let y = place(&app, hero).y;
    assert!((y - (11.0 + skin)).abs() < 1e-3, "it stands at {y}");
    let state = app.world().get::<CharacterState>(hero).unwrap();
    assert!(state.grounded && state.ground_entity == Some(platform));
}

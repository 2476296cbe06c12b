//! `bullets`: very fast points and circles against thin walls and segments. Nothing tunnels.
//!
//! ```sh
//! cargo run --release --example bullets --features debug-draw
//! ```
//!
//! | control | action |
//! |---|---|
//! | left button (hold) | fire at the pointer |
//! | `Space` | toggle automatic fire |
//! | `Up` / `Down` | bullet speed ×2 / ÷2 (starts at 40,000 px/s: 625 px per tick) |
//! | `Esc` | quit |
//!
//! A gun on the left fires bullets (points and small circles) at a row of thin targets: a
//! box 2 px wide, a segment, a turning segment and a moving 2-px box. At these speeds a bullet
//! crosses the whole window in one or two ticks, so a test of where bullets *are* at each tick
//! would miss almost every target. Each bullet stops at its first contact (a `Started` or
//! `Crossed` event); one found beyond the last target without a contact is a pass-through.
//! The counter of pass-throughs stays at 0. Swept paths, contacts and normals are drawn by
//! `SweepDebugPlugin`.

#[path = "support/demo.rs"]
mod demo;
#[path = "support/scripted.rs"]
mod scripted;

use bevy::prelude::*;
use bevy_sweep::prelude::*;
use demo::{Cursor, Hud};
use scripted::ScriptedRun;

/// Every target lies left of this x; a bullet past it without a hit went through one.
const BEYOND: f32 = 520.0;
const GUN: Vec2 = Vec2::new(-600.0, 0.0);

fn main() {
    App::new()
        .add_plugins((
            DefaultPlugins.set(demo::window("bullets", (1280, 720))),
            SweepPlugin {
                length_unit: 100.0,
                ..default()
            },
            SweepDebugPlugin,
            ScriptedRun,
        ))
        .insert_resource(ClearColor(Color::srgb(0.04, 0.05, 0.08)))
        .insert_resource(Gun {
            speed: 40_000.0,
            automatic: true,
            shots: 0,
        })
        .init_resource::<Tally>()
        .add_systems(Startup, setup)
        .add_systems(Update, (demo::quit_on_esc, controls, hud))
        .add_systems(FixedUpdate, (fire, move_target))
        .add_systems(FixedPostUpdate, stop_bullets.after(SweepSystems::Report))
        .add_systems(Last, log_tally)
        .run();
}

#[derive(Resource)]
struct Gun {
    speed: f32,
    automatic: bool,
    shots: u32,
}

#[derive(Resource, Default)]
struct Tally {
    fired: u32,
    hits: u32,
    pass_throughs: u32,
}

#[derive(Component)]
struct Bullet;

#[derive(Component)]
struct Target;

#[derive(Component)]
struct Mover;

/// Where the pointer is, in world space (the aim of manual fire).
#[derive(Resource, Default)]
struct Aim(Option<Vec2>);

fn setup(mut commands: Commands) {
    commands.spawn(Camera2d);
    commands.init_resource::<Aim>();
    // Staggered thin targets; the last wall spans the whole height, so every bullet must
    // stop at one of them.
    let targets = [
        (
            Collider::aabb(Vec2::new(1.0, 150.0)),
            Vec2::new(-100.0, 150.0),
            0.0,
        ),
        (
            Collider::segment(Vec2::new(0.0, -150.0), Vec2::new(0.0, 150.0)),
            Vec2::new(50.0, -150.0),
            0.0,
        ),
        (
            Collider::segment(Vec2::new(0.0, -120.0), Vec2::new(0.0, 120.0)),
            Vec2::new(330.0, 0.0),
            1.5,
        ),
        (
            Collider::aabb(Vec2::new(1.0, 360.0)),
            Vec2::new(480.0, 0.0),
            0.0,
        ),
    ];
    for (collider, at, spin) in targets {
        commands.spawn((
            Target,
            collider,
            Transform::from_translation(at.extend(0.0)),
            AngularVelocity(spin),
        ));
    }
    commands.spawn((
        Target,
        Mover,
        Collider::aabb(Vec2::new(1.0, 60.0)),
        Transform::from_xyz(200.0, 0.0, 0.0),
        Velocity(Vec2::new(0.0, 300.0)),
    ));
    commands.spawn(demo::hud(24.0, Vec2::new(14.0, 10.0)));
}

fn controls(
    keys: Res<ButtonInput<KeyCode>>,
    buttons: Res<ButtonInput<MouseButton>>,
    cursor: Cursor,
    mut gun: ResMut<Gun>,
    mut aim: ResMut<Aim>,
) {
    if keys.just_pressed(KeyCode::Space) {
        gun.automatic = !gun.automatic;
    }
    if keys.just_pressed(KeyCode::ArrowUp) {
        gun.speed = (gun.speed * 2.0).min(5.0e6);
    }
    if keys.just_pressed(KeyCode::ArrowDown) {
        gun.speed = (gun.speed / 2.0).max(1000.0);
    }
    aim.0 = if buttons.pressed(MouseButton::Left) {
        cursor.world()
    } else {
        None
    };
}

/// Two bullets a tick: a point and a circle, aimed at the pointer or swept across the
/// targets' height.
fn fire(mut commands: Commands, mut gun: ResMut<Gun>, aim: Res<Aim>, mut tally: ResMut<Tally>) {
    let target = match aim.0 {
        Some(p) => p,
        None if gun.automatic => {
            let phase = gun.shots as f32 * 0.37;
            Vec2::new(0.0, 280.0 * phase.sin())
        }
        None => return,
    };
    for (k, collider) in [Collider::point(), Collider::circle(3.0)]
        .into_iter()
        .enumerate()
    {
        let direction = (target - GUN).normalize_or(Vec2::X);
        let offset = Vec2::new(0.0, 6.0 * k as f32);
        commands.spawn((
            Bullet,
            collider,
            Transform::from_translation((GUN + offset).extend(0.0)),
            Velocity(direction * gun.speed),
        ));
        tally.fired += 1;
    }
    gun.shots += 1;
}

fn move_target(mut mover: Query<(&Transform, &mut Velocity), With<Mover>>) {
    for (transform, mut velocity) in &mut mover {
        if transform.translation.y.abs() > 250.0 && transform.translation.y * velocity.0.y > 0.0 {
            velocity.0.y = -velocity.0.y;
        }
    }
}

/// A bullet stops at its first contact with a target; one that got beyond every target
/// without a contact went through one (it never should), and one that leaves is removed.
fn stop_bullets(
    mut commands: Commands,
    mut events: MessageReader<CollisionEvent>,
    mut tally: ResMut<Tally>,
    bullets: Query<(Entity, &Transform), With<Bullet>>,
    targets: Query<(), With<Target>>,
) {
    let mut stopped = Vec::new();
    for event in events.read() {
        for (bullet, other) in [(event.entity, event.other), (event.other, event.entity)] {
            if bullets.contains(bullet) && targets.contains(other) && !stopped.contains(&bullet) {
                stopped.push(bullet);
                tally.hits += 1;
                commands.entity(bullet).despawn();
            }
        }
    }
    for (bullet, transform) in &bullets {
        if stopped.contains(&bullet) {
            continue;
        }
        let p = transform.translation.truncate();
        if p.x > BEYOND && p.y.abs() < 360.0 {
            tally.pass_throughs += 1;
            commands.entity(bullet).despawn();
        } else if p.abs().cmpgt(Vec2::new(700.0, 400.0)).any() {
            commands.entity(bullet).despawn();
        }
    }
}

fn hud(gun: Res<Gun>, tally: Res<Tally>, mut hud: Single<&mut Text, With<Hud>>) {
    hud.0 = format!(
        "speed {:.0} px/s ({:.0} px per tick)   fired {}   hits {}   pass-throughs {}",
        gun.speed,
        gun.speed / 64.0,
        tally.fired,
        tally.hits,
        tally.pass_throughs
    );
}

fn log_tally(mut exits: MessageReader<AppExit>, tally: Res<Tally>) {
    if exits.read().next().is_some() {
        info!(
            "fired: {}, hits: {}, pass-throughs: {}",
            tally.fired, tally.hits, tally.pass_throughs
        );
    }
}

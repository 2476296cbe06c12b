//! `showcase`: every pair of shapes colliding, drawn by the debug-draw plugin.
//!
//! ```sh
//! cargo run --release --example showcase --features debug-draw
//! ```
//!
//! | control | action |
//! |---|---|
//! | `Space` | pause / resume the motion |
//! | `Up` / `Down` | movers twice / half as fast |
//! | `Esc` | quit |
//!
//! Thirty-six cells, one per pair of {point, segment, circle, box, rectangle, capsule,
//! polygon, polyline}. In each, a mover swings back and forth through a target (segments,
//! rectangles, capsules, polygons and polylines also turn), so contacts start, end and cross
//! over and over. `SweepDebugPlugin` draws the colliders (green), this tick's swept paths (blue) and
//! each contact's point and normal (orange: started, light: ended, dark: crossed). The counts
//! of each kind of event are at the top.

#[path = "support/demo.rs"]
mod demo;
#[path = "support/scripted.rs"]
mod scripted;

use bevy::prelude::*;
use bevy_sweep::prelude::*;
use demo::Hud;
use scripted::ScriptedRun;

fn main() {
    App::new()
        .add_plugins((
            DefaultPlugins.set(demo::window("showcase", (1280, 720))),
            SweepPlugin {
                length_unit: 40.0,
                ..default()
            },
            SweepDebugPlugin,
            ScriptedRun,
        ))
        .insert_resource(ClearColor(Color::srgb(0.04, 0.05, 0.08)))
        .insert_resource(Speed(1.0))
        .init_resource::<Counts>()
        .add_systems(Startup, setup)
        .add_systems(Update, (demo::quit_on_esc, controls, hud))
        .add_systems(FixedUpdate, swing)
        .add_systems(FixedPostUpdate, count.after(SweepSystems::Report))
        .add_systems(Last, log_counts)
        .run();
}

/// A mover swings between `center.x ± reach` at `speed` px/s.
#[derive(Component)]
struct Swing {
    center: Vec2,
    reach: f32,
    speed: f32,
}

#[derive(Resource)]
struct Speed(f32);

#[derive(Resource, Default)]
struct Counts {
    started: u32,
    ended: u32,
    crossed: u32,
}

fn shape(kind: usize, target: bool) -> Collider {
    let size = if target { 1.0 } else { 0.55 };
    let v = |x: f32, y: f32| Vec2::new(x, y) * size;
    match kind {
        0 => Collider::point(),
        1 if target => Collider::segment(v(0.0, -34.0), v(0.0, 34.0)),
        1 => Collider::segment(v(-10.0, -30.0), v(10.0, 30.0)),
        2 => Collider::circle(24.0 * size),
        3 => Collider::aabb(v(22.0, 22.0)),
        4 => Collider::rectangle(v(26.0, 12.0)),
        5 => Collider::capsule(v(-16.0, 0.0), v(16.0, 0.0), 10.0 * size),
        6 => {
            let pentagon: Vec<Vec2> = (0..5)
                .map(|k| Vec2::from_angle(k as f32 * core::f32::consts::TAU / 5.0) * 26.0 * size)
                .collect();
            Collider::convex_polygon(&pentagon).expect("a regular pentagon is convex")
        }
        _ => Collider::polyline(&[
            v(-28.0, -20.0),
            v(-10.0, 18.0),
            v(8.0, -16.0),
            v(28.0, 20.0),
        ])
        .expect("finite points"),
    }
}

const NAMES: [&str; 8] = [
    "point",
    "segment",
    "circle",
    "box",
    "rectangle",
    "capsule",
    "polygon",
    "polyline",
];

/// Whether a kind of shape turns with its transform (the box and the circle do not).
fn turns(kind: usize) -> bool {
    matches!(kind, 1 | 4 | 5 | 6 | 7)
}

fn setup(mut commands: Commands) {
    commands.spawn(Camera2d);
    let mut cell = 0;
    for (mover, mover_name) in NAMES.iter().enumerate() {
        for (target, target_name) in NAMES.iter().enumerate().skip(mover) {
            // Nine columns, four rows.
            let center = Vec2::new(
                -560.0 + 140.0 * (cell % 9) as f32,
                225.0 - 160.0 * (cell / 9) as f32,
            );
            cell += 1;
            commands.spawn((
                shape(target, true),
                Transform::from_translation(center.extend(0.0)),
                AngularVelocity(if turns(target) { 0.6 } else { 0.0 }),
            ));
            // Points pass a little off the target's centre so they meet edges, not only the
            // middle; the shapes that turn turn as they swing.
            let offset = Vec2::new(-50.0, if mover == 0 && target > 0 { 7.0 } else { 0.0 });
            let speed = 90.0 + 6.0 * cell as f32;
            commands.spawn((
                shape(mover, false),
                Swing {
                    center,
                    reach: 50.0,
                    speed,
                },
                Transform::from_translation((center + offset).extend(0.0)),
                Velocity(Vec2::new(speed, 0.0)),
                AngularVelocity(if turns(mover) { 2.0 } else { 0.0 }),
            ));
            commands.spawn((
                Text2d::new(format!("{mover_name}\n{target_name}")),
                TextFont {
                    font_size: FontSize::Px(12.0),
                    ..default()
                },
                TextColor(Color::srgb(0.75, 0.8, 0.9)),
                Transform::from_translation((center + Vec2::new(0.0, 58.0)).extend(1.0)),
            ));
        }
    }
    commands.spawn(demo::hud(20.0, Vec2::new(14.0, 8.0)));
}

fn swing(speed: Res<Speed>, mut movers: Query<(&Swing, &Transform, &mut Velocity)>) {
    for (swing, transform, mut velocity) in &mut movers {
        let x = transform.translation.x - swing.center.x;
        let direction = if x > swing.reach {
            -1.0
        } else if x < -swing.reach {
            1.0
        } else {
            velocity.0.x.signum()
        };
        velocity.0.x = direction * swing.speed * speed.0;
    }
}

fn controls(
    keys: Res<ButtonInput<KeyCode>>,
    mut speed: ResMut<Speed>,
    mut paused: Local<Option<f32>>,
) {
    if keys.just_pressed(KeyCode::Space) {
        *paused = match *paused {
            Some(before) => {
                speed.0 = before;
                None
            }
            None => {
                let before = speed.0;
                speed.0 = 0.0;
                Some(before)
            }
        };
    }
    if keys.just_pressed(KeyCode::ArrowUp) {
        speed.0 = (speed.0 * 2.0).min(64.0);
    }
    if keys.just_pressed(KeyCode::ArrowDown) {
        speed.0 /= 2.0;
    }
}

fn count(mut events: MessageReader<CollisionEvent>, mut counts: ResMut<Counts>) {
    for event in events.read() {
        match event.kind {
            CollisionKind::Started => counts.started += 1,
            CollisionKind::Ended => counts.ended += 1,
            CollisionKind::Crossed => counts.crossed += 1,
        }
    }
}

fn hud(counts: Res<Counts>, speed: Res<Speed>, mut hud: Single<&mut Text, With<Hud>>) {
    hud.0 = format!(
        "started {}   ended {}   crossed {}   speed x{}",
        counts.started, counts.ended, counts.crossed, speed.0
    );
}

fn log_counts(mut exits: MessageReader<AppExit>, counts: Res<Counts>) {
    if exits.read().next().is_some() {
        info!(
            "started: {}, ended: {}, crossed: {}",
            counts.started, counts.ended, counts.crossed
        );
    }
}

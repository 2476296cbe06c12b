//! `marbles`: balls of several sizes and masses pour into a bowl with pegs and answer each
//! other: they bounce off each other in time order, exchanging momentum by their [`Mass`]es,
//! and come to rest in a pile. A flipper paddle sweeps across the bowl above the pile,
//! batting the marbles that fall onto it, and the player drags a crate through the pile with
//! the mouse.
//!
//! ```sh
//! cargo run --release --example marbles --features debug-draw
//! ```
//!
//! | control | action |
//! |---|---|
//! | mouse, button held | drag the crate |
//! | `Space` | pour more marbles |
//! | `Esc` | quit |
//!
//! - The marbles are [`Collider::circle`]s with [`Response::Bounce`] and a [`Mass`] as their
//!   area. Marbles that touch at one moment are answered as one group, so the pile rests
//!   rather than jittering.
//! - The bowl is one concave [`Collider::polygon`]; the pegs are circles that rest.
//! - The flipper is a moving solid (a [`Velocity`] and no `Response`): marbles bounce off it
//!   with its speed. It turns back well before the walls: a solid that moves is never
//!   stopped, and one that closes on a marble against a wall crushes it (the marble then ends
//!   outside one of the two, not both).
//! - The crate is a [`Response::Slide`] of `Mass(40.0)`: it slides along the bowl and
//!   pushes the marbles out of its way, and the pile pushes back: dragged into marbles that
//!   lie on the floor it stops on them rather than crushing them (a crate of
//!   `Mass(f32::INFINITY)` is never pushed, and would).
//! - Every tick the game checks that no marble is inside another, inside the crate or outside
//!   the bowl, and counts the meetings; the counts are logged on exit.

#[path = "support/demo.rs"]
mod demo;
#[path = "support/scripted.rs"]
mod scripted;

use bevy::prelude::*;
use bevy_sweep::prelude::*;
use demo::{Cursor, Hud};
use scripted::ScriptedRun;

/// The bowl's inside: from `-WIDTH` to `WIDTH`, its floor at `FLOOR`, open above `TOP`.
const WIDTH: f32 = 300.0;
const FLOOR: f32 = -260.0;
const TOP: f32 = 260.0;
const GRAVITY: f32 = 700.0;
const CRATE: Vec2 = Vec2::new(30.0, 22.0);
const FLIPPER: Vec2 = Vec2::new(50.0, 6.0);
const FLIPPER_Y: f32 = -90.0;
/// The most marbles in the bowl.
const MOST: usize = 260;

fn main() {
    App::new()
        .add_plugins((
            DefaultPlugins.set(demo::window("marbles", (1280, 720))),
            SweepPlugin {
                length_unit: 10.0,
                ..default()
            },
            SweepDebugPlugin,
            ScriptedRun,
        ))
        .insert_resource(ClearColor(Color::srgb(0.04, 0.05, 0.08)))
        .insert_resource(Time::<Fixed>::from_hz(60.0))
        .init_resource::<Game>()
        .add_systems(Startup, setup)
        .add_systems(Update, (demo::quit_on_esc, controls, hud))
        .add_systems(FixedUpdate, (pour, gravity, flip, drag))
        .add_systems(
            FixedPostUpdate,
            (meetings, check).chain().after(SweepSystems::Report),
        )
        .add_systems(Last, log_game)
        .run();
}

#[derive(Component)]
struct Marble {
    radius: f32,
}

#[derive(Component)]
struct Crate;

#[derive(Component)]
struct Flipper;

#[derive(Resource, Default)]
struct Game {
    poured: usize,
    /// Pour again (Space).
    pour_more: bool,
    /// Where the mouse drags the crate, while its button is held.
    drag_to: Option<Vec2>,
    ticks: u64,
    /// Marble–marble meetings (events of two marbles), and marble–crate ones.
    meetings: u64,
    crate_pushes: u64,
    dragged_ticks: u64,
    /// Ticks a marble ended inside another, inside the crate or out of the bowl: never, if
    /// the sweep is right.
    inside_another: u64,
    inside_crate: u64,
    escaped: u64,
}

fn setup(mut commands: Commands) {
    commands.spawn(Camera2d);
    // The bowl: a thick U, one concave polygon.
    let (w, f, t, thick) = (WIDTH, FLOOR, TOP, 30.0);
    let bowl = Collider::polygon(&[
        Vec2::new(-w - thick, f - thick),
        Vec2::new(w + thick, f - thick),
        Vec2::new(w + thick, t),
        Vec2::new(w, t),
        Vec2::new(w, f + 60.0),
        Vec2::new(w - 60.0, f),
        Vec2::new(-w + 60.0, f),
        Vec2::new(-w, f + 60.0),
        Vec2::new(-w, t),
        Vec2::new(-w - thick, t),
    ])
    .expect("a simple outline");
    commands.spawn((bowl, Transform::default()));
    // Pegs in staggered rows.
    for row in 0..4 {
        for column in 0..7 {
            let x = -210.0 + 70.0 * column as f32 + if row % 2 == 0 { 0.0 } else { 35.0 };
            if x > WIDTH - 40.0 {
                continue;
            }
            let y = 120.0 - 55.0 * row as f32;
            commands.spawn((Collider::circle(6.0), Transform::from_xyz(x, y, 0.0)));
        }
    }
    commands.spawn((
        Flipper,
        Collider::rectangle(FLIPPER),
        Transform::from_xyz(0.0, FLIPPER_Y, 0.0),
        Velocity(Vec2::new(180.0, 0.0)),
    ));
    commands.spawn((
        Crate,
        Collider::aabb(CRATE),
        // Beside the pegs: it falls to the bottom (between two pegs it would wedge).
        Transform::from_xyz(-WIDTH + 38.0, 200.0, 0.0),
        Velocity::default(),
        Response::Slide,
        Mass(40.0),
    ));
    commands.spawn(demo::hud(20.0, Vec2::new(14.0, 6.0)));
}

fn controls(
    keys: Res<ButtonInput<KeyCode>>,
    buttons: Res<ButtonInput<MouseButton>>,
    cursor: Cursor,
    mut game: ResMut<Game>,
) {
    if keys.just_pressed(KeyCode::Space) {
        game.pour_more = true;
    }
    game.drag_to = cursor
        .world()
        .filter(|_| buttons.pressed(MouseButton::Left));
}

/// Marbles pour in from above, two a tick, of radii 4 to 10 (masses as their areas), up to
/// [`MOST`]; Space pours another load.
fn pour(mut commands: Commands, mut game: ResMut<Game>, marbles: Query<(), With<Marble>>) {
    if game.pour_more {
        game.pour_more = false;
        game.poured = marbles.iter().count();
    }
    if game.poured >= MOST {
        return;
    }
    for k in 0..2 {
        let n = game.poured;
        game.poured += 1;
        // A fixed sequence (no random numbers needed): sizes and places cycle.
        let radius = [4.0, 6.0, 5.0, 10.0, 7.0, 4.5, 8.0][n % 7];
        let x = -WIDTH + 40.0 + ((n * 53) % 520) as f32 + 7.0 * k as f32;
        commands.spawn((
            Marble { radius },
            Collider::circle(radius),
            Transform::from_xyz(x, TOP + 40.0 + 25.0 * k as f32, 0.0),
            Velocity(Vec2::new(((n % 5) as f32 - 2.0) * 30.0, -200.0)),
            Response::Bounce { restitution: 0.6 },
            Mass(radius * radius),
        ));
    }
}

fn gravity(time: Res<Time>, mut marbles: Query<&mut Velocity, With<Marble>>) {
    for mut velocity in &mut marbles {
        velocity.0.y -= GRAVITY * time.delta_secs();
    }
}

/// The flipper sweeps the bottom of the bowl from side to side.
fn flip(mut flipper: Single<(&Transform, &mut Velocity), With<Flipper>>) {
    let (transform, ref mut velocity) = *flipper;
    let x = transform.translation.x;
    if (x > WIDTH - 130.0 && velocity.0.x > 0.0) || (x < -WIDTH + 130.0 && velocity.0.x < 0.0) {
        velocity.0.x = -velocity.0.x;
    }
}

/// While the mouse button is held, the crate moves towards the pointer (and falls back
/// into the bowl when let go).
fn drag(
    time: Res<Time>,
    mut game: ResMut<Game>,
    mut crate_: Single<(&Transform, &mut Velocity), With<Crate>>,
) {
    let (transform, ref mut velocity) = *crate_;
    let at = transform.translation.truncate();
    match game.drag_to {
        Some(to) => {
            game.dragged_ticks += 1;
            velocity.0 = ((to - at) * 12.0).clamp_length_max(1_500.0);
        }
        None => {
            velocity.0.x *= 0.9;
            velocity.0.y -= GRAVITY * time.delta_secs();
        }
    }
}

/// Counts the meetings of marbles with each other and with the crate.
fn meetings(
    mut events: MessageReader<CollisionEvent>,
    marbles: Query<(), With<Marble>>,
    crates: Query<(), With<Crate>>,
    mut game: ResMut<Game>,
) {
    for event in events.read() {
        if event.kind == CollisionKind::Ended || !marbles.contains(event.entity) {
            continue;
        }
        if marbles.contains(event.other) {
            game.meetings += 1;
        } else if crates.contains(event.other) {
            game.crate_pushes += 1;
        }
    }
}

/// After every tick: no marble inside another, inside the crate, or out through the bowl.
fn check(
    mut commands: Commands,
    mut game: ResMut<Game>,
    marbles: Query<(Entity, &Transform, &Marble)>,
    crate_: Single<&Transform, With<Crate>>,
) {
    game.ticks += 1;
    let all: Vec<(Entity, Vec2, f32)> = marbles
        .iter()
        .map(|(e, t, m)| (e, t.translation.truncate(), m.radius))
        .collect();
    let crate_at = crate_.translation.truncate();
    for (k, &(entity, at, radius)) in all.iter().enumerate() {
        for &(_, other, r) in &all[k + 1..] {
            if at.distance(other) < radius + r - 0.05 {
                game.inside_another += 1;
                warn!("marbles inside each other at {at} and {other}");
            }
        }
        let d = (at - crate_at).abs() - CRATE;
        if d.max(Vec2::ZERO).length() < radius - 0.05 {
            game.inside_crate += 1;
            warn!("a marble inside the crate at {at}");
        }
        if (at.x.abs() > WIDTH + 30.0 && at.y < TOP) || at.y < FLOOR - 30.0 {
            // Through the bowl's walls or floor.
            game.escaped += 1;
            warn!("a marble left the bowl at {at}");
            commands.entity(entity).despawn();
        } else if at.y > TOP + 600.0 || at.x.abs() > WIDTH + 30.0 {
            // Flung over the rim by the crate: gone.
            commands.entity(entity).despawn();
        }
    }
}

fn hud(game: Res<Game>, marbles: Query<(), With<Marble>>, mut hud: Single<&mut Text, With<Hud>>) {
    hud.0 = format!(
        "marbles {}   meetings {}   crate pushes {}   overlaps {}   \
         (drag: move the crate, Space: pour more)",
        marbles.iter().count(),
        game.meetings,
        game.crate_pushes,
        game.inside_another + game.inside_crate + game.escaped,
    );
}

fn log_game(mut exits: MessageReader<AppExit>, game: Res<Game>, marbles: Query<(), With<Marble>>) {
    if exits.read().next().is_some() {
        info!(
            "marbles: {} ticks, {} marbles, {} meetings, {} crate pushes, {} ticks dragged, \
             {} inside another, {} inside the crate, {} escaped",
            game.ticks,
            marbles.iter().count(),
            game.meetings,
            game.crate_pushes,
            game.dragged_ticks,
            game.inside_another,
            game.inside_crate,
            game.escaped
        );
    }
}

//! `breakout`: a ball that bounces by itself ([`Response::Bounce`]) off walls, a paddle that
//! follows the mouse, and a wall of brick tiles. Each level doubles the ball's speed, up to
//! 50,000 px/s (833 px, more than the field's height, per 60 Hz tick): the ball still never
//! leaves the field and never passes a brick without hitting it.
//!
//! ```sh
//! cargo run --release --example breakout --features debug-draw
//! ```
//!
//! | control | action |
//! |---|---|
//! | mouse | move the paddle |
//! | click | launch the ball |
//! | `N` | next level (the ball twice as fast) |
//! | `Esc` | quit |
//!
//! - The ball is a [`Collider::circle`] with [`Response::Bounce`]: the plugin answers each
//!   hit at its exact moment in the tick, several per tick at high speed, and the paddle's
//!   own motion counts (hit it while it moves and the ball takes some of its speed).
//! - The bricks are [`Collider::aabb`] tiles that rest: they cost nothing until hit. Each
//!   bounce off one is a [`CollisionKind::Crossed`] event, which removes the brick.
//! - Every tick the game checks the ball is inside the field and inside no brick, and
//!   counts the bricks it hit; the counts are logged on exit.

#[path = "support/demo.rs"]
mod demo;
#[path = "support/scripted.rs"]
mod scripted;

use bevy::prelude::*;
use bevy_sweep::prelude::*;
use demo::{Cursor, Hud};
use scripted::ScriptedRun;

const FIELD: Vec2 = Vec2::new(560.0, 300.0);
const BALL_RADIUS: f32 = 7.0;
const PADDLE: Vec2 = Vec2::new(70.0, 8.0);
const PADDLE_Y: f32 = -270.0;
const BRICK: Vec2 = Vec2::new(36.0, 12.0);
const FIRST_SPEED: f32 = 400.0;
const TOP_SPEED: f32 = 50_000.0;

fn main() {
    App::new()
        .add_plugins((
            DefaultPlugins.set(demo::window("breakout", (1280, 720))),
            SweepPlugin {
                length_unit: 20.0,
                ..default()
            },
            SweepDebugPlugin,
            ScriptedRun,
        ))
        .insert_resource(ClearColor(Color::srgb(0.05, 0.04, 0.09)))
        .insert_resource(Time::<Fixed>::from_hz(60.0))
        .init_resource::<Game>()
        .add_systems(Startup, setup)
        .add_systems(Update, (demo::quit_on_esc, controls, hud))
        .add_systems(FixedUpdate, (follow_mouse, serve))
        .add_systems(
            FixedPostUpdate,
            (hits, check).chain().after(SweepSystems::Report),
        )
        .add_systems(Last, log_game)
        .run();
}

#[derive(Component)]
struct Ball;

#[derive(Component)]
struct Paddle;

#[derive(Component)]
struct Brick;

#[derive(Resource)]
struct Game {
    level: u32,
    speed: f32,
    /// The ball waits on the paddle.
    waiting: bool,
    launch: bool,
    /// Where the mouse puts the paddle.
    aim: f32,
    bricks_hit: u32,
    bounces: u32,
    lost: u32,
    /// Ticks the ball ended outside the field, or inside a brick: never, if the sweep is
    /// right.
    escapes: u32,
    inside_brick: u32,
    top_speed_reached: f32,
}

impl Default for Game {
    fn default() -> Self {
        Self {
            level: 1,
            speed: FIRST_SPEED,
            waiting: true,
            launch: false,
            aim: 0.0,
            bricks_hit: 0,
            bounces: 0,
            lost: 0,
            escapes: 0,
            inside_brick: 0,
            top_speed_reached: 0.0,
        }
    }
}

fn setup(mut commands: Commands) {
    commands.spawn(Camera2d);
    // The walls: left, right and top; the bottom is open.
    for (center, half) in [
        (
            Vec2::new(-FIELD.x - 10.0, 0.0),
            Vec2::new(10.0, FIELD.y + 20.0),
        ),
        (
            Vec2::new(FIELD.x + 10.0, 0.0),
            Vec2::new(10.0, FIELD.y + 20.0),
        ),
        (
            Vec2::new(0.0, FIELD.y + 10.0),
            Vec2::new(FIELD.x + 20.0, 10.0),
        ),
    ] {
        commands.spawn((
            Collider::aabb(half),
            Transform::from_translation(center.extend(0.0)),
        ));
    }
    commands.spawn((
        Paddle,
        Collider::aabb(PADDLE),
        Transform::from_xyz(0.0, PADDLE_Y, 0.0),
    ));
    commands.spawn((
        Ball,
        Collider::circle(BALL_RADIUS),
        Transform::from_xyz(0.0, PADDLE_Y + PADDLE.y + BALL_RADIUS + 1.0, 0.0),
        Velocity::default(),
        Response::Bounce { restitution: 1.0 },
    ));
    spawn_bricks(&mut commands);
    commands.spawn(demo::hud(20.0, Vec2::new(14.0, 6.0)));
}

/// A wall of 14 × 8 bricks.
fn spawn_bricks(commands: &mut Commands) {
    for row in 0..8 {
        for column in 0..14 {
            let x = -FIELD.x + 40.0 + (2.0 * BRICK.x + 4.0) * column as f32 + BRICK.x - 4.0;
            let y = 60.0 + (2.0 * BRICK.y + 4.0) * row as f32;
            commands.spawn((Brick, Collider::aabb(BRICK), Transform::from_xyz(x, y, 0.0)));
        }
    }
}

fn controls(
    keys: Res<ButtonInput<KeyCode>>,
    buttons: Res<ButtonInput<MouseButton>>,
    cursor: Cursor,
    mut game: ResMut<Game>,
) {
    if keys.just_pressed(KeyCode::KeyN) {
        game.level += 1;
        game.speed = (game.speed * 2.0).min(TOP_SPEED);
        info!("level {}: the ball at {} px/s", game.level, game.speed);
    }
    if buttons.just_pressed(MouseButton::Left) {
        game.launch = true;
    }
    if let Some(cursor) = cursor.world() {
        game.aim = cursor.x.clamp(-FIELD.x + PADDLE.x, FIELD.x - PADDLE.x);
    }
}

/// The paddle goes where the mouse is, each tick: the sweep sees its motion, and a ball it
/// hits takes its speed.
fn follow_mouse(game: Res<Game>, mut paddle: Single<&mut Transform, With<Paddle>>) {
    paddle.translation.x = game.aim;
}

/// The ball waits on the paddle until a click, then leaves at the level's speed; a level's
/// speed change applies at once.
fn serve(
    mut commands: Commands,
    mut game: ResMut<Game>,
    paddle: Single<&Transform, (With<Paddle>, Without<Ball>)>,
    mut ball: Single<(Entity, &mut Transform, &mut Velocity), With<Ball>>,
    bricks: Query<(), With<Brick>>,
) {
    let (entity, ref mut transform, ref mut velocity) = *ball;
    if bricks.is_empty() {
        spawn_bricks(&mut commands);
    }
    if game.waiting {
        transform.translation = Vec3::new(
            paddle.translation.x,
            PADDLE_Y + PADDLE.y + BALL_RADIUS + 1.0,
            0.0,
        );
        commands.entity(entity).insert(Teleport);
        velocity.0 = Vec2::ZERO;
        if game.launch {
            game.waiting = false;
            velocity.0 = Vec2::new(0.45, 1.0).normalize() * game.speed;
        }
    } else if velocity.0 != Vec2::ZERO {
        velocity.0 = velocity.0.normalize() * game.speed;
    }
    game.launch = false;
    game.top_speed_reached = game.top_speed_reached.max(velocity.0.length());
}

/// A brick the ball bounced off goes.
fn hits(
    mut commands: Commands,
    mut events: MessageReader<CollisionEvent>,
    balls: Query<(), With<Ball>>,
    bricks: Query<(), With<Brick>>,
    mut game: ResMut<Game>,
) {
    for event in events.read() {
        let seen = if balls.contains(event.entity) {
            *event
        } else {
            event.flipped()
        };
        if !balls.contains(seen.entity) || seen.kind == CollisionKind::Ended {
            continue;
        }
        game.bounces += 1;
        if bricks.contains(seen.other) {
            game.bricks_hit += 1;
            commands.entity(seen.other).try_despawn();
        }
    }
}

/// The ball is inside the field and inside no brick after every tick; below the paddle, it
/// is lost and waits on the paddle again.
fn check(
    mut game: ResMut<Game>,
    ball: Single<&Transform, With<Ball>>,
    bricks: Query<&Transform, With<Brick>>,
) {
    let at = ball.translation.truncate();
    // Between the walls (which reach 20 px below the field) and below the top.
    let inside = at.x.abs() <= FIELD.x - BALL_RADIUS + 0.01 && at.y <= FIELD.y - BALL_RADIUS + 0.01;
    if !inside && at.y > -FIELD.y - 20.0 + BALL_RADIUS {
        game.escapes += 1;
        warn!("the ball escaped the field at {at}");
    }
    for brick in &bricks {
        let d = (at - brick.translation.truncate()).abs() - BRICK;
        let outside = d.max(Vec2::ZERO).length() - BALL_RADIUS;
        if outside < -0.01 {
            game.inside_brick += 1;
            warn!("the ball is inside a brick at {at}");
        }
    }
    if at.y < -FIELD.y - 40.0 && !game.waiting {
        game.lost += 1;
        game.waiting = true;
    }
}

fn hud(game: Res<Game>, mut hud: Single<&mut Text, With<Hud>>) {
    hud.0 = format!(
        "level {}   ball {:.0} px/s ({:.0} px a tick)   bricks hit {}   lost {}   \
         escapes {}   (click: launch, N: faster)",
        game.level,
        game.speed,
        game.speed / 60.0,
        game.bricks_hit,
        game.lost,
        game.escapes + game.inside_brick,
    );
}

fn log_game(mut exits: MessageReader<AppExit>, game: Res<Game>) {
    if exits.read().next().is_some() {
        info!(
            "breakout: level {}, top speed {:.0} px/s, {} bounces, {} bricks hit, {} lost, \
             {} escapes, {} inside a brick",
            game.level,
            game.top_speed_reached,
            game.bounces,
            game.bricks_hit,
            game.lost,
            game.escapes,
            game.inside_brick
        );
    }
}

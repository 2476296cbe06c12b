//! The game's rules, without a window or a renderer: lines, the blade, cuts, score, waves.
//!
//! `main.rs` adds drawing and input on top; `tests/cut_the_line.rs` runs these rules in a
//! headless App.

use bevy::prelude::*;
use bevy_sweep::prelude::*;
use serde::Deserialize;

/// Half the play field, in pixels (the window is twice this).
pub const FIELD: Vec2 = Vec2::new(640.0, 360.0);
/// Pieces shorter than this vanish when cut.
pub const SHORTEST_PIECE: f32 = 14.0;
/// How long a piece lives (it fades and falls meanwhile), in seconds.
pub const PIECE_LIFETIME: f32 = 1.6;
/// Cuts closer in time than this (in seconds) chain into a combo while the button is held.
pub const COMBO_WINDOW: f32 = 0.6;
/// Downward pull on pieces, pixels per second squared.
pub const GRAVITY: f32 = 900.0;

/// Collision layers: the blade only meets lines, lines do not meet each other.
pub const BLADE_LAYER: u32 = 1 << 0;
/// See [`BLADE_LAYER`].
pub const LINE_LAYER: u32 = 1 << 1;

/// How a line's endpoints move (each endpoint on its own straight path, plus a plain spin).
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
pub enum Motion {
    /// Both endpoints move together, across the line.
    Simple,
    /// The line moves along its own length.
    Sideways,
    /// One endpoint rises and falls while the line drifts.
    Raise,
    /// One endpoint dives through the middle while the other rises.
    Dive,
    /// The line turns about its centre.
    Spin,
}

/// One wave of lines.
#[derive(Clone, Debug, Deserialize)]
pub struct Wave {
    /// Lines in the wave.
    pub count: u32,
    /// Seconds between two lines.
    pub interval: f32,
    /// Drift speed range, pixels per second.
    pub speed: (f32, f32),
    /// Length range, pixels.
    pub length: (f32, f32),
    /// Largest spin, radians per second.
    pub spin: f32,
    /// Largest endpoint speed for raise and dive, pixels per second.
    pub stretch: f32,
    /// Motions drawn from at random.
    pub motions: Vec<Motion>,
    /// Chance that a line must not be cut.
    pub forbidden_chance: f32,
    /// Colour of the wave's lines (sRGB).
    pub color: (f32, f32, f32),
}

/// The whole game's tuning, loaded from `assets/cut_the_line/waves.ron`.
#[derive(Asset, TypePath, Resource, Clone, Debug, Deserialize)]
pub struct WaveBook {
    /// Lives at the start.
    pub lives: u32,
    /// Speed factor added per wave after the last one (the waves then repeat, faster).
    pub ramp: f32,
    /// The waves, in order.
    pub waves: Vec<Wave>,
}

/// A line that can be cut.
#[derive(Component, Clone, Copy, Debug)]
pub struct Line {
    /// Cutting it costs a life.
    pub forbidden: bool,
    /// A piece of a cut line (it does not count as a miss when it leaves).
    pub piece: bool,
    /// Its colour (sRGB).
    pub color: Color,
    /// Local endpoint velocities (raise and dive), pixels per second.
    pub stretch: [Vec2; 2],
}

/// A piece falling away: seconds left before it vanishes.
#[derive(Component, Clone, Copy, Debug)]
pub struct Falling(pub f32);

/// The pointer's blade, a point collider.
#[derive(Component)]
pub struct Blade;

/// Where the pointer is and whether it cuts; written by input (or a test) each frame.
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct BladeInput {
    /// World position.
    pub position: Vec2,
    /// The cutting button is held.
    pub held: bool,
}

/// A cut this tick, for effects (sparks) and tests.
#[derive(Message, Clone, Copy, Debug)]
pub struct Cut {
    /// Where, in world space.
    pub point: Vec2,
    /// Which way the blade went through, as a unit vector.
    pub direction: Vec2,
    /// Points scored (negative for a forbidden line).
    pub points: i32,
    /// The line was one that must not be cut.
    pub forbidden: bool,
}

/// Score and progress.
#[derive(Resource, Clone, Debug, Default)]
pub struct Game {
    /// Current score.
    pub score: u32,
    /// Best score this session.
    pub best: u32,
    /// Lives left.
    pub lives: u32,
    /// Lines cut (all cuts).
    pub cuts: u32,
    /// Lines that left uncut.
    pub misses: u32,
    /// Cuts in the current combo.
    pub combo: u32,
    /// Seconds since the last cut.
    pub since_cut: f32,
    /// Wave number (0-based, keeps counting after the book repeats).
    pub wave: usize,
    /// Lines spawned in this wave.
    pub spawned: u32,
    /// Seconds until the next line.
    pub next_line: f32,
    /// The game is over (waiting for a restart).
    pub over: bool,
    /// The first game has been set up.
    pub started: bool,
    /// Random state.
    pub seed: u64,
}

impl Game {
    /// A random number in `[0, 1)`.
    pub fn random(&mut self) -> f32 {
        // xorshift64*: deterministic and good enough for a game.
        self.seed ^= self.seed >> 12;
        self.seed ^= self.seed << 25;
        self.seed ^= self.seed >> 27;
        (self.seed.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 40) as f32 / (1u64 << 24) as f32
    }

    fn range(&mut self, (lo, hi): (f32, f32)) -> f32 {
        lo + (hi - lo) * self.random()
    }
}

/// Restart: clear the field, reset the score (keeping the best).
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct Restart;

/// The rules. Needs [`SweepPlugin`] and a [`WaveBook`] resource (`main.rs` loads it).
pub struct RulesPlugin {
    /// Spawn waves (tests turn this off and place lines themselves).
    pub waves: bool,
}

impl Plugin for RulesPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<BladeInput>()
            .init_resource::<Game>()
            .add_message::<Cut>()
            .add_message::<Restart>()
            .add_systems(Startup, spawn_blade)
            .add_systems(
                FixedUpdate,
                (restart, move_blade, stretch_lines, fall, leave_field).chain(),
            )
            .add_systems(FixedPostUpdate, cut_lines.after(SweepSystems::Report));
        if self.waves {
            app.add_systems(FixedUpdate, spawn_waves.after(restart));
        }
    }
}

fn spawn_blade(mut commands: Commands) {
    commands.spawn((
        Blade,
        Collider::point(),
        CollisionLayers::NONE,
        Transform::default(),
    ));
}

/// Resets the game when asked (and at the first tick).
fn restart(
    mut commands: Commands,
    mut requests: MessageReader<Restart>,
    mut game: ResMut<Game>,
    book: Option<Res<WaveBook>>,
    lines: Query<Entity, With<Line>>,
) {
    if requests.read().count() == 0 && game.started {
        return;
    }
    for line in &lines {
        commands.entity(line).despawn();
    }
    let best = game.best.max(game.score);
    let seed = game.seed.max(1);
    *game = Game {
        best,
        lives: book.map_or(3, |b| b.lives),
        seed,
        next_line: 0.5,
        started: true,
        ..Game::default()
    };
}

/// The blade follows the pointer; it cuts only while the button is held, and a press starts
/// a new stroke (the jump from where the button was released is not swept).
fn move_blade(
    mut commands: Commands,
    input: Res<BladeInput>,
    game: Res<Game>,
    mut blade: Query<(Entity, &mut Transform, &mut CollisionLayers), With<Blade>>,
) {
    let Ok((entity, mut transform, mut layers)) = blade.single_mut() else {
        return;
    };
    transform.translation = input.position.extend(0.0);
    let cutting = input.held && !game.over;
    let wanted = if cutting {
        CollisionLayers::new(BLADE_LAYER, LINE_LAYER)
    } else {
        CollisionLayers::NONE
    };
    if *layers != wanted {
        if cutting {
            commands.entity(entity).insert(Teleport);
        }
        *layers = wanted;
    }
}

/// Raise and dive: the local endpoints move, bouncing between a third and twice the length.
fn stretch_lines(time: Res<Time>, mut lines: Query<(&mut Line, &mut Collider)>) {
    let dt = time.delta_secs();
    for (mut line, mut collider) in &mut lines {
        if line.stretch == [Vec2::ZERO; 2] {
            continue;
        }
        let Collider::Segment { a, b } = *collider else {
            continue;
        };
        let (na, nb) = (a + line.stretch[0] * dt, b + line.stretch[1] * dt);
        let length = na.distance(nb);
        if !(40.0..=520.0).contains(&length) {
            line.stretch = [-line.stretch[0], -line.stretch[1]];
            continue;
        }
        *collider = Collider::segment(na, nb);
    }
}

/// Pieces fall, and vanish when their time is up.
fn fall(
    mut commands: Commands,
    time: Res<Time>,
    mut pieces: Query<(Entity, &mut Falling, &mut Velocity)>,
) {
    let dt = time.delta_secs();
    for (entity, mut falling, mut velocity) in &mut pieces {
        falling.0 -= dt;
        velocity.0.y -= GRAVITY * dt;
        if falling.0 <= 0.0 {
            commands.entity(entity).despawn();
        }
    }
}

/// Lines that have left the field are gone; an uncut line that leaves is a miss.
fn leave_field(
    mut commands: Commands,
    mut game: ResMut<Game>,
    lines: Query<(Entity, &Line, &Transform, &Velocity, &Collider)>,
) {
    for (entity, line, transform, velocity, collider) in &lines {
        let p = transform.translation.truncate();
        let reach = match *collider {
            Collider::Segment { a, b } => a.length().max(b.length()),
            _ => 0.0,
        };
        let outside = p.abs().cmpgt(FIELD + Vec2::splat(reach + 40.0)).any();
        let leaving = p.dot(velocity.0) > 0.0;
        if outside && leaving {
            commands.entity(entity).despawn();
            if !line.piece && !line.forbidden && !game.over {
                game.misses += 1;
                game.lives = game.lives.saturating_sub(1);
                if game.lives == 0 {
                    end_game(&mut game);
                }
            }
        }
    }
}

fn end_game(game: &mut Game) {
    game.over = true;
    game.best = game.best.max(game.score);
}

/// Spawns the lines of the current wave from the edges.
fn spawn_waves(
    mut commands: Commands,
    time: Res<Time>,
    book: Option<Res<WaveBook>>,
    mut game: ResMut<Game>,
) {
    let Some(book) = book else { return };
    if game.over || book.waves.is_empty() {
        return;
    }
    game.next_line -= time.delta_secs();
    if game.next_line > 0.0 {
        return;
    }
    let lap = game.wave / book.waves.len();
    let wave = book.waves[game.wave % book.waves.len()].clone();
    let faster = 1.0 + book.ramp * lap as f32;
    game.next_line = wave.interval / faster;
    commands.spawn(new_line(&mut game, &wave, faster));
    game.spawned += 1;
    if game.spawned >= wave.count {
        game.wave += 1;
        game.spawned = 0;
        game.next_line = 2.0;
    }
}

/// A line entering from a random edge towards a random point of the middle of the field.
pub fn new_line(game: &mut Game, wave: &Wave, faster: f32) -> impl Bundle {
    let side = (game.random() * 4.0) as u32;
    let along = game.random() * 2.0 - 1.0;
    let start = match side {
        0 => Vec2::new(-FIELD.x - 60.0, along * FIELD.y),
        1 => Vec2::new(FIELD.x + 60.0, along * FIELD.y),
        2 => Vec2::new(along * FIELD.x, -FIELD.y - 60.0),
        _ => Vec2::new(along * FIELD.x, FIELD.y + 60.0),
    };
    let target = Vec2::new(
        (game.random() - 0.5) * FIELD.x,
        (game.random() - 0.5) * FIELD.y,
    );
    let heading = (target - start).normalize_or(Vec2::X);
    let speed = game.range(wave.speed) * faster;
    let length = game.range(wave.length);
    let pick = (game.random() * wave.motions.len() as f32) as usize;
    let motion = wave
        .motions
        .get(pick.min(wave.motions.len().saturating_sub(1)))
        .copied()
        .unwrap_or(Motion::Simple);
    // The line's direction: across the motion, along it (sideways), or anything.
    let direction = match motion {
        Motion::Sideways => heading,
        Motion::Simple => heading.perp(),
        _ => Vec2::from_angle(game.random() * core::f32::consts::TAU),
    };
    let half = direction * length * 0.5;
    let stretch = wave.stretch * faster;
    let normal = direction.perp();
    let (stretch, spin) = match motion {
        Motion::Raise => ([Vec2::ZERO, normal * stretch], 0.0),
        Motion::Dive => (
            [-(direction + normal) * stretch * 0.7, normal * stretch],
            0.0,
        ),
        Motion::Spin => (
            [Vec2::ZERO; 2],
            (game.random() * 2.0 - 1.0) * wave.spin * faster,
        ),
        Motion::Simple | Motion::Sideways => ([Vec2::ZERO; 2], 0.0),
    };
    let forbidden = game.random() < wave.forbidden_chance;
    let color = if forbidden {
        Color::srgb(0.95, 0.2, 0.25)
    } else {
        Color::srgb(wave.color.0, wave.color.1, wave.color.2)
    };
    (
        Line {
            forbidden,
            piece: false,
            color,
            stretch,
        },
        Collider::segment(-half, half),
        CollisionLayers::new(LINE_LAYER, BLADE_LAYER),
        Transform::from_translation(start.extend(0.0)),
        Velocity(heading * speed),
        AngularVelocity(spin),
    )
}

/// Every line the blade crossed this tick is cut in two at the crossing.
pub fn cut_lines(
    mut commands: Commands,
    mut events: MessageReader<CollisionEvent>,
    mut cuts: MessageWriter<Cut>,
    mut game: ResMut<Game>,
    time: Res<Time>,
    input: Res<BladeInput>,
    blade: Query<Entity, With<Blade>>,
    lines: Query<(&Line, &Collider, &Transform, &Velocity, &AngularVelocity)>,
) {
    game.since_cut += time.delta_secs();
    if !input.held || game.since_cut > COMBO_WINDOW {
        game.combo = 0;
    }
    let Ok(blade) = blade.single() else { return };
    let mut done = Vec::new();
    for event in events.read() {
        let Some(hit) = event.seen_from(blade) else {
            continue;
        };
        if !matches!(hit.kind, CollisionKind::Crossed | CollisionKind::Started)
            || done.contains(&hit.other)
            || game.over
        {
            continue;
        }
        let Ok((line, collider, transform, velocity, spin)) = lines.get(hit.other) else {
            continue;
        };
        let Collider::Segment { a, b } = *collider else {
            continue;
        };
        done.push(hit.other);
        // Where the blade crossed the line, as a fraction of it, and the line now.
        let along = hit.other_along.unwrap_or(0.5);
        let (wa, wb) = (
            transform.transform_point(a.extend(0.0)).truncate(),
            transform.transform_point(b.extend(0.0)).truncate(),
        );
        let cut_at = wa.lerp(wb, along);
        commands.entity(hit.other).despawn();
        let direction = (-hit.relative_velocity).normalize_or(Vec2::Y);
        let points = if line.forbidden {
            game.lives = game.lives.saturating_sub(1);
            if game.lives == 0 {
                end_game(&mut game);
            }
            -25
        } else {
            game.combo += 1;
            let points = 10 * game.combo;
            game.score += points;
            points as i32
        };
        game.cuts += 1;
        game.since_cut = 0.0;
        cuts.write(Cut {
            point: hit.point,
            direction,
            points,
            forbidden: line.forbidden,
        });
        // The two pieces keep the line's motion, pushed apart across the cut.
        let normal = (wb - wa).perp().normalize_or(Vec2::Y);
        for (k, (p, q)) in [(wa, cut_at), (cut_at, wb)].into_iter().enumerate() {
            if p.distance(q) < SHORTEST_PIECE {
                continue;
            }
            let side = if k == 0 { -1.0 } else { 1.0 };
            let center = p.midpoint(q);
            let push = (q - p).normalize_or(Vec2::X) * side * 60.0 + normal * side * 40.0;
            commands.spawn((
                Line {
                    forbidden: false,
                    piece: true,
                    color: line.color,
                    stretch: [Vec2::ZERO; 2],
                },
                Falling(PIECE_LIFETIME),
                Collider::segment(p - center, q - center),
                CollisionLayers::new(LINE_LAYER, BLADE_LAYER),
                Transform::from_translation(center.extend(0.0)),
                Velocity(velocity.0 + push),
                AngularVelocity(spin.0 + side * 3.0),
            ));
        }
    }
}

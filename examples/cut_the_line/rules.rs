//! The game's rules, without a window or a renderer: the screens, the two modes, lines, the
//! blade, cuts, score and waves.
//!
//! `main.rs` adds input, drawing and effects on top; `tests/cut_the_line.rs` runs these rules
//! in a headless App.

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
/// How long a round of *sixty seconds* lasts, in seconds.
pub const ROUND_SECONDS: f32 = 60.0;
/// Seconds that each cut of a combo of three or more adds in *sixty seconds*.
pub const COMBO_BONUS_SECONDS: f32 = 1.0;
/// Seconds that cutting a red line costs in *sixty seconds*.
pub const FORBIDDEN_PENALTY_SECONDS: f32 = 5.0;
/// Points of a forbidden cut (it also costs a life, or seconds).
pub const FORBIDDEN_POINTS: i32 = -25;
/// How much of the blade's velocity a cut piece takes.
pub const BLADE_PUSH: f32 = 0.25;
/// The most speed the blade gives a piece, pixels per second (a one-frame flick would
/// throw it off screen before it could be seen to fall).
pub const MAX_PUSH: f32 = 600.0;

/// Collision layers: the blade only meets lines, lines do not meet each other.
#[derive(CollisionLayer)]
pub enum Layer {
    Blade,
    Line,
}

/// What a line (or a piece that can be cut again) is and meets.
pub fn line_layers() -> CollisionLayers {
    CollisionLayers::new(Layer::Line, Layer::Blade)
}

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

/// Which screen the game shows. The rules run only while [`Playing`](Screen::Playing).
#[derive(States, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Screen {
    /// The title and the controls; pick a mode.
    #[default]
    Title,
    /// A round in play.
    Playing,
    /// The round stopped (`Esc`, or the window lost focus).
    Paused,
    /// The round is over: its score, the best, cuts, the longest combo and accuracy.
    GameOver,
}

/// The rules of a round.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Lives: a line that leaves uncut, or a red line cut, costs one.
    #[default]
    Classic,
    /// A clock of [`ROUND_SECONDS`]: combos of three or more add seconds, red lines take some.
    SixtySeconds,
}

impl Mode {
    /// The mode's name as shown and logged.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Classic => "classic",
            Mode::SixtySeconds => "sixty seconds",
        }
    }
}

/// A line that can be cut.
#[derive(Component, Clone, Copy, Debug)]
pub struct Line {
    /// Cutting it costs a life (or seconds).
    pub forbidden: bool,
    /// Its colour (sRGB).
    pub color: Color,
    /// Local endpoint velocities (raise and dive), pixels per second.
    pub stretch: [Vec2; 2],
}

/// A piece of a cut line, falling away: seconds left before it vanishes. It can be cut
/// again, and does not count as a miss when it leaves.
#[derive(Component, Clone, Copy, Debug)]
pub struct Piece(pub f32);

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
    /// The button was pressed since the last tick: a new stroke starts where the pointer is,
    /// even if the button was held in the last tick too (released and pressed again within
    /// one frame). The next tick takes it.
    pub new_stroke: bool,
}

/// A cut this tick, for effects and tests.
#[derive(Message, Clone, Copy, Debug)]
pub struct Cut {
    /// Where, in world space.
    pub point: Vec2,
    /// The blade's velocity relative to the line, pixels per second.
    pub blade_velocity: Vec2,
    /// Points scored (negative for a forbidden line).
    pub points: i32,
    /// Cuts in the combo so far, this one included (0 for a forbidden line).
    pub combo: u32,
    /// The line was one that must not be cut.
    pub forbidden: bool,
    /// The line's colour.
    pub color: Color,
}

/// A round ended: what the game-over screen shows and the log records.
#[derive(Message, Clone, Copy, Debug, PartialEq)]
pub struct RoundOver {
    /// The round's mode.
    pub mode: Mode,
    /// Its score.
    pub score: u32,
    /// Lines cut.
    pub cuts: u32,
    /// The longest combo.
    pub longest_combo: u32,
    /// Lines cut among the lines that were cut or left uncut, in `[0, 1]`.
    pub accuracy: f32,
}

/// Score and progress of the round.
#[derive(Resource, Clone, Debug)]
pub struct Game {
    /// Current score.
    pub score: u32,
    /// Best score of the mode, from earlier rounds (the saved one included).
    pub best: u32,
    /// Lives left (classic).
    pub lives: u32,
    /// Seconds left (sixty seconds).
    pub time_left: f32,
    /// Lines cut (not red ones, and a piece cut again is not a line more).
    pub cuts: u32,
    /// Lines that left uncut.
    pub misses: u32,
    /// Red lines cut.
    pub red_cuts: u32,
    /// Cuts in the current combo.
    pub combo: u32,
    /// The longest combo of the round.
    pub longest_combo: u32,
    /// Seconds since the last cut.
    pub since_cut: f32,
    /// Wave number (0-based, keeps counting after the book repeats).
    pub wave: usize,
    /// Lines spawned in this wave.
    pub spawned: u32,
    /// Seconds until the next line.
    pub next_line: f32,
    /// Random state.
    pub seed: u64,
}

impl Default for Game {
    fn default() -> Self {
        Self {
            score: 0,
            best: 0,
            lives: 3,
            time_left: ROUND_SECONDS,
            cuts: 0,
            misses: 0,
            red_cuts: 0,
            combo: 0,
            longest_combo: 0,
            since_cut: 0.0,
            wave: 0,
            spawned: 0,
            next_line: 0.5,
            seed: 1,
        }
    }
}

impl Game {
    /// A random number in `[0, 1)`.
    pub fn random(&mut self) -> f32 {
        // xorshift64*: deterministic from the seed and good enough for a game.
        self.seed ^= self.seed >> 12;
        self.seed ^= self.seed << 25;
        self.seed ^= self.seed >> 27;
        (self.seed.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 40) as f32 / (1u64 << 24) as f32
    }

    fn range(&mut self, (lo, hi): (f32, f32)) -> f32 {
        lo + (hi - lo) * self.random()
    }

    /// Lines cut among the lines that were cut, left uncut, or red and cut anyway, in
    /// `[0, 1]` (1 before any).
    pub fn accuracy(&self) -> f32 {
        let seen = self.cuts + self.misses + self.red_cuts;
        if seen == 0 {
            1.0
        } else {
            self.cuts as f32 / seen as f32
        }
    }
}

/// The rules. Needs [`SweepPlugin`], Bevy's states and a [`WaveBook`] resource (`main.rs`
/// loads it).
pub struct RulesPlugin {
    /// Spawn waves (tests turn this off and place lines themselves).
    pub waves: bool,
}

impl Plugin for RulesPlugin {
    fn build(&self, app: &mut App) {
        let playing = in_state(Screen::Playing);
        app.init_state::<Screen>()
            .init_resource::<BladeInput>()
            .init_resource::<Game>()
            .init_resource::<Mode>()
            .add_message::<Cut>()
            .add_message::<RoundOver>()
            .add_systems(Startup, spawn_blade)
            // A round starts from the title or after the last one; not after a pause.
            .add_systems(OnExit(Screen::Title), new_round)
            .add_systems(OnExit(Screen::GameOver), new_round)
            .add_systems(OnExit(Screen::Playing), sheathe_blade)
            .add_systems(OnEnter(Screen::GameOver), freeze_field)
            .add_systems(OnEnter(Screen::Title), clear_field)
            // A pause stops the game's clock: no tick runs, nothing moves.
            .add_systems(
                OnEnter(Screen::Paused),
                |mut time: ResMut<Time<Virtual>>| time.pause(),
            )
            .add_systems(OnExit(Screen::Paused), |mut time: ResMut<Time<Virtual>>| {
                time.unpause();
            })
            .add_systems(
                FixedUpdate,
                (
                    move_blade,
                    stretch_lines,
                    fall,
                    leave_field,
                    run_clock,
                    end_round,
                )
                    .chain()
                    .run_if(playing.clone()),
            )
            .add_systems(
                FixedPostUpdate,
                cut_lines
                    .after(SweepSystems::Report)
                    .run_if(playing.clone()),
            );
        if self.waves {
            app.add_systems(FixedUpdate, spawn_waves.before(move_blade).run_if(playing));
        }
    }
}

/// The blade, switched off until the button is held.
fn spawn_blade(mut commands: Commands) {
    commands.spawn((
        Blade,
        Collider::point(),
        CollisionLayers::new(Layer::Blade, Layer::Line),
        ColliderDisabled,
        Transform::default(),
    ));
}

/// Clears the field and the score for a new round of the chosen mode (keeping the best and
/// the random stream).
pub fn new_round(
    mut commands: Commands,
    mut game: ResMut<Game>,
    mode: Res<Mode>,
    book: Option<Res<WaveBook>>,
    lines: Query<Entity, Or<(With<Line>, With<Piece>)>>,
) {
    info!("new round: {}", mode.name());
    for line in &lines {
        commands.entity(line).despawn();
    }
    *game = Game {
        best: game.best,
        lives: book.map_or(3, |b| b.lives),
        seed: game.seed.max(1),
        ..Game::default()
    };
}

/// The round's last moment stays on screen behind the game-over screen.
fn freeze_field(
    mut field: Query<(&mut Velocity, &mut AngularVelocity), Or<(With<Line>, With<Piece>)>>,
) {
    for (mut velocity, mut spin) in &mut field {
        velocity.0 = Vec2::ZERO;
        spin.0 = 0.0;
    }
}

/// The title shows an empty field.
fn clear_field(mut commands: Commands, field: Query<Entity, Or<(With<Line>, With<Piece>)>>) {
    for entity in &field {
        commands.entity(entity).despawn();
    }
}

/// Out of play, the blade cuts nothing.
fn sheathe_blade(mut commands: Commands, blade: Query<Entity, With<Blade>>) {
    for blade in &blade {
        commands.entity(blade).insert(ColliderDisabled);
    }
}

/// The blade follows the pointer; it cuts only while the button is held, and a press starts
/// a new stroke (switched on again, it starts where the pointer is: the jump from where the
/// button was released is not swept).
fn move_blade(
    mut commands: Commands,
    mut input: ResMut<BladeInput>,
    mut blade: Query<(Entity, &mut Transform, Has<ColliderDisabled>), With<Blade>>,
) {
    let Ok((entity, mut transform, sheathed)) = blade.single_mut() else {
        return;
    };
    transform.translation = input.position.extend(0.0);
    if input.held && sheathed {
        commands.entity(entity).remove::<ColliderDisabled>();
    } else if !input.held && !sheathed {
        commands.entity(entity).insert(ColliderDisabled);
    } else if input.held && input.new_stroke {
        // Pressed again without a tick between: the jump from the last stroke is not swept.
        commands.entity(entity).insert(Teleport);
    }
    input.new_stroke = false;
}

/// Raise and dive: the local endpoints move, bouncing between 40 and 520 pixels apart.
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
    mut pieces: Query<(Entity, &mut Piece, &mut Velocity)>,
) {
    let dt = time.delta_secs();
    for (entity, mut piece, mut velocity) in &mut pieces {
        piece.0 -= dt;
        velocity.0.y -= GRAVITY * dt;
        if piece.0 <= 0.0 {
            commands.entity(entity).despawn();
        }
    }
}

/// How far past the edge of the field a line's centre may go before it has left: its
/// longest reach from the centre, and a margin.
pub fn reach(collider: &Collider) -> f32 {
    match *collider {
        Collider::Segment { a, b } => a.length().max(b.length()) + 40.0,
        _ => 40.0,
    }
}

/// Lines that have left the field are gone; an uncut line that leaves is a miss (a life, in
/// classic).
fn leave_field(
    mut commands: Commands,
    mut game: ResMut<Game>,
    mode: Res<Mode>,
    lines: Query<
        (Entity, &Transform, &Velocity, &Collider, Option<&Line>),
        Or<(With<Line>, With<Piece>)>,
    >,
) {
    for (entity, transform, velocity, collider, line) in &lines {
        let p = transform.translation.truncate();
        let outside = p.abs().cmpgt(FIELD + Vec2::splat(reach(collider))).any();
        let leaving = p.dot(velocity.0) > 0.0;
        if outside && leaving {
            commands.entity(entity).despawn();
            if line.is_some_and(|l| !l.forbidden) {
                game.misses += 1;
                if *mode == Mode::Classic {
                    game.lives = game.lives.saturating_sub(1);
                }
            }
        }
    }
}

/// The clock of *sixty seconds*.
fn run_clock(time: Res<Time>, mode: Res<Mode>, mut game: ResMut<Game>) {
    if *mode == Mode::SixtySeconds {
        game.time_left = (game.time_left - time.delta_secs()).max(0.0);
    }
}

/// The round ends when the lives or the seconds run out.
fn end_round(
    mode: Res<Mode>,
    mut game: ResMut<Game>,
    mut next: ResMut<NextState<Screen>>,
    mut over: MessageWriter<RoundOver>,
) {
    let out = match *mode {
        Mode::Classic => game.lives == 0,
        Mode::SixtySeconds => game.time_left <= 0.0,
    };
    // (Two ticks in one frame: the screen changes only at the next frame; end it once.)
    if !out || matches!(*next, NextState::Pending(Screen::GameOver)) {
        return;
    }
    game.best = game.best.max(game.score);
    over.write(RoundOver {
        mode: *mode,
        score: game.score,
        cuts: game.cuts,
        longest_combo: game.longest_combo,
        accuracy: game.accuracy(),
    });
    next.set(Screen::GameOver);
}

/// Spawns the lines of the current wave from the edges.
fn spawn_waves(
    mut commands: Commands,
    time: Res<Time>,
    book: Option<Res<WaveBook>>,
    mut game: ResMut<Game>,
) {
    let Some(book) = book else { return };
    if book.waves.is_empty() {
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
            color,
            stretch,
        },
        Collider::segment(-half, half),
        line_layers(),
        Transform::from_translation(start.extend(0.0)),
        Velocity(heading * speed),
        AngularVelocity(spin),
    )
}

/// Every line the blade crossed this tick is cut in two at the crossing; the pieces fly
/// apart, pushed along the blade's way and spun by it.
pub fn cut_lines(
    mut commands: Commands,
    mut events: MessageReader<CollisionEvent>,
    mut cuts: MessageWriter<Cut>,
    mut game: ResMut<Game>,
    mode: Res<Mode>,
    time: Res<Time>,
    input: Res<BladeInput>,
    blade: Query<Entity, With<Blade>>,
    lines: Query<(
        Option<&Line>,
        Option<&Piece>,
        &Collider,
        &Transform,
        &Velocity,
        &AngularVelocity,
        &SweptPath,
    )>,
    colors: Query<&PieceColor>,
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
        {
            continue;
        }
        let Ok((line, piece, collider, transform, velocity, spin, swept)) = lines.get(hit.other)
        else {
            continue;
        };
        let Collider::Segment { a, b } = *collider else {
            continue;
        };
        done.push(hit.other);
        let forbidden = line.is_some_and(|l| l.forbidden);
        let color = line
            .map(|l| l.color)
            .or_else(|| colors.get(hit.other).ok().map(|c| c.0))
            .unwrap_or(Color::WHITE);
        // Where the blade crossed the line, as a fraction of it, and the line now.
        let along = hit.other_along.unwrap_or(0.5);
        let (wa, wb) = (
            transform.transform_point(a.extend(0.0)).truncate(),
            transform.transform_point(b.extend(0.0)).truncate(),
        );
        let cut_at = wa.lerp(wb, along);
        commands.entity(hit.other).despawn();
        let points = if forbidden {
            game.combo = 0;
            match *mode {
                Mode::Classic => game.lives = game.lives.saturating_sub(1),
                Mode::SixtySeconds => {
                    game.time_left = (game.time_left - FORBIDDEN_PENALTY_SECONDS).max(0.0);
                }
            }
            game.red_cuts += 1;
            game.score = game.score.saturating_sub(FORBIDDEN_POINTS.unsigned_abs());
            FORBIDDEN_POINTS
        } else {
            game.combo += 1;
            game.longest_combo = game.longest_combo.max(game.combo);
            if *mode == Mode::SixtySeconds && game.combo >= 3 {
                game.time_left += COMBO_BONUS_SECONDS;
            }
            let points = 10 * game.combo;
            game.score += points;
            points as i32
        };
        // A piece cut again is not a line more: it scores, but counts once in accuracy.
        if piece.is_none() && !forbidden {
            game.cuts += 1;
        }
        game.since_cut = 0.0;
        // The blade's velocity relative to the line (pixels per second).
        let blade_velocity = hit.relative_velocity;
        // For checking the game against the geometry (`RUST_LOG=cut_the_line=debug`): the
        // line where it was at the moment of the cut, as the sweep moved it.
        if let Some(bevy_sweep::narrow::Shape::Segment(la, lb)) =
            swept.path().map(|path| path.at(hit.time_of_impact))
        {
            debug!(
                "cut at ({}, {}) t {} line ({}, {}) ({}, {})",
                hit.point.x, hit.point.y, hit.time_of_impact, la.x, la.y, lb.x, lb.y
            );
        }
        cuts.write(Cut {
            point: hit.point,
            blade_velocity,
            points,
            combo: if forbidden { 0 } else { game.combo },
            forbidden,
            color,
        });
        // The two pieces keep the line's motion, are pushed apart across the cut and along
        // the blade's way, and spin the way the blade turned them.
        let tangent = (wb - wa).normalize_or(Vec2::X);
        let normal = tangent.perp();
        let push = (blade_velocity * BLADE_PUSH).clamp_length_max(MAX_PUSH);
        // A piece cut again keeps its time; pieces of a red line cannot be cut again.
        let life = piece.map_or(PIECE_LIFETIME, |p| p.0);
        for (k, (p, q)) in [(wa, cut_at), (cut_at, wb)].into_iter().enumerate() {
            if p.distance(q) < SHORTEST_PIECE {
                continue;
            }
            let side = if k == 0 { -1.0 } else { 1.0 };
            let center = p.midpoint(q);
            let apart = tangent * side * 60.0 + normal * side * 40.0;
            // The blade pushes each piece at the cut end: it turns about its centre.
            let lever = cut_at - center;
            let turn = lever.perp_dot(push) / lever.length_squared().max(400.0);
            let mut piece = commands.spawn((
                Piece(life),
                PieceColor(color),
                Collider::segment(p - center, q - center),
                line_layers(),
                Transform::from_translation(center.extend(0.0)),
                Velocity(velocity.0 + apart + push),
                AngularVelocity(spin.0 + turn.clamp(-12.0, 12.0)),
            ));
            if forbidden {
                piece.insert(ColliderDisabled);
            }
        }
    }
}

/// A piece's colour (its line's).
#[derive(Component, Clone, Copy, Debug)]
pub struct PieceColor(pub Color);

//! `cut_the_line`: cut drifting, spinning, stretching lines with the mouse.
//!
//! ```sh
//! cargo run --release --example cut_the_line
//! ```
//!
//! | control | action |
//! |---|---|
//! | hold the left button and swipe | cut every line the pointer passes through, at any speed |
//! | `R` (or click, after game over) | restart |
//! | `Esc` | quit (the final score and number of cuts are logged) |
//!
//! Cut the coloured lines; never the red ones. A line that leaves the screen uncut costs a
//! life; several cuts in one swipe make a combo (10, 20, 30, … points). The waves, their
//! speeds, motions and colours are in `assets/cut_the_line/waves.ron`.
//!
//! Every cut is a `Crossed` event of the blade (a point collider following the cursor)
//! against a line (a segment collider): the plugin sweeps the pointer's path against each
//! line's motion between two ticks, so a swipe across the whole screen in one frame still
//! cuts, at the exact place, each line it went through.
//!
//! For scripted runs: `EXAMPLE_SECONDS=n` quits after `n` seconds, and
//! `EXAMPLE_SCREENSHOTS=t1:a.png,t2:b.png` saves screenshots at those times (seconds).
//! `CUT_THE_LINE_LINES=n` is a stress mode: it keeps `n` lines on screen, never ends the game,
//! and logs frame times and the sweep's time per tick on exit.

mod rules;
#[path = "../support/scripted.rs"]
mod scripted;

use bevy::asset::io::Reader;
use bevy::asset::{AssetLoader, LoadContext};
use bevy::diagnostic::{DiagnosticsStore, FrameTimeDiagnosticsPlugin};
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_prototype_lyon::prelude::*;
use bevy_sweep::prelude::*;
use rules::{
    BladeInput, Cut, FIELD, Falling, Game, Line, PIECE_LIFETIME, Restart, RulesPlugin, WaveBook,
};
use scripted::ScriptedRun;

fn main() {
    App::new()
        .add_plugins((
            DefaultPlugins.set(WindowPlugin {
                primary_window: Some(Window {
                    title: "cut_the_line".into(),
                    resolution: ((2.0 * FIELD.x) as u32, (2.0 * FIELD.y) as u32).into(),
                    ..default()
                }),
                ..default()
            }),
            ShapePlugin,
            SweepPlugin {
                length_unit: 100.0,
                ..default()
            },
            RulesPlugin { waves: true },
            SweepDiagnosticsPlugin,
            FrameTimeDiagnosticsPlugin::default(),
            ScriptedRun,
        ))
        .insert_resource(ClearColor(Color::srgb(0.05, 0.06, 0.1)))
        .init_asset::<WaveBook>()
        .register_asset_loader(WaveBookLoader)
        .init_resource::<Trail>()
        .add_systems(Startup, setup)
        .add_systems(
            Update,
            (
                read_pointer,
                keys,
                use_wave_book,
                draw_lines,
                fade_pieces,
                draw_trail,
                sparks_from_cuts,
                move_sparks,
                fade_flashes,
                hud,
            ),
        )
        .add_systems(Last, log_final_score)
        .add_systems(FixedUpdate, stress.run_if(stress_mode))
        .add_systems(
            Last,
            (measure, log_measurements).chain().run_if(stress_mode),
        )
        .insert_resource(Stress::from_env())
        .run();
}

/// Loads `WaveBook`s from RON.
#[derive(TypePath)]
struct WaveBookLoader;

impl AssetLoader for WaveBookLoader {
    type Asset = WaveBook;
    type Settings = ();
    type Error = BevyError;

    async fn load(
        &self,
        reader: &mut dyn Reader,
        _settings: &(),
        _context: &mut LoadContext<'_>,
    ) -> Result<WaveBook, BevyError> {
        let mut bytes = Vec::new();
        reader.read_to_end(&mut bytes).await?;
        Ok(ron::de::from_bytes(&bytes)?)
    }

    fn extensions(&self) -> &[&str] {
        &["ron"]
    }
}

#[derive(Resource)]
struct WaveBookHandle(Handle<WaveBook>);

#[derive(Component)]
struct Hud;

#[derive(Component)]
struct Banner;

#[derive(Component)]
struct TrailShape;

/// Recent pointer positions while cutting, with their age in seconds.
#[derive(Resource, Default)]
struct Trail(Vec<(Vec2, f32)>);

/// The flash at a cut point: a disc that grows and fades out.
#[derive(Component)]
struct Flash {
    life: f32,
    color: Color,
}

const FLASH_LIFETIME: f32 = 0.2;

/// A spark flying from a cut.
#[derive(Component)]
struct Spark {
    velocity: Vec2,
    life: f32,
}

/// The waves as shipped, compiled in: the game starts with them and switches to
/// `assets/cut_the_line/waves.ron` once it has loaded (and whenever it changes).
const SHIPPED_WAVES: &str = include_str!("../../assets/cut_the_line/waves.ron");

fn setup(mut commands: Commands, assets: Res<AssetServer>) {
    match ron::de::from_str::<WaveBook>(SHIPPED_WAVES) {
        Ok(book) => commands.insert_resource(book),
        Err(error) => error!("the shipped waves.ron does not parse: {error}"),
    }
    commands.spawn((Camera2d, Msaa::Sample4));
    commands.insert_resource(WaveBookHandle(assets.load("cut_the_line/waves.ron")));
    commands.spawn((
        TrailShape,
        // Never an empty path: Bevy's mesh allocator logs "use-after-free" errors for
        // meshes without vertices. An empty trail is hidden instead.
        ShapeBuilder::with(&shapes::Line(Vec2::ZERO, Vec2::X))
            .stroke((Color::NONE, 1.0))
            .build(),
        Transform::from_xyz(0.0, 0.0, 5.0),
        Visibility::Hidden,
    ));
    commands.spawn((
        Hud,
        Text::new(""),
        TextFont {
            font_size: FontSize::Px(26.0),
            ..default()
        },
        TextColor(Color::srgb(0.9, 0.95, 1.0)),
        Node {
            position_type: PositionType::Absolute,
            top: Val::Px(12.0),
            left: Val::Px(16.0),
            ..default()
        },
    ));
    commands.spawn((
        Banner,
        Text::new(""),
        TextFont {
            font_size: FontSize::Px(44.0),
            ..default()
        },
        TextColor(Color::WHITE),
        TextLayout::justify(Justify::Center),
        Node {
            position_type: PositionType::Absolute,
            top: Val::Percent(38.0),
            width: Val::Percent(100.0),
            justify_content: JustifyContent::Center,
            ..default()
        },
    ));
}

/// Copies the loaded wave book into the rules' resource (and again when the file changes).
fn use_wave_book(
    mut commands: Commands,
    handle: Res<WaveBookHandle>,
    books: Res<Assets<WaveBook>>,
    mut events: MessageReader<AssetEvent<WaveBook>>,
) {
    for event in events.read() {
        if event.is_loaded_with_dependencies(&handle.0)
            && let Some(book) = books.get(&handle.0)
        {
            commands.insert_resource(book.clone());
        }
    }
}

fn read_pointer(
    mut input: ResMut<BladeInput>,
    mut trail: ResMut<Trail>,
    buttons: Res<ButtonInput<MouseButton>>,
    window: Query<&Window, With<PrimaryWindow>>,
    camera: Query<(&Camera, &GlobalTransform)>,
    time: Res<Time>,
) {
    let (Ok(window), Ok((camera, at))) = (window.single(), camera.single()) else {
        return;
    };
    if let Some(p) = window
        .cursor_position()
        .and_then(|c| camera.viewport_to_world_2d(at, c).ok())
    {
        input.position = p;
    }
    input.held = buttons.pressed(MouseButton::Left);
    let dt = time.delta_secs();
    for point in &mut trail.0 {
        point.1 += dt;
    }
    trail.0.retain(|(_, age)| *age < 0.18);
    if input.held {
        trail.0.push((input.position, 0.0));
    }
}

fn keys(
    keys: Res<ButtonInput<KeyCode>>,
    buttons: Res<ButtonInput<MouseButton>>,
    game: Res<Game>,
    mut restart: MessageWriter<Restart>,
    mut exit: MessageWriter<AppExit>,
) {
    if keys.just_pressed(KeyCode::KeyR) || (game.over && buttons.just_pressed(MouseButton::Left)) {
        restart.write(Restart);
    }
    if keys.just_pressed(KeyCode::Escape) {
        exit.write(AppExit::Success);
    }
}

fn line_shape(a: Vec2, b: Vec2, color: Color) -> Shape {
    let mut stroke = Stroke::new(color, 6.0);
    stroke.options = stroke.options.with_line_cap(LineCap::Round);
    ShapeBuilder::with(&shapes::Line(a, b))
        .stroke(stroke)
        .build()
}

/// Gives new lines a lyon shape and redraws lines whose endpoints moved (raise, dive).
fn draw_lines(
    mut commands: Commands,
    lines: Query<(Entity, &Line, &Collider), Or<(Added<Line>, Changed<Collider>)>>,
) {
    for (entity, line, collider) in &lines {
        if let Collider::Segment { a, b } = *collider {
            commands
                .entity(entity)
                .insert((line_shape(a, b, line.color), Visibility::Visible));
        }
    }
}

fn fade_pieces(mut pieces: Query<(&Falling, &Line, &Collider, &mut Shape)>) {
    for (falling, line, collider, mut shape) in &mut pieces {
        if let Collider::Segment { a, b } = *collider {
            let alpha = (falling.0 / PIECE_LIFETIME).clamp(0.0, 1.0);
            *shape = line_shape(a, b, line.color.with_alpha(alpha));
        }
    }
}

fn draw_trail(
    trail: Res<Trail>,
    mut shape: Query<(&mut Shape, &mut Visibility), With<TrailShape>>,
) {
    let Ok((mut shape, mut visibility)) = shape.single_mut() else {
        return;
    };
    if !trail.is_changed() {
        return;
    }
    let drawn = trail.0.len() >= 2 && trail.0.iter().any(|(p, _)| *p != trail.0[0].0);
    visibility.set_if_neq(if drawn {
        Visibility::Inherited
    } else {
        Visibility::Hidden
    });
    if !drawn {
        return;
    }
    let mut path = ShapePath::new().move_to(trail.0[0].0);
    for (p, _) in &trail.0[1..] {
        path = path.line_to(*p);
    }
    let mut stroke = Stroke::new(Color::srgba(0.85, 0.95, 1.0, 0.8), 5.0);
    stroke.options = stroke
        .options
        .with_line_cap(LineCap::Round)
        .with_line_join(LineJoin::Round);
    *shape = ShapeBuilder::with(&path).stroke(stroke).build();
}

fn sparks_from_cuts(mut commands: Commands, mut cuts: MessageReader<Cut>, mut game: ResMut<Game>) {
    for cut in cuts.read() {
        let color = if cut.forbidden {
            Color::srgb(1.0, 0.25, 0.2)
        } else {
            Color::srgb(1.0, 0.9, 0.5)
        };
        commands.spawn((
            Flash {
                life: FLASH_LIFETIME,
                color,
            },
            ShapeBuilder::with(&shapes::Circle {
                radius: 10.0,
                center: Vec2::ZERO,
            })
            .fill(color)
            .build(),
            Transform::from_translation(cut.point.extend(4.5)),
        ));
        // Bigger combos, more sparks.
        let count = 8 + (cut.points.max(0) / 10).min(10) as usize;
        for k in 0..count {
            let angle = cut.direction.to_angle() + (k as f32 - count as f32 / 2.0) * 0.2;
            let speed = 260.0 + 40.0 * (k % 4) as f32;
            let velocity = Vec2::from_angle(angle) * speed * if k % 2 == 0 { 1.0 } else { 0.6 };
            commands.spawn((
                Spark {
                    velocity,
                    life: 0.35,
                },
                ShapeBuilder::with(&shapes::Line(Vec2::ZERO, velocity.normalize() * 10.0))
                    .stroke((color, 3.0))
                    .build(),
                Transform::from_translation(cut.point.extend(4.0)),
            ));
        }
        // Keep the random stream moving with play, so each game differs.
        game.seed = game.seed.rotate_left(7) ^ u64::from(cut.point.x.to_bits());
    }
}

fn fade_flashes(
    mut commands: Commands,
    time: Res<Time>,
    mut flashes: Query<(Entity, &mut Flash, &mut Shape, &mut Transform)>,
) {
    for (entity, mut flash, mut shape, mut transform) in &mut flashes {
        flash.life -= time.delta_secs();
        if flash.life <= 0.0 {
            commands.entity(entity).despawn();
            continue;
        }
        let left = flash.life / FLASH_LIFETIME;
        transform.scale = Vec3::splat(1.0 + 2.5 * (1.0 - left));
        shape.fill = Some(Fill::color(flash.color.with_alpha(0.9 * left)));
    }
}

fn move_sparks(
    mut commands: Commands,
    time: Res<Time>,
    mut sparks: Query<(Entity, &mut Spark, &mut Transform)>,
) {
    let dt = time.delta_secs();
    for (entity, mut spark, mut transform) in &mut sparks {
        spark.life -= dt;
        transform.translation += (spark.velocity * dt).extend(0.0);
        spark.velocity *= 0.9;
        if spark.life <= 0.0 {
            commands.entity(entity).despawn();
        }
    }
}

fn hud(
    game: Res<Game>,
    mut hud: Query<&mut Text, (With<Hud>, Without<Banner>)>,
    mut banner: Query<&mut Text, (With<Banner>, Without<Hud>)>,
) {
    if let Ok(mut text) = hud.single_mut() {
        let combo = if game.combo > 1 {
            format!("   combo x{}", game.combo)
        } else {
            String::new()
        };
        **text = format!(
            "score {}   best {}   wave {}   lives {}{}",
            game.score,
            game.best.max(game.score),
            game.wave + 1,
            game.lives,
            combo
        );
    }
    if let Ok(mut text) = banner.single_mut() {
        **text = if game.over {
            format!(
                "game over\nscore {}   best {}\nclick or press R to play again",
                game.score,
                game.best.max(game.score)
            )
        } else {
            String::new()
        };
    }
}

fn log_final_score(mut exits: MessageReader<AppExit>, game: Res<Game>) {
    if exits.read().next().is_some() {
        info!("final score: {}", game.score);
        info!("cuts: {}", game.cuts);
    }
}

/// Stress mode (`CUT_THE_LINE_LINES=n`): keep `n` lines on screen and measure (off at 0).
#[derive(Resource, Default)]
struct Stress {
    lines: usize,
    frame_ms: Vec<f32>,
    sweep_ms: Vec<f32>,
    on_screen: Vec<usize>,
}

impl Stress {
    /// Stress mode if `CUT_THE_LINE_LINES` is set (`lines == 0` means off).
    fn from_env() -> Self {
        Self {
            lines: std::env::var("CUT_THE_LINE_LINES")
                .ok()
                .and_then(|n| n.parse().ok())
                .unwrap_or(0),
            ..default()
        }
    }
}

fn stress_mode(stress: Res<Stress>) -> bool {
    stress.lines > 0
}

fn stress(
    mut commands: Commands,
    stress: Res<Stress>,
    mut game: ResMut<Game>,
    book: Option<Res<WaveBook>>,
    lines: Query<(), With<Line>>,
) {
    game.lives = 99;
    let Some(wave) = book.and_then(|b| b.waves.last().cloned()) else {
        return;
    };
    for _ in lines.iter().count()..stress.lines {
        // Anywhere on screen, not only at the edges, so that all of them are in view.
        let at = Vec2::new(
            (game.random() * 2.0 - 1.0) * FIELD.x,
            (game.random() * 2.0 - 1.0) * FIELD.y,
        );
        commands
            .spawn(rules::new_line(&mut game, &wave, 1.0))
            .insert(Transform::from_translation(at.extend(0.0)));
    }
}

fn measure(
    mut stress: ResMut<Stress>,
    time: Res<Time<Real>>,
    stats: Res<SweepStats>,
    lines: Query<&Transform, With<Line>>,
) {
    let frame = time.delta_secs() * 1000.0;
    let sweep = stats.elapsed.as_secs_f32() * 1000.0;
    let count = lines
        .iter()
        .filter(|t| t.translation.truncate().abs().cmple(FIELD).all())
        .count();
    stress.frame_ms.push(frame);
    stress.sweep_ms.push(sweep);
    stress.on_screen.push(count);
}

fn log_measurements(
    mut exits: MessageReader<AppExit>,
    stress: Res<Stress>,
    diagnostics: Res<DiagnosticsStore>,
) {
    if exits.read().next().is_none() {
        return;
    }
    let median = |values: &[f32]| {
        let mut v = values.to_vec();
        v.sort_by(f32::total_cmp);
        v.get(v.len() / 2).copied().unwrap_or(0.0)
    };
    // Skip the first second of start-up frames.
    let skip = stress.frame_ms.len().min(30);
    let frames = &stress.frame_ms[skip..];
    let sweeps = &stress.sweep_ms[skip..];
    let lines = &stress.on_screen[skip..];
    info!(
        "stress: {} frames, lines on screen median {}, frame time median {:.2} ms, sweep per tick median {:.3} ms (max {:.3} ms)",
        frames.len(),
        lines.get(lines.len() / 2).copied().unwrap_or(0),
        median(frames),
        median(sweeps),
        sweeps.iter().copied().fold(0.0, f32::max)
    );
    // The same from Bevy's diagnostics (averages over their recent history).
    let average = |path| {
        diagnostics
            .get(path)
            .and_then(|d| d.average())
            .unwrap_or(f64::NAN)
    };
    info!(
        "diagnostics: frame_time average {:.2} ms, bevy_sweep/sweep_time average {:.3} ms",
        average(&FrameTimeDiagnosticsPlugin::FRAME_TIME),
        average(&SweepDiagnosticsPlugin::SWEEP_TIME)
    );
}

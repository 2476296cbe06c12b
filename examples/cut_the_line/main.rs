//! `cut_the_line`: cut drifting, spinning, stretching lines with the mouse.
//!
//! ```sh
//! cargo run --release --example cut_the_line
//! ```
//!
//! | control | action |
//! |---|---|
//! | hold the left button and swipe | cut every line the pointer passes through, at any speed |
//! | click or `1` on the title | play *classic*: lives; a line that leaves uncut, or a red line cut, costs one |
//! | `2` on the title | play *sixty seconds*: a clock; combos of three or more add seconds, red lines take five |
//! | `Esc` | pause and go on (the game also pauses when the window loses focus) |
//! | click or `R` after a round | play again; `T` or `Esc` goes back to the title |
//! | `Q` (title, paused) or `Esc` (title) | quit |
//!
//! Several cuts in one swipe make a combo (10, 20, 30, … points); a combo of three or more
//! slows time for a moment and shakes the screen. The waves, their speeds, motions and
//! colours are data: `assets/cut_the_line/waves.ron`. The best score of each mode is kept
//! in the user's data directory (see `best.rs`). `CUT_THE_LINE_SEED=n` makes the lines of a
//! run repeatable.
//!
//! Every cut is a `Crossed` event of the blade (a point collider following the cursor)
//! against a line (a segment collider): the plugin sweeps the pointer's path against each
//! line's motion between two ticks, so a swipe across the whole screen in one frame still
//! cuts, at the exact place, each line it went through. The rules are in `rules.rs` (tested
//! headless in `tests/cut_the_line.rs`); this file is input, screens, drawing and effects.

mod best;
#[path = "../support/demo.rs"]
mod demo;
mod rules;
#[path = "../support/scripted.rs"]
mod scripted;
#[path = "../support/cut_the_line_stress.rs"]
mod stress;

use best::{Best, LastRound};
use bevy::asset::io::Reader;
use bevy::asset::io::file::FileAssetReader;
use bevy::asset::{AssetLoader, LoadContext};
use bevy::prelude::*;
use bevy::sprite_render::AlphaMode2d;
use bevy::window::WindowFocused;
use bevy_prototype_lyon::prelude::*;
use bevy_sweep::prelude::*;
use demo::{Cursor, Hud};
use rules::{
    BladeInput, Cut, FIELD, Game, Line, Mode, PIECE_LIFETIME, Piece, PieceColor, RoundOver,
    RulesPlugin, Screen, WaveBook,
};
use std::collections::HashMap;
use std::f32::consts::{PI, TAU};

// The look and feel, in pixels, seconds and sRGB.
const BACKGROUND: Color = Color::srgb(0.04, 0.05, 0.09);
const TEXT: Color = Color::srgb(0.9, 0.95, 1.0);
const DIM_TEXT: Color = Color::srgb(0.6, 0.68, 0.8);
const LINE_WIDTH: f32 = 6.0;
/// How long the blade's trail lasts behind the pointer.
const TRAIL_SECONDS: f32 = 0.2;
/// The trail's width at the pointer (it thins to nothing at its end).
const TRAIL_WIDTH: f32 = 8.0;
const TRAIL_COLOR: Color = Color::srgba(0.85, 0.95, 1.0, 0.9);
const SPARK_LIFETIME: f32 = 0.35;
const SPARK_LENGTH: f32 = 10.0;
const SPARK_WIDTH: f32 = 2.5;
/// How fast a spark slows: its speed falls by a factor e every `1 / SPARK_DRAG` seconds
/// (by 0.92 a frame at 60 frames a second, whatever the frame rate).
const SPARK_DRAG: f32 = 5.0;
const FLASH_LIFETIME: f32 = 0.2;
/// A flash's radius at the cut; its disc grows to `1 + FLASH_DISC_GROWTH` times that, and its
/// ring to `1 + FLASH_RING_GROWTH` times.
const FLASH_RADIUS: f32 = 10.0;
const FLASH_DISC_GROWTH: f32 = 1.2;
const FLASH_RING_GROWTH: f32 = 3.0;
/// The ring's width at its largest.
const FLASH_RING_WIDTH: f32 = 3.0;
const POPUP_LIFETIME: f32 = 0.8;
/// A combo this long slows time and shakes the screen.
const BIG_COMBO: u32 = 3;
const SLOW_MOTION_SECONDS: f32 = 0.4;
const SLOW_MOTION_SPEED: f32 = 0.35;
const SHAKE_SECONDS: f32 = 0.3;
const SHAKE_PIXELS: f32 = 9.0;
/// A line whose centre is this close to an edge (pixels), on its way out, flashes.
const LEAVING_FLASH: f32 = 120.0;

fn main() {
    App::new()
        .add_plugins((
            DefaultPlugins.set(demo::window(
                "cut_the_line",
                ((2.0 * FIELD.x) as u32, (2.0 * FIELD.y) as u32),
            )),
            ShapePlugin,
            SweepPlugin {
                length_unit: 100.0,
                ..default()
            },
            RulesPlugin { waves: true },
            WavesPlugin,
            ScreensPlugin,
            PointerPlugin,
            DrawingPlugin,
            EffectsPlugin,
            best::BestScorePlugin,
            // For scripted runs and measurements only; inert unless their variables are set.
            (scripted::ScriptedRun, stress::StressPlugin),
        ))
        .insert_resource(ClearColor(BACKGROUND))
        .add_systems(Startup, (spawn_camera, seed_the_game))
        .run();
}

/// The whole field is in view whatever the window's size (bars at the sides if its shape
/// differs).
fn spawn_camera(mut commands: Commands) {
    commands.spawn((
        Camera2d,
        Msaa::Sample4,
        Projection::Orthographic(OrthographicProjection {
            scaling_mode: bevy::camera::ScalingMode::AutoMin {
                min_width: 2.0 * FIELD.x,
                min_height: 2.0 * FIELD.y,
            },
            ..OrthographicProjection::default_2d()
        }),
    ));
}

/// `CUT_THE_LINE_SEED=n` makes a run repeatable; otherwise the clock seeds it.
fn seed_the_game(mut game: ResMut<Game>) {
    let seed = std::env::var("CUT_THE_LINE_SEED")
        .ok()
        .and_then(|s| s.trim().parse::<u64>().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64)
        });
    info!("seed {seed} (CUT_THE_LINE_SEED={seed} plays these lines again)");
    game.seed = seed.max(1);
}

// ---------------------------------------------------------------------------------------
// The waves: compiled in, then read from `assets/cut_the_line/waves.ron` at start when the
// game has that file (run through cargo, or with `BEVY_ASSET_ROOT`).

struct WavesPlugin;

impl Plugin for WavesPlugin {
    fn build(&self, app: &mut App) {
        app.init_asset::<WaveBook>()
            .register_asset_loader(WaveBookLoader)
            .add_systems(Startup, load_waves)
            .add_systems(
                Update,
                use_wave_book.run_if(resource_exists::<WaveBookHandle>),
            );
    }
}

/// The waves as shipped, compiled in: the game starts with them and switches to the file once
/// it has loaded (edit it and start the game again to try new tuning).
const SHIPPED_WAVES: &str = include_str!("../../assets/cut_the_line/waves.ron");

/// The waves' file, in the asset folder.
const WAVES_FILE: &str = "cut_the_line/waves.ron";

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

/// Starts with the compiled-in waves, and loads the file only where it is: a game run from
/// its binary alone (no `assets/` next to it, no `BEVY_ASSET_ROOT`) plays the compiled-in
/// ones without an error about a missing file.
fn load_waves(mut commands: Commands, assets: Res<AssetServer>) {
    match ron::de::from_str::<WaveBook>(SHIPPED_WAVES) {
        Ok(book) => commands.insert_resource(book),
        Err(error) => error!("the shipped waves.ron does not parse: {error}"),
    }
    // Where Bevy's default file reader looks (`BEVY_ASSET_ROOT`, else `CARGO_MANIFEST_DIR`,
    // else the binary's folder), in its default `assets` folder.
    let file = FileAssetReader::get_base_path()
        .join(AssetPlugin::default().file_path)
        .join(WAVES_FILE);
    if file.is_file() {
        commands.insert_resource(WaveBookHandle(assets.load(WAVES_FILE)));
    } else {
        info!(
            "no {}: playing the waves compiled into the game",
            file.display()
        );
    }
}

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
            info!("waves from {WAVES_FILE}");
            commands.insert_resource(book.clone());
        }
    }
}

// ---------------------------------------------------------------------------------------
// The screens: title, the HUD in play, paused, game over; the keys that move between them.

struct ScreensPlugin;

impl Plugin for ScreensPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<GameOverSince>()
            .add_systems(OnEnter(Screen::Title), (title_screen, remove_hud))
            .add_systems(OnEnter(Screen::GameOver), remove_hud)
            .add_systems(OnEnter(Screen::Playing), hud)
            .add_systems(OnEnter(Screen::Paused), paused_screen)
            .add_systems(OnEnter(Screen::GameOver), game_over_screen)
            .add_systems(
                Update,
                (
                    title_keys.run_if(in_state(Screen::Title)),
                    pause_keys.run_if(in_state(Screen::Playing)),
                    pause_on_focus_lost,
                    paused_keys.run_if(in_state(Screen::Paused)),
                    game_over_keys.run_if(in_state(Screen::GameOver)),
                    update_hud.run_if(in_state(Screen::Playing)),
                    log_rounds.after(best::record_best),
                ),
            )
            .add_systems(Last, log_on_exit);
    }
}

/// A centred column of lines of text, the first one large, kept until `screen` is left.
fn text_screen(commands: &mut Commands, screen: Screen, title: &str, lines: &[String]) {
    commands
        .spawn((
            DespawnOnExit(screen),
            Node {
                width: Val::Percent(100.0),
                height: Val::Percent(100.0),
                flex_direction: FlexDirection::Column,
                justify_content: JustifyContent::Center,
                align_items: AlignItems::Center,
                row_gap: Val::Px(10.0),
                ..default()
            },
            BackgroundColor(BACKGROUND.with_alpha(0.85)),
        ))
        .with_children(|column| {
            column.spawn((
                Text::new(title),
                TextFont {
                    font_size: FontSize::Px(64.0),
                    ..default()
                },
                TextColor(TEXT),
            ));
            for line in lines {
                column.spawn((
                    Text::new(line.clone()),
                    TextFont {
                        font_size: FontSize::Px(24.0),
                        ..default()
                    },
                    TextColor(DIM_TEXT),
                    TextLayout::justify(Justify::Center),
                ));
            }
        });
}

fn title_screen(mut commands: Commands, best: Res<Best>) {
    text_screen(
        &mut commands,
        Screen::Title,
        "cut the line",
        &[
            "hold the left button and swipe through the lines, as fast as you like".into(),
            "never cut the red ones".into(),
            String::new(),
            format!(
                "click or 1: classic (lives)   best {}",
                best.scores.of(Mode::Classic)
            ),
            format!(
                "2: sixty seconds (combos add time)   best {}",
                best.scores.of(Mode::SixtySeconds)
            ),
            String::new(),
            "Esc pauses   Q quits".into(),
        ],
    );
}

fn hud(mut commands: Commands, existing: Query<(), With<Hud>>) {
    if !existing.is_empty() {
        return; // back from a pause
    }
    // Score, best, wave, lives or seconds, combo.
    commands.spawn((demo::hud(26.0, Vec2::new(16.0, 12.0)), TextColor(TEXT)));
}

/// The HUD stays through a pause, and goes with the round.
fn remove_hud(mut commands: Commands, hud: Query<Entity, With<Hud>>) {
    for entity in &hud {
        commands.entity(entity).despawn();
    }
}

fn update_hud(game: Res<Game>, mode: Res<Mode>, mut hud: Query<&mut Text, With<Hud>>) {
    let Ok(mut text) = hud.single_mut() else {
        return;
    };
    let left = match *mode {
        Mode::Classic => format!("lives {}", game.lives),
        Mode::SixtySeconds => format!("time {:.0}", game.time_left.ceil()),
    };
    let combo = if game.combo > 1 {
        format!("   combo x{}", game.combo)
    } else {
        String::new()
    };
    **text = format!(
        "score {}   best {}   wave {}   {left}{combo}",
        game.score,
        game.best.max(game.score),
        game.wave + 1,
    );
}

fn paused_screen(mut commands: Commands) {
    text_screen(
        &mut commands,
        Screen::Paused,
        "paused",
        &["Esc or click: go on   T: title   Q: quit".into()],
    );
}

fn game_over_screen(
    mut commands: Commands,
    last: Res<LastRound>,
    best: Res<Best>,
    time: Res<Time<Real>>,
) {
    commands.insert_resource(GameOverSince(time.elapsed_secs()));
    let Some(round) = last.0 else { return };
    let best_line = if last.1 {
        format!("a new best for {}!", round.mode.name())
    } else {
        format!("best {}", best.scores.of(round.mode))
    };
    text_screen(
        &mut commands,
        Screen::GameOver,
        "game over",
        &[
            format!("score {}", round.score),
            best_line,
            format!(
                "{} cuts   longest combo {}   accuracy {:.0}%",
                round.cuts,
                round.longest_combo,
                100.0 * round.accuracy
            ),
            String::new(),
            "click or R: play again   T or Esc: title".into(),
        ],
    );
}

fn title_keys(
    keys: Res<ButtonInput<KeyCode>>,
    buttons: Res<ButtonInput<MouseButton>>,
    mut mode: ResMut<Mode>,
    mut next: ResMut<NextState<Screen>>,
    mut exit: MessageWriter<AppExit>,
) {
    let chosen = if keys.just_pressed(KeyCode::Digit2) {
        Some(Mode::SixtySeconds)
    } else if keys.just_pressed(KeyCode::Digit1) || buttons.just_pressed(MouseButton::Left) {
        Some(Mode::Classic)
    } else {
        None
    };
    if let Some(chosen) = chosen {
        *mode = chosen;
        next.set(Screen::Playing);
    }
    if keys.any_just_pressed([KeyCode::Escape, KeyCode::KeyQ]) {
        exit.write(AppExit::Success);
    }
}

fn pause_keys(keys: Res<ButtonInput<KeyCode>>, mut next: ResMut<NextState<Screen>>) {
    // (A round that just ended is on its way to the game-over screen: no pause over it.)
    if keys.just_pressed(KeyCode::Escape) && matches!(*next, NextState::Unchanged) {
        info!("paused");
        next.set(Screen::Paused);
    }
}

/// A window that loses the focus it had pauses the round (a window that never had it, as on
/// a virtual display, does not).
fn pause_on_focus_lost(
    mut focus: MessageReader<WindowFocused>,
    mut had_focus: Local<bool>,
    screen: Res<State<Screen>>,
    mut next: ResMut<NextState<Screen>>,
) {
    for event in focus.read() {
        if !event.focused
            && *had_focus
            && *screen.get() == Screen::Playing
            && matches!(*next, NextState::Unchanged)
        {
            info!("paused: the window lost focus");
            next.set(Screen::Paused);
        }
        *had_focus = event.focused;
    }
}

fn paused_keys(
    keys: Res<ButtonInput<KeyCode>>,
    buttons: Res<ButtonInput<MouseButton>>,
    mut next: ResMut<NextState<Screen>>,
    mut exit: MessageWriter<AppExit>,
) {
    if keys.just_pressed(KeyCode::Escape) || buttons.just_pressed(MouseButton::Left) {
        next.set(Screen::Playing);
    } else if keys.just_pressed(KeyCode::KeyT) {
        next.set(Screen::Title);
    } else if keys.just_pressed(KeyCode::KeyQ) {
        info!("quit from the pause screen");
        exit.write(AppExit::Success);
    }
}

/// When the game-over screen appeared (real seconds): input is ignored for a moment, so that
/// a player still swiping does not skip it.
#[derive(Resource, Default)]
struct GameOverSince(f32);

/// How long the game-over screen ignores input, in seconds.
const GAME_OVER_HOLD: f32 = 1.0;

fn game_over_keys(
    keys: Res<ButtonInput<KeyCode>>,
    buttons: Res<ButtonInput<MouseButton>>,
    since: Res<GameOverSince>,
    time: Res<Time<Real>>,
    mut next: ResMut<NextState<Screen>>,
) {
    if time.elapsed_secs() - since.0 < GAME_OVER_HOLD {
        return;
    }
    if keys.just_pressed(KeyCode::KeyR) || buttons.just_pressed(MouseButton::Left) {
        next.set(Screen::Playing);
    } else if keys.any_just_pressed([KeyCode::KeyT, KeyCode::Escape]) {
        next.set(Screen::Title);
    }
}

/// Each round's result in the log (scripted runs read it).
fn log_rounds(mut rounds: MessageReader<RoundOver>) {
    for round in rounds.read() {
        info!(
            "round over: {}, score {}, cuts {}, longest combo {}, accuracy {:.0}%",
            round.mode.name(),
            round.score,
            round.cuts,
            round.longest_combo,
            100.0 * round.accuracy
        );
    }
}

fn log_on_exit(mut exits: MessageReader<AppExit>, game: Res<Game>) {
    if exits.read().next().is_some() {
        info!("final score: {}", game.score);
        info!("cuts: {}", game.cuts);
    }
}

// ---------------------------------------------------------------------------------------
// The pointer: where the blade is, whether it cuts, and the trail behind it.

struct PointerPlugin;

impl Plugin for PointerPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Trail>()
            .add_systems(Update, read_pointer);
    }
}

/// Recent pointer positions while cutting, newest last, with their age in seconds.
#[derive(Resource, Default)]
struct Trail(Vec<(Vec2, f32)>);

fn read_pointer(
    mut input: ResMut<BladeInput>,
    mut trail: ResMut<Trail>,
    buttons: Res<ButtonInput<MouseButton>>,
    cursor: Cursor,
    camera: Single<&GlobalTransform, With<Camera>>,
    screen: Res<State<Screen>>,
    time: Res<Time<Real>>,
) {
    // The camera is at the origin but for the screen shake: the blade follows the pointer on
    // the field, not on the shaking picture.
    if let Some(p) = cursor.world() {
        input.position = p - camera.translation().truncate();
    }
    input.held = buttons.pressed(MouseButton::Left) && *screen.get() == Screen::Playing;
    if input.held && buttons.just_pressed(MouseButton::Left) {
        input.new_stroke = true;
        trail.0.clear();
    }
    let dt = time.delta_secs();
    for point in &mut trail.0 {
        point.1 += dt;
    }
    trail.0.retain(|(_, age)| *age < TRAIL_SECONDS);
    if input.held {
        trail.0.push((input.position, 0.0));
    } else {
        trail.0.clear();
    }
}

// ---------------------------------------------------------------------------------------
// Drawing: every line and piece is a lyon stroke with round caps, coloured by its own
// material (fades and flashes change only the material, never the mesh). Strokes are
// tessellated once for each length, in steps 1% apart, and shared: a line or piece takes the
// stroke of its length's step, stretched to its exact length by its `Transform`. Raise and
// dive, which move a line's ends every frame, only change its transform (and now and then
// its stroke). Tessellating and uploading a new stroke for each of them every frame made
// frames slower than the plain unit square the game drew before (docs/benchmarks.md,
// "The game").

struct DrawingPlugin;

impl Plugin for DrawingPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<StrokeMeshes>()
            .add_systems(Startup, make_shared_meshes)
            .add_systems(
                Update,
                (
                    give_lines_a_look,
                    follow_colliders,
                    fade_pieces,
                    flash_leaving.run_if(in_state(Screen::Playing)),
                )
                    .chain(),
            );
    }
}

/// The drawn part of a line or piece: a child holding its stroke, placed by its transform
/// from the ends (in the line's frame) it was last placed for.
#[derive(Component)]
struct Look {
    a: Vec2,
    b: Vec2,
}

/// A line or piece that has its look.
#[derive(Component)]
struct Looked;

/// A stroke `width` wide with round caps and joins, in white: a material colours it.
fn round_stroke(width: f32) -> Stroke {
    Stroke {
        options: StrokeOptions::default()
            .with_line_width(width)
            .with_line_cap(LineCap::Round)
            .with_line_join(LineJoin::Round),
        color: Color::WHITE,
    }
}

/// A mesh of a lyon shape: its fill and stroke, tessellated, in the shape's vertex colours.
fn lyon_mesh(shape: &Shape) -> Mesh {
    use bevy::asset::RenderAssetUsages;
    use bevy::mesh::{Indices, PrimitiveTopology};
    use tess::{BuffersBuilder, FillTessellator, StrokeTessellator, VertexBuffers};
    let mut buffers: VertexBuffers<([f32; 3], [f32; 4]), u32> = VertexBuffers::new();
    if let Some(fill) = shape.fill {
        let color = fill.color.to_linear().to_f32_array();
        let vertex = |v: tess::FillVertex| ([v.position().x, v.position().y, 0.0], color);
        let mut output = BuffersBuilder::new(&mut buffers, vertex);
        FillTessellator::new()
            .tessellate_path(&shape.path, &fill.options, &mut output)
            .expect("lyon fills a closed path");
    }
    if let Some(stroke) = shape.stroke {
        let color = stroke.color.to_linear().to_f32_array();
        let vertex = |v: tess::StrokeVertex| ([v.position().x, v.position().y, 0.0], color);
        let mut output = BuffersBuilder::new(&mut buffers, vertex);
        StrokeTessellator::new()
            .tessellate_path(&shape.path, &stroke.options, &mut output)
            .expect("lyon strokes a path");
    }
    let (positions, colors): (Vec<_>, Vec<_>) = buffers.vertices.into_iter().unzip();
    Mesh::new(
        PrimitiveTopology::TriangleList,
        RenderAssetUsages::RENDER_WORLD,
    )
    .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, positions)
    .with_inserted_attribute(Mesh::ATTRIBUTE_COLOR, colors)
    .with_inserted_indices(Indices::U32(buffers.indices))
}

/// The round-capped strokes of lines and pieces, one for each length step (lengths `1.01^k`),
/// centred on the origin along x, tessellated when a line or piece first needs its step.
/// A stroke is stretched by at most 0.5% to a line's exact length, and its caps with it:
/// 0.015 px.
#[derive(Resource, Default)]
struct StrokeMeshes(HashMap<i32, (f32, Handle<Mesh>)>);

impl StrokeMeshes {
    /// The stroke for a line or piece from `a` to `b`, and its transform (in the line's frame).
    fn stroke(&mut self, meshes: &mut Assets<Mesh>, a: Vec2, b: Vec2) -> (Handle<Mesh>, Transform) {
        let length = a.distance(b).max(0.01);
        let step = (length.ln() / 1.01f32.ln()).round() as i32;
        let (step_length, mesh) = self.0.entry(step).or_insert_with(|| {
            let step_length = 1.01f32.powi(step);
            let half = Vec2::new(0.5 * step_length, 0.0);
            let stroke = ShapeBuilder::with(&shapes::Line(-half, half))
                .stroke(round_stroke(LINE_WIDTH))
                .build();
            (step_length, meshes.add(lyon_mesh(&stroke)))
        });
        let transform = Transform {
            translation: ((a + b) * 0.5).extend(0.0),
            rotation: Quat::from_rotation_z((b - a).to_angle()),
            scale: Vec3::new(length / *step_length, 1.0, 1.0),
        };
        (mesh.clone(), transform)
    }
}

/// The meshes the effects share, tessellated by lyon once: a spark (a short round-capped
/// stroke along x), and a flash's disc and ring at their largest. Each effect is placed,
/// turned and scaled by its `Transform` and coloured by its own material.
#[derive(Resource)]
struct SharedMeshes {
    spark: Handle<Mesh>,
    disc: Handle<Mesh>,
    ring: Handle<Mesh>,
}

fn make_shared_meshes(mut commands: Commands, mut meshes: ResMut<Assets<Mesh>>) {
    let half_spark = Vec2::new(0.5 * SPARK_LENGTH, 0.0);
    let spark = ShapeBuilder::with(&shapes::Line(-half_spark, half_spark))
        .stroke(round_stroke(SPARK_WIDTH))
        .build();
    let disc = ShapeBuilder::with(&shapes::Circle {
        radius: flash_radius(FLASH_DISC_GROWTH, 0.0),
        center: Vec2::ZERO,
    })
    .fill(Color::WHITE)
    .build();
    let ring = ShapeBuilder::with(&shapes::Circle {
        radius: flash_radius(FLASH_RING_GROWTH, 0.0),
        center: Vec2::ZERO,
    })
    .stroke(round_stroke(FLASH_RING_WIDTH))
    .build();
    commands.insert_resource(SharedMeshes {
        spark: meshes.add(lyon_mesh(&spark)),
        disc: meshes.add(lyon_mesh(&disc)),
        ring: meshes.add(lyon_mesh(&ring)),
    });
}

/// A material of `color` that can fade (alpha blended even while `color` is opaque).
fn fading(color: Color) -> ColorMaterial {
    ColorMaterial {
        color,
        alpha_mode: AlphaMode2d::Blend,
        ..default()
    }
}

fn give_lines_a_look(
    mut commands: Commands,
    mut materials: ResMut<Assets<ColorMaterial>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut strokes: ResMut<StrokeMeshes>,
    lines: Query<
        (Entity, &Collider, Option<&Line>, Option<&PieceColor>),
        (Or<(With<Line>, With<Piece>)>, Without<Looked>),
    >,
) {
    for (entity, collider, line, piece) in &lines {
        let Collider::Segment { a, b } = *collider else {
            continue;
        };
        // Lines are opaque; pieces fade.
        let material = match (line, piece) {
            (Some(line), _) => ColorMaterial::from_color(line.color),
            (None, Some(piece)) => fading(piece.0),
            (None, None) => ColorMaterial::from_color(TEXT),
        };
        let (stroke, transform) = strokes.stroke(&mut meshes, a, b);
        let look = commands
            .spawn((
                Look { a, b },
                Mesh2d(stroke),
                transform,
                MeshMaterial2d(materials.add(material)),
            ))
            .id();
        commands
            .entity(entity)
            .insert((Looked, Visibility::Visible))
            .add_child(look);
    }
}

/// Raise and dive move a line's ends: its look follows them.
fn follow_colliders(
    lines: Query<(&Collider, &Children), Changed<Collider>>,
    mut looks: Query<(&mut Look, &mut Mesh2d, &mut Transform)>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut strokes: ResMut<StrokeMeshes>,
) {
    for (collider, children) in &lines {
        let Collider::Segment { a, b } = *collider else {
            continue;
        };
        for &child in children {
            if let Ok((mut look, mut mesh, mut transform)) = looks.get_mut(child)
                && (look.a, look.b) != (a, b)
            {
                *look = Look { a, b };
                let stroke;
                (stroke, *transform) = strokes.stroke(&mut meshes, a, b);
                mesh.set_if_neq(Mesh2d(stroke));
            }
        }
    }
}

/// The material of a line's or piece's look.
fn look_material(
    children: &Children,
    looks: &Query<&MeshMaterial2d<ColorMaterial>, With<Look>>,
) -> Option<AssetId<ColorMaterial>> {
    children
        .iter()
        .find_map(|child| looks.get(child).ok())
        .map(|m| m.0.id())
}

fn fade_pieces(
    pieces: Query<(&Piece, &PieceColor, &Children)>,
    looks: Query<&MeshMaterial2d<ColorMaterial>, With<Look>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
) {
    for (piece, color, children) in &pieces {
        if let Some(id) = look_material(children, &looks)
            && let Some(mut material) = materials.get_mut(id)
        {
            let alpha = (piece.0 / PIECE_LIFETIME).clamp(0.0, 1.0);
            material.color = color.0.with_alpha(alpha);
        }
    }
}

/// A line about to leave the field uncut flashes (not the red ones: letting them go is right).
fn flash_leaving(
    time: Res<Time<Real>>,
    lines: Query<(&Line, &Transform, &Velocity, &Children)>,
    looks: Query<&MeshMaterial2d<ColorMaterial>, With<Look>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
) {
    let blink = (time.elapsed_secs() * 10.0).sin() > 0.0;
    for (line, transform, velocity, children) in &lines {
        if line.forbidden {
            continue;
        }
        let p = transform.translation.truncate();
        // Its centre within `LEAVING_FLASH` of an edge, or past it, on its way out.
        let near_edge = (p.abs() - FIELD).max_element() > -LEAVING_FLASH;
        let leaving = near_edge && p.dot(velocity.0) > 0.0;
        let color = if leaving && blink {
            Color::WHITE
        } else {
            line.color
        };
        if let Some(id) = look_material(children, &looks)
            && materials.get(id).is_some_and(|m| m.color != color)
            && let Some(mut material) = materials.get_mut(id)
        {
            material.color = color;
        }
    }
}

// ---------------------------------------------------------------------------------------
// Effects: the blade's trail, sparks and a flash at each cut, the score popping up, and a
// short slow motion with a screen shake on big combos.

struct EffectsPlugin;

impl Plugin for EffectsPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Drama>()
            .add_systems(Startup, spawn_trail)
            .add_systems(
                Update,
                (
                    draw_trail,
                    effects_of_cuts,
                    (move_sparks, grow_flashes, rise_popups),
                    slow_motion_and_shake,
                )
                    .chain(),
            );
    }
}

/// The blade's trail: one lyon shape, filled again each frame while the blade cuts.
#[derive(Component)]
struct TrailLook;

fn spawn_trail(mut commands: Commands, mut materials: ResMut<Assets<ColorMaterial>>) {
    commands.spawn((
        TrailLook,
        trail_shape(trail_outline(&[(Vec2::ZERO, 0.0)])),
        MeshMaterial2d(materials.add(fading(TRAIL_COLOR))),
        Transform::from_xyz(0.0, 0.0, 5.0),
        Visibility::Hidden,
    ));
}

/// The trail's shape: its outline, filled (where it folds over itself too).
fn trail_shape(outline: Vec<Vec2>) -> Shape {
    ShapeBuilder::with(&shapes::Polygon {
        points: outline,
        closed: true,
    })
    .fill(Fill {
        options: FillOptions::non_zero(),
        color: Color::WHITE,
    })
    .build()
}

/// The trail follows the pointer while the blade cuts: one path, tessellated once a frame.
fn draw_trail(trail: Res<Trail>, mut look: Query<(&mut Shape, &mut Visibility), With<TrailLook>>) {
    let Ok((mut shape, mut visibility)) = look.single_mut() else {
        return;
    };
    if trail.0.is_empty() {
        visibility.set_if_neq(Visibility::Hidden);
        return;
    }
    visibility.set_if_neq(Visibility::Visible);
    *shape = trail_shape(trail_outline(&trail.0));
}

/// The outline of the blade's trail through `points` (oldest first, with their ages in
/// seconds): a ribbon `TRAIL_WIDTH` wide at the newest point with a round head, thinning to
/// nothing as the points age towards `TRAIL_SECONDS`. Empty without points.
fn trail_outline(points: &[(Vec2, f32)]) -> Vec<Vec2> {
    /// Points on the head's half circle.
    const HEAD_STEPS: usize = 8;
    // A point within half a pixel of the next newer one adds nothing but a wobbly side.
    let mut kept: Vec<(Vec2, f32)> = Vec::with_capacity(points.len());
    for &(p, age) in points.iter().rev() {
        if kept
            .last()
            .is_none_or(|(q, _)| q.distance_squared(p) > 0.25)
        {
            kept.push((p, age));
        }
    }
    kept.reverse();
    let Some(&(head, _)) = kept.last() else {
        return Vec::new();
    };
    let radius = 0.5 * TRAIL_WIDTH;
    let n = kept.len();
    // Along the trail, towards the head, at point `i`.
    let way =
        |i: usize| (kept[(i + 1).min(n - 1)].0 - kept[i.saturating_sub(1)].0).normalize_or(Vec2::X);
    let mut left = Vec::with_capacity(2 * n + HEAD_STEPS);
    let mut right = Vec::with_capacity(n);
    for (i, &(p, age)) in kept[..n - 1].iter().enumerate() {
        let side = way(i).perp() * radius * (1.0 - age / TRAIL_SECONDS).clamp(0.0, 1.0);
        left.push(p + side);
        right.push(p - side);
    }
    // Round the head from the left side to the right (all the way round for a lone point).
    let forward = way(n - 1);
    let turn = if n == 1 { TAU } else { PI };
    for k in 0..=HEAD_STEPS {
        let angle = turn * k as f32 / HEAD_STEPS as f32;
        let (sin, cos) = angle.sin_cos();
        left.push(head + (forward.perp() * cos + forward * sin) * radius);
    }
    left.extend(right.into_iter().rev());
    left
}

/// A spark flying from a cut.
#[derive(Component)]
struct Spark {
    velocity: Vec2,
    life: f32,
}

/// A flash at a cut point, growing and fading: seconds left, and how much it grows (its
/// radius goes from `FLASH_RADIUS` to `1 + growth` times that).
#[derive(Component)]
struct Flash {
    left: f32,
    growth: f32,
}

/// A flash's radius, `left` seconds before it ends.
fn flash_radius(growth: f32, left: f32) -> f32 {
    FLASH_RADIUS * (1.0 + growth * (1.0 - left / FLASH_LIFETIME))
}

/// The points of a cut, rising from where it was.
#[derive(Component)]
struct Popup(f32);

/// Slow motion and screen shake left, in real seconds.
#[derive(Resource, Default)]
struct Drama {
    slow: f32,
    shake: f32,
    /// A small random stream for the shake (not the game's: effects never change the lines).
    noise: u32,
}

fn effects_of_cuts(
    mut commands: Commands,
    mut cuts: MessageReader<Cut>,
    mut drama: ResMut<Drama>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    shared: Res<SharedMeshes>,
) {
    for cut in cuts.read() {
        let hot = if cut.forbidden {
            Color::srgb(1.0, 0.25, 0.2)
        } else {
            Color::srgb(1.0, 0.92, 0.6)
        };
        // A disc and a ring that outgrows it; their meshes are at their largest.
        for (mesh, growth, z) in [
            (&shared.disc, FLASH_DISC_GROWTH, 4.5),
            (&shared.ring, FLASH_RING_GROWTH, 4.6),
        ] {
            commands.spawn((
                Flash {
                    left: FLASH_LIFETIME,
                    growth,
                },
                Mesh2d(mesh.clone()),
                MeshMaterial2d(materials.add(fading(hot))),
                Transform::from_translation(cut.point.extend(z)).with_scale(Vec3::splat(
                    flash_radius(growth, FLASH_LIFETIME) / flash_radius(growth, 0.0),
                )),
            ));
        }
        // Sparks along the cut: thrown on the blade's way and back along the line's colour.
        let way = cut.blade_velocity.normalize_or(Vec2::Y);
        let count = 10 + 3 * cut.combo.min(6) as usize;
        for k in 0..count {
            let spread = (k as f32 / count as f32 - 0.5) * 1.6;
            let forward = k % 3 != 0;
            let direction = Vec2::from_angle(spread).rotate(if forward { way } else { -way });
            let speed = if forward { 320.0 } else { 160.0 } + 30.0 * (k % 4) as f32;
            let color = if k % 2 == 0 { hot } else { cut.color };
            commands.spawn((
                Spark {
                    velocity: direction * speed,
                    life: SPARK_LIFETIME,
                },
                Mesh2d(shared.spark.clone()),
                MeshMaterial2d(materials.add(fading(color))),
                Transform::from_translation(cut.point.extend(4.0))
                    .with_rotation(Quat::from_rotation_z(direction.to_angle())),
            ));
        }
        // The points, where the cut was.
        let (text, color) = if cut.forbidden {
            (format!("{}", cut.points), Color::srgb(1.0, 0.3, 0.3))
        } else if cut.combo >= BIG_COMBO {
            (format!("+{}  combo x{}", cut.points, cut.combo), hot)
        } else {
            (format!("+{}", cut.points), TEXT)
        };
        commands.spawn((
            Popup(POPUP_LIFETIME),
            Text2d::new(text),
            TextFont {
                font_size: FontSize::Px(if cut.combo >= BIG_COMBO { 30.0 } else { 22.0 }),
                ..default()
            },
            TextColor(color),
            Transform::from_translation((cut.point + Vec2::new(0.0, 18.0)).extend(6.0)),
        ));
        if cut.combo >= BIG_COMBO {
            drama.slow = SLOW_MOTION_SECONDS;
            drama.shake = SHAKE_SECONDS;
        }
    }
}

fn move_sparks(
    mut commands: Commands,
    time: Res<Time>,
    mut sparks: Query<(
        Entity,
        &mut Spark,
        &mut Transform,
        &MeshMaterial2d<ColorMaterial>,
    )>,
    mut materials: ResMut<Assets<ColorMaterial>>,
) {
    let dt = time.delta_secs();
    for (entity, mut spark, mut transform, material) in &mut sparks {
        spark.life -= dt;
        if spark.life <= 0.0 {
            commands.entity(entity).despawn();
            continue;
        }
        transform.translation += (spark.velocity * dt).extend(0.0);
        spark.velocity *= (-SPARK_DRAG * dt).exp();
        if let Some(mut material) = materials.get_mut(&material.0) {
            material.color.set_alpha(spark.life / SPARK_LIFETIME);
        }
    }
}

fn grow_flashes(
    mut commands: Commands,
    time: Res<Time>,
    mut flashes: Query<(
        Entity,
        &mut Flash,
        &mut Transform,
        &MeshMaterial2d<ColorMaterial>,
    )>,
    mut materials: ResMut<Assets<ColorMaterial>>,
) {
    for (entity, mut flash, mut transform, material) in &mut flashes {
        flash.left -= time.delta_secs();
        if flash.left <= 0.0 {
            commands.entity(entity).despawn();
            continue;
        }
        transform.scale =
            Vec3::splat(flash_radius(flash.growth, flash.left) / flash_radius(flash.growth, 0.0));
        if let Some(mut material) = materials.get_mut(&material.0) {
            material.color.set_alpha(0.9 * flash.left / FLASH_LIFETIME);
        }
    }
}

fn rise_popups(
    mut commands: Commands,
    time: Res<Time>,
    mut popups: Query<(Entity, &mut Popup, &mut Transform, &mut TextColor)>,
) {
    for (entity, mut popup, mut transform, mut color) in &mut popups {
        popup.0 -= time.delta_secs();
        if popup.0 <= 0.0 {
            commands.entity(entity).despawn();
            continue;
        }
        transform.translation.y += 60.0 * time.delta_secs();
        color.0.set_alpha((popup.0 / POPUP_LIFETIME).min(1.0));
    }
}

/// Big combos: time runs slower for a moment and the camera shakes, both easing out.
fn slow_motion_and_shake(
    real: Res<Time<Real>>,
    mut virtual_time: ResMut<Time<Virtual>>,
    mut drama: ResMut<Drama>,
    mut camera: Query<&mut Transform, With<Camera2d>>,
    screen: Res<State<Screen>>,
) {
    let playing = *screen.get() == Screen::Playing;
    // (Counted in play only: a pause keeps what is left of them.)
    let dt = if playing { real.delta_secs() } else { 0.0 };
    drama.slow = (drama.slow - dt).max(0.0);
    drama.shake = (drama.shake - dt).max(0.0);
    let speed = if playing && drama.slow > 0.0 {
        SLOW_MOTION_SPEED
    } else {
        1.0
    };
    if virtual_time.relative_speed() != speed {
        virtual_time.set_relative_speed(speed);
    }
    let Ok(mut camera) = camera.single_mut() else {
        return;
    };
    let offset = if playing && drama.shake > 0.0 {
        // xorshift32 for the jitter.
        let mut noise = drama.noise.max(1);
        let mut next = || {
            noise ^= noise << 13;
            noise ^= noise >> 17;
            noise ^= noise << 5;
            (noise as f32 / u32::MAX as f32) * 2.0 - 1.0
        };
        let jitter = Vec2::new(next(), next());
        drama.noise = noise;
        jitter * SHAKE_PIXELS * (drama.shake / SHAKE_SECONDS)
    } else {
        Vec2::ZERO
    };
    camera.translation = offset.extend(camera.translation.z);
}

//! `cut_the_line`'s rules in a headless App: a scripted fast swipe through a moving line cuts
//! it once at the right place and the pieces fly on the blade's way; score, combos, misses
//! and red lines; the screens (a round ends, a pause stops everything, a new round starts
//! afresh); the two modes; the best-score file, and a best kept when the game quits mid-round.

#[path = "../examples/cut_the_line/rules.rs"]
#[expect(
    dead_code,
    reason = "the example's rules module also serves its drawing code"
)]
mod rules;

#[path = "../examples/cut_the_line/best.rs"]
#[expect(
    dead_code,
    reason = "the game finds the data directory; the tests give their own paths"
)]
mod best;

#[allow(dead_code, reason = "each test binary uses some of the shared helpers")]
mod common;

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy_sweep::prelude::*;
use common::fixed_tick_app;
use rules::{
    BladeInput, COMBO_BONUS_SECONDS, Cut, FORBIDDEN_PENALTY_SECONDS, Game, Line, MAX_PUSH, Mode,
    PIECE_LIFETIME, Piece, ROUND_SECONDS, RoundOver, RulesPlugin, Screen, line_layers,
};

#[derive(Resource, Default)]
struct Seen {
    cuts: Vec<Cut>,
    rounds: Vec<RoundOver>,
}

/// The rules in play, in `mode`, without waves (each test places its lines).
fn app_in(mode: Mode) -> App {
    let mut app = fixed_tick_app((
        MinimalPlugins,
        StatesPlugin,
        SweepPlugin::default(),
        RulesPlugin { waves: false },
    ));
    app.init_resource::<Seen>()
        .insert_resource(mode)
        .add_systems(
            FixedPostUpdate,
            (|mut cuts: MessageReader<Cut>, mut seen: ResMut<Seen>| {
                seen.cuts.extend(cuts.read().copied());
            })
            .after(rules::cut_lines),
        )
        .add_systems(
            Last,
            |mut rounds: MessageReader<RoundOver>, mut seen: ResMut<Seen>| {
                seen.rounds.extend(rounds.read().copied());
            },
        );
    app.update();
    go_to(&mut app, Screen::Playing);
    app
}

fn app() -> App {
    app_in(Mode::Classic)
}

fn go_to(app: &mut App, screen: Screen) {
    app.world_mut()
        .resource_mut::<NextState<Screen>>()
        .set(screen);
    app.update();
    assert_eq!(*app.world().resource::<State<Screen>>().get(), screen);
}

fn line(app: &mut App, a: Vec2, b: Vec2, velocity: Vec2, forbidden: bool) -> Entity {
    let center = a.midpoint(b);
    app.world_mut()
        .spawn((
            Line {
                forbidden,
                color: Color::WHITE,
                stretch: [Vec2::ZERO; 2],
            },
            Collider::segment(a - center, b - center),
            line_layers(),
            Transform::from_translation(center.extend(0.0)),
            Velocity(velocity),
            AngularVelocity(0.0),
        ))
        .id()
}

/// A still vertical line 100 px long centred on `(x, 0)`.
fn still_line(app: &mut App, x: f32, forbidden: bool) -> Entity {
    line(
        app,
        Vec2::new(x, -50.0),
        Vec2::new(x, 50.0),
        Vec2::ZERO,
        forbidden,
    )
}

/// A line that leaves the field uncut within ten ticks.
fn let_one_leave(app: &mut App) {
    line(
        app,
        Vec2::new(600.0, -50.0),
        Vec2::new(600.0, 50.0),
        Vec2::new(4000.0, 0.0),
        false,
    );
    for _ in 0..10 {
        app.update();
    }
}

fn blade(app: &mut App, x: f32, y: f32, held: bool) {
    *app.world_mut().resource_mut::<BladeInput>() = BladeInput {
        position: Vec2::new(x, y),
        held,
        new_stroke: false,
    };
}

/// A swipe from `(x0, y)` to `(x1, y)`: pressed at the start, moved in one tick, released.
fn swipe(app: &mut App, y: f32, x0: f32, x1: f32) {
    blade(app, x0, y, true);
    app.update();
    blade(app, x1, y, true);
    app.update();
    blade(app, x1, y, false);
    app.update();
}

/// Every piece: its ends in world space and its velocity.
fn pieces(app: &mut App) -> Vec<(Vec2, Vec2, Vec2)> {
    let mut query = app
        .world_mut()
        .query_filtered::<(&Collider, &Transform, &Velocity), With<Piece>>();
    query
        .iter(app.world())
        .filter_map(|(collider, transform, velocity)| match *collider {
            Collider::Segment { a, b } => Some((
                transform.transform_point(a.extend(0.0)).truncate(),
                transform.transform_point(b.extend(0.0)).truncate(),
                velocity.0,
            )),
            _ => None,
        })
        .collect()
}

fn game(app: &App) -> Game {
    app.world().resource::<Game>().clone()
}

fn screen(app: &App) -> Screen {
    *app.world().resource::<State<Screen>>().get()
}

#[test]
fn a_fast_swipe_cuts_a_moving_line_once_where_it_crossed() {
    let mut app = app();
    let lives = game(&app).lives;
    let target = line(
        &mut app,
        Vec2::new(0.0, -100.0),
        Vec2::new(0.0, 100.0),
        Vec2::new(128.0, 0.0),
        false,
    );
    // Press far left, then swipe 800 px to the right in one tick (51,200 px/s).
    blade(&mut app, -400.0, 30.0, true);
    app.update();
    assert!(
        app.world().resource::<Seen>().cuts.is_empty(),
        "pressing is not a cut"
    );
    blade(&mut app, 400.0, 30.0, true);
    app.update();
    let cuts = app.world().resource::<Seen>().cuts.clone();
    assert_eq!(cuts.len(), 1, "{cuts:?}");
    // The line moves 2 px per tick from where it was spawned: x = 2 at the start of the
    // swipe tick, 4 at its end; the blade, at -400 + 800t, met it at t = 402/798.
    let t = 402.0 / 798.0;
    let x = 2.0 + 2.0 * t;
    assert!(
        cuts[0].point.distance(Vec2::new(x, 30.0)) < 1e-3,
        "{:?}",
        cuts[0].point
    );
    assert_eq!((cuts[0].points, cuts[0].combo), (10, 1));
    // The blade's velocity relative to the line: 800 - 2 px in a tick of 1/64 s.
    assert!(
        (cuts[0].blade_velocity - Vec2::new(798.0 * 64.0, 0.0)).length() < 1.0,
        "{:?}",
        cuts[0].blade_velocity
    );
    assert!(
        app.world().get_entity(target).is_err(),
        "the cut line is gone"
    );
    let g = game(&app);
    assert_eq!((g.score, g.cuts, g.combo, g.lives), (10, 1, 1, lives));
    // Two pieces, split at y = 30: 130 and 70 px long, flying on to the right faster than
    // the line did (the blade pushed them), one each side of the cut.
    let mut parts = pieces(&mut app);
    parts.sort_by(|p, q| p.0.distance(p.1).total_cmp(&q.0.distance(q.1)));
    assert_eq!(parts.len(), 2);
    let lengths = [
        parts[0].0.distance(parts[0].1),
        parts[1].0.distance(parts[1].1),
    ];
    assert!(
        (lengths[0] - 70.0).abs() < 1e-2 && (lengths[1] - 130.0).abs() < 1e-2,
        "{lengths:?}"
    );
    // (The push is a quarter of the blade's speed, at most `MAX_PUSH`: here the most.)
    for (.., velocity) in &parts {
        assert!(
            velocity.x > 128.0 + MAX_PUSH - 41.0 && velocity.x < 128.0 + MAX_PUSH + 41.0,
            "pushed by the blade: {velocity}"
        );
    }
    assert!(parts[0].2.y > 0.0 && parts[1].2.y < 0.0, "apart: {parts:?}");
    // Swiping back through the upper piece continues the combo: 20 points.
    blade(&mut app, -400.0, 100.0, true);
    app.update();
    let cuts = app.world().resource::<Seen>().cuts.clone();
    assert_eq!(cuts.len(), 2, "{cuts:?}");
    assert_eq!((cuts[1].points, cuts[1].combo), (20, 2));
    let g = game(&app);
    assert_eq!((g.score, g.longest_combo), (30, 2));
    assert_eq!(g.cuts, 1, "a piece cut again is not a line more");
    // Its pieces keep its time (a tick has passed since the first cut), not a fresh one.
    let mut lives = app.world_mut().query::<&Piece>();
    let left: Vec<f32> = lives.iter(app.world()).map(|p| p.0).collect();
    assert_eq!(
        left.len(),
        3,
        "the lower piece and the upper one's two: {left:?}"
    );
    assert!(
        left.iter()
            .all(|&l| (l - (PIECE_LIFETIME - 1.0 / 64.0)).abs() < 1e-6),
        "{left:?}"
    );
    // Releasing and moving back across does not cut.
    blade(&mut app, 400.0, 100.0, false);
    app.update();
    assert_eq!(app.world().resource::<Seen>().cuts.len(), 2);
}

/// Released and pressed again within one frame, the button is held in both ticks: the new
/// stroke still starts where the pointer is, and the jump from the last stroke's end across
/// a line cuts nothing.
#[test]
fn a_stroke_pressed_again_at_once_does_not_cut_on_the_jump() {
    let mut app = app();
    still_line(&mut app, 0.0, false);
    // A stroke left of the line, ended at x = -100 with the button held.
    blade(&mut app, -150.0, 0.0, true);
    app.update();
    blade(&mut app, -100.0, 0.0, true);
    app.update();
    // Released and pressed again at x = 100, beyond the line, in the same frame.
    *app.world_mut().resource_mut::<BladeInput>() = BladeInput {
        position: Vec2::new(100.0, 0.0),
        held: true,
        new_stroke: true,
    };
    app.update();
    blade(&mut app, 150.0, 0.0, true);
    app.update();
    assert_eq!(game(&app).cuts, 0, "the jump across the line is not a cut");
    // Without the new stroke, the same move is a swipe through the line.
    blade(&mut app, -100.0, 0.0, true);
    app.update();
    assert_eq!(game(&app).cuts, 1);
}

#[test]
fn uncut_lines_that_leave_are_misses_and_forbidden_cuts_cost_a_life() {
    let mut app = app();
    let lives = game(&app).lives;
    let_one_leave(&mut app);
    let g = game(&app);
    assert_eq!((g.misses, g.lives), (1, lives - 1));
    still_line(&mut app, 0.0, true);
    swipe(&mut app, 0.0, -100.0, 100.0);
    let g = game(&app);
    // A red cut costs a life and 25 points (the score stops at zero), and is no line cut.
    assert_eq!((g.cuts, g.red_cuts, g.score, g.lives), (0, 1, 0, lives - 2));
    assert_eq!(app.world().resource::<Seen>().cuts[0].points, -25);
    assert_eq!(g.accuracy(), 0.0, "a miss and a red cut");
    // Its pieces cannot be cut again.
    let mut red = app
        .world_mut()
        .query_filtered::<Has<ColliderDisabled>, With<Piece>>();
    let disabled: Vec<bool> = red.iter(app.world()).collect();
    assert_eq!(disabled, [true, true]);
}

/// Lives run out: the round ends with its numbers, the best is kept, and a new round starts
/// afresh from the game-over screen.
#[test]
fn a_round_ends_when_the_lives_run_out_and_the_next_starts_afresh() {
    let mut app = app();
    still_line(&mut app, 0.0, false);
    swipe(&mut app, 0.0, -100.0, 100.0);
    assert_eq!(game(&app).score, 10);
    // A line drifting up the middle when the round ends.
    let drifting = line(
        &mut app,
        Vec2::new(-300.0, -50.0),
        Vec2::new(-300.0, 50.0),
        Vec2::new(0.0, 64.0),
        false,
    );
    // Every other life goes to lines that leave uncut.
    let lives = game(&app).lives;
    for k in 0..lives {
        line(
            &mut app,
            Vec2::new(600.0, -50.0 + k as f32),
            Vec2::new(600.0, 50.0),
            Vec2::new(4000.0, 0.0),
            false,
        );
        for _ in 0..8 {
            app.update();
        }
    }
    app.update();
    assert_eq!(screen(&app), Screen::GameOver);
    let rounds = app.world().resource::<Seen>().rounds.clone();
    assert_eq!(rounds.len(), 1, "{rounds:?}");
    let round = rounds[0];
    assert_eq!(
        (round.mode, round.score, round.cuts, round.longest_combo),
        (Mode::Classic, 10, 1, 1)
    );
    assert!(
        (round.accuracy - 1.0 / (1.0 + lives as f32)).abs() < 1e-6,
        "{round:?}"
    );
    // The field stops where the round ended, behind the game-over screen.
    let y = |app: &App| {
        app.world()
            .get::<Transform>(drifting)
            .unwrap()
            .translation
            .y
    };
    let frozen_at = y(&app);
    for _ in 0..3 {
        app.update();
    }
    assert_eq!(y(&app), frozen_at);
    // Nothing is cut or scored on the game-over screen.
    let still = still_line(&mut app, 0.0, false);
    swipe(&mut app, 0.0, -100.0, 100.0);
    assert_eq!((game(&app).score, game(&app).cuts), (10, 1));
    assert!(app.world().resource::<Seen>().cuts.len() == 1);
    // Play again: the field is cleared, the score reset, the best kept.
    go_to(&mut app, Screen::Playing);
    let g = game(&app);
    assert_eq!((g.score, g.cuts, g.misses, g.best), (0, 0, 0, 10));
    assert!(g.lives > 0);
    assert!(
        app.world().get_entity(still).is_err(),
        "the field is cleared"
    );
}

/// The waves as shipped.
fn shipped_waves() -> rules::WaveBook {
    ron::from_str(include_str!("../assets/cut_the_line/waves.ron")).expect("waves.ron parses")
}

/// Every line in play after a few seconds of waves from `seed`, nobody cutting: where each
/// is and how it moves, sorted.
fn lines_from(seed: u64) -> Vec<[f32; 4]> {
    let mut app = fixed_tick_app((
        MinimalPlugins,
        StatesPlugin,
        SweepPlugin::default(),
        RulesPlugin { waves: true },
    ));
    app.insert_resource(shipped_waves());
    app.world_mut().resource_mut::<Game>().seed = seed;
    app.update();
    go_to(&mut app, Screen::Playing);
    for _ in 0..400 {
        app.update();
    }
    let mut query = app
        .world_mut()
        .query_filtered::<(&Transform, &Velocity), With<Line>>();
    let mut lines: Vec<[f32; 4]> = query
        .iter(app.world())
        .map(|(t, v)| [t.translation.x, t.translation.y, v.0.x, v.0.y])
        .collect();
    lines.sort_by(|a, b| a.partial_cmp(b).unwrap());
    lines
}

/// `CUT_THE_LINE_SEED` gives the game its seed: the same seed, the same lines, where they
/// are and how they move; another seed, other lines.
#[test]
fn a_seed_makes_the_waves_repeatable() {
    let (first, again, other) = (lines_from(7), lines_from(7), lines_from(8));
    assert!(first.len() >= 3, "{first:?}");
    assert_eq!(first, again);
    assert_ne!(first, other);
}

/// A pause stops the clock: lines stay where they are and the blade cuts nothing; going on
/// picks up where it was, with the score and lines as they were.
#[test]
fn a_pause_stops_everything_and_going_on_resumes_the_round() {
    let mut app = app();
    let moving = line(
        &mut app,
        Vec2::new(0.0, -50.0),
        Vec2::new(0.0, 50.0),
        Vec2::new(64.0, 0.0),
        false,
    );
    app.update();
    let x = |app: &App| app.world().get::<Transform>(moving).unwrap().translation.x;
    let before = x(&app);
    go_to(&mut app, Screen::Paused);
    let paused_at = x(&app);
    for _ in 0..5 {
        app.update();
    }
    assert_eq!(x(&app), paused_at, "nothing moves while paused");
    swipe(&mut app, 0.0, -100.0, 100.0);
    assert_eq!(game(&app).cuts, 0, "no cut while paused");
    go_to(&mut app, Screen::Playing);
    app.update();
    assert!(x(&app) > paused_at && paused_at >= before, "moving again");
    swipe(&mut app, 0.0, -100.0, 100.0);
    assert_eq!(game(&app).cuts, 1);
}

/// Sixty seconds: the clock runs down with the game's time, a combo of three or more adds a
/// second per cut, a red line takes five, misses cost nothing, and the round ends at zero.
#[test]
fn sixty_seconds_runs_on_a_clock_that_combos_extend() {
    let mut app = app_in(Mode::SixtySeconds);
    let lives = game(&app).lives;
    // (Entering play ran one tick.)
    let start = game(&app).time_left;
    assert!((ROUND_SECONDS - start - 1.0 / 64.0).abs() < 1e-5, "{start}");
    for _ in 0..64 {
        app.update();
    }
    let left = game(&app).time_left;
    assert!((left - (start - 1.0)).abs() < 1e-3, "{left}");
    // Four lines in a row, cut in one held swipe: combos 1, 2, 3, 4.
    for k in 0..4 {
        still_line(&mut app, -300.0 + 200.0 * k as f32, false);
    }
    let before = game(&app).time_left;
    swipe(&mut app, 0.0, -400.0, 400.0);
    let g = game(&app);
    assert_eq!((g.cuts, g.score, g.longest_combo), (4, 100, 4));
    // Two cuts of the combo were third and fourth; three ticks passed.
    let expected = before + 2.0 * COMBO_BONUS_SECONDS - 3.0 / 64.0;
    assert!(
        (g.time_left - expected).abs() < 1e-3,
        "{} vs {expected}",
        g.time_left
    );
    // A red line costs seconds, not a life; a miss costs nothing.
    still_line(&mut app, 0.0, true);
    let before = game(&app).time_left;
    swipe(&mut app, 0.0, -100.0, 100.0);
    let g = game(&app);
    assert!(
        (g.time_left - (before - FORBIDDEN_PENALTY_SECONDS - 3.0 / 64.0)).abs() < 1e-3,
        "{}",
        g.time_left
    );
    let_one_leave(&mut app);
    let g = game(&app);
    assert_eq!((g.misses, g.lives), (1, lives));
    // The clock runs out: game over, once, even with several ticks in a frame (the screen
    // changes only at the next frame).
    app.insert_resource(bevy::time::TimeUpdateStrategy::FixedTimesteps(3));
    app.world_mut().resource_mut::<Game>().time_left = 0.1;
    for _ in 0..10 {
        app.update();
    }
    assert_eq!(screen(&app), Screen::GameOver);
    let rounds = app.world().resource::<Seen>().rounds.clone();
    assert_eq!(rounds.len(), 1);
    assert_eq!((rounds[0].mode, rounds[0].score), (Mode::SixtySeconds, 75));
}

/// The best-score file: missing means zero (quietly), a corrupt or unreadable file means
/// zero with a warning, a save reads back, and a save that cannot be written is an error to
/// report, not a panic.
#[test]
fn best_scores_survive_a_missing_a_corrupt_and_an_unwritable_file() {
    let folder = std::env::temp_dir().join(format!("cut_the_line_best_{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&folder);
    let path = folder.join("best_scores.ron");
    let (scores, warning) = best::load(&path);
    assert_eq!((scores, warning), (best::BestScores::default(), None));

    let mut scores = best::BestScores::default();
    assert!(scores.record(Mode::Classic, 120));
    assert!(!scores.record(Mode::Classic, 80), "not a new best");
    assert!(scores.record(Mode::SixtySeconds, 300));
    best::save(&path, &scores).expect("a writable folder");
    assert_eq!(best::load(&path), (scores, None));
    assert_eq!(
        (scores.of(Mode::Classic), scores.of(Mode::SixtySeconds)),
        (120, 300)
    );

    std::fs::write(&path, "(classic: \"lots\")").unwrap();
    let (scores, warning) = best::load(&path);
    assert_eq!(scores, best::BestScores::default());
    assert!(warning.is_some_and(|w| w.contains("do not parse")));

    // A folder where the file should be: neither readable nor writable as a file.
    std::fs::remove_file(&path).unwrap();
    std::fs::create_dir(&path).unwrap();
    let (scores, warning) = best::load(&path);
    assert_eq!(scores, best::BestScores::default());
    assert!(warning.is_some_and(|w| w.contains("cannot read")));
    let error = best::save(&path, &best::BestScores::default()).unwrap_err();
    assert!(error.contains("cannot save"), "{error}");
    std::fs::remove_dir_all(&folder).unwrap();
}

/// Quitting in the middle of a round (the window closed, `Ctrl-C`, `Q` on the pause screen:
/// each is an `AppExit`), in play or paused, keeps a new best score; quitting from the title
/// saves nothing.
#[test]
fn quitting_mid_round_keeps_a_new_best() {
    let folder = std::env::temp_dir().join(format!("cut_the_line_quit_{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&folder);
    let path = folder.join("best_scores.ron");
    let quit_with = |mode: Mode, screen: Screen, score: u32| {
        let mut app = app_in(mode);
        let mut scores = best::BestScores::default();
        scores.record(Mode::Classic, 50);
        app.insert_resource(best::Best {
            scores,
            path: Some(path.clone()),
        })
        .add_plugins(best::BestScorePlugin);
        app.update();
        if screen != Screen::Playing {
            go_to(&mut app, screen);
        }
        app.world_mut().resource_mut::<Game>().score = score;
        app.world_mut().write_message(AppExit::Success);
        app.update();
        app.world().resource::<best::Best>().scores
    };

    // In play, above the best: kept, in the file too.
    let scores = quit_with(Mode::Classic, Screen::Playing, 120);
    assert_eq!(scores.of(Mode::Classic), 120);
    assert_eq!(best::load(&path), (scores, None));
    // Paused, in the other mode.
    let scores = quit_with(Mode::SixtySeconds, Screen::Paused, 70);
    assert_eq!(scores.of(Mode::SixtySeconds), 70);
    assert_eq!(best::load(&path).0.of(Mode::SixtySeconds), 70);
    // Below the best: nothing changes.
    std::fs::remove_file(&path).unwrap();
    let scores = quit_with(Mode::Classic, Screen::Playing, 30);
    assert_eq!(scores.of(Mode::Classic), 50);
    assert!(!path.exists(), "nothing to save");
    // From the title, a score left over from an earlier round is not a round in progress.
    let scores = quit_with(Mode::Classic, Screen::Title, 400);
    assert_eq!(scores.of(Mode::Classic), 50);
    assert!(!path.exists(), "nothing to save");
    std::fs::remove_dir_all(&folder).unwrap();
}

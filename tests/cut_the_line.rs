//! `cut_the_line`'s rules in a headless App: a scripted fast swipe through a moving line cuts
//! it once at the right place, score and combo update, pieces appear, a line that leaves
//! uncut is a miss, a forbidden line costs a life.

#[path = "../examples/cut_the_line/rules.rs"]
#[expect(
    dead_code,
    reason = "the example's rules module also serves its drawing code"
)]
mod rules;

#[allow(dead_code, reason = "each test binary uses some of the shared helpers")]
mod common;

use bevy::prelude::*;
use bevy_sweep::prelude::*;
use common::fixed_tick_app;
use rules::{BLADE_LAYER, BladeInput, Cut, Game, LINE_LAYER, Line, RulesPlugin};

#[derive(Resource, Default)]
struct Cuts(Vec<Cut>);

fn app() -> App {
    let mut app = fixed_tick_app((
        MinimalPlugins,
        SweepPlugin::default(),
        RulesPlugin { waves: false },
    ));
    app.init_resource::<Cuts>().add_systems(
        FixedPostUpdate,
        (|mut cuts: MessageReader<Cut>, mut seen: ResMut<Cuts>| {
            seen.0.extend(cuts.read().copied());
        })
        .after(rules::cut_lines),
    );
    app.update();
    app.update(); // the first tick sets the game up
    app
}

fn line(app: &mut App, a: Vec2, b: Vec2, velocity: Vec2, forbidden: bool) -> Entity {
    let center = a.midpoint(b);
    app.world_mut()
        .spawn((
            Line {
                forbidden,
                piece: false,
                color: Color::WHITE,
                stretch: [Vec2::ZERO; 2],
            },
            Collider::segment(a - center, b - center),
            CollisionLayers::new(LINE_LAYER, BLADE_LAYER),
            Transform::from_translation(center.extend(0.0)),
            Velocity(velocity),
            AngularVelocity(0.0),
        ))
        .id()
}

fn blade(app: &mut App, x: f32, y: f32, held: bool) {
    *app.world_mut().resource_mut::<BladeInput>() = BladeInput {
        position: Vec2::new(x, y),
        held,
    };
}

fn pieces(app: &mut App) -> Vec<(Vec2, Vec2)> {
    let mut query = app.world_mut().query::<(&Line, &Collider, &Transform)>();
    query
        .iter(app.world())
        .filter(|(line, _, _)| line.piece)
        .filter_map(|(_, collider, transform)| match *collider {
            Collider::Segment { a, b } => Some((
                transform.transform_point(a.extend(0.0)).truncate(),
                transform.transform_point(b.extend(0.0)).truncate(),
            )),
            _ => None,
        })
        .collect()
}

#[test]
fn a_fast_swipe_cuts_a_moving_line_once_where_it_crossed() {
    let mut app = app();
    let lives = app.world().resource::<Game>().lives;
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
        app.world().resource::<Cuts>().0.is_empty(),
        "pressing is not a cut"
    );
    blade(&mut app, 400.0, 30.0, true);
    app.update();
    let cuts = app.world().resource::<Cuts>().0.clone();
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
    assert_eq!(cuts[0].points, 10);
    assert!(
        app.world().get_entity(target).is_err(),
        "the cut line is gone"
    );
    let game = app.world().resource::<Game>().clone();
    assert_eq!(
        (game.score, game.cuts, game.combo, game.lives),
        (10, 1, 1, lives)
    );
    // Two pieces, split at y = 30: 130 and 70 px long.
    let mut lengths: Vec<f32> = pieces(&mut app)
        .iter()
        .map(|(a, b)| a.distance(*b))
        .collect();
    lengths.sort_by(f32::total_cmp);
    assert_eq!(lengths.len(), 2);
    assert!(
        (lengths[0] - 70.0).abs() < 1e-2 && (lengths[1] - 130.0).abs() < 1e-2,
        "{lengths:?}"
    );
    // Swiping back through the lower piece continues the combo: 20 points.
    blade(&mut app, -400.0, -20.0, true);
    app.update();
    let cuts = app.world().resource::<Cuts>().0.clone();
    assert_eq!(cuts.len(), 2, "{cuts:?}");
    assert_eq!(cuts[1].points, 20);
    assert_eq!(app.world().resource::<Game>().score, 30);
    // Releasing and moving back across does not cut.
    blade(&mut app, 400.0, -20.0, false);
    app.update();
    assert_eq!(app.world().resource::<Cuts>().0.len(), 2);
}

#[test]
fn uncut_lines_that_leave_are_misses_and_forbidden_cuts_cost_a_life() {
    let mut app = app();
    let lives = app.world().resource::<Game>().lives;
    line(
        &mut app,
        Vec2::new(600.0, -50.0),
        Vec2::new(600.0, 50.0),
        Vec2::new(4000.0, 0.0),
        false,
    );
    for _ in 0..10 {
        app.update();
    }
    let game = app.world().resource::<Game>().clone();
    assert_eq!((game.misses, game.lives), (1, lives - 1));
    line(
        &mut app,
        Vec2::new(0.0, -50.0),
        Vec2::new(0.0, 50.0),
        Vec2::ZERO,
        true,
    );
    blade(&mut app, -100.0, 0.0, true);
    app.update();
    blade(&mut app, 100.0, 0.0, true);
    app.update();
    let game = app.world().resource::<Game>().clone();
    assert_eq!((game.cuts, game.score, game.lives), (1, 0, lives - 2));
    assert_eq!(app.world().resource::<Cuts>().0[0].points, -25);
}

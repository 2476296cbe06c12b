//! `--move-and-slide`: one move-and-slide of a capsule among a 1,000-point polyline and 500
//! boxes, through `bevy_sweep` (`SweepQuery::move_and_slide`) and avian2d 0.7
//! (`MoveAndSlide::move_and_slide`), on the same geometry, starts and motions (those of
//! `benches/respond.rs`' `move_and_slide` bench), timed in interleaved blocks in one
//! process. Each library with its defaults (avian's include its depenetration and its own
//! skin; `bevy_sweep`'s its check for what the shape starts inside), and the slope limit of
//! the bench for `bevy_sweep`.

use avian2d::prelude as av;
use bevy::app::Plugins;
use bevy::ecs::system::SystemState;
use bevy::math::Isometry2d;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_sweep::prelude as bs;
use std::time::{Duration, Instant};

#[path = "../../../benches/support/slide_scene.rs"]
mod slide_scene;

use slide_scene::{TILE, slide_geometry};

/// A headless app of `plugins`, finished as `App::run` would (avian's plugins need it), its
/// clock started.
fn headless<M>(plugins: impl Plugins<M>) -> App {
    let mut app = App::new();
    app.add_plugins(plugins)
        .insert_resource(TimeUpdateStrategy::FixedTimesteps(1));
    app.finish();
    app.cleanup();
    app.update();
    app
}

/// The median of one call's time over the blocks.
fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

#[expect(
    clippy::print_stderr,
    reason = "the comparison reports what it measured"
)]
pub fn compare() {
    let (points, boxes, starts) = slide_geometry();
    let mut sweep = headless((MinimalPlugins, bs::SweepPlugin::default()));
    sweep
        .world_mut()
        .spawn(bs::Collider::polyline(&points).expect("finite points"));
    for &at in &boxes {
        sweep.world_mut().spawn((
            bs::Collider::aabb(Vec2::splat(TILE)),
            Transform::from_translation(at.extend(0.0)),
        ));
    }
    let mut avian = headless((MinimalPlugins, av::PhysicsPlugins::default()));
    avian.world_mut().spawn((
        av::RigidBody::Static,
        av::Collider::polyline(points.clone(), None),
        Transform::IDENTITY,
    ));
    for &at in &boxes {
        avian.world_mut().spawn((
            av::RigidBody::Static,
            av::Collider::rectangle(2.0 * TILE, 2.0 * TILE),
            Transform::from_translation(at.extend(0.0)),
        ));
    }
    for _ in 0..3 {
        sweep.update();
        avian.update();
    }
    let mut sweep_state = SystemState::<bs::SweepQuery>::new(sweep.world_mut());
    let mut avian_state = SystemState::<av::MoveAndSlide>::new(avian.world_mut());
    let query = sweep_state.get(sweep.world()).expect("the plugin is added");
    let slide = avian_state
        .get(avian.world())
        .expect("avian's physics plugins are added");
    let sweep_capsule = bs::Collider::capsule(Vec2::new(0.0, -6.0), Vec2::new(0.0, 6.0), 5.0);
    let avian_capsule = av::Collider::capsule(5.0, 12.0);
    let config = bs::MoveAndSlideConfig {
        max_slope: Some(core::f32::consts::FRAC_PI_4),
        ..default()
    };
    let avian_config = av::MoveAndSlideConfig::default();
    let (filter, avian_filter) = (
        bs::QueryFilter::default(),
        av::SpatialQueryFilter::default(),
    );
    let dt = Duration::from_secs_f64(1.0 / 64.0);
    let run_sweep = || {
        let mut end = Vec2::ZERO;
        for &(start, motion) in &starts {
            let out = query.move_and_slide(
                &sweep_capsule,
                Isometry2d::from_translation(start),
                motion,
                &config,
                &filter,
            );
            end += std::hint::black_box(out.translation);
        }
        end
    };
    let run_avian = || {
        let mut end = Vec2::ZERO;
        for &(start, motion) in &starts {
            let out = slide.move_and_slide(
                &avian_capsule,
                start,
                0.0,
                motion * 64.0,
                dt,
                &avian_config,
                &avian_filter,
                |_| av::MoveAndSlideHitResponse::Accept,
            );
            end += std::hint::black_box(out.position);
        }
        end
    };
    // Where each ends, side by side (a check that both do the same work).
    let mut apart = 0.0f32;
    for &(start, motion) in &starts {
        let a = query
            .move_and_slide(
                &sweep_capsule,
                Isometry2d::from_translation(start),
                motion,
                &config,
                &filter,
            )
            .translation;
        let b = slide
            .move_and_slide(
                &avian_capsule,
                start,
                0.0,
                motion * 64.0,
                dt,
                &avian_config,
                &avian_filter,
                |_| av::MoveAndSlideHitResponse::Accept,
            )
            .position;
        if a.distance(b) > 1.0 && std::env::var_os("SLIDE_DEBUG").is_some() {
            eprintln!("start {start} motion {motion}: bevy_sweep {a}, avian2d {b}");
        }
        apart = apart.max(a.distance(b));
    }
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    let calls = starts.len() as u32 * 20;
    for _ in 0..30 {
        let began = Instant::now();
        for _ in 0..20 {
            run_sweep();
        }
        ours.push(began.elapsed() / calls);
        let began = Instant::now();
        for _ in 0..20 {
            run_avian();
        }
        theirs.push(began.elapsed() / calls);
    }
    let ratios: Vec<f64> = ours
        .iter()
        .zip(&theirs)
        .map(|(o, t)| t.as_secs_f64() / o.as_secs_f64())
        .collect();
    let mut sorted = ratios.clone();
    sorted.sort_by(f64::total_cmp);
    eprintln!(
        "move_and_slide, a capsule among a 1,000-point polyline and 500 boxes, 64 starts: \
         bevy_sweep {:?}, avian2d {:?} per call (medians of 30 blocks of {calls}); avian2d / \
         bevy_sweep {:.2}x (blocks {:.2}-{:.2}); the two end at most {apart:.3} units apart",
        median(ours),
        median(theirs),
        sorted[sorted.len() / 2],
        sorted[0],
        sorted[sorted.len() - 1],
    );
}

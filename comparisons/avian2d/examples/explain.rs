//! Looks closely at one pair in one tick of the comparison.
//!
//! ```sh
//! # avian2d (with the bevy_sweep referee): what each library saw of pair (I, J) in tick T
//! cargo run --release -p bevy_sweep_vs_avian2d --example explain -- avian N T I J
//! # bevy_sweep alone: every disagreement with the brute-force scan in the first T ticks
//! cargo run --release -p bevy_sweep_vs_avian2d --example explain -- sweep N T
//! # contacts of the referee (avian2d without speculation) the scan puts above 1e-6, in T ticks
//! cargo run --release -p bevy_sweep_vs_avian2d --example explain -- unconfirmed N T
//! # two boxes approaching corner first, alone in avian (see `corner`)
//! cargo run --release -p bevy_sweep_vs_avian2d --example explain -- corner
//! ```
//!
//! Ticks are counted as in the report: tick 0 is the first after the 5 settling ticks.

use avian2d::prelude as av;
use bevy_sweep_vs_avian2d::{
    AvianSetup, SEED, Scene, Wrapped, avian_app, avian_contacts, avian_positions, brute, sweep_app,
    sweep_contacts, swept_paths,
};

const SETTLE_TICKS: usize = 5;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let num = |k: usize| -> usize {
        args.get(k)
            .and_then(|s| s.replace('_', "").parse().ok())
            .unwrap_or_else(|| {
                eprintln!("usage: explain avian N T I J | explain sweep N T | explain corner");
                std::process::exit(2)
            })
    };
    match args.first().map(String::as_str) {
        Some("avian") => avian(num(1), num(2), num(3) as u32, num(4) as u32),
        Some("sweep") => sweep(num(1), num(2)),
        Some("unconfirmed") => unconfirmed(num(1), num(2)),
        Some("corner") => {
            corner(true, Some(av::SweptCcd::default()));
            corner(true, Some(av::SweptCcd::LINEAR));
            corner(false, Some(av::SweptCcd::default()));
            corner(false, None);
        }
        _ => {
            eprintln!("usage: explain avian N T I J | explain sweep N T | explain corner");
            std::process::exit(2);
        }
    }
}

fn avian(n: usize, tick: usize, i: u32, j: u32) {
    let scene = Scene::mixed(n, SEED);
    println!("collider {i}: {:?}", scene.specs[i as usize]);
    println!("collider {j}: {:?}", scene.specs[j as usize]);
    let mut app = avian_app(&scene, AvianSetup::SweptCcd, true);
    let pair = (i.min(j), i.max(j));
    for t in 0..SETTLE_TICKS + tick + 2 {
        let before = avian_positions(&app);
        app.update();
        let after = avian_positions(&app);
        let exact = sweep_contacts(&mut app);
        let reported = avian_contacts(&mut app);
        if t + 2 < SETTLE_TICKS + tick {
            continue;
        }
        let label = t as isize - SETTLE_TICKS as isize;
        println!("\ntick {label}:");
        let wrapped = &app.world().resource::<Wrapped>().0;
        for k in [i, j] {
            let e = app
                .world()
                .resource::<bevy_sweep_vs_avian2d::Bodies>()
                .entities[k as usize];
            let v = app.world().get::<av::LinearVelocity>(e).map(|v| v.0);
            let full = scene.specs[k as usize].velocity.length() / 64.0;
            println!(
                "  {k}: avian position {:?} -> {:?} (moved {:.3} of {:.3} = |v|·dt{}), velocity {v:?}",
                before[k as usize],
                after[k as usize],
                before[k as usize].distance(after[k as usize]),
                full,
                if wrapped.contains(&k) {
                    ", wrapped"
                } else {
                    ""
                }
            );
        }
        let paths = swept_paths(&app);
        if let (Some(p), Some(q)) = (paths[i as usize], paths[j as usize]) {
            println!("  referee path {i}: {p:?}");
            println!("  referee path {j}: {q:?}");
            let (d, at) = brute::closest_approach(&p, &q, 4000);
            println!("  brute-force closest approach {d:.3e} at {at:.4} of the tick");
            println!(
                "  distance at the start {:.4}, at the end {:.4}",
                brute::distance(p.at(0.0), q.at(0.0)),
                brute::distance(p.at(1.0), q.at(1.0))
            );
        }
        let bodies = app.world().resource::<bevy_sweep_vs_avian2d::Bodies>();
        let (ei, ej) = (bodies.entities[i as usize], bodies.entities[j as usize]);
        let graph = app.world().resource::<av::ContactGraph>();
        match graph.get(ei, ej) {
            Some((_, contact)) => println!(
                "  avian contact graph: pair present, touching {}, {} manifold(s){}",
                contact.is_touching(),
                contact.manifolds.len(),
                contact
                    .manifolds
                    .first()
                    .map(|m| format!(
                        ", normal {:?}, points {:?}",
                        m.normal,
                        m.points.iter().map(|p| p.penetration).collect::<Vec<_>>()
                    ))
                    .unwrap_or_default()
            ),
            None => println!("  avian contact graph: no pair (bounds apart after the step)"),
        }
        println!(
            "  exact (referee): {}; avian reported: {}",
            exact.contains(&pair),
            reported.contains(&pair)
        );
    }
}

fn sweep(n: usize, ticks: usize) {
    let scene = Scene::mixed(n, SEED);
    let mut app = sweep_app(&scene);
    let mut previous = bevy::platform::collections::HashSet::new();
    for t in 0..SETTLE_TICKS + ticks {
        app.update();
        let reported = sweep_contacts(&mut app);
        let before = std::mem::replace(&mut previous, reported.clone());
        if t < SETTLE_TICKS {
            continue;
        }
        let label = t - SETTLE_TICKS;
        let paths = swept_paths(&app);
        for a in 0..paths.len() {
            for b in a + 1..paths.len() {
                let (Some(p), Some(q)) = (paths[a], paths[b]) else {
                    continue;
                };
                let (bp, bq) = (p.swept_bounds(), q.swept_bounds());
                if bp.min.x > bq.max.x + 0.01
                    || bq.min.x > bp.max.x + 0.01
                    || bp.min.y > bq.max.y + 0.01
                    || bq.min.y > bp.max.y + 0.01
                {
                    continue;
                }
                let (d, at) = brute::closest_approach(&p, &q, 2000);
                let pair = (a as u32, b as u32);
                let touch = d <= 1e-6;
                if touch != reported.contains(&pair) {
                    println!(
                        "tick {label}, pair {pair:?}: bevy_sweep {}, scan {d:.3e} at {at:.5} \
                         (reported the tick before: {})",
                        reported.contains(&pair),
                        before.contains(&pair)
                    );
                    println!("  {a}: {p:?}\n  {b}: {q:?}");
                    println!(
                        "  distance at the start {:.3e}, at the end {:.3e}",
                        brute::distance(p.at(0.0), q.at(0.0)),
                        brute::distance(p.at(1.0), q.at(1.0))
                    );
                }
            }
        }
    }
}

/// Two kinematic boxes of the 1,000-collider scene (31 and 43, tick 0 of the report) alone in
/// an avian app, spawned three ticks up their paths: at the start of the fourth step they are
/// 22.8 units apart, closing at 50.3 units per tick, and they overlap from 0.744 of the step.
/// Prints what avian's contact graph holds after each step, and what parry's contact
/// manifolds give for the start poses with a prediction distance covering the whole approach.
fn corner(sensor: bool, ccd: Option<av::SweptCcd>) {
    use bevy::prelude::*;
    let scene = Scene {
        name: "corner",
        half: 1000.0,
        specs: vec![],
    };
    let mut app = avian_app(&scene, AvianSetup::SweptCcd, false);
    let boxes = [
        (
            Vec2::new(-165.44402, -146.85233),
            Vec2::new(-744.54175, -1731.036),
            Vec2::new(2.5785344, 2.8580637),
        ),
        (
            Vec2::new(-177.1143, -172.65292),
            Vec2::new(1466.4459, 604.97955),
            Vec2::new(1.4560163, 1.4228878),
        ),
    ];
    let [a, b] = boxes.map(|(p, v, h)| {
        let start = p - 3.0 * v / 64.0;
        let mut e = app.world_mut().spawn((
            av::RigidBody::Kinematic,
            av::Collider::rectangle(2.0 * h.x, 2.0 * h.y),
            av::LinearVelocity(v),
            av::CollisionEventsEnabled,
            Transform::from_translation(start.extend(0.0)),
            av::Position(start),
        ));
        if sensor {
            e.insert(av::Sensor);
        }
        if let Some(ccd) = ccd {
            e.insert(ccd);
        }
        e.id()
    });
    println!("\nsensor: {sensor}, swept CCD: {ccd:?}");
    for step in 0..5 {
        let pa = app.world().get::<av::Position>(a).unwrap().0;
        let pb = app.world().get::<av::Position>(b).unwrap().0;
        app.update();
        let qa = app.world().get::<av::Position>(a).unwrap().0;
        let qb = app.world().get::<av::Position>(b).unwrap().0;
        let graph = app.world().resource::<av::ContactGraph>();
        let pair = graph.get(a, b).map_or_else(
            || "no pair".to_string(),
            |(_, c)| {
                format!(
                    "pair, touching: {}, {} manifold(s)",
                    c.is_touching(),
                    c.manifolds.len()
                )
            },
        );
        println!("  step {step}: {pa} -> {qa}, {pb} -> {qb}; contact graph: {pair}");
        if step == 3 {
            let mut manifolds = Vec::new();
            avian2d::collision::collider::contact_query::contact_manifolds(
                &av::Collider::rectangle(2.0 * boxes[0].2.x, 2.0 * boxes[0].2.y),
                pa,
                av::Rotation::IDENTITY,
                &av::Collider::rectangle(2.0 * boxes[1].2.x, 2.0 * boxes[1].2.y),
                pb,
                av::Rotation::IDENTITY,
                50.3,
                &mut manifolds,
            );
            println!(
                "  parry contact manifolds at the start of step 3, prediction 50.3: {}",
                manifolds.len()
            );
        }
    }
}

fn unconfirmed(n: usize, ticks: usize) {
    let scene = Scene::mixed(n, SEED);
    let mut app = avian_app(&scene, AvianSetup::SweptCcdNoSpeculation, true);
    for t in 0..SETTLE_TICKS + ticks {
        app.update();
        let exact = sweep_contacts(&mut app);
        let reported = avian_contacts(&mut app);
        if t < SETTLE_TICKS {
            continue;
        }
        let paths = swept_paths(&app);
        for &(i, j) in exact.difference(&reported) {
            let (Some(p), Some(q)) = (paths[i as usize], paths[j as usize]) else {
                continue;
            };
            let (d, at) = brute::closest_approach(&p, &q, 4000);
            if d > 1e-6 {
                println!(
                    "tick {}: pair ({i}, {j}) reported by bevy_sweep, scan {d:.2e} at {at:.5}\n  {p:?}\n  {q:?}",
                    t - SETTLE_TICKS
                );
            }
        }
    }
}

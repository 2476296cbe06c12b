//! The side-by-side run: tick time and contacts of `bevy_sweep` and avian2d 0.7 on the same
//! scenes, in one process.
//!
//! ```sh
//! cargo run --release -p bevy_sweep_vs_avian2d
//! cargo run --release -p bevy_sweep_vs_avian2d -- --sizes 1000,10000 --count-sizes 1000
//! ```
//!
//! Prints markdown tables, writes them to `comparisons/avian2d/results.md` and draws
//! `docs/avian2d_comparison.png` (median tick time against the number of colliders).
//!
//! The tick timings run avian with `SweptCcd` on every body; `AVIAN_SETUP=default` runs them
//! with avian's default setup instead (no `SweptCcd`), `AVIAN_SETUP=movers` with
//! `SweptCcd` on the moving bodies only, and `AVIAN_SETUP=fast` on the bodies faster than
//! 400 units per second only (in the bullet hells, the bullets). `TASK_POOL=default` gives both apps
//! Bevy's default task pools rather than a compute thread for every core.

use bevy::ecs::message::Messages;
use bevy::platform::collections::HashSet;
use bevy_sweep::narrow::ShapePath;
use bevy_sweep::prelude as bs;
use bevy_sweep_vs_avian2d::{
    AVIAN_POINT_RADIUS, AvianSetup, Kind, Pair, SEED, Scene, TICK_SECONDS, Wrapped, avian_app,
    avian_contacts, avian_positions, brute, median, sweep_app, sweep_contacts, swept_paths,
};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

#[path = "../../../tests/common/exact/oracle/mod.rs"]
#[allow(
    dead_code,
    unused_imports,
    reason = "the exact oracle of the crate's tests: only its contact intervals are used here"
)]
mod oracle;
#[path = "../../../tests/common/exact/oracle_check.rs"]
mod oracle_check;
#[path = "../../../tests/common/exact/rules.rs"]
mod rules;
mod slide;

/// Ticks run before measuring (the first ticks report every overlap of the random placement).
const SETTLE_TICKS: usize = 5;
/// Ticks over which contacts are counted.
const COUNT_TICKS: usize = 60;
/// Above 10,000 colliders, a first avian tick slower than this leaves avian out of that size
/// (a guard for slow machines: on the project's 2-core machine avian's first tick at 100,000
/// colliders takes under 1 s, its later ticks 2–3.6 s, and 15 of them are timed).
const AVIAN_TICK_LIMIT_S: f64 = 2.0;
/// Samples per tick of the brute-force distance scan (then refined around each minimum).
const BRUTE_SAMPLES: usize = 2000;
/// A pair whose closest approach is at most this is taken to touch by the brute-force scan
/// (world units; the scan is in `f64` on the `f32` positions, so this only absorbs the
/// rounding of `bevy_sweep`'s own arithmetic).
const TOUCH_TOLERANCE: f64 = 1.0e-6;
/// avian's default contact tolerance (`NarrowPhaseConfig::contact_tolerance`, length unit 1).
const AVIAN_CONTACT_TOLERANCE: f64 = 0.005;

struct Args {
    sizes: Vec<usize>,
    count_sizes: Vec<usize>,
    check_size: usize,
    /// Ticks of each game-shaped scene held to the exact oracle (0: none).
    oracle_ticks: usize,
    /// Run the game-shaped scenes.
    games: bool,
    /// Colliders in the bullet-hell scenes (plain and turning).
    game_sizes: Vec<usize>,
    plot: bool,
    write: bool,
}

fn parse_list(s: &str) -> Vec<usize> {
    s.split(',')
        .filter_map(|x| x.trim().replace('_', "").parse().ok())
        .collect()
}

fn args() -> Args {
    let mut a = Args {
        sizes: vec![1_000, 10_000, 100_000],
        count_sizes: vec![1_000, 10_000],
        check_size: 500,
        oracle_ticks: 3,
        games: true,
        game_sizes: vec![10_000],
        plot: true,
        write: true,
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--sizes" => a.sizes = parse_list(&it.next().unwrap_or_default()),
            "--count-sizes" => a.count_sizes = parse_list(&it.next().unwrap_or_default()),
            "--check-size" => {
                a.check_size = it.next().and_then(|s| s.parse().ok()).unwrap_or(500);
            }
            "--oracle-ticks" => {
                a.oracle_ticks = it.next().and_then(|s| s.parse().ok()).unwrap_or(3);
            }
            "--no-games" => a.games = false,
            "--game-sizes" => a.game_sizes = parse_list(&it.next().unwrap_or_default()),
            "--no-plot" => a.plot = false,
            "--no-write" => a.write = false,
            // Handled before the others (`slide::compare`).
            "--move-and-slide" => {}
            other => {
                eprintln!(
                    "unknown argument {other}; use --sizes 1000,10000 --count-sizes 1000 \
                     --check-size 500 --oracle-ticks 3 --no-games --game-sizes 1000,10000 \
                     --no-plot --no-write"
                );
                std::process::exit(2);
            }
        }
    }
    a
}

/// Ticks measured at each size: enough for a stable median, little enough to finish.
fn timed_ticks(n: usize) -> usize {
    (1_000_000 / n).clamp(15, 300)
}

struct Timing {
    n: usize,
    ticks: usize,
    sweep_ms: f64,
    avian_ms: Option<f64>,
    /// Lowest and highest ratio of medians over five consecutive blocks of ticks.
    block_ratios: Option<(f64, f64)>,
    first_avian_tick_s: f64,
}

fn time_update(app: &mut bevy::app::App) -> f64 {
    let start = Instant::now();
    app.update();
    start.elapsed().as_secs_f64() * 1e3
}

/// Both apps on the mixed scene of `n` colliders.
fn timing(n: usize) -> Timing {
    timing_of(&Scene::mixed(n, SEED))
}

/// Both apps on the same scene; their ticks interleaved (alternating which goes first).
fn timing_of(scene: &Scene) -> Timing {
    let n = scene.specs.len();
    let ticks = timed_ticks(n);
    let mut sweep = sweep_app(scene);
    let mut avian = avian_app(scene, AvianSetup::for_timing(), false);
    for _ in 0..SETTLE_TICKS {
        sweep.update();
    }
    // The first avian tick (it also builds avian's trees); at the largest size, one that is
    // too slow leaves avian out.
    let first_avian_tick_s = time_update(&mut avian) / 1e3;
    let with_avian = first_avian_tick_s <= AVIAN_TICK_LIMIT_S || n <= 10_000;
    if with_avian {
        for _ in 1..SETTLE_TICKS {
            avian.update();
        }
    }
    let (mut s, mut a) = (Vec::with_capacity(ticks), Vec::with_capacity(ticks));
    for t in 0..ticks {
        if !with_avian {
            s.push(time_update(&mut sweep));
        } else if t % 2 == 0 {
            s.push(time_update(&mut sweep));
            a.push(time_update(&mut avian));
        } else {
            a.push(time_update(&mut avian));
            s.push(time_update(&mut sweep));
        }
    }
    let block_ratios = with_avian.then(|| {
        let blocks = 5;
        let len = ticks / blocks;
        let ratios: Vec<f64> = (0..blocks)
            .map(|b| {
                let r = b * len..(b + 1) * len;
                median(&mut a[r.clone()].to_vec()) / median(&mut s[r].to_vec())
            })
            .collect();
        (
            ratios.iter().copied().fold(f64::INFINITY, f64::min),
            ratios.iter().copied().fold(0.0, f64::max),
        )
    });
    Timing {
        n,
        ticks,
        sweep_ms: median(&mut s),
        avian_ms: with_avian.then(|| median(&mut a)),
        block_ratios,
        first_avian_tick_s,
    }
}

/// A contact of the exact reference that avian did not report in its tick.
#[derive(Clone, Copy, Debug)]
struct Missed {
    tick: usize,
    pair: Pair,
    /// The brute-force closest approach of the two swept paths in that tick, and when.
    closest: (f64, f64),
    /// Not reported by avian in the next tick either.
    late: bool,
}

struct Counts {
    n: usize,
    setup: AvianSetup,
    exact: usize,
    reported: usize,
    missed: Vec<Missed>,
    /// Missed pairs avian did not report in the next tick either.
    missed_late: usize,
    extra: usize,
    /// Extra pairs with no exact contact in the tick before or after either.
    extra_isolated: usize,
    /// Extras whose brute-force closest approach in the tick is within avian's contact
    /// tolerance (or the point radius).
    extra_within_tolerance: usize,
    /// Largest closest approach of an extra pair in its tick.
    extra_max_distance: f64,
    /// Body-ticks in which avian moved a collider less than 99% of `|v|·dt` (its swept CCD
    /// stopping it at a time of impact), and all body-ticks.
    time_loss: (usize, usize),
    /// Exact contact-ticks left out because a collider of the pair wrapped in that tick, and
    /// how many of them avian did not report.
    wrap_excluded: (usize, usize),
    /// By pair of shapes: exact contact-ticks, missed, missed and not reported the next tick.
    by_kind: BTreeMap<&'static str, (usize, usize, usize)>,
}

fn kind_name(k: Kind) -> &'static str {
    match k {
        Kind::Point => "point",
        Kind::Segment { .. } => "segment",
        Kind::Circle { .. } => "circle",
        Kind::Box { .. } => "box",
        Kind::Rectangle { .. } => "rectangle",
        Kind::Capsule { .. } => "capsule",
    }
}

/// "box – circle" for a pair, the two names in a fixed order.
fn kind_pair(scene: &Scene, (i, j): Pair) -> &'static str {
    const ORDER: [&str; 4] = ["point", "segment", "circle", "box"];
    let (a, b) = (
        kind_name(scene.specs[i as usize].kind),
        kind_name(scene.specs[j as usize].kind),
    );
    let rank = |n: &str| ORDER.iter().position(|&o| o == n).unwrap_or(0);
    let (a, b) = if rank(a) <= rank(b) { (a, b) } else { (b, a) };
    match (a, b) {
        ("point", "point") => "point – point",
        ("point", "segment") => "point – segment",
        ("point", "circle") => "point – circle",
        ("point", "box") => "point – box",
        ("segment", "segment") => "segment – segment",
        ("segment", "circle") => "segment – circle",
        ("segment", "box") => "segment – box",
        ("circle", "circle") => "circle – circle",
        ("circle", "box") => "circle – box",
        _ => "box – box",
    }
}

fn kinds(scene: &Scene, (i, j): Pair) -> String {
    format!(
        "{} {i} – {} {j}",
        kind_name(scene.specs[i as usize].kind),
        kind_name(scene.specs[j as usize].kind)
    )
}

/// avian with a `bevy_sweep` referee in the same app: what avian reports against the exact
/// contacts of avian's own motion, tick by tick.
fn counting(n: usize, setup: AvianSetup) -> Counts {
    let scene = Scene::mixed(n, SEED);
    let mut app = avian_app(&scene, setup, true);
    let dt = TICK_SECONDS as f32;
    let mut exact: Vec<HashSet<Pair>> = Vec::new();
    let mut reported: Vec<HashSet<Pair>> = Vec::new();
    let mut missed = Vec::new();
    let (mut extra_within_tolerance, mut extra_max_distance) = (0, 0.0_f64);
    let mut time_loss = (0, 0);
    let mut wrap_excluded = (0, 0);
    // One tick more than counted, for "reported a tick later".
    for tick in 0..SETTLE_TICKS + COUNT_TICKS + 1 {
        let before = avian_positions(&app);
        app.update();
        let after = avian_positions(&app);
        let mut r = sweep_contacts(&mut app);
        let mut a = avian_contacts(&mut app);
        // A collider that wrapped was moved by setting its position; avian does not grow
        // the bounds of a moved collider by its velocity in that tick (a known limitation,
        // unrelated to CCD), so its contacts in that tick are left out of the count.
        let wrapped = &app.world().resource::<Wrapped>().0;
        let involves = |p: &Pair| wrapped.contains(&p.0) || wrapped.contains(&p.1);
        if (SETTLE_TICKS..SETTLE_TICKS + COUNT_TICKS).contains(&tick) {
            wrap_excluded.0 += r.iter().filter(|p| involves(p)).count();
            wrap_excluded.1 += r.iter().filter(|p| involves(p) && !a.contains(*p)).count();
        }
        r.retain(|p| !involves(p));
        a.retain(|p| !involves(p));
        if tick < SETTLE_TICKS {
            continue;
        }
        if tick < SETTLE_TICKS + COUNT_TICKS {
            for (i, spec) in scene.specs.iter().enumerate() {
                let full = spec.velocity.length() * dt;
                let moved = before[i].distance(after[i]);
                if moved < 2.0 * full {
                    time_loss.1 += 1;
                    if moved < 0.99 * full {
                        time_loss.0 += 1;
                    }
                }
            }
            let paths = swept_paths(&app);
            let closest = |(i, j): Pair| match (paths[i as usize], paths[j as usize]) {
                (Some(p), Some(q)) => brute::closest_approach(&p, &q, BRUTE_SAMPLES),
                _ => (f64::NAN, f64::NAN),
            };
            for &p in r.difference(&a) {
                missed.push(Missed {
                    tick: exact.len(),
                    pair: p,
                    closest: closest(p),
                    late: false,
                });
            }
            for &p in a.difference(&r) {
                let (d, _) = closest(p);
                extra_max_distance = extra_max_distance.max(d);
                if d <= AVIAN_CONTACT_TOLERANCE + f64::from(AVIAN_POINT_RADIUS) {
                    extra_within_tolerance += 1;
                }
            }
        }
        exact.push(r);
        reported.push(a);
    }
    let ticks = COUNT_TICKS;
    for m in &mut missed {
        m.late = !reported[m.tick + 1].contains(&m.pair);
    }
    let missed_late = missed.iter().filter(|m| m.late).count();
    let mut by_kind: BTreeMap<&'static str, (usize, usize, usize)> = BTreeMap::new();
    for set in &exact[..COUNT_TICKS] {
        for &p in set {
            by_kind.entry(kind_pair(&scene, p)).or_default().0 += 1;
        }
    }
    for m in &missed {
        let e = by_kind.entry(kind_pair(&scene, m.pair)).or_default();
        e.1 += 1;
        e.2 += usize::from(m.late);
    }
    let mut extra = 0;
    let mut extra_isolated = 0;
    for k in 0..ticks {
        for p in reported[k].difference(&exact[k]) {
            extra += 1;
            let near = (k > 0 && exact[k - 1].contains(p)) || exact[k + 1].contains(p);
            if !near {
                extra_isolated += 1;
            }
        }
    }
    Counts {
        n,
        setup,
        exact: exact[..ticks].iter().map(HashSet::len).sum(),
        reported: reported[..ticks].iter().map(HashSet::len).sum(),
        missed,
        missed_late,
        extra,
        extra_isolated,
        extra_within_tolerance,
        extra_max_distance,
        time_loss,
        wrap_excluded,
        by_kind,
    }
}

/// `bevy_sweep` alone on its scene: its contact-ticks, and a brute-force check of every pair
/// whose swept bounds come near.
struct Check {
    n: usize,
    ticks: usize,
    contacts: usize,
    agree: usize,
    /// Reported by `bevy_sweep`, closest approach above the tolerance: (count, largest).
    sweep_only: (usize, f64),
    /// Found by the scan, not reported by `bevy_sweep`: (count, smallest closest approach).
    brute_only: (usize, f64),
    /// Found by the scan only at the first instant of the tick, which is the last of the
    /// previous tick, where `bevy_sweep` reported them.
    at_start: usize,
}

/// The same motion from `from` (a fraction of the tick) to the end.
fn from_time(path: &ShapePath, from: f32) -> ShapePath {
    ShapePath::between(path.at(from), path.at(1.0)).unwrap_or(*path)
}

fn sweep_alone(n: usize, brute_check: bool) -> Check {
    let scene = Scene::mixed(n, SEED);
    let mut app = sweep_app(&scene);
    let mut check = Check {
        n,
        ticks: COUNT_TICKS,
        contacts: 0,
        agree: 0,
        sweep_only: (0, 0.0),
        brute_only: (0, f64::INFINITY),
        at_start: 0,
    };
    let mut previous = HashSet::new();
    for tick in 0..SETTLE_TICKS + COUNT_TICKS {
        app.update();
        let reported = sweep_contacts(&mut app);
        let before = std::mem::replace(&mut previous, reported.clone());
        if tick < SETTLE_TICKS {
            continue;
        }
        check.contacts += reported.len();
        if !brute_check {
            continue;
        }
        let paths = swept_paths(&app);
        let bounds: Vec<_> = paths.iter().map(|p| p.map(|p| p.swept_bounds())).collect();
        for i in 0..paths.len() {
            for j in i + 1..paths.len() {
                let (Some(bi), Some(bj)) = (bounds[i], bounds[j]) else {
                    continue;
                };
                let margin = 0.01;
                if bi.min.x > bj.max.x + margin
                    || bj.min.x > bi.max.x + margin
                    || bi.min.y > bj.max.y + margin
                    || bj.min.y > bi.max.y + margin
                {
                    continue;
                }
                let (d, _) =
                    brute::closest_approach(&paths[i].unwrap(), &paths[j].unwrap(), BRUTE_SAMPLES);
                let pair = (i as u32, j as u32);
                match (reported.contains(&pair), d <= TOUCH_TOLERANCE) {
                    (true, true) => check.agree += 1,
                    (true, false) => {
                        check.sweep_only.0 += 1;
                        check.sweep_only.1 = check.sweep_only.1.max(d);
                    }
                    (false, true) => {
                        let (later, _) = brute::closest_approach(
                            &from_time(&paths[i].unwrap(), 1e-3),
                            &from_time(&paths[j].unwrap(), 1e-3),
                            BRUTE_SAMPLES,
                        );
                        if later > TOUCH_TOLERANCE && before.contains(&pair) {
                            check.at_start += 1;
                        } else {
                            check.brute_only.0 += 1;
                            check.brute_only.1 = check.brute_only.1.min(d);
                        }
                    }
                    (false, false) => {}
                }
            }
        }
    }
    check
}

/// `bevy_sweep` on a scene, its first `ticks` ticks (from the spawn, so that the oracle's
/// rules start from no contact) held to the exact oracle.
fn oracle_check(scene: &Scene, ticks: usize) -> oracle_check::Check {
    let mut app = sweep_app(scene);
    let mut states = oracle_check::States::default();
    let mut check = oracle_check::Check::default();
    for tick in 0..ticks {
        app.update();
        let events: Vec<bs::CollisionEvent> = app
            .world_mut()
            .resource_mut::<Messages<bs::CollisionEvent>>()
            .drain()
            .collect();
        oracle_check::check_tick(app.world_mut(), tick, &events, &mut states, &mut check);
    }
    check
}

fn setup_name(setup: AvianSetup) -> &'static str {
    match setup {
        AvianSetup::SweptCcd => "`SweptCcd`, default speculative margin",
        AvianSetup::SweptCcdNoSpeculation => "`SweptCcd`, `SpeculativeMargin::ZERO`",
        AvianSetup::Default => "default: no `SweptCcd`, default speculative margin",
        AvianSetup::SweptCcdMovers => "`SweptCcd` on the moving bodies only",
        AvianSetup::SweptCcdFast => "`SweptCcd` on the fast bodies only",
    }
}

fn fmt_ms(ms: f64) -> String {
    if ms >= 100.0 {
        format!("{ms:.0}")
    } else if ms >= 10.0 {
        format!("{ms:.1}")
    } else {
        format!("{ms:.2}")
    }
}

fn thousands(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[allow(clippy::too_many_lines, reason = "one report, written top to bottom")]
fn main() {
    if std::env::args().any(|a| a == "--move-and-slide") {
        slide::compare();
        return;
    }
    let args = args();
    let command = {
        let rest: Vec<String> = std::env::args().skip(1).collect();
        if rest.is_empty() {
            "cargo run --release -p bevy_sweep_vs_avian2d".to_string()
        } else {
            format!(
                "cargo run --release -p bevy_sweep_vs_avian2d -- {}",
                rest.join(" ")
            )
        }
    };
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    eprintln!(
        "{threads} hardware threads; timing {:?} colliders",
        args.sizes
    );

    let mut timings = Vec::new();
    for &n in &args.sizes {
        let t = timing(n);
        eprintln!(
            "N = {n}: bevy_sweep {:.3} ms, avian2d {:?} ms (first avian tick {:.3} s)",
            t.sweep_ms, t.avian_ms, t.first_avian_tick_s
        );
        timings.push(t);
    }
    let mut counts = Vec::new();
    let mut alone = Vec::new();
    for &n in &args.count_sizes {
        alone.push(sweep_alone(n, false));
        for setup in [AvianSetup::SweptCcd, AvianSetup::SweptCcdNoSpeculation] {
            let c = counting(n, setup);
            eprintln!(
                "N = {n}, {setup:?}: exact {}, avian {}, missed {} ({} even a tick later), extra {}",
                c.exact,
                c.reported,
                c.missed.len(),
                c.missed_late,
                c.extra
            );
            counts.push(c);
        }
    }
    let check = (args.check_size > 0).then(|| sweep_alone(args.check_size, true));
    // The game-shaped scenes: both libraries' tick times, and bevy_sweep's first ticks held to
    // the exact oracle.
    let mut games = Vec::new();
    if args.games {
        let bullet_hells = args.game_sizes.iter().flat_map(|&n| {
            let scene = Scene::bullet_hell(n, SEED);
            [scene.turning(SEED), scene]
        });
        let others = [
            Scene::tilemap(50_000, 500, SEED),
            Scene::still_walls(10_000, SEED),
        ];
        for scene in bullet_hells.chain(others) {
            let t = timing_of(&scene);
            let o = (args.oracle_ticks > 0).then(|| oracle_check(&scene, args.oracle_ticks));
            eprintln!(
                "{}: bevy_sweep {:.3} ms, avian2d {:?} ms; oracle {:?}",
                scene.name,
                t.sweep_ms,
                t.avian_ms,
                o.as_ref().map(|o| (o.pairs, o.events, o.missed, o.extra))
            );
            games.push((scene.name, t, o));
        }
    }

    // The report.
    let mut md = String::new();
    let _ = writeln!(
        md,
        "Produced by `{command}` ({threads} hardware threads).\n"
    );
    let _ = writeln!(
        md,
        "Tick time: the median of each library's ticks, measured in the same run with the two \
         apps' ticks interleaved (alternating which goes first); the ratio is avian2d's median \
         over bevy_sweep's, and its range is over five consecutive blocks of those ticks. \
         Contacts: {COUNT_TICKS} ticks (after {SETTLE_TICKS} settling ticks) of avian with a \
         bevy_sweep referee in the same app; a contact-tick is a pair that touched at some \
         moment of a tick.\n"
    );
    let _ = writeln!(
        md,
        "| colliders | ticks timed | bevy_sweep ms/tick | avian2d ms/tick | avian2d / bevy_sweep \
         | exact contact-ticks | avian2d contact-ticks | avian2d missed | avian2d extra |"
    );
    let _ = writeln!(md, "|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for t in &timings {
        let c = counts
            .iter()
            .find(|c| c.n == t.n && c.setup == AvianSetup::SweptCcd);
        let (avian, ratio) = match (t.avian_ms, t.block_ratios) {
            (Some(a), Some((lo, hi))) => (
                fmt_ms(a),
                format!("**{:.1}×** ({lo:.1}–{hi:.1})", a / t.sweep_ms),
            ),
            _ => (
                format!("left out (first tick {:.1} s)", t.first_avian_tick_s),
                "–".to_string(),
            ),
        };
        let cells = c.map_or_else(
            || "– | – | – | –".to_string(),
            |c| {
                format!(
                    "{} | {} | {} ({} even a tick later) | {}",
                    thousands(c.exact),
                    thousands(c.reported),
                    thousands(c.missed.len()),
                    thousands(c.missed_late),
                    thousands(c.extra)
                )
            },
        );
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} | {} |",
            thousands(t.n),
            t.ticks,
            fmt_ms(t.sweep_ms),
            avian,
            ratio,
            cells
        );
    }

    if !games.is_empty() {
        let _ = writeln!(
            md,
            "\nScenes shaped like games (see `benches/support/scenes.rs`): the same tick time \
             measure, and bevy_sweep's first {} ticks from the spawn held to the exact oracle of \
             the crate's tests (every pair whose swept bounds meet, and every pair in contact; \
             each event's kind, and its time to within 1e-5 or a few ulps' worth of motion).\n",
            args.oracle_ticks
        );
        let _ = writeln!(
            md,
            "| scene | colliders | ticks timed | bevy_sweep ms/tick | avian2d ms/tick | avian2d / \
             bevy_sweep | pair-ticks held to the oracle | events | missed | extra |"
        );
        let _ = writeln!(md, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (name, t, o) in &games {
            let (avian, ratio) = match (t.avian_ms, t.block_ratios) {
                (Some(a), Some((lo, hi))) => (
                    fmt_ms(a),
                    format!("**{:.1}×** ({lo:.1}–{hi:.1})", a / t.sweep_ms),
                ),
                _ => (
                    format!("left out (first tick {:.1} s)", t.first_avian_tick_s),
                    "–".to_string(),
                ),
            };
            let oracle = o.as_ref().map_or_else(
                || "– | – | – | –".to_string(),
                |o| {
                    format!(
                        "{} | {} | {} | {}",
                        thousands(o.pairs),
                        thousands(o.events),
                        o.missed,
                        o.extra
                    )
                },
            );
            let _ = writeln!(
                md,
                "| {name} | {} | {} | {} | {avian} | {ratio} | {oracle} |",
                thousands(t.n),
                t.ticks,
                fmt_ms(t.sweep_ms)
            );
        }
    }
    let _ = writeln!(
        md,
        "\nContacts in detail ({COUNT_TICKS} ticks; the exact contacts are those of avian's own \
         motion, found by bevy_sweep sweeping each collider from its pose before avian's step to \
         its pose after):\n"
    );
    let _ = writeln!(
        md,
        "| colliders | avian2d setup | exact | avian2d | missed | missed, not reported the next \
         tick either | missed, verified touching by brute force (largest closest approach) | \
         extra | extra, no exact \
         contact the tick before or after | extra within avian's contact tolerance | \
         avian2d body-ticks cut short by swept CCD | left out: exact contact-ticks of a \
         collider wrapping in that tick (avian2d missed) |"
    );
    let _ = writeln!(
        md,
        "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    );
    for c in &counts {
        let verified = c
            .missed
            .iter()
            .filter(|m| m.closest.0 <= TOUCH_TOLERANCE)
            .count();
        let worst = c.missed.iter().map(|m| m.closest.0).fold(0.0_f64, f64::max);
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} | {} | {} of {} ({:.0e}) | {} | {} | {} | {} of {} ({:.1}%) \
             | {} ({}) |",
            thousands(c.n),
            setup_name(c.setup),
            thousands(c.exact),
            thousands(c.reported),
            thousands(c.missed.len()),
            thousands(c.missed_late),
            thousands(verified),
            thousands(c.missed.len()),
            worst,
            thousands(c.extra),
            thousands(c.extra_isolated),
            thousands(c.extra_within_tolerance),
            thousands(c.time_loss.0),
            thousands(c.time_loss.1),
            100.0 * c.time_loss.0 as f64 / c.time_loss.1.max(1) as f64,
            thousands(c.wrap_excluded.0),
            thousands(c.wrap_excluded.1)
        );
    }
    if let Some(c) = counts.iter().find(|c| !c.missed.is_empty()) {
        let scene = Scene::mixed(c.n, SEED);
        let _ = writeln!(
            md,
            "\nExamples of contacts avian2d missed ({} colliders, {}), with the brute-force \
             closest approach of the two swept paths in that tick (0 = they touch):\n",
            thousands(c.n),
            setup_name(c.setup)
        );
        let _ = writeln!(
            md,
            "| tick | pair | closest approach | at (fraction of the tick) | reported by avian2d \
             the next tick |"
        );
        let _ = writeln!(md, "|---:|---|---:|---:|---|");
        // Show pass-throughs first: touching strictly inside the tick and not reported by
        // avian in the next tick either.
        let mut shown: Vec<&Missed> = c
            .missed
            .iter()
            .filter(|m| m.late && m.closest.1 > 0.01 && m.closest.1 < 0.99)
            .take(6)
            .collect();
        if shown.is_empty() {
            shown = c.missed.iter().take(6).collect();
        }
        for m in shown {
            let _ = writeln!(
                md,
                "| {} | {} | {:.1e} | {:.4} | {} |",
                m.tick,
                kinds(&scene, m.pair),
                m.closest.0,
                m.closest.1,
                if m.late { "no" } else { "yes" }
            );
        }
        let worst = c.missed.iter().map(|m| m.closest.0).fold(0.0_f64, f64::max);
        let _ = writeln!(
            md,
            "\nLargest closest approach among all {} missed contact-ticks: {worst:.2e}.",
            c.missed.len()
        );
        let _ = writeln!(
            md,
            "Largest closest approach among avian's extra contact-ticks: {:.3} units.",
            c.extra_max_distance
        );
    }
    for c in counts.iter().filter(|c| c.setup == AvianSetup::SweptCcd) {
        let _ = writeln!(
            md,
            "\nBy pair of shapes ({} colliders, {}):\n",
            thousands(c.n),
            setup_name(c.setup)
        );
        let _ = writeln!(
            md,
            "| shapes | exact contact-ticks | avian2d missed | missed, not reported the next tick \
             either |"
        );
        let _ = writeln!(md, "|---|---:|---:|---:|");
        for (name, (exact, missed, late)) in &c.by_kind {
            let _ = writeln!(
                md,
                "| {name} | {} | {} | {} |",
                thousands(*exact),
                thousands(*missed),
                thousands(*late)
            );
        }
    }
    if !alone.is_empty() {
        let _ = writeln!(
            md,
            "\nbevy_sweep on its own scene (the same start, moving at constant velocity, since \
             nothing stops it): {}.",
            alone
                .iter()
                .map(|a| format!(
                    "{} contact-ticks in {} ticks at {} colliders",
                    thousands(a.contacts),
                    a.ticks,
                    thousands(a.n)
                ))
                .collect::<Vec<_>>()
                .join("; ")
        );
    }
    if let Some(ch) = &check {
        let _ = writeln!(
            md,
            "\nBrute-force check of bevy_sweep ({} colliders, {} ticks; every pair whose swept \
             bounds come within 0.01, scanned at {BRUTE_SAMPLES} moments per tick in f64 and \
             refined around each minimum; touching = closest approach ≤ {TOUCH_TOLERANCE:e}): \
             {} contact-ticks reported, {} confirmed, {} reported but not found by the scan \
             (largest closest approach {:.1e}), {} found by the scan but not reported (smallest \
             closest approach {}); {} more touch only at the first instant of their tick, which \
             is the last instant of the previous tick, where bevy_sweep reported them.",
            thousands(ch.n),
            ch.ticks,
            thousands(ch.contacts),
            thousands(ch.agree),
            ch.sweep_only.0,
            ch.sweep_only.1,
            ch.brute_only.0,
            if ch.brute_only.0 == 0 {
                "–".to_string()
            } else {
                format!("{:.1e}", ch.brute_only.1)
            },
            ch.at_start
        );
    }
    println!("{md}");
    if !args.write {
        return;
    }
    let results = Path::new(env!("CARGO_MANIFEST_DIR")).join("results.md");
    if let Err(e) = std::fs::write(
        &results,
        format!("# bevy_sweep vs avian2d: results\n\n{md}"),
    ) {
        eprintln!("could not write {}: {e}", results.display());
    } else {
        eprintln!("wrote {}", results.display());
    }
    if args.plot {
        let png = repo_root().join("docs/avian2d_comparison.png");
        match plot::draw(&png, &timings) {
            Ok(()) => eprintln!("wrote {}", png.display()),
            Err(e) => eprintln!("no plot: {e}"),
        }
    }
}

mod plot {
    //! Median tick time against the number of colliders, log-log, both libraries.

    use super::Timing;
    use plotters::prelude::*;
    use plotters::style::{FontStyle, register_font};
    use std::path::Path;

    /// TrueType fonts tried in order (the first that exists is used); `PLOT_FONT` first.
    const FONTS: &[&str] = &[
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/TTF/DejaVuSans.ttf",
        "/usr/share/fonts/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
        "/Library/Fonts/Arial.ttf",
        "C:\\Windows\\Fonts\\arial.ttf",
    ];

    fn font() -> Result<(), String> {
        let candidates = std::env::var("PLOT_FONT")
            .into_iter()
            .chain(FONTS.iter().map(|s| (*s).to_string()));
        for path in candidates {
            if let Ok(bytes) = std::fs::read(&path) {
                let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
                return register_font("sans-serif", FontStyle::Normal, bytes)
                    .map_err(|_| format!("{path} is not a usable font"));
            }
        }
        Err("no TrueType font found (set PLOT_FONT to a .ttf file)".to_string())
    }

    pub fn draw(path: &Path, timings: &[Timing]) -> Result<(), String> {
        font()?;
        let e = |e: &dyn std::fmt::Display| e.to_string();
        let sweep: Vec<(f64, f64)> = timings.iter().map(|t| (t.n as f64, t.sweep_ms)).collect();
        let avian: Vec<(f64, f64)> = timings
            .iter()
            .filter_map(|t| t.avian_ms.map(|a| (t.n as f64, a)))
            .collect();
        let all = sweep.iter().chain(&avian);
        let (x_min, x_max) = all.clone().fold((f64::INFINITY, 0.0_f64), |(a, b), p| {
            (a.min(p.0), b.max(p.0))
        });
        let (y_min, y_max) = all.fold((f64::INFINITY, 0.0_f64), |(a, b), p| {
            (a.min(p.1), b.max(p.1))
        });
        if !x_min.is_finite() {
            return Err("nothing to plot".to_string());
        }
        let root = BitMapBackend::new(path, (720, 450)).into_drawing_area();
        root.fill(&WHITE).map_err(|x| e(&x))?;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                "Median time per fixed tick (same scene, same run)",
                ("sans-serif", 20),
            )
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d(
                (x_min / 1.5..x_max * 1.5).log_scale(),
                (y_min / 2.0..y_max * 2.0).log_scale(),
            )
            .map_err(|x| e(&x))?;
        chart
            .configure_mesh()
            .x_desc("colliders")
            .y_desc("ms per tick")
            .x_label_formatter(&|x| {
                if *x >= 1000.0 {
                    format!("{}k", (*x / 1000.0).round())
                } else {
                    format!("{x:.0}")
                }
            })
            .y_label_formatter(&|y| {
                if *y >= 1.0 {
                    format!("{y:.0}")
                } else {
                    format!("{y:.1}")
                }
            })
            .label_style(("sans-serif", 14))
            .light_line_style(RGBColor(235, 235, 235))
            .draw()
            .map_err(|x| e(&x))?;
        let blue = RGBColor(31, 119, 180);
        let orange = RGBColor(230, 110, 20);
        for (name, data, color) in [
            ("bevy_sweep", &sweep, blue),
            ("avian2d 0.7", &avian, orange),
        ] {
            chart
                .draw_series(LineSeries::new(data.iter().copied(), color.stroke_width(2)))
                .map_err(|x| e(&x))?
                .label(name)
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2))
                });
            chart
                .draw_series(
                    data.iter()
                        .map(|&(x, y)| Circle::new((x, y), 4, color.filled())),
                )
                .map_err(|x| e(&x))?;
        }
        // The ratio of the medians above each avian point.
        chart
            .draw_series(timings.iter().filter_map(|t| {
                t.avian_ms.map(|a| {
                    Text::new(
                        format!("{:.1}×", a / t.sweep_ms),
                        (t.n as f64 * 0.93, a * 1.45),
                        ("sans-serif", 14),
                    )
                })
            }))
            .map_err(|x| e(&x))?;
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK.mix(0.3))
            .label_font(("sans-serif", 15))
            .draw()
            .map_err(|x| e(&x))?;
        root.present().map_err(|x| e(&x))?;
        Ok(())
    }
}

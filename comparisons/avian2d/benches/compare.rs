//! One fixed tick of the same scene in `bevy_sweep` and in avian2d 0.7 (kinematic sensors
//! with swept CCD), each on its own settled app.
//!
//! `cargo bench -p bevy_sweep_vs_avian2d --bench compare`. Compare the two medians of one
//! run; absolute times on a shared machine mean little.
//!
//! 100,000 colliders are timed for `bevy_sweep` only: avian's median tick at that size took
//! 1.9–3.6 s on the project's 2-core machine (see `README.md`), too slow for criterion's
//! samples; `cargo run --release -p bevy_sweep_vs_avian2d` still times 15 ticks of it.

use bevy::app::App;
use bevy_sweep_vs_avian2d::{AvianSetup, SEED, Scene, avian_app, sweep_app};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_main};
use std::time::Duration;

fn settled(mut app: App) -> App {
    for _ in 0..5 {
        app.update();
    }
    app
}

fn compare(c: &mut Criterion) {
    for n in [1_000, 10_000, 100_000] {
        let scene = Scene::mixed(n, SEED);
        let mut group = c.benchmark_group("compare");
        group
            .sample_size(10)
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(if n >= 100_000 { 8 } else { 4 }))
            .throughput(Throughput::Elements(n as u64));
        let mut sweep = settled(sweep_app(&scene));
        group.bench_function(BenchmarkId::new("bevy_sweep", n), |b| {
            b.iter(|| sweep.update());
        });
        drop(sweep);
        if n <= 10_000 {
            let mut avian = settled(avian_app(&scene, AvianSetup::SweptCcd, false));
            group.bench_function(BenchmarkId::new("avian2d", n), |b| {
                b.iter(|| avian.update());
            });
        }
        group.finish();
    }
}

/// Runs the comparison with criterion's settings from the command line.
fn benches() {
    let mut criterion = Criterion::default().configure_from_args();
    compare(&mut criterion);
}

criterion_main!(benches);

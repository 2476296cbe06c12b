//! The crate's broad phase (sort and sweep in strips) against the three methods it was
//! chosen over (`support/broad_alternatives`) on the same boxes: uniform, clustered in one
//! corner, long thin segments sharing a column, and a few huge boxes among small ones, at
//! 1,000 to 100,000 boxes. Every alternative must find the strips' pairs before it is timed.
//!
//! `cargo bench --bench broad`. The boxes look like a tick's swept bounds: a collider of
//! size 2–8 moving up to 5 units, at about 400 square units per collider.

use bevy_math::{Vec2, bounding::Aabb2d};
use bevy_sweep::broad::BroadPhase;
use criterion::{BenchmarkId, Criterion, Throughput, criterion_main};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[path = "support/broad_alternatives/mod.rs"]
mod broad_alternatives;

use broad_alternatives::{Alternative, Method};

/// A collider's swept bounds: a box of half-size `half` at `centre`, moved by up to 5 units.
fn swept(rng: &mut ChaCha8Rng, centre: Vec2, half: Vec2) -> Aabb2d {
    let step = Vec2::new(rng.random_range(-5.0..5.0), rng.random_range(-5.0..5.0));
    Aabb2d {
        min: (centre - half).min(centre - half + step),
        max: (centre + half).max(centre + half + step),
    }
}

fn scene(kind: &str, n: usize) -> Vec<Aabb2d> {
    let mut rng = ChaCha8Rng::seed_from_u64(n as u64);
    let side = (n as f32).sqrt() * 10.0;
    (0..n)
        .map(|k| {
            let half = Vec2::splat(rng.random_range(1.0..4.0));
            match kind {
                "uniform" => {
                    let c = Vec2::new(rng.random_range(-side..side), rng.random_range(-side..side));
                    swept(&mut rng, c, half)
                }
                // Nine tenths in a corner a tenth of the side wide (100 times denser).
                "clustered" => {
                    let c = if k % 10 == 0 {
                        Vec2::new(rng.random_range(-side..side), rng.random_range(-side..side))
                    } else {
                        Vec2::new(
                            rng.random_range(-side..-0.8 * side),
                            rng.random_range(-side..-0.8 * side),
                        )
                    };
                    swept(&mut rng, c, half * 0.3)
                }
                // A third are horizontal segments up to 400 units long, all in a column.
                "long_segments" => {
                    let c = Vec2::new(rng.random_range(-side..side), rng.random_range(-side..side));
                    let half = if k % 3 == 0 {
                        Vec2::new(rng.random_range(20.0..200.0), 0.5)
                    } else {
                        half
                    };
                    swept(&mut rng, c, half)
                }
                // One box in a thousand is a tenth of the arena wide.
                "huge_boxes" => {
                    let c = Vec2::new(rng.random_range(-side..side), rng.random_range(-side..side));
                    let half = if k % 1000 == 0 {
                        Vec2::splat(side * 0.1)
                    } else {
                        half
                    };
                    swept(&mut rng, c, half)
                }
                _ => unreachable!(),
            }
        })
        .collect()
}

#[expect(
    clippy::print_stderr,
    reason = "the bench reports how many pairs each scene has beside criterion's timings"
)]
fn broad(c: &mut Criterion) {
    let alternatives = [
        ("sort_and_sweep", Method::SortAndSweep),
        ("grid", Method::Grid),
        ("bvh", Method::Bvh),
    ];
    for kind in ["uniform", "clustered", "long_segments", "huge_boxes"] {
        let mut group = c.benchmark_group(format!("broad/{kind}"));
        group
            .sample_size(20)
            .warm_up_time(core::time::Duration::from_millis(500))
            .measurement_time(core::time::Duration::from_secs(2));
        for n in [1_000, 10_000, 100_000] {
            let bounds = scene(kind, n);
            group.throughput(Throughput::Elements(n as u64));
            let (mut pairs, mut expected) = (Vec::new(), Vec::new());
            let mut broad = BroadPhase::new();
            broad.find_pairs(&bounds, |_, _| true, &mut expected);
            group.bench_function(BenchmarkId::new("strips", n), |b| {
                b.iter(|| broad.find_pairs(&bounds, |_, _| true, &mut pairs));
            });
            expected.sort_unstable();
            for (name, method) in alternatives {
                let mut alternative = Alternative::default();
                alternative.find_pairs(method, &bounds, &mut pairs);
                pairs.sort_unstable();
                assert_eq!(
                    pairs, expected,
                    "{name} differs from the strips on {kind}/{n}"
                );
                group.bench_function(BenchmarkId::new(name, n), |b| {
                    b.iter(|| alternative.find_pairs(method, &bounds, &mut pairs));
                });
            }
            eprintln!("broad/{kind}/{n}: {} pairs", expected.len());
        }
        group.finish();
    }
}

/// Runs the groups with criterion's settings from the command line.
fn benches() {
    let mut criterion = Criterion::default().configure_from_args();
    broad(&mut criterion);
}

criterion_main!(benches);

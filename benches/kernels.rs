//! Criterion benchmarks of the geometry kernels, against `parry2d` and `bevy_math` where they
//! have an equivalent.
//!
//! # Groups
//!
//! Each group benchmarks one query; its functions all see the same input. Every iteration runs
//! the kernel over [`N`] = 65,536 distinct inputs (generated once, outside the timed loop, from
//! a seeded `ChaCha8Rng`) and passes each result to `black_box` (see [`consume`] for why not
//! into a `Vec`); the batch kernel writes into a preallocated slice. Criterion's throughput is
//! `N` elements, so its `thrpt` line and the table script report time per element. So many
//! distinct inputs matter: with a few thousand the branch predictor learns the data and branchy
//! kernels look several times faster than they are.
//!
//! - `clip/<mix>`: segment against the box `[-1, 1]²`, for five mixes of segments:
//!   - `uniform`: both endpoints uniform in `[-4, 4]²` (the box covers 1/16 of that square):
//!     about 60% miss the box (48% trivially, beyond one edge), 39% cross its boundary and
//!     0.4% lie inside;
//!   - `mostly_outside`: 90% wholly outside the box (about 99% of those trivially rejectable,
//!     i.e. beyond one edge), 5% inside, 5% crossing its boundary;
//!   - `mostly_inside`: 90% wholly inside, 5% outside, 5% crossing;
//!   - `mixed`: a third each of inside, outside and crossing, in random order;
//!   - `long_traversing`: chords of a circle of radius 6 around the box that pass through it,
//!     entering and leaving.
//!
//!   The functions are the four named algorithms (`liang_barsky`, `slab`, `cohen_sutherland`,
//!   `sectors`), `default` ([`clip_segment_aabb`]), `batch_simd` ([`clip_segments_aabb`] over
//!   the structure of arrays the others read too), `parry2d_cast_local_ray` (`parry2d`'s
//!   `Aabb::cast_local_ray`, ray direction = the segment's unnormalised delta, max time of
//!   impact 1, solid; it returns the entry parameter only, where the kernels here return entry
//!   and exit, certified) and `bevy_math_raycast2d` (`RayCast2d::aabb_intersection_at`, which
//!   wants a unit direction, so normalising the delta is part of its cost).
//! - `segment_segment`: [`intersect_segment_segment`] on pairs of segments with endpoints
//!   uniform in `[-1, 1]²`, and `parry2d::utils::segments_intersection2d` (epsilon-based, not
//!   exact) on the same pairs.
//! - `segment_circle`: [`intersect_segment_circle`], segments uniform in `[-2, 2]²`, centres
//!   uniform in `[-2, 2]²`, radii uniform in `[0.1, 1.5]`.
//! - `sweep_point_segment`: [`sweep_point_segment`] on `uniform` paths (all six positions
//!   uniform in `[-1, 1]²`) and on `hits`, paths built so that the point lies on the segment at
//!   a random time in the step, so every case sweeps at least once.
//! - `point_box`: moving points (both ends uniform in `[-4, 4]²`) against one moving unit box:
//!   [`contact_intervals`] pair by pair, and [`PointBoxBatch`] (eight relative paths at a time).
//! - `point_box_pairs`: the same points, each against its own moving box (centres uniform in
//!   `[-3, 3]²`, half extents in `[0.1, 1.1]`): pairs that share nothing, what the plugin
//!   batches in a busy tick.
//!
//! # Running
//!
//! ```text
//! cargo bench --bench kernels                 # everything, a few minutes
//! cargo bench --bench kernels -- clip/uniform # one group (a regex on the benchmark id)
//! python3 scripts/bench_table.py              # Markdown tables from target/criterion
//! ```

use bevy_math::bounding::{Aabb2d, RayCast2d};
use bevy_math::{Dir2, Vec2};
use bevy_sweep::geometry::{
    SegmentBatch, SegmentClip, clip_segment_aabb, clip_segment_aabb_cohen_sutherland,
    clip_segment_aabb_liang_barsky, clip_segment_aabb_sectors, clip_segment_aabb_slab,
    clip_segments_aabb, intersect_segment_circle, intersect_segment_segment, sweep_point_segment,
};
use bevy_sweep::narrow::{PointBoxBatch, ShapePath, contact_intervals};
use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_main};
use parry2d::query::RayCast;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::f32::consts::{PI, TAU};
use std::hint::black_box;
use std::time::Duration;

/// Inputs per iteration: enough distinct cases that the branch predictor cannot memorise them.
const N: usize = 65_536;

/// The box every `clip/*` benchmark clips against.
const BOX: Aabb2d = Aabb2d {
    min: Vec2::new(-1.0, -1.0),
    max: Vec2::new(1.0, 1.0),
};

/// Segments as a structure of arrays, the layout [`clip_segments_aabb`] takes; the scalar
/// kernels read the same arrays.
struct Segments {
    start_x: Vec<f32>,
    start_y: Vec<f32>,
    end_x: Vec<f32>,
    end_y: Vec<f32>,
}

impl Segments {
    fn from_pairs(pairs: &[[Vec2; 2]]) -> Self {
        Self {
            start_x: pairs.iter().map(|p| p[0].x).collect(),
            start_y: pairs.iter().map(|p| p[0].y).collect(),
            end_x: pairs.iter().map(|p| p[1].x).collect(),
            end_y: pairs.iter().map(|p| p[1].y).collect(),
        }
    }

    fn len(&self) -> usize {
        self.start_x.len()
    }

    fn batch(&self) -> SegmentBatch<'_> {
        SegmentBatch {
            start_x: &self.start_x,
            start_y: &self.start_y,
            end_x: &self.end_x,
            end_y: &self.end_y,
        }
    }

    /// Calls `f(start, end)` for every segment and hands each result to [`consume`].
    #[inline(always)]
    fn for_each<T>(&self, mut f: impl FnMut(Vec2, Vec2) -> T) {
        let n = self.start_x.len();
        let (sx, sy) = (&self.start_x[..n], &self.start_y[..n]);
        let (ex, ey) = (&self.end_x[..n], &self.end_y[..n]);
        for i in 0..n {
            consume(f(Vec2::new(sx[i], sy[i]), Vec2::new(ex[i], ey[i])));
        }
    }
}

/// Keeps one result alive: `black_box` on a reference to it makes the compiler compute all of
/// it, in memory, where the kernel writes it (for results returned through memory) or with one
/// store (for those returned in registers).
///
/// Copying each result into a preallocated `Vec`, or passing it to `black_box` by value, looks
/// equivalent but is not: results of 12 bytes or more come back through memory, written field
/// by field in 4-byte stores, and the compiler copies them on with 8-byte loads, which cannot
/// be forwarded from those stores. `perf annotate` showed that stall taking up to 30% of the
/// scalar clip benchmarks' time (`mostly_outside`): a cost of the harness, not of the kernel,
/// and one that the `Option<f32>` of `parry2d` and `bevy_math` (returned in registers) never
/// paid.
#[inline(always)]
#[expect(
    clippy::needless_pass_by_value,
    reason = "taking the result is the point: it ends here, in memory"
)]
fn consume<T>(result: T) {
    black_box(&result);
}

fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

fn point_in(rng: &mut ChaCha8Rng, half: f32) -> Vec2 {
    Vec2::new(
        rng.random_range(-half..=half),
        rng.random_range(-half..=half),
    )
}

/// Where a segment lies relative to [`BOX`].
#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    Inside,
    Outside,
    Crossing,
}

fn contains(p: Vec2) -> bool {
    p.cmpge(BOX.min).all() && p.cmple(BOX.max).all()
}

fn classify(start: Vec2, end: Vec2) -> Class {
    if contains(start) && contains(end) {
        Class::Inside
    } else if clip_segment_aabb(start, end, &BOX).is_none() {
        Class::Outside
    } else {
        Class::Crossing
    }
}

/// A random segment of the given class.
fn segment_of(rng: &mut ChaCha8Rng, class: Class) -> [Vec2; 2] {
    match class {
        Class::Inside => [point_in(rng, 1.0), point_in(rng, 1.0)],
        // Short-to-medium segments scattered around the box. About 99% of the outside ones lie
        // wholly beyond one edge (trivially rejectable); the rest pass a corner diagonally.
        Class::Outside | Class::Crossing => loop {
            let start = point_in(rng, if class == Class::Outside { 4.0 } else { 2.0 });
            let angle = rng.random_range(0.0..TAU);
            let length = rng.random_range(0.0..2.5);
            let end = start + length * Vec2::from_angle(angle);
            if classify(start, end) == class {
                return [start, end];
            }
        },
    }
}

/// `N` segments, each of a class drawn with the given weights (inside, outside, crossing).
fn segments_by_class(seed: u64, weights: [f32; 3]) -> Vec<[Vec2; 2]> {
    let mut rng = rng(seed);
    let total: f32 = weights.iter().sum();
    (0..N)
        .map(|_| {
            let pick = rng.random_range(0.0..total);
            let class = if pick < weights[0] {
                Class::Inside
            } else if pick < weights[0] + weights[1] {
                Class::Outside
            } else {
                Class::Crossing
            };
            segment_of(&mut rng, class)
        })
        .collect()
}

/// The five `clip/*` data mixes.
fn clip_mixes() -> Vec<(&'static str, Segments)> {
    let uniform = {
        let mut rng = rng(1);
        (0..N)
            .map(|_| [point_in(&mut rng, 4.0), point_in(&mut rng, 4.0)])
            .collect::<Vec<_>>()
    };
    let long_traversing = {
        let mut rng = rng(5);
        (0..N)
            .map(|_| {
                // A chord of the circle of radius 6 subtending π ± 0.25 passes within
                // 6·sin(0.125) ≈ 0.75 of the centre, so through the box.
                let angle = rng.random_range(0.0..TAU);
                let back = angle + PI + rng.random_range(-0.25..0.25);
                [6.0 * Vec2::from_angle(angle), 6.0 * Vec2::from_angle(back)]
            })
            .collect::<Vec<_>>()
    };
    vec![
        ("uniform", Segments::from_pairs(&uniform)),
        (
            "mostly_outside",
            Segments::from_pairs(&segments_by_class(2, [0.05, 0.9, 0.05])),
        ),
        (
            "mostly_inside",
            Segments::from_pairs(&segments_by_class(3, [0.9, 0.05, 0.05])),
        ),
        (
            "mixed",
            Segments::from_pairs(&segments_by_class(4, [1.0, 1.0, 1.0])),
        ),
        ("long_traversing", Segments::from_pairs(&long_traversing)),
    ]
}

/// Benchmarks one scalar clipping kernel of this crate. Generic over the function item, so the
/// call is static and inlined, as in real use (a `fn` pointer would cost an indirect call per
/// segment that none of the competitors pay).
fn bench_scalar_clip(
    group: &mut BenchmarkGroup<'_, WallTime>,
    name: &str,
    segments: &Segments,
    kernel: impl Fn(Vec2, Vec2, &Aabb2d) -> Option<SegmentClip>,
) {
    group.bench_function(name, |b| {
        b.iter(|| {
            let aabb = black_box(&BOX);
            segments.for_each(|start, end| kernel(start, end, aabb));
        });
    });
}

fn bench_clip(c: &mut Criterion) {
    let parry_box = parry2d::bounding_volume::Aabb::new(
        parry2d::math::Vector::new(BOX.min.x, BOX.min.y),
        parry2d::math::Vector::new(BOX.max.x, BOX.max.y),
    );
    for (mix, segments) in clip_mixes() {
        assert_eq!(segments.len(), N);
        // `RayCast2d` needs a direction, which a zero-length segment lacks; the benchmark skips
        // those (and counts them). The random data holds none, so it is the same work as the
        // others.
        let degenerate = (0..N)
            .filter(|&i| {
                segments.start_x[i] == segments.end_x[i] && segments.start_y[i] == segments.end_y[i]
            })
            .count();
        assert_eq!(
            degenerate, 0,
            "{mix}: zero-length segments would skew bevy_math_raycast2d"
        );

        let mut group = c.benchmark_group(format!("clip/{mix}"));
        group.throughput(Throughput::Elements(N as u64));
        bench_scalar_clip(
            &mut group,
            "liang_barsky",
            &segments,
            clip_segment_aabb_liang_barsky,
        );
        bench_scalar_clip(&mut group, "slab", &segments, clip_segment_aabb_slab);
        bench_scalar_clip(
            &mut group,
            "cohen_sutherland",
            &segments,
            clip_segment_aabb_cohen_sutherland,
        );
        bench_scalar_clip(&mut group, "sectors", &segments, clip_segment_aabb_sectors);
        bench_scalar_clip(&mut group, "default", &segments, clip_segment_aabb);
        // The batch writes its results to memory; that is its interface (and it is not the
        // stall described at `consume`, which comes from copying returned values).
        let mut out: Vec<Option<SegmentClip>> = vec![None; N];
        group.bench_function("batch_simd", |b| {
            b.iter(|| {
                clip_segments_aabb(segments.batch(), black_box(&BOX), &mut out)
                    .expect("the slices have equal lengths");
                black_box(&mut out);
            });
        });
        group.bench_function("parry2d_cast_local_ray", |b| {
            b.iter(|| {
                let aabb = black_box(&parry_box);
                segments.for_each(|start, end| {
                    let delta = end - start;
                    let ray = parry2d::query::Ray::new(
                        parry2d::math::Vector::new(start.x, start.y),
                        parry2d::math::Vector::new(delta.x, delta.y),
                    );
                    aabb.cast_local_ray(&ray, 1.0, true)
                });
            });
        });
        group.bench_function("bevy_math_raycast2d", |b| {
            b.iter(|| {
                let aabb = black_box(&BOX);
                let mut skipped = 0_u32;
                segments.for_each(|start, end| {
                    // Normalising the delta is part of the cost: `RayCast2d` takes a `Dir2`.
                    // Its answer is a distance; dividing by the length makes it a segment
                    // parameter like the others'.
                    if let Ok((direction, length)) = Dir2::new_and_length(end - start) {
                        RayCast2d::new(start, direction, length)
                            .aabb_intersection_at(aabb)
                            .map(|distance| distance / length)
                    } else {
                        skipped += 1;
                        None
                    }
                });
                black_box(skipped);
            });
        });
        group.finish();
    }
}

fn bench_segment_segment(c: &mut Criterion) {
    let mut rng = rng(10);
    let pairs: Vec<[Vec2; 4]> = (0..N)
        .map(|_| [(); 4].map(|()| point_in(&mut rng, 1.0)))
        .collect();
    let mut group = c.benchmark_group("segment_segment");
    group.throughput(Throughput::Elements(N as u64));
    group.bench_function("intersect_segment_segment", |b| {
        b.iter(|| {
            for &[a0, a1, b0, b1] in &pairs {
                consume(intersect_segment_segment(a0, a1, b0, b1));
            }
        });
    });
    group.bench_function("parry2d_segments_intersection2d", |b| {
        b.iter(|| {
            for points in &pairs {
                let [a0, a1, b0, b1] = points.map(|p| parry2d::math::Vector::new(p.x, p.y));
                consume(parry2d::utils::segments_intersection2d(
                    a0,
                    a1,
                    b0,
                    b1,
                    parry2d::math::DEFAULT_EPSILON,
                ));
            }
        });
    });
    group.finish();
}

fn bench_segment_circle(c: &mut Criterion) {
    let mut rng = rng(20);
    let cases: Vec<([Vec2; 3], f32)> = (0..N)
        .map(|_| {
            let points = [(); 3].map(|()| point_in(&mut rng, 2.0));
            (points, rng.random_range(0.1..1.5))
        })
        .collect();
    let mut group = c.benchmark_group("segment_circle");
    group.throughput(Throughput::Elements(N as u64));
    group.bench_function("intersect_segment_circle", |b| {
        b.iter(|| {
            for &([start, end, center], radius) in &cases {
                consume(intersect_segment_circle(start, end, center, radius));
            }
        });
    });
    group.finish();
}

/// Paths `[first endpoint, second endpoint, point]`, each `[position at 0, position at 1]`:
/// `uniform` (every vertex anywhere in the unit square at both ends: the segment turns and
/// stretches), `hits` (the point on the segment at a random time), `still` and
/// `translating` segments.
type SweepCase = [[Vec2; 2]; 3];

fn bench_sweep_point_segment(c: &mut Criterion) {
    let uniform: Vec<SweepCase> = {
        let mut rng = rng(30);
        (0..N)
            .map(|_| [(); 3].map(|()| [point_in(&mut rng, 1.0), point_in(&mut rng, 1.0)]))
            .collect()
    };
    let hits: Vec<SweepCase> = {
        let mut rng = rng(31);
        (0..N)
            .map(|_| {
                // At time `time` the point is at `contact`, between the endpoints; each of
                // the three moves linearly with its own random velocity.
                let time = rng.random_range(0.0..=1.0_f32);
                let contact = point_in(&mut rng, 1.0);
                let axis = Vec2::from_angle(rng.random_range(0.0..TAU));
                let at_contact = [
                    contact + rng.random_range(0.05..1.0) * axis,
                    contact - rng.random_range(0.05..1.0) * axis,
                    contact,
                ];
                at_contact.map(|p| {
                    let velocity = point_in(&mut rng, 2.0);
                    [p - time * velocity, p + (1.0 - time) * velocity]
                })
            })
            .collect()
    };
    // A segment that stands still, and one that translates without turning (each endpoint is
    // its offset plus the translation, rounded to `f32` at each end as a transform rounds
    // it), against a point moving through the same unit square: the most common segments of
    // games, walls and sliding platforms.
    let moving_point = |rng: &mut ChaCha8Rng| [point_in(rng, 1.0), point_in(rng, 1.0)];
    let still: Vec<SweepCase> = {
        let mut rng = rng(32);
        (0..N)
            .map(|_| {
                let (a, b) = (point_in(&mut rng, 1.0), point_in(&mut rng, 1.0));
                [[a, a], [b, b], moving_point(&mut rng)]
            })
            .collect()
    };
    let translating: Vec<SweepCase> = {
        let mut rng = rng(33);
        (0..N)
            .map(|_| {
                let (center, motion) = (point_in(&mut rng, 1.0), point_in(&mut rng, 0.5));
                let offset = point_in(&mut rng, 0.5);
                let end = center + motion;
                [
                    [center - offset, end - offset],
                    [center + offset, end + offset],
                    moving_point(&mut rng),
                ]
            })
            .collect()
    };
    let mut group = c.benchmark_group("sweep_point_segment");
    group.throughput(Throughput::Elements(N as u64));
    for (name, cases) in [
        ("uniform", &uniform),
        ("hits", &hits),
        ("still", &still),
        ("translating", &translating),
    ] {
        group.bench_function(name, |b| {
            b.iter(|| {
                for &[a, b, p] in cases {
                    consume(sweep_point_segment(a, b, p));
                }
            });
        });
    }
    group.finish();
}

/// Moving points against one moving box (bullets near a wall), and each against its own box:
/// [`contact_intervals`] pair by pair, against [`PointBoxBatch`], which clips eight relative
/// paths at a time with SIMD.
fn bench_point_box(c: &mut Criterion) {
    let mut rng = rng(6);
    let aabb = ShapePath::Aabb {
        center: [Vec2::new(0.0, 0.0), Vec2::new(0.3, -0.2)],
        half_extents: Vec2::ONE,
    };
    let points: Vec<ShapePath> = (0..N)
        .map(|_| ShapePath::Point([point_in(&mut rng, 4.0), point_in(&mut rng, 4.0)]))
        .collect();
    let mut group = c.benchmark_group("point_box");
    group.throughput(Throughput::Elements(N as u64));
    group.bench_function("contact_intervals", |b| {
        b.iter(|| {
            for p in &points {
                consume(contact_intervals(p, &aabb));
            }
        });
    });
    let mut batch = PointBoxBatch::default();
    group.bench_function("point_box_batch", |b| {
        b.iter(|| batch.intervals(&points, &aabb, |i, t| consume((i, t))));
    });
    group.finish();
    // Each point with its own moving box (pairs that share nothing, as in a busy tick).
    let pairs: Vec<(ShapePath, ShapePath)> = points
        .iter()
        .map(|&point| {
            let center = [point_in(&mut rng, 3.0), point_in(&mut rng, 3.0)];
            let half_extents = point_in(&mut rng, 1.0).abs() + Vec2::splat(0.1);
            let aabb = ShapePath::Aabb {
                center,
                half_extents,
            };
            (point, aabb)
        })
        .collect();
    let mut group = c.benchmark_group("point_box_pairs");
    group.throughput(Throughput::Elements(N as u64));
    group.bench_function("contact_intervals", |b| {
        b.iter(|| {
            for (p, aabb) in &pairs {
                consume(contact_intervals(p, aabb));
            }
        });
    });
    group.bench_function("point_box_batch", |b| {
        b.iter(|| batch.pair_intervals(pairs.iter().copied(), |i, t| consume((i, t))));
    });
    group.finish();
}

/// Runs every group with the shared configuration (what `criterion_group!` would generate, but
/// documented).
fn benches() {
    let mut criterion = Criterion::default()
        .sample_size(20)
        .measurement_time(Duration::from_secs(3))
        .warm_up_time(Duration::from_secs(1))
        .configure_from_args();
    bench_clip(&mut criterion);
    bench_segment_segment(&mut criterion);
    bench_segment_circle(&mut criterion);
    bench_sweep_point_segment(&mut criterion);
    bench_point_box(&mut criterion);
}

criterion_main!(benches);

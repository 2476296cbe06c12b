//! The scene of the move-and-slide bench (`benches/respond.rs`), which the avian2d comparison
//! (`comparisons/avian2d/src/slide.rs`) builds too: hills, boxes on them, and the starts and
//! motions of a capsule.

use bevy_math::Vec2;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Half the side of a box on the hills.
pub const TILE: f32 = 8.0;

/// The hills' height at `x`.
pub fn hill(x: f32) -> f32 {
    60.0 * (x * 0.004).sin() + 20.0 * (x * 0.021).cos()
}

/// A 1,000-point polyline of the hills, the centres of 500 boxes standing on them, and 64
/// starts of a capsule (half height 6, radius 5) a skin above the hills and clear of the
/// boxes, each with a walk-and-fall motion of one tick.
#[allow(
    clippy::type_complexity,
    reason = "three lists, named where they are used"
)]
pub fn slide_geometry() -> (Vec<Vec2>, Vec<Vec2>, Vec<(Vec2, Vec2)>) {
    let mut rng = ChaCha8Rng::seed_from_u64(0x511de);
    let half = 5_000.0;
    let points = (0..1_000)
        .map(|k| {
            let x = -half + k as f32 * 10.0;
            Vec2::new(x, hill(x))
        })
        .collect();
    let boxes: Vec<Vec2> = (0..500)
        .map(|_| {
            let x = rng.random_range(-half + 100.0..half - 100.0);
            Vec2::new(x, hill(x) + TILE - 3.0)
        })
        .collect();
    let mut starts = Vec::new();
    while starts.len() < 64 {
        let x = rng.random_range(-half + 200.0..half - 200.0);
        let motion = Vec2::new(rng.random_range(-6.0..6.0), -3.0);
        if boxes.iter().any(|b| (b.x - x).abs() < 2.0 * TILE + 10.0) {
            continue;
        }
        // The capsule (5 wide each side, its bottom 11 below its centre) just above the
        // highest ground under it.
        let ground = (-10..=10)
            .map(|k| hill(x + k as f32 * 0.5))
            .fold(f32::NEG_INFINITY, f32::max);
        starts.push((Vec2::new(x, ground + 11.0 + 0.05), motion));
    }
    (points, boxes, starts)
}

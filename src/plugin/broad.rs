//! Broad phase: which pairs' swept bounds overlap, by sort and sweep.

use super::components::CollisionLayers;
use bevy::math::bounding::Aabb2d;

/// Pairs `(i, j)`, `i < j`, whose closed boxes overlap and whose layers interact.
///
/// The boxes are sorted by their left edge; each box is then compared only with the boxes
/// that start before it ends on that axis, so a tick costs `O(n log n)` plus the pairs that
/// overlap on x. `order` is scratch space kept between ticks.
pub(crate) fn overlapping_pairs(
    bounds: &[Aabb2d],
    layers: &[CollisionLayers],
    order: &mut Vec<u32>,
    pairs: &mut Vec<(u32, u32)>,
) {
    pairs.clear();
    order.clear();
    order.extend(0..bounds.len() as u32);
    order.sort_unstable_by(|&i, &j| {
        bounds[i as usize]
            .min
            .x
            .total_cmp(&bounds[j as usize].min.x)
            .then(i.cmp(&j))
    });
    for (k, &i) in order.iter().enumerate() {
        let a = &bounds[i as usize];
        for &j in &order[k + 1..] {
            let b = &bounds[j as usize];
            if b.min.x > a.max.x {
                break;
            }
            if b.min.y <= a.max.y
                && a.min.y <= b.max.y
                && layers[i as usize].interacts_with(&layers[j as usize])
            {
                pairs.push((i.min(j), i.max(j)));
            }
        }
    }
}

/// The box grown by a relative `2^-20` of its coordinates (and the smallest normal number), so
/// that rounding in computing it can never separate shapes that touch exactly.
pub(crate) fn inflate(aabb: Aabb2d) -> Aabb2d {
    const GROW: f32 = 1.0 / (1 << 20) as f32;
    let pad = |v: bevy::math::Vec2| v.abs() * GROW + bevy::math::Vec2::splat(f32::MIN_POSITIVE);
    Aabb2d {
        min: aabb.min - pad(aabb.min),
        max: aabb.max + pad(aabb.max),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::math::Vec2;

    /// Every pair against the brute-force answer on a grid of boxes with touching edges.
    #[test]
    fn matches_all_pairs() {
        let mut bounds = Vec::new();
        let mut state = 12345u32;
        let mut next = || {
            state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (state >> 16) as f32 / 65536.0
        };
        for _ in 0..300 {
            let min = Vec2::new((next() * 40.0).floor(), (next() * 40.0).floor());
            let size = Vec2::new((next() * 6.0).floor(), (next() * 6.0).floor());
            bounds.push(Aabb2d {
                min,
                max: min + size,
            });
        }
        let layers: Vec<CollisionLayers> = (0..bounds.len())
            .map(|i| {
                if i % 7 == 0 {
                    CollisionLayers::new(2, 2)
                } else {
                    CollisionLayers::new(1, 1)
                }
            })
            .collect();
        let (mut order, mut pairs) = (Vec::new(), Vec::new());
        overlapping_pairs(&bounds, &layers, &mut order, &mut pairs);
        pairs.sort_unstable();
        let mut expected = Vec::new();
        for i in 0..bounds.len() {
            for j in i + 1..bounds.len() {
                let (a, b) = (&bounds[i], &bounds[j]);
                if a.min.x <= b.max.x
                    && b.min.x <= a.max.x
                    && a.min.y <= b.max.y
                    && b.min.y <= a.max.y
                    && layers[i].interacts_with(&layers[j])
                {
                    expected.push((i as u32, j as u32));
                }
            }
        }
        assert!(expected.len() > 100, "the test should have many overlaps");
        assert_eq!(pairs, expected);
    }
}

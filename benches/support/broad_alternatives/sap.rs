//! Sort and sweep on the axis along which the box centres spread most.

use super::{overlap, usable};
use bevy_math::bounding::Aabb2d;

#[derive(Debug, Default)]
pub(super) struct SortAndSweep {
    /// The lower edge as an order-preserving integer in the high half, the index in the low.
    keys: Vec<u64>,
}

impl SortAndSweep {
    pub(super) fn find_pairs(
        &mut self,
        bounds: &[Aabb2d],
        filter: &impl Fn(u32, u32) -> bool,
        pairs: &mut Vec<(u32, u32)>,
    ) {
        // The variance of the centres on each axis, in f64 so large scenes do not cancel.
        let (mut n, mut sum, mut squares) = (0.0f64, [0.0f64; 2], [0.0f64; 2]);
        for b in bounds.iter().filter(|b| usable(b)) {
            let c = (b.min + b.max) * 0.5;
            for (axis, v) in [f64::from(c.x), f64::from(c.y)].into_iter().enumerate() {
                sum[axis] += v;
                squares[axis] += v * v;
            }
            n += 1.0;
        }
        let variance = |axis: usize| squares[axis] - sum[axis] * sum[axis] / n.max(1.0);
        let axis = usize::from(variance(1) > variance(0));
        self.keys.clear();
        self.keys.extend(
            bounds
                .iter()
                .enumerate()
                .filter(|(_, b)| usable(b))
                .map(|(i, b)| {
                    (u64::from(b.min[axis].to_bits() ^ sign_flip(b.min[axis])) << 32) | i as u64
                }),
        );
        // (The crate sorts with a radix sort; a comparison sort serves this alternative.)
        self.keys.sort_unstable_by_key(|k| k >> 32);
        for (k, &key) in self.keys.iter().enumerate() {
            let i = key as u32;
            let a = &bounds[i as usize];
            let end = a.max[axis];
            for &other in &self.keys[k + 1..] {
                let j = other as u32;
                let b = &bounds[j as usize];
                if b.min[axis] > end {
                    break;
                }
                if overlap(a, b) && filter(i.min(j), i.max(j)) {
                    pairs.push((i.min(j), i.max(j)));
                }
            }
        }
    }
}

/// The bits to flip so that an `f32`'s bits, as an integer, keep the order of the float.
fn sign_flip(x: f32) -> u32 {
    if x.is_sign_negative() {
        u32::MAX
    } else {
        0x8000_0000
    }
}

//! The swept bounds handed to [`crate::broad`].

use bevy::math::bounding::Aabb2d;

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

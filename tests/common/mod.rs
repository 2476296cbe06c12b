//! Helpers shared by the integration test binaries, each of which includes this module with
//! `mod common;`: a headless App that runs exactly one fixed tick per update and records the
//! events of each, the small checks the tests make of what it reports, and the world of every
//! shape that the replay and renumbering tests run.
//!
//! (The exact oracle, with the event rules and the tick check that hold the plugin to it, is
//! here too, in `exact/`, but outside this module: see `exact/mod.rs`.)

use bevy::math::Vec2;

#[cfg(feature = "plugin")]
mod app;
#[cfg(feature = "plugin")]
pub(crate) mod every_shape_world;
#[cfg(feature = "plugin")]
pub(crate) mod warnings;
#[cfg(feature = "plugin")]
pub(crate) use app::*;

/// A `Collider::ConvexPolygon` through `vertices` as reflection builds one (a scene file, an
/// inspector's edit): no constructor checks it, so the plugin must.
#[cfg(feature = "plugin")]
pub(crate) fn unchecked_convex_polygon(vertices: Vec<Vec2>) -> bevy_sweep::prelude::Collider {
    use bevy::reflect::FromReflect;
    use bevy::reflect::enums::{DynamicEnum, DynamicVariant};
    use bevy::reflect::structs::DynamicStruct;
    use bevy::reflect::tuple_struct::DynamicTupleStruct;
    let mut checked = DynamicTupleStruct::default();
    checked.insert(vertices);
    let mut fields = DynamicStruct::default();
    fields.insert("vertices", checked);
    let dynamic = DynamicEnum::new("ConvexPolygon", DynamicVariant::Struct(fields));
    bevy_sweep::prelude::Collider::from_reflect(&dynamic).expect("a reflected convex polygon")
}

/// A `Collider::Polygon` through `points` cut into `pieces` as reflection builds one: no
/// constructor checks it, so the plugin must.
#[cfg(feature = "plugin")]
pub(crate) fn unchecked_polygon(
    points: Vec<Vec2>,
    pieces: Vec<Vec<u32>>,
) -> bevy_sweep::prelude::Collider {
    use bevy::reflect::FromReflect;
    use bevy::reflect::enums::{DynamicEnum, DynamicVariant};
    use bevy::reflect::structs::DynamicStruct;
    use bevy::reflect::tuple_struct::DynamicTupleStruct;
    let (mut outline, mut cut) = (DynamicTupleStruct::default(), DynamicTupleStruct::default());
    outline.insert(points);
    cut.insert(pieces);
    let mut fields = DynamicStruct::default();
    fields.insert("points", outline);
    fields.insert("pieces", cut);
    let dynamic = DynamicEnum::new("Polygon", DynamicVariant::Struct(fields));
    bevy_sweep::prelude::Collider::from_reflect(&dynamic).expect("a reflected polygon")
}

/// A `Collider::Compound` of `parts` as reflection builds one (poses unchecked).
#[cfg(feature = "plugin")]
pub(crate) fn unchecked_compound(
    parts: Vec<(bevy::math::Isometry2d, bevy_sweep::prelude::Collider)>,
) -> bevy_sweep::prelude::Collider {
    use bevy::reflect::FromReflect;
    use bevy::reflect::enums::{DynamicEnum, DynamicVariant};
    use bevy::reflect::structs::DynamicStruct;
    use bevy::reflect::tuple_struct::DynamicTupleStruct;
    let mut checked = DynamicTupleStruct::default();
    checked.insert(parts);
    let mut fields = DynamicStruct::default();
    fields.insert("parts", checked);
    let dynamic = DynamicEnum::new("Compound", DynamicVariant::Struct(fields));
    bevy_sweep::prelude::Collider::from_reflect(&dynamic).expect("a reflected compound")
}

/// `Vec2::new`, short enough for tables of points.
pub(crate) fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

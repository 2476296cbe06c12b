//! Tile levels merged into few colliders (`bevy_sweep::tiles`): a character runs across a
//! level of floors and steps built from a `TileGrid`, its colliders spawned as children of
//! the level's entity, and never catches, sinks or falls through.

use crate::common::*;
use bevy::prelude::*;
use bevy_sweep::prelude::*;
use bevy_sweep::tiles::TileGrid;

/// Gravity, and a run to the right at 300 units/s.
fn run_right(mut heroes: Query<&mut Velocity, With<KinematicCharacter>>) {
    for mut v in &mut heroes {
        v.0.y -= 900.0 * TICK;
        v.0.x = 300.0;
    }
}

/// 80 × 8 cells of 16 units: a floor two cells thick, a step up at column 30 and another at
/// column 50, the level's entity at (-100, -200). The hero steps up 16 units.
#[test]
fn a_character_runs_across_a_merged_tile_level() {
    const TILE: f32 = 16.0;
    let grid = TileGrid::from_fn(80, 8, |c| {
        c.y < 2 || (c.y == 2 && c.x >= 30) || (c.y == 3 && c.x >= 50)
    })
    .expect("a small grid");
    let colliders = grid.colliders(Vec2::splat(TILE));
    assert_eq!(grid.solid_count(), 80 * 2 + 50 + 30);
    assert_eq!(colliders.len(), 3, "{:?}", grid.merged());

    let mut app = app();
    app.add_systems(FixedUpdate, run_right);
    let origin = v(-100.0, -200.0);
    let level = app
        .world_mut()
        .spawn(Transform::from_translation(origin.extend(0.0)))
        .id();
    for (collider, at) in colliders {
        app.world_mut().spawn((collider, at, ChildOf(level)));
    }
    let radius = 6.0;
    let skin = KinematicCharacter::default().skin;
    let floor = origin.y + 2.0 * TILE;
    let hero = app
        .world_mut()
        .spawn((
            Collider::circle(radius),
            Transform::from_xyz(origin.x + 5.0 * TILE, floor + radius + skin, 0.0),
            KinematicCharacter {
                step_height: TILE + 1.0,
                ..default()
            },
        ))
        .id();
    let start = app.world().get::<Transform>(hero).unwrap().translation;
    let ticks = 240;
    let mut lowest = f32::INFINITY;
    for _ in 0..ticks {
        tick(&mut app);
        let at = app.world().get::<Transform>(hero).unwrap().translation;
        // Above the floor, or the step it has climbed, at every tick.
        let column = ((at.x - origin.x) / TILE).floor();
        let ground = floor
            + if column >= 50.0 {
                2.0 * TILE
            } else if column >= 30.0 {
                TILE
            } else {
                0.0
            };
        lowest = lowest.min(at.y - radius - ground);
    }
    let end = app.world().get::<Transform>(hero).unwrap().translation;
    let state = app.world().get::<CharacterState>(hero).unwrap();
    // It ran the whole way (a catch on a seam or a step would cost it distance), and stands
    // on the top step.
    let ran = end.x - start.x;
    assert!(
        ran > 0.97 * 300.0 * TICK * ticks as f32,
        "ran {ran} in {ticks} ticks"
    );
    assert!(end.x > origin.x + 60.0 * TILE, "ended at {end}");
    assert!(state.grounded, "not grounded at {end}");
    assert_close(
        end.y,
        floor + 2.0 * TILE + radius + skin,
        0.1,
        "on the top step",
    );
    assert!(lowest > -0.01, "sank {lowest} below the ground");
}

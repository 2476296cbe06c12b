//! The hero of the level examples (`tilemap`, `tiled`, `ldtk`): a capsule
//! `KinematicCharacter` that runs (`D`/`Right`, `A`/`Left`) and jumps (`Space`/`W`/`Up`)
//! under gravity, and logs once it has crossed its level.

use bevy::prelude::*;
use bevy_sweep::prelude::*;

/// Adds the hero's controls and the log of its crossing.
pub struct LevelHero {
    /// The example's name, which starts its log lines.
    pub name: &'static str,
    /// Running speed and jump, in units per second.
    pub run: f32,
    pub jump: f32,
    /// The hero has crossed the level once it is right of this `x`.
    pub finish_x: f32,
}

#[derive(Component)]
pub struct Hero;

/// What the hero's systems read: the plugin's settings, and whether it has crossed yet.
#[derive(Resource)]
struct Settings {
    name: &'static str,
    run: f32,
    jump: f32,
    finish_x: f32,
    crossed: bool,
}

const GRAVITY: f32 = 900.0;

impl Plugin for LevelHero {
    fn build(&self, app: &mut App) {
        app.insert_resource(Settings {
            name: self.name,
            run: self.run,
            jump: self.jump,
            finish_x: self.finish_x,
            crossed: false,
        })
        .add_systems(FixedUpdate, run_and_jump)
        .add_systems(Update, watch_hero);
    }
}

/// The hero at `at`, able to step up a tile of `tile` units.
pub fn hero(at: Vec2, tile: f32) -> impl Bundle {
    (
        Hero,
        Collider::capsule(Vec2::new(0.0, -4.0), Vec2::new(0.0, 4.0), 6.0),
        Transform::from_translation(at.extend(5.0)),
        KinematicCharacter {
            step_height: tile + 1.0,
            ..default()
        },
    )
}

/// Runs and jumps by the keyboard, under gravity.
fn run_and_jump(
    keys: Res<ButtonInput<KeyCode>>,
    settings: Res<Settings>,
    mut hero: Query<(&mut Velocity, &CharacterState), With<Hero>>,
) {
    let Ok((mut velocity, state)) = hero.single_mut() else {
        return;
    };
    let pressed = |codes: [KeyCode; 2]| keys.any_pressed(codes);
    let run = f32::from(i8::from(pressed([KeyCode::KeyD, KeyCode::ArrowRight])))
        - f32::from(i8::from(pressed([KeyCode::KeyA, KeyCode::ArrowLeft])));
    velocity.0.x = run * settings.run;
    velocity.0.y -= GRAVITY / 64.0;
    if state.grounded {
        velocity.0.y = velocity.0.y.max(0.0);
        if keys.any_pressed([KeyCode::Space, KeyCode::KeyW, KeyCode::ArrowUp]) {
            velocity.0.y = settings.jump;
        }
    }
}

/// Logs once the hero has crossed the level.
fn watch_hero(hero: Query<&Transform, With<Hero>>, mut settings: ResMut<Settings>) {
    let Ok(hero) = hero.single() else {
        return;
    };
    if !settings.crossed && hero.translation.x > settings.finish_x {
        settings.crossed = true;
        info!(
            "{}: the hero crossed the level, at y = {:.1}",
            settings.name, hero.translation.y
        );
    }
}

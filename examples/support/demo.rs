//! What the windowed examples share, each taking the parts it uses:
//!
//! - the window: `DefaultPlugins.set(demo::window("breakout", (1280, 720)))`;
//! - a HUD line: `commands.spawn(demo::hud(20.0, Vec2::new(14.0, 6.0)))`, written by the
//!   example's own system through `Single<&mut Text, With<Hud>>`;
//! - `Esc` to quit: the system `demo::quit_on_esc`;
//! - the pointer in world space: a [`Cursor`] system parameter, `cursor.world()`.
//!
//! Included with `#[path = "support/demo.rs"] mod demo;`.

#![allow(
    dead_code,
    reason = "each example uses only some of it (the level examples only the window)"
)]

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy::window::{PrimaryWindow, WindowResolution};

/// The primary window, titled `title` (the example's name, which scripts find it by), of
/// `size` pixels.
pub fn window(title: &str, size: impl Into<WindowResolution>) -> WindowPlugin {
    WindowPlugin {
        primary_window: Some(Window {
            title: title.into(),
            resolution: size.into(),
            ..default()
        }),
        ..default()
    }
}

/// Marks the HUD's text. The example's own system writes it, through
/// `Single<&mut Text, With<Hud>>`.
#[derive(Component)]
pub struct Hud;

/// The HUD: text of `font_size` pixels, empty until written, its top-left corner at
/// `top_left` pixels from the window's.
pub fn hud(font_size: f32, top_left: Vec2) -> impl Bundle {
    (
        Hud,
        Text::new(""),
        TextFont {
            font_size: FontSize::Px(font_size),
            ..default()
        },
        Node {
            position_type: PositionType::Absolute,
            top: Val::Px(top_left.y),
            left: Val::Px(top_left.x),
            ..default()
        },
    )
}

/// `Esc` quits with [`AppExit::Success`], so the examples' exit logs still run.
pub fn quit_on_esc(keys: Res<ButtonInput<KeyCode>>, mut exit: MessageWriter<AppExit>) {
    if keys.just_pressed(KeyCode::Escape) {
        exit.write(AppExit::Success);
    }
}

/// The pointer, seen through the window and the one camera.
#[derive(SystemParam)]
pub struct Cursor<'w, 's> {
    window: Query<'w, 's, &'static Window, With<PrimaryWindow>>,
    camera: Query<'w, 's, (&'static Camera, &'static GlobalTransform)>,
}

impl Cursor<'_, '_> {
    /// Where the pointer is in the world: `None` while it is outside the window.
    pub fn world(&self) -> Option<Vec2> {
        let (Ok(window), Ok((camera, at))) = (self.window.single(), self.camera.single()) else {
            return None;
        };
        window
            .cursor_position()
            .and_then(|c| camera.viewport_to_world_2d(at, c).ok())
    }
}

//! `segment_vs_rect`: drag a segment and a rectangle around and watch the four clipping
//! algorithms agree.
//!
//! ```sh
//! cargo run --release --example segment_vs_rect --features debug-draw
//! ```
//!
//! | control | action |
//! |---|---|
//! | drag a white handle | move that endpoint of the segment |
//! | drag the rectangle's centre handle | move the rectangle |
//! | drag the rectangle's corner handle | resize it |
//! | `Esc` | quit |
//!
//! The entry (green) and exit (red) points are drawn where the segment enters and leaves the
//! closed rectangle; the panel lists each algorithm's `entry`/`exit` parameters (Liang–Barsky,
//! slab, Cohen–Sutherland, 9-sector table), whether they all agree, and the sectors of the two
//! endpoints (the nine-sector lookup: only the edges between those sectors can be crossed).

#[path = "support/demo.rs"]
mod demo;
#[path = "support/scripted.rs"]
mod scripted;

use bevy::math::bounding::Aabb2d;
use bevy::prelude::*;
use bevy_sweep::geometry::{
    SegmentClip, clip_segment_aabb_cohen_sutherland, clip_segment_aabb_liang_barsky,
    clip_segment_aabb_sectors, clip_segment_aabb_slab,
};
use demo::{Cursor, Hud};
use scripted::ScriptedRun;

fn main() {
    App::new()
        .add_plugins((
            DefaultPlugins.set(demo::window("segment_vs_rect", (1280, 720))),
            ScriptedRun,
        ))
        .insert_resource(ClearColor(Color::srgb(0.04, 0.05, 0.08)))
        .insert_resource(Scene {
            start: Vec2::new(-420.0, -160.0),
            end: Vec2::new(260.0, 210.0),
            center: Vec2::new(-40.0, 20.0),
            half: Vec2::new(180.0, 110.0),
            dragging: None,
        })
        .add_systems(Startup, setup)
        .add_systems(Update, (demo::quit_on_esc, (drag, draw, panel).chain()))
        .run();
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Handle {
    Start,
    End,
    Center,
    Corner,
}

#[derive(Resource)]
struct Scene {
    start: Vec2,
    end: Vec2,
    center: Vec2,
    half: Vec2,
    dragging: Option<Handle>,
}

impl Scene {
    fn aabb(&self) -> Aabb2d {
        Aabb2d {
            min: self.center - self.half,
            max: self.center + self.half,
        }
    }

    fn handles(&self) -> [(Handle, Vec2); 4] {
        [
            (Handle::Start, self.start),
            (Handle::End, self.end),
            (Handle::Center, self.center),
            (Handle::Corner, self.center + self.half),
        ]
    }
}

fn setup(mut commands: Commands) {
    commands.spawn(Camera2d);
    commands.spawn(demo::hud(20.0, Vec2::new(14.0, 10.0)));
}

fn drag(buttons: Res<ButtonInput<MouseButton>>, cursor: Cursor, mut scene: ResMut<Scene>) {
    let Some(cursor) = cursor.world() else {
        return;
    };
    if buttons.just_pressed(MouseButton::Left) {
        scene.dragging = scene
            .handles()
            .into_iter()
            .filter(|(_, p)| p.distance(cursor) < 18.0)
            .min_by(|a, b| a.1.distance(cursor).total_cmp(&b.1.distance(cursor)))
            .map(|(h, _)| h);
    }
    if buttons.just_released(MouseButton::Left) {
        scene.dragging = None;
    }
    match scene.dragging {
        Some(Handle::Start) => scene.start = cursor,
        Some(Handle::End) => scene.end = cursor,
        Some(Handle::Center) => scene.center = cursor,
        Some(Handle::Corner) => {
            scene.half = (cursor - scene.center).abs().max(Vec2::splat(4.0));
        }
        None => {}
    }
}

/// The nine sectors of the lookup clipper: column and row of a point relative to the box.
fn sector(p: Vec2, aabb: &Aabb2d) -> &'static str {
    let col = if p.x < aabb.min.x {
        0
    } else if p.x > aabb.max.x {
        2
    } else {
        1
    };
    let row = if p.y > aabb.max.y {
        0
    } else if p.y < aabb.min.y {
        2
    } else {
        1
    };
    [
        ["top-left", "top", "top-right"],
        ["left", "inside", "right"],
        ["bottom-left", "bottom", "bottom-right"],
    ][row][col]
}

fn clips(scene: &Scene) -> [(&'static str, Option<SegmentClip>); 4] {
    let aabb = scene.aabb();
    let (s, e) = (scene.start, scene.end);
    [
        ("Liang-Barsky", clip_segment_aabb_liang_barsky(s, e, &aabb)),
        ("slab", clip_segment_aabb_slab(s, e, &aabb)),
        (
            "Cohen-Sutherland",
            clip_segment_aabb_cohen_sutherland(s, e, &aabb),
        ),
        ("9 sectors", clip_segment_aabb_sectors(s, e, &aabb)),
    ]
}

fn draw(mut gizmos: Gizmos, scene: Res<Scene>) {
    let aabb = scene.aabb();
    gizmos.rect_2d(
        Isometry2d::from_translation(scene.center),
        2.0 * scene.half,
        Color::srgb(0.35, 0.8, 1.0),
    );
    // The sector grid: the box's edges extended across the window.
    let faint = Color::srgba(0.35, 0.8, 1.0, 0.15);
    for x in [aabb.min.x, aabb.max.x] {
        gizmos.line_2d(Vec2::new(x, -400.0), Vec2::new(x, 400.0), faint);
    }
    for y in [aabb.min.y, aabb.max.y] {
        gizmos.line_2d(Vec2::new(-700.0, y), Vec2::new(700.0, y), faint);
    }
    gizmos.line_2d(scene.start, scene.end, Color::srgb(0.85, 0.85, 0.9));
    if let Some(clip) = clips(&scene)[0].1 {
        let [entry, exit] = clip.points(scene.start, scene.end);
        gizmos.line_2d(entry, exit, Color::srgb(1.0, 0.85, 0.3));
        gizmos.circle_2d(
            Isometry2d::from_translation(entry),
            8.0,
            Color::srgb(0.3, 1.0, 0.4),
        );
        gizmos.circle_2d(
            Isometry2d::from_translation(exit),
            8.0,
            Color::srgb(1.0, 0.3, 0.3),
        );
    }
    for (handle, p) in scene.handles() {
        let color = if scene.dragging == Some(handle) {
            Color::srgb(1.0, 0.9, 0.2)
        } else {
            Color::WHITE
        };
        gizmos.circle_2d(Isometry2d::from_translation(p), 5.0, color);
    }
}

fn panel(scene: Res<Scene>, mut panel: Single<&mut Text, With<Hud>>) {
    let aabb = scene.aabb();
    let results = clips(&scene);
    let mut lines = vec![format!(
        "start {:.1}, {:.1} ({})   end {:.1}, {:.1} ({})",
        scene.start.x,
        scene.start.y,
        sector(scene.start, &aabb),
        scene.end.x,
        scene.end.y,
        sector(scene.end, &aabb)
    )];
    for (name, clip) in &results {
        lines.push(match clip {
            Some(c) => format!(
                "{name:>16}: entry t = {:.4}   exit t = {:.4}",
                c.entry, c.exit
            ),
            None => format!("{name:>16}: no contact"),
        });
    }
    let agree = results
        .iter()
        .all(|(_, c)| c.is_some() == results[0].1.is_some());
    lines.push(if agree {
        "all four agree on the contact".to_string()
    } else {
        "the algorithms DISAGREE".to_string()
    });
    panel.0 = lines.join("\n");
}

//! The comparison's own plumbing on a small scene: both apps tick, the two libraries start
//! from the same scene, and `bevy_sweep`'s contacts agree with the brute-force scan.

use bevy_sweep::narrow::ShapePath;
use bevy_sweep_vs_avian2d::{
    AvianSetup, Scene, avian_app, avian_contacts, avian_positions, brute, sweep_app,
    sweep_contacts, swept_paths,
};

#[test]
fn both_apps_start_from_the_same_scene_and_tick() {
    let scene = Scene::mixed(200, 7);
    let mut sweep = sweep_app(&scene);
    let mut avian = avian_app(&scene, AvianSetup::SweptCcd, true);
    let start = avian_positions(&avian);
    for (p, spec) in start.iter().zip(&scene.specs) {
        assert_eq!(*p, spec.position);
    }
    let (mut exact, mut reported) = (0, 0);
    for _ in 0..20 {
        sweep.update();
        avian.update();
        let _ = sweep_contacts(&mut sweep);
        exact += sweep_contacts(&mut avian).len();
        reported += avian_contacts(&mut avian).len();
    }
    // A busy scene: both libraries see contacts.
    assert!(exact > 0 && reported > 0, "{exact} {reported}");
}

#[test]
fn bevy_sweep_contacts_match_the_brute_force_scan() {
    let scene = Scene::mixed(150, 11);
    let mut app = sweep_app(&scene);
    let mut checked = 0;
    for _ in 0..20 {
        app.update();
        let reported = sweep_contacts(&mut app);
        let paths = swept_paths(&app);
        for i in 0..paths.len() {
            for j in i + 1..paths.len() {
                let (Some(p), Some(q)) = (paths[i], paths[j]) else {
                    continue;
                };
                let (d, _) = brute::closest_approach(&p, &q, 500);
                let pair = (i as u32, j as u32);
                if reported.contains(&pair) {
                    assert!(d <= 1e-6, "{pair:?} reported, closest approach {d}");
                    checked += 1;
                } else if d <= 1e-6 {
                    // Not reported but touching: only at the tick's first instant (the
                    // previous tick's last, reported there).
                    let later =
                        |path: ShapePath| ShapePath::between(path.at(1e-3), path.at(1.0)).unwrap();
                    let (d_later, _) = brute::closest_approach(&later(p), &later(q), 500);
                    assert!(
                        d_later > 1e-6,
                        "{pair:?} touches at {d} and is not reported"
                    );
                }
            }
        }
    }
    assert!(checked > 0);
}

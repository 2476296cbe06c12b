//! Every public component and resource of the crate is registered for reflection by the
//! plugin that uses it, with its `ReflectComponent` or `ReflectResource` data: scenes, the
//! inspector and `bevy_remote` see them without the app registering anything.
//!
//! The list is read from the sources, so a component added later without its registration
//! fails here. The registry starts empty: Bevy's `reflect_auto_register` (on in these tests
//! through the dev-dependency) would otherwise register every derived type by itself.

use bevy::ecs::reflect::{AppTypeRegistry, ReflectComponent, ReflectResource};
use bevy::prelude::*;
use bevy_sweep::prelude::*;
use std::path::{Path, PathBuf};

/// What a public type derives that reflection must know of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Component,
    Resource,
}

/// Every `pub struct` and `pub enum` under `src/` that derives `Component` or `Resource`
/// (with the `debug-draw`, `tilemap` and `ldtk` modules only when their features are on).
fn public_components_and_resources() -> Vec<(String, Kind, PathBuf)> {
    let mut files = Vec::new();
    collect_rust_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut files,
    );
    let mut found = Vec::new();
    for file in files {
        if !cfg!(feature = "debug-draw") && file.ends_with("debug.rs")
            || !cfg!(feature = "tilemap") && file.ends_with("tilemap.rs")
            || !cfg!(feature = "ldtk") && file.ends_with("ldtk.rs")
        {
            continue;
        }
        let text = std::fs::read_to_string(&file).expect("a readable source file");
        // Code only: doc comments hold examples with derives of their own.
        let code: Vec<&str> = text
            .lines()
            .map(str::trim)
            .filter(|line| !line.starts_with("//"))
            .collect();
        let mut derives = String::new();
        let mut in_derive = false;
        for line in code {
            if line.starts_with("#[derive(") {
                derives.clear();
                in_derive = true;
            }
            if in_derive {
                derives.push_str(line);
                in_derive = !line.ends_with(")]");
                continue;
            }
            if line.starts_with("#[") {
                continue;
            }
            let words: Vec<&str> = derives
                .split(|c: char| !c.is_alphanumeric() && c != '_')
                .collect();
            let kind = if words.contains(&"Component") {
                Some(Kind::Component)
            } else if words.contains(&"Resource") {
                Some(Kind::Resource)
            } else {
                None
            };
            if let Some(kind) = kind {
                let item = line
                    .strip_prefix("pub struct ")
                    .or_else(|| line.strip_prefix("pub enum "));
                if let Some(item) = item {
                    let name: String = item
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    found.push((name, kind, file.clone()));
                }
            }
            derives.clear();
        }
    }
    found.sort();
    found
}

fn collect_rust_files(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a readable directory") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            collect_rust_files(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

/// An App whose registry holds only what the crate's plugins register.
fn registered() -> AppTypeRegistry {
    let mut app = App::new();
    app.insert_resource(AppTypeRegistry::default());
    app.add_plugins((SweepPlugin::default(), SweepDiagnosticsPlugin));
    #[cfg(feature = "debug-draw")]
    app.add_plugins(SweepDebugPlugin);
    #[cfg(all(feature = "tilemap", not(feature = "ldtk")))]
    app.add_plugins(bevy_sweep::tilemap::TilemapCollidersPlugin);
    #[cfg(feature = "ldtk")]
    app.add_plugins(bevy_sweep::ldtk::LdtkCollidersPlugin::default());
    app.world().resource::<AppTypeRegistry>().clone()
}

#[test]
fn every_public_component_and_resource_is_registered_for_reflection() {
    let types = public_components_and_resources();
    let names: Vec<&str> = types.iter().map(|(name, ..)| name.as_str()).collect();
    // The reading of the sources finds what it must.
    for expected in [
        "Collider",
        "ColliderDisabled",
        "CollisionLayers",
        "SweepSettings",
    ] {
        assert!(
            names.contains(&expected),
            "{expected} not found in {names:?}"
        );
    }
    let registry = registered();
    let registry = registry.read();
    let mut missing = Vec::new();
    for (name, kind, file) in &types {
        let Some(registration) = registry.get_with_short_type_path(name) else {
            missing.push(format!("{name} ({}): not registered", file.display()));
            continue;
        };
        let has_data = match kind {
            Kind::Component => registration.data::<ReflectComponent>().is_some(),
            Kind::Resource => registration.data::<ReflectResource>().is_some(),
        };
        if !has_data {
            missing.push(format!(
                "{name} ({}): registered without `#[reflect({kind:?})]`",
                file.display()
            ));
        }
    }
    assert!(
        missing.is_empty(),
        "of {} public components and resources:\n{}",
        types.len(),
        missing.join("\n")
    );
}

#[test]
fn the_empty_registry_is_empty() {
    // Without the crate's plugins, the test's registry knows none of its types: the test above
    // sees only what the plugins register.
    let mut app = App::new();
    app.insert_resource(AppTypeRegistry::default());
    let registry = app.world().resource::<AppTypeRegistry>().read();
    assert!(registry.get_with_short_type_path("Collider").is_none());
}

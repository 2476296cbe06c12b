//! The sweep's cost in Bevy's diagnostics.

use super::{SweepSettings, SweepStats, SweepSystems};
use bevy::app::{App, Plugin};
use bevy::diagnostic::{Diagnostic, DiagnosticPath, Diagnostics, RegisterDiagnostic};
use bevy::ecs::intern::Interned;
use bevy::ecs::prelude::*;
use bevy::ecs::schedule::ScheduleLabel;

/// Publishes each tick's [`SweepStats`] as Bevy diagnostics (read them from
/// `DiagnosticsStore`, or print them with `LogDiagnosticsPlugin`). Add it before or
/// after [`SweepPlugin`](super::SweepPlugin).
///
/// | path | value |
/// |---|---|
/// | [`SWEEP_TIME`](Self::SWEEP_TIME) | wall-clock time of the whole sweep, ms |
/// | [`PREPARE_TIME`](Self::PREPARE_TIME), [`GATHER_TIME`](Self::GATHER_TIME), [`BROAD_PHASE_TIME`](Self::BROAD_PHASE_TIME), [`NARROW_PHASE_TIME`](Self::NARROW_PHASE_TIME), [`REPORT_TIME`](Self::REPORT_TIME) | each phase's time, ms |
/// | [`COLLIDERS`](Self::COLLIDERS) | colliders in the broad phase (a polyline counts its edges) |
/// | [`CANDIDATE_PAIRS`](Self::CANDIDATE_PAIRS) | pairs from the broad phase |
/// | [`EVENTS`](Self::EVENTS) | collision events sent |
#[derive(Clone, Copy, Debug, Default)]
pub struct SweepDiagnosticsPlugin;

impl SweepDiagnosticsPlugin {
    /// Wall-clock time of the sweep in one tick, milliseconds.
    pub const SWEEP_TIME: DiagnosticPath = DiagnosticPath::const_new("bevy_sweep/sweep_time");
    /// Time of the prepare phase in one tick, milliseconds.
    pub const PREPARE_TIME: DiagnosticPath = DiagnosticPath::const_new("bevy_sweep/prepare_time");
    /// Time of the gather (every collider's motion) and of the resting colliders' update in
    /// one tick, milliseconds.
    pub const GATHER_TIME: DiagnosticPath = DiagnosticPath::const_new("bevy_sweep/gather_time");
    /// Time of the broad phase in one tick, milliseconds.
    pub const BROAD_PHASE_TIME: DiagnosticPath =
        DiagnosticPath::const_new("bevy_sweep/broad_phase_time");
    /// Time of the narrow phase in one tick, milliseconds.
    pub const NARROW_PHASE_TIME: DiagnosticPath =
        DiagnosticPath::const_new("bevy_sweep/narrow_phase_time");
    /// Time of the report phase (events, observers, contacts) in one tick, milliseconds.
    pub const REPORT_TIME: DiagnosticPath = DiagnosticPath::const_new("bevy_sweep/report_time");
    /// Colliders in the broad phase in one tick, swept and resting (a polyline counts its
    /// edges).
    pub const COLLIDERS: DiagnosticPath = DiagnosticPath::const_new("bevy_sweep/colliders");
    /// Pairs whose swept bounds overlap, in one tick.
    pub const CANDIDATE_PAIRS: DiagnosticPath =
        DiagnosticPath::const_new("bevy_sweep/candidate_pairs");
    /// Collision events sent in one tick.
    pub const EVENTS: DiagnosticPath = DiagnosticPath::const_new("bevy_sweep/events");
}

impl Plugin for SweepDiagnosticsPlugin {
    fn build(&self, app: &mut App) {
        app.register_diagnostic(Diagnostic::new(Self::SWEEP_TIME).with_suffix(" ms"))
            .register_diagnostic(Diagnostic::new(Self::PREPARE_TIME).with_suffix(" ms"))
            .register_diagnostic(Diagnostic::new(Self::GATHER_TIME).with_suffix(" ms"))
            .register_diagnostic(Diagnostic::new(Self::BROAD_PHASE_TIME).with_suffix(" ms"))
            .register_diagnostic(Diagnostic::new(Self::NARROW_PHASE_TIME).with_suffix(" ms"))
            .register_diagnostic(Diagnostic::new(Self::REPORT_TIME).with_suffix(" ms"))
            .register_diagnostic(Diagnostic::new(Self::COLLIDERS))
            .register_diagnostic(Diagnostic::new(Self::CANDIDATE_PAIRS))
            .register_diagnostic(Diagnostic::new(Self::EVENTS));
        // The measuring system goes in the sweep's schedule: added here if the `SweepPlugin`
        // is built already, else by the `SweepPlugin` when it is built (so the two plugins
        // may be added in either order, and no `App::finish` is needed in headless tests).
        match app.world().get_resource::<SweepSettings>() {
            Some(settings) => {
                let schedule = settings.schedule;
                add_measure(app, schedule);
            }
            None => {
                app.init_resource::<DiagnosticsWanted>();
            }
        }
    }
}

/// Left by a [`SweepDiagnosticsPlugin`] built before the `SweepPlugin`.
#[derive(Resource, Default)]
pub(crate) struct DiagnosticsWanted;

/// The system that publishes each tick's [`SweepStats`], in the sweep's `schedule`.
pub(crate) fn add_measure(app: &mut App, schedule: Interned<dyn ScheduleLabel>) {
    app.add_systems(schedule, measure.after(SweepSystems::Report));
}

fn measure(mut diagnostics: Diagnostics, stats: Res<SweepStats>) {
    diagnostics.add_measurement(&SweepDiagnosticsPlugin::SWEEP_TIME, || {
        stats.elapsed().as_secs_f64() * 1000.0
    });
    let ms = |d: core::time::Duration| d.as_secs_f64() * 1000.0;
    diagnostics.add_measurement(&SweepDiagnosticsPlugin::PREPARE_TIME, || {
        ms(stats.prepare_time)
    });
    diagnostics.add_measurement(&SweepDiagnosticsPlugin::GATHER_TIME, || {
        ms(stats.gather_time + stats.rest_time)
    });
    diagnostics.add_measurement(&SweepDiagnosticsPlugin::BROAD_PHASE_TIME, || {
        ms(stats.broad_phase_time)
    });
    diagnostics.add_measurement(&SweepDiagnosticsPlugin::NARROW_PHASE_TIME, || {
        ms(stats.narrow_phase_time)
    });
    diagnostics.add_measurement(&SweepDiagnosticsPlugin::REPORT_TIME, || {
        ms(stats.report_time)
    });
    diagnostics.add_measurement(&SweepDiagnosticsPlugin::COLLIDERS, || {
        stats.colliders as f64
    });
    diagnostics.add_measurement(&SweepDiagnosticsPlugin::CANDIDATE_PAIRS, || {
        stats.candidate_pairs as f64
    });
    diagnostics.add_measurement(&SweepDiagnosticsPlugin::EVENTS, || stats.events as f64);
}

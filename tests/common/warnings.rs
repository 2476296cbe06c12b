//! The warnings the crate logs, kept for a test binary to read: [`keep_warnings`] installs a
//! global logger (once per binary) that keeps every warning's text.

use std::sync::{Mutex, Once};

/// Every warning logged since [`keep_warnings`], in order.
static WARNINGS: Mutex<Vec<String>> = Mutex::new(Vec::new());

struct Keeper;

impl log::Log for Keeper {
    fn enabled(&self, metadata: &log::Metadata) -> bool {
        metadata.level() <= log::Level::Warn
    }

    fn log(&self, record: &log::Record) {
        if self.enabled(record.metadata()) {
            WARNINGS.lock().unwrap().push(record.args().to_string());
        }
    }

    fn flush(&self) {}
}

/// Keeps the warnings from now on (call it first in a test that reads them).
pub(crate) fn keep_warnings() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        log::set_logger(&Keeper).unwrap();
        log::set_max_level(log::LevelFilter::Warn);
    });
}

/// Every warning kept so far.
pub(crate) fn warnings() -> Vec<String> {
    WARNINGS.lock().unwrap().clone()
}

/// The warnings kept so far that contain `text` (tests of one binary run in parallel: pick
/// words only one test causes).
pub(crate) fn warnings_with(text: &str) -> Vec<String> {
    warnings()
        .into_iter()
        .filter(|w| w.contains(text))
        .collect()
}

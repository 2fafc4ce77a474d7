//! What the brain has to say besides its answers. Piskvork gives a brain's stderr the pipe of its
//! stdout and reads any line there as the answer to the move it waits for, so in brain mode nothing
//! may reach stderr: a warning or an error of any module (a thought past its hard limit, threads the
//! system refused, a panic) goes to the protocol loop instead, which prints it as a `MESSAGE` line
//! before its next move, when the manager reads (the protocol's rule for unusable INFO values too).
//!
//! Invariant: installed at most once, by the binary in brain mode when `RUST_LOG` does not ask for a
//! log on stderr; the logger only sends values, the protocol loop alone prints.

use std::sync::mpsc::Sender;

use log::{Level, LevelFilter, Log, Metadata, Record, SetLoggerError};

use crate::brain::protocol::Event;

/// The `log` backend of brain mode: warnings and errors become [`Event::Note`]s.
struct MessageLog {
    tx: Sender<Event>,
}

impl Log for MessageLog {
    fn enabled(&self, metadata: &Metadata) -> bool {
        metadata.level() <= Level::Warn
    }

    fn log(&self, record: &Record) {
        if self.enabled(record.metadata()) {
            let level = if record.level() == Level::Error { "error" } else { "warning" };
            // The loop may be gone (the brain is exiting): nothing is left to tell then.
            let _ = self.tx.send(Event::Note(format!("{level}: {}", record.args())));
        }
    }

    fn flush(&self) {}
}

/// Sends every warning and error logged from now on, and every panic's report (which would go to
/// stderr), to the protocol loop listening on `tx`.
pub fn install(tx: Sender<Event>) -> Result<(), SetLoggerError> {
    log::set_logger(Box::leak(Box::new(MessageLog { tx })))?;
    log::set_max_level(LevelFilter::Warn);
    std::panic::set_hook(Box::new(|info| log::error!("{info}")));
    Ok(())
}

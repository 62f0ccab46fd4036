//! How a run ended: [`Verdict`], and why a run does not converge.

use serde::Serialize;

use crate::format_millis;
use crate::workqueue::Millis;

/// How the run ended.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "verdict", rename_all = "kebab-case")]
pub enum Verdict {
    Converged { passes: usize, time: Millis },
    NotConverging { reason: NotConvergingReason },
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(
    tag = "kind",
    rename_all = "kebab-case",
    rename_all_fields = "camelCase"
)]
pub enum NotConvergingReason {
    /// An object can never finish terminating: its owner never removes this finalizer.
    StuckFinalizer {
        object: String,
        finalizer: String,
    },
    /// Two writers keep undoing each other: the same state comes back again and again.
    Oscillation {
        object: String,
        field: String,
        other_writer: Option<String>,
    },
    PassLimit {
        limit: usize,
    },
    /// Each apply of `object` is refused with 409: it would take fields
    /// another field manager owns, and the controller does not force it.
    /// `message` is the API server's, listing the fields and their managers.
    ApplyConflict {
        object: String,
        message: String,
    },
    /// Out of sync, but nothing will ever trigger another pass (missed events, no resync).
    NoTrigger {
        out_of_sync: usize,
    },
    /// In sync, but each pass writes a new `field` to the custom resource's
    /// status, whose watch event starts the next pass: `passes` in a row so far.
    StatusHotLoop {
        field: String,
        passes: usize,
    },
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Verdict::Converged { passes, time } => {
                let plural = if *passes == 1 { "" } else { "es" };
                write!(
                    f,
                    "Converged after {passes} pass{plural} (t = {})",
                    format_millis(*time)
                )
            }
            Verdict::NotConverging { reason } => write!(f, "Not converging: {reason}"),
        }
    }
}

impl std::fmt::Display for NotConvergingReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotConvergingReason::StuckFinalizer { object, finalizer } => write!(
                f,
                "{object} is stuck terminating; finalizer {finalizer} is never removed"
            ),
            NotConvergingReason::Oscillation {
                object,
                field,
                other_writer,
            } => {
                let who = other_writer.as_deref().unwrap_or("another writer");
                write!(
                    f,
                    "oscillation: this controller and {who} keep overwriting {field} of {object}"
                )
            }
            NotConvergingReason::PassLimit { limit } => {
                write!(f, "still planning actions after the pass limit of {limit}")
            }
            NotConvergingReason::ApplyConflict { object, message } => write!(
                f,
                "every apply of {object} is refused with 409 Conflict ({message}); \
                 force the apply, or stop applying the fields another manager owns"
            ),
            NotConvergingReason::NoTrigger { out_of_sync } => write!(
                f,
                "{out_of_sync} out of sync, but no event or resync will trigger another pass"
            ),
            NotConvergingReason::StatusHotLoop { field, passes } => write!(
                f,
                "hot loop: nothing is out of sync, but every pass writes a new {field} to the \
                 custom resource, and the watch event of that write starts the next pass \
                 ({passes} passes in a row did only that; it never stops)"
            ),
        }
    }
}

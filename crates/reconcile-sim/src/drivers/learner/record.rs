//! What a driven run keeps of each reconcile: its calls, their answers and
//! its result. Issue 30 replays a failing run from this record without the
//! learner's code, and the views show it beside the engine's timeline.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::call::{CallError, ClientCall};
use crate::workqueue::Millis;

/// What a reconcile returned: controller-runtime's `(Result, error)`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum ReconcileOutcome {
    /// `Result{}`: done.
    Done,
    /// `Result{RequeueAfter}`.
    RequeueAfter { ms: Millis },
    /// An error: retried with backoff.
    Error { message: String },
    /// A `reconcile.TerminalError`: not retried.
    Terminal { message: String },
    /// The process crashed during the reconcile.
    Crashed,
}

/// One call and its answer.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct CallRecord {
    /// When the call was made, and when its answer came.
    pub at: Millis,
    pub answered_at: Millis,
    pub call: ClientCall,
    #[cfg_attr(
        feature = "ts",
        ts(as = "Result<reconcile_core::json::Json, CallError>")
    )]
    pub answer: Result<Value, CallError>,
    /// Whether the store changed: a write that succeeded and was no no-op.
    pub changed_store: bool,
}

/// One reconcile of a driven run.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct ReconcileRecord {
    /// The engine's pass, from 1: its entry in the run's timeline.
    pub pass: usize,
    pub name: String,
    pub namespace: String,
    pub started_at: Millis,
    /// The controller process (0 at first, bumped by each crash).
    pub incarnation: u64,
    /// Whether the exercise's goal held in the cache and the store when it
    /// started: a reconcile of a converged world must write nothing.
    pub converged_at_start: bool,
    pub calls: Vec<CallRecord>,
    /// `None` while it runs.
    pub outcome: Option<ReconcileOutcome>,
    /// What the code returned when a crash came as it returned (`outcome`
    /// is then `Crashed`). The engine may still have taken it: a replay
    /// returns it again.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub returned: Option<ReconcileOutcome>,
}

impl ReconcileRecord {
    /// The calls that asked the API server to change something.
    pub fn writes(&self) -> impl Iterator<Item = &CallRecord> {
        self.calls.iter().filter(|c| c.call.writes())
    }

    /// The writes that changed the store.
    pub fn effective_writes(&self) -> impl Iterator<Item = &CallRecord> {
        self.calls.iter().filter(|c| c.changed_store)
    }
}

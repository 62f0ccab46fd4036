//! The event log: every step of the control plane the controller takes part
//! in, in order, for a view that steps by event rather than by pass (and for
//! a picture of the loop). The log of other actors' doings stays in
//! [`crate::LogEntry`].
//!
//! # Caveats
//! - At most [`MAX_EVENTS`] are kept, the first ones; [`EventLog::truncated`]
//!   says when more happened. A run of 1,000 passes over 1,000 resources has
//!   about a million, which no view shows and no budget allows.

use serde::Serialize;

use crate::cloud::CloudCall;
use crate::expectations::PassSkip;
use crate::workqueue::{AddOutcome, Millis};
use crate::world::Change;
use crate::Trigger;
use reconcile_core::reconcile::ActionKind;

/// The most events a run keeps.
pub const MAX_EVENTS: usize = 10_000;

/// One step, and when.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct EventEntry {
    pub at: Millis,
    #[serde(flatten)]
    pub what: SimEvent,
}

/// What happened.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(
    tag = "kind",
    rename_all = "kebab-case",
    rename_all_fields = "camelCase"
)]
pub enum SimEvent {
    /// The worker took the key: reconcile ran on the cache and planned
    /// `actions`, unless the controller skipped it (`skipped`: a
    /// ReplicaSet's unmet expectations), which plans nothing.
    ReconcileStarted {
        pass: usize,
        trigger: Trigger,
        actions: usize,
        #[serde(skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        skipped: Option<PassSkip>,
    },
    /// One of the pass's API requests and the status code of its response.
    Request {
        pass: usize,
        action: ActionKind,
        name: String,
        code: u16,
    },
    /// The pass returned: `error` when a request failed, `crashed` when the
    /// process died in it.
    ReconcileEnded {
        pass: usize,
        error: bool,
        crashed: bool,
    },
    /// A watch event reached the informer, whose cache took it.
    WatchDelivered { name: String, change: Change },
    /// The pass's update of the custom resource's `/status` (a controller
    /// that writes status, beyond the contract: `crate::status_writes`) and
    /// its response's code; `changed` is false for an equal status, which
    /// the server takes without a new resourceVersion.
    StatusWrite {
        pass: usize,
        code: u16,
        changed: bool,
    },
    /// The controller's patch of its custom resource's finalizers: adding
    /// its own (`added`), or removing it after cleanup; the answer's code.
    FinalizerWrite { pass: usize, added: bool, code: u16 },
    /// A call to the cloud, the external system, and its answer's code.
    Cloud {
        pass: usize,
        call: CloudCall,
        code: u16,
    },
    /// The key was added to the queue.
    Enqueued {
        outcome: AddOutcome,
        trigger: Trigger,
    },
    /// A requeue waits in the delaying queue until `readyAt`.
    RequeueDelayed { ready_at: Millis },
}

/// The events of a run, capped.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct EventLog {
    pub entries: Vec<EventEntry>,
    /// More happened than [`MAX_EVENTS`].
    pub truncated: bool,
}

impl EventLog {
    /// Where pass `pass` (from 1) starts: the index of its `ReconcileStarted`.
    pub fn start_of(&self, pass: usize) -> Option<usize> {
        self.entries
            .iter()
            .position(|e| matches!(e.what, SimEvent::ReconcileStarted { pass: p, .. } if p == pass))
    }

    /// The events from pass `pass`'s start to the next pass's (or the end).
    pub fn of_pass(&self, pass: usize) -> std::ops::Range<usize> {
        let from = self.start_of(pass).unwrap_or(self.entries.len());
        let to = self.start_of(pass + 1).unwrap_or(self.entries.len());
        from..to.max(from)
    }

    /// How many passes have started by event `index` (inclusive).
    pub fn passes_started_by(&self, index: usize) -> usize {
        self.entries
            .iter()
            .take(index.saturating_add(1))
            .filter(|e| matches!(e.what, SimEvent::ReconcileStarted { .. }))
            .count()
    }

    pub(crate) fn push(&mut self, at: Millis, what: SimEvent) {
        if self.entries.len() < MAX_EVENTS {
            self.entries.push(EventEntry { at, what });
        } else {
            self.truncated = true;
        }
    }
}

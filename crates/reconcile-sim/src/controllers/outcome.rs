//! What became of each action of a pass: the API server's answer as the
//! controller records it. The pass, the status writes and the record share it.

use reconcile_core::reconcile::Action;
use serde::Serialize;

use super::client::Millis;

/// What became of one action of a pass.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(
    tag = "result",
    rename_all = "kebab-case",
    rename_all_fields = "camelCase"
)]
pub enum ActionResult {
    Applied,
    /// FINALIZE on an object already terminating: the delete request
    /// succeeds and writes nothing.
    AlreadyTerminating,
    /// UPDATE whose object, once the API server has filled in its defaults,
    /// is what it stores: 200, nothing written, no new resourceVersion and
    /// no watch event (`TestNoOpUpdates`).
    Unchanged,
    /// DELETE or FINALIZE of an object that is gone already (404): what the
    /// controller wanted, so a success.
    AlreadyGone,
    /// The API request failed with `code` and the server's message `error`;
    /// the key is requeued for `requeuedAt` (unless the controller crashes
    /// in the same pass, which loses the requeue).
    Failed {
        requeued_at: Millis,
        code: u16,
        error: String,
    },
    /// Not tried: an earlier action of the pass failed.
    NotAttempted,
    /// Not tried: the controller crashed before it.
    LostInCrash,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ActionOutcome {
    pub action: Action,
    /// The object the request went to, when it is not the action's name: the
    /// name the API server generated for a CREATE, or the object a desired
    /// name stood for (see [`naming`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional, as = "Option<String>"))]
    pub object: Option<std::sync::Arc<str>>,
    #[serde(flatten)]
    pub result: ActionResult,
}

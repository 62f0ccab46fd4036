//! Why a pass ran ([`Trigger`]), as the queue, the event log and the record
//! say it, and [`format_millis`], the one way they write a duration.

use serde::Serialize;

use crate::workqueue::Millis;
use crate::world::Change;

/// Why a pass ran. `reconcile` never sees this.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(
    tag = "kind",
    rename_all = "kebab-case",
    rename_all_fields = "camelCase"
)]
pub enum Trigger {
    /// The custom resource was added (initial list, also after a restart) or its spec changed.
    CustomResource { change: Change, after_restart: bool },
    /// A watched object the controller owns changed (ownerReferences).
    OwnedObject { name: String, change: Change },
    /// The periodic resync, the safety net for anything missed.
    Resync,
    /// A requeue with backoff after a failed pass.
    Requeue { failures: u32 },
    /// The informer listed again after a watch error (410 Gone, a very
    /// short watch): what changed, and the tombstones, reach the handlers.
    Relisted,
    /// The `RequeueAfter` a successful pass returned.
    RequeueAfter { delay_ms: Millis },
    /// The custom resource got its deletionTimestamp (a foreground or orphan
    /// deletion waits for the garbage collector).
    CustomResourceDeleting,
    /// The custom resource was updated with its generation unchanged: its
    /// status was written (by this controller's own status write).
    CustomResourceStatus,
}

impl std::fmt::Display for Trigger {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Trigger::CustomResource {
                change: Change::Added,
                after_restart: true,
            } => f.write_str("custom resource listed after the controller restarted"),
            Trigger::CustomResource {
                change: Change::Added,
                ..
            } => f.write_str("custom resource added"),
            Trigger::CustomResource {
                change: Change::Deleted,
                ..
            } => f.write_str("custom resource deleted"),
            Trigger::CustomResource { .. } => f.write_str("custom resource spec changed"),
            Trigger::CustomResourceDeleting => f.write_str("custom resource is being deleted"),
            Trigger::CustomResourceStatus => {
                f.write_str("custom resource status written (generation unchanged)")
            }
            Trigger::OwnedObject { name, change } => {
                let change = match change {
                    Change::Added => "added",
                    Change::Updated => "updated",
                    Change::Deleted => "deleted",
                };
                write!(f, "owned object {name} {change}")
            }
            Trigger::Resync => f.write_str("periodic resync"),
            Trigger::Relisted => f.write_str("the informer listed again after a watch error"),
            Trigger::Requeue { failures } => write!(f, "requeue after failure #{failures}"),
            Trigger::RequeueAfter { delay_ms } => {
                write!(
                    f,
                    "RequeueAfter {} (objects still terminating)",
                    format_millis(*delay_ms)
                )
            }
        }
    }
}

/// "850 ms", "12.5 s", "16 min 40 s".
pub fn format_millis(ms: Millis) -> String {
    if ms < 1_000 {
        format!("{ms} ms")
    } else if ms < 60_000 {
        let tenths = ms / 100;
        format!("{}.{} s", tenths / 10, tenths % 10)
    } else {
        format!("{} min {} s", ms / 60_000, (ms % 60_000) / 1_000)
    }
}

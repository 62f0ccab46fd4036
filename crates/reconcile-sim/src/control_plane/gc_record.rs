//! What the garbage collector did, as the timeline records it.

use serde::Serialize;

use crate::apiserver::PropagationPolicy;

/// What the garbage collector did (see `engine::gc`). `object` is `None`
/// for the custom resource.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(
    tag = "kind",
    rename_all = "kebab-case",
    rename_all_fields = "camelCase"
)]
pub enum GcAction {
    /// Deleted a dependent whose owners are gone or waiting for it; with
    /// finalizers of its own it only starts terminating.
    Deleted {
        object: Option<String>,
        propagation: PropagationPolicy,
        object_deleted: bool,
    },
    /// Removed ownerReferences to owners that are gone or orphaning it.
    OwnerReferencesRemoved { object: Option<String> },
    /// Removed its own finalizer (`orphan`, `foregroundDeletion`) once done.
    FinalizerRemoved {
        object: Option<String>,
        finalizer: String,
        object_deleted: bool,
    },
}

impl std::fmt::Display for GcAction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let name = |object: &Option<String>| {
            object
                .clone()
                .unwrap_or_else(|| "the custom resource".to_owned())
        };
        match self {
            GcAction::Deleted {
                object,
                propagation,
                object_deleted,
            } => {
                let effect = if *object_deleted {
                    "gone"
                } else {
                    "terminating"
                };
                write!(
                    f,
                    "the garbage collector deletes {} ({propagation}): {effect}",
                    name(object)
                )
            }
            GcAction::OwnerReferencesRemoved { object } => write!(
                f,
                "the garbage collector removes {}'s ownerReference (orphaned)",
                name(object)
            ),
            GcAction::FinalizerRemoved {
                object,
                finalizer,
                object_deleted,
            } => {
                let gone = if *object_deleted { "; it is gone" } else { "" };
                write!(
                    f,
                    "the garbage collector removes finalizer {finalizer} from {}{gone}",
                    name(object)
                )
            }
        }
    }
}

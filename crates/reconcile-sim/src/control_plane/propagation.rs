//! How a delete request propagates to the dependents: the options, the
//! kind's default, and the garbage collector's finalizers the store puts on
//! the deleted object (`k8s.io/apiserver` `pkg/registry/generic/registry/store.go`:
//! `shouldOrphanDependents`, `shouldDeleteDependentsInForeground`,
//! `deletionFinalizersForGarbageCollection`). Tested with the store in
//! `apiserver_tests.rs`.

use std::fmt;

/// `metav1.FinalizerOrphanDependents`: the garbage collector orphans the dependents first.
pub const FINALIZER_ORPHAN_DEPENDENTS: &str = "orphan";
/// `metav1.FinalizerDeleteDependents`: the garbage collector deletes the dependents first.
pub const FINALIZER_DELETE_DEPENDENTS: &str = "foregroundDeletion";

/// `metav1.DeletionPropagation`; the default of custom resources is background.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum PropagationPolicy {
    Orphan,
    #[default]
    Background,
    Foreground,
}

crate::control_plane::unit_names::read_unit_names!(PropagationPolicy {
    Orphan = "orphan",
    Background = "background",
    Foreground = "foreground",
});

impl fmt::Display for PropagationPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PropagationPolicy::Orphan => "orphan",
            PropagationPolicy::Background => "background",
            PropagationPolicy::Foreground => "foreground",
        })
    }
}

/// `metav1.DeleteOptions`, the parts that shape a deletion here.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DeleteOptions {
    pub propagation_policy: Option<PropagationPolicy>,
    /// The deprecated `orphanDependents`; it wins over `propagation_policy`.
    pub orphan_dependents: Option<bool>,
    /// `preconditions.resourceVersion`.
    pub resource_version: Option<u64>,
    /// `gracePeriodSeconds`; `None` takes the object's own (a pod's
    /// `terminationGracePeriodSeconds`). Only pods have a grace period.
    pub grace_period_seconds: Option<i64>,
}

/// A kind's `DefaultGarbageCollectionPolicy` (`rest.GarbageCollectionPolicy`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum GcPolicy {
    /// Background deletion of dependents: custom resources and today's built-in kinds.
    #[default]
    DeleteDependents,
    /// Orphan the dependents unless told otherwise (e.g. `extensions/v1beta1` kinds).
    OrphanDependents,
    /// The kind does not take part in garbage collection.
    Unsupported,
}

/// How the store deletes: `Store.EnableGarbageCollection` and the kind's default policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeleteStrategy {
    pub garbage_collection: bool,
    pub default_policy: GcPolicy,
}

impl Default for DeleteStrategy {
    /// What a cluster runs: the garbage collector on, background by default.
    fn default() -> Self {
        Self {
            garbage_collection: true,
            default_policy: GcPolicy::DeleteDependents,
        }
    }
}

/// `shouldOrphanDependents`.
fn should_orphan(
    finalizers: &[String],
    options: &DeleteOptions,
    strategy: &DeleteStrategy,
) -> bool {
    if strategy.default_policy == GcPolicy::Unsupported {
        return false;
    }
    if let Some(orphan) = options.orphan_dependents {
        return orphan;
    }
    if let Some(policy) = options.propagation_policy {
        return policy == PropagationPolicy::Orphan;
    }
    for f in finalizers {
        match f.as_str() {
            FINALIZER_ORPHAN_DEPENDENTS => return true,
            FINALIZER_DELETE_DEPENDENTS => return false,
            _ => {}
        }
    }
    strategy.default_policy == GcPolicy::OrphanDependents
}

/// `shouldDeleteDependentsInForeground`.
fn should_delete_in_foreground(
    finalizers: &[String],
    options: &DeleteOptions,
    strategy: &DeleteStrategy,
) -> bool {
    if strategy.default_policy == GcPolicy::Unsupported || options.orphan_dependents.is_some() {
        return false;
    }
    if let Some(policy) = options.propagation_policy {
        return policy == PropagationPolicy::Foreground;
    }
    for f in finalizers {
        match f.as_str() {
            FINALIZER_DELETE_DEPENDENTS => return true,
            FINALIZER_ORPHAN_DEPENDENTS => return false,
            _ => {}
        }
    }
    false
}

/// `deletionFinalizersForGarbageCollection`: whether the list changes, and
/// the list the garbage collector needs (its two finalizers taken out, then
/// put back as the options say).
pub fn deletion_finalizers_for_gc(
    finalizers: &[String],
    options: &DeleteOptions,
    strategy: &DeleteStrategy,
) -> (bool, Vec<String>) {
    if !strategy.garbage_collection {
        return (false, finalizers.to_vec());
    }
    let orphan = should_orphan(finalizers, options, strategy);
    let foreground = should_delete_in_foreground(finalizers, options, strategy);
    let is_gc = |f: &String| f == FINALIZER_ORPHAN_DEPENDENTS || f == FINALIZER_DELETE_DEPENDENTS;
    let mut new: Vec<String> = finalizers.iter().filter(|f| !is_gc(f)).cloned().collect();
    if orphan {
        new.push(FINALIZER_ORPHAN_DEPENDENTS.to_owned());
    }
    if foreground {
        new.push(FINALIZER_DELETE_DEPENDENTS.to_owned());
    }
    // Compared as sets, as upstream does.
    if same_set(finalizers, &new) {
        return (false, finalizers.to_vec());
    }
    (true, new)
}

/// Whether two lists hold the same names, however ordered or repeated. The
/// lists are a few finalizers: a search beats sorting them into sets (and
/// links no sort or set code).
fn same_set(a: &[String], b: &[String]) -> bool {
    let within = |x: &[String], y: &[String]| x.iter().all(|name| y.contains(name));
    within(a, b) && within(b, a)
}

//! Per-resource status, for the status grid.

use serde::Serialize;

use crate::world::World;
use crate::{CacheLag, CacheLagEntry};
use reconcile_core::explain::diff;
use reconcile_core::model::Resources;

/// Where one named resource stands relative to the desired state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SyncState {
    InSync,
    /// Exists with a different spec.
    Drifted,
    /// Desired but not there.
    Missing,
    /// There but not desired.
    Extra,
    /// Being deleted; waiting for its finalizers.
    Terminating,
}

impl SyncState {
    /// Words for the grid; never only a colour.
    pub fn label(self) -> &'static str {
        match self {
            SyncState::InSync => "in sync",
            SyncState::Drifted => "drifted",
            SyncState::Missing => "missing",
            SyncState::Extra => "extra",
            SyncState::Terminating => "terminating",
        }
    }

    /// A symbol that reads without colour.
    pub fn icon(self) -> &'static str {
        match self {
            SyncState::InSync => "✓",
            SyncState::Drifted => "≠",
            SyncState::Missing => "∅",
            SyncState::Extra => "+",
            SyncState::Terminating => "◐",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceStatus {
    pub name: String,
    pub state: SyncState,
    /// How the controller's cache differs from the store, if it does.
    pub cache: Option<CacheLag>,
    /// For drifted resources: the differing field paths.
    pub drifted_fields: Vec<String>,
    pub pending_finalizers: Vec<String>,
}

/// The names of two name-sorted sets, merged: sorted, each once.
pub(crate) fn union_of_sorted<'a>(
    a: impl Iterator<Item = &'a str>,
    b: impl Iterator<Item = &'a str>,
) -> Vec<&'a str> {
    let (mut a, mut b) = (a.peekable(), b.peekable());
    let mut names = Vec::new();
    loop {
        let next = match (a.peek(), b.peek()) {
            (Some(x), Some(y)) if x < y => a.next(),
            (Some(x), Some(y)) if x > y => b.next(),
            (Some(_), Some(_)) => {
                b.next();
                a.next()
            }
            (Some(_), None) => a.next(),
            (None, _) => b.next(),
        };
        match next {
            Some(name) => names.push(name),
            None => return names,
        }
    }
}

/// One status per name in desired ∪ observed, sorted by name, each with how
/// the controller's cache differs (`lags`, from the pass's record). A name
/// only the cache still has is listed too, as in sync when it is not desired.
pub fn resource_statuses(
    desired: &Resources,
    world: &World,
    lags: &[CacheLagEntry],
) -> Vec<ResourceStatus> {
    // `lags` is sorted by name, as the engine records it.
    let cached_only = lags
        .iter()
        .filter(|entry| entry.lag == CacheLag::StillCached)
        .map(|entry| entry.name.as_str());
    let present = union_of_sorted(desired.names(), world.observed.names());
    union_of_sorted(present.into_iter(), cached_only)
        .into_iter()
        .map(|name| {
            let cache = lags.iter().find(|e| e.name == name).map(|e| e.lag);
            let pending = world.pending(name).to_vec();
            let (state, drifted_fields) = match (desired.get(name), world.observed.get(name)) {
                _ if world.is_terminating(name) => (SyncState::Terminating, Vec::new()),
                (Some(_), None) => (SyncState::Missing, Vec::new()),
                // Gone, as wanted: only the cache still has it.
                (None, None) => (SyncState::InSync, Vec::new()),
                (None, _) => (SyncState::Extra, Vec::new()),
                (Some(want), Some(have)) if want == have => (SyncState::InSync, Vec::new()),
                (Some(want), Some(have)) => {
                    let fields = diff(have, want)
                        .iter()
                        .map(|d| d.path.to_string())
                        .collect();
                    (SyncState::Drifted, fields)
                }
            };
            ResourceStatus {
                name: name.to_owned(),
                state,
                cache,
                drifted_fields,
                pending_finalizers: pending,
            }
        })
        .collect()
}

//! KEP-5647's consistency store: the resourceVersions a controller wrote,
//! per owner and kind, and whether its informers have seen them. Start at
//! [`ConsistencyStore`].
//!
//! A port of kubernetes `pkg/controller/util/consistency/consistency.go`
//! (Kubernetes v1.36). The ReplicaSet, DaemonSet, StatefulSet and Job
//! controllers record each write (`WroteAt`) and, before a sync, check that
//! each informer's `LastStoreSyncResourceVersion` has reached it
//! (`EnsureReady`); if not, the sync returns the error and the key is
//! requeued with backoff. Once ready, the owner's record is cleared.
//!
//! # Caveats
//! - Single-threaded: upstream's locks have nothing to guard here.
//! - resourceVersions are the store's integers, so comparing them never
//!   fails (upstream skips a kind whose versions do not compare).

use serde::Serialize;

use super::sorted::SortedMap;

/// A kind the controller watches: each has a reflector of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "kebab-case")]
pub enum WatchedKind {
    CustomResource = 0,
    Object = 1,
}

/// `ConsistencyError`: an informer has not yet seen a write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConsistencyError {
    pub kind: WatchedKind,
    /// The last resourceVersion the informer's store synced.
    pub read: u64,
    /// The controller's own last write of that kind.
    pub wrote: u64,
}

impl std::fmt::Display for ConsistencyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "read version: {} is not as new as written version: {}",
            self.read, self.wrote
        )
    }
}

/// `ownerRecord`: one owner's writes, for one uid of it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct OwnerRecord {
    owner_uid: u64,
    versions: Vec<(WatchedKind, u64)>,
}

impl OwnerRecord {
    fn new(owner_uid: u64) -> Self {
        Self {
            owner_uid,
            versions: Vec::new(),
        }
    }

    /// Keeps the newest version written of `kind`.
    fn wrote_at(&mut self, kind: WatchedKind, resource_version: u64) {
        match self.versions.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, version)) => *version = (*version).max(resource_version),
            None => self.versions.push((kind, resource_version)),
        }
    }

    /// Whether every kind's store has synced at least the version written.
    /// A kind with no store (`None`) is skipped, as upstream skips a kind it
    /// has no getter for, or one whose store reports no version yet.
    fn ensure_ready(
        &self,
        synced: &impl Fn(WatchedKind) -> Option<u64>,
    ) -> Result<(), ConsistencyError> {
        for &(kind, wrote) in &self.versions {
            let Some(read) = synced(kind) else { continue };
            if wrote > read {
                return Err(ConsistencyError { kind, read, wrote });
            }
        }
        Ok(())
    }
}

/// `RealConsistencyStore`: owners by key, each with its record.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ConsistencyStore {
    writes: SortedMap<String, OwnerRecord>,
}

impl ConsistencyStore {
    /// `ensureWrittenRecord`: the owner's record for `owner_uid`; a record
    /// of another uid (an owner deleted and created again) is replaced.
    fn ensure_written_record(&mut self, owner: &str, owner_uid: u64) -> &mut OwnerRecord {
        let fresh = self
            .writes
            .get(owner)
            .is_none_or(|record| record.owner_uid != owner_uid);
        if fresh {
            self.writes
                .insert(owner.to_owned(), OwnerRecord::new(owner_uid));
        }
        self.writes
            .get_mut(owner)
            .expect("the record was just ensured")
    }

    /// `WroteAt`: the controller wrote `kind` at `resource_version` while
    /// reconciling `owner`.
    pub fn wrote_at(
        &mut self,
        owner: &str,
        owner_uid: u64,
        kind: WatchedKind,
        resource_version: u64,
    ) {
        self.ensure_written_record(owner, owner_uid)
            .wrote_at(kind, resource_version);
    }

    /// `Clear`: forgets `owner`'s record, if it is of `owner_uid` (any uid
    /// when `None`).
    pub fn clear(&mut self, owner: &str, owner_uid: Option<u64>) {
        let matches = self
            .writes
            .get(owner)
            .is_some_and(|record| owner_uid.is_none_or(|uid| record.owner_uid == uid));
        if matches {
            self.writes.remove(owner);
        }
    }

    /// `EnsureReady`: an error while an informer lags a write made for
    /// `owner`; once none does, the record is cleared.
    pub fn ensure_ready(
        &mut self,
        owner: &str,
        synced: impl Fn(WatchedKind) -> Option<u64>,
    ) -> Result<(), ConsistencyError> {
        let Some(record) = self.writes.get(owner) else {
            return Ok(());
        };
        record.ensure_ready(&synced)?;
        let uid = record.owner_uid;
        self.clear(owner, Some(uid));
        Ok(())
    }

    /// Whether it holds a record for `owner`.
    pub fn tracks(&self, owner: &str) -> bool {
        self.writes.get(owner).is_some()
    }
}

#[cfg(test)]
#[path = "consistency_tests.rs"]
mod tests;

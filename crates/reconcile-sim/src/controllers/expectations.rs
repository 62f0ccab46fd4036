//! A ReplicaSet's expectations: what its controller waits to see in its
//! cache before it acts again. Ported from `pkg/controller/controller_utils.go`
//! (`ControllerExpectations`, `ControlleeExpectations`), on the simulation's
//! clock instead of the wall clock.
//!
//! Upstream's own summary: "A controller isn't synced till its expectations
//! are either fulfilled, or expire"; "Once set expectations can only be
//! lowered"; "Controllers that don't set expectations will get woken up for
//! every matching controllee". `replica_set.go` uses them so:
//! `syncReplicaSet` asks `SatisfiedExpectations(key)` first and calls
//! `manageReplicas` only when it says yes; `manageReplicas` calls
//! `ExpectCreations(key, diff)` before it sends its creates, and
//! `CreationObserved` once per create that failed or was skipped ("the
//! informer won't observe this pod"); the pod informer's `addPod` handler
//! calls `CreationObserved` for each pod whose controllerRef is the
//! ReplicaSet, then queues its key.
//!
//! # Guarantees
//! - The semantics of upstream's functions, each under its name: a record
//!   per controller key with `add` and `del` counters and the time it was
//!   set; [`ControllerExpectations::satisfied`] is true when there is no
//!   record, when both counters are ≤ 0, or when the record is older than
//!   the TTL ([`EXPECTATIONS_TIMEOUT_MS`], upstream `ExpectationsTimeout`,
//!   5 minutes). Lowering or raising a key without a record does nothing.
//! - Ported tests: `controller_utils_test.go` `TestControllerExpectations`.
//!
//! # Caveats
//! - The simulated controller expects creations only (a ReplicaSet also
//!   expects deletions, by uid: `UIDTrackingControllerExpectations`); its
//!   deletes of surplus objects are idempotent anyway (404 is taken as
//!   done).
//! - One controller key, the custom resource's; the store is a list, not
//!   client-go's TTL store (expiry is checked when asked, as upstream's
//!   `isExpired` does).

use serde::Serialize;

use super::client::Millis;

/// `controller_utils.go` `ExpectationsTimeout = 5 * time.Minute`: "the
/// lifetime of expectations, after which a dormant controller … is woken up
/// anyway".
pub const EXPECTATIONS_TIMEOUT_MS: Millis = 5 * 60 * 1000;

/// What one controller expects to see (`ControlleeExpectations`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct ControlleeExpectations {
    add: i64,
    del: i64,
    /// When they were set.
    timestamp: Millis,
}

impl ControlleeExpectations {
    /// `Fulfilled`: "add <= 0 && del <= 0".
    fn fulfilled(&self) -> bool {
        self.add <= 0 && self.del <= 0
    }
}

/// `ControllerExpectations`: expectations by controller key, with a TTL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ControllerExpectations {
    ttl: Millis,
    records: Vec<(String, ControlleeExpectations)>,
}

impl Default for ControllerExpectations {
    fn default() -> Self {
        Self::with_ttl(EXPECTATIONS_TIMEOUT_MS)
    }
}

impl ControllerExpectations {
    /// Upstream tests build theirs with `NewFakeControllerExpectationsLookup(ttl)`.
    pub fn with_ttl(ttl: Millis) -> Self {
        Self {
            ttl,
            records: Vec::new(),
        }
    }

    fn record(&mut self, key: &str) -> Option<&mut ControlleeExpectations> {
        self.records
            .iter_mut()
            .find(|(k, _)| k == key)
            .map(|(_, record)| record)
    }

    /// `GetExpectations`: the `(add, del)` counters, if a record exists.
    pub fn get(&self, key: &str) -> Option<(i64, i64)> {
        self.records
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, r)| (r.add, r.del))
    }

    /// `SetExpectations`: forgets what was expected before.
    pub fn set(&mut self, key: &str, add: i64, del: i64, now: Millis) {
        let record = ControlleeExpectations {
            add,
            del,
            timestamp: now,
        };
        match self.record(key) {
            Some(existing) => *existing = record,
            None => self.records.push((key.to_owned(), record)),
        }
    }

    /// `ExpectCreations`: `SetExpectations(key, adds, 0)`.
    pub fn expect_creations(&mut self, key: &str, adds: i64, now: Millis) {
        self.set(key, adds, 0, now);
    }

    /// `ExpectDeletions`: `SetExpectations(key, 0, dels)`.
    pub fn expect_deletions(&mut self, key: &str, dels: i64, now: Millis) {
        self.set(key, 0, dels, now);
    }

    /// `LowerExpectations`; nothing without a record.
    pub fn lower(&mut self, key: &str, add: i64, del: i64) {
        if let Some(record) = self.record(key) {
            record.add -= add;
            record.del -= del;
        }
    }

    /// `RaiseExpectations`; nothing without a record.
    pub fn raise(&mut self, key: &str, add: i64, del: i64) {
        self.lower(key, -add, -del);
    }

    /// `CreationObserved`: one creation seen (or one that will never be).
    pub fn creation_observed(&mut self, key: &str) {
        self.lower(key, 1, 0);
    }

    /// `DeletionObserved`.
    pub fn deletion_observed(&mut self, key: &str) {
        self.lower(key, 0, 1);
    }

    /// `DeleteExpectations`.
    pub fn delete(&mut self, key: &str) {
        self.records.retain(|(k, _)| k != key);
    }

    /// `SatisfiedExpectations`: no record, fulfilled, or expired
    /// (`isExpired`: older than the TTL).
    pub fn satisfied(&self, key: &str, now: Millis) -> bool {
        self.records
            .iter()
            .find(|(k, _)| k == key)
            .is_none_or(|(_, r)| r.fulfilled() || now.saturating_sub(r.timestamp) > self.ttl)
    }
}

/// Why a pass planned nothing without calling `reconcile`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(
    tag = "kind",
    rename_all = "kebab-case",
    rename_all_fields = "camelCase"
)]
pub enum PassSkip {
    /// Expectations not satisfied: `pending` creations of an earlier pass
    /// have not reached the cache yet.
    ExpectingCreations { pending: u64 },
    /// KEP-5647: the informer of `informer` has synced resourceVersion
    /// `read`, older than this controller's own write at `wrote`.
    StaleCache {
        informer: super::client::WatchedKind,
        read: u64,
        wrote: u64,
    },
}

impl std::fmt::Display for PassSkip {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PassSkip::ExpectingCreations { pending } => {
                let plural = if *pending == 1 { "" } else { "s" };
                write!(
                    f,
                    "skipped: expecting {pending} creation{plural} not yet seen in the cache"
                )
            }
            PassSkip::StaleCache { read, wrote, .. } => write!(
                f,
                "skipped: the cache has synced resourceVersion {read}, older than its own write at {wrote}"
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `controller_utils_test.go` `TestControllerExpectations`, with the
    /// fake clock as simulated milliseconds (ttl 30 s).
    #[test]
    fn test_controller_expectations() {
        let ttl = 30_000;
        let mut e = ControllerExpectations::with_ttl(ttl);
        let mut now = 0;
        let (adds, dels) = (10, 30);
        let rc_key = "default/foobar";
        e.set(rc_key, adds, dels, now);
        for _ in 0..=adds {
            // "In prod this can happen either because of a failed create by
            // the rc or after having observed a create via informer"
            e.creation_observed(rc_key);
        }
        assert!(
            !e.satisfied(rc_key, now),
            "Rc will sync before expectations are met (there are still delete expectations)"
        );
        for _ in 0..=dels {
            e.deletion_observed(rc_key);
        }

        // "Expectations have been surpassed"
        assert_eq!(e.get(rc_key), Some((-1, -1)));
        assert!(
            e.satisfied(rc_key, now),
            "Expectations are met but the rc will not sync"
        );

        // "Old expectations are cleared because of ttl"
        e.set(rc_key, 1, 2, now);
        assert_eq!(e.get(rc_key), Some((1, 2)));
        assert!(!e.satisfied(rc_key, now));
        now += ttl + 1;
        assert!(
            e.satisfied(rc_key, now),
            "Expectations should have expired but didn't"
        );
    }

    #[test]
    fn a_key_without_expectations_is_satisfied_and_is_not_lowered() {
        let mut e = ControllerExpectations::default();
        assert!(e.satisfied("rs", 0), "a new controller syncs");
        e.creation_observed("rs");
        assert_eq!(e.get("rs"), None, "LowerExpectations needs a record");
        e.expect_creations("rs", 2, 0);
        e.raise("rs", 1, 0);
        assert_eq!(e.get("rs"), Some((3, 0)));
        e.expect_deletions("rs", 1, 0);
        assert_eq!(
            e.get("rs"),
            Some((0, 1)),
            "SetExpectations forgets the earlier ones"
        );
        e.delete("rs");
        assert!(e.satisfied("rs", 0));
    }

    #[test]
    fn expectations_expire_after_five_minutes_not_at_five() {
        let mut e = ControllerExpectations::default();
        e.expect_creations("rs", 1, 1_000);
        assert!(
            !e.satisfied("rs", 1_000 + EXPECTATIONS_TIMEOUT_MS),
            "isExpired is >, not >="
        );
        assert!(e.satisfied("rs", 1_001 + EXPECTATIONS_TIMEOUT_MS));
    }

    #[test]
    fn a_skip_says_how_many_creations_it_waits_for() {
        assert_eq!(
            PassSkip::ExpectingCreations { pending: 1 }.to_string(),
            "skipped: expecting 1 creation not yet seen in the cache"
        );
        assert_eq!(
            PassSkip::ExpectingCreations { pending: 3 }.to_string(),
            "skipped: expecting 3 creations not yet seen in the cache"
        );
    }
}

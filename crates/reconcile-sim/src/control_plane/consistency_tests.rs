//! kubernetes `pkg/controller/util/consistency/consistency_test.go`, ported.
//! A `cache.Store` and its `Bookmark` become a synced version per kind;
//! `None` is a store that has synced nothing ("").
//!
//! Left out: `TestConsistencyStore_EnsureWrittenRecord_Concurrent`, which
//! races goroutines; nothing here runs concurrently.

use std::cell::Cell;

use super::*;

const PODS: WatchedKind = WatchedKind::Object;
const OWNERS: WatchedKind = WatchedKind::CustomResource;

/// Two stores' synced versions, settable as a test goes.
#[derive(Default)]
struct Stores {
    pods: Cell<Option<u64>>,
    owners: Cell<Option<u64>>,
}

impl Stores {
    fn synced(&self) -> impl Fn(WatchedKind) -> Option<u64> + '_ {
        |kind| match kind {
            PODS => self.pods.get(),
            OWNERS => self.owners.get(),
        }
    }
}

fn version(record: &OwnerRecord, kind: WatchedKind) -> Option<u64> {
    record
        .versions
        .iter()
        .find(|(k, _)| *k == kind)
        .map(|(_, v)| *v)
}

#[test]
fn test_owner_record_wrote_at() {
    let mut record = OwnerRecord::new(1);
    record.wrote_at(PODS, 5);
    assert_eq!(version(&record, PODS), Some(5));
    record.wrote_at(PODS, 10);
    assert_eq!(version(&record, PODS), Some(10));
    record.wrote_at(PODS, 8);
    assert_eq!(version(&record, PODS), Some(10), "a lower write is ignored");
    record.wrote_at(OWNERS, 1);
    assert_eq!(version(&record, OWNERS), Some(1));
    assert_eq!(version(&record, PODS), Some(10), "pods unchanged");
}

#[test]
fn test_owner_record_is_ready() {
    let stores = Stores::default();
    let mut record = OwnerRecord::new(1);
    assert!(record.ensure_ready(&stores.synced()).is_ok(), "no writes");
    record.wrote_at(PODS, 10);
    assert!(
        record.ensure_ready(&stores.synced()).is_ok(),
        "a write, and no read: stays ready"
    );
    stores.pods.set(Some(5));
    assert_eq!(
        record.ensure_ready(&stores.synced()),
        Err(ConsistencyError {
            kind: PODS,
            read: 5,
            wrote: 10
        }),
        "read < write"
    );
    stores.pods.set(Some(10));
    assert!(
        record.ensure_ready(&stores.synced()).is_ok(),
        "read == write"
    );
    stores.pods.set(Some(15));
    assert!(
        record.ensure_ready(&stores.synced()).is_ok(),
        "read > write"
    );
    record.wrote_at(OWNERS, 100);
    stores.owners.set(Some(50));
    assert!(
        record.ensure_ready(&stores.synced()).is_err(),
        "one kind of two not ready"
    );
    stores.owners.set(Some(100));
    assert!(record.ensure_ready(&stores.synced()).is_ok(), "all ready");
}

#[test]
fn test_consistency_store_new() {
    assert!(ConsistencyStore::default().writes.is_empty());
}

#[test]
fn test_consistency_store_ensure_written_record() {
    let mut store = ConsistencyStore::default();
    store.ensure_written_record("owner1", 1).wrote_at(PODS, 10);
    assert_eq!(
        version(store.ensure_written_record("owner1", 1), PODS),
        Some(10),
        "the same uid keeps its record"
    );
    let replaced = store.ensure_written_record("owner1", 2);
    assert_eq!(replaced.owner_uid, 2);
    assert!(replaced.versions.is_empty(), "a new uid starts empty");
    assert_eq!(store.writes.len(), 1);
}

#[test]
fn test_consistency_store_wrote_at() {
    let mut store = ConsistencyStore::default();
    store.wrote_at("owner1", 1, PODS, 10);
    let record = store.writes.get("owner1").expect("recorded");
    assert_eq!((record.owner_uid, version(record, PODS)), (1, Some(10)));
    store.wrote_at("owner1", 1, PODS, 20);
    assert_eq!(
        version(store.writes.get("owner1").expect("kept"), PODS),
        Some(20)
    );
}

#[test]
fn test_consistency_store_clear() {
    let mut store = ConsistencyStore::default();
    store.ensure_written_record("owner1", 1);
    store.ensure_written_record("owner2", 2);
    store.clear("non-existent", Some(1));
    assert_eq!(store.writes.len(), 2);
    store.clear("owner1", Some(2));
    assert_eq!(store.writes.len(), 2, "not with the wrong uid");
    store.clear("owner1", Some(1));
    assert!(!store.tracks("owner1") && store.tracks("owner2"));
    store.ensure_written_record("owner1", 1);
    store.clear("owner1", None);
    assert!(!store.tracks("owner1") && store.tracks("owner2"), "any uid");
}

#[test]
fn test_consistency_store_is_ready() {
    let stores = Stores::default();
    let mut store = ConsistencyStore::default();
    assert!(
        store.ensure_ready("owner1", stores.synced()).is_ok(),
        "no record"
    );
    stores.pods.set(Some(5));
    store.wrote_at("owner1", 1, PODS, 10);
    assert!(
        store.ensure_ready("owner1", stores.synced()).is_err(),
        "read < write"
    );
    stores.pods.set(Some(10));
    assert!(
        store.ensure_ready("owner1", stores.synced()).is_ok(),
        "read == write"
    );
    stores.pods.set(Some(15));
    assert!(
        store.ensure_ready("owner1", stores.synced()).is_ok(),
        "read > write"
    );
    assert!(!store.tracks("owner1"), "a ready record is cleared");
}

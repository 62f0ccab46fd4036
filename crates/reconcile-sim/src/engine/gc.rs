//! The garbage collector: kube-controller-manager's, an actor of its own
//! that deletes or orphans what a deleted owner owned, whatever this
//! controller does (also while it is down).
//!
//! Follows `pkg/controller/garbagecollector` of kubernetes/kubernetes:
//! - `Graph::observe` (`gc_graph.rs`) is `GraphBuilder.processGraphChanges` with
//!   `processTransitions` and `addUnblockedOwnersToDeleteQueue`: each write
//!   updates the dependency graph and queues the items to look at.
//! - `attempt_to_delete_item` is `attemptToDeleteItem`: the item is read
//!   afresh, its owners classified (`classifyReferences`: solid, dangling,
//!   waiting for their dependents' deletion), and it is left alone, has
//!   references removed, or is deleted: in the foreground when an owner
//!   waits for it and it has dependents of its own, else as its own
//!   finalizers say (background by default). An owner deleting its
//!   dependents goes through `processDeletingDependentsItem`: while blocking
//!   dependents (`blockOwnerDeletion`) exist they are queued, then its
//!   `foregroundDeletion` finalizer is removed, and the store deletes it.
//! - [`Engine::gc_orphan`] is `attemptToOrphanWorker` (`orphanDependents`,
//!   then the `orphan` finalizer is removed).
//!
//! # Guarantees
//! - Background: the owner is gone at once; each dependent whose owners are
//!   all gone is deleted `watchLatencyMs + actionMs` later.
//! - Foreground: the owner waits (deletionTimestamp, `foregroundDeletion`)
//!   until no blocking dependent exists, its dependents' own finalizers
//!   included, then goes.
//! - Orphan: the dependents lose their reference to the owner and stay; the
//!   owner then goes.
//!
//! # Caveats
//! - Timing: the graph builder takes each write as it is made; the watch
//!   latency is charged when work is queued, and each item the workers take
//!   costs one request's time (`actionMs`). Its watch never breaks
//!   (`watchBreakRate` is this controller's), and its requests never fail.
//! - The graph is keyed by key space and name, not by uid: a re-created
//!   name replaces its node (its delete came first).
//! - An owner the graph has never seen (a "virtual" node) is looked up at
//!   once: its dependent is queued and `classifyReferences` finds it absent,
//!   which is where upstream's virtual delete event leads.
//!
//! Left out of `garbagecollector_test.go`, with why: `TestDependentsRace`
//! (the race detector), `TestAbsentOwnerCache` (no cache: every lookup reads
//! the store), `TestOrphanDependentsFailure` (the collector's requests never
//! fail here), `TestGetDeletableResources`, `TestGarbageCollectorSync`,
//! `TestGarbageCollectorConstruction` (discovery and monitors),
//! `TestConflictingData` (namespaces, API versions and virtual-node
//! coordinates: none modelled). Ported: `TestAttemptToDeleteItem`,
//! `TestProcessEvent` (in `gc_tests.rs`, with the graph), `TestDeleteOwnerRefPatch`,
//! `TestUnblockOwnerReference` (in `ownership.rs`).

use super::{update_change, Engine, Scheduled};
use crate::apiserver::{ApiError, DeleteOptions, Update, FINALIZER_ORPHAN_DEPENDENTS};
pub(crate) use crate::control_plane::gc_graph::Queue;
use crate::control_plane::gc_graph::{attempt_to_delete_item, Graph, Step};
use crate::ownership::{ObjectKey, OwnerRefs};
use crate::sorted::SortedSet;
use crate::workqueue::Millis;
use crate::world::{Change, ObjectState};
use crate::{GcAction, Happening};

/// The name a [`GcAction`] records: `None` for the custom resource.
fn object_name(key: &ObjectKey) -> Option<String> {
    match key {
        ObjectKey::CustomResource(_) => None,
        ObjectKey::Object(name) => Some(name.to_string()),
    }
}

/// The collector's state in the engine: its graph and what is queued.
#[derive(Debug, Default)]
pub(super) struct GarbageCollector {
    pub(super) graph: Graph,
    /// One entry per item, as a work queue keeps it.
    queued: SortedSet<(Queue, ObjectKey)>,
}

impl Engine {
    /// The garbage collector's informers list the store at start: the
    /// custom resources first, as they were created first.
    pub(super) fn gc_list(&mut self) {
        let objects = self.world.observed.names().filter_map(|name| {
            let shared = self.world.observed.shared_name(name).cloned()?;
            Some(ObjectKey::Object(shared))
        });
        let custom_resources = self.world.custom_resource_names().cloned();
        let keys: Vec<ObjectKey> = custom_resources
            .map(ObjectKey::CustomResource)
            .chain(objects)
            .collect();
        for key in keys {
            let state = self.world.get(&key);
            self.gc_observe(0, &key, state.as_ref());
        }
    }

    /// The collector's watch sees a write to `key` (`state` after it).
    pub(super) fn gc_observe(&mut self, at: Millis, key: &ObjectKey, state: Option<&ObjectState>) {
        let items = self.gc.graph.observe(key, state);
        let delay = self
            .config
            .watch_latency_ms
            .saturating_add(self.config.action_ms);
        for item in items {
            self.gc_enqueue(item, at, delay);
        }
    }

    fn gc_enqueue(&mut self, (queue, key): (Queue, ObjectKey), at: Millis, delay: Millis) {
        if self.gc.queued.insert((queue, key.clone())) {
            self.schedule_after(at, delay, Scheduled::GcWork { queue, key });
        }
    }

    /// A worker takes the item.
    pub(super) fn gc_work(&mut self, queue: Queue, key: ObjectKey) {
        self.gc.queued.remove(&(queue, key.clone()));
        if queue == Queue::AttemptToOrphan {
            self.gc_orphan(&key);
            return;
        }
        match attempt_to_delete_item(&self.world, &self.gc.graph, &key) {
            Step::Nothing => {}
            Step::Enqueue(keys) => {
                for dependent in keys {
                    self.gc_enqueue(
                        (Queue::AttemptToDelete, dependent),
                        self.now,
                        self.config.action_ms,
                    );
                }
            }
            Step::RemoveFinalizer(finalizer) => self.gc_remove_finalizer(&key, finalizer),
            Step::RemoveOwnerReferences(uids) => self.gc_remove_owner_refs(&key, &uids),
            Step::Delete {
                propagation,
                resource_version,
                unblock,
            } => {
                if unblock {
                    self.gc_patch_owner_refs(&key, OwnerRefs::unblocked);
                }
                let options = DeleteOptions {
                    propagation_policy: Some(propagation),
                    resource_version: Some(resource_version),
                    ..DeleteOptions::default()
                };
                match self.delete_key(&key, &options, self.now) {
                    Ok(Some(change)) => {
                        let object_deleted = change == Change::Deleted;
                        let object = object_name(&key);
                        self.gc_note(GcAction::Deleted {
                            object,
                            propagation,
                            object_deleted,
                        });
                        self.key_event(self.now, &key, change);
                    }
                    // A write since it read the item: look again (AddRateLimited).
                    Err(ApiError::Conflict { .. }) => {
                        self.gc_enqueue((queue, key), self.now, self.config.action_ms);
                    }
                    Ok(None) | Err(_) => {}
                }
            }
        }
    }

    /// `attemptToOrphanWorker`: every dependent loses its reference to the
    /// owner, then the owner its `orphan` finalizer.
    fn gc_orphan(&mut self, owner: &ObjectKey) {
        let Some(uid) = self.gc.graph.nodes.get(owner).map(|n| n.uid) else {
            return;
        };
        for dependent in self.gc.graph.dependents(uid, false) {
            self.gc_remove_owner_refs(&dependent, &[uid]);
        }
        self.gc_remove_finalizer(owner, FINALIZER_ORPHAN_DEPENDENTS);
    }

    fn gc_remove_owner_refs(&mut self, key: &ObjectKey, uids: &[u64]) {
        if self.gc_patch_owner_refs(key, |refs| refs.without(uids)) {
            let object = object_name(key);
            self.gc_note(GcAction::OwnerReferencesRemoved { object });
        }
    }

    /// A patch of `key`'s ownerReferences; true if it wrote. NotFound is fine.
    fn gc_patch_owner_refs(
        &mut self,
        key: &ObjectKey,
        patch: impl FnOnce(&OwnerRefs) -> OwnerRefs,
    ) -> bool {
        let Some(current) = self.world.get(key) else {
            return false;
        };
        let update = Update {
            owner_references: Some(patch(&current.meta.owner_references)),
            ..Update::default()
        };
        self.gc_update(key, update).is_some()
    }

    /// `removeFinalizer`; the update that removes the last one deletes it.
    fn gc_remove_finalizer(&mut self, key: &ObjectKey, finalizer: &'static str) {
        let Some(current) = self.world.get(key) else {
            return;
        };
        let rest: Vec<String> = current
            .finalizers
            .iter()
            .filter(|f| *f != finalizer)
            .cloned()
            .collect();
        let update = Update {
            finalizers: Some(rest),
            ..Update::default()
        };
        if let Some(change) = self.gc_update(key, update) {
            let object_deleted = change == Change::Deleted;
            let (object, finalizer) = (object_name(key), finalizer.to_owned());
            self.gc_note(GcAction::FinalizerRemoved {
                object,
                finalizer,
                object_deleted,
            });
        }
    }

    /// A patch by the collector (no resourceVersion); its watch event follows.
    fn gc_update(&mut self, key: &ObjectKey, update: Update) -> Option<Change> {
        let outcome = self
            .world
            .in_key_space(key, |w, name| w.update(name, update))
            .ok()?;
        let change = update_change(outcome)?;
        self.key_event(self.now, key, change);
        Some(change)
    }

    fn gc_note(&mut self, action: GcAction) {
        self.note(self.now, Happening::GarbageCollector { action });
    }
}

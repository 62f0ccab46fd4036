//! The garbage collector: kube-controller-manager's, an actor of its own
//! that deletes or orphans what a deleted owner owned, whatever this
//! controller does (also while it is down).
//!
//! Follows `pkg/controller/garbagecollector` of kubernetes/kubernetes:
//! - [`Graph::observe`] is `GraphBuilder.processGraphChanges` with
//!   `processTransitions` and `addUnblockedOwnersToDeleteQueue`: each write
//!   updates the dependency graph and queues the items to look at.
//! - [`attempt_to_delete_item`] is `attemptToDeleteItem`: the item is read
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
//!   (`dropRate` is this controller's), and its requests never fail.
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
//! `TestProcessEvent` (in `gc_tests.rs`), `TestDeleteOwnerRefPatch`,
//! `TestUnblockOwnerReference` (in `ownership.rs`).

use std::collections::{BTreeMap, BTreeSet};

use super::{update_change, Engine, Scheduled};
use crate::apiserver::{
    ApiError, DeleteOptions, PropagationPolicy, Update, FINALIZER_DELETE_DEPENDENTS,
    FINALIZER_ORPHAN_DEPENDENTS,
};
use crate::ownership::{ObjectKey, OwnerReference, OwnerRefs};
use crate::workqueue::Millis;
use crate::world::{Change, ObjectState, World};
use crate::{GcAction, Happening};

/// The garbage collector's two work queues.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Queue {
    AttemptToDelete,
    AttemptToOrphan,
}

/// One node of the dependency graph (`node` in `graph.go`).
#[derive(Debug, Clone)]
pub(crate) struct Node {
    pub(crate) uid: u64,
    pub(crate) owners: OwnerRefs,
    being_deleted: bool,
    deleting_dependents: bool,
}

/// `GraphBuilder.uidToNode`, and the deletions seen starting with a finalizer.
#[derive(Debug, Clone, Default)]
pub(crate) struct Graph {
    pub(crate) nodes: BTreeMap<ObjectKey, Node>,
    started: BTreeSet<(u64, &'static str)>,
}

/// What `attemptToDeleteItem` does with an item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Step {
    Nothing,
    /// Queue these dependents (an owner waiting for them).
    Enqueue(Vec<ObjectKey>),
    RemoveFinalizer(&'static str),
    /// Remove the references to these owner uids (dangling or waiting).
    RemoveOwnerReferences(Vec<u64>),
    /// Delete it, preconditioned on `resource_version`; first make its
    /// references non-blocking when `unblock` (the cycle guard).
    Delete {
        propagation: PropagationPolicy,
        resource_version: u64,
        unblock: bool,
    },
}

impl Graph {
    /// `processGraphChanges` for one event: `state` is the object after the
    /// write, `None` after a delete. Returns the items to queue.
    pub(crate) fn observe(
        &mut self,
        key: &ObjectKey,
        state: Option<&ObjectState>,
    ) -> Vec<(Queue, ObjectKey)> {
        let mut queue = Vec::new();
        let Some(state) = state else {
            let Some(node) = self.nodes.remove(key) else {
                return queue;
            };
            self.started.retain(|(uid, _)| *uid != node.uid);
            let dependents = self.dependents(node.uid, false);
            queue.extend(dependents.into_iter().map(|d| (Queue::AttemptToDelete, d)));
            // Owners waiting for their dependents look again.
            for owner in node.owners.as_slice() {
                if self
                    .nodes
                    .get(&owner.owner)
                    .is_some_and(|n| n.deleting_dependents)
                {
                    queue.push((Queue::AttemptToDelete, owner.owner.clone()));
                }
            }
            return queue;
        };
        let owners = &state.meta.owner_references;
        let being_deleted = state.deletion_timestamp.is_some();
        match self.nodes.get_mut(key) {
            Some(node) if node.uid == state.meta.uid => {
                // A blocking reference removed or made non-blocking may unblock its owner.
                for old in node.owners.as_slice() {
                    let still_blocks =
                        |r: &OwnerReference| r.uid == old.uid && r.block_owner_deletion;
                    if old.block_owner_deletion && !owners.as_slice().iter().any(still_blocks) {
                        queue.push((Queue::AttemptToDelete, old.owner.clone()));
                    }
                }
                node.owners = owners.clone();
                node.being_deleted |= being_deleted;
            }
            _ => {
                let has = |f: &str| state.finalizers.iter().any(|x| x == f);
                let node = Node {
                    uid: state.meta.uid,
                    owners: owners.clone(),
                    being_deleted,
                    deleting_dependents: being_deleted && has(FINALIZER_DELETE_DEPENDENTS),
                };
                self.nodes.insert(key.clone(), node);
                // An owner never seen: upstream's virtual node, looked up,
                // not found, and its dependents queued.
                let unseen = owners
                    .as_slice()
                    .iter()
                    .any(|r| !self.nodes.contains_key(&r.owner));
                if unseen {
                    queue.push((Queue::AttemptToDelete, key.clone()));
                }
            }
        }
        self.transitions(key, state, &mut queue);
        queue
    }

    /// `processTransitions`: a deletion that starts with `orphan` queues the
    /// owner for orphaning; one with `foregroundDeletion`, the owner and its
    /// dependents for deletion (`deletionStartsWithFinalizer`).
    fn transitions(
        &mut self,
        key: &ObjectKey,
        state: &ObjectState,
        queue: &mut Vec<(Queue, ObjectKey)>,
    ) {
        let uid = state.meta.uid;
        for finalizer in [FINALIZER_ORPHAN_DEPENDENTS, FINALIZER_DELETE_DEPENDENTS] {
            let on = state.deletion_timestamp.is_some()
                && state.finalizers.iter().any(|f| f == finalizer);
            if !on {
                self.started.remove(&(uid, finalizer));
                continue;
            }
            if !self.started.insert((uid, finalizer)) {
                continue;
            }
            if finalizer == FINALIZER_ORPHAN_DEPENDENTS {
                queue.push((Queue::AttemptToOrphan, key.clone()));
                return;
            }
            if let Some(node) = self.nodes.get_mut(key) {
                node.deleting_dependents = true;
            }
            let dependents = self.dependents(uid, false);
            queue.extend(dependents.into_iter().map(|d| (Queue::AttemptToDelete, d)));
            queue.push((Queue::AttemptToDelete, key.clone()));
        }
    }

    /// The nodes referring to `uid`; only those whose reference blocks, with `blocking`.
    pub(crate) fn dependents(&self, uid: u64, blocking: bool) -> Vec<ObjectKey> {
        self.nodes
            .iter()
            .filter(|(_, n)| {
                let refs = n.owners.as_slice();
                refs.iter()
                    .any(|r| r.uid == uid && (r.block_owner_deletion || !blocking))
            })
            .map(|(key, _)| key.clone())
            .collect()
    }
}

/// `attemptToDeleteItem` on the graph and the store as they are now.
pub(crate) fn attempt_to_delete_item(world: &World, graph: &Graph, key: &ObjectKey) -> Step {
    let Some(node) = graph.nodes.get(key) else {
        return Step::Nothing;
    };
    // Being deleted is a one-way trip: wait for its final deletion.
    if node.being_deleted && !node.deleting_dependents {
        return Step::Nothing;
    }
    let Some(latest) = world.get(key).filter(|l| l.meta.uid == node.uid) else {
        // Gone (or re-created): its delete event does the rest.
        return Step::Nothing;
    };
    if node.deleting_dependents {
        // processDeletingDependentsItem
        let blocking = graph.dependents(node.uid, true);
        if blocking.is_empty() {
            return Step::RemoveFinalizer(FINALIZER_DELETE_DEPENDENTS);
        }
        let waiting = |k: &ObjectKey| graph.nodes.get(k).is_some_and(|n| n.deleting_dependents);
        return Step::Enqueue(blocking.into_iter().filter(|k| !waiting(k)).collect());
    }
    let refs = latest.meta.owner_references.as_slice();
    if refs.is_empty() {
        return Step::Nothing;
    }
    // classifyReferences: each owner read afresh (`isDangling`).
    let (mut solid, mut gone) = (false, Vec::new());
    let mut waiting = false;
    for reference in refs {
        match world
            .get(&reference.owner)
            .filter(|o| o.meta.uid == reference.uid)
        {
            None => gone.push(reference.uid),
            Some(owner)
                if owner.deletion_timestamp.is_some()
                    && has(&owner, FINALIZER_DELETE_DEPENDENTS) =>
            {
                waiting = true;
                gone.push(reference.uid);
            }
            Some(_) => solid = true,
        }
    }
    let resource_version = latest.meta.resource_version;
    let dependents = graph.dependents(node.uid, false);
    if solid {
        return if gone.is_empty() {
            Step::Nothing
        } else {
            Step::RemoveOwnerReferences(gone)
        };
    }
    if waiting && !dependents.is_empty() {
        let unblock = dependents
            .iter()
            .any(|d| graph.nodes.get(d).is_some_and(|n| n.deleting_dependents));
        return Step::Delete {
            propagation: PropagationPolicy::Foreground,
            resource_version,
            unblock,
        };
    }
    // No solid owner: collect it, honouring a propagation finalizer it has.
    let propagation = if has(&latest, FINALIZER_ORPHAN_DEPENDENTS) {
        PropagationPolicy::Orphan
    } else if has(&latest, FINALIZER_DELETE_DEPENDENTS) {
        PropagationPolicy::Foreground
    } else {
        PropagationPolicy::Background
    };
    Step::Delete {
        propagation,
        resource_version,
        unblock: false,
    }
}

fn has(state: &ObjectState, finalizer: &str) -> bool {
    state.finalizers.iter().any(|f| f == finalizer)
}

/// The name a [`GcAction`] records: `None` for the custom resource.
fn object_name(key: &ObjectKey) -> Option<String> {
    match key {
        ObjectKey::CustomResource => None,
        ObjectKey::Object(name) => Some(name.to_string()),
    }
}

/// The collector's state in the engine: its graph and what is queued.
#[derive(Debug, Default)]
pub(super) struct GarbageCollector {
    pub(super) graph: Graph,
    /// One entry per item, as a work queue keeps it.
    queued: BTreeSet<(Queue, ObjectKey)>,
}

impl Engine<'_> {
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

#[cfg(test)]
#[path = "gc_tests.rs"]
mod tests;

//! The garbage collector's dependency graph and its decision on one item,
//! pure functions of the graph and the store (see `gc.rs` for the actor).

use crate::apiserver::{
    PropagationPolicy, FINALIZER_DELETE_DEPENDENTS, FINALIZER_ORPHAN_DEPENDENTS,
};
use crate::ownership::{ObjectKey, OwnerReference, OwnerRefs};
use crate::sorted::{SortedMap, SortedSet};
use crate::world::{ObjectState, World};

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
    pub(crate) nodes: SortedMap<ObjectKey, Node>,
    started: SortedSet<(u64, &'static str)>,
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

#[cfg(test)]
#[path = "gc_tests.rs"]
mod tests;

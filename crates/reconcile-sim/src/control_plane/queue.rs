//! The controller's work queue, as the setting `queue` names it: client-go's
//! rate-limiting queue (the playground's default, and what a
//! controller-runtime controller gets with `UsePriorityQueue: false`),
//! controller-runtime v0.24.1's default priority queue, or kube-rs's runner
//! and scheduler ([`KubeQueue`]). The first two take the backoff policy's
//! rate limiter; kube-rs has none, only its `error_policy`. All are the
//! faithful models in [`crate::workqueue`], seen through one interface.
//!
//! Where they differ, visibly in a timeline: client-go keeps a delayed entry
//! apart from the queue, so a requeue still fires after a watch event
//! already ran the key; the priority queue keeps one item per key, so that
//! event makes the waiting item ready and the requeue is gone.

use super::kube_queue::KubeQueue;
use crate::workqueue::{
    AddAfterOutcome, AddOutcome, BackoffPolicy, HandlerAction, PriorityAdd, PriorityAddOutcome,
    PriorityQueue, QueueModel, RateLimitingQueue, Time,
};

/// A controller key: the name of a custom resource.
pub(crate) type Key = std::sync::Arc<str>;

#[derive(Debug)]
pub(crate) enum ControllerQueue {
    ClientGo(RateLimitingQueue<Key>),
    Priority(PriorityQueue<Key>),
    KubeRs(KubeQueue),
}

impl ControllerQueue {
    /// A fresh queue (at start, and for a restarted process).
    pub(crate) fn new(model: QueueModel, backoff: &BackoffPolicy) -> Self {
        match model {
            QueueModel::ControllerRuntimePriority => {
                Self::Priority(PriorityQueue::new(backoff.rate_limiter()))
            }
            QueueModel::ClientGo => Self::ClientGo(RateLimitingQueue::new(backoff.rate_limiter())),
            QueueModel::KubeRs => Self::KubeRs(KubeQueue::new(backoff)),
        }
    }

    /// A watch event or a resync: `Add`.
    pub(crate) fn add(&mut self, key: Key, now: Time) -> AddOutcome {
        match self {
            Self::ClientGo(queue) => queue.add(key),
            Self::Priority(queue) => {
                let was_ready = queue
                    .item(&key)
                    .is_some_and(|(_, ready_at)| ready_at.is_none());
                let added = queue.add(key, now);
                match added.outcome {
                    PriorityAddOutcome::Deferred => AddOutcome::Deferred,
                    _ if was_ready => AddOutcome::AlreadyQueued,
                    _ => AddOutcome::Queued,
                }
            }
            Self::KubeRs(queue) => queue.add(key, now),
        }
    }

    pub(crate) fn get(&mut self) -> Option<Key> {
        match self {
            Self::ClientGo(queue) => queue.get(),
            Self::Priority(queue) => queue.get(),
            Self::KubeRs(queue) => queue.get(),
        }
    }

    /// `Done` at `now`; true when the key is ready again (an add came while
    /// it was processed).
    pub(crate) fn done(&mut self, key: &Key, now: Time) -> bool {
        match self {
            Self::ClientGo(queue) => queue.done(key),
            Self::Priority(queue) => queue.done(key),
            Self::KubeRs(queue) => queue.done(key, now),
        }
    }

    /// Whether a key is ready to be handed out.
    pub(crate) fn is_empty(&self) -> bool {
        match self {
            Self::ClientGo(queue) => queue.is_empty(),
            Self::Priority(queue) => queue.is_empty(),
            Self::KubeRs(queue) => queue.is_empty(),
        }
    }

    /// What `reconcileHandler` does after a pass.
    pub(crate) fn apply(
        &mut self,
        key: Key,
        action: &HandlerAction,
        now: Time,
    ) -> Option<AddAfterOutcome> {
        match self {
            Self::ClientGo(queue) => queue.apply(key, action, now),
            Self::Priority(queue) => queue.apply(key, action, now).map(priority_outcome),
            Self::KubeRs(queue) => queue.apply(key, action, now),
        }
    }

    /// The waiting loop at `now`: every due entry becomes ready.
    pub(crate) fn move_ready(&mut self, now: Time) -> Vec<(Key, AddOutcome)> {
        match self {
            Self::ClientGo(queue) => queue.move_ready(now),
            Self::Priority(queue) => queue
                .move_ready(now)
                .into_iter()
                .map(|key| {
                    let added = if queue.is_processing(&key) {
                        AddOutcome::Deferred
                    } else {
                        AddOutcome::Queued
                    };
                    (key, added)
                })
                .collect(),
            Self::KubeRs(queue) => queue.move_ready(now),
        }
    }

    pub(crate) fn next_ready_at(&self) -> Option<Time> {
        match self {
            Self::ClientGo(queue) => queue.next_ready_at(),
            Self::Priority(queue) => queue.next_ready_at(),
            Self::KubeRs(queue) => queue.next_ready_at(),
        }
    }

    /// The keys ready for a worker, in the order it takes them (a picture's).
    pub(crate) fn ready_keys(&self) -> Vec<Key> {
        match self {
            Self::ClientGo(queue) => queue.queued().cloned().collect(),
            Self::Priority(queue) => queue.ready_keys().cloned().collect(),
            Self::KubeRs(queue) => queue.ready_keys(),
        }
    }

    /// When `key`'s delayed add is due, if one waits (a picture's).
    pub(crate) fn waiting_until(&self, key: &Key) -> Option<Time> {
        match self {
            Self::ClientGo(queue) => queue.ready_at(key),
            Self::Priority(queue) => queue.item(key).and_then(|(_, ready_at)| ready_at),
            Self::KubeRs(queue) => queue.scheduled_at(key),
        }
    }

    pub(crate) fn num_requeues(&self, key: &Key) -> u32 {
        match self {
            Self::ClientGo(queue) => queue.num_requeues(key),
            Self::Priority(queue) => queue.num_requeues(key),
            Self::KubeRs(queue) => queue.num_requeues(key),
        }
    }
}

/// A priority-queue add in the delaying queue's terms. A merge keeps the
/// earlier time; the requested one is not kept, so it shows as the same.
fn priority_outcome(added: PriorityAdd) -> AddAfterOutcome {
    match (added.outcome, added.ready_at) {
        (PriorityAddOutcome::Merged, Some(ready_at)) => AddAfterOutcome::Deduplicated {
            requested: ready_at,
            ready_at,
        },
        (_, Some(ready_at)) => AddAfterOutcome::Waiting { ready_at },
        (PriorityAddOutcome::Deferred, None) => AddAfterOutcome::AddedNow {
            added: AddOutcome::Deferred,
        },
        (PriorityAddOutcome::Merged, None) => AddAfterOutcome::AddedNow {
            added: AddOutcome::AlreadyQueued,
        },
        (_, None) => AddAfterOutcome::AddedNow {
            added: AddOutcome::Queued,
        },
    }
}

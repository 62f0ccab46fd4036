//! kube-rs's controller loop as the engine's work queue: the runner and its
//! scheduler (kube-runtime 4.2.0, modelled in [`crate::workqueue`]) behind
//! the queue interface the engine uses.
//!
//! What changes against client-go's queue:
//! - One slot per object in the scheduler: a requeue and a watch event merge,
//!   and the earlier time wins.
//! - A message that comes due while its object is being reconciled is held
//!   pending, and runs once the reconcile ends; the requeue that reconcile
//!   asks for is then dropped.
//! - No rate limiter: a failed reconcile is requeued by the `error_policy`,
//!   whose `Action::requeue(delay)` is the backoff policy "fixed-delay". The
//!   options reader accepts the kube-rs queue only with that policy.
//!
//! Caveats: the debounce is zero and concurrency unbounded (kube's
//! `Config::default()`).

use crate::workqueue::{
    Action, AddAfterOutcome, AddOutcome, BackoffPolicy, HandlerAction, KubeRunner, ReconcileReason,
    RunResult, ScheduleOutcome, Time,
};

use super::sorted::SortedMap;

/// A controller key: the name of a custom resource (`queue::Key`).
type Key = std::sync::Arc<str>;

#[derive(Debug)]
pub(crate) struct KubeQueue {
    runner: KubeRunner<Key>,
    /// The `error_policy`'s action; `None` (a policy kube-rs has no
    /// counterpart for, which the options reader refuses) awaits a change.
    error_policy: Option<Action>,
    /// Messages the runner started, for the engine's worker to take.
    started: Vec<Key>,
    /// Failed reconciles of each key since its last success, for the
    /// timeline's words; kube-rs itself counts nothing.
    failures: SortedMap<Key, u32>,
}

impl KubeQueue {
    pub(crate) fn new(backoff: &BackoffPolicy) -> Self {
        Self {
            runner: KubeRunner::default(),
            error_policy: backoff.kube_error_policy(),
            started: Vec::new(),
            failures: SortedMap::new(),
        }
    }

    /// The runner starts every message due by `now` whose object is free.
    fn poll(&mut self, now: Time) -> usize {
        let started = self.runner.poll(now);
        let count = started.len();
        self.started.extend(started.into_iter().map(|(key, _)| key));
        count
    }

    /// A watch event: the applier schedules a request at `now`. A message
    /// started but not yet taken by the worker has not read anything yet
    /// (upstream, its reconcile starts as it is polled): the event adds nothing.
    pub(crate) fn add(&mut self, key: Key, now: Time) -> AddOutcome {
        if self.started.contains(&key) {
            return AddOutcome::AlreadyQueued;
        }
        let outcome = self
            .runner
            .trigger(key.clone(), ReconcileReason::ObjectUpdated, now);
        self.poll(now);
        match outcome {
            ScheduleOutcome::DiscardedPending => AddOutcome::AlreadyQueued,
            _ if self.runner.is_running(&key) && !self.started.contains(&key) => {
                AddOutcome::Deferred
            }
            _ => AddOutcome::Queued,
        }
    }

    pub(crate) fn get(&mut self) -> Option<Key> {
        (!self.started.is_empty()).then(|| self.started.remove(0))
    }

    /// The reconcile ended; true when a message held pending now runs.
    pub(crate) fn done(&mut self, key: &Key, now: Time) -> bool {
        if self.runner.is_running(key) && !self.started.contains(key) {
            self.runner.done(key);
        }
        self.poll(now);
        self.started.contains(key)
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.started.is_empty()
    }

    /// The applier's `RescheduleReconciliation` for what the pass returned:
    /// `Ok(Action)` on success, the `error_policy`'s action on an error.
    pub(crate) fn apply(
        &mut self,
        key: Key,
        action: &HandlerAction,
        now: Time,
    ) -> Option<AddAfterOutcome> {
        let result = match action {
            HandlerAction::ErrorRequeue { .. } | HandlerAction::Requeue { .. } => {
                let failures = self.failures.entry(key.clone()).or_insert(0);
                *failures = failures.saturating_add(1);
                RunResult::Failed(self.error_policy.unwrap_or(Action::await_change()))
            }
            HandlerAction::TerminalError { .. } => RunResult::Failed(Action::await_change()),
            HandlerAction::ForgetAndRequeueAfter { opts } => {
                self.failures.remove(&key);
                RunResult::Reconciled(Action::requeue(opts.after))
            }
            HandlerAction::Forget => {
                self.failures.remove(&key);
                RunResult::Reconciled(Action::await_change())
            }
        };
        let requested = match result {
            RunResult::Reconciled(action) | RunResult::Failed(action) => action.requeue_after(),
            RunResult::ObjectNotFound => None,
        }
        .map(|after| now.saturating_add(after));
        let outcome = self.runner.finish(&key, result, now);
        self.poll(now);
        let added_now = || AddAfterOutcome::AddedNow {
            added: if self.started.contains(&key) {
                AddOutcome::Queued
            } else {
                AddOutcome::AlreadyQueued
            },
        };
        Some(match outcome? {
            ScheduleOutcome::Scheduled { run_at } | ScheduleOutcome::Replaced { run_at, .. }
                if run_at <= now =>
            {
                added_now()
            }
            ScheduleOutcome::Scheduled { run_at } | ScheduleOutcome::Replaced { run_at, .. } => {
                AddAfterOutcome::Waiting { ready_at: run_at }
            }
            ScheduleOutcome::KeptEarlier { run_at } => AddAfterOutcome::Deduplicated {
                requested: requested.unwrap_or(run_at),
                ready_at: run_at,
            },
            // A message came due while the reconcile ran: it runs now, and
            // the requeue is dropped.
            ScheduleOutcome::DiscardedPending => added_now(),
        })
    }

    /// The scheduler's wake-up at `now`: due messages start.
    pub(crate) fn move_ready(&mut self, now: Time) -> Vec<(Key, AddOutcome)> {
        let before = self.started.len();
        self.poll(now);
        let started = self.started[before..].iter().cloned();
        started.map(|key| (key, AddOutcome::Queued)).collect()
    }

    pub(crate) fn next_ready_at(&self) -> Option<Time> {
        self.runner.next_run_at()
    }

    /// The messages started, for the worker to take in this order.
    pub(crate) fn ready_keys(&self) -> Vec<Key> {
        self.started.clone()
    }

    /// When the scheduler runs `key`'s message, if one is scheduled.
    pub(crate) fn scheduled_at(&self, key: &Key) -> Option<Time> {
        self.runner.scheduler().run_at(key)
    }

    pub(crate) fn num_requeues(&self, key: &Key) -> u32 {
        self.failures.get(key).copied().unwrap_or(0)
    }
}

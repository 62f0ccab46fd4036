//! kube-rs's controller loop around the scheduler (kube 4.2.0): the runner
//! (`kube-runtime/src/controller/runner.rs`) that runs at most one reconcile
//! per object, and what the applier (`kube-runtime/src/controller/mod.rs`)
//! schedules from a reconcile's `Action` or the `error_policy`'s.
//!
//! A pass is: [`KubeRunner::poll`] at `now` starts every message that can
//! run; the engine runs each reconcile and calls [`KubeRunner::finish`] when it
//! ends; then `poll` again. Wake-ups: [`KubeRunner::next_run_at`].

use std::time::Duration;

use serde::Serialize;

use super::kube_scheduler::{KubeScheduler, ScheduleOutcome, MAX_SCHEDULE};
use super::Time;
use crate::sorted::SortedSet;

/// `Action`: whether, and after how long, to reconcile again without a
/// watch event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Action {
    requeue_after: Option<Duration>,
}

impl Action {
    /// `Action::requeue`: reconcile again `duration` after this one finished.
    pub const fn requeue(duration: Duration) -> Self {
        Self {
            requeue_after: Some(duration),
        }
    }

    /// `Action::await_change`: only a watch event reconciles again.
    pub const fn await_change() -> Self {
        Self {
            requeue_after: None,
        }
    }

    pub const fn requeue_after(&self) -> Option<Duration> {
        self.requeue_after
    }
}

/// `ReconcileReason` without its payloads (the related object, a custom
/// text). Upstream ignores it when comparing requests: it rides along with
/// the object's slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ReconcileReason {
    Unknown,
    ObjectUpdated,
    RelatedObjectUpdated,
    ReconcilerRequestedRetry,
    ErrorPolicyRequestedRetry,
    BulkReconcile,
    Custom,
}

/// How a reconcile ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunResult {
    /// `reconcile` returned `Ok(action)`.
    Reconciled(Action),
    /// `reconcile` failed and `error_policy` returned this action (a fixed
    /// `Action::requeue(d)` is the playground's "fixed-delay" policy).
    Failed(Action),
    /// The object was not in the store (`Error::ObjectNotFound`): nothing is
    /// scheduled.
    ObjectNotFound,
}

/// The applier's `Config`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct KubeConfig {
    /// Added to every request's time (zero by default).
    pub debounce: Duration,
    /// Reconciles running at once; 0 (the default) is unbounded.
    pub concurrency: u16,
}

/// `Runner`: a [`KubeScheduler`] and the objects being reconciled (`slots`).
#[derive(Debug, Clone)]
pub struct KubeRunner<K: Ord + Clone> {
    scheduler: KubeScheduler<K, ReconcileReason>,
    slots: SortedSet<K>,
    max_concurrent_executions: u16,
    is_ready_to_execute: bool,
}

impl<K: Ord + Clone> Default for KubeRunner<K> {
    fn default() -> Self {
        Self::new(KubeConfig::default())
    }
}

impl<K: Ord + Clone> KubeRunner<K> {
    /// A runner ready to execute (upstream waits for the store's first list,
    /// see [`KubeRunner::set_ready_to_execute`]).
    pub fn new(config: KubeConfig) -> Self {
        Self {
            scheduler: KubeScheduler::new(config.debounce),
            slots: SortedSet::new(),
            max_concurrent_executions: config.concurrency,
            is_ready_to_execute: true,
        }
    }

    /// `delay_tasks_until`: while not ready, due messages are held pending
    /// (and so deduplicated) but nothing starts.
    pub fn set_ready_to_execute(&mut self, ready: bool) {
        self.is_ready_to_execute = ready;
    }

    /// A request from the queue stream (a watch event, a mapper): the applier
    /// schedules it at `now`.
    pub fn trigger(&mut self, key: K, reason: ReconcileReason, now: Time) -> ScheduleOutcome {
        self.scheduler.schedule(key, reason, now, now)
    }

    /// Any request, e.g. from `reconcile_on` or a test.
    pub fn schedule(
        &mut self,
        key: K,
        reason: ReconcileReason,
        run_at: Time,
        now: Time,
    ) -> ScheduleOutcome {
        self.scheduler.schedule(key, reason, run_at, now)
    }

    /// `Runner::poll_next` at `now`: starts every message that can run, in
    /// order (pending ones first), and returns them. A due message whose
    /// object is running is held pending; at the concurrency limit (or not
    /// ready) every due message is.
    pub fn poll(&mut self, now: Time) -> Vec<(K, ReconcileReason)> {
        let mut started = Vec::new();
        loop {
            let limit = usize::from(self.max_concurrent_executions);
            if (limit > 0 && self.slots.len() >= limit) || !self.is_ready_to_execute {
                self.scheduler.hold(now);
                break;
            }
            let slots = &self.slots;
            let Some((key, reason)) = self.scheduler.hold_unless(now, |key| !slots.contains(key))
            else {
                break;
            };
            self.slots.insert(key.clone());
            started.push((key, reason));
        }
        started
    }

    /// The applier's `RescheduleReconciliation`, then the slot frees: the
    /// action's requeue is scheduled at `now + requeue_after` (clamped to six
    /// months), with the reason saying who asked. If a message for the object
    /// came due while it ran, that one is pending: the requeue is dropped
    /// and the pending message runs at the next `poll`.
    pub fn finish(&mut self, key: &K, result: RunResult, now: Time) -> Option<ScheduleOutcome> {
        let (action, reason) = match result {
            RunResult::Reconciled(action) => (action, ReconcileReason::ReconcilerRequestedRetry),
            RunResult::Failed(action) => (action, ReconcileReason::ErrorPolicyRequestedRetry),
            RunResult::ObjectNotFound => {
                self.done(key);
                return None;
            }
        };
        // Sent from inside the slot's future, so before the slot frees; the
        // scheduler does not look at slots, so the order changes nothing.
        let outcome = action.requeue_after.map(|after| {
            let run_at = now
                .checked_add(after)
                .unwrap_or_else(|| now.saturating_add(MAX_SCHEDULE));
            self.scheduler.schedule(key.clone(), reason, run_at, now)
        });
        self.done(key);
        outcome
    }

    /// The slot's future completed without the applier (the bare `Runner`):
    /// the object may run again.
    pub fn done(&mut self, key: &K) {
        self.slots.remove(key);
    }

    /// When to `poll` next for time's sake (after `finish`, poll anyway: a
    /// pending message may be waiting for the slot).
    pub fn next_run_at(&self) -> Option<Time> {
        self.scheduler.next_run_at()
    }

    pub fn is_running(&self, key: &K) -> bool {
        self.slots.contains(key)
    }

    pub fn running_len(&self) -> usize {
        self.slots.len()
    }

    /// The scheduler, to inspect (`run_at`, `is_pending`).
    pub fn scheduler(&self) -> &KubeScheduler<K, ReconcileReason> {
        &self.scheduler
    }
}

#[cfg(test)]
#[path = "kube_runner_tests.rs"]
mod tests;

//! From the responses of a pass to the work queue: the reconcile result, the
//! mapping of controller-runtime's `reconcileHandler`, and the delaying
//! queue's wake-ups.
//!
//! | responses in the pass | result | queue |
//! |---|---|---|
//! | all ok, or 404 for a DELETE or FINALIZE (already gone) | success | Forget |
//! | success, objects still terminating, `requeueWhileTerminatingMs` set | RequeueAfter | Forget, AddAfter |
//! | a 409 Conflict, AlreadyExists, a transient 5xx | error | AddRateLimited |
//! | a crash mid-pass | none | the key is lost with the process |
//!
//! A RequeueAfter returned with an error is ignored, as upstream does.

use std::time::Duration;

use super::{Engine, Scheduled};
use crate::control_plane::queue::Key;
use crate::control_plane::sorted::SortedMap;
use crate::controllers::controller::Returned;
use crate::events::SimEvent;
use crate::workqueue::{
    reconcile_handler, to_millis, AddAfterOutcome, HandlerAction, Millis, ReconcileResult,
};
use crate::{ActionResult, Happening, PassRecord, Trigger};

/// What the reconcile returned, and where it failed.
#[derive(Debug, Clone, Copy)]
pub(super) struct PassResult {
    /// The request whose failure the reconcile returned.
    failed_at: Option<usize>,
    returned: Returned,
    end: Millis,
}

impl PassResult {
    pub(super) fn of(returned: Returned, failed_at: Option<usize>, end: Millis) -> Self {
        Self {
            failed_at,
            returned,
            end,
        }
    }

    /// Writes the time the failed request's requeue makes the key ready: an
    /// action's, or the status write's after the last action.
    pub(super) fn show_requeue(&self, pass: &mut PassRecord, at: Option<Millis>) {
        let Some(index) = self.failed_at else { return };
        let failed = match pass.actions.get_mut(index) {
            Some(outcome) => Some(&mut outcome.result),
            None => pass.status_write.as_mut().map(|w| &mut w.result),
        };
        if let (Some(ActionResult::Failed { requeued_at, .. }), Some(at)) = (failed, at) {
            *requeued_at = at;
        }
    }
}

/// The queue's clock: the same instant, in its nanoseconds.
pub(super) fn instant(ms: Millis) -> Duration {
    Duration::from_millis(ms)
}

/// Why each key is in the queue, by key.
#[derive(Debug, Default)]
pub(super) struct Triggers(SortedMap<Key, KeyTriggers>);

impl Triggers {
    pub(super) fn of(&mut self, key: &Key) -> &mut KeyTriggers {
        self.0
            .entry(Key::clone(key))
            .or_insert(KeyTriggers::default())
    }

    pub(super) fn get(&self, key: &str) -> Option<&KeyTriggers> {
        self.0.get(key)
    }

    /// Some key waits, and every waiting key for a `RequeueAfter`.
    fn all_waiting_periodic(&self) -> bool {
        let mut waiting = self.0.values().filter_map(|t| t.waiting.as_ref());
        let first = waiting.next();
        first.is_some()
            && first
                .into_iter()
                .chain(waiting)
                .all(|trigger| matches!(trigger, Trigger::RequeueAfter { .. }))
    }
}

/// Why a key is in the queue: the reason each state of it was reached for,
/// as the record shows it.
#[derive(Debug, Default)]
pub(super) struct KeyTriggers {
    /// Why the key's waiting entry was added.
    pub(super) waiting: Option<Trigger>,
    /// Why the queued key is queued.
    pub(super) queued: Option<Trigger>,
    /// Why a key that arrived during processing will be queued again.
    pub(super) deferred: Option<Trigger>,
}

impl Engine {
    /// Maps the pass's outcome to the queue, as `reconcileHandler` does at the
    /// pass's end. Returns when a rate-limited requeue makes the key ready again.
    pub(super) fn handle_result(&mut self, key: &Key, pass: PassResult) -> Option<Millis> {
        let end = pass.end;
        let error = pass.returned.error;
        let requeue_after = pass.returned.requeue_after.map_or(Duration::ZERO, instant);
        let result = ReconcileResult {
            requeue_after,
            ..ReconcileResult::default()
        };
        let action = reconcile_handler(&result, error, 0);
        let added = self.queue.apply(Key::clone(key), &action, instant(end))?;
        let periodic = matches!(action, HandlerAction::ForgetAndRequeueAfter { .. });
        let trigger = self.requeue_trigger(key, periodic, requeue_after);
        let ready_at = match added {
            AddAfterOutcome::AddedNow { added } => {
                self.record_add(key, added, trigger);
                return Some(end);
            }
            AddAfterOutcome::Waiting { ready_at } => {
                self.triggers.of(key).waiting = Some(trigger);
                ready_at
            }
            AddAfterOutcome::Deduplicated {
                requested,
                ready_at,
            } => {
                if requested == ready_at {
                    // The new time is the earlier one: the entry now waits for it.
                    self.triggers.of(key).waiting = Some(trigger);
                } else {
                    let what = Happening::RequeueMerged {
                        requested_at: to_millis(requested),
                        ready_at: to_millis(ready_at),
                    };
                    self.note(end, what);
                }
                ready_at
            }
        };
        let ready_at = to_millis(ready_at);
        self.push_event(end, SimEvent::RequeueDelayed { ready_at });
        self.schedule_wake(ready_at, periodic);
        Some(ready_at)
    }

    /// Why a requeue runs a pass.
    fn requeue_trigger(&self, key: &Key, periodic: bool, after: Duration) -> Trigger {
        if periodic {
            Trigger::RequeueAfter {
                delay_ms: to_millis(after),
            }
        } else {
            Trigger::Requeue {
                failures: self.queue.num_requeues(key),
            }
        }
    }

    /// Wakes the waiting loop at `at`, unless a wake-up is due by then
    /// already. The end of simulated time never comes.
    fn schedule_wake(&mut self, at: Millis, periodic: bool) {
        if at == Millis::MAX || self.wake_at.is_some_and(|w| w <= at) {
            return;
        }
        self.wake_at = Some(at);
        let incarnation = self.incarnation;
        self.schedule(
            at,
            Scheduled::QueueWake {
                incarnation,
                periodic,
            },
        );
    }

    /// The waiting loop: every entry due by now moves into the queue; then it
    /// sleeps until the next one.
    pub(super) fn queue_wakes(&mut self) {
        self.wake_at = None;
        for (key, added) in self.queue.move_ready(instant(self.now)) {
            // The entry keeps the reason it was added for, even when a later
            // success forgot the failures: client-go does not cancel it.
            let trigger = self
                .triggers
                .of(&key)
                .waiting
                .take()
                .unwrap_or(Trigger::Requeue { failures: 0 });
            self.record_add(&key, added, trigger);
        }
        if let Some(next) = self.queue.next_ready_at() {
            // Periodic only when every waiting entry is: a failure's requeue
            // must keep the run going.
            let periodic = self.triggers.all_waiting_periodic();
            self.schedule_wake(to_millis(next), periodic);
        }
    }
}

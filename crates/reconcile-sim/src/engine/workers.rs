//! The controller's workers: `workers` of them (controller-runtime's
//! `MaxConcurrentReconciles`, default 1), each running one reconcile at a
//! time. The work queue never hands a key to two at once.

use super::pass::{AwaitedPass, RunningPass};
use super::Key;
use crate::controllers::controller::Worker;
use crate::workqueue::Millis;

/// Every worker, by number.
#[derive(Debug)]
pub(super) struct Workers(Vec<Slot>);

#[derive(Debug)]
pub(super) struct Slot {
    /// When it last finished a pass (or the controller restarted): a new
    /// pass starts no earlier. While it runs one, a bound on when it ends.
    pub(super) free_at: Millis,
    pub(super) doing: Doing,
}

/// What a worker is doing.
#[derive(Debug)]
pub(super) enum Doing {
    Nothing,
    /// Its reconcile waits for a plan from outside.
    Awaiting(AwaitedPass),
    /// Its reconcile sends requests.
    Sending(RunningPass),
    /// Its reconcile returned; the key is processing until `PassDone`.
    Returned(Key),
    /// Its reconcile has an answer and waits for its next step from
    /// outside ([`Controller::awaits_caller`](crate::controllers::controller::Controller::awaits_caller)).
    Held(HeldPass),
}

/// A pass held between an answer and the caller's next step.
#[derive(Debug)]
pub(super) struct HeldPass {
    pub(super) pass: RunningPass,
    /// When the answer arrived: the next request goes out `action_ms` later.
    pub(super) at: Millis,
    /// The requests answered so far.
    pub(super) sent: usize,
}

impl Workers {
    pub(super) fn new(count: usize, free_at: Millis) -> Self {
        let slot = || Slot {
            free_at,
            doing: Doing::Nothing,
        };
        Self((0..count.max(1)).map(|_| slot()).collect())
    }

    pub(super) fn slot(&self, worker: Worker) -> Option<&Slot> {
        self.0.get(worker)
    }

    pub(super) fn slot_mut(&mut self, worker: Worker) -> Option<&mut Slot> {
        self.0.get_mut(worker)
    }

    /// The idle worker free first (the lowest number on a tie).
    pub(super) fn free(&self) -> Option<(Worker, Millis)> {
        let idle = self.0.iter().enumerate();
        idle.filter(|(_, slot)| matches!(slot.doing, Doing::Nothing))
            .min_by_key(|(worker, slot)| (slot.free_at, *worker))
            .map(|(worker, slot)| (worker, slot.free_at))
    }

    /// Some worker is in a reconcile, or holds a key until `PassDone`.
    pub(super) fn any_busy(&self) -> bool {
        self.0
            .iter()
            .any(|slot| !matches!(slot.doing, Doing::Nothing))
    }

    /// The worker whose reconcile waits for its plan (at most one: the
    /// engine stops until it has it).
    pub(super) fn awaiting(&self) -> Option<(Worker, &AwaitedPass)> {
        self.0
            .iter()
            .enumerate()
            .find_map(|(worker, slot)| match &slot.doing {
                Doing::Awaiting(pass) => Some((worker, pass)),
                _ => None,
            })
    }

    /// The workers sending requests, with their passes (held ones too).
    pub(super) fn sending(&self) -> impl Iterator<Item = (Worker, &RunningPass)> {
        self.0
            .iter()
            .enumerate()
            .filter_map(|(worker, slot)| match &slot.doing {
                Doing::Sending(pass) | Doing::Held(HeldPass { pass, .. }) => Some((worker, pass)),
                _ => None,
            })
    }

    /// Each worker's key, by number (`None`: idle).
    pub(super) fn keys(&self) -> impl Iterator<Item = Option<&Key>> {
        self.0.iter().map(|slot| match &slot.doing {
            Doing::Nothing => None,
            Doing::Awaiting(pass) => Some(&pass.key),
            Doing::Sending(pass) | Doing::Held(HeldPass { pass, .. }) => Some(&pass.key),
            Doing::Returned(key) => Some(key),
        })
    }

    /// How many workers there are.
    pub(super) fn count(&self) -> usize {
        self.0.len()
    }

    /// The worker whose reconcile is held for its caller's next step.
    pub(super) fn held(&self) -> Option<Worker> {
        self.0
            .iter()
            .position(|slot| matches!(slot.doing, Doing::Held(_)))
    }

    /// Until when resync ticks are skipped: while the busy workers hold
    /// every one of the run's `keys` (each a different one), or no worker
    /// is free, a tick only marks keys dirty or queued, which the first
    /// tick after a worker frees does too. Without the skip, a long pass
    /// under a short period costs millions of ticks. 0: no skip.
    pub(super) fn hold_every_key_until(&self, keys: usize) -> Millis {
        let busy = self
            .0
            .iter()
            .filter(|slot| !matches!(slot.doing, Doing::Nothing));
        let (count, first_free) = busy.fold((0, Millis::MAX), |(count, first), slot| {
            (count + 1, first.min(slot.free_at))
        });
        if count > 0 && (count >= keys || count == self.0.len()) {
            first_free
        } else {
            0
        }
    }

    /// A crash: every worker is gone with the process; all are free at `at`.
    pub(super) fn reset(&mut self, at: Millis) {
        for slot in &mut self.0 {
            slot.free_at = at;
            slot.doing = Doing::Nothing;
        }
    }
}

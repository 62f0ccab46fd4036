//! kube-rs's scheduler (`kube-runtime/src/scheduler.rs`, kube 4.2.0) on the
//! fake clock: one slot per object, messages emitted when due, and the
//! "pending" messages that were due while their object could not run.
//!
//! Upstream is a `Stream` over a tokio `DelayQueue`; polling it is
//! [`KubeScheduler::hold_unless`] and [`KubeScheduler::hold`] at `now`, and
//! [`KubeScheduler::next_run_at`] is when its timer would wake the task.

use std::time::Duration;

use super::Time;
use crate::sorted::{SortedMap, SortedSet};

/// `max_schedule_time`'s horizon: nothing is scheduled further than six
/// months (`86400 * 30 * 6` s) from now, to stay clear of `DelayQueue`'s
/// two-year limit.
pub const MAX_SCHEDULE: Duration = Duration::from_secs(86_400 * 30 * 6);

/// What `schedule_message` did with a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScheduleOutcome {
    /// The object had no slot: it runs at `run_at`.
    Scheduled { run_at: Time },
    /// The request was not later than the slot's time: the slot now runs at
    /// `run_at` (the request's time plus the debounce) with the request's
    /// message, replacing the one due at `previous`.
    Replaced { previous: Time, run_at: Time },
    /// The slot runs earlier than the request: the request is dropped.
    KeptEarlier { run_at: Time },
    /// The object's message is already due and held pending (its object was
    /// busy): the request is dropped, whatever its time.
    DiscardedPending,
}

/// `ScheduledEntry` and the message it holds.
#[derive(Debug, Clone)]
struct Entry<M> {
    run_at: Time,
    /// Orders entries due at the same instant (see `schedule`).
    seq: u64,
    message: M,
}

/// `Scheduler<T, R>`: messages are keyed by the object (`K`; upstream's
/// `ReconcileRequest` compares only its `obj_ref`) and carry `M` (upstream:
/// the reason).
#[derive(Debug, Clone)]
pub struct KubeScheduler<K: Ord + Clone, M> {
    /// `scheduled`: one entry per object.
    scheduled: SortedMap<K, Entry<M>>,
    /// `queue`: the same entries by time.
    queue: SortedSet<(Time, u64, K)>,
    /// `pending`, in the order the messages became pending (upstream's is a
    /// `HashSet`, which hands them out in no particular order).
    pending: Vec<(K, M)>,
    debounce: Duration,
    seq: u64,
}

impl<K: Ord + Clone, M> Default for KubeScheduler<K, M> {
    /// `scheduler`: no debounce.
    fn default() -> Self {
        Self::new(Duration::ZERO)
    }
}

impl<K: Ord + Clone, M> KubeScheduler<K, M> {
    /// `debounced_scheduler`: every request's time is pushed back by
    /// `debounce` (the controller's `Config::debounce`, zero by default).
    pub fn new(debounce: Duration) -> Self {
        Self {
            scheduled: SortedMap::new(),
            queue: SortedSet::new(),
            pending: Vec::new(),
            debounce,
            seq: 0,
        }
    }

    /// `schedule_message`: a request to emit `message` for `key` at `run_at`,
    /// received at `now`. The request wins if it is not later than the slot's
    /// time: with no debounce, the earlier time is kept (ties take the newer
    /// message); with one, an object keeps being pushed back while requests
    /// for it keep coming.
    pub fn schedule(&mut self, key: K, message: M, run_at: Time, now: Time) -> ScheduleOutcome {
        if self.is_pending(&key) {
            // It will run as soon as its object can: no way to expedite it.
            return ScheduleOutcome::DiscardedPending;
        }
        let horizon = now.saturating_add(MAX_SCHEDULE);
        let next_time = run_at
            .checked_add(self.debounce)
            .map_or(horizon, |at| at.min(horizon));
        // A replaced entry goes after the others due at the same instant, as
        // if newly inserted (`DelayQueue::reset_at`).
        let seq = self.seq;
        self.seq += 1;
        if let Some(entry) = self.scheduled.get_mut(&key) {
            // Compares against the request's time without the debounce.
            if entry.run_at < run_at {
                return ScheduleOutcome::KeptEarlier {
                    run_at: entry.run_at,
                };
            }
            let previous = entry.run_at;
            self.queue.remove(&(previous, entry.seq, key.clone()));
            *entry = Entry {
                run_at: next_time,
                seq,
                message,
            };
            self.queue.insert((next_time, seq, key));
            return ScheduleOutcome::Replaced {
                previous,
                run_at: next_time,
            };
        }
        self.queue.insert((next_time, seq, key.clone()));
        let entry = Entry {
            run_at: next_time,
            seq,
            message,
        };
        self.scheduled.insert(key, entry);
        ScheduleOutcome::Scheduled { run_at: next_time }
    }

    /// `HoldUnless::poll_next` at `now`: the first pending message that
    /// `can_take` accepts; else the due messages in time order, holding
    /// pending those it refuses, until one it accepts. `None`: nothing to run.
    pub fn hold_unless(&mut self, now: Time, can_take: impl Fn(&K) -> bool) -> Option<(K, M)> {
        if let Some(i) = self.pending.iter().position(|(key, _)| can_take(key)) {
            return Some(self.pending.remove(i));
        }
        while let Some((key, message)) = self.pop_due(now) {
            if can_take(&key) {
                return Some((key, message));
            }
            self.pending.push((key, message));
        }
        None
    }

    /// `Hold::poll_next` at `now` (`pop_queue_message_into_pending`): every
    /// due message is held pending; nothing is emitted.
    pub fn hold(&mut self, now: Time) {
        while let Some(due) = self.pop_due(now) {
            self.pending.push(due);
        }
    }

    /// The earliest scheduled time, when upstream's `DelayQueue` would wake
    /// the task. Pending messages are not included: they wait for their
    /// object, not for time.
    pub fn next_run_at(&self) -> Option<Time> {
        self.queue.first().map(|(at, _, _)| *at)
    }

    /// When `key`'s scheduled message is due, if it has one.
    pub fn run_at(&self, key: &K) -> Option<Time> {
        self.scheduled.get(key).map(|entry| entry.run_at)
    }

    /// `contains_pending`.
    pub fn is_pending(&self, key: &K) -> bool {
        self.pending.iter().any(|(pending, _)| pending == key)
    }

    /// Scheduled messages (not yet due or not yet polled).
    pub fn scheduled_len(&self) -> usize {
        self.scheduled.len()
    }

    pub fn pending_len(&self) -> usize {
        self.pending.len()
    }

    /// `poll_expired`: the earliest message due at or before `now`.
    fn pop_due(&mut self, now: Time) -> Option<(K, M)> {
        let first = self.queue.first()?;
        if first.0 > now {
            return None;
        }
        let (_, _, key) = self.queue.pop_first()?;
        let entry = self.scheduled.remove(&key)?;
        Some((key, entry.message))
    }
}

#[cfg(test)]
#[path = "kube_scheduler_tests.rs"]
mod tests;

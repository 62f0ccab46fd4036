//! controller-runtime v0.24.1's priority queue
//! (`pkg/controller/priorityqueue/priorityqueue.go`), the queue a controller
//! gets by default in that release, on the fake clock.
//!
//! One item per key, ready or waiting. Upstream's goroutines become calls:
//! `AddWithOpts` is applied at once (upstream buffers it and a goroutine
//! flushes it under the lock, reading the clock then), `handleWaitingItems`
//! is [`PriorityQueue::next_ready_at`] plus [`PriorityQueue::move_ready`], and
//! `handleReadyItems` handing an item to a blocked `Get` is
//! [`PriorityQueue::get_with_priority`] returning it.

use std::cmp::Reverse;
use std::fmt;

use serde::Serialize;

use super::rate_limiter::TypedRateLimiter;
use super::result::{controller_runtime_default_rate_limiter, AddOpts, HandlerAction, QueueKind};
use super::Time;
use crate::sorted::{SortedMap, SortedSet};

/// What an add did with the key's item, for the timeline.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PriorityAddOutcome {
    /// A new item, ready now.
    Queued,
    /// A new item, ready at its `ready_at`.
    Waiting,
    /// Merged into the key's item: the higher priority, and ready if either
    /// was, else the earlier ready time.
    Merged,
    /// The key is being processed: the item was created or merged as above,
    /// but `get` skips it until `done`.
    Deferred,
}

/// The result of an add: the outcome and the key's item afterwards.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PriorityAdd {
    pub outcome: PriorityAddOutcome,
    pub priority: i64,
    /// `None`: ready.
    pub ready_at: Option<Time>,
}

/// `item[T]` without its key.
#[derive(Debug, Clone, Copy)]
struct Item {
    /// FIFO order within a priority; bumped when the item becomes ready by
    /// waiting, or its priority rises.
    added_counter: u64,
    priority: i64,
    ready_at: Option<Time>,
}

/// `priorityqueue[T]` without metrics, logging or shutdown.
#[derive(Debug)]
pub struct PriorityQueue<K: Ord + Clone> {
    /// Every key's item; handed-out keys have none until added again.
    items: SortedMap<K, Item>,
    /// `lessReady`: higher priority first, then the lower counter.
    ready: SortedSet<(Reverse<i64>, u64, K)>,
    /// `lessWaiting`: the earlier ready time first, then as `ready`.
    waiting: SortedSet<(Time, Reverse<i64>, u64, K)>,
    added_counter: u64,
    /// Handed out by `get`, not yet `done`.
    locked: SortedSet<K>,
    rate_limiter: Box<dyn TypedRateLimiter<K>>,
}

impl<K: Ord + Clone + fmt::Debug + 'static> PriorityQueue<K> {
    /// `New` without options: per-item exponential backoff from 5 ms to
    /// 1000 s, and no bucket (also what a v0.24.1 controller passes).
    pub fn with_default_rate_limiter() -> Self {
        Self::new(controller_runtime_default_rate_limiter(
            QueueKind::PriorityQueue,
        ))
    }
}

impl<K: Ord + Clone> PriorityQueue<K> {
    /// `New` with `Opts.RateLimiter`.
    pub fn new(rate_limiter: Box<dyn TypedRateLimiter<K>>) -> Self {
        Self {
            items: SortedMap::new(),
            ready: SortedSet::new(),
            waiting: SortedSet::new(),
            added_counter: 0,
            locked: SortedSet::new(),
            rate_limiter,
        }
    }

    /// `AddWithOpts` for one key (upstream's several keys are added one after
    /// the other, each with its own `When`).
    pub fn add_with_opts(&mut self, opts: &AddOpts, key: K, now: Time) -> PriorityAdd {
        let mut after = opts.after;
        if opts.rate_limited {
            // Counts a failure even when the add only merges.
            let rl_after = self.rate_limiter.when(&key, now);
            if after.is_zero() || rl_after < after {
                after = rl_after;
            }
        }
        let requested = (!after.is_zero()).then(|| now.saturating_add(after));
        let priority = opts.priority.unwrap_or(0);
        let processing = self.locked.contains(&key);
        let (item, merged) = match self.items.get(&key).copied() {
            None => {
                let added_counter = self.next_counter();
                let item = Item {
                    added_counter,
                    priority,
                    ready_at: requested,
                };
                (item, false)
            }
            Some(old) => {
                self.unlink(&key, &old);
                // Ready stays ready; otherwise the earlier time. A waiting item
                // readied here keeps its counter: it does not go to the back.
                let ready_at = match (old.ready_at, requested) {
                    (None, _) | (_, None) => None,
                    (Some(old_at), Some(new_at)) => Some(old_at.min(new_at)),
                };
                let mut item = Item { ready_at, ..old };
                if priority > old.priority {
                    // The back of the line of its new priority.
                    item.priority = priority;
                    item.added_counter = self.next_counter();
                }
                (item, true)
            }
        };
        self.link(key, item);
        let outcome = match (processing, merged, item.ready_at) {
            (true, _, _) => PriorityAddOutcome::Deferred,
            (false, true, _) => PriorityAddOutcome::Merged,
            (false, false, None) => PriorityAddOutcome::Queued,
            (false, false, Some(_)) => PriorityAddOutcome::Waiting,
        };
        PriorityAdd {
            outcome,
            priority: item.priority,
            ready_at: item.ready_at,
        }
    }

    /// `Add`: `AddWithOpts` without options.
    pub fn add(&mut self, key: K, now: Time) -> PriorityAdd {
        self.add_with_opts(&AddOpts::default(), key, now)
    }

    /// `AddAfter`.
    pub fn add_after(&mut self, key: K, after: std::time::Duration, now: Time) -> PriorityAdd {
        let opts = AddOpts {
            after,
            ..AddOpts::default()
        };
        self.add_with_opts(&opts, key, now)
    }

    /// `AddRateLimited`: at priority 0, as upstream.
    pub fn add_rate_limited(&mut self, key: K, now: Time) -> PriorityAdd {
        let opts = AddOpts {
            rate_limited: true,
            ..AddOpts::default()
        };
        self.add_with_opts(&opts, key, now)
    }

    /// What `reconcileHandler` does with the queue after a pass: `Forget`
    /// first, then the `AddWithOpts`, if any. Call `done` afterwards.
    pub fn apply(&mut self, key: K, action: &HandlerAction, now: Time) -> Option<PriorityAdd> {
        if action.forgets() {
            self.forget(&key);
        }
        let opts = action.add_opts()?;
        Some(self.add_with_opts(opts, key, now))
    }

    /// One pass of `handleWaitingItems`: every item due at or before `now`
    /// becomes ready, earliest first (ties: higher priority, then older), each
    /// behind everything already ready at its priority. Returns their keys.
    pub fn move_ready(&mut self, now: Time) -> Vec<K> {
        let mut moved = Vec::new();
        while let Some(first) = self.waiting.first() {
            if first.0 > now {
                break;
            }
            let Some((_, _, _, key)) = self.waiting.pop_first() else {
                break;
            };
            let Some(item) = self.items.get(&key).copied() else {
                continue;
            };
            let added_counter = self.next_counter();
            let ready = Item {
                added_counter,
                ready_at: None,
                ..item
            };
            self.link(key.clone(), ready);
            moved.push(key);
        }
        moved
    }

    /// When the earliest waiting item is due: when to call `move_ready` next
    /// (upstream's `tick`).
    pub fn next_ready_at(&self) -> Option<Time> {
        self.waiting.first().map(|(at, _, _, _)| *at)
    }

    /// `GetWithPriority`, without blocking: the first ready item whose key is
    /// not being processed, now processing; `None` if there is none yet.
    pub fn get_with_priority(&mut self) -> Option<(K, i64)> {
        let entry = self
            .ready
            .iter()
            .find(|(_, _, key)| !self.locked.contains(key))
            .cloned()?;
        self.ready.remove(&entry);
        let (Reverse(priority), _, key) = entry;
        self.items.remove(&key);
        self.locked.insert(key.clone());
        Some((key, priority))
    }

    /// `Get`.
    pub fn get(&mut self) -> Option<K> {
        self.get_with_priority().map(|(key, _)| key)
    }

    /// `Done`: `key` may be handed out again. True if it has a ready item,
    /// which `get` can now return.
    pub fn done(&mut self, key: &K) -> bool {
        self.locked.remove(key);
        self.items
            .get(key)
            .is_some_and(|item| item.ready_at.is_none())
    }

    /// `Forget`: clears the rate limiter's failures for `key`.
    pub fn forget(&mut self, key: &K) {
        self.rate_limiter.forget(key);
    }

    /// `NumRequeues`.
    pub fn num_requeues(&self, key: &K) -> u32 {
        self.rate_limiter.num_requeues(key)
    }

    /// `Len`: ready items, including those of keys being processed; not the
    /// waiting ones.
    pub fn len(&self) -> usize {
        self.ready.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ready.is_empty()
    }

    /// Items waiting for their time (not counted by `len`).
    pub fn waiting_len(&self) -> usize {
        self.waiting.len()
    }

    pub fn is_processing(&self, key: &K) -> bool {
        self.locked.contains(key)
    }

    /// The ready keys not being processed, in the order `Get` hands them out.
    pub fn ready_keys(&self) -> impl Iterator<Item = &K> {
        let ready = self.ready.iter().map(|(_, _, key)| key);
        ready.filter(|key| !self.locked.contains(*key))
    }

    /// The key's item, if it has one: its priority and ready time (`None`: ready).
    pub fn item(&self, key: &K) -> Option<(i64, Option<Time>)> {
        self.items
            .get(key)
            .map(|item| (item.priority, item.ready_at))
    }

    fn next_counter(&mut self) -> u64 {
        let counter = self.added_counter;
        self.added_counter += 1;
        counter
    }

    /// Files `item` under `key` in `items` and in its tree.
    fn link(&mut self, key: K, item: Item) {
        let order = (Reverse(item.priority), item.added_counter, key.clone());
        match item.ready_at {
            None => self.ready.insert(order),
            Some(at) => self.waiting.insert((at, order.0, order.1, order.2)),
        };
        self.items.insert(key, item);
    }

    /// Takes `key`'s `item` out of its tree (it stays in `items`).
    fn unlink(&mut self, key: &K, item: &Item) {
        let order = (Reverse(item.priority), item.added_counter, key.clone());
        match item.ready_at {
            None => self.ready.remove(&order),
            Some(at) => self.waiting.remove(&(at, order.0, order.1, order.2)),
        };
    }
}

#[cfg(test)]
#[path = "priority_tests.rs"]
mod tests;

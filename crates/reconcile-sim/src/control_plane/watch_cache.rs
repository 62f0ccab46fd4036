//! The API server's watch cache of one resource: its recent events, from
//! which a watch resumes. Start at [`WatchCache::since`].
//!
//! Upstream: `staging/src/k8s.io/apiserver/pkg/storage/cacher/watch_cache.go`
//! in github:kubernetes/kubernetes. A watch from a resourceVersion the
//! window still covers gets every event after it, deletes included; one
//! older than the window gets 410 Gone ("too old resource version"), and
//! the reflector must list again.

use std::collections::VecDeque;

use crate::workqueue::Millis;

/// `defaultLowerBoundCapacity`: the fewest events the cache keeps.
pub const LOWER_BOUND_CAPACITY: usize = 100;
/// `defaultUpperBoundCapacity`.
pub const UPPER_BOUND_CAPACITY: usize = 100 * 1024;
/// `DefaultEventFreshDuration`: the cache grows to keep this much history.
pub const EVENT_FRESH_DURATION_MS: Millis = 75_000;

/// 410 Gone: the watch asked for history the cache no longer has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooOldResourceVersion {
    pub requested: u64,
    /// The oldest resourceVersion a watch may still start from.
    pub oldest: u64,
}

impl std::fmt::Display for TooOldResourceVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "too old resource version: {} ({})",
            self.requested, self.oldest
        )
    }
}

/// One recorded event.
#[derive(Debug, Clone)]
struct Recorded<T> {
    resource_version: u64,
    at: Millis,
    event: T,
}

/// The recent events of one resource, oldest first.
#[derive(Debug, Clone)]
pub struct WatchCache<T> {
    events: VecDeque<Recorded<T>>,
    capacity: usize,
    /// The resourceVersion of the list the cache was built from.
    list_resource_version: u64,
    /// Whether an event has been evicted since that list.
    evicted: bool,
}

impl<T: Clone> WatchCache<T> {
    /// An empty cache built from a list at `resource_version`.
    pub fn new(resource_version: u64) -> Self {
        Self {
            events: VecDeque::new(),
            capacity: LOWER_BOUND_CAPACITY,
            list_resource_version: resource_version,
            evicted: false,
        }
    }

    /// Records the event of a write that got `resource_version` at `at`.
    pub fn add(&mut self, resource_version: u64, at: Millis, event: T) {
        if self.events.len() >= self.capacity {
            self.resize(at);
        }
        if self.events.len() >= self.capacity {
            self.events.pop_front();
            self.evicted = true;
        }
        self.events.push_back(Recorded {
            resource_version,
            at,
            event,
        });
    }

    /// Doubles the capacity while the oldest event is fresher than
    /// [`EVENT_FRESH_DURATION_MS`], up to [`UPPER_BOUND_CAPACITY`].
    fn resize(&mut self, now: Millis) {
        let fresh = self
            .events
            .front()
            .is_some_and(|oldest| now.saturating_sub(oldest.at) < EVENT_FRESH_DURATION_MS);
        if fresh && self.capacity < UPPER_BOUND_CAPACITY {
            self.capacity = (self.capacity * 2).min(UPPER_BOUND_CAPACITY);
        }
    }

    /// The events after `resource_version`, oldest first, or 410 Gone when
    /// the window no longer reaches back to it.
    pub fn since(&self, resource_version: u64) -> Result<Vec<T>, TooOldResourceVersion> {
        let oldest = match self.events.front() {
            Some(first) if self.evicted => first.resource_version,
            _ => self.list_resource_version + 1,
        };
        if resource_version + 1 < oldest {
            return Err(TooOldResourceVersion {
                requested: resource_version,
                oldest: oldest - 1,
            });
        }
        Ok(self
            .events
            .iter()
            .filter(|e| e.resource_version > resource_version)
            .map(|e| e.event.clone())
            .collect())
    }

    /// How many events the cache keeps now.
    pub fn capacity(&self) -> usize {
        self.capacity
    }
}

//! The API server's watch cache of one resource: its recent events, from
//! which a watch resumes. Start at [`WatchCache::since`].
//!
//! Upstream: `staging/src/k8s.io/apiserver/pkg/storage/cacher/watch_cache.go`
//! in github:kubernetes/kubernetes (`watchCache`: `updateCache`,
//! `resizeCacheLocked`, `doCacheResizeLocked`, `Replace`,
//! `UpdateResourceVersion`, `getAllEventsSinceLocked`, `capacityUpperBound`).
//! A watch from a resourceVersion the window still covers gets every event
//! after it, deletes included. One older than the window gets 410 Gone
//! ("too old resource version"), and the reflector must list again.
//!
//! Only the event window is modelled, not the store of current objects, so
//! a watch from resourceVersion 0 ("any", served from the store upstream)
//! is the caller's to answer with a list.

use std::collections::VecDeque;

use crate::workqueue::Millis;

/// `defaultLowerBoundCapacity`: the fewest events the cache keeps.
pub const LOWER_BOUND_CAPACITY: usize = 100;
/// `defaultUpperBoundCapacity`: the most events, at the default fresh duration.
pub const UPPER_BOUND_CAPACITY: usize = 100 * 1024;
/// `DefaultEventFreshDuration`: the cache grows to keep this much history.
pub const EVENT_FRESH_DURATION_MS: Millis = 75_000;

/// `capacityUpperBound`: the largest capacity for a fresh duration.
///
/// A longer history needs more room in high churn, so the bound scales with
/// the ratio to the default duration. The capacity only doubles, so the
/// ratio is rounded up to a power of two, and capped to fit in an `i32`.
#[must_use]
pub fn capacity_upper_bound(event_fresh_duration: Millis) -> usize {
    if event_fresh_duration <= EVENT_FRESH_DURATION_MS {
        return UPPER_BOUND_CAPACITY;
    }
    #[allow(
        clippy::cast_precision_loss,
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss
    )]
    let exponent = {
        let ratio = event_fresh_duration as f64 / EVENT_FRESH_DURATION_MS as f64;
        let wanted = ratio.log2().ceil() as u32;
        // Go divides the untyped constants as integers first.
        let max = ((i32::MAX as usize / UPPER_BOUND_CAPACITY) as f64)
            .log2()
            .floor() as u32;
        wanted.min(max)
    };
    UPPER_BOUND_CAPACITY << exponent
}

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

/// One recorded event (`watchCacheEvent`: its resourceVersion and `RecordTime`).
#[derive(Debug, Clone)]
struct Recorded<T> {
    resource_version: u64,
    at: Millis,
    event: T,
}

/// The recent events of one resource, oldest first.
///
/// Upstream's cyclic buffer holds `[startIndex, endIndex)`; here the deque
/// holds the same events and `start_index` counts the ones dropped, so the
/// indices match upstream's.
#[derive(Debug, Clone)]
pub struct WatchCache<T> {
    events: VecDeque<Recorded<T>>,
    capacity: usize,
    lower_bound_capacity: usize,
    upper_bound_capacity: usize,
    event_fresh_duration: Millis,
    start_index: usize,
    /// `removedEventSinceRelist`: an event left the buffer since the list.
    removed_event_since_relist: bool,
    /// `listResourceVersion`: the resourceVersion of the last list.
    list_resource_version: u64,
    /// `resourceVersion`: how far the cache has caught up.
    resource_version: u64,
}

impl<T: Clone> WatchCache<T> {
    /// A cache built from a list at `resource_version`.
    ///
    /// `newWatchCache` then `Replace`. Zero means no list yet, as in
    /// upstream's unit tests: the oldest buffered event then bounds a watch.
    #[must_use]
    pub fn new(resource_version: u64) -> Self {
        Self::with_event_fresh_duration(resource_version, EVENT_FRESH_DURATION_MS)
    }

    /// A cache that keeps `event_fresh_duration` of history.
    ///
    /// The API server sets this from etcd's compaction interval; the upper
    /// bound follows it ([`capacity_upper_bound`]).
    #[must_use]
    pub fn with_event_fresh_duration(resource_version: u64, event_fresh_duration: Millis) -> Self {
        let mut cache = Self {
            events: VecDeque::new(),
            capacity: LOWER_BOUND_CAPACITY,
            lower_bound_capacity: LOWER_BOUND_CAPACITY,
            upper_bound_capacity: capacity_upper_bound(event_fresh_duration),
            event_fresh_duration,
            start_index: 0,
            removed_event_since_relist: false,
            list_resource_version: 0,
            resource_version: 0,
        };
        cache.replace(resource_version);
        cache
    }

    /// `Replace`: a new list at `resource_version` empties the window.
    ///
    /// The capacity stays; the start index never goes back, as upstream.
    pub fn replace(&mut self, resource_version: u64) {
        self.start_index += self.events.len();
        self.events.clear();
        self.removed_event_since_relist = false;
        self.list_resource_version = resource_version;
        self.resource_version = resource_version;
    }

    /// Records the event of a write that got `resource_version` at `at`.
    ///
    /// `processEvent` and `updateCache`: resize first, then drop the oldest
    /// event when still full.
    pub fn add(&mut self, resource_version: u64, at: Millis, event: T) {
        self.resize(at);
        if self.is_full() {
            self.events.pop_front();
            self.start_index += 1;
            self.removed_event_since_relist = true;
        }
        self.events.push_back(Recorded {
            resource_version,
            at,
            event,
        });
        self.resource_version = resource_version;
    }

    /// `UpdateResourceVersion`: a progress notification from etcd.
    ///
    /// It moves the cache's resourceVersion without an event, so the next
    /// bookmark carries it.
    pub fn update_resource_version(&mut self, resource_version: u64) {
        self.resource_version = resource_version;
    }

    /// The resourceVersion a bookmark sent now carries.
    ///
    /// The last event's, the last list's, or the last progress
    /// notification's, whichever came last.
    #[must_use]
    pub fn resource_version(&self) -> u64 {
        self.resource_version
    }

    /// `isCacheFullLocked`.
    fn is_full(&self) -> bool {
        self.events.len() == self.capacity
    }

    /// `resizeCacheLocked`: doubles or halves the capacity when full.
    ///
    /// It doubles while the oldest event is fresher than the fresh
    /// duration. It halves when even the newest quarter is older, so it
    /// does not flap.
    fn resize(&mut self, event_time: Millis) {
        if !self.is_full() {
            return;
        }
        let age = |e: &Recorded<T>| event_time.saturating_sub(e.at);
        if age(&self.events[0]) < self.event_fresh_duration {
            let capacity = (self.capacity * 2).min(self.upper_bound_capacity);
            if capacity > self.capacity {
                self.resize_to(capacity);
            }
            return;
        }
        // `(endIndex - capacity/4) % capacity`, relative to the start.
        let quarter = (self.capacity - self.capacity / 4) % self.capacity;
        if age(&self.events[quarter]) > self.event_fresh_duration {
            let capacity = (self.capacity / 2).max(self.lower_bound_capacity);
            if capacity < self.capacity {
                self.resize_to(capacity);
            }
        }
    }

    /// `doCacheResizeLocked`: a shrink keeps the newest `capacity` events.
    ///
    /// It does not mark an event removed; `add` does, as the cache is
    /// still full after.
    fn resize_to(&mut self, capacity: usize) {
        while self.events.len() > capacity {
            self.events.pop_front();
            self.start_index += 1;
        }
        self.capacity = capacity;
    }

    /// The events after `resource_version`, oldest first, or 410 Gone when
    /// the window no longer reaches back to it.
    ///
    /// `getAllEventsSinceLocked`. Until an event leaves the buffer, a watch
    /// may start at the list's resourceVersion. After, only at the oldest
    /// buffered event's, minus one. Upstream errors "watch cache isn't
    /// correctly initialized" when there is neither; this returns nothing.
    pub fn since(&self, resource_version: u64) -> Result<Vec<T>, TooOldResourceVersion> {
        let oldest = if self.list_resource_version > 0 && !self.removed_event_since_relist {
            self.list_resource_version + 1
        } else if let Some(first) = self.events.front() {
            first.resource_version
        } else {
            return Ok(Vec::new());
        };
        if resource_version < oldest.saturating_sub(1) {
            return Err(TooOldResourceVersion {
                requested: resource_version,
                oldest: oldest - 1,
            });
        }
        let first = self
            .events
            .partition_point(|e| e.resource_version <= resource_version);
        Ok(self
            .events
            .range(first..)
            .map(|e| e.event.clone())
            .collect())
    }

    /// How many events the cache keeps now.
    #[must_use]
    pub fn capacity(&self) -> usize {
        self.capacity
    }
}

#[cfg(test)]
#[path = "watch_cache_tests.rs"]
mod tests;

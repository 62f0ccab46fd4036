//! Ports of upstream's watch cache tests, adapted to the event window.
//!
//! Upstream: github:kubernetes/kubernetes,
//! `staging/src/k8s.io/apiserver/pkg/storage/cacher/watch_cache_test.go`
//! (`TestCapacityUpperBound` and `TestDynamicCache` moved to
//! `watch_cache_history_test.go` in later versions). Events are
//! `(type, resourceVersion)` pairs; the fake clock stays at `T0` unless a
//! test moves it, as upstream's does.

use super::*;

type Event = (&'static str, u64);

const T0: Millis = 1_000_000;

/// `newTestWatchCache`: a given capacity, bounds around it, no list yet.
fn test_cache(capacity: usize) -> WatchCache<Event> {
    let mut cache = WatchCache::new(0);
    cache.capacity = capacity;
    cache.lower_bound_capacity = capacity.min(LOWER_BOUND_CAPACITY);
    cache.upper_bound_capacity = capacity.max(UPPER_BOUND_CAPACITY);
    cache
}

fn too_old(cache: &WatchCache<Event>, resource_version: u64) -> String {
    match cache.since(resource_version) {
        Ok(events) => panic!("since({resource_version}) gave {events:?}, want too old"),
        Err(gone) => gone.to_string(),
    }
}

// watch_cache_test.go, TestWatchCacheBasic. Upstream checks the store after
// Add/Update/Delete/List/Replace; the store is not modelled, so this checks
// the events the same calls record, and that Replace empties the window.
#[test]
fn test_watch_cache_basic() {
    let mut store = test_cache(2);
    store.add(1, T0, ("ADDED", 1));
    store.add(2, T0, ("MODIFIED", 2));
    store.add(3, T0, ("DELETED", 3));
    assert_eq!(
        store.since(0).unwrap(),
        vec![("ADDED", 1), ("MODIFIED", 2), ("DELETED", 3)]
    );

    store.add(4, T0, ("ADDED", 4));
    store.add(5, T0, ("ADDED", 5));
    store.add(6, T0, ("ADDED", 6));
    assert_eq!(store.since(3).unwrap().len(), 3);

    store.replace(8);
    assert_eq!(too_old(&store, 7), "too old resource version: 7 (8)");
    assert_eq!(store.since(8).unwrap(), vec![]);
}

// watch_cache_test.go, TestEvents.
#[test]
fn test_events() {
    let mut store = test_cache(5);
    // no dynamic-size cache to fit old tests.
    store.lower_bound_capacity = 5;
    store.upper_bound_capacity = 5;

    store.add(3, T0, ("ADDED", 3));

    // Test for Added event.
    assert_eq!(too_old(&store, 1), "too old resource version: 1 (2)");
    assert_eq!(store.since(2).unwrap(), vec![("ADDED", 3)]);

    store.add(4, T0, ("MODIFIED", 4));
    store.add(5, T0, ("MODIFIED", 5));

    // Test with not full cache.
    too_old(&store, 1);
    assert_eq!(
        store.since(3).unwrap(),
        vec![("MODIFIED", 4), ("MODIFIED", 5)]
    );

    for i in 6..10 {
        store.add(i, T0, ("MODIFIED", i));
    }

    // Test with full cache - there should be elements from 5 to 9.
    too_old(&store, 3);
    let result = store.since(4).unwrap();
    let want: Vec<Event> = (5..10).map(|i| ("MODIFIED", i)).collect();
    assert_eq!(result, want);

    // Test for delete event.
    store.add(10, T0, ("DELETED", 10));
    assert_eq!(store.since(9).unwrap(), vec![("DELETED", 10)]);
}

// watch_cache_test.go, TestMarker. Its "marker" is the list's
// resourceVersion set by Replace, not a bookmark event.
#[test]
fn test_marker() {
    let mut store = test_cache(3);

    // First thing that is called when propagated from storage is Replace.
    store.replace(9);

    assert!(too_old(&store, 8).contains("too old resource version"));
    // Getting events from 9 should return no events,
    // even though there is a marker there.
    assert_eq!(store.since(9).unwrap(), vec![]);

    store.add(12, T0, ("ADDED", 12));
    // Getting events from 9 should still work and return one event.
    assert_eq!(store.since(9).unwrap(), vec![("ADDED", 12)]);
}

// watch_cache_test.go, TestCacheIncreaseDoesNotBreakWatch.
#[test]
fn test_cache_increase_does_not_break_watch() {
    let mut store = test_cache(2);
    let now = T0;

    // Initial LIST comes from the moment of RV=10.
    store.replace(10);

    store.add(20, now, ("key1", 20));

    // Force "key1" to rotate our of cache.
    let later = now + 2 * EVENT_FRESH_DURATION_MS;
    store.add(30, later, ("key2", 30));
    store.add(40, later, ("key3", 40));

    // Force cache resize.
    store.add(50, later + 1_000, ("key4", 50));

    assert!(too_old(&store, 15).contains("too old resource version"));
}

/// One case of `TestDynamicCache`, in its field order: name, eventCount,
/// cacheCapacity, startIndex, lowerBoundCapacity, upperBoundCapacity,
/// interval (between adjacent events), expectCapacity, expectStartIndex.
type DynamicCase = (
    &'static str,
    usize,
    usize,
    usize,
    usize,
    usize,
    Millis,
    usize,
    usize,
);

const FRESH: Millis = EVENT_FRESH_DURATION_MS;

/// `TestDynamicCache`'s table. Go's `eventFreshDuration / 9` is 8333333333
/// ns; in milliseconds it is 8333, which decides every case the same way.
const DYNAMIC_CASES: [DynamicCase; 20] = [
    ("[capacity not equals 4*n] events inside eventFreshDuration cause cache expanding", 5, 5, 0, 5 / 2, 5 * 2, FRESH / 6, 10, 0),
    ("[capacity not equals 4*n] events outside eventFreshDuration without change cache capacity", 5, 5, 0, 5 / 2, 5 * 2, FRESH / 4, 5, 0),
    ("[capacity not equals 4*n] quarter of recent events outside eventFreshDuration cause cache shrinking", 5, 5, 0, 5 / 2, 5 * 2, FRESH + 1_000, 2, 3),
    ("[capacity not equals 4*n] quarter of recent events outside eventFreshDuration cause cache shrinking with given lowerBoundCapacity", 5, 5, 0, 3, 5 * 2, FRESH + 1_000, 3, 2),
    ("[capacity not equals 4*n] events inside eventFreshDuration cause cache expanding with given upperBoundCapacity", 5, 5, 0, 5 / 2, 8, FRESH / 6, 8, 0),
    ("[capacity not equals 4*n] [startIndex not equal 0] events inside eventFreshDuration cause cache expanding", 5, 5, 3, 5 / 2, 5 * 2, FRESH / 6, 10, 3),
    ("[capacity not equals 4*n] [startIndex not equal 0] events outside eventFreshDuration without change cache capacity", 5, 5, 3, 5 / 2, 5 * 2, FRESH / 4, 5, 3),
    ("[capacity not equals 4*n] [startIndex not equal 0] quarter of recent events outside eventFreshDuration cause cache shrinking", 5, 5, 3, 5 / 2, 5 * 2, FRESH + 1_000, 2, 6),
    ("[capacity not equals 4*n] [startIndex not equal 0] quarter of recent events outside eventFreshDuration cause cache shrinking with given lowerBoundCapacity", 5, 5, 3, 3, 5 * 2, FRESH + 1_000, 3, 5),
    ("[capacity not equals 4*n] [startIndex not equal 0] events inside eventFreshDuration cause cache expanding with given upperBoundCapacity", 5, 5, 3, 5 / 2, 8, FRESH / 6, 8, 3),
    ("[capacity equals 4*n] events inside eventFreshDuration cause cache expanding", 8, 8, 0, 8 / 2, 8 * 2, FRESH / 9, 16, 0),
    ("[capacity equals 4*n] events outside eventFreshDuration without change cache capacity", 8, 8, 0, 8 / 2, 8 * 2, FRESH / 8, 8, 0),
    ("[capacity equals 4*n] quarter of recent events outside eventFreshDuration cause cache shrinking", 8, 8, 0, 8 / 2, 8 * 2, FRESH / 2 + 1_000, 4, 4),
    ("[capacity equals 4*n] quarter of recent events outside eventFreshDuration cause cache shrinking with given lowerBoundCapacity", 8, 8, 0, 7, 8 * 2, FRESH / 2 + 1_000, 7, 1),
    ("[capacity equals 4*n] events inside eventFreshDuration cause cache expanding with given upperBoundCapacity", 8, 8, 0, 8 / 2, 10, FRESH / 9, 10, 0),
    ("[capacity equals 4*n] [startIndex not equal 0] events inside eventFreshDuration cause cache expanding", 8, 8, 3, 8 / 2, 8 * 2, FRESH / 9, 16, 3),
    ("[capacity equals 4*n] [startIndex not equal 0] events outside eventFreshDuration without change cache capacity", 8, 8, 3, 8 / 2, 8 * 2, FRESH / 8, 8, 3),
    ("[capacity equals 4*n] [startIndex not equal 0] quarter of recent events outside eventFreshDuration cause cache shrinking", 8, 8, 3, 8 / 2, 8 * 2, FRESH / 2 + 1_000, 4, 7),
    ("[capacity equals 4*n] [startIndex not equal 0] quarter of recent events outside eventFreshDuration cause cache shrinking with given lowerBoundCapacity", 8, 8, 3, 7, 8 * 2, FRESH / 2 + 1_000, 7, 4),
    ("[capacity equals 4*n] [startIndex not equal 0] events inside eventFreshDuration cause cache expanding with given upperBoundCapacity", 8, 8, 3, 8 / 2, 10, FRESH / 9, 10, 3),
];

/// `loadEventWithDuration`: `count` events from the start index, keyed by
/// their index, `interval` apart from `T0`.
fn load_event_with_duration(cache: &mut WatchCache<String>, count: usize, interval: Millis) {
    cache.events = (0..count)
        .map(|i| Recorded {
            resource_version: (cache.start_index + i) as u64,
            at: T0 + interval * i as u64,
            event: format!("event-{}", cache.start_index + i),
        })
        .collect();
}

/// `checkCacheElements`: each event sits at its own index.
fn check_cache_elements(cache: &WatchCache<String>) -> bool {
    (cache.events.iter().enumerate())
        .all(|(offset, e)| e.event == format!("event-{}", cache.start_index + offset))
}

// watch_cache_test.go (later watch_cache_history_test.go), TestDynamicCache.
#[test]
fn test_dynamic_cache() {
    for (name, event_count, cache_capacity, start_index, lower, upper, interval, capacity, start) in
        DYNAMIC_CASES
    {
        let mut store: WatchCache<String> = WatchCache::new(0);
        store.capacity = cache_capacity;
        store.start_index = start_index;
        store.lower_bound_capacity = lower;
        store.upper_bound_capacity = upper;
        load_event_with_duration(&mut store, event_count, interval);
        let next_interval = T0 + interval * event_count as u64;
        store.resize(next_interval);
        assert_eq!(store.capacity, capacity, "{name}: capacity");

        // check cache's startIndex, endIndex and all elements.
        assert_eq!(store.start_index, start, "{name}: startIndex");
        let end_index = store.start_index + store.events.len();
        assert_eq!(end_index, start_index + event_count, "{name}: endIndex");
        let located = check_cache_elements(&store);
        assert!(located, "{name}: some elements locations in cache is wrong");
    }
}

// watch_cache_test.go (later watch_cache_history_test.go), TestCapacityUpperBound.
#[test]
fn test_capacity_upper_bound() {
    let cases: [(&str, Millis, usize); 5] = [
        ("default eventFreshDuration", FRESH, UPPER_BOUND_CAPACITY),
        (
            "lower eventFreshDuration, capacity limit unchanged",
            45_000,
            UPPER_BOUND_CAPACITY,
        ),
        (
            "higher eventFreshDuration, capacity limit scaled up",
            4 * FRESH,
            4 * UPPER_BOUND_CAPACITY,
        ),
        (
            "higher eventFreshDuration, capacity limit scaled and rounded up",
            3 * FRESH,
            4 * UPPER_BOUND_CAPACITY,
        ),
        (
            "higher eventFreshDuration, capacity limit scaled up and capped",
            FRESH << 20,
            UPPER_BOUND_CAPACITY << 14,
        ),
    ];
    for (name, event_fresh_duration, expected) in cases {
        assert_eq!(
            capacity_upper_bound(event_fresh_duration),
            expected,
            "{name}"
        );
    }
    let longer = WatchCache::<Event>::with_event_fresh_duration(1, 3 * FRESH);
    assert_eq!(longer.upper_bound_capacity, 4 * UPPER_BOUND_CAPACITY);
}

/// Not upstream: the resourceVersion a bookmark carries follows the list,
/// each event, and each progress notification (`UpdateResourceVersion`).
#[test]
fn bookmark_carries_the_latest_resource_version() {
    let mut store = test_cache(3);
    store.replace(9);
    assert_eq!(store.resource_version(), 9);
    store.add(12, T0, ("ADDED", 12));
    assert_eq!(store.resource_version(), 12);
    store.update_resource_version(15);
    assert_eq!(store.resource_version(), 15);
    // A progress notification adds no event to replay.
    assert_eq!(store.since(12).unwrap(), vec![]);
}

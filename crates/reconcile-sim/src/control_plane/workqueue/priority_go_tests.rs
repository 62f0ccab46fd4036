//! Ported from controller-runtime v0.24.1
//! pkg/controller/priorityqueue/priorityqueue_test.go: the Go tests on a fake
//! clock (`newQueueWithTimeForwarder`, `synctest`), without their metrics
//! assertions; and the model's own tests of upstream behaviour.

use std::collections::BTreeMap;
use std::time::Duration;

use proptest::prelude::*;

use super::super::*;
use super::{ms, opts, prio, secs, Fake};
use crate::workqueue::ItemExponentialFailureRateLimiter;

// priorityqueue_test.go TestHighPriorityItemsAreReturnedBeforeLowPriorityItemMultipleTimes.
// The after=-1s case is the after=0 one here (no negative `Duration`).
#[test]
fn test_high_priority_items_are_returned_before_low_priority_item_multiple_times() {
    let priorities = [
        ("high", 10),
        ("upperMiddle", 5),
        ("middle", 0),
        ("lowMiddle", -5),
        ("low", -10),
    ];
    for after in [Duration::ZERO, secs(1)] {
        let mut q = Fake::new();
        for i in 0..1000 {
            for (name, priority) in priorities {
                q.add(opts(after, Some(priority)), &format!("{name}-{i}"));
            }
        }
        if !after.is_zero() {
            q.forward(after);
        }
        for (name, priority) in priorities {
            for i in 0..1000 {
                q.got(&format!("{name}-{i}"), priority);
            }
        }
    }
}

// priorityqueue_test.go TestItemIsOnlyReturnedAfterAfterHasPassed
#[test]
fn test_item_is_only_returned_after_after_has_passed() {
    let mut q = Fake::new();
    assert_eq!(q.get(), None);
    let waiting = q.add(opts(secs(1), None), "foo");
    assert_eq!(waiting.outcome, PriorityAddOutcome::Waiting);
    assert_eq!(q.queue.next_ready_at(), Some(secs(1)), "the tick is 1s");
    assert_eq!(q.get(), None);
    q.forward(secs(1));
    q.got("foo", 0);
}

// priorityqueue_test.go TestHighPriorityItemThatBecameReadyIsReturnedBeforeLowPriorityItem
#[test]
fn test_high_priority_item_that_became_ready_is_returned_before_low_priority_item() {
    let mut q = Fake::new();
    q.add(prio(-100), "foo");
    q.add(opts(secs(1), Some(0)), "prio");
    assert_eq!(q.queue.next_ready_at(), Some(secs(1)), "the tick is 1s");
    q.forward(secs(1));
    q.got("prio", 0);
    assert_eq!(q.queue.len(), 1, "foo is still there");
}

// priorityqueue_test.go TestItemIsReturnedAsSoonAsPossible
#[test]
fn test_item_is_returned_as_soon_as_possible() {
    let mut q = Fake::new();
    assert_eq!(q.get(), None, "the getter blocks");
    q.add(AddOpts::default(), "foo");
    q.got("foo", 0);
}

// priorityqueue_test.go TestWaitingItemIsReturnedRightAfterReadWithoutAfter
#[test]
fn test_waiting_item_is_returned_right_after_read_without_after() {
    let mut q = Fake::new();
    q.add(opts(secs(60), None), "foo");
    assert_eq!(q.get(), None);
    q.add(AddOpts::default(), "foo");
    q.got("foo", 0);
    assert_eq!(q.queue.next_ready_at(), None, "no timer left");
}

// priorityqueue_test.go TestMultipleItemsWithAfterAreReturnedInCorrectOrder
#[test]
fn test_multiple_items_with_after_are_returned_in_correct_order() {
    let mut q = Fake::new();
    q.add(opts(secs(1), None), "foo");
    q.add(opts(ms(200), None), "bar");
    assert_eq!(q.get(), None);
    assert_eq!(q.queue.next_ready_at(), Some(ms(200)));
    q.forward(secs(1));
    q.got("bar", 0);
    q.got("foo", 0);
}

// priorityqueue_test.go TestItemsAreInludedInLenAndMetricsOnceTheyAreReady: the Len assertions.
#[test]
fn test_items_are_inluded_in_len_and_metrics_once_they_are_ready() {
    let mut q = Fake::new();
    for _ in 0..2 {
        q.add(opts(ms(500), None), "foo");
        q.add(AddOpts::default(), "baz");
        q.add(opts(ms(500), None), "bar");
        q.add(AddOpts::default(), "bal");
        assert_eq!(q.queue.len(), 2);
        q.forward(secs(1));
        assert_eq!(q.queue.len(), 4);
        for _ in 0..4 {
            let key = q.queue.get().expect("ready");
            q.queue.done(&key);
        }
        assert_eq!(q.queue.len(), 0);
    }
}

// priorityqueue_test.go
// TestMetricsAreUpdatedForItemWhoseRequeueAfterExpiredThatGetsAddedAgainWithoutRequeueAfter:
// the Len and Get assertions.
#[test]
fn test_metrics_are_updated_for_item_whose_requeue_after_expired_that_gets_added_again_without_requeue_after(
) {
    let mut q = Fake::new();
    q.add(opts(ms(50), None), "foo");
    q.forward(ms(50));
    assert_eq!(q.queue.len(), 1);
    q.add(AddOpts::default(), "foo");
    assert_eq!(q.queue.len(), 1);
    assert_eq!(q.queue.get(), Some("foo".to_string()));
    assert_eq!(q.queue.len(), 0);
}

// priorityqueue_test.go TestWhenAddingMultipleItemsWithRatelimitTrueTheyDontAffectEachOther
#[test]
fn test_when_adding_multiple_items_with_ratelimit_true_they_dont_affect_each_other() {
    let limiter = ItemExponentialFailureRateLimiter::new(ms(5), secs(1_000));
    let mut q = Fake::new();
    q.queue = PriorityQueue::new(Box::new(limiter));
    // After 7 calls, the next When("bar") returns 640 ms.
    for _ in 0..7 {
        q.queue.rate_limiter.when(&"bar".to_string(), q.now);
    }
    let rate_limited = AddOpts {
        rate_limited: true,
        ..AddOpts::default()
    };
    assert_eq!(q.add(rate_limited, "foo").ready_at, Some(ms(5)));
    assert_eq!(q.add(rate_limited, "bar").ready_at, Some(ms(640)));
    assert_eq!(q.get(), None);
    q.forward(ms(5));
    q.got("foo", 0);
    assert_eq!(q.get(), None);
    assert_eq!(
        q.queue.next_ready_at(),
        Some(ms(640)),
        "the second tick is 635 ms later"
    );
    q.forward(ms(635));
    q.got("bar", 0);
}

#[derive(Debug, Clone)]
enum Op {
    Add {
        key: u8,
        priority: i64,
        after_ms: u64,
    },
    Get,
    Done,
    Forward {
        ms: u64,
    },
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        (0u8..6, -2i64..3, 0u64..12).prop_map(|(key, priority, after_ms)| Op::Add {
            key,
            priority,
            after_ms
        }),
        Just(Op::Get),
        Just(Op::Done),
        (1u64..12).prop_map(|ms| Op::Forward { ms }),
    ]
}

proptest! {
    // priorityqueue_test.go TestFuzzPriorityQueue, made deterministic: random
    // single-threaded sequences instead of 10 producers and 100 consumers.
    // Invariants: a key is never handed out twice before `Done`, and it comes
    // out with the highest priority it was added with since it was handed out.
    #[test]
    fn test_fuzz_priority_queue(ops in proptest::collection::vec(op(), 1..200)) {
        let mut q = PriorityQueue::with_default_rate_limiter();
        let mut now = Time::ZERO;
        let mut in_queue: BTreeMap<u8, i64> = BTreeMap::new();
        let mut handed_out: Vec<u8> = Vec::new();
        for op in ops {
            match op {
                Op::Add { key, priority, after_ms } => {
                    q.add_with_opts(&opts(ms(after_ms), Some(priority)), key, now);
                    let expected = in_queue.entry(key).or_insert(priority);
                    *expected = (*expected).max(priority);
                }
                Op::Get => {
                    if let Some((key, priority)) = q.get_with_priority() {
                        prop_assert!(!handed_out.contains(&key), "{} handed out twice", key);
                        prop_assert_eq!(in_queue.remove(&key), Some(priority));
                        handed_out.push(key);
                    }
                }
                Op::Done => {
                    if !handed_out.is_empty() {
                        let key = handed_out.remove(0);
                        q.done(&key);
                    }
                }
                Op::Forward { ms: by } => {
                    now += ms(by);
                    q.move_ready(now);
                }
            }
        }
    }
}

#[test]
fn a_waiting_item_readied_by_an_add_keeps_its_place_in_line() {
    // Upstream keeps the counter on this path (only the waiting loop bumps
    // it), so "early" goes before "ready", which became ready first.
    let mut q = Fake::new();
    q.add(opts(secs(60), None), "early");
    q.add(AddOpts::default(), "ready");
    q.add(AddOpts::default(), "early");
    q.got("early", 0);
    q.got("ready", 0);
    q.queue.done(&"early".to_string());
    q.queue.done(&"ready".to_string());
    // Through the waiting loop it goes to the back instead.
    q.add(opts(secs(1), None), "late");
    q.add(AddOpts::default(), "ready");
    q.forward(secs(1));
    q.got("ready", 0);
    q.got("late", 0);
}

#[test]
fn rate_limited_takes_the_shorter_of_after_and_the_limiter_and_counts_each_add() {
    let mut q = Fake::new();
    let both = |after| AddOpts {
        after,
        rate_limited: true,
        priority: None,
    };
    assert_eq!(
        q.add(both(ms(2)), "k").ready_at,
        Some(ms(2)),
        "After is shorter than 5 ms"
    );
    assert_eq!(
        q.add(both(secs(1)), "k").ready_at,
        Some(ms(2)),
        "10 ms, merged: 2 ms stays"
    );
    assert_eq!(q.queue.num_requeues(&"k".to_string()), 2);
    q.queue.forget(&"k".to_string());
    assert_eq!(q.queue.num_requeues(&"k".to_string()), 0);
}

#[test]
fn apply_forgets_then_adds_with_the_handlers_opts() {
    let mut q = Fake::new();
    let key = "k".to_string();
    q.queue.add_rate_limited(key.clone(), q.now);
    q.forward(ms(5));
    assert_eq!(q.queue.get_with_priority(), Some((key.clone(), 0)));
    let after = HandlerAction::ForgetAndRequeueAfter {
        opts: opts(secs(30), Some(-100)),
    };
    let added = q.queue.apply(key.clone(), &after, q.now).expect("an add");
    assert_eq!(added.outcome, PriorityAddOutcome::Deferred);
    assert_eq!(q.queue.num_requeues(&key), 0);
    assert!(!q.queue.done(&key), "waiting, not ready");
    assert_eq!(q.queue.item(&key), Some((-100, Some(ms(5) + secs(30)))));
    assert_eq!(q.queue.apply(key, &HandlerAction::Forget, q.now), None);
}

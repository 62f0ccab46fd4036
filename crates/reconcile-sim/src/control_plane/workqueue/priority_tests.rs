//! Ported from controller-runtime v0.24.1
//! pkg/controller/priorityqueue/priorityqueue_test.go: the ginkgo cases of
//! `Describe("Controllerworkqueue")` and the Go tests on a fake clock, without
//! their metrics assertions. A blocked `GetWithPriority` becomes: `get` returns
//! `None` until the item is ready. The Go tests are in `priority_go_tests.rs`.

use std::time::Duration;

use super::*;

pub(super) fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

pub(super) fn secs(n: u64) -> Duration {
    Duration::from_secs(n)
}

/// `AddOpts{Priority: &priority}`.
pub(super) fn prio(priority: i64) -> AddOpts {
    opts(Duration::ZERO, Some(priority))
}

pub(super) fn opts(after: Duration, priority: Option<i64>) -> AddOpts {
    AddOpts {
        after,
        priority,
        ..AddOpts::default()
    }
}

/// `newQueueWithTimeForwarder`: the queue, and the fake clock's time.
pub(super) struct Fake {
    pub(super) queue: PriorityQueue<String>,
    pub(super) now: Time,
}

impl Fake {
    pub(super) fn new() -> Self {
        Self {
            queue: PriorityQueue::with_default_rate_limiter(),
            now: Time::ZERO,
        }
    }

    pub(super) fn add(&mut self, opts: AddOpts, key: &str) -> PriorityAdd {
        self.queue.add_with_opts(&opts, key.to_string(), self.now)
    }

    /// `forwardQueueTimeBy`: the clock moves and the waiting loop wakes.
    pub(super) fn forward(&mut self, by: Duration) {
        self.now += by;
        self.queue.move_ready(self.now);
    }

    pub(super) fn get(&mut self) -> Option<(String, i64)> {
        self.queue.get_with_priority()
    }

    pub(super) fn got(&mut self, key: &str, priority: i64) {
        assert_eq!(self.get(), Some((key.to_string(), priority)));
    }
}

// priorityqueue_test.go It("returns an item")
#[test]
fn returns_an_item() {
    let mut q = Fake::new();
    assert_eq!(
        q.add(AddOpts::default(), "foo").outcome,
        PriorityAddOutcome::Queued
    );
    q.got("foo", 0);
}

// priorityqueue_test.go It("returns items in order")
#[test]
fn returns_items_in_order() {
    let mut q = Fake::new();
    q.add(AddOpts::default(), "foo");
    q.add(AddOpts::default(), "bar");
    q.got("foo", 0);
    q.got("bar", 0);
}

// priorityqueue_test.go It("doesn't return an item that is currently locked")
#[test]
fn doesnt_return_an_item_that_is_currently_locked() {
    let mut q = Fake::new();
    q.add(AddOpts::default(), "foo");
    q.got("foo", 0);
    let again = q.add(AddOpts::default(), "foo");
    assert_eq!(again.outcome, PriorityAddOutcome::Deferred);
    q.add(AddOpts::default(), "bar");
    q.got("bar", 0);
    assert_eq!(q.get(), None, "foo is locked");
}

// priorityqueue_test.go It("returns an item as soon as its unlocked")
#[test]
fn returns_an_item_as_soon_as_its_unlocked() {
    let mut q = Fake::new();
    q.add(AddOpts::default(), "foo");
    q.got("foo", 0);
    q.add(AddOpts::default(), "foo");
    q.add(AddOpts::default(), "bar");
    q.got("bar", 0);
    q.add(AddOpts::default(), "baz");
    assert!(q.queue.done(&"foo".to_string()), "foo has a ready item");
    // foo was added before baz, so it comes first.
    q.got("foo", 0);
}

// priorityqueue_test.go It("de-duplicates items")
#[test]
fn de_duplicates_items() {
    let mut q = Fake::new();
    q.add(AddOpts::default(), "foo");
    let merged = q.add(AddOpts::default(), "foo");
    assert_eq!(merged.outcome, PriorityAddOutcome::Merged);
    assert_eq!(q.queue.len(), 1);
    assert!(!q.queue.is_processing(&"foo".to_string()), "nothing locked");
}

// priorityqueue_test.go It("enqueues a locked item")
#[test]
fn enqueues_a_locked_item() {
    let mut q = Fake::new();
    q.add(AddOpts::default(), "foo");
    assert_eq!(q.queue.len(), 1);
    q.got("foo", 0);
    q.add(AddOpts::default(), "foo");
    assert_eq!(q.queue.len(), 1, "Len counts the locked key's ready item");
    q.queue.done(&"foo".to_string());
    q.got("foo", 0);
}

// priorityqueue_test.go It("retains the highest priority")
#[test]
fn retains_the_highest_priority() {
    let mut q = Fake::new();
    q.add(prio(1), "foo");
    let merged = q.add(prio(2), "foo");
    assert_eq!(
        (merged.outcome, merged.priority),
        (PriorityAddOutcome::Merged, 2)
    );
    q.got("foo", 2);
    assert_eq!(q.queue.len(), 0);
}

// priorityqueue_test.go It("will not decrease the priority")
#[test]
fn will_not_decrease_the_priority() {
    let mut q = Fake::new();
    q.add(prio(2), "foo");
    q.add(prio(1), "foo");
    q.got("foo", 2);
    assert_eq!(q.queue.len(), 0);
}

// priorityqueue_test.go It("gets pushed to the front if the priority increases")
#[test]
fn gets_pushed_to_the_front_if_the_priority_increases() {
    let mut q = Fake::new();
    for key in ["foo", "bar", "baz"] {
        q.add(AddOpts::default(), key);
    }
    q.add(prio(1), "baz");
    q.got("baz", 1);
    assert_eq!(q.queue.len(), 2);
}

// priorityqueue_test.go It("retains the lowest after duration")
#[test]
fn retains_the_lowest_after_duration() {
    let mut q = Fake::new();
    q.add(opts(Duration::ZERO, None), "foo");
    let merged = q.add(opts(secs(3_600), None), "foo");
    assert_eq!(merged.ready_at, None, "ready stays ready");
    q.got("foo", 0);
    assert_eq!(q.queue.len(), 0);
}

// priorityqueue_test.go It("doesn't include non-ready items in Len()")
#[test]
fn doesnt_include_non_ready_items_in_len() {
    let mut q = Fake::new();
    q.add(opts(secs(60), None), "foo");
    q.add(AddOpts::default(), "baz");
    q.add(opts(secs(60), None), "bar");
    q.add(AddOpts::default(), "bal");
    assert_eq!((q.queue.len(), q.queue.waiting_len()), (2, 2));
}

// priorityqueue_test.go It("returns many items"), made deterministic: a
// seeded generator instead of rand.N, and the 100 goroutines' 1000
// Get/Done pairs one after the other, moving the clock when only waiting
// items are left (upstream's blocked Get waits for them).
#[test]
fn returns_many_items() {
    let mut q = Fake::new();
    let mut seed: u64 = 1;
    for _ in 0..20 {
        for i in 0..1000 {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            let rn = (seed >> 33) % 100;
            let key = format!("foo{i}");
            if rn < 10 {
                q.add(opts(ms(rn), None), &key);
            } else {
                q.add(opts(Duration::ZERO, Some(rn as i64)), &key);
            }
        }
        for _ in 0..1000 {
            if q.queue.is_empty() {
                let due = q.queue.next_ready_at().expect("an item is waiting");
                q.forward(due - q.now);
            }
            let (key, _) = q.get().expect("ready");
            q.queue.done(&key);
        }
    }
    assert_eq!((q.queue.len(), q.queue.waiting_len()), (0, 0));
}

// priorityqueue_test.go It("updates metrics correctly for an item that gets
// initially added with after and then without"): its Len and Get assertions.
#[test]
fn updates_metrics_correctly_for_an_item_that_gets_initially_added_with_after_and_then_without() {
    let mut q = Fake::new();
    q.add(opts(secs(3_600), None), "foo");
    assert_eq!(q.queue.len(), 0);
    let readied = q.add(AddOpts::default(), "foo");
    assert_eq!(
        (readied.outcome, readied.ready_at),
        (PriorityAddOutcome::Merged, None)
    );
    assert_eq!(q.queue.len(), 1);
    assert_eq!(q.queue.get(), Some("foo".to_string()));
    assert_eq!(q.queue.len(), 0);
}

// priorityqueue_test.go It("updates metrics correctly when an item with after
// is re-added with higher priority and no after"): its Len and Get assertions.
#[test]
fn updates_metrics_correctly_when_an_item_with_after_is_re_added_with_higher_priority_and_no_after()
{
    let mut q = Fake::new();
    q.add(opts(secs(3_600), Some(0)), "foo");
    assert_eq!(q.queue.len(), 0);
    q.add(prio(1), "foo");
    assert_eq!(q.queue.len(), 1);
    q.got("foo", 1);
    assert_eq!(q.queue.len(), 0);
}

// priorityqueue_test.go It("follows FIFO order in the new priority queue when
// item priority changes")
#[test]
fn follows_fifo_order_in_the_new_priority_queue_when_item_priority_changes() {
    let mut q = Fake::new();
    q.add(prio(0), "foo");
    q.add(prio(1), "bar");
    q.add(prio(1), "foo");
    assert_eq!(q.queue.len(), 2);
    q.got("bar", 1);
    assert_eq!(q.queue.len(), 1);
    q.got("foo", 1);
    assert_eq!(q.queue.len(), 0);
}

#[path = "priority_go_tests.rs"]
mod go_tests;

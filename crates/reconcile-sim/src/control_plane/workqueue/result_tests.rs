//! Ported from controller-runtime v0.24.1 pkg/internal/controller/controller_test.go,
//! `Describe("Processing queue items from a Controller")`: the cases about the
//! reconcile result. Each drives [`reconcile_handler`] and a client-go
//! rate-limiting queue single-threaded, as `processNextWorkItem` would.

use super::*;
use crate::workqueue::{RateLimitingQueue, Time};

const REQUEST: &str = "foo/bar";
const MS_100: Duration = Duration::from_millis(100);

/// The test's `DelegatingQueue` counts: `Add` +1 and `Forget` -1 to `trying`.
#[derive(Debug, Default, PartialEq, Eq)]
struct CountInfo {
    trying: i32,
    add_after: i32,
    add_rate_limited: i32,
}

/// A controller with one worker on a fake clock.
struct Controller {
    queue: RateLimitingQueue<&'static str>,
    now: Time,
    counts: CountInfo,
}

impl Controller {
    fn new() -> Self {
        let limiter = controller_runtime_default_rate_limiter(QueueKind::RateLimitingQueue);
        Self {
            queue: RateLimitingQueue::new(limiter),
            now: Time::ZERO,
            counts: CountInfo::default(),
        }
    }

    fn add(&mut self) {
        self.counts.trying += 1;
        self.queue.add(REQUEST);
    }

    /// `processNextWorkItem`, waiting on the fake clock for the key if need be:
    /// `Get`, the handler, `Done`. Returns what the handler did.
    fn reconcile(
        &mut self,
        result: ReconcileResult,
        error: Option<ReconcileError>,
    ) -> HandlerAction {
        if self.queue.is_empty() {
            self.now = self.queue.next_ready_at().expect("the request is waiting");
            self.queue.move_ready(self.now);
        }
        let key = self.queue.get().expect("the request is queued");
        let action = reconcile_handler(&result, error, 0);
        self.count(&action);
        self.queue.apply(key, &action, self.now);
        self.queue.done(&key);
        action
    }

    /// What `DelegatingQueue` counts for the calls the wrapper makes.
    fn count(&mut self, action: &HandlerAction) {
        if action.forgets() {
            self.counts.trying -= 1;
        }
        match action.add_opts() {
            Some(opts) if opts.rate_limited => self.counts.add_rate_limited += 1,
            Some(opts) if opts.after > Duration::ZERO => self.counts.add_after += 1,
            Some(_) => self.counts.trying += 1,
            None => {}
        }
    }

    fn counts(&self, trying: i32, add_after: i32, add_rate_limited: i32) -> bool {
        self.counts
            == CountInfo {
                trying,
                add_after,
                add_rate_limited,
            }
    }

    /// "Removing the item from the queue".
    fn assert_removed(&self) {
        assert_eq!(self.queue.len(), 0);
        assert_eq!(self.queue.num_requeues(&REQUEST), 0);
    }
}

fn error() -> Option<ReconcileError> {
    Some(ReconcileError::Transient)
}

fn requeue_after(after: Duration) -> ReconcileResult {
    ReconcileResult {
        requeue_after: after,
        ..ReconcileResult::default()
    }
}

fn requeue(requeue: bool) -> ReconcileResult {
    ReconcileResult {
        requeue,
        ..ReconcileResult::default()
    }
}

fn with_priority(mut result: ReconcileResult, priority: i64) -> ReconcileResult {
    result.priority = Some(priority);
    result
}

// controller-runtime pkg/internal/controller/controller_test.go
// "should call Reconciler if an item is enqueued"
#[test]
fn should_call_reconciler_if_an_item_is_enqueued() {
    let mut ctrl = Controller::new();
    ctrl.add();
    assert_eq!(
        ctrl.reconcile(ReconcileResult::default(), None),
        HandlerAction::Forget
    );
    ctrl.assert_removed();
}

// controller-runtime pkg/internal/controller/controller_test.go
// "should requeue a Request if there is an error and continue processing items"
#[test]
fn should_requeue_a_request_if_there_is_an_error_and_continue_processing_items() {
    let mut ctrl = Controller::new();
    ctrl.add();
    ctrl.reconcile(ReconcileResult::default(), error());
    assert!(ctrl.counts(1, 0, 1), "AddedRatelimited == [request]");
    ctrl.reconcile(ReconcileResult::default(), None);
    ctrl.assert_removed();
}

// controller-runtime pkg/internal/controller/controller_test.go
// "should not requeue a Request if there is a terminal error"
#[test]
fn should_not_requeue_a_request_if_there_is_a_terminal_error() {
    let mut ctrl = Controller::new();
    ctrl.add();
    let action = ctrl.reconcile(ReconcileResult::default(), Some(ReconcileError::Terminal));
    assert_eq!(
        action,
        HandlerAction::TerminalError {
            ignored_requeue: false
        }
    );
    assert!(ctrl.counts(1, 0, 0), "AddedRatelimited is empty");
    assert_eq!(ctrl.queue.len(), 0);
    assert_eq!(ctrl.queue.waiting_len(), 0);
}

// controller-runtime pkg/internal/controller/controller_test.go
// "should not reset backoff until there's a non-error result"
#[test]
fn should_not_reset_backoff_until_there_s_a_non_error_result() {
    let mut ctrl = Controller::new();
    ctrl.add();
    assert!(ctrl.counts(1, 0, 0));
    ctrl.reconcile(ReconcileResult::default(), error());
    assert!(ctrl.counts(1, 0, 1));
    ctrl.reconcile(ReconcileResult::default(), error());
    assert!(ctrl.counts(1, 0, 2));
    assert_eq!(ctrl.queue.num_requeues(&REQUEST), 2, "backoff not reset");
    ctrl.reconcile(ReconcileResult::default(), None);
    assert!(ctrl.counts(0, 0, 2));
    ctrl.assert_removed();
}

// controller-runtime pkg/internal/controller/controller_test.go
// "should requeue a Request with rate limiting if the Result sets Requeue:true and continue processing items"
#[test]
fn should_requeue_a_request_with_rate_limiting_if_the_result_sets_requeue_true() {
    let mut ctrl = Controller::new();
    ctrl.add();
    assert!(ctrl.counts(1, 0, 0));
    ctrl.reconcile(requeue(true), None);
    assert!(ctrl.counts(1, 0, 1));
    ctrl.reconcile(requeue(false), None);
    assert!(ctrl.counts(0, 0, 1));
    ctrl.assert_removed();
}

// controller-runtime pkg/internal/controller/controller_test.go
// "should requeue a Request after a duration (but not rate-limited) if the Result sets RequeueAfter (regardless of Requeue)"
#[test]
fn should_requeue_a_request_after_a_duration_but_not_rate_limited_if_the_result_sets_requeue_after()
{
    let mut ctrl = Controller::new();
    ctrl.add();
    assert!(ctrl.counts(1, 0, 0));
    let both = ReconcileResult {
        requeue: true,
        ..requeue_after(MS_100)
    };
    ctrl.reconcile(both, None);
    assert!(ctrl.counts(0, 1, 0));
    ctrl.reconcile(requeue_after(MS_100), None);
    assert!(ctrl.counts(-1, 2, 0), "AddAfter does not count as trying");
    ctrl.assert_removed();
}

// controller-runtime pkg/internal/controller/controller_test.go
// "should perform error behavior if error is not nil, regardless of RequeueAfter"
#[test]
fn should_perform_error_behavior_if_error_is_not_nil_regardless_of_requeue_after() {
    let mut ctrl = Controller::new();
    ctrl.add();
    assert!(ctrl.counts(1, 0, 0));
    let action = ctrl.reconcile(requeue_after(MS_100), error());
    assert!(matches!(
        action,
        HandlerAction::ErrorRequeue {
            ignored_requeue: true,
            ..
        }
    ));
    assert!(ctrl.counts(1, 0, 1));
    ctrl.reconcile(requeue_after(MS_100), None);
    assert!(ctrl.counts(0, 1, 1));
    ctrl.assert_removed();
}

/// The priority tests: the key was handed out with priority 10.
fn opts_for(result: ReconcileResult, error: Option<ReconcileError>) -> Option<AddOpts> {
    reconcile_handler(&result, error, 10).add_opts().copied()
}

fn rate_limited(priority: i64) -> Option<AddOpts> {
    Some(AddOpts {
        rate_limited: true,
        priority: Some(priority),
        ..AddOpts::default()
    })
}

fn after_100ms(priority: i64) -> Option<AddOpts> {
    Some(AddOpts {
        after: MS_100,
        priority: Some(priority),
        ..AddOpts::default()
    })
}

// controller-runtime pkg/internal/controller/controller_test.go, six cases:
// "should retain the priority when the reconciler requests a requeue",
// "should use the priority from Result when the reconciler requests a requeue",
// "should retain the priority with RequeueAfter",
// "should use the priority from Result with RequeueAfter",
// "should retain the priority when there was an error",
// "should use the priority from Result when there was an error"
#[test]
fn should_retain_the_priority_or_use_the_priority_from_result() {
    assert_eq!(opts_for(requeue(true), None), rate_limited(10));
    assert_eq!(
        opts_for(with_priority(requeue(true), 99), None),
        rate_limited(99)
    );
    assert_eq!(opts_for(requeue_after(MS_100), None), after_100ms(10));
    assert_eq!(
        opts_for(with_priority(requeue_after(MS_100), 99), None),
        after_100ms(99)
    );
    assert_eq!(
        opts_for(ReconcileResult::default(), error()),
        rate_limited(10)
    );
    let result = with_priority(ReconcileResult::default(), 99);
    assert_eq!(opts_for(result, error()), rate_limited(99));
}

#[test]
fn a_terminal_error_keeps_the_failure_count() {
    let mut ctrl = Controller::new();
    ctrl.add();
    ctrl.reconcile(ReconcileResult::default(), error());
    ctrl.reconcile(requeue(true), Some(ReconcileError::Terminal));
    assert_eq!(
        ctrl.queue.num_requeues(&REQUEST),
        1,
        "no Forget on a terminal error"
    );
}

#[test]
fn by_default_controller_runtime_uses_the_priority_queue_without_a_bucket() {
    assert_eq!(CONTROLLER_RUNTIME_DEFAULT_QUEUE, QueueKind::PriorityQueue);
    let mut limiter = controller_runtime_default_rate_limiter::<u32>(QueueKind::PriorityQueue);
    for key in 0..200 {
        assert_eq!(
            limiter.when(&key, Time::ZERO),
            Duration::from_millis(5),
            "no 10 qps bucket"
        );
    }
}

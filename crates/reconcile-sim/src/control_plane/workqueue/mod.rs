//! client-go's work queue, rate limiters and controller-runtime's handling of
//! a reconcile result, modelled faithfully on an injected fake clock: no wall
//! clock, no threads, no goroutines.
//!
//! Followed upstream:
//! - `k8s.io/client-go/util/workqueue` at commit `32ce75a7d` (the Kubernetes
//!   main branch of July 2026): [`Queue`] (`queue.go`), [`DelayingQueue`]
//!   (`delaying_queue.go`), the limiters of `default_rate_limiters.go`
//!   ([`TypedRateLimiter`] and its implementations) and [`RateLimitingQueue`]
//!   (`rate_limiting_queue.go`).
//! - `golang.org/x/time/rate` at `2b4e439` (v0.13.0 plus one commit): the
//!   [`Limiter`] behind [`BucketRateLimiter`].
//! - `sigs.k8s.io/controller-runtime` v0.24.1: [`reconcile_handler`]
//!   (`reconcileHandler` in `pkg/internal/controller/controller.go`) and the
//!   defaults of `pkg/controller/controller.go`
//!   ([`CONTROLLER_RUNTIME_DEFAULT_QUEUE`], [`controller_runtime_default_rate_limiter`]);
//!   and [`PriorityQueue`] (`pkg/controller/priorityqueue/priorityqueue.go`),
//!   the queue a controller gets by default in that release, with its default
//!   limiter (per-item exponential 5 ms..1000 s, no bucket).
//! - kube-rs's `kube-runtime` 4.2.0 (the `4.2.0` tag; the mirror's two later
//!   commits do not touch it): [`KubeScheduler`] (`src/scheduler.rs`) and
//!   [`KubeRunner`] (`src/controller/runner.rs` and the applier's
//!   `RescheduleReconciliation` in `src/controller/mod.rs`), with [`Action`].
//!
//! [`QueueModel`] names the three queues on the wire (`"client-go"`,
//! `"controller-runtime-priority"`, `"kube-rs"`) and says which release each
//! follows; [`BackoffPolicy::kube_error_policy`] is the "fixed-delay" policy
//! as a kube-rs `error_policy`. The engine drives all three (`engine::queue`,
//! `engine::kube_queue`).
//!
//! Time is a [`Time`] (a `Duration` since the simulation started), to the
//! nanosecond. Every call that upstream makes at `time.Now()` takes `now`.
//! Upstream's `waitingLoop` goroutine is two calls the discrete-event engine
//! makes: [`DelayingQueue::next_ready_at`] says when to wake up,
//! [`DelayingQueue::move_ready`] moves what is due into the queue. A pass is
//! `get`, [`reconcile_handler`], [`RateLimitingQueue::apply`], `done`, as in
//! `processNextWorkItem`.
//!
//! [`BackoffPolicy`] (the playground's settings, unchanged on the wire),
//! [`RateLimiter`] and [`Millis`] keep the engine's millisecond interface
//! over the faithful types.
//!
//! The priority queue is driven like the delaying queue:
//! [`PriorityQueue::add_with_opts`] at `now`, [`PriorityQueue::next_ready_at`],
//! [`PriorityQueue::move_ready`], `get_with_priority`, [`PriorityQueue::apply`]
//! (the handler's result), `done`. kube-rs's loop: [`KubeRunner::trigger`]
//! (a watch event), [`KubeRunner::poll`] at `now` (what starts), the
//! reconcile, [`KubeRunner::finish`] with a [`RunResult`], `poll` again;
//! [`KubeRunner::next_run_at`] says when to wake up.
//!
//! # Guarantees
//! - Deterministic: ordered maps and sets only, and ties between entries due
//!   at the same instant go in the order they were added.
//! - A key is never handed out twice at once; an add while it is processing
//!   is deferred until `done`, then queued once ([`AddOutcome::Deferred`]).
//! - One waiting entry per key: a second `add_after` keeps the earlier time
//!   ([`AddAfterOutcome::Deduplicated`]), so an always-failing key has at most
//!   one timer.
//! - Priority queue: one item per key, whether ready, waiting or added while
//!   the key is processing ([`PriorityAddOutcome::Deferred`]: `get` skips it
//!   until `done`). An add merges into the item: the higher priority (a rise
//!   goes to the back of its new priority), ready stays ready, a waiting item
//!   becomes ready on an add without a delay, else the earlier time.
//!   `RateLimited` asks the limiter on every add (so it counts a failure even
//!   when it merges) and takes the shorter of its delay and `After`. `get`
//!   hands out by priority, then the order items became ready; `len` counts
//!   ready items, including a processing key's.
//! - kube-rs: one slot per object. A request wins if its time is not later
//!   than the slot's (no debounce: the earlier time is kept, and a tie takes
//!   the newer reason); a message due while its object runs is held pending,
//!   drops every request for the object, and runs as soon as the reconcile
//!   ends, so that reconcile's requeue is dropped ([`ScheduleOutcome`]).
//! - Delays are upstream's to the nanosecond, including Go's float
//!   arithmetic: 3 qps waits 333 333 333 ns; the exponent saturates to the cap.
//! - A bucket that can never admit (burst 0 with a finite limit, or limit 0
//!   with the burst spent) gives [`INF_DURATION`]; [`to_millis`] turns it into
//!   `Millis::MAX`, the engine's "never".
//!
//! # Caveats
//! - `done` for a key that was never handed out changes nothing; upstream
//!   would queue it a second time (a misuse of its API; an engine regression
//!   test relies on the guard).
//! - Upstream's exponential backoff can produce a negative duration (exactly
//!   2^63 ns, or 0 · 2^1024 = NaN, through Go's float conversion on amd64);
//!   here it is zero, which every caller treats the same ("add now").
//! - `durationFromTokens` of exactly 2^63 ns is capped to `INF_DURATION`
//!   rather than converted (Go's conversion overflows there).
//! - `AddAfter` with a negative delay cannot be expressed (`Duration` is
//!   unsigned); zero means the same.
//! - Not modelled: shutdown, metrics, the 10 s heartbeat of the waiting loop
//!   (insurance against missed timers, which a discrete-event loop cannot
//!   miss), `Reservation.Cancel`, `Wait`, custom `Queue` implementations
//!   (`Touch` is what [`AddOutcome::AlreadyQueued`] reports).
//! - Priority queue: `AddWithOpts` takes one key (upstream's several are added
//!   one by one, which is what it does); adds apply at once where upstream
//!   buffers them for a goroutine that reads the clock when it flushes; no
//!   negative `After` (zero means the same). Not modelled: shutdown, metrics,
//!   the log of its state.
//! - kube-rs: pending messages come out in the order they became pending
//!   (upstream's `HashSet` has no order), and messages due at the same instant
//!   in the order scheduled, a replaced one counting as scheduled when replaced
//!   (upstream: `DelayQueue`'s wheel). Upstream's `DelayQueue` rounds times up
//!   to whole milliseconds; the playground's times are whole milliseconds
//!   already. [`ReconcileReason`] drops its payloads. Not modelled: the end of
//!   the request stream and shutdown, the bounded reschedule channel
//!   (backpressure), readiness errors; the store's readiness is a flag
//!   ([`KubeRunner::set_ready_to_execute`]).
//!
//! # Upstream tests ported, and left out
//! Ported tests are named after the upstream test and say where it comes from.
//! Left out:
//! - client-go `queue_test.go`: `TestQueueDrainageUsingShutDownWithDrain`,
//!   `TestNoQueueDrainageUsingShutDown`, `TestForceQueueShutdownUsingShutDown`,
//!   `TestQueueDrainageUsingShutDownWithDrainWithDirtyItem` and the
//!   "added after shutdown" half of `TestBasic` (shutdown is out of scope);
//!   `TestGarbageCollection` (Go's garbage collector); `BenchmarkQueue`.
//! - client-go `delaying_queue_test.go`: `BenchmarkDelayingQueue_AddAfter`.
//! - client-go `metrics_test.go`, `parallelizer_test.go`: metrics, goroutines.
//! - x/time `rate_test.go`: `TestSimultaneousRequests`, `TestLongRunningQPS`
//!   (goroutines on the wall clock); `TestCancelInvalid`, `TestCancelLast`,
//!   `TestCancelTooLate`, `TestCancel0Tokens`, `TestCancel1Token`,
//!   `TestCancelMulti`, `TestReserveJumpBackCancel`, `TestReserveSetLimitCancel`
//!   (`Cancel` is not modelled: the bucket limiter never cancels);
//!   `TestWaitSimple`, `TestWaitCancel`, `TestWaitTimeout`, `TestWaitInf`,
//!   `TestSetAfterZeroLimit` (`Wait` blocks on contexts and timers); the
//!   benchmarks; the `-1` case of `TestEvery` (no negative `Duration`).
//! - controller-runtime `controller_test.go`: everything outside the result
//!   handling of "Processing queue items from a Controller" (start, warmup,
//!   cache sync, timeouts, panics, metrics). A recovered panic is an error
//!   ([`ReconcileError::Transient`]), so its handling is covered.
//! - controller-runtime `priorityqueue_test.go`: the metrics assertions of
//!   every ported case; `It("Get from priority queue might get stuck when the
//!   priority queue is shut down")` and `TestGetFromPriorityQueueIsUnblockedOnShutdown`
//!   (shutdown); `BenchmarkAddGetDone`, `BenchmarkAddOnly`,
//!   `BenchmarkAddLockContended`. `It("returns many items")` and
//!   `TestFuzzPriorityQueue` are ported single-threaded, with a seeded
//!   generator and proptest. `metrics_test.go` is only the fake metrics provider.
//! - kube-rs `runner.rs`: `runner_should_wake_when_scheduling_messages`
//!   (tokio wakers), `runner_should_report_readiness_errors` (readiness
//!   errors), the second half of `runner_should_respect_max_concurrent_executions`
//!   (the runner ending with its request stream). `controller/mod.rs`:
//!   `applier_must_not_deadlock_if_reschedule_buffer_fills` (channel
//!   backpressure on the wall clock) and the compile-time checks
//!   (`test_controller_should_be_send`, `test_watcher_stream_type_drift`).

use std::time::Duration;

/// Go's struct embedding: `$outer<K>` has `$inner<K>`'s methods, through its
/// field `$field`.
macro_rules! embed {
    ($outer:ident, $inner:ident, $field:ident) => {
        impl<K: Ord + Clone> std::ops::Deref for $outer<K> {
            type Target = $inner<K>;

            fn deref(&self) -> &$inner<K> {
                &self.$field
            }
        }

        impl<K: Ord + Clone> std::ops::DerefMut for $outer<K> {
            fn deref_mut(&mut self) -> &mut $inner<K> {
                &mut self.$field
            }
        }
    };
}
use embed;

mod delaying;
mod kube_runner;
mod kube_scheduler;
mod policy;
mod priority;
mod queue;
mod rate;
mod rate_limiter;
mod rate_limiting_queue;
mod result;

pub use delaying::{AddAfterOutcome, DelayingQueue};
pub use kube_runner::{Action, KubeConfig, KubeRunner, ReconcileReason, RunResult};
pub use kube_scheduler::{KubeScheduler, ScheduleOutcome, MAX_SCHEDULE};
pub use policy::{to_millis, BackoffPolicy, QueueModel, RateLimiter};
pub use priority::{PriorityAdd, PriorityAddOutcome, PriorityQueue};
pub use queue::{AddOutcome, Queue, WorkQueue};
pub use rate::{Limit, Limiter, Reservation};
pub use rate_limiter::{
    default_controller_rate_limiter, default_item_based_rate_limiter, BucketRateLimiter,
    ItemExponentialFailureRateLimiter, ItemFastSlowRateLimiter, MaxOfRateLimiter, TypedRateLimiter,
    WithMaxWaitRateLimiter,
};
pub use rate_limiting_queue::RateLimitingQueue;
pub use result::{
    controller_runtime_default_rate_limiter, reconcile_handler, AddOpts, HandlerAction, QueueKind,
    ReconcileError, ReconcileResult, CONTROLLER_RUNTIME_DEFAULT_QUEUE,
};

/// Simulated milliseconds since the simulation started.
pub type Millis = u64;

/// An instant on the fake clock: the time since the simulation started.
/// Upstream uses `time.Time`; only differences between instants matter.
pub type Time = Duration;

/// `rate.InfDuration` (`math.MaxInt64` nanoseconds, about 292 years): the
/// delay of a reservation that can never be granted, i.e. "never".
pub const INF_DURATION: Duration = Duration::from_nanos(i64::MAX as u64);

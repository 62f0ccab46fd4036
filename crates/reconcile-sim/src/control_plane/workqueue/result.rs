//! controller-runtime v0.24.1's `reconcileHandler`
//! (`pkg/internal/controller/controller.go`): what the controller does with
//! the queue after `Reconcile` returns, as a pure function, and which queue and
//! rate limiter `pkg/controller/controller.go` picks by default.

use std::fmt;
use std::time::Duration;

use super::rate_limiter::{
    default_controller_rate_limiter, ItemExponentialFailureRateLimiter, TypedRateLimiter,
};

/// `priorityqueue.AddOpts`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct AddOpts {
    pub after: Duration,
    pub rate_limited: bool,
    /// Higher first; `None` counts as 0.
    pub priority: Option<i64>,
}

/// `reconcile.Result`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ReconcileResult {
    /// Deprecated upstream, still handled.
    pub requeue: bool,
    pub requeue_after: Duration,
    /// Overrides the priority the key was handed out with.
    pub priority: Option<i64>,
}

/// The error `Reconcile` returned. A recovered panic is a `Transient` error
/// (`RecoverPanic` defaults to true).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReconcileError {
    Transient,
    /// `reconcile.TerminalError` (also when wrapped: `errors.Is`).
    Terminal,
}

/// What `reconcileHandler` does with the queue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HandlerAction {
    /// An error: `AddWithOpts{RateLimited}`; no `Forget`, so the backoff grows.
    /// `ignored_requeue`: `Requeue`/`RequeueAfter` came with the error and are
    /// ignored (upstream logs a warning).
    ErrorRequeue {
        opts: AddOpts,
        ignored_requeue: bool,
    },
    /// A terminal error: not requeued, and not forgotten either.
    TerminalError { ignored_requeue: bool },
    /// `RequeueAfter > 0` without error: `Forget`, then `AddWithOpts{After}`
    /// (`Requeue` is then irrelevant).
    ForgetAndRequeueAfter { opts: AddOpts },
    /// `Requeue` without error: `AddWithOpts{RateLimited}`; no `Forget`.
    Requeue { opts: AddOpts },
    /// Success: `Forget`.
    Forget,
}

impl HandlerAction {
    /// Whether the rate limiter forgets the key's failures.
    pub fn forgets(&self) -> bool {
        matches!(self, Self::ForgetAndRequeueAfter { .. } | Self::Forget)
    }

    /// The `AddWithOpts` call, if any.
    pub fn add_opts(&self) -> Option<&AddOpts> {
        match self {
            Self::ErrorRequeue { opts, .. }
            | Self::ForgetAndRequeueAfter { opts }
            | Self::Requeue { opts } => Some(opts),
            Self::TerminalError { .. } | Self::Forget => None,
        }
    }
}

/// `reconcileHandler`'s switch, for a key handed out with `priority`.
pub fn reconcile_handler(
    result: &ReconcileResult,
    error: Option<ReconcileError>,
    priority: i64,
) -> HandlerAction {
    let priority = Some(result.priority.unwrap_or(priority));
    let rate_limited = AddOpts {
        rate_limited: true,
        priority,
        ..AddOpts::default()
    };
    let ignored_requeue = result.requeue_after > Duration::ZERO || result.requeue;
    match error {
        Some(ReconcileError::Terminal) => HandlerAction::TerminalError { ignored_requeue },
        Some(ReconcileError::Transient) => HandlerAction::ErrorRequeue {
            opts: rate_limited,
            ignored_requeue,
        },
        None if result.requeue_after > Duration::ZERO => HandlerAction::ForgetAndRequeueAfter {
            opts: AddOpts {
                after: result.requeue_after,
                priority,
                ..AddOpts::default()
            },
        },
        None if result.requeue => HandlerAction::Requeue { opts: rate_limited },
        None => HandlerAction::Forget,
    }
}

/// The queue a controller-runtime v0.24.1 controller gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QueueKind {
    /// `priorityqueue.New`: one item per key, priorities, `After` merged.
    PriorityQueue,
    /// client-go's `NewTypedRateLimitingQueueWithConfig`.
    RateLimitingQueue,
}

/// `UsePriorityQueue` unset (in the options and the manager's config) means true.
pub const CONTROLLER_RUNTIME_DEFAULT_QUEUE: QueueKind = QueueKind::PriorityQueue;

/// The rate limiter `NewTypedUnmanaged` defaults to: with the priority queue,
/// per-item exponential backoff only (5 ms doubling up to 1000 s, no bucket);
/// with `UsePriorityQueue: false`, client-go's `DefaultTypedControllerRateLimiter`.
pub fn controller_runtime_default_rate_limiter<K>(queue: QueueKind) -> Box<dyn TypedRateLimiter<K>>
where
    K: Ord + Clone + fmt::Debug + 'static,
{
    match queue {
        QueueKind::PriorityQueue => Box::new(ItemExponentialFailureRateLimiter::new(
            Duration::from_millis(5),
            Duration::from_secs(1_000),
        )),
        QueueKind::RateLimitingQueue => Box::new(default_controller_rate_limiter()),
    }
}

#[cfg(test)]
#[path = "result_tests.rs"]
mod tests;

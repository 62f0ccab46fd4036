//! client-go's work queue and rate limiters, on a simulated clock.

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
mod policy;
mod queue;
mod rate;
mod rate_limiter;
mod rate_limiting_queue;
mod result;

pub use delaying::{AddAfterOutcome, DelayingQueue};
pub use policy::{to_millis, BackoffPolicy, RateLimiter};
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

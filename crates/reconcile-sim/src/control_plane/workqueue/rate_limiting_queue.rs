//! client-go's rate-limiting queue (`util/workqueue/rate_limiting_queue.go`):
//! a delaying queue whose `AddRateLimited` waits as long as the rate limiter says.

use super::delaying::{AddAfterOutcome, DelayingQueue};
use super::rate_limiter::TypedRateLimiter;
use super::result::{AddOpts, HandlerAction};
use super::Time;

/// `rateLimitingType[T]`: a [`DelayingQueue`] (through `Deref`, as Go embeds
/// it) and a rate limiter.
#[derive(Debug)]
pub struct RateLimitingQueue<K: Ord + Clone> {
    queue: DelayingQueue<K>,
    rate_limiter: Box<dyn TypedRateLimiter<K>>,
}

super::embed!(RateLimitingQueue, DelayingQueue, queue);

impl<K: Ord + Clone> RateLimitingQueue<K> {
    /// `NewTypedRateLimitingQueue`.
    pub fn new(rate_limiter: Box<dyn TypedRateLimiter<K>>) -> Self {
        Self {
            queue: DelayingQueue::default(),
            rate_limiter,
        }
    }

    /// `AddRateLimited`: `AddAfter(key, When(key))`. A delay of `INF_DURATION`
    /// (a bucket that never admits) leaves an entry due in about 292 years.
    pub fn add_rate_limited(&mut self, key: K, now: Time) -> AddAfterOutcome {
        let delay = self.rate_limiter.when(&key, now);
        self.queue.add_after(key, delay, now)
    }

    /// `Forget`: only clears the rate limiter; `Done` is still the caller's.
    pub fn forget(&mut self, key: &K) {
        self.rate_limiter.forget(key);
    }

    /// `NumRequeues`.
    pub fn num_requeues(&self, key: &K) -> u32 {
        self.rate_limiter.num_requeues(key)
    }

    /// controller-runtime's `priorityQueueWrapper.AddWithOpts` (how a
    /// controller adds to a client-go queue): rate limited, else after
    /// `after`, else now. The priority is dropped.
    pub fn add_with_opts(&mut self, opts: &AddOpts, key: K, now: Time) -> AddAfterOutcome {
        if opts.rate_limited {
            self.add_rate_limited(key, now)
        } else {
            // A zero `after` is a plain `Add`.
            self.queue.add_after(key, opts.after, now)
        }
    }

    /// What `reconcileHandler` does with the queue after a pass: `Forget`
    /// first, then the add, if any. Call `done` afterwards, as
    /// `processNextWorkItem` does.
    pub fn apply(&mut self, key: K, action: &HandlerAction, now: Time) -> Option<AddAfterOutcome> {
        if action.forgets() {
            self.forget(&key);
        }
        let opts = action.add_opts()?;
        Some(self.add_with_opts(opts, key, now))
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::workqueue::ItemExponentialFailureRateLimiter;

    // client-go util/workqueue/rate_limiting_queue_test.go TestRateLimitingQueue.
    // Upstream reads each `AddAfter`'s entry off the channel before the waiting
    // loop merges it; here that is the `requested` time of the outcome.
    #[test]
    fn test_rate_limiting_queue() {
        let ms = Duration::from_millis;
        let limiter = ItemExponentialFailureRateLimiter::new(ms(1), Duration::from_secs(1));
        let mut queue = RateLimitingQueue::new(Box::new(limiter));
        let now = Duration::from_secs(1_000);
        let waits =
            |queue: &mut RateLimitingQueue<&str>, key| match queue.add_rate_limited(key, now) {
                AddAfterOutcome::Waiting { ready_at } => ready_at - now,
                AddAfterOutcome::Deduplicated { requested, .. } => requested - now,
                AddAfterOutcome::AddedNow { .. } => Duration::ZERO,
            };
        assert_eq!(waits(&mut queue, "one"), ms(1));
        assert_eq!(waits(&mut queue, "one"), ms(2));
        assert_eq!(queue.num_requeues(&"one"), 2);
        assert_eq!(waits(&mut queue, "two"), ms(1));
        assert_eq!(waits(&mut queue, "two"), ms(2));
        queue.forget(&"one");
        assert_eq!(queue.num_requeues(&"one"), 0);
        assert_eq!(waits(&mut queue, "one"), ms(1));
    }
}

//! client-go's rate limiters (`util/workqueue/default_rate_limiters.go`):
//! how long a key waits before `AddRateLimited` queues it again.

use std::fmt;
use std::time::Duration;

use super::rate::{Limit, Limiter};
use super::Time;
use crate::sorted::SortedMap;

/// `TypedRateLimiter[T]`. `now` is the fake clock; only the bucket reads it
/// (upstream's bucket reads the wall clock).
pub trait TypedRateLimiter<K> {
    /// `When`: how long `item` should wait; per-item limiters count a failure.
    fn when(&mut self, item: &K, now: Time) -> Duration;
    /// `Forget`: stop tracking `item` (after a success, or giving up).
    fn forget(&mut self, item: &K);
    /// `NumRequeues`: failures counted for `item`.
    fn num_requeues(&self, item: &K) -> u32;
}

/// A queue prints its limiter as this name only. A `Debug` supertrait would
/// put every limiter's `Debug`, and the float and duration formatting they
/// use, in the vtable of every queue the simulation makes, so in the wasm.
impl<K> fmt::Debug for dyn TypedRateLimiter<K> + '_ {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("TypedRateLimiter")
    }
}

/// The per-item failure counts both item limiters keep.
#[derive(Debug, Clone)]
struct Failures<K>(SortedMap<K, u32>);

impl<K: Ord + Clone> Failures<K> {
    /// Counts one more failure; returns the count before it.
    fn bump(&mut self, item: &K) -> u32 {
        let count = self.0.entry(item.clone()).or_insert(0);
        let before = *count;
        *count = before.saturating_add(1);
        before
    }

    fn get(&self, item: &K) -> u32 {
        self.0.get(item).copied().unwrap_or(0)
    }
}

/// `ItemExponentialFailureRateLimiter`: `base_delay · 2^failures`, capped at `max_delay`.
#[derive(Debug, Clone)]
pub struct ItemExponentialFailureRateLimiter<K> {
    failures: Failures<K>,
    base_delay: Duration,
    max_delay: Duration,
}

impl<K: Ord + Clone> ItemExponentialFailureRateLimiter<K> {
    pub fn new(base_delay: Duration, max_delay: Duration) -> Self {
        Self {
            failures: Failures(SortedMap::new()),
            base_delay,
            max_delay,
        }
    }

    /// The delay after `exp` earlier failures, computed in floats as upstream.
    pub fn backoff(base_delay: Duration, max_delay: Duration, exp: u32) -> Duration {
        // Go's `float64(base.Nanoseconds()) * math.Pow(2, float64(exp))`.
        #[allow(clippy::cast_precision_loss)]
        let backoff = base_delay.as_nanos() as f64 * pow2(exp);
        const MAX_INT64: f64 = 9_223_372_036_854_775_807.0; // rounds to 2^63, as in Go
        if backoff > MAX_INT64 {
            return max_delay;
        }
        if backoff.is_nan() || backoff >= MAX_INT64 {
            // 0 · 2^1024, or exactly 2^63: Go's conversion gives a negative
            // duration (on amd64), which every caller treats as "now".
            return Duration::ZERO;
        }
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let calculated = Duration::from_nanos(backoff as u64);
        calculated.min(max_delay)
    }
}

/// `math.Pow(2, exp)`, exactly: +Inf from 2^1024 on.
fn pow2(exp: u32) -> f64 {
    if exp > 1023 {
        f64::INFINITY
    } else {
        f64::from_bits(u64::from(exp + 1023) << 52)
    }
}

impl<K: Ord + Clone + fmt::Debug> TypedRateLimiter<K> for ItemExponentialFailureRateLimiter<K> {
    fn when(&mut self, item: &K, _now: Time) -> Duration {
        let exp = self.failures.bump(item);
        Self::backoff(self.base_delay, self.max_delay, exp)
    }

    fn forget(&mut self, item: &K) {
        self.failures.0.remove(item);
    }

    fn num_requeues(&self, item: &K) -> u32 {
        self.failures.get(item)
    }
}

/// `ItemFastSlowRateLimiter`: `fast_delay` for the first `max_fast_attempts`
/// failures, `slow_delay` after.
#[derive(Debug, Clone)]
pub struct ItemFastSlowRateLimiter<K> {
    failures: Failures<K>,
    fast_delay: Duration,
    slow_delay: Duration,
    max_fast_attempts: u32,
}

impl<K: Ord + Clone> ItemFastSlowRateLimiter<K> {
    pub fn new(fast_delay: Duration, slow_delay: Duration, max_fast_attempts: u32) -> Self {
        Self {
            failures: Failures(SortedMap::new()),
            fast_delay,
            slow_delay,
            max_fast_attempts,
        }
    }
}

impl<K: Ord + Clone + fmt::Debug> TypedRateLimiter<K> for ItemFastSlowRateLimiter<K> {
    fn when(&mut self, item: &K, _now: Time) -> Duration {
        // Upstream compares the count after this failure.
        if self.failures.bump(item) < self.max_fast_attempts {
            self.fast_delay
        } else {
            self.slow_delay
        }
    }

    fn forget(&mut self, item: &K) {
        self.failures.0.remove(item);
    }

    fn num_requeues(&self, item: &K) -> u32 {
        self.failures.get(item)
    }
}

/// `BucketRateLimiter`: one token bucket for all keys; never counts failures.
#[derive(Debug, Clone)]
pub struct BucketRateLimiter {
    pub limiter: Limiter,
}

impl BucketRateLimiter {
    pub fn new(limit: Limit, burst: u32) -> Self {
        Self {
            limiter: Limiter::new(limit, burst),
        }
    }
}

impl<K> TypedRateLimiter<K> for BucketRateLimiter {
    /// `Reserve().Delay()`: `INF_DURATION` when the bucket can never admit one.
    fn when(&mut self, _item: &K, now: Time) -> Duration {
        self.limiter.reserve_n(now, 1).delay_from(now)
    }

    fn forget(&mut self, _item: &K) {}

    fn num_requeues(&self, _item: &K) -> u32 {
        0
    }
}

/// `MaxOfRateLimiter`: asks every limiter (so the bucket always spends a
/// token) and returns the longest delay.
#[derive(Debug)]
pub struct MaxOfRateLimiter<K> {
    limiters: Vec<Box<dyn TypedRateLimiter<K>>>,
}

impl<K> MaxOfRateLimiter<K> {
    pub fn new(limiters: Vec<Box<dyn TypedRateLimiter<K>>>) -> Self {
        Self { limiters }
    }
}

impl<K: fmt::Debug> TypedRateLimiter<K> for MaxOfRateLimiter<K> {
    fn when(&mut self, item: &K, now: Time) -> Duration {
        let delays = self.limiters.iter_mut().map(|l| l.when(item, now));
        delays.fold(Duration::ZERO, Duration::max)
    }

    fn forget(&mut self, item: &K) {
        for limiter in &mut self.limiters {
            limiter.forget(item);
        }
    }

    fn num_requeues(&self, item: &K) -> u32 {
        let counts = self.limiters.iter().map(|l| l.num_requeues(item));
        counts.max().unwrap_or(0)
    }
}

/// `WithMaxWaitRateLimiter`: another limiter's delay, capped at `max_delay`.
#[derive(Debug)]
pub struct WithMaxWaitRateLimiter<K> {
    limiter: Box<dyn TypedRateLimiter<K>>,
    max_delay: Duration,
}

impl<K> WithMaxWaitRateLimiter<K> {
    pub fn new(limiter: Box<dyn TypedRateLimiter<K>>, max_delay: Duration) -> Self {
        Self { limiter, max_delay }
    }
}

impl<K: fmt::Debug> TypedRateLimiter<K> for WithMaxWaitRateLimiter<K> {
    fn when(&mut self, item: &K, now: Time) -> Duration {
        self.limiter.when(item, now).min(self.max_delay)
    }

    fn forget(&mut self, item: &K) {
        self.limiter.forget(item);
    }

    fn num_requeues(&self, item: &K) -> u32 {
        self.limiter.num_requeues(item)
    }
}

/// `DefaultTypedControllerRateLimiter`: the larger of per-item exponential
/// backoff (5 ms doubling up to 1000 s) and a 10 qps bucket of 100 for all keys.
pub fn default_controller_rate_limiter<K>() -> MaxOfRateLimiter<K>
where
    K: Ord + Clone + fmt::Debug + 'static,
{
    MaxOfRateLimiter::new(vec![
        Box::new(ItemExponentialFailureRateLimiter::new(
            Duration::from_millis(5),
            Duration::from_secs(1_000),
        )),
        Box::new(BucketRateLimiter::new(Limit(10.0), 100)),
    ])
}

/// `DefaultTypedItemBasedRateLimiter`: exponential from 1 ms up to 1000 s.
pub fn default_item_based_rate_limiter<K: Ord + Clone>() -> ItemExponentialFailureRateLimiter<K> {
    ItemExponentialFailureRateLimiter::new(Duration::from_millis(1), Duration::from_secs(1_000))
}

#[cfg(test)]
#[path = "rate_limiter_tests.rs"]
mod tests;

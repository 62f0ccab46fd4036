//! Ported from client-go util/workqueue/default_rate_limiters_test.go (all of it).

use super::*;

const NOW: Time = Duration::ZERO;

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

/// `When` for `item` once per expected delay, in order.
fn expect_whens<K>(limiter: &mut dyn TypedRateLimiter<K>, item: K, expected: &[Duration]) {
    for (i, want) in expected.iter().enumerate() {
        assert_eq!(limiter.when(&item, NOW), *want, "call {i}");
    }
}

/// The shared shape of TestItemExponentialFailureRateLimiter,
/// TestItemFastSlowRateLimiter and TestMaxOfRateLimiter: five failures of
/// "one", two of "two", then `Forget("one")` starts "one" over.
fn one_two_forget(
    limiter: &mut dyn TypedRateLimiter<&'static str>,
    one: [Duration; 5],
    two: [Duration; 2],
) {
    expect_whens(limiter, "one", &one);
    assert_eq!(limiter.num_requeues(&"one"), 5);
    expect_whens(limiter, "two", &two);
    assert_eq!(limiter.num_requeues(&"two"), 2);
    limiter.forget(&"one");
    assert_eq!(limiter.num_requeues(&"one"), 0);
    expect_whens(limiter, "one", &one[..1]);
}

// client-go util/workqueue/default_rate_limiters_test.go TestItemExponentialFailureRateLimiter
#[test]
fn test_item_exponential_failure_rate_limiter() {
    let mut limiter = ItemExponentialFailureRateLimiter::new(ms(1), Duration::from_secs(1));
    one_two_forget(
        &mut limiter,
        [ms(1), ms(2), ms(4), ms(8), ms(16)],
        [ms(1), ms(2)],
    );
}

/// `n` failures of `item`, whose delays the test does not look at.
fn fail<K>(limiter: &mut dyn TypedRateLimiter<K>, item: K, n: usize) {
    for _ in 0..n {
        limiter.when(&item, NOW);
    }
}

// client-go util/workqueue/default_rate_limiters_test.go TestItemExponentialFailureRateLimiterOverFlow
#[test]
fn test_item_exponential_failure_rate_limiter_over_flow() {
    let mut limiter = ItemExponentialFailureRateLimiter::new(ms(1), Duration::from_secs(1_000));
    fail(&mut limiter, "one", 5);
    assert_eq!(limiter.when(&"one", NOW), ms(32));
    fail(&mut limiter, "overflow1", 1_000);
    assert_eq!(limiter.when(&"overflow1", NOW), Duration::from_secs(1_000));

    let minute = Duration::from_secs(60);
    let mut limiter = ItemExponentialFailureRateLimiter::new(minute, minute * 60_000);
    fail(&mut limiter, "two", 2);
    assert_eq!(limiter.when(&"two", NOW), minute * 4);
    fail(&mut limiter, "overflow2", 1_000);
    assert_eq!(
        limiter.when(&"overflow2", NOW),
        minute * 60_000,
        "1000 hours"
    );
}

// client-go util/workqueue/default_rate_limiters_test.go TestItemFastSlowRateLimiter
#[test]
fn test_item_fast_slow_rate_limiter() {
    let slow = Duration::from_secs(10);
    let mut limiter = ItemFastSlowRateLimiter::new(ms(5), slow, 3);
    one_two_forget(
        &mut limiter,
        [ms(5), ms(5), ms(5), slow, slow],
        [ms(5), ms(5)],
    );
}

// client-go util/workqueue/default_rate_limiters_test.go TestMaxOfRateLimiter
#[test]
fn test_max_of_rate_limiter() {
    let slow = Duration::from_secs(3);
    let mut limiter = MaxOfRateLimiter::new(vec![
        Box::new(ItemFastSlowRateLimiter::new(ms(5), slow, 3)),
        Box::new(ItemExponentialFailureRateLimiter::new(
            ms(1),
            Duration::from_secs(1),
        )),
    ]);
    one_two_forget(
        &mut limiter,
        [ms(5), ms(5), ms(5), slow, slow],
        [ms(5), ms(5)],
    );
}

/// The test's `StepRateLimiter`: `base_delay` for the first `threshold` calls
/// (of any item), `max_delay` after.
#[derive(Debug)]
struct StepRateLimiter {
    count: u32,
    threshold: u32,
    base_delay: Duration,
    max_delay: Duration,
}

impl TypedRateLimiter<i32> for StepRateLimiter {
    fn when(&mut self, _item: &i32, _now: Time) -> Duration {
        self.count += 1;
        if self.count <= self.threshold {
            self.base_delay
        } else {
            self.max_delay
        }
    }

    fn forget(&mut self, _item: &i32) {}

    fn num_requeues(&self, _item: &i32) -> u32 {
        0
    }
}

// client-go util/workqueue/default_rate_limiters_test.go TestWithMaxWaitRateLimiter
#[test]
fn test_with_max_wait_rate_limiter() {
    let step = StepRateLimiter {
        count: 0,
        threshold: 100,
        base_delay: ms(5),
        max_delay: Duration::from_secs(1_000),
    };
    let mut limiter = WithMaxWaitRateLimiter::new(Box::new(step), Duration::from_secs(500));
    for i in 0..100 {
        assert_eq!(limiter.when(&i, NOW), ms(5));
    }
    for i in 100..200 {
        assert_eq!(limiter.when(&i, NOW), Duration::from_secs(500));
    }
}

#[test]
fn the_default_controller_limiter_spends_its_burst_of_100_then_paces_at_10_qps() {
    let mut limiter = default_controller_rate_limiter();
    for key in 0..100 {
        assert_eq!(limiter.when(&key, NOW), ms(5), "key {key}");
    }
    assert_eq!(limiter.when(&100, NOW), ms(100));
    assert_eq!(limiter.when(&101, NOW), ms(200));
    assert_eq!(limiter.num_requeues(&100), 1, "the bucket counts nothing");
}

#[test]
fn a_bucket_that_never_admits_makes_the_max_never() {
    let mut limiter: MaxOfRateLimiter<&str> = MaxOfRateLimiter::new(vec![
        Box::new(ItemExponentialFailureRateLimiter::new(ms(5), ms(1_000))),
        Box::new(BucketRateLimiter::new(Limit(0.0), 0)),
    ]);
    assert_eq!(limiter.when(&"k", NOW), crate::workqueue::INF_DURATION);
}

#[test]
fn the_exponent_overflows_to_the_cap_or_to_now_as_go_converts_it() {
    let cap = Duration::from_secs(10_000_000_000);
    let backoff = ItemExponentialFailureRateLimiter::<u8>::backoff;
    assert_eq!(backoff(ms(5), ms(1_000), 7), ms(640));
    assert_eq!(
        backoff(Duration::from_nanos(1), cap, 62),
        Duration::from_nanos(1 << 62)
    );
    assert_eq!(
        backoff(Duration::from_nanos(1), cap, 64),
        cap,
        "past MaxInt64"
    );
    // Exactly 2^63 ns, and 0 · 2^1024 (NaN), fall through Go's check.
    assert_eq!(backoff(Duration::from_nanos(1), cap, 63), Duration::ZERO);
    assert_eq!(backoff(Duration::ZERO, cap, 2_000), Duration::ZERO);
    assert_eq!(backoff(Duration::ZERO, cap, 1_000), Duration::ZERO);
}

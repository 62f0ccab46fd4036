//! Ports of apimachinery's backoff tests, and the reflector's defaults.
//!
//! Upstream: github:kubernetes/kubernetes,
//! `staging/src/k8s.io/apimachinery/pkg/util/wait/wait_test.go` (where the
//! `backoff.go` tests live), and client-go `tools/cache/reflector.go`.
//! Durations there are nanoseconds on a fake clock; here the same numbers
//! are milliseconds.

use super::*;

const T0: Millis = 1_000_000;

fn rng() -> SimRng {
    SimRng::new(7)
}

/// `Backoff{Duration: 1, Cap: 10, Factor: 2.0, Jitter: 0.0, Steps: steps}`.
fn exponential(steps: u32) -> Backoff {
    Backoff {
        duration: 1,
        cap: 10,
        factor: 2.0,
        jitter: 0.0,
        steps,
    }
}

/// `exponential(steps).DelayWithReset(fc, reset_interval)`: seven waits
/// asked at `T0` are `want`; after `fc.Step(11)` the next is the first, 1.
fn check_waits_then_reset(steps: u32, reset_interval: Millis, want: [Millis; 7]) {
    let mut rng = rng();
    let mut backoff = ReflectorBackoff::with_reset(exponential(steps), T0, reset_interval);
    for (i, want) in want.into_iter().enumerate() {
        assert_eq!(
            backoff.next(T0, &mut rng),
            want,
            "unexpected {i}-th backoff"
        );
    }
    let reset_duration = backoff.next(T0 + 11, &mut rng);
    assert_eq!(reset_duration, 1, "after reset, backoff should be 1");
}

// wait_test.go, TestBackoffDelayWithResetExponential.
#[test]
fn test_backoff_delay_with_reset_exponential() {
    check_waits_then_reset(10, 10, [1, 2, 4, 8, 10, 10, 10]);
}

// wait_test.go, TestBackoffDelayWithResetEmpty.
#[test]
fn test_backoff_delay_with_reset_empty() {
    // we reset to initial duration because the resetInterval is 0, immediate
    check_waits_then_reset(10, 0, [1, 1, 1, 1, 1, 1, 1]);
}

// wait_test.go, TestBackoffDelayWithResetJitter.
#[test]
fn test_backoff_delay_with_reset_jitter() {
    let mut rng = rng();
    // positive jitter
    let b = Backoff {
        duration: 1,
        jitter: 1.0,
        factor: 0.0,
        steps: 0,
        cap: 0,
    };
    let mut backoff = ReflectorBackoff::with_reset(b, T0, 0);
    for _ in 0..5 {
        let value = backoff.next(T0, &mut rng);
        assert!((1..=2).contains(&value), "backoff out of range: {value}");
    }

    // negative jitter, shall be a fixed backoff
    let b = Backoff { jitter: -1.0, ..b };
    let mut backoff = ReflectorBackoff::with_reset(b, T0, 0);
    assert_eq!(backoff.next(T0, &mut rng), 1);
}

// wait_test.go, TestExponentialBackoffManagerGetNextBackoff. Upstream tests
// the deprecated manager (`Steps: math.MaxInt32`, reset measured from the
// last call); its cases run here on `DelayWithReset`, which the reflector
// uses since v0.36, and give the same waits.
#[test]
fn test_exponential_backoff_manager_get_next_backoff() {
    check_waits_then_reset(i32::MAX as u32, 10, [1, 2, 4, 8, 10, 10, 10]);
}

// wait_test.go, TestBackoffDelayWithResetWithRealClockExponential (and
// TestExponentialBackoffManagerWithRealClock, the same for the deprecated
// manager). The clock moves by each wait, as a real one would.
#[test]
fn test_backoff_delay_with_reset_with_real_clock_exponential() {
    let mut rng = rng();
    // backoff at least 1ms, 2ms, 4ms, 8ms, 10ms, 10ms, 10ms
    let duration_factors = [1, 2, 4, 8, 10, 10, 10];
    let mut backoff = ReflectorBackoff::with_reset(exponential(10), T0, 3_600_000);
    let mut now = T0;
    for want in duration_factors {
        let passed = backoff.next(now, &mut rng);
        assert!(
            passed >= want,
            "backoff should be at least {want} ms, but got {passed}"
        );
        now += passed;
    }
}

/// Not upstream: reflector.go's comment, "backoff will stop at [30,60) sec
/// interval", with the bases 0.8, 1.6, 3.2, 6.4, 12.8, 25.6 then 30 s.
#[test]
fn reflector_waits_double_from_800_ms_and_stop_at_30_to_60_s() {
    assert_eq!(BACKOFF_STEPS, 38);
    let mut rng = rng();
    let mut backoff = ReflectorBackoff::default();
    let bases = [
        800, 1_600, 3_200, 6_400, 12_800, 25_600, 30_000, 30_000, 30_000,
    ];
    for base in bases {
        let wait = backoff.next(0, &mut rng);
        assert!(
            (base..2 * base).contains(&wait),
            "{wait} not in [{base}, {})",
            2 * base
        );
    }
}

/// Not upstream: `backoffManager.Step` starts over once more than the
/// interval has passed since it last did, however often it is called.
#[test]
fn reset_is_measured_from_the_last_reset_not_the_last_call() {
    let mut rng = rng();
    let b = Backoff {
        jitter: 0.0,
        ..ReflectorBackoff::new(0).initial
    };
    let mut backoff = ReflectorBackoff::with_reset(b, 0, BACKOFF_RESET_MS);
    assert_eq!(backoff.next(0, &mut rng), 800);
    assert_eq!(backoff.next(60_000, &mut rng), 1_600);
    // Exactly the interval is not more than it.
    assert_eq!(backoff.next(BACKOFF_RESET_MS, &mut rng), 3_200);
    // The last call was 1 ms ago, yet the backoff starts over.
    assert_eq!(backoff.next(BACKOFF_RESET_MS + 1, &mut rng), 800);
    assert_eq!(backoff.next(BACKOFF_RESET_MS + 2, &mut rng), 1_600);
}

/// Not upstream: the same seed gives the same waits.
#[test]
fn same_seed_same_waits() {
    let waits = |seed| {
        let mut rng = SimRng::new(seed);
        let mut backoff = ReflectorBackoff::default();
        (0..10)
            .map(|i| backoff.next(i * 1_000, &mut rng))
            .collect::<Vec<_>>()
    };
    assert_eq!(waits(3), waits(3));
    assert_ne!(waits(3), waits(4));
}

//! Ported from golang.org/x/time rate/rate_test.go (see `workqueue` for what is left out).

use super::*;

/// `d` and `t0`..`t9` of rate_test.go; `t0` stands for upstream's `time.Now()`.
const D: Duration = Duration::from_millis(100);
const T0: Time = Duration::from_secs(1_000);

fn t(multiple: u32) -> Time {
    T0 + D * multiple
}

/// `dFromDuration`: the nearest multiple of `D`.
fn d_from_duration(dur: Duration) -> u128 {
    (dur + D / 2).as_nanos() / D.as_nanos()
}

/// `dSince`: multiples of `D` since `T0`.
fn d_since(at: Time) -> u128 {
    d_from_duration(at - T0)
}

/// `allow` and `run`: tokens at `t`, then whether `AllowN(t, n)`.
fn run(lim: &mut Limiter, allows: &[(Time, f64, u32, bool)]) {
    for (step, &(at, toks, n, ok)) in allows.iter().enumerate() {
        assert_eq!(lim.tokens_at(at), toks, "step {step}: TokensAt");
        assert_eq!(lim.allow_n(at, n), ok, "step {step}: AllowN");
    }
}

/// `runReserveMax` (and `runReserve` with `INF_DURATION`): compares in multiples of `D`.
fn run_reserve_max(lim: &mut Limiter, req: (Time, u32, Time, bool), max: Duration) {
    let (at, n, act, ok) = req;
    let r = lim.reserve_n_max(at, n, max);
    assert_eq!(r.ok(), ok, "reserveN(t{}, {n})", d_since(at));
    if r.ok() {
        assert_eq!(d_since(r.time_to_act()), d_since(act), "time to act");
    }
}

fn run_reserve(lim: &mut Limiter, req: (Time, u32, Time, bool)) {
    run_reserve_max(lim, req, INF_DURATION);
}

// golang.org/x/time rate/rate_test.go TestLimit
#[test]
fn test_limit() {
    assert_ne!(Limit(10.0), Limit::INF, "Limit(10) == Inf should be false");
}

// golang.org/x/time rate/rate_test.go TestEvery (the case of -1 ns is left
// out: a std Duration cannot be negative).
#[test]
fn test_every() {
    let close_enough = |a: Limit, b: Limit| ((a.0 / b.0).abs() - 1.0) < 1e-9;
    let cases = [
        (Duration::ZERO, Limit::INF),
        (Duration::from_nanos(1), Limit(1e9)),
        (Duration::from_micros(1), Limit(1e6)),
        (Duration::from_millis(1), Limit(1e3)),
        (Duration::from_millis(10), Limit(100.0)),
        (Duration::from_millis(100), Limit(10.0)),
        (Duration::from_secs(1), Limit(1.0)),
        (Duration::from_secs(2), Limit(0.5)),
        (Duration::from_millis(2_500), Limit(0.4)),
        (Duration::from_secs(4), Limit(0.25)),
        (Duration::from_secs(10), Limit(0.1)),
        (INF_DURATION, Limit(1e9 / 9_223_372_036_854_775_807.0)),
    ];
    for (interval, lim) in cases {
        assert!(
            close_enough(Limit::every(interval), lim),
            "Every({interval:?})"
        );
    }
}

// golang.org/x/time rate/rate_test.go TestLimiterBurst1
#[test]
fn test_limiter_burst1() {
    let mut lim = Limiter::new(Limit(10.0), 1);
    #[rustfmt::skip]
    run(&mut lim, &[
        (t(0), 1.0, 1, true), (t(0), 0.0, 1, false), (t(0), 0.0, 1, false),
        (t(1), 1.0, 1, true), (t(1), 0.0, 1, false), (t(1), 0.0, 1, false),
        (t(2), 1.0, 2, false), // burst size is 1, so n=2 always fails
        (t(2), 1.0, 1, true), (t(2), 0.0, 1, false),
    ]);
}

// golang.org/x/time rate/rate_test.go TestLimiterBurst3
#[test]
fn test_limiter_burst3() {
    let mut lim = Limiter::new(Limit(10.0), 3);
    #[rustfmt::skip]
    run(&mut lim, &[
        (t(0), 3.0, 2, true), (t(0), 1.0, 2, false), (t(0), 1.0, 1, true),
        (t(0), 0.0, 1, false), (t(1), 1.0, 4, false), (t(2), 2.0, 1, true),
        (t(3), 2.0, 1, true), (t(4), 2.0, 1, true), (t(4), 1.0, 1, true),
        (t(4), 0.0, 1, false), (t(4), 0.0, 1, false), (t(9), 3.0, 3, true),
        (t(9), 0.0, 0, true),
    ]);
}

// golang.org/x/time rate/rate_test.go TestLimiterJumpBackwards
#[test]
fn test_limiter_jump_backwards() {
    let mut lim = Limiter::new(Limit(10.0), 3);
    #[rustfmt::skip]
    run(&mut lim, &[
        (t(1), 3.0, 1, true), // start at t1
        (t(0), 2.0, 1, true), // jump back to t0, two tokens remain
        (t(0), 1.0, 1, true), (t(0), 0.0, 1, false), (t(0), 0.0, 1, false),
        (t(1), 1.0, 1, true), // got a token
        (t(1), 0.0, 1, false), (t(1), 0.0, 1, false),
        (t(2), 1.0, 1, true), // got another token
        (t(2), 0.0, 1, false), (t(2), 0.0, 1, false),
    ]);
}

// golang.org/x/time rate/rate_test.go TestLimiter_noTruncationErrors
#[test]
fn test_limiter_no_truncation_errors() {
    assert!(Limiter::new(Limit(0.7692307692307693), 1).allow_n(T0, 1));
}

// golang.org/x/time rate/rate_test.go TestSimpleReserve
#[test]
fn test_simple_reserve() {
    let mut lim = Limiter::new(Limit(10.0), 2);
    run_reserve(&mut lim, (t(0), 2, t(0), true));
    run_reserve(&mut lim, (t(0), 2, t(2), true));
    run_reserve(&mut lim, (t(3), 2, t(4), true));
}

// golang.org/x/time rate/rate_test.go TestMix
#[test]
fn test_mix() {
    let mut lim = Limiter::new(Limit(10.0), 2);
    run_reserve(&mut lim, (t(0), 3, t(1), false)); // n > Burst
    run_reserve(&mut lim, (t(0), 2, t(0), true));
    run(&mut lim, &[(t(1), 1.0, 2, false)]); // not enough tokens
    run_reserve(&mut lim, (t(1), 2, t(2), true));
    run(&mut lim, &[(t(1), -1.0, 1, false)]); // negative tokens
    run(&mut lim, &[(t(3), 1.0, 1, true)]);
}

// golang.org/x/time rate/rate_test.go TestReserveJumpBack
#[test]
fn test_reserve_jump_back() {
    let mut lim = Limiter::new(Limit(10.0), 2);
    run_reserve(&mut lim, (t(1), 2, t(1), true)); // start at t1
    run_reserve(&mut lim, (t(0), 1, t(1), true)); // should violate Limit,Burst
    run_reserve(&mut lim, (t(2), 2, t(3), true));
    // n=3 exceeds the burst: fails, and the state does not change.
    run_reserve(&mut lim, (t(0), 3, Time::ZERO, false));
    run_reserve(&mut lim, (t(2), 1, t(4), true));
    // maxReserve is not enough: fails, and the state does not change.
    run_reserve_max(&mut lim, (t(0), 2, Time::ZERO, false), D);
    run_reserve(&mut lim, (t(2), 1, t(5), true));
}

// golang.org/x/time rate/rate_test.go TestReserveSetLimit
#[test]
fn test_reserve_set_limit() {
    let mut lim = Limiter::new(Limit(5.0), 2);
    run_reserve(&mut lim, (t(0), 2, t(0), true));
    run_reserve(&mut lim, (t(0), 2, t(4), true));
    lim.set_limit_at(t(2), Limit(10.0));
    run_reserve(&mut lim, (t(2), 1, t(4), true)); // violates Limit and Burst
}

// golang.org/x/time rate/rate_test.go TestReserveSetBurst
#[test]
fn test_reserve_set_burst() {
    let mut lim = Limiter::new(Limit(5.0), 2);
    run_reserve(&mut lim, (t(0), 2, t(0), true));
    run_reserve(&mut lim, (t(0), 2, t(4), true));
    lim.set_burst_at(t(3), 4);
    run_reserve(&mut lim, (t(0), 4, t(9), true)); // violates Limit and Burst
}

// golang.org/x/time rate/rate_test.go TestReserveMax
#[test]
fn test_reserve_max() {
    let mut lim = Limiter::new(Limit(10.0), 2);
    run_reserve_max(&mut lim, (t(0), 2, t(0), true), D);
    run_reserve_max(&mut lim, (t(0), 1, t(1), true), D); // close future
    run_reserve_max(&mut lim, (t(0), 1, t(2), false), D); // too far in the future
}

// golang.org/x/time rate/rate_test.go TestZeroLimit
#[test]
fn test_zero_limit() {
    let mut lim = Limiter::new(Limit(0.0), 1);
    assert!(lim.allow_n(T0, 1), "Limit(0, 1) want true when first used");
    assert!(
        !lim.allow_n(T0, 1),
        "Limit(0, 1) want false when already used"
    );
}

// golang.org/x/time rate/rate_test.go TestTinyLimit
#[test]
fn test_tiny_limit() {
    let mut lim = Limiter::new(Limit(1e-10), 1);
    assert!(
        lim.allow_n(T0, 1),
        "Limit(1e-10, 1) want true when first used"
    );
    assert!(
        !lim.allow_n(T0, 1),
        "Limit(1e-10, 1) want false when already used"
    );
}

#[test]
fn three_qps_waits_a_third_of_a_second_to_the_nanosecond() {
    let mut lim = Limiter::new(Limit(3.0), 1);
    assert_eq!(lim.reserve_n(T0, 1).delay_from(T0), Duration::ZERO);
    let second = lim.reserve_n(T0, 1);
    assert_eq!(second.delay_from(T0), Duration::from_nanos(333_333_333));
    assert_eq!(
        lim.reserve_n(T0, 1).delay_from(T0),
        Duration::from_nanos(666_666_666)
    );
}

#[test]
fn a_burst_of_zero_with_a_finite_limit_never_admits_anyone() {
    let mut lim = Limiter::new(Limit(10.0), 0);
    let never = lim.reserve_n(T0, 1);
    assert!(!never.ok());
    assert_eq!(never.delay_from(T0), INF_DURATION);
    assert!(!lim.allow_n(T0 + Duration::from_secs(3_600), 1));
    // An infinite limit ignores the burst.
    let mut unlimited = Limiter::new(Limit::INF, 0);
    assert_eq!(unlimited.reserve_n(T0, 1).delay_from(T0), Duration::ZERO);
}

#[test]
fn tokens_and_durations_convert_as_upstream() {
    let ten = Limit(10.0);
    assert_eq!(ten.duration_from_tokens(1.0), D);
    assert_eq!(ten.tokens_from_duration(D), 1.0);
    assert_eq!(Limit(0.0).duration_from_tokens(1.0), INF_DURATION);
    assert_eq!(Limit(-1.0).tokens_from_duration(D), 0.0);
    assert_eq!(
        Limit(1e-10).duration_from_tokens(1.0),
        INF_DURATION,
        "capped, not wrapped"
    );
}

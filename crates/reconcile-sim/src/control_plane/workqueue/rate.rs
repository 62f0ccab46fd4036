//! `golang.org/x/time/rate`'s `Limiter` (`rate/rate.go`), as client-go's
//! bucket rate limiter uses it: reservations at an explicit time, in
//! nanoseconds, with upstream's float conversions so delays match to the
//! nanosecond (3 qps waits 333 333 333 ns).

use std::time::Duration;

use super::{Time, INF_DURATION};

/// Events per second (`rate.Limit`).
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
pub struct Limit(pub f64);

impl Limit {
    /// `rate.Inf`: allows every event, even with a burst of 0.
    pub const INF: Limit = Limit(f64::MAX);

    /// `rate.Every`: one event per `interval`; a zero interval is `INF`.
    pub fn every(interval: Duration) -> Limit {
        if interval.is_zero() {
            return Limit::INF;
        }
        Limit(1.0 / go_seconds(interval))
    }

    /// `durationFromTokens`: how long accumulating `tokens` takes.
    pub fn duration_from_tokens(self, tokens: f64) -> Duration {
        if self.0 <= 0.0 {
            return INF_DURATION;
        }
        let nanos = (tokens / self.0) * 1e9;
        // Upstream caps above MaxInt64; exactly 2^63 would overflow Go's
        // conversion, so it is capped here too.
        if nanos >= 9_223_372_036_854_775_808.0 {
            return INF_DURATION;
        }
        // Truncates toward zero, as Go's conversion does; never negative here.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        Duration::from_nanos(nanos as u64)
    }

    /// `tokensFromDuration`: tokens accumulated during `d`.
    pub fn tokens_from_duration(self, d: Duration) -> f64 {
        if self.0 <= 0.0 {
            return 0.0;
        }
        go_seconds(d) * self.0
    }
}

/// Go's `Duration.Seconds`: whole seconds plus nanoseconds / 1e9, which is
/// not always the same float as nanoseconds / 1e9.
#[allow(clippy::cast_precision_loss)]
fn go_seconds(d: Duration) -> f64 {
    d.as_secs() as f64 + f64::from(d.subsec_nanos()) / 1e9
}

/// A token bucket of `burst` tokens, full at first, refilled at `limit` per second.
#[derive(Debug, Clone)]
pub struct Limiter {
    limit: Limit,
    burst: u32,
    tokens: f64,
    /// When `tokens` was last updated. Upstream starts at the zero time, long
    /// before any call; 0 does the same here, since the bucket starts full.
    last: Time,
    // Upstream's `lastEvent` only serves `Cancel`, which is not modelled.
}

/// What `reserve_n` granted (`rate.Reservation`, without `Cancel`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reservation {
    ok: bool,
    time_to_act: Time,
}

impl Reservation {
    /// False if the tokens can never be had (more than the burst, or later than allowed).
    pub fn ok(&self) -> bool {
        self.ok
    }

    /// When the reserved event may happen; meaningless when not `ok`.
    pub fn time_to_act(&self) -> Time {
        self.time_to_act
    }

    /// `DelayFrom`: the wait from `t`; `INF_DURATION` when not `ok`.
    pub fn delay_from(&self, t: Time) -> Duration {
        if !self.ok {
            return INF_DURATION;
        }
        self.time_to_act.saturating_sub(t).min(INF_DURATION)
    }
}

impl Limiter {
    /// `NewLimiter(r, b)`.
    pub fn new(limit: Limit, burst: u32) -> Self {
        Self {
            limit,
            burst,
            tokens: f64::from(burst),
            last: Time::ZERO,
        }
    }

    pub fn limit(&self) -> Limit {
        self.limit
    }

    pub fn burst(&self) -> u32 {
        self.burst
    }

    /// `TokensAt`: the tokens available at `t` (changes nothing).
    pub fn tokens_at(&self, t: Time) -> f64 {
        self.advance(t)
    }

    /// `AllowN`: takes `n` tokens at `t` if they are there now.
    pub fn allow_n(&mut self, t: Time, n: u32) -> bool {
        self.reserve_n_max(t, n, Duration::ZERO).ok
    }

    /// `ReserveN`: `n` tokens at `t`, waiting as long as it takes.
    pub fn reserve_n(&mut self, t: Time, n: u32) -> Reservation {
        self.reserve_n_max(t, n, INF_DURATION)
    }

    /// `reserveN`: fails (and changes nothing) if the wait would exceed
    /// `max_future_reserve` or `n` exceeds the burst.
    pub fn reserve_n_max(&mut self, t: Time, n: u32, max_future_reserve: Duration) -> Reservation {
        if self.limit == Limit::INF {
            return Reservation {
                ok: true,
                time_to_act: t,
            };
        }
        let tokens = self.advance(t) - f64::from(n);
        let wait = if tokens < 0.0 {
            self.limit.duration_from_tokens(-tokens)
        } else {
            Duration::ZERO
        };
        let ok = n <= self.burst && wait <= max_future_reserve;
        let time_to_act = t.saturating_add(wait);
        if ok {
            self.last = t;
            self.tokens = tokens;
        }
        Reservation { ok, time_to_act }
    }

    /// `SetLimitAt`.
    pub fn set_limit_at(&mut self, t: Time, limit: Limit) {
        self.tokens = self.advance(t);
        self.last = t;
        self.limit = limit;
    }

    /// `SetBurstAt`.
    pub fn set_burst_at(&mut self, t: Time, burst: u32) {
        self.tokens = self.advance(t);
        self.last = t;
        self.burst = burst;
    }

    /// `advance`: tokens at `t`; a `t` before `last` counts as no time passed.
    fn advance(&self, t: Time) -> f64 {
        let elapsed = t.saturating_sub(self.last).min(INF_DURATION);
        let tokens = self.tokens + self.limit.tokens_from_duration(elapsed);
        let burst = f64::from(self.burst);
        // Not `f64::min`, which would turn a NaN into the burst.
        if tokens > burst {
            burst
        } else {
            tokens
        }
    }
}

#[cfg(test)]
#[path = "rate_tests.rs"]
mod tests;

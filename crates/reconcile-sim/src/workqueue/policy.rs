//! The playground's backoff settings ([`BackoffPolicy`], its JSON wire form)
//! and the rate limiter the engine builds from them.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::Millis;

/// How a failed key is requeued.
///
/// Deserializes through [`RawBackoff`], a flat struct: serde's internally
/// tagged enums buffer their input generically, which costs the page ~20 KB of wasm.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "policy", rename_all = "kebab-case", try_from = "RawBackoff")]
pub enum BackoffPolicy {
    /// client-go's `DefaultControllerRateLimiter`: the larger of per-item
    /// exponential backoff (`base_ms · 2^failures`, capped at `max_ms`) and an
    /// overall token bucket (`qps`, `burst`).
    ClientGo {
        base_ms: u64,
        max_ms: u64,
        qps: f64,
        burst: u32,
    },
    /// kube-rs style `Action::requeue(Duration)` from an error policy: always the same delay.
    FixedDelay { delay_ms: u64 },
}

/// The wire form of [`BackoffPolicy`]: `{"policy": "client-go" | "fixed-delay", ...}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBackoff {
    policy: String,
    base_ms: Option<u64>,
    max_ms: Option<u64>,
    qps: Option<f64>,
    burst: Option<u32>,
    delay_ms: Option<u64>,
}

impl TryFrom<RawBackoff> for BackoffPolicy {
    type Error = String;

    fn try_from(raw: RawBackoff) -> Result<Self, String> {
        let missing = |field: &str| format!("backoff policy \"{}\" needs \"{field}\"", raw.policy);
        match raw.policy.as_str() {
            "client-go" => Ok(BackoffPolicy::ClientGo {
                base_ms: raw.base_ms.ok_or_else(|| missing("base_ms"))?,
                max_ms: raw.max_ms.ok_or_else(|| missing("max_ms"))?,
                qps: raw.qps.ok_or_else(|| missing("qps"))?,
                burst: raw.burst.ok_or_else(|| missing("burst"))?,
            }),
            "fixed-delay" => Ok(BackoffPolicy::FixedDelay {
                delay_ms: raw.delay_ms.ok_or_else(|| missing("delay_ms"))?,
            }),
            other => Err(format!(
                "unknown backoff policy \"{other}\"; expected \"client-go\" or \"fixed-delay\""
            )),
        }
    }
}

impl Default for BackoffPolicy {
    /// client-go's defaults: 5 ms doubling to 1000 s; 10 qps with a burst of 100.
    fn default() -> Self {
        BackoffPolicy::ClientGo {
            base_ms: 5,
            max_ms: 1_000_000,
            qps: 10.0,
            burst: 100,
        }
    }
}

impl BackoffPolicy {
    /// The per-item delay after `failures` earlier failures, ignoring the bucket:
    /// what the backoff curve shows.
    pub fn item_delay(&self, failures: u32) -> Millis {
        match *self {
            BackoffPolicy::ClientGo {
                base_ms, max_ms, ..
            } => {
                let factor = 1u64.checked_shl(failures).unwrap_or(u64::MAX);
                base_ms.saturating_mul(factor).min(max_ms)
            }
            BackoffPolicy::FixedDelay { delay_ms } => delay_ms,
        }
    }
}

/// The rate limiter state behind `AddRateLimited`, `Forget` and `NumRequeues`.
#[derive(Debug, Clone)]
pub struct RateLimiter<K: Ord + Clone> {
    policy: BackoffPolicy,
    failures: BTreeMap<K, u32>,
    bucket: TokenBucket,
}

impl<K: Ord + Clone> RateLimiter<K> {
    pub fn new(policy: BackoffPolicy) -> Self {
        let bucket = match policy {
            BackoffPolicy::ClientGo { qps, burst, .. } => TokenBucket::new(qps, burst),
            // No bucket: an unlimited one never delays.
            BackoffPolicy::FixedDelay { .. } => TokenBucket::new(f64::INFINITY, u32::MAX),
        };
        Self {
            policy,
            failures: BTreeMap::new(),
            bucket,
        }
    }

    /// The delay before `key` may be retried, counting this failure.
    pub fn when(&mut self, key: &K, now: Millis) -> Millis {
        let failures = self.failures.entry(key.clone()).or_insert(0);
        let item = self.policy.item_delay(*failures);
        *failures = failures.saturating_add(1);
        let overall = self.bucket.reserve(now);
        item.max(overall)
    }

    /// Forgets the failures of `key` (after a success).
    pub fn forget(&mut self, key: &K) {
        self.failures.remove(key);
    }

    pub fn num_requeues(&self, key: &K) -> u32 {
        self.failures.get(key).copied().unwrap_or(0)
    }
}

/// `golang.org/x/time/rate`'s limiter as client-go uses it: every reservation
/// takes a token; if none is left, it waits until one would be.
#[derive(Debug, Clone)]
struct TokenBucket {
    per_ms: f64,
    burst: f64,
    tokens: f64,
    last: Millis,
}

impl TokenBucket {
    fn new(qps: f64, burst: u32) -> Self {
        let burst = f64::from(burst);
        Self {
            per_ms: qps / 1000.0,
            burst,
            tokens: burst,
            last: 0,
        }
    }

    #[allow(
        clippy::cast_precision_loss,
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss
    )]
    fn reserve(&mut self, now: Millis) -> Millis {
        if self.per_ms.is_infinite() {
            return 0;
        }
        let elapsed = now.saturating_sub(self.last) as f64;
        self.tokens = (self.tokens + elapsed * self.per_ms).min(self.burst);
        self.last = self.last.max(now);
        self.tokens -= 1.0;
        if self.tokens >= 0.0 {
            0
        } else {
            (-self.tokens / self.per_ms).ceil() as Millis
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_go_backoff_doubles_from_5ms_to_1000s() {
        let policy = BackoffPolicy::default();
        assert_eq!(policy.item_delay(0), 5);
        assert_eq!(policy.item_delay(1), 10);
        assert_eq!(policy.item_delay(10), 5 * 1024);
        assert_eq!(
            policy.item_delay(18),
            1_000_000,
            "5 ms * 2^18 > 1000 s, so capped"
        );
        assert_eq!(policy.item_delay(200), 1_000_000);
        let mut limiter = RateLimiter::new(policy);
        assert_eq!(limiter.when(&"k", 0), 5);
        assert_eq!(limiter.when(&"k", 0), 10);
        assert_eq!(limiter.num_requeues(&"k"), 2);
        limiter.forget(&"k");
        assert_eq!(limiter.when(&"k", 0), 5, "reset on success");
    }

    #[test]
    fn token_bucket_allows_a_burst_then_paces_at_qps() {
        let mut limiter = RateLimiter::new(BackoffPolicy::ClientGo {
            base_ms: 0,
            max_ms: 0,
            qps: 10.0,
            burst: 3,
        });
        let delays: Vec<Millis> = (0..5).map(|i| limiter.when(&i, 0)).collect();
        assert_eq!(delays, vec![0, 0, 0, 100, 200]);
        // After a second the bucket has refilled by 10 tokens, capped at the burst of 3.
        assert_eq!(limiter.when(&9, 10_000), 0);
    }

    #[test]
    fn fixed_delay_ignores_failures() {
        let mut limiter = RateLimiter::new(BackoffPolicy::FixedDelay { delay_ms: 5_000 });
        assert_eq!(limiter.when(&"k", 0), 5_000);
        assert_eq!(limiter.when(&"k", 0), 5_000);
    }
}

//! client-go's work queue and rate limiters, on a simulated clock.
//!
//! Modelled on `k8s.io/client-go/util/workqueue`: `queue.go` (the dirty and
//! processing sets), `default_rate_limiters.go` (per-item exponential backoff,
//! the token bucket, and `DefaultControllerRateLimiter`, their maximum).
//!
//! Guarantees:
//! - A key is never handed out twice at once: an `add` while it is processing
//!   is deferred until `done`, then queued once.
//! - Duplicate adds of a queued key collapse into one.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use serde::{Deserialize, Serialize};

/// Simulated milliseconds since the simulation started.
pub type Millis = u64;

/// What `add` did with a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum AddOutcome {
    Queued,
    /// Already waiting in the queue; nothing changes.
    AlreadyQueued,
    /// Being processed; it will be queued again when processing is done.
    Deferred,
}

/// A FIFO of keys with client-go's dirty/processing semantics.
#[derive(Debug, Clone)]
pub struct WorkQueue<K: Ord + Clone> {
    queue: VecDeque<K>,
    dirty: BTreeSet<K>,
    processing: BTreeSet<K>,
}

impl<K: Ord + Clone> Default for WorkQueue<K> {
    fn default() -> Self {
        Self {
            queue: VecDeque::new(),
            dirty: BTreeSet::new(),
            processing: BTreeSet::new(),
        }
    }
}

impl<K: Ord + Clone> WorkQueue<K> {
    pub fn add(&mut self, key: K) -> AddOutcome {
        if self.dirty.contains(&key) {
            return if self.processing.contains(&key) {
                AddOutcome::Deferred
            } else {
                AddOutcome::AlreadyQueued
            };
        }
        self.dirty.insert(key.clone());
        if self.processing.contains(&key) {
            return AddOutcome::Deferred;
        }
        self.queue.push_back(key);
        AddOutcome::Queued
    }

    /// Takes the next key and marks it processing.
    pub fn get(&mut self) -> Option<K> {
        let key = self.queue.pop_front()?;
        self.dirty.remove(&key);
        self.processing.insert(key.clone());
        Some(key)
    }

    /// Ends processing of `key`; returns true if a deferred add queued it again.
    /// A key that is not processing is left alone: it is queued already if dirty.
    pub fn done(&mut self, key: &K) -> bool {
        if self.processing.remove(key) && self.dirty.contains(key) {
            self.queue.push_back(key.clone());
            true
        } else {
            false
        }
    }

    pub fn len(&self) -> usize {
        self.queue.len()
    }

    pub fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }

    pub fn is_processing(&self, key: &K) -> bool {
        self.processing.contains(key)
    }
}

/// How a failed key is requeued.
///
/// Deserializes through [`RawBackoff`], a flat struct: serde's internally
/// tagged enums buffer their input generically, which costs the page ~20 KB of wasm.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(
    tag = "policy",
    rename_all = "kebab-case",
    rename_all_fields = "camelCase",
    try_from = "RawBackoff"
)]
pub enum BackoffPolicy {
    /// client-go's `DefaultControllerRateLimiter`: the larger of per-item
    /// exponential backoff (`baseMs · 2^failures`, capped at `maxMs`) and an
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
/// The snake_case names earlier builds wrote (`base_ms`) are still read.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct RawBackoff {
    policy: String,
    #[serde(alias = "base_ms")]
    base_ms: Option<u64>,
    #[serde(alias = "max_ms")]
    max_ms: Option<u64>,
    qps: Option<f64>,
    burst: Option<u32>,
    #[serde(alias = "delay_ms")]
    delay_ms: Option<u64>,
}

impl TryFrom<RawBackoff> for BackoffPolicy {
    type Error = String;

    fn try_from(raw: RawBackoff) -> Result<Self, String> {
        let missing = |field: &str| format!("backoff policy \"{}\" needs \"{field}\"", raw.policy);
        match raw.policy.as_str() {
            "client-go" => Ok(BackoffPolicy::ClientGo {
                base_ms: raw.base_ms.ok_or_else(|| missing("baseMs"))?,
                max_ms: raw.max_ms.ok_or_else(|| missing("maxMs"))?,
                qps: raw.qps.ok_or_else(|| missing("qps"))?,
                burst: raw.burst.ok_or_else(|| missing("burst"))?,
            }),
            "fixed-delay" => Ok(BackoffPolicy::FixedDelay {
                delay_ms: raw.delay_ms.ok_or_else(|| missing("delayMs"))?,
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
    fn dirty_and_processing_sets_defer_and_dedupe() {
        let mut queue = WorkQueue::default();
        assert_eq!(queue.add("cr"), AddOutcome::Queued);
        assert_eq!(queue.add("cr"), AddOutcome::AlreadyQueued);
        assert_eq!(queue.len(), 1);
        assert_eq!(queue.get(), Some("cr"));
        assert!(queue.is_processing(&"cr"));
        assert_eq!(queue.add("cr"), AddOutcome::Deferred);
        assert_eq!(queue.add("cr"), AddOutcome::Deferred);
        assert_eq!(queue.get(), None, "never handed out twice at once");
        assert!(queue.done(&"cr"), "deferred add is queued on done");
        assert_eq!(queue.len(), 1);
        assert_eq!(queue.get(), Some("cr"));
        assert!(!queue.done(&"cr"));
        assert!(queue.is_empty());
    }

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

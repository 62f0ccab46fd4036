//! The playground's backoff settings ([`BackoffPolicy`], its JSON wire form)
//! and the rate limiter the engine builds from them.

use std::fmt;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::kube_runner::Action;
use super::rate::Limit;
use super::rate_limiter::{
    BucketRateLimiter, ItemExponentialFailureRateLimiter, ItemFastSlowRateLimiter,
    MaxOfRateLimiter, TypedRateLimiter,
};
use super::{Millis, INF_DURATION};

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
    /// what the backoff curve shows. Rounded up to whole milliseconds.
    pub fn item_delay(&self, failures: u32) -> Millis {
        match *self {
            BackoffPolicy::ClientGo {
                base_ms, max_ms, ..
            } => {
                let (base, max) = (
                    Duration::from_millis(base_ms),
                    Duration::from_millis(max_ms),
                );
                to_millis(ItemExponentialFailureRateLimiter::<()>::backoff(
                    base, max, failures,
                ))
            }
            BackoffPolicy::FixedDelay { delay_ms } => delay_ms,
        }
    }

    /// The faithful rate limiter: `ClientGo` is client-go's
    /// `MaxOfRateLimiter(ItemExponentialFailureRateLimiter, BucketRateLimiter)`
    /// (`DefaultControllerRateLimiter` with these numbers); `FixedDelay` is an
    /// `ItemFastSlowRateLimiter` whose fast and slow delays are the same
    /// (it still counts failures).
    pub fn rate_limiter<K>(&self) -> Box<dyn TypedRateLimiter<K>>
    where
        K: Ord + Clone + fmt::Debug + 'static,
    {
        match *self {
            BackoffPolicy::ClientGo {
                base_ms,
                max_ms,
                qps,
                burst,
            } => Box::new(MaxOfRateLimiter::new(vec![
                Box::new(ItemExponentialFailureRateLimiter::new(
                    Duration::from_millis(base_ms),
                    Duration::from_millis(max_ms),
                )),
                Box::new(BucketRateLimiter::new(Limit(qps), burst)),
            ])),
            BackoffPolicy::FixedDelay { delay_ms } => {
                let delay = Duration::from_millis(delay_ms);
                Box::new(ItemFastSlowRateLimiter::new(delay, delay, 0))
            }
        }
    }
}

impl BackoffPolicy {
    /// The `error_policy` of a kube-rs controller with this policy: `FixedDelay`
    /// is `Action::requeue(delay)`, the same after every failure. `ClientGo`
    /// has none (kube-rs has no rate limiter).
    pub fn kube_error_policy(&self) -> Option<Action> {
        match *self {
            BackoffPolicy::FixedDelay { delay_ms } => {
                Some(Action::requeue(Duration::from_millis(delay_ms)))
            }
            BackoffPolicy::ClientGo { .. } => None,
        }
    }
}

/// Which queue model a controller runs on. Wire form: `"client-go"`,
/// `"controller-runtime-priority"` or `"kube-rs"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "kebab-case")]
pub enum QueueModel {
    /// client-go's rate-limiting queue ([`super::RateLimitingQueue`]); what a
    /// controller-runtime controller gets with `UsePriorityQueue: false`.
    #[default]
    ClientGo,
    /// controller-runtime's default priority queue ([`super::PriorityQueue`]).
    ControllerRuntimePriority,
    /// kube-rs's scheduler and runner ([`super::KubeRunner`]), with the
    /// "fixed-delay" backoff as its `error_policy` (the options reader
    /// refuses it with any other).
    KubeRs,
}

crate::control_plane::unit_names::read_unit_names!(QueueModel {
    ClientGo = "client-go",
    ControllerRuntimePriority = "controller-runtime-priority",
    KubeRs = "kube-rs",
});

impl QueueModel {
    /// The upstream release whose behaviour the model follows.
    pub const fn follows(self) -> &'static str {
        match self {
            QueueModel::ClientGo => "k8s.io/client-go util/workqueue at 32ce75a7d",
            QueueModel::ControllerRuntimePriority => "sigs.k8s.io/controller-runtime v0.24.1",
            QueueModel::KubeRs => "kube-runtime 4.2.0 (kube-rs)",
        }
    }
}

/// A delay in whole milliseconds, rounded up; `INF_DURATION` and beyond
/// (a bucket that never admits) is `Millis::MAX`, which the engine reads as never.
pub fn to_millis(delay: Duration) -> Millis {
    if delay >= INF_DURATION {
        return Millis::MAX;
    }
    let millis = delay.as_nanos().div_ceil(1_000_000);
    Millis::try_from(millis).unwrap_or(Millis::MAX)
}

/// The engine's rate limiter in milliseconds: [`BackoffPolicy::rate_limiter`]
/// behind the interface the engine has used so far.
#[derive(Debug)]
pub struct RateLimiter<K> {
    limiter: Box<dyn TypedRateLimiter<K>>,
}

impl<K: Ord + Clone + fmt::Debug + 'static> RateLimiter<K> {
    pub fn new(policy: BackoffPolicy) -> Self {
        Self {
            limiter: policy.rate_limiter(),
        }
    }

    /// `When`: the delay before `key` may be retried, counting this failure.
    pub fn when(&mut self, key: &K, now: Millis) -> Millis {
        to_millis(self.limiter.when(key, Duration::from_millis(now)))
    }

    /// `Forget`: clears the failures of `key` (after a success).
    pub fn forget(&mut self, key: &K) {
        self.limiter.forget(key);
    }

    pub fn num_requeues(&self, key: &K) -> u32 {
        self.limiter.num_requeues(key)
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
        assert_eq!(limiter.num_requeues(&"k"), 2, "failures still counted");
    }

    #[test]
    fn queue_model_wire_form() {
        let wire = serde_json::to_string(&QueueModel::ControllerRuntimePriority).ok();
        assert_eq!(wire.as_deref(), Some("\"controller-runtime-priority\""));
        let parsed: Result<QueueModel, _> = serde_json::from_str("\"kube-rs\"");
        assert_eq!(parsed.ok(), Some(QueueModel::KubeRs));
        assert_eq!(QueueModel::default(), QueueModel::ClientGo);
    }

    #[test]
    fn delays_round_up_to_milliseconds_and_never_is_the_end_of_time() {
        let mut limiter = RateLimiter::new(BackoffPolicy::ClientGo {
            base_ms: 0,
            max_ms: 0,
            qps: 3.0,
            burst: 1,
        });
        assert_eq!(limiter.when(&1, 0), 0);
        assert_eq!(limiter.when(&2, 0), 334, "333.333333 ms");
        let mut never = RateLimiter::new(BackoffPolicy::ClientGo {
            base_ms: 5,
            max_ms: 1_000,
            qps: 10.0,
            burst: 0,
        });
        assert_eq!(never.when(&1, 0), Millis::MAX);
    }
}

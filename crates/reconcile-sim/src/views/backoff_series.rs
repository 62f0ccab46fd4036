//! The backoff plot's data: each failure of the controller's key, the delay
//! its requeue actually took, against the delay the backoff policy gives
//! for that many failures in a row.
//!
//! # Guarantees
//! - One point per failed pass (a pass with a failed action), in order.
//! - `failure` counts the key's failures in a row, as the rate limiter does:
//!   a pass that ends without an error forgets them (`Forget` in
//!   controller-runtime's `reconcileHandler`), and a crash starts a fresh
//!   queue and limiter with the restarted process.
//! - `policy_delay` is [`BackoffPolicy::item_delay`] for the failures before
//!   this one: client-go's `ItemExponentialFailureRateLimiter.When` computes
//!   `baseDelay · 2^failures` with the count before it bumps it.
//! - `scheduled` is when the queue made the key ready again minus when the
//!   pass failed (the timeline's `requeued_at`); `actual` is when the pass
//!   that requeue brought started minus when the pass failed: later than
//!   `scheduled` when the worker was busy with the key.
//! - `decided` says what set the scheduled delay: the curve, its cap, the
//!   token bucket (a longer wait than the curve's), an earlier requeue the
//!   key was already waiting for (one waiting entry per key), or nothing
//!   (a crash lost the requeue).
//!
//! # Caveats
//! - One key, the custom resource's: the engine has one.
//! - The requeue's pass is the first later pass that a requeue triggered and
//!   that started no sooner than the key was ready; a watch event may have
//!   run the key before it (`sooner`). No such pass (`retry` is `None`):
//!   the run ended first, a crash lost the requeue, or kube-rs dropped it
//!   because an event ran the object meanwhile.

use crate::ownership::CUSTOM_RESOURCE;
use crate::workqueue::{BackoffPolicy, Millis};
use crate::{ActionResult, PassRecord, Timeline, Trigger};

/// What set a requeue's delay.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DelaySetBy {
    /// The policy's per-item delay for this failure.
    Curve,
    /// The per-item delay reached the policy's maximum.
    Cap,
    /// client-go's token bucket (shared by all keys) asked for a longer wait.
    Bucket,
    /// The key already waited for an earlier requeue: the queue keeps one
    /// waiting entry per key, at the earlier time.
    EarlierRequeue,
    /// The controller crashed in the same pass: the requeue was lost with it.
    LostInCrash,
}

impl DelaySetBy {
    /// Words for the plot and its table.
    pub fn words(self) -> &'static str {
        match self {
            DelaySetBy::Curve => "the curve",
            DelaySetBy::Cap => "the cap",
            DelaySetBy::Bucket => "the token bucket",
            DelaySetBy::EarlierRequeue => "an earlier requeue already waiting",
            DelaySetBy::LostInCrash => "lost in a crash",
        }
    }
}

/// The pass a requeue brought.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Retry {
    pub pass: usize,
    pub started_at: Millis,
}

/// One failure of the key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BackoffPoint {
    /// The key's failures in a row, this one included (from 1).
    pub failure: u32,
    /// The pass that failed.
    pub pass: usize,
    /// When it ended, and the queue was asked for the requeue.
    pub failed_at: Millis,
    /// The policy's delay for this failure.
    pub policy_delay: Millis,
    /// When the key was ready again, after `failed_at`; `None` when lost.
    pub scheduled: Option<Millis>,
    pub retry: Option<Retry>,
    /// A pass that ran the key before its requeue did (a watch event's, or
    /// an earlier failure's requeue).
    pub sooner: Option<usize>,
    pub set_by: DelaySetBy,
}

impl BackoffPoint {
    /// How long the key actually waited for its requeue's pass.
    pub fn actual(&self) -> Option<Millis> {
        self.retry
            .map(|r| r.started_at.saturating_sub(self.failed_at))
    }
}

/// Every failure of the key in a run, with the policy that spaced them.
#[derive(Debug, Clone, PartialEq)]
pub struct BackoffSeries {
    pub key: &'static str,
    pub policy: BackoffPolicy,
    pub points: Vec<BackoffPoint>,
}

impl BackoffSeries {
    /// The failures of `timeline`, run under `policy`.
    pub fn of(timeline: &Timeline, policy: &BackoffPolicy) -> Self {
        let mut points = Vec::new();
        let mut in_a_row = 0u32;
        for (i, pass) in timeline.passes.iter().enumerate() {
            match failed_requeue(pass) {
                Some(requeued_at) => {
                    in_a_row = in_a_row.saturating_add(1);
                    let later = &timeline.passes[i + 1..];
                    points.push(point(pass, requeued_at, in_a_row, policy, later));
                }
                None => in_a_row = 0,
            }
            if pass.crashed {
                in_a_row = 0;
            }
        }
        Self {
            key: CUSTOM_RESOURCE,
            policy: policy.clone(),
            points,
        }
    }

    /// The policy's delays after 1..=`failures` failures in a row.
    pub fn curve(&self, failures: u32) -> Vec<Millis> {
        (0..failures).map(|n| self.policy.item_delay(n)).collect()
    }

    /// The first failure (from 1) whose delay is the policy's cap, if it
    /// has one: 5 ms·2ⁿ passes 1000 s at the 19th.
    pub fn capped_from(&self) -> Option<u32> {
        let BackoffPolicy::ClientGo {
            base_ms, max_ms, ..
        } = self.policy
        else {
            return None;
        };
        (0..64u32)
            .find(|n| u128::from(base_ms) << n >= u128::from(max_ms))
            .map(|n| n + 1)
    }
}

/// When a failed pass's requeue made the key ready; `None` when it did not fail.
fn failed_requeue(pass: &PassRecord) -> Option<Millis> {
    pass.actions
        .iter()
        .find_map(|outcome| match outcome.result {
            ActionResult::Failed { requeued_at, .. } => Some(requeued_at),
            _ => None,
        })
}

fn point(
    pass: &PassRecord,
    requeued_at: Millis,
    failure: u32,
    policy: &BackoffPolicy,
    later: &[PassRecord],
) -> BackoffPoint {
    let failed_at = pass.finished_at;
    let policy_delay = policy.item_delay(failure - 1);
    let scheduled = (!pass.crashed).then(|| requeued_at.saturating_sub(failed_at));
    let retry = scheduled.and_then(|_| {
        later
            .iter()
            .find(|p| matches!(p.trigger, Trigger::Requeue { .. }) && p.started_at >= requeued_at)
            .map(|p| Retry {
                pass: p.index,
                started_at: p.started_at,
            })
    });
    let next = later.first().map(|p| p.index);
    let sooner = next.filter(|n| scheduled.is_some() && retry.is_none_or(|r| r.pass > *n));
    let capped =
        matches!(*policy, BackoffPolicy::ClientGo { max_ms, .. } if policy_delay >= max_ms);
    let set_by = match scheduled {
        None => DelaySetBy::LostInCrash,
        Some(delay) if delay > policy_delay => DelaySetBy::Bucket,
        Some(delay) if delay < policy_delay => DelaySetBy::EarlierRequeue,
        Some(_) if capped => DelaySetBy::Cap,
        Some(_) => DelaySetBy::Curve,
    };
    BackoffPoint {
        failure,
        pass: pass.index,
        failed_at,
        policy_delay,
        scheduled,
        retry,
        sooner,
        set_by,
    }
}

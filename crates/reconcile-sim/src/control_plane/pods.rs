//! Graceful deletion of pods: which objects get a grace period, and how long.
//!
//! Follows `pkg/registry/core/pod/strategy.go` (`podStrategy.CheckGracefulDelete`)
//! and the grace-period half of `k8s.io/apiserver` `pkg/registry/rest/delete.go`
//! (`BeforeDelete`). Only pods have a graceful strategy: every other kind is
//! removed at once, or waits for its finalizers ([`crate::apiserver`]).
//!
//! # Caveats
//! - A pod is an object whose spec is a `v1` `Pod` manifest (a manifest
//!   document's `Pod/namespace/name`). A `{name: spec}` document's objects are
//!   of a generic kind, whatever they are named.
//! - The playground does not default pod specs: an absent
//!   `terminationGracePeriodSeconds` counts as `SetDefaults_PodSpec`'s 30.
//! - `status.phase` is read when the spec carries one; manifests usually
//!   leave status out, so a scheduled pod counts as running.

use reconcile_core::json::Json;

use super::workqueue::Millis;

/// `v1.DefaultTerminationGracePeriodSeconds`, which `SetDefaults_PodSpec` fills in.
pub const DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS: i64 = 30;

/// Whether `spec` is a pod's: a `v1` object of kind `Pod`.
pub fn is_pod(spec: &Json) -> bool {
    spec.get("apiVersion").and_then(Json::as_str) == Some("v1")
        && spec.get("kind").and_then(Json::as_str) == Some("Pod")
}

/// `podStrategy.CheckGracefulDelete`: the grace period of a delete of the
/// object `spec`, in seconds, with `requested` the request's
/// `gracePeriodSeconds`; `None` for a kind without graceful deletion.
///
/// A pod not scheduled to a node (no `spec.nodeName`), or already Succeeded
/// or Failed, gets 0: no kubelet runs its containers. A negative period is 1
/// (`BeforeDelete`: "Negative values will be treated as the value `1s`").
pub fn grace_period(spec: &Json, requested: Option<i64>) -> Option<i64> {
    if !is_pod(spec) {
        return None;
    }
    let pod = spec.get("spec");
    let own = pod
        .and_then(|p| p.get("terminationGracePeriodSeconds"))
        .and_then(integer)
        .unwrap_or(DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS);
    let mut period = requested.unwrap_or(own);
    let node = pod.and_then(|p| p.get("nodeName")).and_then(Json::as_str);
    if node.is_none_or(str::is_empty) {
        period = 0;
    }
    let phase = spec
        .get("status")
        .and_then(|s| s.get("phase"))
        .and_then(Json::as_str);
    if matches!(phase, Some("Succeeded" | "Failed")) {
        period = 0;
    }
    Some(if period < 0 { 1 } else { period })
}

/// What a delete does to a deletion already under way (`BeforeDelete`, for
/// an object with a deletionTimestamp).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PendingDelete {
    /// No grace period is running (none, or 0): the request goes on to the
    /// finalizers, as for any kind.
    NotGraceful,
    /// The grace period stands: only a shorter one may be requested.
    /// Nothing is written.
    Pending,
    /// The request shortens the grace period to this many seconds.
    Shorten(i64),
}

/// `BeforeDelete` on an object already being deleted with `current` seconds
/// of grace, for a request asking `requested`.
pub fn pending_delete(current: Option<i64>, requested: Option<i64>) -> PendingDelete {
    let Some(current) = current.filter(|c| *c != 0) else {
        return PendingDelete::NotGraceful;
    };
    match requested.map(|p| if p < 0 { 1 } else { p }) {
        Some(period) if period < current => PendingDelete::Shorten(period),
        _ => PendingDelete::Pending,
    }
}

/// A grace period in the simulation's milliseconds (a negative one is 0).
pub fn seconds_ms(seconds: i64) -> Millis {
    Millis::try_from(seconds.max(0))
        .unwrap_or(Millis::MAX)
        .saturating_mul(1000)
}

fn integer(value: &Json) -> Option<i64> {
    match value {
        Json::Number(n) => {
            let f = n.as_f64();
            // Whole seconds only; validation refuses anything else upstream.
            #[allow(clippy::cast_possible_truncation)]
            (f.fract() == 0.0 && f.abs() < 9.0e15).then_some(f as i64)
        }
        _ => None,
    }
}

#[cfg(test)]
#[path = "pods_tests.rs"]
mod tests;

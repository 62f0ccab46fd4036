//! A learner's client call, and what can go wrong with it. Start at
//! [`ClientCall`].
//!
//! The calls are issue 30's client: controller-runtime's `client.Client`
//! (`pkg/client/interfaces.go`) with plain JSON objects. Errors are
//! apimachinery's `StatusError`s (`pkg/api/errors/errors.go`): a status
//! code and a reason. A call the exercise cannot take (an object without
//! a name, a kind it does not have) is a [`CallError::Misuse`] naming the
//! call, never a panic.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::apiserver::ApiError;
use crate::control_plane::propagation::PropagationPolicy;
use crate::patch::PatchType;

/// Where a `get` reads.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum Read {
    /// The informer's cache: free, maybe stale (controller-runtime's
    /// default client, `CacheReader.Get`).
    #[default]
    Cache,
    /// The API server (`APIReader`): one request on the clock.
    Live,
}

/// How a patch body reads.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum PatchKind {
    /// `application/merge-patch+json`.
    #[default]
    Merge,
    /// `application/json-patch+json`.
    Json,
}

impl From<PatchKind> for PatchType {
    fn from(kind: PatchKind) -> Self {
        match kind {
            PatchKind::Merge => PatchType::Merge,
            PatchKind::Json => PatchType::Json,
        }
    }
}

/// One call of the learner's client, as JSON names it:
/// `{"method": "get", "kind": "ConfigMap", "name": "shop-config"}`.
/// A missing `namespace` is the request's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(
    tag = "method",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum ClientCall {
    Get {
        kind: String,
        name: String,
        #[serde(default)]
        namespace: Option<String>,
        #[serde(default)]
        read: Read,
    },
    List {
        kind: String,
        #[serde(default)]
        namespace: Option<String>,
        /// Equality selectors on `metadata.labels`.
        #[serde(default)]
        #[cfg_attr(
            feature = "ts",
            ts(as = "std::collections::BTreeMap<String, reconcile_core::json::Json>")
        )]
        labels: serde_json::Map<String, Value>,
    },
    Create {
        #[cfg_attr(feature = "ts", ts(as = "reconcile_core::json::Json"))]
        object: Value,
    },
    Update {
        #[cfg_attr(feature = "ts", ts(as = "reconcile_core::json::Json"))]
        object: Value,
    },
    Patch {
        kind: String,
        name: String,
        #[serde(default)]
        namespace: Option<String>,
        #[cfg_attr(feature = "ts", ts(as = "reconcile_core::json::Json"))]
        patch: Value,
        #[serde(default, rename = "type")]
        patch_type: PatchKind,
        /// A precondition: `MergeFromWithOptimisticLock`.
        #[serde(default)]
        resource_version: Option<String>,
    },
    Apply {
        #[cfg_attr(feature = "ts", ts(as = "reconcile_core::json::Json"))]
        object: Value,
        field_manager: String,
        #[serde(default)]
        force: bool,
    },
    Delete {
        kind: String,
        name: String,
        #[serde(default)]
        namespace: Option<String>,
        /// `metav1.DeletionPropagation` (`Orphan`, `Background`,
        /// `Foreground`, in any case); the kind's default when left out.
        #[serde(default, deserialize_with = "propagation_in_any_case")]
        propagation_policy: Option<PropagationPolicy>,
    },
    UpdateStatus {
        #[cfg_attr(feature = "ts", ts(as = "reconcile_core::json::Json"))]
        object: Value,
    },
    PatchStatus {
        kind: String,
        name: String,
        #[serde(default)]
        namespace: Option<String>,
        #[cfg_attr(feature = "ts", ts(as = "reconcile_core::json::Json"))]
        patch: Value,
    },
    /// The cloud's load balancer `name`: created unless it exists.
    EnsureLoadBalancer { name: String },
    /// The load balancer `name`, or `null` when there is none.
    GetLoadBalancer { name: String },
    /// Deletes load balancer `name`: 404 NotFound when there is none.
    DeleteLoadBalancer { name: String },
}

impl ClientCall {
    /// The method's name, as the learner's client spells it.
    pub fn method(&self) -> &'static str {
        match self {
            ClientCall::Get { .. } => "get",
            ClientCall::List { .. } => "list",
            ClientCall::Create { .. } => "create",
            ClientCall::Update { .. } => "update",
            ClientCall::Patch { .. } => "patch",
            ClientCall::Apply { .. } => "apply",
            ClientCall::Delete { .. } => "delete",
            ClientCall::UpdateStatus { .. } => "updateStatus",
            ClientCall::PatchStatus { .. } => "patchStatus",
            ClientCall::EnsureLoadBalancer { .. } => "ensureLoadBalancer",
            ClientCall::GetLoadBalancer { .. } => "getLoadBalancer",
            ClientCall::DeleteLoadBalancer { .. } => "deleteLoadBalancer",
        }
    }

    /// A call read from JSON, as a binding hands it over: a misuse error
    /// naming the call when the method is unknown or a field is wrong.
    pub fn from_json(value: Value) -> Result<Self, CallError> {
        let Some(named) = value.get("method").and_then(Value::as_str) else {
            return Err(CallError::misuse(
                "call",
                "a client call is an object with a method, such as {\"method\": \"get\", ...}",
            ));
        };
        let Some(method) = METHODS.into_iter().find(|m| *m == named) else {
            return Err(CallError::misuse(
                "call",
                format!("no method {named:?}; the client has {}", METHODS.join(", ")),
            ));
        };
        serde_json::from_value(value).map_err(|error| CallError::misuse(method, error.to_string()))
    }

    /// Whether it asks the API server to change something: a write,
    /// whether or not it succeeds.
    pub fn writes(&self) -> bool {
        !matches!(
            self,
            ClientCall::Get { .. } | ClientCall::List { .. } | ClientCall::GetLoadBalancer { .. }
        )
    }

    /// Whether it goes to the cloud, not the API server.
    pub fn is_cloud(&self) -> bool {
        matches!(
            self,
            ClientCall::EnsureLoadBalancer { .. }
                | ClientCall::GetLoadBalancer { .. }
                | ClientCall::DeleteLoadBalancer { .. }
        )
    }
}

/// A propagation policy as upstream spells it (`Foreground`), or as the
/// playground's settings do (`foreground`).
fn propagation_in_any_case<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<PropagationPolicy>, D::Error> {
    let Some(text) = Option::<String>::deserialize(deserializer)? else {
        return Ok(None);
    };
    match text.to_ascii_lowercase().as_str() {
        "orphan" => Ok(Some(PropagationPolicy::Orphan)),
        "background" => Ok(Some(PropagationPolicy::Background)),
        "foreground" => Ok(Some(PropagationPolicy::Foreground)),
        _ => Err(serde::de::Error::custom(format!(
            "propagationPolicy is \"Orphan\", \"Background\" or \"Foreground\", not {text:?}"
        ))),
    }
}

/// The client's methods, as JSON and the learner's client name them.
pub const METHODS: [&str; 12] = [
    "get",
    "list",
    "create",
    "update",
    "patch",
    "apply",
    "delete",
    "updateStatus",
    "patchStatus",
    "ensureLoadBalancer",
    "getLoadBalancer",
    "deleteLoadBalancer",
];

/// A refused request: apimachinery's `StatusError`, as the learner sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ApiFailure {
    /// The HTTP status: 400, 404, 409, 422 or 503.
    pub status: u16,
    /// `metav1.StatusReason`: `NotFound`, `AlreadyExists`, `Conflict`,
    /// `Invalid`, `BadRequest`, `ServiceUnavailable`.
    pub reason: &'static str,
    pub message: String,
}

impl ApiFailure {
    /// The API server's error, its store key `key` shown as the object's
    /// own `name`.
    pub fn of(error: &ApiError, key: &str, name: &str) -> Self {
        let reason = match error {
            ApiError::NotFound { .. } => "NotFound",
            ApiError::AlreadyExists { .. } => "AlreadyExists",
            ApiError::Conflict { .. } | ApiError::ApplyConflict { .. } => "Conflict",
            ApiError::NewFinalizersWhileDeleting { .. }
            | ApiError::ConflictingGcFinalizers { .. }
            | ApiError::Invalid { .. } => "Invalid",
            ApiError::BadRequest { .. } => "BadRequest",
            ApiError::Unavailable => "ServiceUnavailable",
        };
        let message = error.to_string();
        let message = if key.is_empty() {
            message
        } else {
            message.replace(key, name)
        };
        Self {
            status: error.code(),
            reason,
            message,
        }
    }
}

/// Why a call returned no object.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum CallError {
    /// The API server, or the cache, answered with an error.
    Api(ApiFailure),
    /// The call cannot be made as written.
    Misuse {
        method: &'static str,
        message: String,
    },
    /// The controller process crashed while the call was out: the
    /// reconcile is over, and the learner's code must stop.
    Crashed { method: &'static str },
    /// No reconcile is in progress: call `next_reconcile` first.
    NotReconciling { method: &'static str },
}

impl CallError {
    pub(crate) fn misuse(method: &'static str, message: impl Into<String>) -> Self {
        CallError::Misuse {
            method,
            message: message.into(),
        }
    }
}

impl fmt::Display for CallError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CallError::Api(failure) => write!(
                f,
                "{} {}: {}",
                failure.status, failure.reason, failure.message
            ),
            CallError::Misuse { method, message } => write!(f, "client.{method}: {message}"),
            CallError::Crashed { method } => write!(
                f,
                "client.{method}: the controller crashed while the request was out"
            ),
            CallError::NotReconciling { method } => {
                write!(f, "client.{method}: no reconcile is running")
            }
        }
    }
}

impl std::error::Error for CallError {}

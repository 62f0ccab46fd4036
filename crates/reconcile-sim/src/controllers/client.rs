//! The client: a controller's only way to the control plane. Start at
//! [`Client`] for reads, [`Request`] for writes.
//!
//! It is shaped like controller-runtime's `client.Client` and kube-rs's
//! `Api`. Reads go to the informer's cache and cost nothing; each write is
//! one API request, answered on the simulated clock as the API server
//! answers it (`docs/design/control-plane.md`, "Requests and responses").
//!
//! Controllers are sans-IO state machines (see [`Controller`](super::controller::Controller)): the engine
//! hands a controller a [`Client`] for each step, and the controller returns
//! the request it sends. That keeps a run deterministic, and lets a
//! controller live elsewhere (a learner's code in a worker) behind the same
//! messages.
//!
//! Invariant: every controller module reaches the control plane through
//! this module only (the `layering` test checks). The types a controller
//! reads are re-exported here.

use std::sync::Arc;

use reconcile_core::json::Json;
use reconcile_core::model::Resources;
use reconcile_core::reconcile::ActionKind;

pub use crate::control_plane::apiserver::ApiError;
pub use crate::control_plane::apply::Apply;
pub use crate::control_plane::cloud::{load_balancer_of, CloudCall, FINALIZER as CLOUD_FINALIZER};
pub use crate::control_plane::consistency::{ConsistencyStore, WatchedKind};
pub use crate::control_plane::names::{ALPHABET, RANDOM_LENGTH};
pub use crate::control_plane::ownership::{ObjectKey, OwnerRefs};
pub use crate::control_plane::patch::{Patch, PatchType};
pub use crate::control_plane::rfc3339::{civil_from_days, days_from_civil};
pub use crate::control_plane::sorted::SortedMap;
// How the controllers' settings read their names (not an API call).
pub(crate) use crate::control_plane::unit_names::read_unit_names;
pub use crate::control_plane::workqueue::{Millis, ReconcileError};
pub use crate::control_plane::world::{ObjectMeta, ObjectState, World as Cache};

/// What a controller may read during one step: the informer's cache, the
/// desired state each custom resource holds there, and the clock.
#[derive(Debug, Clone, Copy)]
pub struct Client<'a> {
    cache: &'a Cache,
    desired: &'a SortedMap<Arc<str>, Resources>,
    now: Millis,
    /// Each informer store's `LastStoreSyncResourceVersion`, by [`WatchedKind`].
    synced: [u64; 2],
}

impl<'a> Client<'a> {
    pub(crate) fn new(
        cache: &'a Cache,
        desired: &'a SortedMap<Arc<str>, Resources>,
        now: Millis,
        synced: [u64; 2],
    ) -> Self {
        Self {
            cache,
            desired,
            now,
            synced,
        }
    }

    /// The resourceVersion the informer store of `kind` last synced
    /// (client-go 1.36's `LastStoreSyncResourceVersion`).
    pub fn synced(&self, kind: WatchedKind) -> u64 {
        self.synced[kind as usize]
    }

    /// The informer's cache of the objects and of the custom resource.
    pub fn cache(&self) -> &'a Cache {
        self.cache
    }

    /// The spec of custom resource `name`, as the cache holds it.
    pub fn desired(&self, name: &str) -> Option<&'a Resources> {
        self.desired.get(name)
    }

    /// What the controller of custom resource `name` lists: the objects it
    /// controls and those no controller owns (`None`: the whole cache,
    /// when it holds no other custom resource).
    pub fn owned_by(&self, name: &str) -> Option<Cache> {
        self.cache.owned_by_custom_resource(name)
    }

    /// `get` from the cache.
    pub fn get(&self, key: &ObjectKey) -> Option<ObjectState> {
        self.cache.get(key)
    }

    /// The simulated time of this step.
    pub fn now(&self) -> Millis {
        self.now
    }
}

/// One write, as the controller sends it.
#[derive(Debug, Clone, PartialEq)]
pub enum Request {
    /// POST. With `generate_name`, the API server names the object from
    /// that prefix (`generateName`), and `name` is only the controller's.
    Create {
        name: Arc<str>,
        generate_name: Option<String>,
        spec: Json,
        owner_references: OwnerRefs,
        /// `metadata.finalizers` of the new object.
        finalizers: Vec<String>,
    },
    /// PUT of the object, with the resourceVersion read: a stale one gets
    /// 409 Conflict. `None` is unconditional; `replaces` says whether the
    /// server checks that the kind allows it.
    Update {
        name: Arc<str>,
        spec: Json,
        resource_version: Option<u64>,
        replaces: Replaces,
    },
    /// DELETE, with a propagation policy or the kind's default
    /// (background).
    Delete {
        name: Arc<str>,
        propagation: Option<crate::control_plane::propagation::PropagationPolicy>,
    },
    /// PUT of custom resource `name`'s `/status`, with the resourceVersion read.
    UpdateStatus {
        name: Arc<str>,
        status: Json,
        resource_version: u64,
    },
    /// PATCH of an object: a merge patch or a JSON patch, applied to what
    /// the server stores now ([`Patch::with_resource_version`] locks it).
    Patch { name: Arc<str>, patch: Patch },
    /// PATCH of the custom resource's `/status`.
    PatchStatus { name: Arc<str>, patch: Patch },
    /// Server-side apply of an object: 201 when it creates it, 409 with the
    /// fields listed when it takes fields another manager owns, unless
    /// forced. `owner_references` are set when it creates the object.
    Apply {
        name: Arc<str>,
        apply: Apply,
        owner_references: OwnerRefs,
    },
    /// PATCH of the custom resource itself: its finalizers.
    PatchCustomResource { name: Arc<str>, patch: Patch },
    /// A call to the cloud, the external system (not the API server).
    Cloud { call: CloudCall },
    /// GET from the API server, not the cache (controller-runtime's
    /// `APIReader`): a live read, which costs a request.
    Get { key: ObjectKey },
}

impl Request {
    /// The object it writes, and its verb as an action, for a record
    /// without a plan (`None` for a status write).
    pub fn as_action(&self) -> Option<(ActionKind, &Arc<str>)> {
        match self {
            Request::Create { name, .. } => Some((ActionKind::Create, name)),
            Request::Update { name, .. } => Some((ActionKind::Update, name)),
            Request::Delete { name, .. } => Some((ActionKind::Delete, name)),
            Request::Patch { name, .. } | Request::Apply { name, .. } => {
                Some((ActionKind::Update, name))
            }
            Request::UpdateStatus { .. }
            | Request::PatchStatus { .. }
            | Request::PatchCustomResource { .. }
            | Request::Cloud { .. }
            | Request::Get { .. } => None,
        }
    }
}

/// What an update replaces of the stored object.
///
/// Upstream a PUT always sends the whole object (`Store.Update` in
/// `staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go`).
/// The contract controller's plan carries a spec only, so its update keeps
/// the stored metadata, as its reconcile would have copied it.
#[derive(Debug, Clone, PartialEq)]
pub enum Replaces {
    /// The spec; ownerReferences and finalizers stay as stored. The server
    /// takes it without a resourceVersion: the contract controller's update.
    Spec,
    /// The whole object, as a client's `Update` sends it: these
    /// ownerReferences and finalizers replace the stored ones. Without a
    /// resourceVersion, only a kind whose strategy allows an unconditional
    /// update takes it (`AllowUnconditionalUpdate`); a custom resource
    /// gets 422 Invalid.
    Object {
        owner_references: OwnerRefs,
        finalizers: Vec<String>,
    },
}

/// A successful response.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    /// The HTTP status code: 201 when it created the object, else 200.
    pub code: u16,
    /// The object written: for a create, the name it got.
    pub name: Arc<str>,
    /// Whether the store changed. `false`: an update equal to what is
    /// stored, or a delete of an object already terminating.
    pub written: bool,
    /// The resourceVersion of the object the server returns; `None` when
    /// the object is gone, or for a delete (`DeletePod` returns no object).
    pub resource_version: Option<u64>,
}

/// The API server's answer to a [`Request`].
pub type Answer = Result<Response, ApiError>;

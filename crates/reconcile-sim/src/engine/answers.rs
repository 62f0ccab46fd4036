//! The answers a controller's requests get: the API server's (after the
//! failure rate's transient 503), and the cloud's. A write raises its
//! watch event here.

use std::sync::Arc;

use super::{update_change, Engine, Key};
use crate::apiserver::{ApiError, DeleteOptions, Update};
use crate::control_plane::apply::ApplyOutcome;
use crate::control_plane::cloud::CloudCall;
use crate::control_plane::patch::{keep_order, patch_custom_resource, require_resource_version};
use crate::control_plane::propagation::PropagationPolicy;
use crate::control_plane::status;
use crate::controllers::client::{Answer, Replaces, Request, Response};
use crate::ownership::ObjectKey;
use crate::workqueue::Millis;
use crate::world::Change;
use crate::writes::FIELD_MANAGER;
use reconcile_core::json::Json;
use reconcile_core::model::Resources;

/// The update a PUT of `name` stands for, or 422 for an object whose
/// kind takes no update without a resourceVersion. A stale version gets
/// 409 from [`crate::world::World::update`]. As `Store.Update`'s
/// `GuaranteedUpdate` callback (`registry/generic/registry/store.go`): the
/// stored object first (404), then `AllowUnconditionalUpdate` (422), then
/// the versions compared (409, `OptimisticLockErrorMsg`).
///
/// A whole object keeps the stored spec's member order where its members
/// stay, as a patch does.
fn put(
    name: &str,
    spec: &Json,
    stored: Option<&Json>,
    resource_version: Option<u64>,
    replaces: &Replaces,
) -> Result<Update, ApiError> {
    let (spec, metadata) = match replaces {
        Replaces::Spec => (spec.clone(), (None, None)),
        Replaces::Object {
            owner_references,
            finalizers,
        } => {
            // The stored object is read first: 404 before 422.
            let stored = stored.ok_or_else(|| ApiError::NotFound {
                name: name.to_owned(),
            })?;
            require_resource_version(name, stored, resource_version)?;
            let spec = keep_order(spec.clone(), stored);
            (
                spec,
                (Some(owner_references.clone()), Some(finalizers.clone())),
            )
        }
    };
    Ok(Update {
        spec: Some(spec),
        owner_references: metadata.0,
        finalizers: metadata.1,
        resource_version,
    })
}

impl Engine {
    /// The server's answer to a request, unless it fails transiently first
    /// (the failure rate, drawn per request).
    pub(super) fn respond(&mut self, request: &Request) -> Answer {
        if self.unavailable_armed() || self.failures_rng.chance(self.config.failure_rate) {
            return Err(ApiError::Unavailable);
        }
        self.start_lag();
        let answer = self.perform(request);
        self.end_lag();
        answer
    }

    /// The API server answers `request`; a write raises a watch event.
    /// FINALIZE and DELETE are both a DELETE request: the server decides
    /// from the finalizers whether the object goes or starts terminating.
    fn perform(&mut self, request: &Request) -> Answer {
        let at = self.now;
        let (name, change) = match request {
            Request::Create {
                name,
                generate_name,
                spec,
                owner_references,
                finalizers,
            } => {
                // The API server names it (`Store.create`), when asked to.
                let name = match generate_name {
                    Some(prefix) => self.generated_name(prefix),
                    None => Arc::clone(name),
                };
                let owners = owner_references.clone();
                self.world
                    .create_owned(&name, spec.clone(), finalizers.clone(), owners)?;
                self.world.record_update(&name, None, FIELD_MANAGER);
                (name, Some(Change::Added))
            }
            Request::Update {
                name,
                spec,
                resource_version,
                replaces,
            } => {
                let before = self.world.observed.get(name).cloned();
                let update = put(name, spec, before.as_ref(), *resource_version, replaces)?;
                let change = update_change(self.world.update(name, update)?);
                self.world
                    .record_update(name, before.as_ref(), FIELD_MANAGER);
                (Arc::clone(name), change)
            }
            Request::Delete { name, propagation } => {
                (Arc::clone(name), self.delete(name, *propagation, at)?)
            }
            Request::Patch { name, patch } => {
                let before = self.world.observed.get(name).cloned();
                let change = update_change(self.world.patch(name, patch)?);
                self.world
                    .record_update(name, before.as_ref(), FIELD_MANAGER);
                (Arc::clone(name), change)
            }
            Request::Apply {
                name,
                apply,
                owner_references,
            } => {
                let change = match self.world.apply(name, apply, owner_references)? {
                    ApplyOutcome::Created => Some(Change::Added),
                    ApplyOutcome::Updated => Some(Change::Updated),
                    ApplyOutcome::Unchanged => None,
                };
                (Arc::clone(name), change)
            }
            Request::UpdateStatus {
                name,
                status,
                resource_version,
            } => {
                let version = Some(*resource_version);
                let outcome = status::write_status(&mut self.world, name, status.clone(), version)?;
                return Ok(self.custom_resource_written(name, outcome));
            }
            Request::PatchStatus { name, patch } => {
                let desired = self.desired_json(name);
                let outcome = status::patch_status(&mut self.world, name, &desired, patch)?;
                return Ok(self.custom_resource_written(name, outcome));
            }
            Request::PatchCustomResource { name, patch } => {
                let desired = self.desired_json(name);
                let outcome = patch_custom_resource(&mut self.world, name, &desired, patch)?;
                return Ok(self.custom_resource_written(name, outcome));
            }
            Request::Cloud { call } => return self.call_cloud(call),
            Request::Get { key } => return self.get_live(key),
        };
        if let Some(change) = change {
            self.watch.controller_writes += 1;
            self.watch_event(at, &name, change);
        }
        let returns_object = !matches!(request, Request::Delete { .. });
        let resource_version = returns_object
            .then(|| self.world.meta(&name).map(|m| m.resource_version))
            .flatten();
        let created = change == Some(Change::Added);
        Ok(Response {
            code: if created { 201 } else { 200 },
            name,
            written: change.is_some(),
            resource_version,
        })
    }

    /// The desired document as custom resource `name`'s spec.
    fn desired_json(&self, name: &str) -> Json {
        let desired = self.desired.get(name).map(Resources::iter);
        let entries = desired.into_iter().flatten();
        Json::object(entries.map(|(n, spec)| (n.into(), spec.clone())).collect())
    }

    /// A call to the cloud: a transient failure first (its own rate), then
    /// the cloud's answer. Not an API request: no watch event follows.
    fn call_cloud(&mut self, call: &CloudCall) -> Answer {
        let rate = self.config.cloud.map_or(0.0, |cloud| cloud.failure_rate);
        if self.cloud.failures.chance(rate) {
            return Err(ApiError::Unavailable);
        }
        let written = self.cloud.state.call(call)?;
        let (CloudCall::Ensure { name } | CloudCall::Get { name } | CloudCall::Delete { name }) =
            call;
        Ok(Response {
            code: 200,
            name: Arc::from(name.as_str()),
            written,
            resource_version: None,
        })
    }

    /// A write to `/status` raises the custom resource's watch event.
    /// A write to custom resource `name` raises its watch event: an
    /// update, or its delete when the write removed its last finalizer.
    fn custom_resource_written(
        &mut self,
        name: &Key,
        outcome: crate::apiserver::UpdateOutcome,
    ) -> Response {
        let change = update_change(outcome);
        let written = change.is_some();
        if let Some(change) = change {
            self.watch.controller_writes += 1;
            let breaks = self.drops_rng.chance(self.config.watch_break_rate);
            self.custom_resource_event(self.now, name, change, breaks);
        }
        let custom_resource = self.world.get(&ObjectKey::CustomResource(Key::clone(name)));
        Response {
            code: 200,
            name: Key::clone(name),
            written,
            resource_version: custom_resource.map(|cr| cr.meta.resource_version),
        }
    }

    /// A GET from the store: the object's resourceVersion, or 404
    /// (`Store.Get` via `storeerr.InterpretGetError`).
    fn get_live(&self, key: &ObjectKey) -> Answer {
        let (ObjectKey::Object(name) | ObjectKey::CustomResource(name)) = key;
        let state = self.world.get(key).ok_or_else(|| ApiError::NotFound {
            name: name.to_string(),
        })?;
        Ok(Response {
            code: 200,
            name: Arc::clone(name),
            written: false,
            resource_version: Some(state.meta.resource_version),
        })
    }

    /// A DELETE request of an object, with `propagation` or the kind's
    /// default (`DeleteOptions.PropagationPolicy`).
    pub(super) fn delete(
        &mut self,
        name: &str,
        propagation: Option<PropagationPolicy>,
        at: Millis,
    ) -> Result<Option<Change>, ApiError> {
        let key = ObjectKey::Object(Arc::from(name));
        let options = DeleteOptions {
            propagation_policy: propagation,
            ..DeleteOptions::default()
        };
        self.delete_key(&key, &options, at)
    }
}

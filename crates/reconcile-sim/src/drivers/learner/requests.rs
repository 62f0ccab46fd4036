//! From a learner's call to what answers it: the cache, or one request to
//! the API server. Start at [`plan`].
//!
//! Reads follow controller-runtime's cached client (`pkg/cache/internal/cache_reader.go`,
//! `CacheReader.Get` and `List`): a missing object is 404 NotFound, built
//! by `apierrors.NewNotFound`, and no request is made. Writes become the
//! engine's own [`Request`]s, so the API server answers them as it answers
//! every controller (`engine/answers.rs`).

use serde_json::{json, Value};

use super::call::{ApiFailure, CallError, ClientCall, Read};
use super::kinds::{Kinds, Target, CUSTOM_RESOURCE};
use crate::apiserver::ApiError;
use crate::apply::Apply;
use crate::client::{Cache, Client, Replaces, Request};
use crate::object::{self, from_value, render, render_custom_resource, NAMESPACE};
use crate::ownership::{ObjectKey, OwnerRefs};
use crate::patch::Patch;
use reconcile_core::json::Json;

/// What answers a call.
#[derive(Debug)]
pub(super) enum Planned {
    /// The cache, or the call's own misuse, answers at once.
    Now(Result<Value, CallError>),
    /// One request to the API server, about `target`.
    Send { request: Request, target: Target },
}

/// What answers `call`, made in namespace `namespace` with `client` (the cache now).
pub(super) fn plan(call: &ClientCall, kinds: &Kinds, namespace: &str, client: &Client) -> Planned {
    if call.is_cloud() {
        return match super::cloud_calls::plan(call, kinds) {
            Ok(planned) => planned,
            Err(error) => Planned::Now(Err(error)),
        };
    }
    match planned(call, kinds, namespace, client) {
        Ok(planned) => planned,
        Err(error) => Planned::Now(Err(error)),
    }
}

fn planned(
    call: &ClientCall,
    kinds: &Kinds,
    ns: &str,
    client: &Client,
) -> Result<Planned, CallError> {
    let method = call.method();
    let in_ns = |given: &Option<String>| given.clone().unwrap_or_else(|| ns.to_owned());
    let send = |request: Request, target: Target| Ok(Planned::Send { request, target });
    match call {
        ClientCall::Get {
            kind,
            name,
            namespace,
            read,
        } => {
            let target = kinds.resolve(method, kind, &in_ns(namespace), name)?;
            match read {
                Read::Cache => Ok(Planned::Now(cached(client, &target))),
                Read::Live => {
                    let key = target.key.clone();
                    send(Request::Get { key }, target)
                }
            }
        }
        ClientCall::List {
            kind,
            namespace,
            labels,
        } => {
            let kind = kinds.named(method, kind)?;
            let items = list(client, kind.kind, &in_ns(namespace), labels);
            Ok(Planned::Now(Ok(Value::Array(items))))
        }
        ClientCall::Create { object } => {
            let (target, generate) = kinds.of_object(method, object, ns)?;
            if target.is_custom_resource() {
                return Err(CallError::misuse(
                    method,
                    "the custom resources are the exercise's; create other kinds",
                ));
            }
            let stored = stored_form(method, object, &target, Writing::Create)?;
            let request = Request::Create {
                name: key_name(&target.key),
                generate_name: generate.map(|_| target.key_text().to_owned()),
                spec: stored.spec,
                owner_references: stored.owner_references,
                finalizers: stored.finalizers,
            };
            send(request, target)
        }
        ClientCall::Update { object } => {
            // controller-runtime's `typedClient.Update` (`pkg/client/typed_client.go`)
            // PUTs the whole object, its resourceVersion the precondition.
            let (target, _) = kinds.of_object(method, object, ns)?;
            if target.is_custom_resource() {
                return custom_resource_update(object, target);
            }
            let stored = stored_form(method, object, &target, Writing::Update)?;
            let request = Request::Update {
                name: key_name(&target.key),
                spec: stored.spec,
                resource_version: stored.resource_version,
                replaces: Replaces::Object {
                    owner_references: stored.owner_references,
                    finalizers: stored.finalizers,
                },
            };
            send(request, target)
        }
        ClientCall::Patch {
            kind,
            name,
            namespace,
            patch,
            patch_type,
            resource_version,
        } => {
            let target = kinds.resolve(method, kind, &in_ns(namespace), name)?;
            let mut patch = Patch {
                patch_type: (*patch_type).into(),
                body: from_value(patch.clone()),
            };
            if let Some(version) = resource_version {
                let version = version.parse::<u64>().map_err(|_| {
                    CallError::misuse(method, format!("{version:?} is not a resourceVersion"))
                })?;
                patch = patch.with_resource_version(version);
            }
            send(patch_request(&target, patch), target)
        }
        ClientCall::Apply {
            object,
            field_manager,
            force,
        } => {
            let (target, _) = kinds.of_object(method, object, ns)?;
            if target.is_custom_resource() || field_manager.is_empty() {
                return Err(CallError::misuse(
                    method,
                    "apply takes an object of another kind than the custom resource, and a fieldManager",
                ));
            }
            let stored = stored_form(method, object, &target, Writing::Apply)?;
            let request = Request::Apply {
                name: key_name(&target.key),
                apply: Apply {
                    config: stored.spec,
                    field_manager: field_manager.as_str().into(),
                    force: *force,
                },
                owner_references: stored.owner_references,
            };
            send(request, target)
        }
        ClientCall::Delete {
            kind,
            name,
            namespace,
            propagation_policy,
        } => {
            let target = kinds.resolve(method, kind, &in_ns(namespace), name)?;
            if target.is_custom_resource() {
                return Err(CallError::misuse(
                    method,
                    "this exercise deletes its custom resources itself",
                ));
            }
            let name = key_name(&target.key);
            let propagation = *propagation_policy;
            send(Request::Delete { name, propagation }, target)
        }
        ClientCall::UpdateStatus { object } => {
            let (target, _) = kinds.of_object(method, object, ns)?;
            custom_resource_only(method, &target)?;
            let status = object.get("status").cloned().unwrap_or(Value::Null);
            let version = object
                .get("metadata")
                .and_then(|m| m.get("resourceVersion"))
                .and_then(Value::as_str)
                .and_then(|v| v.parse::<u64>().ok());
            let Some(resource_version) = version else {
                return Ok(no_resource_version(&target));
            };
            let request = Request::UpdateStatus {
                name: key_name(&target.key),
                status: from_value(status),
                resource_version,
            };
            send(request, target)
        }
        ClientCall::PatchStatus {
            kind,
            name,
            namespace,
            patch,
        } => {
            let target = kinds.resolve(method, kind, &in_ns(namespace), name)?;
            custom_resource_only(method, &target)?;
            let request = Request::PatchStatus {
                name: key_name(&target.key),
                patch: Patch::merge(from_value(patch.clone())),
            };
            send(request, target)
        }
        ClientCall::EnsureLoadBalancer { .. }
        | ClientCall::GetLoadBalancer { .. }
        | ClientCall::DeleteLoadBalancer { .. } => super::cloud_calls::plan(call, kinds),
    }
}

fn custom_resource_only(method: &'static str, target: &Target) -> Result<(), CallError> {
    if target.is_custom_resource() {
        Ok(())
    } else {
        Err(CallError::misuse(
            method,
            format!(
                "only the custom resource has a status here, not a {}",
                target.kind.kind
            ),
        ))
    }
}

/// 422 for an update of the custom resource without a resourceVersion:
/// `Store.Update`, as `customResourceStrategy` takes no unconditional update.
fn no_resource_version(target: &Target) -> Planned {
    let error = ApiError::Invalid {
        name: target.name.clone(),
        field: "metadata.resourceVersion".to_owned(),
        message: "must be specified for an update".to_owned(),
    };
    Planned::Now(Err(CallError::Api(ApiFailure::of(&error, "", ""))))
}

/// `update` of the custom resource. What the playground stores of it is
/// its metadata (the spec is the Desired document, the status its
/// subresource's), so the PUT is sent as a JSON patch of the whole object,
/// which the server reads as an update of the metadata. A custom resource
/// takes no update without a resourceVersion (`customResourceStrategy`'s
/// `AllowUnconditionalUpdate` is false): 422, answered here at once.
fn custom_resource_update(object: &Value, target: Target) -> Result<Planned, CallError> {
    let version = object["metadata"]["resourceVersion"].as_str();
    if version.filter(|v| !v.is_empty()).is_none() {
        return Ok(no_resource_version(&target));
    }
    let replace = json!([{ "op": "replace", "path": "", "value": object }]);
    let patch = Patch::json(from_value(replace));
    Ok(Planned::Send {
        request: patch_request(&target, patch),
        target,
    })
}

/// A patch of an object, or of the custom resource's metadata.
fn patch_request(target: &Target, patch: Patch) -> Request {
    let name = key_name(&target.key);
    if target.is_custom_resource() {
        Request::PatchCustomResource { name, patch }
    } else {
        Request::Patch { name, patch }
    }
}

fn key_name(key: &ObjectKey) -> std::sync::Arc<str> {
    match key {
        ObjectKey::CustomResource(name) | ObjectKey::Object(name) => std::sync::Arc::clone(name),
    }
}

/// The write a whole object is read for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Writing {
    Create,
    Update,
    Apply,
}

/// An object as the store keeps it: the manifest without the server's
/// metadata (labels and annotations stay in it), and the metadata the
/// store keeps apart, read as the API server reads them.
struct Stored {
    spec: Json,
    owner_references: OwnerRefs,
    finalizers: Vec<String>,
    /// The version the writer read: an update's precondition.
    resource_version: Option<u64>,
}

/// Reads `object` as `Store.create` or `Store.Update` would: system fields
/// are the server's (`FillObjectMetaSystemFields` sets uid and
/// creationTimestamp; an update keeps the stored ones, `rest.BeforeUpdate`).
fn stored_form(
    method: &'static str,
    object: &Value,
    target: &Target,
    writing: Writing,
) -> Result<Stored, CallError> {
    let mut object = object.clone();
    if let Some(Value::Object(metadata)) = object.get_mut("metadata") {
        let version = metadata.get("resourceVersion").filter(|v| !is_blank(v));
        if writing == Writing::Create && version.is_some() {
            // etcd3 `store.Create`: `ErrResourceVersionSetOnCreate`.
            return Err(CallError::misuse(
                method,
                "resourceVersion should not be set on objects to be created",
            ));
        }
        metadata.remove("uid");
        metadata.remove("creationTimestamp");
        metadata.insert("namespace".into(), target.namespace.clone().into());
    }
    let name = target.key_text();
    // The URL's name is the object's own; a create by generateName has
    // none yet (`POST .../pods`), which the server then makes.
    let own = match &object["metadata"]["name"] {
        Value::String(name) => Value::String(name.clone()),
        _ => Value::String(String::new()),
    };
    let stub = json!({
        "apiVersion": target.kind.api_version,
        "kind": target.kind.kind,
        "metadata": { "name": own },
    });
    let read = object::read(name, &stub, object, 0)
        .map_err(|error| CallError::Api(ApiFailure::of(&error, name, &target.name)))?;
    Ok(Stored {
        spec: read.spec,
        owner_references: read.owner_references,
        finalizers: read.finalizers,
        resource_version: read.resource_version,
    })
}

fn is_blank(value: &Value) -> bool {
    value.is_null() || value.as_str() == Some("")
}

/// `get` from the cache: a deep copy, or 404 (`CacheReader.Get`).
fn cached(client: &Client, target: &Target) -> Result<Value, CallError> {
    rendered(client.cache(), client, &target.key).ok_or_else(|| {
        let error = ApiError::NotFound {
            name: target.name.clone(),
        };
        CallError::Api(ApiFailure::of(&error, "", ""))
    })
}

/// The object under `key` in `world` as the API server serves it, with
/// the custom resource's spec as `client` sees it.
pub(super) fn rendered(world: &Cache, client: &Client, key: &ObjectKey) -> Option<Value> {
    let state = world.get(key)?;
    Some(match key {
        ObjectKey::CustomResource(name) => {
            let desired = client
                .desired(name)
                .map(resources_json)
                .unwrap_or(Json::Null);
            render_custom_resource(world, name, &state, &desired)
        }
        ObjectKey::Object(name) => {
            let mut value = render(world, name, &state);
            // A generated name is only in the key.
            if let Some(Value::Object(metadata)) = value.get_mut("metadata") {
                let own = name.rsplit('/').next().unwrap_or(name);
                metadata.entry("name").or_insert_with(|| own.into());
            }
            value
        }
    })
}

fn resources_json(resources: &reconcile_core::model::Resources) -> Json {
    let members = resources.iter().map(|(n, spec)| (n.into(), spec.clone()));
    Json::object(members.collect())
}

/// `list` from the cache: the kind's objects in `namespace` whose labels
/// match, in name order.
fn list(
    client: &Client,
    kind: &str,
    namespace: &str,
    labels: &serde_json::Map<String, Value>,
) -> Vec<Value> {
    let cache = client.cache();
    let keys: Vec<ObjectKey> = if kind == CUSTOM_RESOURCE.kind {
        let custom = namespace == NAMESPACE;
        let names = cache.custom_resource_names().filter(|_| custom);
        names
            .map(|n| ObjectKey::CustomResource(n.clone()))
            .collect()
    } else {
        let prefix = format!("{kind}/{namespace}/");
        let names = cache.observed.names().filter(|n| n.starts_with(&prefix));
        names.map(|n| ObjectKey::Object(n.into())).collect()
    };
    keys.iter()
        .filter_map(|key| rendered(cache, client, key))
        .filter(|object| {
            labels
                .iter()
                .all(|(k, v)| object["metadata"]["labels"].get(k) == Some(v))
        })
        .collect()
}

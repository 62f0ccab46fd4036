//! An object as the API server serves it: Kubernetes-shaped JSON built from
//! the store ([`render`]), and read back after a patch ([`read`]). Start at
//! [`render`].
//!
//! A `{name: spec}` document's object is of a generic kind:
//! `reconcile.example.com/v1` `Resource` in namespace `default`, with the
//! document's value as `spec`. A manifest is its own object: its
//! `apiVersion`, `kind` and `metadata` stay, and the server's fields are
//! laid over its `metadata`.
//!
//! # Caveats
//! - `uid` is the store's counter as a string, not a UUID.
//! - `deletionTimestamp` is the simulated clock from the Unix epoch, to the
//!   second as a `metav1.Time` is written ([`super::rfc3339::time`]).
//! - A generic object keeps no labels or annotations: a patch that sets
//!   them is refused with 422, naming the field. Manifests keep theirs.

use std::sync::Arc;

use reconcile_core::json::{Json, Number};
use serde_json::{json, Map, Value};

use super::apiserver::ApiError;
use super::ownership::{ObjectKey, OwnerReference, OwnerRefs};
use super::rfc3339;
use super::world::{ObjectState, World};

/// The group and version of the playground's own kinds.
pub const API_VERSION: &str = "reconcile.example.com/v1";
/// The kind of a `{name: spec}` document's objects.
pub const GENERIC_KIND: &str = "Resource";
/// The custom resource's kind.
pub const CUSTOM_RESOURCE_KIND: &str = "Desired";
/// The namespace of a generic object.
pub const NAMESPACE: &str = "default";

/// Metadata the server owns: laid over a manifest's, taken out when read back.
const SERVER_FIELDS: [&str; 8] = [
    "uid",
    "resourceVersion",
    "generation",
    "finalizers",
    "ownerReferences",
    "deletionTimestamp",
    "deletionGracePeriodSeconds",
    "creationTimestamp",
];

/// Whether a stored value is a manifest: an object with a string
/// `apiVersion` and `kind`.
pub fn is_manifest(spec: &Json) -> bool {
    spec.get("apiVersion").and_then(Json::as_str).is_some()
        && spec.get("kind").and_then(Json::as_str).is_some()
}

/// The object `name` of `world` as the API server returns it.
pub fn render(world: &World, name: &str, state: &ObjectState) -> Value {
    let mut object = match manifest(&state.spec) {
        Some(object) => object,
        None => {
            let mut object = Map::new();
            object.insert("apiVersion".into(), API_VERSION.into());
            object.insert("kind".into(), GENERIC_KIND.into());
            object.insert(
                "metadata".into(),
                json!({ "name": name, "namespace": NAMESPACE }),
            );
            object.insert("spec".into(), to_value(&state.spec));
            object
        }
    };
    let metadata = object
        .entry("metadata")
        .or_insert_with(|| Value::Object(Map::new()));
    if let Value::Object(metadata) = metadata {
        server_metadata(world, state, metadata);
    }
    Value::Object(object)
}

/// The custom resource as the API server returns it, with `desired` as its
/// spec and the status its subresource stores.
pub fn render_custom_resource(
    world: &World,
    name: &str,
    state: &ObjectState,
    desired: &Json,
) -> Value {
    let mut object = Map::new();
    object.insert("apiVersion".into(), API_VERSION.into());
    object.insert("kind".into(), CUSTOM_RESOURCE_KIND.into());
    let mut metadata = Map::new();
    metadata.insert("name".into(), name.into());
    metadata.insert("namespace".into(), NAMESPACE.into());
    server_metadata(world, state, &mut metadata);
    object.insert("metadata".into(), Value::Object(metadata));
    object.insert("spec".into(), to_value(desired));
    if let Some(status) = state.spec.get("status") {
        object.insert("status".into(), to_value(status));
    }
    Value::Object(object)
}

fn manifest(spec: &Json) -> Option<Map<String, Value>> {
    if !is_manifest(spec) {
        return None;
    }
    match to_value(spec) {
        Value::Object(object) => Some(object),
        _ => None,
    }
}

fn server_metadata(world: &World, state: &ObjectState, metadata: &mut Map<String, Value>) {
    let meta = &state.meta;
    metadata.insert("uid".into(), meta.uid.to_string().into());
    metadata.insert(
        "resourceVersion".into(),
        meta.resource_version.to_string().into(),
    );
    metadata.insert("generation".into(), meta.generation.into());
    if !state.finalizers.is_empty() {
        metadata.insert("finalizers".into(), state.finalizers.clone().into());
    }
    let refs = meta.owner_references.as_slice();
    if !refs.is_empty() {
        let refs = refs.iter().map(|r| owner_reference(world, r)).collect();
        metadata.insert("ownerReferences".into(), Value::Array(refs));
    }
    if let Some(at) = state.deletion_timestamp {
        metadata.insert("deletionTimestamp".into(), rfc3339::time(at).into());
        let seconds = meta.deletion_grace_period_seconds.unwrap_or(0);
        metadata.insert("deletionGracePeriodSeconds".into(), seconds.into());
    }
}

fn owner_reference(world: &World, reference: &OwnerReference) -> Value {
    let (api_version, kind, name) = match &reference.owner {
        ObjectKey::CustomResource(name) => (
            API_VERSION.to_owned(),
            CUSTOM_RESOURCE_KIND.to_owned(),
            name.to_string(),
        ),
        ObjectKey::Object(name) => type_of(world.observed.get(name), name),
    };
    json!({
        "apiVersion": api_version,
        "kind": kind,
        "name": name,
        "uid": reference.uid.to_string(),
        "controller": reference.controller,
        "blockOwnerDeletion": reference.block_owner_deletion,
    })
}

/// An object's apiVersion, kind and `metadata.name`.
fn type_of(spec: Option<&Json>, name: &str) -> (String, String, String) {
    let text = |key: &str| spec.and_then(|s| s.get(key)).and_then(Json::as_str);
    match (text("apiVersion"), text("kind")) {
        (Some(api_version), Some(kind)) => {
            let own = spec
                .and_then(|s| s.get("metadata"))
                .and_then(|m| m.get("name"))
                .and_then(Json::as_str)
                .unwrap_or(name);
            (api_version.to_owned(), kind.to_owned(), own.to_owned())
        }
        _ => (
            API_VERSION.to_owned(),
            GENERIC_KIND.to_owned(),
            name.to_owned(),
        ),
    }
}

/// What a patched object asks the store to keep.
#[derive(Debug, Clone, PartialEq)]
pub struct Patched {
    /// The document's new value: `spec` for a generic object, the manifest
    /// without the server's metadata otherwise.
    pub spec: Json,
    pub finalizers: Vec<String>,
    pub owner_references: OwnerRefs,
    /// `None` when the patch removed it: an unconditional update.
    pub resource_version: Option<u64>,
}

/// Reads `patched` back as the store's parts, checking what the API server
/// checks: the name matches the URL (400), the uid is unchanged and the
/// fields have their types (422).
pub fn read(name: &str, old: &Value, patched: Value, uid: u64) -> Result<Patched, ApiError> {
    let invalid = |field: &str, message: &str| ApiError::Invalid {
        name: name.to_owned(),
        field: field.to_owned(),
        message: message.to_owned(),
    };
    let Value::Object(mut object) = patched else {
        return Err(invalid("patch", "the patched object is not a JSON object"));
    };
    for key in ["apiVersion", "kind"] {
        if object.get(key) != old.get(key) {
            return Err(invalid(key, "field is immutable"));
        }
    }
    let Some(Value::Object(mut metadata)) = object.remove("metadata") else {
        return Err(invalid("metadata", "must be an object"));
    };
    let resource_version = identity(name, old, &metadata, uid)?;
    let finalizers = finalizers(metadata.get("finalizers"))
        .ok_or_else(|| invalid("metadata.finalizers", "must be a list of strings"))?;
    let owner_references = owner_references(name, metadata.get("ownerReferences"))?;
    for field in SERVER_FIELDS {
        metadata.remove(field);
    }
    let spec = if old.get("kind").and_then(Value::as_str) == Some(GENERIC_KIND)
        && old.get("apiVersion").and_then(Value::as_str) == Some(API_VERSION)
    {
        generic_spec(&object, &metadata).map_err(|field| {
            invalid(
                &field,
                "a {name: spec} object keeps only spec; write it as a manifest",
            )
        })?
    } else {
        object.insert("metadata".into(), Value::Object(metadata));
        from_value(Value::Object(object))
    };
    Ok(Patched {
        spec,
        finalizers,
        owner_references,
        resource_version,
    })
}

/// The custom resource's status after a patch of `/status`, and the
/// resourceVersion the patch carries: the status subresource keeps only
/// `status` (`statusStrategy.PrepareForUpdate`).
pub fn read_status(
    name: &str,
    old: &Value,
    patched: Value,
    uid: u64,
) -> Result<(Json, Option<u64>), ApiError> {
    let Value::Object(mut object) = patched else {
        return Err(ApiError::Invalid {
            name: name.to_owned(),
            field: "patch".to_owned(),
            message: "the patched object is not a JSON object".to_owned(),
        });
    };
    let metadata = match object.remove("metadata") {
        Some(Value::Object(metadata)) => metadata,
        _ => Map::new(),
    };
    let resource_version = identity(name, old, &metadata, uid)?;
    let status = object.remove("status").map_or(Json::Null, from_value);
    Ok((status, resource_version))
}

/// The metadata a patch of the custom resource may change: its
/// finalizers, with the resourceVersion the patch carries.
pub fn read_metadata(
    name: &str,
    old: &Value,
    patched: &Value,
    uid: u64,
) -> Result<Patched, ApiError> {
    let empty = Map::new();
    let metadata = patched
        .get("metadata")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let resource_version = identity(name, old, metadata, uid)?;
    let finalizers = finalizers(metadata.get("finalizers")).ok_or_else(|| ApiError::Invalid {
        name: name.to_owned(),
        field: "metadata.finalizers".to_owned(),
        message: "must be a list of strings".to_owned(),
    })?;
    Ok(Patched {
        spec: Json::Null,
        finalizers,
        owner_references: OwnerRefs::default(),
        resource_version,
    })
}

/// What every patched object must keep: the name on the URL (400) and the
/// uid (422). Returns the resourceVersion it carries.
fn identity(
    name: &str,
    old: &Value,
    metadata: &Map<String, Value>,
    uid: u64,
) -> Result<Option<u64>, ApiError> {
    let invalid = |field: &str, message: &str| ApiError::Invalid {
        name: name.to_owned(),
        field: field.to_owned(),
        message: message.to_owned(),
    };
    let url_name = old["metadata"]["name"].as_str().unwrap_or(name);
    let own = metadata.get("name").and_then(Value::as_str).unwrap_or("");
    if own != url_name {
        return Err(ApiError::BadRequest {
            message: format!(
                "the name of the object ({own}) does not match the name on the URL ({url_name})"
            ),
        });
    }
    if let Some(given) = metadata.get("uid").filter(|v| !is_empty(v)) {
        if given.as_str() != Some(uid.to_string().as_str()) {
            return Err(invalid("metadata.uid", "field is immutable"));
        }
    }
    match metadata.get("resourceVersion").filter(|v| !is_empty(v)) {
        None => Ok(None),
        Some(v) => v
            .as_str()
            .and_then(|s| s.parse::<u64>().ok())
            .map(Some)
            .ok_or_else(|| invalid("metadata.resourceVersion", "must be a resourceVersion")),
    }
}

fn is_empty(value: &Value) -> bool {
    value.is_null() || value.as_str() == Some("")
}

/// A generic object's spec, or the first field it cannot keep.
fn generic_spec(
    object: &Map<String, Value>,
    metadata: &Map<String, Value>,
) -> Result<Json, String> {
    if let Some(key) = metadata
        .keys()
        .find(|k| !matches!(k.as_str(), "name" | "namespace"))
    {
        return Err(format!("metadata.{key}"));
    }
    if metadata.get("namespace").and_then(Value::as_str) != Some(NAMESPACE) {
        return Err("metadata.namespace".to_owned());
    }
    if let Some(key) = object
        .keys()
        .find(|k| !matches!(k.as_str(), "apiVersion" | "kind" | "spec"))
    {
        return Err(key.clone());
    }
    Ok(object
        .get("spec")
        .map_or(Json::Null, |v| from_value(v.clone())))
}

fn finalizers(value: Option<&Value>) -> Option<Vec<String>> {
    match value {
        None | Some(Value::Null) => Some(Vec::new()),
        Some(Value::Array(items)) => items
            .iter()
            .map(|v| v.as_str().map(str::to_owned))
            .collect(),
        Some(_) => None,
    }
}

/// `metadata.ownerReferences`, validated as `ValidateOwnerReferences` does,
/// and deduplicated as the patch handler's `dedupOwnerReferences` does.
fn owner_references(name: &str, value: Option<&Value>) -> Result<OwnerRefs, ApiError> {
    let items = match value {
        None | Some(Value::Null) => return Ok(OwnerRefs::default()),
        Some(Value::Array(items)) => items,
        Some(_) => return Err(reference_error(name, "", "must be a list")),
    };
    let mut refs: Vec<OwnerReference> = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let text = |key: &str| {
            item.get(key)
                .and_then(Value::as_str)
                .filter(|s| !s.is_empty())
        };
        let field = |key: &str| format!("[{i}].{key}");
        let (Some(api_version), Some(kind), Some(owner)) =
            (text("apiVersion"), text("kind"), text("name"))
        else {
            return Err(reference_error(
                name,
                &field("name"),
                "apiVersion, kind and name must be set",
            ));
        };
        let uid = text("uid")
            .and_then(|s| s.parse::<u64>().ok())
            .ok_or_else(|| reference_error(name, &field("uid"), "must be a uid"))?;
        let flag = |key: &str| item.get(key).and_then(Value::as_bool).unwrap_or(false);
        let custom = api_version == API_VERSION && kind == CUSTOM_RESOURCE_KIND;
        let reference = OwnerReference {
            owner: if custom {
                ObjectKey::CustomResource(Arc::from(owner))
            } else {
                ObjectKey::Object(Arc::from(owner))
            },
            uid,
            controller: flag("controller"),
            block_owner_deletion: flag("blockOwnerDeletion"),
        };
        if !refs.contains(&reference) {
            refs.push(reference);
        }
    }
    if refs.iter().filter(|r| r.controller).count() > 1 {
        return Err(reference_error(
            name,
            "",
            "Only one reference can have Controller set to true",
        ));
    }
    Ok(OwnerRefs::new(refs))
}

fn reference_error(name: &str, field: &str, message: &str) -> ApiError {
    ApiError::Invalid {
        name: name.to_owned(),
        field: format!("metadata.ownerReferences{field}"),
        message: message.to_owned(),
    }
}

/// The spec's JSON as `serde_json` holds it. Converted by hand: serde's
/// generic path costs the wasm modules kilobytes.
pub fn to_value(spec: &Json) -> Value {
    match spec {
        Json::Null => Value::Null,
        Json::Bool(b) => Value::Bool(*b),
        Json::Number(Number::Unsigned(n)) => Value::from(*n),
        Json::Number(Number::Signed(n)) => Value::from(*n),
        Json::Number(Number::Float(n)) => {
            serde_json::Number::from_f64(*n).map_or(Value::Null, Value::Number)
        }
        Json::String(s) => Value::String(s.to_string()),
        Json::Array(items) => Value::Array(items.iter().map(to_value).collect()),
        Json::Object(members) => {
            // Inserted one by one: collecting a `Map` links a stable sort and
            // a bulk build of its B-tree for this one use (docs/SIZE.md).
            let mut object = Map::new();
            for (key, value) in members.iter() {
                object.insert(key.to_string(), to_value(value));
            }
            Value::Object(object)
        }
    }
}

/// Back to the contract's JSON.
pub fn from_value(value: Value) -> Json {
    match value {
        Value::Null => Json::Null,
        Value::Bool(b) => Json::Bool(b),
        Value::Number(n) => Json::Number(match (n.as_u64(), n.as_i64()) {
            (Some(n), _) => Number::Unsigned(n),
            (None, Some(n)) => Number::Signed(n),
            _ => Number::Float(n.as_f64().unwrap_or(0.0)),
        }),
        Value::String(s) => Json::string(&s),
        Value::Array(items) => Json::array(items.into_iter().map(from_value).collect()),
        Value::Object(members) => Json::object(
            members
                .into_iter()
                .map(|(key, value)| (key.into_boxed_str(), from_value(value)))
                .collect(),
        ),
    }
}

#[cfg(test)]
#[path = "object_tests.rs"]
mod tests;

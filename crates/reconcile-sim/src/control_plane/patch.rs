//! PATCH: a JSON merge patch (RFC 7386) or a JSON patch (RFC 6902) of an
//! object, applied by the `json-patch` crate and answered as the API
//! server's patch handler answers. Start at [`World::patch`].
//!
//! Follows `k8s.io/apiserver` `pkg/endpoints/handlers/patch.go`
//! (`jsonPatcher.applyJSPatch`, `patcher.applyPatch`, `checkName`): the patch
//! applies to the object the server stores now, so one that carries no
//! resourceVersion cannot conflict; one that carries a stale one gets 409
//! from `Store.Update`.
//!
//! # Guarantees
//! - A JSON patch that does not decode, or a `null` merge patch, is 400
//!   BadRequest. A JSON patch operation that fails (a `test`, a missing
//!   path) is 422, and nothing is written.
//! - Negative array indices count from the end, as the server's
//!   `evanphx/json-patch.v4` allows (`/metadata/finalizers/-1`).
//! - The patched object is then an update ([`World::update`]): defaults,
//!   finalizer rules and the no-op check apply as to a PUT.
//! - A spec keeps its key order where its keys stay.
//!
//! # Caveats
//! - No strategic merge patch: the playground's kinds have no patch
//!   strategies. (Custom resources refuse it upstream too.)
//! - No limit of 10,000 operations (`maxJSONPatchOperations`).

use json_patch::jsonptr::{Pointer, PointerBuf};
use json_patch::{
    AddOperation, CopyOperation, MoveOperation, PatchOperation, RemoveOperation, ReplaceOperation,
    TestOperation,
};
use reconcile_core::json::Json;
use serde_json::Value;

use super::apiserver::{ApiError, Update, UpdateOutcome};
use super::object::{self, to_value};
use super::ownership::ObjectKey;
use super::world::World;

/// The two patch types the API server takes for every kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PatchType {
    /// `application/merge-patch+json` (RFC 7386).
    Merge,
    /// `application/json-patch+json` (RFC 6902).
    Json,
}

/// A patch as a client sends it: its type and its body.
#[derive(Debug, Clone, PartialEq)]
pub struct Patch {
    pub patch_type: PatchType,
    pub body: Json,
}

impl Patch {
    pub fn merge(body: Json) -> Self {
        Self {
            patch_type: PatchType::Merge,
            body,
        }
    }

    pub fn json(body: Json) -> Self {
        Self {
            patch_type: PatchType::Json,
            body,
        }
    }

    /// With an optimistic lock on `resource_version`: in a merge patch as
    /// controller-runtime's `MergeFromWithOptimisticLock` writes it; a JSON
    /// patch replaces it first. Either way `Store.Update` answers a stale
    /// one with 409. (A JSON patch that `test`s it instead gets 422.)
    pub fn with_resource_version(self, resource_version: u64) -> Self {
        let version = Json::string(&resource_version.to_string());
        let body = match (self.patch_type, &self.body) {
            (PatchType::Merge, _) => {
                let mut body = self.body.clone();
                let path = ["metadata".to_owned(), "resourceVersion".to_owned()];
                body.set_path(&path, version);
                body
            }
            (PatchType::Json, Json::Array(ops)) => {
                let lock = Json::object(vec![
                    ("op".into(), Json::string("replace")),
                    ("path".into(), Json::string("/metadata/resourceVersion")),
                    ("value".into(), version),
                ]);
                Json::array(std::iter::once(lock).chain(ops.iter().cloned()).collect())
            }
            (PatchType::Json, _) => self.body.clone(),
        };
        Self { body, ..self }
    }

    /// The object after the patch, or the server's refusal.
    pub fn apply(&self, object: &Value) -> Result<Value, ApiError> {
        match self.patch_type {
            PatchType::Merge => {
                let body = to_value(&self.body);
                if body.is_null() {
                    return Err(bad_request("Invalid JSON Patch"));
                }
                let mut patched = object.clone();
                json_patch::merge(&mut patched, &body);
                Ok(patched)
            }
            PatchType::Json => {
                // `DecodePatch`: only a body that is no list of objects is 400.
                let ops = self
                    .body
                    .as_array()
                    .filter(|ops| ops.iter().all(|op| op.as_object().is_some()))
                    .ok_or_else(|| bad_request("a JSON patch is a list of operations"))?;
                let mut patched = object.clone();
                for op in ops {
                    let op = operation(&patched, op).map_err(rejected)?;
                    json_patch::patch(&mut patched, &[op]).map_err(|e| rejected(e.to_string()))?;
                }
                Ok(patched)
            }
        }
    }
}

/// One operation, its pointers resolved against `doc` as it stands before
/// it. What `Apply` refuses (an unknown op, a missing member) is an error.
fn operation(doc: &Value, op: &Json) -> Result<PatchOperation, String> {
    let text = |key: &str| op.get(key).and_then(Json::as_str);
    let pointer = |key: &str| -> Result<PointerBuf, String> {
        let given = text(key).ok_or_else(|| format!("operation missing {key}"))?;
        let resolved = resolve_pointer(doc, given)?;
        Pointer::parse(&resolved)
            .map(Pointer::to_buf)
            .map_err(|e| e.to_string())
    };
    let value = || {
        op.get("value")
            .map(to_value)
            .ok_or_else(|| "operation missing value".to_owned())
    };
    let path = pointer("path")?;
    Ok(match text("op").unwrap_or("") {
        "add" => PatchOperation::Add(AddOperation {
            path,
            value: value()?,
        }),
        "remove" => PatchOperation::Remove(RemoveOperation { path }),
        "replace" => PatchOperation::Replace(ReplaceOperation {
            path,
            value: value()?,
        }),
        "move" => PatchOperation::Move(MoveOperation {
            from: pointer("from")?,
            path,
        }),
        "copy" => PatchOperation::Copy(CopyOperation {
            from: pointer("from")?,
            path,
        }),
        "test" => PatchOperation::Test(TestOperation {
            path,
            value: value()?,
        }),
        other => return Err(format!("Unexpected kind: {other}")),
    })
}

fn bad_request(message: &str) -> ApiError {
    ApiError::BadRequest {
        message: message.to_owned(),
    }
}

/// 422, as `applyJSPatch` answers an operation that fails.
fn rejected(reason: String) -> ApiError {
    ApiError::Invalid {
        name: String::new(),
        field: "patch".to_owned(),
        message: format!(
            "the server rejected our request due to an error in our request: {reason}"
        ),
    }
}

/// `pointer` with each negative array index counted from the end of that
/// array in `doc`, as `evanphx/json-patch.v4` does.
fn resolve_pointer(doc: &Value, pointer: &str) -> Result<String, String> {
    let mut current = Some(doc);
    let mut out = String::new();
    for token in pointer.split('/').skip(1) {
        let mut token = token.to_owned();
        if let (Some(Value::Array(items)), Ok(index)) = (current, token.parse::<i64>()) {
            if index < 0 {
                let len = i64::try_from(items.len()).unwrap_or(i64::MAX);
                if -index > len {
                    return Err(format!("index {index} out of bounds in {pointer}"));
                }
                token = (len + index).to_string();
            }
        }
        current = match current {
            Some(Value::Array(items)) => token.parse::<usize>().ok().and_then(|i| items.get(i)),
            Some(Value::Object(members)) => members.get(&unescape(&token)),
            _ => None,
        };
        out.push('/');
        out.push_str(&token);
    }
    Ok(out)
}

fn unescape(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}

impl World {
    /// PATCH of object `name`: the patch applies to the object as stored,
    /// then stands as an update of it.
    pub fn patch(&mut self, name: &str, patch: &Patch) -> Result<UpdateOutcome, ApiError> {
        let state = self.object(name).ok_or_else(|| ApiError::NotFound {
            name: name.to_owned(),
        })?;
        let old = object::render(self, name, &state);
        let patched = patch.apply(&old).map_err(|e| named(e, name))?;
        let read = object::read(name, &old, patched, state.meta.uid)?;
        require_resource_version(name, &state.spec, read.resource_version)?;
        let update = Update {
            spec: Some(keep_order(read.spec, &state.spec)),
            finalizers: Some(read.finalizers),
            owner_references: Some(read.owner_references),
            resource_version: read.resource_version,
        };
        self.update(name, update)
    }
}

/// PATCH of the custom resource itself: what the playground stores of it is
/// its metadata, so the patch may change `metadata.finalizers`. Its spec is
/// the Desired document, which a patch may not change (422); `status` is
/// the status subresource's, which the main resource ignores, as a custom
/// resource with a status subresource does (`PrepareForUpdate`).
pub fn patch_custom_resource(
    world: &mut World,
    name: &str,
    desired: &Json,
    patch: &Patch,
) -> Result<UpdateOutcome, ApiError> {
    let key = ObjectKey::custom_resource(name);
    let state = world.get(&key).ok_or_else(|| ApiError::NotFound {
        name: name.to_owned(),
    })?;
    let old = object::render_custom_resource(world, name, &state, desired);
    let patched = patch.apply(&old).map_err(|e| named(e, name))?;
    if patched.get("spec") != old.get("spec") {
        return Err(ApiError::Invalid {
            name: name.to_owned(),
            field: "spec".to_owned(),
            message: "the playground's custom resource takes its spec from the Desired document"
                .to_owned(),
        });
    }
    let read = object::read_metadata(name, &old, &patched, state.meta.uid)?;
    let update = Update {
        finalizers: Some(read.finalizers),
        resource_version: read.resource_version,
        ..Update::default()
    };
    world.in_key_space(&key, |space, name| space.update(name, update))
}

fn named(error: ApiError, name: &str) -> ApiError {
    match error {
        ApiError::Invalid { field, message, .. } => ApiError::Invalid {
            name: name.to_owned(),
            field,
            message,
        },
        other => other,
    }
}

/// 422 Invalid for an update of `name` (stored as `spec`) without a
/// resourceVersion, unless its kind allows an unconditional update:
/// `Store.Update` (`staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go`)
/// checks `AllowUnconditionalUpdate` when the new object's version is 0.
pub fn require_resource_version(
    name: &str,
    spec: &Json,
    resource_version: Option<u64>,
) -> Result<(), ApiError> {
    if resource_version.is_some() || allows_unconditional_update(spec) {
        return Ok(());
    }
    Err(ApiError::Invalid {
        name: name.to_owned(),
        field: "metadata.resourceVersion".to_owned(),
        message: "must be specified for an update".to_owned(),
    })
}

/// `AllowUnconditionalUpdate`: built-in kinds take an update without a
/// resourceVersion; custom resources (`customResourceStrategy`) do not.
/// A group with no dot, or ending in `.k8s.io`, is taken as built in.
pub fn allows_unconditional_update(spec: &Json) -> bool {
    if !object::is_manifest(spec) {
        return false;
    }
    let api_version = spec.get("apiVersion").and_then(Json::as_str).unwrap_or("");
    let group = api_version.rsplit_once('/').map_or("", |(group, _)| group);
    !group.contains('.') || group.ends_with(".k8s.io")
}

/// `new` with its object members in `old`'s order where `old` has them;
/// the rest follow in `new`'s order.
pub fn keep_order(new: Json, old: &Json) -> Json {
    match (&new, old) {
        (Json::Object(members), Json::Object(before)) => {
            let mut ordered: Vec<(Box<str>, Json)> = Vec::with_capacity(members.len());
            for (key, old_value) in before.iter() {
                if let Some((_, value)) = members.iter().find(|(k, _)| k == key) {
                    ordered.push((key.clone(), keep_order(value.clone(), old_value)));
                }
            }
            for (key, value) in members.iter() {
                if !before.iter().any(|(k, _)| k == key) {
                    ordered.push((key.clone(), value.clone()));
                }
            }
            Json::object(ordered)
        }
        (Json::Array(items), Json::Array(before)) => Json::array(
            items
                .iter()
                .enumerate()
                .map(|(i, item)| match before.get(i) {
                    Some(old_item) => keep_order(item.clone(), old_item),
                    None => item.clone(),
                })
                .collect(),
        ),
        _ => new,
    }
}

#[cfg(test)]
#[path = "patch_tests.rs"]
mod tests;

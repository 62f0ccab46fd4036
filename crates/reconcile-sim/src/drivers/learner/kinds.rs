//! The kinds an exercise has, and where their objects live in the store.
//! Start at [`Kinds::resolve`].
//!
//! The custom resource lives in its own key space, under its name. Any
//! other kind is a manifest, stored under `Kind/namespace/name`, as the
//! playground keys every manifest (`docs/design/control-plane.md`).

use std::sync::Arc;

use serde_json::Value;

use super::call::CallError;
use crate::object::{API_VERSION, CUSTOM_RESOURCE_KIND, NAMESPACE};
use crate::ownership::ObjectKey;

/// One kind a learner's client may name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kind {
    pub api_version: &'static str,
    pub kind: &'static str,
}

/// The custom resource's kind: `reconcile.example.com/v1` `Desired`.
pub const CUSTOM_RESOURCE: Kind = Kind {
    api_version: API_VERSION,
    kind: CUSTOM_RESOURCE_KIND,
};

/// The cloud's load balancers: not a Kubernetes kind. An exercise whose
/// kinds list it has a cloud; `get` and `list` never name it.
pub const LOAD_BALANCER: Kind = Kind {
    api_version: "cloud.example.com/v1",
    kind: "LoadBalancer",
};

/// An object a call names: its kind, its store key and its own name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    pub kind: Kind,
    pub key: ObjectKey,
    pub name: String,
    pub namespace: String,
}

impl Target {
    /// Whether it is the custom resource.
    pub fn is_custom_resource(&self) -> bool {
        matches!(self.key, ObjectKey::CustomResource(_))
    }

    /// The store key as text, for messages.
    pub fn key_text(&self) -> &str {
        match &self.key {
            ObjectKey::CustomResource(name) | ObjectKey::Object(name) => name,
        }
    }
}

/// The kinds of one exercise; the custom resource's is always one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kinds(pub Vec<Kind>);

impl Kinds {
    /// The kind named `kind`, or a misuse error of `method` listing those there are.
    pub fn named(&self, method: &'static str, kind: &str) -> Result<&Kind, CallError> {
        let api_kinds = || self.0.iter().filter(|k| **k != LOAD_BALANCER);
        api_kinds().find(|k| k.kind == kind).ok_or_else(|| {
            let known: Vec<&str> = api_kinds().map(|k| k.kind).collect();
            CallError::misuse(
                method,
                format!(
                    "this exercise has no kind {kind:?}; it has {}",
                    known.join(", ")
                ),
            )
        })
    }

    /// The object `name` of `kind` in `namespace`.
    pub fn resolve(
        &self,
        method: &'static str,
        kind: &str,
        namespace: &str,
        name: &str,
    ) -> Result<Target, CallError> {
        let kind = self.named(method, kind)?.clone();
        if name.is_empty() {
            return Err(CallError::misuse(method, "the name is empty"));
        }
        if name.contains('/') {
            return Err(CallError::misuse(
                method,
                format!("the name {name:?} has a '/', which no object name may have"),
            ));
        }
        let key = if kind == CUSTOM_RESOURCE {
            if namespace != NAMESPACE {
                return Err(CallError::misuse(
                    method,
                    format!("the custom resources of this exercise are in namespace {NAMESPACE:?}"),
                ));
            }
            ObjectKey::CustomResource(Arc::from(name))
        } else {
            ObjectKey::Object(Arc::from(format!("{}/{namespace}/{name}", kind.kind)))
        };
        Ok(Target {
            kind,
            key,
            name: name.to_owned(),
            namespace: namespace.to_owned(),
        })
    }

    /// The object a call carries: its kind and apiVersion must be the
    /// exercise's, and it must have a name (or, to `create`, a
    /// `generateName`). Returns its target, and its `generateName` if it
    /// has no name.
    pub fn of_object(
        &self,
        method: &'static str,
        object: &Value,
        namespace: &str,
    ) -> Result<(Target, Option<String>), CallError> {
        let text = |value: Option<&Value>| value.and_then(Value::as_str).map(str::to_owned);
        if !object.is_object() {
            return Err(CallError::misuse(method, "the object is not a JSON object"));
        }
        let Some(kind) = text(object.get("kind")) else {
            return Err(CallError::misuse(method, "the object has no kind"));
        };
        let known = self.named(method, &kind)?;
        let api_version = text(object.get("apiVersion"));
        if api_version.as_deref() != Some(known.api_version) {
            return Err(CallError::misuse(
                method,
                format!(
                    "a {kind} has apiVersion {:?}, not {api_version:?}",
                    known.api_version
                ),
            ));
        }
        let metadata = object.get("metadata");
        let namespace =
            text(metadata.and_then(|m| m.get("namespace"))).unwrap_or_else(|| namespace.to_owned());
        let name = text(metadata.and_then(|m| m.get("name"))).filter(|n| !n.is_empty());
        let generate = text(metadata.and_then(|m| m.get("generateName"))).filter(|n| !n.is_empty());
        match (name, generate) {
            (Some(name), _) => Ok((self.resolve(method, &kind, &namespace, &name)?, None)),
            (None, Some(prefix)) if method == "create" && known != &CUSTOM_RESOURCE => {
                // Keyed and named by the prefix until the server adds the
                // random suffix (`Store.create`, `names.SimpleNameGenerator`).
                let target = self.resolve(method, &kind, &namespace, &prefix)?;
                Ok((target, Some(prefix)))
            }
            _ => Err(CallError::misuse(
                method,
                format!("the {kind} has no metadata.name"),
            )),
        }
    }
}

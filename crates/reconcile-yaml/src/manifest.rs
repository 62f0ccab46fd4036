//! Kubernetes manifests as the playground's resources: a multi-document YAML
//! stream, or a `kind: List` (what `kubectl get -o yaml` prints), or one
//! object or a List in JSON (`kubectl get -o json`).
//!
//! Invariant: every object becomes exactly one resource, and nothing of it
//! is lost.
//! - Its name is `Kind/namespace/name` (`default` when a namespaced object
//!   gives no namespace), or `Kind/name` for a cluster-scoped kind
//!   ([`crate::scope`]); two objects with one name are an error.
//! - Its spec is the object with its namespace filled in (`default`), and
//!   without `metadata.finalizers` and without the
//!   fields the API server fills in ([`SERVER_FIELDS`], [`SERVER_METADATA`]),
//!   so a spec copied from `kubectl get` compares equal to the manifest it
//!   was applied from, as far as the server's own fields go. Fields the
//!   server fills with defaults (a Deployment's `strategy`) stay in.
//! - What was taken out is kept beside it in [`ManifestObject`]: the
//!   finalizers (which fill the Finalizers document), the set-aside fields
//!   (for a UI to show, never compared), and `metadata.deletionTimestamp`,
//!   which marks the object terminating.

use std::collections::HashMap;

use reconcile_core::{
    finalizer_list_from_value, json_from_value, Document, ErrorKind, InputError, Json, JsonPath,
    Resources, UnlocatedError,
};
use serde::Serialize;

use crate::locate;
use crate::reader::YamlDocument;
use crate::scope::is_cluster_scoped;

/// Top-level fields the API server writes, set aside.
pub const SERVER_FIELDS: [&str; 1] = ["status"];

/// `metadata` fields the API server writes, set aside. `deletionTimestamp`
/// is also what makes an object terminating ([`ManifestObject::deletion_timestamp`]).
pub const SERVER_METADATA: [&str; 8] = [
    "uid",
    "resourceVersion",
    "generation",
    "creationTimestamp",
    "managedFields",
    "selfLink",
    "deletionTimestamp",
    "deletionGracePeriodSeconds",
];

/// How manifests are read.
#[derive(Debug, Clone, Default)]
pub struct ManifestOptions {
    /// Kinds beyond the built-in ones to treat as cluster-scoped (a custom
    /// resource whose definition says `scope: Cluster`).
    pub cluster_scoped: Vec<String>,
}

/// One object of a manifest, beside the resource it became.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct ManifestObject {
    /// The resource name: `Kind/namespace/name` or `Kind/name`.
    pub name: String,
    pub kind: String,
    /// `null` (`None`) for a cluster-scoped kind.
    pub namespace: Option<String>,
    /// `metadata.finalizers`, taken out of the spec.
    pub finalizers: Vec<String>,
    /// The server-populated fields taken out of the spec, nested as they
    /// were (`{"metadata": {"uid": …}, "status": {…}}`); `{}` when none.
    pub set_aside: Json,
    /// `metadata.deletionTimestamp`: the object is terminating.
    pub deletion_timestamp: Option<String>,
    /// Where the object starts in the text (1-based): its document's first
    /// line (its `---`, if it has one), or its item's in a List.
    pub line: usize,
}

/// Whether a stream is manifests rather than one `{name: spec}` document:
/// more than one document, or one whose top level has a string `apiVersion`
/// and a string `kind`.
pub fn is_manifest_stream(documents: &[YamlDocument]) -> bool {
    match documents {
        [] => false,
        [only] => is_object_manifest(&only.value),
        _ => true,
    }
}

pub(crate) fn is_object_manifest(value: &Json) -> bool {
    value.get("apiVersion").and_then(Json::as_str).is_some()
        && value.get("kind").and_then(Json::as_str).is_some()
}

/// The resources of a manifest stream and the objects they came from, in name order.
pub(crate) fn read_manifests(
    document: Document,
    text: &str,
    documents: &[YamlDocument],
    options: &ManifestOptions,
) -> Result<(Resources, Vec<ManifestObject>), InputError> {
    let mut reader = ManifestReader {
        document,
        text,
        options,
        objects: Vec::new(),
        entries: Vec::new(),
        lines: HashMap::new(),
    };
    for (index, yaml) in documents.iter().enumerate() {
        // An empty document (a stray `---`) holds nothing.
        if matches!(yaml.value, Json::Null) {
            continue;
        }
        // No member name twice, by core's rule and message.
        let value = json_from_value(&yaml.value).map_err(|e| reader.place(index, e))?;
        reader.document_objects(index, &value, yaml.start.line)?;
    }
    let ManifestReader {
        mut objects,
        entries,
        ..
    } = reader;
    objects.sort_by(|a, b| a.name.cmp(&b.name));
    Ok((Resources::from_unique(entries), objects))
}

struct ManifestReader<'a> {
    document: Document,
    text: &'a str,
    options: &'a ManifestOptions,
    objects: Vec<ManifestObject>,
    entries: Vec<(String, Json)>,
    /// Each resource name so far and the line of its object.
    lines: HashMap<String, usize>,
}

impl ManifestReader<'_> {
    fn place(&self, index: usize, error: UnlocatedError) -> InputError {
        locate::place(self.document, self.text, index, error)
    }

    fn shape(&self, index: usize, path: JsonPath, message: String) -> InputError {
        self.place(
            index,
            UnlocatedError {
                kind: ErrorKind::Shape,
                path,
                message,
            },
        )
    }

    /// The objects of one YAML document: itself, or a List's items.
    fn document_objects(
        &mut self,
        index: usize,
        value: &Json,
        start: usize,
    ) -> Result<(), InputError> {
        let root = JsonPath::root();
        if !is_object_manifest(value) {
            return Err(self.shape(
                index,
                root,
                format!(
                    "expected a Kubernetes object (a mapping with apiVersion, kind and metadata.name), found {}",
                    describe(value)
                ),
            ));
        }
        let kind = value.get("kind").and_then(Json::as_str).unwrap_or_default();
        match value.get("items") {
            Some(items) if kind.ends_with("List") => {
                let Some(items) = items.as_array() else {
                    return Err(self.shape(
                        index,
                        root.key("items"),
                        format!("expected an array of objects, found {}", items.type_name()),
                    ));
                };
                // One reading of the text for every item's line, not one per item.
                let lines = locate::item_positions(self.text, index, &root.key("items"));
                for (at, item) in items.iter().enumerate() {
                    let path = root.key("items").index(at);
                    let line = lines.get(at).map_or(start, |position| position.line);
                    if !is_object_manifest(item) {
                        return Err(self.shape(
                            index,
                            path,
                            format!("expected a Kubernetes object (a mapping with apiVersion, kind and metadata.name), found {}", describe(item)),
                        ));
                    }
                    self.object(index, &path, item, line)?;
                }
                Ok(())
            }
            _ => self.object(index, &root, value, start),
        }
    }

    /// One object at `path` of document `index`.
    fn object(
        &mut self,
        index: usize,
        path: &JsonPath,
        object: &Json,
        line: usize,
    ) -> Result<(), InputError> {
        let kind = object
            .get("kind")
            .and_then(Json::as_str)
            .unwrap_or_default()
            .to_owned();
        let metadata_path = path.key("metadata");
        let Some(metadata) = object.get("metadata").filter(|m| m.as_object().is_some()) else {
            return Err(self.shape(
                index,
                path.clone(),
                "expected metadata (a mapping with a name) in a Kubernetes object".to_owned(),
            ));
        };
        let name = match metadata.get("name").and_then(Json::as_str) {
            Some(name) if !name.is_empty() => name.to_owned(),
            _ => {
                return Err(self.shape(
                    index,
                    metadata_path.key("name"),
                    "expected metadata.name, a non-empty string (an object with only generateName has no name until the server gives it one)".to_owned(),
                ))
            }
        };
        let namespace = match metadata.get("namespace") {
            None | Some(Json::Null) => None,
            Some(Json::String(namespace)) => Some(namespace.to_string()),
            Some(other) => {
                return Err(self.shape(
                    index,
                    metadata_path.key("namespace"),
                    format!(
                        "expected metadata.namespace to be a string, found {}",
                        other.type_name()
                    ),
                ))
            }
        };
        let finalizers = match metadata.get("finalizers") {
            None | Some(Json::Null) => Vec::new(),
            Some(list) => finalizer_list_from_value(list).map_err(|mut error| {
                error.path = metadata_path.key("finalizers").join(&error.path);
                self.place(index, error)
            })?,
        };
        let namespace = (!is_cluster_scoped(&kind, &self.options.cluster_scoped))
            .then(|| namespace.unwrap_or_else(|| "default".to_owned()));
        let resource = match &namespace {
            Some(namespace) => format!("{kind}/{namespace}/{name}"),
            None => format!("{kind}/{name}"),
        };
        if let Some(first_line) = self.lines.get(&resource) {
            // At this object's name: the repeat is of the resource, not of a key.
            return Err(locate::place_at(
                self.document,
                self.text,
                index,
                UnlocatedError {
                    kind: ErrorKind::DuplicateKey,
                    path: metadata_path.key("name"),
                    message: format!(
                        "duplicate resource {}; the same object is at line {} already",
                        reconcile_core::json::quoted(&resource),
                        first_line
                    ),
                },
                locate::Target::Value,
            ));
        }
        let (spec, set_aside) = split_server_fields(object, namespace.as_deref());
        let deletion_timestamp = set_aside
            .get("metadata")
            .and_then(|m| m.get("deletionTimestamp"))
            .and_then(Json::as_str)
            .map(str::to_owned);
        self.lines.insert(resource.clone(), line);
        self.objects.push(ManifestObject {
            name: resource.clone(),
            kind,
            namespace,
            finalizers,
            set_aside,
            deletion_timestamp,
            line,
        });
        self.entries.push((resource, spec));
        Ok(())
    }
}

/// The object without `metadata.finalizers` and the server's fields, and
/// those fields (not the finalizers) nested as they were.
///
/// A namespaced object without `metadata.namespace` gets the one its name
/// says (`default`), as the API server would store it, so a manifest that
/// leaves it out does not differ from what `kubectl get` prints.
fn split_server_fields(object: &Json, namespace: Option<&str>) -> (Json, Json) {
    let mut spec = Vec::new();
    let mut set_aside = Vec::new();
    for (key, value) in object.as_object().unwrap_or_default() {
        if SERVER_FIELDS.contains(&&**key) {
            set_aside.push((key.clone(), value.clone()));
        } else if &**key == "metadata" {
            let (kept, server) = split_metadata(value, namespace);
            spec.push((key.clone(), kept));
            if !server.is_empty() {
                set_aside.push((key.clone(), Json::object(server)));
            }
        } else {
            spec.push((key.clone(), value.clone()));
        }
    }
    (Json::object(spec), Json::object(set_aside))
}

fn split_metadata(metadata: &Json, namespace: Option<&str>) -> (Json, Vec<(Box<str>, Json)>) {
    let mut kept = Vec::new();
    let mut server = Vec::new();
    for (key, value) in metadata.as_object().unwrap_or_default() {
        if SERVER_METADATA.contains(&&**key) {
            server.push((key.clone(), value.clone()));
        } else if &**key != "finalizers" {
            kept.push((key.clone(), value.clone()));
        }
    }
    let has_namespace = kept
        .iter()
        .any(|(key, value)| &**key == "namespace" && !matches!(value, Json::Null));
    if let (Some(namespace), false) = (namespace, has_namespace) {
        // After the name, where manifests put it.
        kept.retain(|(key, _)| &**key != "namespace");
        let at = kept
            .iter()
            .position(|(key, _)| &**key == "name")
            .map_or(0, |i| i + 1);
        kept.insert(at, ("namespace".into(), Json::string(namespace)));
    }
    (Json::object(kept), server)
}

/// "a string", "an array", … for messages; a mapping is "a mapping without apiVersion and kind".
fn describe(value: &Json) -> String {
    match value {
        Json::Object(_) => "a mapping without a string apiVersion and kind".to_owned(),
        other => other.type_name().to_owned(),
    }
}

/// The objects of a desired document as `kubectl apply -f` takes them:
/// each spec as it is, with the `metadata.finalizers` its manifest had put
/// back (last in its metadata). The fields set aside are not put back: they
/// are the server's to write. Resources that were no manifest are as they are.
pub fn objects_to_apply(read: &crate::ReadResources) -> Vec<Json> {
    read.resources
        .iter()
        .map(|(name, spec)| {
            let finalizers = read
                .manifests
                .binary_search_by(|object| object.name.as_str().cmp(name))
                .ok()
                .map(|at| &read.manifests[at].finalizers)
                .filter(|list| !list.is_empty());
            match finalizers {
                Some(list) => with_finalizers(spec, list),
                None => spec.clone(),
            }
        })
        .collect()
}

/// `object` with `metadata.finalizers` set to `list`.
fn with_finalizers(object: &Json, list: &[String]) -> Json {
    let finalizers = Json::Array(std::sync::Arc::new(
        list.iter().map(|f| Json::string(f)).collect(),
    ));
    let members = object
        .as_object()
        .unwrap_or_default()
        .iter()
        .map(|(key, value)| {
            let value = match (&**key, value.as_object()) {
                ("metadata", Some(metadata)) => {
                    let mut metadata = metadata.to_vec();
                    metadata.push(("finalizers".into(), finalizers.clone()));
                    Json::object(metadata)
                }
                _ => value.clone(),
            };
            (key.clone(), value)
        });
    Json::object(members.collect())
}

//! Start at `read_documents` and `read_scenario_in`; the editors use `read_cache`.
//!
//! YAML and Kubernetes manifests for the playground: YAML text in, core's own
//! values and resources out (one model, one path grammar: `reconcile_core`'s
//! [`Json`] and [`JsonPath`]), with errors located as the JSON reader locates
//! them (document, line:column, JSON path, what was expected); and YAML out.
//!
//! # How it reads
//! A YAML document becomes core's `Json`, built from saphyr-parser's events
//! with the depth, alias and tag limits. Core's own seeds then read that
//! value (`resources_from_value`, `finalizers_from_value`,
//! `scenario_from_value`, `json_from_value`), so shapes, duplicate keys and
//! messages are the JSON reader's. The error's `JsonPath` is then placed at
//! its line and column by reading the text's events again (`locate`).
//! `read_cache` is what the editors keep between reads; property tests check
//! it against fresh reads. `scope` lists the cluster-scoped kinds, checked
//! against upstream.
//!
//! # Formats
//! A document whose first character other than JSON whitespace is `{` or `[`
//! is JSON, read by reconcile-core exactly as before, so `{"a":1,}` keeps its
//! JSON trailing-comma error although it is valid YAML; any other document
//! is YAML ([`detect_format`]). A blank text is JSON's "empty".
//!
//! # YAML semantics
//! - YAML 1.2, core schema: `yes`, `no`, `on`, `off` are **strings**; `~` and
//!   `null` are null; `0o17` is 15 and `017` is 17; `0x1F` is 31; `.inf` and
//!   `.nan` are errors, since JSON has no such numbers. The full table is in
//!   the `scalar` module. kubectl reads YAML 1.1, where `yes` and `on` are
//!   booleans and `017` is 15; [`to_yaml`] quotes every such string.
//! - A duplicate key is an error, as in JSON (core's readers find it).
//! - Anchors and aliases are allowed; aliases may add at most
//!   [`MAX_ALIAS_NODES`] values to a stream (an alias bomb is an error).
//! - Tags other than the core schema's (`!!binary`, `!!timestamp`, `!Custom`)
//!   are errors, as are the YAML 1.1 merge key `<<` and non-string keys.
//! - Nesting deeper than core's `MAX_DEPTH` (127) is an error at any depth
//!   of input (100,000 levels included): nothing recurses.
//! - Input must be UTF-8 ([`text_from_bytes`] says where it is not).
//!
//! # Desired and observed: `{name: spec}` or manifests
//! A YAML desired or observed document is either one `{name: spec}` mapping,
//! as in JSON, or Kubernetes manifests: a stream of several documents, or
//! one document with `apiVersion` and `kind` (a `kind: List` too). See
//! [`manifest`] for how objects become named resources.
//!
//! # Why saphyr-parser
//! saphyr-parser 0.3 is the maintained YAML 1.2 parser of the yaml-rust
//! lineage (yaml-rust2's authors; yaml-rust2 now only gets basic
//! maintenance): it passes the whole YAML test suite, it is pure Rust with
//! no `unsafe` and no std (two small dependencies), and it is a pull parser
//! that gives each event with its position and never recurses, so this crate
//! builds core's values itself, with its own limits and messages, and links
//! no second value model. What it adds to a wasm module is measured in
//! docs/SIZE.md. Rejected: serde_yaml and unsafe-libyaml (unmaintained,
//! C translated to unsafe Rust), yaml-rust2 (the same parser plus a value
//! model and an emitter this crate does not need), saphyr (saphyr-parser
//! plus its own value model).

pub mod convert;
mod incremental;
mod locate;
pub mod manifest;
mod read_cache;
mod reader;
mod scalar;
pub mod scope;
mod writer;

pub use convert::{convert, has_comments, scenario_documents, Converted};
pub use incremental::StreamCache;
pub use manifest::{ManifestObject, ManifestOptions};
pub use read_cache::{read_documents_cached, ReadCache};
pub use reader::{read_stream, Position, YamlDocument, MAX_ALIAS_NODES};
pub use reconcile_core::{detect_format, Format};
use reconcile_core::{
    finalizers_from_value, json_from_value, parse_finalizers, parse_json, parse_resources,
    parse_scenario, scenario_from_value, Document, ErrorKind, Finalizers, InputError, Json,
    JsonPath, Resources, Scenario,
};
pub use writer::{to_yaml, to_yaml_stream};

/// The text of a file, or where it stops being UTF-8.
pub fn text_from_bytes(document: Document, bytes: &[u8]) -> Result<&str, InputError> {
    std::str::from_utf8(bytes).map_err(|error| {
        let valid = &bytes[..error.valid_up_to()];
        // The valid prefix is UTF-8, so its lines and characters can be counted.
        let valid = std::str::from_utf8(valid).unwrap_or_default();
        let line = valid.matches('\n').count() + 1;
        let column = valid.rsplit('\n').next().unwrap_or_default().chars().count() + 1;
        let utf16 = bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]);
        let byte = bytes.get(error.valid_up_to()).copied().unwrap_or_default();
        let message = if utf16 {
            "the text is UTF-16 (it starts with a UTF-16 byte order mark); expected UTF-8, so save it as UTF-8".to_owned()
        } else {
            format!("byte 0x{byte:02X} is not UTF-8; expected UTF-8 text, so save the file as UTF-8")
        };
        InputError {
            document,
            kind: ErrorKind::Unsupported,
            line,
            column,
            path: JsonPath::root(),
            message,
        }
    })
}

/// Any value, in either format: one YAML document, or a JSON text.
pub fn read_value(document: Document, text: &str) -> Result<Json, InputError> {
    read_value_in(detect_format(text), document, text)
}

/// [`read_value`] of a text whose format is known.
pub fn read_value_in(format: Format, document: Document, text: &str) -> Result<Json, InputError> {
    match format {
        Format::Json => parse_json(document, text),
        Format::Yaml => {
            let value = one_document(document, text)?.unwrap_or(Json::Null);
            json_from_value(&value).map_err(|e| locate::place(document, text, 0, e))
        }
    }
}

/// A desired or observed document as read: its resources, and, when it was
/// Kubernetes manifests, the objects they came from.
#[derive(Debug, Clone)]
pub struct ReadResources {
    pub format: Format,
    pub resources: Resources,
    /// Empty unless the document was manifests; in name order.
    pub manifests: Vec<ManifestObject>,
}

/// A desired or observed document in either format: `{name: spec}`, or
/// manifests (YAML only).
pub fn read_resources(
    document: Document,
    text: &str,
    options: &ManifestOptions,
) -> Result<ReadResources, InputError> {
    read_resources_in(detect_format(text), document, text, options)
}

/// [`read_resources`] of a text whose format is known (a file's extension).
pub fn read_resources_in(
    format: Format,
    document: Document,
    text: &str,
    options: &ManifestOptions,
) -> Result<ReadResources, InputError> {
    let stream = &mut StreamCache::default();
    read_resources_cached(format, document, text, options, stream, None).map(|(read, _)| read)
}

/// [`read_resources_in`], reading a YAML text again only in part when
/// `cache` holds the read of an earlier version of it, and taking the
/// resources of `last` (a `{name: spec}` document's value and resources)
/// for the entries that are the same values. Also the `{name: spec}`
/// value read, for the next read to take from.
pub(crate) fn read_resources_cached(
    format: Format,
    document: Document,
    text: &str,
    options: &ManifestOptions,
    cache: &mut StreamCache,
    last: Option<&(Json, Resources)>,
) -> Result<(ReadResources, Option<Json>), InputError> {
    if format == Format::Json {
        if let Some(object) = json_manifest(text) {
            let documents = [YamlDocument {
                value: object,
                start: Position { line: 1, column: 1 },
            }];
            let (resources, manifests) =
                manifest::read_manifests(document, text, &documents, options)?;
            return Ok((ReadResources::of(Format::Json, resources, manifests), None));
        }
        let resources = parse_resources(document, text)?;
        return Ok((ReadResources::of(Format::Json, resources, Vec::new()), None));
    }
    let documents = cache.read(document, text)?;
    if manifest::is_manifest_stream(&documents) {
        let (resources, manifests) = manifest::read_manifests(document, text, &documents, options)?;
        return Ok((ReadResources::of(Format::Yaml, resources, manifests), None));
    }
    let Some(value) = only_document(document, documents)? else {
        // Comments only: JSON's "empty document" error, with its message.
        let resources = parse_resources(document, "")?;
        return Ok((ReadResources::of(Format::Yaml, resources, Vec::new()), None));
    };
    let resources = read_cache::resources_from_value_reusing(&value, last)
        .map_err(|e| locate::place(document, text, 0, e))?;
    Ok((
        ReadResources::of(Format::Yaml, resources, Vec::new()),
        Some(value),
    ))
}

/// A JSON text that is one Kubernetes object or a `kind: List` (what
/// `kubectl get -o json` prints), by the rule YAML manifests are known by;
/// `None` for anything else (a `{name: spec}` document, or bad JSON, which
/// core's reader then reports). JSON without an `"apiVersion"` is never
/// parsed here.
fn json_manifest(text: &str) -> Option<Json> {
    if !text.contains("\"apiVersion\"") {
        return None;
    }
    let value = parse_json(Document::Scenario, text).ok()?;
    manifest::is_object_manifest(&value).then_some(value)
}

impl ReadResources {
    fn of(format: Format, resources: Resources, manifests: Vec<ManifestObject>) -> Self {
        Self {
            format,
            resources,
            manifests,
        }
    }
}

/// A finalizers document in either format; blank, comments only or `null`
/// mean no finalizers.
pub fn read_finalizers(text: &str) -> Result<Option<Finalizers>, InputError> {
    read_finalizers_in(detect_format(text), text)
}

/// [`read_finalizers`] of a text whose format is known.
pub fn read_finalizers_in(format: Format, text: &str) -> Result<Option<Finalizers>, InputError> {
    if format == Format::Json {
        return parse_finalizers(text);
    }
    match one_document(Document::Finalizers, text)? {
        None => Ok(None),
        Some(value) => finalizers_from_value(&value)
            .map_err(|e| locate::place(Document::Finalizers, text, 0, e)),
    }
}

/// A scenario file `{desired, observed, finalizers?}` in either format.
pub fn read_scenario(text: &str) -> Result<Scenario, InputError> {
    read_scenario_in(detect_format(text), text)
}

/// [`read_scenario`] of a text whose format is known.
pub fn read_scenario_in(format: Format, text: &str) -> Result<Scenario, InputError> {
    if format == Format::Json {
        return parse_scenario(text);
    }
    let value = match one_document(Document::Scenario, text)? {
        Some(value) => value,
        None => return parse_scenario(""),
    };
    scenario_from_value(&value).map_err(|e| locate::place(Document::Scenario, text, 0, e))
}

/// The only document of a YAML text (`None` for comments and blanks).
fn one_document(document: Document, text: &str) -> Result<Option<Json>, InputError> {
    only_document(document, read_stream(document, text)?)
}

fn only_document(
    document: Document,
    documents: Vec<YamlDocument>,
) -> Result<Option<Json>, InputError> {
    let mut documents = documents.into_iter();
    let first = documents.next();
    if let Some(second) = documents.next() {
        return Err(InputError {
            document,
            kind: ErrorKind::Shape,
            line: second.start.line,
            column: second.start.column,
            path: JsonPath::root(),
            message: "a second YAML document; expected one document here (a stream of several is read as Kubernetes manifests in the desired and observed states only)".to_owned(),
        });
    }
    Ok(first.map(|document| document.value))
}

/// The three documents of the editors or the CLI, read in either format.
#[derive(Debug, Clone)]
pub struct ReadScenario {
    /// Finalizers hold the Finalizers document's entries and every
    /// manifest's `metadata.finalizers`.
    pub scenario: Scenario,
    pub desired: ReadResources,
    pub observed: ReadResources,
}

/// Reads desired, observed and finalizers, reporting every document's
/// error, and fills the finalizers from the manifests' `metadata.finalizers`.
/// A name whose finalizers a manifest and the Finalizers document both give
/// must get the same list from both; an observed manifest's list wins over a
/// desired one's (it is the object that exists).
pub fn read_documents(
    desired: &str,
    observed: &str,
    finalizers: &str,
    options: &ManifestOptions,
) -> Result<ReadScenario, Vec<InputError>> {
    let formats = [desired, observed, finalizers].map(detect_format);
    read_documents_in(formats, desired, observed, finalizers, options)
}

/// [`read_documents`] of texts whose formats are known: desired, observed, finalizers.
pub fn read_documents_in(
    formats: [Format; 3],
    desired: &str,
    observed: &str,
    finalizers: &str,
    options: &ManifestOptions,
) -> Result<ReadScenario, Vec<InputError>> {
    let cache = &mut ReadCache::default();
    read_documents_cached(cache, formats, desired, observed, finalizers, options)
}

/// The Finalizers document's entries plus the manifests' lists.
pub(crate) fn merge_finalizers(
    listed: Option<Finalizers>,
    desired: &[ManifestObject],
    observed: &[ManifestObject],
    text: &str,
) -> Result<Option<Finalizers>, InputError> {
    let from_manifests = desired
        .iter()
        .chain(observed)
        .filter(|o| !o.finalizers.is_empty());
    let mut from_manifests = from_manifests.peekable();
    if from_manifests.peek().is_none() {
        return Ok(listed);
    }
    let mut merged = listed.clone().unwrap_or_default();
    // Observed after desired: the existing object's list wins.
    for object in from_manifests {
        if let Some(listed) = &listed {
            if listed.has_entry(&object.name) && listed.pending(&object.name) != object.finalizers {
                let error = reconcile_core::UnlocatedError {
                    kind: ErrorKind::Shape,
                    path: JsonPath::root().key(&object.name),
                    message: format!(
                        "these finalizers differ from the metadata.finalizers of the manifest at line {}; give them in one place",
                        object.line
                    ),
                };
                return Err(locate::place(Document::Finalizers, text, 0, error));
            }
        }
        merged.set(&object.name, object.finalizers.clone());
    }
    Ok(Some(merged))
}

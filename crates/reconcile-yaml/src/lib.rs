//! YAML and Kubernetes manifests for the playground: YAML text in, core's own
//! values and resources out (one model, one path grammar: `reconcile_core`'s
//! [`Json`] and [`JsonPath`]), with errors located as the JSON reader locates
//! them (document, line:column, JSON path, what was expected); and YAML out.
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
mod reader;
mod scalar;
pub mod scope;
mod writer;

pub use convert::{convert, has_comments, Converted};
pub use incremental::StreamCache;
pub use manifest::{ManifestObject, ManifestOptions};
pub use reader::{read_stream, Position, YamlDocument, MAX_ALIAS_NODES};
pub use reconcile_core::{detect_format, Format};
use reconcile_core::{
    finalizers_from_value, json_from_value, parse_finalizers, parse_json, parse_resources,
    parse_scenario, resources_from_value, scenario_from_value, Document, ErrorKind, Finalizers,
    InputError, Json, JsonPath, Resources, Scenario,
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
    read_resources_cached(format, document, text, options, &mut StreamCache::default())
}

/// [`read_resources_in`], reading a YAML text again only in part when
/// `cache` holds the read of an earlier version of it.
fn read_resources_cached(
    format: Format,
    document: Document,
    text: &str,
    options: &ManifestOptions,
    cache: &mut StreamCache,
) -> Result<ReadResources, InputError> {
    if format == Format::Json {
        return Ok(ReadResources {
            format: Format::Json,
            resources: parse_resources(document, text)?,
            manifests: Vec::new(),
        });
    }
    let documents = cache.read(document, text)?;
    let (resources, manifests) = if manifest::is_manifest_stream(&documents) {
        manifest::read_manifests(document, text, &documents, options)?
    } else {
        let value = only_document(document, documents)?;
        let resources = match value {
            // Comments only: JSON's "empty document" error, with its message.
            None => parse_resources(document, "")?,
            Some(value) => {
                resources_from_value(&value).map_err(|e| locate::place(document, text, 0, e))?
            }
        };
        (resources, Vec::new())
    };
    Ok(ReadResources {
        format: Format::Yaml,
        resources,
        manifests,
    })
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

/// What reading the editors' documents keeps for the next read: an edit
/// of a large YAML document is then read again only around the change, and
/// a document whose text did not change is not read again at all.
#[derive(Debug, Default)]
pub struct ReadCache {
    desired: DocumentCache,
    observed: DocumentCache,
}

impl ReadCache {
    /// A number per desired and observed document that changes whenever
    /// the read of that document changes, and only then: a reader that has
    /// passed a document on need not pass it on again while it stays.
    pub fn revisions(&self) -> [u64; 2] {
        [self.desired.revision, self.observed.revision]
    }
}

/// One document's last read, and the stream of its last YAML text.
#[derive(Debug, Default)]
struct DocumentCache {
    stream: StreamCache,
    last: Option<LastRead>,
    revision: u64,
}

/// What a text read to, with what it was read from.
#[derive(Debug)]
struct LastRead {
    format: Format,
    text: String,
    cluster_scoped: Vec<String>,
    read: ReadResources,
}

impl DocumentCache {
    fn read(
        &mut self,
        format: Format,
        document: Document,
        text: &str,
        options: &ManifestOptions,
    ) -> Result<ReadResources, InputError> {
        let same = |last: &&LastRead| {
            last.format == format
                && last.text == text
                && last.cluster_scoped == options.cluster_scoped
        };
        if let Some(last) = self.last.as_ref().filter(same) {
            return Ok(last.read.clone());
        }
        self.last = None;
        self.revision += 1;
        let read = read_resources_cached(format, document, text, options, &mut self.stream)?;
        self.last = Some(LastRead {
            format,
            text: text.to_owned(),
            cluster_scoped: options.cluster_scoped.clone(),
            read: read.clone(),
        });
        Ok(read)
    }
}

/// [`read_documents_in`] with a cache of the last read (the same results).
pub fn read_documents_cached(
    cache: &mut ReadCache,
    [desired_format, observed_format, finalizers_format]: [Format; 3],
    desired: &str,
    observed: &str,
    finalizers: &str,
    options: &ManifestOptions,
) -> Result<ReadScenario, Vec<InputError>> {
    let desired = cache
        .desired
        .read(desired_format, Document::Desired, desired, options);
    let observed = cache
        .observed
        .read(observed_format, Document::Observed, observed, options);
    let listed = read_finalizers_in(finalizers_format, finalizers);
    let (desired, observed, listed) = match (desired, observed, listed) {
        (Ok(d), Ok(o), Ok(f)) => (d, o, f),
        (d, o, f) => return Err([d.err(), o.err(), f.err()].into_iter().flatten().collect()),
    };
    let finalizers = merge_finalizers(listed, &desired.manifests, &observed.manifests, finalizers)
        .map_err(|error| vec![error])?;
    Ok(ReadScenario {
        scenario: Scenario {
            desired: desired.resources.clone(),
            observed: observed.resources.clone(),
            finalizers,
        },
        desired,
        observed,
    })
}

/// The Finalizers document's entries plus the manifests' lists.
fn merge_finalizers(
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

//! YAML text to core's JSON values, one per document of the stream.
//!
//! Guarantees:
//! - Every error is an `InputError`: document, 1-based line and column (in
//!   characters), the JSON path of the value being read, and what was expected.
//! - Nesting deeper than core's `MAX_DEPTH` is an error (`TooDeep`), found
//!   as the parser's events arrive: neither saphyr-parser (a state machine
//!   with its own stack) nor this builder (an explicit stack) recurses, so
//!   100,000 levels never reach the thread's stack.
//! - An alias shares its anchor's value (core's values are reference
//!   counted), and the values aliases add, counted as if copied out, may not
//!   exceed [`MAX_ALIAS_NODES`] per stream: an alias bomb is an error
//!   (`TooLarge`), never an exponential walk later.
//! - Keys are strings: a scalar key is its text (`1: a` has the key "1"); a
//!   mapping or sequence as a key, and the YAML 1.1 merge key `<<`, are errors.
//!
//! Duplicate keys are not looked for here: core's readers reject them when
//! they read these values (with core's own message), and [`crate::locate`]
//! finds the repeated key in the text.

use std::collections::HashMap;

use reconcile_core::parse::MAX_DEPTH;
use reconcile_core::path::Segment;
use reconcile_core::{Document, ErrorKind, InputError, Json, JsonPath};
use saphyr_parser::{Event, Marker, Parser, ScalarStyle, ScanError, Tag};

use crate::scalar::{self, ScalarError, TagMeaning};

/// How many values aliases may add to a stream, each counted as if the
/// aliased value were copied out. Real manifests use anchors for a few
/// labels or a shared container spec; a "billion laughs" adds 10^9.
pub const MAX_ALIAS_NODES: u64 = 100_000;

/// A place in the text: 1-based line and column, in characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Position {
    pub line: usize,
    pub column: usize,
}

impl Position {
    pub(crate) fn of(marker: &Marker) -> Self {
        Self {
            line: marker.line().max(1),
            column: marker.col() + 1,
        }
    }
}

/// One document of a stream: its value and where it starts.
#[derive(Debug, Clone)]
pub struct YamlDocument {
    pub value: Json,
    pub start: Position,
}

/// Reads every document of a YAML stream (none for a text of comments and blanks).
pub fn read_stream(document: Document, text: &str) -> Result<Vec<YamlDocument>, InputError> {
    read_stream_with_keys(document, text).map(|(documents, _)| documents)
}

/// Where a stream's first mapping starts and where each of its keys is: what
/// [`crate::incremental`] needs to read an edited text again in parts.
#[derive(Debug, Clone, Default)]
pub(crate) struct RootKeys {
    /// The first document's top-level mapping, if it is one.
    pub start: Option<Position>,
    /// Its keys, in order.
    pub keys: Vec<Position>,
}

/// [`read_stream`], and the first document's top-level keys.
pub(crate) fn read_stream_with_keys(
    document: Document,
    text: &str,
) -> Result<(Vec<YamlDocument>, RootKeys), InputError> {
    let mut builder = Builder {
        document,
        documents: Vec::new(),
        stack: Vec::new(),
        root: None,
        start: Position { line: 1, column: 1 },
        anchors: HashMap::new(),
        alias_nodes: 0,
        root_keys: RootKeys::default(),
    };
    let mut parser = Parser::new_from_str(text);
    while let Some(event) = parser.next_event() {
        match event {
            Ok((event, span)) => builder.on_event(event, &span.start)?,
            Err(error) => return Err(builder.scan_error(&error)),
        }
    }
    Ok((builder.documents, builder.root_keys))
}

/// A value that can be aliased, and how many values it counts for.
struct Anchored {
    value: Json,
    nodes: u64,
}

/// A collection being read.
struct Frame {
    items: Items,
    /// Its anchor id (0: none).
    anchor: usize,
    /// The values in it so far, counted with itself, aliases counted as copied out.
    nodes: u64,
}

enum Items {
    Sequence(Vec<Json>),
    Mapping {
        members: Vec<(Box<str>, Json)>,
        /// The key whose value comes next.
        key: Option<Box<str>>,
    },
}

struct Builder {
    document: Document,
    documents: Vec<YamlDocument>,
    stack: Vec<Frame>,
    /// The current document's value, once read.
    root: Option<Json>,
    start: Position,
    anchors: HashMap<usize, Anchored>,
    alias_nodes: u64,
    root_keys: RootKeys,
}

impl Builder {
    fn on_event(&mut self, event: Event<'_>, at: &Marker) -> Result<(), InputError> {
        match event {
            Event::DocumentStart(_) => {
                self.start = Position::of(at);
                self.anchors.clear();
            }
            Event::DocumentEnd => {
                let value = self.root.take().unwrap_or(Json::Null);
                self.documents.push(YamlDocument {
                    value,
                    start: self.start,
                });
            }
            Event::Scalar(text, style, anchor, tag) => {
                if self.at_key() {
                    if self.stack.len() == 1 && self.documents.is_empty() {
                        self.root_keys.keys.push(Position::of(at));
                    }
                    let key = self.scalar_key(&text, style, tag.as_deref(), at)?;
                    self.set_key(key);
                } else {
                    let value = scalar::resolve(&text, style, tag.as_deref())
                        .map_err(|error| self.scalar_error(error, at))?;
                    self.complete(value, 1, anchor);
                }
            }
            Event::SequenceStart(anchor, tag) => {
                self.open(Items::Sequence(Vec::new()), anchor, tag.as_deref(), at)?;
            }
            Event::MappingStart(anchor, tag) => {
                if self.stack.is_empty() && self.documents.is_empty() {
                    self.root_keys.start = Some(Position::of(at));
                }
                let items = Items::Mapping {
                    members: Vec::new(),
                    key: None,
                };
                self.open(items, anchor, tag.as_deref(), at)?;
            }
            Event::SequenceEnd | Event::MappingEnd => {
                if let Some(frame) = self.stack.pop() {
                    let value = match frame.items {
                        Items::Sequence(items) => Json::array(items),
                        Items::Mapping { members, .. } => Json::object(members),
                    };
                    self.complete(value, frame.nodes, frame.anchor);
                }
            }
            Event::Alias(id) => self.alias(id, at)?,
            Event::StreamStart | Event::StreamEnd | Event::Nothing => {}
        }
        Ok(())
    }

    /// Whether the next scalar or collection is a mapping's key.
    fn at_key(&self) -> bool {
        matches!(
            self.stack.last(),
            Some(Frame {
                items: Items::Mapping { key: None, .. },
                ..
            })
        )
    }

    fn set_key(&mut self, key: Box<str>) {
        if let Some(Frame {
            items: Items::Mapping { key: slot, .. },
            ..
        }) = self.stack.last_mut()
        {
            *slot = Some(key);
        }
    }

    /// A key's text: a scalar's, tagged at most `!!str` or `!`.
    fn scalar_key(
        &self,
        text: &str,
        style: ScalarStyle,
        tag: Option<&Tag>,
        at: &Marker,
    ) -> Result<Box<str>, InputError> {
        if let Some(tag) = tag {
            let meaning = scalar::tag_meaning(tag).map_err(|e| self.scalar_error(e, at))?;
            if !matches!(meaning, TagMeaning::Str | TagMeaning::NonSpecific) {
                return Err(self.error(
                    at,
                    ErrorKind::Unsupported,
                    format!(
                        "a key tagged {}; expected a plain key (keys are strings here)",
                        scalar::tag_text(tag)
                    ),
                ));
            }
        }
        if style == ScalarStyle::Plain && text == "<<" && tag.is_none() {
            return Err(self.error(
                at,
                ErrorKind::Unsupported,
                "the merge key `<<` is YAML 1.1, not 1.2; expected the members written out (or quote it, \"<<\", for a member of that name)"
                    .to_owned(),
            ));
        }
        Ok(text.into())
    }

    /// Starts a sequence or mapping, which may not be a key or too deep.
    fn open(
        &mut self,
        items: Items,
        anchor: usize,
        tag: Option<&Tag>,
        at: &Marker,
    ) -> Result<(), InputError> {
        let is_sequence = matches!(items, Items::Sequence(_));
        if self.at_key() {
            return Err(self.error(
                at,
                ErrorKind::Unsupported,
                format!(
                    "a {} as a mapping key; expected a string key, since JSON keys are strings",
                    if is_sequence { "sequence" } else { "mapping" }
                ),
            ));
        }
        if let Some(tag) = tag {
            let meaning = scalar::tag_meaning(tag).map_err(|e| self.scalar_error(e, at))?;
            let fits = match meaning {
                TagMeaning::NonSpecific => true,
                TagMeaning::Seq => is_sequence,
                TagMeaning::Map => !is_sequence,
                _ => false,
            };
            if !fits {
                return Err(self.error(
                    at,
                    ErrorKind::Shape,
                    format!(
                        "the tag {} does not fit a {}",
                        scalar::tag_text(tag),
                        if is_sequence { "sequence" } else { "mapping" }
                    ),
                ));
            }
        }
        if self.stack.len() >= MAX_DEPTH {
            return Err(self.error(
                at,
                ErrorKind::TooDeep,
                format!("values are nested more than {MAX_DEPTH} levels deep"),
            ));
        }
        self.stack.push(Frame {
            items,
            anchor,
            nodes: 1,
        });
        Ok(())
    }

    /// An alias: its anchor's value, shared, counted against the limit.
    fn alias(&mut self, id: usize, at: &Marker) -> Result<(), InputError> {
        let Some(anchored) = self.anchors.get(&id) else {
            // saphyr-parser knows the anchor, so its node has not ended yet.
            return Err(self.error(
                at,
                ErrorKind::Unsupported,
                "an alias inside the value its anchor names (a recursive alias); expected an alias to a value that is complete before it"
                    .to_owned(),
            ));
        };
        let (value, nodes) = (anchored.value.clone(), anchored.nodes);
        self.alias_nodes = self.alias_nodes.saturating_add(nodes);
        if self.alias_nodes > MAX_ALIAS_NODES {
            return Err(self.error(
                at,
                ErrorKind::TooLarge,
                format!(
                    "aliases expand to more than {MAX_ALIAS_NODES} values (an alias bomb?); expected fewer or smaller aliases"
                ),
            ));
        }
        if self.at_key() {
            let Json::String(key) = value else {
                return Err(self.error(
                    at,
                    ErrorKind::Unsupported,
                    format!(
                        "an alias to {} as a mapping key; expected a string key",
                        value.type_name()
                    ),
                ));
            };
            self.set_key(key.as_ref().into());
            return Ok(());
        }
        self.complete(value, nodes, 0);
        Ok(())
    }

    /// A value read: kept for its anchor, then put in its collection.
    fn complete(&mut self, value: Json, nodes: u64, anchor: usize) {
        if anchor != 0 {
            let anchored = Anchored {
                value: value.clone(),
                nodes,
            };
            self.anchors.insert(anchor, anchored);
        }
        match self.stack.last_mut() {
            Some(frame) => {
                frame.nodes = frame.nodes.saturating_add(nodes);
                match &mut frame.items {
                    Items::Sequence(items) => items.push(value),
                    Items::Mapping { members, key } => {
                        members.push((key.take().unwrap_or_default(), value));
                    }
                }
            }
            None => self.root = Some(value),
        }
    }

    /// The path of the value being read.
    fn path(&self) -> JsonPath {
        let segments = self
            .stack
            .iter()
            .filter_map(|frame| match &frame.items {
                Items::Sequence(items) => Some(Segment::Index(items.len())),
                Items::Mapping { key, .. } => key.as_ref().map(|k| Segment::Key(k.to_string())),
            })
            .collect();
        JsonPath::from_segments(segments)
    }

    fn error(&self, at: &Marker, kind: ErrorKind, message: String) -> InputError {
        let position = Position::of(at);
        InputError {
            document: self.document,
            kind,
            line: position.line,
            column: position.column,
            path: self.path(),
            message: self.in_stream(message),
        }
    }

    fn scalar_error(&self, error: ScalarError, at: &Marker) -> InputError {
        self.error(at, error.kind, error.message)
    }

    fn scan_error(&self, error: &ScanError) -> InputError {
        // The scanner reads ahead of the events, and has a nesting limit of its
        // own for flow collections (256 levels), which may stop it first.
        if error.info().contains("recursion limit") {
            return self.error(
                error.marker(),
                ErrorKind::TooDeep,
                format!("values are nested more than {MAX_DEPTH} levels deep"),
            );
        }
        self.error(error.marker(), ErrorKind::Syntax, friendly(error.info()))
    }

    /// Paths count from the document's own root; past the first document,
    /// the message says which document of the stream it is.
    fn in_stream(&self, message: String) -> String {
        match self.documents.len() {
            0 => message,
            done => format!("{message} (in YAML document {} of the stream)", done + 1),
        }
    }
}

/// saphyr-parser's messages, with what was expected said in words.
fn friendly(info: &str) -> String {
    let replaced = if info.contains("tabs disallowed") {
        "a tab in the indentation; expected spaces (YAML indents with spaces only)"
    } else if info.contains("mapping values are not allowed in this context") {
        "unexpected `:`; expected a nested mapping on a new, more indented line, or quotes around a value that holds `: `"
    } else if info.contains("simple key expect ':'") {
        "a line without `:` after its key; expected `key: value` (JSON lines among YAML ones are read as YAML)"
    } else if info.contains("did not find expected node content") {
        "expected a value here"
    } else if info.contains("found unknown anchor") {
        "an alias to an unknown anchor; expected `*name` after `&name` in the same document"
    } else if info.contains("quoted scalar") && info.contains("end of stream") {
        "the text ends inside a quoted string; expected its closing quote"
    } else if info.contains("did not find expected '-' indicator") {
        "expected another `- ` item at the indentation of the sequence"
    } else if info.contains("did not find expected key") {
        "expected another `key: value` at the indentation of the mapping"
    } else if info.contains("did not find expected ',' or ']'") {
        "expected `,` or `]` in a flow sequence"
    } else if info.contains("did not find expected ',' or '}'") {
        "expected `,` or `}` in a flow mapping"
    } else {
        return info.to_owned();
    };
    replaced.to_owned()
}

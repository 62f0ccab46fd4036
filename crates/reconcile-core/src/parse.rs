//! Parsing the three documents, with errors that say where and what was expected.
//!
//! Guarantees:
//! - Every error names its [`Document`], a 1-based line and column (in
//!   characters, not bytes), the JSON path of the offending value, and what was
//!   expected there.
//! - A duplicate member name anywhere is an **error** ([`ErrorKind::DuplicateKey`]).
//!   The JSON RFC leaves duplicates undefined, and the Kubernetes API server
//!   rejects them under strict field validation, so the playground never picks
//!   a winner silently.
//! - Nesting deeper than [`MAX_DEPTH`] is an error, never a stack overflow.
//!
//! Caveats:
//! - Numbers outside the `f64` range (`1e400`) are rejected, and integers wider
//!   than 64 bits are kept as the nearest `f64`.
//! - A leading byte order mark is rejected, as `JSON.parse` does.

use std::borrow::Cow;
use std::cell::RefCell;
use std::fmt;

use serde::de::{self, DeserializeSeed};
use serde::{Deserialize, Serialize};

use crate::json::{self, Json, Trail, ValueSeed};
use crate::model::{Finalizers, Resources, Scenario};
use crate::path::{JsonPath, Segment};
use crate::scan;

mod shapes;
use shapes::{FinalizerListSeed, FinalizersSeed, ResourcesSeed, ScenarioSeed};

/// How many levels of objects and arrays may nest, counting the document's
/// own top-level object. serde_json's recursion limit of 128 rejects the 128th
/// level, so 127 is the deepest that parses.
pub const MAX_DEPTH: usize = 127;

/// Which document a piece of input is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Document {
    Desired,
    Observed,
    Finalizers,
    /// A whole scenario `{"desired":…, "observed":…, "finalizers":…}` in one text.
    Scenario,
    /// An action list a reconcile written elsewhere returned (see [`crate::actions`]).
    Actions,
}

impl Document {
    /// The name people see, equal to the editor's accessible name.
    pub fn label(self) -> &'static str {
        match self {
            Document::Desired => "Desired state",
            Document::Observed => "Observed state",
            Document::Finalizers => "Finalizers",
            Document::Scenario => "Scenario",
            Document::Actions => "Returned actions",
        }
    }
}

impl fmt::Display for Document {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// The format of a document's text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum Format {
    Json,
    Yaml,
}

impl Format {
    /// "JSON" or "YAML", as people see it.
    pub fn label(self) -> &'static str {
        match self {
            Format::Json => "JSON",
            Format::Yaml => "YAML",
        }
    }
}

/// The format a text is read in unless told otherwise: JSON when the first
/// character other than JSON whitespace is `{` or `[`, or there is none, so
/// broken JSON such as `{"a":1,}` keeps its JSON error although it is valid
/// YAML; JSON too when the whole text is a JSON value (`null`, `3`,
/// `"text"`), which YAML reads as the same value; YAML otherwise. A byte
/// order mark is looked past, so `{` after one keeps JSON's error for it.
pub fn detect_format(text: &str) -> Format {
    match text
        .trim_start_matches([' ', '\t', '\n', '\r', '\u{FEFF}'])
        .chars()
        .next()
    {
        Some('{' | '[') | None => Format::Json,
        // A YAML text fails here at once, at its first key or plain word.
        Some(_) if parse_json(Document::Scenario, text).is_ok() => Format::Json,
        Some(_) => Format::Yaml,
    }
}

/// What kind of problem the input has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ErrorKind {
    /// Not JSON: a stray character, a missing comma, an unterminated string…
    Syntax,
    /// Valid JSON, but not the shape the document needs.
    Shape,
    /// The same member name twice in one object.
    DuplicateKey,
    /// Nested deeper than [`MAX_DEPTH`].
    TooDeep,
    /// Nothing but whitespace where a value is required.
    Empty,
    /// Valid in its format but outside what the playground reads: a YAML tag
    /// such as `!!binary`, `.inf`, a merge key, a text that is not UTF-8.
    Unsupported,
    /// Within the grammar but past a size limit, such as YAML aliases that
    /// expand to too many values (an alias bomb).
    TooLarge,
}

/// A located, human-readable input error. It reads back from its JSON, so
/// the page can take errors from the YAML module it loads on demand.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InputError {
    pub document: Document,
    pub kind: ErrorKind,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, counted in Unicode characters.
    pub column: usize,
    /// Where in the document, e.g. `$.web.replicas`.
    #[serde(
        serialize_with = "crate::path::serialize_display",
        deserialize_with = "crate::path::deserialize_display"
    )]
    pub path: JsonPath,
    /// What went wrong and what was expected, without the location.
    pub message: String,
}

impl InputError {
    /// "line 3, column 5" — the part the editor shows next to its gutter.
    pub fn location(&self) -> String {
        format!("line {}, column {}", self.line, self.column)
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} at {}: {}",
            self.document,
            self.location(),
            self.path,
            self.message
        )
    }
}

impl std::error::Error for InputError {}

/// An error in a value that another reader built (the YAML reader), not yet
/// located in its text: that reader knows where each path is, and [`Self::at`]
/// places it. Kind, path and message are those the JSON reader gives for the
/// same value.
#[derive(Debug, Clone, PartialEq)]
pub struct UnlocatedError {
    pub kind: ErrorKind,
    pub path: JsonPath,
    pub message: String,
}

impl UnlocatedError {
    /// The error at `line` and `column` (1-based, in characters) of `document`.
    pub fn at(self, document: Document, line: usize, column: usize) -> InputError {
        InputError {
            document,
            kind: self.kind,
            line,
            column,
            path: self.path,
            message: self.message,
        }
    }
}

/// [`parse_json`] of a value: a copy of it, checked by the same rules (no
/// member name twice in an object).
pub fn json_from_value(value: &Json) -> Result<Json, UnlocatedError> {
    run_value(value, AnyValue)
}

/// [`parse_resources`] of a value: `{name: spec}`, checked by the same rules.
pub fn resources_from_value(value: &Json) -> Result<Resources, UnlocatedError> {
    run_value(value, ResourcesSeed)
}

/// [`parse_finalizers`] of a value: `{name: [finalizer, ...]}` or `null`.
pub fn finalizers_from_value(value: &Json) -> Result<Option<Finalizers>, UnlocatedError> {
    run_value(value, FinalizersSeed)
}

/// One object's list of finalizer names, as a finalizers document holds it
/// (a Kubernetes manifest's `metadata.finalizers`).
pub fn finalizer_list_from_value(value: &Json) -> Result<Vec<String>, UnlocatedError> {
    run_value(value, FinalizerListSeed)
}

/// [`parse_scenario`] of a value: `{desired, observed, finalizers?}`.
pub fn scenario_from_value(value: &Json) -> Result<Scenario, UnlocatedError> {
    run_value(value, ScenarioSeed)
}

/// Runs a document's seed over a value, as [`run`] does over a text.
fn run_value<S: DocumentSeed>(value: &Json, seed: S) -> Result<S::Value, UnlocatedError> {
    let ctx = Ctx::default();
    seed.deserialize_with(&ctx, json::ValueDeserializer(value))
        .map_err(|error| {
            let path = JsonPath::from_segments(ctx.trail.take_path());
            let kind = match ctx.error_kind.take() {
                Some(kind) => kind,
                None if ctx.trail.is_duplicate() => ErrorKind::DuplicateKey,
                None => ErrorKind::Shape,
            };
            UnlocatedError {
                kind,
                path,
                message: error.to_string(),
            }
        })
}

/// Parses a desired or observed document: an object mapping names to specs.
pub fn parse_resources(document: Document, text: &str) -> Result<Resources, InputError> {
    // The fast read accepts only valid documents; anything else is read (and
    // its error located) by the precise parser.
    if let Some(Ok([resources, _])) = scan::resources(text).map(|scanned| {
        Resources::from_scanned(
            text.to_owned(),
            [scanned, scan::ScannedResources::default()],
        )
    }) {
        return Ok(resources);
    }
    run(document, text, ResourcesSeed)
}

/// Parses a finalizers document: an object mapping names to arrays of finalizer
/// names, or `null`. An empty (whitespace-only) document means "no finalizers".
pub fn parse_finalizers(text: &str) -> Result<Option<Finalizers>, InputError> {
    if is_blank(text) {
        return Ok(None);
    }
    run(Document::Finalizers, text, FinalizersSeed)
}

/// Parses a whole scenario: `{"desired": {...}, "observed": {...}, "finalizers": {...} | null}`.
/// `finalizers` may be absent.
pub fn parse_scenario(text: &str) -> Result<Scenario, InputError> {
    read_scenario(Cow::Borrowed(text))
}

/// [`parse_scenario`] of a text handed over: the scenario keeps it, for the
/// specs it parses on first use, instead of a copy (the CLI reads a file so).
pub fn parse_scenario_owned(text: String) -> Result<Scenario, InputError> {
    read_scenario(Cow::Owned(text))
}

/// The fast read of a valid scenario (see [`scan`]); the precise parser for
/// anything else, which locates the error.
fn read_scenario(text: Cow<'_, str>) -> Result<Scenario, InputError> {
    let Some((scanned, finalizers)) = scan_scenario_parts(&text) else {
        return run(Document::Scenario, &text, ScenarioSeed);
    };
    match Resources::from_scanned(text.into_owned(), [scanned.desired, scanned.observed]) {
        Ok([desired, observed]) => Ok(Scenario {
            desired,
            observed,
            finalizers,
        }),
        // A name repeats: the precise parser says where.
        Err(text) => run(Document::Scenario, &text, ScenarioSeed),
    }
}

/// A valid scenario's resources as text ranges, and its finalizers, or `None`
/// when the precise parser must read the text.
pub(crate) fn scan_scenario_parts(
    text: &str,
) -> Option<(scan::ScannedScenario, Option<Finalizers>)> {
    let scanned = scan::scenario(text)?;
    // Usually small: read by the precise parser, on its own text.
    let finalizers = match &scanned.finalizers {
        Some(range) => run(Document::Scenario, text.get(range.clone())?, FinalizersSeed).ok()?,
        None => None,
    };
    Some((scanned, finalizers))
}

/// The precise parser alone, for tests that compare it with the fast read.
#[cfg(test)]
pub(crate) fn parse_resources_precise(text: &str) -> Result<Resources, InputError> {
    run(Document::Desired, text, ResourcesSeed)
}

/// The precise parser alone, for tests that compare it with the fast read.
#[cfg(test)]
pub(crate) fn parse_scenario_precise(text: &str) -> Result<Scenario, InputError> {
    run(Document::Scenario, text, ScenarioSeed)
}

/// Parses any JSON value (used by the Format button and tests).
pub fn parse_json(document: Document, text: &str) -> Result<Json, InputError> {
    run(document, text, AnyValue)
}

/// Parses any JSON value; errors are attributed to the scenario document.
pub fn parse_json_value(text: &str) -> Result<Json, InputError> {
    parse_json(Document::Scenario, text)
}

/// Pretty-prints a document (two-space indent, member order kept), or says why it can't.
pub fn format_document(document: Document, text: &str) -> Result<String, InputError> {
    parse_json(document, text).map(|value| value.to_pretty_string())
}

// ---------------------------------------------------------------------------
// The driver: runs a seed over the text and turns serde_json errors into InputErrors.

/// Side channel for the parts of an error serde_json can't carry.
#[derive(Default)]
pub(crate) struct Ctx {
    /// Where the error is (the value visitor notes it too).
    trail: Trail,
    /// Set by our own visitors for the shape errors they raise.
    error_kind: RefCell<Option<ErrorKind>>,
}

impl Ctx {
    pub(crate) fn note_segment(&self, segment: Segment) {
        self.trail.note(segment);
    }

    /// A reader of any JSON value that notes its errors here.
    pub(crate) fn value(&self) -> ValueSeed<'_> {
        ValueSeed(&self.trail)
    }

    pub(crate) fn fail<E: de::Error>(&self, kind: ErrorKind, message: impl fmt::Display) -> E {
        *self.error_kind.borrow_mut() = Some(kind);
        E::custom(message)
    }
}

pub(crate) trait DocumentSeed {
    type Value;
    fn deserialize_with<'de, D: de::Deserializer<'de>>(
        self,
        ctx: &Ctx,
        deserializer: D,
    ) -> Result<Self::Value, D::Error>;
}

pub(crate) fn run<S: DocumentSeed>(
    document: Document,
    text: &str,
    seed: S,
) -> Result<S::Value, InputError> {
    if text.starts_with('\u{FEFF}') {
        return Err(InputError {
            document,
            kind: ErrorKind::Syntax,
            line: 1,
            column: 1,
            path: JsonPath::root(),
            message: "unexpected byte order mark (U+FEFF); save the text as UTF-8 without a BOM"
                .to_owned(),
        });
    }
    if is_blank(text) {
        return Err(InputError {
            document,
            kind: ErrorKind::Empty,
            line: 1,
            column: 1,
            path: JsonPath::root(),
            message: format!(
                "the document is empty; expected {}",
                expected_top_level(document)
            ),
        });
    }
    let ctx = Ctx::default();
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let result = seed
        .deserialize_with(&ctx, &mut deserializer)
        .and_then(|value| deserializer.end().map(|()| value));
    result.map_err(|error| to_input_error(document, text, &ctx, &error))
}

/// Only JSON's own whitespace counts: a text of, say, no-break spaces is not
/// "empty" but a syntax error at its first character.
fn is_blank(text: &str) -> bool {
    text.chars().all(|c| matches!(c, ' ' | '\t' | '\n' | '\r'))
}

fn expected_top_level(document: Document) -> &'static str {
    match document {
        Document::Desired | Document::Observed => r#"an object of {"name": spec}"#,
        Document::Finalizers => r#"an object of {"name": ["finalizer", ...]}, or null"#,
        Document::Scenario => {
            r#"an object {"desired": {...}, "observed": {...}, "finalizers": {...}}"#
        }
        Document::Actions => ACTIONS_EXPECTED,
    }
}

fn to_input_error(
    document: Document,
    text: &str,
    ctx: &Ctx,
    error: &serde_json::Error,
) -> InputError {
    let segments = ctx.trail.take_path();
    let raw = error.to_string();
    // serde_json appends " at line L column C"; the location is reported separately.
    let message = match raw.rfind(" at line ") {
        Some(cut) if error.line() > 0 => raw[..cut].to_owned(),
        _ => raw,
    };
    let kind = match ctx.error_kind.take() {
        Some(kind) => kind,
        None if ctx.trail.is_duplicate() => ErrorKind::DuplicateKey,
        None if message.contains("recursion limit") => ErrorKind::TooDeep,
        None => ErrorKind::Syntax,
    };
    let message = match kind {
        ErrorKind::TooDeep => format!("values are nested more than {MAX_DEPTH} levels deep"),
        ErrorKind::Syntax => {
            let message = friendly_syntax_message(&message);
            match syntax_hint(text_at(text, error.line(), error.column())) {
                Some(hint) => format!("{hint}; {message}"),
                None => message,
            }
        }
        _ => message,
    };
    let (line, column) = char_position(text, error.line(), error.column());
    InputError {
        document,
        kind,
        line,
        column,
        path: JsonPath::from_segments(segments),
        message,
    }
}

/// serde_json's wording is terse and speaks of EOF; say what is expected instead.
fn friendly_syntax_message(message: &str) -> String {
    let replaced = match message {
        "EOF while parsing a value" => "the text ends where a value was expected",
        "EOF while parsing an object" => "the text ends inside an object; expected `}`",
        "EOF while parsing a list" => "the text ends inside an array; expected `]`",
        "EOF while parsing a string" => "the text ends inside a string; expected a closing `\"`",
        "trailing comma" => "trailing comma; expected another member or value after `,`",
        "expected value" => {
            "expected a JSON value (object, array, string, number, true, false or null)"
        }
        "key must be a string" => "expected a member name in double quotes",
        // A word that starts like `true`, `false` or `null` but is misspelled or cut short.
        "expected ident" => "expected `true`, `false` or `null`; check the spelling",
        "trailing characters" => "unexpected text after the end of the JSON value",
        "number out of range" => "number out of range; JSON numbers here must fit a 64-bit float",
        "invalid number" => "invalid number; a JSON number looks like -1, 0.5 or 2e3",
        "control character (\\u0000-\\u001F) found while parsing a string" => {
            "a line break, tab or other control character inside a string; write it as an escape such as \\n or \\t"
        }
        // serde_json's names for a surrogate escape without its pair ("leading" even for a trailing one).
        "unexpected end of hex escape" | "lone leading surrogate in hex escape" => {
            "a \\u escape of half a surrogate pair; \\uD800-\\uDBFF must be followed by \\uDC00-\\uDFFF"
        }
        other => return other.to_owned(),
    };
    replaced.to_owned()
}

/// Names what other formats allow but JSON does not, when the error is at
/// such a thing: the grammar's own message ("expected a member name") would
/// not say why the text is wrong.
fn syntax_hint(at_error: &str) -> Option<&'static str> {
    if at_error.starts_with("//") || at_error.starts_with("/*") {
        Some("comments are not allowed in JSON")
    } else if at_error.starts_with("NaN") || at_error.starts_with("Infinity") {
        Some("NaN and Infinity are not JSON numbers")
    } else if at_error.starts_with('\'') {
        Some("JSON uses double quotes, not single quotes")
    } else {
        None
    }
}

/// The rest of the line from the character serde_json stopped at (its
/// 1-based byte column).
fn text_at(text: &str, line: usize, byte_column: usize) -> &str {
    let Some(line_text) = line.checked_sub(1).and_then(|i| text.split('\n').nth(i)) else {
        return "";
    };
    let mut start = byte_column.saturating_sub(1).min(line_text.len());
    while !line_text.is_char_boundary(start) {
        start -= 1;
    }
    &line_text[start..]
}

/// serde_json counts columns in bytes from 0 at a line start; people count characters from 1.
fn char_position(text: &str, line: usize, byte_column: usize) -> (usize, usize) {
    if line == 0 {
        return (1, 1);
    }
    let line_text = text.split('\n').nth(line - 1).unwrap_or("");
    let mut end = byte_column.min(line_text.len());
    while !line_text.is_char_boundary(end) {
        end += 1;
    }
    let chars = line_text[..end].chars().count();
    (line, chars.max(1))
}

// ---------------------------------------------------------------------------
// Seeds. Each reports the segment of a failing child so the path is known.

/// Any JSON value, as a document.
struct AnyValue;

impl DocumentSeed for AnyValue {
    type Value = Json;
    fn deserialize_with<'de, D: de::Deserializer<'de>>(
        self,
        ctx: &Ctx,
        deserializer: D,
    ) -> Result<Json, D::Error> {
        ctx.value().deserialize(deserializer)
    }
}

pub(crate) struct WithCtx<'c, S> {
    pub(crate) ctx: &'c Ctx,
    pub(crate) seed: S,
}

impl<'de, S: DocumentSeed> DeserializeSeed<'de> for WithCtx<'_, S> {
    type Value = S::Value;
    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<S::Value, D::Error> {
        self.seed.deserialize_with(self.ctx, deserializer)
    }
}

/// Reports "expected X, found Y" for a value of the wrong JSON type.
pub(crate) fn wrong_type<E: de::Error>(ctx: &Ctx, expected: &str, found: &str) -> E {
    ctx.fail(
        ErrorKind::Shape,
        format!("expected {expected}, found {found}"),
    )
}

/// Implements the scalar/array visit methods of a visitor that only accepts
/// some JSON types, turning every other type into a located shape error.
macro_rules! reject_other_types {
    ($expected:expr; $($method:ident),*) => {
        $(reject_other_types!(@one $method, $expected);)*
    };
    (@one unit, $expected:expr) => {
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Err(wrong_type(self.ctx, $expected, "null"))
        }
    };
    (@one bool, $expected:expr) => {
        fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
            Err(wrong_type(self.ctx, $expected, "a boolean"))
        }
    };
    (@one number, $expected:expr) => {
        fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
            Err(wrong_type(self.ctx, $expected, "a number"))
        }
        fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
            Err(wrong_type(self.ctx, $expected, "a number"))
        }
        fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
            Err(wrong_type(self.ctx, $expected, "a number"))
        }
    };
    (@one str, $expected:expr) => {
        fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
            Err(wrong_type(self.ctx, $expected, "a string"))
        }
    };
    (@one seq, $expected:expr) => {
        fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<Self::Value, A::Error> {
            Err(wrong_type(self.ctx, $expected, "an array"))
        }
    };
    (@one map, $expected:expr) => {
        fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<Self::Value, A::Error> {
            Err(wrong_type(self.ctx, $expected, "an object"))
        }
    };
}
pub(crate) use reject_other_types;

/// What [`crate::actions`] reads; here for the empty-document message.
pub(crate) const ACTIONS_EXPECTED: &str = "an array of actions [kind, name, spec]";

#[cfg(test)]
mod tests {
    use super::*;

    fn err_resources(text: &str) -> InputError {
        parse_resources(Document::Observed, text).expect_err("should fail")
    }

    #[test]
    fn a_text_is_json_when_it_starts_with_a_brace_or_is_json() {
        for json in [
            "{\"a\":1,}",
            " [",
            "",
            "\n",
            "null\n",
            " 3",
            "\"text\"",
            "true",
        ] {
            assert_eq!(detect_format(json), Format::Json, "{json:?}");
        }
        for yaml in [
            "a: 1",
            "# c\n{}",
            "- 1",
            "null\n---\nnull",
            "\"k\": v",
            "yes",
        ] {
            assert_eq!(detect_format(yaml), Format::Yaml, "{yaml:?}");
        }
    }

    #[test]
    fn an_error_reads_back_from_its_json() {
        let error = err_resources("{\"a\": {\"b.c\": [1,]}}");
        let json = serde_json::to_string(&error).unwrap();
        assert_eq!(serde_json::from_str::<InputError>(&json).unwrap(), error);
    }

    #[test]
    fn values_are_read_by_the_rules_and_messages_of_text() {
        let value = |text| parse_json(Document::Desired, text).expect("valid JSON");
        let resources = resources_from_value(&value(r#"{"b":{"r":1},"a":[1.0]}"#));
        assert_eq!(
            resources.ok(),
            parse_resources(Document::Desired, r#"{"a":[1],"b":{"r":1}}"#).ok()
        );
        let text = r#"{"svc": ["a", 7]}"#;
        let from_text = parse_finalizers(text).expect_err("a number in the list");
        let from_value = finalizers_from_value(&value(text)).expect_err("a number in the list");
        assert_eq!(from_value.kind, from_text.kind);
        assert_eq!(from_value.path, from_text.path);
        assert_eq!(from_value.message, from_text.message);
        let placed = from_value.at(Document::Finalizers, 3, 4);
        assert_eq!(
            placed.to_string(),
            format!(
                "Finalizers: line 3, column 4 at $.svc[1]: {}",
                from_text.message
            )
        );

        let shape = resources_from_value(&value("[1]")).expect_err("an array");
        assert_eq!(shape.kind, ErrorKind::Shape);
        assert_eq!(
            shape.message,
            r#"expected an object of {"name": spec}, found an array"#
        );
        assert_eq!(finalizers_from_value(&Json::Null), Ok(None));
        assert_eq!(
            finalizer_list_from_value(&value(r#"["x/y"]"#)),
            Ok(vec!["x/y".to_owned()])
        );
        let scenario = scenario_from_value(&value(r#"{"desired":{},"observed":{"a":1},"x":2}"#))
            .expect_err("an unknown member");
        assert_eq!(scenario.path.to_string(), "$.x");
    }

    #[test]
    fn syntax_error_has_line_column_and_path() {
        let error = err_resources("{\n  \"web\": {\"replicas\": 1,}\n}");
        assert_eq!(error.kind, ErrorKind::Syntax);
        assert_eq!(error.document, Document::Observed);
        // Column 25 is the `}` right after the trailing comma.
        assert_eq!((error.line, error.column), (2, 25));
        assert_eq!(error.path.to_string(), "$.web");
        assert!(error.message.contains("trailing comma"), "{error}");
        assert!(error
            .to_string()
            .starts_with("Observed state: line 2, column 25 at $.web: "));
    }

    #[test]
    fn nested_syntax_error_path() {
        let error = err_resources(r#"{"a": {"b": [1, tru]}}"#);
        assert_eq!(error.path.to_string(), "$.a.b[1]");
        assert_eq!(
            error.message,
            "expected `true`, `false` or `null`; check the spelling"
        );
    }

    #[test]
    fn top_level_array_is_a_shape_error() {
        let error = err_resources("[1, 2]");
        assert_eq!(error.kind, ErrorKind::Shape);
        assert_eq!(error.path.to_string(), "$");
        assert_eq!(
            error.message,
            r#"expected an object of {"name": spec}, found an array"#
        );
        assert_eq!((error.line, error.column), (1, 1));
    }

    #[test]
    fn finalizers_shapes() {
        let error = parse_finalizers(r#"{"svc": "cloud/lb"}"#).expect_err("string list");
        assert_eq!(error.kind, ErrorKind::Shape);
        assert_eq!(error.path.to_string(), "$.svc");
        assert!(error
            .message
            .starts_with("expected an array of finalizer names"));

        let error = parse_finalizers("{\"svc\": [\"a\",\n 7]}").expect_err("number in list");
        assert_eq!(error.path.to_string(), "$.svc[1]");
        assert_eq!(error.line, 2);
        assert_eq!(
            error.message,
            "expected a finalizer name (a string), found a number"
        );

        assert!(parse_finalizers("null").expect("null is fine").is_none());
        assert!(parse_finalizers("  \n").expect("empty is fine").is_none());
        assert!(parse_finalizers("\"x\"").is_err());
    }

    #[test]
    fn duplicate_keys_are_errors_at_any_depth() {
        let error = err_resources(r#"{"a": 1, "a": 2}"#);
        assert_eq!(error.kind, ErrorKind::DuplicateKey);
        assert_eq!(error.path.to_string(), "$.a");
        let error = err_resources("{\"a\": {\"x\": 1,\n \"x\": 1}}");
        assert_eq!(error.kind, ErrorKind::DuplicateKey);
        assert_eq!(error.path.to_string(), "$.a.x");
        assert_eq!(error.line, 2);
        // A large object switches to an index of its names; still caught.
        let many: Vec<String> = (0..40).map(|i| format!("\"k{i}\": {i}")).collect();
        let text = format!("{{\"a\": {{{}, \"k3\": 0}}}}", many.join(", "));
        assert_eq!(err_resources(&text).kind, ErrorKind::DuplicateKey);
    }

    #[test]
    fn duplicate_resource_names_are_caught_in_any_order() {
        // Sorted names need no index; the first name out of order builds one.
        for (text, duplicate) in [
            (r#"{"a": 1, "b": 2, "b": 3}"#, "b"),
            (r#"{"a": 1, "b": 2, "a": 3}"#, "a"),
            (r#"{"c": 1, "a": 2, "b": 3, "c": 4}"#, "c"),
            (r#"{"c": 1, "b": 2, "a": 3, "b": 4}"#, "b"),
            (r#"{"b": 1, "a": 2, "c": 3, "d": 4, "a": 5}"#, "a"),
        ] {
            let error = err_resources(text);
            assert_eq!(error.kind, ErrorKind::DuplicateKey, "{text}");
            assert_eq!(error.path.to_string(), format!("$.{duplicate}"), "{text}");
            let finalizers = text.replace(|c: char| c.is_ascii_digit(), "[]");
            let error = parse_finalizers(&finalizers).expect_err("duplicate finalizer entry");
            assert_eq!(error.kind, ErrorKind::DuplicateKey, "{finalizers}");
            assert_eq!(
                error.path.to_string(),
                format!("$.{duplicate}"),
                "{finalizers}"
            );
        }
        let unsorted = parse_resources(Document::Desired, r#"{"c": 1, "a": 2, "b": 3, "d": 4}"#)
            .expect("no duplicates");
        assert_eq!(unsorted.names().collect::<Vec<_>>(), ["a", "b", "c", "d"]);
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let deep = format!("{{\"a\": {}{}}}", "[".repeat(100_000), "]".repeat(100_000));
        let error = err_resources(&deep);
        assert_eq!(error.kind, ErrorKind::TooDeep);
        assert_eq!(error.message, "values are nested more than 127 levels deep");
        // The limit is exact: MAX_DEPTH levels parse, one more does not.
        let nested = |levels: usize| format!("{}{}", "[".repeat(levels), "]".repeat(levels));
        assert!(parse_json_value(&nested(MAX_DEPTH)).is_ok());
        let error = parse_json_value(&nested(MAX_DEPTH + 1)).expect_err("too deep");
        assert_eq!(error.kind, ErrorKind::TooDeep);
    }

    #[test]
    fn empty_and_bom() {
        let error = err_resources("   ");
        assert_eq!(error.kind, ErrorKind::Empty);
        let error = err_resources("\u{FEFF}{}");
        assert!(error.message.contains("byte order mark"));
        // Unicode spaces are not JSON whitespace: not "empty", and not "no finalizers".
        let error = err_resources("\u{A0}\n");
        assert_eq!(error.kind, ErrorKind::Syntax);
        assert_eq!((error.line, error.column), (1, 1));
        let error = parse_finalizers("\u{2003}").expect_err("not JSON");
        assert_eq!(error.kind, ErrorKind::Syntax);
        assert!(parse_finalizers(" \t\r\n").expect("blank").is_none());
    }

    #[test]
    fn columns_count_characters() {
        let error = err_resources("{\"🚀é\": x}");
        // `x` is the 8th character though the 10th byte.
        assert_eq!((error.line, error.column), (1, 8));
    }

    #[test]
    fn scenario_paths_name_the_inner_document() {
        let error = parse_scenario(r#"{"desired": {}, "observed": {"b": [1,]}}"#).expect_err("bad");
        assert_eq!(error.path.to_string(), "$.observed.b[1]");
        let error = parse_scenario(r#"{"desired": {}}"#).expect_err("missing");
        assert!(error.message.contains("missing member \"observed\""));
        let scenario =
            parse_scenario(r#"{"desired": {"a": 1}, "observed": {}, "finalizers": null}"#)
                .expect("valid");
        assert_eq!(scenario.desired.len(), 1);
        assert!(scenario.finalizers.is_none());
    }

    #[test]
    fn a_scenario_shares_the_names_desired_and_observed() {
        let text = r#"{"desired": {"a": 1, "b": 2}, "observed": {"b": 3, "c": 4}}"#;
        let scenario = parse_scenario(text).expect("valid");
        let desired = scenario.desired.shared_name("b").expect("desired");
        let observed = scenario.observed.shared_name("b").expect("observed");
        assert!(std::sync::Arc::ptr_eq(desired, observed));
        // Handed over or lent, and in any order, the text reads the same.
        let unsorted = r#"{"desired": {"b": 2, "a": 1}, "observed": {"c": 4, "b": 3}}"#;
        for text in [text, unsorted] {
            assert_eq!(parse_scenario_owned(text.to_owned()), Ok(scenario.clone()));
            assert_eq!(parse_scenario(text), Ok(scenario.clone()));
        }
    }

    #[test]
    fn format_keeps_member_order() {
        let pretty =
            format_document(Document::Desired, r#"{"b":1,"a":[true,null]}"#).expect("valid");
        assert_eq!(
            pretty,
            "{\n  \"b\": 1,\n  \"a\": [\n    true,\n    null\n  ]\n}"
        );
    }

    #[test]
    fn what_other_formats_allow_is_named() {
        for (text, position, path, message) in [
            (
                "{\n  // the web tier\n  \"web\": {}\n}",
                (2, 3),
                "$",
                "comments are not allowed in JSON; expected a member name in double quotes",
            ),
            (
                r#"{"web": {} /* old */}"#,
                (1, 12),
                "$",
                "comments are not allowed in JSON; expected `,` or `}`",
            ),
            (
                r#"{"web": {"ratio": NaN}}"#,
                (1, 19),
                "$.web.ratio",
                "NaN and Infinity are not JSON numbers; expected a JSON value (object, array, string, number, true, false or null)",
            ),
            (
                r#"{"web": {"limit": -Infinity}}"#,
                (1, 20),
                "$.web.limit",
                "NaN and Infinity are not JSON numbers; invalid number; a JSON number looks like -1, 0.5 or 2e3",
            ),
            (
                "{'web': {}}",
                (1, 2),
                "$",
                "JSON uses double quotes, not single quotes; expected a member name in double quotes",
            ),
            (
                r#"{"🚀": 'x'}"#,
                (1, 7),
                "$[\"🚀\"]",
                "JSON uses double quotes, not single quotes; expected a JSON value (object, array, string, number, true, false or null)",
            ),
        ] {
            let error = err_resources(text);
            assert_eq!(error.kind, ErrorKind::Syntax, "{text}");
            assert_eq!((error.line, error.column), position, "{text}");
            assert_eq!(error.path.to_string(), path, "{text}");
            assert_eq!(error.message, message, "{text}");
        }
        let error = err_resources("{\"a\": \"line\nbreak\"}");
        assert_eq!(
            (error.line, error.column, error.path.to_string()),
            (2, 1, "$.a".to_owned())
        );
        assert_eq!(
            error.message,
            "a line break, tab or other control character inside a string; write it as an escape such as \\n or \\t"
        );
        for lone in [
            r#"{"a": "\ud800"}"#,
            r#"{"a": "\udc00"}"#,
            r#"{"a": "\ud800\u0041"}"#,
        ] {
            let error = err_resources(lone);
            assert_eq!(error.path.to_string(), "$.a", "{lone}");
            assert_eq!(
                error.message,
                "a \\u escape of half a surrogate pair; \\uD800-\\uDBFF must be followed by \\uDC00-\\uDFFF",
                "{lone}"
            );
        }
        // A slash or a quote inside a string is not a hint.
        let error = err_resources(r#"{"it's // fine": x}"#);
        assert!(
            error.message.starts_with("expected a JSON value"),
            "{error}"
        );
    }

    #[test]
    fn out_of_range_number() {
        let error = err_resources(r#"{"a": 1e400}"#);
        assert_eq!(error.kind, ErrorKind::Syntax);
        assert!(error.message.contains("out of range"));
        assert_eq!(error.path.to_string(), "$.a");
    }
}

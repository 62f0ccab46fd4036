//! Reads a simulation's scenario text: core's `{desired, observed,
//! finalizers}`, or the list form `{"customResources": [...]}`
//! (`docs/design/control-plane.md`, "A scenario with several custom
//! resources"). Start at [`parse_sim_scenario`]; [`export_sim_scenario`]
//! writes what it reads.
//!
//! Guarantees: every error is core's [`InputError`], in the scenario
//! document, with the line, column and JSON path of the whole text. Each
//! entry's documents are read by core's own readers, on their own text.

use std::sync::Arc;

use reconcile_core::path::Segment;
use reconcile_core::{
    export_scenario, parse_finalizers, parse_json, parse_resources, parse_scenario, Document,
    ErrorKind, InputError, JsonPath, Scenario,
};
use serde::Deserialize;
use serde_json::value::RawValue;

use super::custom_resources::{CustomResourceScenario, CustomResources, CustomResourcesError};
use super::object_only::from_object_text;
use crate::control_plane::ownership::CUSTOM_RESOURCE;

/// The list form's only member.
const LIST: &str = "customResources";

/// A scenario text, in either form.
pub fn parse_sim_scenario(text: &str) -> Result<CustomResources, InputError> {
    match parse_scenario(text) {
        Ok(scenario) => Ok(CustomResources::one(&scenario)),
        Err(error) if is_list_form(&error) => parse_list(text),
        Err(error) => Err(error),
    }
}

/// The text [`parse_sim_scenario`] reads back: core's scenario form for
/// one custom resource of the default name, the list form otherwise.
/// Each entry is core's `export_scenario`, so the page's editors and the
/// simulation section agree on one writer.
pub fn export_sim_scenario(custom_resources: &CustomResources) -> String {
    if let [only] = custom_resources.entries() {
        if &*only.name == CUSTOM_RESOURCE {
            return export_scenario(&only.scenario);
        }
    }
    let entries: Vec<(&str, String)> = (custom_resources.entries().iter())
        .map(|cr| (&*cr.name, export_scenario(&cr.scenario)))
        .collect();
    write_list_form(entries.iter().map(|(name, text)| (*name, text.as_str())))
}

/// The list form of `(name, scenario)` entries, each scenario as core's
/// `export_scenario` writes it (an object). The page sends its tabs so;
/// the simulation section writes and reads them here, in one place.
pub fn write_list_form<'a>(entries: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    let mut text = format!("{{\"{LIST}\":[");
    for (index, (name, scenario)) in entries.into_iter().enumerate() {
        if index > 0 {
            text.push(',');
        }
        let name = serde_json::to_string(name).unwrap_or_default();
        // Core writes an object: the name goes in as its first member.
        let members = scenario.trim().strip_prefix('{').unwrap_or_default();
        text.push_str(&format!("{{\"name\":{name},{members}"));
    }
    text.push_str("]}\n");
    text
}

/// The entry an error of the list form is in (its path starts
/// `customResources[entry]`), if it is in one.
pub fn list_entry_of(error: &InputError) -> Option<usize> {
    match error.path.segments() {
        [Segment::Key(list), Segment::Index(entry), ..] if list == LIST => Some(*entry),
        _ => None,
    }
}

/// Core refuses the list form's member as unknown, where it first appears.
fn is_list_form(error: &InputError) -> bool {
    error.kind == ErrorKind::Shape && error.path == JsonPath::root().key(LIST)
}

/// A scenario of several custom resources, each reconciled alone against
/// the objects it owns. Object names are unique across entries.
#[derive(Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct CustomResourcesScenario<'a> {
    #[serde(borrow, rename = "customResources")]
    #[cfg_attr(feature = "ts", ts(as = "Vec<CustomResourceEntry<'static>>"))]
    custom_resources: Vec<&'a RawValue>,
}

/// One custom resource of a [`CustomResourcesScenario`]: its name and its contract scenario.
#[derive(Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct CustomResourceEntry<'a> {
    name: String,
    #[serde(borrow)]
    #[cfg_attr(feature = "ts", ts(as = "reconcile_core::Resources"))]
    desired: &'a RawValue,
    #[serde(borrow)]
    #[cfg_attr(feature = "ts", ts(as = "reconcile_core::Resources"))]
    observed: &'a RawValue,
    #[serde(borrow, default)]
    #[cfg_attr(feature = "ts", ts(optional = nullable, as = "Option<reconcile_core::Finalizers>"))]
    finalizers: Option<&'a RawValue>,
}

fn parse_list(text: &str) -> Result<CustomResources, InputError> {
    // Core's JSON reader first: a syntax error or a repeated member gets its path.
    parse_json(Document::Scenario, text)?;
    let list: CustomResourcesScenario<'_> =
        from_object_text(text).map_err(|e| serde_error(text, 0, &e, JsonPath::root()))?;
    let mut entries = Vec::with_capacity(list.custom_resources.len());
    for (index, raw) in list.custom_resources.iter().enumerate() {
        let at = JsonPath::root().key(LIST).index(index);
        let start = offset(text, raw.get());
        let entry: CustomResourceEntry<'_> =
            from_object_text(raw.get()).map_err(|e| serde_error(text, start, &e, at.clone()))?;
        entries.push(read_entry(text, &entry, &at)?);
    }
    CustomResources::new(entries).map_err(|error| repeated(text, &list, &error))
}

/// One entry, its documents read by core's readers.
fn read_entry(
    text: &str,
    entry: &CustomResourceEntry<'_>,
    at: &JsonPath,
) -> Result<CustomResourceScenario, InputError> {
    let part = |name: &str, raw: &RawValue, error: InputError| {
        shifted(text, raw.get(), error, &at.key(name))
    };
    let desired = parse_resources(Document::Desired, entry.desired.get())
        .map_err(|e| part("desired", entry.desired, e))?;
    let observed = parse_resources(Document::Observed, entry.observed.get())
        .map_err(|e| part("observed", entry.observed, e))?;
    let finalizers = match entry.finalizers {
        Some(raw) => parse_finalizers(raw.get()).map_err(|e| part("finalizers", raw, e))?,
        None => None,
    };
    if entry.name.is_empty() {
        let name = entry.desired.get();
        let error = located(text, offset(text, name), at.key("name"), "expected a name");
        return Err(InputError {
            kind: ErrorKind::Shape,
            ..error
        });
    }
    Ok(CustomResourceScenario {
        name: Arc::from(entry.name.as_str()),
        scenario: Scenario {
            desired,
            observed,
            finalizers,
        },
    })
}

/// A repeated name, located at the entry that repeats it.
fn repeated(
    text: &str,
    list: &CustomResourcesScenario<'_>,
    error: &CustomResourcesError,
) -> InputError {
    let (entry, path) = match error {
        CustomResourcesError::Empty => (None, JsonPath::root().key(LIST)),
        CustomResourcesError::Repeated { entry, object, .. } => {
            let at = JsonPath::root().key(LIST).index(*entry);
            let path = match object {
                Some(object) => at.key("observed").key(object),
                None => at.key("name"),
            };
            (Some(*entry), path)
        }
    };
    let start = entry
        .and_then(|i| list.custom_resources.get(i))
        .map_or(0, |raw| offset(text, raw.get()));
    located(text, start, path, &error.to_string())
}

/// An error core found in `part` (a slice of `text`), moved into `text`.
fn shifted(text: &str, part: &str, error: InputError, at: &JsonPath) -> InputError {
    let (line, column) = line_column(text, offset(text, part));
    InputError {
        document: Document::Scenario,
        column: if error.line == 1 {
            column + error.column - 1
        } else {
            error.column
        },
        line: line + error.line - 1,
        path: at.join(&error.path),
        ..error
    }
}

/// A serde error in the text that starts at byte `start` of `text`.
fn serde_error(text: &str, start: usize, error: &serde_json::Error, at: JsonPath) -> InputError {
    let part = text.get(start..).unwrap_or_default();
    // serde_json counts columns in bytes; the playground, in characters.
    let line_start = part
        .split_inclusive('\n')
        .take(error.line().saturating_sub(1))
        .map(str::len)
        .sum::<usize>();
    let byte = line_start + error.column().saturating_sub(1);
    let mut located = located(text, start + byte.min(part.len()), at, &message(error));
    if error.is_syntax() || error.is_eof() {
        located.kind = ErrorKind::Syntax;
    }
    located
}

/// serde's message without its " at line L column C" tail.
fn message(error: &serde_json::Error) -> String {
    let text = error.to_string();
    match text.rfind(" at line ") {
        Some(end) => text[..end].to_owned(),
        None => text,
    }
}

fn located(text: &str, at: usize, path: JsonPath, message: &str) -> InputError {
    let (line, column) = line_column(text, at);
    InputError {
        document: Document::Scenario,
        kind: ErrorKind::Shape,
        line,
        column,
        path,
        message: message.to_owned(),
    }
}

/// Where `part`, a slice of `text`, starts in it, in bytes.
fn offset(text: &str, part: &str) -> usize {
    (part.as_ptr() as usize).saturating_sub(text.as_ptr() as usize)
}

/// The 1-based line and column (in characters) of byte `at` of `text`.
fn line_column(text: &str, at: usize) -> (usize, usize) {
    let before = text.get(..at).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count() + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO: &str = r#"{
  "customResources": [
    { "name": "cache-a", "desired": { "cache-a-0": { "image": "redis:7" } },
      "observed": {}, "finalizers": null },
    { "name": "cache-b", "desired": { "cache-b-0": { "image": "redis:7" } },
      "observed": { "cache-b-9": { "image": "redis:6" } },
      "finalizers": { "cache-b-9": ["example.com/cleanup"] } }
  ]
}"#;

    #[test]
    fn the_list_form_reads_each_entry() {
        let read = parse_sim_scenario(TWO).expect("valid");
        let names: Vec<&str> = read.entries().iter().map(|e| &*e.name).collect();
        assert_eq!(names, ["cache-a", "cache-b"]);
        let b = &read.entries()[1].scenario;
        let finalizers = b.finalizers.as_ref().expect("some");
        assert_eq!(finalizers.pending("cache-b-9"), ["example.com/cleanup"]);
    }

    #[test]
    fn what_is_exported_reads_back() {
        let two = parse_sim_scenario(TWO).expect("valid");
        assert_eq!(parse_sim_scenario(&export_sim_scenario(&two)), Ok(two));
        let one = parse_sim_scenario(r#"{"desired": {"a": {}}, "observed": {}}"#).expect("valid");
        let text = export_sim_scenario(&one);
        assert!(text.starts_with("{\n  \"desired\""), "{text}");
        assert_eq!(parse_sim_scenario(&text), Ok(one));
    }

    #[test]
    fn the_contract_form_is_one_custom_resource() {
        let read = parse_sim_scenario(r#"{"desired": {"a": {}}, "observed": {}}"#).expect("valid");
        assert_eq!(read.entries().len(), 1);
        assert_eq!(&*read.entries()[0].name, "custom-resource");
    }

    #[test]
    fn an_error_in_an_entry_is_located_in_the_whole_text() {
        let text = TWO.replace(r#"{ "image": "redis:6" }"#, r#"{ "image": "redis:6", }"#);
        let error = parse_sim_scenario(&text).expect_err("a trailing comma");
        assert_eq!(error.document, Document::Scenario);
        assert_eq!(error.kind, ErrorKind::Syntax);
        // At the `}` after the comma, as core reports it in a document of its own.
        assert_eq!((error.line, error.column), (6, 56));
        assert!(
            error
                .path
                .to_string()
                .starts_with("$.customResources[1].observed"),
            "{}",
            error.path
        );
    }

    #[test]
    fn a_repeated_object_names_its_path() {
        let text = TWO.replace("cache-b-9", "cache-a-0");
        // cache-a-0 is only desired in cache-a: not a repeat.
        assert!(parse_sim_scenario(&text).is_ok());
        let text = TWO.replace(r#""observed": {},"#, r#""observed": {"cache-b-9": {}},"#);
        let error = parse_sim_scenario(&text).expect_err("cache-b-9 twice");
        assert_eq!(
            error.path.to_string(),
            r#"$.customResources[1].observed["cache-b-9"]"#
        );
        assert_eq!(error.line, 5);
    }

    #[test]
    fn the_two_forms_exclude_each_other() {
        let text = r#"{"customResources": [], "desired": {}}"#;
        let error = parse_sim_scenario(text).expect_err("both forms");
        assert!(error.message.contains("desired"), "{}", error.message);
        let error = parse_sim_scenario(r#"{"customResources": []}"#).expect_err("empty");
        assert_eq!(error.message, "expected at least one custom resource");
    }

    #[test]
    fn a_wrong_entry_shape_is_located() {
        let text = "{\"customResources\": [\n  {\"name\": \"a\", \"desired\": {}}\n]}";
        let error = parse_sim_scenario(text).expect_err("observed missing");
        assert_eq!(error.path.to_string(), "$.customResources[0]");
        assert_eq!(error.line, 2);
        assert!(error.message.contains("observed"), "{}", error.message);
    }
}

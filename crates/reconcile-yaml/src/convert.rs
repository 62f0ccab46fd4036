//! The editors' conversions: a document's text into the other format, or
//! pretty-printed in its own, through the reader and writer of this crate.
//!
//! Guarantees: the new text reads back as the same value (the writer's
//! guarantee); nothing is converted that would change meaning, so a text of
//! Kubernetes manifests is not turned into JSON, where it would be read as
//! resources named `apiVersion`, `kind` and `metadata`; and a YAML text with
//! comments is reported as such ([`Converted::dropped_comments`]), since
//! neither JSON nor the writer keeps them.

use reconcile_core::{
    json_from_value, parse_json, Document, ErrorKind, InputError, Json, JsonPath,
};

use crate::manifest::is_manifest_stream;
use crate::reader::read_stream;
use crate::{locate, to_yaml, to_yaml_stream, Format};

/// A converted text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Converted {
    pub text: String,
    /// The text it came from had YAML comments, which the new one has not.
    pub dropped_comments: bool,
}

/// `text`, read as `from`, written as `to` (YAML to YAML pretty-prints it;
/// so does JSON to JSON).
pub fn convert(
    document: Document,
    text: &str,
    from: Format,
    to: Format,
) -> Result<Converted, InputError> {
    let values = match from {
        Format::Json => vec![parse_json(document, text)?],
        Format::Yaml => yaml_values(document, text, to)?,
    };
    let text_out = match (to, values.as_slice()) {
        (Format::Json, []) => String::new(),
        (Format::Json, [value, ..]) => value.to_pretty_string() + "\n",
        (Format::Yaml, [value]) => to_yaml(value),
        (Format::Yaml, values) => to_yaml_stream(values),
    };
    Ok(Converted {
        text: text_out,
        dropped_comments: from == Format::Yaml && has_comments(text),
    })
}

/// The values of a YAML text, checked by core's rules (duplicate keys);
/// several only when they stay YAML.
fn yaml_values(document: Document, text: &str, to: Format) -> Result<Vec<Json>, InputError> {
    let documents = read_stream(document, text)?;
    if to == Format::Json && is_manifest_stream(&documents) {
        let start = documents[0].start;
        return Err(InputError {
            document,
            kind: ErrorKind::Unsupported,
            line: start.line,
            column: start.column,
            path: JsonPath::root(),
            message: "these are Kubernetes manifests, which are read as objects only in YAML; in JSON they would be resources named apiVersion, kind and metadata, so they stay YAML (expected one {name: spec} mapping to convert)".to_owned(),
        });
    }
    documents
        .iter()
        .enumerate()
        .map(|(index, yaml)| {
            json_from_value(&yaml.value).map_err(|e| locate::place(document, text, index, e))
        })
        .collect()
}

/// Whether a YAML text has a comment: a `#` at the start of a line or after
/// a space or tab. It may say yes for a `#` inside a quoted or block string
/// (then the page asks once too often), never no for a real comment.
pub fn has_comments(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.iter().enumerate().any(|(at, &byte)| {
        byte == b'#' && (at == 0 || matches!(bytes[at - 1], b' ' | b'\t' | b'\n' | b'\r'))
    })
}

/// A YAML scenario file (one mapping of `desired`, `observed` and maybe
/// `finalizers`, nothing else) as the three editors' texts, each written
/// as YAML (a missing `finalizers` is empty); `None` for a text that is no
/// such mapping (a desired state, manifests, or a text that does not read).
/// A scenario file that does not read as one is its located error.
pub fn scenario_documents(text: &str) -> Result<Option<[String; 3]>, InputError> {
    let Ok(documents) = read_stream(Document::Scenario, text) else {
        return Ok(None);
    };
    let [only] = documents.as_slice() else {
        return Ok(None);
    };
    let Some(members) = only.value.as_object() else {
        return Ok(None);
    };
    let known = ["desired", "observed", "finalizers"];
    let is_scenario = members.iter().all(|(key, _)| known.contains(&&**key))
        && ["desired", "observed"]
            .iter()
            .all(|key| only.value.get(key).is_some());
    if !is_scenario {
        return Ok(None);
    }
    crate::read_scenario_in(Format::Yaml, text)?;
    Ok(Some(known.map(|key| {
        only.value
            .get(key)
            .filter(|value| !matches!(value, Json::Null))
            .map_or_else(String::new, to_yaml)
    })))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn yaml_to_json(text: &str) -> Result<Converted, InputError> {
        convert(Document::Desired, text, Format::Yaml, Format::Json)
    }

    #[test]
    fn yaml_becomes_pretty_json_and_says_comments_were_dropped() {
        let converted = yaml_to_json("# web\nweb:\n  replicas: 3 # three\n").unwrap();
        assert_eq!(
            converted.text,
            "{\n  \"web\": {\n    \"replicas\": 3\n  }\n}\n"
        );
        assert!(converted.dropped_comments);
        assert!(!yaml_to_json("web: {a: \"#1\"}\n").unwrap().dropped_comments);
    }

    #[test]
    fn json_becomes_yaml_that_reads_back_the_same() {
        let json = "{\"web\":{\"replicas\":3,\"on\":\"yes\"}}";
        let converted = convert(Document::Desired, json, Format::Json, Format::Yaml).unwrap();
        assert_eq!(converted.text, "web:\n  replicas: 3\n  \"on\": \"yes\"\n");
        assert!(!converted.dropped_comments);
        let back = crate::read_value(Document::Desired, &converted.text).unwrap();
        assert_eq!(back, parse_json(Document::Desired, json).unwrap());
    }

    #[test]
    fn formatting_yaml_keeps_a_stream_a_stream() {
        let stream = "a:   1\n---\nb: [1,   2]\n";
        let formatted = convert(Document::Desired, stream, Format::Yaml, Format::Yaml).unwrap();
        assert_eq!(formatted.text, "a: 1\n---\nb:\n  - 1\n  - 2\n");
    }

    #[test]
    fn manifests_stay_yaml() {
        let error =
            yaml_to_json("apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n").unwrap_err();
        assert_eq!((error.line, error.column), (1, 1));
        assert!(error.message.contains("Kubernetes manifests"), "{error}");
    }

    #[test]
    fn a_duplicate_key_is_located_not_written_twice() {
        let error = yaml_to_json("a: 1\nb: 2\na: 3\n").unwrap_err();
        assert_eq!(error.kind, ErrorKind::DuplicateKey);
        assert_eq!(error.line, 3);
    }

    #[test]
    fn comments_are_found_where_yaml_has_them() {
        assert!(has_comments("# only a comment"));
        assert!(has_comments("a: 1\t# tab then comment"));
        assert!(!has_comments("a: b#c\nurl: http://x/#frag\n"));
    }
}

//! What the YAML worker answers the page, read with core's JSON reader: the
//! input errors of a read or a conversion, and the names of the terminating
//! objects. The worker writes them with serde; a serde reader of
//! `InputError` would be one more in the page's first load (docs/SIZE.md).

use reconcile_content::data::{read_json, ContentError, Object, Reader};
use reconcile_core::{Document, ErrorKind, InputError, Json, JsonPath};

const FILE: &str = "the YAML worker's answer";

/// An [`InputError`]'s members, as serde writes them.
pub(crate) const INPUT_ERROR: &[&str] = &["document", "kind", "line", "column", "path", "message"];

/// Reads a list of input errors, as serde writes a `Vec<InputError>`.
pub fn input_errors_from_json(text: &str) -> Result<Vec<InputError>, ContentError> {
    let value = read_json(FILE, text)?;
    let reader = Reader::new(FILE);
    let errors = items(&reader, &value)
        .map(|(path, item)| read_input_error(&reader, &reader.object(item, path, INPUT_ERROR)))
        .collect();
    reader.finish(errors)
}

/// Reads a list of names, as serde writes a `Vec<String>`.
pub fn names_from_json(text: &str) -> Result<Vec<String>, ContentError> {
    let value = read_json(FILE, text)?;
    let reader = Reader::new(FILE);
    let names = items(&reader, &value)
        .filter_map(|(path, item)| match item {
            Json::String(name) => Some(name.to_string()),
            _ => {
                reader.fail(path, "expected a string".to_owned());
                None
            }
        })
        .collect();
    reader.finish(names)
}

/// The items of a top-level array, each with its path.
fn items<'v>(reader: &Reader<'_>, value: &'v Json) -> impl Iterator<Item = (JsonPath, &'v Json)> {
    let items = match value {
        Json::Array(items) => &items[..],
        _ => {
            reader.fail(JsonPath::root(), "expected an array".to_owned());
            &[]
        }
    };
    items
        .iter()
        .enumerate()
        .map(|(index, item)| (JsonPath::root().index(index), item))
}

fn read_input_error(reader: &Reader<'_>, error: &Object<'_>) -> InputError {
    let document = match reader.string(error, "document").as_str() {
        "desired" => Document::Desired,
        "observed" => Document::Observed,
        "finalizers" => Document::Finalizers,
        "scenario" => Document::Scenario,
        "actions" => Document::Actions,
        other => {
            reader.fail(
                error.path_of("document"),
                format!("unknown document {other:?}"),
            );
            Document::Desired
        }
    };
    let kind = match reader.string(error, "kind").as_str() {
        "syntax" => ErrorKind::Syntax,
        "shape" => ErrorKind::Shape,
        "duplicate-key" => ErrorKind::DuplicateKey,
        "too-deep" => ErrorKind::TooDeep,
        "empty" => ErrorKind::Empty,
        "unsupported" => ErrorKind::Unsupported,
        "too-large" => ErrorKind::TooLarge,
        other => {
            reader.fail(error.path_of("kind"), format!("unknown kind {other:?}"));
            ErrorKind::Syntax
        }
    };
    let path = JsonPath::parse(&reader.string(error, "path")).unwrap_or_else(|problem| {
        reader.fail(error.path_of("path"), problem.to_string());
        JsonPath::root()
    });
    InputError {
        document,
        kind,
        line: reader.count(error, "line"),
        column: reader.count(error, "column"),
        path,
        message: reader.string(error, "message"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every document and kind, written by serde, reads back as itself.
    #[test]
    fn input_errors_read_back_as_serde_wrote_them() {
        let documents = [
            Document::Desired,
            Document::Observed,
            Document::Finalizers,
            Document::Scenario,
            Document::Actions,
        ];
        let kinds = [
            ErrorKind::Syntax,
            ErrorKind::Shape,
            ErrorKind::DuplicateKey,
            ErrorKind::TooDeep,
            ErrorKind::Empty,
            ErrorKind::Unsupported,
            ErrorKind::TooLarge,
        ];
        let errors: Vec<InputError> = kinds
            .iter()
            .zip(documents.iter().cycle())
            .enumerate()
            .map(|(at, (kind, document))| InputError {
                document: *document,
                kind: *kind,
                line: at + 1,
                column: 2 * at + 1,
                path: JsonPath::root().key("web app").index(at),
                message: format!("problem {at}"),
            })
            .collect();
        let text = serde_json::to_string(&errors).expect("serializable");
        assert_eq!(input_errors_from_json(&text), Ok(errors.clone()));
        let written: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        let mut members: Vec<&str> = written[0]
            .as_object()
            .expect("an object")
            .keys()
            .map(String::as_str)
            .collect();
        members.sort_unstable();
        let mut known = INPUT_ERROR.to_vec();
        known.sort_unstable();
        assert_eq!(members, known);
        assert_eq!(input_errors_from_json("[]"), Ok(Vec::new()));
    }

    #[test]
    fn a_wrong_answer_is_an_error_that_says_where() {
        let wrong = input_errors_from_json(r#"[{"document": "sideways"}]"#).expect_err("wrong");
        assert!(wrong.to_string().contains("sideways"), "{wrong}");
        let unknown = r#"[{"document":"desired","kind":"syntax","line":1,"column":1,"path":"$","message":"m","extra":1}]"#;
        assert!(input_errors_from_json(unknown).is_err());
        assert!(input_errors_from_json("{}").is_err());
        assert_eq!(
            names_from_json(r#"["a", "b"]"#),
            Ok(vec!["a".to_owned(), "b".to_owned()])
        );
        assert!(names_from_json("[1]").is_err());
    }
}

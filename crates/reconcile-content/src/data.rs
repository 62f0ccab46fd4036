//! Reading the content files (lessons, presets): every error names the file,
//! the line and column, the JSON path and what was expected, like the
//! editors' errors do.

use std::fmt;

use reconcile_core::json::Json;
use reconcile_core::path::JsonPath;
use reconcile_core::{parse_json, Document};
use reconcile_sim::{options_from_json, SimConfig};
use serde::de::DeserializeOwned;

/// A compiled-in content file, `(name, text)`: `content_file!("lessons", "01-x.json")`.
macro_rules! content_file {
    ($folder:literal, $name:literal) => {
        (
            concat!($folder, "/", $name),
            include_str!(concat!("../", $folder, "/", $name)),
        )
    };
}
pub(crate) use content_file;

/// Every file of a kind, parsed, in order. A file that does not parse is a
/// bug caught by this crate's tests, so it is skipped here rather than panicking.
pub(crate) fn parse_all<T>(
    files: &[(&str, &str)],
    parse: fn(&str, &str) -> Result<T, ContentError>,
) -> Vec<T> {
    files
        .iter()
        .filter_map(|(file, text)| parse(file, text).ok())
        .collect()
}

/// A content file that could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContentError {
    /// The file, e.g. `lessons/03-finalizers.json`.
    pub file: String,
    /// 1-based line and column, when the JSON reader knows them.
    pub position: Option<(usize, usize)>,
    /// Where in the file, when the reader knows it (the `sim` settings).
    pub path: Option<JsonPath>,
    pub message: String,
}

impl fmt::Display for ContentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.file)?;
        if let Some((line, column)) = self.position {
            write!(f, ": line {line}, column {column}")?;
        }
        if let Some(path) = &self.path {
            write!(f, " at {path}")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for ContentError {}

/// Reads a whole file as `T`. serde_json's errors name the line and column
/// (and the member, for an unknown or missing one), not a path: tracking the
/// path of every member would cost the page a second copy of each reader,
/// for errors that only this crate's tests can meet (the files are compiled in).
pub(crate) fn read<T: DeserializeOwned>(file: &str, text: &str) -> Result<T, ContentError> {
    serde_json::from_str(text).map_err(|error| {
        let message = error.to_string();
        // serde_json ends its messages with the position, which is given apart.
        let message = message
            .rsplit_once(" at line ")
            .map_or(&*message, |(what, _)| what)
            .to_owned();
        ContentError {
            file: file.to_owned(),
            position: Some((error.line(), error.column())),
            path: None,
            message,
        }
    })
}

/// Reads a whole file as a JSON value, with core's located errors.
pub(crate) fn read_json(file: &str, text: &str) -> Result<Json, ContentError> {
    parse_json(Document::Scenario, text).map_err(|error| ContentError {
        file: file.to_owned(),
        position: Some((error.line, error.column)),
        path: Some(error.path),
        message: error.message,
    })
}

/// The members of a file's top-level object, read by name.
pub(crate) struct Members<'a> {
    file: &'a str,
    value: &'a Json,
}

impl<'a> Members<'a> {
    /// `value` as an object whose member names are all in `known`.
    pub(crate) fn new(
        file: &'a str,
        value: &'a Json,
        known: &[&str],
    ) -> Result<Self, ContentError> {
        let members = Self { file, value };
        let Some(object) = value.as_object() else {
            return Err(members.error(JsonPath::root(), "expected an object".to_owned()));
        };
        if let Some((unknown, _)) = object.iter().find(|(name, _)| !known.contains(&&**name)) {
            return Err(members.error(
                JsonPath::root().key(unknown),
                format!(
                    "unknown member {unknown:?}; expected one of {}",
                    known.join(", ")
                ),
            ));
        }
        Ok(members)
    }

    pub(crate) fn get(&self, name: &str) -> Option<&'a Json> {
        self.value.get(name)
    }

    /// A member that must be a string.
    pub(crate) fn string(&self, name: &str) -> Result<String, ContentError> {
        match self.get(name) {
            Some(Json::String(text)) => Ok(text.to_string()),
            Some(other) => Err(self.error(
                JsonPath::root().key(name),
                format!("expected a string, found {}", other.type_name()),
            )),
            None => Err(self.error(JsonPath::root(), format!("missing member {name:?}"))),
        }
    }

    fn error(&self, path: JsonPath, message: String) -> ContentError {
        ContentError {
            file: self.file.to_owned(),
            position: None,
            path: Some(path),
            message,
        }
    }
}

/// Reads a file's `sim` member with the simulation's own options parser.
pub(crate) fn read_sim(file: &str, sim: Option<&Json>) -> Result<Option<SimConfig>, ContentError> {
    sim.map(|value| {
        options_from_json(value).map_err(|error| ContentError {
            file: file.to_owned(),
            position: None,
            path: Some(error.path_within(&JsonPath::root().key("sim"))),
            message: error.message,
        })
    })
    .transpose()
}

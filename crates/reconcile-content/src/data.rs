//! Reading the content files (lessons, presets): every error names the file,
//! the line and column, the JSON path and what was expected, like the
//! editors' errors do.

use std::fmt;

use reconcile_core::json::Json;
use reconcile_core::path::JsonPath;
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

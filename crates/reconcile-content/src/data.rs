//! Reading the content files (lessons, presets): every error names the file,
//! the line and column, the JSON path and what was expected, like the
//! editors' errors do.

use std::fmt;

use reconcile_core::json::Json;
use reconcile_core::path::{JsonPath, Segment};
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
    pub path: JsonPath,
    pub message: String,
}

impl fmt::Display for ContentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.position {
            Some((line, column)) => write!(
                f,
                "{}: line {line}, column {column} at {}: {}",
                self.file, self.path, self.message
            ),
            None => write!(f, "{} at {}: {}", self.file, self.path, self.message),
        }
    }
}

impl std::error::Error for ContentError {}

/// Reads a whole file as `T`.
pub(crate) fn read<T: DeserializeOwned>(file: &str, text: &str) -> Result<T, ContentError> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let value: T = serde_path_to_error::deserialize(&mut deserializer).map_err(|error| {
        let path = json_path(error.path());
        located(file, path, &error.into_inner())
    })?;
    deserializer
        .end()
        .map_err(|error| located(file, JsonPath::root(), &error))?;
    Ok(value)
}

fn located(file: &str, path: JsonPath, error: &serde_json::Error) -> ContentError {
    let message = error.to_string();
    // serde_json ends its messages with the position, which is given apart.
    let message = message
        .rsplit_once(" at line ")
        .map_or(&*message, |(what, _)| what)
        .to_owned();
    ContentError {
        file: file.to_owned(),
        position: Some((error.line(), error.column())),
        path,
        message,
    }
}

/// Reads a file's `sim` member with the simulation's own options parser.
pub(crate) fn read_sim(file: &str, sim: Option<&Json>) -> Result<Option<SimConfig>, ContentError> {
    sim.map(|value| {
        options_from_json(value).map_err(|error| ContentError {
            file: file.to_owned(),
            position: None,
            path: error.path_within(&JsonPath::root().key("sim")),
            message: error.message,
        })
    })
    .transpose()
}

/// serde_path_to_error's path as a [`JsonPath`] (enum and unknown steps name no member).
fn json_path(path: &serde_path_to_error::Path) -> JsonPath {
    JsonPath::from_segments(
        path.iter()
            .filter_map(|segment| match segment {
                serde_path_to_error::Segment::Seq { index } => Some(Segment::Index(*index)),
                serde_path_to_error::Segment::Map { key } => Some(Segment::Key(key.clone())),
                serde_path_to_error::Segment::Enum { .. }
                | serde_path_to_error::Segment::Unknown => None,
            })
            .collect(),
    )
}

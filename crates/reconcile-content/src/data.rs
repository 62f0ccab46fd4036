//! Reading the content files (lessons, presets): every error names the file,
//! the line and column, the JSON path and what was expected, like the
//! editors' errors do. `reconcile-protocol` reads the modules' messages with
//! the same [`Reader`], so the page links one JSON reader.

use std::cell::RefCell;
use std::fmt;

use reconcile_core::json::{Json, Number};
use reconcile_core::path::JsonPath;
use reconcile_core::{parse_json, Document};
use reconcile_sim::SimSettings;
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
pub fn read_json(file: &str, text: &str) -> Result<Json, ContentError> {
    parse_json(Document::Scenario, text).map_err(|error| ContentError {
        file: file.to_owned(),
        position: Some((error.line, error.column)),
        path: Some(error.path),
        message: error.message,
    })
}

/// Reads the objects of a content file's JSON value by member name. Each
/// read returns a default after an error, and the first error is the one
/// [`Reader::finish`] reports: no early return at every member keeps this
/// code small in the page.
pub struct Reader<'a> {
    file: &'a str,
    error: RefCell<Option<ContentError>>,
}

/// An object of a content file, and where it is.
pub struct Object<'v> {
    value: &'v Json,
    path: JsonPath,
}

impl<'v> Object<'v> {
    pub fn get(&self, name: &str) -> Option<&'v Json> {
        self.value.get(name)
    }

    /// A member that may be left out, or written `null`.
    pub fn optional(&self, name: &str) -> Option<&'v Json> {
        self.get(name).filter(|value| **value != Json::Null)
    }

    /// Where member `name` is.
    pub fn path_of(&self, name: &str) -> JsonPath {
        self.path.key(name)
    }
}

impl<'a> Reader<'a> {
    pub fn new(file: &'a str) -> Self {
        Self {
            file,
            error: RefCell::new(None),
        }
    }

    /// `value` if nothing read was wrong, else the first error.
    pub fn finish<T>(self, value: T) -> Result<T, ContentError> {
        match self.error.into_inner() {
            Some(error) => Err(error),
            None => Ok(value),
        }
    }

    /// Notes an error at `path` in this file, unless one came first.
    #[cold]
    pub fn fail(&self, path: JsonPath, message: String) {
        self.keep(ContentError {
            file: self.file.to_owned(),
            position: None,
            path: Some(path),
            message,
        });
    }

    #[cold]
    fn keep(&self, error: ContentError) {
        self.error.borrow_mut().get_or_insert(error);
    }

    /// `value`, found at `path`, as an object whose member names are all in `known`.
    pub fn object<'v>(&self, value: &'v Json, path: JsonPath, known: &[&str]) -> Object<'v> {
        match value.as_object() {
            None => self.fail(path.clone(), "expected an object".to_owned()),
            Some(members) => {
                if let Some((unknown, _)) =
                    members.iter().find(|(name, _)| !known.contains(&&**name))
                {
                    self.fail(
                        path.key(unknown),
                        format!(
                            "unknown member {unknown:?}; expected one of {}",
                            known.join(", ")
                        ),
                    );
                }
            }
        }
        Object { value, path }
    }

    /// A member that must be a string.
    pub fn string(&self, object: &Object<'_>, name: &str) -> String {
        match object.get(name) {
            Some(Json::String(text)) => return text.to_string(),
            Some(other) => self.wrong_type(object, name, "a string", other),
            None => self.missing(object, name),
        }
        String::new()
    }

    /// Notes that member `name`, which must be there, is not.
    pub fn missing(&self, object: &Object<'_>, name: &str) {
        self.fail(object.path.clone(), format!("missing member {name:?}"));
    }

    /// A string member that may be left out.
    pub fn optional_string(&self, object: &Object<'_>, name: &str) -> Option<String> {
        object.optional(name).map(|_| self.string(object, name))
    }

    /// A boolean member that may be left out (false).
    pub fn flag(&self, object: &Object<'_>, name: &str) -> bool {
        match object.optional(name) {
            Some(Json::Bool(flag)) => *flag,
            Some(other) => {
                self.wrong_type(object, name, "true or false", other);
                false
            }
            None => false,
        }
    }

    /// A count (a non-negative integer) that may be left out.
    pub fn optional_count(&self, object: &Object<'_>, name: &str) -> Option<usize> {
        let value = object.optional(name)?;
        match value {
            Json::Number(Number::Unsigned(count)) => usize::try_from(*count).ok(),
            _ => None,
        }
        .or_else(|| {
            self.wrong_type(object, name, "a non-negative integer", value);
            None
        })
    }

    /// A count (a non-negative integer) that must be there.
    pub fn count(&self, object: &Object<'_>, name: &str) -> usize {
        if object.optional(name).is_none() {
            self.missing(object, name);
        }
        self.optional_count(object, name).unwrap_or_default()
    }

    /// The items of an array member that may be left out (none), each with its path.
    pub fn items<'v>(
        &self,
        object: &Object<'v>,
        name: &str,
    ) -> impl Iterator<Item = (JsonPath, &'v Json)> {
        let path = object.path_of(name);
        let items = match object.optional(name) {
            Some(Json::Array(items)) => &items[..],
            Some(other) => {
                self.wrong_type(object, name, "an array", other);
                &[]
            }
            None => &[],
        };
        items
            .iter()
            .enumerate()
            .map(move |(index, item)| (path.index(index), item))
    }

    /// An array of strings that may be left out (none).
    pub fn strings(&self, object: &Object<'_>, name: &str) -> Vec<String> {
        self.items(object, name)
            .filter_map(|(path, item)| match item {
                Json::String(text) => Some(text.to_string()),
                other => {
                    self.fail(path, expected("a string", other));
                    None
                }
            })
            .collect()
    }

    /// A `sim` member, as given: [`check_sim`] reads it with the
    /// simulation's own options parser, and so does every run of it.
    pub fn sim(&self, object: &Object<'_>) -> Option<SimSettings> {
        object.get("sim").cloned().map(SimSettings::from_json)
    }

    fn wrong_type(&self, object: &Object<'_>, name: &str, what: &str, found: &Json) {
        self.fail(object.path_of(name), expected(what, found));
    }
}

/// "expected a string, found a number".
fn expected(what: &str, found: &Json) -> String {
    format!("expected {what}, found {}", found.type_name())
}

/// Reads a file's `sim` member with the simulation's own options parser:
/// an error names the file and the path from the file's root (`$.sim.seed`).
pub fn check_sim(file: &str, sim: Option<&SimSettings>) -> Result<(), ContentError> {
    let Some(Err(error)) = sim.map(SimSettings::read) else {
        return Ok(());
    };
    Err(ContentError {
        file: file.to_owned(),
        position: None,
        path: Some(error.path_within(&JsonPath::root().key("sim"))),
        message: error.message,
    })
}

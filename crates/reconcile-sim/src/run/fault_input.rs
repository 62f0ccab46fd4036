//! Faults typed by a person (the fault panel's drift): read and checked here,
//! so the page only converts what it is given.

use std::fmt;

use reconcile_core::path::{JsonPath, PathError};
use reconcile_core::{parse_json, Document, InputError};

use crate::{WorldEvent, MAX_PATH_LEN};

/// Why a typed drift cannot be made. Displays as the panel shows it:
/// which field is wrong ("Field: …", "Value: …") and why.
#[derive(Debug, Clone, PartialEq)]
pub enum DriftInputError {
    /// The field path is not a path.
    Path(PathError),
    /// The field path has an array index; drifts set object members.
    NotMembers,
    /// The field path names more than [`MAX_PATH_LEN`] members.
    TooDeep(usize),
    /// The value is not JSON.
    Value(InputError),
}

impl fmt::Display for DriftInputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DriftInputError::Path(error) => write!(f, "Field: {error}"),
            DriftInputError::NotMembers => {
                f.write_str("Field: a field path names object members only, not array indexes")
            }
            DriftInputError::TooDeep(members) => write!(
                f,
                "Field: a field path names at most {MAX_PATH_LEN} members, not {members}"
            ),
            DriftInputError::Value(error) => write!(f, "Value: {}", error.message),
        }
    }
}

impl std::error::Error for DriftInputError {}

impl WorldEvent {
    /// Someone sets the field at `field` (a [`JsonPath`], `$.` optional:
    /// `replicas`, `$.metadata.labels["app.kubernetes.io/name"]`) of `name`
    /// to the JSON `value`. The value is checked first, then the path.
    pub fn drift_from_input(name: &str, field: &str, value: &str) -> Result<Self, DriftInputError> {
        let value = parse_json(Document::Scenario, value).map_err(DriftInputError::Value)?;
        let path = JsonPath::parse(field).map_err(DriftInputError::Path)?;
        let keys = path.keys().ok_or(DriftInputError::NotMembers)?;
        // The same bound as settings read from JSON: deeper paths overflow wasm's stack.
        if keys.len() > MAX_PATH_LEN {
            return Err(DriftInputError::TooDeep(keys.len()));
        }
        Ok(WorldEvent::Drift {
            name: name.to_owned(),
            path: keys,
            value,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drift(field: &str, value: &str) -> Result<WorldEvent, String> {
        WorldEvent::drift_from_input("web", field, value).map_err(|e| e.to_string())
    }

    #[test]
    fn a_drift_path_is_a_json_path() {
        let Ok(WorldEvent::Drift { path, .. }) =
            drift(r#"$.metadata.labels["app.kubernetes.io/name"]"#, r#""web""#)
        else {
            panic!("a bracketed member with dots is one member");
        };
        assert_eq!(path, ["metadata", "labels", "app.kubernetes.io/name"]);
        let Ok(WorldEvent::Drift { path, .. }) = drift("replicas", "7") else {
            panic!("a plain member");
        };
        assert_eq!(path, ["replicas"]);
    }

    #[test]
    fn bad_drifts_say_which_field_is_wrong() {
        assert_eq!(
            drift("a..b", "1").unwrap_err(),
            "Field: column 3: expected a member name"
        );
        assert_eq!(
            drift("items[0]", "1").unwrap_err(),
            "Field: a field path names object members only, not array indexes"
        );
        let deep = (0..200)
            .map(|i| format!("f{i}"))
            .collect::<Vec<_>>()
            .join(".");
        assert_eq!(
            drift(&deep, "1").unwrap_err(),
            "Field: a field path names at most 127 members, not 200"
        );
        assert!(drift("a..b", "{").unwrap_err().starts_with("Value: "));
    }

    #[test]
    fn drift_text_names_members_as_paths_do() {
        let event = |field| drift(field, "7").map(|e| e.to_string());
        assert_eq!(
            event("replicas"),
            Ok("someone sets web.replicas to 7".to_owned())
        );
        assert_eq!(
            event(r#"labels["app.kubernetes.io/name"]"#),
            Ok(r#"someone sets web.labels["app.kubernetes.io/name"] to 7"#.to_owned())
        );
    }
}

//! What the page and the "Your reconcile" pane tell each other. The pane is a
//! wasm module of its own (`reconcile-exercise-ui`), loaded the first time it
//! opens, so the two talk through JavaScript: each message is one of these
//! types as JSON text, written and read here on both sides. The page reads
//! the pane's [`PaneEvent`]s with core's JSON reader, like lessons: a serde
//! reader of them would be one more in the page's first load.
//!
//! Invariant: these only carry data; the page and the pane each convert, and
//! the checker and core decide.

use reconcile_check::Language;
use reconcile_core::json::Json;
use reconcile_core::path::JsonPath;
use serde::{Deserialize, Serialize};

use reconcile_content::data::{read_json, ContentError, Object, Reader};
use reconcile_content::exercise::{is_known_exercise, LearnerCode, RECONCILE_EXERCISE};

/// The page to the pane, at mount and whenever one of these changes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PaneInput {
    /// The code as the page keeps it (in links and autosaves).
    pub code: LearnerCode,
    /// Counts the times the page replaced the code itself (a link or an
    /// autosave was opened, a session restored). The pane takes `code` only
    /// when this changed: otherwise its own text is as new as the page's, or
    /// newer, since every edit reaches the page after it is made.
    pub code_revision: u32,
    /// The editors' documents as a scenario's JSON text, while they are valid.
    pub scenario: Option<String>,
    /// The simulation's settings as JSON text, for a run in the loop.
    pub options: String,
    /// The pane has a Close button (not in a course page's frame, where
    /// `?exercise=` asked for it).
    pub closable: bool,
    /// The exercise `?exercise=` names, which the pane switches to when it
    /// mounts (the page links none of the exercises' starters).
    #[serde(default)]
    pub asked_exercise: Option<String>,
    /// The language `?lang=` names, which the pane switches to when it mounts.
    #[serde(default)]
    pub asked_language: Option<Language>,
}

/// The pane to the page: `{"event": "edited", "code": {…}}` and so on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "event", rename_all = "kebab-case")]
pub enum PaneEvent {
    /// The learner changed the code (typed, chose a language, started over):
    /// the page keeps it for autosaves and links.
    Edited { code: LearnerCode },
    /// "Load into the editors": a counterexample's desired, observed and
    /// finalizers documents.
    LoadDocuments { documents: [String; 3] },
    /// The pane's Close button.
    Close,
    /// A Check ended: the JS API's `{passed, total, counterexample}` as JSON
    /// text, which the page posts to an embedding page as it is.
    Checked { report: String },
    /// A controller exercise's Check ended: the JS API's `checkController`
    /// result without its logs and record, as JSON text, which the page
    /// posts to an embedding page as it is (`controller-checked`).
    ControllerChecked { report: String },
}

impl PaneInput {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    pub fn from_json(text: &str) -> Result<Self, String> {
        serde_json::from_str(text).map_err(|e| format!("the pane's input: {e}"))
    }
}

impl PaneEvent {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads what [`PaneEvent::to_json`] wrote.
    pub fn from_json(text: &str) -> Result<Self, ContentError> {
        const FILE: &str = "the pane's message";
        let value = read_json(FILE, text)?;
        let reader = Reader::new(FILE);
        let message = reader.object(&value, JsonPath::root(), EVENT_MEMBERS);
        let event = match reader.string(&message, "event").as_str() {
            "edited" => PaneEvent::Edited {
                code: code_of(&reader, &message),
            },
            "load-documents" => {
                let texts = reader.strings(&message, "documents");
                let documents = <[String; 3]>::try_from(texts).unwrap_or_else(|texts| {
                    let found = texts.len();
                    reader.fail(
                        message.path_of("documents"),
                        format!("expected 3 documents, not {found}"),
                    );
                    Default::default()
                });
                PaneEvent::LoadDocuments { documents }
            }
            "close" => PaneEvent::Close,
            "checked" => PaneEvent::Checked {
                report: reader.string(&message, "report"),
            },
            "controller-checked" => PaneEvent::ControllerChecked {
                report: reader.string(&message, "report"),
            },
            other => {
                reader.fail(message.path_of("event"), format!("unknown event {other:?}"));
                PaneEvent::Close
            }
        };
        reader.finish(event)
    }
}

/// The members [`PaneEvent::from_json`] reads, of every event.
pub(crate) const EVENT_MEMBERS: &[&str] = &["event", "code", "documents", "report"];

/// A [`LearnerCode`]'s members.
pub(crate) const CODE_MEMBERS: &[&str] = &["language", "source", "other", "exercise", "kept"];

/// `{"language", "source", "other"?, "exercise"?, "kept"?}`, as serde
/// writes a [`LearnerCode`]; each of `kept` is one too.
fn code_of(reader: &Reader<'_>, message: &Object<'_>) -> LearnerCode {
    let value = message.get("code").unwrap_or(&Json::Null);
    learner_code(reader, value, message.path_of("code"))
}

fn learner_code(reader: &Reader<'_>, value: &Json, path: JsonPath) -> LearnerCode {
    let code = reader.object(value, path, CODE_MEMBERS);
    let exercise = match code.optional("exercise") {
        Some(_) => exercise_of(reader, &code),
        None => RECONCILE_EXERCISE.to_owned(),
    };
    let kept = reader
        .items(&code, "kept")
        .map(|(path, item)| learner_code(reader, item, path))
        .collect();
    LearnerCode {
        language: language_of(reader, &code),
        source: reader.string(&code, "source"),
        other: reader.optional_string(&code, "other"),
        exercise,
        kept,
    }
}

fn language_of(reader: &Reader<'_>, object: &Object<'_>) -> Language {
    let language = reader.string(object, "language");
    Language::from_id(&language).unwrap_or_else(|| {
        reader.fail(
            object.path_of("language"),
            format!("unknown language {language:?}"),
        );
        Language::Python
    })
}

fn exercise_of(reader: &Reader<'_>, object: &Object<'_>) -> String {
    let exercise = reader.string(object, "exercise");
    if !is_known_exercise(&exercise) {
        reader.fail(
            object.path_of("exercise"),
            format!("unknown exercise {exercise:?}"),
        );
    }
    exercise
}

#[cfg(test)]
mod tests {
    use super::*;
    use reconcile_check::Language;

    #[test]
    fn input_and_events_read_back_as_written() {
        let input = PaneInput {
            code: LearnerCode::starter(Language::JavaScript),
            code_revision: 3,
            scenario: Some(r#"{"desired":{},"observed":{}}"#.into()),
            options: "{}".into(),
            closable: true,
            asked_exercise: Some("status".into()),
            asked_language: Some(Language::Python),
        };
        assert_eq!(PaneInput::from_json(&input.to_json()), Ok(input));
        let events = [
            PaneEvent::Edited {
                code: LearnerCode::starter(Language::Python),
            },
            PaneEvent::Edited {
                code: LearnerCode {
                    language: Language::JavaScript,
                    source: "export function reconcile() {}\n".into(),
                    other: Some("def reconcile(d, o, f=None):\n    return []\n".into()),
                    ..LearnerCode::starter(Language::JavaScript)
                },
            },
            PaneEvent::Edited {
                code: LearnerCode {
                    exercise: "replicas".into(),
                    kept: vec![LearnerCode {
                        source: "def reconcile(d, o, f=None):\n    return []\n".into(),
                        ..LearnerCode::starter(Language::Python)
                    }],
                    ..LearnerCode::starter(Language::JavaScript)
                },
            },
            PaneEvent::LoadDocuments {
                documents: ["{}".into(), "{\"a\":1}".into(), "null".into()],
            },
            PaneEvent::Close,
            PaneEvent::Checked {
                report: r#"{"passed":true,"total":501,"counterexample":null}"#.into(),
            },
            PaneEvent::ControllerChecked {
                report: r#"{"passed":true,"exercise":"status"}"#.into(),
            },
        ];
        for event in events {
            assert_eq!(PaneEvent::from_json(&event.to_json()), Ok(event));
        }
    }

    #[test]
    fn a_malformed_message_is_an_error_not_a_default() {
        for wrong in [
            r#"{"event":"edited","code":{"language":"cobol","source":""}}"#,
            r#"{"event":"edited","code":{"language":"python"}}"#,
            r#"{"event":"edited","code":{"language":"python","source":"","exercise":"replica"}}"#,
            r#"{"event":"edited","code":{"language":"python","source":"","kept":[{"exercise":"status","source":""}]}}"#,
            r#"{"event":"load-documents","documents":["{}","{}"]}"#,
            r#"{"event":"checked","report":null}"#,
            r#"{"event":"opened"}"#,
            r#"{"event":"close","extra":1}"#,
            r#""close""#,
        ] {
            assert!(PaneEvent::from_json(wrong).is_err(), "{wrong}");
        }
        assert!(PaneInput::from_json("{}").is_err());
    }
}

//! What the page and the "Your reconcile" pane tell each other. The pane is a
//! wasm module of its own (`reconcile-exercise-ui`), loaded the first time it
//! opens, so the two talk through JavaScript: each message is one of these
//! types as JSON text, written and read here on both sides.
//!
//! Invariant: these only carry data; the page and the pane each convert, and
//! the checker and core decide.

use serde::{Deserialize, Serialize};

use crate::exercise::LearnerCode;

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
}

/// The pane to the page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum PaneEvent {
    /// The learner changed the code (typed, chose a language, started over):
    /// the page keeps it for autosaves and links.
    Edited(LearnerCode),
    /// "Load into the editors": a counterexample's desired, observed and
    /// finalizers documents.
    LoadDocuments([String; 3]),
    /// The pane's Close button.
    Close,
    /// A Check ended: the JS API's `{passed, total, counterexample}` as JSON
    /// text, which the page posts to an embedding page as it is.
    Checked(String),
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

    pub fn from_json(text: &str) -> Result<Self, String> {
        serde_json::from_str(text).map_err(|e| format!("the pane's message: {e}"))
    }
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
        };
        assert_eq!(PaneInput::from_json(&input.to_json()), Ok(input));
        let events = [
            PaneEvent::Edited(LearnerCode::starter(Language::Python)),
            PaneEvent::LoadDocuments(["{}".into(), "{\"a\":1}".into(), "null".into()]),
            PaneEvent::Close,
            PaneEvent::Checked(r#"{"passed":true,"total":501,"counterexample":null}"#.into()),
        ];
        for event in events {
            assert_eq!(PaneEvent::from_json(&event.to_json()), Ok(event));
        }
    }

    #[test]
    fn a_malformed_message_is_an_error_not_a_default() {
        assert!(PaneEvent::from_json(r#"{"Edited":{"language":"cobol","source":""}}"#).is_err());
        assert!(PaneInput::from_json("{}").is_err());
    }
}

//! What the page keeps of "Your reconcile": the learner's code (saved in
//! links and autosaves) and whether the pane is open. The pane itself, with
//! its runs and results, is a module loaded on demand
//! (`crates/reconcile-exercise-ui`), which reports each edit here.

use reconcile_check::Language;
use reconcile_content::exercise::LearnerCode;

/// The page's part of the exercise.
#[derive(Debug, Clone, PartialEq)]
pub enum ExerciseAction {
    /// Opens the pane, in `language` (or the code's own, or Python).
    Open(Option<Language>),
    Close,
    /// The pane changed the code.
    Edited(LearnerCode),
}

/// The code the pane is opened with: the page's own; for a first start, the
/// starter in `language` (Python's when none is asked for). The pane itself
/// switches to the exercise and language the address asks for, so the page
/// links none of the controller exercises' starters.
pub fn code_to_open(code: Option<LearnerCode>, language: Option<Language>) -> LearnerCode {
    code.unwrap_or_else(|| LearnerCode::starter(language.unwrap_or(Language::Python)))
}

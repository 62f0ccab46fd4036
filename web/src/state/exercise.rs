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

/// The code the pane is opened with: the page's own, in `language` when one
/// is asked for; Python's starter for a first start.
pub fn code_to_open(code: Option<LearnerCode>, language: Option<Language>) -> LearnerCode {
    let code = code.unwrap_or_else(|| LearnerCode::starter(language.unwrap_or(Language::Python)));
    match language {
        Some(language) => code.switched_to(language),
        None => code,
    }
}

//! The controller exercises' learner content (issue 30): per exercise, a
//! starter in each language and a few hints, from
//! `exercises/controllers/<name>/`. Each folder also keeps the reference
//! solutions, which the browser tests check with their known bugs.
//!
//! Invariant: one folder per exercise of `reconcile_sim::learner::EXERCISES`,
//! and no other. The goal text is the exercise's own (`Exercise::goal_text`),
//! not a copy: `goal_text_named` gives it without linking the exercise's run.

use reconcile_check::Language;
use reconcile_sim::learner::goal_text_named;

/// What a learner gets to start an exercise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ControllerContent {
    /// The exercise's id: `owned-configmap`.
    pub name: &'static str,
    starter_js: &'static str,
    starter_py: &'static str,
    hints_json: &'static str,
}

macro_rules! content {
    ($name:literal) => {
        ControllerContent {
            name: $name,
            starter_js: include_str!(concat!("../exercises/controllers/", $name, "/starter.mjs")),
            starter_py: include_str!(concat!("../exercises/controllers/", $name, "/starter.py")),
            hints_json: include_str!(concat!("../exercises/controllers/", $name, "/hints.json")),
        }
    };
}

/// The controller exercises' names, in the exercises' order: links and the
/// page check names against these without linking the content.
pub const CONTROLLER_EXERCISE_NAMES: [&str; 5] = [
    "owned-configmap",
    "external-finalizer",
    "replicas",
    "status",
    "conflicts",
];

/// Every controller exercise's content, in the order of [`CONTROLLER_EXERCISE_NAMES`].
pub const CONTROLLER_EXERCISES: [ControllerContent; 5] = [
    content!("owned-configmap"),
    content!("external-finalizer"),
    content!("replicas"),
    content!("status"),
    content!("conflicts"),
];

/// The content of exercise `name`, or `None` when there is none.
pub fn controller_content(name: &str) -> Option<&'static ControllerContent> {
    CONTROLLER_EXERCISES.iter().find(|c| c.name == name)
}

impl ControllerContent {
    /// The module a learner starts from in `language`.
    pub fn starter(&self, language: Language) -> &'static str {
        match language {
            Language::JavaScript => self.starter_js,
            Language::Python => self.starter_py,
        }
    }

    /// The hints, in the order to show them: plain words, none the whole answer.
    pub fn hints(&self) -> Vec<String> {
        serde_json::from_str(self.hints_json).unwrap_or_default()
    }

    /// The goal in plain words: the exercise's own.
    pub fn goal(&self) -> &'static str {
        goal_text_named(self.name).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_names_are_the_contents_and_the_simulations_exercises() {
        let names: Vec<&str> = CONTROLLER_EXERCISES.iter().map(|c| c.name).collect();
        assert_eq!(names, CONTROLLER_EXERCISE_NAMES);
        for content in CONTROLLER_EXERCISES {
            let exercise = reconcile_sim::learner::exercise_named(content.name);
            assert_eq!(Some(content.goal()), exercise.map(|e| e.goal_text));
            assert!(!content.hints().is_empty(), "{}", content.name);
        }
    }
}

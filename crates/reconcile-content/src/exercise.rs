//! The "Your reconcile" exercise: the learner's code as links and autosaves
//! keep it, and the starter for each language.
//!
//! Invariant: the code is kept exactly as typed; nothing here runs it.

use reconcile_check::Language;
use serde::{Deserialize, Serialize};

use crate::controller_exercise::{controller_content, CONTROLLER_EXERCISE_NAMES};

/// The learner's own reconcile: its exercise, its language and its source,
/// as typed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LearnerCode {
    pub language: Language,
    pub source: String,
    /// The other language's source, once it was edited: switching languages
    /// keeps both.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub other: Option<String>,
    /// The exercise the source is for: [`RECONCILE_EXERCISE`], or a
    /// controller exercise's name (`reconcile_content::controller_exercise`).
    #[serde(
        default = "reconcile_exercise",
        skip_serializing_if = "is_reconcile_exercise",
        deserialize_with = "known_exercise"
    )]
    pub exercise: String,
    /// The edited code of the exercises not chosen now, one entry each (its
    /// own `kept` empty): switching exercises keeps it. The same type, so
    /// the page reads links with no second reader.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub kept: Vec<LearnerCode>,
}

impl LearnerCode {
    /// The starter of `language`, for the seed's exercise. Not through
    /// [`starter_of`]: the page calls this, and must not link the
    /// controller exercises' starters.
    pub fn starter(language: Language) -> Self {
        Self {
            language,
            source: starter(language).to_owned(),
            other: None,
            exercise: RECONCILE_EXERCISE.to_owned(),
            kept: Vec::new(),
        }
    }

    /// The same work in `language`: its kept source, or its starter. The
    /// source left behind is kept unless it is still the starter.
    pub fn switched_to(&self, language: Language) -> Self {
        if language == self.language {
            return self.clone();
        }
        Self {
            language,
            source: self
                .other
                .clone()
                .unwrap_or_else(|| starter_of(&self.exercise, language).to_owned()),
            other: (!self.is_starter()).then(|| self.source.clone()),
            exercise: self.exercise.clone(),
            kept: self.kept.clone(),
        }
    }

    /// The work on `exercise`, in the same language: its kept code, or its
    /// starter. The code left behind is kept, in both languages, unless it
    /// is still the starter.
    pub fn switched_to_exercise(&self, exercise: &str) -> Self {
        if exercise == self.exercise || !is_known_exercise(exercise) {
            return self.clone();
        }
        let mut kept = self.kept.clone();
        if !self.is_starter() || self.other.is_some() {
            kept.push(Self {
                kept: Vec::new(),
                ..self.clone()
            });
        }
        let taken = kept.iter().position(|k| k.exercise == exercise);
        let work = taken.map_or_else(
            || Self {
                language: self.language,
                source: starter_of(exercise, self.language).to_owned(),
                other: None,
                exercise: exercise.to_owned(),
                kept: Vec::new(),
            },
            |at| kept.remove(at).switched_to(self.language),
        );
        Self { kept, ..work }
    }

    /// True while the source is the starter, untouched.
    pub fn is_starter(&self) -> bool {
        self.source == starter_of(&self.exercise, self.language)
    }

    /// True for a controller exercise, false for the seed's function.
    pub fn is_controller(&self) -> bool {
        self.exercise != RECONCILE_EXERCISE
    }
}

/// True for [`RECONCILE_EXERCISE`] and each controller exercise's name.
pub fn is_known_exercise(name: &str) -> bool {
    name == RECONCILE_EXERCISE || CONTROLLER_EXERCISE_NAMES.contains(&name)
}

/// The starter of `exercise` (an unknown name: the seed's) in `language`.
pub fn starter_of(exercise: &str, language: Language) -> &'static str {
    controller_content(exercise).map_or_else(|| starter(language), |c| c.starter(language))
}

fn reconcile_exercise() -> String {
    RECONCILE_EXERCISE.to_owned()
}

fn is_reconcile_exercise(name: &str) -> bool {
    name == RECONCILE_EXERCISE
}

/// An exercise's name, refused when no exercise has it.
fn known_exercise<'de, D: serde::Deserializer<'de>>(reader: D) -> Result<String, D::Error> {
    let name = String::deserialize(reader)?;
    if is_known_exercise(&name) {
        Ok(name)
    } else {
        Err(serde::de::Error::custom(format!(
            "unknown exercise {name:?}"
        )))
    }
}

/// What a learner starts from: the signature, the contract in a comment, and
/// the first rule done, so that Check has something to find wrong.
pub fn starter(language: Language) -> &'static str {
    match language {
        Language::Python => include_str!("../exercises/starter.py"),
        Language::JavaScript => include_str!("../exercises/starter.mjs"),
    }
}

/// The seed's exercise, the pure function, as `?exercise=` names it; the
/// controller exercises go by their own names.
pub const RECONCILE_EXERCISE: &str = "reconcile";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_language_has_a_starter_with_its_signature() {
        assert!(starter(Language::Python)
            .contains("def reconcile(desired, observed, finalizers=None):"));
        assert!(starter(Language::JavaScript)
            .contains("export function reconcile(desired, observed, finalizers)"));
        for language in Language::ALL {
            assert!(LearnerCode::starter(language).is_starter());
        }
    }

    /// The starters leave work to the learner, but hold no bug: none of the
    /// traps the checker names (web/e2e/js-api.spec.mjs checks them too).
    #[test]
    fn the_starters_hold_none_of_the_checkers_traps() {
        let code = |language| -> Vec<&str> {
            starter(language)
                .lines()
                .map(str::trim)
                .filter(|line| !line.starts_with("//") && !line.starts_with('#'))
                .collect()
        };
        let javascript = code(Language::JavaScript);
        for trap in [
            ".sort()",
            " in observed",
            " in desired",
            " in finalizers",
            "== null",
            "=== undefined",
            "!observed[",
            "?? {}",
        ] {
            assert!(
                !javascript.iter().any(|line| line.contains(trap)),
                "the JavaScript starter has {trap:?}"
            );
        }
        assert!(javascript
            .iter()
            .any(|line| line.contains("Object.hasOwn(observed, name)")));
        assert!(javascript
            .iter()
            .any(|line| line.contains(".sort(byCodePoint)")));
        let python = code(Language::Python);
        for trap in [
            ".get(name) is None",
            "if observed.get(",
            "if not observed.get(",
        ] {
            assert!(
                !python.iter().any(|line| line.contains(trap)),
                "the Python starter has {trap:?}"
            );
        }
        assert!(python
            .iter()
            .any(|line| line.contains("if name not in observed:")));
    }

    #[test]
    fn switching_languages_keeps_what_was_typed_in_each() {
        let mut code = LearnerCode::starter(Language::Python);
        code.source.push_str("# mine\n");
        let js = code.switched_to(Language::JavaScript);
        assert!(js.is_starter());
        assert_eq!(js.other.as_deref(), Some(code.source.as_str()));
        let back = js.switched_to(Language::Python);
        assert_eq!(back.source, code.source);
        // The untouched JavaScript starter is not kept as work.
        assert_eq!(back.other, None);
        assert_eq!(back.switched_to(Language::Python), back);
    }

    #[test]
    fn code_round_trips_with_its_language_named_as_the_js_api_names_it() {
        let code = LearnerCode {
            language: Language::JavaScript,
            source: "export function reconcile() { return []; }\n".into(),
            other: None,
            exercise: RECONCILE_EXERCISE.into(),
            kept: Vec::new(),
        };
        let json = serde_json::to_string(&code).expect("serializes");
        assert!(json.contains("\"language\":\"javascript\""), "{json}");
        assert_eq!(
            serde_json::from_str::<LearnerCode>(&json).expect("reads"),
            code
        );
        // The seed's exercise is left out, so earlier links read the same.
        assert!(!json.contains("exercise"), "{json}");
    }

    #[test]
    fn switching_exercises_keeps_each_ones_code_in_both_languages() {
        let mut code = LearnerCode::starter(Language::JavaScript);
        code.source.push_str("// mine\n");
        let mut finalizer = code.switched_to_exercise("external-finalizer");
        assert!(finalizer.is_starter() && finalizer.is_controller());
        assert!(finalizer
            .source
            .contains("export function reconcile(request, client)"));
        finalizer.source.push_str("// my controller\n");
        let python = finalizer.switched_to(Language::Python);
        assert!(python.source.contains("def reconcile(request, client)"));
        let back = python
            .switched_to_exercise(RECONCILE_EXERCISE)
            .switched_to(Language::JavaScript);
        assert_eq!(back.source, code.source);
        let again = back
            .switched_to_exercise("external-finalizer")
            .switched_to(Language::JavaScript);
        assert_eq!(again.source, finalizer.source);
        // Kept code goes through a link and comes back.
        let json = serde_json::to_string(&back).expect("serializes");
        assert_eq!(serde_json::from_str::<LearnerCode>(&json).ok(), Some(back));
        // Nothing is kept of starters.
        let untouched = LearnerCode::starter(Language::Python)
            .switched_to_exercise("replicas")
            .switched_to_exercise("status");
        assert!(untouched.kept.is_empty());
        assert_eq!(untouched.switched_to_exercise("no-such"), untouched);
    }

    #[test]
    fn a_link_naming_an_unknown_exercise_does_not_load() {
        let wrong = r#"{"language":"python","source":"","exercise":"replica"}"#;
        assert!(serde_json::from_str::<LearnerCode>(wrong).is_err());
    }
}

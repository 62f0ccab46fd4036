//! The "Your reconcile" exercise: the learner's code as links and autosaves
//! keep it, and the starter for each language.
//!
//! Invariant: the code is kept exactly as typed; nothing here runs it.

use reconcile_check::Language;
use serde::{Deserialize, Serialize};

/// The learner's own reconcile: its language and its source, as typed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LearnerCode {
    pub language: Language,
    pub source: String,
    /// The other language's source, once it was edited: switching languages
    /// keeps both.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub other: Option<String>,
}

impl LearnerCode {
    /// The starter of `language`.
    pub fn starter(language: Language) -> Self {
        Self {
            language,
            source: starter(language).to_owned(),
            other: None,
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
                .unwrap_or_else(|| starter(language).to_owned()),
            other: (!self.is_starter()).then(|| self.source.clone()),
        }
    }

    /// True while the source is the starter, untouched.
    pub fn is_starter(&self) -> bool {
        self.source == starter(self.language)
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

/// The exercise `?exercise=` names; there is one for now.
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
        };
        let json = serde_json::to_string(&code).expect("serializes");
        assert!(json.contains("\"language\":\"javascript\""), "{json}");
        assert_eq!(
            serde_json::from_str::<LearnerCode>(&json).expect("reads"),
            code
        );
    }
}

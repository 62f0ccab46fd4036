//! What an LMS package opens (issue 33, docs/lms.md): one lesson, or the
//! "Your reconcile" exercise in one language. One name for each, used by
//! `cargo xtask package --scorm` and by the embed dialog's download, and
//! the launch page's address that the package's manifest names.

use reconcile_check::Language;

use crate::exercise::RECONCILE_EXERCISE;
use crate::lesson_index::{self, LessonEntry, LESSON_INDEX};

/// The launch page of every package, at the package's root.
pub const LAUNCH_PAGE: &str = "scorm.html";

/// What a package opens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PackageTarget {
    Lesson(&'static LessonEntry),
    /// "Your reconcile", in this language.
    Exercise(Language),
}

impl PackageTarget {
    /// A lesson's id, or `reconcile` (the exercise) with `language` (default
    /// Python); errs with the ids it knows.
    pub fn parse(id: &str, language: Option<&str>) -> Result<Self, String> {
        let language = match language {
            None => None,
            Some(name) => Some(
                Language::ALL
                    .into_iter()
                    .find(|l| l.id() == name)
                    .ok_or_else(|| {
                        format!("unknown language `{name}`; expected python or javascript")
                    })?,
            ),
        };
        if id == RECONCILE_EXERCISE {
            return Ok(Self::Exercise(language.unwrap_or(Language::Python)));
        }
        if language.is_some() {
            return Err(format!(
                "--lang is for the exercise `{RECONCILE_EXERCISE}`, not the lesson `{id}`"
            ));
        }
        let (_, entry) = lesson_index::find(id).ok_or_else(|| {
            let lessons: Vec<&str> = LESSON_INDEX.iter().map(|entry| entry.id).collect();
            format!(
                "no lesson or exercise `{id}`; expected `{RECONCILE_EXERCISE}` or a lesson: {}",
                lessons.join(", ")
            )
        })?;
        Ok(Self::Lesson(entry))
    }

    /// Every package the playground can make: each lesson, then the
    /// exercise in each language.
    pub fn all() -> impl Iterator<Item = Self> {
        let lessons = LESSON_INDEX.iter().map(Self::Lesson);
        lessons.chain(Language::ALL.into_iter().map(Self::Exercise))
    }

    /// A name for files: `lesson-finalizers`, `exercise-reconcile-python`.
    pub fn name(&self) -> String {
        match self {
            Self::Lesson(entry) => format!("lesson-{}", entry.id),
            Self::Exercise(language) => format!("exercise-{RECONCILE_EXERCISE}-{}", language.id()),
        }
    }

    /// The title an LMS lists.
    pub fn title(&self) -> String {
        match self {
            Self::Lesson(entry) => format!("Reconcile Playground: {}", entry.title),
            Self::Exercise(language) => {
                let language = match language {
                    Language::Python => "Python",
                    Language::JavaScript => "JavaScript",
                };
                format!("Reconcile Playground: write reconcile in {language}")
            }
        }
    }

    /// The launch page's address in the package, relative to its root. A
    /// lesson's also says how many predictions it has: the score's maximum.
    pub fn launch(&self) -> String {
        match self {
            Self::Lesson(entry) => format!(
                "{LAUNCH_PAGE}?lesson={}&predictions={}",
                entry.id,
                entry.exercise_steps().count()
            ),
            Self::Exercise(language) => format!(
                "{LAUNCH_PAGE}?exercise={RECONCILE_EXERCISE}&lang={}",
                language.id()
            ),
        }
    }

    /// Whether the package needs Pyodide.
    pub fn needs_python(&self) -> bool {
        matches!(self, Self::Exercise(Language::Python))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lesson_launches_with_its_predictions() {
        let target = PackageTarget::parse("finalizers", None).expect("a lesson");
        assert_eq!(target.name(), "lesson-finalizers");
        assert!(target
            .launch()
            .starts_with("scorm.html?lesson=finalizers&predictions="));
        assert!(!target.needs_python());
    }

    #[test]
    fn the_exercise_needs_python_only_in_python() {
        let python = PackageTarget::parse("reconcile", None).expect("the exercise");
        assert_eq!(python.name(), "exercise-reconcile-python");
        assert!(python.needs_python());
        let js = PackageTarget::parse("reconcile", Some("javascript")).expect("the exercise");
        assert_eq!(js.launch(), "scorm.html?exercise=reconcile&lang=javascript");
        assert!(!js.needs_python());
    }

    #[test]
    fn unknown_names_say_what_was_expected() {
        let error = PackageTarget::parse("nope", None).expect_err("unknown");
        assert!(
            error.contains("expected `reconcile` or a lesson: four-actions"),
            "{error}"
        );
        let error = PackageTarget::parse("reconcile", Some("ruby")).expect_err("unknown");
        assert!(error.contains("expected python or javascript"), "{error}");
        assert!(PackageTarget::parse("finalizers", Some("python")).is_err());
    }

    #[test]
    fn names_are_unique() {
        let names: std::collections::BTreeSet<String> =
            PackageTarget::all().map(|t| t.name()).collect();
        assert_eq!(names.len(), PackageTarget::all().count());
    }
}

//! The controller exercises' learner content: one folder per exercise the
//! simulation has, each with its starters, references and hints, and no
//! folder without an exercise.

use std::collections::BTreeSet;
use std::path::Path;

use reconcile_check::Language;
use reconcile_content::controller_exercise::{controller_content, CONTROLLER_EXERCISES};
use reconcile_sim::learner::{exercise_named, EXERCISES};

const FILES: [&str; 5] = [
    "starter.mjs",
    "starter.py",
    "reference.mjs",
    "reference.py",
    "hints.json",
];

fn folder() -> &'static Path {
    Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/exercises/controllers"
    ))
}

#[test]
fn every_exercise_has_its_folder_with_every_file() {
    for name in EXERCISES {
        assert!(exercise_named(name).is_some(), "{name}");
        for file in FILES {
            let path = folder().join(name).join(file);
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            assert!(
                !text.trim().is_empty(),
                "{} is missing or empty",
                path.display()
            );
        }
    }
}

#[test]
fn no_folder_lacks_an_exercise() {
    let entries = std::fs::read_dir(folder()).expect("the exercises' folder");
    let folders: BTreeSet<String> = entries
        .map(|entry| {
            entry
                .expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    let exercises: BTreeSet<String> = EXERCISES.iter().map(|name| (*name).to_owned()).collect();
    assert_eq!(folders, exercises);
}

#[test]
fn the_content_follows_the_exercises_order_and_reuses_their_goals() {
    let names: Vec<&str> = CONTROLLER_EXERCISES.iter().map(|c| c.name).collect();
    assert_eq!(names, EXERCISES);
    for name in EXERCISES {
        let content = controller_content(name).expect("content");
        let goal = exercise_named(name).expect("an exercise").goal_text;
        assert_eq!(content.goal(), goal);
    }
    assert!(controller_content("replica").is_none());
}

#[test]
fn each_exercise_has_two_to_four_short_hints() {
    for content in CONTROLLER_EXERCISES {
        let hints = content.hints();
        assert!(
            (2..=4).contains(&hints.len()),
            "{}: {hints:?}",
            content.name
        );
        for hint in &hints {
            let words = hint.split_whitespace().count();
            assert!((4..=40).contains(&words), "{}: {hint}", content.name);
        }
    }
}

#[test]
fn starters_import_from_reconcile_and_define_reconcile() {
    for content in CONTROLLER_EXERCISES {
        let js = content.starter(Language::JavaScript);
        assert!(js.contains(r#"from "reconcile";"#), "{}", content.name);
        assert!(
            js.contains("export function reconcile(request, client) {"),
            "{}",
            content.name
        );
        let py = content.starter(Language::Python);
        assert!(py.contains("from reconcile import "), "{}", content.name);
        assert!(
            py.contains("def reconcile(request, client):"),
            "{}",
            content.name
        );
        // The starter is not the answer.
        for (starter, file) in [(js, "reference.mjs"), (py, "reference.py")] {
            let reference =
                std::fs::read_to_string(folder().join(content.name).join(file)).unwrap_or_default();
            assert_ne!(starter, reference, "{}", content.name);
        }
    }
}

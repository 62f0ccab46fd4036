//! The attributes of a `reconcile` fence's info line, read and checked.
//!
//! `reconcile preset=stuck-namespace panes=editors,plan readonly` becomes the
//! component's attributes. Presets, lessons, steps, exercises and languages
//! are checked against the content the playground ships, so a misspelt id
//! fails the book's build rather than opening the default playground.

use reconcile_check::Language;
use reconcile_content::controller_exercise::CONTROLLER_EXERCISE_NAMES;
use reconcile_content::exercise::{is_known_exercise, RECONCILE_EXERCISE};
use reconcile_content::{lesson_index, presets};

/// The attributes a fence may set: the component's, but `state` and `src`,
/// which the preprocessor writes itself (a test compares the two lists).
pub const NAMES: [&str; 10] = [
    "preset", "lesson", "step", "exercise", "lang", "panes", "readonly", "theme", "present",
    "label",
];

/// The attributes that are flags: given alone for on, or `=true` / `=false`.
const FLAGS: [&str; 2] = ["readonly", "present"];

/// Attributes that choose what the playground opens, so a fence with a
/// scenario cannot take them.
pub const OPENERS: [&str; 4] = ["preset", "lesson", "step", "exercise"];

/// A fence's attributes in the order written: a name, and a value unless it is a flag.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Attributes(pub Vec<(String, Option<String>)>);

impl Attributes {
    /// The value of `name`, if it was given with one.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(n, _)| n == name)
            .and_then(|(_, v)| v.as_deref())
    }

    /// Whether `name` was given at all.
    pub fn has(&self, name: &str) -> bool {
        self.0.iter().any(|(n, _)| n == name)
    }
}

/// Reads the info line after `reconcile`: words `name=value`, `name="a value"`
/// or `name`. Each is checked; the error says what was expected.
pub fn parse(rest: &str) -> Result<Attributes, String> {
    let mut attributes = Attributes::default();
    for word in words(rest)? {
        let (name, value) = match word.split_once('=') {
            Some((name, value)) => (name.to_owned(), Some(unquote(value))),
            None => (word.clone(), None),
        };
        if !NAMES.contains(&name.as_str()) {
            return Err(format!(
                "unknown attribute `{name}`; expected one of {}",
                NAMES.join(", ")
            ));
        }
        if attributes.has(&name) {
            return Err(format!("`{name}` is given twice; give it once"));
        }
        check_value(&name, value.as_deref())?;
        attributes.0.push((name, value));
    }
    check_together(&attributes)?;
    Ok(attributes)
}

/// Splits on spaces outside double quotes.
fn words(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    for c in text.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                word.push(c);
            }
            c if c.is_whitespace() && !quoted => {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
            }
            c => word.push(c),
        }
    }
    if quoted {
        return Err(format!(
            "`{word}` has no closing double quote; expected name=\"a value\""
        ));
    }
    if !word.is_empty() {
        words.push(word);
    }
    Ok(words)
}

fn unquote(value: &str) -> String {
    value
        .strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .unwrap_or(value)
        .to_owned()
}

/// Checks one attribute's value on its own.
fn check_value(name: &str, value: Option<&str>) -> Result<(), String> {
    let Some(value) = value else {
        return if FLAGS.contains(&name) {
            Ok(())
        } else {
            Err(format!("`{name}` needs a value: {name}=…"))
        };
    };
    if value.is_empty() {
        return Err(format!("`{name}` has an empty value"));
    }
    match name {
        "preset" if presets::find(value).is_none() => Err(format!(
            "no preset `{value}`; expected one of {}",
            presets::presets()
                .iter()
                .map(|p| p.id.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )),
        "lesson" if lesson_index::find(value).is_none() => Err(format!(
            "no lesson `{value}`; expected one of {}",
            lesson_index::LESSON_INDEX
                .iter()
                .map(|l| l.id)
                .collect::<Vec<_>>()
                .join(", ")
        )),
        "exercise" if !is_known_exercise(value) => Err(format!(
            "no exercise `{value}`; expected exercise={RECONCILE_EXERCISE} or one of {}",
            CONTROLLER_EXERCISE_NAMES.join(", ")
        )),
        "lang" if Language::from_id(value).is_none() => Err(format!(
            "no language `{value}`; expected lang=python or lang=javascript"
        )),
        flag if FLAGS.contains(&flag) && value != "true" && value != "false" => Err(format!(
            "{flag}={value}; expected {flag}, {flag}=true or {flag}=false"
        )),
        _ => Ok(()),
    }
}

/// Checks what only makes sense together: a step needs its lesson, within its steps.
fn check_together(attributes: &Attributes) -> Result<(), String> {
    let Some(step) = attributes.get("step") else {
        return Ok(());
    };
    let Some(lesson) = attributes.get("lesson") else {
        return Err(format!(
            "step={step} without a lesson; expected lesson=… step={step}"
        ));
    };
    let steps = lesson_index::find(lesson).map_or(0, |(_, entry)| entry.steps());
    match step.parse::<usize>() {
        Ok(n) if (1..=steps).contains(&n) => Ok(()),
        _ => Err(format!(
            "step={step}; expected a step of lesson `{lesson}` from 1 to {steps}"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(attributes: &Attributes) -> Vec<(&str, Option<&str>)> {
        attributes
            .0
            .iter()
            .map(|(n, v)| (n.as_str(), v.as_deref()))
            .collect()
    }

    #[test]
    fn reads_values_quoted_values_and_flags_in_order() {
        let read = parse(r#"preset=stuck-namespace panes=editors,plan readonly label="Two words""#)
            .expect("valid");
        assert_eq!(
            pairs(&read),
            [
                ("preset", Some("stuck-namespace")),
                ("panes", Some("editors,plan")),
                ("readonly", None),
                ("label", Some("Two words")),
            ]
        );
        assert_eq!(parse("").expect("valid"), Attributes::default());
    }

    #[test]
    fn a_lesson_and_its_step_are_checked_against_the_shipped_lessons() {
        let first = lesson_index::LESSON_INDEX[0].id;
        assert!(parse(&format!("lesson={first} step=1")).is_ok());
        let too_far = parse(&format!("lesson={first} step=99")).expect_err("no step 99");
        assert!(too_far.contains("from 1 to"), "{too_far}");
        let alone = parse("step=2").expect_err("a step needs its lesson");
        assert!(alone.contains("without a lesson"), "{alone}");
    }

    #[test]
    fn each_mistake_says_what_was_expected() {
        let cases = [
            (
                "prest=x",
                "unknown attribute `prest`; expected one of preset,",
            ),
            ("preset=nope", "no preset `nope`; expected one of "),
            ("lesson=nope", "no lesson `nope`; expected one of "),
            ("exercise=write", "expected exercise=reconcile"),
            ("lang=rust", "expected lang=python or lang=javascript"),
            (
                "readonly=yes",
                "expected readonly, readonly=true or readonly=false",
            ),
            ("panes", "`panes` needs a value"),
            ("theme=", "`theme` has an empty value"),
            ("readonly readonly", "`readonly` is given twice"),
            (
                "present=on",
                "expected present, present=true or present=false",
            ),
            ("label=\"open", "has no closing double quote"),
        ];
        for (info, expected) in cases {
            let error = parse(info).expect_err(info);
            assert!(error.contains(expected), "{info}: {error}");
        }
    }

    #[test]
    fn present_is_a_flag_like_readonly() {
        let read = parse("preset=stuck-namespace present").expect("valid");
        assert_eq!(
            pairs(&read),
            [("preset", Some("stuck-namespace")), ("present", None)]
        );
        assert!(parse("present=false").is_ok());
    }

    /// The component's script, whose attribute lists the fence must match.
    const COMPONENT: &str = include_str!("../../reconcile-wasm/js/reconcile-playground.js");

    /// The quoted names in the component's `const NAME = [...]` line.
    fn js_list(name: &str) -> Vec<&'static str> {
        let start = format!("const {name} = [");
        let line = COMPONENT
            .lines()
            .find(|line| line.starts_with(&start))
            .unwrap_or_else(|| panic!("the component declares {name}"));
        line.split('"').skip(1).step_by(2).collect()
    }

    #[test]
    fn the_fence_takes_the_components_attributes_but_those_it_writes() {
        let mut component = js_list("ATTRIBUTES");
        component.extend(js_list("PARAMS"));
        component.retain(|name| !["state", "src"].contains(name));
        component.sort_unstable();
        let mut fence = NAMES.to_vec();
        fence.sort_unstable();
        assert_eq!(fence, component);
        assert_eq!(FLAGS.to_vec(), js_list("FLAGS"));
    }
}

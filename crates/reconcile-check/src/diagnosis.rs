//! What a counterexample says: where the learner's list differs from the
//! contract's, the rule that was broken (in the words of the core's reasons),
//! where the learner's language's equality differs from JSON's, and the
//! language's trap that caused it, when a probe showed one (`trap`).

use reconcile_core::explain::plan;
use reconcile_core::json::{Json, Number};
use reconcile_core::reconcile::{Action, ActionKind};
use reconcile_core::InputError;
use serde::{Deserialize, Serialize};

use crate::case::Case;
use crate::trap::Trap;

/// The language the learner wrote in: its equality has its own traps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum Language {
    Python,
    JavaScript,
}

impl Language {
    pub const ALL: [Language; 2] = [Language::Python, Language::JavaScript];

    /// The name the JS API, links and `?lang=` use.
    pub fn id(self) -> &'static str {
        match self {
            Language::Python => "python",
            Language::JavaScript => "javascript",
        }
    }

    /// Reads [`Language::id`]; `js` and `py` are accepted too.
    pub fn from_id(id: &str) -> Option<Self> {
        match id {
            "python" | "py" => Some(Language::Python),
            "javascript" | "js" => Some(Language::JavaScript),
            _ => None,
        }
    }

    pub fn title(self) -> &'static str {
        match self {
            Language::Python => "Python",
            Language::JavaScript => "JavaScript",
        }
    }
}

/// What the learner's function gave for one case.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    Actions(Vec<Action>),
    /// Not an action list: core's reader says where and why.
    Malformed(InputError),
    /// It raised: the message (with the learner's traceback, from the runner).
    Raised(String),
}

/// How one action of either list stands against the other list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "kebab-case")]
pub enum Mark {
    /// In both lists, at the same place.
    Same,
    /// Expected, and not returned.
    Missing,
    /// Returned, and not expected.
    Unexpected,
    /// In both lists, at different places.
    Moved,
}

/// A place where the learner's language compares differently from JSON, or
/// a trap of the language that the counterexample holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "kebab-case")]
pub enum EqualityNote {
    /// Python: `True == 1`, so `{"x": True} == {"x": 1}`.
    PythonBoolIsInt,
    /// JavaScript: `===` and `!==` compare objects and arrays by identity.
    JsIdentity,
    /// Equal JSON values whose text differs (member order, `1` against `1.0`),
    /// so comparing `JSON.stringify` or `json.dumps` output calls them different.
    TextDiffers,
    /// JavaScript's default `sort()` compares UTF-16 code units, not code points.
    Utf16Order,
    /// JavaScript: `name in obj` is true for `constructor` and the other
    /// names every object inherits.
    JsInheritedName,
    /// JavaScript: objects list integer-like keys (`"9"`, `"10"`) first, in
    /// numeric order.
    JsIntegerKeys,
    /// JavaScript: `obj[name] == null` is true for a `null` spec too.
    JsNullSpec,
    /// JavaScript: `!obj[name]` is true for the specs `0`, `""` and `false`.
    JsFalsySpec,
    /// Python: `obj.get(name)` is `None` for a `null` spec too.
    PythonNoneSpec,
    /// Python: `if spec:` is false for `0`, `""`, `[]`, `{}` and `False`.
    PythonFalsySpec,
}

impl EqualityNote {
    /// What to tell the learner, as a lesson rather than a puzzle.
    pub fn explain(self) -> &'static str {
        match self {
            EqualityNote::PythonBoolIsInt => {
                "In Python, True == 1, so {\"x\": True} == {\"x\": 1} is True. In JSON, and so in \
                 the contract, true and 1 are different values. Compare JSON values with a \
                 function that checks the type first: a bool equals only a bool."
            }
            EqualityNote::JsIdentity => {
                "In JavaScript, === and !== compare objects and arrays by identity: two specs \
                 parsed from JSON are never ===, even when they are equal. Compare them \
                 structurally, member by member, ignoring member order."
            }
            EqualityNote::TextDiffers => {
                "These specs are equal as JSON values but are written differently (member \
                 order, or 1 against 1.0), so comparing their JSON text calls them different. \
                 Compare the values, not the text."
            }
            EqualityNote::Utf16Order => {
                "JavaScript's default sort() compares UTF-16 code units, which puts \"🚀\" before \
                 \"\\uE000\". The contract sorts names by Unicode code point: compare with \
                 codePointAt, or sort [...name] arrays."
            }
            EqualityNote::JsInheritedName => {
                "`name in observed` is true for constructor, toString, valueOf, hasOwnProperty \
                 and __proto__ on every object, and observed[name] is not undefined for them: \
                 every object inherits them. Use Object.hasOwn(observed, name), and the same \
                 for desired and finalizers."
            }
            EqualityNote::JsIntegerKeys => {
                "JavaScript objects list integer-like keys such as \"9\" and \"10\" first, in \
                 numeric order, whatever order they were added in. Object.keys, Object.values \
                 and for...in all do. Collect the actions in an array, and sort the names by \
                 code point."
            }
            EqualityNote::JsNullSpec => {
                "A spec may be null. `observed[name] == null`, ?? and ?. treat a null spec as \
                 a missing name. Use Object.hasOwn(observed, name) to test whether a name is \
                 there."
            }
            EqualityNote::JsFalsySpec => {
                "`!observed[name]` is true for the specs 0, \"\" and false, as for a missing \
                 name. They are real specs. Use Object.hasOwn(observed, name) to test whether \
                 a name is there."
            }
            EqualityNote::PythonNoneSpec => {
                "A spec may be null, which is None in Python. `observed.get(name)` is None both \
                 for a missing name and for a null spec. Use `name in observed` to test whether \
                 a name is there."
            }
            EqualityNote::PythonFalsySpec => {
                "`if spec:` is False for the specs 0, \"\", [], {} and False, as for None. They \
                 are real specs. Use `name in observed` to test whether a name is there."
            }
        }
    }
}

/// A minimal case the learner's function gets wrong, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct Counterexample {
    pub case: Case,
    pub expected: Vec<Action>,
    pub answer: Answer,
    /// One mark per expected action, in order.
    pub expected_marks: Vec<Mark>,
    /// One mark per returned action, in order (empty unless it returned a list).
    pub actual_marks: Vec<Mark>,
    /// The rule that was broken, in words.
    pub rule: String,
    pub notes: Vec<EqualityNote>,
}

/// Why a returned value is not an action list, in the learner's language:
/// which item (1-based, as a person counts), and core's reason, with Python's
/// names for what JSON calls arrays and `null`.
fn malformed_rule(error: &InputError, language: Language) -> String {
    use reconcile_core::path::Segment;
    let (what, triple) = match language {
        Language::Python => (
            "a list of (kind, name, spec) tuples",
            "(kind, name, spec) tuple",
        ),
        Language::JavaScript => (
            "an array of [kind, name, spec] arrays",
            "[kind, name, spec] array",
        ),
    };
    let reason = match language {
        Language::Python => error
            .message
            .replace("an array [kind, name, spec]", "a (kind, name, spec) tuple")
            .replace("[kind, name, spec]", "(kind, name, spec)")
            .replace("expected null", "expected None")
            .replace("found null", "found None"),
        Language::JavaScript => error.message.clone(),
    };
    match error.path.segments() {
        [] => format!("reconcile must return {what}: {reason}"),
        [Segment::Index(item)] => format!(
            "item {} of the returned list is not a {triple}: {reason}",
            item + 1
        ),
        [Segment::Index(item), Segment::Index(part), ..] => {
            let part = ["kind", "name", "spec"]
                .get(*part)
                .copied()
                .unwrap_or("element");
            format!(
                "item {} of the returned list: its {part} is wrong: {reason}",
                item + 1
            )
        }
        _ => format!("reconcile must return {what}: {reason} (at {})", error.path),
    }
}

impl Counterexample {
    /// The counterexample, its notes led by the language's `traps` that a
    /// probe showed to be its cause.
    pub(crate) fn of(case: Case, answer: Answer, language: Language, traps: &[Trap]) -> Self {
        let expected = case.expected();
        let actual: &[Action] = match &answer {
            Answer::Actions(actions) => actions,
            Answer::Malformed(_) | Answer::Raised(_) => &[],
        };
        let expected_marks = marks(&expected, actual);
        let actual_marks = marks(actual, &expected)
            .into_iter()
            .map(|mark| {
                if mark == Mark::Missing {
                    Mark::Unexpected
                } else {
                    mark
                }
            })
            .collect();
        let (rule, notes) = match &answer {
            Answer::Malformed(error) => (malformed_rule(error, language), Vec::new()),
            Answer::Raised(message) => {
                (format!("reconcile raised an error: {message}"), Vec::new())
            }
            Answer::Actions(actions) => rule_of(&case, &expected, actions, language),
        };
        let mut named: Vec<EqualityNote> = traps.iter().map(|trap| trap.note(language)).collect();
        named.dedup();
        let notes = named
            .into_iter()
            .chain(notes)
            .fold(Vec::new(), |mut notes, note| {
                if !notes.contains(&note) {
                    notes.push(note);
                }
                notes
            });
        Self {
            case,
            expected,
            answer,
            expected_marks,
            actual_marks,
            rule,
            notes,
        }
    }
}

/// How each action of `list` stands against `other`.
fn marks(list: &[Action], other: &[Action]) -> Vec<Mark> {
    list.iter()
        .enumerate()
        .map(
            |(index, action)| match other.iter().position(|o| o == action) {
                Some(at) if at == index => Mark::Same,
                Some(_) => Mark::Moved,
                None => Mark::Missing,
            },
        )
        .collect()
}

/// The first broken rule, and the equality notes that explain it.
fn rule_of(
    case: &Case,
    expected: &[Action],
    actual: &[Action],
    language: Language,
) -> (String, Vec<EqualityNote>) {
    let explained = plan(&case.desired, &case.observed, case.finalizers());
    let mut notes = Vec::new();
    let mut note = |n: EqualityNote| {
        if !notes.contains(&n) {
            notes.push(n);
        }
    };
    if let Some(missing) = expected.iter().find(|a| !actual.contains(a)) {
        if missing.kind == ActionKind::Update && language == Language::Python {
            let (want, have) = (
                case.desired.get(&missing.name),
                case.observed.get(&missing.name),
            );
            if want
                .zip(have)
                .is_some_and(|(want, have)| python_equal(want, have))
            {
                note(EqualityNote::PythonBoolIsInt);
            }
        }
        let instead = actual.iter().find(|a| a.name == missing.name);
        let rule = match instead {
            // The right action with the wrong spec.
            Some(other) if other.kind == missing.kind => format!(
                "{} {} carries the desired spec, {}",
                missing.kind,
                quoted(&missing.name),
                missing
                    .spec
                    .as_ref()
                    .map_or_else(String::new, Json::to_compact_string)
            ),
            // Another action for the name: why that one is wrong says it best.
            Some(other) => unexpected_rule(case, other),
            None => {
                let reason = explained
                    .actions
                    .iter()
                    .find(|e| e.action == *missing)
                    .map(|e| e.reason.to_string())
                    .unwrap_or_default();
                format!(
                    "{} {} is missing: {reason}",
                    missing.kind,
                    quoted(&missing.name)
                )
            }
        };
        return (rule, notes);
    }
    if let Some(extra) = actual.iter().find(|a| !expected.contains(a)) {
        let rule = unexpected_rule(case, extra);
        if extra.kind == ActionKind::Update {
            let (want, have) = (
                case.desired.get(&extra.name),
                case.observed.get(&extra.name),
            );
            if let (Some(want), Some(have)) = (want, have) {
                if want == have {
                    if want.to_compact_string() != have.to_compact_string() {
                        note(EqualityNote::TextDiffers);
                    }
                    if language == Language::JavaScript
                        && matches!(want, Json::Object(_) | Json::Array(_))
                    {
                        note(EqualityNote::JsIdentity);
                    }
                }
            }
        }
        return (rule, notes);
    }
    // The same actions in another order.
    let rule = "the order is wrong: first the CREATE and UPDATE actions (names in desired), \
                sorted by name, then the FINALIZE and DELETE actions (names only in observed), \
                sorted by name; names sort by Unicode code point"
        .to_owned();
    let names: Vec<&str> = actual.iter().map(|a| &*a.name).collect();
    let utf16_sorted = names
        .windows(2)
        .any(|w| utf16_less(w[0], w[1]) && w[1] < w[0]);
    if utf16_sorted && language == Language::JavaScript {
        note(EqualityNote::Utf16Order);
    }
    (rule, notes)
}

/// Why `extra` is not in the contract's list.
fn unexpected_rule(case: &Case, extra: &Action) -> String {
    let name = quoted(&extra.name);
    let desired = case.desired.contains(&extra.name);
    let observed = case.observed.contains(&extra.name);
    let pending = case
        .finalizers()
        .is_some_and(|f| !f.pending(&extra.name).is_empty());
    let has_entry = case.finalizers().is_some_and(|f| f.has_entry(&extra.name));
    match extra.kind {
        ActionKind::Update | ActionKind::Create if desired && observed => {
            let same = case.desired.get(&extra.name) == case.observed.get(&extra.name);
            if same {
                format!(
                    "{} {name} is not expected: identical specs produce no action, and these \
                     specs are equal as JSON values",
                    extra.kind
                )
            } else {
                format!("{name} is in both desired and observed with different specs: UPDATE, not CREATE")
            }
        }
        ActionKind::Update if desired => {
            format!("{name} is desired but not observed: CREATE, not UPDATE")
        }
        ActionKind::Create | ActionKind::Update => {
            format!("{name} is not in desired: nothing creates or updates it")
        }
        ActionKind::Finalize | ActionKind::Delete if desired => format!(
            "{} {name} is not expected: {name} is still desired, and finalizers only affect \
             deletion candidates",
            extra.kind
        ),
        ActionKind::Finalize | ActionKind::Delete if !observed => format!(
            "{} {name} is not expected: {name} is not observed, and finalizer entries for names \
             that are not observed are ignored",
            extra.kind
        ),
        ActionKind::Delete => format!("{name} still has pending finalizers: FINALIZE, not DELETE"),
        ActionKind::Finalize if has_entry => {
            format!("{name}'s finalizer list is empty, so nothing is pending: DELETE, not FINALIZE")
        }
        ActionKind::Finalize => {
            debug_assert!(!pending);
            format!("{name} has no finalizers: DELETE, not FINALIZE")
        }
    }
}

/// A name in quotes, with what is hard to see escaped (`"\uE000"`).
fn quoted(name: &str) -> String {
    crate::readable::readable(&serde_json::to_string(name).unwrap_or_default())
        .0
        .into_owned()
}

/// Python's `==` on the values `json.loads` makes: like JSON's, except that
/// `True == 1` and `False == 0`.
pub(crate) fn python_equal(a: &Json, b: &Json) -> bool {
    let as_number = |value: &Json| match value {
        Json::Bool(b) => Some(Json::Number(Number::Unsigned(u64::from(*b)))),
        Json::Number(_) => Some(value.clone()),
        _ => None,
    };
    match (a, b) {
        (Json::Bool(_), Json::Number(_)) | (Json::Number(_), Json::Bool(_)) => {
            as_number(a) == as_number(b)
        }
        (Json::Array(x), Json::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y.iter()).all(|(a, b)| python_equal(a, b))
        }
        (Json::Object(x), Json::Object(y)) => {
            x.len() == y.len()
                && x.iter().all(|(key, value)| {
                    y.iter()
                        .find(|(k, _)| k == key)
                        .is_some_and(|(_, other)| python_equal(value, other))
                })
        }
        _ => a == b,
    }
}

/// JavaScript's default sort order: UTF-16 code units.
pub(crate) fn utf16_less(a: &str, b: &str) -> bool {
    a.encode_utf16().lt(b.encode_utf16())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(text: &str) -> Json {
        reconcile_core::parse::parse_json_value(text).expect("valid JSON")
    }

    #[test]
    fn python_equality_takes_true_for_one_and_json_does_not() {
        assert!(python_equal(&json(r#"{"x": true}"#), &json(r#"{"x": 1}"#)));
        assert!(python_equal(&json("[false]"), &json("[0]")));
        assert!(!python_equal(&json("true"), &json("2")));
        assert_ne!(json(r#"{"x": true}"#), json(r#"{"x": 1}"#));
    }

    #[test]
    fn a_rule_quotes_a_name_that_is_hard_to_see_escaped() {
        assert_eq!(quoted("\u{E000}"), "\"\\uE000\"");
        assert_eq!(quoted("a"), "\"a\"");
    }

    #[test]
    fn utf16_order_puts_the_rocket_first() {
        assert!(utf16_less("🚀", "\u{E000}"));
        assert!("\u{E000}" < "🚀");
    }
}

#[cfg(test)]
mod malformed_tests {
    use super::*;
    use reconcile_core::parse_actions;

    fn rule(text: &str, language: Language) -> String {
        malformed_rule(&parse_actions(text).expect_err("malformed"), language)
    }

    #[test]
    fn a_malformed_answer_is_worded_in_the_learners_language_with_the_item_counted_from_one() {
        assert_eq!(
            rule(
                r#"[["CREATE","a",1],["DELETE","c",{"x":1}]]"#,
                Language::Python
            ),
            "item 2 of the returned list: its spec is wrong: DELETE takes no spec; expected None"
        );
        assert_eq!(
            rule(r#"[["DELETE","c",{"x":1}]]"#, Language::JavaScript),
            "item 1 of the returned list: its spec is wrong: DELETE takes no spec; expected null"
        );
        assert_eq!(
            rule(r#"[["CREATE","a"],["DELETE","c",null]]"#, Language::Python),
            "item 1 of the returned list is not a (kind, name, spec) tuple: expected 3 elements (kind, name, spec), found 2"
        );
        let unknown = rule(r#"[["REMOVE","a",null]]"#, Language::Python);
        assert!(
            unknown
                .starts_with("item 1 of the returned list: its kind is wrong: expected \"CREATE\""),
            "{unknown}"
        );
        assert!(unknown.ends_with(r#"found "REMOVE""#), "{unknown}");
        let not_a_list = rule("5", Language::Python);
        assert!(
            not_a_list.starts_with("reconcile must return a list of (kind, name, spec) tuples: "),
            "{not_a_list}"
        );
    }
}

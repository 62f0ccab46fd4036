//! The learner's language's traps that a counterexample may hold, and the
//! probes that tell whether one of them is the cause.
//!
//! A trap is suspected from what the counterexample contains: a name every
//! JavaScript object inherits, an integer-like name, a `null` spec, a falsy
//! spec. A probe is the counterexample with that one thing taken out (the
//! name renamed, the spec made truthy). When the learner's function gets the
//! probe right, the trap is the cause, and the counterexample names it.
//!
//! One more probe tells a truthiness test from a test for `null`: the `null`
//! specs as `0`. When the learner's function gets that wrong too, the
//! counterexample shows the `0`, and says "falsy" rather than "null".

use reconcile_core::json::{Json, Number};
use reconcile_core::model::{Finalizers, Resources};

use crate::case::{Case, FinalizersArg};
use crate::diagnosis::{EqualityNote, Language};

/// The names every JavaScript object inherits from `Object.prototype`: `name
/// in obj` is true for them, and `obj[name]` is not `undefined`.
pub const INHERITED_NAMES: [&str; 12] = [
    "__defineGetter__",
    "__defineSetter__",
    "__lookupGetter__",
    "__lookupSetter__",
    "__proto__",
    "constructor",
    "hasOwnProperty",
    "isPrototypeOf",
    "propertyIsEnumerable",
    "toLocaleString",
    "toString",
    "valueOf",
];

/// True for a name that every JavaScript object inherits.
pub fn is_inherited_name(name: &str) -> bool {
    INHERITED_NAMES.contains(&name)
}

/// True for a name JavaScript takes as an array index (`"0"`, `"9"`, `"10"`,
/// not `"01"` or `"-1"`): objects list such keys first, in numeric order.
pub fn is_integer_like(name: &str) -> bool {
    let canonical = name == "0" || (!name.starts_with('0') && !name.is_empty());
    canonical
        && name.bytes().all(|b| b.is_ascii_digit())
        && name.parse::<u64>().is_ok_and(|n| n < u64::from(u32::MAX))
}

/// A trap of the learner's language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Trap {
    InheritedName,
    IntegerLikeName,
    NullSpec,
    FalsySpec,
}

impl Trap {
    /// The note that names the trap, in the language's own words.
    pub(crate) fn note(self, language: Language) -> EqualityNote {
        match (self, language) {
            (Trap::InheritedName, _) => EqualityNote::JsInheritedName,
            (Trap::IntegerLikeName, _) => EqualityNote::JsIntegerKeys,
            (Trap::NullSpec, Language::JavaScript) => EqualityNote::JsNullSpec,
            (Trap::NullSpec, Language::Python) => EqualityNote::PythonNoneSpec,
            (Trap::FalsySpec, Language::JavaScript) => EqualityNote::JsFalsySpec,
            (Trap::FalsySpec, Language::Python) => EqualityNote::PythonFalsySpec,
        }
    }
}

/// What a probe's answer tells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Probe {
    /// The trap taken out: a right answer says the trap is the cause.
    Without(Trap),
    /// The `null` specs as `0`: a wrong answer says the test is truthiness.
    NullAsZero,
}

/// The probes of a counterexample, with their cases.
pub(crate) fn probes(case: &Case, language: Language) -> Vec<(Probe, Case)> {
    let mut out = Vec::new();
    if language == Language::JavaScript {
        for (trap, suspect) in [
            (Trap::InheritedName, is_inherited_name as fn(&str) -> bool),
            (Trap::IntegerLikeName, is_integer_like),
        ] {
            if names(case).any(suspect) {
                out.push((Probe::Without(trap), renamed(case, suspect)));
            }
        }
    }
    if specs(case).any(|spec| *spec == Json::Null) {
        out.push((
            Probe::Without(Trap::NullSpec),
            respecced(case, |spec| {
                (*spec == Json::Null).then(|| Json::string("set"))
            }),
        ));
        out.push((
            Probe::NullAsZero,
            respecced(case, |spec| {
                (*spec == Json::Null).then_some(Json::Number(Number::Unsigned(0)))
            }),
        ));
    }
    if specs(case).any(|spec| truthy_twin(spec, language).is_some()) {
        out.push((
            Probe::Without(Trap::FalsySpec),
            respecced(case, |spec| truthy_twin(spec, language)),
        ));
    }
    out
}

/// A falsy spec's truthy twin, of the same type, so that a probe keeps
/// which specs are equal, in JSON and in Python (`false` and `0` become
/// `true` and `1`). `None` for a spec that is truthy, or `null`.
fn truthy_twin(spec: &Json, language: Language) -> Option<Json> {
    let python = language == Language::Python;
    match spec {
        Json::Bool(false) => Some(Json::Bool(true)),
        Json::Number(n) if n.as_f64() == 0.0 => Some(match n {
            Number::Float(_) => Json::Number(Number::Float(1.0)),
            _ => Json::Number(Number::Unsigned(1)),
        }),
        Json::String(text) if text.is_empty() => Some(Json::string("x")),
        Json::Array(items) if python && items.is_empty() => Some(Json::array(vec![Json::Null])),
        Json::Object(members) if python && members.is_empty() => {
            Some(Json::object(vec![("x".into(), Json::Null)]))
        }
        _ => None,
    }
}

fn names(case: &Case) -> impl Iterator<Item = &str> {
    case.desired.names().chain(case.observed.names()).chain(
        case.finalizers()
            .into_iter()
            .flat_map(|f| f.iter().map(|(n, _)| n)),
    )
}

fn specs(case: &Case) -> impl Iterator<Item = &Json> {
    case.desired
        .iter()
        .chain(case.observed.iter())
        .map(|(_, spec)| spec)
}

/// The case with each suspect name renamed to one that sorts next to it
/// (`constructor` to `constructor-`), in every document.
fn renamed(case: &Case, suspect: fn(&str) -> bool) -> Case {
    let taken: Vec<String> = names(case).map(str::to_owned).collect();
    let rename = |name: &str| -> String {
        if !suspect(name) {
            return name.to_owned();
        }
        let mut fresh = format!("{name}-");
        while taken.contains(&fresh) {
            fresh.push('-');
        }
        fresh
    };
    let resources = |resources: &Resources| {
        Resources::from_unique(
            resources
                .iter()
                .map(|(name, spec)| (rename(name), spec.clone()))
                .collect(),
        )
    };
    let finalizers = match &case.finalizers {
        FinalizersArg::Given(finalizers) => FinalizersArg::Given(Finalizers::from_unique(
            finalizers
                .iter()
                .map(|(name, list)| (rename(name), list.to_vec()))
                .collect(),
        )),
        other => other.clone(),
    };
    Case {
        desired: resources(&case.desired),
        observed: resources(&case.observed),
        finalizers,
    }
}

/// The case with each spec that `change` gives a value for replaced by it.
fn respecced(case: &Case, change: impl Fn(&Json) -> Option<Json>) -> Case {
    let resources = |resources: &Resources| {
        Resources::from_unique(
            resources
                .iter()
                .map(|(name, spec)| {
                    (
                        name.to_owned(),
                        change(spec).unwrap_or_else(|| spec.clone()),
                    )
                })
                .collect(),
        )
    };
    Case {
        desired: resources(&case.desired),
        observed: resources(&case.observed),
        finalizers: case.finalizers.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_like_names_are_javascripts_array_indices() {
        for name in ["0", "9", "10", "4294967294"] {
            assert!(is_integer_like(name), "{name}");
        }
        for name in ["", "01", "-1", "1.5", "4294967295", "web-10", "١"] {
            assert!(!is_integer_like(name), "{name}");
        }
    }

    #[test]
    fn inherited_names_are_object_prototypes() {
        for name in [
            "constructor",
            "toString",
            "hasOwnProperty",
            "valueOf",
            "__proto__",
        ] {
            assert!(is_inherited_name(name), "{name}");
        }
        assert!(!is_inherited_name("svc"));
        assert!(!is_inherited_name("constructor-"));
    }

    #[test]
    fn a_probe_takes_out_one_trap_and_keeps_which_specs_are_equal() {
        let case = Case {
            desired: Resources::from_unique(vec![
                ("constructor".into(), Json::Null),
                ("a".into(), Json::Bool(false)),
            ]),
            observed: Resources::from_unique(vec![("a".into(), Json::Number(Number::Unsigned(0)))]),
            finalizers: FinalizersArg::Null,
        };
        let found = probes(&case, Language::JavaScript);
        let kinds: Vec<Probe> = found.iter().map(|(probe, _)| *probe).collect();
        assert_eq!(
            kinds,
            [
                Probe::Without(Trap::InheritedName),
                Probe::Without(Trap::NullSpec),
                Probe::NullAsZero,
                Probe::Without(Trap::FalsySpec),
            ]
        );
        assert!(found[0].1.desired.contains("constructor-"));
        let truthy = &found[3].1;
        assert_eq!(truthy.desired.get("a"), Some(&Json::Bool(true)));
        assert_eq!(
            truthy.observed.get("a"),
            Some(&Json::Number(Number::Unsigned(1)))
        );
        // Python has no inherited names.
        assert!(probes(&case, Language::Python)
            .iter()
            .all(|(probe, _)| *probe != Probe::Without(Trap::InheritedName)));
    }
}

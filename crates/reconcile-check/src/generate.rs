//! Cases built from the contract's traps, from a seed.
//!
//! Each case mixes a few names from a pool that holds the ordering traps
//! (`"🚀"` against `"\u{E000}"`: code points against UTF-16 code units), and
//! gives each name a role: desired only, observed only, or both with the same
//! spec, the same spec written differently (member order, `1` against `1.0`),
//! or a different spec (including `true` against `1`). Finalizers come as
//! omitted, `null`, empty, or filled, with entries on desired names, on
//! deletion candidates (some empty), and on names nobody observes. Now and
//! then a case is large. Numbers are integers within ±2⁵³ or halves, which
//! both Python and JavaScript represent exactly.
//!
//! The names and specs hold the languages' traps too: names every
//! JavaScript object inherits (`constructor`, `__proto__`), integer-like
//! names (`"9"`, `"10"`), and `null` and falsy specs (`0`, `""`, `[]`, `{}`,
//! `false`), which `.get(name)`, `== null` and truthiness take for a missing
//! name.

use std::sync::Arc;

use reconcile_core::json::{Json, Number};
use reconcile_core::model::{Finalizers, Resources};
use reconcile_core::stable::SplitMix64;

use crate::case::{Case, FinalizersArg};

/// Names, with the ordering traps among them, names every JavaScript object
/// inherits (`name in observed` is true for them), and integer-like names,
/// which JavaScript objects list first, in numeric order.
const NAMES: [&str; 19] = [
    "a",
    "b",
    "c",
    "svc",
    "web-1",
    "web-10",
    "web-2",
    "B",
    "é",
    "\u{E000}",
    "🚀",
    "",
    "constructor",
    "toString",
    "hasOwnProperty",
    "valueOf",
    "__proto__",
    "9",
    "10",
];
const STRINGS: [&str; 4] = ["", "LoadBalancer", "nginx:1.27", "🚀"];
/// Specs that Python or JavaScript take as false.
const FALSY: [&str; 6] = ["null", "0", "\"\"", "[]", "{}", "false"];
const FINALIZERS: [&str; 3] = ["cloud/lb-cleanup", "kubernetes.io/pvc-protection", "x/y"];
/// One case in this many is large.
const LARGE_ONE_IN: u64 = 40;
/// The largest exact integer in both languages.
const MAX_SAFE: u64 = (1 << 53) - 1;

/// `count` cases from `seed`.
pub fn generate(seed: u64, count: usize) -> Vec<Case> {
    let mut rng = Draw(SplitMix64::new(seed));
    (0..count).map(|_| rng.case()).collect()
}

struct Draw(SplitMix64);

impl Draw {
    fn below(&mut self, n: u64) -> u64 {
        self.0.next_u64() % n.max(1)
    }

    fn chance(&mut self, one_in: u64) -> bool {
        self.below(one_in) == 0
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        let index = usize::try_from(self.below(items.len() as u64)).unwrap_or(0);
        &items[index]
    }

    fn case(&mut self) -> Case {
        let mut desired = Vec::new();
        let mut observed = Vec::new();
        let names: Vec<String> = if self.chance(LARGE_ONE_IN) {
            let count = 100 + self.below(400);
            (0..count)
                .map(|i| format!("{}-{i}", self.pick(&NAMES)))
                .collect()
        } else {
            let mut names: Vec<String> = Vec::new();
            for _ in 0..self.below(6) {
                let name = (*self.pick(&NAMES)).to_owned();
                if !names.contains(&name) {
                    names.push(name);
                }
            }
            names
        };
        for name in &names {
            let spec = if self.chance(6) {
                let text: &&str = self.pick(&FALSY);
                falsy(text)
            } else {
                self.spec(2)
            };
            match self.below(5) {
                0 => desired.push((name.clone(), spec)),
                1 => observed.push((name.clone(), spec)),
                2 => {
                    desired.push((name.clone(), spec.clone()));
                    observed.push((name.clone(), spec));
                }
                3 => {
                    let same = written_differently(&spec);
                    desired.push((name.clone(), spec));
                    observed.push((name.clone(), same));
                }
                _ => {
                    let other = self.different(&spec);
                    desired.push((name.clone(), spec));
                    observed.push((name.clone(), other));
                }
            }
        }
        let finalizers = self.finalizers(&names);
        Case {
            desired: Resources::from_unique(desired),
            observed: Resources::from_unique(observed),
            finalizers,
        }
    }

    fn finalizers(&mut self, names: &[String]) -> FinalizersArg {
        match self.below(4) {
            0 => FinalizersArg::Omitted,
            1 => FinalizersArg::Null,
            _ => {
                let mut entries: Vec<(String, Vec<String>)> = Vec::new();
                for name in names {
                    if self.chance(2) {
                        let list = (0..self.below(3))
                            .map(|_| (*self.pick(&FINALIZERS)).to_owned())
                            .collect::<Vec<_>>();
                        let mut unique: Vec<String> = Vec::new();
                        for finalizer in list {
                            if !unique.contains(&finalizer) {
                                unique.push(finalizer);
                            }
                        }
                        entries.push((name.clone(), unique));
                    }
                }
                if self.chance(4) {
                    // An entry for a name nobody observes: ignored.
                    let ghost = format!("gone-{}", self.below(3));
                    if !entries.iter().any(|(name, _)| *name == ghost) {
                        entries.push((ghost, vec![(*self.pick(&FINALIZERS)).to_owned()]));
                    }
                }
                FinalizersArg::Given(Finalizers::from_unique(entries))
            }
        }
    }

    fn integer(&mut self) -> Json {
        let magnitude = match self.below(4) {
            0 => self.below(3),
            1 => self.below(100),
            2 => MAX_SAFE - self.below(3),
            _ => self.below(MAX_SAFE),
        };
        if self.chance(5) {
            Json::Number(Number::Signed(-(magnitude as i64)))
        } else {
            Json::Number(Number::Unsigned(magnitude))
        }
    }

    fn spec(&mut self, depth: u32) -> Json {
        let limit = if depth == 0 { 6 } else { 9 };
        match self.below(limit) {
            0 => Json::Null,
            1 => Json::Bool(self.chance(2)),
            2 => self.integer(),
            3 => Json::Number(Number::Float(0.5 + self.below(4) as f64)),
            4 => {
                let text: &&str = self.pick(&STRINGS);
                Json::string(text)
            }
            5 => Json::object(vec![("replicas".into(), self.integer())]),
            6 => Json::array((0..self.below(3)).map(|_| self.spec(depth - 1)).collect()),
            _ => {
                let keys = ["replicas", "image", "ports", "enabled"];
                let mut members: Vec<(Box<str>, Json)> = Vec::new();
                for key in keys {
                    if self.chance(2) {
                        members.push((key.into(), self.spec(depth - 1)));
                    }
                }
                Json::object(members)
            }
        }
    }

    /// A spec that differs from `spec`, often only in a trap: a boolean
    /// where a number was, or one more member.
    fn different(&mut self, spec: &Json) -> Json {
        match spec {
            Json::Bool(b) => Json::Number(Number::Unsigned(u64::from(*b))),
            Json::Number(n) if n.as_f64() == 0.0 || n.as_f64() == 1.0 => {
                Json::Bool(n.as_f64() == 1.0)
            }
            Json::Object(members) if !members.is_empty() && self.chance(2) => {
                let mut changed: Vec<(Box<str>, Json)> = members.as_ref().clone();
                let (key, value) = changed[0].clone();
                changed[0] = (key, self.different(&value));
                Json::object(changed)
            }
            _ => loop {
                let other = self.spec(1);
                if other != *spec {
                    break other;
                }
            },
        }
    }
}

fn falsy(text: &str) -> Json {
    reconcile_core::parse::parse_json_value(text).unwrap_or(Json::Null)
}

/// The same JSON value written another way: object members in reverse
/// order, integers as floats (`1` as `1.0`).
fn written_differently(spec: &Json) -> Json {
    match spec {
        Json::Number(Number::Unsigned(u)) if *u < 1 << 53 => Json::Number(Number::Float(*u as f64)),
        Json::Object(members) => Json::object(
            members
                .iter()
                .rev()
                .map(|(key, value)| (key.clone(), written_differently(value)))
                .collect(),
        ),
        Json::Array(items) => {
            Json::Array(Arc::new(items.iter().map(written_differently).collect()))
        }
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use reconcile_core::reconcile::ActionKind;

    #[test]
    fn the_same_seed_gives_the_same_cases() {
        assert_eq!(generate(7, 50), generate(7, 50));
        assert_ne!(generate(7, 50), generate(8, 50));
    }

    #[test]
    fn every_trap_occurs_in_five_hundred_cases() {
        let cases = generate(1, 500);
        let expected: Vec<_> = cases.iter().map(Case::expected).collect();
        let any_action = |kind: ActionKind| expected.iter().flatten().any(|a| a.kind == kind);
        for kind in ActionKind::ALL {
            assert!(any_action(kind), "no {kind}");
        }
        // Equal specs written differently, which produce no UPDATE.
        assert!(cases
            .iter()
            .any(|case| case.desired.iter().any(|(name, spec)| {
                case.observed.get(name).is_some_and(|seen| {
                    seen == spec && seen.to_compact_string() != spec.to_compact_string()
                })
            })));
        // Both ordering-trap names in one expected list.
        assert!(expected.iter().any(|actions| {
            actions.iter().any(|a| &*a.name == "🚀")
                && actions.iter().any(|a| &*a.name == "\u{E000}")
        }));
        // A boolean against a number.
        assert!(cases
            .iter()
            .any(|case| case.desired.iter().any(|(name, spec)| {
                matches!(
                    (spec, case.observed.get(name)),
                    (Json::Bool(_), Some(Json::Number(_))) | (Json::Number(_), Some(Json::Bool(_)))
                )
            })));
        // Empty finalizer lists on deletion candidates, entries on desired names, and a large case.
        assert!(cases.iter().any(|case| case.finalizers().is_some_and(|f| {
            f.iter().any(|(name, list)| {
                list.is_empty() && case.observed.contains(name) && !case.desired.contains(name)
            })
        })));
        assert!(cases.iter().any(|case| case.finalizers().is_some_and(|f| {
            f.iter().any(|(name, list)| {
                !list.is_empty() && case.desired.contains(name) && case.observed.contains(name)
            })
        })));
        assert!(cases
            .iter()
            .any(|case| case.desired.len() + case.observed.len() > 100));
        // Inherited and integer-like names, in desired, observed and the finalizers.
        let in_case = |case: &Case, name: &str| {
            case.desired.contains(name)
                || case.observed.contains(name)
                || case.finalizers().is_some_and(|f| f.has_entry(name))
        };
        let traps = NAMES.iter().filter(|name| {
            crate::trap::is_inherited_name(name) || crate::trap::is_integer_like(name)
        });
        assert_eq!(traps.clone().count(), 7, "the generator's trap names");
        for name in traps {
            assert!(cases.iter().any(|case| in_case(case, name)), "{name}");
        }
        assert!(cases
            .iter()
            .any(|case| in_case(case, "9") && in_case(case, "10")));
        // Each falsy spec, observed for a desired name.
        for text in FALSY {
            let spec = falsy(text);
            assert!(
                cases.iter().any(|case| case
                    .desired
                    .iter()
                    .any(|(name, _)| case.observed.get(name) == Some(&spec))),
                "{text}"
            );
        }
        for arg in [FinalizersArg::Omitted, FinalizersArg::Null] {
            assert!(cases.iter().any(|case| case.finalizers == arg));
        }
    }

    #[test]
    fn generated_numbers_stay_exact_in_both_languages() {
        fn check(spec: &Json) {
            match spec {
                Json::Number(n) => assert!(n.as_f64().abs() <= MAX_SAFE as f64, "{spec:?}"),
                Json::Array(items) => items.iter().for_each(check),
                Json::Object(members) => members.iter().for_each(|(_, v)| check(v)),
                _ => {}
            }
        }
        for case in generate(3, 500) {
            case.desired
                .iter()
                .chain(case.observed.iter())
                .for_each(|(_, spec)| check(spec));
        }
    }
}

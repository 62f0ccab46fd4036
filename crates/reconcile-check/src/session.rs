//! The check as a state machine: it names the case to run, takes the
//! learner's answer, and moves on, through the generated cases and then,
//! after the first failure, through the shrinker's candidates, and last
//! through the probes that tell which of the language's traps is the cause
//! (`trap`).

use reconcile_core::model::Scenario;
use reconcile_core::parse::InputError;
use reconcile_core::parse_actions;

use crate::case::{Case, FinalizersArg};
use crate::diagnosis::{Answer, Counterexample, Language};
use crate::generate::generate;
use crate::shrink::candidates;
use crate::trap::{probes, Probe, Trap};

/// The fewest generated cases a check runs (besides the editors' scenario).
pub const MIN_GENERATED: usize = 500;
/// The most shrink candidates a check tries, which bounds its time.
const MAX_SHRINK_TRIES: usize = 2_000;

/// How a check ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// Every case gave the contract's answer.
    Passed { cases: usize },
    /// The minimal counterexample found, after `cases` cases.
    Failed {
        cases: usize,
        counterexample: Box<Counterexample>,
    },
}

/// A check in progress.
#[derive(Debug)]
pub struct Check {
    language: Language,
    /// The cases to run, in order; the first may be the editors' scenario.
    cases: Vec<Case>,
    next: usize,
    shrinking: Option<Shrinking>,
    outcome: Option<Outcome>,
    /// Cases run so far, shrink candidates included.
    runs: usize,
    /// Bumped whenever [`Check::upcoming`] stops being the rest of what it was.
    course: u32,
}

/// The smallest failing case so far, and its candidates still to try.
#[derive(Debug)]
struct Shrinking {
    smallest: Case,
    answer: Answer,
    candidates: Vec<Case>,
    next: usize,
    tries: usize,
    /// Once shrinking is over: what each candidate probes, and the answers so far.
    probing: Option<Probing>,
}

#[derive(Debug)]
struct Probing {
    probes: Vec<Probe>,
    answers: Vec<(bool, Answer)>,
}

impl Check {
    /// A check of `count` (at least [`MIN_GENERATED`]) cases from `seed`,
    /// after `scenario` (the editors') when given.
    pub fn new(language: Language, seed: u64, count: usize, scenario: Option<&Scenario>) -> Self {
        let mut cases: Vec<Case> = scenario
            .map(|s| Case {
                desired: s.desired.clone(),
                observed: s.observed.clone(),
                finalizers: s
                    .finalizers
                    .clone()
                    .map_or(FinalizersArg::Null, FinalizersArg::Given),
            })
            .into_iter()
            .collect();
        cases.extend(generate(seed, count.max(MIN_GENERATED)));
        Self {
            language,
            cases,
            next: 0,
            shrinking: None,
            outcome: None,
            runs: 0,
            course: 0,
        }
    }

    /// The case the learner's function must run now; `None` once the check is over.
    pub fn case(&self) -> Option<&Case> {
        if self.outcome.is_some() {
            return None;
        }
        match &self.shrinking {
            Some(shrinking) => shrinking.candidates.get(shrinking.next),
            None => self.cases.get(self.next),
        }
    }

    /// The cases the check will ask for next, in order, for as long as the
    /// answers do not change its course (a failure starts shrinking; a
    /// failing shrink candidate gives new candidates): a runner may run them
    /// in one batch, answering until [`Check::case`] is no longer the next
    /// of them.
    pub fn upcoming(&self) -> &[Case] {
        if self.outcome.is_some() {
            return &[];
        }
        match &self.shrinking {
            Some(shrinking) => shrinking
                .candidates
                .get(shrinking.next..)
                .unwrap_or_default(),
            None => self.cases.get(self.next..).unwrap_or_default(),
        }
    }

    /// Changes whenever the check changes course (it starts shrinking, or a
    /// candidate fails and gives new candidates): while it stays the same,
    /// each answer moves one case along [`Check::upcoming`].
    pub fn course(&self) -> u32 {
        self.course
    }

    /// The answer to [`Check::case`], as the JSON text of the returned list.
    pub fn answer_json(&mut self, text: &str) {
        let answer = parse_actions(text).map_or_else(
            |error: InputError| Answer::Malformed(error),
            Answer::Actions,
        );
        self.answer(answer);
    }

    /// The answer to [`Check::case`].
    pub fn answer(&mut self, answer: Answer) {
        let Some(case) = self.case().cloned() else {
            return;
        };
        self.runs += 1;
        let failed = match &answer {
            Answer::Actions(actions) => *actions != case.expected(),
            Answer::Malformed(_) | Answer::Raised(_) => true,
        };
        match self.shrinking.take() {
            None if failed => self.start_shrinking(case, answer),
            None => {
                self.next += 1;
                if self.next == self.cases.len() {
                    self.outcome = Some(Outcome::Passed { cases: self.runs });
                }
            }
            Some(mut shrinking) if shrinking.probing.is_some() => {
                if let Some(probing) = shrinking.probing.as_mut() {
                    probing.answers.push((failed, answer));
                }
                shrinking.next += 1;
                self.continue_shrinking(shrinking);
            }
            Some(mut shrinking) => {
                shrinking.tries += 1;
                if failed {
                    self.course += 1;
                    shrinking.candidates = candidates(&case);
                    shrinking.next = 0;
                    shrinking.smallest = case;
                    shrinking.answer = answer;
                } else {
                    shrinking.next += 1;
                }
                self.continue_shrinking(shrinking);
            }
        }
    }

    fn start_shrinking(&mut self, case: Case, answer: Answer) {
        self.course += 1;
        let shrinking = Shrinking {
            candidates: candidates(&case),
            smallest: case,
            answer,
            next: 0,
            tries: 0,
            probing: None,
        };
        self.continue_shrinking(shrinking);
    }

    fn continue_shrinking(&mut self, mut shrinking: Shrinking) {
        let done =
            shrinking.next >= shrinking.candidates.len() || shrinking.tries >= MAX_SHRINK_TRIES;
        if !done {
            self.shrinking = Some(shrinking);
            return;
        }
        if shrinking.probing.is_none() {
            let (kinds, cases): (Vec<Probe>, Vec<Case>) =
                probes(&shrinking.smallest, self.language)
                    .into_iter()
                    .unzip();
            if !cases.is_empty() {
                self.course += 1;
                shrinking.candidates = cases;
                shrinking.next = 0;
                shrinking.probing = Some(Probing {
                    probes: kinds,
                    answers: Vec::new(),
                });
                self.shrinking = Some(shrinking);
                return;
            }
        }
        let mut case = shrinking.smallest;
        let mut answer = shrinking.answer;
        let mut traps = Vec::new();
        if let Some(probing) = shrinking.probing {
            let results = probing.probes.into_iter().zip(shrinking.candidates);
            let mut as_zero = None;
            for ((probe, probe_case), (failed, probe_answer)) in results.zip(probing.answers) {
                match probe {
                    Probe::Without(trap) if !failed => traps.push(trap),
                    Probe::NullAsZero if failed => as_zero = Some((probe_case, probe_answer)),
                    _ => {}
                }
            }
            // Also wrong with `0` for `null`: the learner's test is truthiness.
            if let (Some(at), Some((zero_case, zero_answer))) = (
                traps.iter().position(|trap| *trap == Trap::NullSpec),
                as_zero,
            ) {
                traps[at] = Trap::FalsySpec;
                case = zero_case;
                answer = zero_answer;
            }
        }
        let counterexample = Counterexample::of(case, answer, self.language, &traps);
        self.outcome = Some(Outcome::Failed {
            cases: self.runs,
            counterexample: Box::new(counterexample),
        });
    }

    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    /// Cases run so far.
    pub fn runs(&self) -> usize {
        self.runs
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnosis::{python_equal, utf16_less, EqualityNote, Mark};
    use reconcile_core::json::{Json, Number};
    use reconcile_core::reconcile::{reconcile, Action, ActionKind};

    /// The classic wrong solutions, one bug each.
    #[derive(Debug, Clone, Copy, PartialEq)]
    enum Bug {
        None,
        /// JavaScript's default `sort()`: UTF-16 code units.
        Utf16Sort,
        /// `!==` on objects: every object or array spec looks drifted.
        Identity,
        /// Comparing `JSON.stringify` output: member order matters.
        StringifyCompare,
        /// Finalizers ignored: everything not desired gets DELETE.
        IgnoreFinalizers,
        /// FINALIZE for a name still desired that has finalizers.
        FinalizeDesired,
        /// Every action sorted together by name.
        SortAll,
        /// An empty finalizer list treated as pending.
        EmptyListPending,
        /// Python's `==`: `True == 1`.
        PythonEquality,
        /// JavaScript's `name in observed` (or `observed[name] === undefined`):
        /// true for `constructor` and every inherited name.
        JsIn,
        /// JavaScript's `observed[name] == null`: a `null` spec looks missing.
        JsLooseNull,
        /// JavaScript's `!observed[name]`: `0`, `""`, `false`, `null` look missing.
        JsFalsy,
        /// JavaScript: the actions collected in an object keyed by name, so
        /// integer-like names come first, in numeric order.
        JsObjectOrder,
        /// Python's `observed.get(name) is None`: a `null` spec looks missing.
        PythonGet,
        /// Python's `if not observed.get(name)`: falsy specs look missing.
        PythonFalsy,
    }

    /// Whether the learner's code takes `name` to be in `resources`.
    fn present(bug: Bug, resources: &reconcile_core::model::Resources, name: &str) -> bool {
        let spec = resources.get(name);
        let js_falsy = |spec: &Json| match spec {
            Json::Null | Json::Bool(false) => true,
            Json::Number(n) => n.as_f64() == 0.0,
            Json::String(text) => text.is_empty(),
            _ => false,
        };
        match (bug, spec) {
            (Bug::JsIn, None) => crate::trap::is_inherited_name(name),
            (Bug::JsLooseNull | Bug::PythonGet, Some(Json::Null)) => false,
            (Bug::JsFalsy, Some(spec)) => !js_falsy(spec),
            (Bug::PythonFalsy, Some(spec)) => {
                !js_falsy(spec)
                    && !matches!(spec, Json::Array(items) if items.is_empty())
                    && !matches!(spec, Json::Object(members) if members.is_empty())
            }
            (_, spec) => spec.is_some(),
        }
    }

    /// JavaScript's order of an object's keys: integer-like ones first, in
    /// numeric order, then the rest as they were added.
    fn object_order(actions: &mut [Action]) {
        actions.sort_by_key(|action| {
            let name: &str = &action.name;
            crate::trap::is_integer_like(name)
                .then(|| name.parse::<u64>().unwrap_or(0))
                .map_or((1, 0), |n| (0, n))
        });
    }

    /// JavaScript's `JSON.stringify`: member order kept, numbers by value.
    fn stringify(value: &Json) -> String {
        match value {
            Json::Number(n) => format!("{}", n.as_f64()),
            Json::Array(items) => {
                let items: Vec<String> = items.iter().map(stringify).collect();
                format!("[{}]", items.join(","))
            }
            Json::Object(members) => {
                let members: Vec<String> = members
                    .iter()
                    .map(|(k, v)| format!("{k:?}:{}", stringify(v)))
                    .collect();
                format!("{{{}}}", members.join(","))
            }
            other => other.to_compact_string(),
        }
    }

    fn learner(case: &Case, bug: Bug) -> Vec<Action> {
        let finalizers = case.finalizers();
        let mut upserts = Vec::new();
        let mut deletes = Vec::new();
        for (name, want) in case.desired.iter() {
            // An inherited name's value: a function, unlike any spec.
            let inherited = Json::string("function Object() { [native code] }");
            let have = case.observed.get(name).unwrap_or(&inherited);
            match present(bug, &case.observed, name) {
                false => upserts.push(Action::create(name, want.clone())),
                true => {
                    let differs = match bug {
                        Bug::Identity if matches!(want, Json::Object(_) | Json::Array(_)) => true,
                        Bug::StringifyCompare => stringify(want) != stringify(have),
                        Bug::PythonEquality => !python_equal(want, have),
                        _ => want != have,
                    };
                    if differs {
                        upserts.push(Action::update(name, want.clone()));
                    }
                    let pending = finalizers.is_some_and(|f| !f.pending(name).is_empty());
                    if bug == Bug::FinalizeDesired && pending {
                        deletes.push(Action::finalize(name));
                    }
                }
            }
        }
        for (name, _) in case.observed.iter() {
            if present(bug, &case.desired, name) {
                continue;
            }
            let pending = finalizers.is_some_and(|f| match bug {
                Bug::EmptyListPending => f.has_entry(name),
                _ => !f.pending(name).is_empty(),
            });
            if pending && bug != Bug::IgnoreFinalizers {
                deletes.push(Action::finalize(name));
            } else {
                deletes.push(Action::delete(name));
            }
        }
        if bug == Bug::FinalizeDesired {
            deletes.sort_by(|a, b| a.name.cmp(&b.name));
        }
        match bug {
            Bug::Utf16Sort => {
                upserts.sort_by(|a, b| a.name.encode_utf16().cmp(b.name.encode_utf16()));
                deletes.sort_by(|a, b| a.name.encode_utf16().cmp(b.name.encode_utf16()));
                upserts.extend(deletes);
                upserts
            }
            Bug::SortAll => {
                upserts.extend(deletes);
                upserts.sort_by(|a, b| a.name.cmp(&b.name));
                upserts
            }
            Bug::JsObjectOrder => {
                object_order(&mut upserts);
                object_order(&mut deletes);
                upserts.extend(deletes);
                upserts
            }
            _ => {
                upserts.extend(deletes);
                upserts
            }
        }
    }

    fn run(bug: Bug, language: Language) -> Outcome {
        let mut check = Check::new(language, 42, MIN_GENERATED, None);
        while let Some(case) = check.case().cloned() {
            let text = serde_json::to_string(&learner(&case, bug)).expect("serializes");
            check.answer_json(&text);
        }
        check.outcome().cloned().expect("a check ends")
    }

    fn counterexample(bug: Bug, language: Language) -> Counterexample {
        match run(bug, language) {
            Outcome::Failed { counterexample, .. } => *counterexample,
            Outcome::Passed { cases } => panic!("{bug:?} passed {cases} cases"),
        }
    }

    fn names(case: &Case) -> Vec<String> {
        let mut names: Vec<String> = case
            .desired
            .names()
            .chain(case.observed.names())
            .map(str::to_owned)
            .collect();
        if let Some(finalizers) = case.finalizers() {
            names.extend(finalizers.iter().map(|(n, _)| n.to_owned()));
        }
        names.sort();
        names.dedup();
        names
    }

    #[test]
    fn the_contracts_own_reconcile_passes_every_case() {
        assert_eq!(
            run(Bug::None, Language::Python),
            Outcome::Passed {
                cases: MIN_GENERATED
            }
        );
        // The editors' scenario runs first, and counts.
        let scenario = Scenario::default();
        let mut check = Check::new(Language::JavaScript, 1, 10, Some(&scenario));
        assert_eq!(check.case().map(Case::finalizers), Some(None));
        while let Some(case) = check.case().cloned() {
            let plan = reconcile(&case.desired, &case.observed, case.finalizers());
            check.answer(Answer::Actions(plan));
        }
        assert_eq!(
            check.outcome(),
            Some(&Outcome::Passed {
                cases: MIN_GENERATED + 1
            })
        );
    }

    #[test]
    fn utf16_sorting_shrinks_to_the_two_names_and_says_why() {
        let found = counterexample(Bug::Utf16Sort, Language::JavaScript);
        let names = names(&found.case);
        assert_eq!(names.len(), 2, "{names:?}");
        assert!(utf16_less(&names[1], &names[0]), "{names:?}");
        assert!(
            found.rule.starts_with("the order is wrong"),
            "{}",
            found.rule
        );
        assert_eq!(found.notes, [EqualityNote::Utf16Order]);
        assert_eq!(found.expected_marks, [Mark::Moved, Mark::Moved]);
    }

    #[test]
    fn identity_comparison_shrinks_to_one_equal_object() {
        let found = counterexample(Bug::Identity, Language::JavaScript);
        assert_eq!(names(&found.case).len(), 1);
        assert!(found.expected.is_empty());
        assert_eq!(
            found.case.desired.iter().next().map(|(_, s)| s.clone()),
            Some(Json::object(Vec::new()))
        );
        assert!(
            found.rule.contains("identical specs produce no action"),
            "{}",
            found.rule
        );
        assert!(found.notes.contains(&EqualityNote::JsIdentity));
        assert_eq!(found.actual_marks, [Mark::Unexpected]);
    }

    #[test]
    fn stringify_comparison_shrinks_to_two_members_in_another_order() {
        let found = counterexample(Bug::StringifyCompare, Language::JavaScript);
        let (name, want) = found.case.desired.iter().next().expect("one desired");
        let have = found.case.observed.get(name).expect("observed too");
        assert_eq!(want, have);
        assert_eq!(want.as_object().map(<[_]>::len), Some(2), "{want:?}");
        assert!(found.notes.contains(&EqualityNote::TextDiffers));
    }

    #[test]
    fn ignoring_finalizers_deletes_what_must_be_finalized() {
        let found = counterexample(Bug::IgnoreFinalizers, Language::Python);
        assert_eq!(found.expected.len(), 1);
        assert_eq!(found.expected[0].kind, ActionKind::Finalize);
        assert!(
            found.rule.ends_with("FINALIZE, not DELETE"),
            "{}",
            found.rule
        );
        assert!(
            found.rule.contains("is missing") || found.rule.contains("pending finalizers"),
            "{}",
            found.rule
        );
    }

    #[test]
    fn finalizing_a_desired_name_is_named() {
        let found = counterexample(Bug::FinalizeDesired, Language::Python);
        assert!(found.expected.is_empty(), "{:?}", found.expected);
        assert!(found.rule.contains("still desired"), "{}", found.rule);
        assert_eq!(names(&found.case).len(), 1);
    }

    #[test]
    fn sorting_all_actions_together_shrinks_to_a_delete_before_a_create() {
        let found = counterexample(Bug::SortAll, Language::Python);
        assert_eq!(found.expected.len(), 2);
        assert!(
            found.rule.starts_with("the order is wrong"),
            "{}",
            found.rule
        );
        assert!(found.expected[0].kind.is_for_desired_name());
        assert!(!found.expected[1].kind.is_for_desired_name());
    }

    #[test]
    fn an_empty_list_treated_as_pending_is_named() {
        let found = counterexample(Bug::EmptyListPending, Language::Python);
        assert_eq!(found.expected.len(), 1);
        assert_eq!(found.expected[0].kind, ActionKind::Delete);
        let finalizers = found.case.finalizers().expect("given");
        assert_eq!(
            finalizers.iter().map(|(_, l)| l.len()).collect::<Vec<_>>(),
            [0]
        );
    }

    #[test]
    fn python_equality_misses_an_update_of_true_to_one() {
        let found = counterexample(Bug::PythonEquality, Language::Python);
        assert_eq!(found.expected.len(), 1);
        assert_eq!(found.expected[0].kind, ActionKind::Update);
        assert!(found.rule.contains("is missing"), "{}", found.rule);
        assert_eq!(found.notes, [EqualityNote::PythonBoolIsInt]);
        let (name, want) = found.case.desired.iter().next().expect("one desired");
        let have = found.case.observed.get(name).expect("observed");
        let one = Json::Number(Number::Unsigned(1));
        assert!(
            matches!((want, have), (Json::Bool(true), h) if *h == one)
                || matches!((want, have), (w, Json::Bool(true)) if *w == one)
                || matches!(
                    (want, have),
                    (Json::Bool(false), _) | (_, Json::Bool(false))
                ),
            "{want:?} against {have:?}"
        );
    }

    fn case_names(found: &Counterexample) -> Vec<String> {
        names(&found.case)
    }

    #[test]
    fn in_for_membership_is_caught_on_an_inherited_name_and_named() {
        let found = counterexample(Bug::JsIn, Language::JavaScript);
        let names = case_names(&found);
        assert!(
            names
                .iter()
                .any(|name| crate::trap::is_inherited_name(name)),
            "{names:?}"
        );
        assert_eq!(
            found.notes,
            [EqualityNote::JsInheritedName],
            "{}",
            found.rule
        );
        assert!(found.notes[0].explain().contains("Object.hasOwn"));
        // Python's `in` on a dict has no such trap, so no such note.
        assert!(!counterexample(Bug::PythonGet, Language::Python)
            .notes
            .contains(&EqualityNote::JsInheritedName));
    }

    #[test]
    fn loose_null_is_caught_on_a_null_spec_and_named() {
        let found = counterexample(Bug::JsLooseNull, Language::JavaScript);
        assert!(found
            .case
            .observed
            .iter()
            .chain(found.case.desired.iter())
            .any(|(_, spec)| *spec == Json::Null));
        assert_eq!(found.notes, [EqualityNote::JsNullSpec], "{}", found.rule);
    }

    #[test]
    fn python_get_is_caught_on_a_null_spec_and_named() {
        let found = counterexample(Bug::PythonGet, Language::Python);
        assert_eq!(
            found.notes,
            [EqualityNote::PythonNoneSpec],
            "{}",
            found.rule
        );
        assert!(found.notes[0].explain().contains("name in observed"));
    }

    #[test]
    fn truthiness_is_caught_on_a_falsy_spec_that_is_not_null_and_named() {
        for (bug, language, note) in [
            (
                Bug::PythonFalsy,
                Language::Python,
                EqualityNote::PythonFalsySpec,
            ),
            (
                Bug::JsFalsy,
                Language::JavaScript,
                EqualityNote::JsFalsySpec,
            ),
        ] {
            let found = counterexample(bug, language);
            assert_eq!(found.notes, [note], "{bug:?}: {}", found.rule);
            let zero = Json::Number(Number::Unsigned(0));
            assert!(
                found
                    .case
                    .desired
                    .iter()
                    .chain(found.case.observed.iter())
                    .any(|(_, spec)| *spec == zero),
                "{bug:?}: {:?}",
                found.case
            );
        }
    }

    #[test]
    fn object_key_order_is_caught_on_integer_like_names_and_named() {
        let found = counterexample(Bug::JsObjectOrder, Language::JavaScript);
        let names = case_names(&found);
        assert_eq!(names.len(), 2, "{names:?}");
        // "9" and "10", or "9" and a name that sorts before it, such as "".
        assert!(
            names.iter().any(|name| crate::trap::is_integer_like(name)),
            "{names:?}"
        );
        assert!(
            found.rule.starts_with("the order is wrong"),
            "{}",
            found.rule
        );
        assert_eq!(found.notes, [EqualityNote::JsIntegerKeys]);
    }

    /// A trap that is not the cause is not named: these bugs fail on any
    /// name and any spec, so their counterexamples name no trap, whatever
    /// names and specs they hold.
    #[test]
    fn a_trap_that_is_not_the_cause_is_not_named() {
        for seed in 0..10 {
            for (bug, language) in [
                (Bug::IgnoreFinalizers, Language::JavaScript),
                (Bug::SortAll, Language::JavaScript),
                (Bug::FinalizeDesired, Language::Python),
                (Bug::Identity, Language::JavaScript),
            ] {
                let mut check = Check::new(language, seed, MIN_GENERATED, None);
                while let Some(case) = check.case().cloned() {
                    check.answer(Answer::Actions(learner(&case, bug)));
                }
                let Some(Outcome::Failed { counterexample, .. }) = check.outcome() else {
                    panic!("{bug:?} passed");
                };
                let traps = [
                    EqualityNote::JsInheritedName,
                    EqualityNote::JsIntegerKeys,
                    EqualityNote::JsNullSpec,
                    EqualityNote::JsFalsySpec,
                    EqualityNote::PythonNoneSpec,
                    EqualityNote::PythonFalsySpec,
                ];
                assert!(
                    !counterexample.notes.iter().any(|note| traps.contains(note)),
                    "{bug:?}, seed {seed}: {:?} on {:?}",
                    counterexample.notes,
                    counterexample.case
                );
            }
        }
    }

    /// Minimal means: it fails, and none of the shrinker's candidates of it does.
    #[test]
    fn every_counterexample_is_minimal() {
        let bugs = [
            Bug::Utf16Sort,
            Bug::Identity,
            Bug::StringifyCompare,
            Bug::IgnoreFinalizers,
            Bug::FinalizeDesired,
            Bug::SortAll,
            Bug::EmptyListPending,
            Bug::PythonEquality,
            Bug::JsIn,
            Bug::JsLooseNull,
            Bug::PythonGet,
            Bug::JsObjectOrder,
        ];
        for bug in bugs {
            let found = counterexample(bug, Language::Python);
            assert_ne!(learner(&found.case, bug), found.expected, "{bug:?}");
            for smaller in candidates(&found.case) {
                assert_eq!(
                    learner(&smaller, bug),
                    smaller.expected(),
                    "{bug:?}: {smaller:?}"
                );
            }
        }
    }

    #[test]
    fn malformed_and_raising_answers_fail_with_the_message() {
        let mut check = Check::new(Language::Python, 5, MIN_GENERATED, None);
        while check.case().is_some() {
            check.answer_json(r#"[["REMOVE", "a", null]]"#);
        }
        let Some(Outcome::Failed { counterexample, .. }) = check.outcome() else {
            panic!("a malformed answer fails");
        };
        assert!(
            counterexample.rule.contains(r#"found "REMOVE""#),
            "{}",
            counterexample.rule
        );
        // Shrunk to the empty case: it fails there too.
        assert!(names(&counterexample.case).is_empty());
        let mut check = Check::new(Language::JavaScript, 5, MIN_GENERATED, None);
        while check.case().is_some() {
            check.answer(Answer::Raised(
                "TypeError: x is undefined (line 3)".to_owned(),
            ));
        }
        let Some(Outcome::Failed { counterexample, .. }) = check.outcome() else {
            panic!("a raise fails");
        };
        assert_eq!(
            counterexample.rule,
            "reconcile raised an error: TypeError: x is undefined (line 3)"
        );
    }
}

//! The check as a state machine: it names the case to run, takes the
//! learner's answer, and moves on, through the generated cases and then,
//! after the first failure, through the shrinker's candidates.

use reconcile_core::model::Scenario;
use reconcile_core::parse::InputError;
use reconcile_core::parse_actions;

use crate::case::{Case, FinalizersArg};
use crate::diagnosis::{Answer, Counterexample, Language};
use crate::generate::generate;
use crate::shrink::candidates;

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
        };
        self.continue_shrinking(shrinking);
    }

    fn continue_shrinking(&mut self, shrinking: Shrinking) {
        let done =
            shrinking.next >= shrinking.candidates.len() || shrinking.tries >= MAX_SHRINK_TRIES;
        if done {
            let counterexample =
                Counterexample::of(shrinking.smallest, shrinking.answer, self.language);
            self.outcome = Some(Outcome::Failed {
                cases: self.runs,
                counterexample: Box::new(counterexample),
            });
        } else {
            self.shrinking = Some(shrinking);
        }
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
            match case.observed.get(name) {
                None => upserts.push(Action::create(name, want.clone())),
                Some(have) => {
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
            if case.desired.contains(name) {
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

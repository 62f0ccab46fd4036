//! The "Your reconcile" pane: the learner's code and where its check stands.
//! The check itself runs elsewhere (the JS API's `check`, in the sandbox);
//! this state only records what it reported.

use std::rc::Rc;

use reconcile_check::{EqualityNote, Language, Mark};
use reconcile_content::exercise::LearnerCode;
use reconcile_core::Action as PlannedAction;

/// What the pane shows.
#[derive(Debug, Clone, PartialEq)]
pub struct ExerciseState {
    pub code: LearnerCode,
    pub check: CheckStatus,
    /// Numbers the checks, so that a late answer of an earlier one is ignored.
    pub check_id: u32,
    /// The code "Start over" replaced, for "Bring back my code".
    pub replaced: Option<String>,
}

/// Where the last check stands.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum CheckStatus {
    #[default]
    NotRun,
    /// Started; `phase` says what it is doing ("Loading Python", "Checking").
    Running {
        phase: CheckPhase,
    },
    Done(Rc<CheckReport>),
    /// The code could not be run at all (it does not load, or it was stopped).
    Failed {
        message: String,
        source: String,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CheckPhase {
    /// The language's runtime is being fetched and started (Python's, on first use).
    Loading {
        percent: u8,
    },
    Checking {
        done: usize,
    },
}

/// How a check ended, as the JS API's `check` reported it.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckReport {
    pub passed: bool,
    /// Cases run, shrink candidates included.
    pub total: usize,
    pub counterexample: Option<CounterexampleReport>,
    pub logs: Vec<LogLine>,
    /// The source that was checked: the pane says when the code has changed since.
    pub source: String,
}

/// The minimal case the learner's function gets wrong.
#[derive(Debug, Clone, PartialEq)]
pub struct CounterexampleReport {
    /// Desired, observed and finalizers as editor texts, for "Load into the editors".
    pub documents: [String; 3],
    /// The finalizers argument was left out of the call, rather than `None`.
    pub finalizers_omitted: bool,
    pub expected: Vec<PlannedAction>,
    /// What it returned, when that was an action list.
    pub actual: Option<Vec<PlannedAction>>,
    /// What it raised, or why its result is not an action list.
    pub error: Option<String>,
    pub expected_marks: Vec<Mark>,
    pub actual_marks: Vec<Mark>,
    pub rule: String,
    pub notes: Vec<(EqualityNote, String)>,
}

/// A line the learner's code printed.
#[derive(Debug, Clone, PartialEq)]
pub struct LogLine {
    /// The case it was printed in (0-based); `None` outside any call.
    pub case: Option<usize>,
    pub level: String,
    pub text: String,
}

/// What the learner does in the pane, and what the check reports back.
#[derive(Debug, Clone, PartialEq)]
pub enum ExerciseAction {
    /// Opens the pane, in `language` (or the code's own, or Python).
    Open(Option<Language>),
    Close,
    ChooseLanguage(Language),
    Edit(String),
    /// Puts the language's starter back; the code it replaces is kept for
    /// [`ExerciseAction::BringBack`].
    ResetToStarter,
    BringBack,
    /// A check numbered `id` began; answers of earlier ones are ignored from now on.
    CheckStarted {
        id: u32,
    },
    CheckProgress {
        id: u32,
        phase: CheckPhase,
    },
    CheckFinished {
        id: u32,
        report: Rc<CheckReport>,
    },
    CheckFailed {
        id: u32,
        message: String,
    },
}

impl ExerciseState {
    pub fn new(code: LearnerCode) -> Self {
        Self {
            code,
            check: CheckStatus::NotRun,
            check_id: 0,
            replaced: None,
        }
    }

    /// Applies `action`; false when it changes nothing (a late answer of an
    /// earlier check, say). `Open` and `Close` belong to the page.
    pub fn apply(&mut self, action: ExerciseAction) -> bool {
        match action {
            ExerciseAction::Open(_) | ExerciseAction::Close => return false,
            ExerciseAction::ChooseLanguage(language) => {
                if language == self.code.language {
                    return false;
                }
                self.code = self.code.switched_to(language);
                self.check = CheckStatus::NotRun;
            }
            ExerciseAction::Edit(source) => {
                if source == self.code.source {
                    return false;
                }
                self.code.source = source;
            }
            ExerciseAction::ResetToStarter => {
                if self.code.is_starter() {
                    return false;
                }
                let starter = reconcile_content::exercise::starter(self.code.language);
                self.replaced = Some(std::mem::replace(&mut self.code.source, starter.to_owned()));
                self.check = CheckStatus::NotRun;
            }
            ExerciseAction::BringBack => {
                let Some(source) = self.replaced.take() else {
                    return false;
                };
                // A swap: what was typed since is offered back in turn.
                let since = std::mem::replace(&mut self.code.source, source);
                let starter = reconcile_content::exercise::starter(self.code.language);
                self.replaced = (since != starter).then_some(since);
            }
            ExerciseAction::CheckStarted { id } => {
                self.check_id = id;
                self.check = CheckStatus::Running {
                    phase: CheckPhase::Checking { done: 0 },
                };
            }
            ExerciseAction::CheckProgress { id, phase } => {
                if id != self.check_id || !matches!(self.check, CheckStatus::Running { .. }) {
                    return false;
                }
                self.check = CheckStatus::Running { phase };
            }
            ExerciseAction::CheckFinished { id, report } => {
                if id != self.check_id {
                    return false;
                }
                self.check = CheckStatus::Done(report);
            }
            ExerciseAction::CheckFailed { id, message } => {
                if id != self.check_id {
                    return false;
                }
                self.check = CheckStatus::Failed {
                    message,
                    source: self.code.source.clone(),
                };
            }
        }
        true
    }

    pub fn is_checking(&self) -> bool {
        matches!(self.check, CheckStatus::Running { .. })
    }

    /// True when the shown result is of code that has been edited since.
    pub fn result_is_outdated(&self) -> bool {
        match &self.check {
            CheckStatus::Done(report) => report.source != self.code.source,
            CheckStatus::Failed { source, .. } => *source != self.code.source,
            CheckStatus::NotRun | CheckStatus::Running { .. } => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(source: &str) -> Rc<CheckReport> {
        Rc::new(CheckReport {
            passed: true,
            total: 501,
            counterexample: None,
            logs: Vec::new(),
            source: source.to_owned(),
        })
    }

    #[test]
    fn a_late_answer_of_an_earlier_check_is_ignored() {
        let mut state = ExerciseState::new(LearnerCode::starter(Language::Python));
        state.apply(ExerciseAction::CheckStarted { id: 1 });
        state.apply(ExerciseAction::CheckStarted { id: 2 });
        let late = ExerciseAction::CheckFinished {
            id: 1,
            report: report(&state.code.source),
        };
        assert!(!state.apply(late));
        assert!(state.is_checking());
        assert!(state.apply(ExerciseAction::CheckFinished {
            id: 2,
            report: report(&state.code.source)
        }));
        assert!(!state.result_is_outdated());
        state.apply(ExerciseAction::Edit(
            "def reconcile(d, o, f=None):\n    return []\n".into(),
        ));
        assert!(state.result_is_outdated());
    }

    #[test]
    fn start_over_keeps_the_code_it_replaced_until_brought_back() {
        let mut state = ExerciseState::new(LearnerCode::starter(Language::Python));
        assert!(!state.apply(ExerciseAction::ResetToStarter));
        state.apply(ExerciseAction::Edit("mine".into()));
        state.apply(ExerciseAction::ResetToStarter);
        assert!(state.code.is_starter());
        state.apply(ExerciseAction::BringBack);
        assert_eq!(state.code.source, "mine");
        assert_eq!(state.replaced, None);
    }

    #[test]
    fn switching_language_and_back_keeps_the_code() {
        let mut state = ExerciseState::new(LearnerCode::starter(Language::JavaScript));
        state.apply(ExerciseAction::Edit(
            "export function reconcile() { return []; }".into(),
        ));
        state.apply(ExerciseAction::ChooseLanguage(Language::Python));
        assert!(state.code.is_starter());
        state.apply(ExerciseAction::ChooseLanguage(Language::JavaScript));
        assert_eq!(
            state.code.source,
            "export function reconcile() { return []; }"
        );
    }
}

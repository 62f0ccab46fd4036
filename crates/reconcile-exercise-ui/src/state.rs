//! The "Your reconcile" pane: the learner's code and where its check stands.
//! The check itself runs elsewhere (the JS API's `check`, in the sandbox);
//! this state only records what it reported.

use std::collections::BTreeMap;
use std::rc::Rc;

use reconcile_check::{EqualityNote, Language, Mark};
use reconcile_content::exercise::starter_of;
use reconcile_content::exercise::LearnerCode;
use yew::Reducible;

/// What the pane shows.
#[derive(Debug, Clone, PartialEq)]
pub struct ExerciseState {
    pub code: LearnerCode,
    /// Check: the learner's function against the contract, case by case.
    pub check: Run<CheckReport>,
    /// Run in the loop: the learner's function in the simulation.
    pub in_loop: Run<LoopReport>,
    /// Check of a controller exercise: the JS API's `checkController`.
    pub controller: Run<ControllerReport>,
    /// How many hints are shown, per exercise by name, for the session:
    /// switching exercise and back keeps them.
    pub hints_shown: BTreeMap<String, usize>,
    /// Numbers the runs, so that a late answer of an earlier one is ignored.
    pub run_id: u32,
    /// The code "Start over" replaced, for "Bring back my code".
    pub replaced: Option<String>,
    /// The page's count of its own replacements of the code
    /// (`PaneInput::code_revision`) that this code came from or follows.
    pub code_revision: u32,
}

/// The things the learner can run their code for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Job {
    /// The seed's function against the contract.
    Check,
    /// The seed's function in the simulation's loop.
    Loop,
    /// A controller exercise's module under fault schedules.
    CheckController,
}

/// Where a run of the learner's code stands.
#[derive(Debug, Clone, PartialEq)]
pub enum Run<R> {
    NotRun,
    Running {
        phase: RunPhase,
    },
    Done(Rc<R>),
    /// The code could not be run at all (it does not load, misused the
    /// client, or a time limit stopped it), with what it printed until then.
    Failed {
        message: String,
        logs: Vec<LogLine>,
        source: String,
    },
    /// The learner stopped it (Stop), with what it printed until then.
    Stopped {
        logs: Vec<LogLine>,
        source: String,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunPhase {
    /// The language's runtime is being fetched and started (Python's, on first use).
    Loading { percent: u8 },
    /// Calls of the learner's function answered so far (schedules explored,
    /// for a controller).
    Calling { done: usize },
}

/// How the learner's function did in the loop: the three verdicts in words,
/// each with whether it holds.
#[derive(Debug, Clone, PartialEq)]
pub struct LoopReport {
    pub verdicts: Vec<(bool, String)>,
    /// Why the run ended early: it raised, or returned no action list.
    pub error: Option<String>,
    pub logs: Vec<LogLine>,
    pub source: String,
}

/// A finished run's report.
#[derive(Debug, Clone, PartialEq)]
pub enum Report {
    Check(Rc<CheckReport>),
    Loop(Rc<LoopReport>),
    Controller(Rc<ControllerReport>),
}

/// How a controller check ended, as the JS API's `checkController` reported it.
#[derive(Debug, Clone, PartialEq)]
pub struct ControllerReport {
    pub passed: bool,
    pub schedules_explored: usize,
    /// Each property: its name, whether it held, and why not.
    pub properties: Vec<PropertyLine>,
    pub counterexample: Option<ControllerCounterexample>,
    pub logs: Vec<LogLine>,
    pub source: String,
}

/// A property of a controller run, in plain words.
#[derive(Debug, Clone, PartialEq)]
pub struct PropertyLine {
    pub name: String,
    pub held: bool,
    pub detail: String,
}

/// The shrunk schedule that broke a property.
#[derive(Debug, Clone, PartialEq)]
pub struct ControllerCounterexample {
    pub property: String,
    pub detail: String,
    /// Each fault: the request it is placed at, and its kind (`lost-response`).
    pub schedule: Vec<(usize, String)>,
    pub story: Vec<String>,
    /// The playground page's `#v4/…` hash that replays the run.
    pub link: Option<String>,
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
    pub expected: Vec<ActionText>,
    /// What it returned, when that was an action list.
    pub actual: Option<Vec<ActionText>>,
    /// What it raised, or why its result is not an action list.
    pub error: Option<String>,
    pub expected_marks: Vec<Mark>,
    pub actual_marks: Vec<Mark>,
    pub rule: String,
    pub notes: Vec<(EqualityNote, String)>,
}

/// An action of a counterexample as the checker wrote it: `CREATE a {"x":1}`.
/// Shown, never computed with (the checker compared them).
#[derive(Debug, Clone, PartialEq)]
pub struct ActionText(pub String);

/// A line the learner's code printed.
#[derive(Debug, Clone, PartialEq)]
pub struct LogLine {
    /// The case it was printed in (0-based); `None` outside any call.
    pub case: Option<usize>,
    pub level: String,
    pub text: String,
}

/// What the learner does in the pane, and what the runs report back.
#[derive(Debug, Clone, PartialEq)]
pub enum ExerciseAction {
    /// The page replaced the code (a link or an autosave was opened, a
    /// session restored): it starts afresh, as the page was opened with it.
    Replace {
        code: LearnerCode,
        revision: u32,
    },
    ChooseLanguage(Language),
    /// The seed's exercise or a controller exercise, by name.
    ChooseExercise(String),
    /// Shows the exercise's next hint.
    ShowHint,
    Edit(String),
    /// Puts the language's starter back; the code it replaces is kept for
    /// [`ExerciseAction::BringBack`].
    ResetToStarter,
    BringBack,
    /// A run numbered `id` began; answers of earlier ones are ignored from now on.
    Started {
        job: Job,
        id: u32,
    },
    Progress {
        id: u32,
        phase: RunPhase,
    },
    Finished {
        id: u32,
        report: Report,
    },
    Failed {
        id: u32,
        message: String,
        logs: Vec<LogLine>,
    },
    /// The learner stopped run `id`; `logs` is what it printed until then.
    Stopped {
        id: u32,
        logs: Vec<LogLine>,
    },
}

impl ExerciseState {
    pub fn new(code: LearnerCode) -> Self {
        Self {
            code,
            check: Run::NotRun,
            in_loop: Run::NotRun,
            controller: Run::NotRun,
            hints_shown: BTreeMap::new(),
            run_id: 0,
            replaced: None,
            code_revision: 0,
        }
    }

    /// Applies `action`; false when it changes nothing (a late answer of an
    /// earlier run, say).
    pub fn apply(&mut self, action: ExerciseAction) -> bool {
        match action {
            ExerciseAction::Replace { code, revision } => {
                if revision == self.code_revision {
                    return false;
                }
                // Runs still going answer with ids this fresh state never
                // started (it starts from 0, the counter goes on), so they are
                // ignored. The hints shown are the session's, not the code's.
                *self = Self {
                    code_revision: revision,
                    hints_shown: std::mem::take(&mut self.hints_shown),
                    ..Self::new(code)
                };
                true
            }
            ExerciseAction::ChooseLanguage(language) => {
                if language == self.code.language {
                    return false;
                }
                self.code = self.code.switched_to(language);
                self.forget_runs();
                true
            }
            ExerciseAction::ChooseExercise(exercise) => {
                let code = self.code.switched_to_exercise(&exercise);
                if code.exercise == self.code.exercise {
                    return false;
                }
                self.code = code;
                self.replaced = None;
                self.forget_runs();
                true
            }
            ExerciseAction::ShowHint => {
                *self
                    .hints_shown
                    .entry(self.code.exercise.clone())
                    .or_default() += 1;
                true
            }
            ExerciseAction::Edit(source) => {
                if source == self.code.source {
                    return false;
                }
                self.code.source = source;
                true
            }
            ExerciseAction::ResetToStarter => {
                if self.code.is_starter() {
                    return false;
                }
                let starter = starter_of(&self.code.exercise, self.code.language);
                self.replaced = Some(std::mem::replace(&mut self.code.source, starter.to_owned()));
                self.forget_runs();
                true
            }
            ExerciseAction::BringBack => {
                let Some(source) = self.replaced.take() else {
                    return false;
                };
                // A swap: what was typed since is offered back in turn.
                let since = std::mem::replace(&mut self.code.source, source);
                let starter = starter_of(&self.code.exercise, self.code.language);
                self.replaced = (since != starter).then_some(since);
                true
            }
            ExerciseAction::Started { job, id } => {
                self.run_id = id;
                let running = RunPhase::Calling { done: 0 };
                match job {
                    Job::Check => self.check = Run::Running { phase: running },
                    Job::Loop => self.in_loop = Run::Running { phase: running },
                    Job::CheckController => self.controller = Run::Running { phase: running },
                }
                true
            }
            action => self.apply_answer(action),
        }
    }

    /// Progress and ends of runs: only the latest run's count.
    fn apply_answer(&mut self, action: ExerciseAction) -> bool {
        let (id, source) = (self.run_id, self.code.source.clone());
        match action {
            ExerciseAction::Progress { id: of, phase } if of == id => {
                let runs = [
                    self.check.as_running(),
                    self.in_loop.as_running(),
                    self.controller.as_running(),
                ];
                for run in runs.into_iter().flatten() {
                    *run = phase;
                }
                true
            }
            ExerciseAction::Finished { id: of, report } if of == id => {
                match report {
                    Report::Check(report) => self.check = Run::Done(report),
                    Report::Loop(report) => self.in_loop = Run::Done(report),
                    Report::Controller(report) => self.controller = Run::Done(report),
                }
                true
            }
            ExerciseAction::Failed {
                id: of,
                message,
                logs,
            } if of == id => {
                self.check.fail(&message, &logs, &source);
                self.in_loop.fail(&message, &logs, &source);
                self.controller.fail(&message, &logs, &source);
                true
            }
            ExerciseAction::Stopped { id: of, logs } if of == id => {
                self.check.stop(&logs, &source);
                self.in_loop.stop(&logs, &source);
                self.controller.stop(&logs, &source);
                true
            }
            _ => false,
        }
    }

    /// Results of other code, or of another language, go.
    fn forget_runs(&mut self) {
        self.check = Run::NotRun;
        self.in_loop = Run::NotRun;
        self.controller = Run::NotRun;
    }

    /// How many of the chosen exercise's hints are shown.
    pub fn hints_shown(&self) -> usize {
        self.hints_shown
            .get(&self.code.exercise)
            .copied()
            .unwrap_or(0)
    }

    /// True while the code runs (a Check or a run in the loop).
    pub fn is_running(&self) -> bool {
        [
            self.check.is_running(),
            self.in_loop.is_running(),
            self.controller.is_running(),
        ]
        .contains(&true)
    }
}

impl Reducible for ExerciseState {
    type Action = ExerciseAction;

    fn reduce(self: Rc<Self>, action: ExerciseAction) -> Rc<Self> {
        let mut next = (*self).clone();
        if next.apply(action) {
            Rc::new(next)
        } else {
            self
        }
    }
}

impl<R> Run<R> {
    fn as_running(&mut self) -> Option<&mut RunPhase> {
        match self {
            Run::Running { phase } => Some(phase),
            _ => None,
        }
    }

    fn is_running(&self) -> bool {
        matches!(self, Run::Running { .. })
    }

    /// A run under way ends with `message`.
    fn fail(&mut self, message: &str, logs: &[LogLine], source: &str) {
        if self.as_running().is_some() {
            *self = Run::Failed {
                message: message.to_owned(),
                logs: logs.to_vec(),
                source: source.to_owned(),
            };
        }
    }

    /// A run under way ends, stopped by the learner.
    fn stop(&mut self, logs: &[LogLine], source: &str) {
        if self.as_running().is_some() {
            *self = Run::Stopped {
                logs: logs.to_vec(),
                source: source.to_owned(),
            };
        }
    }
}

/// The source a finished run ran, if it has finished.
pub trait RanSource {
    fn source(&self) -> &str;
}

impl RanSource for CheckReport {
    fn source(&self) -> &str {
        &self.source
    }
}

impl RanSource for LoopReport {
    fn source(&self) -> &str {
        &self.source
    }
}

impl RanSource for ControllerReport {
    fn source(&self) -> &str {
        &self.source
    }
}

impl<R: RanSource> Run<R> {
    /// True when the shown result is of code that has been edited since.
    pub fn is_outdated(&self, source: &str) -> bool {
        match self {
            Run::Done(report) => report.source() != source,
            Run::Failed { source: ran, .. } | Run::Stopped { source: ran, .. } => ran != source,
            Run::NotRun | Run::Running { .. } => false,
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
    fn a_late_answer_of_an_earlier_run_is_ignored() {
        let mut state = ExerciseState::new(LearnerCode::starter(Language::Python));
        state.apply(ExerciseAction::Started {
            job: Job::Check,
            id: 1,
        });
        state.apply(ExerciseAction::Started {
            job: Job::Check,
            id: 2,
        });
        let late = ExerciseAction::Finished {
            id: 1,
            report: Report::Check(report(&state.code.source)),
        };
        assert!(!state.apply(late));
        assert!(state.is_running());
        assert!(state.apply(ExerciseAction::Finished {
            id: 2,
            report: Report::Check(report(&state.code.source))
        }));
        assert!(!state.check.is_outdated(&state.code.source));
        state.apply(ExerciseAction::Edit(
            "def reconcile(d, o, f=None):\n    return []\n".into(),
        ));
        assert!(state.check.is_outdated(&state.code.source));
    }

    #[test]
    fn a_failure_ends_the_run_that_was_going() {
        let mut state = ExerciseState::new(LearnerCode::starter(Language::JavaScript));
        state.apply(ExerciseAction::Started {
            job: Job::Loop,
            id: 1,
        });
        state.apply(ExerciseAction::Failed {
            id: 1,
            message: "stopped".into(),
            logs: Vec::new(),
        });
        assert_eq!(state.check, Run::NotRun);
        assert!(matches!(&state.in_loop, Run::Failed { message, .. } if message == "stopped"));
        assert!(!state.is_running());
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
    fn the_pages_code_replaces_the_panes_only_at_a_new_revision() {
        let mut state = ExerciseState::new(LearnerCode::starter(Language::JavaScript));
        state.apply(ExerciseAction::Edit("mine".into()));
        state.apply(ExerciseAction::Started {
            job: Job::Check,
            id: 4,
        });
        let theirs = LearnerCode::starter(Language::Python);
        // The page's copy lags behind the pane's edits: the same revision is no news.
        assert!(!state.apply(ExerciseAction::Replace {
            code: theirs.clone(),
            revision: 0
        }));
        assert_eq!(state.code.source, "mine");
        assert!(state.apply(ExerciseAction::Replace {
            code: theirs.clone(),
            revision: 1
        }));
        assert_eq!(state.code, theirs);
        assert_eq!(state.check, Run::NotRun);
        // The run that was going answers into nothing.
        assert!(!state.apply(ExerciseAction::Finished {
            id: 4,
            report: Report::Check(report("mine"))
        }));
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

    #[test]
    fn switching_exercise_and_back_keeps_the_code_and_forgets_results() {
        let mut state = ExerciseState::new(LearnerCode::starter(Language::JavaScript));
        state.apply(ExerciseAction::ChooseExercise("external-finalizer".into()));
        assert!(state.code.is_starter() && state.code.is_controller());
        state.apply(ExerciseAction::Edit("// my controller".into()));
        state.apply(ExerciseAction::ShowHint);
        state.apply(ExerciseAction::Started {
            job: Job::CheckController,
            id: 1,
        });
        assert!(state.is_running());
        state.apply(ExerciseAction::Failed {
            id: 1,
            message: "no reconcile".into(),
            logs: vec![LogLine {
                case: None,
                level: "log".into(),
                text: "hi".into(),
            }],
        });
        assert!(matches!(&state.controller, Run::Failed { logs, .. } if logs.len() == 1));
        assert!(!state.apply(ExerciseAction::ChooseExercise("external-finalizer".into())));
        state.apply(ExerciseAction::ChooseExercise("status".into()));
        assert_eq!((state.hints_shown(), &state.controller), (0, &Run::NotRun));
        state.apply(ExerciseAction::ChooseExercise("external-finalizer".into()));
        assert_eq!(state.code.source, "// my controller");
        state.apply(ExerciseAction::ResetToStarter);
        assert!(state.code.source.contains("reconcile(request, client)"));
    }

    #[test]
    fn hints_shown_are_kept_per_exercise_for_the_session() {
        let mut state = ExerciseState::new(LearnerCode::starter(Language::JavaScript));
        state.apply(ExerciseAction::ChooseExercise("external-finalizer".into()));
        state.apply(ExerciseAction::ShowHint);
        state.apply(ExerciseAction::ShowHint);
        state.apply(ExerciseAction::ChooseExercise("status".into()));
        assert_eq!(state.hints_shown(), 0);
        state.apply(ExerciseAction::ShowHint);
        state.apply(ExerciseAction::ChooseExercise("reconcile".into()));
        assert_eq!(state.hints_shown(), 0);
        state.apply(ExerciseAction::ChooseExercise("external-finalizer".into()));
        assert_eq!(state.hints_shown(), 2);
        state.apply(ExerciseAction::ChooseLanguage(Language::Python));
        assert_eq!(state.hints_shown(), 2);
        // The page's code (a link opened) replaces the code, not the session's hints.
        state.apply(ExerciseAction::Replace {
            code: LearnerCode::starter(Language::JavaScript).switched_to_exercise("status"),
            revision: 1,
        });
        assert_eq!(state.hints_shown(), 1);
    }

    #[test]
    fn a_stop_ends_the_run_with_its_output_and_a_late_answer_is_ignored() {
        let mut state = ExerciseState::new(LearnerCode::starter(Language::JavaScript));
        state.apply(ExerciseAction::ChooseExercise("owned-configmap".into()));
        state.apply(ExerciseAction::Edit("// mine".into()));
        state.apply(ExerciseAction::Started {
            job: Job::CheckController,
            id: 3,
        });
        let printed = vec![LogLine {
            case: None,
            level: "log".into(),
            text: "[fault-free run] hi".into(),
        }];
        assert!(!state.apply(ExerciseAction::Stopped {
            id: 2,
            logs: Vec::new()
        }));
        assert!(state.apply(ExerciseAction::Stopped {
            id: 3,
            logs: printed.clone()
        }));
        assert_eq!(
            state.controller,
            Run::Stopped {
                logs: printed,
                source: "// mine".into()
            }
        );
        assert!(!state.is_running());
        assert!(!state.controller.is_outdated("// mine"));
        assert!(state.controller.is_outdated("// mine, edited"));
        assert_eq!((&state.check, &state.in_loop), (&Run::NotRun, &Run::NotRun));
        // A late failure of the stopped run does not overwrite the stop.
        state.apply(ExerciseAction::Failed {
            id: 3,
            message: "late".into(),
            logs: Vec::new(),
        });
        assert!(matches!(state.controller, Run::Stopped { .. }));
    }
}

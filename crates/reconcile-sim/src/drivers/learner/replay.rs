//! A failing run replayed from its record, without the learner's code.
//! Start at [`replay`].
//!
//! The run is deterministic: the exercise, the schedule, and each
//! reconcile's calls and result give the same answers, record and
//! timeline. So a [`Script`] (what the controller did, not how) replays
//! it: a stand-in controller makes the recorded calls in order, in the
//! same [`FaultedRun`], and returns the recorded result.
//! When the record's answers are at hand, each answer is checked; a
//! mismatch is a [`ReplayError`], never a panic.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::call::{CallError, ClientCall};
use super::exercise::{exercise_with, Exercise};
use super::faulted::FaultedRun;
use super::record::{ReconcileOutcome, ReconcileRecord};
use super::run::Finish;
use super::schedule::Schedule;
use super::search::Counterexample;

/// What one reconcile did: its key, its process, its calls in order, and
/// its result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Scripted {
    pub name: String,
    /// The controller process (0 at first, bumped by each crash).
    pub incarnation: u64,
    pub calls: Vec<ClientCall>,
    /// What it returned (the record's `returned` when a crash took it);
    /// `None` if the run stopped during it.
    pub outcome: Option<ReconcileOutcome>,
    /// The answers the calls got, checked when present. A link leaves them
    /// out: the engine gives them again.
    #[serde(skip)]
    pub answers: Option<Vec<Result<Value, CallError>>>,
}

/// What a replay needs: the schedule, and each reconcile's calls.
/// Nothing of the learner's code.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Script {
    pub schedule: Schedule,
    pub reconciles: Vec<Scripted>,
}

impl Script {
    /// The script of a run under `schedule` that kept `record`, its answers
    /// kept for checking.
    pub fn of(schedule: &Schedule, record: &[ReconcileRecord]) -> Self {
        let reconciles = record
            .iter()
            .map(|r| Scripted {
                name: r.name.clone(),
                incarnation: r.incarnation,
                calls: r.calls.iter().map(|c| c.call.clone()).collect(),
                outcome: r.returned.clone().or_else(|| r.outcome.clone()),
                answers: Some(r.calls.iter().map(|c| c.answer.clone()).collect()),
            })
            .collect();
        Self {
            schedule: schedule.clone(),
            reconciles,
        }
    }
}

/// What a link to a replay holds: the exercise, the settings the check
/// gave over it, and the script. Nothing of the learner's code.
/// The page's share link carries it as its `replay` member
/// (`reconcile-content`'s `share.rs`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ReplayLink {
    /// The exercise's id: `owned-configmap`.
    pub exercise: String,
    /// The settings over the exercise's, as JSON text; left out when none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub options: Option<String>,
    pub script: Script,
}

impl ReplayLink {
    /// The link to `example`, a counterexample found on `exercise` with
    /// `options` over its settings.
    pub fn of(exercise: &str, options: Option<String>, example: &Counterexample) -> Self {
        Self {
            exercise: exercise.to_owned(),
            options,
            script: Script::of(&example.schedule, &example.record),
        }
    }

    /// Reads a link's JSON text; an error says what is wrong in a sentence.
    pub fn read(text: &str) -> Result<Self, String> {
        serde_json::from_str(text).map_err(|e| format!("This replay cannot be read: {e}"))
    }

    /// The replayed run; an unknown exercise, options that do not read, or
    /// a replay that parts from its script is an error in a sentence.
    pub fn open(&self) -> Result<FaultedRun, String> {
        let exercise = exercise_with(&self.exercise, self.options.as_deref())?;
        replay(exercise, &self.script).map_err(|e| e.to_string())
    }
}

/// Why a replay differs from the run it replays.
#[derive(Debug, Clone, PartialEq)]
pub enum ReplayError {
    /// Reconcile `index` (from 0) was for another key, or the run ended
    /// before it, or went on past the record.
    Reconcile {
        index: usize,
        expected: Option<String>,
        found: Option<String>,
    },
    /// Reconcile `index` ran in another process.
    Incarnation {
        index: usize,
        expected: u64,
        found: u64,
    },
    /// Call `call` of reconcile `index` (both from 0) got another answer.
    Answer {
        index: usize,
        call: usize,
        method: &'static str,
        expected: String,
        found: String,
    },
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let none = || "nothing".to_owned();
        match self {
            ReplayError::Reconcile {
                index,
                expected,
                found,
            } => write!(
                f,
                "replay: reconcile {} was for {}, but the run gave {}",
                index + 1,
                expected.clone().unwrap_or_else(none),
                found.clone().unwrap_or_else(none),
            ),
            ReplayError::Incarnation {
                index,
                expected,
                found,
            } => write!(
                f,
                "replay: reconcile {} ran in process {expected}, but the run gave process {found}",
                index + 1
            ),
            ReplayError::Answer {
                index,
                call,
                method,
                expected,
                found,
            } => write!(
                f,
                "replay: call {} (client.{method}) of reconcile {} was answered {expected}, but the replay got {found}",
                call + 1,
                index + 1
            ),
        }
    }
}

impl std::error::Error for ReplayError {}

/// Replays `script` on `exercise`: the same run, without the learner's
/// code. The run is returned for its record, its end and its timeline.
pub fn replay(exercise: Exercise, script: &Script) -> Result<FaultedRun, ReplayError> {
    replay_in(FaultedRun::new(exercise, &script.schedule), script)
}

/// Replays `script` in `run`, a fresh run of its schedule.
pub(super) fn replay_in(mut run: FaultedRun, script: &Script) -> Result<FaultedRun, ReplayError> {
    let mut index = 0;
    while let Some(request) = run.next_reconcile() {
        let Some(scripted) = script.reconciles.get(index) else {
            return Err(ReplayError::Reconcile {
                index,
                expected: None,
                found: Some(request.name),
            });
        };
        if scripted.name != request.name {
            return Err(ReplayError::Reconcile {
                index,
                expected: Some(scripted.name.clone()),
                found: Some(request.name),
            });
        }
        if run.incarnation() != scripted.incarnation {
            return Err(ReplayError::Incarnation {
                index,
                expected: scripted.incarnation,
                found: run.incarnation(),
            });
        }
        for (at, call) in scripted.calls.iter().enumerate() {
            let found = run.call(call.clone());
            let expected = scripted.answers.as_ref().and_then(|a| a.get(at));
            if let Some(expected) = expected.filter(|e| **e != found) {
                return Err(ReplayError::Answer {
                    index,
                    call: at,
                    method: call.method(),
                    expected: shown(expected),
                    found: shown(&found),
                });
            }
        }
        run.finish(finish_of(scripted.outcome.as_ref()));
        index += 1;
    }
    match script.reconciles.get(index) {
        Some(left) => Err(ReplayError::Reconcile {
            index,
            expected: Some(left.name.clone()),
            found: None,
        }),
        None => Ok(run),
    }
}

/// The result that gives `outcome`. A crash during a call took the
/// reconcile, and the run ignores its result: nothing is returned.
fn finish_of(outcome: Option<&ReconcileOutcome>) -> Finish {
    match outcome {
        None | Some(ReconcileOutcome::Done | ReconcileOutcome::Crashed) => Finish::Ok(None),
        Some(ReconcileOutcome::RequeueAfter { ms }) => Finish::Ok(Some(*ms)),
        Some(ReconcileOutcome::Error { message }) => Finish::Error(message.clone()),
        Some(ReconcileOutcome::Terminal { message }) => Finish::Terminal(message.clone()),
    }
}

/// An answer in a few words: its JSON, or its error.
fn shown(answer: &Result<Value, CallError>) -> String {
    let text = match answer {
        Ok(value) => value.to_string(),
        Err(error) => format!("an error ({error})"),
    };
    match text.char_indices().nth(200) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}

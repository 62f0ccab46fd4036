//! Guided lessons: data files of steps and predict-then-reveal exercises.
//!
//! Guarantees:
//! - Lessons are data (`lessons/*.json`); adding one needs no code. The page
//!   compiles in only their index ([`crate::lesson_index`], generated from
//!   the files) and fetches a lesson's file when it opens, read by
//!   [`parse_lesson`]; native users have every text compiled in
//!   ([`LESSON_FILES`], [`lessons`]) with the default `lesson-texts` feature.
//! - No answer is stored in a lesson file for the "actions", "passes" and
//!   "pass-actions" exercises: the right answer is always computed by this
//!   crate from the lesson's scenario (and its simulation), so a lesson can
//!   never disagree with `reconcile` or the simulator.
//! - Feedback on a wrong answer points at the exact rule, using the plan's
//!   per-action [`Reason`](reconcile_core::explain::Reason).

use serde::de::{self, IgnoredAny, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};

#[cfg(feature = "lesson-texts")]
use crate::data::content_file;
use crate::data::{self, ContentError, Reader};
use crate::presets;
use reconcile_core::check_scenario as check_scenario_texts;
use reconcile_core::explain::{plan, Plan};
use reconcile_core::json::Json;
use reconcile_core::model::Scenario;
use reconcile_core::parse::InputError;
use reconcile_core::path::JsonPath;
use reconcile_core::reconcile::ActionKind;
use reconcile_sim::{
    format_millis, simulate, ActionResult, OptionsError, PassRecord, SimConfig, SimSettings,
    Timeline, Trigger, Verdict,
};

/// The lessons shipped with the playground, in teaching order: `(file, text)`.
/// The order is the files' names' (`NN-`), as in the index
/// (`lesson_index::tests::the_index_is_what_the_reader_reads_of_every_lesson_file`).
#[cfg(feature = "lesson-texts")]
pub const LESSON_FILES: &[(&str, &str)] = &[
    content_file!("lessons", "01-four-actions.json"),
    content_file!("lessons", "02-drift.json"),
    content_file!("lessons", "03-finalizers.json"),
    content_file!("lessons", "04-idempotency.json"),
    content_file!("lessons", "05-level-vs-edge.json"),
    content_file!("lessons", "06-triggers.json"),
    content_file!("lessons", "07-backoff.json"),
    content_file!("lessons", "08-fighting-controllers.json"),
    content_file!("lessons", "09-status.json"),
    content_file!("lessons", "10-json-equality.json"),
    content_file!("lessons", "11-defaults-drift.json"),
    content_file!("lessons", "12-keys-not-events.json"),
    content_file!("lessons", "13-owner-deletion.json"),
    content_file!("lessons", "14-stale-cache.json"),
    content_file!("lessons", "15-status-loop.json"),
    content_file!("lessons", "16-deleted-while-down.json"),
    content_file!("lessons", "17-hidden-reason.json"),
    content_file!("lessons", "18-optimistic-concurrency.json"),
];

/// One lesson: a starting scenario and ordered steps.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Lesson {
    pub id: String,
    pub title: String,
    pub summary: String,
    /// A preset id whose documents and simulation settings the lesson starts from.
    pub preset: Option<String>,
    /// Documents that replace the preset's (as editor text).
    pub documents: Option<Documents>,
    /// Simulation settings that replace the preset's, as the file gives
    /// them: checked by [`parse_lesson`], read where a run needs them.
    #[serde(skip)]
    pub sim: Option<SimSettings>,
    pub steps: Vec<Step>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Documents {
    pub desired: String,
    pub observed: String,
    /// `"null\n"` when the file leaves it out.
    pub finalizers: String,
}

/// Text to read, something to do, and optionally an exercise.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Step {
    pub text: String,
    /// What to do in the playground, e.g. "Press Step once."
    pub task: Option<String>,
    pub exercise: Option<Exercise>,
    /// Shown once the exercise is answered, never before: it gives the
    /// answer away.
    pub explanation: Option<String>,
}

/// A prediction made before the answer is revealed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Exercise {
    /// `actions`: pick and order the actions reconcile returns.
    /// `passes`: after how many passes does the loop converge?
    /// `choice`: one right answer among `choices`.
    /// `pass-actions`: pick and order the actions pass `pass` of the simulation returns.
    pub kind: ExerciseKind,
    pub prompt: String,
    /// For `actions` and `pass-actions`: the candidates offered, as `"KIND name"`.
    pub options: Vec<String>,
    /// For `pass-actions`: which pass (1-based).
    pub pass: Option<usize>,
    /// For `choice`.
    pub choices: Vec<Choice>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ExerciseKind {
    Actions,
    Passes,
    Choice,
    #[serde(rename = "pass-actions")]
    PassActions,
}

impl ExerciseKind {
    /// Each kind by the name a lesson file gives it.
    const NAMED: [(&'static str, ExerciseKind); 4] = [
        ("actions", ExerciseKind::Actions),
        ("passes", ExerciseKind::Passes),
        ("choice", ExerciseKind::Choice),
        ("pass-actions", ExerciseKind::PassActions),
    ];

    /// The kind a lesson file names `name`.
    pub fn named(name: &str) -> Option<Self> {
        Self::NAMED
            .iter()
            .find(|(named, _)| *named == name)
            .map(|(_, kind)| *kind)
    }

    /// The plan is hidden until an `actions` prediction is answered: it is
    /// the answer.
    pub fn conceals_plan(self) -> bool {
        self == ExerciseKind::Actions
    }

    /// The simulation is hidden until a prediction about the loop is
    /// answered, and for `actions` too: its first pass shows the plan.
    /// Hidden, its Step and Run cannot give the answer away either.
    pub fn conceals_simulation(self) -> bool {
        self != ExerciseKind::Choice
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Choice {
    pub text: String,
    pub correct: bool,
    /// Why this choice is right or wrong; shown after checking.
    pub why: String,
}

/// The result of checking a prediction.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Feedback {
    pub correct: bool,
    /// What a first wrong answer shows: a nudge that gives nothing of the
    /// answer away, so that a second try means something.
    pub hint: String,
    pub headline: String,
    /// One line per difference, each with its reason.
    pub details: Vec<String>,
}

/// The member names of a lesson file's top level, checked while serde_json
/// reads the text, so that an unknown one is an error with its line and
/// column. Their values are read from core's JSON value of the file by
/// [`Reader`], with the JSON path of any error, as presets are: a serde
/// reader of every lesson type would cost the page ~5 KB gzipped.
struct LessonMembers;

impl<'de> Deserialize<'de> for LessonMembers {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(LessonMembers)
    }
}

impl<'de> Visitor<'de> for LessonMembers {
    type Value = LessonMembers;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a lesson object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self, A::Error> {
        while let Some(name) = map.next_key::<String>()? {
            if !LESSON_MEMBERS.contains(&name.as_str()) {
                return Err(de::Error::unknown_field(&name, &LESSON_MEMBERS));
            }
            map.next_value::<IgnoredAny>()?;
        }
        Ok(self)
    }
}

/// The members a lesson file may have.
const LESSON_MEMBERS: [&str; 7] = [
    "id",
    "title",
    "summary",
    "preset",
    "documents",
    "sim",
    "steps",
];

/// Parses one lesson file and checks its settings with the simulation's
/// options parser; `file` names it in errors.
pub fn parse_lesson(file: &str, text: &str) -> Result<Lesson, ContentError> {
    let lesson = read_lesson(file, text)?;
    data::check_sim(file, lesson.sim.as_ref())?;
    Ok(lesson)
}

/// Reads one lesson file, its settings as given: the page's reader, whose
/// simulation module reads the settings (the shipped lessons are checked
/// with [`parse_lesson`]); `file` names it in errors.
pub fn read_lesson(file: &str, text: &str) -> Result<Lesson, ContentError> {
    data::read::<LessonMembers>(file, text)?;
    let value = data::read_json(file, text)?;
    let reader = Reader::new(file);
    let lesson = reader.object(&value, JsonPath::root(), &LESSON_MEMBERS);
    if lesson.get("steps").is_none() {
        reader.missing(&lesson, "steps");
    }
    let documents = lesson.optional("documents").map(|value| {
        let documents = reader.object(
            value,
            lesson.path_of("documents"),
            &["desired", "observed", "finalizers"],
        );
        Documents {
            desired: reader.string(&documents, "desired"),
            observed: reader.string(&documents, "observed"),
            finalizers: reader
                .optional_string(&documents, "finalizers")
                .unwrap_or_else(|| "null\n".to_owned()),
        }
    });
    let lesson = Lesson {
        id: reader.string(&lesson, "id"),
        title: reader.string(&lesson, "title"),
        summary: reader.string(&lesson, "summary"),
        preset: reader.optional_string(&lesson, "preset"),
        documents,
        sim: reader.sim(&lesson),
        steps: reader
            .items(&lesson, "steps")
            .map(|(path, step)| read_step(&reader, step, path))
            .collect(),
    };
    reader.finish(lesson)
}

fn read_step(reader: &Reader<'_>, value: &Json, path: JsonPath) -> Step {
    let step = reader.object(value, path, &["text", "task", "exercise", "explanation"]);
    Step {
        text: reader.string(&step, "text"),
        task: reader.optional_string(&step, "task"),
        exercise: step
            .optional("exercise")
            .map(|value| read_exercise(reader, value, step.path_of("exercise"))),
        explanation: reader.optional_string(&step, "explanation"),
    }
}

fn read_exercise(reader: &Reader<'_>, value: &Json, path: JsonPath) -> Exercise {
    let exercise = reader.object(
        value,
        path,
        &["kind", "prompt", "options", "pass", "choices"],
    );
    let kind = reader.string(&exercise, "kind");
    let kind = match ExerciseKind::named(&kind) {
        Some(kind) => kind,
        None => {
            reader.fail(
                exercise.path_of("kind"),
                format!("unknown exercise kind {kind:?}; expected actions, passes, choice or pass-actions"),
            );
            ExerciseKind::Choice
        }
    };
    Exercise {
        kind,
        prompt: reader.string(&exercise, "prompt"),
        options: reader.strings(&exercise, "options"),
        pass: reader.optional_count(&exercise, "pass"),
        choices: reader
            .items(&exercise, "choices")
            .map(|(path, choice)| {
                let choice = reader.object(choice, path, &["text", "correct", "why"]);
                Choice {
                    text: reader.string(&choice, "text"),
                    correct: reader.flag(&choice, "correct"),
                    why: reader.string(&choice, "why"),
                }
            })
            .collect(),
    }
}

/// Every shipped lesson, in order, parsed once. A lesson file that does not
/// parse is a bug caught by this crate's tests, so it is skipped here rather
/// than panicking.
#[cfg(feature = "lesson-texts")]
pub fn lessons() -> &'static [Lesson] {
    static LESSONS: std::sync::OnceLock<Vec<Lesson>> = std::sync::OnceLock::new();
    LESSONS.get_or_init(|| data::parse_all(LESSON_FILES, parse_lesson))
}

impl Lesson {
    /// The editor texts the lesson starts from: `[desired, observed, finalizers]`.
    pub fn texts(&self) -> [String; 3] {
        if let Some(documents) = &self.documents {
            return [
                documents.desired.clone(),
                documents.observed.clone(),
                documents.finalizers.clone(),
            ];
        }
        let preset = self
            .preset
            .as_deref()
            .and_then(presets::find)
            .unwrap_or(presets::default_preset());
        [
            preset.desired.to_owned(),
            preset.observed.to_owned(),
            preset.finalizers.to_owned(),
        ]
    }

    /// The simulation settings the lesson starts from, as given.
    pub fn settings(&self) -> SimSettings {
        if let Some(settings) = &self.sim {
            return settings.clone();
        }
        self.preset
            .as_deref()
            .and_then(presets::find)
            .map_or_else(SimSettings::default, |p| p.sim.clone())
    }

    /// The same settings, read by the simulation's options parser.
    pub fn sim_config(&self) -> Result<SimConfig, OptionsError> {
        self.settings().read()
    }

    /// The parsed starting scenario.
    pub fn scenario(&self) -> Result<Scenario, Vec<InputError>> {
        let [desired, observed, finalizers] = self.texts();
        check_scenario_texts(&desired, &observed, &finalizers)
    }
}

/// "KIND name", the way exercises spell an action.
fn spell(kind: ActionKind, name: &str) -> String {
    format!("{} {name}", kind.as_str())
}

/// The differences between a predicted and an actual ordered list of actions:
/// each missing action with its reason, each extra one with why not, and, only
/// when the sets agree, the order.
fn compare_ordered(
    answer: &[String],
    expected: &[String],
    reason_of: impl Fn(usize) -> String,
    why_not: impl Fn(&str) -> String,
    order: impl FnOnce() -> String,
) -> Vec<String> {
    let mut details: Vec<String> = expected
        .iter()
        .enumerate()
        .filter(|(_, spelled)| !answer.contains(spelled))
        .map(|(i, spelled)| format!("Missing {spelled}: {}.", reason_of(i)))
        .collect();
    details.extend(
        answer
            .iter()
            .filter(|given| !expected.contains(given))
            .map(|given| why_not(given)),
    );
    if details.is_empty() && answer != expected {
        details.push(order());
    }
    details
}

/// Checks an ordered list of predicted actions against the plan.
pub fn check_actions(answer: &[String], plan: &Plan) -> Feedback {
    let expected: Vec<String> = plan
        .actions
        .iter()
        .map(|a| spell(a.action.kind, &a.action.name))
        .collect();
    let details = compare_ordered(
        answer,
        &expected,
        |i| plan.actions[i].reason.to_string(),
        |given| format!("{given} is not in the plan: {}", why_not(given, plan)),
        || {
            format!(
                "Right actions, wrong order. The plan is {}: CREATE and UPDATE first, sorted by name \
                 (Unicode code point), then FINALIZE and DELETE, sorted by name.",
                expected.join(", ")
            )
        },
    );
    let correct = details.is_empty();
    let hint = ordered_hint(answer, &expected);
    let headline = if correct && expected.is_empty() {
        "Correct: reconcile returns nothing, because the observed state already matches the \
         desired state."
            .to_owned()
    } else if correct {
        format!("Correct: {}.", plan.summary_text)
    } else {
        format!(
            "Not quite. Reconcile returns {}.",
            if expected.is_empty() {
                "nothing".to_owned()
            } else {
                expected.join(", ")
            }
        )
    };
    Feedback {
        correct,
        hint,
        headline,
        details,
    }
}

/// Why an action the learner expected is not in the plan.
fn why_not(given: &str, plan: &Plan) -> String {
    let name = given.split_once(' ').map_or(given, |(_, name)| name);
    match plan.actions.iter().find(|a| &*a.action.name == name) {
        Some(actual) => format!(
            "{name} gets {} instead ({}).{}",
            actual.action.kind.as_str(),
            actual.reason,
            api_mapping(given, actual.action.kind)
        ),
        None => format!("{name} needs no action: it is either in sync or not involved."),
    }
}

/// How FINALIZE and DELETE map to the real API, when the learner mixed them
/// up: both are one delete request; the API server's registry store only
/// sets `deletionTimestamp` while finalizers are pending
/// (`staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go`,
/// `updateForGracefulDeletionAndFinalizers`).
fn api_mapping(given: &str, actual: ActionKind) -> &'static str {
    match (given.split_once(' ').map(|(kind, _)| kind), actual) {
        (Some("DELETE"), ActionKind::Finalize) => {
            " FINALIZE is this playground's word for the delete request sent to an object whose \
             finalizers are still pending: the API server only sets its deletionTimestamp, and \
             keeps the object until the last finalizer is removed."
        }
        (Some("FINALIZE"), ActionKind::Delete) => {
            " DELETE is the same delete request as FINALIZE, sent to an object with no \
             finalizers pending: the API server removes it at once."
        }
        _ => "",
    }
}

/// A nudge after a wrong list of actions: how many are right, missing or
/// unexpected, or that only the order is wrong; never which ones.
fn ordered_hint(answer: &[String], expected: &[String]) -> String {
    let right = answer.iter().filter(|a| expected.contains(a)).count();
    let extra = answer.len() - right;
    let missing = expected.iter().filter(|e| !answer.contains(e)).count();
    let actions = |n: usize| plural(n, "action", "actions");
    match (extra, missing) {
        (0, 0) if answer != expected => {
            "Not quite: these are the right actions, in the wrong order. In what order does \
             reconcile return them?"
                .to_owned()
        }
        (0, 0) => "Correct.".to_owned(),
        (0, missing) => format!(
            "Not quite: everything you picked is right, but {} missing.",
            if missing == 1 {
                "1 action is".to_owned()
            } else {
                format!("{missing} actions are")
            }
        ),
        (extra, 0) => format!(
            "Not quite: {} of your answer should not be there.",
            actions(extra)
        ),
        (extra, missing) => format!(
            "Not quite: {} of your answer should not be there, and {} missing.",
            actions(extra),
            if missing == 1 {
                "1 action is".to_owned()
            } else {
                format!("{missing} actions are")
            }
        ),
    }
}

/// Checks a predicted number of passes against the simulation.
pub fn check_passes(answer: usize, timeline: &Timeline) -> Feedback {
    match &timeline.verdict {
        Verdict::Converged { passes, .. } => {
            let correct = answer == *passes;
            let headline = if correct {
                format!("Correct: it converges after {passes} passes.")
            } else {
                format!("Not quite: it converges after {passes} passes, not {answer}.")
            };
            let hint = match answer.cmp(passes) {
                std::cmp::Ordering::Less => format!(
                    "Not quite: it takes more than {}.",
                    plural(answer, "pass", "passes")
                ),
                std::cmp::Ordering::Greater => format!(
                    "Not quite: it takes fewer than {}.",
                    plural(answer, "pass", "passes")
                ),
                std::cmp::Ordering::Equal => headline.clone(),
            };
            Feedback {
                correct,
                hint,
                headline,
                details: quiet_passes(timeline)
                    .into_iter()
                    .chain(stale_repeats(timeline))
                    .collect(),
            }
        }
        Verdict::NotConverging { reason } => Feedback {
            correct: false,
            hint: "Not quite: does this loop converge at all? Think about what each pass finds."
                .to_owned(),
            headline: format!("It never converges: {reason}."),
            details: Vec::new(),
        },
    }
}

/// Why passes that found nothing to do ran at all.
fn quiet_passes(timeline: &Timeline) -> Vec<String> {
    let quiet = || timeline.passes.iter().filter(|p| p.actions.is_empty());
    let echoes = quiet()
        .filter(|p| matches!(p.trigger, Trigger::OwnedObject { .. }))
        .count();
    let mut details = Vec::new();
    match echoes {
        0 => {}
        1 => details.push(
            "1 of them found nothing to do: it ran because the controller's own write raised a \
             watch event, and reconcile confirmed the world was in sync."
                .to_owned(),
        ),
        n => details.push(format!(
            "{n} of them found nothing to do: they ran because the controller's own writes raised \
             watch events, and reconcile confirmed the world was in sync."
        )),
    }
    for pass in quiet().filter(|p| !matches!(p.trigger, Trigger::OwnedObject { .. })) {
        details.push(format!(
            "Pass {} ({}) found nothing to do: the world was already in sync.",
            pass.index, pass.trigger
        ));
    }
    details
}

/// Passes that repeated an action because they read a cache that had not
/// yet received the watch event of an earlier write.
fn stale_repeats(timeline: &Timeline) -> Vec<String> {
    let mut details = Vec::new();
    for pass in timeline.passes.iter().skip(1) {
        for outcome in &pass.actions {
            let spelled = spell(outcome.action.kind, &outcome.action.name);
            let detail = match (&outcome.result, outcome.action.kind) {
                (ActionResult::AlreadyGone, _) => format!(
                    "Pass {} sent {spelled} again: its informer's cache had not yet received the \
                     watch event of the delete; the API server answered 404 Not Found, which the \
                     controller takes as done.",
                    pass.index
                ),
                (ActionResult::Failed { code: 409, .. }, ActionKind::Create) => format!(
                    "Pass {} sent {spelled} again: its informer's cache had not yet received the \
                     watch event of the create; the API server answered 409 AlreadyExists, an \
                     error, so the key was requeued with backoff.",
                    pass.index
                ),
                (ActionResult::Failed { code: 409, .. }, _) => format!(
                    "Pass {} sent {spelled} with the resourceVersion its cache held, which a later \
                     write had outdated: 409 Conflict, an error, so the key was requeued.",
                    pass.index
                ),
                _ => continue,
            };
            details.push(detail);
        }
    }
    details
}

/// Checks an ordered list of predicted actions for pass `pass` (1-based) of the simulation.
pub fn check_pass_actions(answer: &[String], pass: usize, timeline: &Timeline) -> Feedback {
    let Some(record) = pass.checked_sub(1).and_then(|i| timeline.passes.get(i)) else {
        let headline = format!(
            "There is no pass {pass}: this run ends after {} ({}).",
            plural(timeline.passes.len(), "pass", "passes"),
            timeline.verdict
        );
        return Feedback {
            correct: false,
            hint: headline.clone(),
            headline,
            details: Vec::new(),
        };
    };
    let expected: Vec<String> = record
        .actions
        .iter()
        .map(|o| spell(o.action.kind, &o.action.name))
        .collect();
    let mut details = compare_ordered(
        answer,
        &expected,
        |i| kind_reason(record.actions[i].action.kind).to_string(),
        |given| {
            format!(
                "{given} is not in pass {pass}: {}",
                why_not_in_pass(given, record)
            )
        },
        || {
            format!(
                "Right actions, wrong order. Pass {pass} returned {}: CREATE and UPDATE first, sorted \
                 by name, then FINALIZE and DELETE, sorted by name.",
                expected.join(", ")
            )
        },
    );
    let correct = details.is_empty();
    let hint = ordered_hint(answer, &expected);
    let returned = if expected.is_empty() {
        "nothing".to_owned()
    } else {
        expected.join(", ")
    };
    let headline = if correct {
        format!(
            "Correct: pass {pass} (why: {}) returned {returned}.",
            record.trigger
        )
    } else {
        format!(
            "Not quite. Pass {pass} (why: {}) returned {returned}.",
            record.trigger
        )
    };
    // What became of the actions that did not simply apply.
    for (outcome, spelled) in record.actions.iter().zip(&expected) {
        let what = match &outcome.result {
            ActionResult::Applied => continue,
            ActionResult::AlreadyTerminating => {
                format!("{spelled} wrote nothing: it was already terminating.")
            }
            ActionResult::Unchanged => format!(
                "{spelled} wrote nothing: with the API server's defaults filled in, it was \
                 what the server stored."
            ),
            ActionResult::Failed {
                requeued_at,
                code,
                error,
            } => format!(
                "{spelled} failed ({code}: {error}), so the pass returned the error and the \
                 key was requeued for t = {}.",
                format_millis(*requeued_at)
            ),
            ActionResult::AlreadyGone => format!("{spelled} found it gone already (404): done."),
            ActionResult::NotAttempted => {
                format!("{spelled} was not attempted: an earlier action of the pass failed.")
            }
            ActionResult::LostInCrash => {
                format!("{spelled} was never sent: the controller crashed first.")
            }
        };
        details.push(what);
    }
    if record.crashed {
        details.push(format!("The controller crashed during pass {pass}."));
    }
    Feedback {
        correct,
        hint,
        headline,
        details,
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The rule behind an action, as it held when the pass started.
fn kind_reason(kind: ActionKind) -> &'static str {
    match kind {
        ActionKind::Create => "when the pass started, it was desired but not observed",
        ActionKind::Update => {
            "when the pass started, its observed spec differed from the desired one"
        }
        ActionKind::Finalize => {
            "when the pass started, it was no longer desired and finalizers were still pending"
        }
        ActionKind::Delete => {
            "when the pass started, it was no longer desired and no finalizers were pending"
        }
    }
}

/// Why an action the learner expected in a pass is not in it.
fn why_not_in_pass(given: &str, record: &PassRecord) -> String {
    let name = given.split_once(' ').map_or(given, |(_, name)| name);
    match record.actions.iter().find(|o| &*o.action.name == name) {
        Some(actual) => format!(
            "{name} gets {} in that pass instead.",
            actual.action.kind.as_str()
        ),
        None => format!(
            "{name} needed no action when the pass started: reconcile reads the current state, \
             and {name} already matched what was desired (or was not involved)."
        ),
    }
}

/// Checks a choice by its index.
pub fn check_choice(index: usize, exercise: &Exercise) -> Feedback {
    let Some(choice) = exercise.choices.get(index) else {
        return Feedback {
            correct: false,
            hint: "Choose an answer first.".to_owned(),
            headline: "Choose an answer first.".to_owned(),
            details: Vec::new(),
        };
    };
    let headline = if choice.correct {
        "Correct."
    } else {
        "Not quite."
    };
    let mut details = vec![choice.why.clone()];
    if !choice.correct {
        if let Some(right) = exercise.choices.iter().find(|c| c.correct) {
            details.push(format!("The answer: {} {}", right.text, right.why));
        }
    }
    Feedback {
        correct: choice.correct,
        // A wrong choice's own "why" says what is wrong with it, not which is right.
        hint: format!("{headline} {}", choice.why),
        headline: headline.to_owned(),
        details,
    }
}

/// The plan and the simulation of a lesson's starting point; or what is
/// wrong with its documents or its settings.
pub fn lesson_outcomes(lesson: &Lesson) -> Result<(Plan, Timeline), String> {
    let scenario = lesson.scenario().map_err(|errors| format!("{errors:?}"))?;
    let config = lesson.sim_config().map_err(|error| error.to_string())?;
    let plan = plan(
        &scenario.desired,
        &scenario.observed,
        scenario.finalizers.as_ref(),
    );
    Ok((plan, simulate(&scenario, &config)))
}

#[cfg(all(test, feature = "lesson-texts"))]
mod tests {
    use super::*;

    /// A shipped lesson file with one piece of its text replaced.
    fn edited_lesson(name: &str, from: &str, to: &str) -> Result<Lesson, String> {
        let (file, text) = LESSON_FILES
            .iter()
            .find(|(file, _)| file.ends_with(name))
            .expect("lesson file");
        assert!(text.contains(from), "{file} has no {from}");
        parse_lesson(file, &text.replacen(from, to, 1)).map_err(|e| e.to_string())
    }

    #[test]
    fn a_misspelt_setting_in_a_lesson_names_the_file_and_path() {
        let error = edited_lesson("07-backoff.json", r#""failureRate""#, r#""failureRat""#)
            .expect_err("a misspelt option is an error");
        assert!(
            error.starts_with(
                r#"lessons/07-backoff.json at $.sim: unknown option "failureRat"; expected one of seed, maxPasses,"#
            ),
            "{error}"
        );
        let error = edited_lesson(
            "04-idempotency.json",
            r#""afterActions""#,
            r#""afterAction""#,
        )
        .expect_err("a misspelt nested setting is an error");
        assert!(
            error.starts_with(
                "lessons/04-idempotency.json at $.sim.crash: unknown field `afterAction`"
            ),
            "{error}"
        );
        let error = edited_lesson("04-idempotency.json", r#""steps""#, r#""step""#)
            .expect_err("a misspelt lesson member is an error");
        assert!(
            error.starts_with("lessons/04-idempotency.json: line ")
                && error.contains(", column 8: unknown field `step`"),
            "{error}"
        );
    }

    #[test]
    fn a_mistake_below_a_lessons_top_level_names_its_json_path() {
        let error = edited_lesson("04-idempotency.json", r#""prompt""#, r#""promt""#)
            .expect_err("a misspelt exercise member is an error");
        assert!(
            error.starts_with("lessons/04-idempotency.json at $.steps[")
                && error.ends_with(
                    r#"].exercise.promt: unknown member "promt"; expected one of kind, prompt, options, pass, choices"#
                ),
            "{error}"
        );
        let error = edited_lesson("01-four-actions.json", r#""kind": "#, r#""kind": 1, "x": "#)
            .expect_err("a wrong type is an error");
        assert!(
            error.contains(r#".exercise.x: unknown member "x""#),
            "the first mistake is the one reported: {error}"
        );
        let error = edited_lesson(
            "01-four-actions.json",
            r#""text": "#,
            r#""text": 7, "task": "#,
        )
        .expect_err("a repeated member is an error");
        assert!(
            error.starts_with("lessons/01-four-actions.json: line "),
            "{error}"
        );
        let error = edited_lesson("01-four-actions.json", r#""steps": ["#, r#""steps": [7, "#)
            .expect_err("a step that is not an object is an error");
        assert_eq!(
            error,
            "lessons/01-four-actions.json at $.steps[0]: expected an object"
        );
        let error = edited_lesson("01-four-actions.json", r#""steps""#, r#""step""#)
            .expect_err("a lesson without steps is an error");
        assert!(error.contains("unknown field `step`"), "{error}");
        let error = parse_lesson("x.json", r#"{"id": "x", "title": "X", "summary": "."}"#)
            .expect_err("steps are not optional")
            .to_string();
        assert_eq!(error, r#"x.json at $: missing member "steps""#);
    }

    #[test]
    fn no_task_asks_for_what_its_exercise_hides() {
        // Words that send the learner to the plan or to the simulation.
        const PLAN: &[&str] = &["plan", "action list"];
        const SIMULATION: &[&str] = &[
            "Run",
            "Step",
            "timeline",
            "status grid",
            "Faults and settings",
            "Reset",
            "verdict",
            "pass ",
        ];
        let mut wrong = Vec::new();
        for lesson in lessons() {
            for (i, step) in lesson.steps.iter().enumerate() {
                let (Some(exercise), Some(task)) = (&step.exercise, &step.task) else {
                    continue;
                };
                let mut hidden: Vec<&str> = Vec::new();
                if exercise.kind.conceals_plan() {
                    hidden.extend(PLAN);
                }
                if exercise.kind.conceals_simulation() {
                    hidden.extend(SIMULATION);
                }
                let asks = hidden.iter().find(|word| task.contains(**word));
                if let Some(word) = asks.filter(|_| !task.starts_with("After checking")) {
                    wrong.push(format!(
                        "{} step {}: {word:?} in {task:?}",
                        lesson.id,
                        i + 1
                    ));
                }
            }
        }
        assert!(
            wrong.is_empty(),
            "tasks that send the learner to what the exercise hides must start with \
             \"After checking\":\n{}",
            wrong.join("\n")
        );
    }

    #[test]
    fn a_hint_never_gives_the_answer_away() {
        for lesson in lessons() {
            let (plan, timeline) = lesson_outcomes(lesson).expect("valid lesson");
            for step in &lesson.steps {
                let Some(exercise) = &step.exercise else {
                    continue;
                };
                match exercise.kind {
                    ExerciseKind::Choice => {
                        let right = exercise.choices.iter().find(|c| c.correct).unwrap();
                        for (i, choice) in exercise.choices.iter().enumerate() {
                            let feedback = check_choice(i, exercise);
                            if !choice.correct {
                                assert!(!feedback.hint.contains(&right.text), "{}", lesson.id);
                            }
                        }
                    }
                    ExerciseKind::Actions | ExerciseKind::PassActions => {
                        // Every single option, and none, as wrong answers.
                        let answers = exercise.options.iter().map(|o| vec![o.clone()]);
                        for answer in answers.chain([Vec::new()]) {
                            let feedback = if exercise.kind == ExerciseKind::Actions {
                                check_actions(&answer, &plan)
                            } else {
                                check_pass_actions(&answer, exercise.pass.unwrap(), &timeline)
                            };
                            let named = exercise
                                .options
                                .iter()
                                .find(|o| feedback.hint.contains(o.as_str()));
                            assert!(
                                feedback.correct || named.is_none(),
                                "{}: {:?}",
                                lesson.id,
                                feedback.hint
                            );
                        }
                    }
                    ExerciseKind::Passes => {
                        let Verdict::Converged { passes, .. } = timeline.verdict else {
                            continue;
                        };
                        for answer in [1, passes + 1] {
                            let hint = check_passes(answer, &timeline).hint;
                            assert!(!hint.contains(&passes.to_string()), "{}: {hint}", lesson.id);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn mixing_up_finalize_and_delete_says_how_they_map_to_the_api() {
        let plan = plan_of(
            r#"{}"#,
            r#"{"svc": {"type": "LoadBalancer"}}"#,
            r#"{"svc": ["service.kubernetes.io/load-balancer-cleanup"]}"#,
        );
        let feedback = check_actions(&["DELETE svc".to_owned()], &plan);
        assert!(!feedback.correct);
        assert!(
            feedback
                .details
                .iter()
                .any(|d| d.contains("sets its deletionTimestamp")),
            "{:?}",
            feedback.details
        );
        assert_eq!(
            feedback.hint,
            "Not quite: 1 action of your answer should not be there, and 1 action is missing."
        );
    }

    #[test]
    fn every_lesson_parses_starts_valid_and_has_answerable_exercises() {
        assert_eq!(
            lessons().len(),
            LESSON_FILES.len(),
            "a lesson file does not parse"
        );
        for (file, text) in LESSON_FILES {
            let lesson = parse_lesson(file, text).unwrap_or_else(|e| panic!("{e}"));
            let (plan, timeline) =
                lesson_outcomes(&lesson).unwrap_or_else(|e| panic!("{}: {e:?}", lesson.id));
            assert!(!lesson.steps.is_empty(), "{} has no steps", lesson.id);
            for step in &lesson.steps {
                let Some(exercise) = &step.exercise else {
                    // An explanation waits for an answer; without an exercise it would never show.
                    assert!(
                        step.explanation.is_none(),
                        "{}: explanation without an exercise",
                        lesson.id
                    );
                    continue;
                };
                match exercise.kind {
                    ExerciseKind::Actions => {
                        // The right answer must be pickable from the offered options.
                        let expected: Vec<String> = plan
                            .actions
                            .iter()
                            .map(|a| spell(a.action.kind, &a.action.name))
                            .collect();
                        for action in &expected {
                            assert!(
                                exercise.options.contains(action),
                                "{}: option {action} missing",
                                lesson.id
                            );
                        }
                        assert!(check_actions(&expected, &plan).correct);
                    }
                    ExerciseKind::Passes => {
                        assert!(
                            matches!(timeline.verdict, Verdict::Converged { .. }),
                            "{}",
                            lesson.id
                        );
                    }
                    ExerciseKind::Choice => {
                        assert_eq!(
                            exercise.choices.iter().filter(|c| c.correct).count(),
                            1,
                            "{}",
                            lesson.id
                        );
                    }
                    ExerciseKind::PassActions => {
                        // The pass must exist in the lesson's own run, and its
                        // actions must be pickable from the offered options.
                        let pass = exercise.pass.expect("pass-actions needs a pass");
                        let record = pass
                            .checked_sub(1)
                            .and_then(|i| timeline.passes.get(i))
                            .unwrap_or_else(|| panic!("{}: there is no pass {pass}", lesson.id));
                        let expected: Vec<String> = record
                            .actions
                            .iter()
                            .map(|o| spell(o.action.kind, &o.action.name))
                            .collect();
                        for action in &expected {
                            assert!(
                                exercise.options.contains(action),
                                "{}: option {action} missing for pass {pass}",
                                lesson.id
                            );
                        }
                        assert!(check_pass_actions(&expected, pass, &timeline).correct);
                    }
                }
                if exercise.kind != ExerciseKind::PassActions {
                    assert!(
                        exercise.pass.is_none(),
                        "{}: pass is for pass-actions",
                        lesson.id
                    );
                }
            }
        }
    }

    fn plan_of(desired: &str, observed: &str, finalizers: &str) -> Plan {
        let scenario = check_scenario_texts(desired, observed, finalizers).expect("valid");
        plan(
            &scenario.desired,
            &scenario.observed,
            scenario.finalizers.as_ref(),
        )
    }

    fn seed_plan() -> Plan {
        plan_of(
            r#"{"a":{"replicas":1},"b":{"replicas":3}}"#,
            r#"{"b":{"replicas":1},"c":{"replicas":1}}"#,
            "null",
        )
    }

    #[test]
    fn actions_feedback_names_the_rule() {
        let plan = seed_plan();
        let right: Vec<String> = ["CREATE a", "UPDATE b", "DELETE c"]
            .map(String::from)
            .to_vec();
        assert!(check_actions(&right, &plan).correct);

        let wrong_order: Vec<String> = ["DELETE c", "CREATE a", "UPDATE b"]
            .map(String::from)
            .to_vec();
        let feedback = check_actions(&wrong_order, &plan);
        assert!(!feedback.correct);
        assert!(feedback.details[0].starts_with("Right actions, wrong order."));

        let missing_and_extra: Vec<String> = ["CREATE a", "FINALIZE c"].map(String::from).to_vec();
        let feedback = check_actions(&missing_and_extra, &plan);
        assert_eq!(
            feedback.details,
            vec![
                "Missing UPDATE b: observed spec differs from desired in 1 field.".to_owned(),
                "Missing DELETE c: no longer desired, and it has no finalizers.".to_owned(),
                "FINALIZE c is not in the plan: c gets DELETE instead (no longer desired, and it has no \
                 finalizers). DELETE is the same delete request as FINALIZE, sent to an object with \
                 no finalizers pending: the API server removes it at once."
                    .to_owned(),
            ]
        );
    }

    #[test]
    fn passes_and_choice_feedback() {
        let lesson = parse_lesson(LESSON_FILES[0].0, LESSON_FILES[0].1).expect("parses");
        let (_, timeline) = lesson_outcomes(&lesson).expect("valid");
        let Verdict::Converged { passes, .. } = timeline.verdict else {
            panic!("converges")
        };
        assert!(check_passes(passes, &timeline).correct);
        let wrong = check_passes(passes + 5, &timeline);
        assert!(!wrong.correct);
        assert!(wrong.headline.contains(&format!("after {passes} passes")));

        let exercise = Exercise {
            kind: ExerciseKind::Choice,
            prompt: "?".into(),
            options: Vec::new(),
            pass: None,
            choices: vec![
                Choice {
                    text: "yes".into(),
                    correct: true,
                    why: "because".into(),
                },
                Choice {
                    text: "no".into(),
                    correct: false,
                    why: "nope".into(),
                },
            ],
        };
        assert!(check_choice(0, &exercise).correct);
        let feedback = check_choice(1, &exercise);
        assert!(!feedback.correct);
        assert_eq!(
            feedback.details,
            vec!["nope".to_owned(), "The answer: yes because".to_owned()]
        );
        assert!(!check_choice(9, &exercise).correct);
    }

    #[test]
    fn pass_actions_are_checked_against_the_simulated_pass() {
        use reconcile_sim::CrashPlan;
        // The seed example, crashing after its first action: pass 2 (after the
        // restart) does only what pass 1 left undone.
        let scenario = Scenario {
            desired: reconcile_core::parse_resources(
                reconcile_core::Document::Desired,
                r#"{"a":1,"b":2}"#,
            )
            .expect("desired"),
            observed: reconcile_core::parse_resources(
                reconcile_core::Document::Observed,
                r#"{"c":3}"#,
            )
            .expect("observed"),
            finalizers: None,
        };
        let config = SimConfig {
            crash: Some(CrashPlan {
                at_pass: 1,
                after_actions: 1,
            }),
            ..SimConfig::default()
        };
        let timeline = simulate(&scenario, &config);
        let answer = |list: &[&str]| list.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();

        let right = check_pass_actions(&answer(&["CREATE b", "DELETE c"]), 2, &timeline);
        assert!(right.correct, "{right:?}");
        assert_eq!(
            right.headline,
            "Correct: pass 2 (why: custom resource listed after the controller restarted) \
             returned CREATE b, DELETE c."
        );

        let wrong = check_pass_actions(&answer(&["CREATE a", "CREATE b"]), 2, &timeline);
        assert!(!wrong.correct);
        assert_eq!(
            wrong.details,
            vec![
                "Missing DELETE c: when the pass started, it was no longer desired and no \
                 finalizers were pending."
                    .to_owned(),
                "CREATE a is not in pass 2: a needed no action when the pass started: reconcile \
                 reads the current state, and a already matched what was desired (or was not \
                 involved)."
                    .to_owned(),
            ]
        );
        let order = check_pass_actions(&answer(&["DELETE c", "CREATE b"]), 2, &timeline);
        assert!(order.details[0].starts_with("Right actions, wrong order."));

        // Pass 1 lost two actions in the crash; the feedback says so.
        let first =
            check_pass_actions(&answer(&["CREATE a", "CREATE b", "DELETE c"]), 1, &timeline);
        assert!(first.correct);
        assert!(first
            .details
            .contains(&"CREATE b was never sent: the controller crashed first.".to_owned()));

        let missing = check_pass_actions(&[], 99, &timeline);
        assert!(!missing.correct);
        assert!(missing
            .headline
            .starts_with("There is no pass 99: this run ends after"));
    }

    #[test]
    fn pass_actions_parse_from_the_wire() {
        let reader = Reader::new("test");
        let exercise = read_exercise(
            &reader,
            &reconcile_core::parse::parse_json_value(
                r#"{"kind": "pass-actions", "prompt": "?", "pass": 2, "options": ["CREATE a"]}"#,
            )
            .expect("JSON"),
            JsonPath::root(),
        );
        let exercise = reader.finish(exercise).expect("parses");
        assert_eq!(exercise.kind, ExerciseKind::PassActions);
        assert_eq!(exercise.pass, Some(2));
    }

    /// Choice answers are stored text, so each claim they make about a
    /// lesson's own run is checked against the simulator here.
    #[test]
    fn choice_answers_agree_with_the_simulator() {
        use reconcile_sim::{compare_level_edge, Millis, NotConvergingReason as Why};
        let find = |id: &str| {
            lessons()
                .iter()
                .find(|l| l.id == id)
                .cloned()
                .unwrap_or_else(|| panic!("lesson {id}"))
        };
        let sim_scenario = |lesson: &Lesson| lesson.scenario().expect("valid");
        let spelled = |record: &PassRecord| -> Vec<String> {
            record
                .actions
                .iter()
                .map(|o| spell(o.action.kind, &o.action.name))
                .collect()
        };

        // Idempotency: the edge handler's blind CREATE cache-0 is refused.
        let lesson = find("idempotency");
        let level_edge = compare_level_edge(
            &sim_scenario(&lesson),
            &lesson.sim_config().expect("settings"),
        );
        assert!(level_edge.steps[0]
            .edge_actions
            .iter()
            .any(|(a, r)| &*a.name == "cache-0" && r == "rejected: AlreadyExists"));

        // Level vs edge: the scale-down happens while the controller is down;
        // the edge handler never hears of it and keeps web-1, the loop
        // deletes it after the restart (the step where they diverge).
        let lesson = find("level-vs-edge");
        let level_edge = compare_level_edge(
            &sim_scenario(&lesson),
            &lesson.sim_config().expect("settings"),
        );
        assert!(level_edge.steps[1].missed);
        assert_eq!(
            level_edge.steps[2].event,
            "the controller restarted and listed what exists"
        );
        assert_eq!(level_edge.first_divergence, Some(2));
        assert!(level_edge
            .edge_final
            .iter()
            .any(|s| s.name == "web-1" && s.state == reconcile_sim::SyncState::Extra));
        assert!(matches!(
            level_edge.level.verdict,
            Verdict::Converged { .. }
        ));

        // Triggers: no trigger without a watch or resync; with a 10 s resync
        // (jittered by a factor in [0.9, 1.1)), cache-0 (deleted at 28 ms)
        // comes back in a resync pass at about t = 10 s.
        let lesson = find("triggers");
        let (_, timeline) = lesson_outcomes(&lesson).expect("valid");
        assert!(matches!(
            timeline.verdict,
            Verdict::NotConverging {
                reason: Why::NoTrigger { out_of_sync: 1 }
            }
        ));
        let mut config = lesson.sim_config().expect("settings");
        config.resync_period_ms = Some(10_000);
        let timeline = simulate(&sim_scenario(&lesson), &config);
        let resync = &timeline.passes[2];
        assert_eq!(resync.trigger, Trigger::Resync);
        assert!((9_000..11_000).contains(&resync.started_at));
        assert_eq!(spelled(resync), vec!["CREATE cache-0"]);
        assert!(timeline
            .log
            .iter()
            .any(|e| e.at == 28 && matches!(&e.what, reconcile_sim::Happening::ActorEvent { .. })));

        // Backoff: passes 1-4 fail and wait 5, 10, 20, 40 ms; pass 5 succeeds.
        let lesson = find("backoff");
        let (_, timeline) = lesson_outcomes(&lesson).expect("valid");
        let waits: Vec<Millis> = timeline.passes[..4]
            .iter()
            .map(|p| match p.actions[0].result {
                ActionResult::Failed { requeued_at, .. } => requeued_at - p.finished_at,
                _ => panic!("pass {} should fail", p.index),
            })
            .collect();
        assert_eq!(waits, vec![5, 10, 20, 40]);
        assert_eq!(timeline.passes[4].actions[0].result, ActionResult::Applied);
        assert_eq!(
            reconcile_sim::BackoffPolicy::default().item_delay(17),
            655_360,
            "the 18th failure"
        );
        assert_eq!(
            reconcile_sim::BackoffPolicy::default().item_delay(18),
            1_000_000
        );

        // Fighting controllers: an oscillation over $.replicas with the autoscaler.
        let lesson = find("fighting-controllers");
        let (_, timeline) = lesson_outcomes(&lesson).expect("valid");
        assert!(matches!(
            &timeline.verdict,
            Verdict::NotConverging { reason: Why::Oscillation { field, other_writer: Some(w), .. } }
                if field == "$.replicas" && w == "autoscaler"
        ));
        fighting_controllers_apply_claims(&lesson);

        // Status: after pass 1 only pod-a exists.
        let lesson = find("status");
        let (_, timeline) = lesson_outcomes(&lesson).expect("valid");
        let names: Vec<&str> = timeline.passes[0].world_after.observed.names().collect();
        assert_eq!(names, vec!["pod-a"]);

        status_loop_claims(&find("status-loop"));
    }

    /// Lesson 8's claims about server-side apply: the conflict named, the
    /// forced fight, and the fight's end once replicas is not applied.
    fn fighting_controllers_apply_claims(lesson: &Lesson) {
        use reconcile_sim::{NotConvergingReason as Why, ObjectWrites};
        let scenario = lesson.scenario().expect("valid");
        let with = |writes: ObjectWrites| {
            let mut config = lesson.sim_config().expect("settings");
            config.writes = writes;
            config
        };
        let applied = simulate(&scenario, &with(ObjectWrites::Apply));
        let pass2 = &applied.passes[1].actions[0].result;
        assert!(
            matches!(pass2, ActionResult::Failed { code: 409, error, .. }
                if error == r#"Apply failed with 1 conflict: conflict with "autoscaler": .spec.replicas"#),
            "{pass2:?}"
        );
        let forced = simulate(&scenario, &with(ObjectWrites::ForceApply));
        assert!(matches!(
            &forced.verdict,
            Verdict::NotConverging { reason: Why::Oscillation { field, .. } } if field == "$.replicas"
        ));
        let mut image_only = scenario.clone();
        image_only.desired = reconcile_core::parse_resources(
            reconcile_core::Document::Desired,
            r#"{"web": {"image": "web:1.4"}}"#,
        )
        .expect("valid");
        let ended = simulate(&image_only, &with(ObjectWrites::Apply));
        assert!(
            matches!(ended.verdict, Verdict::Converged { .. }),
            "{}",
            ended.verdict
        );
        let web = ended.final_world.observed.get("web").expect("web");
        assert_eq!(
            web.to_compact_string(),
            r#"{"replicas":5,"image":"web:1.4"}"#
        );
    }

    /// Lesson 14's claims about its own run, and about the two fixes its tasks try.
    fn status_loop_claims(lesson: &Lesson) {
        use reconcile_sim::{NotConvergingReason as Why, StatusWrites, Trigger};
        let scenario = lesson.scenario().expect("valid");
        let (_, timeline) = lesson_outcomes(lesson).expect("valid");
        // Pass 1 creates web-1 and writes status; pass 2 (web-1's event) gets
        // 409 on its status write; pass 3 runs on pass 1's status write.
        let written = |i: usize| timeline.passes[i].status_write.as_ref().map(|w| &w.result);
        assert_eq!(written(0), Some(&ActionResult::Applied));
        assert!(matches!(
            written(1),
            Some(ActionResult::Failed { code: 409, .. })
        ));
        assert_eq!(timeline.passes[2].trigger, Trigger::CustomResourceStatus);
        assert!(timeline.passes[1..]
            .iter()
            .all(|p| p.actions.is_empty() && p.out_of_sync == 0));
        // A hot loop, and the generation stays 1 while resourceVersion climbs.
        assert!(matches!(
            &timeline.verdict,
            Verdict::NotConverging {
                reason: Why::StatusHotLoop { .. }
            }
        ));
        let cr = timeline
            .final_world
            .get(&reconcile_sim::ownership::ObjectKey::the_custom_resource())
            .expect("the custom resource");
        assert_eq!(cr.meta.generation, 1);
        assert!(cr.meta.resource_version > timeline.passes.len() as u64 / 2);
        let status = reconcile_sim::status::stored_status(
            &timeline.final_world,
            reconcile_sim::ownership::CUSTOM_RESOURCE,
        )
        .expect("written");
        assert_eq!(
            status
                .get("observedGeneration")
                .map(Json::to_compact_string)
                .as_deref(),
            Some("1")
        );
        // Fix 1: no timestamp; the last status write changes nothing.
        let mut config = lesson.sim_config().expect("settings");
        config.status_writes = StatusWrites::ObservedGeneration;
        let fixed = simulate(&scenario, &config);
        assert!(
            matches!(fixed.verdict, Verdict::Converged { .. }),
            "{}",
            fixed.verdict
        );
        assert!(fixed
            .passes
            .iter()
            .any(|p| p.trigger == Trigger::CustomResourceStatus
                && p.status_write.as_ref().map(|w| &w.result) == Some(&ActionResult::Unchanged)));
        // Fix 2: the timestamp stays, the predicate drops same-generation updates.
        let mut config = lesson.sim_config().expect("settings");
        config.generation_changed_predicate = true;
        let filtered = simulate(&scenario, &config);
        assert!(
            matches!(filtered.verdict, Verdict::Converged { .. }),
            "{}",
            filtered.verdict
        );
        assert!(filtered
            .passes
            .iter()
            .all(|p| p.trigger != Trigger::CustomResourceStatus));
    }
}
#[cfg(all(test, feature = "lesson-texts"))]
mod lesson_claims {
    use super::*;

    /// Lesson 7 says the requeue delays are the curve's 5, 10, 20 and 40 ms,
    /// counted from the end of each failed pass, and that the gaps between
    /// the passes' starts are longer by each pass's own time.
    #[test]
    fn the_backoff_lessons_numbers_hold() {
        let lesson = lessons()
            .iter()
            .find(|l| l.id == "backoff")
            .expect("lesson");
        let task = lesson.steps[0].task.as_deref().unwrap_or_default();
        let (_, timeline) = lesson_outcomes(lesson).expect("valid");
        let mut delays = Vec::new();
        for pair in timeline.passes.windows(2) {
            let [pass, next] = pair else { continue };
            let Some(ActionResult::Failed { requeued_at, .. }) =
                pass.actions.first().map(|a| &a.result)
            else {
                continue;
            };
            let delay = requeued_at - pass.finished_at;
            let duration = pass.finished_at - pass.started_at;
            assert_eq!(next.started_at - pass.started_at, delay + duration);
            assert!(task.contains(&format!("{duration} ms")), "{task}");
            delays.push(delay);
        }
        assert_eq!(delays, [5, 10, 20, 40]);
        assert!(task.contains("5, 10, 20 and 40 ms"), "{task}");
    }

    /// Lesson 14's claims about its own run, in each naming mode: pass 2
    /// re-creates web-1 (409 with deterministic names, 4 passes); with
    /// generateName pass 2 makes a duplicate that pass 4 deletes; with
    /// expectations pass 2 is skipped waiting for 1 creation, 3 passes, one
    /// pod; with KEP-5647's consistency store pass 2 is deferred (cache at
    /// resourceVersion 3, its CREATE at 4) and no duplicate is made.
    #[test]
    fn the_stale_cache_lessons_claims_hold() {
        use reconcile_core::reconcile::ActionKind;
        use reconcile_sim::{ObjectNaming, PassSkip};
        let lesson = lessons()
            .iter()
            .find(|l| l.id == "stale-cache")
            .expect("lesson");
        let scenario = lesson.scenario().expect("valid");
        let run = |naming| {
            let mut config = lesson.sim_config().expect("settings");
            config.naming = naming;
            simulate(&scenario, &config)
        };
        let deterministic = run(ObjectNaming::Deterministic);
        assert_eq!(deterministic, lesson_outcomes(lesson).expect("valid").1);
        let pass_2 = &deterministic.passes[1].actions;
        assert_eq!(pass_2.len(), 1);
        assert_eq!(
            spell(pass_2[0].action.kind, &pass_2[0].action.name),
            "CREATE web-1"
        );
        assert!(matches!(
            pass_2[0].result,
            ActionResult::Failed { code: 409, .. }
        ));
        assert!(matches!(
            deterministic.verdict,
            Verdict::Converged { passes: 4, .. }
        ));
        assert_eq!(deterministic.final_world.observed.len(), 2);

        let generated = run(ObjectNaming::GenerateName);
        let duplicate = &generated.passes[1].actions[0];
        assert_eq!(duplicate.action.kind, ActionKind::Create);
        assert_eq!(duplicate.result, ActionResult::Applied);
        let name = duplicate.object.clone().expect("a generated name");
        assert!(name.starts_with("web-1-") && name.len() == "web-1-".len() + 5);
        let pass_4 = &generated.passes[3].actions;
        assert_eq!(pass_4.len(), 1);
        assert_eq!(
            spell(pass_4[0].action.kind, &pass_4[0].action.name),
            format!("DELETE {name}")
        );
        assert_eq!(generated.final_world.observed.len(), 2);

        let expecting = run(ObjectNaming::GenerateNameWithExpectations);
        assert_eq!(
            expecting.passes[1].skipped,
            Some(PassSkip::ExpectingCreations { pending: 1 })
        );
        assert!(expecting.passes[2].actions.is_empty());
        assert!(matches!(
            expecting.verdict,
            Verdict::Converged { passes: 3, .. }
        ));
        assert_eq!(expecting.final_world.observed.len(), 2);

        // Step 6: KEP-5647's consistency store with generateName.
        let mut config = lesson.sim_config().expect("settings");
        config.naming = ObjectNaming::GenerateName;
        config.consistency_store = true;
        let guarded = simulate(&scenario, &config);
        assert!(matches!(
            guarded.passes[1].skipped,
            Some(PassSkip::StaleCache {
                read: 3,
                wrote: 4,
                ..
            })
        ));
        let creates = guarded
            .passes
            .iter()
            .flat_map(|p| &p.actions)
            .filter(|a| a.action.kind == ActionKind::Create)
            .count();
        assert_eq!(creates, 1, "one pod, no duplicate");
        assert!(guarded.passes[2..].iter().all(|p| p.actions.is_empty()));
        assert_eq!(guarded.final_world.observed.len(), 2);
        assert!(matches!(guarded.verdict, Verdict::Converged { .. }));
    }
}

//! Guided lessons: data files of steps and predict-then-reveal exercises.
//!
//! Guarantees:
//! - Lessons are data (`lessons/*.json`, compiled in); adding one needs no code.
//! - No answer is stored in a lesson file for the "actions" and "passes"
//!   exercises: the right answer is always computed by this crate from the
//!   lesson's scenario, so a lesson can never disagree with `reconcile`.
//! - Feedback on a wrong answer points at the exact rule, using the plan's
//!   per-action [`Reason`](crate::explain::Reason).

use serde::{Deserialize, Serialize};

use crate::check_scenario as check_scenario_texts;
use crate::explain::{plan, Plan};
use crate::model::Scenario;
use crate::parse::InputError;
use crate::presets;
use crate::reconcile::ActionKind;
use crate::sim::{simulate, SimConfig, SimScenario, Timeline, Verdict};

/// The lessons shipped with the playground, in teaching order.
pub const LESSON_FILES: &[&str] = &[
    include_str!("../lessons/01-four-actions.json"),
    include_str!("../lessons/02-drift.json"),
    include_str!("../lessons/03-finalizers.json"),
];

/// One lesson: a starting scenario and ordered steps.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Lesson {
    pub id: String,
    pub title: String,
    pub summary: String,
    /// A preset id whose documents and simulation settings the lesson starts from.
    pub preset: Option<String>,
    /// Documents that replace the preset's (as editor text).
    pub documents: Option<Documents>,
    /// Simulation settings that replace the preset's.
    pub sim: Option<SimConfig>,
    pub steps: Vec<Step>,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Documents {
    pub desired: String,
    pub observed: String,
    #[serde(default = "null_text")]
    pub finalizers: String,
}

fn null_text() -> String {
    "null\n".to_owned()
}

/// Text to read, something to do, and optionally an exercise.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    pub text: String,
    /// What to do in the playground, e.g. "Press Step once."
    pub task: Option<String>,
    pub exercise: Option<Exercise>,
}

/// A prediction made before the answer is revealed.
///
/// A flat struct rather than a tagged enum: cheap to deserialize in wasm.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Exercise {
    /// `actions`: pick and order the actions reconcile returns.
    /// `passes`: after how many passes does the loop converge?
    /// `choice`: one right answer among `choices`.
    pub kind: ExerciseKind,
    pub prompt: String,
    /// For `actions`: the candidates offered, as `"KIND name"`.
    #[serde(default)]
    pub options: Vec<String>,
    /// For `choice`.
    #[serde(default)]
    pub choices: Vec<Choice>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ExerciseKind {
    Actions,
    Passes,
    Choice,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Choice {
    pub text: String,
    #[serde(default)]
    pub correct: bool,
    /// Why this choice is right or wrong; shown after checking.
    pub why: String,
}

/// The result of checking a prediction.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Feedback {
    pub correct: bool,
    pub headline: String,
    /// One line per difference, each with its reason.
    pub details: Vec<String>,
}

/// Parses one lesson file.
pub fn parse_lesson(text: &str) -> Result<Lesson, String> {
    serde_json::from_str(text).map_err(|e| e.to_string())
}

/// Every shipped lesson, in order. A lesson file that does not parse is a bug
/// caught by this crate's tests, so it is skipped here rather than panicking.
pub fn lessons() -> Vec<Lesson> {
    LESSON_FILES
        .iter()
        .filter_map(|text| parse_lesson(text).ok())
        .collect()
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
            .unwrap_or(presets::DEFAULT_PRESET);
        [
            preset.desired.to_owned(),
            preset.observed.to_owned(),
            preset.finalizers.to_owned(),
        ]
    }

    /// The simulation settings the lesson starts from.
    pub fn sim_config(&self) -> SimConfig {
        if let Some(config) = &self.sim {
            return config.clone();
        }
        self.preset
            .as_deref()
            .and_then(presets::find)
            .map_or_else(SimConfig::default, |p| (p.sim)())
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

/// Checks an ordered list of predicted actions against the plan.
pub fn check_actions(answer: &[String], plan: &Plan) -> Feedback {
    let expected: Vec<String> = plan
        .actions
        .iter()
        .map(|a| spell(a.action.kind, &a.action.name))
        .collect();
    let mut details = Vec::new();
    for (explained, spelled) in plan.actions.iter().zip(&expected) {
        if !answer.contains(spelled) {
            details.push(format!("Missing {spelled}: {}.", explained.reason));
        }
    }
    for given in answer {
        if !expected.contains(given) {
            details.push(format!(
                "{given} is not in the plan: {}",
                why_not(given, plan)
            ));
        }
    }
    if details.is_empty() && answer != expected.as_slice() {
        details.push(format!(
            "Right actions, wrong order. The plan is {}: CREATE and UPDATE first, sorted by name \
             (Unicode code point), then FINALIZE and DELETE, sorted by name.",
            expected.join(", ")
        ));
    }
    let correct = details.is_empty();
    let headline = if correct {
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
        headline,
        details,
    }
}

/// Why an action the learner expected is not in the plan.
fn why_not(given: &str, plan: &Plan) -> String {
    let name = given.split_once(' ').map_or(given, |(_, name)| name);
    match plan.actions.iter().find(|a| &*a.action.name == name) {
        Some(actual) => format!(
            "{name} gets {} instead ({}).",
            actual.action.kind.as_str(),
            actual.reason
        ),
        None => format!("{name} needs no action: it is either in sync or not involved."),
    }
}

/// Checks a predicted number of passes against the simulation.
pub fn check_passes(answer: usize, timeline: &Timeline) -> Feedback {
    match &timeline.verdict {
        Verdict::Converged { passes, .. } => {
            let correct = answer == *passes;
            let quiet = timeline
                .passes
                .iter()
                .filter(|p| p.actions.is_empty())
                .count();
            let headline = if correct {
                format!("Correct: it converges after {passes} passes.")
            } else {
                format!("Not quite: it converges after {passes} passes, not {answer}.")
            };
            let mut details = Vec::new();
            if quiet > 0 {
                details.push(format!(
                    "{quiet} of them found nothing to do: they ran because the controller's own writes \
                     raised watch events, and reconcile confirmed the world was in sync."
                ));
            }
            Feedback {
                correct,
                headline,
                details,
            }
        }
        Verdict::NotConverging { reason } => Feedback {
            correct: false,
            headline: format!("It never converges: {reason}."),
            details: Vec::new(),
        },
    }
}

/// Checks a choice by its index.
pub fn check_choice(index: usize, exercise: &Exercise) -> Feedback {
    let Some(choice) = exercise.choices.get(index) else {
        return Feedback {
            correct: false,
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
        headline: headline.to_owned(),
        details,
    }
}

/// The plan and the simulation of a lesson's starting point.
pub fn lesson_outcomes(lesson: &Lesson) -> Result<(Plan, Timeline), Vec<InputError>> {
    let scenario = lesson.scenario()?;
    let plan = plan(
        &scenario.desired,
        &scenario.observed,
        scenario.finalizers.as_ref(),
    );
    let sim = SimScenario {
        desired: scenario.desired,
        observed: scenario.observed,
        finalizers: scenario.finalizers,
    };
    Ok((plan, simulate(&sim, &lesson.sim_config())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_lesson_parses_starts_valid_and_has_answerable_exercises() {
        assert_eq!(
            lessons().len(),
            LESSON_FILES.len(),
            "a lesson file does not parse"
        );
        for text in LESSON_FILES {
            let lesson = parse_lesson(text).expect("parses");
            let (plan, timeline) =
                lesson_outcomes(&lesson).unwrap_or_else(|e| panic!("{}: {e:?}", lesson.id));
            assert!(!lesson.steps.is_empty(), "{} has no steps", lesson.id);
            for step in &lesson.steps {
                let Some(exercise) = &step.exercise else {
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
                }
            }
        }
    }

    fn seed_plan() -> Plan {
        let scenario = check_scenario_texts(
            r#"{"a":{"replicas":1},"b":{"replicas":3}}"#,
            r#"{"b":{"replicas":1},"c":{"replicas":1}}"#,
            "null",
        )
        .expect("valid");
        plan(&scenario.desired, &scenario.observed, None)
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
                "FINALIZE c is not in the plan: c gets DELETE instead (no longer desired, and it has no finalizers).".to_owned(),
            ]
        );
    }

    #[test]
    fn passes_and_choice_feedback() {
        let lesson = parse_lesson(LESSON_FILES[0]).expect("parses");
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
}

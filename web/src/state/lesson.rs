//! The open lesson: which step, what the learner picked, and the feedback.

use std::rc::Rc;

use reconcile_content::lesson::{
    check_actions, check_choice, check_pass_actions, check_passes, lessons, ExerciseKind, Feedback,
    Lesson,
};
use reconcile_core::Plan;
use reconcile_sim::Timeline;

#[derive(Debug, Clone, PartialEq)]
pub struct LessonState {
    pub lesson: Rc<Lesson>,
    /// 0-based.
    pub step: usize,
    /// Actions picked so far, in order, for an `actions` or `pass-actions` exercise.
    pub picked: Vec<String>,
    /// The answer checked on this step, and what the core said.
    pub feedback: Option<Feedback>,
}

/// What a learner can do in the lesson panel.
#[derive(Debug, Clone, PartialEq)]
pub enum LessonAction {
    Open {
        id: String,
        step: usize,
    },
    Close,
    GoTo(usize),
    Pick(String),
    ClearPicks,
    CheckActions,
    /// Checks the picked actions against the exercise's pass of the simulation.
    CheckPassActions,
    CheckPasses(usize),
    CheckChoice(usize),
}

impl LessonState {
    pub fn open(id: &str, step: usize) -> Option<Self> {
        let lesson = lessons().iter().find(|l| l.id == id)?.clone();
        let step = step.min(lesson.steps.len().saturating_sub(1));
        Some(Self {
            lesson: Rc::new(lesson),
            step,
            picked: Vec::new(),
            feedback: None,
        })
    }

    pub fn go_to(&mut self, step: usize) {
        self.step = step.min(self.lesson.steps.len().saturating_sub(1));
        self.picked.clear();
        self.feedback = None;
    }

    /// The exercise on this step, if it is not answered yet: its answer stays hidden.
    ///
    /// The page hides what it asks about: the plan for `Actions`, the
    /// simulation for `Passes` and `PassActions`.
    pub fn pending_exercise(&self) -> Option<ExerciseKind> {
        let exercise = self.lesson.steps.get(self.step)?.exercise.as_ref()?;
        self.feedback.is_none().then_some(exercise.kind)
    }

    /// Checks an answer against the playground's current plan and timeline.
    pub fn check(
        &mut self,
        action: &LessonAction,
        plan: Option<&Plan>,
        timeline: Option<&Timeline>,
    ) {
        let Some(exercise) = self
            .lesson
            .steps
            .get(self.step)
            .and_then(|s| s.exercise.as_ref())
        else {
            return;
        };
        let feedback = match (action, plan, timeline) {
            (LessonAction::CheckActions, Some(plan), _) => check_actions(&self.picked, plan),
            (LessonAction::CheckPassActions, _, Some(timeline)) => {
                check_pass_actions(&self.picked, exercise.pass.unwrap_or(1), timeline)
            }
            (LessonAction::CheckPasses(passes), _, Some(timeline)) => {
                check_passes(*passes, timeline)
            }
            (LessonAction::CheckChoice(index), _, _) => check_choice(*index, exercise),
            _ => Feedback {
                correct: false,
                headline: "Fix the input errors first: there is nothing to check against."
                    .to_owned(),
                details: Vec::new(),
            },
        };
        self.feedback = Some(feedback);
    }
}

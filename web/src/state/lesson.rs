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
    pub answer: Option<Answer>,
    /// Steps (0-based) whose exercise was answered since the lesson opened.
    pub answered: Vec<usize>,
}

/// Where the exercise on this step stands once checked.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// A first wrong answer: only the hint shows, and the learner tries again.
    Hinted(Feedback),
    /// Right, or wrong twice, or asked for: the whole feedback shows.
    Revealed(Feedback),
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
    /// Gives up after a hint: the whole answer shows.
    ShowAnswer,
}

impl LessonState {
    pub fn open(id: &str, step: usize) -> Option<Self> {
        let lesson = lessons().iter().find(|l| l.id == id)?.clone();
        let step = step.min(lesson.steps.len().saturating_sub(1));
        Some(Self {
            lesson: Rc::new(lesson),
            step,
            picked: Vec::new(),
            answer: None,
            answered: Vec::new(),
        })
    }

    pub fn go_to(&mut self, step: usize) {
        self.step = step.min(self.lesson.steps.len().saturating_sub(1));
        self.picked.clear();
        self.answer = None;
    }

    /// The exercise on this step, while its answer is not revealed: it stays
    /// hidden, and so does whatever would give it away.
    ///
    /// [`ExerciseKind::conceals_plan`] and [`ExerciseKind::conceals_simulation`]
    /// say what the page hides.
    pub fn pending_exercise(&self) -> Option<ExerciseKind> {
        let exercise = self.lesson.steps.get(self.step)?.exercise.as_ref()?;
        (!matches!(self.answer, Some(Answer::Revealed(_)))).then_some(exercise.kind)
    }

    /// The feedback to show: the hint alone, or all of it.
    pub fn feedback(&self) -> Option<(&Feedback, bool)> {
        match &self.answer {
            Some(Answer::Hinted(feedback)) => Some((feedback, false)),
            Some(Answer::Revealed(feedback)) => Some((feedback, true)),
            None => None,
        }
    }

    /// Reveals the answer after a hint.
    pub fn show_answer(&mut self) {
        if let Some(Answer::Hinted(feedback)) = self.answer.take() {
            self.reveal(feedback);
        }
    }

    fn reveal(&mut self, feedback: Feedback) {
        if !self.answered.contains(&self.step) {
            self.answered.push(self.step);
        }
        self.answer = Some(Answer::Revealed(feedback));
    }

    /// Checks an answer against the playground's current plan and timeline.
    /// The first wrong answer earns a hint; a second one, the answer.
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
            _ => {
                // Not a try: there was nothing to check the answer against.
                let headline = "Fix the input errors first: there is nothing to check against.";
                self.answer = Some(Answer::Hinted(Feedback {
                    correct: false,
                    hint: headline.to_owned(),
                    headline: headline.to_owned(),
                    details: Vec::new(),
                }));
                return;
            }
        };
        if feedback.correct || matches!(self.answer, Some(Answer::Hinted(_))) {
            self.reveal(feedback);
        } else {
            self.answer = Some(Answer::Hinted(feedback));
        }
    }
}

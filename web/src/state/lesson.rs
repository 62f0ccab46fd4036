//! The open lesson: which step, what the learner picked, and the feedback;
//! and the lesson being fetched, before it opens.

use std::rc::Rc;

use reconcile_content::lesson::{
    check_actions, check_choice, read_lesson, ExerciseKind, Feedback, Lesson,
};
use reconcile_content::lesson_index::{self, LessonEntry};
use reconcile_core::Plan;
use reconcile_protocol::section::LessonQuestion;

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
    /// Answers checked on this step, for the course page's progress messages.
    pub tries: u32,
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
    /// The text of the lesson file at `path` arrived.
    Fetched {
        path: String,
        text: String,
    },
    /// The simulation's module answered check `id` (a question about the run).
    Checked {
        id: usize,
        feedback: Rc<Feedback>,
    },
    /// The lesson file at `path` could not be downloaded, and why.
    FetchFailed {
        path: String,
        message: String,
    },
    /// Try again after a failed download or a file that does not read.
    Refetch,
}

/// A lesson asked for whose file is being fetched (or failed to be): the
/// panel shows its title from the index and "Loading lesson…", or the error
/// with Try again.
#[derive(Debug, Clone, PartialEq)]
pub struct LessonLoad {
    pub entry: &'static LessonEntry,
    /// 0-based, within the lesson's steps.
    pub step: usize,
    pub opening: LessonOpening,
    /// Counts the tries, so that Try again fetches anew.
    pub attempt: u32,
    /// Why the last try failed: a download's error, or the reader's located one.
    pub failed: Option<String>,
    /// The editors' revision when the lesson was asked for: a later one means
    /// the learner typed while the file loaded, and that work is kept.
    pub asked_at_revision: u64,
    /// A link's steps answered, and whether its step's answer showed.
    pub shared: (Vec<usize>, bool),
}

/// How a lesson being fetched came to open, which decides what it does to the
/// editors' documents once it is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LessonOpening {
    /// From the menu or a button: its documents and settings replace the
    /// editors'; edited ones stay restorable, and a notice says so.
    Asked,
    /// From `?lesson=` as the page starts: its documents replace the
    /// editors' too, but the start has kept the session it replaces
    /// restorable already, as it does for a link, without a notice.
    Addressed,
    /// A link, an autosave or a session carries the lesson and the documents
    /// with it: they stay.
    Carried,
}

impl LessonLoad {
    /// The load of lesson `id` at `step`, if the index has it.
    pub fn of(id: &str, step: usize, opening: LessonOpening) -> Option<Self> {
        let (_, entry) = lesson_index::find(id)?;
        Some(Self {
            entry,
            step: step.min(entry.steps().saturating_sub(1)),
            opening,
            attempt: 0,
            failed: None,
            asked_at_revision: 0,
            shared: (Vec::new(), false),
        })
    }

    /// What to fetch now: the file's path and the try, unless the last try failed.
    pub fn request(&self) -> Option<(String, u32)> {
        self.failed
            .is_none()
            .then(|| (self.entry.path(), self.attempt))
    }

    /// Reads the fetched text with the lessons' one reader; a file that does
    /// not read (or is another lesson's) fails the load with the reader's error.
    /// Its settings are read by the simulation's module, as a link's are.
    pub fn read(&mut self, text: &str) -> Option<LessonState> {
        let path = self.entry.path();
        match read_lesson(&path, text) {
            Ok(lesson) if lesson.id == self.entry.id => {
                let mut state = LessonState::open(lesson, self.step);
                state.show_shared(&self.shared.0, self.shared.1);
                Some(state)
            }
            Ok(lesson) => {
                self.failed = Some(format!(
                    "{path} holds the lesson {:?}, not {:?}.",
                    lesson.id, self.entry.id
                ));
                None
            }
            Err(error) => {
                self.failed = Some(error.to_string());
                None
            }
        }
    }

    /// The exercise of the step it opens at: hidden from the first paint on,
    /// with whatever would give it away.
    pub fn pending_exercise(&self) -> Option<ExerciseKind> {
        self.entry.exercise(self.step)
    }
}

impl LessonState {
    pub fn open(lesson: Lesson, step: usize) -> Self {
        let step = step.min(lesson.steps.len().saturating_sub(1));
        Self {
            lesson: Rc::new(lesson),
            step,
            picked: Vec::new(),
            answer: None,
            answered: Vec::new(),
            tries: 0,
        }
    }

    /// Opens as a teacher's link shared it: the steps answered, and this
    /// step's answer shown (a choice's right one; the page shows the rest).
    pub fn show_shared(&mut self, answered: &[usize], shown: bool) {
        let steps = self.lesson.steps.len();
        self.answered = answered.iter().copied().filter(|s| *s < steps).collect();
        let exercise = self
            .lesson
            .steps
            .get(self.step)
            .and_then(|s| s.exercise.as_ref());
        if let (true, Some(exercise)) = (shown, exercise) {
            let right = exercise.choices.iter().position(|c| c.correct);
            let feedback = match right {
                Some(index) => check_choice(index, exercise),
                None => shown_feedback(exercise.kind),
            };
            self.reveal(feedback);
        }
    }

    /// Whether this step's answer shows, for a link.
    pub fn answer_shown(&self) -> bool {
        matches!(self.answer, Some(Answer::Revealed(_)))
    }

    pub fn go_to(&mut self, step: usize) {
        self.step = step.min(self.lesson.steps.len().saturating_sub(1));
        self.picked.clear();
        self.answer = None;
        self.tries = 0;
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

    /// The exercises of the later steps not answered yet: what would give
    /// their answers away stays hidden on this step too (issue 31).
    pub fn later_exercises(&self) -> impl Iterator<Item = ExerciseKind> + '_ {
        let later = self.lesson.steps.iter().enumerate().skip(self.step + 1);
        later
            .filter(|(step, _)| !self.answered.contains(step))
            .filter_map(|(_, step)| step.exercise.as_ref().map(|e| e.kind))
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

    /// Checks an answer against the playground's current plan, or, for a
    /// question about the run, returns it for the simulation's module to
    /// answer ([`Self::take_feedback`]); `can_simulate` says there is a run
    /// to ask about. The first wrong answer earns a hint; a second one, the answer.
    pub fn check(
        &mut self,
        action: &LessonAction,
        plan: Option<&Plan>,
        can_simulate: bool,
    ) -> Option<LessonQuestion> {
        let exercise = self
            .lesson
            .steps
            .get(self.step)
            .and_then(|s| s.exercise.as_ref())?;
        let feedback = match (action, plan, can_simulate) {
            (LessonAction::CheckActions, Some(plan), _) => check_actions(&self.picked, plan),
            (LessonAction::CheckPassActions, _, true) => {
                return Some(LessonQuestion::PassActions {
                    pass: exercise.pass.unwrap_or(1),
                    picked: self.picked.clone(),
                })
            }
            (LessonAction::CheckPasses(answer), _, true) => {
                return Some(LessonQuestion::Passes { answer: *answer })
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
                return None;
            }
        };
        self.take_feedback(feedback);
        None
    }

    /// What a check said: right, or wrong after a hint, reveals the answer;
    /// a first wrong one earns the hint.
    pub fn take_feedback(&mut self, feedback: Feedback) {
        self.tries += 1;
        if feedback.correct || matches!(self.answer, Some(Answer::Hinted(_))) {
            self.reveal(feedback);
        } else {
            self.answer = Some(Answer::Hinted(feedback));
        }
    }
}

/// What a shared link shows for an answer it cannot replay: where to look.
fn shown_feedback(kind: ExerciseKind) -> Feedback {
    let place = if kind.conceals_plan() {
        "The answer is shown: the plan has it."
    } else {
        "The answer is shown: the simulation has it."
    };
    Feedback {
        correct: true,
        hint: String::new(),
        headline: place.to_owned(),
        details: Vec::new(),
    }
}

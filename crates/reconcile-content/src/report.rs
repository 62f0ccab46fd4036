//! What an embedded lesson tells its course page (issue 33): a step
//! reached, a prediction answered, the lesson completed. Worked out from two
//! views of the open lesson, so the page only posts what this returns.

use crate::lesson_index::LessonEntry;
use crate::progress::LessonProgress;

/// Where the open lesson stands, as the reports see it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LessonView {
    pub lesson: String,
    /// 0-based.
    pub step: usize,
    /// The lesson's steps.
    pub total: usize,
    /// Answers checked on this step since it was reached.
    pub tries: u32,
    /// The last answer checked was right.
    pub correct: bool,
    /// Every exercise answered and the last step reached, saved progress counted.
    pub complete: bool,
}

impl LessonView {
    /// Whether `progress` completes `lesson`: every exercise answered, and
    /// the last step reached.
    pub fn completes(progress: &LessonProgress, lesson: &LessonEntry) -> bool {
        progress.reached + 1 >= lesson.steps() && progress.is_complete(lesson)
    }
}

/// One progress message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Report {
    /// `step` is 1-based, of `total`.
    StepReached {
        lesson: String,
        step: usize,
        total: usize,
    },
    /// A prediction checked on `step` (1-based).
    Answered {
        lesson: String,
        step: usize,
        correct: bool,
        first_try: bool,
    },
    Completed {
        lesson: String,
        total: usize,
    },
}

/// A message field's value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Field<'a> {
    Text(&'a str),
    Number(usize),
    Flag(bool),
}

impl Report {
    /// The message's kind, after the envelope's `reconcile-playground:`.
    pub fn kind(&self) -> &'static str {
        match self {
            Report::StepReached { .. } => "step-reached",
            Report::Answered { .. } => "answered",
            Report::Completed { .. } => "lesson-completed",
        }
    }

    /// The message's own fields, by their wire names.
    pub fn fields(&self) -> Vec<(&'static str, Field<'_>)> {
        match self {
            Report::StepReached {
                lesson,
                step,
                total,
            } => vec![
                ("lesson", Field::Text(lesson)),
                ("step", Field::Number(*step)),
                ("total", Field::Number(*total)),
            ],
            Report::Answered {
                lesson,
                step,
                correct,
                first_try,
            } => vec![
                ("lesson", Field::Text(lesson)),
                ("step", Field::Number(*step)),
                ("correct", Field::Flag(*correct)),
                ("firstTry", Field::Flag(*first_try)),
            ],
            Report::Completed { lesson, total } => vec![
                ("lesson", Field::Text(lesson)),
                ("total", Field::Number(*total)),
            ],
        }
    }
}

/// What changed from `before` to `after`. A step counts as reached when the
/// lesson opens or the step changes. Completion is reported once, when it
/// happens: a lesson opened complete reports none.
pub fn reports(before: Option<&LessonView>, after: Option<&LessonView>) -> Vec<Report> {
    let Some(after) = after else {
        return Vec::new();
    };
    let lesson = || after.lesson.clone();
    let same_lesson = before.filter(|before| before.lesson == after.lesson);
    let same_step = same_lesson.filter(|before| before.step == after.step);
    let mut out = Vec::new();
    if same_step.is_none() {
        out.push(Report::StepReached {
            lesson: lesson(),
            step: after.step + 1,
            total: after.total,
        });
    }
    if after.tries > same_step.map_or(0, |before| before.tries) {
        out.push(Report::Answered {
            lesson: lesson(),
            step: after.step + 1,
            correct: after.correct,
            first_try: after.tries == 1,
        });
    }
    if after.complete && same_lesson.is_some_and(|before| !before.complete) {
        out.push(Report::Completed {
            lesson: lesson(),
            total: after.total,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(step: usize, tries: u32, correct: bool, complete: bool) -> LessonView {
        LessonView {
            lesson: "finalizers".into(),
            step,
            total: 4,
            tries,
            correct,
            complete,
        }
    }

    #[test]
    fn opening_a_lesson_reaches_its_step_and_nothing_else() {
        let open = view(1, 0, false, true);
        assert_eq!(
            reports(None, Some(&open)),
            [Report::StepReached {
                lesson: "finalizers".into(),
                step: 2,
                total: 4
            }]
        );
        assert_eq!(reports(Some(&open), Some(&open)), []);
        assert_eq!(reports(Some(&open), None), []);
    }

    #[test]
    fn each_check_is_one_answer_and_only_the_first_is_a_first_try() {
        let (start, wrong, right) = (
            view(0, 0, false, false),
            view(0, 1, false, false),
            view(0, 2, true, false),
        );
        let answered = |view: &LessonView| match &reports(Some(&start), Some(view))[..] {
            [Report::Answered {
                correct, first_try, ..
            }] => (*correct, *first_try),
            other => panic!("{other:?}"),
        };
        assert_eq!(answered(&wrong), (false, true));
        assert_eq!(
            reports(Some(&wrong), Some(&right)),
            [Report::Answered {
                lesson: "finalizers".into(),
                step: 1,
                correct: true,
                first_try: false
            }]
        );
    }

    #[test]
    fn completion_is_reported_once_when_it_happens() {
        let (before, after) = (view(3, 0, false, false), view(3, 1, true, true));
        let kinds: Vec<_> = reports(Some(&before), Some(&after))
            .iter()
            .map(Report::kind)
            .collect();
        assert_eq!(kinds, ["answered", "lesson-completed"]);
        assert_eq!(reports(Some(&after), Some(&after)), []);
        // Another lesson opened complete reports its step only.
        let other = LessonView {
            lesson: "drift".into(),
            ..after.clone()
        };
        let kinds: Vec<_> = reports(Some(&before), Some(&other))
            .iter()
            .map(Report::kind)
            .collect();
        assert_eq!(kinds, ["step-reached", "answered"]);
    }

    #[test]
    fn fields_carry_their_wire_names() {
        let answered = Report::Answered {
            lesson: "drift".into(),
            step: 2,
            correct: false,
            first_try: true,
        };
        assert_eq!(
            answered.fields(),
            [
                ("lesson", Field::Text("drift")),
                ("step", Field::Number(2)),
                ("correct", Field::Flag(false)),
                ("firstTry", Field::Flag(true)),
            ]
        );
        let done = Report::Completed {
            lesson: "drift".into(),
            total: 3,
        };
        assert_eq!(done.kind(), "lesson-completed");
        assert_eq!(
            done.fields(),
            [
                ("lesson", Field::Text("drift")),
                ("total", Field::Number(3))
            ]
        );
    }
}

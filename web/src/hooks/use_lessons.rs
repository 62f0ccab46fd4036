//! The lessons' side of the page: fetches the lesson a load asks for, and
//! keeps the progress of the one open.

use std::rc::Rc;

use reconcile_content::progress::Progress;
use yew::prelude::*;

use super::{use_lesson_fetch, use_lesson_progress};
use crate::state::{LessonAction, LessonLoad, Playground};

/// The saved progress of every lesson.
#[hook]
pub fn use_lessons(state: &Playground, on_lesson: &Callback<LessonAction>) -> Rc<Progress> {
    use_lesson_fetch(
        state.lesson_load.as_ref().and_then(LessonLoad::request),
        on_lesson.clone(),
    );
    use_lesson_progress(
        state
            .lesson
            .as_ref()
            .map(|l| (l.lesson.id.clone(), l.step, l.answered.clone())),
    )
}

use std::rc::Rc;

use reconcile_content::progress::{parse_progress, render_progress, Progress};
use yew::prelude::*;

use crate::browser;

const KEY: &str = "reconcile-playground/v1/lesson-progress";

/// Where the open lesson stands: its id, the step shown and the steps answered.
pub type LessonVisit = Option<(String, usize, Vec<usize>)>;

/// Remembers how far each lesson got and what was answered, and returns
/// the saved progress.
#[hook]
pub fn use_lesson_progress(current: LessonVisit) -> Rc<Progress> {
    let progress = use_state(|| {
        Rc::new(
            browser::storage_get(KEY)
                .as_deref()
                .map(parse_progress)
                .unwrap_or_default(),
        )
    });
    {
        let progress = progress.clone();
        use_effect_with(current, move |current| {
            if let Some((id, step, answered)) = current {
                let mut entry = progress.get(id).cloned().unwrap_or_default();
                entry.merge(*step, answered);
                if progress.get(id) != Some(&entry) {
                    let mut next = (**progress).clone();
                    next.insert(id.clone(), entry);
                    // Where storage refuses it, the autosave's notice says so.
                    let _ = browser::storage_set(KEY, &render_progress(&next));
                    progress.set(Rc::new(next));
                }
            }
        });
    }
    (*progress).clone()
}

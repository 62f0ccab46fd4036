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
    // The latest progress, not the render's snapshot: two visits in quick
    // succession (a lesson opened, then another chosen before the page
    // re-rendered) must both be kept, the second on top of the first.
    let latest = use_mut_ref(|| Rc::clone(&progress));
    {
        let progress = progress.clone();
        use_effect_with(current, move |current| {
            if let Some((id, step, answered)) = current {
                let known = Rc::clone(&latest.borrow());
                let mut entry = known.get(id).cloned().unwrap_or_default();
                entry.merge(*step, answered);
                if known.get(id) != Some(&entry) {
                    let mut next = (*known).clone();
                    next.insert(id.clone(), entry);
                    // Where storage refuses it, the autosave's notice says so.
                    let _ = browser::storage_set(KEY, &render_progress(&next));
                    let next = Rc::new(next);
                    *latest.borrow_mut() = Rc::clone(&next);
                    progress.set(next);
                }
            }
        });
    }
    (*progress).clone()
}

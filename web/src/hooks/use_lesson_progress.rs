use std::collections::BTreeMap;
use std::rc::Rc;

use yew::prelude::*;

use crate::browser;

const KEY: &str = "reconcile-playground/v1/lesson-progress";

/// Furthest step reached (0-based) per lesson id, as saved in this browser.
pub type Progress = BTreeMap<String, usize>;

/// `id=step,id=step`: tiny, readable, and no JSON code needed for it. A
/// repeated id keeps its last step. (Inserted one by one: collecting into a
/// map sorts, and a sort costs the page ~1 KB gzipped.)
pub fn parse_progress(text: &str) -> Progress {
    let mut progress = Progress::new();
    for (id, step) in text
        .split(',')
        .filter_map(|pair| pair.split_once('='))
        .filter_map(|(id, step)| Some((id.to_owned(), step.parse().ok()?)))
    {
        progress.insert(id, step);
    }
    progress
}

pub fn render_progress(progress: &Progress) -> String {
    progress
        .iter()
        .map(|(id, step)| format!("{id}={step}"))
        .collect::<Vec<_>>()
        .join(",")
}

/// Remembers how far each lesson got, and returns the saved progress.
#[hook]
pub fn use_lesson_progress(current: Option<(String, usize)>) -> Rc<Progress> {
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
            if let Some((id, step)) = current {
                if progress.get(id).is_none_or(|saved| step > saved) {
                    let mut next = (**progress).clone();
                    next.insert(id.clone(), *step);
                    browser::storage_set(KEY, &render_progress(&next));
                    progress.set(Rc::new(next));
                }
            }
        });
    }
    (*progress).clone()
}

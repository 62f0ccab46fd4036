//! The first state: a link beats the autosave, the autosave beats the defaults,
//! and whatever is replaced stays recoverable.

use std::rc::Rc;

use reconcile_core::presets;
use reconcile_core::share::{self, SharedState};

use crate::browser;
use crate::embed::{EmbedOptions, PREVIOUS_KEY};
use crate::state::{Notice, Playground};

/// What the page starts from; reads the URL and local storage.
pub fn initial_state(options: &EmbedOptions) -> Playground {
    let state = first_state(options);
    // `?lesson=` opens a lesson unless a link carries a state. It wins over the
    // autosave too, which only resumes that same lesson when no step is named.
    let Some(id) = options.lesson.as_deref() else {
        return state;
    };
    let resumes = state
        .lesson
        .as_ref()
        .is_some_and(|open| open.lesson.id == id);
    if browser::location_hash().len() > 1 || (resumes && options.step.is_none()) {
        return state;
    }
    state.with_lesson(id, options.step.unwrap_or(1).saturating_sub(1))
}

fn first_state(options: &EmbedOptions) -> Playground {
    let hash = browser::location_hash();
    let saved_text = browser::storage_get(&options.autosave_key());
    let saved = saved_text.as_deref().map(share::from_autosave);
    let defaults = || match options.preset.as_deref().and_then(presets::find) {
        Some(preset) => Playground::from_preset(preset),
        None => Playground::default(),
    };
    if hash.len() > 1 {
        let mut state = match share::decode(&hash) {
            Ok(shared) => Playground::from_shared(&shared),
            Err(error) => {
                let mut state = defaults();
                state.notice = Some(Notice::LinkProblem(error.to_string()));
                state
            }
        };
        // The link wins, but the session it replaces is kept for "Restore".
        if let (Some(Some(previous)), Some(text)) = (&saved, &saved_text) {
            if *previous != state.shared() {
                browser::storage_set(PREVIOUS_KEY, text);
                state.restorable = Some(Rc::new(previous.clone()));
            }
        }
        return state;
    }
    if options.preset.is_some() {
        return defaults();
    }
    match saved {
        Some(Some(shared)) => Playground::from_shared(&shared),
        Some(None) => {
            let mut state = defaults();
            state.notice = Some(Notice::AutosaveCorrupt);
            state.restorable = previous_session();
            state
        }
        None => {
            let mut state = defaults();
            state.restorable = previous_session();
            state
        }
    }
}

fn previous_session() -> Option<Rc<SharedState>> {
    browser::storage_get(PREVIOUS_KEY)
        .as_deref()
        .and_then(share::from_autosave)
        .map(Rc::new)
}

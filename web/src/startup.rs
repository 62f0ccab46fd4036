//! The first state: a link beats the autosave, the autosave beats the defaults,
//! and whatever is replaced stays recoverable.

use std::rc::Rc;

use reconcile_core::presets;
use reconcile_core::share;

use crate::browser;
use crate::embed::EmbedOptions;
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
    // Work the lesson replaces stays restorable, as with a link.
    let replaced = (!state.pristine).then(|| Rc::new(state.shared()));
    let mut next = state.with_lesson(id, options.step.unwrap_or(1).saturating_sub(1));
    if replaced.is_some() {
        next.restorable = replaced;
    }
    next
}

fn first_state(options: &EmbedOptions) -> Playground {
    let hash = browser::location_hash();
    let saved_text = browser::storage_get(&options.autosave_key());
    let saved = saved_text.as_deref().map(share::from_autosave);
    let defaults = || match options.preset.as_deref().and_then(presets::find) {
        Some(preset) => Playground::from_preset(preset),
        None => Playground::default(),
    };
    let mut state = if hash.len() > 1 {
        let mut state = match share::decode(&hash) {
            Ok(shared) => Playground::from_shared(&shared),
            Err(error) => {
                let mut state = defaults();
                state.notice = Some(Notice::LinkProblem(error.to_string()));
                state
            }
        };
        // The link wins, but the session it replaces is kept for "Restore".
        if let Some(Some(previous)) = &saved {
            if *previous != state.shared() {
                state.restorable = Some(Rc::new(previous.clone()));
            }
        }
        state
    } else if options.preset.is_some() {
        // So does `?preset=`, over an autosave that is not just a preset.
        let mut state = defaults();
        if let Some(Some(previous)) = &saved {
            if previous.preset.is_none() && *previous != state.shared() {
                state.restorable = Some(Rc::new(previous.clone()));
            }
        }
        state
    } else {
        match saved {
            Some(Some(shared)) => Playground::from_shared(&shared),
            Some(None) => {
                let mut state = defaults();
                state.notice = Some(Notice::AutosaveCorrupt);
                state
            }
            None => defaults(),
        }
    };
    // Otherwise, a session replaced earlier (kept by `use_previous_session`)
    // is still offered, unless it is what the page shows.
    if state.restorable.is_none() {
        let current = state.shared();
        state.restorable = browser::storage_get(&options.previous_key())
            .as_deref()
            .and_then(share::from_autosave)
            .filter(|previous| *previous != current)
            .map(Rc::new);
    }
    state
}

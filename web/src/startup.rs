//! The first state: a link beats the autosave, the autosave beats the defaults,
//! and whatever is replaced stays recoverable. The autosave is the tab's own
//! session after a reload, else a copy of the newest session (see `sessions`).

use std::rc::Rc;

use reconcile_content::presets;
use reconcile_content::share;

use crate::browser;
use crate::embed::EmbedOptions;
use crate::sessions::Opened;
use crate::state::{LessonOpening, Notice, Playground, Replay};

/// What the page starts from: the URL, and what `opened` found saved.
pub fn initial_state(options: &EmbedOptions, opened: Opened) -> Playground {
    let problem = opened.problem;
    let mut state = with_lesson(first_state(options, opened), options);
    state.autosave_problem = problem;
    // `?exercise=` opens the pane over whatever the page starts from, with
    // the code it holds (a link's or the autosave's); the pane switches to
    // the exercise and `?lang=` when it mounts.
    if options.exercise.is_some() {
        state.open_exercise(options.language);
    }
    state
}

fn with_lesson(state: Playground, options: &EmbedOptions) -> Playground {
    // `?lesson=` opens a lesson unless a link carries a state. It wins over the
    // autosave too, which only resumes that same lesson when no step is named.
    let Some(id) = options.lesson.as_deref() else {
        return state;
    };
    let resumes = state.lesson_id() == Some(id);
    if browser::location_hash().len() > 1 || (resumes && options.step.is_none()) {
        return state;
    }
    // Work the lesson replaces stays restorable, as with a link.
    let replaced = (!state.pristine).then(|| Rc::new(state.shared()));
    let step = options.step.unwrap_or(1).saturating_sub(1);
    let mut next = state.with_lesson_asked(id, step, LessonOpening::Addressed);
    if replaced.is_some() {
        next.restorable = replaced;
    }
    next
}

fn first_state(options: &EmbedOptions, opened: Opened) -> Playground {
    let hash = browser::location_hash();
    let opened_link = (hash.len() > 1).then(|| share::decode(&hash));
    // A replay (`#v4/`) shows in the simulation section over what the page
    // would start from without it, kept as it is until "Leave the replay".
    if let Some(Ok(share::Opened {
        replay: Some(replay),
        ..
    })) = opened_link
    {
        let mut state = first_state_of(options, opened, None);
        state.sim.replay = Some(Replay {
            json: replay.into(),
            link: hash.into(),
        });
        return state;
    }
    first_state_of(options, opened, opened_link)
}

/// The first state from `link` (the address's, opened), else the autosave,
/// else the defaults.
fn first_state_of(
    options: &EmbedOptions,
    opened: Opened,
    link: Option<Result<share::Opened, share::ShareError>>,
) -> Playground {
    let saved = opened.saved;
    let defaults = || match options.preset.as_deref().and_then(presets::find) {
        Some(preset) => Playground::from_preset(preset),
        None => Playground::default(),
    };
    // The autosave an address (a link, `?preset=`) replaces, if any.
    let (mut state, replaced) = if let Some(link) = link {
        let state = match link {
            Ok(opened) => {
                let mut state = Playground::from_shared(&opened.state);
                state.notice = opened.note.map(Notice::LinkNote);
                state
            }
            Err(error) => {
                let mut state = defaults();
                state.notice = Some(Notice::LinkProblem(error));
                state
            }
        };
        (state, saved.flatten())
    } else if options.preset.is_some() {
        // Over an autosave that is not just a preset.
        (defaults(), saved.flatten().filter(|s| s.preset.is_none()))
    } else {
        let state = match saved {
            Some(Some(shared)) => {
                let mut state = Playground::from_shared(&shared);
                if opened.from_latest {
                    state.notice = Some(Notice::StartedFromLatest);
                }
                state
            }
            Some(None) => {
                let mut state = defaults();
                state.notice = Some(Notice::AutosaveCorrupt);
                state
            }
            None => defaults(),
        };
        (state, None)
    };
    // The address wins, but the session it replaces is kept for "Restore";
    // otherwise a session replaced earlier (kept by `use_previous_session`)
    // is still offered. Neither is offered if it is what the page shows.
    let current = state.shared();
    state.restorable = replaced
        .filter(|previous| *previous != current)
        .or_else(|| {
            browser::storage_get(&options.previous_key())
                .as_deref()
                .and_then(share::from_autosave)
                .filter(|previous| *previous != current)
        })
        .map(Rc::new);
    state
}

//! The page's state: read once from the query, a link or the autosave, then
//! kept in a reducer whose typed `Action`s every part of the page sends.

use std::cell::RefCell;
use std::rc::Rc;

use yew::prelude::*;

use super::{
    use_debounce, use_persistence, use_previous_session, use_recent_sessions, RecentSessions,
};
use crate::embed::EmbedOptions;
use crate::sessions::Autosave;
use crate::startup::initial_state;
use crate::state::{hold_first_run, Action, Playground};

/// Typing pauses this long before the documents are re-checked.
const CHECK_DELAY_MS: u32 = 120;

/// The reducer, a callback that dispatches to it, and where the page autosaves.
pub struct PlaygroundHandle {
    pub state: UseReducerHandle<Playground>,
    pub dispatch: Callback<Action>,
    pub autosave: Rc<RefCell<Autosave>>,
}

/// The state the page starts from, and the re-check once typing pauses.
#[hook]
pub fn use_playground(options: &Rc<EmbedOptions>) -> PlaygroundHandle {
    // Where the page autosaves, and the state it starts from (read from it once).
    let start = {
        let options = Rc::clone(options);
        use_memo((), move |()| {
            let (autosave, opened) = Autosave::open(&options);
            hold_first_run();
            let state = initial_state(&options, opened);
            (Rc::new(RefCell::new(autosave)), RefCell::new(Some(state)))
        })
    };
    let state = use_reducer(|| start.1.borrow_mut().take().unwrap_or_default());
    let dispatch = {
        let dispatcher = state.dispatcher();
        Callback::from(move |action: Action| dispatcher.dispatch(action))
    };
    use_debounce(
        state.revision,
        CHECK_DELAY_MS,
        dispatch.reform(|()| Action::Check),
    );
    PlaygroundHandle {
        state,
        dispatch,
        autosave: Rc::clone(&start.0),
    }
}

/// Marks, for benchmarks (docs/PERFORMANCE.md): `page-mounted`, the page's
/// first render, and `first-action-list`, the first action list on screen,
/// unless the plan index.html prerendered for the address was shown and marked
/// it first (web/static/prerendered-plan.js). Mounting cleared the body, that
/// plan with it, and this render followed in a microtask: no frame shows both
/// lists or neither. Then, once the browser has had a chance to paint it, the
/// loop below it is simulated (its run was held while the page started).
#[hook]
pub fn use_first_paint(dispatch: &Callback<Action>) {
    let dispatch = dispatch.clone();
    use_effect_with((), move |()| {
        if let Some(performance) = gloo::utils::window().performance() {
            if performance
                .get_entries_by_name("first-action-list")
                .length()
                == 0
            {
                let _ = performance.mark("first-action-list");
            }
            let _ = performance.mark("page-mounted");
        }
        gloo::timers::callback::Timeout::new(0, move || dispatch.emit(Action::FirstPainted))
            .forget();
    });
}

/// Autosave, the share link's hash (`None` until typing pauses), Recent
/// sessions, and the previous session a replaced one keeps restorable.
#[hook]
pub fn use_sessions(
    options: &EmbedOptions,
    page: &PlaygroundHandle,
) -> (Option<Rc<str>>, RecentSessions) {
    let (state, dispatch) = (&page.state, &page.dispatch);
    // A replay keeps its `#v4/` address until "Leave the replay" writes
    // the state's own.
    let link_hash = use_persistence(
        state.persisted(),
        Rc::clone(&page.autosave),
        !options.embed && state.sim.replay.is_none(),
        dispatch.clone(),
    );
    let recent = use_recent_sessions(
        Rc::clone(&page.autosave),
        state.persisted(),
        dispatch.clone(),
    );
    use_previous_session(state.restorable.clone(), options.previous_key());
    (link_hash, recent)
}

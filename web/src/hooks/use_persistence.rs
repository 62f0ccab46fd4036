use gloo::timers::callback::Timeout;
use reconcile_core::share::{self, SharedState};
use yew::prelude::*;

use crate::browser;
use crate::state::{Action, Notice, Playground};

/// Over this many bytes of documents, nothing is autosaved (local storage is small).
pub const AUTOSAVE_LIMIT: usize = 1 << 20;
const SAVE_DELAY_MS: u32 = 300;

/// Autosaves the state shortly after it stops changing, and keeps the address
/// bar's hash equal to it (outside embeds), so a reload or a copied address
/// brings back exactly this state.
#[hook]
pub fn use_persistence(
    shared: SharedState,
    key: String,
    write_hash: bool,
    dispatch: Callback<Action>,
) {
    use_effect_with(shared, move |shared| {
        let shared = shared.clone();
        let timeout = Timeout::new(SAVE_DELAY_MS, move || {
            if share::text_size(&shared) > AUTOSAVE_LIMIT {
                dispatch.emit(Action::SetNotice(Some(Notice::TooLargeToAutosave)));
                return;
            }
            browser::storage_set(&key, &share::to_autosave(&shared));
            if write_hash {
                browser::replace_hash(&share::encode(&shared));
            }
        });
        move || drop(timeout)
    });
}

/// The current state's share link.
pub fn share_link(state: &Playground) -> String {
    format!("{}{}", browser::page_base(), share::encode(&state.shared()))
}

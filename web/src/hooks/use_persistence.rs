use std::rc::Rc;

use gloo::timers::callback::Timeout;
use reconcile_core::share::{self, SharedState};
use yew::prelude::*;

use crate::state::{Action, Notice, Playground};
use crate::{browser, panic_banner};

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
        let shared = Rc::new(shared.clone());
        panic_banner::remember_state(Rc::clone(&shared), &key);
        let timeout = Timeout::new(SAVE_DELAY_MS, move || {
            // After a panic the banner has saved newer texts than these.
            if panic_banner::has_panicked() {
                return;
            }
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

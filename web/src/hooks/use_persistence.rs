use std::cell::Cell;
use std::rc::Rc;

use gloo::events::EventListener;
use gloo::timers::callback::Timeout;
use reconcile_content::share::{self, SharedState};
use yew::prelude::*;

use crate::shared::Shared;
use crate::state::{Action, Notice, Persisted, Playground};
use crate::{browser, panic_banner};

/// Over this many bytes of documents, nothing is autosaved (local storage is small).
pub const AUTOSAVE_LIMIT: usize = 1 << 20;
const SAVE_DELAY_MS: u32 = 300;

/// Autosaves the state shortly after it stops changing. Outside embeds it
/// keeps the address bar's hash equal to the state, so a reload or a copied
/// address brings back exactly this state; in embeds (`write_hash` false) it
/// returns that hash instead, for the "Open in playground" link. Compressing
/// waits for the same quiet moment, so typing never pays for it; documents
/// over the autosave limit get no hash (a link could not carry them).
#[hook]
pub fn use_persistence(
    state: Persisted,
    key: String,
    write_hash: bool,
    dispatch: Callback<Action>,
) -> Option<Rc<str>> {
    let link_hash = use_state(|| None::<Rc<str>>);
    {
        let link_hash = link_hash.clone();
        use_effect_with(state, move |state| {
            let state = Rc::new(state.clone());
            panic_banner::remember_state(Rc::clone(&state), &key);
            let pending = Rc::new(Cell::new(true));
            let save = {
                let pending = Rc::clone(&pending);
                move || {
                    // After a panic the banner has saved newer texts than these.
                    if !pending.replace(false) || panic_banner::has_panicked() {
                        return;
                    }
                    if state.text_size() > AUTOSAVE_LIMIT {
                        dispatch.emit(Action::SetNotice(Some(Notice::TooLargeToAutosave)));
                        if !write_hash {
                            link_hash.set(None);
                        }
                        return;
                    }
                    let shared = state.to_shared();
                    browser::storage_set(&key, &share::to_autosave(&shared));
                    let hash = share::encode(&shared);
                    if write_hash {
                        browser::replace_hash(&hash);
                    } else {
                        link_hash.set(Some(hash.into()));
                    }
                }
            };
            let save = Rc::new(save);
            let timeout = {
                let save = Rc::clone(&save);
                Timeout::new(SAVE_DELAY_MS, move || save())
            };
            // Leaving the page (closing, reloading, navigating) within the delay
            // saves at once, so the last edits are not lost.
            let flush = EventListener::new(&gloo::utils::window(), "pagehide", move |_| save());
            move || drop((timeout, flush))
        });
    }
    (*link_hash).clone()
}

/// Keeps the session that "Restore" offers in local storage while it is
/// offered, so a reload still offers it, and forgets it once it is restored or
/// dismissed. Compared by identity: the offer is replaced, never edited.
#[hook]
pub fn use_previous_session(restorable: Option<Rc<SharedState>>, key: String) {
    use_effect_with(
        restorable.map(Shared::from),
        move |restorable| match restorable {
            Some(previous) if share::text_size(previous) <= AUTOSAVE_LIMIT => {
                browser::storage_set(&key, &share::to_autosave(previous));
            }
            Some(_) => {}
            None => browser::storage_remove(&key),
        },
    );
}

/// The current state's share link.
pub fn share_link(state: &Playground) -> String {
    format!("{}{}", browser::page_base(), share::encode(&state.shared()))
}

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use gloo::events::EventListener;
use gloo::timers::callback::Timeout;
use reconcile_content::sessions::SessionIndex;
use reconcile_content::share::{self, SharedState};
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::spawn_local;
use web_sys::StorageEvent;
use yew::prelude::*;

use crate::sessions::{Autosave, Saved, INDEX_KEY};
use crate::shared::Shared;
use crate::state::{Action, Notice, Persisted};
use crate::{browser, links, panic_banner};

/// Over this many bytes of documents, nothing is autosaved (local storage is small).
pub const AUTOSAVE_LIMIT: usize = 1 << 20;
const SAVE_DELAY_MS: u32 = 300;

/// The page's autosave, shared by the hooks that save, fork and switch sessions.
pub type AutosaveHandle = Rc<RefCell<Autosave>>;

/// Autosaves the state shortly after it stops changing. Outside embeds it
/// keeps the address bar's hash equal to the state, so a reload or a copied
/// address brings back exactly this state; in embeds (`write_hash` false) it
/// returns that hash instead, for the "Open in playground" link. Compressing
/// waits for the same quiet moment, so typing never pays for it, and is the
/// browser's, so the hash comes a moment after the autosave; leaving the page
/// before it comes writes an uncompressed hash at once. Documents over the
/// autosave limit get no hash (a link could not carry them).
#[hook]
pub fn use_persistence(
    state: Persisted,
    autosave: AutosaveHandle,
    write_hash: bool,
    dispatch: Callback<Action>,
) -> Option<Rc<str>> {
    let link_hash = use_state(|| None::<Rc<str>>);
    let address = use_mut_ref(Address::default);
    {
        let link_hash = link_hash.clone();
        use_effect_with(state, move |state| {
            let state = Rc::new(state.clone());
            let forks = fork_when_taken(Rc::clone(&state), Rc::clone(&autosave), dispatch.clone());
            panic_banner::remember_state(Rc::clone(&state), &autosave.borrow().key());
            let generation = address.borrow_mut().next();
            let pending = Rc::new(Cell::new(true));
            let save = {
                let pending = Rc::clone(&pending);
                move |leaving: bool| {
                    // After a panic the banner has saved newer texts than these.
                    if panic_banner::has_panicked() {
                        return;
                    }
                    if !pending.replace(false) {
                        // Leaving while this state's hash is still being compressed.
                        let late = write_hash && address.borrow().written != generation;
                        if leaving && late && state.text_size() <= AUTOSAVE_LIMIT {
                            browser::replace_hash(&links::hash_now(&state.to_shared()));
                        }
                        return;
                    }
                    let Some(shared) = save_now(&state, &autosave, &dispatch) else {
                        if !write_hash {
                            link_hash.set(None);
                        }
                        return;
                    };
                    let (address, link_hash) = (Rc::clone(&address), link_hash.clone());
                    let write = move |hash: String| {
                        if address.borrow().shown != generation {
                            return; // A newer state's hash is on its way.
                        }
                        if write_hash {
                            browser::replace_hash(&hash);
                            address.borrow_mut().written = generation;
                        } else {
                            link_hash.set(Some(hash.into()));
                        }
                    };
                    if leaving {
                        write(links::hash_now(&shared));
                    } else {
                        spawn_local(async move { write(links::hash(&shared).await) });
                    }
                }
            };
            let save = Rc::new(save);
            let timeout = {
                let save = Rc::clone(&save);
                Timeout::new(SAVE_DELAY_MS, move || save(false))
            };
            // Leaving the page (closing, reloading, navigating) within the delay
            // saves at once, so the last edits are not lost.
            let flush = EventListener::new(&gloo::utils::window(), "pagehide", move |_| save(true));
            move || drop((timeout, flush, forks))
        });
    }
    (*link_hash).clone()
}

/// Which state's hash the address holds: states are numbered as they come,
/// and a hash compressed for an older one is dropped.
#[derive(Debug, Default)]
struct Address {
    /// The state the page shows.
    shown: u64,
    /// The state whose hash the address bar holds.
    written: u64,
}

impl Address {
    fn next(&mut self) -> u64 {
        self.shown += 1;
        self.shown
    }
}

/// Saves `state` now and tells the page how it went: a failed save turns
/// autosave off (a notice says so) until one succeeds. Returns the state as
/// shared, unless it is over the autosave limit.
pub fn save_now(
    state: &Persisted,
    autosave: &RefCell<Autosave>,
    dispatch: &Callback<Action>,
) -> Option<SharedState> {
    if state.text_size() > AUTOSAVE_LIMIT {
        dispatch.emit(Action::SetNotice(Some(Notice::TooLargeToAutosave)));
        return None;
    }
    let shared = state.to_shared();
    match autosave.borrow_mut().save(&shared) {
        Ok(Saved::Unchanged) => {}
        Ok(saved) => {
            if saved == Saved::Forked {
                dispatch.emit(Action::SetNotice(Some(Notice::Forked)));
            }
            dispatch.emit(Action::AutosaveProblem(None));
        }
        Err(problem) => dispatch.emit(Action::AutosaveProblem(Some(problem))),
    }
    Some(shared)
}

/// Another tab saved this tab's session (its write of the index arrives as
/// a `storage` event): this tab forks at once, saves `state` (what it shows)
/// as its own copy, and says so. None in embeds, which keep no sessions.
fn fork_when_taken(
    state: Rc<Persisted>,
    autosave: AutosaveHandle,
    dispatch: Callback<Action>,
) -> Option<EventListener> {
    autosave.borrow().session_id()?;
    let listener = EventListener::new(&gloo::utils::window(), "storage", move |event| {
        let Some(event) = event.dyn_ref::<StorageEvent>() else {
            return;
        };
        if event.key().as_deref() != Some(INDEX_KEY) {
            return;
        }
        let index = SessionIndex::parse(&event.new_value().unwrap_or_default());
        if autosave.borrow_mut().fork_if_taken(&index) {
            dispatch.emit(Action::SetNotice(Some(Notice::Forked)));
            save_now(&state, &autosave, &dispatch);
        }
    });
    Some(listener)
}

/// Keeps the session that "Restore" offers in local storage while it is
/// offered, so a reload still offers it, and forgets it once it is restored or
/// dismissed. Compared by identity: the offer is replaced, never edited.
#[hook]
pub fn use_previous_session(restorable: Option<Rc<SharedState>>, key: String) {
    use_effect_with(
        restorable.map(Shared::from),
        move |restorable| match restorable {
            // A failure here shows as the autosave's, which fails alike.
            Some(previous) if share::text_size(previous) <= AUTOSAVE_LIMIT => {
                let _ = browser::storage_set(&key, &share::to_autosave(previous));
            }
            Some(_) => {}
            None => browser::storage_remove(&key),
        },
    );
}

/// `state`'s share link.
pub async fn share_link(state: &SharedState) -> String {
    format!("{}{}", browser::page_base(), links::hash(state).await)
}

use std::rc::Rc;

use reconcile_content::sessions::SessionIndex;
use yew::prelude::*;

use crate::browser;
use crate::hooks::use_persistence::{save_now, AutosaveHandle};
use crate::state::{Action, Notice, Persisted};

/// The recent sessions as the menu lists them, read when it opens.
#[derive(Debug, PartialEq)]
pub struct RecentList {
    pub index: SessionIndex,
    /// This tab's session, which the list marks and never deletes.
    pub current: Option<String>,
    /// The time the list was read, for each session's age.
    pub now: u64,
}

/// What the Recent sessions menu shows and does.
#[derive(Clone, PartialEq)]
pub struct RecentSessions {
    /// The list while the menu is open.
    pub list: Option<Rc<RecentList>>,
    /// Opens (reading the list afresh) or closes the menu.
    pub on_show: Callback<bool>,
    /// Opens a session in this tab; the tab's own work is saved first, so
    /// it stays in its session.
    pub on_open: Callback<String>,
    pub on_delete: Callback<String>,
}

/// The Recent sessions menu's state and actions. `state` is what the page
/// shows now, saved before another session replaces it.
#[hook]
pub fn use_recent_sessions(
    autosave: AutosaveHandle,
    state: Persisted,
    dispatch: Callback<Action>,
) -> RecentSessions {
    let list = use_state(|| None::<Rc<RecentList>>);
    let read = {
        let autosave = Rc::clone(&autosave);
        move || {
            let autosave = autosave.borrow();
            Rc::new(RecentList {
                index: autosave.recent(),
                current: autosave.session_id().map(str::to_owned),
                now: browser::now_ms(),
            })
        }
    };
    let on_show = {
        let (list, read) = (list.clone(), read.clone());
        Callback::from(move |open: bool| list.set(open.then(&read)))
    };
    let on_open = {
        let (list, read) = (list.clone(), read.clone());
        let (autosave, dispatch) = (Rc::clone(&autosave), dispatch.clone());
        Callback::from(move |id: String| {
            save_now(&state, &autosave, &dispatch);
            let opened = autosave.borrow_mut().switch_to(&id);
            match opened {
                Some(shared) => {
                    dispatch.emit(Action::OpenSession(Rc::new(shared)));
                    list.set(None);
                }
                // Deleted or evicted by another tab meanwhile.
                None => {
                    dispatch.emit(Action::SetNotice(Some(Notice::SessionGone)));
                    list.set(Some(read()));
                }
            }
        })
    };
    let on_delete = {
        let list = list.clone();
        Callback::from(move |id: String| {
            if let Err(problem) = autosave.borrow().delete(&id) {
                dispatch.emit(Action::AutosaveProblem(Some(problem)));
            }
            list.set(Some(read()));
        })
    };
    RecentSessions {
        list: (*list).clone(),
        on_show,
        on_open,
        on_delete,
    }
}

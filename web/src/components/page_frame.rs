//! The page around the workspace: its header (the embed's bar, or the
//! title, menus and toolbar), the skip link and the help footer.

use std::rc::Rc;

use yew::prelude::*;

use super::lesson_panel::{lesson_invite, lesson_menu};
use super::preset_menu;
use super::recent_sessions::RecentSessionsMenu;
use super::toolbar::{toolbar, ToolbarCallbacks};
use crate::browser;
use crate::hooks::{PageCallbacks, RecentSessions};
use crate::state::{Action, ExerciseAction, Playground};
use reconcile_content::progress::Progress;

/// What the page's header shows and does.
pub struct Header<'a> {
    pub state: &'a Playground,
    pub progress: &'a Rc<Progress>,
    pub recent: &'a RecentSessions,
    pub toolbar: &'a ToolbarCallbacks,
    pub callbacks: &'a PageCallbacks,
    pub dispatch: &'a Callback<Action>,
    pub can_export: bool,
}

/// An embed's bar: the title and a link to the whole playground, with the
/// share link's hash (`link_hash`, made when typing pauses: compressing
/// costs time).
pub fn embed_bar(link_hash: Option<&str>) -> Html {
    let open_full = format!("{}{}", browser::page_base(), link_hash.unwrap_or_default());
    html! {
        <header class="embed-bar">
            <h1 class="embed-title">{ "Reconcile Playground" }</h1>
            <a href={open_full} target="_blank" rel="noopener">{ "Open in playground ↗" }</a>
        </header>
    }
}

/// The page's header: the title, the presets, the lessons, "Your
/// reconcile", Recent sessions and the toolbar.
pub fn top_bar(header: &Header) -> Html {
    let Header {
        state,
        progress,
        dispatch,
        ..
    } = *header;
    let on_lesson = &header.callbacks.on_lesson;
    // Until a first lesson is opened: where to begin, without blocking free play.
    let invite =
        (state.lesson_id().is_none() && progress.is_empty()).then(|| lesson_invite(on_lesson));
    let lesson_documents = state
        .lesson
        .as_ref()
        .filter(|_| state.pristine && state.preset_id.is_none())
        .map(|l| l.lesson.title.as_str());
    let open_exercise = (!state.exercise_open).then(|| {
        html! {
            <button type="button" class="open-exercise"
                    onclick={dispatch.reform(|_: MouseEvent| Action::Exercise(ExerciseAction::Open(None)))}>
                { "Your reconcile" }
            </button>
        }
    });
    html! {
        <header class="topbar">
            <div class="title">
                <h1>{ "Reconcile Playground" }</h1>
                <p class="tagline">
                    { "Edit what you want (desired) and what exists (observed). \
                       Reconcile computes the actions that close the gap." }
                </p>
            </div>
            { preset_menu(state.preset_id, lesson_documents, &dispatch.reform(Action::LoadPreset)) }
            { lesson_menu(state.lesson_id(), progress, on_lesson) }
            // A stable slot: the menu before it keeps the focus when the invitation goes.
            <span class="invite-slot">{ invite }</span>
            { open_exercise }
            <RecentSessionsMenu recent={header.recent.clone()} />
            { toolbar(header.toolbar, header.can_export, state.sim.replay.is_some()) }
        </header>
    }
}

/// The first stop for a keyboard: past the header and the editors, straight
/// to the simulation. The address's hash is the share link's, so the link
/// moves the focus itself rather than navigating to `#sim-heading`.
pub fn skip_link() -> Html {
    let onclick = Callback::from(|e: MouseEvent| {
        e.prevent_default();
        browser::focus_element("sim-heading");
    });
    html! {
        <a class="skip-link" href="#sim-heading" {onclick}>{ "Skip to the simulation" }</a>
    }
}

pub fn help_footer() -> Html {
    html! {
        <footer class="help">
            <p>
                { "Ctrl+Enter (Cmd+Enter) runs one pass; Ctrl+S (Cmd+S) copies a share link. \
                   Tab moves on through an editor until you type in it or press Enter there; then Tab indents and Shift+Tab outdents, until Esc. \
                   Escape closes the panel that has the focus. \
                   Drop a scenario file anywhere to import it. \
                   Specs compare as JSON values: key order is ignored and 1 equals 1.0." }
            </p>
        </footer>
    }
}

//! The notice under the header, and where the focus goes when its buttons
//! vanish with it: to what follows the notice rather than to the page's
//! start (or back to the toolbar).

use yew::prelude::*;

use super::RecentSessions;
use crate::components::toolbar::{notice_banner, NoticeCallbacks};
use crate::state::{Action, Playground};

/// The notice, and the layout's node, which takes the focus.
#[hook]
pub fn use_notice(
    state: &Playground,
    dispatch: &Callback<Action>,
    recent: &RecentSessions,
) -> (Html, NodeRef) {
    let layout = use_node_ref();
    let then_focus_layout = |action: fn() -> Action| {
        let (dispatch, layout) = (dispatch.clone(), layout.clone());
        Callback::from(move |()| {
            dispatch.emit(action());
            if let Some(layout) = layout.cast::<web_sys::HtmlElement>() {
                // Without scrolling: what is left of the banner stays in view.
                let options = web_sys::FocusOptions::new();
                options.set_prevent_scroll(true);
                let _ = layout.focus_with_options(&options);
            }
        })
    };
    let notice = notice_banner(
        state.notice.as_ref(),
        state.shown_link_is_outdated(),
        state.restorable.is_some(),
        &NoticeCallbacks {
            on_dismiss: then_focus_layout(|| Action::Dismiss),
            on_restore: then_focus_layout(|| Action::RestorePrevious),
            on_show_recent: recent.on_show.reform(|()| true),
            on_yaml: dispatch.reform(Action::Yaml),
        },
    );
    (notice, layout)
}

//! Copy, cut and paste where the window would get them wrong: a Select All
//! stands for the whole document, and a large paste skips the textarea.

use reconcile_core::Document;
use web_sys::HtmlTextAreaElement;
use yew::prelude::*;

use super::dom::{clipboard_data, document_selection, selects_all, WindowEdit};
use super::state::{Action, EditorState};
use super::EditorProps;

/// Pastes larger than this skip the textarea (see [`large_paste`]); smaller
/// ones stay native, so the browser's Undo covers them.
const LARGE_PASTE_BYTES: usize = 16 * 1024;

pub(super) struct ClipboardHandlers {
    pub oncopy: Callback<Event>,
    pub oncut: Callback<Event>,
    pub onpaste: Callback<Event>,
}

pub(super) fn clipboard_handlers(
    state: &EditorState,
    props: &EditorProps,
    on_window_edit: &WindowEdit,
) -> ClipboardHandlers {
    ClipboardHandlers {
        oncopy: select_all_copy(state, on_window_edit, false),
        oncut: select_all_copy(state, on_window_edit, true),
        onpaste: large_paste(state, props.document, &props.on_edit),
    }
}

/// Copying or cutting a Select All takes the whole document, not the window.
fn select_all_copy(state: &EditorState, on_edit: &WindowEdit, cut: bool) -> Callback<Event> {
    let (state, on_edit) = (state.clone(), on_edit.clone());
    Callback::from(move |e: Event| {
        let area: HtmlTextAreaElement = e.target_unchecked_into();
        let rendered = state.rendered();
        if rendered.is_whole() || !selects_all(&area) {
            return;
        }
        let Some(data) = clipboard_data(&e) else {
            return;
        };
        if data.set_data("text/plain", &rendered.text).is_ok() {
            e.prevent_default();
            if cut && !area.read_only() {
                state.apply(Action::InputReplacesAll(true));
                drop(rendered);
                on_edit.emit((String::new(), Some(0)));
            }
        }
    })
}

/// A large paste goes straight into the document: the textarea, which only
/// shows a window, never has to take (and lay out) megabytes of text.
fn large_paste(
    state: &EditorState,
    document: Document,
    on_edit: &Callback<(Document, String)>,
) -> Callback<Event> {
    let (state, on_edit) = (state.clone(), on_edit.clone());
    Callback::from(move |e: Event| {
        let area: HtmlTextAreaElement = e.target_unchecked_into();
        let Some(pasted) = clipboard_data(&e)
            .and_then(|data| data.get_data("text/plain").ok())
            .filter(|text| text.len() > LARGE_PASTE_BYTES)
        else {
            return;
        };
        if area.read_only() {
            return;
        }
        let next = {
            let rendered = state.rendered();
            // Only while the textarea shows what was rendered (an input may be
            // waiting for its render); otherwise the browser pastes, and the
            // input splices as usual.
            if area.value() != rendered.shown() {
                return;
            }
            let whole = !rendered.is_whole() && selects_all(&area);
            let (from, to) = if whole {
                (0, rendered.text.len())
            } else {
                document_selection(&area, rendered.window.start)
                    .unwrap_or((rendered.text.len(), rendered.text.len()))
            };
            let next = rendered.replaced((from, to), &pasted);
            let caret = from + pasted.len();
            state.apply(Action::Pasted { caret });
            next
        };
        e.prevent_default();
        on_edit.emit((document, next));
    })
}

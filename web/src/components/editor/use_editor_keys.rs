//! The keys the editor handles itself (Ctrl+Home/End, Tab, Shift+Tab, Escape),
//! and the caret moving near the window's edge, by keys or by a click.

use web_sys::HtmlTextAreaElement;
use yew::prelude::*;

use super::dom::{document_selection, indent, outdent, WindowEdit};
use super::state::{EditorState, Rendered};
use crate::editor_window::{EDGE_BYTES, EDGE_LINES};

pub(super) struct KeyHandlers {
    pub onkeydown: Callback<KeyboardEvent>,
    pub onkeyup: Callback<KeyboardEvent>,
    /// Leaving the editor hands Tab back to moving the focus.
    pub onblur: Callback<FocusEvent>,
    /// A click moves the caret as the arrow keys do.
    pub onmouseup: Callback<MouseEvent>,
}

#[hook]
pub(super) fn use_editor_keys(state: &EditorState, on_window_edit: &WindowEdit) -> KeyHandlers {
    // Tab moves the focus, as everywhere on the page, until the user types in
    // the editor or presses Enter in it; then it indents, until Escape or the
    // focus leaves (a code editor's "Tab moves focus" toggle). So a keyboard
    // user on the way to Step never edits a document by accident.
    let tab_indents = use_mut_ref(|| false);
    let onkeydown = {
        let (state, on_edit, tab_indents) =
            (state.clone(), on_window_edit.clone(), tab_indents.clone());
        Callback::from(move |e: KeyboardEvent| {
            let command = e.ctrl_key() || e.meta_key();
            let key = e.key();
            match key.as_str() {
                "Home" if command => to_document_edge(&state, &e, false),
                "End" if command => to_document_edge(&state, &e, true),
                "Escape" => *tab_indents.borrow_mut() = false,
                "Enter" | "Backspace" | "Delete" if !command => *tab_indents.borrow_mut() = true,
                // A character typed.
                _ if key.chars().nth(1).is_none() && !command && !e.alt_key() => {
                    *tab_indents.borrow_mut() = true;
                }
                "Tab"
                    if *tab_indents.borrow() && !e.ctrl_key() && !e.alt_key() && !e.meta_key() =>
                {
                    e.prevent_default();
                    let area: HtmlTextAreaElement = e.target_unchecked_into();
                    if e.shift_key() {
                        outdent(&area, &on_edit);
                    } else {
                        indent(&area, &on_edit);
                    }
                }
                _ => {}
            }
        })
    };
    // The caret moving near the window's edge (arrow keys, clicks) moves the window.
    let onkeyup = {
        let state = state.clone();
        Callback::from(move |e: KeyboardEvent| follow_caret(&state, &e.target_unchecked_into()))
    };
    let state = state.clone();
    let onmouseup =
        Callback::from(move |e: MouseEvent| follow_caret(&state, &e.target_unchecked_into()));
    let onblur = Callback::from(move |_: FocusEvent| *tab_indents.borrow_mut() = false);
    KeyHandlers {
        onkeydown,
        onkeyup,
        onblur,
        onmouseup,
    }
}

/// Ctrl+Home and Ctrl+End (with Shift, selecting): the textarea only knows the
/// window, so the editor goes to the document's edge itself.
fn to_document_edge(state: &EditorState, e: &KeyboardEvent, end: bool) {
    let (len, window) = {
        let rendered = state.rendered();
        (rendered.text.len(), rendered.window)
    };
    if window.is_whole(len) {
        return;
    }
    e.prevent_default();
    let area: HtmlTextAreaElement = e.target_unchecked_into();
    let target = if end { len } else { 0 };
    let anchor = document_selection(&area, window.start).map_or(target, |(from, to)| {
        if target >= to {
            from
        } else {
            to
        }
    });
    let selection = if e.shift_key() {
        (anchor.min(target), anchor.max(target))
    } else {
        (target, target)
    };
    state.move_window(target, selection);
}

/// Moves the window when the caret comes near its edge.
fn follow_caret(state: &EditorState, area: &HtmlTextAreaElement) {
    let caret = {
        let rendered = state.rendered();
        if rendered.is_whole() || state.placement().settling() {
            return;
        }
        // Only a caret moves the window: moving it under a selection would cut the selection.
        document_selection(area, rendered.window.start)
            .filter(|(from, to)| from == to && near_edge(&rendered, *to))
    };
    if let Some((_, caret)) = caret {
        state.move_window(caret, (caret, caret));
    }
}

/// Whether `caret` is near an edge of the window where the document goes on:
/// by lines, or by bytes where the window cuts a very long line.
fn near_edge(rendered: &Rendered, caret: usize) -> bool {
    let (window, index) = (rendered.window, &rendered.index);
    let line = index.line_of(caret);
    let cut_above = window.start != index.start_of(window.first_line);
    let cut_below = window.end != index.end_of(window.last_line);
    (window.first_line > 0 && line < window.first_line + EDGE_LINES / 2)
        || (window.lines_below() > 0 && line + EDGE_LINES / 2 > window.last_line)
        || (cut_above && caret.saturating_sub(window.start) < EDGE_BYTES)
        || (cut_below && window.end.saturating_sub(caret) < EDGE_BYTES)
}

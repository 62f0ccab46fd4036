//! The window of lines a document is shown through: where this render puts it,
//! and, once the DOM holds the render, the spacers' heights, the selection and
//! the scroll position that go with it. Edits of the window are spliced back
//! into the document here.

use reconcile_core::Document;
use web_sys::{HtmlElement, HtmlTextAreaElement};
use yew::prelude::*;

use super::dom::{measure, select_in_window, set_spacer_heights, EditorRefs, WindowEdit};
use super::state::{Action, EditorState, Placement, Rendered};
use crate::editor_window::{byte_index_of_utf16, LineIndex, TextWindow};

/// This render's window, and what the handlers need to move it.
pub(super) struct EditorWindow {
    pub window: TextWindow,
    pub state: EditorState,
    pub refs: EditorRefs,
}

#[hook]
pub(super) fn use_editor_window(text: &AttrValue) -> EditorWindow {
    let state = EditorState::new(
        use_mut_ref(Rendered::default),
        use_mut_ref(Placement::default),
        use_force_update(),
    );
    let refs = EditorRefs {
        scroller: use_node_ref(),
        area: use_node_ref(),
        spacer_above: use_node_ref(),
        spacer_below: use_node_ref(),
    };
    let index = use_memo(text.clone(), |text| LineIndex::new(text));
    let window = state.place(text, &index);
    use_settle_window(window, &refs, &state);
    EditorWindow {
        window,
        state,
        refs,
    }
}

/// The window's size and place, the selection, and the spacers' heights,
/// once the DOM holds this render.
#[hook]
fn use_settle_window(window: TextWindow, refs: &EditorRefs, state: &EditorState) {
    let (refs, state) = (refs.clone(), state.clone());
    use_effect(move || {
        set_spacer_heights(&refs, window);
        let mut placement = state.placement_mut();
        if let (Some(area), Some(selection)) = (
            refs.area.cast::<HtmlTextAreaElement>(),
            placement.selection.take(),
        ) {
            select_in_window(&area, window, selection);
        }
        if placement.scroll_to.is_some() {
            measure(&refs, window, &mut placement);
        }
        if let (Some(line), Some(scroller)) = (
            placement.scroll_to.take(),
            refs.scroller.cast::<HtmlElement>(),
        ) {
            scroller.set_scroll_top((line as f64 * placement.line_px) as i32);
        }
        || ()
    });
}

/// Edits arrive as the window's new text; the document is the window
/// spliced back in, or the new text alone when it replaced a Select All.
pub(super) fn window_edits(
    state: &EditorState,
    document: Document,
    on_edit: &Callback<(Document, String)>,
) -> WindowEdit {
    let (state, on_edit) = (state.clone(), on_edit.clone());
    Callback::from(move |(edited, caret_utf16): (String, Option<u32>)| {
        let next = {
            let rendered = state.rendered();
            let mut placement = state.placement_mut();
            let whole = placement.take_replaces_all();
            let start = if whole { 0 } else { rendered.window.start };
            let next = if whole {
                edited.clone()
            } else {
                rendered.window.splice(&rendered.text, &edited)
            };
            let caret =
                start + caret_utf16.map_or(edited.len(), |c| byte_index_of_utf16(&edited, c));
            let keep = (!whole).then_some((start, start + edited.len()));
            placement.apply(Action::Edited { keep, caret });
            next
        };
        on_edit.emit((document, next));
    })
}

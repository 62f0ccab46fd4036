//! Listeners put on the editor's elements once, after the first render:
//! scrolling (which moves the window) and `beforeinput` (which tells an input
//! over a Select All from an input in the window).

use gloo::events::EventListener;
use web_sys::{HtmlElement, HtmlTextAreaElement};
use yew::prelude::*;

use super::dom::{document_selection, measure, selects_all};
use super::state::Action;
use super::use_editor_window::EditorWindow;

#[hook]
pub(super) fn use_editor_listeners(editor: &EditorWindow) {
    use_scroll_listener(editor);
    use_select_all_listener(editor);
}

/// Scrolling moves the window when the screen nears its edge; the caret's
/// selection is carried over to the new window.
#[hook]
fn use_scroll_listener(editor: &EditorWindow) {
    let (refs, state) = (editor.refs.clone(), editor.state.clone());
    use_effect_with((), move |()| {
        // Measured on scrolling only: reading layout in every render would force it.
        let listener = refs.scroller.cast::<HtmlElement>().map(|element| {
            let scroller = element.clone();
            EventListener::new(&element, "scroll", move |_| {
                let window = state.rendered().window;
                let mut placement = state.placement_mut();
                if placement.settling() {
                    return;
                }
                measure(&refs, window, &mut placement);
                let first =
                    (f64::from(scroller.scroll_top()) / placement.line_px).max(0.0) as usize;
                placement.apply(Action::Scrolled { first_line: first });
                if !window.covers(first, first + placement.screen_lines) {
                    let selection = refs
                        .area
                        .cast::<HtmlTextAreaElement>()
                        .and_then(|area| document_selection(&area, window.start));
                    placement.apply(Action::ScrolledPastEdge { selection });
                    drop(placement);
                    state.rerender();
                }
            })
        });
        move || drop(listener)
    });
}

/// Select All selects the whole window, which stands for the whole document:
/// typing or pasting over it replaces the document.
#[hook]
fn use_select_all_listener(editor: &EditorWindow) {
    let (area_ref, state) = (editor.refs.area.clone(), editor.state.clone());
    use_effect_with((), move |()| {
        let listener = area_ref.cast::<HtmlTextAreaElement>().map(|area| {
            let target = area.clone();
            EventListener::new(&area, "beforeinput", move |_| {
                state.apply(Action::InputReplacesAll(selects_all(&target)));
            })
        });
        move || drop(listener)
    });
}

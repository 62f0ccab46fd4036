//! Listeners put on the editor's elements once, after the first render:
//! scrolling (which moves the window) and `beforeinput` (which tells an input
//! over a Select All from an input in the window).

use gloo::events::EventListener;
use wasm_bindgen::JsValue;
use web_sys::{EventTarget, HtmlElement, HtmlTextAreaElement, Node};
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
    // Measured on scrolling only: reading layout in every render would force it.
    use_element_listener(
        &editor.refs.scroller,
        "scroll",
        move |scroller: &HtmlElement| {
            let window = state.rendered.borrow().window;
            let mut placement = state.placement.borrow_mut();
            if placement.settling() {
                return;
            }
            measure(&refs, window, &mut placement);
            let first = (f64::from(scroller.scroll_top()) / placement.line_px).max(0.0) as usize;
            placement.apply(Action::Scrolled { first_line: first });
            if !window.covers(first, first + placement.screen_lines) {
                let selection = refs
                    .area
                    .cast::<HtmlTextAreaElement>()
                    .and_then(|area| document_selection(&area, window.start));
                placement.apply(Action::ScrolledPastEdge { selection });
                drop(placement);
                state.rerender.force_update();
            }
        },
    );
}

/// Select All selects the whole window, which stands for the whole document:
/// typing or pasting over it replaces the document.
#[hook]
fn use_select_all_listener(editor: &EditorWindow) {
    let placement = editor.state.placement.clone();
    use_element_listener(
        &editor.refs.area,
        "beforeinput",
        move |area: &HtmlTextAreaElement| {
            let replaces_all = selects_all(area);
            placement
                .borrow_mut()
                .apply(Action::InputReplacesAll(replaces_all));
        },
    );
}

/// Calls `on_event` with the element behind `node` on each `event` there,
/// from the first render on.
#[hook]
fn use_element_listener<T, F>(node: &NodeRef, event: &'static str, on_event: F)
where
    T: AsRef<Node> + AsRef<EventTarget> + From<JsValue> + Clone + 'static,
    F: Fn(&T) + 'static,
{
    let node = node.clone();
    use_effect_with((), move |()| {
        let listener = node.cast::<T>().map(|element| {
            let target = element.clone();
            EventListener::new(AsRef::<EventTarget>::as_ref(&element), event, move |_| {
                on_event(&target)
            })
        });
        move || drop(listener)
    });
}

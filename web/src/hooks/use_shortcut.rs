use gloo::events::{EventListener, EventListenerOptions};
use wasm_bindgen::JsCast;
use web_sys::{HtmlDetailsElement, HtmlElement, KeyboardEvent};
use yew::prelude::*;

/// Page-wide shortcuts: Ctrl+Enter steps, Ctrl+S copies the share link
/// (Cmd instead of Ctrl on macOS), and Escape closes the disclosure panel
/// (`<details>`) that holds the focus.
#[hook]
pub fn use_shortcuts(on_step: Callback<()>, on_share: Callback<()>) {
    use_effect_with((), move |()| {
        // Not passive: the shortcuts must stop the browser's own action (Save page).
        let options = EventListenerOptions::enable_prevent_default();
        let window = gloo::utils::window();
        let listener = EventListener::new_with_options(&window, "keydown", options, move |event| {
            let Some(event) = event.dyn_ref::<KeyboardEvent>() else {
                return;
            };
            if event.key() == "Escape" && !event.default_prevented() {
                close_details_around_focus();
                return;
            }
            if !(event.ctrl_key() || event.meta_key()) || event.alt_key() || event.repeat() {
                return;
            }
            match event.key().as_str() {
                "Enter" => {
                    event.prevent_default();
                    on_step.emit(());
                }
                "s" | "S" => {
                    event.prevent_default();
                    on_share.emit(());
                }
                _ => {}
            }
        });
        move || drop(listener)
    });
}

/// Closes the innermost open `<details>` around the focused element and puts
/// the focus on its summary, where Enter or Space opens it again. Closing it
/// fires `toggle`, so components that track `open` stay in step.
fn close_details_around_focus() {
    let focused = gloo::utils::document().active_element();
    let details = focused
        .and_then(|element| element.closest("details[open]").ok().flatten())
        .and_then(|element| element.dyn_into::<HtmlDetailsElement>().ok());
    if let Some(details) = details {
        details.set_open(false);
        let summary = details
            .query_selector(":scope > summary")
            .ok()
            .flatten()
            .and_then(|summary| summary.dyn_into::<HtmlElement>().ok());
        if let Some(summary) = summary {
            let _ = summary.focus();
        }
    }
}

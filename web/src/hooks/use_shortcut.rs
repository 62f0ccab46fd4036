use gloo::events::{EventListener, EventListenerOptions};
use wasm_bindgen::JsCast;
use web_sys::KeyboardEvent;
use yew::prelude::*;

/// Calls `callback` on Ctrl+Enter (Cmd+Enter on macOS) anywhere in the page.
#[hook]
pub fn use_ctrl_enter(callback: Callback<()>) {
    use_effect_with((), move |()| {
        // Not passive: the shortcut must stop Ctrl+Enter's default action.
        let options = EventListenerOptions::enable_prevent_default();
        let window = gloo::utils::window();
        let listener = EventListener::new_with_options(&window, "keydown", options, move |event| {
            let Some(event) = event.dyn_ref::<KeyboardEvent>() else {
                return;
            };
            if event.key() == "Enter" && (event.ctrl_key() || event.meta_key()) && !event.repeat() {
                event.prevent_default();
                callback.emit(());
            }
        });
        move || drop(listener)
    });
}

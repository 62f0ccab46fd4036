use gloo::events::{EventListener, EventListenerOptions};
use wasm_bindgen::JsCast;
use web_sys::KeyboardEvent;
use yew::prelude::*;

/// Page-wide shortcuts: Ctrl+Enter steps, Ctrl+S copies the share link
/// (Cmd instead of Ctrl on macOS).
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

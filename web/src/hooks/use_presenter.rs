//! Presenter mode's keys and current pane (`present.rs` decides what a key does).

use std::rc::Rc;

use gloo::events::{EventListener, EventListenerOptions};
use wasm_bindgen::JsCast;
use web_sys::KeyboardEvent;
use yew::prelude::*;

use crate::browser;
use crate::embed::{EmbedOptions, MESSAGE_KEY};
use crate::hooks::use_embed_bridge::{post_to_allowed, seal};
use crate::present::{key_use, presented, Focus, KeyUse, Shown};

/// The panes presenter mode moves through, the one shown, and how to move.
#[derive(Clone, PartialEq)]
pub struct Presenter {
    pub shown: Vec<Shown>,
    pub index: usize,
    pub on_move: Callback<usize>,
}

impl Presenter {
    pub fn current(&self) -> Option<Shown> {
        self.shown.get(self.index).copied()
    }
}

/// In presenter mode, the pane shown and the keys that move it; `None` otherwise.
#[hook]
pub fn use_presenter(options: &Rc<EmbedOptions>, lesson_open: bool) -> Option<Presenter> {
    let chosen = use_state(|| None::<Shown>);
    let shown = presented(options, lesson_open);
    // The chosen pane stays shown when a lesson opens or closes before it.
    let index = chosen
        .and_then(|pane| shown.iter().position(|s| *s == pane))
        .unwrap_or(0);
    let on_move = {
        let (chosen, shown) = (chosen.clone(), shown.clone());
        Callback::from(move |index: usize| {
            if let Some(pane) = shown.get(index) {
                chosen.set(Some(*pane));
                gloo::utils::window().scroll_to_with_x_and_y(0.0, 0.0);
            }
        })
    };
    let present = options.present;
    {
        let (options, on_move) = (Rc::clone(options), on_move.clone());
        use_effect_with(
            (present, index, shown.len()),
            move |&(present, index, count)| {
                let listener = present.then(|| listen(options, on_move, index, count));
                move || drop(listener)
            },
        );
    }
    present.then_some(Presenter {
        shown,
        index,
        on_move,
    })
}

fn listen(
    options: Rc<EmbedOptions>,
    on_move: Callback<usize>,
    index: usize,
    count: usize,
) -> EventListener {
    // Not passive: a key sent to the course page must not also scroll the frame.
    let passive = EventListenerOptions::enable_prevent_default();
    let window = gloo::utils::window();
    EventListener::new_with_options(&window, "keydown", passive, move |event| {
        let Some(event) = event.dyn_ref::<KeyboardEvent>() else {
            return;
        };
        if event.default_prevented() {
            return;
        }
        let modified = event.ctrl_key() || event.alt_key() || event.meta_key();
        match key_use(&event.key(), modified, focus(), index, count) {
            KeyUse::Move(to) => {
                event.prevent_default();
                on_move.emit(to);
            }
            KeyUse::Forward if browser::in_frame() => {
                event.prevent_default();
                let message = js_sys::Object::new();
                seal(&message, MESSAGE_KEY);
                let _ = js_sys::Reflect::set(&message, &"key".into(), &event.key().into());
                let _ =
                    js_sys::Reflect::set(&message, &"shiftKey".into(), &event.shift_key().into());
                post_to_allowed(&options, &message);
            }
            KeyUse::Forward | KeyUse::Keep => {}
        }
    })
}

/// What holds the focus: an editing control keeps every key.
fn focus() -> Focus {
    let Some(element) = gloo::utils::document().active_element() else {
        return Focus::Other;
    };
    let is = |selector: &str| element.matches(selector).unwrap_or(false);
    if is("input, textarea, select, [contenteditable]:not([contenteditable=false])") {
        Focus::Editing
    } else if is("button, a[href], summary, [role=button]") {
        Focus::Control
    } else {
        Focus::Other
    }
}

//! "Your reconcile", the pane where a learner writes `reconcile` and checks
//! it: a yew app of its own, in a wasm module of its own
//! (`pkg/reconcile_exercise_ui.js`), which the page imports the first time
//! the pane opens and mounts into an element it provides. So the page's first
//! load carries none of the pane (docs/SIZE.md).
//!
//! Invariant: no reconcile logic lives here either. The pane's state is a
//! typed [`state::ExerciseAction`] reduced in [`state::ExerciseState`]; the
//! JS API's `check()` and `checkLoop()` run the code in the sandbox and decide
//! (`learner.rs` only converts what they report). What the page and the pane
//! tell each other is `reconcile_content::pane`'s types, as JSON text.

pub mod app;
pub mod components;
pub mod hooks;
pub mod learner;
pub mod state;

use reconcile_content::pane::{PaneEvent, PaneInput};
use wasm_bindgen::prelude::*;
use yew::prelude::*;
use yew::AppHandle;

use reconcile_ui_shared::tree_id::claim_a_tree_id_the_page_does_not_use;

use crate::app::{PaneApp, PaneProps};

/// The mounted pane, for the page to update.
#[wasm_bindgen]
pub struct Pane {
    app: AppHandle<PaneApp>,
    events: Callback<PaneEvent>,
}

/// Starts the pane inside `host` with `input` (a [`PaneInput`]'s JSON);
/// `on_event` is called with the JSON text of each [`PaneEvent`].
#[wasm_bindgen]
pub fn mount(
    host: web_sys::Element,
    input: &str,
    on_event: js_sys::Function,
) -> Result<Pane, JsError> {
    let input = PaneInput::from_json(input).map_err(|e| JsError::new(&e))?;
    let events = Callback::from(move |event: PaneEvent| {
        let _ = on_event.call1(&JsValue::NULL, &event.to_json().into());
    });
    claim_a_tree_id_the_page_does_not_use(&host);
    let props = PaneProps {
        input,
        events: events.clone(),
    };
    let app = yew::Renderer::<PaneApp>::with_root_and_props(host, props).render();
    Ok(Pane { app, events })
}

#[wasm_bindgen]
impl Pane {
    /// What the page gives the pane changed (a [`PaneInput`]'s JSON).
    pub fn update(&mut self, input: &str) -> Result<(), JsError> {
        let input = PaneInput::from_json(input).map_err(|e| JsError::new(&e))?;
        self.app.update(PaneProps {
            input,
            events: self.events.clone(),
        });
        Ok(())
    }
}

//! Start at `mount`, then `app::PaneApp` and `state::ExerciseState`.
//!
//! "Your reconcile", the pane where a learner writes `reconcile` and checks
//! it: the seed's pure function, or a controller exercise's module. A yew
//! app of its own, in a wasm module of its own
//! (`pkg/reconcile_exercise_ui.js`), which the page imports the first time
//! the pane opens and mounts into an element it provides. So the page's first
//! load carries none of the pane (docs/SIZE.md).
//!
//! Invariant: no reconcile logic lives here either. The pane's state is a
//! typed [`state::ExerciseAction`] reduced in [`state::ExerciseState`]; the
//! JS API's `check()`, `checkLoop()` and `checkController()` run the code in
//! the sandbox and decide
//! (`learner.rs` only converts what they report). What the page and the pane
//! tell each other is `reconcile_protocol::pane`'s types, as JSON text.
//!
//! It is a cdylib built like the JS API's modules (`cargo xtask ui-modules`,
//! a Trunk `post_build` hook: cargo, wasm-bindgen `--target web`, wasm-opt)
//! into `dist/pkg/`, with its stylesheet (`style/pane.css`). The page keeps
//! only the learner's code (for links and autosaves: every exercise's, in
//! both languages), the header button, `?exercise=` and `?lang=`, and a
//! loader. The pane switches to the exercise and language the address asks
//! for when it mounts, so the page links none of the controller starters. The pane keeps its runs and
//! results, and survives being closed: the page takes its element out of the
//! layout and puts it back.
//!
//! Two yew apps share one DOM. Each numbers the trees it controls from 1
//! under the same JS property, so the pane takes a number above the page's
//! before it mounts (`reconcile_ui_shared::tree_id`). Else the page's event
//! handler on `<body>` would take the pane's events for its own.
//!
//! # Modules
//!
//! - `lib.rs`: `mount(host, input, onEvent)` and the `Pane` it returns
//!   (`update(input)`), exported with wasm-bindgen.
//! - `app`: `PaneApp`, the root. It applies `?exercise=` and `?lang=` once,
//!   takes the page's code when its revision changes, reports each change of
//!   the code once, and turns the pane's callbacks into `PaneEvent`s.
//! - `state`: `ExerciseState` and its `ExerciseAction`s: the code, the
//!   exercise chosen, the hints shown, where its Check, its run in the loop
//!   and a controller's Check stand, "Start over" and "Bring back my code".
//!   A late answer of an earlier run is ignored.
//! - `components`: the pane, the code editor (Tab indents, Esc then Tab
//!   leaves), the counterexample and the learner's output.
//!   `controller_view`: the exercise choice, a controller exercise's goal
//!   and hints, its properties, counterexample, story and replay link.
//! - `hooks`: `use_learner_run` numbers each run and reports its progress
//!   and end to the reducer, and a Check's result to the page (`checked`,
//!   or `controller-checked` for a controller).
//! - `learner`: imports `pkg/reconcile.js` on the first Check and calls its
//!   `check()`, `checkLoop()` or `checkController()`; it converts their
//!   results, read with core's JSON reader.

pub mod app;
pub mod components;
pub mod hooks;
pub mod learner;
pub mod state;

use reconcile_protocol::pane::{PaneEvent, PaneInput};
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

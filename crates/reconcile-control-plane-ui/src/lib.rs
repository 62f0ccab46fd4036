//! The control-plane view: the picture of the API server's store, the watch
//! events in flight, the informer cache, the work queue, the controller and
//! the other actors at the simulation's cursor, with its text equivalent, and
//! below it the run's swimlanes and the key's backoff plot. A yew app of its
//! own, in a wasm module of its own (`pkg/reconcile_control_plane_ui.js`),
//! which the page imports the first time the view's `<details>` opens and
//! mounts into an element it provides, so the page's first load carries none
//! of it (docs/SIZE.md).
//!
//! Invariant: the page's reducer owns the one cursor, and the view only shows
//! it. What crosses between them is `reconcile_content::control_plane`'s
//! types as JSON text: the run (the scenario and the `SimConfig`, sent only
//! when they change) and the cursor (on every move) come in; a request to
//! move the cursor (`ViewEvent::MoveTo`) goes out. The view simulates the run
//! itself with `reconcile_sim` (deterministic, so it is the page's run) and
//! replays it for its pictures ([`state::ViewState`]); the components only
//! place and word what `reconcile_sim::picture`, `Swimlanes` and
//! `BackoffSeries` computed.
//!
//! A second view lives here too, mounted on its own with
//! [`mount_level_edge`]: "Level- vs edge-triggered" ([`level_edge`]), which
//! compares the same run (`reconcile_sim::compare_level_edge`) and so needs
//! the same engine; the page loads this one module for either view.

pub mod app;
pub mod components;
pub mod level_edge;
pub mod state;

use reconcile_content::control_plane::{LevelEdgeInput, ViewEvent, ViewInput};
use reconcile_ui_shared::tree_id::claim_a_tree_id_the_page_does_not_use;
use wasm_bindgen::prelude::*;
use yew::prelude::*;
use yew::AppHandle;

use crate::app::{ViewApp, ViewProps};
use crate::level_edge::app::{LevelEdgeApp, LevelEdgeProps};
use crate::level_edge::LevelEdgeState;
use crate::state::ViewState;

/// The mounted view, for the page to update.
#[wasm_bindgen]
pub struct View {
    app: AppHandle<ViewApp>,
    state: ViewState,
    on_move: Callback<usize>,
}

/// Starts the view inside `host` with `input` (a [`ViewInput`]'s JSON, with
/// the run); `on_event` is called with the JSON text of each [`ViewEvent`].
/// The run is simulated and replayed to the cursor here, before the first
/// render; the app is first rendered at the step after the cursor and then
/// at the cursor (one task: only the second is painted), so that the first
/// step costs about what any step costs ([`ViewState::warm_up`]).
#[wasm_bindgen]
pub fn mount(
    host: web_sys::Element,
    input: &str,
    on_event: js_sys::Function,
) -> Result<View, JsError> {
    let mut state = ViewState::default();
    take_input(input, ViewInput::from_json, |input| state.take(input))?;
    let on_move = to_page(on_event, |position| ViewEvent::MoveTo { position });
    claim_a_tree_id_the_page_does_not_use(&host);
    let props = |shown| ViewProps {
        shown,
        on_move: on_move.clone(),
    };
    let warm_up = state.warm_up();
    let first = warm_up.unwrap_or_else(|| state.shown());
    let mut app = yew::Renderer::<ViewApp>::with_root_and_props(host, props(first)).render();
    app.update(props(state.shown()));
    Ok(View {
        app,
        state,
        on_move,
    })
}

#[wasm_bindgen]
impl View {
    /// The cursor moved, or the run changed (a [`ViewInput`]'s JSON).
    pub fn update(&mut self, input: &str) -> Result<(), JsError> {
        take_input(input, ViewInput::from_json, |input| self.state.take(input))?;
        self.app.update(ViewProps {
            shown: self.state.shown(),
            on_move: self.on_move.clone(),
        });
        Ok(())
    }
}

/// The mounted level-vs-edge view, for the page to update.
#[wasm_bindgen]
pub struct LevelEdgeView {
    app: AppHandle<LevelEdgeApp>,
    state: LevelEdgeState,
    on_reveal: Callback<()>,
}

/// Starts the level-vs-edge view inside `host` with `input` (a
/// [`LevelEdgeInput`]'s JSON, with the run, which is compared here before
/// the first render); `on_event` is called with the JSON text of each
/// [`ViewEvent`] (`RevealConclusion`).
#[wasm_bindgen]
pub fn mount_level_edge(
    host: web_sys::Element,
    input: &str,
    on_event: js_sys::Function,
) -> Result<LevelEdgeView, JsError> {
    let mut state = LevelEdgeState::default();
    take_input(input, LevelEdgeInput::from_json, |input| state.take(input))?;
    let on_reveal = to_page(on_event, |()| ViewEvent::RevealConclusion);
    claim_a_tree_id_the_page_does_not_use(&host);
    let props = LevelEdgeProps {
        shown: state.shown(),
        on_reveal: on_reveal.clone(),
    };
    let app = yew::Renderer::<LevelEdgeApp>::with_root_and_props(host, props).render();
    Ok(LevelEdgeView {
        app,
        state,
        on_reveal,
    })
}

#[wasm_bindgen]
impl LevelEdgeView {
    /// The cursor moved, the conclusion was revealed, or the run changed (a
    /// [`LevelEdgeInput`]'s JSON).
    pub fn update(&mut self, input: &str) -> Result<(), JsError> {
        take_input(input, LevelEdgeInput::from_json, |input| {
            self.state.take(input)
        })?;
        self.app.update(LevelEdgeProps {
            shown: self.state.shown(),
            on_reveal: self.on_reveal.clone(),
        });
        Ok(())
    }
}

/// Reads the page's input `text` with `read` and gives it to `take`; either
/// one's error is the mount's or the update's.
fn take_input<I>(
    text: &str,
    read: fn(&str) -> Result<I, String>,
    take: impl FnOnce(I) -> Result<(), String>,
) -> Result<(), JsError> {
    read(text)
        .and_then(take)
        .map_err(|error| JsError::new(&error))
}

/// A callback that tells the page `event(value)`, as JSON, through `on_event`.
fn to_page<T: 'static>(on_event: js_sys::Function, event: fn(T) -> ViewEvent) -> Callback<T> {
    Callback::from(move |value| {
        let _ = on_event.call1(&JsValue::NULL, &event(value).to_json().into());
    })
}

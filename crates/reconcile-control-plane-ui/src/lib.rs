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
//!
//! And the simulation section's app ([`section`], mounted with
//! [`mount_simulation`]): the section after the page's controls, with both
//! views as its components, and World now (issue 17's split,
//! docs/design/simulation-module.md). What crosses is
//! `reconcile_content::section`'s `SimulationInput` in and
//! `SimulationEvent`s out.

pub mod app;
pub mod components;
pub mod level_edge;
pub mod section;
pub mod state;

use std::cell::RefCell;
use std::rc::Rc;

use reconcile_content::control_plane::{LevelEdgeInput, ViewEvent, ViewInput};
use reconcile_content::section::{SimulationEvent, SimulationInput};
use reconcile_ui_shared::tree_id::claim_a_tree_id_the_page_does_not_use;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use yew::prelude::*;
use yew::AppHandle;

use crate::app::{ViewApp, ViewProps};
use crate::level_edge::app::{LevelEdgeApp, LevelEdgeProps};
use crate::level_edge::LevelEdgeState;
use crate::section::app::{SectionApp, SectionProps};
use crate::section::state::{Answers, SectionState};
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

/// The mounted simulation section, for the page to update.
#[wasm_bindgen]
pub struct SimulationView {
    app: AppHandle<SectionApp>,
    /// Shared with the task that answers the cursor after the app has drawn it.
    state: Rc<RefCell<SectionState>>,
    to_page: Callback<SimulationEvent>,
    on_move: Callback<usize>,
}

/// Starts the simulation section's app inside `host` (the page's element
/// after the section's controls) with `input` (a [`SimulationInput`]'s
/// JSON); `on_event` is called with the JSON text of each
/// [`SimulationEvent`]. The events an input causes (the run's facts, a
/// lesson check's answer, then the next pass's view) are sent in that order,
/// in microtasks after the call that caused them, never during it.
#[wasm_bindgen]
pub fn mount_simulation(
    host: web_sys::Element,
    input: &str,
    on_event: js_sys::Function,
) -> Result<SimulationView, JsError> {
    let input = SimulationInput::from_json(input).map_err(|error| JsError::new(&error))?;
    let mut state = SectionState::default();
    let answers = state.take_shown(input);
    let to_page = queued_to_page(on_event);
    let on_move = to_page.reform(|position| SimulationEvent::MoveTo { position });
    claim_a_tree_id_the_page_does_not_use(&host);
    let props = SectionProps {
        shown: state.shown(),
        to_page: to_page.clone(),
        on_move: on_move.clone(),
    };
    let app = yew::Renderer::<SectionApp>::with_root_and_props(host, props).render();
    let view = SimulationView {
        app,
        state: Rc::new(RefCell::new(state)),
        to_page,
        on_move,
    };
    deliver(answers, &view.to_page);
    view.answer_next_pass_after_drawing();
    Ok(view)
}

#[wasm_bindgen]
impl SimulationView {
    /// The page's input changed (a [`SimulationInput`]'s JSON): a new run,
    /// the cursor, the frame, a view opened, a lesson's check, a results
    /// download.
    pub fn update(&mut self, input: &str) -> Result<(), JsError> {
        let input = SimulationInput::from_json(input).map_err(|error| JsError::new(&error))?;
        let (answers, warm_up, shown) = {
            let mut state = self.state.borrow_mut();
            let picture_was_shown = state.shown().picture.is_some();
            let answers = state.take_shown(input);
            // The control-plane view opens: first drawn at the next step.
            let warm_up = (!picture_was_shown).then(|| state.warm_up()).flatten();
            (answers, warm_up, state.shown())
        };
        let props = |shown| SectionProps {
            shown,
            to_page: self.to_page.clone(),
            on_move: self.on_move.clone(),
        };
        if let Some(next) = warm_up {
            self.app.update(props(next));
        }
        self.app.update(props(shown));
        deliver(answers, &self.to_page);
        self.answer_next_pass_after_drawing();
        Ok(())
    }
}

impl SimulationView {
    /// The next pass's view (the page's plan at the cursor), worked out in a
    /// microtask queued after the app's render: a step is drawn first, and
    /// its plan follows in the same task.
    fn answer_next_pass_after_drawing(&self) {
        let (state, to_page) = (Rc::clone(&self.state), self.to_page.clone());
        let answer = Closure::once_into_js(move || {
            let mut answers = Answers::default();
            state.borrow_mut().answer_next_pass(&mut answers);
            deliver(answers, &to_page);
        });
        gloo::utils::window().queue_microtask(answer.unchecked_ref());
    }
}

/// Sends an input's answers: its events to the page, its results as a
/// download, its errors to the console (a run that does not read leaves the
/// page with the facts it had).
fn deliver(answers: Answers, to_page: &Callback<SimulationEvent>) {
    for error in answers.errors {
        gloo::console::error!(error);
    }
    if let Some(results) = answers.results {
        reconcile_ui_shared::download::download("results.json", &results);
    }
    for event in answers.events {
        to_page.emit(event);
    }
}

/// A callback that tells the page each event, as JSON, through `on_event`:
/// queued, and sent in order in a microtask, so that the page never hears
/// from the module while it is calling it (mounting or updating it).
fn queued_to_page(on_event: js_sys::Function) -> Callback<SimulationEvent> {
    let queue = Rc::new(RefCell::new(Vec::<String>::new()));
    Callback::from(move |event: SimulationEvent| {
        let first = {
            let mut queue = queue.borrow_mut();
            queue.push(event.to_json());
            queue.len() == 1
        };
        if !first {
            return;
        }
        let (queue, on_event) = (Rc::clone(&queue), on_event.clone());
        let send = Closure::once_into_js(move || {
            let texts = std::mem::take(&mut *queue.borrow_mut());
            for text in texts {
                let _ = on_event.call1(&JsValue::NULL, &text.into());
            }
        });
        gloo::utils::window().queue_microtask(send.unchecked_ref());
    })
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

//! Start at `mount_simulation`, then `section::state::SectionState`.
//!
//! The simulation section's module (issue 17's split,
//! docs/design/simulation-module.md): the engine and every view of the run,
//! in a wasm module of its own (`pkg/reconcile_simulation_ui.js`) that the
//! page imports once its first view has painted, so the first view carries
//! none of it (docs/SIZE.md). Its one app ([`section`], mounted with
//! [`mount_simulation`] into the element the page keeps after the section's
//! controls) shows the verdict, the timeline, the chart, the status grid,
//! Faults and settings, World now (by portal, beside the editors), and the
//! two views of the run: the control-plane view (the picture of the API
//! server's store, the watch events in flight, the informer cache, the work
//! queue and the controller at the cursor, with its swimlanes and backoff
//! plot: [`components`], [`state::ViewState`]) and level vs edge
//! ([`level_edge`], `reconcile_sim::compare_level_edge`).
//!
//! Invariant: the page's reducer owns the one cursor, the settings links
//! hold, and whether each view is open; the module simulates the run it is
//! given once per revision and shows it at the page's cursor. What crosses
//! is `reconcile_protocol::section`'s `SimulationInput` (JSON text) in and
//! `SimulationEvent`s out (the run's facts, the view the next pass reads,
//! requests to move the cursor or change a setting, a lesson check's
//! answer). The components only place and word what `reconcile_sim`
//! computed (`picture`, `Swimlanes`, `BackoffSeries`, the timeline).
//!
//! It is a cdylib built as the pane is (`cargo xtask ui-modules` builds both),
//! with its stylesheet (`style/view.css`). The page keeps the settings, the
//! one cursor, how far the run is revealed, whether each view is open, the
//! section's frame, its controls and Play's beat. The module simulates each
//! revision once (`reconcile_sim::simulate`) and shares that run among the
//! timeline, chart, status grid, World now (a yew portal into the page's
//! `#world-now-host`) and the control-plane view (`reconcile_sim::picture`,
//! `Swimlanes` and `BackoffSeries`, which replay it). Level vs edge compares
//! the run (`reconcile_sim::compare_level_edge`, behind `reconcile-sim`'s
//! `level-edge` feature, which this crate alone turns on). It links neither
//! the page, the JS API nor the pane.
//!
//! The answers go out as `SimulationEvent`s in microtasks, never while the
//! page is calling in: the run's facts first
//! (`reconcile_protocol::simulation::RunFacts`: the moments, passes and pass
//! starts the page needs to move the cursor), then, after the app has drawn
//! the cursor, the view the next pass reads. A setting changed in Faults and
//! settings goes out as the whole settings
//! (`reconcile_protocol::setting_change::SettingChange::apply` at the
//! cursor's pass).
//!
//! # Modules
//!
//! - `lib.rs`: `mount_simulation(host, input, onEvent)` and the
//!   `SimulationView` it returns (`update(input)`).
//! - `section/state.rs`: `SectionState`: the run of each revision simulated
//!   once (`SectionRun`: scenario, settings, timeline, results.json), the
//!   replay for the next pass's view (`PassViews`), a lesson check answered
//!   once per id, and the two views fed while open. Tested natively.
//!   A `RunInput` with a `replay` (a `#v4/` link's, issue 30) is opened
//!   with `ReplayLink::open_for_views` instead: its timeline, its kept
//!   pictures (`SectionRun::picture_replay`) and the check's words
//!   (`ReplayShown`); no contract run, so no next pass's view and no level
//!   vs edge. A replay that does not open is said in the section.
//! - `section/components/replay.rs`: the replay's banner (exercise, the
//!   property that broke, the story, "Go to where it broke", the calls at
//!   the cursor), its refusal, and the notes of views that do not apply.
//! - `section/app.rs`, `section/components/`: the section's app: the verdict
//!   and snapshot banners, the timeline (`pass_list.rs`), chart, status grid,
//!   Faults and settings, the two views' `<details>` (`run_views.rs`) and
//!   World now.
//! - `state`: `ViewState`, the control-plane view's state: the section's run
//!   (`Run`: its timeline, its `PictureReplay`, which stays where it stopped,
//!   its swimlanes and backoff series, computed once when the run arrives) and
//!   the picture at the cursor, computed once per move.
//! - `components`: the picture (two layouts, wide and stacked, and the text
//!   equivalent; `words.rs` is its one place for wording), `swimlanes.rs` and
//!   `backoff_plot.rs`.
//! - `level_edge`: `LevelEdgeState` (the run compared once when it arrives,
//!   its lanes again only when the revealed moment moves) and `view.rs`.

pub mod components;
pub mod level_edge;
pub mod section;
pub mod state;

use std::cell::RefCell;
use std::rc::Rc;

use reconcile_protocol::section::{SimulationEvent, SimulationInput};
use reconcile_ui_shared::tree_id::claim_a_tree_id_the_page_does_not_use;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use yew::prelude::*;
use yew::AppHandle;

use crate::section::app::{SectionApp, SectionProps};
use crate::section::state::{Answers, SectionState};

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

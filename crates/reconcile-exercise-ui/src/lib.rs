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

/// The page's yew and this one are two wasm instances, and each numbers the
/// DOM trees it controls from 1, under the same JS property on the elements
/// (`__yew_subtree_id`). The page's tree is `<body>`, an ancestor of `host`,
/// and its event handler there takes an event for its own when the nearest
/// numbered element has its number: with the pane's tree numbered 1 too, a
/// click in the pane would run a listener of the page's. So trees are made
/// and dropped until the number after them is above every number on `host`'s
/// ancestors, and the pane's tree gets that one.
fn claim_a_tree_id_the_page_does_not_use(host: &web_sys::Element) {
    let number = |element: &web_sys::Element| {
        js_sys::Reflect::get(element, &TREE_ID.into())
            .ok()
            .and_then(|id| id.as_f64())
    };
    let highest = std::iter::successors(host.parent_element(), |element| element.parent_element())
        .filter_map(|element| number(&element))
        .fold(0.0, f64::max);
    let document = gloo::utils::document();
    loop {
        let Ok(scratch) = document.create_element("div") else {
            return;
        };
        yew::Renderer::<Scratch>::with_root(scratch.clone())
            .render()
            .destroy();
        if number(&scratch).is_none_or(|taken| taken >= highest) {
            return;
        }
    }
}

/// The property yew numbers its trees' elements with.
const TREE_ID: &str = "__yew_subtree_id";

/// An empty app, mounted only to take a tree number.
#[component]
fn Scratch() -> Html {
    html! {}
}

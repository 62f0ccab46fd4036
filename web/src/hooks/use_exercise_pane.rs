use std::rc::Rc;

use reconcile_core::export_scenario;
use reconcile_protocol::pane::{PaneEvent, PaneInput};
use yew::prelude::*;

use super::use_on_demand::{use_on_demand, Bridge, OnDemand};
use crate::embed::EmbedOptions;
use crate::on_demand::EXERCISE_UI;
use crate::shared::Shared;
use crate::state::Playground;

/// Loads and mounts "Your reconcile" the first time it opens, then keeps it
/// given what it needs from the page: the code, the editors' scenario while
/// it is valid, the simulation's settings, and the exercise and language the
/// address asks for. `on_event` hears what it says
/// (only the first one given is kept).
///
/// Few hooks on purpose: each is generic code of its own in the page's
/// first load, which this module exists to keep small.
#[hook]
pub fn use_exercise_pane(
    state: &Playground,
    options: &Rc<EmbedOptions>,
    on_event: Callback<PaneEvent>,
) -> OnDemand {
    let input = use_pane_input(state, options);
    let on_message = Callback::from(move |text: String| match PaneEvent::from_json(&text) {
        Ok(event) => on_event.emit(event),
        Err(error) => gloo::console::error!(error.to_string()),
    });
    let (bridge, pane) = use_on_demand(EXERCISE_UI, on_message);
    let open = state.exercise_open && state.code.is_some();
    use_effect_with((open, input), move |(open, input)| {
        if let Some(input) = input.as_deref() {
            Bridge::offer(&bridge, *open, || input.to_owned(), || input.to_owned());
        }
    });
    pane
}

/// What the pane is given, as JSON, once there is code; made again only when
/// part of it changed.
#[hook]
fn use_pane_input(state: &Playground, options: &Rc<EmbedOptions>) -> Rc<Option<String>> {
    let scenario = state
        .scenario
        .as_ref()
        .filter(|_| state.errors.is_empty())
        .map(|scenario| Shared::from(Rc::clone(scenario)));
    let deps = (
        state.code.clone(),
        state.code_revision,
        scenario,
        state.sim.config.clone(),
        Rc::clone(options),
    );
    use_memo(deps, |(code, code_revision, scenario, config, options)| {
        let input = PaneInput {
            code: code.clone()?,
            code_revision: *code_revision,
            scenario: scenario.as_deref().map(export_scenario),
            options: config.to_text(),
            closable: !options.embed,
            asked_exercise: options.exercise.clone(),
            asked_language: options
                .exercise
                .is_some()
                .then_some(options.language)
                .flatten(),
        };
        Some(input.to_json())
    })
}

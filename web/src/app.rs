//! The page: header, the three editors, and the plan.

use reconcile_core::Document;
use yew::prelude::*;

use crate::components::{action_list, preset_menu, JsonEditor, Simulation};
use crate::hooks::{use_ctrl_enter, use_debounce};
use crate::state::{Action, Playground, SimAction, DOCUMENTS};

/// Typing pauses this long before the documents are re-checked.
const CHECK_DELAY_MS: u32 = 120;

#[component]
pub fn App() -> Html {
    let state = use_reducer(Playground::default);

    let check = {
        let dispatcher = state.dispatcher();
        Callback::from(move |()| dispatcher.dispatch(Action::Check))
    };
    use_debounce(state.revision, CHECK_DELAY_MS, check);

    let step = {
        let dispatcher = state.dispatcher();
        Callback::from(move |()| dispatcher.dispatch(Action::Sim(SimAction::Step)))
    };
    use_ctrl_enter(step);
    let on_sim_action = {
        let dispatcher = state.dispatcher();
        Callback::from(move |action: SimAction| dispatcher.dispatch(Action::Sim(action)))
    };

    // Lets benchmarks measure navigation → first action list without polling.
    use_effect_with((), |()| {
        if let Some(performance) = gloo::utils::window().performance() {
            let _ = performance.mark("first-action-list");
        }
    });

    let editor = |document: Document| {
        let on_edit = {
            let dispatcher = state.dispatcher();
            Callback::from(move |text: String| dispatcher.dispatch(Action::Edit { document, text }))
        };
        let on_format = {
            let dispatcher = state.dispatcher();
            Callback::from(move |()| dispatcher.dispatch(Action::Format(document)))
        };
        html! {
            <JsonEditor key={document.label()} {document}
                text={AttrValue::from(state.texts.get(document).to_owned())}
                error={state.error_of(document).cloned()}
                {on_edit} {on_format} />
        }
    };
    let on_choose = {
        let dispatcher = state.dispatcher();
        Callback::from(move |id: &'static str| dispatcher.dispatch(Action::LoadPreset(id)))
    };

    html! {
        <div class="app">
            <header class="topbar">
                <div class="title">
                    <h1>{ "Reconcile Playground" }</h1>
                    <p class="tagline">
                        { "Edit what you want (desired) and what exists (observed). \
                           Reconcile computes the actions that close the gap." }
                    </p>
                </div>
                { preset_menu(state.preset_id, &on_choose) }
            </header>
            <main class="workspace">
                <div class="editors">
                    { for DOCUMENTS.iter().map(|d| editor(*d)) }
                </div>
                { action_list(state.plan.as_ref(), state.is_stale()) }
                <Simulation sim={state.sim.clone()} scenario={state.scenario.clone()} on_action={on_sim_action} />
            </main>
            <footer class="help">
                <p>
                    { "Ctrl+Enter (Cmd+Enter) runs one pass. \
                       Tab indents and Shift+Tab outdents inside an editor; press Esc, then Tab, to move on. \
                       Specs compare as JSON values: key order is ignored and 1 equals 1.0." }
                </p>
            </footer>
        </div>
    }
}

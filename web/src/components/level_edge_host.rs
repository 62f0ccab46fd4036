//! Where level vs edge goes: its `<details>`, summary and intro, and inside,
//! the element its view renders into (a second view of
//! `crates/reconcile-control-plane-ui`, loaded the first time it opens), with
//! its loading line (`on_demand_host`). The lanes and the conclusion are the
//! view's; whether it is open and whether the conclusion is hidden are the
//! page's (`SimState::show_comparison`, `SimState::conclusion_hidden`).

use web_sys::HtmlDetailsElement;
use yew::prelude::*;

use super::on_demand_host::on_demand_host;
use crate::hooks::OnDemand;
use crate::state::{SimAction, SimState};

pub fn level_edge_host(sim: &SimState, view: &OnDemand, on_action: &Callback<SimAction>) -> Html {
    let ontoggle = on_action.reform(|e: Event| {
        SimAction::ShowComparison(e.target_unchecked_into::<HtmlDetailsElement>().open())
    });
    // Closed, the view's element is out of the page and is given nothing
    // to compute (hooks/use_run_views.rs).
    let body = on_demand_host(
        sim.show_comparison,
        view,
        "the level-vs-edge view",
        "le-loading",
    );
    html! {
        <details class="level-edge" open={sim.show_comparison} {ontoggle}>
            <summary><h3>{ "Level- vs edge-triggered" }</h3></summary>
            <p class="muted small">
                { "The edge-triggered handler acts only on each event's payload and never re-reads the world; \
                   the level-triggered loop reconciles the whole state each pass and has resync as a safety net. \
                   Dropped events are the same for both." }
            </p>
            { body }
        </details>
    }
}

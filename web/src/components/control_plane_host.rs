//! Where the control-plane view goes: its `<details>` and summary, and inside,
//! the element its module renders into (`crates/reconcile-control-plane-ui`,
//! loaded the first time the view opens), with its loading line
//! (`on_demand_host`).

use web_sys::HtmlDetailsElement;
use yew::prelude::*;

use super::on_demand_host::on_demand_host;
use crate::hooks::OnDemand;
use crate::state::{SimAction, SimState};

pub fn control_plane_host(
    sim: &SimState,
    view: &OnDemand,
    on_action: &Callback<SimAction>,
) -> Html {
    let ontoggle = on_action.reform(|e: Event| {
        SimAction::ShowPicture(e.target_unchecked_into::<HtmlDetailsElement>().open())
    });
    // Closed, the view's element is out of the page: it shows nothing, and
    // is given nothing to compute (hooks/use_run_views.rs).
    let body = on_demand_host(
        sim.picture_open,
        view,
        "the control-plane view",
        "cp-loading",
    );
    html! {
        <details class="control-plane" open={sim.picture_open} {ontoggle}>
            <summary><h3>{ "The control plane, pictured" }</h3></summary>
            <p class="muted small">
                { "The API server's store, the watch events on their way, the controller's informer cache, \
                   its work queue and the controller itself, at the cursor: Step, event ▶ and the timeline move it. \
                   A cache card is marked stale where the store has a newer version. \
                   Below it, each object's lane through the run and the key's backoff delays against the policy." }
            </p>
            { body }
        </details>
    }
}

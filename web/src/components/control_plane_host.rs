//! Where the control-plane view goes: its `<details>` and summary, and inside,
//! the element its module renders into (`crates/reconcile-control-plane-ui`,
//! loaded the first time the view opens); until that module has loaded, a line
//! that says so (or why it could not, with a button to try again).

use web_sys::HtmlDetailsElement;
use yew::prelude::*;

use crate::hooks::{ModuleLoad, OnDemand};
use crate::state::{SimAction, SimState};

pub fn control_plane_host(
    sim: &SimState,
    view: &OnDemand,
    on_action: &Callback<SimAction>,
) -> Html {
    let ontoggle = on_action.reform(|e: Event| {
        SimAction::ShowPicture(e.target_unchecked_into::<HtmlDetailsElement>().open())
    });
    let status = match &view.load {
        ModuleLoad::Idle | ModuleLoad::Loading => html! {
            <p class="cp-loading" role="status">{ "Loading the control-plane view…" }</p>
        },
        ModuleLoad::Failed(message) => html! {
            <div class="cp-loading" role="alert">
                <p>{ format!("The control-plane view could not be loaded: {message}") }</p>
                <button type="button" onclick={view.retry.reform(|_: MouseEvent| ())}>{ "Try again" }</button>
            </div>
        },
        ModuleLoad::Ready => html! {},
    };
    // Closed, the view's element is out of the page: it shows nothing, and
    // is given nothing to compute (hooks/use_control_plane_view.rs).
    let body = sim.picture_open.then(|| {
        html! {
            <>
                { status }
                { Html::VRef(view.host.clone()) }
            </>
        }
    });
    html! {
        <details class="control-plane" open={sim.picture_open} {ontoggle}>
            <summary><h3>{ "The control plane, pictured" }</h3></summary>
            <p class="muted small">
                { "The API server's store, the watch events on their way, the controller's informer cache, \
                   its work queue and the controller itself, at the cursor: Step, event ▶ and the timeline move it. \
                   A cache card is marked stale where the store has a newer version. \
                   Below it, each object's lane through the run and the key's backoff delays against the policy." }
            </p>
            { body.unwrap_or_default() }
        </details>
    }
}

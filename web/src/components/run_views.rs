//! Where the two views of the run go, each in its `<details>` with summary
//! and intro: the control-plane view and level vs edge, two apps of one
//! module (`crates/reconcile-control-plane-ui`, loaded the first time either
//! opens). Inside, the element the view renders into, with its loading line
//! (`on_demand_host`). What is in them is the views'; whether each is open
//! (and whether level vs edge's conclusion is hidden) is the page's.

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
    view_details(
        ViewPanel {
            class: "control-plane",
            title: "The control plane, pictured",
            what: "the control-plane view",
            loading_class: "cp-loading",
            intro: "The API server's store, the watch events on their way, the controller's informer cache, \
                    its work queue and the controller itself, at the cursor: Step, event ▶ and the timeline move it. \
                    A cache card is marked stale where the store has a newer version. \
                    Below it, each object's lane through the run and the key's backoff delays against the policy.",
        },
        sim.picture_open,
        view,
        on_action.reform(SimAction::ShowPicture),
    )
}

pub fn level_edge_host(sim: &SimState, view: &OnDemand, on_action: &Callback<SimAction>) -> Html {
    view_details(
        ViewPanel {
            class: "level-edge",
            title: "Level- vs edge-triggered",
            what: "the level-vs-edge view",
            loading_class: "le-loading",
            intro: "The edge-triggered handler acts only on each event's payload and never re-reads the world; \
                    the level-triggered loop reconciles the whole state each pass and has resync as a safety net. \
                    Dropped events are the same for both.",
        },
        sim.show_comparison,
        view,
        on_action.reform(SimAction::ShowComparison),
    )
}

/// What a view's `<details>` says.
struct ViewPanel {
    class: &'static str,
    title: &'static str,
    /// The view in the loading line ("Loading the control-plane view…").
    what: &'static str,
    loading_class: &'static str,
    intro: &'static str,
}

/// The `<details>` of a view: `on_toggle` hears whether it is open. Closed,
/// the view's element is out of the page: it shows nothing, and is given
/// nothing to compute (hooks/use_run_views.rs).
fn view_details(panel: ViewPanel, open: bool, view: &OnDemand, on_toggle: Callback<bool>) -> Html {
    let ontoggle =
        on_toggle.reform(|e: Event| e.target_unchecked_into::<HtmlDetailsElement>().open());
    html! {
        <details class={panel.class} {open} {ontoggle}>
            <summary><h3>{ panel.title }</h3></summary>
            <p class="muted small">{ panel.intro }</p>
            { on_demand_host(open, view, panel.what, panel.loading_class) }
        </details>
    }
}

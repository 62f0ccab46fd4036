//! The two views of the run, each in its `<details>` with summary and
//! intro (as the page's web/src/components/run_views.rs had them): the
//! control-plane view and level vs edge, rendered here, in the element the
//! page's CSS and tests know (`cp-host`, `level-edge-host`). Whether each is
//! open (and whether level vs edge's conclusion is hidden) is the page's:
//! toggling one asks the page.

use reconcile_protocol::section::SimulationEvent;
use web_sys::HtmlDetailsElement;
use yew::prelude::*;

use crate::components::control_plane_view;
use crate::level_edge::view::level_edge_view;
use crate::section::state::SectionShown;

pub fn control_plane_details(
    shown: &SectionShown,
    on_move: &Callback<usize>,
    to_page: &Callback<SimulationEvent>,
) -> Html {
    let view = shown.picture.as_ref().map(|picture| {
        let at_event = shown.at_event.as_deref();
        html! { <div class="cp-host">{ control_plane_view(picture, at_event, on_move) }</div> }
    });
    view_details(
        ViewPanel {
            class: "control-plane",
            title: "The control plane, pictured",
            intro: "The API server's store, the watch events on their way, the controller's informer cache, \
                    its work queue and the controller itself, at the cursor: Step, event ▶ and the timeline move it. \
                    A cache card is marked stale where the store has a newer version. \
                    Below it, each object's lane through the run and the key's backoff delays against the policy.",
        },
        shown.picture_open,
        view,
        to_page.reform(|open| SimulationEvent::ShowPicture { open }),
    )
}

pub fn level_edge_details(shown: &SectionShown, to_page: &Callback<SimulationEvent>) -> Html {
    let on_reveal = to_page.reform(|()| SimulationEvent::RevealConclusion);
    let view = shown.level_edge.as_ref().map(|level_edge| {
        html! { <div class="level-edge-host">{ level_edge_view(level_edge, &on_reveal) }</div> }
    });
    view_details(
        ViewPanel {
            class: "level-edge",
            title: "Level- vs edge-triggered",
            intro: "The edge-triggered handler acts only on each event's payload and never re-reads the world; \
                    the level-triggered loop reconciles the whole state each pass and has resync as a safety net. \
                    Dropped events are the same for both.",
        },
        shown.show_level_edge,
        view,
        to_page.reform(|show| SimulationEvent::ShowLevelEdge { show }),
    )
}

/// What a view's `<details>` says.
struct ViewPanel {
    class: &'static str,
    title: &'static str,
    intro: &'static str,
}

/// The `<details>` of a view: `on_toggle` hears whether it is open. Closed,
/// the view is out of the page and is given nothing to compute.
fn view_details(
    panel: ViewPanel,
    open: bool,
    view: Option<Html>,
    on_toggle: Callback<bool>,
) -> Html {
    let ontoggle =
        on_toggle.reform(|e: Event| e.target_unchecked_into::<HtmlDetailsElement>().open());
    html! {
        <details class={panel.class} {open} {ontoggle}>
            <summary><h3>{ panel.title }</h3></summary>
            <p class="muted small">{ panel.intro }</p>
            if open {
                { view.unwrap_or_default() }
            }
        </details>
    }
}

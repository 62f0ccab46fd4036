//! The page's side of the control-plane view, a module of its own loaded the
//! first time its `<details>` opens (`crates/reconcile-control-plane-ui`).

use std::rc::Rc;

use reconcile_content::control_plane::{ViewCursor, ViewEvent, ViewInput, ViewRun};
use reconcile_core::export_scenario;
use reconcile_sim::Timeline;
use yew::prelude::*;

use super::use_on_demand::{use_on_demand, Bridge, OnDemand};
use crate::on_demand::CONTROL_PLANE_UI;
use crate::shared::Shared;
use crate::state::{SimAction, SimState};

/// Loads and mounts the view the first time it opens with a run, then, while
/// it is open, gives it the run when the run changed (the timeline was
/// simulated again) and the cursor on every move. Closed, it is given
/// nothing and computes nothing; opened again, it catches up at once. Its
/// requests to move the cursor go to the page's reducer, the cursor's only
/// owner.
#[hook]
pub fn use_control_plane_view(sim: &SimState, on_action: &Callback<SimAction>) -> OnDemand {
    let on_action = on_action.clone();
    let on_message = Callback::from(move |text: String| match ViewEvent::from_json(&text) {
        Ok(ViewEvent::MoveTo { position }) => on_action.emit(SimAction::MoveTo(position)),
        Err(error) => gloo::console::error!(error.to_string()),
    });
    let (bridge, view) = use_on_demand(CONTROL_PLANE_UI, "cp-host", on_message);
    // The run the view was last given (at its mount or since).
    let given = use_mut_ref(|| None::<Rc<ViewRun>>);
    let run = use_view_run(sim);
    let open = sim.picture_open && run.is_some();
    let cursor = ViewCursor {
        position: sim.cursor,
        revealed: sim.revealed,
        event: sim.event,
    };
    use_effect_with((open, run, cursor), move |(open, run, cursor)| {
        let (true, Some(run)) = (*open, run.as_ref()) else {
            return;
        };
        let new_run = !given.borrow().as_ref().is_some_and(|r| Rc::ptr_eq(r, run));
        let input = |with_run: bool| {
            ViewInput {
                run: with_run.then(|| ViewRun::clone(run)),
                cursor: *cursor,
            }
            .to_json()
        };
        Bridge::offer(&bridge, true, || input(true), || input(new_run));
        *given.borrow_mut() = Some(Rc::clone(run));
    });
    view
}

/// The run the page simulated, as the view is given it: made while the view
/// is open, and again only when the timeline was simulated again (the
/// scenario or a setting changed), so a closed view costs an edit nothing.
#[hook]
fn use_view_run(sim: &SimState) -> Option<Rc<ViewRun>> {
    let made = use_mut_ref(|| None::<(Shared<Timeline>, Rc<ViewRun>)>);
    let (Some(timeline), Some(scenario), true) = (&sim.timeline, &sim.scenario, sim.picture_open)
    else {
        return None;
    };
    let mut made = made.borrow_mut();
    if !made.as_ref().is_some_and(|(of, _)| of == timeline) {
        let run = Rc::new(ViewRun {
            scenario: export_scenario(scenario),
            options: serde_json::to_string(&sim.config).unwrap_or_default(),
        });
        *made = Some((timeline.clone(), run));
    }
    made.as_ref().map(|(_, run)| Rc::clone(run))
}

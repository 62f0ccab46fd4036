//! The page's side of the two views of the run that live in one module of
//! their own (`crates/reconcile-control-plane-ui`), loaded the first time
//! either opens: the control-plane view and level vs edge. Each simulates
//! the page's run itself from a `ViewRun`; the page keeps the cursor and
//! whether level vs edge's conclusion is hidden, and applies the views'
//! requests (`ViewEvent`) with its reducer.

use std::rc::Rc;

use reconcile_content::control_plane::{LevelEdgeInput, ViewCursor, ViewEvent, ViewInput, ViewRun};
use reconcile_core::export_scenario;
use reconcile_sim::Timeline;
use yew::prelude::*;

use super::use_on_demand::{use_on_demand, Bridge, OnDemand};
use crate::on_demand::{OnDemandApp, CONTROL_PLANE_VIEW, LEVEL_EDGE_VIEW};
use crate::shared::Shared;
use crate::state::{SimAction, SimState};

/// The control-plane view, while its `<details>` is open
/// (`SimState::picture_open`): given the run and the cursor; its requests
/// to move the cursor go to the page's reducer.
#[hook]
pub fn use_control_plane_view(sim: &SimState, on_action: &Callback<SimAction>) -> OnDemand {
    let input = |run: Option<ViewRun>, cursor: &ViewCursor| {
        ViewInput {
            run,
            cursor: *cursor,
        }
        .to_json()
    };
    use_run_view(
        CONTROL_PLANE_VIEW,
        sim,
        sim.picture_open,
        cursor_of(sim),
        input,
        on_action,
    )
}

/// Level vs edge, while its `<details>` is open (`SimState::show_comparison`):
/// given the run, the cursor and whether a class link hides the conclusion;
/// its request to reveal the conclusion goes to the page's reducer.
#[hook]
pub fn use_level_edge_view(sim: &SimState, on_action: &Callback<SimAction>) -> OnDemand {
    let input = |run: Option<ViewRun>, (cursor, conclusion_hidden): &(ViewCursor, bool)| {
        LevelEdgeInput {
            run,
            cursor: *cursor,
            conclusion_hidden: *conclusion_hidden,
        }
        .to_json()
    };
    use_run_view(
        LEVEL_EDGE_VIEW,
        sim,
        sim.show_comparison,
        (cursor_of(sim), sim.conclusion_hidden),
        input,
        on_action,
    )
}

fn cursor_of(sim: &SimState) -> ViewCursor {
    ViewCursor {
        position: sim.cursor,
        revealed: sim.revealed,
        event: sim.event,
    }
}

/// What a view asks of the page, as the reducer's action.
fn action_of(event: ViewEvent) -> SimAction {
    match event {
        ViewEvent::MoveTo { position } => SimAction::MoveTo(position),
        ViewEvent::RevealConclusion => SimAction::RevealConclusion,
    }
}

/// Loads and mounts `app` the first time it is `open` with a run, then,
/// while it is open, gives it the run when the run changed (the timeline was
/// simulated again) and `state` on every change, as `input(run, state)`'s
/// JSON. Closed, it is given nothing and computes nothing; opened again, it
/// catches up at once. Its requests go to the page's reducer.
#[hook]
fn use_run_view<S: PartialEq + Clone + 'static>(
    app: OnDemandApp,
    sim: &SimState,
    open: bool,
    state: S,
    input: fn(Option<ViewRun>, &S) -> String,
    on_action: &Callback<SimAction>,
) -> OnDemand {
    let on_action = on_action.clone();
    let on_message = Callback::from(move |text: String| match ViewEvent::from_json(&text) {
        Ok(event) => on_action.emit(action_of(event)),
        Err(error) => gloo::console::error!(error.to_string()),
    });
    let (bridge, view) = use_on_demand(app, on_message);
    // The run the view was last given (at its mount or since).
    let given = use_mut_ref(|| None::<Rc<ViewRun>>);
    let run = use_view_run(sim, open);
    let open = open && run.is_some();
    use_effect_with((open, run, state), move |(open, run, state)| {
        let (true, Some(run)) = (*open, run.as_ref()) else {
            return;
        };
        let new_run = !given.borrow().as_ref().is_some_and(|r| Rc::ptr_eq(r, run));
        let with_run = |yes: bool| input(yes.then(|| ViewRun::clone(run)), state);
        Bridge::offer(&bridge, true, || with_run(true), || with_run(new_run));
        *given.borrow_mut() = Some(Rc::clone(run));
    });
    view
}

/// The run the page simulated, as a view is given it: made while the view
/// is `open`, and again only when the timeline was simulated again (the
/// scenario or a setting changed), so a closed view costs an edit nothing.
#[hook]
fn use_view_run(sim: &SimState, open: bool) -> Option<Rc<ViewRun>> {
    let made = use_mut_ref(|| None::<(Shared<Timeline>, Rc<ViewRun>)>);
    let (Some(timeline), Some(scenario), true) = (&sim.timeline, &sim.scenario, open) else {
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

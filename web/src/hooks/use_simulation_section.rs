//! The page's side of the simulation section's module
//! (`crates/reconcile-simulation-ui`, `mount_simulation`): it simulates
//! the run and shows it (the timeline, chart, status grid, verdict, Faults
//! and settings, the control-plane view, level vs edge, World now). The page
//! gives it the run (only when its revision changed), the cursor and what
//! the page shows (`SimulationInput`), and applies what it says
//! (`SimulationEvent`) with its reducer. The module's download starts as soon
//! as there is a run to simulate, which the page holds until it has painted.

use std::rc::Rc;

use reconcile_protocol::control_plane::ViewCursor;
use reconcile_protocol::section::{RunInput, SectionFrame, SimulationEvent, SimulationInput};
use yew::prelude::*;

use super::use_on_demand::{use_on_demand, Bridge, OnDemand};
use crate::on_demand::{SIMULATION_REPLAY_SECTION, SIMULATION_SECTION};
use crate::shared::Shared;
use crate::state::{Action, CustomResourceAction, LessonAction, SimAction, SimState};

/// What the page shows of the section and beside it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SectionView {
    /// The page has a simulation section (an embed may show only the
    /// editors and the plan: then the module is loaded only to answer a
    /// lesson's question or a results download).
    pub shown: bool,
    pub frame: SectionFrame,
    /// World now is shown beside the editors.
    pub world_now: bool,
}

/// The module's input as it is now, but for the run (sent only when new to it).
fn input_of(sim: &SimState, view: SectionView) -> SimulationInput {
    SimulationInput {
        run: None,
        cursor: ViewCursor {
            position: sim.cursor,
            revealed: sim.revealed,
            event: sim.event,
        },
        frame: view.frame,
        picture_open: sim.picture_open,
        show_level_edge: sim.show_level_edge,
        conclusion_hidden: sim.conclusion_hidden,
        world_now: view.world_now,
        check: sim.check.clone(),
        results_asked: sim.results_asked,
    }
}

/// What a module's event asks of the page, as the reducer's action.
fn action_of(event: SimulationEvent) -> Action {
    let sim = match event {
        SimulationEvent::Run { facts } => SimAction::Simulated(Shared::new(facts)),
        SimulationEvent::NextPass { next } => SimAction::NextPass(Rc::new(next)),
        SimulationEvent::MoveTo { position } => SimAction::MoveTo(position),
        SimulationEvent::ShowPicture { open } => SimAction::ShowPicture(open),
        SimulationEvent::ShowLevelEdge { show } => SimAction::ShowLevelEdge(show),
        SimulationEvent::RevealConclusion => SimAction::RevealConclusion,
        SimulationEvent::Settings {
            revision,
            sim,
            show_script,
        } => SimAction::Settings {
            revision,
            config: Rc::new(sim),
            show_script,
        },
        SimulationEvent::Checked { id, feedback } => {
            return Action::Lesson(LessonAction::Checked {
                id,
                feedback: Rc::new(feedback),
            })
        }
        SimulationEvent::SettingsRead { revision, sim } => SimAction::SettingsRead {
            revision,
            config: Rc::new(sim),
        },
        SimulationEvent::SettingsRefused { revision, message } => {
            return Action::SettingsRefused { revision, message }
        }
        SimulationEvent::Refused {
            revision,
            entry,
            message,
        } => {
            return Action::CustomResource(CustomResourceAction::Refused {
                revision,
                entry,
                message,
            })
        }
    };
    Action::Sim(sim)
}

/// Loads and mounts the section's app once there is a run (or a question
/// or a download for it), then gives it every change.
#[hook]
pub fn use_simulation_section(
    sim: &SimState,
    view: SectionView,
    dispatch: &Callback<Action>,
) -> OnDemand {
    let dispatch = dispatch.clone();
    let on_message = Callback::from(
        move |text: String| match SimulationEvent::from_json(&text) {
            Ok(event) => dispatch.emit(action_of(event)),
            Err(error) => gloo::console::error!(error.to_string()),
        },
    );
    // Chosen once: a page opened on a replay keeps its build after leaving it.
    let app = *use_state(|| match sim.replay {
        Some(_) => SIMULATION_REPLAY_SECTION,
        None => SIMULATION_SECTION,
    });
    let (bridge, section) = use_on_demand(app, on_message);
    // The revision of the run the module was last given.
    let given_run = use_mut_ref(|| None::<usize>);
    let wanted =
        (view.shown && sim.run().is_some()) || sim.check.is_some() || sim.results_asked > 0;
    let given = input_of(sim, view);
    use_effect_with(
        (sim.run().cloned(), given, wanted),
        move |(run, given, wanted)| {
            let new_run = run
                .as_ref()
                .filter(|run| *given_run.borrow() != Some(run.revision));
            let with_run = |run: Option<&Rc<RunInput>>| {
                SimulationInput {
                    run: run.map(|r| RunInput::clone(r)),
                    ..given.clone()
                }
                .to_json()
            };
            let offered = Bridge::offer(
                &bridge,
                *wanted,
                || with_run(run.as_ref()),
                || with_run(new_run),
            );
            if offered || run.is_some() {
                *given_run.borrow_mut() = run.as_ref().map(|r| r.revision);
            }
        },
    );
    section
}

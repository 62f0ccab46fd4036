//! The simulation section's frame: the heading, the controls and Play's
//! beat, and the element the simulation's module renders the run into
//! (verdict, timeline, chart, status grid, faults, the run's two views).
//! The frame is in the first view; the module comes once the page has
//! painted, and a Step pressed before it is queued (`SimState`).

use gloo::timers::callback::Interval;
use yew::prelude::*;

use super::on_demand_host::on_demand_host;
use super::sim_controls::sim_controls;
use crate::hooks::OnDemand;
use crate::state::{SimAction, SimState};

#[derive(Properties, PartialEq)]
pub struct SimulationProps {
    pub sim: SimState,
    pub on_action: Callback<SimAction>,
    /// The module's element, and where its download stands.
    pub section: OnDemand,
    /// A lesson asks for a prediction about the loop first.
    #[prop_or_default]
    pub concealed: bool,
    /// A later step of a lesson asks how many passes the loop takes: the
    /// pass count and the verdict are hidden until then.
    #[prop_or_default]
    pub outcome_concealed: bool,
}

#[component]
pub fn Simulation(props: &SimulationProps) -> Html {
    let sim = &props.sim;
    {
        // Play: one pass per beat while playing; the interval is dropped on pause.
        let on_action = props.on_action.clone();
        use_effect_with((sim.playing, sim.speed), move |(playing, speed)| {
            let beat = (*playing).then(|| {
                Interval::new(1000 / speed.max(&1), move || {
                    on_action.emit(SimAction::Tick)
                })
            });
            move || drop(beat)
        });
    }
    if props.concealed {
        return html! {
            <section class="pane sim-pane concealed" aria-labelledby="sim-heading">
                { heading() }
                <p>{ "Hidden until you make your prediction in the lesson panel." }</p>
            </section>
        };
    }
    let note = if sim.held() {
        // A frame after the action list; the controls' place is kept.
        Some("Simulating the loop…")
    } else if sim.deferred() {
        Some(
            "This scenario is large, so it is not re-simulated on every edit. \
             Press Step, Run or Play to simulate it.",
        )
    } else if sim.run().is_none() {
        Some("Fix the input errors above to simulate the loop.")
    } else {
        None
    };
    let shows_controls = sim.run().is_some() || sim.deferred();
    html! {
        <section class={classes!("pane", "sim-pane", props.outcome_concealed.then_some("outcome-concealed"))}
                 aria-labelledby="sim-heading"
                 aria-busy={(sim.held() || sim.simulating()).then_some("true")}>
            { heading() }
            if shows_controls {
                { sim_controls(sim, props.outcome_concealed, &props.on_action) }
            }
            if props.outcome_concealed {
                <p class="outcome-note">{ "The verdict and the number of passes are hidden: a later step asks you to predict them." }</p>
            }
            if let Some(note) = note {
                <p class="deferred-note">{ note }</p>
            }
            { on_demand_host(sim.run().is_some(), &props.section, "the simulation", "sim-loading") }
        </section>
    }
}

/// The section heading, the same in every state of the section.
fn heading() -> Html {
    html! {
        <header class="pane-header">
            // The skip link's target: focusable by script only.
            <h2 id="sim-heading" tabindex="-1">{ "Simulation: apply, then reconcile again" }</h2>
        </header>
    }
}

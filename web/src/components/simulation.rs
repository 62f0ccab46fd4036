//! The simulation section: controls, verdict, timeline, chart, status grid, faults, level vs edge.

use gloo::timers::callback::Interval;
use yew::prelude::*;

use super::chart::convergence_chart;
use super::fault_panel::FaultPanel;
use super::pass_list::PassList;
use super::run_views::{control_plane_host, level_edge_host};
use super::sim_controls::{sim_controls, verdict_banner};
use super::status_grid::StatusGrid;
use crate::hooks::{use_control_plane_view, use_level_edge_view, use_reveal_scroll};
use crate::state::{SimAction, SimState};

#[derive(Properties, PartialEq)]
pub struct SimulationProps {
    pub sim: SimState,
    pub on_action: Callback<SimAction>,
    /// A lesson asks for a prediction about the loop first.
    #[prop_or_default]
    pub concealed: bool,
    /// A read-only embed: Step and Run move through the run, nothing changes it.
    #[prop_or_default]
    pub readonly: bool,
    /// Which parts an embed shows (`panes=timeline,faults`): the passes with
    /// the chart, the status grid and level vs edge; and Faults and settings.
    #[prop_or(true)]
    pub timeline: bool,
    #[prop_or(true)]
    pub faults: bool,
    /// An embed: Faults and settings start closed.
    #[prop_or_default]
    pub embed: bool,
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
    let pane = use_reveal_scroll(props.concealed);
    let control_plane = use_control_plane_view(sim, &props.on_action);
    let level_edge = use_level_edge_view(sim, &props.on_action);
    if props.concealed {
        return html! {
            <section class="pane sim-pane concealed" aria-labelledby="sim-heading">
                { heading() }
                <p>{ "Hidden until you make your prediction in the lesson panel." }</p>
            </section>
        };
    }
    let Some(timeline) = sim.timeline.clone() else {
        if sim.held {
            // A frame after the action list; the controls' place is kept.
            return html! {
                <section class="pane sim-pane" aria-labelledby="sim-heading" aria-busy="true">
                    { heading() }
                    <p class="deferred-note">{ "Simulating the loop…" }</p>
                </section>
            };
        }
        let message = if sim.deferred {
            "This scenario is large, so it is not re-simulated on every edit. \
             Press Step, Run or Play to simulate it."
        } else {
            "Fix the input errors above to simulate the loop."
        };
        return html! {
            <section class="pane sim-pane" aria-labelledby="sim-heading">
                { heading() }
                if sim.deferred {
                    { sim_controls(sim, &props.on_action) }
                }
                <p class="deferred-note">{ message }</p>
            </section>
        };
    };
    let moment = sim.shown_moment();
    html! {
        <section class="pane sim-pane" aria-labelledby="sim-heading" ref={pane}>
            { heading() }
            { sim_controls(sim, &props.on_action) }
            { verdict_banner(sim) }
            if sim.cursor < sim.revealed {
                <div class="snapshot-banner" role="status">
                    <span>{ format!("Viewing {}; the run is revealed up to {}.",
                        timeline.describe_moment(moment), timeline.describe_moment(sim.moment_at(sim.revealed))) }</span>
                    <button type="button" onclick={props.on_action.reform(move |_| SimAction::MoveTo(usize::MAX))}>
                        { "Back to the latest" }
                    </button>
                </div>
            }
            if props.timeline {
                <div class="sim-grid">
                    <PassList timeline={timeline.clone()} cursor={sim.cursor} revealed={sim.revealed} event={sim.event}
                              on_action={props.on_action.clone()} />
                    <div class="sim-side">
                        { convergence_chart(&timeline, sim.revealed, sim.cursor, &props.on_action) }
                        <StatusGrid timeline={timeline.clone()} {moment} />
                    </div>
                </div>
            }
            if props.faults {
                <FaultPanel sim={sim.clone()} on_action={props.on_action.clone()} readonly={props.readonly} closed={props.embed} />
            }
            if props.timeline {
                { control_plane_host(sim, &control_plane, &props.on_action) }
                { level_edge_host(sim, &level_edge, &props.on_action) }
            }
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

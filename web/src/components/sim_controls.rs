//! Step / Run / Play / Reset and the speed: in the first view, so they work
//! (or queue) before the simulation's module is there.

use reconcile_sim::Moment;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

use crate::state::{SimAction, SimState, SPEEDS};

/// `outcome_concealed`: the run's number of passes is not shown (a later
/// step of a lesson asks for it).
pub fn sim_controls(
    sim: &SimState,
    outcome_concealed: bool,
    on_action: &Callback<SimAction>,
) -> Html {
    let total = sim.total_passes();
    // A deferred (large) scenario has no run yet; pressing simulates it. A
    // run on its way takes the press when it comes.
    let can_advance = sim.deferred() || sim.simulating() || sim.cursor < sim.last_position();
    let events = sim.total_events();
    let can_go_on =
        sim.deferred() || sim.simulating() || sim.event.map_or(events > 0, |i| i + 1 < events);
    let can_go_back = sim.event.is_some();
    let emit = |action: SimAction| on_action.reform(move |_: MouseEvent| action.clone());
    let on_speed = on_action.reform(|e: Event| {
        let select: HtmlSelectElement = e.target_unchecked_into();
        SimAction::SetSpeed(select.value().parse().unwrap_or(2))
    });
    let play_pause = if sim.playing {
        html! { <button type="button" onclick={emit(SimAction::Pause)} aria-pressed="true">{ "Pause" }</button> }
    } else {
        html! { <button type="button" onclick={emit(SimAction::Play)} aria-pressed="false">{ "Play" }</button> }
    };
    html! {
        <div class="sim-controls" role="group" aria-label="Simulation controls">
            <button type="button" class="primary" onclick={emit(SimAction::Step)}
                    disabled={!can_advance} aria-keyshortcuts="Control+Enter Meta+Enter"
                    title="Run one pass (Ctrl/Cmd+Enter)">{ "Step" }</button>
            <span class="event-step" role="group" aria-label="Step by event">
                <button type="button" onclick={emit(SimAction::StepEvent { forward: false })}
                        disabled={!can_go_back} aria-label="Previous event">{ "◀ event" }</button>
                <button type="button" onclick={emit(SimAction::StepEvent { forward: true })}
                        disabled={!can_go_on} aria-label="Next event"
                        title="One step of the control plane: a request, a watch event, a queue add">{ "event ▶" }</button>
            </span>
            <button type="button" onclick={emit(SimAction::RunToEnd)} disabled={!can_advance}>
                { "Run to convergence" }
            </button>
            { play_pause }
            <label class="speed">
                { "Speed " }
                <select onchange={on_speed} aria-label="Play speed">
                    { for SPEEDS.iter().map(|s| html! {
                        <option value={s.to_string()} selected={*s == sim.speed}>{ format!("{s} passes/s") }</option>
                    }) }
                </select>
            </label>
            <button type="button" onclick={emit(SimAction::Reset)} disabled={sim.revealed == 0}>{ "Reset" }</button>
            // Announced after Step or Run, not on every pass while Play runs
            // (the verdict banner speaks when it ends).
            <span class="sim-progress" aria-live={if sim.playing { "off" } else { "polite" }}>
                if sim.facts.is_none() {
                    { format!("Pass {} (simulating…)", sim.shown_pass()) }
                } else if outcome_concealed {
                    { format!("Pass {}", sim.shown_pass()) }
                } else {
                    { format!("Pass {} of {}", sim.shown_pass(), total) }
                }
                if matches!(sim.shown_moment(), Moment::AfterActorEvent(_)) {
                    { ", then another actor's event" }
                }
            </span>
        </div>
    }
}

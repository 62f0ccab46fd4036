//! The same event trace through an edge-triggered handler and the level-triggered loop.

use reconcile_sim::SyncState;
use web_sys::HtmlDetailsElement;
use yew::prelude::*;

use crate::state::{SimAction, SimState};

pub fn level_edge_view(sim: &SimState, on_action: &Callback<SimAction>) -> Html {
    let ontoggle = on_action.reform(|e: Event| {
        SimAction::ShowComparison(e.target_unchecked_into::<HtmlDetailsElement>().open())
    });
    let body = match (&sim.comparison, sim.show_comparison) {
        (Some(comparison), true) => {
            let divergence = match comparison.first_divergence {
                Some(step) => format!(
                    "They first diverge at step {step}: {}.",
                    comparison.steps.get(step).map_or("", |s| s.event.as_str())
                ),
                None => "They agree at every step.".to_owned(),
            };
            let edge_wrong: Vec<String> = comparison
                .edge_final
                .iter()
                .filter(|s| s.state != SyncState::InSync)
                .map(|s| format!("{} is {}", s.name, s.state.label()))
                .collect();
            let level_wrong = comparison
                .level_final
                .iter()
                .filter(|s| s.state != SyncState::InSync)
                .count();
            html! {
                <>
                    <p class="divergence" role="status">{ divergence }</p>
                    <table class="edge-table" aria-label="Level versus edge">
                        <thead><tr>
                            <th scope="col">{ "Step" }</th><th scope="col">{ "Event" }</th>
                            <th scope="col">{ "Edge-triggered handler did" }</th>
                            <th scope="col">{ "Edge world" }</th><th scope="col">{ "Level world" }</th>
                        </tr></thead>
                        <tbody>
                            { for comparison.steps.iter().enumerate().map(|(i, step)| {
                                let first = comparison.first_divergence == Some(i);
                                let did = if step.missed {
                                    "nothing: the controller was down".to_owned()
                                } else if step.edge_actions.is_empty() {
                                    "nothing".to_owned()
                                } else {
                                    step.edge_actions.iter().map(|(a, r)| format!("{} {}: {r}", a.kind, a.name)).collect::<Vec<_>>().join("; ")
                                };
                                html! {
                                    <tr class={classes!(step.diverged.then_some("diverged"), first.then_some("first-divergence"))}>
                                        <th scope="row">{ i }{ if first { " ⚠ diverges here" } else if step.diverged { " ≠" } else { "" } }</th>
                                        <td>{ &step.event }{ if step.missed { " (missed: the controller was down)" } else { "" } }</td>
                                        <td>{ did }</td>
                                        <td><code>{ step.edge_observed.to_json_string() }</code></td>
                                        <td><code>{ step.level_observed.to_json_string() }</code></td>
                                    </tr>
                                }
                            }) }
                        </tbody>
                    </table>
                    <p class="final-difference">
                        { if edge_wrong.is_empty() {
                            "In the end the edge-triggered world is in sync too.".to_owned()
                        } else {
                            format!("In the end, edge-triggered: {}. Level-triggered: {} out of sync ({}).",
                                edge_wrong.join(", "), level_wrong, comparison.level.verdict)
                        } }
                    </p>
                </>
            }
        }
        _ => {
            html! { <p class="muted">{ "Open to run the same trace through both controllers." }</p> }
        }
    };
    html! {
        <details class="level-edge" open={sim.show_comparison} {ontoggle}>
            <summary><h3>{ "Level- vs edge-triggered" }</h3></summary>
            <p class="muted small">
                { "The edge-triggered handler acts only on each event's payload and never re-reads the world; \
                   the level-triggered loop reconciles the whole state each pass and has resync as a safety net. \
                   Dropped events are the same for both." }
            </p>
            { body }
        </details>
    }
}

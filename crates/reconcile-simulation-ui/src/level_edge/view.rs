//! The lanes and the conclusion of level vs edge, as the page's `<details>`
//! holds them (the page keeps the `<details>`, its summary and its intro).

use reconcile_sim::{column_label, LaneColumn, Lanes, LevelEdge, SyncState};
use yew::prelude::*;

use reconcile_ui_shared::words::cell_text;

use super::LevelEdgeShown;

/// Objects shown in the lanes; a class scenario has a handful.
const OBJECTS_SHOWN: usize = 40;

pub fn level_edge_view(shown: &LevelEdgeShown, on_reveal: &Callback<()>) -> Html {
    let (Some(level_edge), Some(lanes)) = (&shown.level_edge, &shown.lanes) else {
        return Html::default();
    };
    let conclusion = if shown.conclusion_hidden {
        html! {
            <div class="conclusion-hidden">
                <p>{ "Predict first: at which moment do the two worlds part, and what does each have at the end? \
                      Step through the run to check." }</p>
                <button type="button" onclick={on_reveal.reform(|_| ())}>
                    { "Show the conclusion" }
                </button>
            </div>
        }
    } else {
        conclusion_view(level_edge)
    };
    html! {
        <>
            { lanes_view(level_edge, lanes, shown.cursor) }
            { conclusion }
        </>
    }
}

fn lane_cells(cells: &[Option<SyncState>], cursor: usize) -> Html {
    cells
        .iter()
        .enumerate()
        .map(|(position, state)| {
            let (symbol, words, class) = cell_text(*state);
            html! {
                <td class={classes!("lane-cell", class, (position == cursor).then_some("at-cursor"))}>
                    if !symbol.is_empty() {
                        <span aria-hidden="true">{ symbol }{ " " }</span>
                    }
                    { words }
                </td>
            }
        })
        .collect()
}

fn column_head(level_edge: &LevelEdge, column: &LaneColumn, cursor: usize) -> Html {
    let current = column.position == cursor;
    let hearing = column.edge.as_ref().map(|heard| {
        let did = if heard.missed {
            "nobody was listening: the controller was down".to_owned()
        } else if heard.did.is_empty() {
            "the handler did nothing".to_owned()
        } else {
            format!("the handler: {}", heard.did.join("; "))
        };
        html! {
            <span class={classes!("hearing", heard.missed.then_some("missed"))}>
                <span class="arrow" aria-hidden="true">{ if heard.missed { "⇢ ✗" } else { "→" } }</span>
                { " " }{ if heard.missed { "missed: " } else { "heard: " } }{ &heard.event }{ ". " }{ did }
            </span>
        }
    });
    html! {
        <th scope="col" class={classes!("lane-head", current.then_some("at-cursor"), column.diverged.then_some("diverged"))}
            aria-current={current.then_some("step")}>
            <span class="lane-moment">{ column_label(&level_edge.level, column.moment) }</span>
            if column.diverged {
                <span class="lane-diverged">{ " ≠ the worlds differ" }</span>
            }
            { hearing.unwrap_or_default() }
        </th>
    }
}

fn lanes_view(level_edge: &LevelEdge, lanes: &Lanes, cursor: usize) -> Html {
    let hidden = lanes.objects.len().saturating_sub(OBJECTS_SHOWN);
    let last = lanes
        .columns
        .last()
        .map_or_else(String::new, |c| column_label(&level_edge.level, c.moment));
    html! {
        <div class="lanes-wrap">
            <p class="lanes-caption">
                { format!("Both worlds, object by object, from the start up to {last}. \
                           Step, Play and Run move them on with the simulation; a shaded cell is an object missing from its world.") }
            </p>
            <div class="lanes-scroll" tabindex="0" role="region" aria-label="Level and edge lanes">
                <table class="lanes" aria-label="Level versus edge, object by object">
                    <thead><tr>
                        <th scope="col">{ "Object" }</th><th scope="col">{ "World" }</th>
                        { for lanes.columns.iter().map(|column| column_head(level_edge, column, cursor)) }
                    </tr></thead>
                    <tbody>
                        { for lanes.objects.iter().take(OBJECTS_SHOWN).map(|object| html! {
                            <>
                                <tr class="edge-lane">
                                    <th scope="row" rowspan="2"><code>{ &object.name }</code></th>
                                    <td class="lane-name">{ "edge" }</td>
                                    { lane_cells(&object.edge, cursor) }
                                </tr>
                                <tr class="level-lane">
                                    <td class="lane-name">{ "level" }</td>
                                    { lane_cells(&object.level, cursor) }
                                </tr>
                            </>
                        }) }
                    </tbody>
                </table>
            </div>
            if hidden > 0 {
                <p class="muted small">{ format!("…and {hidden} more objects.") }</p>
            }
        </div>
    }
}

fn conclusion_view(level_edge: &LevelEdge) -> Html {
    let divergence = match level_edge.first_divergence {
        Some(step) => format!(
            "They first diverge at step {step}: {}.",
            level_edge.steps.get(step).map_or("", |s| s.event.as_str())
        ),
        None => "They agree at every step.".to_owned(),
    };
    let edge_wrong: Vec<String> = level_edge
        .edge_final
        .iter()
        .filter(|s| s.state != SyncState::InSync)
        .map(|s| format!("{} is {}", s.name, s.state.label()))
        .collect();
    let level_wrong = level_edge
        .level_final
        .iter()
        .filter(|s| s.state != SyncState::InSync)
        .count();
    let level = &level_edge.level;
    html! {
        <>
            <p class="divergence" role="status">{ divergence }</p>
            <p class="final-difference">
                { if edge_wrong.is_empty() {
                    "In the end the edge-triggered world is in sync too.".to_owned()
                } else {
                    format!("In the end, edge-triggered: {}. Level-triggered: {} out of sync ({}).",
                        edge_wrong.join(", "), level_wrong, level.verdict)
                } }
            </p>
            <details class="whole-trace">
                <summary>{ "The whole trace at once" }</summary>
                <table class="edge-table" aria-label="Level versus edge">
                    <thead><tr>
                        <th scope="col">{ "Step" }</th><th scope="col">{ "Event" }</th>
                        <th scope="col">{ "Edge-triggered handler did" }</th>
                        <th scope="col">{ "Edge world" }</th><th scope="col">{ "Level world then" }</th>
                    </tr></thead>
                    <tbody>
                        { for level_edge.steps.iter().enumerate().map(|(i, step)| {
                            let first = level_edge.first_divergence == Some(i);
                            let did = if step.missed {
                                "nothing: the controller was down".to_owned()
                            } else if step.edge_actions.is_empty() {
                                "nothing".to_owned()
                            } else {
                                step.edge_actions.iter().map(|(a, r)| format!("{} {}: {r}", a.kind, a.name)).collect::<Vec<_>>().join("; ")
                            };
                            // The store at the step's own moment: right after an
                            // event, before any pass reacted to it.
                            let level_world = level.world_at(step.moment);
                            html! {
                                <tr class={classes!(step.diverged.then_some("diverged"), first.then_some("first-divergence"))}>
                                    <th scope="row">{ i }{ if first { " ⚠ diverges here" } else if step.diverged { " ≠" } else { "" } }</th>
                                    <td>{ &step.event }{ if step.missed { " (missed: the controller was down)" } else { "" } }</td>
                                    <td>{ did }</td>
                                    <td>{ names(step.edge_world.observed.names()) }</td>
                                    <td>{ names(level_world.observed.names()) }</td>
                                </tr>
                            }
                        }) }
                    </tbody>
                </table>
            </details>
        </>
    }
}

/// The objects of a world, one per line.
fn names<'a>(names: impl Iterator<Item = &'a str>) -> Html {
    let names: Vec<&str> = names.collect();
    if names.is_empty() {
        return html! { <span class="muted">{ "nothing" }</span> };
    }
    html! {
        <ul class="world-names">
            { for names.iter().map(|name| html! { <li><code>{ *name }</code></li> }) }
        </ul>
    }
}

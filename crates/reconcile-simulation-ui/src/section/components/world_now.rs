//! "World now": the store at the simulation's cursor, beside the editors'
//! starting scenario, with what changed since the start marked in words and
//! a symbol (never colour alone).

use reconcile_sim::{world_rows, EventMoment, ObjectChange, WorldRow};
use yew::prelude::*;

use crate::section::state::SectionRun;

/// Rows shown at most; the rest are counted.
const ROW_LIMIT: usize = 100;

fn mark(change: ObjectChange) -> (&'static str, &'static str) {
    match change {
        ObjectChange::Unchanged => ("", "change-unchanged"),
        ObjectChange::Added => ("+", "change-added"),
        ObjectChange::Changed => ("~", "change-changed"),
        ObjectChange::Removed => ("−", "change-removed"),
        ObjectChange::Terminating => ("◐", "change-terminating"),
    }
}

/// `moment` names the cursor ("after pass 2"); `rows` come from reconcile-sim.
fn world_now(moment: &str, rows: &[WorldRow]) -> Html {
    let changed = rows
        .iter()
        .filter(|row| row.change != ObjectChange::Unchanged)
        .count();
    let hidden = rows.len().saturating_sub(ROW_LIMIT);
    html! {
        <section class="pane world-now" aria-labelledby="world-now-heading">
            <header class="pane-header">
                <h2 id="world-now-heading">{ format!("World now — {moment}") }</h2>
            </header>
            <p class="muted small">
                { format!("The cluster at the simulation's cursor: {changed} change(s) since the start. \
                           The editors keep the starting scenario.") }
            </p>
            <table class="world-table" aria-label="World now">
                <thead><tr>
                    <th scope="col">{ "Object" }</th><th scope="col">{ "Since the start" }</th>
                    <th scope="col">{ "Spec" }</th><th scope="col">{ "Finalizers" }</th>
                </tr></thead>
                <tbody>
                    // Collected into one keyed list (see the status grid).
                    { rows.iter().take(ROW_LIMIT).map(|row| {
                        let (symbol, class) = mark(row.change);
                        html! {
                            <tr key={row.name.clone()} class={class}>
                                <th scope="row"><code>{ &row.name }</code></th>
                                <td class="change">
                                    if !symbol.is_empty() {
                                        <span aria-hidden="true">{ symbol }{ " " }</span>
                                    }
                                    { row.change.label() }
                                </td>
                                <td><code>{ row.spec.to_string() }</code></td>
                                <td>{ row.finalizers.join(", ") }</td>
                            </tr>
                        }
                    }).collect::<Html>() }
                    if hidden > 0 {
                        <tr><td colspan="4">{ format!("…and {hidden} more objects.") }</td></tr>
                    }
                </tbody>
            </table>
        </section>
    }
}

/// The page's empty element in the scenario column that World now goes into.
pub const WORLD_NOW_HOST: &str = "world-now-host";

/// World now at the cursor (at its event, stepping by event), rendered
/// into the page's `#world-now-host` (a portal of the section's app, so it
/// shares its run); nothing when the page has no such element.
pub fn world_now_portal(run: &SectionRun, position: usize, at_event: Option<&EventMoment>) -> Html {
    let Some(host) = gloo::utils::document().get_element_by_id(WORLD_NOW_HOST) else {
        return Html::default();
    };
    let timeline = &run.timeline;
    let (moment, rows) = match at_event {
        Some(at_event) => (
            format!("at {}", at_event.describe()),
            world_rows(&timeline.initial, &at_event.store),
        ),
        None => {
            let moment = run.moment_at(position);
            let at = format!("after {}", timeline.describe_moment(moment));
            (at, timeline.world_rows_at(moment))
        }
    };
    create_portal(world_now(&moment, &rows), host)
}
